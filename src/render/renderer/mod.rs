//! The game-facing renderer: one [`Renderer`] owns VDP1 VRAM (its layout derived from the
//! sizes of its [`RendererMemory`]), two command lists, the work buffers and the texture
//! and gouraud caches. Loading a model gives a [`ModelHandle`] that gives its VRAM back
//! when dropped; a [`Frame`] collects every model drawn, sorts all their polygons together
//! and emits them back to front into the list the VDP1 is not reading.
//!
//! VRAM, in order: at address 0 one command that skips itself and jumps to the front list
//! (list A or B); the two lists; the two lists' frame gouraud tables (lighting); the
//! gouraud tables of the loaded models; textures in the rest. [`Frame::finish`] writes the
//! back list and its gouraud tables, then points the jump at it. The VDP1 reads the new
//! list from its next frame change on, so the old one is free to write from then: the
//! next [`Frame::finish`] waits for that change ([`Vdp1::wait_frame_change`]) only if it
//! has not come yet, just before it writes. Everything before (the game's own work,
//! transform, culling, sorting, emission into work RAM) overlaps the VDP1 drawing, and a
//! frame a little longer than a field is shown at the next field, not the one after. The
//! CPU never writes the list (or the frame gouraud tables) the VDP1 may be reading.
//!
//! ```
//! use jom::math::{Matrix, ONE};
//! use jom::render::{Camera, Renderer};
//! use jom::vdp1::{MemoryVram, VRAM_SIZE};
//!
//! let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
//! let model = jom::Model::from_bytes(bytes)?;
//!
//! let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
//!     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
//!     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
//! let mut vram_bytes = vec![0; VRAM_SIZE as usize]; // on the Saturn: the real VRAM
//! let renderer = Renderer::new(MemoryVram::new(&mut vram_bytes), memory, None)?;
//! let handle = renderer.load(&model)?;
//!
//! let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
//! let mut frame = renderer.begin(&camera, None)?;
//! frame.draw(&handle, &Matrix::IDENTITY)?;
//! let stats = frame.finish()?;
//! assert_eq!(stats.drawn + stats.culled, model.polygons().len());
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

mod memory;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;

pub use memory::{RendererArrays, RendererMemory, RendererTables, TakeOnce};

use core::cell::RefCell;
use core::fmt;
use core::ops::Range;

use super::camera::Camera;
use super::cull::write_plane_runs;
use super::error::DrawError;
use super::list::{head_commands, write_list, CommandBuffer, HEAD_COMMANDS};
use super::pipeline::{
    Drawn, FrameState, FrameStats, Placement, Source, Sources, TransferOver, MAX_DRAWS,
};
use super::shared::{Light, ModelVram, Posed};
use super::transforms::corners_in_groups;
use crate::disc::{load_model_with, DiscError, TextureSink};
use crate::format::{Model, Name};
use crate::iso9660::{Iso9660, SectorSource};
use crate::math::Matrix;
use crate::vdp1::{
    CommandTable, FrameEnd, RegionAllocator, SlotSlice, TextureSlot, TextureSource, Vdp1, Vram,
    VramError, VRAM_SIZE,
};
use crate::worker::Worker;
use crate::Aligned;

/// Polygon numbers in a frame fit the 16 bits of a sort key's index.
const MAX_FRAME_POLYGONS: usize = 1 << 16;

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

/// Why [`Renderer::set_worker`] refused a worker, and the worker, given back.
pub struct WorkerRefused<'m> {
    /// [`DrawError::FrameOpen`] or [`DrawError::Busy`].
    pub error: DrawError,
    /// The worker the call was given.
    pub worker: Option<&'m mut dyn Worker>,
}

impl fmt::Debug for WorkerRefused<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerRefused")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
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
struct Layout {
    /// The two command lists.
    lists: [u32; 2],
    /// Their frame gouraud tables.
    frame_gouraud: [u32; 2],
}

/// The size of the jump command at VRAM address 0.
const JUMP_BYTES: u32 = 32;
/// `CMDCTRL` of the jump: JP = 5 (skip this command, jump to `CMDLINK`).
const JUMP_CTRL: u16 = 0x5000;

impl Layout {
    /// The regions for lists of `commands` tables and `frame_gouraud` gouraud tables, and
    /// `model_gouraud` tables of the models, in VRAM order: the regions of the model
    /// gouraud tables and of the textures (the rest) besides.
    fn of(
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
    fn transfer_over(&self, end: FrameEnd, commands: [u16; 2]) -> Option<TransferOver> {
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

/// Draws scenes on the VDP1: see [`render`](crate::render).
pub struct Renderer<'m, V: Vdp1> {
    inner: RefCell<Inner<'m, V>>,
    /// Models dropped since the renderer last took them in (a handle is dropped whatever
    /// the renderer is doing; this is never borrowed across a call of anyone's code).
    dropped: RefCell<heapless::Vec<Dropped, MAX_MODELS>>,
}

struct Inner<'m, V> {
    vdp1: V,
    memory: RendererMemory<'m>,
    worker: Option<&'m mut dyn Worker>,
    clock: Option<fn() -> u32>,
    layout: Layout,
    /// The list the jump at 0 points to.
    front: usize,
    /// The jump was moved since the last frame change waited for.
    flipped: bool,
    /// A [`Frame`] is being drawn (one at a time: they share the work buffers).
    in_frame: bool,
    /// The command tables of each list before its end command, as last written.
    list_commands: [u16; 2],
    /// What the frame change seen since the last `finish` said of the list it cut short, if
    /// it cut one short: for that `finish`'s [`FrameStats::transfer_over`].
    transfer_over: Option<TransferOver>,
    /// Frames finished, and of them those on screen (the last waited for).
    finished: u32,
    shown: u32,
    held: heapless::Vec<Held, MAX_MODELS>,
    /// Handles loaded and not taken in as dropped: with `held`, at most [`MAX_MODELS`], so
    /// that neither `held` nor `dropped` can be full.
    live: usize,
    /// Ranges of `memory.texture_slots` and `memory.gouraud_slots` (8 units an entry).
    texture_slots: RegionAllocator<32>,
    gouraud_slots: RegionAllocator<32>,
    /// Ranges of `memory.plane_runs` (a byte an entry).
    plane_slots: RegionAllocator<32>,
    /// The serial of the last model loaded ([`ModelHandle`]'s).
    loads: u32,
}

/// A loaded model: drawn by [`Frame::draw`] and [`Frame::draw_posed`]. Dropped, it gives
/// its textures and gouraud tables back (those another model uses stay) once a frame
/// finished after the drop is on screen (seen by the next [`Renderer::begin`] or
/// [`finish`](Frame::finish) after the VDP1's frame change): until then the VDP1 may
/// still draw them.
pub struct ModelHandle<'r, 'b> {
    owner: &'r dyn Owner,
    model: Model<'b>,
    /// This load's number, never 0 (each load a new one): what a draw slot keeps its
    /// emission templates for.
    serial: u32,
    textures: Range<u32>,
    gouraud: Range<u32>,
    /// Its runs of coplanar polygons, in `memory.plane_runs`.
    planes: Range<u32>,
    /// Whether its groups hold the corner A of each of their polygons
    /// ([`corners_in_groups`]): its posed draws' culling then looks none up.
    corners_in_groups: bool,
}

impl<'b> ModelHandle<'_, 'b> {
    /// The model.
    pub fn model(&self) -> &Model<'b> {
        &self.model
    }
}

impl Drop for ModelHandle<'_, '_> {
    fn drop(&mut self) {
        let (textures, gouraud) = (self.textures.clone(), self.gouraud.clone());
        self.owner.release(textures, gouraud, self.planes.clone());
    }
}

/// What a handle gives its VRAM back to.
trait Owner {
    fn release(&self, textures: Range<u32>, gouraud: Range<u32>, planes: Range<u32>);
}

impl<V: Vdp1> Owner for Renderer<'_, V> {
    fn release(&self, textures: Range<u32>, gouraud: Range<u32>, planes: Range<u32>) {
        let dropped = Dropped {
            textures,
            gouraud,
            planes,
        };
        // Never full: a live handle's place (`Inner::live`); never borrowed here but by
        // `take_dropped`, which runs no other code.
        if let Ok(mut list) = self.dropped.try_borrow_mut() {
            let _ = list.push(dropped);
        }
    }
}

/// A dropped handle's slots, until the renderer takes them in.
struct Dropped {
    textures: Range<u32>,
    gouraud: Range<u32>,
    planes: Range<u32>,
}

/// The VRAM of a dropped model, kept until a list drawn without it is on screen.
struct Held {
    textures: Range<u32>,
    gouraud: Range<u32>,
    /// Given back once this many frames are finished and shown.
    until_shown: u32,
}

/// The most models loaded at once, counting the dropped ones whose VRAM still waits for a
/// frame without them on screen: a load past it is refused (`TableFull`).
pub const MAX_MODELS: usize = 32;

/// Slot ranges are kept in an allocator of 8-byte blocks: one block a slot.
const SLOT: u32 = 8;

fn slots(range: &Range<u32>) -> Range<usize> {
    (range.start / SLOT) as usize..(range.end / SLOT) as usize
}

impl<V> Inner<'_, V> {
    /// Gives the VRAM of a dropped model back once a frame finished after the drop is on
    /// screen: until then the VDP1 may draw a list that uses its textures and tables.
    /// Taken in at the renderer's first call after the drop: no frame was finished in
    /// between, so `finished` is what it was at the drop.
    fn hold(&mut self, dropped: Dropped) {
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
        let _ = self.held.push(held);
    }

    /// Refuses a load that would pass [`MAX_MODELS`].
    fn room_for_a_model(&self) -> Result<(), VramError> {
        match self.live + self.held.len() < MAX_MODELS {
            true => Ok(()),
            false => Err(VramError::TableFull {
                table: "loaded models (with those dropped and not yet off screen)",
                capacity: MAX_MODELS,
            }),
        }
    }

    /// The VDP1 has changed frame since the last flip: the frames finished are on screen,
    /// and what was held for the lists before them is given back.
    fn frame_changed(&mut self) {
        self.flipped = false;
        self.shown = self.finished;
        self.release_shown();
    }

    /// Gives back what was held for lists no longer on screen.
    fn release_shown(&mut self) {
        while let Some(i) = self
            .held
            .iter()
            .position(|h| self.shown.wrapping_sub(h.until_shown) < u32::MAX / 2)
        {
            let held = self.held.swap_remove(i);
            self.release(held.textures, held.gouraud);
        }
    }

    fn release(&mut self, textures: Range<u32>, gouraud: Range<u32>) {
        let memory = &mut self.memory;
        memory
            .textures
            .release(&memory.texture_slots[slots(&textures)]);
        memory
            .gouraud
            .release(&memory.gouraud_slots[slots(&gouraud)]);
        self.free_slots(textures, gouraud, 0..0);
    }

    fn free_slots(&mut self, textures: Range<u32>, gouraud: Range<u32>, planes: Range<u32>) {
        for (allocator, range) in [
            (&mut self.texture_slots, textures),
            (&mut self.gouraud_slots, gouraud),
            (&mut self.plane_slots, planes),
        ] {
            if !range.is_empty() {
                allocator.release(range.start, range.end - range.start);
            }
        }
    }
}

impl<'m, V: Vdp1> Renderer<'m, V> {
    /// A renderer drawing with `vdp1` in `memory`, with `worker` (the slave SH-2) taking a
    /// share of the work when given. Checks that the regions `memory`'s sizes ask for fit
    /// VRAM, writes two empty lists and points the jump at VRAM 0 at the first.
    pub fn new(
        mut vdp1: V,
        memory: RendererMemory<'m>,
        worker: Option<&'m mut dyn Worker>,
    ) -> Result<Self, RendererError> {
        let polygons = memory.frame.keys.len() / 2;
        if polygons > MAX_FRAME_POLYGONS {
            return Err(RendererError::Size {
                what: "polygons",
                value: polygons,
                min: 0,
                max: MAX_FRAME_POLYGONS,
            });
        }
        let commands = memory.commands.len();
        if commands < HEAD_COMMANDS + 2 {
            return Err(RendererError::Size {
                what: "commands",
                value: commands,
                min: HEAD_COMMANDS + 2,
                max: usize::MAX,
            });
        }
        let draws = memory.frame.draws.len();
        if !(1..=MAX_DRAWS).contains(&draws) {
            return Err(RendererError::Size {
                what: "draws",
                value: draws,
                min: 1,
                max: MAX_DRAWS,
            });
        }
        let (layout, model_gouraud, textures) = Layout::of(
            commands,
            memory.frame_gouraud.len(),
            memory.model_gouraud_tables,
        )?;
        memory.textures.reset(textures);
        memory.gouraud.reset(model_gouraud);
        let slot_region = |count: usize| 0..(count as u32).saturating_mul(SLOT);
        let texture_slots = RegionAllocator::new(
            "model texture",
            slot_region(memory.texture_slots.len()),
            SLOT,
        );
        let gouraud_slots = RegionAllocator::new(
            "model polygon",
            slot_region(memory.gouraud_slots.len()),
            SLOT,
        );
        // A byte a polygon, in blocks of 8.
        let plane_slots = RegionAllocator::new("model plane", 0..memory.plane_runs.len() as u32, 8);
        // An end at VRAM 0 too, whatever was there: `point_jump` then turns it into the jump.
        let [a, b] = layout.lists;
        for list in [0, a, b] {
            vdp1.write_command(list, &CommandTable::end());
        }
        let mut inner = Inner {
            vdp1,
            memory,
            worker,
            clock: None,
            layout,
            front: 0,
            flipped: false,
            in_frame: false,
            list_commands: [0; 2],
            transfer_over: None,
            finished: 0,
            shown: 0,
            held: heapless::Vec::new(),
            live: 0,
            texture_slots,
            gouraud_slots,
            plane_slots,
            loads: 0,
        };
        inner.point_jump(0);
        Ok(Self {
            inner: RefCell::new(inner),
            dropped: RefCell::new(heapless::Vec::new()),
        })
    }

    /// Reads `clock` (a free-running counter, wrapping) between the phases of each frame:
    /// [`FrameStats::times`] then says where the time went (the SH-2 benchmark reads the
    /// SH-2's timer).
    pub fn set_clock(&self, clock: Option<fn() -> u32>) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            inner.clock = clock;
        }
    }

    /// Runs `work` with the renderer's second CPU (the worker it was made with; `None`
    /// without one, or while a frame's call is under way), to share a game's own work
    /// between frames: the bones of a pose ([`bone_matrices_with`]), for one.
    ///
    /// [`bone_matrices_with`]: crate::anim::bone_matrices_with
    pub fn with_worker<R>(&self, work: impl FnOnce(Option<&mut (dyn Worker + '_)>) -> R) -> R {
        match self.inner.try_borrow_mut() {
            Ok(mut inner) => work(inner.worker.as_deref_mut()),
            Err(_) => work(None),
        }
    }

    /// Hands the share of the work a second CPU takes to `worker` from the next frame on
    /// (`None`: this CPU does it all), and gives back the worker the renderer had: for a
    /// game that wants the slave SH-2 for something else in some scenes, or to time one
    /// renderer's frames with and without it (the SH-2 benchmark). Refused while a frame is
    /// open (its draws may be split between the CPUs) or another call is under way: the
    /// error then gives `worker` back.
    ///
    /// ```
    /// use jom::render::{InOrder, Renderer};
    /// use jom::vdp1::{MemoryVram, VRAM_SIZE};
    ///
    /// let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
    ///     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
    ///     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
    /// let mut second = InOrder; // on the Saturn: the slave SH-2 (`jom::hw::slave`)
    /// let mut vram_bytes = vec![0; VRAM_SIZE as usize];
    /// let renderer = Renderer::new(MemoryVram::new(&mut vram_bytes), memory, None)?;
    /// let before = renderer.set_worker(Some(&mut second)).map_err(|refused| refused.error)?;
    /// assert!(before.is_none());
    /// // Frames now share their work with `second`; then this CPU alone again:
    /// let lent = renderer.set_worker(None).map_err(|refused| refused.error)?;
    /// assert!(lent.is_some());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn set_worker(
        &self,
        worker: Option<&'m mut dyn Worker>,
    ) -> Result<Option<&'m mut dyn Worker>, WorkerRefused<'m>> {
        let Ok(mut inner) = self.inner() else {
            let error = DrawError::Busy;
            return Err(WorkerRefused { error, worker });
        };
        if inner.in_frame {
            let error = DrawError::FrameOpen;
            return Err(WorkerRefused { error, worker });
        }
        Ok(core::mem::replace(&mut inner.worker, worker))
    }

    /// Gives the VDP1 back (the handles are gone: they borrow the renderer).
    pub fn into_vdp1(self) -> V {
        self.inner.into_inner().vdp1
    }

    /// How many distinct textures and model gouraud tables are in VRAM.
    pub fn vram_use(&self) -> VramUse {
        self.inner
            .try_borrow()
            .map_or(VramUse::default(), |inner| VramUse {
                textures: inner.memory.textures.len(),
                gouraud_tables: inner.memory.gouraud.len(),
            })
    }

    fn inner(&self) -> Result<core::cell::RefMut<'_, Inner<'m, V>>, DrawError> {
        self.enter().ok_or(DrawError::Busy)
    }

    /// The renderer's state for one call (`None` while another is under way), with the
    /// models dropped since the last call taken in.
    fn enter(&self) -> Option<core::cell::RefMut<'_, Inner<'m, V>>> {
        let mut inner = self.inner.try_borrow_mut().ok()?;
        if let Ok(mut dropped) = self.dropped.try_borrow_mut() {
            while let Some(handle) = dropped.pop() {
                inner.hold(handle);
            }
        }
        Some(inner)
    }

    /// Loads `model`: its embedded textures (TIMG) into VRAM, once per name, and its
    /// gouraud tables (GOUR), once per set of colours.
    pub fn load<'b>(&self, model: &Model<'b>) -> Result<ModelHandle<'_, 'b>, VramError> {
        self.load_with(model, |_, _| None)
    }

    /// Loads `model` as [`load`](Self::load) does, with the pixels `external` gives for
    /// each TEXT name that has no embedded texture (index, name: read from CD, or built).
    pub fn load_with<'b>(
        &self,
        model: &Model<'b>,
        mut external: impl FnMut(usize, &Name) -> Option<TextureSource<'b>>,
    ) -> Result<ModelHandle<'_, 'b>, VramError> {
        let mut inner = self.enter().ok_or(BUSY)?;
        inner.room_for_a_model()?;
        let (textures, gouraud, planes) = inner.reserve(model)?;
        let inner = &mut *inner;
        let memory = &mut inner.memory;
        let mut loaded = SlotSlice {
            slots: &mut memory.texture_slots[slots(&textures)],
            len: 0,
        };
        let vram: &mut dyn Vram = &mut inner.vdp1;
        // A failed load gives back the textures it loaded.
        let loading = memory
            .textures
            .load_model(model, vram, &mut external, &mut loaded);
        if let Err(error) = loading {
            inner.free_slots(textures, gouraud, planes);
            return Err(error);
        }
        let reserved = (textures.clone(), gouraud.clone(), planes.clone());
        inner.load_gouraud(model, reserved)?;
        inner.live += 1;
        Ok(ModelHandle {
            owner: self,
            model: *model,
            serial: inner.next_serial(),
            textures,
            gouraud,
            planes,
            corners_in_groups: corners_in_groups(model),
        })
    }

    /// Reads the model at `path` of `volume` into `buffer` and its textures into VRAM, one
    /// at a time through `scratch` (as large as the largest texture), as
    /// [`disc::load_model_into`](crate::disc::load_model_into) does: with TIMG only the rest
    /// of the file stays in `buffer`; without, the files TEXT names are read and decoded.
    pub fn load_from_disc<'b, S: SectorSource>(
        &self,
        volume: &mut Iso9660<S>,
        path: &str,
        buffer: &'b mut Aligned<[u8]>,
        scratch: &mut [u8],
    ) -> Result<ModelHandle<'_, 'b>, DiscError> {
        let mut inner = self.enter().ok_or(BUSY)?;
        inner.room_for_a_model()?;
        let mut sink = DiscSink {
            inner: &mut inner,
            reserved: None,
            loaded: 0,
        };
        let loading = load_model_with(volume, path, buffer, scratch, &mut sink);
        let (reserved, loaded) = (sink.reserved.take(), sink.loaded);
        let (model, (textures, gouraud, planes)) = match (loading, reserved) {
            (Ok(model), Some(reserved)) => (model, reserved),
            (loading, reserved) => {
                if let Some((textures, gouraud, planes)) = reserved {
                    inner.unload_textures(&textures, loaded);
                    inner.free_slots(textures, gouraud, planes);
                }
                return Err(loading.err().unwrap_or(DiscError::Vram(BUSY)));
            }
        };
        let reserved = (textures.clone(), gouraud.clone(), planes.clone());
        inner.load_gouraud(&model, reserved)?;
        inner.live += 1;
        Ok(ModelHandle {
            owner: self,
            corners_in_groups: corners_in_groups(&model),
            model,
            serial: inner.next_serial(),
            textures,
            gouraud,
            planes,
        })
    }

    /// Starts a frame seen by `camera`, lit by `light`. Does not wait for the VDP1: the
    /// frame's [`finish`](Frame::finish) does, if the VDP1 is still on the list it will
    /// write.
    pub fn begin(
        &self,
        camera: &Camera,
        light: Option<&Light>,
    ) -> Result<Frame<'_, 'm, V>, DrawError> {
        let mut inner = self.inner()?;
        if inner.in_frame {
            return Err(DrawError::FrameOpen);
        }
        let state = FrameState::begin(camera, light)?;
        // The VRAM of models dropped is given back as soon as it is known to be free.
        inner.look_for_frame_change();
        inner.in_frame = true;
        Ok(Frame {
            renderer: self,
            state,
            handles: heapless::Vec::new(),
            overlays: 0,
        })
    }
}

/// A model's slots in the renderer's memory: of its textures, of its gouraud table
/// addresses and of its plane runs.
type Reserved = (Range<u32>, Range<u32>, Range<u32>);

/// What a load gives when the renderer is in the middle of another call.
const BUSY: VramError = VramError::TableFull {
    table: "renderer (busy)",
    capacity: 0,
};

/// The renderer's caches as a disc loader fills them: the model's slots reserved once it
/// is read, then its textures one by one.
struct DiscSink<'s, 'm, V> {
    inner: &'s mut Inner<'m, V>,
    /// The slots of the model's textures, gouraud table addresses and plane runs, once
    /// reserved.
    reserved: Option<Reserved>,
    /// Textures loaded so far.
    loaded: usize,
}

impl<V: Vdp1> TextureSink for DiscSink<'_, '_, V> {
    fn start(&mut self, model: &Model<'_>) -> Result<(), VramError> {
        self.reserved = Some(self.inner.reserve(model)?);
        Ok(())
    }

    fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool {
        self.inner.memory.textures.needs_pixels(model, index)
    }

    fn load_texture(
        &mut self,
        model: &Model<'_>,
        source: Option<&TextureSource<'_>>,
    ) -> Result<(), VramError> {
        let Some((textures, _, _)) = &self.reserved else {
            return Err(BUSY);
        };
        let inner = &mut *self.inner;
        let mut loaded = SlotSlice {
            slots: &mut inner.memory.texture_slots[slots(textures)],
            len: self.loaded,
        };
        let vram: &mut dyn Vram = &mut inner.vdp1;
        let loading = inner
            .memory
            .textures
            .load_texture(model, &mut loaded, source, vram);
        self.loaded = loaded.len;
        loading
    }
}

impl<V: Vdp1> Inner<'_, V> {
    /// Asks the VDP1, without waiting, whether it has changed frame since the last flip;
    /// if so, notes it ([`frame_changed`](Self::frame_changed)) and how the drawing before
    /// it ended ([`note_frame_end`](Self::note_frame_end)).
    fn look_for_frame_change(&mut self) {
        if self.flipped && self.vdp1.frame_changed() {
            self.note_frame_end();
            self.frame_changed();
        }
    }

    /// Asks the VDP1, once it is known to have changed frame since the last flip, how its
    /// drawing of the field that change ended ended: the list it cut short, if one of this
    /// renderer's, is kept for the next [`FrameStats::transfer_over`].
    fn note_frame_end(&mut self) {
        let end = self.vdp1.last_frame_end();
        self.transfer_over = self.layout.transfer_over(end, self.list_commands);
    }

    /// Loads the gouraud tables of `model` (its textures loaded in the slots `textures`) into
    /// the slots `gouraud`; on an error gives the textures and the slots back.
    fn load_gouraud(
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
    fn unload_textures(&mut self, textures: &Range<u32>, loaded: usize) {
        let slots = &self.memory.texture_slots[slots(textures)];
        let loaded = loaded.min(slots.len());
        self.memory.textures.release(&slots[..loaded]);
    }

    /// A new load's serial: never 0, and none given twice in 2^32 - 1 loads.
    fn next_serial(&mut self) -> u32 {
        self.loads = self.loads.checked_add(1).unwrap_or(1);
        self.loads
    }

    /// Points the jump at VRAM 0 at list `list`: its link, then its control word, each a
    /// 16-bit write the VDP1 sees whole, so that a VDP1 reading the table in between finds
    /// the end that was there (the first time) or a jump to a whole list, never a jump
    /// through a link not yet written.
    fn point_jump(&mut self, list: usize) {
        let link = (self.layout.lists[list] >> 3) as u16;
        self.vdp1.write(2, &link.to_be_bytes());
        self.vdp1.write(0, &JUMP_CTRL.to_be_bytes());
        self.front = list;
    }

    /// The slots of `model`'s textures, gouraud table addresses and plane runs (these
    /// written).
    fn reserve(&mut self, model: &Model<'_>) -> Result<Reserved, VramError> {
        let take = |allocator: &mut RegionAllocator<32>, size: usize| {
            if size == 0 {
                return Ok(0..0);
            }
            let size = size as u32;
            allocator.allocate(size).map(|start| start..start + size)
        };
        let slot = SLOT as usize;
        let textures = take(&mut self.texture_slots, model.texture_names().len() * slot)?;
        let gouraud_count = if model.gouraud().is_some() {
            model.polygons().len()
        } else {
            0
        };
        let gouraud = match take(&mut self.gouraud_slots, gouraud_count * slot) {
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
        match take(&mut self.plane_slots, runs) {
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

/// What the loaded models hold in VRAM (see [`Renderer::vram_use`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VramUse {
    /// Distinct textures (a texture two models share counts once).
    pub textures: usize,
    /// Distinct gouraud tables of the models (GOUR).
    pub gouraud_tables: usize,
}

/// A frame being drawn: see [`Renderer::begin`]; one at a time. Dropped without
/// [`finish`](Self::finish), it draws nothing (the VDP1 keeps drawing the last list).
pub struct Frame<'f, 'm, V: Vdp1> {
    renderer: &'f Renderer<'m, V>,
    /// What the draws so far left in the renderer's memory (the pipeline's state: small,
    /// so that the frame, moved by value from `begin` into the game's code and into
    /// `finish`, stays small).
    state: FrameState,
    /// The models drawn, in draw order (those dropped whole left out).
    handles: heapless::Vec<&'f ModelHandle<'f, 'f>, MAX_DRAWS>,
    overlays: usize,
}

impl<V: Vdp1> Drop for Frame<'_, '_, V> {
    fn drop(&mut self) {
        // Frames end outside the renderer's other calls, which do not nest: never busy.
        if let Ok(mut inner) = self.renderer.inner.try_borrow_mut() {
            inner.in_frame = false;
        }
    }
}

impl<'f, V: Vdp1> Frame<'f, '_, V> {
    /// Draws the rigid model of `handle`, placed in the world by `transform`: its points
    /// are transformed and its polygons culled now, sorted with every other model's at
    /// [`finish`](Self::finish). When its bounding sphere ([`Model::reach`] about its
    /// origin) is wholly outside the view it is dropped before any point is transformed,
    /// its polygons counted in [`FrameStats::culled`].
    pub fn draw(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let placement = Placement::Rigid {
            transform,
            ground: false,
        };
        self.add(handle, placement)
    }

    /// Draws the rigid model of `handle` as ground, placed by `transform`: as
    /// [`draw`](Self::draw), but its visible polygons are not sorted by depth: they are
    /// drawn before every sorted polygon of the frame, in the model's order. For a floor
    /// that the rest of the scene stands on, seen from above: a plane's polygons never hide
    /// one another, and nothing else is behind it. It saves the sort its polygons (about 36
    /// cycles each on the master with the slave, Mednafen: BENCHMARKS.md, "Showcase"). The
    /// ground draws come before the frame's other draws: one drawn after a sorted one is
    /// sorted with the others. When the list is full, the ground's polygons are the first
    /// left out ([`FrameStats::dropped`]).
    ///
    /// ```
    /// # use jom::math::{Matrix, ONE};
    /// # use jom::render::{Camera, Renderer};
    /// # use jom::vdp1::{MemoryVram, VRAM_SIZE};
    /// # let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
    /// # let model = jom::Model::from_bytes(bytes)?;
    /// # let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
    /// #     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
    /// #     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)?;
    /// # let (floor, figure) = (renderer.load(&model)?, renderer.load(&model)?);
    /// let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
    /// let mut frame = renderer.begin(&camera, None)?;
    /// frame.draw_ground(&floor, &Matrix::translation([0, ONE, 0]))?; // first
    /// frame.draw(&figure, &Matrix::IDENTITY)?; // sorted, drawn over the ground
    /// let stats = frame.finish()?;
    /// assert_eq!(stats.drawn + stats.culled, 2 * model.polygons().len());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn draw_ground(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let placement = Placement::Rigid {
            transform,
            ground: true,
        };
        self.add(handle, placement)
    }

    /// Draws the posed model of `handle` (`jo_3d_model_draw_pose`): each bone's group
    /// moved by the bone's matrix.
    pub fn draw_posed(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        posed: &Posed<'_>,
    ) -> Result<(), DrawError> {
        self.add(handle, Placement::Posed(posed))
    }

    /// Adds a 2D command (a HUD's sprite or polygon), drawn after every model, in the
    /// order pushed. Its coordinates are from the screen's centre (the list's local
    /// origin).
    pub fn push_command(&mut self, table: CommandTable) -> Result<(), DrawError> {
        self.push_commands(core::slice::from_ref(&table))
    }

    /// Adds 2D commands as [`push_command`](Self::push_command) adds each, in one call: a
    /// HUD kept from frame to frame costs a copy (30 commands pushed one by one cost the
    /// SH-2 some 13,000 cycles with their making, Mednafen). None is added when they do not
    /// all fit.
    ///
    /// ```
    /// # use jom::render::{Camera, Renderer};
    /// # use jom::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, MemoryVram, Point, VRAM_SIZE};
    /// # let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
    /// #     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
    /// #     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None).unwrap();
    /// let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
    /// let square = |x| [Point::new(x, 0), Point::new(x + 8, 0), Point::new(x + 8, 8), Point::new(x, 8)];
    /// // Made once, pushed every frame.
    /// let hud = [CommandTable::polygon(0x801F, square(0), mode), CommandTable::polygon(0x83E0, square(10), mode)];
    /// let mut frame = renderer.begin(&Camera::default(), None)?;
    /// frame.push_commands(&hud)?;
    /// assert_eq!(frame.finish()?.overlays, 2);
    /// # Ok::<(), jom::render::DrawError>(())
    /// ```
    pub fn push_commands(&mut self, tables: &[CommandTable]) -> Result<(), DrawError> {
        let mut inner = self.renderer.inner()?;
        let commands = &mut inner.memory.commands;
        let capacity = commands.len();
        if HEAD_COMMANDS + self.overlays + tables.len() >= capacity {
            return Err(DrawError::CommandListFull { capacity });
        }
        // Overlays are kept at the end of the list's RAM, last pushed lowest, until
        // `finish` moves them after the 3D.
        let end = capacity - self.overlays;
        let kept = &mut commands[end - tables.len()..end];
        for (to, from) in kept.iter_mut().rev().zip(tables) {
            to.copy_words_from(from);
        }
        self.overlays += tables.len();
        Ok(())
    }

    /// Draws `handle` placed by `placement` into the renderer's memory, with its worker
    /// and its clock (see `pipeline::FrameState::add`).
    fn add(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        placement: Placement<'_>,
    ) -> Result<(), DrawError> {
        let renderer: *const Renderer<'_, V> = self.renderer;
        if !core::ptr::addr_eq(handle.owner as *const dyn Owner, renderer) {
            return Err(DrawError::OtherRenderer);
        }
        if self.handles.is_full() {
            let needed = self.handles.len() + 1;
            return Err(DrawError::BufferTooSmall {
                buffer: "draws",
                needed,
            });
        }
        let mut inner = self.renderer.inner()?;
        let inner = &mut *inner;
        let memory = &mut inner.memory;
        let drawn = Drawn {
            model: &handle.model,
            vram: ModelVram {
                textures: &memory.texture_slots[slots(&handle.textures)],
                gouraud: &memory.gouraud_slots[slots(&handle.gouraud)],
            },
            serial: handle.serial,
            planes: &memory.plane_runs[handle.planes.start as usize..handle.planes.end as usize],
            corners_in_groups: handle.corners_in_groups,
        };
        let worker = inner.worker.as_deref_mut();
        if self
            .state
            .add(&mut memory.frame, &drawn, placement, worker, inner.clock)?
        {
            // Not full: checked above.
            let _ = self.handles.push(handle);
        }
        Ok(())
    }
}

impl<V: Vdp1> Frame<'_, '_, V> {
    /// Ends the frame: sorts the visible polygons of every model drawn together, farthest
    /// first, emits them (the farthest of the frame left out when the list or the frame's
    /// gouraud tables are full), then the 2D commands, writes the list and its gouraud
    /// tables to the VRAM the VDP1 is not reading (first waiting for the VDP1's frame
    /// change after the last frame's `finish`, if it has not come yet: the time is
    /// [`PhaseTimes::wait`](super::PhaseTimes::wait)) and points the jump at VRAM 0 at them: the VDP1 draws them
    /// from its next frame change.
    pub fn finish(self) -> Result<FrameStats, DrawError> {
        let mut inner = self.renderer.inner()?;
        let inner = &mut *inner;
        let clock = inner.clock.unwrap_or(|| 0);
        // Looked at now, a frame change is long past by the time the list is written (the
        // Saturn's VDP1 may need up to a line more to leave the old list: nothing to wait
        // for then).
        inner.look_for_frame_change();
        let back = 1 - inner.front;
        let RendererMemory {
            frame: memory,
            commands,
            frame_gouraud,
            texture_slots,
            gouraud_slots,
            ..
        } = &mut inner.memory;
        let capacity = commands.len();
        let overlays = self.overlays;
        let (list_tables, _) = commands.split_at_mut(capacity - overlays);
        list_tables[..HEAD_COMMANDS].copy_from_slice(&head_commands(
            self.state.camera.width,
            self.state.camera.height,
        ));
        let mut list = CommandBuffer {
            tables: list_tables,
            len: HEAD_COMMANDS,
            gouraud: frame_gouraud,
            gouraud_len: 0,
            gouraud_base: inner.layout.frame_gouraud[back],
        };
        let sources = Handles {
            handles: &self.handles,
            texture_slots,
            gouraud_slots,
        };
        let worker = inner.worker.as_deref_mut();
        let finished = self
            .state
            .finish(memory, &sources, &mut list, worker, inner.clock)?;
        let (len, gouraud_len) = (list.len, list.gouraud_len);
        place_overlays(commands, len, overlays);
        let emitted_at = clock();
        // Late when the change came before (seen already, or now).
        let late = match inner.flipped {
            true => inner.vdp1.frame_changed(),
            false => inner.finished > 0,
        };
        let changed = match inner.flipped && !late {
            true => inner.vdp1.wait_frame_change(),
            false => Ok(()),
        };
        changed.map_err(|t| DrawError::FrameChange {
            waiting_for: t.waiting_for,
        })?;
        let waited = clock();
        // Before the back list is written over: the change may have cut it short.
        if inner.flipped {
            let end = inner.vdp1.last_frame_end();
            inner.transfer_over = inner.layout.transfer_over(end, inner.list_commands);
        }
        write_list(
            &mut inner.vdp1,
            inner.layout.lists[back],
            &commands[..len + overlays],
            inner.layout.frame_gouraud[back],
            &frame_gouraud[..gouraud_len],
        );
        // At most 16,384 tables fit VRAM.
        inner.list_commands[back] = (len + overlays) as u16;
        if inner.flipped {
            inner.frame_changed();
        }
        inner.point_jump(back);
        inner.vdp1.list_flipped();
        inner.flipped = true;
        inner.finished = inner.finished.wrapping_add(1);
        let committed = clock();
        let mut times = self.state.times;
        times.sort += finished.times.sort;
        times.emit = finished.times.emit;
        times.wait = waited.wrapping_sub(emitted_at);
        times.commit = committed.wrapping_sub(waited);
        Ok(FrameStats {
            drawn: finished.emitted.drawn,
            commands: finished.emitted.commands,
            culled: self.state.stats.culled,
            dropped: finished.dropped,
            gouraud_full: finished.emitted.gouraud_full,
            overlays,
            times,
            late,
            transfer_over: inner.transfer_over.take(),
        })
    }
}

/// A renderer frame's models: its handles, their VRAM in the renderer's memory.
struct Handles<'h> {
    handles: &'h [&'h ModelHandle<'h, 'h>],
    texture_slots: &'h [TextureSlot],
    gouraud_slots: &'h [u16],
}

impl Sources for Handles<'_> {
    fn source(&self, draw: usize) -> Source<'_> {
        let handle = self.handles[draw];
        Source {
            model: &handle.model,
            vram: ModelVram {
                textures: &self.texture_slots[slots(&handle.textures)],
                gouraud: &self.gouraud_slots[slots(&handle.gouraud)],
            },
            serial: handle.serial,
        }
    }

    fn same_model(&self, a: usize, b: usize) -> bool {
        core::ptr::eq(self.handles[a], self.handles[b])
    }
}

/// Moves the `overlays` kept at the end of `commands` (last pushed lowest) after the `len`
/// commands of the 3D, in push order: one copy each when the two places do not overlap
/// (`reverse` and `copy_within` of 30 overlays cost the SH-2 some 26,000 cycles, Mednafen),
/// word by word (`CommandTable::copy_words_from`: whole, 5,500 cycles for 30).
fn place_overlays(commands: &mut [CommandTable], len: usize, overlays: usize) {
    let kept = commands.len() - overlays;
    if len + overlays <= kept {
        let (to, from) = commands.split_at_mut(kept);
        for (table, pushed) in to[len..len + overlays].iter_mut().zip(from.iter().rev()) {
            table.copy_words_from(pushed);
        }
    } else {
        commands[kept..].reverse();
        commands.copy_within(kept.., len);
    }
}
