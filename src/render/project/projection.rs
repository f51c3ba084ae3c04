//! One point onto the screen: what the projection needs of a camera ([`Projection`]), the
//! projection of a camera-space point, and where an edge crossing the near plane meets it.

use crate::math::{div_64_32, Vec3};
use crate::render::camera::Camera;
use crate::vdp1::Point;

/// Screen coordinates are kept within what VDP1 vertex fields hold.
pub(crate) const SCREEN_LIMIT: i32 = 2047;

/// What projecting a point needs of the camera (the SH-2 assembly of the transform reads
/// this layout: `rt/layout.inc`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Projection {
    pub(crate) focal_length: i32,
    /// The smallest depth divided by: the near plane, or more when the focal length
    /// needs it (nearer than 2 x focal length / 65536 units the scale would not fit in 32
    /// bits).
    pub(crate) min_depth: i32,
}

impl Projection {
    /// The focal length, in pixels.
    pub fn focal_length(&self) -> i32 {
        self.focal_length
    }

    /// The smallest depth divided by (Q16.16): nearer points are projected as if there.
    pub fn min_depth(&self) -> i32 {
        self.min_depth
    }

    /// The projection of `camera`.
    pub fn of(camera: &Camera) -> Self {
        Self {
            focal_length: camera.focal_length,
            min_depth: camera.near.max(2 * camera.focal_length.abs() + 1),
        }
    }
}

/// `(m[0] x + m[1] y + m[2] z) >> 16 + m[3]`: one row of a matrix applied to a point, each
/// product 32 x 32 -> 64 bits (`dmuls.l` on the SH-2).
#[inline(always)]
pub(crate) fn row_apply(m: &[i32; 4], x: i32, y: i32, z: i32) -> i32 {
    // Wrapping (the release code is the same): a stretched bone's matrix (BMOT) may have
    // large entries, and no input may make the host's checked build panic.
    let sum = (i64::from(m[0]) * i64::from(x))
        .wrapping_add(i64::from(m[1]) * i64::from(y))
        .wrapping_add(i64::from(m[2]) * i64::from(z));
    ((sum >> 16) as i32).wrapping_add(m[3])
}

/// A screen coordinate: `v * scale / 2^32`, kept within what VDP1 vertex fields hold.
#[inline(always)]
pub(crate) fn screen_axis(v: i32, scale: i32) -> i16 {
    let s = ((i64::from(v) * i64::from(scale)) >> 32) as i32;
    s.clamp(-SCREEN_LIMIT, SCREEN_LIMIT) as i16
}

/// The screen position of a camera-space point (clamped when it is near or behind the
/// eye: such points are moved onto the near plane before use).
pub(crate) fn project(p: Vec3, camera: &Camera) -> Point {
    let projection = Projection::of(camera);
    let scale = div_64_32(
        i64::from(projection.focal_length) << 32,
        p[2].max(projection.min_depth),
    );
    Point::new(screen_axis(p[0], scale), screen_axis(p[1], scale))
}

/// Where the edge from `p` (behind the plane z = `near`) to `q` (on it or in front) meets
/// the plane. In 64 bits (issue #13): within the engine's limits two corners are up to
/// 2^32 raw apart along an axis, and the position along the edge is kept to 2^-30 (in
/// Q16.16 a 40,000-unit edge would miss by a third of a unit, tens of pixels on a near
/// plane 1 unit away).
pub(crate) fn on_near_plane(p: Vec3, q: Vec3, near: i32) -> Vec3 {
    let behind = i64::from(near) - i64::from(p[2]);
    let span = i64::from(q[2]) - i64::from(p[2]);
    // 0 < behind <= span < 2^32: the fraction takes 30 bits, each product below 2^62. A
    // span that fits an i32 (all but the farthest apart) divides by the SH-2's division
    // unit (a 64-bit division is a library call of a few thousand cycles), the same
    // quotient.
    let t = match i32::try_from(span) {
        Ok(span) => i64::from(div_64_32(behind << 30, span)),
        Err(_) => (behind << 30) / span,
    };
    core::array::from_fn(|k| {
        let delta = i64::from(q[k]) - i64::from(p[k]);
        // Between p[k] and q[k]: an i32.
        (i64::from(p[k]) + ((delta * t) >> 30)) as i32
    })
}
