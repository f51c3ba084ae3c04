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

    .text
    .align  2
    .global _jom_compose
_jom_compose:
    sts.l   mach, @-r15
    sts.l   macl, @-r15
    full_multiply_accumulate
    compose_rows r7
    lds.l   @r15+, macl
    rts
    lds.l   @r15+, mach         /* delay slot */
