//! Geometry and command emission: the camera, the per-frame command list, and `draw`,
//! which turns a model and a camera into VDP1 command tables (transform, project, cull,
//! sort, light, every material flag). Fixed-size buffers only; nothing here allocates.

mod camera;
pub(crate) mod cull;
pub(crate) mod draw;
pub(crate) mod emit;
mod list;
pub(crate) mod project;
mod renderer;
pub(crate) mod sort;
pub(crate) mod transforms;

pub use crate::worker::{InOrder, Worker};
pub use camera::Camera;
pub use draw::{
    draw, draw_pose, draw_pose_timed, draw_timed, DrawBuffers, DrawStats, Light, ModelVram,
    PhaseTimes, Posed, SortKey,
};
pub use emit::DEFAULT_SUBDIVISION_ERROR;
pub use list::CommandList;
pub use project::{transform_points_reference, Projection, ViewPoint};
pub use renderer::{
    DrawSlot, Frame, FrameStats, ModelHandle, Renderer, RendererArrays, RendererError,
    RendererMemory, TakeOnce, VramUse, MAX_DRAWS,
};

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
        }
    }
}

impl core::error::Error for DrawError {}

/// `a / b` in Q16.16 for 0 <= a <= b (the position of a plane between two points).
fn ratio(a: i32, b: i32) -> i32 {
    if b == 0 {
        return 0;
    }
    ((i64::from(a) << 16) / i64::from(b)) as i32
}
