//! The commit of a renderer's frame: the back list and its frame gouraud tables written to
//! VRAM once the VDP1 has left them (waiting for its frame change only if it has not come
//! since the last flip), then the jump at VRAM 0 pointed at them. The CPU never writes the
//! list (or the frame gouraud tables) the VDP1 may be reading.

use super::vram::Inner;
use crate::render::error::DrawError;
use crate::render::list::write_list;
use crate::vdp1::Vdp1;

/// What a commit did: whether the frame was late (the VDP1 changed frame before the list
/// was ready), and the time of its wait and of its writes, in the renderer's clock's units.
pub(super) struct Committed {
    pub(super) late: bool,
    pub(super) wait: u32,
    pub(super) commit: u32,
}

impl<V: Vdp1> Inner<'_, V> {
    /// Writes the first `commands` tables of the renderer's list memory and its first
    /// `gouraud` frame gouraud tables to the VRAM of list `back`, once the VDP1 has left it,
    /// and points the jump at VRAM 0 at it: the VDP1 draws it from its next frame change.
    /// Its wait is timed from `started` (the clock's reading when the emission ended).
    pub(super) fn commit(
        &mut self,
        back: usize,
        commands: usize,
        gouraud: usize,
        started: u32,
    ) -> Result<Committed, DrawError> {
        let clock = self.clock.unwrap_or(|| 0);
        // Late when the change came before (seen already, or now).
        let late = match self.flipped {
            true => self.vdp1.frame_changed(),
            false => self.finished > 0,
        };
        let changed = match self.flipped && !late {
            true => self.vdp1.wait_frame_change(),
            false => Ok(()),
        };
        changed.map_err(|t| DrawError::FrameChange {
            waiting_for: t.waiting_for,
        })?;
        let waited = clock();
        // Before the back list is written over: the change may have cut it short.
        if self.flipped {
            let end = self.vdp1.last_frame_end();
            self.transfer_over = self.layout.transfer_over(end, self.list_commands);
        }
        write_list(
            &mut self.vdp1,
            self.layout.lists[back],
            &self.memory.commands[..commands],
            self.layout.frame_gouraud[back],
            &self.memory.frame_gouraud[..gouraud],
        );
        // At most 16,384 tables fit VRAM.
        self.list_commands[back] = commands as u16;
        if self.flipped {
            self.frame_changed();
        }
        self.vdp1.prepare_flip();
        self.point_jump(back);
        self.vdp1.list_flipped();
        self.flipped = true;
        self.finished = self.finished.wrapping_add(1);
        let committed = clock();
        Ok(Committed {
            late,
            wait: waited.wrapping_sub(started),
            commit: committed.wrapping_sub(waited),
        })
    }
}
