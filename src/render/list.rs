//! A frame's command list: the clipping and origin commands, then the polygons back to
//! front, then the end; plus the gouraud tables made for this frame (lighting).

use super::DrawError;
use crate::vdp1::{CommandTable, GouraudTable, Point, Vram, VramLayout};

/// The commands of one frame, kept in work RAM until [`commit`](Self::commit) writes them
/// to VRAM. `C` is the capacity in command tables, `G` in frame gouraud tables.
pub struct CommandList<const C: usize, const G: usize> {
    /// The first `len` are the list; the rest are room (kept initialised, so that a table
    /// is written in place, field by field, instead of copied in).
    tables: [CommandTable; C],
    len: usize,
    gouraud: heapless::Vec<GouraudTable, G>,
    frame_gouraud_base: u32,
}

/// The commands every list starts with: system clip, user clip, local coordinates.
const HEAD_COMMANDS: usize = 3;

impl<const C: usize, const G: usize> CommandList<C, G> {
    /// A list for a `width` x `height` screen: system and user clipping to the screen and
    /// the local origin at its centre (where [`draw`](super::draw) puts the eye's axis).
    pub fn new(width: u16, height: u16, layout: &VramLayout) -> Self {
        let mut list = Self::EMPTY;
        list.reset(width, height, layout);
        list
    }

    /// A list without even its clipping and origin commands, all zero: what a `static`
    /// starts as (in `.bss`, not built on the stack, which a large list would overflow),
    /// before [`reset`](Self::reset).
    pub const EMPTY: Self = Self {
        tables: [CommandTable::EMPTY; C],
        len: 0,
        gouraud: heapless::Vec::new(),
        frame_gouraud_base: 0,
    };

    /// Empties the list and starts it as [`new`](Self::new) does, in place.
    pub fn reset(&mut self, width: u16, height: u16, layout: &VramLayout) {
        self.len = 0;
        self.gouraud.clear();
        self.frame_gouraud_base = layout.frame_gouraud.start;
        let lower_right = Point::new(width as i16 - 1, height as i16 - 1);
        let origin = Point::new((width / 2) as i16, (height / 2) as i16);
        for table in [
            CommandTable::system_clip(lower_right),
            CommandTable::user_clip(Point::new(0, 0), lower_right),
            CommandTable::local_coordinates(origin),
        ] {
            // The three fit in any list of 4 or more; a smaller one is refused later.
            let _ = self.push_table(table);
        }
    }

    /// Empties the list for the next frame, keeping its clipping and origin commands: a
    /// list kept in a `static` (high work RAM, where SCU DMA reads it) is reused this way.
    pub fn clear(&mut self) {
        self.len = self.len.min(HEAD_COMMANDS);
        self.gouraud.clear();
    }

    /// The command tables so far (without the end).
    pub fn commands(&self) -> &[CommandTable] {
        &self.tables[..self.len]
    }

    /// The gouraud tables made for this frame so far.
    pub fn gouraud_tables(&self) -> &[GouraudTable] {
        &self.gouraud
    }

    /// Room left for polygons (one table is kept for the end).
    pub fn room(&self) -> usize {
        C.saturating_sub(self.len + 1)
    }

    /// Room left for gouraud tables of the frame.
    pub fn gouraud_room(&self) -> usize {
        G - self.gouraud.len()
    }

    /// Adds a command.
    pub fn push(&mut self, table: CommandTable) -> Result<(), DrawError> {
        if self.room() == 0 {
            return Err(DrawError::CommandListFull { capacity: C });
        }
        self.push_table(table)
    }

    fn push_table(&mut self, table: CommandTable) -> Result<(), DrawError> {
        let slot = self
            .tables
            .get_mut(self.len)
            .ok_or(DrawError::CommandListFull { capacity: C })?;
        *slot = table;
        self.len += 1;
        Ok(())
    }

    /// Adds a polygon's command from its words: `head` (`CMDCTRL` to `CMDSIZE`), the
    /// corners ([`Point::word`]) and `last` (`CMDGRDA` and the reserved field). What
    /// [`push`](Self::push) of the whole table does, as eight 32-bit stores in place (the
    /// hot loop of `draw`).
    #[inline(always)]
    pub(crate) fn push_words(
        &mut self,
        head: &[u32; 3],
        corners: [u32; 4],
        last: u32,
    ) -> Result<(), DrawError> {
        if self.room() == 0 {
            return Err(DrawError::CommandListFull { capacity: C });
        }
        let Some(slot) = self.tables.get_mut(self.len) else {
            return Err(DrawError::CommandListFull { capacity: C });
        };
        let words = slot.as_words_mut();
        words[0] = head[0];
        words[1] = head[1];
        words[2] = head[2];
        words[3] = corners[0];
        words[4] = corners[1];
        words[5] = corners[2];
        words[6] = corners[3];
        words[7] = last;
        self.len += 1;
        Ok(())
    }

    /// Lets `fill` write commands into the room left (a slice of the free tables, one kept
    /// for the end) and keeps the first ones it says it wrote; gives how many.
    pub(crate) fn fill_with(&mut self, fill: impl FnOnce(&mut [CommandTable]) -> usize) -> usize {
        let room = self.room();
        let free = &mut self.tables[self.len..self.len + room];
        let written = fill(free).min(room);
        self.len += written;
        written
    }

    /// Adds a gouraud table for this frame and gives its VRAM address.
    pub fn push_gouraud(&mut self, table: GouraudTable) -> Result<u32, DrawError> {
        let address = self.frame_gouraud_base + 8 * self.gouraud.len() as u32;
        self.gouraud
            .push(table)
            .map_err(|_| DrawError::GouraudListFull { capacity: G })?;
        Ok(address)
    }

    /// Writes the commands, the end and the frame's gouraud tables to VRAM.
    pub fn commit(&self, vram: &mut impl Vram, layout: &VramLayout) -> Result<(), DrawError> {
        let needed = 32 * (self.len as u32 + 1);
        let available = layout.commands.end - layout.commands.start;
        if needed > available {
            return Err(DrawError::VramRegionTooSmall {
                region: "command",
                needed,
                available,
            });
        }
        let needed = 8 * self.gouraud.len() as u32;
        let available = layout.frame_gouraud.end - layout.frame_gouraud.start;
        if needed > available {
            return Err(DrawError::VramRegionTooSmall {
                region: "frame gouraud",
                needed,
                available,
            });
        }
        // The tables in one call (one DMA on the Saturn), then the end after them.
        vram.write_commands(layout.commands.start, self.commands());
        let end = layout.commands.start + 32 * self.len as u32;
        vram.write_command(end, &CommandTable::end());
        for (i, table) in self.gouraud.iter().enumerate() {
            vram.write_gouraud(layout.frame_gouraud.start + 8 * i as u32, table);
        }
        Ok(())
    }
}
