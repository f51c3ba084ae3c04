//! The binding of the bones' matrix product in SH-2 assembly (`matrix.S`, beside this
//! file): each cell a multiply-accumulate over a row and a column, about three times as fast
//! as the code generator's version of the Rust product (`compose_reference`), which stays
//! the reference (`asm_tests` compares the two on the emulated Saturns: the routine writes
//! SR, which qemu's user mode forbids).

use crate::math::Matrix;

extern "C" {
    fn jom_compose(parent: *const Matrix, local_columns: *const [[i32; 3]; 4], out: *mut Matrix);
}

/// `parent * local` into `out` (`out` may not be either of them: the borrows say so).
pub(crate) fn compose(parent: &Matrix, local: &Matrix, out: &mut Matrix) {
    let l = &local.0;
    let columns = [
        [l[0][0], l[1][0], l[2][0]],
        [l[0][1], l[1][1], l[2][1]],
        [l[0][2], l[1][2], l[2][2]],
        [l[0][3], l[1][3], l[2][3]],
    ];
    // SAFETY: the routine reads the 12 words of `parent` and of `columns` and writes the
    // 12 words of `out`, all borrowed here (`Matrix` is 48 bytes of rows: rt/layout.inc,
    // checked by `asm_layout`); it saves the registers the ABI asks.
    unsafe { jom_compose(parent, &columns, out) };
}
