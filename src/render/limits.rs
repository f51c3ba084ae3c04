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
//!   partial sums), so the 64-bit sum (below 2^47) and the 32-bit coordinate are exact;
//!   of a bone's matrix it asks nothing more when the bound it was composed by
//!   (`ComposeBound`) already bounds the rows' absolute sums and translations so.
//! - Depth, sort, screen: sums of quarters, min, max, 64-bit products of 32-bit values.
//! - Near-plane clipping: 64-bit differences (`render::on_near_plane`).
//! - Back faces in model space: `n · (p - eye)`. An eye is used only when `|eye| + reach`
//!   fits each axis in 32 bits (else the polygon is culled in camera space), so `p - eye`
//!   is exact; with `|n| <= 1 + 1/64` each product is below 2^48 and the sum of three fits
//!   the 64-bit accumulator (`mac.l` on the SH-2 does the same).
//! - Back faces and lighting in camera space: normals through a matrix whose rows are at
//!   most [`MAX_SCALE`] long (below 2^23 raw), times 32-bit coordinates: below 2^55 each.
//!   A stretched bone's cofactors (products of two rows) stay below 2^28 raw.

use crate::format::Model;
use crate::math::{isqrt, Matrix, ONE};
use crate::render::camera::Camera;
use crate::render::error::DrawError;

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
    let screen = i32::from(MAX_SCREEN_SIZE);
    // One test after the other, each error made only when it fails: an array of the five
    // possible errors, flattened, cost the SH-2 some 4,000 cycles a frame.
    check_camera("focal_length", camera.focal_length, 1, MAX_FOCAL_LENGTH)?;
    check_camera("width", i32::from(camera.width), 2, screen)?;
    check_camera("height", i32::from(camera.height), 2, screen)?;
    check_camera("near", camera.near, 1, i32::MAX)?;
    check_camera("far", camera.far, camera.near, i32::MAX)?;
    // `Camera::view`, made directly (one rotation, no product, no inversion: the same
    // entries): the transpose of the rotation, and the translation -R^T position, exact
    // and its negation too when each coordinate fits 32 bits (products below 2^47).
    let r = Matrix::rotation_xyz(camera.rotation).0;
    let [x, y, z] = camera.position.map(i64::from);
    let mut view = [[0; 4]; 3];
    for (axis, row) in view.iter_mut().enumerate() {
        let along =
            i64::from(r[0][axis]) * x + i64::from(r[1][axis]) * y + i64::from(r[2][axis]) * z;
        let back = match i32::try_from(along >> 16) {
            Ok(back) if back != i32::MIN => back,
            _ => {
                return Err(DrawError::CameraOutOfRange {
                    field: "position",
                    value: along >> 16,
                    min: -i64::from(i32::MAX),
                    max: i64::from(i32::MAX),
                })
            }
        };
        *row = [r[0][axis], r[1][axis], r[2][axis], -back];
    }
    Ok(Matrix(view))
}

/// `value` of the camera's `field` within `min..=max`, or the error that says so.
fn check_camera(field: &'static str, value: i32, min: i32, max: i32) -> Result<(), DrawError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    Err(DrawError::CameraOutOfRange {
        field,
        value: i64::from(value),
        min: i64::from(min),
        max: i64::from(max),
    })
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

/// What composing after a matrix `a` needs to know of it, so that most products `a * b`
/// are known exact from a bound instead of 12 checked sums (a posed draw composes one a
/// bone): `|(a * b)[r][c]| <= (|a[r][0]| + |a[r][1]| + |a[r][2]|) x max |b[k][c]| / 2^16
/// (+ |a[r][3]|)`.
pub(crate) struct ComposeBound {
    /// The largest absolute row sum of the linear part of `a`, raw (`u32::MAX`: 2^32 or
    /// more, no bound then).
    row_sum: u32,
    /// The largest absolute translation of `a`.
    translation: u32,
}

impl ComposeBound {
    /// The bound of `a`.
    pub(crate) fn of(a: &Matrix) -> Self {
        let mut row_sum = 0u64;
        let mut translation = 0u32;
        for row in &a.0 {
            let sum: u64 = row[..3].iter().map(|&m| u64::from(m.unsigned_abs())).sum();
            row_sum = row_sum.max(sum);
            translation = translation.max(row[3].unsigned_abs());
        }
        Self {
            row_sum: u32::try_from(row_sum).unwrap_or(u32::MAX),
            translation,
        }
    }

    /// `a * b` into `out`, `a` being the matrix of this bound: whether every cell is exact
    /// (as [`composed`] gives it; else `out` holds the wrapped product) and whether the
    /// bound already shows that the product keeps the points within `reach` in 32 bits
    /// (as [`within_reach`] asks; else that is to be checked on `out`). A product the bound
    /// shows exact is made by `product` (`out = a * b`, each cell's 64-bit sum wrapped, as
    /// `anim::skeleton::compose` and `mac.l` sum: the caller's fast path); the others by
    /// checked sums.
    pub(crate) fn compose(
        &self,
        a: &Matrix,
        b: &Matrix,
        out: &mut Matrix,
        reach: u32,
        product: impl FnOnce(&Matrix, &Matrix, &mut Matrix),
    ) -> Composed {
        let bound = self.of_product(b);
        if let Some(bound) = bound {
            // No sum leaves 2^47: the wrapping product is the exact one.
            product(a, b, out);
            // Within MAX_SCALE, the row sum fits 32 bits: one 32 x 32-bit product.
            let within_reach = bound.row_sum <= MAX_SCALE as u64
                && ((u64::from(bound.row_sum as u32) * u64::from(reach)) >> 16)
                    + 1
                    + bound.translation
                    <= i32::MAX as u64;
            return Composed {
                exact: true,
                within_reach,
            };
        }
        let exact = match composed(a, b) {
            Some(exact) => {
                *out = exact;
                true
            }
            None => {
                *out = a.then(b);
                false
            }
        };
        Composed {
            exact,
            within_reach: false,
        }
    }

    /// Bounds of `a * b`'s rows when every cell is within 32 bits by them (then every sum
    /// of products is within 2^47): cell `(r, c)` is within `A x B_c / 2^16 + 1` for `A`
    /// the largest absolute row sum of `a` and `B_c` the largest entry of column `c` of
    /// `b`, a row's absolute sum within `A x S / 2^16 + 3` for `S` the largest absolute
    /// row sum of `b`'s linear part.
    fn of_product(&self, b: &Matrix) -> Option<ProductBound> {
        let (mut linear, mut translation, mut row_sum) = (0u32, 0u32, 0u32);
        for row in &b.0 {
            let [x, y, z] = [
                row[0].unsigned_abs(),
                row[1].unsigned_abs(),
                row[2].unsigned_abs(),
            ];
            linear = linear.max(x).max(y).max(z);
            // Saturated: beyond 2^32 no bound below holds anyway.
            row_sum = row_sum.max(x.saturating_add(y).saturating_add(z));
            translation = translation.max(row[3].unsigned_abs());
        }
        let a = u64::from(self.row_sum);
        let moved = |by: u32| (a * u64::from(by)) >> 16;
        let product_translation = moved(translation) + 1 + u64::from(self.translation);
        let fits = self.row_sum != u32::MAX
            && moved(linear) < i32::MAX as u64
            && product_translation <= i32::MAX as u64;
        fits.then(|| ProductBound {
            row_sum: moved(row_sum) + 3,
            translation: product_translation,
        })
    }
}

/// What [`ComposeBound::compose`] found of a product.
pub(crate) struct Composed {
    /// Every cell is exact.
    pub(crate) exact: bool,
    /// The product is known to keep the points within the reach in 32 bits.
    pub(crate) within_reach: bool,
}

/// Bounds of a product's rows (see [`ComposeBound::of_product`]).
struct ProductBound {
    /// Of each row's absolute sum (its linear part).
    row_sum: u64,
    /// Of each translation.
    translation: u64,
}

/// Checks the model-view matrix of a rigid draw of `model` as `Transforms::check_limits`
/// does
/// (its only matrix), before its slot is written.
pub(crate) fn check_rigid(model: &Model<'_>, model_view: &Matrix) -> Result<(), DrawError> {
    match within_reach(model_view, model.reach()) {
        true => Ok(()),
        false => Err(DrawError::OutOfReach { matrix: 0 }),
    }
}

/// Whether `matrix` keeps every point within `reach` (raw) of the origin within 32 bits
/// on each axis, and no row of its linear part is longer than [`MAX_SCALE`].
pub(crate) fn within_reach(matrix: &Matrix, reach: u32) -> bool {
    const LONGEST: u64 = (MAX_SCALE as u64) * (MAX_SCALE as u64);
    matrix.0.iter().all(|row| {
        let translation = row[3].unsigned_abs();
        // First the bound of the row's absolute sum (|row . p| <= sum |m| x reach), which
        // needs no square root: it holds for any turn and moderate scale, and a draw checks
        // one matrix per bone (a square root each costs the SH-2 hundreds of cycles). In
        // 32 bits: each entry within MAX_SCALE (2^22), their sum below 2^24.
        let [x, y, z] = [
            row[0].unsigned_abs(),
            row[1].unsigned_abs(),
            row[2].unsigned_abs(),
        ];
        let scale = MAX_SCALE as u32;
        // Each entry below 2^23 when their OR is: their sum fits.
        if (x | y | z) < 2 * scale && x + y + z <= scale {
            // One `dmulu.l`.
            let moved = u64::from(x + y + z) * u64::from(reach);
            if (moved >> 16) + 1 + u64::from(translation) <= i32::MAX as u64 {
                return true;
            }
        }
        // Q32.32, each square below 2^62: the sum of three fits.
        let length_squared: u64 = [x, y, z].iter().map(|&m| u64::from(m).pow(2)).sum();
        if length_squared > LONGEST {
            return false;
        }
        // |row| rounded up (at most 2^22 + 1 raw) times the reach (below 2^32) fits 64
        // bits (the SH-2 has no 128-bit multiply), rounded up again.
        let length = isqrt(length_squared) + 1;
        let moved = ((length * u64::from(reach)) >> 16) + 1;
        moved + u64::from(translation) <= i32::MAX as u64
    })
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::math::Angle;
    use crate::math::Vec3;
    use crate::render::transforms::{rotation_error, Eye, Transforms, TURN_TOLERANCE};
    use crate::{check, check_eq};

    /// `None` when `eye` and `inverse` (the eyes of `m`, `error` from a rotation) find the
    /// face of a polygon through `point` with `normal` the same, or when they disagree but
    /// its plane is within their bounds of the eye (`Eye::of_turn`: 3 x error x |t| and a
    /// unit of rounding, the inverse's cofactors rounded to 2^-16); else how far it is.
    fn faces_apart(
        m: &Matrix,
        error: u64,
        normal: Vec3,
        point: Vec3,
        eye: &Eye,
        inverse: &Eye,
    ) -> Option<i64> {
        let towards = |eye: &Eye| {
            let sum: i64 = (0..3)
                .map(|k| i64::from(normal[k]) * (i64::from(point[k]) - i64::from(eye.position[k])))
                .sum();
            (sum < 0) != eye.mirrored
        };
        if towards(eye) == towards(inverse) {
            return None;
        }
        let t: u64 = m.0.iter().map(|row| u64::from(row[3].unsigned_abs())).sum();
        let n: i64 = normal.iter().map(|c| i64::from(c.unsigned_abs())).sum();
        let bound = n * (((4 * capped_product(error, t)) >> 32) + ((4 * t as i64) >> 16) + 4);
        let apart: i64 = (0..3)
            .map(|k| i64::from(normal[k]) * (i64::from(point[k]) - i64::from(inverse.position[k])))
            .sum();
        (apart.abs() > bound).then_some(apart)
    }

    /// `a x b` for `a` below 2^23 and `b` below 2^34 (no 128-bit product on the SH-2).
    fn capped_product(a: u64, b: u64) -> i64 {
        (a.min(1 << 23) * b.min(1 << 34)) as i64
    }

    /// A xorshift generator: the same numbers on every machine the tests run on.
    struct Numbers(u32);

    impl Numbers {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            self.0
        }

        /// A number of about `bits` significant bits, either sign.
        fn of_bits(&mut self, bits: u32) -> i32 {
            (self.next() as i32) >> (32 - bits.clamp(1, 32))
        }

        /// A turn by three random angles, each column scaled by a random factor from about
        /// 1/64 to 64 when `scaled`, with a translation of `bits` bits.
        fn matrix(&mut self, scaled: bool, bits: u32) -> Matrix {
            let angles = [0; 3].map(|_: i32| Angle(self.next() as i16));
            let mut m = Matrix::rotation_xyz(angles);
            for j in 0..3 {
                let scale = if scaled {
                    self.of_bits(23).unsigned_abs() as i32
                } else {
                    ONE
                };
                for row in &mut m.0 {
                    row[j] = ((i64::from(row[j]) * i64::from(scale)) >> 16) as i32;
                }
            }
            for row in &mut m.0 {
                row[3] = self.of_bits(bits);
            }
            m
        }
    }

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

        fn the_checked_view_is_the_cameras_view() {
            // Turns of every quadrant and positions near the limit, either sign.
            let mut seed = 0x2545_F491u32;
            let mut next = || {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                seed
            };
            for _ in 0..200 {
                let rotation = [Angle(next() as i16), Angle(next() as i16), Angle(next() as i16)];
                let position = [next() as i32 >> 2, next() as i32 >> 2, next() as i32 >> 2];
                let camera = Camera { position, rotation, ..Camera::default() };
                check_eq!(camera_view(&camera), Ok(camera.view()));
            }
        }

        fn composing_checks_every_cell() {
            let far = Matrix::translation([30_000 * ONE, 0, 0]);
            check_eq!(composed(&far, &Matrix::IDENTITY), Some(far));
            check_eq!(composed(&far, &far), None);
            check_eq!(composed(&Matrix::IDENTITY, &far).map(|m| m.0[0][3]), Some(30_000 * ONE));
        }

        fn bounded_products_are_the_checked_ones() {
            // Turns, scales and translations of every size: where the bound holds the
            // product is the checked one, and where a cell leaves 32 bits the draw's
            // matrix is marked inexact, as `composed` says.
            let mut numbers = Numbers(0x2545_F491);
            let (mut bounded, mut inexact, mut known) = (0, 0, 0);
            for case in 0..600 {
                let a = numbers.matrix(case % 3 == 1, 1 + case % 32);
                let b = numbers.matrix(case % 2 == 1, 1 + (case / 2) % 32);
                let bound = ComposeBound::of(&a);
                let mut out = Matrix([[0; 4]; 3]);
                let reach = numbers.next() >> (case % 32);
                let found = bound.compose(&a, &b, &mut out, reach, crate::anim::skeleton::compose);
                let exact = found.exact;
                bounded += usize::from(bound.of_product(&b).is_some());
                // Where the bound says the product keeps the reach, the check says so too.
                check!(!found.within_reach || within_reach(&out, reach));
                known += usize::from(found.within_reach);
                match composed(&a, &b) {
                    Some(checked) => check_eq!((case, exact, out), (case, true, checked)),
                    None => {
                        inexact += 1;
                        check_eq!((case, exact, out), (case, false, a.then(&b)));
                    }
                }
            }
            // Both ways were taken many times.
            check!(bounded > 200 && bounded < 600 && inexact > 20 && known > 50);
        }

        fn the_eye_of_a_matrix_within_the_scale_is_the_checked_one() {
            // The eye without checked sums (what the limits let through: entries within
            // MAX_SCALE) against the checked one, mirrored too; `Eye::of` takes the right one.
            let mut numbers = Numbers(0x9E37_79B9);
            let mut found = 0;
            for case in 0..600 {
                let mut m = numbers.matrix(case % 2 == 1, 1 + case % 32);
                if case % 5 == 0 {
                    m.0[0] = [-m.0[0][0], -m.0[0][1], -m.0[0][2], m.0[0][3]];
                }
                if m.0.iter().any(|row| row[..3].iter().any(|c| c.unsigned_abs() > MAX_SCALE as u32)) {
                    continue;
                }
                let checked = Eye::of_any(&m);
                check_eq!((case, Eye::of_scaled(&m)), (case, checked));
                check_eq!((case, Eye::of(&m)), (case, checked));
                found += usize::from(checked.is_some());
            }
            check!(found > 200);
            // Beyond the scale `of` takes the checked way (no eye: the determinant leaves
            // 32 bits).
            let huge = Matrix([[1 << 30, 0, 0, 0], [0, 1 << 30, 0, 0], [0, 0, 1 << 30, ONE]]);
            check_eq!(Eye::of(&huge), Eye::of_any(&huge));
        }

        fn turned_eyes_find_the_faces_the_inverse_finds() {
            // Chains of up to 16 turns (their rounding drifts as a skeleton's does) with
            // translations of every size: where the eye by the transpose and the eye by the
            // inverse disagree on a face, its plane passes within their bounds of the eye.
            let mut numbers = Numbers(0x51ED_270B);
            let (mut turned, mut compared) = (0, 0);
            for case in 0..400 {
                let mut m = Matrix::rotation_xyz([0; 3].map(|_: i32| Angle(numbers.next() as i16)));
                for _ in 0..case % 17 {
                    m = m.then(&Matrix::rotation_xyz([0; 3].map(|_: i32| Angle(numbers.next() as i16))));
                }
                if case % 4 == 3 {
                    m.0[1] = [-m.0[1][0], -m.0[1][1], -m.0[1][2], 0];
                }
                for row in &mut m.0 {
                    row[3] = numbers.of_bits(2 + case as u32 % 30);
                }
                let error = rotation_error(&m);
                let (Some(eye), Some(inverse)) = (Eye::of_turn(&m), Eye::of(&m)) else {
                    continue;
                };
                if error > TURN_TOLERANCE {
                    continue;
                }
                turned += 1;
                check_eq!((case, eye.mirrored), (case, inverse.mirrored));
                for _ in 0..16 {
                    let normal = Matrix::rotation_xyz([0; 3].map(|_: i32| Angle(numbers.next() as i16))).0[0];
                    let normal = [normal[0], normal[1], normal[2]];
                    let point = [0; 3].map(|_: i32| numbers.of_bits(19));
                    let near = faces_apart(&m, error, normal, point, &eye, &inverse);
                    check_eq!((case, near), (case, None));
                    compared += 1;
                }
            }
            check!(turned > 300 && compared > 4800);
        }

        fn the_bench_meshes_faces_are_found_by_turned_eyes_as_by_the_inverse() {
            // The mesh fixture (the bench's meshes in small: a grid cut into 16 groups, a
            // chain of 16 bones) posed at every frame of its animation, placed as the bench
            // places its meshes: every polygon's face found the same by both eyes.
            let model = crate::render::tests::mesh();
            let Some(animation) = model.animations().get(0) else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no animation")));
            };
            let camera = crate::render::Camera { position: [0, 0, -3 * ONE], ..crate::render::Camera::default() };
            let transform = Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
            let model_view = camera.view().then(&transform);
            let (mut turned, mut compared) = (0, 0);
            for frame in 0..32 {
                let pose = crate::anim::pose_at(&animation, model.bones().len(), frame);
                let mut bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
                crate::anim::bone_matrices(&model, &pose, &mut bones);
                let root = crate::anim::root_matrix(&pose);
                let transforms = Transforms::posed(&model, &model_view, &root, &bones);
                for index in 0..model.polygons().len() {
                    let matrix = transforms.polygon_matrix(index);
                    let m = &transforms.matrices[matrix];
                    let (Some(eye), Some(inverse)) = (transforms.eyes[matrix], Eye::of(m)) else {
                        continue;
                    };
                    turned += usize::from(Some(eye) == Eye::of_turn(m));
                    let polygon = &model.polygons()[index];
                    let point = model.points()[usize::from(polygon.corners()[0])].raw();
                    let near = faces_apart(m, rotation_error(m), polygon.normal().raw(), point, &eye, &inverse);
                    check_eq!((frame, index, near), (frame, index, None));
                    compared += 1;
                }
            }
            // Every polygon of every frame, nearly all by a turned eye (the inverse where a
            // deep bone's rounding drifted beyond the tolerance).
            check_eq!(compared, 32 * model.polygons().len());
            check!(turned > compared * 9 / 10);
        }

        fn matrices_are_checked_against_the_reach() {
            let reach = 20_000 * ONE as u32;
            check!(within_reach(&Matrix::IDENTITY, reach));
            check!(within_reach(&Matrix::translation([12_000 * ONE, 0, 0]), reach));
            check!(!within_reach(&Matrix::translation([13_000 * ONE, 0, 0]), reach));
            let mut scaled = Matrix::IDENTITY;
            scaled.0[1][1] = MAX_SCALE;
            check!(within_reach(&scaled, ONE as u32));
            scaled.0[1][1] = MAX_SCALE + 1;
            check!(!within_reach(&scaled, ONE as u32));
            // The largest reach: a row sum of 2^22 moves points 2^36.8 units away (not
            // within 32 bits however it is rounded), a unit row 0x7000_0000.
            scaled.0[1][1] = MAX_SCALE;
            check!(!within_reach(&scaled, crate::format::MAX_REACH));
            check!(within_reach(&Matrix::IDENTITY, crate::format::MAX_REACH));
        }
    }
}
