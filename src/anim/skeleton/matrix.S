/* Matrix products for the skeleton's bones on a Saturn, in SH-2 assembly: the
 * multiply-accumulate (mac.l) reads a row of one matrix and a column of the other from
 * memory, so the second matrix comes by columns. The Rust version (`compose_reference`,
 * anim/skeleton/mod.rs) is the reference: `asm_tests` compares the two on the emulated
 * Saturns (the routine writes SR, which qemu's user mode forbids).
 *
 * void jom_compose(const Matrix *parent, const int32_t local_columns[4][3], Matrix *out);
 *   parent and out: 3 x 4 Q16.16 matrices by rows (a rotation, then a translation; the
 *   layout in rt/layout.inc); local_columns: the local matrix by columns (its 3 rotation
 *   columns, then its translation), read one word after the other.
 *   out = parent * local: out[r][c] = (parent[r] . column c) >> 16, plus parent[r][3] in
 *   the translation column.
 * MACH and MACL are saved. */
#include "abi.inc"
#include "layout.inc"

/* r3 = row r4 . the column at r2 (r2 moves on to the next column, r1 ends at the row's
 * fourth word) */
    .macro  cell
    mov     r4, r1
    dot3    r1, r2, r3
    .endm

    .text
    .align  2
    .global _jom_compose
_jom_compose:
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    full_multiply_accumulate
    mov     #3, r7              /* rows */
.Lrow:
    mov     r5, r2              /* the columns, one after the other */
    cell
    mov.l   r3, @r6
    cell
    mov.l   r3, @(MATRIX_CELL_BYTES,r6)
    cell
    mov.l   r3, @(2*MATRIX_CELL_BYTES,r6)
    cell
    mov.l   @r1, r0             /* parent[r][3]: r1 stopped there */
    add     r0, r3
    mov.l   r3, @(MATRIX_TRANSLATION,r6)
    add     #MATRIX_ROW_BYTES, r4
    dt      r7
    bf/s    .Lrow
    add     #MATRIX_ROW_BYTES, r6   /* delay slot */
    lds.l   @r15+, macl
    rts
    lds.l   @r15+, mach         /* delay slot */
