//! The VDP2, the Saturn's background processor, as data: what its backgrounds show,
//! computed in plain Rust and tested on the host. Nothing here touches hardware: the
//! registers and the writes to VDP2 VRAM and colour RAM live in `hw` (`hw::floor`,
//! `hw::text`, `hw::vdp2`).
//!
//! - [`floor`]: the endless floor on the rotating background RBG0 and the sky on the back
//!   screen, matched to a [`Camera`](crate::render::Camera): the rotation parameter table
//!   (its layout the VDP2's, asserted), the per-line coefficients and sky colours of a
//!   frame, the VDP2's own arithmetic as a reference ([`floor::RotationTable::sample`]),
//!   and the colour the VDP2 shows at a pixel ([`FloorFrame::color`]: a stand-in for
//!   picture checks).
//! - [`layout`]: where the floor goes in VDP2 VRAM and colour RAM.
//! - [`tiles`]: the floor's picture as `jomc plane` writes it (a `.BIN` file of cells, a
//!   map and a palette), read in place with one precise error for a bad file.
//!
//! This layer sits above `render` (it reads the renderer's camera), below `hw`'s users.

/// VDP2 memory as the floor writes it: 16-bit words at byte offsets of VRAM and of colour
/// RAM. The Saturn's (`hw::floor`) writes the hardware; a test's keeps the words.
pub trait Vdp2Memory {
    /// Writes `word` at VRAM byte offset `offset` (even).
    fn write_vram(&mut self, offset: u32, word: u16);
    /// Writes `word` at colour RAM byte offset `offset` (even).
    fn write_cram(&mut self, offset: u32, word: u16);
}

pub mod floor;
pub mod layout;
pub mod tiles;

pub use floor::{Floor, FloorError, FloorFrame, RotationTable, Sky};
pub use tiles::{FloorTiles, TilesError};
