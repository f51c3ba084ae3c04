//! Drawing a model: each point transformed and projected once, then each polygon culled
//! (behind the camera, past the far plane, back facing, off screen), given a depth by its
//! material's sort mode, and emitted back to front as a VDP1 command with every material
//! flag applied.

use super::transforms::Transforms;
use super::{Camera, CommandList, DrawError};
use crate::format::{Material, MaterialFlags, Model, SortMode};
use crate::math::{div_64_32, dot, mul, Matrix, Vec3, ONE};
use crate::vdp1::{
    ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, ModelTextures, Point, Sprite,
    CTRL_FLIP_H, CTRL_FLIP_V,
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

/// A point after the transform: camera space and screen position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewPoint {
    /// Camera space (Q16.16).
    pub view: Vec3,
    /// Screen position relative to the centre (valid when in front of the near plane).
    pub screen: Point,
}

/// Work space of [`draw`], provided by the caller (no allocation): one [`ViewPoint`] per
/// point and one sort key per polygon of the largest model drawn.
pub struct DrawBuffers<'b> {
    /// One per point.
    pub points: &'b mut [ViewPoint],
    /// One per polygon: its depth and index packed in a [`SortKey`].
    pub order: &'b mut [SortKey],
}

/// A polygon's depth and index in one integer, so that sorting them is sorting integers:
/// the biased depth in the high 32 bits, then the index complemented (ties: lower index
/// drawn first). (Sorting a slice of tuples also hits a missing piece of the SH-2 code
/// generator: see ci/patches.)
pub type SortKey = u64;

fn sort_key(depth: i32, polygon: usize, in_parts: bool, matrix: usize) -> SortKey {
    let biased = (depth as u32) ^ 0x8000_0000;
    u64::from(biased) << 32
        | (matrix as u64) << MATRIX_SHIFT
        | u64::from(in_parts) << PARTS_BIT
        | u64::from(0xFFFF - polygon as u32)
}

/// Bits 17-22 of a [`SortKey`]: the polygon's matrix (0 to 32).
const MATRIX_SHIFT: u32 = 17;

fn matrix_of(key: SortKey) -> usize {
    (key >> MATRIX_SHIFT & 0x3F) as usize
}

/// The bit of a [`SortKey`] that says the polygon is drawn in 4 parts.
const PARTS_BIT: u32 = 16;

fn polygon_of(key: SortKey) -> usize {
    0xFFFF - (key & 0xFFFF) as usize
}

fn in_parts(key: SortKey) -> bool {
    key >> PARTS_BIT & 1 == 1
}

/// The command tables a polygon takes.
fn tables_of(key: SortKey) -> usize {
    if in_parts(key) {
        4
    } else {
        1
    }
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
/// let (mut points, mut order) = ([ViewPoint::default(); 6], [0; 3]);
/// let mut buffers = DrawBuffers { points: &mut points, order: &mut order };
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
        &mut || 0,
    )
    .map(|(stats, _)| stats)
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
    for ((out, point), matrix) in points
        .iter_mut()
        .zip(model.points())
        .zip(transforms.point_matrices())
    {
        let p = transforms.matrices[matrix].apply(point.raw());
        *out = ViewPoint {
            view: p,
            screen: project(p, camera),
        };
    }
    let transformed = clock();
    let view = camera.view();
    let light_view = light.map(|l| (view.rotate(l.direction), l.ambient));
    let mut stats = DrawStats::default();
    let order = sort_visible(
        model,
        resources,
        transforms,
        camera,
        points,
        buffers.order,
        &mut stats,
    )?;
    let sorted = clock();
    // Farthest first; when the list is short of room the farthest are left out.
    let mut room = list.room();
    let mut keep = 0;
    for &key in order.iter().rev() {
        let Some(left) = room.checked_sub(tables_of(key)) else {
            break;
        };
        room = left;
        keep += 1;
    }
    let skip = order.len() - keep;
    stats.dropped = skip;
    for &key in &order[skip..] {
        let polygon = Emit {
            index: polygon_of(key),
            in_parts: in_parts(key),
            matrix: &transforms.matrices[matrix_of(key)],
        };
        let before = list.commands().len();
        emit(list, model, resources, camera, light_view, points, polygon)?;
        stats.drawn += 1;
        stats.commands += list.commands().len() - before;
    }
    let emitted = clock();
    let times = PhaseTimes {
        transform: transformed.wrapping_sub(start),
        sort: sorted.wrapping_sub(transformed),
        emit: emitted.wrapping_sub(sorted),
    };
    Ok((stats, times))
}

/// The screen position of a camera-space point (clamped when it is near or behind the
/// eye: such points are moved onto the near plane before use).
fn project(p: Vec3, camera: &Camera) -> Point {
    // Nearer than 2 x focal length / 65536 units the scale would not fit in 32 bits.
    let z = p[2].max(camera.near).max(2 * camera.focal_length.abs() + 1);
    let scale = i64::from(div_64_32(i64::from(camera.focal_length) << 32, z));
    let axis = |v: i32| {
        ((i64::from(v) * scale) >> 32).clamp(-i64::from(SCREEN_LIMIT), i64::from(SCREEN_LIMIT))
            as i16
    };
    Point::new(axis(p[0]), axis(p[1]))
}

/// Fills `order` with the sort keys of the visible polygons, farthest first; equal depths
/// keep model order, so a decal follows the face it lies on.
fn sort_visible<'o, const M: usize>(
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
    transforms: &Transforms,
    camera: &Camera,
    points: &[ViewPoint],
    order: &'o mut [SortKey],
    stats: &mut DrawStats,
) -> Result<&'o mut [SortKey], DrawError> {
    let needed = model.polygons().len();
    if order.len() < needed {
        return Err(DrawError::BufferTooSmall {
            buffer: "order",
            needed,
        });
    }
    let mut visible = 0;
    let mut previous_depth = 0;
    for ((index, polygon), matrix) in model
        .polygons()
        .iter()
        .enumerate()
        .zip(transforms.polygon_matrices())
    {
        let corners = polygon.corners().map(|c| points[usize::from(c)].view);
        let material = model.material_of(index);
        let flags = material.map_or(MaterialFlags::default(), Material::flags);
        let depth = match flags.sort_mode() {
            SortMode::Center => corners.iter().map(|c| c[2] >> 2).sum(),
            SortMode::Min => corners.iter().map(|c| c[2]).min().unwrap_or(0),
            SortMode::Max => corners.iter().map(|c| c[2]).max().unwrap_or(0),
            SortMode::Previous => previous_depth,
        };
        previous_depth = depth;
        let dual = flags.contains(MaterialFlags::DUAL_PLANE);
        if !is_visible(
            &corners,
            polygon.normal().raw(),
            &transforms.matrices[matrix],
            camera,
            dual,
            points,
            polygon.corners(),
        ) {
            stats.culled += 1;
            continue;
        }
        let screen = polygon.corners().map(|c| points[usize::from(c)].screen);
        let parts =
            material.is_some_and(|m| drawn_in_parts(m, resources, &corners, &screen, camera));
        order[visible] = sort_key(depth, index, parts, matrix);
        visible += 1;
    }
    let order = &mut order[..visible];
    order.sort_unstable_by(|a, b| b.cmp(a));
    Ok(order)
}

fn is_visible(
    corners: &[Vec3; 4],
    normal: Vec3,
    model_view: &Matrix,
    camera: &Camera,
    dual: bool,
    points: &[ViewPoint],
    indexes: [u16; 4],
) -> bool {
    if corners.iter().all(|c| c[2] < camera.near) || corners.iter().all(|c| c[2] > camera.far) {
        return false;
    }
    // Back facing: the normal points away from the eye (at the origin of camera space).
    if !dual && dot(model_view.rotate(normal), corners[0]) >= 0 {
        return false;
    }
    let screen = indexes.map(|i| points[usize::from(i)].screen);
    let (half_w, half_h) = (i32::from(camera.width / 2), i32::from(camera.height / 2));
    let in_front = corners.iter().all(|c| c[2] >= camera.near);
    let outside = |f: fn(&Point) -> i32, low: i32, high: i32| {
        screen.iter().all(|p| f(p) < low) || screen.iter().all(|p| f(p) > high)
    };
    !(in_front
        && (outside(|p| i32::from(p.x), -half_w, half_w)
            || outside(|p| i32::from(p.y), -half_h, half_h)))
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
