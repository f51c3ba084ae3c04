//! What the demo shows at a frame: the camera, the light and the model's place. Shared,
//! word for word, with the host test that renders the same fixed frame through the
//! software VDP1 (`tools/vdp1-soft/tests/demo_frame.rs` includes this file).

use jom::math::{Angle, Matrix, ONE};
use jom::render::{Camera, Light};
use jom::Model;

/// The back screen behind the robot (RGB555): dark blue.
pub const BACKGROUND: u16 = 0x8000 | 10 << 10 | 4 << 5 | 2;

/// The animation played (the first: "walk").
pub const ANIMATION: usize = 0;
/// The animation time of the fixed frame, in ticks.
pub const FIXED_TICKS: u32 = 6;

/// A frame's view of the model.
pub struct Scene {
    /// The camera, on a circle around the model's bounding sphere.
    pub camera: Camera,
    /// The light, from the upper left front.
    pub light: Light,
    /// The model's place: as stored.
    pub transform: Matrix,
}

/// The camera's turn around the model in the fixed frame.
pub const FIXED_YAW: Angle = Angle(0);

/// The far plane: past the sphere's far side (the camera is 3.52 radii from its centre),
/// and never nearer than the engine's default (which the robot's scene keeps). Up to a
/// radius of about 7,000 model units every point's distance from the camera fits Q16.16.
fn far_plane(radius: i32) -> i32 {
    Camera::default().far.max(radius.saturating_mul(5))
}

/// The scene with the camera turned by `yaw` around the model's bounding sphere, at
/// 3.5 radii from its centre.
pub fn at(model: &Model<'_>, yaw: Angle) -> Scene {
    let [cx, cy, cz] = model.center().raw();
    let radius = model.radius().to_bits();
    let distance = 3 * radius + radius / 2;
    let (sin, cos) = (yaw.sin(), yaw.cos());
    let offset = |v: i32| ((i64::from(v) * i64::from(distance)) >> 16) as i32;
    let camera = Camera {
        position: [cx - offset(sin), cy - radius / 3, cz - offset(cos)],
        rotation: [Angle(-0x0300), yaw, Angle(0)],
        near: ONE / 8,
        far: far_plane(radius),
        ..Camera::default()
    };
    let light = Light {
        direction: [ONE / 2, ONE / 2, ONE * 7 / 10],
        ambient: ONE / 3,
    };
    Scene {
        camera,
        light,
        transform: Matrix::IDENTITY,
    }
}
