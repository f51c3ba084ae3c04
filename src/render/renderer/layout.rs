//! Where the renderer's regions are in VDP1 VRAM, derived from its memory's sizes: the
//! jump at address 0, the two lists, their frame gouraud tables, the models' gouraud
//! tables and the textures; and what the VDP1's report of a frame change says of the
//! lists. A size that does not fit is a [`RendererError`].

use core::fmt;
use core::ops::Range;

use crate::render::pipeline::TransferOver;
use crate::vdp1::{FrameEnd, VRAM_SIZE};

/// Polygon numbers in a frame fit the 16 bits of a sort key's index.
pub(super) const MAX_FRAME_POLYGONS: usize = 1 << 16;

/// The renderer's sizes do not fit VDP1 VRAM, or are out of what it handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RendererError {
    /// A VRAM region does not fit in the 512 KiB left after the regions before it.
    VramFull {
        /// The region that does not fit.
        region: &'static str,
        /// Its bytes.
        needed: u32,
        /// The bytes left for it.
        available: u32,
    },
    /// A size is out of range.
    Size {
        /// Which.
        what: &'static str,
        /// Its value.
        value: usize,
        /// The least it may be.
        min: usize,
        /// The most it may be.
        max: usize,
    },
}

impl fmt::Display for RendererError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::VramFull {
                region,
                needed,
                available,
            } => write!(
                f,
                "VDP1 VRAM: {region}: {needed} bytes needed, {available} left after the regions before it"
            ),
            Self::Size {
                what,
                value,
                min,
                max,
            } => write!(f, "{what} is {value}, expected {min} to {max}"),
        }
    }
}

impl core::error::Error for RendererError {}

/// Where the renderer's regions are in VRAM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    /// The two command lists.
    pub(super) lists: [u32; 2],
    /// Their frame gouraud tables.
    pub(super) frame_gouraud: [u32; 2],
}

/// The size of the jump command at VRAM address 0.
pub(super) const JUMP_BYTES: u32 = 32;
/// `CMDCTRL` of the jump: JP = 5 (skip this command, jump to `CMDLINK`).
pub(super) const JUMP_CTRL: u16 = 0x5000;

impl Layout {
    /// The regions for lists of `commands` tables and `frame_gouraud` gouraud tables, and
    /// `model_gouraud` tables of the models, in VRAM order: the regions of the model
    /// gouraud tables and of the textures (the rest) besides.
    pub(super) fn of(
        commands: usize,
        frame_gouraud: usize,
        model_gouraud: usize,
    ) -> Result<(Self, Range<u32>, Range<u32>), RendererError> {
        let mut next = 0u32;
        let mut take = |region: &'static str, bytes: usize| {
            let available = VRAM_SIZE - next;
            let needed = u32::try_from(bytes).unwrap_or(u32::MAX);
            if needed > available {
                return Err(RendererError::VramFull {
                    region,
                    needed,
                    available,
                });
            }
            let start = next;
            next += needed;
            Ok(start..next)
        };
        take("jump command", JUMP_BYTES as usize)?;
        let list = commands.saturating_mul(32);
        let a = take("command list A", list)?;
        let b = take("command list B", list)?;
        let gouraud = frame_gouraud.saturating_mul(8);
        let ga = take("frame gouraud tables A", gouraud)?;
        let gb = take("frame gouraud tables B", gouraud)?;
        let model_gouraud = take("model gouraud tables", model_gouraud.saturating_mul(8))?;
        let textures = next..VRAM_SIZE;
        let layout = Self {
            lists: [a.start, b.start],
            frame_gouraud: [ga.start, gb.start],
        };
        Ok((layout, model_gouraud, textures))
    }

    /// What `end`, the VDP1's report of a frame change, says of this renderer's lists
    /// (`commands` tables before the end of each): the list it stopped in, when the frame
    /// change cut its drawing short. A stop outside both lists (at the jump at VRAM 0, or
    /// before the renderer's first list was drawn) is not one of its lists': `None`.
    pub(super) fn transfer_over(&self, end: FrameEnd, commands: [u16; 2]) -> Option<TransferOver> {
        let FrameEnd::TransferOver { stopped_at } = end else {
            return None;
        };
        self.lists
            .iter()
            .zip(commands)
            .find_map(|(&start, commands)| {
                let reached = stopped_at.checked_sub(start)? / 32;
                (reached <= u32::from(commands)).then_some(TransferOver {
                    drawn: reached as u16,
                    commands,
                })
            })
    }
}
