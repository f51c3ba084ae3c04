//! Drawing a model: each point transformed and projected once, then each polygon culled
//! (behind the camera, past the far plane, back facing, off screen), given a depth by its
//! material's sort mode, and emitted back to front as a VDP1 command with every material
//! flag applied.

use super::{Camera, CommandList, DrawError};
use crate::format::{Material, MaterialFlags, Model, SortMode};
use crate::math::{dot, mul, Matrix, Vec3, ONE};
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

fn sort_key(depth: i32, polygon: usize) -> SortKey {
    let biased = (depth as u32) ^ 0x8000_0000;
    u64::from(biased) << 32 | u64::from(0xFFFF - polygon as u32)
}

fn polygon_of(key: SortKey) -> usize {
    0xFFFF - (key & 0xFFFF) as usize
}

/// What [`draw`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Polygons emitted.
    pub drawn: usize,
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
    let view = camera.view();
    let model_view = view.then(transform);
    let points =
        buffers
            .points
            .get_mut(..model.points().len())
            .ok_or(DrawError::BufferTooSmall {
                buffer: "points",
                needed: model.points().len(),
            })?;
    for (out, point) in points.iter_mut().zip(model.points()) {
        let p = model_view.apply(point.raw());
        *out = ViewPoint {
            view: p,
            screen: project(p, camera),
        };
    }
    let light_view = light.map(|l| (view.rotate(l.direction), l.ambient));
    let mut stats = DrawStats::default();
    let order = sort_visible(
        model,
        &model_view,
        camera,
        points,
        buffers.order,
        &mut stats,
    )?;
    let skip = order.len().saturating_sub(list.room());
    stats.dropped = skip;
    for &key in &order[skip..] {
        emit(
            list,
            model,
            resources,
            &model_view,
            camera,
            light_view,
            points,
            polygon_of(key),
        )?;
        stats.drawn += 1;
    }
    Ok(stats)
}

/// The screen position of a camera-space point (clamped when it is near or behind the
/// eye: such points are moved onto the near plane before use).
fn project(p: Vec3, camera: &Camera) -> Point {
    let z = i64::from(p[2].max(camera.near).max(1));
    let scale = (i64::from(camera.focal_length) << 32) / z;
    let axis = |v: i32| {
        ((i64::from(v) * scale) >> 32).clamp(-i64::from(SCREEN_LIMIT), i64::from(SCREEN_LIMIT))
            as i16
    };
    Point::new(axis(p[0]), axis(p[1]))
}

/// Fills `order` with the sort keys of the visible polygons, farthest first; equal depths
/// keep model order, so a decal follows the face it lies on.
fn sort_visible<'o>(
    model: &Model<'_>,
    model_view: &Matrix,
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
    for (index, polygon) in model.polygons().iter().enumerate() {
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
            model_view,
            camera,
            dual,
            points,
            polygon.corners(),
        ) {
            stats.culled += 1;
            continue;
        }
        order[visible] = sort_key(depth, index);
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

/// The screen corners of a polygon, with the corners behind the near plane moved onto it
/// along the edge to a neighbour in front.
fn screen_corners(points: &[ViewPoint], indexes: [u16; 4], camera: &Camera) -> [Point; 4] {
    let view = indexes.map(|i| points[usize::from(i)].view);
    core::array::from_fn(|i| {
        let p = view[i];
        if p[2] >= camera.near {
            return points[usize::from(indexes[i])].screen;
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

#[allow(clippy::too_many_arguments)]
fn emit<const C: usize, const G: usize, const M: usize>(
    list: &mut CommandList<C, G>,
    model: &Model<'_>,
    resources: &ModelVram<'_, M>,
    model_view: &Matrix,
    camera: &Camera,
    light: Option<(Vec3, i32)>,
    points: &[ViewPoint],
    index: usize,
) -> Result<(), DrawError> {
    let polygon = &model.polygons()[index];
    let Some(material) = model.material_of(index) else {
        return Ok(());
    };
    let flags = material.flags();
    let corners = screen_corners(points, polygon.corners(), camera);
    let level =
        light
            .filter(|_| flags.contains(MaterialFlags::LIGHT))
            .map(|(direction, ambient)| {
                light_level(
                    model_view.rotate(polygon.normal().raw()),
                    direction,
                    ambient,
                )
            });
    let gouraud_table = resources
        .gouraud
        .get(index)
        .copied()
        .filter(|&t| t != 0 && flags.contains(MaterialFlags::GOURAUD));
    let gouraud = match (gouraud_table, level) {
        (Some(table), None) => Some(u32::from(table) << 3),
        (Some(_), Some(level)) => {
            let colors = model
                .gouraud()
                .and_then(|g| g.get(4 * index..4 * index + 4));
            let table = GouraudTable(core::array::from_fn(|i| {
                colors.map_or(0x8000 | 16 << 10 | 16 << 5 | 16, |c| c[i].get().0)
            }));
            Some(list.push_gouraud(scale_gouraud(table, level))?)
        }
        (None, Some(level)) if material.texture().is_some() => {
            Some(list.push_gouraud(GouraudTable::uniform(((16 * level) >> 16) as u16))?)
        }
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
    let sprites = material.texture().and_then(|t| {
        resources
            .textures
            .get(usize::from(t), flags.contains(MaterialFlags::END_CODES))
    });
    let table = match sprites {
        Some(sprites) => {
            let sprite = choose_level(sprites, &corners, flags.contains(MaterialFlags::MIPMAPS));
            let color = if sprite.lut.is_some() {
                ColorMode::Lut16
            } else {
                ColorMode::Rgb
            };
            let mut flip = 0;
            if flags.contains(MaterialFlags::FLIP_H) {
                flip |= CTRL_FLIP_H;
            }
            if flags.contains(MaterialFlags::FLIP_V) {
                flip |= CTRL_FLIP_V;
            }
            CommandTable::distorted_sprite(&sprite, corners, mode(color), flip)
        }
        None => {
            let color = rgb555(
                material.color(),
                if gouraud.is_none() { level } else { None },
            );
            CommandTable::polygon(color, corners, mode(ColorMode::Rgb))
        }
    };
    list.push(gouraud.map_or(table, |address| table.with_gouraud(address)))
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

/// Gouraud colours darkened by a light level.
fn scale_gouraud(table: GouraudTable, level: i32) -> GouraudTable {
    GouraudTable(table.0.map(|c| {
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
