/* The common case of `draw`'s emission on a Saturn, in SH-2 assembly: sorted polygons of
 * one plain material (no gouraud table, no light, no mipmaps, never in parts) wholly in
 * front of the near plane, each a copy of the material's command with its corners. It
 * stops at a polygon of another material or one crossing the near plane (for the general
 * loop to go on) and when the list is full. The Rust version (`render::draw`,
 * `Frame::emit_plain_run`) is the reference: a test compares the two on the emulated
 * Saturns.
 *
 * void jom_emit_plain(EmitJob *job): the job's layout is `hw::emit::EmitJob`:
 *   0 the sort keys (the polygon's index in their low 16 bits), 4 how many, 8 polygon
 *   materials (u16 each), 12 the material, 16 polygons (20 bytes each: normal, then the
 *   corners as u16), 20 view points (16 bytes each: the screen position as a word at 12),
 *   24 near, 28/32/36 the command's first three words, 40 its last word, 44 the first
 *   free command table, 48 how many are free; written back: 52 the polygons emitted.
 * r8-r14, MACH and MACL are saved (rt/abi.inc). */
#include "abi.inc"

    .text
    .align  2
    .global _jom_emit_plain
_jom_emit_plain:
    save_callee_saved
    mov     r4, r14             /* r14 = the job */
    mov.l   @r14, r13           /* r13 = the next key */
    mov.l   @(4,r14), r12       /* r12 = keys left: the fewer of keys and free tables */
    mov.l   @(48,r14), r0
    cmp/hs  r0, r12
    bf      1f
    mov     r0, r12
1:  mov.l   @(8,r14), r10       /* r10 = polygon materials */
    mov.l   @(16,r14), r9       /* r9 = polygons */
    mov.l   @(20,r14), r8       /* r8 = view points */
    mov.l   @(44,r14), r11      /* r11 = the next command table */
    mov     #0, r7              /* r7 = emitted */
.Lnext:
    tst     r12, r12
    bt      .Lstop
    mov.l   @r13, r0            /* r6 = the polygon's index */
    extu.w  r0, r6
    mov     r6, r0              /* the same material */
    add     r0, r0
    mov.w   @(r0,r10), r0
    mov.l   @(12,r14), r1
    extu.w  r0, r0
    cmp/eq  r1, r0
    bf      .Lstop
    mov     r6, r5              /* r5 = the polygon: polygons + 20 * index */
    shll2   r5
    mov     r5, r0
    shll2   r0
    add     r0, r5
    add     r9, r5
    view_point 12, r5, r8, r1   /* r1-r4 = the view points of A, B, C, D */
    view_point 14, r5, r8, r2
    view_point 16, r5, r8, r3
    view_point 18, r5, r8, r4
    mov.l   @(24,r14), r5       /* every corner in front of the near plane */
    each_z  cmp/ge, r5, .Lstop, r1, r2, r3, r4
    mov.l   @(28,r14), r0       /* the command: the material's words, the corners */
    mov.l   r0, @r11
    mov.l   @(32,r14), r0
    mov.l   r0, @(4,r11)
    mov.l   @(36,r14), r0
    mov.l   r0, @(8,r11)
    mov.l   @(12,r1), r0
    mov.l   r0, @(12,r11)
    mov.l   @(12,r2), r0
    mov.l   r0, @(16,r11)
    mov.l   @(12,r3), r0
    mov.l   r0, @(20,r11)
    mov.l   @(12,r4), r0
    mov.l   r0, @(24,r11)
    mov.l   @(40,r14), r0
    mov.l   r0, @(28,r11)
    add     #32, r11
    add     #4, r13
    add     #1, r7
    bra     .Lnext
    add     #-1, r12            /* delay slot */
.Lstop:
    mov.l   r7, @(52,r14)
    restore_callee_saved_and_return
