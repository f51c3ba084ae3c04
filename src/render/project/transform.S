/* The inner loop of `draw`'s transform on a Saturn: each point of a run through one 3x4
 * Q16.16 matrix into camera space, then projected, with the SH-2's multiply-accumulate
 * (mac.l: the 32 x 32 -> 64-bit products summed in MACH:MACL) and its division unit
 * started as soon as the depth is known, read after x and y are done. The Rust version,
 * `render::draw::transform_points`, is the reference: a hardware test runs both on the
 * same points and compares every field (sh2-test, in Yabause and in Mednafen).
 *
 * void jom_transform_points(const int32_t matrix[12], const int32_t *points,
 *                           ViewPoint *out, uint32_t count, const int32_t projection[2]);
 *   matrix: rows of (m0, m1, m2, t); points: (x, y, z) each; out: 16 bytes each, the
 *   camera-space x, y, z (int32) then the screen x, y (int16); count > 0;
 *   projection: focal length, smallest depth divided by.
 * Arguments in r4-r7 and on the stack (the fifth); r8-r14, MACH and MACL are saved. */
#include "abi.inc"

/* The screen coordinate (\view * scale) >> 32 (scale in r8), kept within +-2047 (r12, r1),
 * stored at \at(r6); past either limit the loop goes out of line to \high or \low, which
 * come back to \done with the limit. */
    .macro  screen_axis view, at, high, low, done
    dmuls.l r8, \view
    sts     mach, r0
    cmp/gt  r12, r0
    bt      \high
    cmp/ge  r1, r0
    bf      \low
\done:
    mov.w   r0, @(\at,r6)
    .endm

    .text
    .align  2
    .global _jom_transform_points
_jom_transform_points:
    mov.l   @r15, r3            /* the fifth argument, before the saves move r15 */
    save_callee_saved
    full_multiply_accumulate
    mov.l   @r3, r11            /* r11 = focal length (the dividend's high word) */
    mov.l   @(4,r3), r9         /* r9 = smallest depth */
    mov.l   .Ldivu, r10         /* r10 = DVSR; DVDNTH at +16, DVDNTL at +20 */
    mov.w   .Llimit, r12        /* r12 = 2047: screen coordinates stay within +-2047 */
.Lpoint:
    /* depth = (m20 x + m21 y + m22 z) >> 16 + t2 (each translation loaded well before its
     * use: a loaded register used at once costs a cycle more) */
    mov.l   @(44,r4), r14
    mov     r4, r1
    add     #32, r1
    mov     r5, r2
    dot3    r2, r1, r3
    add     r14, r3             /* r3 = depth */
    mov     r3, r0
    cmp/ge  r9, r0              /* T = depth >= smallest (the rare case out of line: a taken */
    bf      .Lnearest           /* branch costs more than one that falls through) */
.Ldivide:
    /* scale = (focal << 32) / depth: started now, read after x and y */
    mov.l   r0, @r10            /* DVSR */
    mov     #0, r2
    mov.l   r11, @(16,r10)      /* DVDNTH = focal */
    mov.l   r2, @(20,r10)       /* DVDNTL = 0: the division starts */
    /* x = (m00 x + m01 y + m02 z) >> 16 + t0 */
    mov.l   @(12,r4), r8
    mov     r4, r1
    mov     r5, r2
    dot3    r2, r1, r13
    add     r8, r13             /* r13 = x */
    /* y = (m10 x + m11 y + m12 z) >> 16 + t1 */
    mov.l   @(28,r4), r8
    add     #4, r1              /* past t0, to row 1 */
    mov     r5, r2
    dot3    r2, r1, r14
    add     r8, r14             /* r14 = y */
    mov.l   r13, @r6            /* the camera-space point */
    mov.l   r14, @(4,r6)
    mov.l   r3, @(8,r6)
    mov.l   @(20,r10), r8       /* r8 = scale (waits for the division unit) */
    neg     r12, r1             /* r1 = -2047 */
    screen_axis r13, 12, .Lx_high, .Lx_low, .Lx_done
    screen_axis r14, 14, .Ly_high, .Ly_low, .Ly_done
    add     #12, r5
    dt      r7
    bf/s    .Lpoint
    add     #16, r6             /* delay slot */
    restore_callee_saved_and_return

/* The rare cases, out of the loop's straight line: a depth nearer than the smallest, a
 * screen coordinate past 2047 either way. */
.Lnearest:
    bra     .Ldivide
    mov     r9, r0              /* delay slot */
.Lx_high:
    bra     .Lx_done
    mov     r12, r0             /* delay slot */
.Lx_low:
    bra     .Lx_done
    mov     r1, r0              /* delay slot */
.Ly_high:
    bra     .Ly_done
    mov     r12, r0             /* delay slot */
.Ly_low:
    bra     .Ly_done
    mov     r1, r0              /* delay slot */

.Llimit:    .word   2047
    .align  2
.Ldivu:     .long   0xFFFFFF00
