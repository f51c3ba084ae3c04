//! Detail by distance: which level of a model (the model itself, or one of its lower
//! levels, LODS: docs/format.md) a draw takes, by the size of the model on screen, with
//! hysteresis so that a model at a level's edge does not flicker between two. The state is
//! one byte per draw site ([`Lod`]), kept by the game; nothing here allocates.
//!
//! docs/levels.md (its examples are run as this module's doctests):
#![doc = include_str!("../../docs/levels.md")]

use crate::format::Levels;

/// How far past a level's edge the size must go before the level changes: an eighth of the
/// edge's size (a model a little smaller than the edge keeps the finer level until it is
/// 7/8 of it, and comes back at 9/8).
const HYSTERESIS_EIGHTHS: u64 = 1;

/// The level of detail a draw site is at (0: the model itself, `n`: its `n`th lower
/// level), kept from frame to frame by the game (one per thing drawn) and moved by each
/// draw through [`Frame::draw_lod`](crate::render::Frame::draw_lod) or
/// [`ListFrame::draw_lod`](crate::render::ListFrame::draw_lod).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lod {
    level: u8,
}

impl Lod {
    /// At the model itself (the finest level).
    pub const FINEST: Lod = Lod { level: 0 };

    /// At level `level`, as kept outside Rust (the C interface's `jom_lod` byte): any
    /// value is a valid state, the next draw bringing it within the levels it is given.
    pub const fn at(level: u8) -> Lod {
        Lod { level }
    }

    /// The level it is at.
    pub fn level(&self) -> usize {
        usize::from(self.level)
    }

    /// Moves to the level for a model whose bounding sphere is `pixels` in radius on
    /// screen, of `levels` (the model's [`Model::levels`](crate::Model::levels)), at most
    /// `most` (the lower levels loaded); gives it. Level `k` is drawn below its size
    /// `t_k`: the level moves down when `pixels < t_k x 7/8`, up when `pixels >= t_k x
    /// 9/8` of the level it leaves (an eighth of hysteresis each way).
    pub fn choose(&mut self, levels: Levels<'_>, most: usize, pixels: u32) -> usize {
        let pixels = u64::from(pixels) * 8;
        let size = |level: usize| {
            let level = level.checked_sub(1)?;
            levels.clone().nth(level).map(|(edge, _)| u64::from(edge))
        };
        let mut level = self.level().min(most);
        // Finer: while past the edge of the level it is at by the margin.
        while size(level).is_some_and(|e| pixels >= e * (8 + HYSTERESIS_EIGHTHS)) {
            level -= 1;
        }
        // Coarser: while below the next level's edge by the margin.
        while level < most && size(level + 1).is_some_and(|e| pixels < e * (8 - HYSTERESIS_EIGHTHS))
        {
            level += 1;
        }
        self.level = level.min(usize::from(u8::MAX)) as u8;
        level
    }
}
