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

pub use memory::{DrawSlot, RendererArrays, RendererMemory, RendererTables, TakeOnce};

use core::cell::RefCell;
use core::fmt;
use core::mem::MaybeUninit;
use core::ops::Range;

use super::cull::{cull_visible, write_plane_runs, Balance, Kept};
use super::draw::{polygon_of, transform_model, Frame as ModelFrame, ModelVram};
use super::emit::{
    emit_sorted, emit_templates, emit_templates_shared, tested_near, EmitCache, FrameDraw,
    FrameEmitCaches, PassLight, FRAME_DRAWS,
};
use super::limits::ComposeBound;
use super::list::{head_commands, write_list, CommandBuffer, HEAD_COMMANDS};
use super::sort::{sort_counted, KeyCounts, SecondCounts};
use super::transforms::{corners_in_groups, rotation_error, Transforms};
use super::visibility::ViewVolume;
use super::{Camera, DrawError, DrawStats, Light, PhaseTimes, Posed, SortKey};
use crate::disc::{load_model_with, DiscError, TextureSink};
use crate::format::{MaterialFlags, Model, Name};
use crate::iso9660::{Iso9660, SectorSource};
use crate::math::{Matrix, Vec3};
use crate::vdp1::{
    CommandTable, FrameEnd, RegionAllocator, SlotSlice, TextureSlot, TextureSource, Vdp1, Vram,
    VramError, VRAM_SIZE,
};
use crate::worker::Worker;
use crate::Aligned;

/// The most models one frame draws, whatever the memory's `draws`.
pub const MAX_DRAWS: usize = 64;

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
    /// What the emission of a frame of one draw keeps from frame to frame (its styles,
    /// for the serial of the model drawn).
    emission: EmitCache,
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
        let polygons = memory.keys.len() / 2;
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
        let draws = memory.draws.len();
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
            emission: EmitCache::EMPTY,
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
        // Checked once a frame: each draw's matrices then only need theirs (issue #13).
        let view = super::limits::camera_view(camera)?;
        let volume = ViewVolume::of(camera);
        let light_view = light.map(|l| (view.rotate(l.direction), l.ambient));
        // The VRAM of models dropped is given back as soon as it is known to be free.
        inner.look_for_frame_change();
        inner.in_frame = true;
        Ok(Frame {
            renderer: self,
            camera: camera.clone(),
            view_bound: ComposeBound::of(&view),
            camera_view: view,
            view: volume,
            light_view,
            handles: heapless::Vec::new(),
            points: 0,
            polygons: 0,
            visible: 0,
            ground: 0,
            counting: false,
            apart: None,
            second_counts: SecondCounts::OfItsPart,
            overlays: 0,
            stats: DrawStats::default(),
            times: PhaseTimes::default(),
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

/// One model drawn in a frame.
#[derive(Clone, Copy)]
struct Draw<'d> {
    handle: &'d ModelHandle<'d, 'd>,
    placed: &'d Placed,
}

/// A frame's draws at its end, seen in place: the handles the frame kept and the
/// placements in the renderer's memory (nothing copied: a list of 64 draws made at each
/// `finish` cost the SH-2 some 5,000 cycles).
#[derive(Clone, Copy)]
struct Draws<'d> {
    handles: &'d [&'d ModelHandle<'d, 'd>],
    placed: &'d [Placed],
}

impl<'d> Draws<'d> {
    fn len(&self) -> usize {
        self.handles.len()
    }

    fn at(&self, index: usize) -> Draw<'d> {
        Draw {
            handle: self.handles[index],
            placed: &self.placed[index],
        }
    }

    /// The draw of frame polygon `polygon` (draws are in polygon order).
    fn of_polygon(&self, polygon: usize) -> usize {
        self.placed[..self.len()].partition_point(|p| p.polygons.end <= polygon)
    }

    /// Visible polygons drawn in parts, in all the draws.
    fn parts(&self) -> usize {
        self.placed[..self.len()].iter().map(|p| p.kept.parts).sum()
    }
}

/// A rigid draw's model-view matrix, its [`rotation_error`], and whether composing it
/// showed that it keeps the model's points within 32 bits.
struct Rigid<'m> {
    model_view: &'m Matrix,
    turn_error: u64,
    within_reach: bool,
}

/// Where a draw's points and polygons are in the frame (kept in the renderer's memory).
pub(crate) struct Placed {
    /// Its points in the frame's points.
    pub(crate) points: Range<usize>,
    /// Its polygons' frame numbers (sort key indexes).
    pub(crate) polygons: Range<usize>,
    /// Its visible polygons drawn in parts and crossing the near plane.
    pub(crate) kept: Kept,
}

impl Placed {
    /// No points, no polygons.
    pub(crate) const EMPTY: Self = Self {
        points: 0..0,
        polygons: 0..0,
        kept: Kept {
            parts: 0,
            crossing: 0,
        },
    };
}

/// What the loaded models hold in VRAM (see [`Renderer::vram_use`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VramUse {
    /// Distinct textures (a texture two models share counts once).
    pub textures: usize,
    /// Distinct gouraud tables of the models (GOUR).
    pub gouraud_tables: usize,
}

/// What a frame did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameStats {
    /// Polygons emitted.
    pub drawn: usize,
    /// Command tables emitted for them (more than `drawn` when some are drawn in parts).
    pub commands: usize,
    /// Polygons culled (behind, too far, back facing, off screen), those of the models
    /// dropped whole (a rigid draw wholly outside the view) with them.
    pub culled: usize,
    /// Visible polygons left out because the command list or the frame's gouraud tables
    /// were full: the first the VDP1 would have drawn (the ground draws', then the
    /// farthest of the frame), whichever models they are of.
    pub dropped: usize,
    /// 2D commands drawn after the 3D ([`Frame::push_command`]).
    pub overlays: usize,
    /// Where the time went, when the renderer has a clock ([`Renderer::set_clock`]); all
    /// 0 otherwise.
    pub times: PhaseTimes,
    /// The VDP1 changed frame after the last list and before this one was ready (its
    /// `finish` had nothing to wait for): the last picture is shown a field more (a frame
    /// dropped at 60 a second). Never for the first list; always with a [`Vdp1`] that has
    /// changed frame at once (`MemoryVram`).
    pub late: bool,
    /// The VDP1 could not draw a list of this renderer within a field: the frame change
    /// that this frame's `finish` (or the `begin` before it) saw cut its drawing short, and
    /// the picture shown since lacks the list's last commands (the nearest polygons, then
    /// the overlays: a HUD). The VDP1 manual calls it a "transfer over" (`EDSR`'s `BEF`
    /// clear: [`Vdp1::last_frame_end`]). The list is the one finished two frames before this
    /// one, whose drawing that change ended (or the last frame's, when the change was seen
    /// more than a field after it came); it is drawn again at every field until the next
    /// list replaces it, each time cut short alike. One frame change is seen a frame, so
    /// this says it at most once a frame: a game counts them over its run. `None` too with a
    /// [`Vdp1`] that cannot tell.
    pub transfer_over: Option<TransferOver>,
}

/// A list the VDP1 did not finish drawing in its field ([`FrameStats::transfer_over`]):
/// the frame change stopped it at its command `drawn` (those before it drawn whole) of
/// `commands`. The commands of a list, in order: 3 head commands (system and user
/// clipping, local coordinates), the 3D polygons' (farthest first; their
/// [`FrameStats::commands`]), then the overlays ([`FrameStats::overlays`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransferOver {
    /// The list's commands drawn whole before the frame change: the index in the list of
    /// the command table the VDP1 was at (`LOPR`).
    pub drawn: u16,
    /// The list's command tables, its end command left out.
    pub commands: u16,
}

/// A frame being drawn: see [`Renderer::begin`]; one at a time. Dropped without
/// [`finish`](Self::finish), it draws nothing (the VDP1 keeps drawing the last list).
pub struct Frame<'f, 'm, V: Vdp1> {
    renderer: &'f Renderer<'m, V>,
    camera: Camera,
    /// The camera's view matrix (`Camera::view`), made once a frame.
    camera_view: Matrix,
    /// What composing after it needs to know of it (most draws' model-view matrices are
    /// then known exact without checked sums).
    view_bound: ComposeBound,
    /// The camera's view for the whole-draw test.
    view: ViewVolume,
    light_view: Option<(crate::math::Vec3, i32)>,
    /// The models drawn, in draw order; where each draw's points and polygons are is in
    /// the renderer's memory, so that the frame, moved by value from `begin` into the
    /// game's code and into `finish`, stays small.
    handles: heapless::Vec<&'f ModelHandle<'f, 'f>, MAX_DRAWS>,
    points: usize,
    polygons: usize,
    visible: usize,
    /// The keys of the ground draws ([`draw_ground`](Self::draw_ground)), `keys[..ground]`:
    /// left out of the sort, emitted first.
    ground: usize,
    /// Whether a sorted draw came (not dropped whole): the sort's counts were cleared by
    /// its culling (the ground draws' culling counts into them before) and hold the sorted
    /// draws' keys only; a ground draw from then on is sorted too.
    counting: bool,
    /// When the last draw's keys are not together (each CPU's where it culled into): the
    /// frame's keys are `keys[..0]` and `keys[1]`, `visible` in all.
    apart: Option<(usize, Range<usize>)>,
    /// What the second CPU's counts are of: more than the last draw's keys it culled once
    /// an earlier draw's were moved into the first part.
    second_counts: SecondCounts,
    overlays: usize,
    stats: DrawStats,
    times: PhaseTimes,
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
        self.draw_rigid(handle, transform, false)
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
        self.draw_rigid(handle, transform, true)
    }

    /// [`draw`](Self::draw), or with `ground` [`draw_ground`](Self::draw_ground).
    fn draw_rigid(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        transform: &Matrix,
        ground: bool,
    ) -> Result<(), DrawError> {
        let (model_view, within_reach) = self.model_view(transform, handle.model.reach())?;
        // Once for both the whole-draw test and the eye.
        let turn_error = rotation_error(&model_view);
        let rigid = Rigid {
            model_view: &model_view,
            turn_error,
            within_reach,
        };
        self.add(handle, Some(rigid), ground, |transforms, _| {
            transforms.set_rigid(model_view, turn_error)
        })
    }

    /// The model-view matrix `camera_view * transform` when it is exact, and whether it is
    /// known to keep the points within `reach` of the model's origin in 32 bits (else that
    /// is checked by `limits::check_rigid`).
    fn model_view(&self, transform: &Matrix, reach: u32) -> Result<(Matrix, bool), DrawError> {
        let mut model_view = Matrix::IDENTITY;
        let composed = self.view_bound.compose(
            &self.camera_view,
            transform,
            &mut model_view,
            reach,
            |a, b, out| *out = a.then(b),
        );
        match composed.exact {
            true => Ok((model_view, composed.within_reach)),
            false => Err(DrawError::OutOfReach { matrix: 0 }),
        }
    }

    /// Draws the posed model of `handle` (`jo_3d_model_draw_pose`): each bone's group
    /// moved by the bone's matrix.
    pub fn draw_posed(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        posed: &Posed<'_>,
    ) -> Result<(), DrawError> {
        let (model_view, _) = self.model_view(posed.transform, 0)?;
        self.add(handle, None, false, |transforms, worker| {
            let (root, bones) = (posed.root, posed.bones);
            let owned = handle.corners_in_groups;
            transforms.set_posed(&handle.model, &model_view, root, bones, owned, worker);
        })
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

    /// Draws `handle` with the matrices `place` writes into the draw's slot (in place: a
    /// slot's matrices are about 3 KiB, a copy a draw costs the SH-2 some 10,000 cycles),
    /// with the worker to share them with; as ground (`ground`, see
    /// [`draw_ground`](Self::draw_ground)) when no sorted draw came before.
    /// A rigid draw (its `model_view` given, with its [`rotation_error`]) whose bounding
    /// sphere is wholly outside the view is dropped first, its polygons counted as culled
    /// (`render::visibility`): it takes no slot and no room.
    fn add(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        rigid: Option<Rigid<'_>>,
        ground: bool,
        place: impl FnOnce(&mut Transforms, Option<&mut (dyn Worker + '_)>),
    ) -> Result<(), DrawError> {
        let renderer: *const Renderer<'_, V> = self.renderer;
        if !core::ptr::addr_eq(handle.owner as *const dyn Owner, renderer) {
            return Err(DrawError::OtherRenderer);
        }
        let mut inner = self.renderer.inner()?;
        let inner = &mut *inner;
        let clock = inner.clock.unwrap_or(|| 0);
        let start = clock();
        let model = &handle.model;
        if let Some(Rigid {
            model_view,
            turn_error,
            within_reach,
        }) = rigid
        {
            // Refused as the matrices' check below would refuse it, seen or not.
            if !within_reach {
                super::limits::check_rigid(model, model_view)?;
            }
            if !self.view.may_show(model_view, model.reach(), turn_error) {
                self.stats.culled += model.polygons().len();
                self.times.transform += clock().wrapping_sub(start);
                return Ok(());
            }
        }
        let index = self.handles.len();
        let full = |buffer, needed| DrawError::BufferTooSmall { buffer, needed };
        if index >= inner.memory.draws.len() || self.handles.is_full() {
            return Err(full("draws", index + 1));
        }
        let points = self.points..self.points + model.points().len();
        if points.end > inner.memory.points.len() {
            return Err(full("points", points.end));
        }
        let polygons = self.polygons..self.polygons + model.polygons().len();
        let half = inner.memory.keys.len() / 2;
        if polygons.end > half {
            return Err(full("polygons", polygons.end));
        }
        let RendererMemory {
            points: all_points,
            screens: all_screens,
            keys,
            texture_slots,
            gouraud_slots,
            draws,
            placed,
            counts,
            plane_runs,
            ..
        } = &mut inner.memory;
        let keys = &mut keys[..half];
        let slot = &mut draws[index];
        place(&mut slot.transforms, inner.worker.as_deref_mut());
        if rigid.is_some() {
            slot.transforms.set_reach_checked();
        }
        super::limits::check_transforms(model, &mut slot.transforms)?;
        let DrawSlot {
            transforms,
            cull_cut,
            ..
        } = slot;
        let transforms = &*transforms;
        *cull_cut = cull_cut.of(handle.serial);
        let view_points = &mut all_points[points.clone()];
        let worker = inner.worker.as_deref_mut();
        let screens = Some(&mut all_screens[points.clone()]);
        transform_model(
            model,
            transforms,
            &self.camera,
            (view_points, screens),
            worker,
        );
        let transformed = clock();
        let textures = &texture_slots[slots(&handle.textures)];
        let resources = ModelVram {
            textures: &textures,
            gouraud: &gouraud_slots[slots(&handle.gouraud)],
        };
        let frame = ModelFrame {
            model,
            resources: &resources,
            camera: &self.camera,
            points: &all_points[points.clone()],
            screens: Some(&all_screens[points.clone()]),
        };
        // After a sorted draw (its counts begun, even if it drew nothing) a ground draw is
        // sorted with the others.
        let ground = ground && !self.counting;
        if let Some((first, second)) = self.apart.take() {
            // Those keys now in the first part, still counted as the other CPU's.
            keys.copy_within(second, first);
            self.second_counts = SecondCounts::WithMoved;
        }
        let worker = inner.worker.as_deref_mut();
        // Frame numbers: the indexes (low 16 bits) offset by the polygons before.
        let keys_after = (&mut keys[self.visible..], polygons.start);
        // The sort's counts cleared by the first sorted draw's culling (the ground draws'
        // count into them before).
        let fresh = !ground && !self.counting;
        self.counting |= fresh;
        let planes = &plane_runs[handle.planes.start as usize..handle.planes.end as usize];
        // Measured, the cut moves towards both CPUs ending together.
        let balance = inner.clock.map(|clock| Balance {
            cut: cull_cut,
            clock,
        });
        let culled = cull_visible(
            &frame,
            (transforms, planes),
            keys_after,
            (counts, fresh),
            worker,
            balance,
        );
        let (first, second) = culled.parts_at();
        let (first, second) = (
            self.visible + first,
            self.visible + second.start..self.visible + second.end,
        );
        match (ground, culled.second_at) {
            (true, _) => keys.copy_within(second, first),
            (false, Some(_)) => self.apart = Some((first, second)),
            (false, None) => {}
        }
        self.visible += culled.visible;
        if ground {
            self.ground = self.visible;
        }
        self.stats.culled += culled.culled;
        self.points = points.end;
        self.polygons = polygons.end;
        placed[index] = Placed {
            points,
            polygons,
            kept: culled.kept,
        };
        // Cannot fail: fullness was checked above.
        let _ = self.handles.push(handle);
        let culled_at = clock();
        self.times.transform += transformed.wrapping_sub(start);
        self.times.sort += culled_at.wrapping_sub(transformed);
        Ok(())
    }
}

impl<V: Vdp1> Frame<'_, '_, V> {
    /// Ends the frame: sorts the visible polygons of every model drawn together, farthest
    /// first, emits them (the farthest of the frame left out when the list or the frame's
    /// gouraud tables are full), then the 2D commands, writes the list and its gouraud
    /// tables to the VRAM the VDP1 is not reading (first waiting for the VDP1's frame
    /// change after the last frame's `finish`, if it has not come yet: the time is
    /// [`PhaseTimes::wait`]) and points the jump at VRAM 0 at them: the VDP1 draws them
    /// from its next frame change.
    pub fn finish(self) -> Result<FrameStats, DrawError> {
        let mut inner = self.renderer.inner()?;
        let inner = &mut *inner;
        let clock = inner.clock.unwrap_or(|| 0);
        let start = clock();
        // Looked at now, a frame change is long past by the time the list is written (the
        // Saturn's VDP1 may need up to a line more to leave the old list: nothing to wait
        // for then).
        inner.look_for_frame_change();
        let back = 1 - inner.front;
        let RendererMemory {
            points,
            screens,
            keys,
            commands,
            frame_gouraud,
            texture_slots,
            gouraud_slots,
            draws: slots_of_draws,
            placed,
            counts,
            ..
        } = &mut inner.memory;
        let draws = Draws {
            handles: &self.handles,
            placed,
        };
        let half = keys.len() / 2;
        let (keys, scratch) = keys.split_at_mut(half);
        let (visible, ground) = (self.visible, self.ground);
        let worker = inner.worker.as_deref_mut();
        // The last draw's keys as the two CPUs left them (no copy to bring them together),
        // sorted from the counts their culling made; the ground's before them, unsorted.
        let (first, second) = self.apart.clone().unwrap_or((visible, visible..visible));
        let second = second.start - ground..second.end - ground;
        let parts = (first - ground, second, self.second_counts);
        let (sorted, sorted_scratch) = (&mut keys[ground..], &mut scratch[ground..]);
        if !self.counting {
            counts.iter_mut().for_each(KeyCounts::clear);
        }
        let sorted_at = sort_counted(sorted, parts, sorted_scratch, counts, worker);
        let order = match core::ptr::eq(sorted_at.as_ptr(), keys[ground..].as_ptr()) {
            true => &mut keys[..visible],
            false => {
                scratch[..ground].copy_from_slice(&keys[..ground]);
                &mut scratch[..visible]
            }
        };
        let sorted = clock();
        let capacity = commands.len();
        let overlays = self.overlays;
        let (list_tables, _) = commands.split_at_mut(capacity - overlays);
        list_tables[..HEAD_COMMANDS]
            .copy_from_slice(&head_commands(self.camera.width, self.camera.height));
        let mut list = CommandBuffer {
            tables: list_tables,
            len: HEAD_COMMANDS,
            gouraud: frame_gouraud,
            gouraud_len: 0,
            gouraud_base: inner.layout.frame_gouraud[back],
        };
        let views = Views {
            points,
            screens,
            texture_slots,
            gouraud_slots,
            camera: &self.camera,
        };
        let skip = self.farthest_left_out(&views, draws, order, &list);
        let worker = inner.worker.as_deref_mut();
        let emitted = views.emit_all(
            draws,
            self.light_view,
            (slots_of_draws, &mut inner.emission),
            &mut list,
            &order[skip..],
            worker,
        )?;
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
        let mut times = self.times;
        times.sort += sorted.wrapping_sub(start);
        times.emit = emitted_at.wrapping_sub(sorted);
        times.wait = waited.wrapping_sub(emitted_at);
        times.commit = committed.wrapping_sub(waited);
        Ok(FrameStats {
            drawn: emitted.drawn,
            commands: emitted.commands,
            culled: self.stats.culled,
            dropped: skip,
            overlays,
            times,
            late,
            transfer_over: inner.transfer_over.take(),
        })
    }

    /// How many of the farthest of `order` are left out so that the others fit the list's
    /// room and its frame gouraud tables: each polygon takes at most one command and one
    /// gouraud table, four of each in parts; without light only parts take gouraud tables.
    fn farthest_left_out(
        &self,
        views: &Views<'_>,
        draws: Draws<'_>,
        order: &[SortKey],
        list: &CommandBuffer<'_>,
    ) -> usize {
        let (room, gouraud_room) = (list.room(), list.gouraud_room());
        let parts = draws.parts();
        let lit_frame = self.light_view.is_some();
        let at_most = order.len() + 3 * parts;
        let gouraud_at_most = if lit_frame || parts > 0 { at_most } else { 0 };
        if at_most <= room && gouraud_at_most <= gouraud_room {
            return 0;
        }
        let (mut room, mut gouraud_room) = (room, gouraud_room);
        let kept = order
            .iter()
            .rev()
            .take_while(|&&key| {
                let draw = draws.at(draws.of_polygon(polygon_of(key)));
                let index = polygon_of(key) - draw.placed.polygons.start;
                let (tables, gouraud) = views.with_frame(draw, |frame| {
                    let in_parts = frame.in_parts(index);
                    let tables = if in_parts { 4 } else { 1 };
                    (
                        tables,
                        frame.frame_gouraud_tables(index, lit_frame, in_parts),
                    )
                });
                match (room.checked_sub(tables), gouraud_room.checked_sub(gouraud)) {
                    (Some(left), Some(gouraud_left)) => {
                        (room, gouraud_room) = (left, gouraud_left);
                        true
                    }
                    _ => false,
                }
            })
            .count();
        order.len() - kept
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

/// Whether `model` is of one material (or none), not lit in `light_view`: a draw alone in
/// its frame that its own runs (`emit_sorted`) emit, sharing a plain material's polygons
/// with a second CPU (`emit_shared`). Any other goes faster through the frame pass, which
/// shares every template's polygons: a lit character of 16 materials drawn alone took the
/// master 148,232 cycles a frame to emit on its own (the showcase's probe, Mednafen).
fn one_plain(model: &Model<'_>, light_view: Option<(Vec3, i32)>) -> bool {
    match model.materials() {
        [] => true,
        [only] => light_view.is_none() || !only.flags().contains(MaterialFlags::LIGHT),
        _ => false,
    }
}

/// What a frame's draws are seen through at its end.
struct Views<'v> {
    points: &'v [super::ViewPoint],
    screens: &'v [crate::vdp1::Point],
    texture_slots: &'v [crate::vdp1::TextureSlot],
    gouraud_slots: &'v [u16],
    camera: &'v Camera,
}

impl Views<'_> {
    /// Emits `order` (frame numbers, sorted, farthest first) of `draws` in `light_view`
    /// into `list` (not generic: one copy of it in a program): one draw's by
    /// `emit_sorted` when there is no worker or it is [`one_plain`]; else the polygons of
    /// the first [`FRAME_DRAWS`] draws that have their material's template in passes over
    /// the frame (`emit_templates`: a change of draw or material costs a look-up; the part
    /// of each after half its work on `worker`; each draw's templates kept in its slot from
    /// frame to frame, draws of a model turned alike sharing the first one's), each polygon
    /// one stops at through `emit_sorted` on its own.
    #[allow(clippy::too_many_arguments)]
    fn emit_all(
        &self,
        draws: Draws<'_>,
        light_view: Option<(Vec3, i32)>,
        (slots_of_draws, emission): (&mut [DrawSlot], &mut EmitCache),
        list: &mut CommandBuffer<'_>,
        order: &[SortKey],
        mut worker: Option<&mut (dyn Worker + '_)>,
    ) -> Result<DrawStats, DrawError> {
        let one_draw = match (draws.handles, &*slots_of_draws) {
            ([handle], [slot, ..]) if worker.is_none() || one_plain(&handle.model, light_view) => {
                Some(slot)
            }
            _ => None,
        };
        if let Some(slot) = one_draw {
            let draw = draws.at(0);
            // One draw: its own runs, as `draw` emits them (a plain run's loop is tighter
            // than the frame pass's, which looks up each polygon's draw and material), the
            // styles kept from the frames before.
            let transforms = &slot.transforms;
            let handle = draw.handle;
            emission.start_keyed(&handle.model, handle.serial, transforms, light_view);
            let mut stats = DrawStats::default();
            self.with_frame(draw, |frame| {
                emit_sorted(
                    frame,
                    list,
                    transforms,
                    emission,
                    order,
                    draw.placed.kept,
                    worker,
                    &mut stats,
                )
            })?;
            return Ok(stats);
        }
        let fast: heapless::Vec<Draw<'_>, FRAME_DRAWS> = (0..draws.len().min(FRAME_DRAWS))
            .map(|i| draws.at(i))
            .collect();
        let textures: [&[TextureSlot]; FRAME_DRAWS] = core::array::from_fn(|i| {
            fast.get(i)
                .map_or(&[][..], |d| &self.texture_slots[slots(&d.handle.textures)])
        });
        let resources: [ModelVram<'_>; FRAME_DRAWS] = core::array::from_fn(|i| ModelVram {
            textures: &textures[i],
            gouraud: fast
                .get(i)
                .map_or(&[][..], |d| &self.gouraud_slots[slots(&d.handle.gouraud)]),
        });
        let frames: heapless::Vec<ModelFrame<'_, '_>, FRAME_DRAWS> = fast
            .iter()
            .zip(&resources)
            .map(|(draw, resources)| self.frame(*draw, resources))
            .collect();
        // Draws of one model turned alike (a ground's tiles) share their templates (and
        // the cache of the polygons the pass stops at): made once, for the first of them.
        let owners: [usize; FRAME_DRAWS] = core::array::from_fn(|i| {
            if i >= fast.len() {
                return i;
            }
            let alike = |j: &usize| {
                core::ptr::eq(fast[*j].handle, fast[i].handle)
                    && slots_of_draws[*j]
                        .transforms
                        .turned_alike(&slots_of_draws[i].transforms)
            };
            (0..i).find(alike).unwrap_or(i)
        });
        // Each set in its draw's slot, kept from the frames before while the slot draws the
        // same loaded model in the same kind of light (only the light made again).
        for ((i, frame), (slot, draw)) in frames
            .iter()
            .enumerate()
            .zip(slots_of_draws.iter_mut().zip(&fast))
        {
            if owners[i] == i {
                let DrawSlot {
                    transforms,
                    templates,
                    ..
                } = slot;
                let worker = worker.as_deref_mut();
                templates.start(frame, draw.handle.serial, transforms, light_view, worker);
            }
        }
        let slots_of_draws = &*slots_of_draws;
        let passed: heapless::Vec<FrameDraw<'_, '_>, FRAME_DRAWS> = frames
            .iter()
            .zip(owners)
            .zip(&fast)
            .map(|((frame, owner), draw)| FrameDraw {
                first: draw.placed.polygons.start,
                frame,
                templates: &slots_of_draws[owner].templates,
                near: tested_near(frame.camera, draw.placed.kept),
            })
            .collect();
        // The ramp's tables for the flat faces of lit templates, when the most the
        // polygons may take leaves room for them.
        let lit = passed.iter().any(|draw| draw.templates.any_lit);
        let still = order.len() + 3 * draws.parts();
        let light = PassLight {
            ambient: light_view.map_or(0, |(_, ambient)| ambient),
            ramp: lit.then(|| list.push_ramp(still)).flatten(),
        };
        let mut room = MaybeUninit::uninit();
        let caches = FrameEmitCaches::empty_in(&mut room);
        let mut emitted = DrawStats::default();
        let mut next = 0;
        while next < order.len() {
            let done = list.fill_frame_with(|tables, gouraud, first_gouraud| {
                let (keys, out) = (&order[next..], (tables, gouraud, first_gouraud));
                match worker.as_deref_mut() {
                    Some(worker) => emit_templates_shared(&passed, light, keys, out, worker),
                    None => emit_templates(&passed, light, keys, out),
                }
            });
            next += done;
            emitted.drawn += done;
            emitted.commands += done;
            let Some(&key) = order.get(next) else {
                break;
            };
            // The polygon it stopped at, the long way (by its model's own index).
            let at = draws.of_polygon(polygon_of(key));
            let draw = draws.at(at);
            let own = [key - draw.placed.polygons.start as SortKey];
            let transforms = &slots_of_draws[at].transforms;
            let owner = owners.get(at).map_or(at, |&owner| owner);
            let emission = caches.of(owner, &draw.handle.model, transforms, light_view);
            let mut stats = DrawStats::default();
            self.with_frame(draw, |frame| {
                emit_sorted(
                    frame,
                    list,
                    transforms,
                    emission,
                    &own,
                    draw.placed.kept,
                    None,
                    &mut stats,
                )
            })?;
            emitted.drawn += stats.drawn;
            emitted.commands += stats.commands;
            next += 1;
        }
        Ok(emitted)
    }

    /// Runs `look` on the model of `draw` as culling and emission see it.
    fn with_frame<R>(&self, draw: Draw<'_>, look: impl FnOnce(&ModelFrame<'_, '_>) -> R) -> R {
        let handle = draw.handle;
        let textures = &self.texture_slots[slots(&handle.textures)];
        let resources = ModelVram {
            textures: &textures,
            gouraud: &self.gouraud_slots[slots(&handle.gouraud)],
        };
        look(&self.frame(draw, &resources))
    }

    /// The model of `draw` with its points of this frame (and their screen positions'
    /// compact copy), in `resources`.
    fn frame<'a>(&'a self, draw: Draw<'a>, resources: &'a ModelVram<'a>) -> ModelFrame<'a, 'a> {
        ModelFrame {
            model: &draw.handle.model,
            resources,
            camera: self.camera,
            points: &self.points[draw.placed.points.clone()],
            screens: Some(&self.screens[draw.placed.points.clone()]),
        }
    }
}
