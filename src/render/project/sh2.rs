//! The binding of the transform's inner loop in SH-2 assembly (`transform.S`, beside this
//! file): multiply-accumulate and the division unit started early, about twice as fast as
//! the code generator's version of the Rust loop (`transform_points_reference`), which stays
//! the reference (`asm_tests` compares the two on the emulated Saturns: qemu has no
//! division unit).

use crate::format::Vector;
use crate::math::Matrix;
use crate::render::{Projection, ViewPoint};

extern "C" {
    fn jom_transform_points(
        matrix: *const Matrix,
        points: *const Vector,
        out: *mut ViewPoint,
        count: u32,
        projection: *const Projection,
    );
}

/// Transforms `points` by `matrix` into camera space and projects them into `out`, as many
/// as both hold.
pub(crate) fn transform_points(
    matrix: &Matrix,
    projection: &Projection,
    points: &[Vector],
    out: &mut [ViewPoint],
) {
    let count = points.len().min(out.len());
    if count == 0 {
        return;
    }
    // SAFETY: the routine reads `matrix`, `count` points and `projection`, and writes
    // `count` view points, all within the borrows (their layouts: rt/layout.inc, checked by
    // `asm_layout`); it touches only the division unit besides, and saves the registers
    // the ABI asks.
    unsafe {
        jom_transform_points(
            matrix,
            points.as_ptr(),
            out.as_mut_ptr(),
            count as u32,
            projection,
        );
    }
}
