//! What the world shows: the village's nine cells and the forest around it, the character
//! walking among them under the pad, the camera following behind it, the light, the
//! VDP2's floor and sky. Shared, word for word, with the host program that draws the
//! fixed frame through the software VDP1 (`tools/vdp1-soft/examples/world_frame.rs`
//! includes this file).
//!
//! Where each part of issue 42 plugs in, one place each (marked `ISSUE 42`):
//! - billboards (item 1): [`draw_trees`] draws the forest, `FOREST.JOM`, 40 trees each the
//!   stand-in of two crossed quads of the tree's picture; a billboard of the same picture at
//!   each tree replaces them;
//! - fog (item 5): with [`LIGHT`], the frame's fog towards the sky's horizon colour;
//! - culling by region (item 3): [`draw_level`] draws the village, one model of nine cells
//!   (its nine groups), every point transformed; culled by region, each group by its own
//!   bounding sphere;
//! - detail by distance (item 4): [`draw_hero`] draws the character's one model.

use jom::hw::ScreenWidth;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{Camera, DrawError, Frame, ModelHandle, Posed};
use jom::vdp1::Vdp1;
use jom::vdp2::{Floor, FloorError, Sky};

/// The back screen's colour (RGB555) where neither the VDP1 nor the floor draws: the
/// sky's horizon colour (the sky itself is the back screen's colour per line).
pub const BACKGROUND: u16 = 0x8000 | SKY.horizon;

/// The character's file (the first showcase's, `tools/blender/showcase.py`), the
/// village's and the forest's (`tools/blender/world.py`) on the CD.
pub const HERO_FILE: &str = "HERO.JOM";
pub const LEVEL_FILE: &str = "LEVEL.JOM";
pub const FOREST_FILE: &str = "FOREST.JOM";

/// The renderer's memory: every model of the level in one frame (the nine cells' 2,531
/// polygons and 3,788 points, the forest's 80 and 320, the character's 1,154 and 1,186:
/// 3,765 polygons and 5,294 points: `world_frame --sweep` finds views that transform all),
/// the HUD's commands, 3 draws: the village, the forest, the character (at most
/// `FRAME_DRAWS`, 4: the renderer emits the polygons of later draws one at a time). `Some`
/// the first time, `None` after.
macro_rules! world_memory {
    () => {
        jom::renderer_memory!(points: 5376, polygons: 4096, commands: 4224,
            frame_gouraud: 4096, model_gouraud: 16, textures: 320, model_textures: 160,
            model_polygons: 16, model_planes: 4096, draws: 3)
    };
}
pub(crate) use world_memory;

/// The animations of the character: idle when it stands, walking when it moves.
pub const IDLE: usize = 0;
pub const WALK: usize = 1;
/// Ticks of a cross-fade between them.
pub const CROSS_FADE_TICKS: u32 = 12;

/// The screen: 352 pixels wide, the faster of the SH-2's clocks (as the first showcase).
pub const SCREEN: ScreenWidth = ScreenWidth::W352;

/// The sky: blue overhead, pale at the horizon (RGB555), the VDP2's back screen a line.
pub const SKY: Sky = Sky {
    zenith: 26 << 10 | 16 << 5 | 8,
    horizon: 30 << 10 | 28 << 5 | 24,
};
/// A texel of the floor's picture (`grass.png`, 128 texels: it repeats every 16 units).
pub const TEXEL: i32 = ONE / 8;

/// The floor: the plane y = 0, where the character's feet and the houses stand.
pub fn floor() -> Result<Floor, FloorError> {
    Floor::new(0, TEXEL, SKY)
}

/// Where the character is and where it goes: a point of the floor (X, Z) and the direction
/// it walks in, which the camera looks along from behind it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Walker {
    pub x: i32,
    pub z: i32,
    /// 0: towards +Z; a quarter turn (0x4000): towards +X.
    pub yaw: Angle,
}

/// The fixed frame of the emulator test (and where the program starts): at the square's
/// south edge, looking north-east across the well towards the houses, walking.
pub const FIXED_WALKER: Walker = Walker {
    x: -ONE,
    z: -6 * ONE,
    yaw: Angle(0x0C00),
};
pub const FIXED_TICKS: u32 = 10;

/// How far the character may go from the square's centre: inside the forest.
pub const REACH: i32 = 13 * ONE;
/// A step a field (units), and a turn a field.
pub const STEP: i32 = ONE / 14;
pub const TURN: i16 = 0x0180;

/// The measuring build's walk (`ci/world.sh bench`; `world_frame --walk` counts its
/// polygons on the host): from the square's west edge, a step a frame, turning right every
/// other frame (a circle of about 4 units round the well, each view across the village
/// and into the forest), `MEASURED_FRAMES` frames: the warm-up and the 1,080 measured.
pub const MEASURE_START: Walker = Walker {
    x: -4 * ONE,
    z: 0,
    yaw: Angle(0),
};
#[allow(dead_code)] // Read by the host's `world_frame --walk` only.
pub const MEASURED_FRAMES: u32 = 30 + 1_080;
pub fn measured_walk(walker: Walker, frame: u32) -> Walker {
    walker.moved(1, i32::from(frame % 2 == 0))
}

/// The camera: `DISTANCE` behind the character's chest and `PITCH` above it.
pub const DISTANCE: i32 = 6 * ONE;
pub const PITCH: Angle = Angle(0x0900);
/// The chest, above the feet (Y is down).
const CHEST: i32 = -ONE - ONE / 4;

fn times(a: i32, b: i32) -> i32 {
    ((i64::from(a) * i64::from(b)) >> 16) as i32
}

impl Walker {
    /// One field's move: `ahead` steps forward (-1 back, 0 none, 1 forward) and `turn`
    /// turns (-1 left, 1 right), kept within `REACH` of the centre.
    pub fn moved(self, ahead: i32, turn: i32) -> Walker {
        let yaw = Angle(self.yaw.0.wrapping_add(TURN.wrapping_mul(turn as i16)));
        let (x, z) = (
            self.x + ahead * times(STEP, yaw.sin()),
            self.z + ahead * times(STEP, yaw.cos()),
        );
        let far = i64::from(x) * i64::from(x) + i64::from(z) * i64::from(z)
            > i64::from(REACH) * i64::from(REACH);
        match far {
            true => Walker { yaw, ..self },
            false => Walker { x, z, yaw },
        }
    }

    /// The character's place: turned to face where it walks (its model faces -Z).
    pub fn place(&self) -> Matrix {
        let mut place = Matrix::rotation_y(Angle(self.yaw.0.wrapping_add(i16::MIN)));
        place.0[0][3] = self.x;
        place.0[2][3] = self.z;
        place
    }

    /// The camera behind the character, looking along its way.
    pub fn camera(&self) -> Camera {
        let (sin_yaw, cos_yaw) = (self.yaw.sin(), self.yaw.cos());
        let (sin_pitch, cos_pitch) = (PITCH.sin(), PITCH.cos());
        let across = times(DISTANCE, cos_pitch);
        Camera {
            position: [
                self.x - times(across, sin_yaw),
                CHEST - times(DISTANCE, sin_pitch),
                self.z - times(across, cos_yaw),
            ],
            rotation: [Angle(PITCH.0.wrapping_neg()), self.yaw, Angle(0)],
            width: SCREEN.pixels(),
            near: ONE / 8,
            // The village and its forest are within 40 units; past 64 the floor gives way
            // to the sky's horizon colour (the VDP2 floor stops at `far`).
            far: 64 * ONE,
            ..Camera::default()
        }
    }
}

/// The light, from the upper left front, a third of it ambient. ISSUE 42 item 5 (fog):
/// the frame's fog towards `SKY.horizon` goes with it.
pub const LIGHT: jom::render::Light = jom::render::Light {
    direction: [ONE / 2, ONE * 3 / 4, ONE / 2],
    ambient: ONE / 3,
};

/// The level's models, loaded.
pub struct Level<'h> {
    pub village: &'h ModelHandle<'h, 'h>,
    pub forest: &'h ModelHandle<'h, 'h>,
}

/// Draws the village, where it was modelled. ISSUE 42 item 3 (culling by region): its
/// nine groups (cells), each culled by its own bounding sphere before its points are
/// transformed.
pub fn draw_level<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    level: &Level<'f>,
) -> Result<(), DrawError> {
    frame.draw(level.village, &Matrix::IDENTITY)
}

/// Draws the forest, one model, where it was modelled. ISSUE 42 item 1 (billboards): a
/// billboard of the tree's picture at each tree (`forest` of `tools/blender/world.py`: its
/// rule), a command each, instead of the stand-in's two quads.
pub fn draw_trees<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    level: &Level<'f>,
) -> Result<(), DrawError> {
    frame.draw(level.forest, &Matrix::IDENTITY)
}

/// Draws the character. ISSUE 42 item 4 (detail by distance): its levels of detail chosen
/// by its size on screen.
pub fn draw_hero<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    hero: &'f ModelHandle<'f, 'f>,
    posed: &Posed<'_>,
) -> Result<(), DrawError> {
    frame.draw_posed(hero, posed)
}
