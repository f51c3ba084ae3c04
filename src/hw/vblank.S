/* The master SH-2's VBlank-IN interrupt (`hw::vblank`): every register the SH ABI lets a
 * function change saved (SR and PC the CPU saved), the SCU's VBlank-IN flag cleared (write
 * 0 to clear, 1 to keep: no other flag touched) and the field counted, with nothing
 * between them, the handler `hw::vblank::enable` set called, VBlank-IN unmasked again in
 * IMS (the SCU masks every interrupt when the CPU fetches its vector: Mednafen's
 * `scu.inc`, `SCU_MSH2VectorFetch`), then back. */

    .text
    .align  2
    .global _jom_vblank_in_interrupt
_jom_vblank_in_interrupt:
    mov.l   r0, @-r15
    mov.l   r1, @-r15
    mov.l   r2, @-r15
    mov.l   r3, @-r15
    mov.l   r4, @-r15
    mov.l   r5, @-r15
    mov.l   r6, @-r15
    mov.l   r7, @-r15
    sts.l   pr, @-r15
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    stc.l   gbr, @-r15
    mov.l   .List, r0
    mov     #-2, r1             /* ~1: VBlank-IN's flag cleared, the others kept (first, */
    mov.l   r1, @r0             /* so that the SCU's request has ended by the RTE) */
    mov.l   .Lfields, r0        /* one more field: the flag cleared, the count up, in one */
    mov.l   @r0, r1             /* interrupt (`hw::vblank::fields` adds a flag still set) */
    add     #1, r1
    mov.l   r1, @r0
    mov.l   .Lhandler, r0
    mov.l   @r0, r0
    jsr     @r0
    nop
    mov.l   .Lims, r0           /* the SCU masks every interrupt when it gives a vector: */
    mov.l   .Lims_vblank_in, r1 /* VBlank-IN unmasked again, for the next field */
    mov.l   r1, @r0
    ldc.l   @r15+, gbr
    lds.l   @r15+, macl
    lds.l   @r15+, mach
    lds.l   @r15+, pr
    mov.l   @r15+, r7
    mov.l   @r15+, r6
    mov.l   @r15+, r5
    mov.l   @r15+, r4
    mov.l   @r15+, r3
    mov.l   @r15+, r2
    mov.l   @r15+, r1
    mov.l   @r15+, r0
    rte                         /* pops PC and SR: the delay slot leaves R15 alone */
    nop

    .align  2
.Lhandler:  .long   _jom_vblank_in_handler
.Lfields:   .long   _jom_vblank_fields
.List:      .long   0x25FE00A4  /* the SCU's IST */
.Lims:      .long   0x25FE00A0  /* the SCU's IMS */
.Lims_vblank_in: .long 0x0000BFFE /* every interrupt masked but VBlank-IN (ims::VBLANK_IN) */

/* uint32_t jom_vbr(void): VBR. */
    .align  2
    .global _jom_vbr
_jom_vbr:
    rts
    stc     vbr, r0             /* delay slot */

/* uint32_t jom_swap_sr(uint32_t sr): SR = sr; gives the SR before. */
    .align  2
    .global _jom_swap_sr
_jom_swap_sr:
    stc     sr, r0
    rts
    ldc     r4, sr              /* delay slot */

    .section .bss
    .align  2
/* The handler's address: set before the interrupt is unmasked. */
    .global _jom_vblank_in_handler
_jom_vblank_in_handler:
    .space  4
/* The VBlank-INs the interrupt has counted (wrapping). */
    .global _jom_vblank_fields
_jom_vblank_fields:
    .space  4
