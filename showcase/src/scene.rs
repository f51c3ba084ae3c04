//! What the showcase shows: the camera orbiting the character, the light, the places of
//! the character and of the ground's tiles. Shared, word for word, with the host program
//! that draws the fixed frame through the software VDP1
//! (`tools/vdp1-soft/examples/showcase_frame.rs` includes this file).

use jom::hw::ScreenWidth;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{Camera, Light};

/// The back screen behind the scene (RGB555): a pale sky blue.
pub const BACKGROUND: u16 = 0x8000 | 28 << 10 | 22 << 5 | 16;

/// The character's and the ground tile's files on the CD, converted from
/// `tools/blender/showcase.py`'s scene.
pub const HERO_FILE: &str = "HERO.JOM";
pub const GROUND_FILE: &str = "GROUND.JOM";

/// The animation the character starts with ("Idle_loop", "Walk_loop", "Wave_loop").
pub const FIRST_ANIMATION: usize = 0;
/// Ticks of a cross-fade to the next animation.
pub const CROSS_FADE_TICKS: u32 = 20;

/// The fixed frame of the emulator test (and the view the program starts with): walking,
/// seen from the front, a little from the left and above.
pub const FIXED_ANIMATION: usize = 1;
pub const FIXED_TICKS: u32 = 10;
pub const FIXED_ORBIT: Orbit = Orbit {
    yaw: Angle(0x0C00),
    pitch: Angle(0x1000),
    distance: 5 * ONE,
};

/// Where the camera is: turned by `yaw` around the character, raised by `pitch`, at
/// `distance` (world units, Q16.16) from the point it looks at.
#[derive(Clone, Copy)]
pub struct Orbit {
    pub yaw: Angle,
    pub pitch: Angle,
    pub distance: i32,
}

/// The screen: 352 pixels wide, whose modes run the SH-2s at 28.64 MHz against 26.87 for
/// 320 (`jom::hw::smpc::change_clock`): the same frame's work in 6.6% less time. The focal
/// length stays the default (192 pixels), so the view is wider than on 320 pixels (about 85
/// degrees across, against 80), as high.
pub const SCREEN: ScreenWidth = ScreenWidth::W352;

/// How close and far the pad takes the camera, and how high.
pub const NEAREST: i32 = 2 * ONE;
pub const FARTHEST: i32 = 9 * ONE;
pub const LOWEST: Angle = Angle(0x0200);
pub const HIGHEST: Angle = Angle(0x3000);

/// The point the camera looks at: the character's chest (Y is down).
const TARGET: [i32; 3] = [0, -ONE, 0];

fn times(a: i32, b: i32) -> i32 {
    ((i64::from(a) * i64::from(b)) >> 16) as i32
}

impl Orbit {
    /// The camera on this orbit, looking at the character.
    pub fn camera(&self) -> Camera {
        let (sin_yaw, cos_yaw) = (self.yaw.sin(), self.yaw.cos());
        let (sin_pitch, cos_pitch) = (self.pitch.sin(), self.pitch.cos());
        let across = times(self.distance, cos_pitch);
        Camera {
            position: [
                TARGET[0] - times(across, sin_yaw),
                TARGET[1] - times(self.distance, sin_pitch),
                TARGET[2] - times(across, cos_yaw),
            ],
            rotation: [Angle(self.pitch.0.wrapping_neg()), self.yaw, Angle(0)],
            width: SCREEN.pixels(),
            near: ONE / 8,
            // The sort's 16-bit depths cover 0 to `far`: a sixty-fourth of a unit a step
            // (the character is 2.1 units tall), so that its polygons' depths mostly share
            // their high byte and the sort makes one pass over them, not two (at 64 units:
            // 22,000 cycles a frame more, `git show d71a443:BENCHMARKS.md`, "Showcase"). The scene is within
            // 20 units: nothing is past it.
            far: 1024 * ONE,
            ..Camera::default()
        }
    }
}

/// The light, from the upper left front, a third of it ambient.
pub const LIGHT: Light = Light {
    direction: [ONE / 2, ONE / 2, ONE * 7 / 10],
    ambient: ONE / 3,
};

/// The character stands where it was modelled.
pub const PLACE: Matrix = Matrix::IDENTITY;

/// The ground, a grid of 28 x 28 quads 9 units wide about the character: its tile
/// (`GROUND_FILE`, `GROUND_TILES` of `tools/blender/showcase.py`, which must be the same)
/// drawn `GROUND_TILES` x `GROUND_TILES` times side by side. One: as 4 x 4 tiles (each
/// a draw, the renderer dropping those outside the view whole) the master's work a frame
/// was larger, the tiles' own costs above what the dropped ones saved (`git show d71a443:BENCHMARKS.md`,
/// "Showcase"). More than 3 x 3 tiles also need the frame pass to take more draws than
/// its 4 (`FRAME_DRAWS`, `src/render/emit/frame.rs`: else the later draws' polygons are
/// emitted one by one).
pub const GROUND_TILES: usize = 1;
pub const TILE_SIZE: i32 = 9 * ONE / GROUND_TILES as i32;

/// Where each tile of the ground is drawn.
pub fn ground_places() -> impl Iterator<Item = Matrix> {
    let at = |k: usize| (2 * k as i32 + 1 - GROUND_TILES as i32) * (TILE_SIZE / 2);
    (0..GROUND_TILES).flat_map(move |row| {
        (0..GROUND_TILES).map(move |column| Matrix::translation([at(column), 0, at(row)]))
    })
}
