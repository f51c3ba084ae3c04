//! The memory a frame works in, whoever owns it (the [`Renderer`](crate::render::Renderer)'s
//! `renderer_memory!`, a [`ListFrame`](super::ListFrame)'s caller): the points and sort keys
//! of all the draws of a frame, and a slot a draw.

use crate::format::Model;
use crate::render::billboard::PlacedBillboard;
use crate::render::cull::CullCut;
use crate::render::emit::{DrawTemplates, EmitCaches};
use crate::render::shared::{Kept, ModelVram, RegionRuns, SortKey, ViewPoint};
use crate::render::sort::{KeyCounts, PassCounts};
use crate::render::transforms::Transforms;
use crate::vdp1::{Point, TextureSlot};
use core::mem::MaybeUninit;
use core::ops::Range;

/// The most models one frame draws, whatever its memory.
pub const MAX_DRAWS: usize = 64;

/// One draw of a frame: the matrices of the model it draws, kept until the frame's end,
/// and what the frame pass of emission keeps of it from frame to frame (the templates of
/// its model's materials, [`DrawTemplates`]), and where its culling is cut between the
/// CPUs (`CullCut`, moved by the times measured), and the runs of its model's regions that
/// may show (REGN: here, not on the stack, which issue 40 keeps within 4 KiB a frame).
#[doc(hidden)]
pub struct DrawSlot {
    pub(crate) transforms: Transforms,
    pub(crate) templates: DrawTemplates,
    pub(crate) cull_cut: CullCut,
    pub(crate) regions: RegionRuns,
}

impl DrawSlot {
    /// An empty slot written in `slot`, in place: made as a value (5.6 KiB) it went through
    /// the stack, several times on the SH-2.
    pub fn empty_in(slot: &mut MaybeUninit<Self>) -> &mut Self {
        let this = slot.as_mut_ptr();
        // SAFETY: zeroed, then each field that all zero is not `EMPTY`'s written.
        unsafe {
            this.write_bytes(0, 1);
            Transforms::empty_in_zeroed(core::ptr::addr_of_mut!((*this).transforms));
            DrawTemplates::empty_in_zeroed(core::ptr::addr_of_mut!((*this).templates));
            core::ptr::addr_of_mut!((*this).cull_cut).write(CullCut::HALF);
            // `regions` all zero: no run.
            slot.assume_init_mut()
        }
    }

    /// An empty slot.
    pub const EMPTY: Self = Self {
        transforms: Transforms::EMPTY,
        templates: DrawTemplates::EMPTY,
        cull_cut: CullCut::HALF,
        regions: RegionRuns::new(),
    };
}

/// Where a draw's points and polygons are in the frame.
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

/// The model of a [`ListFrame`](super::ListFrame)'s draw, kept in the frame's tables
/// rather than in the frame (64 of them made the frame a value of 1.6 KiB, which each
/// return and `?` copied on the SH-2, where a C caller has 8 KiB of stack), its lifetimes
/// erased: the frame that writes it, `ListFrame<'f>`, holds the model for `'f` and reads
/// it back only while it lives ([`model`](Self::model)).
#[derive(Clone, Copy)]
pub(crate) struct ModelRecord {
    model: *const Model<'static>,
    textures: *const [TextureSlot],
    gouraud: *const [u16],
}

// SAFETY: its pointers are shared references (to a model and its VRAM tables, which are
// `Sync`), read only by the frame that wrote them.
unsafe impl Send for ModelRecord {}

impl ModelRecord {
    const EMPTY: Self = Self {
        // Null, not an empty slice's dangling address: the tables stay all zero (`.bss`).
        model: core::ptr::null(),
        textures: core::ptr::slice_from_raw_parts(core::ptr::null(), 0),
        gouraud: core::ptr::slice_from_raw_parts(core::ptr::null(), 0),
    };

    /// The record of `model` in `vram`.
    pub(crate) fn new(model: &Model<'_>, vram: ModelVram<'_>) -> Self {
        Self {
            model: (model as *const Model<'_>).cast(),
            textures: vram.textures,
            gouraud: vram.gouraud,
        }
    }

    /// Whether both are of one model at one place in VRAM.
    pub(crate) fn same(&self, other: &Self) -> bool {
        core::ptr::eq(self.model, other.model)
            && core::ptr::eq(self.textures, other.textures)
            && core::ptr::eq(self.gouraud, other.gouraud)
    }

    /// The model and where it is in VRAM, as [`new`](Self::new) was given them.
    ///
    /// # Safety
    /// What `new` was given lives for `'f`.
    pub(crate) unsafe fn model<'f>(&self) -> (&'f Model<'f>, ModelVram<'f>) {
        // SAFETY: the caller's promise: the pointers are references that live for `'f`.
        unsafe {
            let model = &*self.model.cast::<Model<'f>>();
            (
                model,
                ModelVram {
                    textures: &*self.textures,
                    gouraud: &*self.gouraud,
                },
            )
        }
    }
}

/// The tables of a frame of at most `DRAWS` draws besides its arrays, all zero (a `static`
/// of them is in `.bss`): where each draw's points and polygons are, the sort's counts of
/// the keys (each CPU's), and the emission's cache of a frame of one draw (its styles, kept
/// from frame to frame while the draw is of the same loaded model).
pub struct FrameTables<const DRAWS: usize> {
    placed: [Placed; DRAWS],
    /// A list frame's models (a renderer keeps its own in its handles).
    models: [ModelRecord; DRAWS],
    counts: [KeyCounts; 2],
    /// The shared sort's counts of its first pass.
    pass_counts: PassCounts,
    /// Made at the first frame, or by a renderer's memory (it is not all zero).
    emission: EmitCaches,
}

impl<const DRAWS: usize> FrameTables<DRAWS> {
    /// Empty.
    pub const EMPTY: Self = Self {
        placed: [Placed::EMPTY; DRAWS],
        models: [ModelRecord::EMPTY; DRAWS],
        counts: [KeyCounts::ZERO; 2],
        pass_counts: [MaybeUninit::zeroed(), MaybeUninit::zeroed()],
        emission: EmitCaches::EMPTY,
    };
}

/// The memory of a frame: one [`ViewPoint`] and one screen position a point and two sort
/// keys a polygon of all the models drawn in a frame, and a [`DrawSlot`] and a place in its
/// [`FrameTables`] a draw.
pub struct FrameMemory<'m> {
    pub(crate) points: &'m mut [ViewPoint],
    /// Their screen positions again, four a cache line: what emission's loops read.
    pub(crate) screens: &'m mut [Point],
    pub(crate) keys: &'m mut [SortKey],
    pub(crate) draws: &'m mut [DrawSlot],
    pub(crate) placed: &'m mut [Placed],
    pub(crate) models: &'m mut [ModelRecord],
    pub(crate) counts: &'m mut [KeyCounts; 2],
    pub(crate) pass_counts: &'m mut PassCounts,
    pub(crate) emission: &'m mut EmitCaches,
    /// A frame's billboards, as they are drawn (none unless given:
    /// [`with_billboards`](Self::with_billboards)).
    pub(crate) billboards: &'m mut [PlacedBillboard],
    /// Their sort keys, two a billboard (the second half the sort's scratch).
    pub(crate) billboard_keys: &'m mut [SortKey],
}

impl<'m> FrameMemory<'m> {
    /// The memory in these arrays: `points` and `screens` (as many: the points of all the
    /// models a frame draws; the longer one is cut to the other), `keys` (two a polygon of
    /// all the models a frame draws), `draws` (a slot a model drawn, [`DrawSlot::EMPTY`]
    /// each) and `tables`. A frame draws as many models as it has slots and `tables` has
    /// room for, and at most [`MAX_DRAWS`].
    pub fn new<const DRAWS: usize>(
        points: &'m mut [ViewPoint],
        screens: &'m mut [Point],
        keys: &'m mut [SortKey],
        draws: &'m mut [DrawSlot],
        tables: &'m mut FrameTables<DRAWS>,
    ) -> Self {
        let count = points.len().min(screens.len());
        Self {
            points: &mut points[..count],
            screens: &mut screens[..count],
            keys,
            draws,
            placed: &mut tables.placed,
            models: &mut tables.models,
            counts: &mut tables.counts,
            pass_counts: &mut tables.pass_counts,
            emission: &mut tables.emission,
            billboards: &mut [],
            billboard_keys: &mut [],
        }
    }

    /// The same memory with room for the billboards of a frame: `billboards`
    /// ([`PlacedBillboard::EMPTY`] each) and `keys`, two a billboard (0 each). A frame
    /// draws as many as both have room for (and at most 65,536).
    pub fn with_billboards(
        self,
        billboards: &'m mut [PlacedBillboard],
        keys: &'m mut [SortKey],
    ) -> Self {
        Self {
            billboards,
            billboard_keys: keys,
            ..self
        }
    }

    /// How many billboards a frame in this memory draws at most.
    pub(crate) fn billboards_at_most(&self) -> usize {
        self.billboards
            .len()
            .min(self.billboard_keys.len() / 2)
            .min(1 << 16)
    }

    /// How many models a frame in this memory draws at most.
    pub(crate) fn draws_at_most(&self) -> usize {
        self.draws.len().min(self.placed.len()).min(MAX_DRAWS)
    }

    /// The same memory, borrowed for a shorter time: for a frame, the memory kept for the
    /// next.
    pub fn reborrow(&mut self) -> FrameMemory<'_> {
        FrameMemory {
            points: self.points,
            screens: self.screens,
            keys: self.keys,
            draws: self.draws,
            placed: self.placed,
            models: self.models,
            counts: self.counts,
            pass_counts: self.pass_counts,
            emission: self.emission,
            billboards: self.billboards,
            billboard_keys: self.billboard_keys,
        }
    }
}

/// A frame's memory in one value, for at most `POINTS` points and `POLYGONS` polygons of
/// all the models a frame draws, and `DRAWS` draws: the arrays [`FrameMemory::new`] is
/// given, made [`EMPTY`](Self::EMPTY) in place (a `static`, or a local of a test) and
/// lent to each frame by [`memory`](Self::memory).
///
/// ```
/// use jom::render::{Camera, FrameArrays, ListFrame};
/// // Room for 6 points and 3 polygons in one draw.
/// let mut arrays = FrameArrays::<6, 3, 1>::EMPTY;
/// let frame = ListFrame::begin(arrays.memory(), &Camera::default(), None)?;
/// # drop(frame);
/// # Ok::<(), jom::render::DrawError>(())
/// ```
pub struct FrameArrays<const POINTS: usize, const POLYGONS: usize, const DRAWS: usize> {
    points: [ViewPoint; POINTS],
    screens: [Point; POINTS],
    keys: [[SortKey; 2]; POLYGONS],
    draws: [DrawSlot; DRAWS],
    tables: FrameTables<DRAWS>,
}

impl<const POINTS: usize, const POLYGONS: usize, const DRAWS: usize>
    FrameArrays<POINTS, POLYGONS, DRAWS>
{
    /// Empty.
    pub const EMPTY: Self = Self {
        points: [ViewPoint::ZERO; POINTS],
        screens: [Point::ZERO; POINTS],
        keys: [[0; 2]; POLYGONS],
        draws: [DrawSlot::EMPTY; DRAWS],
        tables: FrameTables::EMPTY,
    };

    /// The memory of a frame, in these arrays.
    pub fn memory(&mut self) -> FrameMemory<'_> {
        FrameMemory::new(
            &mut self.points,
            &mut self.screens,
            self.keys.as_flattened_mut(),
            &mut self.draws,
            &mut self.tables,
        )
    }

    /// The points of the last frame, each in camera space and on the screen (a check of
    /// what the frame's transform made).
    pub fn points(&self) -> &[ViewPoint; POINTS] {
        &self.points
    }
}
