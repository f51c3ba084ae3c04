//! Drawing a model: each point transformed and projected once, then each polygon culled
//! (behind the camera, past the far plane, back facing, off screen), given a depth by its
//! material's sort mode, and emitted back to front as a VDP1 command with every material
//! flag applied.

use core::ops::Range;

use super::transforms::Transforms;
use super::{Camera, CommandList, DrawError};
use crate::format::{Material, MaterialFlags, Model, SortMode};
use crate::math::{div_64_32, dot, mul, Division, Matrix, Vec3, ONE};
use crate::vdp1::{
    field_pair, ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, ModelTextures, Point,
    Sprite, CTRL_FLIP_H, CTRL_FLIP_V,
};

/// The engine's light (`jo_3d_light`): materials with the light flag are shaded by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Light {
    /// The direction the light travels, in world space, unit length (Q16.16).
    pub direction: Vec3,
    /// The light a face turned away still gets, 0 to 1 (Q16.16).
    pub ambient: i32,
}

/// What a model has in VRAM: its textures and its gouraud tables (from
/// [`TextureCache`](crate::vdp1::TextureCache) and [`GouraudCache`](crate::vdp1::GouraudCache)).
pub struct ModelVram<'r, const M: usize> {
    /// The textures, by TEXT index.
    pub textures: &'r ModelTextures<M>,
    /// Each polygon's GOUR table address / 8 (0: none).
    pub gouraud: &'r [u16],
}

/// A point after the transform: camera space and screen position (16 bytes: the SH-2
/// assembly of the transform writes this layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewPoint {
    /// Camera space (Q16.16).
    pub view: Vec3,
    /// Screen position relative to the centre (valid when in front of the near plane).
    pub screen: Point,
}

const _: () = assert!(core::mem::size_of::<ViewPoint>() == 16);
const _: () = assert!(core::mem::offset_of!(ViewPoint, screen) == 12);

/// Work space of [`draw`], provided by the caller (no allocation): one [`ViewPoint`] per
/// point and two sort keys per polygon of the largest model drawn, and optionally a
/// second CPU.
pub struct DrawBuffers<'b> {
    /// One per point.
    pub points: &'b mut [ViewPoint],
    /// Two per polygon: the visible polygons' [`SortKey`]s and the radix sort's scratch.
    pub order: &'b mut [SortKey],
    /// A second CPU that transforms and projects half of the points, culls half of the
    /// polygons and, for a big model of one plain material, emits half of the commands (on
    /// a Saturn the slave SH-2, [`hw::slave::Slave`](crate::hw::slave)); `None`: this CPU
    /// does all.
    pub worker: Option<&'b mut dyn Worker>,
}

/// A second processor that takes a share of [`draw`]'s work.
pub trait Worker {
    /// Runs `there` on the other processor while running `here` on this one, and returns
    /// when both are done, with what the other wrote visible to this one.
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send));
}

/// A [`Worker`] that is this CPU: `there`, then `here` (for tests, or where the second CPU
/// is busy with something else).
pub struct InOrder;

impl Worker for InOrder {
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send)) {
        there();
        here();
    }
}

/// Fewer points than this are not worth a second CPU (waking it costs more).
const MIN_SHARED_POINTS: usize = 64;

/// A visible polygon's depth and index in one integer, so that sorting them is sorting
/// integers: the depth (complemented: farthest first) in the high 16 bits, the index in
/// the low 16.
pub type SortKey = u32;

/// The sort key of polygon `index` at depth `depth` (at most `0xFFFF`, nearest 0).
fn sort_key(depth: u32, index: usize) -> SortKey {
    (0xFFFF - depth) << 16 | index as u32
}

fn polygon_of(key: SortKey) -> usize {
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
    /// Visible polygons left out because the command list was full (the farthest ones).
    pub dropped: usize,
}

/// Screen coordinates are kept within what VDP1 vertex fields hold.
const SCREEN_LIMIT: i32 = 2047;

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
/// let resources = ModelVram { textures: &model_textures, gouraud: &gouraud };
/// let stats = draw(&mut list, &model, &resources, &Matrix::IDENTITY, &camera, None, &mut buffers)?;
/// list.commit(&mut vram, &layout)?;
/// assert_eq!(stats.drawn + stats.culled, model.polygons().len());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn draw<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
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
}

/// [`draw`], with `clock` (a free-running counter, wrapping) read between its phases: for
/// measuring where a frame's time goes (the SH-2 benchmark reads the SH-2's timer).
#[allow(clippy::too_many_arguments)]
pub fn draw_timed<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
    transform: &Matrix,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
    clock: &mut impl FnMut() -> u32,
) -> Result<(DrawStats, PhaseTimes), DrawError> {
    let transforms = Transforms::rigid(camera.view().then(transform));
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

/// Draws a posed model (`jo_3d_model_draw_pose`): like [`draw`], with each bone's group
/// moved by the bone's matrix; culling, sorting and lighting use the posed points and
/// normals.
pub fn draw_pose<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
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

/// [`draw_pose`], with `clock` read between its phases (as [`draw_timed`]).
#[allow(clippy::too_many_arguments)]
pub fn draw_pose_timed<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
    posed: &Posed<'_>,
    camera: &Camera,
    light: Option<&Light>,
    buffers: &mut DrawBuffers<'_>,
    clock: &mut impl FnMut() -> u32,
) -> Result<(DrawStats, PhaseTimes), DrawError> {
    let model_view = camera.view().then(posed.transform);
    let transforms = Transforms::posed(model, &model_view, posed.root, posed.bones);
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
}

#[allow(clippy::too_many_arguments)]
fn draw_with<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
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
    let projection = Projection::of(camera);
    let transform = |range: Range<usize>, out: &mut [ViewPoint]| {
        transform_range(model, transforms, &projection, range, out);
    };
    match buffers.worker.as_deref_mut() {
        Some(worker) if needed >= MIN_SHARED_POINTS => {
            let half = needed / 2;
            let (first, second) = points.split_at_mut(half);
            worker.join(&mut || transform(0..half, first), &mut || {
                transform(half..needed, second)
            });
        }
        _ => transform(0..needed, points),
    }
    let transformed = clock();
    let view = camera.view();
    let light_view = light.map(|l| (view.rotate(l.direction), l.ambient));
    let mut stats = DrawStats::default();
    let frame = Frame {
        model,
        resources,
        camera,
        points,
    };
    let worker = buffers.worker.as_deref_mut();
    let (order, parts) = sort_visible(&frame, transforms, buffers.order, &mut stats, worker)?;
    let sorted = clock();
    // Farthest first; when the list is short of room the farthest are left out.
    let room = list.room();
    let skip = if order.len() + 3 * parts <= room {
        0
    } else {
        let mut room = room;
        let kept = order
            .iter()
            .rev()
            .take_while(|&&key| {
                let tables = if frame.in_parts(polygon_of(key)) {
                    4
                } else {
                    1
                };
                room.checked_sub(tables).map(|left| room = left).is_some()
            })
            .count();
        order.len() - kept
    };
    stats.dropped = skip;
    let mut style = EmitStyle::NONE;
    let mut next = skip;
    if let Some(worker) = buffers.worker.as_deref_mut() {
        let shared = emit_shared(&frame, list, worker, &order[skip..], light_view.is_some());
        next += shared;
        stats.drawn += shared;
        stats.commands += shared;
    }
    while let Some(&key) = order.get(next) {
        let index = polygon_of(key);
        let material = model.polygon_materials()[index].get();
        if material != style.material {
            style = EmitStyle::of(&frame, material, light_view.is_some());
        }
        if style.plain() {
            let emitted = frame.emit_plain_run(list, &style, &order[next..]);
            if emitted > 0 {
                next += emitted;
                stats.drawn += emitted;
                stats.commands += emitted;
                continue;
            }
        }
        let before = list.commands().len();
        if !(style.fast && frame.emit_fast(list, &style, index)) {
            let polygon = Emit {
                index,
                in_parts: style.may_split && frame.in_parts(index),
                matrix: &transforms.matrices[transforms.polygon_matrix(index)],
            };
            emit(list, model, resources, camera, light_view, points, polygon)?;
        }
        stats.drawn += 1;
        stats.commands += list.commands().len() - before;
        next += 1;
    }
    let emitted = clock();
    let times = PhaseTimes {
        transform: transformed.wrapping_sub(start),
        sort: sorted.wrapping_sub(transformed),
        emit: emitted.wrapping_sub(sorted),
    };
    Ok((stats, times))
}

/// Emits the first half of `keys` here and the second half on `worker`, each into its own
/// half of the list's free tables, when all of them are of one plain material and in
/// front of the near plane (a big model's common case); gives how many polygons are
/// emitted, from the first: all of them, or what this CPU's half got through (the rest
/// goes through the loop of `draw_with`, which writes over what the worker left).
fn emit_shared<const C: usize, const G: usize, const M: usize>(
    frame: &Frame<'_, '_, M>,
    list: &mut CommandList<C, G>,
    worker: &mut dyn Worker,
    keys: &[SortKey],
    lit_frame: bool,
) -> usize {
    let Some(&first) = keys.first().filter(|_| keys.len() >= MIN_SHARED_POLYGONS) else {
        return 0;
    };
    let material = frame.model.polygon_materials()[polygon_of(first)].get();
    let style = EmitStyle::of(frame, material, lit_frame);
    if !style.plain() {
        return 0;
    }
    let half = keys.len() / 2;
    list.fill_with(|tables| {
        if tables.len() < keys.len() {
            return 0;
        }
        let (here, there) = tables.split_at_mut(half);
        let (mut first_done, mut second_done) = (0, 0);
        worker.join(
            &mut || first_done = frame.emit_plain(here, &style, &keys[..half]),
            &mut || second_done = frame.emit_plain(there, &style, &keys[half..]),
        );
        match first_done == half && second_done == keys.len() - half {
            true => keys.len(),
            false => first_done,
        }
    })
}

/// What projecting a point needs of the camera.
#[derive(Clone, Copy, Debug)]
pub struct Projection {
    focal_length: i32,
    /// The smallest depth divided by: the near plane, or more when the focal length
    /// needs it (nearer than 2 x focal length / 65536 units the scale would not fit in 32
    /// bits).
    min_depth: i32,
}

impl Projection {
    /// The focal length, in pixels.
    pub fn focal_length(&self) -> i32 {
        self.focal_length
    }

    /// The smallest depth divided by (Q16.16): nearer points are projected as if there.
    pub fn min_depth(&self) -> i32 {
        self.min_depth
    }

    /// The projection of `camera`.
    pub fn of(camera: &Camera) -> Self {
        Self {
            focal_length: camera.focal_length,
            min_depth: camera.near.max(2 * camera.focal_length.abs() + 1),
        }
    }
}

/// `(m[0] x + m[1] y + m[2] z) >> 16 + m[3]`: one row of a matrix applied to a point, each
/// product 32 x 32 -> 64 bits (`dmuls.l` on the SH-2).
#[inline(always)]
fn row_apply(m: &[i32; 4], x: i32, y: i32, z: i32) -> i32 {
    let sum = i64::from(m[0]) * i64::from(x)
        + i64::from(m[1]) * i64::from(y)
        + i64::from(m[2]) * i64::from(z);
    (sum >> 16) as i32 + m[3]
}

/// A screen coordinate: `v * scale / 2^32`, kept within what VDP1 vertex fields hold.
#[inline(always)]
fn screen_axis(v: i32, scale: i32) -> i16 {
    let s = ((i64::from(v) * i64::from(scale)) >> 32) as i32;
    s.clamp(-SCREEN_LIMIT, SCREEN_LIMIT) as i16
}

/// Transforms and projects the points `range` of `model` into `out` (as long), each by
/// its matrix.
fn transform_range(
    model: &Model<'_>,
    transforms: &Transforms,
    projection: &Projection,
    range: Range<usize>,
    out: &mut [ViewPoint],
) {
    for (run, matrix) in transforms.point_runs(range.end) {
        let run = run.start.max(range.start)..run.end;
        if run.is_empty() {
            continue;
        }
        let out = &mut out[run.start - range.start..run.end - range.start];
        transform_points(
            &transforms.matrices[matrix],
            projection,
            &model.points()[run],
            out,
        );
    }
}

/// Transforms `points` by `matrix` into camera space and projects them, into `out` (the
/// same length): on a Saturn by the SH-2 assembly of [`hw::transform`](crate::hw), else
/// by [`transform_points_reference`].
pub(crate) fn transform_points(
    matrix: &Matrix,
    projection: &Projection,
    points: &[crate::format::Vector],
    out: &mut [ViewPoint],
) {
    #[cfg(all(jom_sh2, not(feature = "soft-divide")))]
    crate::hw::transform::transform_points(matrix, projection, points, out);
    #[cfg(not(all(jom_sh2, not(feature = "soft-divide"))))]
    transform_points_reference(matrix, projection, points, out);
}

/// The transform in Rust: each point by `matrix` into camera space, then projected; depth
/// first, so that the division runs while x and y are transformed.
pub fn transform_points_reference(
    matrix: &Matrix,
    projection: &Projection,
    points: &[crate::format::Vector],
    out: &mut [ViewPoint],
) {
    let [row_x, row_y, row_z] = &matrix.0;
    let dividend = i64::from(projection.focal_length) << 32;
    for (out, point) in out.iter_mut().zip(points) {
        let [x, y, z] = point.raw();
        let depth = row_apply(row_z, x, y, z);
        let scale = Division::start(dividend, depth.max(projection.min_depth));
        let view_x = row_apply(row_x, x, y, z);
        let view_y = row_apply(row_y, x, y, z);
        let scale = scale.quotient();
        *out = ViewPoint {
            view: [view_x, view_y, depth],
            screen: Point::new(screen_axis(view_x, scale), screen_axis(view_y, scale)),
        };
    }
}

/// The screen position of a camera-space point (clamped when it is near or behind the
/// eye: such points are moved onto the near plane before use).
fn project(p: Vec3, camera: &Camera) -> Point {
    let projection = Projection::of(camera);
    let scale = div_64_32(
        i64::from(projection.focal_length) << 32,
        p[2].max(projection.min_depth),
    );
    Point::new(screen_axis(p[0], scale), screen_axis(p[1], scale))
}

/// What the culling, sorting and emission of one frame look at.
pub(crate) struct Frame<'f, 'm, const M: usize> {
    pub(crate) model: &'f Model<'m>,
    pub(crate) resources: &'f ModelVram<'f, M>,
    pub(crate) camera: &'f Camera,
    /// The transformed and projected points.
    pub(crate) points: &'f [ViewPoint],
}

impl<const M: usize> Frame<'_, '_, M> {
    /// The camera-space and screen corners of polygon `index`.
    fn corners(&self, index: usize) -> ([Vec3; 4], [Point; 4]) {
        let corners = self.model.polygons()[index].corners();
        let points = corners.map(|c| &self.points[usize::from(c)]);
        (points.map(|p| p.view), points.map(|p| p.screen))
    }

    /// Whether polygon `index` is drawn in 4 parts.
    fn in_parts(&self, index: usize) -> bool {
        self.model.material_of(index).is_some_and(|material| {
            let (view, screen) = self.corners(index);
            drawn_in_parts(material, self.resources, &view, &screen, self.camera)
        })
    }

    /// Emits the polygons of `keys` (from `sort_visible`: indexes of the model's polygons)
    /// from the start while they are of the style's material (a [`plain`](EmitStyle::plain)
    /// one) and wholly in front of the near plane, and gives how many: the common case.
    pub(crate) fn emit_plain_run<const C: usize, const G: usize>(
        &self,
        list: &mut CommandList<C, G>,
        style: &EmitStyle,
        keys: &[SortKey],
    ) -> usize {
        list.fill_with(|tables| self.emit_plain(tables, style, keys))
    }

    /// [`emit_plain_run`](Self::emit_plain_run) into `tables` (as many as they hold): on a
    /// Saturn by the SH-2 assembly of [`hw::emit`](crate::hw).
    pub(crate) fn emit_plain(
        &self,
        tables: &mut [CommandTable],
        style: &EmitStyle,
        keys: &[SortKey],
    ) -> usize {
        #[cfg(all(jom_sh2, not(feature = "soft-divide")))]
        // SAFETY: the keys come from `sort_visible`, which writes indexes of the model's
        // polygons only.
        return unsafe {
            crate::hw::emit::emit_plain_run(
                self.model,
                self.points,
                self.camera.near,
                (style.material, style.head, style.last),
                keys,
                tables,
            )
        };
        #[cfg(not(all(jom_sh2, not(feature = "soft-divide"))))]
        self.emit_plain_reference(tables, style, keys)
    }

    /// The Rust version of [`emit_plain`](Self::emit_plain), in a loop with nothing else
    /// in it.
    // On a Saturn only the tests run the Rust version (against the assembly).
    #[cfg_attr(
        all(jom_sh2, not(feature = "soft-divide"), not(feature = "selftest")),
        allow(dead_code)
    )]
    pub(crate) fn emit_plain_reference(
        &self,
        tables: &mut [CommandTable],
        style: &EmitStyle,
        keys: &[SortKey],
    ) -> usize {
        let (polygons, materials) = (self.model.polygons(), self.model.polygon_materials());
        let (points, near) = (self.points, self.camera.near);
        let mut emitted = 0;
        for (&key, table) in keys.iter().zip(tables) {
            let index = polygon_of(key);
            if materials[index].get() != style.material {
                break;
            }
            let [ia, ib, ic, id] = polygons[index].corners();
            let a = &points[usize::from(ia)];
            let b = &points[usize::from(ib)];
            let c = &points[usize::from(ic)];
            let d = &points[usize::from(id)];
            if a.view[2] < near || b.view[2] < near || c.view[2] < near || d.view[2] < near {
                break;
            }
            let [h0, h1, h2] = style.head;
            let [w0, w1, w2, w3] = [
                a.screen.word(),
                b.screen.word(),
                c.screen.word(),
                d.screen.word(),
            ];
            *table.as_words_mut() = [h0, h1, h2, w0, w1, w2, w3, style.last];
            emitted += 1;
        }
        emitted
    }

    /// Emits polygon `index` from the style's template when it is wholly in front of the
    /// near plane and not drawn in parts; `false` when it needs [`emit`].
    #[inline(always)]
    fn emit_fast<const C: usize, const G: usize>(
        &self,
        list: &mut CommandList<C, G>,
        style: &EmitStyle,
        index: usize,
    ) -> bool {
        let corners = &self.model.polygons()[index].corners;
        let [a, b, c, d] = [0, 1, 2, 3].map(|i| &self.points[usize::from(corners[i].get())]);
        let near = self.camera.near;
        if a.view[2] < near || b.view[2] < near || c.view[2] < near || d.view[2] < near {
            return false;
        }
        if style.may_split && self.in_parts(index) {
            return false;
        }
        let gouraud = match style.gouraud {
            true => self.resources.gouraud.get(index).copied().unwrap_or(0),
            false => 0,
        };
        let corners = [
            a.screen.word(),
            b.screen.word(),
            c.screen.word(),
            d.screen.word(),
        ];
        let pushed = match gouraud {
            0 => list.push_words(&style.head, corners, style.last),
            _ => list.push_words(
                &style.gouraud_head,
                corners,
                field_pair(gouraud, style.reserved),
            ),
        };
        pushed.is_ok()
    }
}

/// How the polygons of one material are emitted: from a template command table (all but
/// the corners and the gouraud table) when nothing needs working out per polygon.
pub(crate) struct EmitStyle {
    /// The material's index (`u16::MAX` for none yet).
    material: u16,
    /// Neither lit nor mipmapped: the template holds everything.
    fast: bool,
    /// Its polygons may be drawn in parts (subdivision).
    may_split: bool,
    /// Its polygons use their GOUR tables.
    gouraud: bool,
    /// The first three words of the command of a polygon without a gouraud table (see
    /// [`CommandList::push_words`]).
    head: [u32; 3],
    /// Its last word.
    last: u32,
    /// The first three words of the command of a polygon with one.
    gouraud_head: [u32; 3],
    /// The reserved field, beside the gouraud table's address in the last word.
    reserved: u16,
}

impl EmitStyle {
    /// Its polygons' commands are the template with their corners: no gouraud tables, no
    /// parts, no light, no mipmaps.
    pub(crate) fn plain(&self) -> bool {
        self.fast && !self.gouraud && !self.may_split
    }

    const NONE: Self = Self {
        material: u16::MAX,
        fast: false,
        may_split: false,
        gouraud: false,
        head: [0; 3],
        last: 0,
        gouraud_head: [0; 3],
        reserved: 0,
    };

    pub(crate) fn of<const M: usize>(
        frame: &Frame<'_, '_, M>,
        index: u16,
        lit_frame: bool,
    ) -> Self {
        let Some(material) = frame.model.materials().get(usize::from(index)) else {
            return Self {
                material: index,
                ..Self::NONE
            };
        };
        let flags = material.flags();
        let end_codes = flags.contains(MaterialFlags::END_CODES);
        let half = flags.contains(MaterialFlags::HALF_TRANSPARENT);
        let mesh = flags.contains(MaterialFlags::SCREEN_DOORS);
        let mut flip = 0;
        if flags.contains(MaterialFlags::FLIP_H) {
            flip |= CTRL_FLIP_H;
        }
        if flags.contains(MaterialFlags::FLIP_V) {
            flip |= CTRL_FLIP_V;
        }
        let sprite = material
            .texture()
            .and_then(|t| frame.resources.textures.get(usize::from(t), end_codes))
            .map(|s| s.full);
        let table = |gouraud: bool| {
            let calc = ColorCalc::of(gouraud, half);
            match sprite {
                Some(sprite) => {
                    let color = match sprite.lut {
                        Some(_) => ColorMode::Lut16,
                        None => ColorMode::Rgb,
                    };
                    let mode = DrawMode::new(color, calc, mesh, end_codes);
                    CommandTable::distorted_sprite(&sprite, [Point::default(); 4], mode, flip)
                }
                None => {
                    let mode = DrawMode::new(ColorMode::Rgb, calc, mesh, end_codes);
                    let color = rgb555(material.color(), None);
                    CommandTable::polygon(color, [Point::default(); 4], mode)
                }
            }
        };
        let (plain, gouraud) = (table(false), table(true));
        let head = |table: &CommandTable| {
            let words = table.as_words();
            [words[0], words[1], words[2]]
        };
        Self {
            material: index,
            fast: !(flags.contains(MaterialFlags::MIPMAPS)
                || lit_frame && flags.contains(MaterialFlags::LIGHT)),
            may_split: flags.contains(MaterialFlags::SUBDIVISION)
                || flags.contains(MaterialFlags::SUBDIVISION_NEAR),
            gouraud: flags.contains(MaterialFlags::GOURAUD),
            head: head(&plain),
            last: plain.as_words()[7],
            gouraud_head: head(&gouraud),
            reserved: gouraud.reserved,
        }
    }
}

/// What [`Frame::cull_plain_run`] needs: the material and the eye of its polygons.
pub(crate) struct PlainCull {
    pub(crate) material: u16,
    pub(crate) eye: super::transforms::Eye,
    /// The points the eye's matrix moves.
    pub(crate) owned: Range<u32>,
    pub(crate) depth_factor: u32,
}

/// What a run of [`Frame::cull_plain_run`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlainRun {
    /// Polygons gone through from the start of the range.
    pub(crate) done: usize,
    /// Of them, those visible (their keys written) and those culled.
    pub(crate) visible: usize,
    pub(crate) culled: usize,
    /// The depth of the last one gone through.
    pub(crate) last_depth: i32,
}

impl<const M: usize> Frame<'_, '_, M> {
    /// Culls the polygons of `range` from its start while they are of `plain`'s material
    /// (a [`plain`](CullStyle::plain) one), their first corner is moved by the eye's
    /// matrix, and, if facing the eye, they are wholly in front of the near plane: the
    /// common case, in a loop with nothing else in it. Writes the keys of the visible ones
    /// after `culled.visible` and counts them; gives how many polygons it went through and
    /// the depth of the last.
    // On a Saturn only the tests run the Rust version (against the assembly).
    #[cfg_attr(
        all(jom_sh2, not(feature = "soft-divide"), not(feature = "selftest")),
        allow(dead_code)
    )]
    pub(crate) fn cull_plain_run_reference(
        &self,
        plain: &PlainCull,
        range: Range<usize>,
        keys: &mut [SortKey],
    ) -> PlainRun {
        let (polygons, materials) = (self.model.polygons(), self.model.polygon_materials());
        let (points, model_points) = (self.points, self.model.points());
        let (near, far) = (self.camera.near, self.camera.far);
        let (half_w, half_h) = (self.camera.width as i16 / 2, self.camera.height as i16 / 2);
        let [ex, ey, ez] = plain.eye.position;
        let mut run = PlainRun::default();
        for index in range {
            if materials[index].get() != plain.material {
                break;
            }
            let polygon = &polygons[index];
            let [ia, ib, ic, id] = polygon.corners();
            if !plain.owned.contains(&u32::from(ia)) {
                break;
            }
            let [nx, ny, nz] = polygon.normal().raw();
            let [px, py, pz] = model_points[usize::from(ia)].raw();
            let towards = i64::from(nx) * i64::from(px.saturating_sub(ex))
                + i64::from(ny) * i64::from(py.saturating_sub(ey))
                + i64::from(nz) * i64::from(pz.saturating_sub(ez));
            let a = &points[usize::from(ia)];
            let b = &points[usize::from(ib)];
            let c = &points[usize::from(ic)];
            let d = &points[usize::from(id)];
            let (za, zb, zc, zd) = (a.view[2], b.view[2], c.view[2], d.view[2]);
            let facing = towards != 0 && (towards < 0) != plain.eye.mirrored;
            if facing && (za < near || zb < near || zc < near || zd < near) {
                break;
            }
            let depth = (za >> 2) + (zb >> 2) + (zc >> 2) + (zd >> 2);
            let shown = facing
                && (za <= far || zb <= far || zc <= far || zd <= far)
                && on_screen([a.screen, b.screen, c.screen, d.screen], half_w, half_h);
            if shown && run.visible == keys.len() {
                break;
            }
            run.done += 1;
            run.last_depth = depth;
            if !shown {
                run.culled += 1;
                continue;
            }
            keys[run.visible] = sort_key(quantized_depth(depth, plain.depth_factor), index);
            run.visible += 1;
        }
        run
    }

    /// Culls the polygons of `range` from its start while they stay in the common case
    /// (see `cull_plain_run_reference`, the Rust version used off a Saturn), writing the
    /// keys of the visible ones to `keys` from its start; on a Saturn the SH-2 assembly of
    /// [`hw::cull`](crate::hw).
    pub(crate) fn cull_plain_run(
        &self,
        plain: &PlainCull,
        range: Range<usize>,
        keys: &mut [SortKey],
    ) -> PlainRun {
        #[cfg(all(jom_sh2, not(feature = "soft-divide")))]
        return crate::hw::cull::cull_plain_run(
            self.model,
            self.points,
            self.camera,
            plain,
            range,
            keys,
        );
        #[cfg(not(all(jom_sh2, not(feature = "soft-divide"))))]
        self.cull_plain_run_reference(plain, range, keys)
    }
}

/// Whether screen corners are not all off the same side of a `2 half_w` x `2 half_h`
/// screen centred on the origin.
#[inline(always)]
fn on_screen(corners: [Point; 4], half_w: i16, half_h: i16) -> bool {
    let all =
        |beyond: fn(&Point, i16, i16) -> bool| corners.iter().all(|p| beyond(p, half_w, half_h));
    !(all(|p, w, _| p.x < -w)
        || all(|p, w, _| p.x > w)
        || all(|p, _, h| p.y < -h)
        || all(|p, _, h| p.y > h))
}

/// A depth brought into 16 bits (see [`depth_factor`]); 0 for those at or behind the eye.
#[inline(always)]
fn quantized_depth(depth: i32, depth_factor: u32) -> u32 {
    match depth {
        ..=0 => 0,
        _ => ((u64::from(depth as u32) * u64::from(depth_factor)) >> 32).min(0xFFFF) as u32,
    }
}

/// What culling and sorting need of a material.
#[derive(Clone, Copy)]
struct CullStyle {
    /// The material's index (`u16::MAX` for none yet).
    material: u16,
    sort_mode: SortMode,
    dual: bool,
    may_split: bool,
}

impl CullStyle {
    /// Its polygons are culled by their normal and sorted by their centre
    /// ([`Frame::cull_plain_run`]).
    fn plain(&self) -> bool {
        self.sort_mode == SortMode::Center && !self.dual && !self.may_split
    }

    fn of(model: &Model<'_>, index: u16) -> Self {
        let flags = model
            .materials()
            .get(usize::from(index))
            .map_or(MaterialFlags::default(), Material::flags);
        Self {
            material: index,
            sort_mode: flags.sort_mode(),
            dual: flags.contains(MaterialFlags::DUAL_PLANE),
            may_split: flags.contains(MaterialFlags::SUBDIVISION)
                || flags.contains(MaterialFlags::SUBDIVISION_NEAR),
        }
    }
}

/// What depths are multiplied by (then divided by 2^32) to bring those up to `far` into
/// 16 bits: a multiplication, since the SH-2 shifts by a variable amount only in a loop.
pub(crate) fn depth_factor(far: i32) -> u32 {
    ((0xFFFF_u64 << 32) / u64::from(far.max(1) as u32)).min(u64::from(u32::MAX)) as u32
}

/// Fewer polygons than this are not worth a second CPU.
const MIN_SHARED_POLYGONS: usize = 64;

/// Fills the first half of `order` with the sort keys of the visible polygons, farthest
/// first (the second half is the sort's scratch); equal depths (16 bits of depth up to the
/// far plane) keep model order, so a decal follows the face it lies on. Also gives how
/// many of them are drawn in parts. With a `worker`, each CPU culls half of the polygons.
fn sort_visible<'o, 'w, const M: usize>(
    frame: &Frame<'_, '_, M>,
    transforms: &Transforms,
    order: &'o mut [SortKey],
    stats: &mut DrawStats,
    worker: Option<&mut (dyn Worker + 'w)>,
) -> Result<(&'o [SortKey], usize), DrawError> {
    let count = frame.model.polygons().len();
    if order.len() < 2 * count {
        return Err(DrawError::BufferTooSmall {
            buffer: "order",
            needed: 2 * count,
        });
    }
    let (keys, scratch) = order.split_at_mut(count);
    let culled = match (worker, split_point(frame.model)) {
        (Some(worker), Some(split)) => {
            let (mut first, mut second) = (Culled::default(), Culled::default());
            let (first_keys, second_keys) = (&mut *keys, &mut *scratch);
            worker.join(
                &mut || first = cull_range(frame, transforms, 0..split, first_keys, true),
                &mut || second = cull_range(frame, transforms, split..count, second_keys, true),
            );
            keys[first.visible..first.visible + second.visible]
                .copy_from_slice(&scratch[..second.visible]);
            Culled {
                visible: first.visible + second.visible,
                parts: first.parts + second.parts,
                culled: first.culled + second.culled,
            }
        }
        _ => cull_range(frame, transforms, 0..count, keys, true),
    };
    stats.culled += culled.culled;
    let visible = culled.visible;
    let sorted = radix_sort(&mut keys[..visible], &mut scratch[..visible]);
    Ok((sorted, culled.parts))
}

/// Where to cut the polygons in two for two CPUs: about half way, at a polygon that does
/// not take the depth of the one before it (so that each half starts on its own).
fn split_point(model: &Model<'_>) -> Option<usize> {
    let count = model.polygons().len();
    if count < MIN_SHARED_POLYGONS {
        return None;
    }
    (count / 2..count).find(|&index| {
        model
            .material_of(index)
            .is_none_or(|m| m.flags().sort_mode() != SortMode::Previous)
    })
}

/// What culling a range of polygons found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Culled {
    /// Sort keys written.
    pub(crate) visible: usize,
    /// Of them, polygons drawn in parts.
    pub(crate) parts: usize,
    /// Polygons culled.
    pub(crate) culled: usize,
}

/// Culls the polygons `range`, writing the sort keys of the visible ones to `keys`; with
/// `plain`, the common cases go through [`Frame::cull_plain_run`] (tests compare the two).
pub(crate) fn cull_range<const M: usize>(
    frame: &Frame<'_, '_, M>,
    transforms: &Transforms,
    range: Range<usize>,
    keys: &mut [SortKey],
    plain: bool,
) -> Culled {
    let (model, camera, points) = (frame.model, frame.camera, frame.points);
    let depth_factor = depth_factor(camera.far);
    let (near, far) = (camera.near, camera.far);
    let (half_w, half_h) = (camera.width as i16 / 2, camera.height as i16 / 2);
    let mut culled = Culled::default();
    let mut previous_depth = 0;
    let mut style = CullStyle {
        material: u16::MAX,
        sort_mode: SortMode::Center,
        dual: false,
        may_split: false,
    };
    let (polygons, materials) = (model.polygons(), model.polygon_materials());
    let model_points = model.points();
    // Written out in one loop, tests inline: the SH-2 code generator does not inline
    // helpers reliably, and this runs once per polygon.
    for (run, matrix) in transforms.polygon_runs(range.end) {
        let run = run.start.max(range.start)..run.end;
        let eye = transforms.eyes[matrix];
        let owned = transforms.owned_points[matrix].clone();
        let mut next = run.start;
        while next < run.end {
            let index = next;
            next += 1;
            let polygon = &polygons[index];
            let material = materials[index].get();
            if material != style.material {
                style = CullStyle::of(model, material);
            }
            if let (Some(eye), true) = (eye, plain && style.plain()) {
                let plain = PlainCull {
                    material,
                    eye,
                    owned: owned.clone(),
                    depth_factor,
                };
                let done =
                    frame.cull_plain_run(&plain, index..run.end, &mut keys[culled.visible..]);
                if done.done > 0 {
                    culled.visible += done.visible;
                    culled.culled += done.culled;
                    previous_depth = done.last_depth;
                    next = index + done.done;
                    continue;
                }
            }
            let [ia, ib, ic, id] = polygon.corners();
            let a = &points[usize::from(ia)];
            let b = &points[usize::from(ib)];
            let c = &points[usize::from(ic)];
            let d = &points[usize::from(id)];
            let (za, zb, zc, zd) = (a.view[2], b.view[2], c.view[2], d.view[2]);
            let depth = match style.sort_mode {
                SortMode::Center => (za >> 2) + (zb >> 2) + (zc >> 2) + (zd >> 2),
                SortMode::Min => za.min(zb).min(zc.min(zd)),
                SortMode::Max => za.max(zb).max(zc.max(zd)),
                SortMode::Previous => previous_depth,
            };
            previous_depth = depth;
            // Back facing: the normal points away from the eye (see `Eye`).
            let facing = style.dual
                || match eye {
                    Some(eye) if owned.contains(&u32::from(ia)) => {
                        let [nx, ny, nz] = polygon.normal().raw();
                        let [px, py, pz] = model_points[usize::from(ia)].raw();
                        let [ex, ey, ez] = eye.position;
                        let towards = i64::from(nx) * i64::from(px.saturating_sub(ex))
                            + i64::from(ny) * i64::from(py.saturating_sub(ey))
                            + i64::from(nz) * i64::from(pz.saturating_sub(ez));
                        towards != 0 && (towards < 0) != eye.mirrored
                    }
                    _ => {
                        let normal = transforms.matrices[matrix].rotate(polygon.normal().raw());
                        dot(normal, a.view) < 0
                    }
                };
            let shown = facing
                && if za >= near && zb >= near && zc >= near && zd >= near {
                    (za <= far || zb <= far || zc <= far || zd <= far)
                        && on_screen([a.screen, b.screen, c.screen, d.screen], half_w, half_h)
                } else {
                    // Partly behind the near plane: drawn clipped to it (or in parts).
                    za >= near || zb >= near || zc >= near || zd >= near
                };
            if !shown {
                culled.culled += 1;
                continue;
            }
            if style.may_split && frame.in_parts(index) {
                culled.parts += 1;
            }
            keys[culled.visible] = sort_key(quantized_depth(depth, depth_factor), index);
            culled.visible += 1;
        }
    }
    culled
}

/// Sorts sort keys by their high 16 bits (the depth), keeping the order of equal ones:
/// a least-significant-digit radix sort, a byte a pass, between `keys` and `scratch` (as
/// long). Gives the sorted keys: in `keys` or in `scratch`, wherever the last pass left
/// them (a copy back costs as much as a pass).
pub(crate) fn radix_sort<'k>(keys: &'k mut [SortKey], scratch: &'k mut [SortKey]) -> &'k [SortKey] {
    let mut counts = [[0u32; 256]; 2];
    count_bytes(keys, &mut counts);
    // A byte all keys share would not move them: its pass is left out.
    let [low, high] = counts.map(|c| !c.iter().any(|&n| n as usize == keys.len()));
    let [mut low_counts, mut high_counts] = counts;
    match (low, high) {
        (true, true) => {
            scatter(keys, scratch, &mut low_counts, 16);
            scatter(scratch, keys, &mut high_counts, 24);
            keys
        }
        (true, false) => {
            scatter(keys, scratch, &mut low_counts, 16);
            scratch
        }
        (false, true) => {
            scatter(keys, scratch, &mut high_counts, 24);
            scratch
        }
        (false, false) => keys,
    }
}

/// Counts byte 2 (`counts[0]`) and byte 3 (`counts[1]`) of the keys: on a Saturn by the SH-2
/// assembly of [`hw::sort`](crate::hw).
fn count_bytes(keys: &[SortKey], counts: &mut [[u32; 256]; 2]) {
    #[cfg(all(jom_sh2, not(feature = "soft-divide")))]
    crate::hw::sort::count_bytes(keys, counts);
    #[cfg(not(all(jom_sh2, not(feature = "soft-divide"))))]
    count_bytes_reference(keys, counts);
}

/// The Rust version of [`count_bytes`].
#[cfg_attr(
    all(jom_sh2, not(feature = "soft-divide"), not(feature = "selftest")),
    allow(dead_code)
)]
pub(crate) fn count_bytes_reference(keys: &[SortKey], counts: &mut [[u32; 256]; 2]) {
    for &key in keys {
        counts[0][(key >> 16 & 0xFF) as usize] += 1;
        counts[1][(key >> 24) as usize] += 1;
    }
}

/// One pass of [`radix_sort`]: `from` into `to` in the order of the byte at `shift`, whose
/// values are counted in `counts`.
fn scatter(from: &[SortKey], to: &mut [SortKey], counts: &mut [u32; 256], shift: u32) {
    let mut next = 0;
    for count in counts.iter_mut() {
        let here = *count;
        *count = next;
        next += here;
    }
    #[cfg(all(jom_sh2, not(feature = "soft-divide")))]
    crate::hw::sort::scatter(from, to, counts, shift);
    #[cfg(not(all(jom_sh2, not(feature = "soft-divide"))))]
    scatter_reference(from, to, counts, shift);
}

/// The Rust version of the loop of [`scatter`], from the slots (the counts' prefix sums).
#[cfg_attr(
    all(jom_sh2, not(feature = "soft-divide"), not(feature = "selftest")),
    allow(dead_code)
)]
pub(crate) fn scatter_reference(
    from: &[SortKey],
    to: &mut [SortKey],
    slots: &mut [u32; 256],
    shift: u32,
) {
    for &key in from {
        let slot = &mut slots[(key >> shift & 0xFF) as usize];
        to[*slot as usize] = key;
        *slot += 1;
    }
}

/// The screen corners of a polygon: the projected points, except that a corner behind the
/// near plane is moved onto it along the edge to a neighbour in front. `screen` holds the
/// projections already made (the points of the model), `None` for points made here.
fn screen_corners(view: &[Vec3; 4], screen: &[Option<Point>; 4], camera: &Camera) -> [Point; 4] {
    core::array::from_fn(|i| {
        let p = view[i];
        if p[2] >= camera.near {
            return screen[i].unwrap_or_else(|| project(p, camera));
        }
        let neighbour = [(i + 1) % 4, (i + 3) % 4, (i + 2) % 4]
            .into_iter()
            .map(|j| view[j])
            .find(|q| q[2] >= camera.near);
        match neighbour {
            Some(q) => {
                let t = super::ratio(camera.near - p[2], q[2] - p[2]);
                let on_plane = core::array::from_fn(|k| p[k] + mul(q[k] - p[k], t));
                project(on_plane, camera)
            }
            None => project(p, camera),
        }
    })
}

/// The distortion in pixels over which a `jo_subdivision 1` polygon is drawn in parts
/// when its material says 0 (`jo_3d_set_texture_subdivision_error`'s default here).
pub const DEFAULT_SUBDIVISION_ERROR: i32 = 4;

/// Whether a polygon is drawn in 4 parts: `jo_subdivision 2` when it crosses the near
/// plane, `jo_subdivision 1` also when its texture would be visibly distorted: the 3D
/// centre projects more than the material's `subdivision_error` pixels away from the
/// centre of the projected corners (the VDP1 maps textures without perspective). A
/// textured polygon is split only when its texture has quarters in VRAM.
fn drawn_in_parts<const M: usize>(
    material: &Material,
    resources: &ModelVram<'_, M>,
    corners: &[Vec3; 4],
    screen: &[Point; 4],
    camera: &Camera,
) -> bool {
    let flags = material.flags();
    let near_only = flags.contains(MaterialFlags::SUBDIVISION_NEAR);
    if !near_only && !flags.contains(MaterialFlags::SUBDIVISION) {
        return false;
    }
    if let Some(texture) = material.texture() {
        let sprites = resources.textures.get(
            usize::from(texture),
            flags.contains(MaterialFlags::END_CODES),
        );
        if sprites.is_none_or(|s| s.quarters.is_none()) {
            return false;
        }
    }
    if corners.iter().any(|c| c[2] < camera.near) {
        return true;
    }
    if near_only {
        return false;
    }
    let centre = project(average(corners), camera);
    let corners_x = screen.iter().map(|p| i32::from(p.x)).sum::<i32>() / 4;
    let corners_y = screen.iter().map(|p| i32::from(p.y)).sum::<i32>() / 4;
    let error = (i32::from(centre.x) - corners_x)
        .abs()
        .max((i32::from(centre.y) - corners_y).abs());
    let allowed = match material.subdivision_error() {
        0 => DEFAULT_SUBDIVISION_ERROR,
        e => i32::from(e),
    };
    error > allowed
}

fn average(points: &[Vec3; 4]) -> Vec3 {
    core::array::from_fn(|k| points.iter().map(|p| p[k] >> 2).sum())
}

fn midpoint(a: Vec3, b: Vec3) -> Vec3 {
    core::array::from_fn(|k| (a[k] >> 1) + (b[k] >> 1))
}

/// The 4 parts of a quad A, B, C, D, each in the same order (its own A at the top left of
/// its quarter of the texture): the parts at A, B, C and D.
fn parts(corners: &[Vec3; 4]) -> [[Vec3; 4]; 4] {
    let [a, b, c, d] = *corners;
    let (ab, bc, cd, da) = (
        midpoint(a, b),
        midpoint(b, c),
        midpoint(c, d),
        midpoint(d, a),
    );
    let centre = average(corners);
    [
        [a, ab, centre, da],
        [ab, b, bc, centre],
        [centre, bc, c, cd],
        [da, centre, cd, d],
    ]
}

/// Which polygon to emit, whether in parts, and the camera-space matrix of its normals.
#[derive(Clone, Copy, Debug)]
struct Emit<'t> {
    index: usize,
    in_parts: bool,
    matrix: &'t Matrix,
}

#[allow(clippy::too_many_arguments)]
fn emit<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
    camera: &Camera,
    light: Option<(Vec3, i32)>,
    points: &[ViewPoint],
    polygon: Emit<'_>,
) -> Result<(), DrawError> {
    let index = polygon.index;
    let Some((corners, material)) = model.polygons().get(index).zip(model.material_of(index))
    else {
        return Ok(());
    };
    let flags = material.flags();
    let light = light.filter(|_| flags.contains(MaterialFlags::LIGHT));
    let lighting = light.map(|(direction, ambient)| {
        let level = |normal: Vec3| light_level(polygon.matrix.rotate(normal), direction, ambient);
        match corner_normals(model, index) {
            Some(normals) => Lighting::Corners(normals.map(level)),
            None => Lighting::Flat(level(corners.normal().raw())),
        }
    });
    let textured = material.texture().is_some();
    let gouraud = gouraud_address(list, model, resources, index, flags, lighting, textured)?;
    let level = match lighting {
        Some(Lighting::Flat(level)) => Some(level),
        _ => None,
    };
    let mode = |color| {
        DrawMode::new(
            color,
            ColorCalc::of(
                gouraud.is_some(),
                flags.contains(MaterialFlags::HALF_TRANSPARENT),
            ),
            flags.contains(MaterialFlags::SCREEN_DOORS),
            flags.contains(MaterialFlags::END_CODES),
        )
    };
    let mut flip = 0;
    if flags.contains(MaterialFlags::FLIP_H) {
        flip |= CTRL_FLIP_H;
    }
    if flags.contains(MaterialFlags::FLIP_V) {
        flip |= CTRL_FLIP_V;
    }
    let sprites = material.texture().and_then(|t| {
        resources
            .textures
            .get(usize::from(t), flags.contains(MaterialFlags::END_CODES))
    });
    let color = rgb555(
        material.color(),
        if gouraud.is_none() { level } else { None },
    );
    let table = |corners: [Point; 4], sprite: Option<Sprite>| {
        let table = match sprite {
            Some(sprite) => {
                let color = if sprite.lut.is_some() {
                    ColorMode::Lut16
                } else {
                    ColorMode::Rgb
                };
                CommandTable::distorted_sprite(&sprite, corners, mode(color), flip)
            }
            None => CommandTable::polygon(color, corners, mode(ColorMode::Rgb)),
        };
        gouraud.map_or(table, |address| table.with_gouraud(address))
    };

    let view = corners.corners().map(|c| points[usize::from(c)].view);
    if !polygon.in_parts {
        let screen = corners
            .corners()
            .map(|c| Some(points[usize::from(c)].screen));
        let corners = screen_corners(&view, &screen, camera);
        let sprite =
            sprites.map(|s| choose_level(s, &corners, flags.contains(MaterialFlags::MIPMAPS)));
        return list.push(table(corners, sprite));
    }
    // Parts at A, B, C, D show the texture's quarters at those corners, or, when the
    // texture is flipped, the quarters mirrored into them.
    let mirror = usize::from(flags.contains(MaterialFlags::FLIP_H))
        | usize::from(flags.contains(MaterialFlags::FLIP_V)) << 1;
    const QUARTER_AT: [(usize, usize); 4] = [(0, 0), (1, 0), (1, 1), (0, 1)];
    for (part, part_view) in parts(&view).iter().enumerate() {
        if part_view.iter().all(|c| c[2] < camera.near) {
            continue;
        }
        let screen = [None; 4];
        let corners = screen_corners(part_view, &screen, camera);
        let (x, y) = QUARTER_AT[part];
        let (x, y) = (x ^ (mirror & 1), y ^ (mirror >> 1));
        let quarter = QUARTER_AT.iter().position(|&q| q == (x, y)).unwrap_or(part);
        let sprite = sprites.and_then(|s| s.quarters).map(|q| q[quarter]);
        list.push(table(corners, sprite))?;
    }
    Ok(())
}

/// How the light falls on a polygon: one level (Q16.16, 0 to 1) for the face, or one per
/// corner from the corner normals (NTAB, CNRM).
#[derive(Clone, Copy, Debug)]
enum Lighting {
    Flat(i32),
    Corners([i32; 4]),
}

/// The NTAB normals of the corners of polygon `index`, when the model has them.
fn corner_normals(model: &Model<'_>, index: usize) -> Option<[Vec3; 4]> {
    let (normals, corners) = (model.normals()?, model.corner_normals()?);
    let corners = corners.get(4 * index..4 * index + 4)?;
    let mut out = [[0; 3]; 4];
    for (normal, corner) in out.iter_mut().zip(corners) {
        *normal = normals.get(usize::from(corner.get()))?.raw();
    }
    Some(out)
}

/// Channel 16 on every channel: a gouraud colour that leaves a pixel as it is.
const NEUTRAL: u16 = 0x8000 | 16 << 10 | 16 << 5 | 16;

/// The gouraud table of a polygon: its GOUR table, or one made for this frame when the
/// light shades it: the GOUR colours (or neutral ones) darkened by the light of each corner
/// (corner normals) or of the face (for a texture: a flat face on a colour is darkened in
/// the colour itself).
#[allow(clippy::too_many_arguments)]
fn gouraud_address<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
    index: usize,
    flags: MaterialFlags,
    lighting: Option<Lighting>,
    textured: bool,
) -> Result<Option<u32>, DrawError> {
    let table = resources
        .gouraud
        .get(index)
        .copied()
        .filter(|&t| t != 0 && flags.contains(MaterialFlags::GOURAUD));
    let colors = || {
        let gour = table
            .and_then(|_| model.gouraud())
            .and_then(|g| g.get(4 * index..4 * index + 4));
        GouraudTable(core::array::from_fn(|i| {
            gour.map_or(NEUTRAL, |c| c[i].get().0)
        }))
    };
    Ok(match (table, lighting) {
        (Some(table), None) => Some(u32::from(table) << 3),
        (_, Some(Lighting::Corners(levels))) => {
            Some(list.push_gouraud(scale_gouraud(colors(), levels))?)
        }
        (Some(_), Some(Lighting::Flat(level))) => {
            Some(list.push_gouraud(scale_gouraud(colors(), [level; 4]))?)
        }
        (None, Some(Lighting::Flat(level))) if textured => {
            Some(list.push_gouraud(GouraudTable::uniform(((16 * level) >> 16) as u16))?)
        }
        _ => None,
    })
}

/// The light a face gets: the ambient part plus the rest times the cosine between its
/// normal and the light coming at it (Q16.16, 0 to 1).
fn light_level(normal: Vec3, direction: Vec3, ambient: i32) -> i32 {
    let facing = (-dot(normal, direction)).clamp(0, ONE);
    (ambient + mul(ONE - ambient, facing)).clamp(0, ONE)
}

/// A material colour (8 bits a channel) as RGB555, darkened by a light level.
fn rgb555(color: [u8; 3], level: Option<i32>) -> u16 {
    let [r, g, b] = color.map(|c| {
        let c = u16::from(c >> 3);
        level.map_or(c, |l| ((i32::from(c) * l) >> 16) as u16)
    });
    0x8000 | b << 10 | g << 5 | r
}

/// Gouraud colours darkened by the light level of each corner.
fn scale_gouraud(table: GouraudTable, levels: [i32; 4]) -> GouraudTable {
    GouraudTable(core::array::from_fn(|corner| {
        let (c, level) = (table.0[corner], levels[corner]);
        let channel = |shift: u16| ((((i32::from(c >> shift) & 31) * level) >> 16) as u16) << shift;
        0x8000 | channel(10) | channel(5) | channel(0)
    }))
}

/// The full texture, or a mipmap when the polygon is drawn at half or a quarter of its
/// size or less.
fn choose_level(sprites: &crate::vdp1::SpriteSet, corners: &[Point; 4], mipmaps: bool) -> Sprite {
    if !mipmaps {
        return sprites.full;
    }
    let extent = |f: fn(&Point) -> i16| {
        let values = corners.map(|p| i32::from(f(&p)));
        values.iter().max().unwrap_or(&0) - values.iter().min().unwrap_or(&0)
    };
    let size = extent(|p| p.x).max(extent(|p| p.y));
    let width = i32::from(sprites.full.width);
    match sprites.mipmaps {
        [_, Some(quarter)] if 4 * size <= width => quarter,
        [Some(half), _] if 2 * size <= width => half,
        _ => sprites.full,
    }
}
