/* The master SH-2's exception vectors while the SMPC changes the system clock
 * (`hw::smpc::change_clock`): the change ends with an NMI to the master (Mednafen's and
 * Yabause's SMPC send it too), which the vectors of the BIOS or of our boot ROM do not
 * return from (the boot ROM's stop there). Vectors 0 to 10 (resets, illegal instructions,
 * address errors) stop; vector 11, the NMI, says it came and returns. Nothing else is
 * enabled meanwhile: SR masks every interrupt (`change_clock`). */

    .section .rodata
    .align  2
    .global _jom_clock_change_vectors
_jom_clock_change_vectors:
    .rept   11
    .long   _jom_clock_change_stop
    .endr
    .long   _jom_clock_change_nmi

    .text
    .align  2
/* An exception other than the NMI: stop here (a debugger shows where). */
_jom_clock_change_stop:
    bra     _jom_clock_change_stop
    nop

/* The NMI: jom_clock_change_nmis += 1, every register as it was. */
    .align  2
_jom_clock_change_nmi:
    mov.l   r0, @-r15
    mov.l   r1, @-r15
    mov.l   .Lnmis, r0
    mov.l   @r0, r1
    add     #1, r1
    mov.l   r1, @r0
    mov.l   @r15+, r1
    mov.l   @r15+, r0
    rte
    nop

    .align  2
.Lnmis: .long   _jom_clock_change_nmis

/* uint32_t jom_swap_vbr(uint32_t vbr): VBR = vbr; gives the VBR before. */
    .align  2
    .global _jom_swap_vbr
_jom_swap_vbr:
    stc     vbr, r0
    rts
    ldc     r4, vbr             /* delay slot */

    .section .bss
    .align  2
    .global _jom_clock_change_nmis
_jom_clock_change_nmis:
    .space  4
