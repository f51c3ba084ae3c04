//! A frame's command list: the clipping and origin commands, then the polygons back to
//! front, then the end; plus the gouraud tables made for this frame (lighting), which
//! may start with the light ramp's ([`RAMP_TABLES`]). This module owns how a list is laid
//! out and written to VRAM; the emission writes through a [`CommandBuffer`] over slices
//! its owner gives (the [`Renderer`](super::Renderer)'s memory, a
//! [`ListFrame`](super::ListFrame)'s caller's arrays; the tests' `CommandList` lends its
//! arrays so).

use super::error::DrawError;
#[cfg(any(test, feature = "selftest"))]
use crate::vdp1::VramLayout;
use crate::vdp1::{CommandTable, GouraudTable, Point, Vram, VRAM_SIZE};

/// The commands every list starts with: system clip, user clip, local coordinates.
pub(crate) const HEAD_COMMANDS: usize = 3;

/// The three head commands of a list for a `width` x `height` screen: system and user
/// clipping to the screen and the local origin at its centre (where the eye's axis is).
pub fn head_commands(width: u16, height: u16) -> [CommandTable; HEAD_COMMANDS] {
    let lower_right = Point::new(width as i16 - 1, height as i16 - 1);
    let origin = Point::new((width / 2) as i16, (height / 2) as i16);
    [
        CommandTable::system_clip(lower_right),
        CommandTable::user_clip(Point::new(0, 0), lower_right),
        CommandTable::local_coordinates(origin),
    ]
}

/// A command list in arrays its owner gives: command tables, and the gouraud tables a
/// frame makes (lighting), which go to VRAM at an address given when it is made (the
/// commands hold it / 8). `len` tables and `gouraud_len` gouraud tables are the list so
/// far; one table is always kept for the end. A [`ListFrame`](super::ListFrame) writes its
/// polygons into one (the [`Renderer`](super::Renderer) keeps its own in its memory).
pub struct CommandBuffer<'a> {
    /// The first `len` are the list; the rest are room (kept initialised, so that a table
    /// is written in place, field by field, instead of copied in).
    pub(crate) tables: &'a mut [CommandTable],
    pub(crate) len: usize,
    pub(crate) gouraud: &'a mut [GouraudTable],
    pub(crate) gouraud_len: usize,
    /// The VRAM address the first frame gouraud table goes to.
    pub(crate) gouraud_base: u32,
}

impl<'a> CommandBuffer<'a> {
    /// A list in `tables` whose first `len` tables are written, and frame gouraud tables in
    /// `gouraud` whose first `gouraud_len` are written, the first at VRAM address
    /// `gouraud_base` (`len` and `gouraud_len` are clamped to the slices).
    pub fn new(
        tables: &'a mut [CommandTable],
        len: usize,
        gouraud: &'a mut [GouraudTable],
        gouraud_len: usize,
        gouraud_base: u32,
    ) -> Self {
        Self {
            len: len.min(tables.len()),
            gouraud_len: gouraud_len.min(gouraud.len()),
            tables,
            gouraud,
            gouraud_base,
        }
    }

    /// The number of command tables written.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no command table is written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of frame gouraud tables written.
    pub fn gouraud_len(&self) -> usize {
        self.gouraud_len
    }

    /// Empties the list and writes its three head commands ([`head_commands`]) for a
    /// `width` x `height` screen: refused when the list has room for fewer than four
    /// tables (the head and the end).
    pub fn start(&mut self, width: u16, height: u16) -> Result<(), DrawError> {
        let head = head_commands(width, height);
        let capacity = self.tables.len();
        let room = self
            .tables
            .get_mut(..HEAD_COMMANDS + 1)
            .ok_or(DrawError::CommandListFull { capacity })?;
        room[..HEAD_COMMANDS].copy_from_slice(&head);
        (self.len, self.gouraud_len) = (HEAD_COMMANDS, 0);
        Ok(())
    }

    /// The command tables so far (without the end).
    pub fn commands(&self) -> &[CommandTable] {
        &self.tables[..self.len]
    }

    /// The frame's gouraud tables so far.
    pub fn gouraud_tables(&self) -> &[GouraudTable] {
        &self.gouraud[..self.gouraud_len]
    }

    /// Writes the commands and an end command after them to VRAM at `address` (a multiple
    /// of 32), and the frame's gouraud tables where the list was made to put them: refused
    /// when either passes VRAM's end.
    pub fn write(&self, vram: &mut impl Vram, address: u32) -> Result<(), DrawError> {
        let past_end = |region, start: u32, bytes: usize| {
            let needed = u32::try_from(bytes).unwrap_or(u32::MAX);
            let available = VRAM_SIZE.saturating_sub(start);
            (needed > available).then_some(DrawError::VramRegionTooSmall {
                region,
                needed,
                available,
            })
        };
        let commands = past_end("command", address, 32 * (self.len + 1));
        let gouraud = past_end("frame gouraud", self.gouraud_base, 8 * self.gouraud_len);
        if let Some(error) = commands.or(gouraud) {
            return Err(error);
        }
        write_list(
            vram,
            address,
            self.commands(),
            self.gouraud_base,
            self.gouraud_tables(),
        );
        Ok(())
    }

    /// Room left for polygons (one table is kept for the end).
    pub(crate) fn room(&self) -> usize {
        self.tables.len().saturating_sub(self.len + 1)
    }

    /// Room left for gouraud tables of the frame.
    pub(crate) fn gouraud_room(&self) -> usize {
        self.gouraud.len() - self.gouraud_len
    }

    fn full(&self) -> DrawError {
        DrawError::CommandListFull {
            capacity: self.tables.len(),
        }
    }

    /// Adds a command.
    pub(crate) fn push(&mut self, table: CommandTable) -> Result<(), DrawError> {
        if self.room() == 0 {
            return Err(self.full());
        }
        self.tables[self.len] = table;
        self.len += 1;
        Ok(())
    }

    /// Adds a polygon's command from its words: `head` (`CMDCTRL` to `CMDSIZE`), the
    /// corners ([`Point::word`]) and `last` (`CMDGRDA` and the reserved field). What
    /// [`push`](Self::push) of the whole table does, as eight 32-bit stores in place (the
    /// hot loop of the emission).
    #[inline(always)]
    pub(crate) fn push_words(
        &mut self,
        head: &[u32; 3],
        corners: [u32; 4],
        last: u32,
    ) -> Result<(), DrawError> {
        if self.room() == 0 {
            return Err(self.full());
        }
        let Some(slot) = self.tables.get_mut(self.len) else {
            return Err(self.full());
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

    /// Lets `fill` write polygons, each a command and a gouraud table of this frame, into
    /// the room left (the free tables, one kept for the end, the free gouraud tables and
    /// the first one's VRAM address / 8) and keeps the first ones it says it wrote; gives
    /// how many.
    pub(crate) fn fill_lit_with(
        &mut self,
        fill: impl FnOnce(&mut [CommandTable], &mut [GouraudTable], u32) -> usize,
    ) -> usize {
        self.fill_frame_with(|tables, gouraud, first_gouraud| {
            let room = tables.len().min(gouraud.len());
            let written = fill(tables, gouraud, first_gouraud).min(room);
            (written, written)
        })
    }

    /// Lets `fill` write polygons, each a command and some a gouraud table of this frame,
    /// into the room left (the free tables, one kept for the end, the free gouraud tables
    /// and the first one's VRAM address / 8) and keeps the first commands and gouraud
    /// tables it says it wrote; gives how many commands.
    pub(crate) fn fill_frame_with(
        &mut self,
        fill: impl FnOnce(&mut [CommandTable], &mut [GouraudTable], u32) -> (usize, usize),
    ) -> usize {
        let room = self.room();
        let first_gouraud = (self.gouraud_base + 8 * self.gouraud_len as u32) >> 3;
        let tables = &mut self.tables[self.len..self.len + room];
        let gouraud = &mut self.gouraud[self.gouraud_len..];
        let gouraud_room = gouraud.len();
        let (written, lit) = fill(tables, gouraud, first_gouraud);
        let written = written.min(room);
        self.len += written;
        self.gouraud_len += lit.min(gouraud_room);
        written
    }

    /// Adds the [ramp's gouraud tables](RAMP_TABLES) when there is room for them and
    /// `still` more (the most the frame's polygons may take); gives the first one's VRAM
    /// address / 8 (none without room: then each lit polygon takes a table of its own).
    pub(crate) fn push_ramp(&mut self, still: usize) -> Option<u32> {
        if self.gouraud_room() < RAMP_TABLES.saturating_add(still) {
            return None;
        }
        let first = (self.gouraud_base + 8 * self.gouraud_len as u32) >> 3;
        for (slot, table) in self.gouraud[self.gouraud_len..]
            .iter_mut()
            .zip(ramp_tables())
        {
            *slot = table;
        }
        self.gouraud_len += RAMP_TABLES;
        Some(first)
    }

    /// Adds a gouraud table for this frame and gives its VRAM address.
    pub(crate) fn push_gouraud(&mut self, table: GouraudTable) -> Result<u32, DrawError> {
        let address = self.gouraud_base + 8 * self.gouraud_len as u32;
        let capacity = self.gouraud.len();
        let slot = self
            .gouraud
            .get_mut(self.gouraud_len)
            .ok_or(DrawError::GouraudListFull { capacity })?;
        *slot = table;
        self.gouraud_len += 1;
        Ok(address)
    }
}

/// The tests' command list: arrays of `C` command tables and `G` frame gouraud tables,
/// lent as a [`CommandBuffer`] ([`with_buffer`](Self::with_buffer)) and written to VRAM
/// at a layout's regions ([`commit`](Self::commit)).
#[cfg(any(test, feature = "selftest"))]
pub(crate) struct CommandList<const C: usize, const G: usize> {
    tables: [CommandTable; C],
    len: usize,
    /// Aligned on 4 bytes, so that the frame's tables go to VRAM by one SCU DMA.
    gouraud: crate::Aligned<[GouraudTable; G]>,
    gouraud_len: usize,
    frame_gouraud_base: u32,
}

#[cfg(any(test, feature = "selftest"))]
impl<const C: usize, const G: usize> CommandList<C, G> {
    /// A list for a `width` x `height` screen: system and user clipping to the screen and
    /// the local origin at its centre (where a frame puts the eye's axis).
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
        gouraud: crate::Aligned([GouraudTable([0; 4]); G]),
        gouraud_len: 0,
        frame_gouraud_base: 0,
    };

    /// Empties the list and starts it as [`new`](Self::new) does, in place.
    pub fn reset(&mut self, width: u16, height: u16, layout: &VramLayout) {
        self.len = 0;
        self.gouraud_len = 0;
        self.frame_gouraud_base = layout.frame_gouraud.start;
        for table in head_commands(width, height) {
            // The three fit in any list of 4 or more; a smaller one is refused later.
            let _ = self.push(table);
        }
    }

    /// The command tables so far (without the end).
    pub fn commands(&self) -> &[CommandTable] {
        &self.tables[..self.len]
    }

    /// The gouraud tables made for this frame so far.
    pub fn gouraud_tables(&self) -> &[GouraudTable] {
        &self.gouraud.0[..self.gouraud_len]
    }

    /// Room left for polygons (one table is kept for the end).
    pub fn room(&self) -> usize {
        C.saturating_sub(self.len + 1)
    }

    /// Adds a command.
    pub fn push(&mut self, table: CommandTable) -> Result<(), DrawError> {
        self.with_buffer(|buffer| buffer.push(table))
    }

    /// Adds a polygon's command from its words (see [`CommandBuffer::push_words`]).
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn push_words(
        &mut self,
        head: &[u32; 3],
        corners: [u32; 4],
        last: u32,
    ) -> Result<(), DrawError> {
        self.with_buffer(|buffer| buffer.push_words(head, corners, last))
    }

    /// Lets `fill` write commands into the room left (see [`CommandBuffer::fill_with`]).
    #[cfg(all(jom_asm, feature = "selftest"))]
    pub(crate) fn fill_with(&mut self, fill: impl FnOnce(&mut [CommandTable]) -> usize) -> usize {
        self.with_buffer(|buffer| buffer.fill_with(fill))
    }

    /// Lends the list as a [`CommandBuffer`] to `write`, keeping what it adds.
    pub(crate) fn with_buffer<R>(&mut self, write: impl FnOnce(&mut CommandBuffer<'_>) -> R) -> R {
        let mut buffer = CommandBuffer {
            tables: &mut self.tables,
            len: self.len,
            gouraud: &mut self.gouraud.0,
            gouraud_len: self.gouraud_len,
            gouraud_base: self.frame_gouraud_base,
        };
        let result = write(&mut buffer);
        (self.len, self.gouraud_len) = (buffer.len, buffer.gouraud_len);
        result
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
        let needed = 8 * self.gouraud_len as u32;
        let available = layout.frame_gouraud.end - layout.frame_gouraud.start;
        if needed > available {
            return Err(DrawError::VramRegionTooSmall {
                region: "frame gouraud",
                needed,
                available,
            });
        }
        write_list(
            vram,
            layout.commands.start,
            self.commands(),
            layout.frame_gouraud.start,
            self.gouraud_tables(),
        );
        Ok(())
    }
}

/// Writes `commands` at `address` and the end after them (the tables in one call: one DMA
/// on the Saturn), and the frame's gouraud tables, staged one after the other in RAM, at
/// `gouraud_address` (one DMA more).
pub(crate) fn write_list(
    vram: &mut impl Vram,
    address: u32,
    commands: &[CommandTable],
    gouraud_address: u32,
    gouraud: &[GouraudTable],
) {
    vram.write_commands(address, commands);
    let end = address + 32 * commands.len() as u32;
    vram.write_command(end, &CommandTable::end());
    vram.write_gouraud_tables(gouraud_address, gouraud);
}

/// Gouraud tables of one colour each, one a colour of [`LIGHT_RAMP`]'s (table `c` its
/// colour `c` on every corner), that a frame's gouraud tables may start with: a lit
/// polygon whose corners share one normal (a flat face: the showcase's character, all
/// boxes) takes the one of its colour, not a table of its own.
pub(crate) const RAMP_TABLES: usize = 17;

/// The light's levels as gouraud colours: channel `c` (0 to 16) on every channel at index
/// `c`, what `emit::light::neutral_lit` makes of a level `c << 12` (`neutral_lit` only looks at those
/// bits). The assembly's, and the ramp's tables'; the tests check it against `neutral_lit`.
pub(crate) static LIGHT_RAMP: [u16; RAMP_TABLES] = {
    let mut ramp = [0; RAMP_TABLES];
    let mut c = 0;
    while c < RAMP_TABLES {
        ramp[c] = 0x8000 | (c as u16) << 10 | (c as u16) << 5 | c as u16;
        c += 1;
    }
    ramp
};

/// The tables [`RAMP_TABLES`] says, in order.
pub(crate) fn ramp_tables() -> impl Iterator<Item = GouraudTable> {
    LIGHT_RAMP.iter().map(|&color| GouraudTable([color; 4]))
}
