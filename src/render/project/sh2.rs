//! The transform's inner loop in SH-2 assembly (`rt/transform.S`): multiply-accumulate
//! and the division unit started early, about twice as fast as the code generator's
//! version of [`render`](crate::render)'s Rust loop, which stays the reference (a
//! hardware test compares the two on the emulated Saturns).

use crate::format::Vector;
use crate::math::Matrix;
use crate::render::{Projection, ViewPoint};

extern "C" {
    fn jom_transform_points(
        matrix: *const Matrix,
        points: *const Vector,
        out: *mut ViewPoint,
        count: u32,
        projection: *const [i32; 2],
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
    let projection = [projection.focal_length(), projection.min_depth()];
    // SAFETY: the routine reads 12 words of `matrix`, `count` 12-byte points and the two
    // words of `projection`, and writes `count` 16-byte view points, all within the
    // borrows (the layouts are asserted beside `Matrix`, `Vector` and `ViewPoint`); it
    // touches only the division unit besides, and saves the registers the ABI asks.
    unsafe {
        jom_transform_points(
            matrix,
            points.as_ptr(),
            out.as_mut_ptr(),
            count as u32,
            &projection,
        );
    }
}
