//! What the world shows: the village's nine cells and the forest around it, the character
//! walking among them under the pad, the camera following behind it, the light, the
//! VDP2's floor and sky. Shared, word for word, with the host program that draws the
//! fixed frame through the software VDP1 (`tools/vdp1-soft/examples/world_frame.rs`
//! includes this file).
//!
//! Where each part of issue 42 is used or plugs in, one place each (marked `ISSUE 42`):
//! - billboards (item 1): [`draw_trees`] draws each of the forest's 40 trees as a billboard
//!   of its picture, at the trees of `FOREST.JOM` (two crossed quads a tree, which the
//!   program loads for the picture and the places, [`trees`], and does not draw);
//! - fog (item 5): [`FOG`], the frame's fog towards the sky's horizon colour (the program's
//!   `fog` feature: off by default, for its cost);
//! - culling by region (item 3): [`draw_level`] draws the village, one model of nine cells
//!   (its nine groups) converted with `--cells 6`: 36 regions of 5 x 5 units, each culled
//!   by its own bounding sphere before its points are transformed;
//! - detail by distance (item 4): [`draw_people`] draws the character and the
//!   [`VILLAGERS`] (the same model, standing idle about the village) each at the level of
//!   detail its size on screen chooses, with hysteresis: the model itself (1,154 quads) or
//!   its level 1 (410 quads, `tools/blender/showcase.py`'s `Body_LOD1`, skinned to the same
//!   armature), which keeps the model's skeleton: one pose moves either.

use jom::hw::ScreenWidth;
use jom::math::{Angle, Matrix, Vec3, ONE};
use jom::render::{
    Billboard, BillboardLook, Camera, DrawError, Fog, Frame, Lod, ModelHandle, Posed,
};
use jom::vdp1::{Sprite, Vdp1, ZoomPoint};
use jom::vdp2::{Floor, FloorError, Sky};
use jom::Model;

/// The back screen's colour (RGB555) where neither the VDP1 nor the floor draws: the
/// sky's horizon colour (the sky itself is the back screen's colour per line).
pub const BACKGROUND: u16 = 0x8000 | SKY.horizon;

/// The character's file (the first showcase's character with its lower level of detail,
/// `tools/blender/showcase.py`'s `hero_lod.glb`), the village's and the forest's
/// (`tools/blender/world.py`) on the CD.
pub const HERO_FILE: &str = "HERO.JOM";
pub const LEVEL_FILE: &str = "LEVEL.JOM";
pub const FOREST_FILE: &str = "FOREST.JOM";

/// The renderer's memory: the points and polygons of every model drawn in one frame (the
/// village's 2,531 polygons and 3,978 points, three people's 1,154 and 1,186 at full
/// detail: 5,993 polygons and 7,536 points: a posed draw takes room for all of its own,
/// seen or not); command and gouraud tables for the most any view draws (2,447 command
/// tables: `world_frame --sweep` checks every view within reach, none left out) with room
/// for the HUD and other poses; the planes of the models loaded (the character's two
/// levels, the village, the forest); 4 draws: the village, the character and the two
/// villagers (`FRAME_DRAWS`, 4: the renderer emits the polygons of later draws one at a
/// time); the trees' billboards. `Some` the first time, `None` after.
macro_rules! world_memory {
    () => {
        jom::renderer_memory!(points: 7536, polygons: 6016, commands: 2816,
            frame_gouraud: 2688, model_gouraud: 16, textures: 320, model_textures: 160,
            model_polygons: 16, model_planes: 4352, draws: 4)
        .zip(jom::billboard_memory!($crate::scene::TREES))
        .map(|(memory, (placed, keys))| memory.with_billboards(placed, keys))
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
    walker.moved(1, i32::from(frame.is_multiple_of(2)))
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

/// The light, from the upper left front, a third of it ambient.
pub const LIGHT: jom::render::Light = jom::render::Light {
    direction: [ONE / 2, ONE * 3 / 4, ONE / 2],
    ambient: ONE / 3,
};

/// ISSUE 42 item 5: the frame's fog, towards the sky's horizon colour (where the floor
/// ends, at the camera's `far`), from 16 units out: the forest across the village (20 to
/// 45 units away) half faded and more.
pub const FOG: Fog = Fog {
    colour: SKY.horizon,
    near: 16 * ONE,
    far: 64 * ONE,
};

/// The trees of the forest.
pub const TREES: usize = 40;

/// A tree: the middle of its foot on the floor, its width and height (world units).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Tree {
    pub foot: Vec3,
    pub size: [i32; 2],
}

/// The trees of `forest` (`FOREST.JOM`: each tree two crossed quads of its picture, the
/// picture whole on each) into `out`, as many as fit; how many. Each quad gives its foot
/// (the middle of its two lowest corners), width and height; the second quad of a tree,
/// whose foot is the first's (within a sixteenth of a unit), is left out.
pub fn trees(forest: &Model<'_>, out: &mut [Tree; TREES]) -> usize {
    let points = forest.points();
    let mut count = 0;
    for polygon in forest.polygons() {
        let mut corners = polygon.corners().map(|i| points[usize::from(i)].raw());
        // Lowest first (Y is down: the largest y).
        corners.sort_unstable_by_key(|c| core::cmp::Reverse(c[1]));
        let [a, b, .., top] = corners;
        let foot = [(a[0] + b[0]) / 2, a[1], (a[2] + b[2]) / 2];
        let (dx, dz) = (i64::from(a[0] - b[0]), i64::from(a[2] - b[2]));
        let width = jom::math::isqrt((dx * dx + dz * dz) as u64) as i32;
        let tree = Tree {
            foot,
            size: [width, a[1] - top[1]],
        };
        let near = |t: &Tree| {
            (t.foot[0] - foot[0]).abs() < ONE / 16 && (t.foot[2] - foot[2]).abs() < ONE / 16
        };
        if count < TREES && !out[..count].iter().any(near) {
            out[count] = tree;
            count += 1;
        }
    }
    count
}

/// The level's models, loaded.
pub struct Level<'h> {
    pub village: &'h ModelHandle<'h, 'h>,
    /// The tree's picture in VRAM (the forest model's texture).
    pub tree: Sprite,
    pub trees: &'h [Tree],
}

/// Draws the village, where it was modelled. ISSUE 42 item 3 (culling by region): its 36
/// regions (`--cells 6`), each culled by its own bounding sphere before its points are
/// transformed (the renderer does it for a model with regions).
pub fn draw_level<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    level: &Level<'f>,
) -> Result<(), DrawError> {
    frame.draw(level.village, &Matrix::IDENTITY)
}

/// Draws the forest. ISSUE 42 item 1 (billboards): each tree a billboard of its picture,
/// standing on its foot, faded by the fog.
pub fn draw_trees<V: Vdp1>(
    frame: &mut Frame<'_, '_, V>,
    level: &Level<'_>,
) -> Result<(), DrawError> {
    level.trees.iter().try_for_each(|tree| {
        frame.draw_billboard(&Billboard {
            position: tree.foot,
            size: tree.size,
            sprite: level.tree,
            anchor: ZoomPoint::LowerCenter,
            look: BillboardLook::default(),
        })
    })
}

/// The character's levels of detail the program loads: the model itself and its level 1.
pub const HERO_LEVELS: usize = 2;

/// Villagers: the character's model again, standing idle at fixed places in the village's
/// streets, away from the square (each a walker that does not walk: its place and the way
/// it faces). From the square most stand 10 to 20 units away, small on screen: their
/// lower level of detail.
pub const VILLAGERS: [Walker; 2] = [
    Walker {
        x: 7 * ONE,
        z: 2 * ONE,
        yaw: Angle(-0x4000),
    },
    Walker {
        x: -ONE - ONE / 2,
        z: 8 * ONE,
        yaw: Angle(-0x7000),
    },
];

/// The character and the villagers: the model's levels loaded (the model itself first),
/// and each one's level of detail, kept from frame to frame (the character's first).
pub struct People<'h> {
    pub levels: [&'h ModelHandle<'h, 'h>; HERO_LEVELS],
    pub lods: [Lod; 1 + VILLAGERS.len()],
}

impl<'h> People<'h> {
    pub fn new(levels: [&'h ModelHandle<'h, 'h>; HERO_LEVELS]) -> Self {
        Self {
            levels,
            lods: [Lod::FINEST; 1 + VILLAGERS.len()],
        }
    }
}

/// How far from a person's feet its points may go (the model's reach is 2.2 units) with a
/// margin for the camera's pitch, which [`may_show`] leaves out.
const PERSON_REACH: i32 = 4 * ONE;

/// Whether a person standing at `at` may show in the view of the camera behind `walker`
/// (`camera`): not wholly behind it or past the side of the view, seen from above. The
/// renderer culls a posed draw by its polygons only (its bones may move its points off its
/// bounding sphere), so a villager out of view would cost the transformation of its points
/// and their room in the renderer's memory.
fn may_show(camera: &Camera, walker: &Walker, at: &Walker) -> bool {
    let (dx, dz) = (at.x - camera.position[0], at.z - camera.position[2]);
    let (sin, cos) = (walker.yaw.sin(), walker.yaw.cos());
    let ahead = i64::from(times(dx, sin) + times(dz, cos));
    let across = i64::from(times(dx, cos) - times(dz, sin));
    let (focal, half) = (i64::from(camera.focal_length), i64::from(camera.width / 2));
    let reach = i64::from(PERSON_REACH);
    ahead > -reach && across.abs() * focal <= ahead * half + reach * (focal + half)
}

/// Draws the character, `posed`, and the villagers in the `idle` pose, those that may show
/// from the camera behind `walker` (`camera`). ISSUE 42 item 4 (detail by distance): each
/// at the level its size on screen chooses (the model from 48 pixels of radius, its level
/// 1 below: `jomc`'s default), with hysteresis. The character, 6 units before the camera,
/// is some 70 pixels: the model itself.
pub fn draw_people<'f, V: Vdp1>(
    frame: &mut Frame<'f, '_, V>,
    people: &mut People<'f>,
    posed: &Posed<'_>,
    idle: &IdlePose<'_>,
    (camera, walker): (&Camera, &Walker),
) -> Result<(), DrawError> {
    let [hero, villagers @ ..] = &mut people.lods;
    frame.draw_posed_lod(&people.levels, hero, posed)?;
    for (villager, lod) in VILLAGERS.iter().zip(villagers) {
        if may_show(camera, walker, villager) {
            let place = villager.place();
            let posed = Posed {
                transform: &place,
                root: idle.root,
                bones: idle.bones,
            };
            frame.draw_posed_lod(&people.levels, lod, &posed)?;
        }
    }
    Ok(())
}

/// The villagers' pose, idle, shared by them all: its root's and bones' matrices
/// (`root_matrix`, and `bone_matrices_with` on both CPUs), made once a frame rather than
/// in each villager's draw on the master.
pub struct IdlePose<'p> {
    pub root: &'p Matrix,
    pub bones: &'p [Matrix],
}
