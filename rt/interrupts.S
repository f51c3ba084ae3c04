/* void jom_mask_interrupts(void): SR's interrupt mask to 15 (M, Q, S, T cleared), so that
 * no interrupt reaches a program that has installed no handler (`hw::mask_interrupts`).
 * Apart from crt0.S: libjom.a (ci/capi.sh) leaves the start-up out, a C program having its
 * own, but its `jom_saturn_init_display` masks interrupts through this. */
    .text
    .align  2
    .global _jom_mask_interrupts
_jom_mask_interrupts:
    mov.l   .Lsr_masked, r0
    rts
    ldc     r0, sr              /* delay slot */

    .align  2
.Lsr_masked:    .long   0x000000F0
