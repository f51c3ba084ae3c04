//! The errors of a frame: what a draw, a frame's start or its end refuses.

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
    /// [`Camera`](super::Camera) and docs/format.md, "Engine limits").
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
    /// [`MAX_SCALE`](super::limits::MAX_SCALE): see [`Camera`](super::Camera).
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
