//! The game-facing renderer: one [`Renderer`] owns VDP1 VRAM (its layout derived from the
//! sizes of its [`RendererMemory`]), two command lists, the work buffers and the texture
//! and gouraud caches. Loading a model gives a [`ModelHandle`] that gives its VRAM back
//! when dropped; a [`Frame`] collects every model drawn, sorts all their polygons together
//! and emits them back to front into the list the VDP1 is not reading.
//!
//! VRAM, in order: at address 0 one command that skips itself and jumps to the front list
//! (list A or B); the two lists; the two lists' frame gouraud tables (lighting); the
//! gouraud tables of the loaded models; textures in the rest. [`Frame::finish`] writes the
//! back list and its gouraud tables, then points the jump at it. The VDP1 reads the new
//! list from its next frame change on, so the old one is free to write from then: the
//! next [`Frame::finish`] waits for that change ([`Vdp1::wait_frame_change`]) only if it
//! has not come yet, just before it writes. Everything before (the game's own work,
//! transform, culling, sorting, emission into work RAM) overlaps the VDP1 drawing, and a
//! frame a little longer than a field is shown at the next field, not the one after. The
//! CPU never writes the list (or the frame gouraud tables) the VDP1 may be reading.
//!
//! ```
//! use jom::math::{Matrix, ONE};
//! use jom::render::{Camera, Renderer};
//! use jom::vdp1::{MemoryVram, VRAM_SIZE};
//!
//! let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
//! let model = jom::Model::from_bytes(bytes)?;
//!
//! let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
//!     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
//!     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
//! let mut vram_bytes = vec![0; VRAM_SIZE as usize]; // on the Saturn: the real VRAM
//! let renderer = Renderer::new(MemoryVram::new(&mut vram_bytes), memory, None)?;
//! let handle = renderer.load(&model)?;
//!
//! let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
//! let mut frame = renderer.begin(&camera, None)?;
//! frame.draw(&handle, &Matrix::IDENTITY)?;
//! let stats = frame.finish()?;
//! assert_eq!(stats.drawn + stats.culled, model.polygons().len());
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

mod commit;
mod frame;
mod handles;
mod layout;
mod load;
mod memory;
mod owner;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
mod vram;

pub use frame::Frame;
pub use handles::ModelHandle;
pub use layout::RendererError;
pub use memory::{
    RendererArrays, RendererMemory, RendererSizes, RendererTables, TakeOnce, MAX_MODELS,
    OVERLAY_COMMANDS,
};
pub use owner::{Renderer, VramUse, WorkerRefused};
