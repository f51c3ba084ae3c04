//! Drawing a model, the public side: `draw` and `draw_pose` (and their timed forms), what
//! they take (the light, the model's VRAM, the work buffers and a second CPU) and give
//! (their stats). A frame goes through [`project`](super::project) (each point transformed
//! and projected once), [`cull`](super::cull) (each polygon culled and given a depth by its
//! material's sort mode), [`sort`](super::sort) (back to front) and
//! [`emit`](super::emit) (a VDP1 command each, with every material flag applied).

use core::ops::Range;

use super::cull::sort_visible;
use super::emit::{drawn_in_parts, emit_sorted, EmitCache};
use super::limits;
use super::list::CommandBuffer;
use super::project::{transform_range, Projection, ViewPoint};
use super::transforms::Transforms;
use super::{Camera, CommandList, DrawError};
use crate::format::Model;
use crate::math::{Matrix, Vec3};
use crate::vdp1::{Point, SpriteSet, TextureSlot};
use crate::worker::Worker;

/// The engine's light (`jo_3d_light`): materials with the light flag are shaded by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Light {
    /// The direction the light travels, in world space, unit length (Q16.16).
    pub direction: Vec3,
    /// The light a face turned away still gets, 0 to 1 (Q16.16).
    pub ambient: i32,
}

/// Where a model's textures and gouraud tables are in VRAM (from
/// [`TextureCache`](crate::vdp1::TextureCache) and [`GouraudCache`](crate::vdp1::GouraudCache)).
#[derive(Clone, Copy, Debug)]
pub struct ModelVram<'r> {
    /// The textures, by TEXT index ([`ModelTextures::slots`](crate::vdp1::ModelTextures::slots)).
    pub textures: &'r [TextureSlot],
    /// Each polygon's GOUR table address / 8 (0: none).
    pub gouraud: &'r [u16],
}

impl ModelVram<'_> {
    /// The texture of TEXT index `index`, in the variant a material with `end_codes` uses.
    pub(crate) fn sprites(&self, index: usize, end_codes: bool) -> Option<&SpriteSet> {
        self.textures.get(index)?[usize::from(end_codes)].as_ref()
    }
}

#[doc(hidden)]
/// Work space of [`draw`], provided by the caller (no allocation): one [`ViewPoint`] per
/// point and two sort keys per polygon of the largest model drawn, and optionally a
/// second CPU.
pub struct DrawBuffers<'b> {
    /// One per point.
    pub points: &'b mut [ViewPoint],
    /// Two per polygon: the visible polygons' [`SortKey`]s and the radix sort's scratch.
    pub order: &'b mut [SortKey],
    /// A second CPU that transforms and projects half of the points, culls half of the
    /// polygons, does half of each pass of the sort (from 256 visible polygons) and, for a
    /// big model of one plain material, emits half of the commands (on
    /// a Saturn the slave SH-2, [`hw::slave::Slave`](crate::hw::slave)); `None`: this CPU
    /// does all.
    pub worker: Option<&'b mut dyn Worker>,
}

/// Fewer points than this are not worth a second CPU (waking it costs more).
const MIN_SHARED_POINTS: usize = 64;

/// A visible polygon's depth and index in one integer, so that sorting them is sorting
/// integers: the depth (complemented: farthest first) in the high 16 bits, the index in
/// the low 16.
pub type SortKey = u32;

/// The sort key of polygon `index` at depth `depth` (at most `0xFFFF`, nearest 0).
pub(crate) fn sort_key(depth: u32, index: usize) -> SortKey {
    (0xFFFF - depth) << 16 | index as u32
}

pub(crate) fn polygon_of(key: SortKey) -> usize {
    (key & 0xFFFF) as usize
}

/// What [`draw`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Polygons emitted.
    pub drawn: usize,
    /// Command tables emitted for them (more than `drawn` when some are drawn in parts).
    pub commands: usize,
    /// Polygons culled (behind, too far, back facing, off screen).
    pub culled: usize,
    /// Visible polygons left out because the command list or the frame's gouraud tables
    /// were full (the farthest ones).
    pub dropped: usize,
    /// Whether the frame's gouraud tables were what ran out: the nearest polygon left out
    /// had room in the command list, not in them. The C interface reports it as an error
    /// (a list whose gouraud tables were never emptied loses every lit polygon).
    pub gouraud_full: bool,
}

#[doc(hidden)]
/// Draws `model`, placed in the world by `transform`, as seen by `camera`: appends its
/// visible polygons to `list`, farthest first.
///
/// ```
/// use jom::math::{Matrix, ONE};
/// use jom::render::{draw, Camera, CommandList, DrawBuffers, ModelVram, ViewPoint};
/// use jom::vdp1::{GouraudCache, MemoryVram, TextureCache, VramLayout, VRAM_SIZE};
///
/// let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
/// let model = jom::Model::from_bytes(bytes)?;
///
/// // Once per model: its textures and gouraud tables into VRAM.
/// let layout = VramLayout::default();
/// let mut vram_bytes = vec![0; VRAM_SIZE as usize]; // on the Saturn: the real VRAM
/// let mut vram = MemoryVram::new(&mut vram_bytes);
/// let mut textures = TextureCache::<64>::new(layout.textures.clone());
/// let model_textures = textures.load_model::<8>(&model, &mut vram, |_, _| None)?;
/// let mut gouraud = [0u16; 3];
/// GouraudCache::<256>::new(layout.gouraud.clone()).load_model(&model, &mut vram, &mut gouraud)?;
///
/// // Every frame: draw, then write the list to VRAM.
/// let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
/// let mut list = CommandList::<256, 64>::new(camera.width, camera.height, &layout);
/// let (mut points, mut order) = ([ViewPoint::default(); 6], [0; 6]);
/// let mut buffers = DrawBuffers { points: &mut points, order: &mut order, worker: None };
/// let resources = ModelVram { textures: model_textures.slots(), gouraud: &gouraud };
/// let stats = draw(&mut list, &model, &resources, &Matrix::IDENTITY, &camera, None, &mut buffers)?;
/// list.commit(&mut vram, &layout)?;
/// assert_eq!(stats.drawn + stats.culled, model.polygons().len());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn draw<const C: usize, const G: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    transform: &Matrix,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
) -> Result<DrawStats, DrawError> {
    draw_timed(
        list,
        model,
        resources,
        transform,
        camera,
        light,
        buffers,
        &mut || 0,
    )
    .map(|(stats, _)| stats)
}

/// How long each phase of a [`draw_timed`] took, in the clock's units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    /// Transforming and projecting the points.
    pub transform: u32,
    /// Culling the polygons, giving them depths and sorting them.
    pub sort: u32,
    /// Emitting the command tables.
    pub emit: u32,
    /// Waiting for the VDP1 to leave the list about to be written (a [`Frame`](super::Frame)'s
    /// end, when the last frame's list was not on screen yet; 0 for [`draw_timed`]).
    pub wait: u32,
    /// Writing the list to VRAM and pointing the VDP1 at it (a [`Frame`](super::Frame)'s
    /// end; 0 for [`draw_timed`], which leaves the list in RAM).
    pub commit: u32,
}

#[doc(hidden)]
/// [`draw`], with `clock` (a free-running counter, wrapping) read between its phases: for
/// measuring where a frame's time goes (the SH-2 benchmark reads the SH-2's timer).
#[allow(clippy::too_many_arguments)]
pub fn draw_timed<const C: usize, const G: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    transform: &Matrix,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
    clock: &mut impl FnMut() -> u32,
) -> Result<(DrawStats, PhaseTimes), DrawError> {
    let transforms = rigid_transforms(model, transform, camera)?;
    list.with_buffer(|list| {
        draw_with(
            list,
            model,
            resources,
            &transforms,
            camera,
            light,
            buffers,
            clock,
        )
    })
}

/// The transforms of a model placed by `transform`, within the engine's limits (issue
/// #13): see `render::limits`.
fn rigid_transforms(
    model: &Model<'_>,
    transform: &Matrix,
    camera: &Camera,
) -> Result<Transforms, DrawError> {
    let view = limits::camera_view(camera)?;
    let mut transforms = Transforms::rigid(limits::model_view(&view, transform)?);
    limits::check_transforms(model, &mut transforms)?;
    Ok(transforms)
}

/// The transforms of a posed model, within the engine's limits.
fn posed_transforms(
    model: &Model<'_>,
    posed: &Posed<'_>,
    camera: &Camera,
) -> Result<Transforms, DrawError> {
    let model_view = limits::model_view(&limits::camera_view(camera)?, posed.transform)?;
    let mut transforms = Transforms::posed(model, &model_view, posed.root, posed.bones);
    limits::check_transforms(model, &mut transforms)?;
    Ok(transforms)
}

/// Where a posed model is: its place in the world and the matrices of its pose (from
/// [`anim::bone_matrices`](crate::anim) and the pose's root offset), all in model space.
pub struct Posed<'p> {
    /// The model's place in the world.
    pub transform: &'p Matrix,
    /// The matrix of the points and polygons of no bone's group (the root offset).
    pub root: &'p Matrix,
    /// The matrix of each bone, for the points and polygons of its group.
    pub bones: &'p [Matrix],
}

#[doc(hidden)]
/// Draws a posed model (`jo_3d_model_draw_pose`): like [`draw`], with each bone's group
/// moved by the bone's matrix; culling, sorting and lighting use the posed points and
/// normals.
pub fn draw_pose<const C: usize, const G: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    posed: &Posed<'_>,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
) -> Result<DrawStats, DrawError> {
    draw_pose_timed(
        list,
        model,
        resources,
        posed,
        camera,
        light,
        buffers,
        &mut || 0,
    )
    .map(|(stats, _)| stats)
}

#[doc(hidden)]
/// [`draw_pose`], with `clock` read between its phases (as [`draw_timed`]).
#[allow(clippy::too_many_arguments)]
pub fn draw_pose_timed<const C: usize, const G: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    posed: &Posed<'_>,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
    clock: &mut impl FnMut() -> u32,
) -> Result<(DrawStats, PhaseTimes), DrawError> {
    let transforms = posed_transforms(model, posed, camera)?;
    list.with_buffer(|list| {
        draw_with(
            list,
            model,
            resources,
            &transforms,
            camera,
            light,
            buffers,
            clock,
        )
    })
}

#[doc(hidden)]
/// [`draw`] into a [`CommandBuffer`] over slices the caller owns (the C interface,
/// `capi/`: a program that keeps its own VDP1 list).
pub fn draw_into(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    transform: &Matrix,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
) -> Result<DrawStats, DrawError> {
    let transforms = rigid_transforms(model, transform, camera)?;
    let clock = &mut || 0;
    draw_with(
        list,
        model,
        resources,
        &transforms,
        camera,
        light,
        buffers,
        clock,
    )
    .map(|(stats, _)| stats)
}

#[doc(hidden)]
/// [`draw_pose`] into a [`CommandBuffer`] over slices the caller owns (as [`draw_into`]).
pub fn draw_pose_into(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    posed: &Posed<'_>,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
) -> Result<DrawStats, DrawError> {
    let transforms = posed_transforms(model, posed, camera)?;
    let clock = &mut || 0;
    draw_with(
        list,
        model,
        resources,
        &transforms,
        camera,
        light,
        buffers,
        clock,
    )
    .map(|(stats, _)| stats)
}

#[allow(clippy::too_many_arguments)]
fn draw_with(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    transforms: &Transforms,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
    clock: &mut impl FnMut() -> u32,
) -> Result<(DrawStats, PhaseTimes), DrawError> {
    let start = clock();
    let needed = model.points().len();
    let points = buffers
        .points
        .get_mut(..needed)
        .ok_or(DrawError::BufferTooSmall {
            buffer: "points",
            needed,
        })?;
    transform_model(
        model,
        transforms,
        camera,
        (points, None),
        buffers.worker.as_deref_mut(),
    );
    let transformed = clock();
    let view = camera.view();
    let light_view = light.map(|l| (view.rotate(l.direction), l.ambient));
    let mut stats = DrawStats::default();
    // The immediate API's buffers hold no compact copy of the screen positions: its
    // emission reads them from the view points, near plane tested.
    let frame = Frame {
        model,
        resources,
        camera,
        points,
        screens: None,
    };
    let worker = buffers.worker.as_deref_mut();
    let (order, kept) = sort_visible(&frame, transforms, buffers.order, &mut stats, worker)?;
    let sorted = clock();
    let worker = buffers.worker.as_deref_mut();
    let mut cache = EmitCache::EMPTY;
    cache.start(model, transforms, light_view);
    emit_sorted(
        &frame, list, transforms, &mut cache, order, kept, worker, &mut stats,
    )?;
    let emitted = clock();
    let times = PhaseTimes {
        transform: transformed.wrapping_sub(start),
        sort: sorted.wrapping_sub(transformed),
        emit: emitted.wrapping_sub(sorted),
        wait: 0,
        commit: 0,
    };
    Ok((stats, times))
}

/// Transforms and projects the points of `model` into `points` (one per point), and
/// their screen positions into `screens` when given (as long), half of them on `worker`
/// when there are enough.
pub(crate) fn transform_model(
    model: &Model<'_>,
    transforms: &Transforms,
    camera: &Camera,
    (points, screens): (&mut [ViewPoint], Option<&mut [Point]>),
    worker: Option<&mut (dyn Worker + '_)>,
) {
    let needed = points.len();
    let projection = Projection::of(camera);
    let transform = |range: Range<usize>, out: &mut [ViewPoint], screens: Option<&mut [Point]>| {
        transform_range(model, transforms, &projection, range, out, screens);
    };
    match worker {
        Some(worker) if needed >= MIN_SHARED_POINTS => {
            let half = needed / 2;
            let (first, second) = points.split_at_mut(half);
            let (mut first_screens, mut second_screens) = match screens {
                Some(screens) => {
                    let (first, second) = screens.split_at_mut(half);
                    (Some(first), Some(second))
                }
                None => (None, None),
            };
            // Each share borrows its screens again at every run (the master runs the
            // second CPU's share again after a time-out: taken, they would be gone).
            worker.join(
                &mut || transform(0..half, first, first_screens.as_deref_mut()),
                &mut || transform(half..needed, second, second_screens.as_deref_mut()),
            );
        }
        _ => transform(0..needed, points, screens),
    }
}

/// What the culling, sorting and emission of one frame look at.
pub(crate) struct Frame<'f, 'm> {
    pub(crate) model: &'f Model<'m>,
    pub(crate) resources: &'f ModelVram<'f>,
    pub(crate) camera: &'f Camera,
    /// The transformed and projected points.
    pub(crate) points: &'f [ViewPoint],
    /// Their screen positions again, four a cache line, when the transform wrote them:
    /// what emission's loops without the near plane's test read.
    pub(crate) screens: Option<&'f [Point]>,
}

impl Frame<'_, '_> {
    /// The camera-space and screen corners of polygon `index`.
    pub(crate) fn corners(&self, index: usize) -> ([Vec3; 4], [Point; 4]) {
        let corners = self.model.polygons()[index].corners();
        let points = corners.map(|c| &self.points[usize::from(c)]);
        (points.map(|p| p.view), points.map(|p| p.screen))
    }

    /// Whether polygon `index` is drawn in 4 parts.
    pub(crate) fn in_parts(&self, index: usize) -> bool {
        self.model.material_of(index).is_some_and(|material| {
            let (view, screen) = self.corners(index);
            drawn_in_parts(material, self.resources, &view, &screen, self.camera)
        })
    }
}
