//! The floor the figures stand on with the `floor` feature: the VDP2's endless floor
//! (`jom::hw::floor`) at the robot's feet, stone tiles of `assets/floor.png` (converted by
//! `jomc plane` into `build/FLOOR.BIN`, linked into the program), under a sky. Shared,
//! word for word, with the host's picture of the fixed frame
//! (`tools/vdp1-soft/examples/demo_frame.rs --floor`), which includes this file.

use jom::math::{Angle, ONE};
use jom::vdp2::{Floor, FloorError, Sky};

/// A texel of the floor's picture: an eighth of a unit (the robot is about 3 units tall,
/// a stone tile of 16 texels 2 units).
pub const TEXEL: i32 = ONE / 8;

/// The sky: blue overhead, pale at the horizon (RGB555).
pub const SKY: Sky = Sky {
    zenith: 22 << 10 | 10 << 5 | 4,
    horizon: 30 << 10 | 26 << 5 | 22,
};

/// The turn between the two fixed frames of the `floor-latency` feature: 11 degrees, which
/// moves most of the floor's texels and the figures.
// Read only by the `floor-latency` build and the host picture (`demo_frame --turned`).
#[allow(dead_code)]
pub const LATENCY_TURN: Angle = Angle(0x0800);

/// The floor: the plane y = 0, where the robot's feet are (its model's lowest points).
pub fn floor() -> Result<Floor, FloorError> {
    Floor::new(0, TEXEL, SKY)
}
