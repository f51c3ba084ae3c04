//! Emission: each visible polygon, back to front, as a VDP1 command with its material's
//! colour or texture and flags (light, gouraud, mipmaps, subdivision in parts, corners
//! behind the near plane moved onto it). The common case (one plain material in front of
//! the near plane) is a per-material template written as eight words, SH-2 assembly on a
//! Saturn (`hw::emit`); with a second CPU each emits half of a big model.

#[cfg(jom_sh2)]
mod sh2;

use super::cull::MIN_SHARED_POLYGONS;
use super::draw::{polygon_of, DrawStats, Frame, ModelVram, Worker};
use super::list::CommandBuffer;
use super::project::project;
use super::transforms::{cofactors, stretched_normal, Transforms};
use super::{Camera, DrawError, SortKey, ViewPoint};
use crate::format::{Material, MaterialFlags, Model};
use crate::math::{dot, mul, Matrix, Vec3, ONE};
use crate::vdp1::{
    field_pair, ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, Point, Sprite,
    CTRL_FLIP_H, CTRL_FLIP_V,
};

/// Emits the polygons of `order` (sorted, farthest first; `parts` of them drawn in parts)
/// into `list`, leaving out the farthest when it is short of room: the plain ones in runs
/// (shared with `worker` for a big model), the others one by one through [`emit`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn emit_sorted(
    frame: &Frame<'_, '_>,
    list: &mut CommandBuffer<'_>,
    transforms: &Transforms,
    light_view: Option<(Vec3, i32)>,
    order: &[SortKey],
    parts: usize,
    worker: Option<&mut (dyn Worker + '_)>,
    stats: &mut DrawStats,
) -> Result<(), DrawError> {
    let Frame {
        model,
        resources,
        camera,
        points,
    } = *frame;
    // Farthest first; when the list or the frame's gouraud tables are short of room the
    // farthest are left out. Each polygon takes at most one command and one frame gouraud
    // table, four of each in parts; without light only parts take gouraud tables.
    let (room, gouraud_room) = (list.room(), list.gouraud_room());
    let lit_frame = light_view.is_some();
    let at_most = order.len() + 3 * parts;
    let gouraud_at_most = if lit_frame || parts > 0 { at_most } else { 0 };
    let skip = if at_most <= room && gouraud_at_most <= gouraud_room {
        0
    } else {
        let (mut room, mut gouraud_room) = (room, gouraud_room);
        let kept = order
            .iter()
            .rev()
            .take_while(|&&key| {
                let index = polygon_of(key);
                let in_parts = frame.in_parts(index);
                let tables = if in_parts { 4 } else { 1 };
                let gouraud = frame.frame_gouraud_tables(index, lit_frame, in_parts);
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
    };
    stats.dropped = skip;
    let mut style = EmitStyle::NONE;
    let mut next = skip;
    if let Some(worker) = worker {
        let shared = emit_shared(frame, list, worker, &order[skip..], light_view.is_some());
        next += shared;
        stats.drawn += shared;
        stats.commands += shared;
    }
    while let Some(&key) = order.get(next) {
        let index = polygon_of(key);
        let material = model.polygon_materials()[index].get();
        if material != style.material {
            style = EmitStyle::of(frame, material, light_view.is_some());
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
                stretched: transforms.is_stretched(transforms.polygon_matrix(index)),
            };
            emit(list, model, resources, camera, light_view, points, polygon)?;
        }
        stats.drawn += 1;
        stats.commands += list.commands().len() - before;
        next += 1;
    }
    Ok(())
}

/// Emits the first half of `keys` here and the second half on `worker`, each into its own
/// half of the list's free tables, when all of them are of one plain material and in
/// front of the near plane (a big model's common case); gives how many polygons are
/// emitted, from the first: all of them, or what this CPU's half got through (the rest
/// goes through the loop of `draw_with`, which writes over what the worker left).
pub(crate) fn emit_shared(
    frame: &Frame<'_, '_>,
    list: &mut CommandBuffer<'_>,
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

impl Frame<'_, '_> {
    /// Emits the polygons of `keys` (from `sort_visible`: indexes of the model's polygons)
    /// from the start while they are of the style's material (a [`plain`](EmitStyle::plain)
    /// one) and wholly in front of the near plane, and gives how many: the common case.
    pub(crate) fn emit_plain_run(
        &self,
        list: &mut CommandBuffer<'_>,
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
            sh2::emit_plain_run(
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
        let materials = self.model.polygon_materials();
        let mut emitted = 0;
        for (&key, table) in keys.iter().zip(tables) {
            let index = polygon_of(key);
            if materials[index].get() != style.material {
                break;
            }
            let Some([w0, w1, w2, w3]) = self.corner_words_in_front(index) else {
                break;
            };
            let [h0, h1, h2] = style.head;
            *table.as_words_mut() = [h0, h1, h2, w0, w1, w2, w3, style.last];
            emitted += 1;
        }
        emitted
    }

    /// The screen positions of polygon `index`'s corners as command-table words
    /// ([`Point::word`]), when every corner is in front of the near plane.
    #[inline(always)]
    pub(crate) fn corner_words_in_front(&self, index: usize) -> Option<[u32; 4]> {
        let [ia, ib, ic, id] = self.model.polygons()[index].corners();
        let points = self.points;
        let (a, b) = (&points[usize::from(ia)], &points[usize::from(ib)]);
        let (c, d) = (&points[usize::from(ic)], &points[usize::from(id)]);
        let near = self.camera.near;
        if a.view[2] < near || b.view[2] < near || c.view[2] < near || d.view[2] < near {
            return None;
        }
        Some([
            a.screen.word(),
            b.screen.word(),
            c.screen.word(),
            d.screen.word(),
        ])
    }

    /// Emits polygon `index` from the style's template when it is wholly in front of the
    /// near plane and not drawn in parts; `false` when it needs [`emit`].
    #[inline(always)]
    pub(crate) fn emit_fast(
        &self,
        list: &mut CommandBuffer<'_>,
        style: &EmitStyle,
        index: usize,
    ) -> bool {
        let Some(corners) = self.corner_words_in_front(index) else {
            return false;
        };
        if style.may_split && self.in_parts(index) {
            return false;
        }
        let gouraud = match style.gouraud {
            true => self.resources.gouraud.get(index).copied().unwrap_or(0),
            false => 0,
        };
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

    /// The gouraud tables of the frame polygon `index` takes when emitted (whole or in
    /// parts) in a frame with or without light: what [`emit`] pushes, at most.
    pub(crate) fn frame_gouraud_tables(
        &self,
        index: usize,
        lit_frame: bool,
        in_parts: bool,
    ) -> usize {
        self.model.material_of(index).map_or(0, |material| {
            Shading::of(self.model, self.resources, index, material, lit_frame)
                .frame_tables(in_parts)
        })
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
    /// [`CommandBuffer::push_words`]).
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

    pub(crate) const NONE: Self = Self {
        material: u16::MAX,
        fast: false,
        may_split: false,
        gouraud: false,
        head: [0; 3],
        last: 0,
        gouraud_head: [0; 3],
        reserved: 0,
    };

    pub(crate) fn of(frame: &Frame<'_, '_>, index: u16, lit_frame: bool) -> Self {
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
            may_split: flags.subdivides(),
            gouraud: flags.contains(MaterialFlags::GOURAUD),
            head: head(&plain),
            last: plain.as_words()[7],
            gouraud_head: head(&gouraud),
            reserved: gouraud.reserved,
        }
    }
}

/// The screen corners of a polygon: the projected points, except that a corner behind the
/// near plane is moved onto it along the edge to a neighbour in front. `screen` holds the
/// projections already made (the points of the model), `None` for points made here.
pub(crate) fn screen_corners(
    view: &[Vec3; 4],
    screen: &[Option<Point>; 4],
    camera: &Camera,
) -> [Point; 4] {
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
pub(crate) fn drawn_in_parts(
    material: &Material,
    resources: &ModelVram<'_>,
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

pub(crate) fn average(points: &[Vec3; 4]) -> Vec3 {
    core::array::from_fn(|k| points.iter().map(|p| p[k] >> 2).sum())
}

pub(crate) fn midpoint(a: Vec3, b: Vec3) -> Vec3 {
    core::array::from_fn(|k| (a[k] >> 1) + (b[k] >> 1))
}

/// The 4 parts of a quad A, B, C, D, each in the same order (its own A at the top left of
/// its quarter of the texture): the parts at A, B, C and D.
pub(crate) fn parts(corners: &[Vec3; 4]) -> [[Vec3; 4]; 4] {
    quad_parts(*corners, midpoint, average(corners))
}

/// The corners of the 4 parts of a quad (see [`parts`]) from its corners, how to find the
/// middle of an edge, and its centre.
fn quad_parts<T: Copy>(corners: [T; 4], middle: impl Fn(T, T) -> T, centre: T) -> [[T; 4]; 4] {
    let [a, b, c, d] = corners;
    let (ab, bc, cd, da) = (middle(a, b), middle(b, c), middle(c, d), middle(d, a));
    [
        [a, ab, centre, da],
        [ab, b, bc, centre],
        [centre, bc, c, cd],
        [da, centre, cd, d],
    ]
}

/// The gouraud tables of the 4 parts of a quad shaded by `whole`: the colours at each
/// part's corners as the VDP1 shades the whole quad (bilinear from its corners: the
/// middle of an edge is the mean of its ends, the centre the mean of all four), each
/// channel to the nearest.
pub(crate) fn part_gouraud(whole: &GouraudTable) -> [GouraudTable; 4] {
    let channels = whole.0.map(|c| [c & 31, (c >> 5) & 31, (c >> 10) & 31]);
    let mean = |colors: &[[u16; 3]]| -> [u16; 3] {
        let n = colors.len() as u16;
        core::array::from_fn(|k| (colors.iter().map(|c| c[k]).sum::<u16>() + n / 2) / n)
    };
    let centre = mean(&channels);
    let parts = quad_parts(channels, |p, q| mean(&[p, q]), centre);
    parts.map(|part| GouraudTable(part.map(|[r, g, b]| 0x8000 | b << 10 | g << 5 | r)))
}

/// Which polygon to emit, whether in parts, and the camera-space matrix of its normals.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Emit<'t> {
    pub(crate) index: usize,
    pub(crate) in_parts: bool,
    pub(crate) matrix: &'t Matrix,
    /// The matrix scales (a BMOT bone): normals go through its cofactors, renormalized.
    pub(crate) stretched: bool,
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn emit(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
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
        let cofactors = polygon.stretched.then(|| cofactors(polygon.matrix));
        let level = |normal: Vec3| {
            let normal = match &cofactors {
                Some(c) => stretched_normal(c, normal),
                None => polygon.matrix.rotate(normal),
            };
            light_level(normal, direction, ambient)
        };
        match corner_normals(model, index) {
            Some(normals) => Lighting::Corners(normals.map(level)),
            None => Lighting::Flat(level(corners.normal().raw())),
        }
    });
    let shading = Shading::of(model, resources, index, material, light.is_some());
    let shaded = shading != Shading::Flat;
    let level = match lighting {
        Some(Lighting::Flat(level)) => Some(level),
        _ => None,
    };
    let mode = |color| {
        DrawMode::new(
            color,
            ColorCalc::of(shaded, flags.contains(MaterialFlags::HALF_TRANSPARENT)),
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
    let color = rgb555(material.color(), if shaded { None } else { level });
    let table = |corners: [Point; 4], sprite: Option<Sprite>, gouraud: Option<u32>| {
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
        let gouraud = match shading {
            Shading::Flat => None,
            Shading::Model => resources.gouraud.get(index).map(|&t| u32::from(t) << 3),
            Shading::Uniform | Shading::Lit { .. } => {
                Some(list.push_gouraud(gouraud_colors(model, index, shading, lighting))?)
            }
        };
        return list.push(table(corners, sprite, gouraud));
    }
    // Each part shaded as its share of the whole polygon (one table for all when the
    // colour is the same everywhere).
    let (shared, per_part) = match shading {
        Shading::Flat => (None, None),
        Shading::Uniform => {
            let colors = gouraud_colors(model, index, shading, lighting);
            (Some(list.push_gouraud(colors)?), None)
        }
        Shading::Model | Shading::Lit { .. } => {
            let colors = gouraud_colors(model, index, shading, lighting);
            (None, Some(part_gouraud(&colors)))
        }
    };
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
        let gouraud = match &per_part {
            Some(tables) => Some(list.push_gouraud(tables[part])?),
            None => shared,
        };
        list.push(table(corners, sprite, gouraud))?;
    }
    Ok(())
}

/// How the light falls on a polygon: one level (Q16.16, 0 to 1) for the face, or one per
/// corner from the corner normals (NTAB, CNRM).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lighting {
    Flat(i32),
    Corners([i32; 4]),
}

/// The NTAB normals of the corners of polygon `index`, when the model has them.
pub(crate) fn corner_normals(model: &Model<'_>, index: usize) -> Option<[Vec3; 4]> {
    let (normals, corners) = (model.normals()?, model.corner_normals()?);
    let corners = corners.get(4 * index..4 * index + 4)?;
    let mut out = [[0; 3]; 4];
    for (normal, corner) in out.iter_mut().zip(corners) {
        *normal = normals.get(usize::from(corner.get()))?.raw();
    }
    Some(out)
}

/// Where the gouraud colours of a polygon come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Shading {
    /// None: a flat polygon (a colour in flat light is darkened in the colour itself).
    Flat,
    /// Its GOUR table, in VRAM with the model (gouraud, not lit).
    Model,
    /// One colour at every corner, in a table of the frame: a texture in flat light.
    Uniform,
    /// A colour per corner, in a table of the frame: the GOUR colours (`gour`) or neutral
    /// ones, darkened by the light of the face or of each corner's normal.
    Lit {
        /// From the GOUR colours.
        gour: bool,
    },
}

impl Shading {
    /// How polygon `index` of `material` is shaded in a frame with or without light.
    pub(crate) fn of(
        model: &Model<'_>,
        resources: &ModelVram<'_>,
        index: usize,
        material: &Material,
        lit_frame: bool,
    ) -> Self {
        let flags = material.flags();
        let gour = flags.contains(MaterialFlags::GOURAUD)
            && resources.gouraud.get(index).is_some_and(|&t| t != 0);
        let lit = lit_frame && flags.contains(MaterialFlags::LIGHT);
        match (gour, lit) {
            (true, false) => Self::Model,
            (_, true) if gour || corner_normals(model, index).is_some() => Self::Lit { gour },
            (false, true) if material.texture().is_some() => Self::Uniform,
            _ => Self::Flat,
        }
    }

    /// The gouraud tables of the frame a polygon shaded so takes, whole or in 4 parts
    /// (each part its share of the whole polygon's colours).
    pub(crate) fn frame_tables(self, in_parts: bool) -> usize {
        match (self, in_parts) {
            (Self::Flat, _) | (Self::Model, false) => 0,
            (Self::Uniform, _) | (Self::Lit { .. }, false) => 1,
            (Self::Model | Self::Lit { .. }, true) => 4,
        }
    }
}

/// Channel 16 on every channel: a gouraud colour that leaves a pixel as it is.
pub(crate) const NEUTRAL: u16 = 0x8000 | 16 << 10 | 16 << 5 | 16;

/// The gouraud colours of polygon `index` shaded as `shading` says: its GOUR colours (or
/// neutral ones), darkened by the light of each corner (corner normals) or of the face.
pub(crate) fn gouraud_colors(
    model: &Model<'_>,
    index: usize,
    shading: Shading,
    lighting: Option<Lighting>,
) -> GouraudTable {
    let gour = model
        .gouraud()
        .and_then(|g| g.get(4 * index..4 * index + 4))
        .filter(|_| matches!(shading, Shading::Model | Shading::Lit { gour: true }));
    let colors = GouraudTable(core::array::from_fn(|i| {
        gour.map_or(NEUTRAL, |c| c[i].get().0)
    }));
    match lighting {
        Some(Lighting::Corners(levels)) => scale_gouraud(colors, levels),
        Some(Lighting::Flat(level)) if shading == Shading::Uniform => {
            GouraudTable::uniform(((16 * level) >> 16) as u16)
        }
        Some(Lighting::Flat(level)) => scale_gouraud(colors, [level; 4]),
        None => colors,
    }
}

/// The light a face gets: the ambient part plus the rest times the cosine between its
/// normal and the light coming at it (Q16.16, 0 to 1).
pub(crate) fn light_level(normal: Vec3, direction: Vec3, ambient: i32) -> i32 {
    let facing = (-dot(normal, direction)).clamp(0, ONE);
    (ambient + mul(ONE - ambient, facing)).clamp(0, ONE)
}

/// A material colour (8 bits a channel) as RGB555, darkened by a light level.
pub(crate) fn rgb555(color: [u8; 3], level: Option<i32>) -> u16 {
    let [r, g, b] = color.map(|c| {
        let c = u16::from(c >> 3);
        level.map_or(c, |l| ((i32::from(c) * l) >> 16) as u16)
    });
    0x8000 | b << 10 | g << 5 | r
}

/// Gouraud colours darkened by the light level of each corner.
pub(crate) fn scale_gouraud(table: GouraudTable, levels: [i32; 4]) -> GouraudTable {
    GouraudTable(core::array::from_fn(|corner| {
        let (c, level) = (table.0[corner], levels[corner]);
        let channel = |shift: u16| ((((i32::from(c >> shift) & 31) * level) >> 16) as u16) << shift;
        0x8000 | channel(10) | channel(5) | channel(0)
    }))
}

/// The full texture, or a mipmap when the polygon is drawn at half or a quarter of its
/// size or less.
pub(crate) fn choose_level(
    sprites: &crate::vdp1::SpriteSet,
    corners: &[Point; 4],
    mipmaps: bool,
) -> Sprite {
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
