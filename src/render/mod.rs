//! Geometry and command emission: the camera, the command list, and the pipeline a frame
//! goes through, which turns models and a camera into VDP1 command tables (transform,
//! project, cull, sort, light, every material flag), with its two front doors: the
//! [`Renderer`], which owns VDP1 VRAM, and [`ListFrame`], which writes into a list its
//! caller owns. Fixed-size buffers only; nothing here allocates.
//!
//! The modules are layers, each importing only those below it (docs/renderer.md, "Layers";
//! `cargo test --test layers` checks it), bottom first: `error`, `camera` and `shared` (what
//! every stage shares), `limits` and `fog`; `transforms`, `project`, `visibility`; `sort`, `cull`;
//! `list`, `billboard`, `emit`; `pipeline` (a frame's start, draws and end, and [`ListFrame`]);
//! `renderer`. This file only declares them and re-exports the public items.

pub(crate) mod billboard;
pub(crate) mod camera;
pub(crate) mod cull;
pub(crate) mod emit;
pub(crate) mod error;
pub(crate) mod fog;
pub mod limits;
pub(crate) mod list;
pub(crate) mod lod;
mod pipeline;
pub(crate) mod project;
pub(crate) mod renderer;
pub(crate) mod shared;
pub(crate) mod sort;
pub(crate) mod transforms;
pub(crate) mod visibility;

pub use crate::worker::{InOrder, Worker};
pub use billboard::{Billboard, BillboardLook, PlacedBillboard};
pub use camera::Camera;
pub use emit::DEFAULT_SUBDIVISION_ERROR;
pub use error::DrawError;
pub use fog::{Fog, FOG_WHOLE};
#[cfg(any(test, feature = "selftest"))]
pub(crate) use list::CommandList;
pub use list::{head_commands, CommandBuffer};
pub use lod::Lod;
pub use pipeline::{
    DrawSlot, FrameArrays, FrameMemory, FrameStats, FrameTables, ListFrame, LoadedModel,
    TransferOver, MAX_DRAWS,
};
pub use project::{transform_points_reference, Projection};
pub use renderer::{
    Frame, ModelHandle, Renderer, RendererArrays, RendererError, RendererMemory, RendererSizes,
    RendererTables, TakeOnce, VramUse, WorkerRefused, MAX_MODELS, OVERLAY_COMMANDS,
};
pub use shared::{Light, ModelVram, PhaseTimes, Posed, SortKey, ViewPoint};
#[doc(hidden)]
#[cfg(any(test, feature = "selftest"))]
pub use sort::sort_keys;

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
