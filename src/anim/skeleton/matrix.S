/* Matrix products for the skeleton's bones on a Saturn, in SH-2 assembly: the
 * multiply-accumulate (mac.l) reads a row of one matrix and a column of the other from
 * memory, so the second matrix comes by columns. The Rust version
 * (`anim::skeleton::compose`) is the reference: a test compares the two on the emulated
 * Saturns.
 *
 * void jom_compose(const int32_t parent[12], const int32_t local_columns[12],
 *                  int32_t out[12]);
 *   parent and out: 3 x 4 Q16.16 matrices by rows (a rotation, then a translation);
 *   local_columns: the local matrix by columns (its 3 rotation columns, then its
 *   translation). out = parent * local: out[r][c] = (parent[r] . column c) >> 16, plus
 *   parent[r][3] in the translation column.
 * MACH and MACL are saved. */
#include "abi.inc"

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
    mov.l   r3, @(4,r6)
    cell
    mov.l   r3, @(8,r6)
    cell
    mov.l   @r1, r0             /* parent[r][3]: r1 stopped there */
    add     r0, r3
    mov.l   r3, @(12,r6)
    add     #16, r4
    dt      r7
    bf/s    .Lrow
    add     #16, r6             /* delay slot */
    lds.l   @r15+, macl
    rts
    lds.l   @r15+, mach         /* delay slot */
