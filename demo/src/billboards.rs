//! The `billboards` feature: sprites of the robot's first texture standing around the
//! figures (in front of some, behind others: sorted with their polygons), plain, half
//! transparent, meshed and tinted, and a fog the figures and the billboards fade into
//! with their distance. Placed for the robot (a model the scene draws at its own size).
//! Shared, word for word, with the host's picture of the same frame
//! (`tools/vdp1-soft/examples/demo_frame.rs --billboards`, `ci/billboards.sh`).

use jom::render::{Billboard, BillboardLook, Camera, DrawError, Fog, Frame, ModelHandle, Renderer};
use jom::vdp1::{Vdp1, ZoomPoint};
use jom::Model;

/// The billboards a frame draws at most.
pub const COUNT: usize = 8;

/// Where each billboard stands, in sixteenths of the model's radius from its centre (X,
/// Z), and how it is drawn.
const PLACES: [([i32; 2], Look); 6] = [
    ([-30, -26], Look::Plain),
    ([-4, -30], Look::HalfTransparent),
    ([22, -20], Look::Tinted),
    ([-20, 12], Look::Mesh),
    ([8, 10], Look::Plain),
    ([30, 40], Look::Plain),
];

#[derive(Clone, Copy)]
enum Look {
    Plain,
    HalfTransparent,
    Mesh,
    Tinted,
}

/// The fog: from just before the nearest figure to past the farthest, towards the back
/// screen's blue (`scene::BACKGROUND`), from `camera` (the scene's) and the model's radius.
pub fn fog(model: &Model<'_>, camera: &Camera) -> Fog {
    let radius = model.radius().to_bits();
    let distance = (model.center().raw()[2] - camera.position[2]).max(radius);
    Fog {
        colour: 0x8000 | 14 << 10 | 8 << 5 | 6,
        near: distance - radius,
        far: distance + 3 * radius,
    }
}

/// Draws the billboards of `robot`'s first texture into `frame` (none when it has no
/// texture in VRAM).
pub fn draw<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    renderer: &Renderer<'_, V>,
    robot: &ModelHandle<'_, '_>,
) -> Result<(), DrawError> {
    let Some(sprite) = renderer.sprite(robot, 0) else {
        return Ok(());
    };
    let model = robot.model();
    let radius = i64::from(model.radius().to_bits());
    let [cx, cy, cz] = model.center().raw();
    let step = |sixteenths: i32| ((radius * i64::from(sixteenths)) >> 4) as i32;
    for ([x, z], look) in PLACES {
        let mut board = Billboard::new(
            [cx + step(x), cy + step(8), cz + step(z)],
            [step(10), step(14)],
            sprite,
        );
        board.anchor = ZoomPoint::LowerCenter;
        board.look = match look {
            Look::Plain => BillboardLook::default(),
            Look::HalfTransparent => BillboardLook {
                half_transparent: true,
                ..BillboardLook::default()
            },
            Look::Mesh => BillboardLook {
                mesh: true,
                ..BillboardLook::default()
            },
            Look::Tinted => BillboardLook {
                gouraud: Some(0x8000 | 12 << 10 | 16 << 5 | 24),
                ..BillboardLook::default()
            },
        };
        frame.draw_billboard(&board)?;
    }
    Ok(())
}
