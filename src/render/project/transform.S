/* The inner loop of the transform on a Saturn: each point of a run through one 3x4 Q16.16
 * matrix into camera space, then projected, with the SH-2's multiply-accumulate (mac.l: the
 * 32 x 32 -> 64-bit products summed in MACH:MACL) and its division unit started as soon as
 * the depth is known, read after x and y are done. The Rust version,
 * `transform_points_reference` (render/project/mod.rs), is the reference: `asm_tests`
 * runs both on the same points and compares every field, on the emulated Saturns (qemu has
 * no division unit, and SR is privileged in its user mode).
 *
 * void jom_transform_points(const Matrix *matrix, const Vector *points, ViewPoint *out,
 *                           uint32_t count, const Projection *projection);
 *   count > 0; the layouts in rt/layout.inc.
 * Arguments in r4-r7 and on the stack (the fifth); r8-r14, MACH and MACL are saved. */
#include "abi.inc"
#include "layout.inc"

/* The matrix's rows are read by dot3 (x, y, z in a row, then the translation), the points
 * by dot3 too (x, y, z one after the other). */
    .if     VECTOR_X <> 0 || VECTOR_Y <> 4 || VECTOR_Z <> 8
    .error  "transform.S reads a Vector as x, y, z words one after the other"
    .endif
/* The division unit's registers (hw::divu). */
    .equ    DIVU_ADDRESS, 0xFFFFFF00

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
    mov.l   @(PROJECTION_FOCAL_LENGTH,r3), r11  /* r11 = focal length (the dividend's high word) */
    mov.l   @(PROJECTION_MIN_DEPTH,r3), r9      /* r9 = smallest depth */
    mov.l   .Ldivu, r10         /* r10 = the division unit's registers */
    mov.w   .Llimit, r12        /* r12 = 2047: screen coordinates stay within +-2047 */
.Lpoint:
    /* depth = (m20 x + m21 y + m22 z) >> 16 + t2 (each translation loaded well before its
     * use: a loaded register used at once costs a cycle more) */
    mov.l   @(2*MATRIX_ROW_BYTES+MATRIX_TRANSLATION,r4), r14
    mov     r4, r1
    add     #2*MATRIX_ROW_BYTES, r1
    mov     r5, r2
    dot3    r2, r1, r3
    add     r14, r3             /* r3 = depth */
    mov     r3, r0
    cmp/ge  r9, r0              /* T = depth >= smallest (the rare case out of line: a taken */
    bf      .Lnearest           /* branch costs more than one that falls through) */
.Ldivide:
    /* scale = (focal << 32) / depth: started now, read after x and y */
    mov.l   r0, @(DIVU_REGISTERS_DVSR,r10)
    mov     #0, r2
    mov.l   r11, @(DIVU_REGISTERS_DVDNTH,r10)   /* = focal */
    mov.l   r2, @(DIVU_REGISTERS_DVDNTL,r10)    /* = 0: the division starts */
    /* x = (m00 x + m01 y + m02 z) >> 16 + t0 */
    mov.l   @(MATRIX_TRANSLATION,r4), r8
    mov     r4, r1
    mov     r5, r2
    dot3    r2, r1, r13
    add     r8, r13             /* r13 = x */
    /* y = (m10 x + m11 y + m12 z) >> 16 + t1 */
    mov.l   @(MATRIX_ROW_BYTES+MATRIX_TRANSLATION,r4), r8
    add     #MATRIX_CELL_BYTES, r1  /* past t0, to row 1 */
    mov     r5, r2
    dot3    r2, r1, r14
    add     r8, r14             /* r14 = y */
    mov.l   r13, @(VIEW_POINT_X,r6) /* the camera-space point */
    mov.l   r14, @(VIEW_POINT_Y,r6)
    mov.l   r3, @(VIEW_POINT_Z,r6)
    mov.l   @(DIVU_REGISTERS_DVDNTL,r10), r8    /* r8 = scale (waits for the unit) */
    neg     r12, r1             /* r1 = -2047 */
    screen_axis r13, VIEW_POINT_SCREEN_X, .Lx_high, .Lx_low, .Lx_done
    screen_axis r14, VIEW_POINT_SCREEN_Y, .Ly_high, .Ly_low, .Ly_done
    add     #VECTOR_SIZEOF, r5
    dt      r7
    bf/s    .Lpoint
    add     #VIEW_POINT_SIZEOF, r6  /* delay slot */
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
.Ldivu:     .long   DIVU_ADDRESS
