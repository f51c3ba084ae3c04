/* Start-up of a program linked with `jom`: the stack after .bss in high work RAM, .bss
 * cleared, then `main` (which never returns). Entered at `_start`, the first bytes of
 * .text, where the BIOS (from IP.BIN) or a loader jumps. Nothing privileged here: the
 * same start-up runs the SH-2 tests in qemu's user mode. */
    .section .text.start, "ax"
    .align  2
    .global _start
_start:
    mov.l   .Lstack_top, r15
    mov.l   .Lbss_start, r0
    mov.l   .Lbss_end, r1
    mov     #0, r2
.Lclear:
    cmp/hs  r1, r0              /* T = r0 >= r1: .bss is cleared */
    bt      .Lcall_main
    mov.l   r2, @r0
    bra     .Lclear
    add     #4, r0              /* delay slot */
.Lcall_main:
    mov.l   .Lmain, r0
    jsr     @r0
    nop
.Lhalt:
    bra     .Lhalt
    nop

    .align  2
.Lstack_top:    .long   __stack_top
.Lbss_start:    .long   __bss_start
.Lbss_end:      .long   __bss_end
.Lmain:         .long   _main

/* The slave SH-2's entry (`hw::slave`: its address goes to 0x06000250, where a BIOS or
 * our boot ROM sends the slave when the SMPC starts it): its own stack, then
 * `jom_slave_main` (which never returns). Interrupts stay masked from its reset. */
    .text
    .align  2
    .global _jom_slave_start
_jom_slave_start:
    mov.l   .Lslave_stack_top, r15
    mov.l   .Lslave_main, r0
    jmp     @r0
    nop

    .align  2
.Lslave_stack_top: .long  __slave_stack_top
.Lslave_main:   .long   _jom_slave_main

/* The slave's stack top, for the BIOS work area's slave stack word (`hw::slave`). */
    .section .rodata
    .align  2
    .global _jom_slave_stack_top
_jom_slave_stack_top: .long __slave_stack_top
