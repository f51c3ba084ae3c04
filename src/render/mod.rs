//! Geometry and command emission: the camera, the command list, and the pipeline a frame
//! goes through, which turns models and a camera into VDP1 command tables (transform,
//! project, cull, sort, light, every material flag), with its two front doors: the
//! [`Renderer`], which owns VDP1 VRAM, and [`ListFrame`], which writes into a list its
//! caller owns. Fixed-size buffers only; nothing here allocates.

mod camera;
pub(crate) mod cull;
pub(crate) mod draw;
pub(crate) mod emit;
pub mod limits;
mod list;
mod pipeline;
pub(crate) mod project;
pub(crate) mod renderer;
pub(crate) mod sort;
pub(crate) mod transforms;
pub(crate) mod visibility;

pub use crate::worker::{InOrder, Worker};
pub use camera::Camera;
pub(crate) use draw::DrawStats;
pub use draw::{Light, ModelVram, PhaseTimes, Posed, SortKey};
pub use emit::DEFAULT_SUBDIVISION_ERROR;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use list::CommandList;
pub use list::{head_commands, CommandBuffer};
pub use pipeline::{
    DrawSlot, FrameMemory, FrameStats, FrameTables, ListFrame, LoadedModel, TransferOver, MAX_DRAWS,
};
pub use project::{transform_points_reference, Projection, ViewPoint};
pub use renderer::{
    Frame, ModelHandle, Renderer, RendererArrays, RendererError, RendererMemory, RendererTables,
    TakeOnce, VramUse, WorkerRefused, MAX_MODELS,
};
#[doc(hidden)]
pub use sort::sort_keys;

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;

use core::fmt;

/// A frame could not be drawn as asked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DrawError {
    /// The command list has no room left.
    CommandListFull {
        /// Its capacity.
        capacity: usize,
    },
    /// The frame's gouraud tables have no room left.
    GouraudListFull {
        /// Its capacity.
        capacity: usize,
    },
    /// A work buffer is smaller than the model.
    BufferTooSmall {
        /// Which buffer.
        buffer: &'static str,
        /// The entries needed.
        needed: usize,
    },
    /// The renderer is in the middle of another of its calls (a handle dropped or a model
    /// loaded from inside one: not something a program does).
    Busy,
    /// The model was loaded by another renderer.
    OtherRenderer,
    /// A frame is begun while another is being drawn.
    FrameOpen,
    /// The VDP1's frame change did not come.
    FrameChange {
        /// What was waited for.
        waiting_for: &'static str,
    },
    /// The list does not fit the VRAM region it is written to.
    VramRegionTooSmall {
        /// Which region.
        region: &'static str,
        /// The bytes needed.
        needed: u32,
        /// The region's size.
        available: u32,
    },
    /// A field of the camera is outside the engine's limits (see
    /// [`Camera`] and docs/format.md, "Engine limits").
    CameraOutOfRange {
        /// Which field (for the position: its coordinate in camera axes).
        field: &'static str,
        /// Its value (raw Q16.16 for positions and depths).
        value: i64,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
    },
    /// A draw's placement could take the model's points beyond what camera space holds
    /// (32767 units from the camera along one of its axes), or scale it by more than
    /// [`limits::MAX_SCALE`]: see [`Camera`].
    OutOfReach {
        /// The matrix: 0 the model's (camera x transform, or x root for a posed one),
        /// 1 + b bone b's.
        matrix: usize,
    },
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DrawError::CommandListFull { capacity } => {
                write!(f, "the command list is full ({capacity} tables)")
            }
            DrawError::GouraudListFull { capacity } => {
                write!(f, "the frame's gouraud tables are full ({capacity} tables)")
            }
            DrawError::BufferTooSmall { buffer, needed } => {
                write!(
                    f,
                    "the {buffer} buffer is too small: {needed} entries needed"
                )
            }
            DrawError::Busy => write!(f, "the renderer is busy with another call"),
            DrawError::OtherRenderer => write!(f, "the model was loaded by another renderer"),
            DrawError::FrameOpen => write!(f, "a frame is begun while another is being drawn"),
            DrawError::FrameChange { waiting_for } => {
                write!(
                    f,
                    "the VDP1's frame change did not come (waiting for {waiting_for})"
                )
            }
            DrawError::VramRegionTooSmall {
                region,
                needed,
                available,
            } => {
                write!(f, "the {region} region of VRAM is too small ({needed} bytes needed, {available} available)")
            }
            DrawError::CameraOutOfRange {
                field,
                value,
                min,
                max,
            } => write!(
                f,
                "the camera's {field} is {value}, expected {min} to {max} (the engine's limits)"
            ),
            DrawError::OutOfReach { matrix } => write!(
                f,
                "matrix {matrix} (0: the model's placement, 1 + b: bone b) could take the \
                 model's points farther than 32767 units from the camera along an axis, or \
                 scales by more than 64: draw it nearer, smaller, or not at all"
            ),
        }
    }
}

impl core::error::Error for DrawError {}

/// Where the edge from `p` (behind the plane z = `near`) to `q` (on it or in front) meets
/// the plane. In 64 bits (issue #13): within the engine's limits two corners are up to
/// 2^32 raw apart along an axis, and the position along the edge is kept to 2^-30 (in
/// Q16.16 a 40,000-unit edge would miss by a third of a unit, tens of pixels on a near
/// plane 1 unit away).
fn on_near_plane(p: crate::math::Vec3, q: crate::math::Vec3, near: i32) -> crate::math::Vec3 {
    let behind = i64::from(near) - i64::from(p[2]);
    let span = i64::from(q[2]) - i64::from(p[2]);
    // 0 < behind <= span < 2^32: the fraction takes 30 bits, each product below 2^62. A
    // span that fits an i32 (all but the farthest apart) divides by the SH-2's division
    // unit (a 64-bit division is a library call of a few thousand cycles), the same
    // quotient.
    let t = match i32::try_from(span) {
        Ok(span) => i64::from(crate::math::div_64_32(behind << 30, span)),
        Err(_) => (behind << 30) / span,
    };
    core::array::from_fn(|k| {
        let delta = i64::from(q[k]) - i64::from(p[k]);
        // Between p[k] and q[k]: an i32.
        (i64::from(p[k]) + ((delta * t) >> 30)) as i32
    })
}
