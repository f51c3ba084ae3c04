//! The renderer's memory: every buffer and table it works in, sized in one place
//! ([`renderer_memory!`](crate::renderer_memory)), taken once.

use core::cell::{RefCell, UnsafeCell};
use core::mem::MaybeUninit;
use core::ops::Range;

use crate::format::ModelCounts;
use crate::render::billboard::PlacedBillboard;
use crate::render::list::HEAD_COMMANDS;
use crate::render::pipeline::{DrawSlot, FrameMemory, FrameTables};
use crate::render::shared::{SortKey, ViewPoint};
use crate::vdp1::{
    CommandTable, GouraudCache, GouraudStore, GouraudTable, RegionAllocator, TextureCache,
    TextureSlot, TextureStore,
};

/// The most models loaded at once, counting the dropped ones whose VRAM still waits for a
/// frame without them on screen: a load past it is refused (`TableFull`).
pub const MAX_MODELS: usize = 32;

/// A dropped handle's slots, until the renderer takes them in.
pub(crate) struct Dropped {
    pub(crate) textures: Range<u32>,
    pub(crate) gouraud: Range<u32>,
    pub(crate) planes: Range<u32>,
}

/// The VRAM of a dropped model, kept until a list drawn without it is on screen.
pub(crate) struct Held {
    pub(crate) textures: Range<u32>,
    pub(crate) gouraud: Range<u32>,
    /// Given back once this many frames are finished and shown.
    pub(crate) until_shown: u32,
}

/// What a renderer keeps of its loaded models: the VRAM of dropped ones not yet given
/// back, and where each model's slots are in the memory's tables. In the renderer's memory,
/// not in the [`Renderer`](super::Renderer) (3 KiB, which its return copied through the
/// stack, several times on the SH-2). All zero until the renderer places it.
pub(crate) struct ModelBooks {
    pub(crate) held: heapless::Vec<Held, MAX_MODELS>,
    /// The model texture, polygon and plane slots (`RendererArrays`'), in bytes.
    pub(crate) texture_slots: RegionAllocator<32>,
    pub(crate) gouraud_slots: RegionAllocator<32>,
    pub(crate) plane_slots: RegionAllocator<32>,
}

impl ModelBooks {
    const EMPTY: Self = Self {
        held: heapless::Vec::new(),
        texture_slots: RegionAllocator::UNPLACED,
        gouraud_slots: RegionAllocator::UNPLACED,
        plane_slots: RegionAllocator::UNPLACED,
    };
}

/// The renderer's buffers as arrays, all zero (a `static` of them is in `.bss`, not in the
/// program's image), sized by their parameters: what
/// [`renderer_memory!`](crate::renderer_memory) declares, with [`RendererTables`]. Sizes:
///
/// - `POINTS`: the points of all the models drawn in one frame (20 bytes each: a view
///   point and a compact copy of its screen position);
/// - `KEYS`: two per polygon of all the models drawn in one frame;
/// - `COMMANDS`: command tables of a list (3 head commands, the polygons, the 2D
///   overlays, the end); two such lists go to VRAM;
/// - `FRAME_GOURAUD`: gouraud tables made in one frame (lighting), twice in VRAM;
/// - `MODEL_TEXTURES`: TEXT names of all the models loaded at once;
/// - `MODEL_POLYGONS`: polygons of all the loaded models with gouraud tables;
/// - `MODEL_PLANES`: polygons of all the loaded models (their runs of coplanar polygons,
///   a byte each).
pub struct RendererArrays<
    const POINTS: usize,
    const KEYS: usize,
    const COMMANDS: usize,
    const FRAME_GOURAUD: usize,
    const MODEL_TEXTURES: usize,
    const MODEL_POLYGONS: usize,
    const MODEL_PLANES: usize,
> {
    /// A view point a cache line (16 bytes on the SH-2), wherever the arrays start.
    points: CacheLines<[ViewPoint; POINTS]>,
    /// Their screen positions again, four a cache line: what emission reads.
    screens: CacheLines<[crate::vdp1::Point; POINTS]>,
    keys: [SortKey; KEYS],
    commands: [CommandTable; COMMANDS],
    /// Aligned on 4 bytes, so that the frame's tables go to VRAM by one SCU DMA.
    frame_gouraud: crate::Aligned<[GouraudTable; FRAME_GOURAUD]>,
    /// Filled up to its capacity by [`RendererMemory::new`]: empty, it is all zero (an
    /// empty slot is not).
    texture_slots: heapless::Vec<TextureSlot, MODEL_TEXTURES>,
    gouraud_slots: [u16; MODEL_POLYGONS],
    plane_runs: [u8; MODEL_PLANES],
}

impl<
        const POINTS: usize,
        const KEYS: usize,
        const COMMANDS: usize,
        const FRAME_GOURAUD: usize,
        const MODEL_TEXTURES: usize,
        const MODEL_POLYGONS: usize,
        const MODEL_PLANES: usize,
    >
    RendererArrays<
        POINTS,
        KEYS,
        COMMANDS,
        FRAME_GOURAUD,
        MODEL_TEXTURES,
        MODEL_POLYGONS,
        MODEL_PLANES,
    >
{
    /// All zero (or not written).
    pub const ZERO: Self = Self {
        points: CacheLines(
            [ViewPoint {
                view: [0; 3],
                screen: crate::vdp1::Point { x: 0, y: 0 },
            }; POINTS],
        ),
        screens: CacheLines([crate::vdp1::Point { x: 0, y: 0 }; POINTS]),
        keys: [0; KEYS],
        commands: [CommandTable::EMPTY; COMMANDS],
        frame_gouraud: crate::Aligned([GouraudTable([0; 4]); FRAME_GOURAUD]),
        texture_slots: heapless::Vec::new(),
        gouraud_slots: [0; MODEL_POLYGONS],
        plane_runs: [0; MODEL_PLANES],
    };
}

/// A value aligned on the SH-2's cache lines (16 bytes).
#[repr(C, align(16))]
struct CacheLines<T>(T);

/// The renderer's caches and the matrices of a frame's draws, all zero too, sized by
/// their parameters:
/// what [`renderer_memory!`](crate::renderer_memory) declares, with [`RendererArrays`].
///
/// - `MODEL_GOURAUD`: distinct gouraud tables of the loaded models (GOUR), a power of
///   two, 2 or more;
/// - `TEXTURES`: distinct textures in VRAM;
/// - `DRAWS`: models drawn in one frame (at most [`MAX_DRAWS`](crate::render::MAX_DRAWS)).
pub struct RendererTables<const MODEL_GOURAUD: usize, const TEXTURES: usize, const DRAWS: usize> {
    gouraud: GouraudCache<MODEL_GOURAUD>,
    textures: TextureCache<TEXTURES>,
    /// Written by [`RendererMemory::new`], each in place (a slot is 5.6 KiB: pushed as a
    /// value, it went through the stack).
    draws: [MaybeUninit<DrawSlot>; DRAWS],
    books: ModelBooks,
    dropped: RefCell<heapless::Vec<Dropped, MAX_MODELS>>,
    /// Where each draw's points and polygons are in the frame, the sort's counts.
    frame: FrameTables<DRAWS>,
}

impl<const MODEL_GOURAUD: usize, const TEXTURES: usize, const DRAWS: usize>
    RendererTables<MODEL_GOURAUD, TEXTURES, DRAWS>
{
    /// Empty, all zero (or not written).
    // The initial value of a `static` (`renderer_memory!`), copied into nothing else: its
    // `RefCell` (the dropped models) is never shared through the constant.
    #[allow(clippy::declare_interior_mutable_const)]
    pub const EMPTY: Self = Self {
        gouraud: GouraudCache::UNPLACED,
        textures: TextureCache::UNPLACED,
        draws: [const { MaybeUninit::zeroed() }; DRAWS],
        books: ModelBooks::EMPTY,
        dropped: RefCell::new(heapless::Vec::new()),
        frame: FrameTables::EMPTY,
    };
}

/// The memory a [`Renderer`](super::Renderer) works in: from
/// [`renderer_memory!`](crate::renderer_memory) (or [`RendererMemory::new`]).
pub struct RendererMemory<'m> {
    /// What a frame works in (the points, the sort keys, a slot a draw).
    pub(crate) frame: FrameMemory<'m>,
    pub(crate) commands: &'m mut [CommandTable],
    pub(crate) frame_gouraud: &'m mut [GouraudTable],
    pub(crate) model_gouraud_tables: usize,
    pub(crate) gouraud: &'m mut dyn GouraudStore,
    pub(crate) textures: &'m mut dyn TextureStore,
    pub(crate) texture_slots: &'m mut [TextureSlot],
    pub(crate) gouraud_slots: &'m mut [u16],
    pub(crate) plane_runs: &'m mut [u8],
    pub(crate) books: &'m mut ModelBooks,
    /// Shared: a handle is dropped whatever the renderer is doing.
    pub(crate) dropped: &'m RefCell<heapless::Vec<Dropped, MAX_MODELS>>,
}

impl<'m> RendererMemory<'m> {
    /// The memory in `arrays` and `tables`.
    // Never inlined, as `Renderer::new`.
    #[inline(never)]
    pub fn new<
        const POINTS: usize,
        const KEYS: usize,
        const COMMANDS: usize,
        const FRAME_GOURAUD: usize,
        const MODEL_TEXTURES: usize,
        const MODEL_POLYGONS: usize,
        const MODEL_PLANES: usize,
        const MODEL_GOURAUD: usize,
        const TEXTURES: usize,
        const DRAWS: usize,
    >(
        arrays: &'m mut RendererArrays<
            POINTS,
            KEYS,
            COMMANDS,
            FRAME_GOURAUD,
            MODEL_TEXTURES,
            MODEL_POLYGONS,
            MODEL_PLANES,
        >,
        tables: &'m mut RendererTables<MODEL_GOURAUD, TEXTURES, DRAWS>,
    ) -> Self {
        while arrays.texture_slots.push([None, None]).is_ok() {}
        for slot in &mut tables.draws {
            DrawSlot::empty_in(slot);
        }
        // SAFETY: each slot written just above.
        let draws =
            unsafe { &mut *(&mut tables.draws as *mut [MaybeUninit<DrawSlot>] as *mut [DrawSlot]) };
        let frame = FrameMemory::new(
            &mut arrays.points.0,
            &mut arrays.screens.0,
            &mut arrays.keys,
            draws,
            &mut tables.frame,
        );
        Self {
            frame,
            commands: &mut arrays.commands,
            frame_gouraud: &mut arrays.frame_gouraud.0,
            model_gouraud_tables: MODEL_GOURAUD,
            gouraud: &mut tables.gouraud,
            textures: &mut tables.textures,
            texture_slots: &mut arrays.texture_slots,
            gouraud_slots: &mut arrays.gouraud_slots,
            plane_runs: &mut arrays.plane_runs,
            books: &mut tables.books,
            dropped: &tables.dropped,
        }
    }
}

impl<'m> RendererMemory<'m> {
    /// The same memory with room for `billboards.len()` billboards a frame (and two
    /// `keys` each): [`FrameMemory::with_billboards`]. Without it a frame draws none.
    pub fn with_billboards(
        self,
        billboards: &'m mut [PlacedBillboard],
        keys: &'m mut [SortKey],
    ) -> Self {
        Self {
            frame: self.frame.with_billboards(billboards, keys),
            ..self
        }
    }
}

/// Room for `$count` billboards a frame in two `static`s (in `.bss`: 48 bytes a
/// billboard: its command and depth, and two sort keys), for [`RendererMemory::with_billboards`] (or
/// [`FrameMemory::with_billboards`]): `Some((placed, keys))` the first time, `None`
/// after.
///
/// ```
/// let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
///     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
///     model_polygons: 64, model_planes: 64, draws: 4);
/// let boards = jom::billboard_memory!(200);
/// let memory = memory.zip(boards).map(|(m, (placed, keys))| m.with_billboards(placed, keys));
/// assert!(memory.is_some());
/// ```
#[macro_export]
macro_rules! billboard_memory {
    ($count:expr) => {{
        type Arrays = (
            [$crate::render::PlacedBillboard; $count],
            [$crate::render::SortKey; 2 * $count],
        );
        static MEMORY: $crate::render::TakeOnce<Arrays> = $crate::render::TakeOnce::new((
            [$crate::render::PlacedBillboard::EMPTY; $count],
            [0; 2 * $count],
        ));
        MEMORY
            .take()
            .map(|(placed, keys)| (&mut placed[..], &mut keys[..]))
    }};
}

/// The model plane runs (a byte a polygon) are handed out in blocks of this many bytes.
pub(crate) const PLANE_BLOCK: usize = 8;

/// Command tables a list sized from models keeps for 2D overlays (a HUD's sprites and
/// polygons, [`Frame::push_command`](crate::render::Frame::push_command)).
pub const OVERLAY_COMMANDS: usize = 64;

/// The sizes of a renderer's memory (what [`renderer_memory!`](crate::renderer_memory)
/// takes, by name), worked out from the models it holds: `renderer_memory!(models: [...],
/// draws: N)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RendererSizes {
    /// Points of all the models drawn in one frame.
    pub points: usize,
    /// Polygons of all the models drawn in one frame.
    pub polygons: usize,
    /// Command tables of one list.
    pub commands: usize,
    /// Gouraud tables made in one frame (lighting).
    pub frame_gouraud: usize,
    /// Distinct gouraud tables of the loaded models (a power of two, 2 or more).
    pub model_gouraud: usize,
    /// Distinct textures in VRAM.
    pub textures: usize,
    /// TEXT names of the loaded models.
    pub model_textures: usize,
    /// Polygons of the loaded models with gouraud tables.
    pub model_polygons: usize,
    /// Polygons of the loaded models (each model's a multiple of 8: the blocks they are
    /// handed out in).
    pub model_planes: usize,
    /// Models drawn in one frame.
    pub draws: usize,
}

impl RendererSizes {
    /// For `models` loaded at once and drawn `draws` times a frame in all (each draw
    /// counted as the largest of them), with [`OVERLAY_COMMANDS`] 2D commands a frame: every
    /// polygon of every draw fits the list, every lit one its gouraud table, every texture
    /// (in both end-code variants) and gouraud table of every model the caches.
    pub const fn for_models(models: &[ModelCounts], draws: usize) -> Self {
        let (mut most_points, mut most_polygons) = (0, 0);
        let (mut names, mut gouraud_polygons, mut polygons) = (0, 0, 0);
        let mut i = 0;
        while i < models.len() {
            let model = models[i];
            most_points = max(most_points, model.points);
            most_polygons = max(most_polygons, model.polygons);
            names += model.texture_names;
            polygons += model.polygons.next_multiple_of(PLANE_BLOCK);
            if model.gouraud {
                gouraud_polygons += model.polygons;
            }
            i += 1;
        }
        let frame_polygons = draws * most_polygons;
        Self {
            points: draws * most_points,
            polygons: frame_polygons,
            commands: HEAD_COMMANDS + frame_polygons + OVERLAY_COMMANDS + 1,
            frame_gouraud: frame_polygons,
            model_gouraud: max(2, gouraud_polygons.next_power_of_two()),
            textures: 2 * names,
            model_textures: names,
            model_polygons: gouraud_polygons,
            model_planes: polygons,
            draws,
        }
    }
}

const fn max(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// A `static` handed out once: [`take`](Self::take) gives it the first time, `None` after.
#[doc(hidden)]
pub struct TakeOnce<T> {
    value: UnsafeCell<T>,
    taken: Flag,
}

// SAFETY: the value is reached only through `take`, which hands out one reference, once:
// the flag is set by an atomic swap where there are atomics; on the SH-2 (none) only the
// master CPU runs program code (the slave runs jobs it is given).
unsafe impl<T: Send> Sync for TakeOnce<T> {}

impl<T> TakeOnce<T> {
    /// `value`, not taken yet.
    pub const fn new(value: T) -> Self {
        Self {
            value: UnsafeCell::new(value),
            taken: Flag::new(),
        }
    }

    /// The value, the first time; `None` after.
    // The value is in an `UnsafeCell`, handed out once: not a mutable borrow of `self`.
    #[allow(clippy::mut_from_ref)]
    pub fn take(&'static self) -> Option<&'static mut T> {
        if self.taken.set() {
            return None;
        }
        // SAFETY: the flag was clear: no reference to the value was handed out before,
        // and none will be after.
        Some(unsafe { &mut *self.value.get() })
    }
}

#[cfg(target_has_atomic = "8")]
struct Flag(core::sync::atomic::AtomicBool);

#[cfg(target_has_atomic = "8")]
impl Flag {
    const fn new() -> Self {
        Self(core::sync::atomic::AtomicBool::new(false))
    }

    /// Sets it; gives whether it was set before.
    fn set(&self) -> bool {
        self.0.swap(true, core::sync::atomic::Ordering::AcqRel)
    }
}

#[cfg(not(target_has_atomic = "8"))]
struct Flag(core::cell::Cell<bool>);

#[cfg(not(target_has_atomic = "8"))]
impl Flag {
    const fn new() -> Self {
        Self(core::cell::Cell::new(false))
    }

    fn set(&self) -> bool {
        self.0.replace(true)
    }
}

/// Declares the [`Renderer`](crate::render::Renderer)'s memory in a `static` and takes it:
/// `Some(`[`RendererMemory`](crate::render::RendererMemory)`)` the first time this line
/// runs, `None` after.
///
/// Sized from the models it will hold, linked into the program (each a `const` of the
/// file's bytes, read when the program is compiled:
/// [`RendererSizes::for_models`](crate::render::RendererSizes::for_models)), and the
/// draws of a frame:
///
/// ```
/// const ROBOT: &[u8] = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
/// let memory = jom::renderer_memory!(models: [ROBOT], draws: 3);
/// assert!(memory.is_some());
/// ```
///
/// A model read from CD is checked when it loads
/// ([`Renderer::load`](crate::render::Renderer::load)
/// refuses one the memory cannot hold, saying which table is full). Or every size is given,
/// by name, in this order:
///
/// - `points`, `polygons`: of all the models drawn in one frame;
/// - `commands`: command tables of one list (3 head commands, the polygons drawn, the 2D
///   overlays and the end; two lists go to VRAM);
/// - `frame_gouraud`: gouraud tables made in one frame (lighting; twice in VRAM);
/// - `model_gouraud`: distinct gouraud tables (GOUR) of the loaded models, a power of two, 2 or more;
/// - `textures`: distinct textures in VRAM;
/// - `model_textures`: TEXT names of all the models loaded at once;
/// - `model_polygons`: polygons of all the loaded models that have gouraud tables;
/// - `model_planes`: polygons of all the loaded models (a byte each: which follow each in
///   its plane, so that the culling passes over a side facing away at once), or 0 to keep
///   none (each back face then culled on its own);
/// - `draws`: models drawn in one frame.
///
/// ```
/// let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
///     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
///     model_polygons: 64, model_planes: 64, draws: 4);
/// assert!(memory.is_some());
/// ```
#[macro_export]
macro_rules! renderer_memory {
    (models: [$($model:expr),* $(,)?], draws: $draws:expr $(,)?) => {{
        const SIZES: $crate::render::RendererSizes = $crate::render::RendererSizes::for_models(
            &[$($crate::format::ModelCounts::of($model)),*],
            $draws,
        );
        $crate::renderer_memory!(points: SIZES.points, polygons: SIZES.polygons,
            commands: SIZES.commands, frame_gouraud: SIZES.frame_gouraud,
            model_gouraud: SIZES.model_gouraud, textures: SIZES.textures,
            model_textures: SIZES.model_textures, model_polygons: SIZES.model_polygons,
            model_planes: SIZES.model_planes, draws: SIZES.draws)
    }};
    (points: $points:expr, polygons: $polygons:expr, commands: $commands:expr,
     frame_gouraud: $frame_gouraud:expr, model_gouraud: $model_gouraud:expr,
     textures: $textures:expr, model_textures: $model_textures:expr,
     model_polygons: $model_polygons:expr, model_planes: $model_planes:expr,
     draws: $draws:expr $(,)?) => {{
        type Arrays = $crate::render::RendererArrays<
            { $points },
            { 2 * $polygons },
            { $commands },
            { $frame_gouraud },
            { $model_textures },
            { $model_polygons },
            { $model_planes },
        >;
        type Tables = $crate::render::RendererTables<{ $model_gouraud }, { $textures }, { $draws }>;
        static ARRAYS: $crate::render::TakeOnce<Arrays> =
            $crate::render::TakeOnce::new(Arrays::ZERO);
        static TABLES: $crate::render::TakeOnce<Tables> =
            $crate::render::TakeOnce::new(Tables::EMPTY);
        match (ARRAYS.take(), TABLES.take()) {
            (Some(arrays), Some(tables)) => {
                Some($crate::render::RendererMemory::new(arrays, tables))
            }
            _ => None,
        }
    }};
}
