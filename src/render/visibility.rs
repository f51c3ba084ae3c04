//! Whole draws culled before their points are transformed: a rigid draw whose bounding
//! sphere (the model's [`Model::reach`](crate::Model::reach) about its origin, carried by
//! the model-view matrix) lies wholly behind the near plane, past the far plane or outside
//! a side of the view is dropped, its polygons counted as culled (issue 14).
//!
//! Exact or conservative, never more: a draw is dropped only when the polygon culling
//! (`render::cull`) would cull each of its polygons wholly in front of the near plane, the
//! others being behind it or, drawn clipped to it, outside the same side of the view (their
//! pixels off screen). The argument:
//! - The sphere: a point `p` of the model (`|p| <= reach`) is moved to `M p + t`, within
//!   `sigma x reach` of `t` for `sigma` the largest singular value of `M`'s linear part.
//!   `sigma²` is the largest eigenvalue of the rows' Gram matrix `G` (`G_ij = r_i . r_j`),
//!   at most `max_i (G_ii + sum_{j != i} |G_ij|)` (Gershgorin): for a turn and scale (rows
//!   orthogonal) about the rows' length, for any other matrix still a bound. The radius is
//!   rounded up, plus two raw units for the transform's rounding down (under one a
//!   coordinate). The columns' Gram matrix has the same eigenvalues: for a matrix within
//!   `e` of a rotation ([`rotation_error`](super::transforms::rotation_error), its entries
//!   within `e` of the identity's) the bound is `1 + 3e`, so for `e` up to
//!   [`TURN_TOLERANCE`] (2^-10, which the renderer works out for the eye anyway) the radius
//!   is the reach stretched by `1 + 2^-9`, with no products and no square root.
//! - Near and far: every point nearer than `near`, or every one past `far`.
//! - Sides: a point `(x, y, z)` at `z >= near` is projected to `floor(x s / 2^32)` for
//!   `s = floor((focal << 32) / z)` (within a half pixel of `x focal / z` for `|x| < 2^31`),
//!   and a polygon is culled when its corners are all past the same edge of the screen
//!   (`|screen x| > half width`). With a margin of two pixels the plane `focal x = (half
//!   width + 2) z` through the eye has every point beyond it projected past the edge; the
//!   sphere is beyond it when its centre is farther than its radius from it, the plane's
//!   normal's length rounded up. Points nearer than the projection's smallest depth
//!   ([`Projection::min_depth`](super::Projection::min_depth)) are projected as if there,
//!   so the sides are used only when that depth is the near plane or the sphere is past it;
//!   and not on a screen as wide or high as the screen coordinates' limit (clamped there,
//!   a corner is never past the edge).

use crate::format::Region;
use crate::math::{isqrt32, Matrix, Vec3};
use crate::render::camera::Camera;
use crate::render::limits::MAX_SCALE;
use crate::render::project::{Projection, SCREEN_LIMIT};
use crate::render::shared::RegionRuns;
use crate::render::transforms::TURN_TOLERANCE;

/// Pixels beyond an edge of the screen the side planes are moved out by (see the module's
/// doc: the projection's rounding is within one and a half).
const EDGE_MARGIN: i32 = 2;

/// A camera's view as the whole-draw test sees it, made once a frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ViewVolume {
    near: i32,
    far: i32,
    /// The projection's smallest depth: nearer points are projected as if there.
    min_depth: i32,
    focal_length: i32,
    /// Of the left and right planes, then the top and bottom ones: the half screen plus
    /// the margin, and the length of the plane's normal `(focal, -half)` rounded up;
    /// `None` when the screen is too large for the side planes to be used.
    sides: Option<[Side; 2]>,
    /// The last sphere's matrix rows (their linear part compared), reach and radius: draws
    /// of one model turned alike (a ground's tiles) have the same radius, worked out once
    /// (a square root).
    last: Option<(Rows, u32, Option<i32>)>,
}

/// A matrix's rows: its linear part, then the translation in each row's last word.
type Rows = [[i32; 4]; 3];

/// Whether `a` and `b` have the same linear part.
fn same_linear(a: &Rows, b: &Rows) -> bool {
    (0..3).all(|i| a[i][0] == b[i][0] && a[i][1] == b[i][1] && a[i][2] == b[i][2])
}

/// The dot product of two rows' linear parts, each product 32 x 32 -> 64 bits.
#[inline(always)]
fn row_dot(a: &[i32; 4], b: &[i32; 4]) -> i64 {
    i64::from(a[0]) * i64::from(b[0])
        + i64::from(a[1]) * i64::from(b[1])
        + i64::from(a[2]) * i64::from(b[2])
}

/// One pair of side planes: `focal x = ±half z` (or with y).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Side {
    half: i32,
    normal_length: i32,
}

impl ViewVolume {
    /// The view of `camera` (within the limits `limits::camera_view` checks).
    pub(crate) fn of(camera: &Camera) -> Self {
        let focal_length = camera.focal_length;
        let side = |size: u16| {
            let half = i32::from(size) / 2;
            (half < SCREEN_LIMIT).then(|| {
                let half = half + EDGE_MARGIN;
                // Below 2^28 + 2^22.
                let squared = (focal_length * focal_length + half * half) as u32;
                Side {
                    half,
                    normal_length: isqrt32(squared) as i32 + 1,
                }
            })
        };
        Self {
            near: camera.near,
            far: camera.far,
            min_depth: Projection::of(camera).min_depth(),
            focal_length,
            sides: side(camera.width)
                .zip(side(camera.height))
                .map(|(x, y)| [x, y]),
            last: None,
        }
    }

    /// Whether a model of `reach` drawn through `model_view` (whose linear part's entries
    /// are at most [`MAX_SCALE`], as `limits` lets through; `turn_error` its
    /// [`rotation_error`](super::transforms::rotation_error)) may have a polygon on
    /// screen: `false` only when its bounding sphere is wholly outside the view.
    pub(crate) fn may_show(&mut self, model_view: &Matrix, reach: u32, turn_error: u64) -> bool {
        let rows = &model_view.0;
        let radius = match self.last {
            _ if turn_error <= TURN_TOLERANCE => turned_radius(reach),
            // Element by element: the SH-2's code generator turns an array `map` or `==`
            // into copies and library calls (measured: the test cost 2,500 cycles a draw so).
            Some((ref last, last_reach, radius))
                if last_reach == reach && same_linear(last, rows) =>
            {
                radius
            }
            _ => {
                let radius = sphere_radius(rows, reach);
                self.last = Some((*rows, reach, radius));
                radius
            }
        };
        self.sphere_shown([rows[0][3], rows[1][3], rows[2][3]], radius)
    }

    /// Whether a sphere about `center` (camera space) of `radius` (raw, rounded up; `None`:
    /// too large to tell) may have a point on screen: `false` only when it is wholly
    /// outside the view.
    fn sphere_shown(&self, [cx, cy, cz]: [i32; 3], radius: Option<i32>) -> bool {
        let Some(radius) = radius else {
            return true;
        };
        let (radius, z) = (i64::from(radius), i64::from(cz));
        if z + radius < i64::from(self.near) || z - radius > i64::from(self.far) {
            return false;
        }
        let Some([x_side, y_side]) = self.sides else {
            return true;
        };
        if self.min_depth > self.near && z - radius < i64::from(self.min_depth) {
            return true;
        }
        let focal = i64::from(self.focal_length);
        // Beyond `focal |c| = half z` by more than the radius, along the plane's normal:
        // each product of two 32-bit values (one `dmuls.l`).
        let outside = |coordinate: i32, side: Side| {
            focal * i64::from(coordinate.unsigned_abs()) - i64::from(side.half) * z
                > radius * i64::from(side.normal_length)
        };
        !(outside(cx, x_side) || outside(cy, y_side))
    }

    /// Adds to `runs` the regions of a model drawn through `model_view` (as
    /// [`may_show`](Self::may_show) takes it) whose spheres may have a point on screen:
    /// each centre carried by the matrix (exact: validation keeps it within the model's
    /// reach, which the draw's limits cover), each radius stretched as the model's.
    pub(crate) fn shown_regions(
        &self,
        model_view: &Matrix,
        turn_error: u64,
        regions: &[Region],
        runs: &mut RegionRuns,
    ) {
        let rows = &model_view.0;
        let stretch = match turn_error <= TURN_TOLERANCE {
            true => None,
            false => Some(stretch(rows)),
        };
        for region in regions {
            let reach = region.radius_raw() as u32;
            let radius = match stretch {
                None => turned_radius(reach),
                Some(sigma) => sigma.and_then(|sigma| stretched(sigma, reach)),
            };
            let center = model_view.apply(region.center().raw());
            if self.sphere_shown(center, radius) {
                runs.push(region.points(), region.polygons());
            }
        }
    }
}

/// The side planes of a camera's view, for the polygons crossing its near plane: such a
/// polygon is drawn clipped to the near plane, and when its corners are all beyond one side
/// plane (through the eye, moved out by the margin) so is every point of it (it is convex),
/// the clipped part too: it would be drawn wholly off screen (each such polygon also stops
/// the frame-wide emission for the general one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SidePlanes {
    focal_length: i32,
    /// The half screen plus the margin, across and down; `None` where the sides are not
    /// used (see [`ViewVolume`]: a screen too large, or the projection's smallest depth
    /// beyond the near plane).
    halves: Option<(i32, i32)>,
}

impl SidePlanes {
    /// The side planes of `camera`.
    pub(crate) fn of(camera: &Camera) -> Self {
        let usable = |size: u16| i32::from(size) / 2 < SCREEN_LIMIT;
        let used = usable(camera.width)
            && usable(camera.height)
            && Projection::of(camera).min_depth() <= camera.near;
        let half = |size: u16| i32::from(size) / 2 + EDGE_MARGIN;
        Self {
            focal_length: camera.focal_length,
            halves: used.then(|| (half(camera.width), half(camera.height))),
        }
    }

    /// The half screen plus the margin, across and down, that the side planes go through
    /// at depth `focal_length`; `None` where the sides are not used.
    // Read by the culling's assembly binding, on a Saturn only.
    #[cfg_attr(not(jom_saturn), allow(dead_code))]
    pub(crate) fn halves(&self) -> Option<(i32, i32)> {
        self.halves
    }

    /// Whether the corners (camera space) are all beyond one side plane: each corner's
    /// sides as bits (right, left, below, above), by 32 x 32-bit products, all four ANDed.
    #[inline(always)]
    pub(crate) fn all_beside(&self, corners: [&Vec3; 4]) -> bool {
        let Some((half_x, half_y)) = self.halves else {
            return false;
        };
        let focal = i64::from(self.focal_length);
        let (half_x, half_y) = (i64::from(half_x), i64::from(half_y));
        let sides = |p: &Vec3| {
            let (x, y, z) = (i64::from(p[0]), i64::from(p[1]), i64::from(p[2]));
            let (x, y, across, down) = (focal * x, focal * y, half_x * z, half_y * z);
            u32::from(x > across)
                | u32::from(-x > across) << 1
                | u32::from(y > down) << 2
                | u32::from(-y > down) << 3
        };
        sides(corners[0]) & sides(corners[1]) & sides(corners[2]) & sides(corners[3]) != 0
    }
}

/// [`sphere_radius`] of a matrix within [`TURN_TOLERANCE`] of a rotation (see the module's
/// doc): the reach stretched by `1 + 2^-9`, rounded up, plus the transform's rounding;
/// `None` beyond 32 bits.
fn turned_radius(reach: u32) -> Option<i32> {
    let radius = u64::from(reach) + u64::from(reach >> 9) + 3;
    (radius <= i32::MAX as u64).then_some(radius as i32)
}

/// The radius (raw Q16.16, rounded up) of the sphere about a matrix's translation that
/// holds every point within `reach` of the origin moved by it, `rows` the matrix's rows;
/// `None` when an entry is beyond [`MAX_SCALE`] (the bound below is then not worked out)
/// or the radius beyond 32 bits (a sphere of 32,768 units: kept).
fn sphere_radius(rows: &Rows, reach: u32) -> Option<i32> {
    stretched(stretch(rows)?, reach)
}

/// The largest stretch of a matrix's linear part (`rows`), Q8 rounded up: a bound of its
/// largest singular value (see the module's doc); `None` when an entry is beyond
/// [`MAX_SCALE`].
fn stretch(rows: &Rows) -> Option<u32> {
    let limit = MAX_SCALE.unsigned_abs();
    if rows
        .iter()
        .any(|row| row[..3].iter().any(|m| m.unsigned_abs() > limit))
    {
        return None;
    }
    // Entries within 2^22: each product within 2^44, each sum of three within 2^46.
    let [r0, r1, r2] = rows;
    let (g01, g02, g12) = (
        row_dot(r0, r1).abs(),
        row_dot(r0, r2).abs(),
        row_dot(r1, r2).abs(),
    );
    let bound = (row_dot(r0, r0) + g01 + g02)
        .max(row_dot(r1, r1) + g01 + g12)
        .max(row_dot(r2, r2) + g02 + g12);
    // Q32.32, below 2^48: rounded up to Q16 (below 2^32), its root (Q8) rounded up, below
    // 2^16 + 2: one 32-bit root and one 32 x 32-bit product.
    Some(isqrt32(((bound as u64 + 0xFFFF) >> 16) as u32) + 1)
}

/// The radius of a sphere of `reach` stretched by `sigma` (Q8, from [`stretch`]): rounded
/// up, plus the transform's rounding; `None` beyond 32 bits.
fn stretched(sigma: u32, reach: u32) -> Option<i32> {
    let radius = ((u64::from(sigma) * u64::from(reach)) >> 8) + 2;
    i32::try_from(radius).ok()
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::math::{isqrt, Angle, ONE};
    use crate::render::project::project;
    use crate::render::transforms::rotation_error;
    use crate::{check, check_eq};

    /// The camera of these tests: at the origin looking along +Z, the default screen.
    fn camera() -> Camera {
        Camera {
            near: ONE / 4,
            far: 64 * ONE,
            ..Camera::default()
        }
    }

    /// A sphere of `reach` at `centre` (camera space), through a turn and scale `m`.
    fn placed(m: &Matrix, centre: [i32; 3]) -> Matrix {
        let mut placed = *m;
        for (row, c) in placed.0.iter_mut().zip(centre) {
            row[3] = c;
        }
        placed
    }

    /// Points of the sphere of radius `radius` about `centre`: the nearest to each plane
    /// of `camera`'s view and 24 others, as the transform would give them.
    fn sphere_points(
        camera: &Camera,
        centre: [i32; 3],
        radius: i32,
    ) -> impl Iterator<Item = [i32; 3]> {
        let r = i64::from(radius);
        let focal = i64::from(camera.focal_length);
        let towards = move |half: u16| {
            let half = i64::from(half / 2) + i64::from(EDGE_MARGIN);
            let length = isqrt((focal * focal + half * half) as u64) as i64;
            ((r * focal / length) as i32, (r * half / length) as i32)
        };
        let ((xf, xh), (yf, yh)) = (towards(camera.width), towards(camera.height));
        let nearest = [
            [0, 0, radius],
            [0, 0, -radius],
            [-xf, 0, xh],
            [xf, 0, xh],
            [0, -yf, yh],
            [0, yf, yh],
        ];
        let others = (0..24).map(move |i| {
            let (yaw, pitch) = (
                Angle((i * 0x2000) as i16),
                Angle(((i / 8) as i16 - 1) * 0x2000),
            );
            let across = ((r * i64::from(pitch.cos())) >> 16) as i32;
            [
                ((i64::from(across) * i64::from(yaw.sin())) >> 16) as i32,
                ((r * i64::from(pitch.sin())) >> 16) as i32,
                ((i64::from(across) * i64::from(yaw.cos())) >> 16) as i32,
            ]
        });
        nearest
            .into_iter()
            .chain(others)
            .map(move |d| [centre[0] + d[0], centre[1] + d[1], centre[2] + d[2]])
    }

    /// Points of the ball of radius `radius` about `centre` on the near plane of `camera`
    /// (where a polygon crossing it is clipped): 8 about its circle there.
    fn near_circle(
        camera: &Camera,
        centre: [i32; 3],
        radius: i32,
    ) -> impl Iterator<Item = [i32; 3]> + use<> {
        let near = camera.near;
        let off = i64::from(near) - i64::from(centre[2]);
        let r = i64::from(radius);
        let across = match off.abs() < r {
            true => isqrt((r * r - off * off) as u64) as i64,
            false => -1,
        };
        (0..8).filter(move |_| across >= 0).map(move |i| {
            let turn = Angle((i * 0x2000) as i16);
            [
                centre[0] + ((across * i64::from(turn.cos())) >> 16) as i32,
                centre[1] + ((across * i64::from(turn.sin())) >> 16) as i32,
                near,
            ]
        })
    }

    /// Whether a polygon with a point at `p` could show it: in front of the near plane
    /// (behind it a polygon is culled, or clipped to it), within the far plane and not past
    /// an edge of the screen.
    fn may_be_kept(camera: &Camera, p: [i32; 3]) -> bool {
        if p[2] < camera.near || p[2] > camera.far {
            return false;
        }
        let s = project(p, camera);
        let (w, h) = (camera.width as i16 / 2, camera.height as i16 / 2);
        s.x >= -w && s.x <= w && s.y >= -h && s.y <= h
    }

    crate::test_suite! {
        fn spheres_touching_each_plane_are_kept_and_those_past_it_dropped() {
            // The sphere of a reach of 1 unit moved along each axis until it leaves the
            // view: kept while it touches the plane (within the margin), dropped past it,
            // at several depths and through a turn and a scale of 2.
            let camera = camera();
            let mut view = ViewVolume::of(&camera);
            let reach = ONE as u32;
            let turn = Matrix::rotation_xyz([Angle::from_degrees(30), Angle::from_degrees(-50), Angle(0)]);
            let mut scaled = turn;
            for row in &mut scaled.0 {
                for m in &mut row[..3] {
                    *m *= 2;
                }
            }
            // Each matrix with its own distance from a rotation, and as any matrix (the
            // radius by the Gram bound, not by the distance).
            let cases = [(Matrix::IDENTITY, ONE), (turn, ONE), (scaled, 2 * ONE)];
            for (m, radius, error) in cases.into_iter().flat_map(|(m, r)| [(m, r, rotation_error(&m)), (m, r, u64::MAX)]) {
                // Behind the near plane, and past the far plane.
                check!(view.may_show(&placed(&m, [0, 0, camera.near - radius + ONE / 64]), reach, error));
                check!(!view.may_show(&placed(&m, [0, 0, camera.near - radius - ONE / 64]), reach, error));
                check!(view.may_show(&placed(&m, [0, 0, camera.far + radius - ONE / 64]), reach, error));
                check!(!view.may_show(&placed(&m, [0, 0, camera.far + radius + ONE / 64]), reach, error));
                // The four sides at depths of 4 and 20 units: the centre at the distance
                // from the plane (half + 2 pixels) of the radius, give or take 1/32 unit.
                for depth in [4 * ONE, 20 * ONE] {
                    for (axis, half) in [(0, i64::from(camera.width / 2)), (1, i64::from(camera.height / 2))] {
                        for sign in [1i64, -1] {
                            let focal = i64::from(camera.focal_length);
                            let half = half + i64::from(EDGE_MARGIN);
                            // The normal's length, Q16.16.
                            let length = isqrt(((focal * focal + half * half) as u64) << 32) as i64;
                            let at = |off: i64| {
                                // focal c - half z = (radius + off) length
                                let c = ((((i64::from(radius) + off) * length) >> 16) + half * i64::from(depth)) / focal;
                                let mut centre = [0, 0, depth];
                                centre[axis] = (sign * c) as i32;
                                placed(&m, centre)
                            };
                            check_eq!((axis, sign, depth, view.may_show(&at(-i64::from(ONE) / 32), reach, error)), (axis, sign, depth, true));
                            check_eq!((axis, sign, depth, view.may_show(&at(i64::from(ONE) / 32), reach, error)), (axis, sign, depth, false));
                        }
                    }
                }
            }
        }

        fn no_point_of_a_dropped_sphere_could_be_kept() {
            // Spheres on a grid about the view's edges and planes: of each one dropped,
            // no point of its surface, of its circle on the near plane (a polygon crossing
            // it is clipped there) nor its centre could show; and many were dropped, many
            // kept.
            let camera = Camera { near: ONE / 8, ..camera() };
            let mut view = ViewVolume::of(&camera);
            let radius = ONE / 2;
            let (mut dropped, mut kept) = (0, 0);
            for z in (-2..=40).map(|k| k * ONE / 2) {
                for x in (-20..=20).map(|k| k * ONE / 2) {
                    for y in [-3 * ONE, 0, 5 * ONE] {
                        let centre = [x, y, z];
                        if view.may_show(&placed(&Matrix::IDENTITY, centre), radius as u32, 0) {
                            kept += 1;
                            continue;
                        }
                        dropped += 1;
                        // The sphere's radius less the bound's rounding (a few raw units).
                        let surface = sphere_points(&camera, centre, radius - 4);
                        let clipped = near_circle(&camera, centre, radius - 4);
                        for p in surface.chain(clipped).chain([centre]) {
                            check_eq!((centre, p, may_be_kept(&camera, p)), (centre, p, false));
                        }
                    }
                }
            }
            check!(dropped > 1_000 && kept > 1_000);
        }

        fn polygons_crossing_the_near_plane_beside_the_view_are_wholly_off_screen() {
            // Quads on a grid about the view's sides, each with two corners behind the near
            // plane and two in front: of each one found beside the view, no point of it
            // clipped to the near plane (its corners in front and its edges' crossings, as
            // the emission moves them) could show; and many were found, many not.
            let camera = Camera { near: ONE / 8, ..camera() };
            let sides = SidePlanes::of(&camera);
            let (mut beside, mut not) = (0, 0);
            for x in (-24..=24).map(|k| k * ONE / 8) {
                for y in [-2 * ONE, 0, ONE / 2, 3 * ONE] {
                    for z in [ONE / 2, 2 * ONE] {
                        let corners = [
                            [x, y, -ONE / 4],
                            [x + ONE / 2, y, -ONE / 4],
                            [x + ONE, y + ONE / 4, z],
                            [x + ONE / 4, y + ONE / 2, z],
                        ];
                        if !sides.all_beside([&corners[0], &corners[1], &corners[2], &corners[3]]) {
                            not += 1;
                            continue;
                        }
                        beside += 1;
                        let crossings = [(0, 3), (1, 2)].map(|(p, q)| crate::render::project::on_near_plane(corners[p], corners[q], camera.near));
                        for p in [corners[2], corners[3]].into_iter().chain(crossings) {
                            check_eq!((corners, p, may_be_kept(&camera, p)), (corners, p, false));
                        }
                    }
                }
            }
            check!(beside > 100 && not > 50);
            // Not used when the projection's smallest depth is past the near plane.
            let near_one = SidePlanes::of(&Camera { near: 1, focal_length: 16384, ..super::tests::camera() });
            let far_left = [-60 * ONE, 0, ONE];
            check!(!near_one.all_beside([&far_left; 4]));
            check!(sides.all_beside([&far_left; 4]));
        }

        fn the_32_bit_root_is_the_64_bit_one() {
            let mut value = 1u32;
            for k in 0..2000u32 {
                for v in [k, value, value.wrapping_sub(1), u32::MAX - k] {
                    check_eq!((v, u64::from(isqrt32(v))), (v, isqrt(u64::from(v))));
                }
                value = value.wrapping_mul(0x9E37_79B9).wrapping_add(k);
            }
        }

        fn the_radius_bounds_any_matrix() {
            // A shear: its rows are shorter than its largest stretch (what a radius of the
            // longest row would miss); the bound holds it.
            let mut shear = Matrix::IDENTITY;
            shear.0[0][1] = ONE;
            shear.0[1][0] = ONE;
            let reach = ONE as u32;
            let Some(radius) = sphere_radius(&shear.0, reach) else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no radius")));
            };
            // Singular values 2 and 0 (and 1): the point (1, 1, 0) / sqrt 2 goes to
            // (2, 2, 0) / sqrt 2, 2 units from the origin.
            check!(radius >= 2 * ONE);
            check!(radius <= 2 * ONE + 4096);
            // A turn: about the reach.
            let turn = Matrix::rotation_xyz([Angle::from_degrees(10), Angle::from_degrees(70), Angle::from_degrees(-20)]);
            let Some(radius) = sphere_radius(&turn.0, reach) else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no radius")));
            };
            check!((ONE..=ONE + 1024).contains(&radius));
            // Beyond the scale the limits let through: no bound (the draw is kept).
            let mut huge = Matrix::IDENTITY;
            huge.0[2][2] = MAX_SCALE + 1;
            check_eq!(sphere_radius(&huge.0, reach), None);
            check!(ViewVolume::of(&camera()).may_show(&placed(&huge, [0, 0, -100 * ONE]), reach, rotation_error(&huge)));
        }

        fn a_matrix_near_a_rotation_moves_no_point_past_the_turned_radius() {
            // Turns composed many times over (their rounding adds up), and a turn stretched
            // as far as the tolerance lets (columns of length 1 + 2^-11, nearly): every
            // point of a sphere of 100 units moved by one stays within `turned_radius`, and
            // the stretched one's points go past the reach (so a radius of the reach alone
            // would fail here).
            let step = Matrix::rotation_xyz([Angle::from_degrees(7), Angle::from_degrees(-13), Angle::from_degrees(29)]);
            let mut composed = step;
            for _ in 0..6 {
                composed = composed.then(&step);
            }
            let mut stretched = Matrix::rotation_xyz([Angle::from_degrees(40), Angle::from_degrees(10), Angle(0)]);
            for row in &mut stretched.0 {
                for m in &mut row[..3] {
                    // 1 + 0.45 x 2^-10, so that the columns' squares are within 2^-10 of 1.
                    *m = ((i64::from(*m) * ((1 << 26) + 30_199)) >> 26) as i32;
                }
            }
            let reach = 100 * ONE as u32;
            let Some(radius) = turned_radius(reach) else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no radius")));
            };
            let mut farthest_stretched = 0;
            for (case, m) in [composed, stretched].iter().enumerate() {
                check_eq!((case, rotation_error(m) <= TURN_TOLERANCE), (case, true));
                for i in 0..64 {
                    let (yaw, pitch) = (Angle((i * 0x0400) as i16), Angle(((i % 7) as i16 - 3) * 0x1200));
                    let r = i64::from(reach);
                    let across = (r * i64::from(pitch.cos())) >> 16;
                    let p = [
                        ((across * i64::from(yaw.sin())) >> 16) as i32,
                        ((r * i64::from(pitch.sin())) >> 16) as i32,
                        ((across * i64::from(yaw.cos())) >> 16) as i32,
                    ];
                    let moved = m.0.map(|row| (i64::from(row[0]) * i64::from(p[0]) + i64::from(row[1]) * i64::from(p[1]) + i64::from(row[2]) * i64::from(p[2])) >> 16);
                    let length = isqrt(moved.iter().map(|c| (c * c) as u64).sum()) as i64;
                    check_eq!((case, i, length <= i64::from(radius)), (case, i, true));
                    if case == 1 {
                        farthest_stretched = farthest_stretched.max(length);
                    }
                }
            }
            check!(farthest_stretched > i64::from(reach) + 1000);
        }

        fn side_planes_wait_for_the_projections_smallest_depth() {
            // A near plane nearer than the projection's smallest depth (2 x focal + 1 raw):
            // points between are projected as if there, so a sphere reaching there is kept
            // even when it is beyond a side.
            let camera = Camera { near: 1, focal_length: 16384, ..camera() };
            let mut view = ViewVolume::of(&camera);
            let min_depth = Projection::of(&camera).min_depth();
            check!(min_depth > camera.near);
            let beside = |z: i32| placed(&Matrix::IDENTITY, [40 * ONE, 0, z]);
            check!(view.may_show(&beside(min_depth), ONE as u32, 0));
            check!(!view.may_show(&beside(4 * ONE), ONE as u32, 0));
            // A screen as wide as the coordinates' limit: no side is used.
            let mut wide = ViewVolume::of(&Camera { width: 4094, ..super::tests::camera() });
            check!(wide.may_show(&placed(&Matrix::IDENTITY, [0, 60 * ONE, 4 * ONE]), ONE as u32, 0));
        }
    }
}
