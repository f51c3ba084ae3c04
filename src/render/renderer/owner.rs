//! The [`Renderer`] itself: VDP1 VRAM's owner, made from its memory (its VRAM layout
//! checked, two empty lists written), its settings (a clock, a second CPU), and the entry
//! of each of its calls (one at a time, the handles dropped since taken in).

use core::cell::RefCell;
use core::fmt;
use core::ops::Range;

use super::handles::{ModelHandle, Owner};
use super::layout::{Layout, RendererError, MAX_FRAME_POLYGONS};
use super::memory::{Dropped, RendererMemory, MAX_MODELS, PLANE_BLOCK};
use super::vram::{slots, Inner, SLOT};
use crate::render::error::DrawError;
use crate::render::list::HEAD_COMMANDS;
use crate::render::pipeline::MAX_DRAWS;
use crate::render::shared::ModelVram;
use crate::vdp1::{CommandTable, Sprite, Vdp1};
use crate::worker::Worker;

/// Draws scenes on the VDP1: see [`render`](crate::render).
pub struct Renderer<'m, V: Vdp1> {
    pub(super) inner: RefCell<Inner<'m, V>>,
    /// Models dropped since the renderer last took them in (a handle is dropped whatever
    /// the renderer is doing; this is never borrowed across a call of anyone's code).
    pub(super) dropped: &'m RefCell<heapless::Vec<Dropped, MAX_MODELS>>,
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

impl<'m, V: Vdp1> Renderer<'m, V> {
    /// A renderer drawing with `vdp1` in `memory`, with `worker` (the slave SH-2) taking a
    /// share of the work when given. Checks that the regions `memory`'s sizes ask for fit
    /// VRAM, writes two empty lists and points the jump at VRAM 0 at the first.
    // Never inlined: run once, its frame would stay reserved in the caller's (a game's
    // `main`, for the whole program).
    #[inline(never)]
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
        let (textures, polygons) = (memory.texture_slots.len(), memory.gouraud_slots.len());
        let books = &mut *memory.books;
        books.held.clear();
        books
            .texture_slots
            .reset("model texture", slot_region(textures), SLOT);
        books
            .gouraud_slots
            .reset("model polygon", slot_region(polygons), SLOT);
        // A byte a polygon.
        let planes = 0..memory.plane_runs.len() as u32;
        books
            .plane_slots
            .reset("model plane", planes, PLANE_BLOCK as u32);
        let dropped = memory.dropped;
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
            live: 0,
            loads: 0,
            drawn: heapless::Vec::new(),
        };
        inner.point_jump(0);
        Ok(Self {
            inner: RefCell::new(inner),
            dropped,
        })
    }

    /// Reads `clock` (a free-running counter, wrapping) between the phases of each frame:
    /// [`FrameStats::times`](crate::render::FrameStats::times) then says where the time went (the SH-2 benchmark reads the
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

    /// Texture `index` (in the model's TEXT order) of the model of `handle` as it is in
    /// VRAM, at its full size: what a [`Billboard`](crate::render::Billboard) draws.
    /// `None` for a handle of another renderer, an index past the model's textures, or
    /// while another call of the renderer is under way.
    pub fn sprite(&self, handle: &ModelHandle<'_, '_>, index: usize) -> Option<Sprite> {
        let renderer: *const Self = self;
        if !core::ptr::addr_eq(handle.owner as *const dyn Owner, renderer) {
            return None;
        }
        let inner = self.inner.try_borrow().ok()?;
        let textures = &inner.memory.texture_slots[slots(&handle.textures)];
        let vram = ModelVram {
            textures,
            gouraud: &[],
        };
        vram.sprite(index)
    }

    /// [`sprite`](Self::sprite) by the texture's name in the model (its TEXT name, as
    /// `jomc info` lists it).
    pub fn sprite_named(&self, handle: &ModelHandle<'_, '_>, name: &str) -> Option<Sprite> {
        let names = handle.model().texture_names();
        let index = names.iter().position(|n| n.as_bytes() == name.as_bytes())?;
        self.sprite(handle, index)
    }

    pub(super) fn inner(&self) -> Result<core::cell::RefMut<'_, Inner<'m, V>>, DrawError> {
        self.enter().ok_or(DrawError::Busy)
    }

    /// The renderer's state for one call (`None` while another is under way), with the
    /// models dropped since the last call taken in.
    pub(super) fn enter(&self) -> Option<core::cell::RefMut<'_, Inner<'m, V>>> {
        let mut inner = self.inner.try_borrow_mut().ok()?;
        if let Ok(mut dropped) = self.dropped.try_borrow_mut() {
            while let Some(handle) = dropped.pop() {
                inner.hold(handle);
            }
        }
        Some(inner)
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
