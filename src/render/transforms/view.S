/* What a draw needs of its matrices, in SH-2 assembly: the product of the model-view
 * matrix and a bone's (or of the camera's view and a rigid model's placement), how far a
 * factor or the product is from a rotation, and the product's eye by its transpose. The
 * Rust versions stay the reference (`view_product_reference` and `rigid_view_reference`,
 * render/transforms/mod.rs: `compose_reference`, `rotation_error` saturated to 32 bits and
 * `Eye::of_turn`); `asm_tests` compares each routine with its reference on the emulated
 * Saturns (the routines write SR, which qemu's user mode forbids).
 *
 * void jom_view_product(const Matrix *a, const int32_t b_columns[4][3], Matrix *out,
 *                       ViewProduct *result);
 *   a and out: 3 x 4 Q16.16 matrices by rows (rt/layout.inc); b_columns: the bone's matrix
 *   by columns (its 3 rotation columns, then its translation). out = a * b (each cell's
 *   64-bit sum wrapped, as `mac.l` sums: exact when the caller's bound says so).
 *   result (view_product.inc): the largest |ci . cj - δij| over b's columns c in Q32.32,
 *   saturated to 2^32 - 1; out's eye -Rᵀt (each component's sum >> 16 within ±(2^31 - 1),
 *   else none found) and whether out mirrors (the sign of one component of c0 x c1, where
 *   column 2 is largest, against that entry's).
 * void jom_rigid_view(const Matrix *a, const int32_t b_columns[4][3], Matrix *out,
 *                     ViewProduct *result);
 *   The same, but result's error is out's: a rigid draw's model-view matrix, whose
 *   distance from a rotation says how its eye and its bounding sphere are found.
 * r8-r11, MACH and MACL are saved. */
#include "abi.inc"
#include "layout.inc"
#include "view_product.inc"

/* MACH:MACL (r0:r3) = column \i . column \j of the matrix at \base: a column \column
 * bytes after the one before, its cells \skip + 4 bytes apart */
    .macro  columns base, column, skip, i, j
    mov     \base, r1
    add     #\column*\i, r1
    mov     \base, r2
    add     #\column*\j, r2
    clrmac
    mac.l   @r1+, @r2+
    .if     \skip
    add     #\skip, r1
    add     #\skip, r2
    .endif
    mac.l   @r1+, @r2+
    .if     \skip
    add     #\skip, r1
    add     #\skip, r2
    .endif
    mac.l   @r1+, @r2+
    sts     mach, r0
    sts     macl, r3
    .endm

/* The same of b (r5, by columns) */
    .macro  columns_of_b i, j
    columns r5, 12, 0, \i, \j
    .endm

/* The same of out (r8, by rows) */
    .macro  columns_of_out i, j
    columns r8, 4, MATRIX_ROW_BYTES-4, \i, \j
    .endm

/* r10 = max(r10, r3), unsigned */
    .macro  keep_largest
    cmp/hi  r10, r3
    bf      3f
    mov     r3, r10
3:
    .endm

/* r10 = max(r10, |column \i . itself - 2^32|), saturated, the columns by \by. The sum of
 * three squares is below 2^64: as an unsigned number it is exact (an entry of 2^18 or more
 * makes it 2^36 or more, saturated, as rotation_error says of such a matrix). */
    .macro  diagonal by, i
    \by    \i, \i
    dt      r0                  /* MACH 1: |n - 2^32| is MACL */
    bt      2f
    cmp/eq  #-1, r0             /* MACH 0: 2^32 - MACL */
    bf      1f
    neg     r3, r3
    tst     r3, r3
    bf      2f
1:
    mov     #-1, r3             /* 2^32 or more */
2:
    keep_largest
    .endm

/* r10 = max(r10, |column \i . column \j|), saturated, the columns by \by */
    .macro  across by, i, j
    \by    \i, \j
    tst     r0, r0              /* MACH 0: MACL */
    bt      2f
    cmp/eq  #-1, r0             /* MACH -1: 2^32 - MACL */
    bf      1f
    neg     r3, r3
    tst     r3, r3
    bf      2f
1:
    mov     #-1, r3
2:
    keep_largest
    .endm

/* r3 = -(column \k of out (r8) . out's translation column) >> 16; to .Lno_eye when the
 * shifted sum is not within ±(2^31 - 1) (r11 = 2^31) */
    .if     MATRIX_TRANSLATION <> 3*MATRIX_CELL_BYTES
    .error  "view.S reads out's translation as its column 3"
    .endif
    .macro  back k
    columns_of_out \k, 3
    exts.w  r0, r1              /* the sum >> 16 fits 32 bits: bits 47-63 alike */
    cmp/eq  r0, r1
    bf      .Lno_eye
    xtrct   r0, r3
    cmp/eq  r11, r3             /* -2^31: its negation is no i32 */
    bt      .Lno_eye
    neg     r3, r3
    .endm

/* \to = the row after \from, the first after the last (r9: past the last, r8: out) */
    .macro  next_row from, to
    mov     \from, \to
    add     #MATRIX_ROW_BYTES, \to
    cmp/eq  r9, \to
    bf      1f
    mov     r8, \to
1:
    .endm

/* r10 = the largest distance of a rotation's columns over those of \by (as rotation_error
 * says, saturated) */
    .macro  rotation_error by
    mov     #0, r10
    diagonal \by, 0
    diagonal \by, 1
    diagonal \by, 2
    across  \by, 0, 1
    across  \by, 1, 2
    across  \by, 2, 0
    .endm

/* out = a * b, with r8 = out (r8-r11, MACH and MACL saved first) */
    .macro  product
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    mov.l   r8, @-r15
    mov.l   r9, @-r15
    mov.l   r10, @-r15
    mov.l   r11, @-r15
    full_multiply_accumulate
    mov     r6, r8              /* out, kept */
    compose_rows r9
    .endm

/* \reg = |\reg| (unsigned: 2^31 for -2^31) */
    .macro  size_of reg
    cmp/pz  \reg
    bt      1f
    neg     \reg, \reg
1:
    .endm

    .text
    .align  2
    .global _jom_view_product
_jom_view_product:
    product
    /* How far b is from a rotation */
    rotation_error columns_of_b
    bra     .Lerror_stored
    mov.l   r10, @(VIEW_PRODUCT_ERROR,r7)   /* delay slot */

    .global _jom_rigid_view
_jom_rigid_view:
    product
    /* How far out is from a rotation */
    rotation_error columns_of_out
    mov.l   r10, @(VIEW_PRODUCT_ERROR,r7)
.Lerror_stored:

    /* out's eye by its transpose */
    mov     #1, r11
    rotr    r11                 /* 2^31 */
    mov     #0, r10             /* found: not yet */
    back    0
    mov.l   r3, @(VIEW_PRODUCT_EYE,r7)
    back    1
    mov.l   r3, @(VIEW_PRODUCT_EYE+4,r7)
    back    2
    mov.l   r3, @(VIEW_PRODUCT_EYE+8,r7)
    mov     #1, r10
.Lno_eye:
    mov.l   r10, @(VIEW_PRODUCT_FOUND,r7)

    /* r1 = row k, whose column-2 entry is largest in size (the last of equals) */
    mov.l   @(2*MATRIX_CELL_BYTES,r8), r0
    size_of r0
    mov     r8, r1
    mov.l   @(MATRIX_ROW_BYTES+2*MATRIX_CELL_BYTES,r8), r2
    size_of r2
    cmp/hs  r0, r2
    bf      1f
    mov     r2, r0
    mov     r8, r1
    add     #MATRIX_ROW_BYTES, r1
1:
    mov.l   @(2*MATRIX_ROW_BYTES+2*MATRIX_CELL_BYTES,r8), r2
    size_of r2
    cmp/hs  r0, r2
    bf      1f
    mov     r8, r1
    add     #2*MATRIX_ROW_BYTES, r1
1:
    /* r2, r3 = rows k + 1 and k + 2 (mod 3) */
    mov     r8, r9
    add     #MATRIX_SIZEOF, r9
    next_row r1, r2
    next_row r2, r3
    /* cross = r2[0] r3[1] - r3[0] r2[1] (exact in 64 bits): mirrored when its sign and
     * row k's column-2 entry's differ */
    mov.l   @r2, r0
    mov.l   @(MATRIX_CELL_BYTES,r3), r9
    dmuls.l r0, r9
    mov.l   @r3, r0
    mov.l   @(MATRIX_CELL_BYTES,r2), r9
    sts     mach, r10
    sts     macl, r11
    dmuls.l r0, r9
    sts     mach, r0
    sts     macl, r9
    clrt
    subc    r9, r11
    subc    r0, r10             /* the difference's high word */
    cmp/pz  r10
    movt    r0                  /* cross >= 0 */
    mov.l   @(2*MATRIX_CELL_BYTES,r1), r2
    cmp/pz  r2
    movt    r2                  /* the entry >= 0 */
    xor     r2, r0
    mov.l   r0, @(VIEW_PRODUCT_MIRRORED,r7)

    mov.l   @r15+, r11
    mov.l   @r15+, r10
    mov.l   @r15+, r9
    mov.l   @r15+, r8
    lds.l   @r15+, macl
    rts
    lds.l   @r15+, mach         /* delay slot */
