//! The binding of the transform's inner loop in SH-2 assembly (`transform.S`, beside this
//! file): multiply-accumulate and the division unit started early, about twice as fast as
//! the code generator's version of the Rust loop (`transform_points_reference`), which stays
//! the reference (`asm_tests` compares the two on the emulated Saturns: qemu has no
//! division unit).

use super::projection::Projection;
use crate::format::Vector;
use crate::math::Matrix;
use crate::render::shared::ViewPoint;
use crate::vdp1::Point;

extern "C" {
    fn jom_transform_points(
        matrix: *const Matrix,
        points: *const Vector,
        out: *mut ViewPoint,
        count: u32,
        projection: *const Projection,
    );
    fn jom_transform_points_screens(
        matrix: *const Matrix,
        points: *const Vector,
        out: *mut ViewPoint,
        count: u32,
        projection: *const Projection,
        screens: *mut Point,
    );
}

/// Transforms `points` by `matrix` into camera space and projects them into `out`, and
/// their screen positions also into `screens` when given, as many as all hold.
pub(crate) fn transform_points(
    matrix: &Matrix,
    projection: &Projection,
    points: &[Vector],
    out: &mut [ViewPoint],
    screens: Option<&mut [Point]>,
) {
    let count = points.len().min(out.len());
    let count = screens.as_ref().map_or(count, |s| count.min(s.len()));
    if count == 0 {
        return;
    }
    // SAFETY: either form reads `matrix`, `count` points and `projection`, and writes
    // `count` view points (and `count` screen positions), all within the borrows (their
    // layouts: rt/layout.inc, checked by `asm_layout`); it touches only the division unit
    // besides, and saves the registers the ABI asks.
    unsafe {
        let (matrix, points, out) = (matrix as *const Matrix, points.as_ptr(), out.as_mut_ptr());
        match screens {
            Some(screens) => jom_transform_points_screens(
                matrix,
                points,
                out,
                count as u32,
                projection,
                screens.as_mut_ptr(),
            ),
            None => jom_transform_points(matrix, points, out, count as u32, projection),
        }
    }
}
