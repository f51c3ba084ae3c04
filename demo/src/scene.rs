//! What the demo shows: three figures of its model (the robot) standing apart, so that
//! from the camera each one hides part of another: the nearest plays the second
//! animation, the middle one the first, the farthest stands rigid at rest. Shared, word for
//! word, with the host's picture of the same frame (`tools/vdp1-soft/examples/demo_frame.rs`)
//! and the SH-2 test that compares the committed command list with the host's
//! (`sh2-test/src/saturn.rs`), which include this file.
//!
//! A model with regions (REGN: a level, docs/levels.md) is drawn once, rigid, from a
//! camera above its centre looking down and turned by the yaw: part of it off the view,
//! its regions there culled (`ci/models.sh level`).

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{Camera, DrawError, Frame, Light, ModelHandle, Posed};
use jom::vdp1::Vdp1;
use jom::Model;

/// The most commands Yabause's VDP1 follows in a frame, the jump at VRAM 0 counted: its
/// loop over the list (`Vdp1Draw`, vdp1.c, marked "fix me") stops at 2,000 and the rest
/// of the list is not drawn (the real VDP1 follows a list to its end). The hand of
/// `ci/models.sh` (three figures of 873 polygons, all drawn: its materials are two-sided)
/// made a list of 2,624 there, and Yabause showed the nearest figure, the end of the list,
/// without its nearest polygons (its fingers' insides showing), from a list that was
/// the host's byte for byte.
pub const YABAUSE_MAX_COMMANDS: usize = 2000;

/// The renderer's memory for this scene, sized for the robot and every model of
/// `ci/models.sh` (the PlayStation hand: 618 points and 873 polygons a figure, each lit
/// through a gouraud table of the frame; the 3DS cow: 722 textures): three figures of up
/// to 682 points and 900 polygons; a list of what Yabause draws (the jump at VRAM 0 and
/// 1,999 commands before the end: the 3 head commands, the polygons, the frames per
/// second), the farthest polygons of a larger scene left out (as the frame's stats say)
/// on both sides of the comparison. `Some` the first time, `None` after.
macro_rules! scene_memory {
    () => {
        jom::renderer_memory!(points: 2048, polygons: 2700,
            commands: $crate::scene::YABAUSE_MAX_COMMANDS,
            frame_gouraud: $crate::scene::YABAUSE_MAX_COMMANDS, model_gouraud: 256,
            textures: 768, model_textures: 768, model_polygons: 1024, model_planes: 2700, draws: 4)
    };
}
pub(crate) use scene_memory;

/// The back screen behind the figures (RGB555): dark blue.
pub const BACKGROUND: u16 = 0x8000 | 10 << 10 | 4 << 5 | 2;

/// The animation time of the fixed frame, in ticks.
pub const FIXED_TICKS: u32 = 6;

/// The camera's turn around the model in the fixed frame.
pub const FIXED_YAW: Angle = Angle(0);

/// One figure: where it stands, in sixteenths of the model's radius from the model's
/// centre (X, Z), its turn around the vertical, and the animation it plays (`None`: drawn
/// rigid, as stored).
pub struct Figure {
    pub offset: [i32; 2],
    pub yaw: Angle,
    pub animation: Option<usize>,
}

/// The figures, nearest the fixed camera first: a renderer that painted each model after
/// the one drawn before it (instead of sorting every polygon of the frame together) would
/// put the farther figures over the nearer ones.
pub const FIGURES: [Figure; 3] = [
    Figure {
        offset: [-12, -14],
        yaw: Angle(-0x1800),
        animation: Some(1),
    },
    Figure {
        offset: [0, 0],
        yaw: Angle(0),
        animation: Some(0),
    },
    Figure {
        offset: [14, 20],
        yaw: Angle(0x2000),
        animation: None,
    },
];

/// The light, from the upper left front.
pub const LIGHT: Light = Light {
    direction: [ONE / 2, ONE / 2, ONE * 7 / 10],
    ambient: ONE / 3,
};

/// One player per figure, playing its animation (animation numbers past the model's wrap
/// around; a model without animations stands at rest).
pub fn players<'a>(model: &Model<'a>) -> [AnimationPlayer<'a>; 3] {
    let count = model.animations().len();
    FIGURES.each_ref().map(|figure| {
        let mut player = AnimationPlayer::new(model);
        if let (Some(animation), true) = (figure.animation, count > 0) {
            player.play(animation % count);
        }
        player
    })
}

/// The farthest any point may be from the camera: within Q16.16, with a margin.
const FARTHEST_POINT: i32 = 32_000 << 16;

/// The far plane: past the far side of the farthest figure (the camera's distance, 1.25
/// radii behind the centre, one radius more), and never nearer than the engine's default
/// (which the robot's scene keeps).
fn far_plane(distance: i32, radius: i32) -> i32 {
    let farthest = i64::from(distance) + 9 * i64::from(radius) / 4;
    Camera::default()
        .far
        .max(farthest.min(i64::from(FARTHEST_POINT)) as i32)
}

/// The largest radius the scene draws a model at, in units: a larger model (the 3DS cow's
/// is 6,130) is scaled down to it, so that every figure stays well within the engine's
/// reach of the camera (32,767 units along an axis, docs/format.md "Engine limits").
const LARGEST_RADIUS: i32 = 2048;

/// The scale the scene draws `model` at (Q16.16): 1, or less for a model larger than
/// [`LARGEST_RADIUS`].
fn scale(model: &Model<'_>) -> i32 {
    let radius = model.radius().to_bits();
    if radius <= LARGEST_RADIUS << 16 {
        ONE
    } else {
        ((i64::from(LARGEST_RADIUS << 16) << 16) / i64::from(radius)) as i32
    }
}

/// `v` times the scene's scale `s` (both Q16.16).
fn scaled(v: i32, s: i32) -> i32 {
    ((i64::from(v) * i64::from(s)) >> 16) as i32
}

/// Whether the scene draws `model` as a level: a model with regions (REGN).
fn is_level(model: &Model<'_>) -> bool {
    !model.regions().is_empty()
}

/// The camera turned by `yaw` around the model's centre (as the scene scales it), 4.5
/// radii away, a little above; for a level, a sixth of its radius above its centre,
/// looking 30 degrees down and turned by `yaw`.
pub fn camera(model: &Model<'_>, yaw: Angle) -> Camera {
    if is_level(model) {
        let s = scale(model);
        let [cx, cy, cz] = model.center().raw().map(|c| scaled(c, s));
        let radius = scaled(model.radius().to_bits(), s);
        return Camera {
            position: [cx, cy - radius / 6, cz],
            rotation: [Angle::from_degrees(-30), yaw, Angle(0)],
            far: far_plane(0, radius),
            ..Camera::default()
        };
    }
    let s = scale(model);
    let [cx, cy, cz] = model.center().raw().map(|c| scaled(c, s));
    let radius = scaled(model.radius().to_bits(), s);
    let room = i64::from(FARTHEST_POINT) - 9 * i64::from(radius) / 4;
    let distance = (9 * i64::from(radius) / 2).min(room).max(0) as i32;
    let (sin, cos) = (yaw.sin(), yaw.cos());
    let offset = |v: i32| ((i64::from(v) * i64::from(distance)) >> 16) as i32;
    Camera {
        position: [cx - offset(sin), cy - radius / 3, cz - offset(cos)],
        rotation: [Angle(-0x0300), yaw, Angle(0)],
        near: ONE / 8,
        far: far_plane(distance, radius),
        ..Camera::default()
    }
}

/// Where `figure` puts the model: turned around its centre, then moved.
fn placement(model: &Model<'_>, figure: &Figure) -> Matrix {
    let s = scale(model);
    let center = model.center().raw();
    let radius = i64::from(scaled(model.radius().to_bits(), s));
    let step = |sixteenths: i32| ((radius * i64::from(sixteenths)) >> 4) as i32;
    let [dx, dz] = figure.offset.map(step);
    let [cx, cy, cz] = center.map(|c| scaled(c, s));
    let scaling = Matrix([[s, 0, 0, 0], [0, s, 0, 0], [0, 0, s, 0]]);
    Matrix::translation([cx + dx, cy, cz + dz])
        .then(&Matrix::rotation_xyz([Angle(0), figure.yaw, Angle(0)]))
        .then(&scaling)
        .then(&Matrix::translation(center.map(|c| -c)))
}

/// Draws every figure of `robot` into `frame`, each posed by its player.
pub fn draw<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    robot: &'f ModelHandle<'_, '_>,
    players: &[AnimationPlayer<'_>; 3],
) -> Result<(), DrawError> {
    let model = robot.model();
    if is_level(model) {
        let s = scale(model);
        return frame.draw(robot, &Matrix([[s, 0, 0, 0], [0, s, 0, 0], [0, 0, s, 0]]));
    }
    (0..FIGURES.len()).try_for_each(|figure| draw_figure(frame, robot, players, figure))
}

/// Draws figure `index` of `robot` into `frame`, posed by its player.
pub fn draw_figure<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    robot: &'f ModelHandle<'_, '_>,
    players: &[AnimationPlayer<'_>; 3],
    index: usize,
) -> Result<(), DrawError> {
    let model = robot.model();
    let figure = &FIGURES[index];
    let transform = placement(model, figure);
    if figure.animation.is_none() || model.animations().is_empty() {
        return frame.draw(robot, &transform);
    }
    let pose = players[index].pose(model);
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    bone_matrices(model, &pose, &mut bones);
    let root = root_matrix(&pose);
    let posed = Posed {
        transform: &transform,
        root: &root,
        bones: &bones,
    };
    frame.draw_posed(robot, &posed)
}
