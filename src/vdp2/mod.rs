//! The VDP2, the Saturn's background processor, as data: what its backgrounds show,
//! computed in plain Rust and tested on the host. Nothing here touches hardware: the
//! registers and the writes to VDP2 VRAM and colour RAM live in `hw` (`hw::floor`,
//! `hw::text`, `hw::vdp2`).
//!
//! - [`floor`]: the endless floor on the rotating background RBG0 and the sky on the back
//!   screen, matched to a [`Camera`](crate::render::Camera): the rotation parameter table
//!   (its layout the VDP2's, asserted), the per-line coefficients and sky colours of a
//!   frame, the VDP2's own arithmetic as a reference ([`floor::RotationTable::sample`]),
//!   and where it all goes in VDP2 VRAM and colour RAM ([`floor::layout`]).
//! - [`tiles`]: the floor's picture as `jomc plane` writes it (a `.BIN` file of cells, a
//!   map and a palette), read in place with one precise error for a bad file.
//!
//! This layer sits above `render` (it reads the renderer's camera), below `hw`'s users.

pub mod floor;
pub mod tiles;

pub use floor::{Floor, FloorError, FloorFrame, RotationTable, Sky};
pub use tiles::{FloorTiles, TilesError};
