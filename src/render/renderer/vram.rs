//! The renderer's VRAM bookkeeping: its state ([`Inner`]), the slots of the loaded models
//! (textures, gouraud table addresses, plane runs) reserved and given back, the VRAM of
//! dropped models held until no list on screen uses it, the jump at VRAM 0, and the VDP1's
//! frame changes as the renderer sees them.

use core::ops::Range;
use core::ptr::NonNull;

use super::handles::ModelHandle;
use super::layout::{Layout, JUMP_CTRL};
use super::memory::RendererMemory;
use super::memory::{Dropped, Held, MAX_MODELS};
use crate::format::Model;
use crate::render::cull::write_plane_runs;
use crate::render::pipeline::{TransferOver, MAX_DRAWS};
use crate::vdp1::{RegionAllocator, Vdp1, Vram, VramError};
use crate::worker::Worker;

/// The renderer's state (behind its `RefCell`): its VDP1, memory, worker and clock, where
/// its lists are and which one the VDP1 reads, and the slots of the loaded models.
pub(super) struct Inner<'m, V> {
    pub(super) vdp1: V,
    pub(super) memory: RendererMemory<'m>,
    pub(super) worker: Option<&'m mut dyn Worker>,
    pub(super) clock: Option<fn() -> u32>,
    pub(super) layout: Layout,
    /// The list the jump at 0 points to.
    pub(super) front: usize,
    /// The jump was moved since the last frame change waited for.
    pub(super) flipped: bool,
    /// A [`Frame`] is being drawn (one at a time: they share the work buffers).
    pub(super) in_frame: bool,
    /// The command tables of each list before its end command, as last written.
    pub(super) list_commands: [u16; 2],
    /// What the frame change seen since the last `finish` said of the list it cut short, if
    /// it cut one short: for that `finish`'s [`FrameStats::transfer_over`].
    pub(super) transfer_over: Option<TransferOver>,
    /// Frames finished, and of them those on screen (the last waited for).
    pub(super) finished: u32,
    pub(super) shown: u32,
    /// Handles loaded and not taken in as dropped: with `memory.books.held`, at most
    /// [`MAX_MODELS`], so that neither it nor `memory.dropped` can be full.
    pub(super) live: usize,
    /// The serial of the last model loaded ([`ModelHandle`]'s).
    pub(super) loads: u32,
    /// The models the frame being drawn drew, in draw order (those dropped whole left
    /// out): here rather than in the [`Frame`](super::Frame), which goes by value from
    /// `begin` to the game and into `finish` (their 260 bytes in it made `begin` 1,920
    /// cycles slower: `make bench`, Mednafen). Each is a handle that frame borrows for its
    /// whole life (`Frame::add` takes a `&'f ModelHandle`), so it is read only while the
    /// frame lives; `begin` clears them.
    pub(super) drawn: heapless::Vec<NonNull<ModelHandle<'static, 'static>>, MAX_DRAWS>,
}

/// Slot ranges are kept in an allocator of 8-byte blocks: one block a slot.
pub(super) const SLOT: u32 = 8;

pub(super) fn slots(range: &Range<u32>) -> Range<usize> {
    (range.start / SLOT) as usize..(range.end / SLOT) as usize
}

/// A model's slots in the renderer's memory: of its textures, of its gouraud table
/// addresses and of its plane runs.
pub(super) type Reserved = (Range<u32>, Range<u32>, Range<u32>);

/// What a load gives when the renderer is in the middle of another call.
pub(super) const BUSY: VramError = VramError::TableFull {
    table: "renderer (busy)",
    capacity: 0,
};

impl<V> Inner<'_, V> {
    /// Gives the VRAM of a dropped model back once a frame finished after the drop is on
    /// screen: until then the VDP1 may draw a list that uses its textures and tables.
    /// Taken in at the renderer's first call after the drop: no frame was finished in
    /// between, so `finished` is what it was at the drop.
    pub(super) fn hold(&mut self, dropped: Dropped) {
        self.live = self.live.saturating_sub(1);
        // Only the CPU reads the plane runs: free at once.
        self.free_slots(0..0, 0..0, dropped.planes);
        if dropped.textures.is_empty() && dropped.gouraud.is_empty() {
            return;
        }
        let held = Held {
            textures: dropped.textures,
            gouraud: dropped.gouraud,
            until_shown: self.finished.wrapping_add(1),
        };
        // Never full: `live` and `held` together stay within `MAX_MODELS`.
        let _ = self.memory.books.held.push(held);
    }

    /// Refuses a load that would pass [`MAX_MODELS`].
    pub(super) fn room_for_a_model(&self) -> Result<(), VramError> {
        match self.live + self.memory.books.held.len() < MAX_MODELS {
            true => Ok(()),
            false => Err(VramError::TableFull {
                table: "loaded models (with those dropped and not yet off screen)",
                capacity: MAX_MODELS,
            }),
        }
    }

    /// The VDP1 has changed frame since the last flip: the frames finished are on screen,
    /// and what was held for the lists before them is given back.
    pub(super) fn frame_changed(&mut self) {
        self.flipped = false;
        self.shown = self.finished;
        self.release_shown();
    }

    /// Gives back what was held for lists no longer on screen.
    pub(super) fn release_shown(&mut self) {
        let shown = self.shown;
        while let Some(i) = self
            .memory
            .books
            .held
            .iter()
            .position(|h| shown.wrapping_sub(h.until_shown) < u32::MAX / 2)
        {
            let held = self.memory.books.held.swap_remove(i);
            self.release(held.textures, held.gouraud);
        }
    }

    pub(super) fn release(&mut self, textures: Range<u32>, gouraud: Range<u32>) {
        let memory = &mut self.memory;
        memory
            .textures
            .release(&memory.texture_slots[slots(&textures)]);
        memory
            .gouraud
            .release(&memory.gouraud_slots[slots(&gouraud)]);
        self.free_slots(textures, gouraud, 0..0);
    }

    pub(super) fn free_slots(
        &mut self,
        textures: Range<u32>,
        gouraud: Range<u32>,
        planes: Range<u32>,
    ) {
        for (allocator, range) in [
            (&mut self.memory.books.texture_slots, textures),
            (&mut self.memory.books.gouraud_slots, gouraud),
            (&mut self.memory.books.plane_slots, planes),
        ] {
            if !range.is_empty() {
                allocator.release(range.start, range.end - range.start);
            }
        }
    }
}

impl<V: Vdp1> Inner<'_, V> {
    /// Asks the VDP1, without waiting, whether it has changed frame since the last flip;
    /// if so, notes it ([`frame_changed`](Self::frame_changed)) and how the drawing before
    /// it ended ([`note_frame_end`](Self::note_frame_end)).
    pub(super) fn look_for_frame_change(&mut self) {
        if self.flipped && self.vdp1.frame_changed() {
            self.note_frame_end();
            self.frame_changed();
        }
    }

    /// Asks the VDP1, once it is known to have changed frame since the last flip, how its
    /// drawing of the field that change ended ended: the list it cut short, if one of this
    /// renderer's, is kept for the next [`FrameStats::transfer_over`].
    pub(super) fn note_frame_end(&mut self) {
        let end = self.vdp1.last_frame_end();
        self.transfer_over = self.layout.transfer_over(end, self.list_commands);
    }

    /// Loads the gouraud tables of `model` (its textures loaded in the slots `textures`) into
    /// the slots `gouraud`; on an error gives the textures and the slots back.
    pub(super) fn load_gouraud(
        &mut self,
        model: &Model<'_>,
        (textures, gouraud, planes): Reserved,
    ) -> Result<(), VramError> {
        let memory = &mut self.memory;
        let vram: &mut dyn Vram = &mut self.vdp1;
        let per_polygon = &mut memory.gouraud_slots[slots(&gouraud)];
        if let Err(error) = memory.gouraud.load_model(model, vram, per_polygon) {
            self.unload_textures(&textures, model.texture_names().len());
            self.free_slots(textures, gouraud, planes);
            return Err(error);
        }
        Ok(())
    }

    /// Gives back the first `loaded` textures of the slots `textures`.
    pub(super) fn unload_textures(&mut self, textures: &Range<u32>, loaded: usize) {
        let slots = &self.memory.texture_slots[slots(textures)];
        let loaded = loaded.min(slots.len());
        self.memory.textures.release(&slots[..loaded]);
    }

    /// A new load's serial: never 0, and none given twice in 2^32 - 1 loads.
    pub(super) fn next_serial(&mut self) -> u32 {
        self.loads = self.loads.checked_add(1).unwrap_or(1);
        self.loads
    }

    /// Points the jump at VRAM 0 at list `list`: its link, then its control word, each a
    /// 16-bit write the VDP1 sees whole, so that a VDP1 reading the table in between finds
    /// the end that was there (the first time) or a jump to a whole list, never a jump
    /// through a link not yet written.
    pub(super) fn point_jump(&mut self, list: usize) {
        let link = (self.layout.lists[list] >> 3) as u16;
        self.vdp1.write(2, &link.to_be_bytes());
        self.vdp1.write(0, &JUMP_CTRL.to_be_bytes());
        self.front = list;
    }

    /// The slots of `model`'s textures, gouraud table addresses and plane runs (these
    /// written).
    pub(super) fn reserve(&mut self, model: &Model<'_>) -> Result<Reserved, VramError> {
        let take = |allocator: &mut RegionAllocator<32>, size: usize| {
            if size == 0 {
                return Ok(0..0);
            }
            let size = size as u32;
            allocator.allocate(size).map(|start| start..start + size)
        };
        let slot = SLOT as usize;
        let textures = take(
            &mut self.memory.books.texture_slots,
            model.texture_names().len() * slot,
        )?;
        let gouraud_count = if model.gouraud().is_some() {
            model.polygons().len()
        } else {
            0
        };
        let gouraud = match take(&mut self.memory.books.gouraud_slots, gouraud_count * slot) {
            Ok(gouraud) => gouraud,
            Err(error) => {
                self.free_slots(textures, 0..0, 0..0);
                return Err(error);
            }
        };
        // A byte a polygon; without room for any (`model_planes: 0`), none kept.
        let runs = match self.memory.plane_runs.is_empty() {
            true => 0,
            false => model.polygons().len(),
        };
        match take(&mut self.memory.books.plane_slots, runs) {
            Ok(planes) => {
                let runs = &mut self.memory.plane_runs[planes.start as usize..planes.end as usize];
                write_plane_runs(model, runs);
                Ok((textures, gouraud, planes))
            }
            Err(error) => {
                self.free_slots(textures, gouraud, 0..0);
                Err(error)
            }
        }
    }
}
