//! What the renderer's integer arithmetic allows of a draw (docs/format.md, "Engine
//! limits"), checked once a frame (the camera) and once a draw (the matrices), so that the
//! loops over points and polygons, in Rust and in SH-2 assembly, need no checks: every
//! product and sum of the transform, culling, depth, clipping and lighting then fits its
//! integer type.
//!
//! The argument, for a model that loaded (its points within [`Model::reach`], at most
//! [`MAX_REACH`](crate::format::MAX_REACH), of its origin, normals of unit length within
//! [`NORMAL_TOLERANCE`](crate::format::NORMAL_TOLERANCE)):
//! - Transform: a camera-space coordinate is `row · p + t`. `check_transforms` asks
//!   `|row| x reach + |t| <= i32::MAX` of each row (Cauchy-Schwarz bounds `row · p` and its
//!   partial sums), so the 64-bit sum (below 2^47) and the 32-bit coordinate are exact.
//! - Depth, sort, screen: sums of quarters, min, max, 64-bit products of 32-bit values.
//! - Near-plane clipping: 64-bit differences (`render::on_near_plane`).
//! - Back faces in model space: `n · (p - eye)`. An eye is used only when `|eye| + reach`
//!   fits each axis in 32 bits (else the polygon is culled in camera space), so `p - eye`
//!   is exact; with `|n| <= 1 + 1/64` each product is below 2^48 and the sum of three fits
//!   the 64-bit accumulator (`mac.l` on the SH-2 does the same).
//! - Back faces and lighting in camera space: normals through a matrix whose rows are at
//!   most [`MAX_SCALE`] long (below 2^23 raw), times 32-bit coordinates: below 2^55 each.
//!   A stretched bone's cofactors (products of two rows) stay below 2^28 raw.

use super::transforms::Transforms;
use super::{Camera, DrawError};
use crate::format::Model;
use crate::math::{isqrt, Matrix, ONE};

/// The largest focal length, in pixels (the projection divides `focal << 32` by depths of
/// at least `2 x focal + 1`).
pub const MAX_FOCAL_LENGTH: i32 = 16384;

/// The largest screen width or height, in pixels (twice what VDP1 vertex fields hold).
pub const MAX_SCREEN_SIZE: u16 = 4094;

/// The longest row of the linear part of a draw's matrices (camera view x transform x
/// bone), raw Q16.16: a scale of 64.
pub const MAX_SCALE: i32 = 64 * ONE;

/// Checks what the projection needs of a camera: a focal length of 1 to
/// [`MAX_FOCAL_LENGTH`] pixels, a screen of 2 to [`MAX_SCREEN_SIZE`] pixels each way,
/// `0 < near <= far`, and a position whose camera-space coordinates fit Q16.16 (within
/// 32767 units of the world's origin); gives its view matrix.
pub(crate) fn camera_view(camera: &Camera) -> Result<Matrix, DrawError> {
    let outside = |field, value: i32, min: i32, max: i32| {
        (!(min..=max).contains(&value)).then_some(DrawError::CameraOutOfRange {
            field,
            value: i64::from(value),
            min: i64::from(min),
            max: i64::from(max),
        })
    };
    let screen = i32::from(MAX_SCREEN_SIZE);
    let checks = [
        outside("focal_length", camera.focal_length, 1, MAX_FOCAL_LENGTH),
        outside("width", i32::from(camera.width), 2, screen),
        outside("height", i32::from(camera.height), 2, screen),
        outside("near", camera.near, 1, i32::MAX),
        outside("far", camera.far, camera.near, i32::MAX),
    ];
    if let Some(error) = checks.into_iter().flatten().next() {
        return Err(error);
    }
    // The view's translation is -R^T position (see `Camera::view`): exact, and its
    // negation too, when each coordinate fits 32 bits (products below 2^47).
    let rotation = Matrix::rotation_xyz(camera.rotation).0;
    let back_along = |axis: usize| {
        let products = rotation.iter().zip(camera.position);
        products
            .map(|(row, p)| i64::from(row[axis]) * i64::from(p))
            .sum::<i64>()
            >> 16
    };
    for back in (0..3).map(back_along) {
        if back.unsigned_abs() > i32::MAX as u64 {
            return Err(DrawError::CameraOutOfRange {
                field: "position",
                value: back,
                min: -i64::from(i32::MAX),
                max: i64::from(i32::MAX),
            });
        }
    }
    Ok(camera.view())
}

/// `a * b` (`a.then(b)`) when every cell fits 32 bits; `None` when one does not.
pub(crate) fn composed(a: &Matrix, b: &Matrix) -> Option<Matrix> {
    let (a, b) = (&a.0, &b.0);
    let mut out = [[0; 4]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            // Each product of two i32 fits an i64; their sum may not.
            let sum = (0..3).try_fold(0i64, |sum, k| {
                sum.checked_add(i64::from(a[r][k]) * i64::from(b[k][c]))
            })?;
            let translation = if c == 3 { i64::from(a[r][3]) } else { 0 };
            *cell = i32::try_from((sum >> 16) + translation).ok()?;
        }
    }
    Some(Matrix(out))
}

/// The model-view matrix of a draw (`view * transform`), when exact.
pub(crate) fn model_view(view: &Matrix, transform: &Matrix) -> Result<Matrix, DrawError> {
    composed(view, transform).ok_or(DrawError::OutOfReach { matrix: 0 })
}

/// Checks the matrices of a draw of `model` against its reach (see the module's doc),
/// and keeps only the eyes with which the back-face test in model space is exact.
pub(crate) fn check_transforms(
    model: &Model<'_>,
    transforms: &mut Transforms,
) -> Result<(), DrawError> {
    let reach = u64::from(model.reach());
    let used = transforms.matrices_in_use(model);
    if let Some(matrix) = transforms.inexact() {
        return Err(DrawError::OutOfReach { matrix });
    }
    for (index, matrix) in transforms.matrices[..used].iter().enumerate() {
        if !within_reach(matrix, reach) {
            return Err(DrawError::OutOfReach { matrix: index });
        }
    }
    for eye in &mut transforms.eyes[..used] {
        *eye = eye.filter(|eye| {
            eye.position
                .iter()
                .all(|e| u64::from(e.unsigned_abs()) + reach <= i32::MAX as u64)
        });
    }
    Ok(())
}

/// Whether `matrix` keeps every point within `reach` (raw) of the origin within 32 bits
/// on each axis, and no row of its linear part is longer than [`MAX_SCALE`].
fn within_reach(matrix: &Matrix, reach: u64) -> bool {
    const LONGEST: u64 = (MAX_SCALE as u64) * (MAX_SCALE as u64);
    matrix.0.iter().all(|row| {
        let translation = u64::from(row[3].unsigned_abs());
        // First the bound of the row's absolute sum (|row . p| <= sum |m| x reach), which
        // needs no square root: it holds for any turn and moderate scale, and a draw checks
        // one matrix per bone (a square root each costs the SH-2 hundreds of cycles).
        let absolute_sum: u64 = row[..3].iter().map(|&m| u64::from(m.unsigned_abs())).sum();
        if absolute_sum <= MAX_SCALE as u64
            && ((absolute_sum * reach) >> 16) + 1 + translation <= i32::MAX as u64
        {
            return true;
        }
        // Q32.32, each square below 2^62: the sum of three fits.
        let length_squared: u64 = row[..3]
            .iter()
            .map(|&m| u64::from(m.unsigned_abs()).pow(2))
            .sum();
        if length_squared > LONGEST {
            return false;
        }
        // |row| rounded up (at most 2^22 + 1 raw) times the reach (below 2^32) fits 64
        // bits (the SH-2 has no 128-bit multiply), rounded up again.
        let length = isqrt(length_squared) + 1;
        let moved = ((length * reach) >> 16) + 1;
        moved + translation <= i32::MAX as u64
    })
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::math::Angle;
    use crate::{check, check_eq};

    crate::test_suite! {
        fn cameras_outside_the_limits_are_refused() {
            let good = Camera::default();
            check!(camera_view(&good).is_ok());
            let refused = |camera: Camera, field: &str| {
                matches!(camera_view(&camera), Err(DrawError::CameraOutOfRange { field: f, .. }) if f == field)
            };
            check!(refused(Camera { focal_length: 0, ..good.clone() }, "focal_length"));
            check!(refused(Camera { focal_length: i32::MIN, ..good.clone() }, "focal_length"));
            check!(refused(Camera { width: 0, ..good.clone() }, "width"));
            check!(refused(Camera { near: 0, ..good.clone() }, "near"));
            check!(refused(Camera { far: ONE / 16, ..good.clone() }, "far"));
            // 30,000 units along X and Z: 42,426 units from the origin, beyond Q16.16
            // once turned 45 degrees; straight it fits.
            let far = [30_000 * ONE, 0, 30_000 * ONE];
            let turned = [Angle(0), Angle::from_degrees(45), Angle(0)];
            check!(refused(Camera { position: far, rotation: turned, ..good.clone() }, "position"));
            check!(camera_view(&Camera { position: far, ..good.clone() }).is_ok());
        }

        fn composing_checks_every_cell() {
            let far = Matrix::translation([30_000 * ONE, 0, 0]);
            check_eq!(composed(&far, &Matrix::IDENTITY), Some(far));
            check_eq!(composed(&far, &far), None);
            check_eq!(composed(&Matrix::IDENTITY, &far).map(|m| m.0[0][3]), Some(30_000 * ONE));
        }

        fn matrices_are_checked_against_the_reach() {
            let reach = 20_000 * ONE as u64;
            check!(within_reach(&Matrix::IDENTITY, reach));
            check!(within_reach(&Matrix::translation([12_000 * ONE, 0, 0]), reach));
            check!(!within_reach(&Matrix::translation([13_000 * ONE, 0, 0]), reach));
            let mut scaled = Matrix::IDENTITY;
            scaled.0[1][1] = MAX_SCALE;
            check!(within_reach(&scaled, ONE as u64));
            scaled.0[1][1] = MAX_SCALE + 1;
            check!(!within_reach(&scaled, ONE as u64));
        }
    }
}
