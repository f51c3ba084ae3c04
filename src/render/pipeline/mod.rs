//! The pipeline every frame goes through, whoever owns the VRAM: its start (the camera
//! checked), each draw (`collect`: the whole-draw test, the transform, the culling into
//! the frame's sort keys), then its end (`finish`: the polygons of all the draws sorted
//! together, farthest first, and emitted into a command list). Two front doors: the
//! [`Renderer`](super::Renderer), which owns VDP1 VRAM and writes its lists itself, and
//! [`ListFrame`], which writes into a list its caller owns (the C interface, the tools).

mod collect;
mod finish;
mod list_frame;
mod memory;
mod stats;

pub(crate) use collect::{Drawn, FrameState, Placement};
pub(crate) use finish::{Source, Sources};
pub use list_frame::{ListFrame, LoadedModel};
pub use memory::MAX_DRAWS;
pub use memory::{DrawSlot, FrameArrays, FrameMemory, FrameTables};
pub use stats::{FrameStats, TransferOver};
