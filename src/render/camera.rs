//! The camera: where it is, where it looks, and how it projects onto the screen.

use crate::math::{Angle, Matrix, Vec3, ONE};

/// A perspective camera in the Saturn's axes (X right, Y down, Z forward).
///
/// The engine's limits (docs/format.md, "Engine limits"), checked when a frame begins and
/// when a model is drawn (a [`DrawError`](super::DrawError), never an overflow):
/// `focal_length` 1 to [`MAX_FOCAL_LENGTH`](super::limits::MAX_FOCAL_LENGTH) pixels,
/// `width` and `height` 2 to [`MAX_SCREEN_SIZE`](super::limits::MAX_SCREEN_SIZE),
/// `0 < near <= far`, and `position` within 32,767 units of the world's origin
/// (`CameraOutOfRange`). Each draw's placement (camera x transform, x root and bones for a
/// posed model) must compose exactly, scale by at most
/// [`MAX_SCALE`](super::limits::MAX_SCALE) (64), and keep every point the model can have
/// ([`Model::reach`](crate::Model::reach) from its origin) within 32,767 units of the
/// camera along each of its axes (`OutOfReach`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Camera {
    /// Position in world units (Q16.16).
    pub position: Vec3,
    /// Rotation around X, Y then Z.
    pub rotation: [Angle; 3],
    /// Distance from the eye to the screen, in pixels: 192 on a 320-pixel-wide screen
    /// is a horizontal field of view of about 80 degrees.
    pub focal_length: i32,
    /// Screen width in pixels.
    pub width: u16,
    /// Screen height in pixels.
    pub height: u16,
    /// Nearest depth drawn (Q16.16 world units).
    pub near: i32,
    /// Farthest depth drawn (Q16.16 world units).
    pub far: i32,
}

impl Default for Camera {
    /// At the origin looking along +Z, on a 320x224 screen.
    fn default() -> Self {
        Self {
            position: [0; 3],
            rotation: [Angle(0); 3],
            focal_length: 192,
            width: 320,
            height: 224,
            near: ONE / 8,
            far: 1024 * ONE,
        }
    }
}

impl Camera {
    /// A [default](Self::default) camera `distance` in front of `target` (towards -Z), looking
    /// at it along +Z: a model seen whole from the front at its
    /// [`center`](crate::Model::center) and a distance of a few times its radius.
    ///
    /// ```
    /// use jom::math::ONE;
    /// let camera = jom::render::Camera::facing([0, ONE, 2 * ONE], 4 * ONE);
    /// assert_eq!(camera.position, [0, ONE, -2 * ONE]);
    /// ```
    pub fn facing(target: Vec3, distance: i32) -> Self {
        let [x, y, z] = target;
        Self {
            position: [x, y, z.saturating_sub(distance)],
            ..Self::default()
        }
    }

    /// World to camera space.
    pub fn view(&self) -> Matrix {
        Matrix::translation(self.position)
            .then(&Matrix::rotation_xyz(self.rotation))
            .inverse_rigid()
    }

    /// Whether a sphere (world space) may be on screen: `false` only when it is wholly
    /// behind the near plane, past the far plane or outside a side of the view
    /// (`jo_3d_is_sphere_visible`), so a whole model can be skipped.
    pub fn is_sphere_visible(&self, center: Vec3, radius: i32) -> bool {
        let [x, y, z] = self.view().apply(center);
        let (z, r) = (i64::from(z), i64::from(radius.abs()));
        if z + r < i64::from(self.near) || z - r > i64::from(self.far) {
            return false;
        }
        // A side plane through the eye: |x| / z <= half width / focal. The sphere is
        // outside when its centre is farther than r from the plane, measured along the
        // plane's normal (length sqrt(focal² + half²), bounded here by focal + half).
        let focal = i64::from(self.focal_length);
        let outside =
            |coordinate: i64, half: i64| coordinate.abs() * focal - z * half > r * (focal + half);
        !(outside(i64::from(x), i64::from(self.width / 2))
            || outside(i64::from(y), i64::from(self.height / 2)))
    }
}
