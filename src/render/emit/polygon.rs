//! One polygon's command: from its material's template when the fast path takes it, else
//! the general command ([`emit`]: any material flag, its corners behind the near plane
//! moved onto it, [`screen_corners`], drawn in parts, lit by face or by corner), and the
//! words and gouraud tables a polygon takes.

use super::light::{
    corner_normals, gouraud_colors, light_level, neutral_lit, Lighting, ModelLight, Shading,
    NEUTRAL,
};
use super::mipmap::choose_level;
use super::near::untested_screens;
use super::subdivide::{part_gouraud, parts};
use super::template::{rgb555, EmitStyle, LitStyle};
use crate::format::{MaterialFlags, Model};
use crate::math::{Matrix, Vec3};
use crate::render::camera::Camera;
use crate::render::error::DrawError;
use crate::render::fog::{fog_depth, Fog};
use crate::render::list::CommandBuffer;
use crate::render::project::{on_near_plane, project};
use crate::render::shared::{ModelFrame, ModelVram, ViewPoint};
use crate::render::transforms::{cofactors, stretched_normal};
use crate::vdp1::{
    field_pair, ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, Point, Sprite,
    CTRL_FLIP_H, CTRL_FLIP_V,
};

impl ModelFrame<'_, '_> {
    /// The screen positions of polygon `index`'s corners as command-table words
    /// ([`Point::word`]), when every corner is in front of the near plane.
    #[inline(always)]
    pub(crate) fn corner_words_in_front(&self, index: usize) -> Option<[u32; 4]> {
        self.corner_words_in_front_of(index, self.camera.near)
    }

    /// [`corner_words_in_front`](Self::corner_words_in_front) of the plane at `near`;
    /// with a `near` of `i32::MIN` (none behind it), read from the frame's compact copy of
    /// the screen positions when it has one, as the SH-2 loops without the test do.
    #[inline(always)]
    pub(crate) fn corner_words_in_front_of(&self, index: usize, near: i32) -> Option<[u32; 4]> {
        let [ia, ib, ic, id] = self.model.polygons()[index].corners();
        let needed = self.model.points().len();
        if let Some(screens) = untested_screens(near, self.screens, needed) {
            return Some([ia, ib, ic, id].map(|c| screens[usize::from(c)].word()));
        }
        let points = self.points;
        let (a, b) = (&points[usize::from(ia)], &points[usize::from(ib)]);
        let (c, d) = (&points[usize::from(ic)], &points[usize::from(id)]);
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

    /// The screen positions of polygon `index`'s corners as command-table words, a corner
    /// behind the near plane moved onto it along an edge ([`screen_corners`]): the corners
    /// [`emit`] gives a polygon not drawn in parts.
    #[inline(always)]
    pub(crate) fn corner_words(&self, index: usize) -> [u32; 4] {
        if let Some(words) = self.corner_words_in_front(index) {
            return words;
        }
        let corners = self.model.polygons()[index].corners();
        let view = corners.map(|c| self.points[usize::from(c)].view);
        let screen = corners.map(|c| Some(self.points[usize::from(c)].screen));
        screen_corners(&view, &screen, self.camera).map(|p| p.word())
    }

    /// Emits polygon `index` from the style's template when it is not drawn in parts (its
    /// corners behind the near plane moved onto it, as [`emit`] moves them); `false` when it
    /// needs [`emit`].
    #[inline(always)]
    pub(crate) fn emit_fast(
        &self,
        list: &mut CommandBuffer<'_>,
        style: &EmitStyle,
        index: usize,
    ) -> bool {
        if style.may_split && self.in_parts(index) {
            return false;
        }
        let corners = self.corner_words(index);
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

    /// Emits lit polygon `index` from the style's template (its [`LitStyle`] not `None`)
    /// and a frame gouraud table of its corners' light, when it is not drawn in parts and
    /// its matrix does not stretch (its corners behind the near plane moved onto it);
    /// `false` when it needs [`emit`] (which makes the same command and table the long way).
    #[inline(always)]
    pub(crate) fn emit_lit(
        &self,
        list: &mut CommandBuffer<'_>,
        style: &EmitStyle,
        light: &ModelLight,
        index: usize,
    ) -> Result<bool, DrawError> {
        if style.may_split && self.in_parts(index) {
            return Ok(false);
        }
        let (Some(direction), Some(ambient)) = (light.direction(index), light.ambient()) else {
            return Ok(false);
        };
        let Some(levels) = self.corner_levels(style.lit, index, *direction, ambient) else {
            return Ok(false);
        };
        let corners = self.corner_words(index);
        let address = list.push_gouraud(GouraudTable(levels.map(neutral_lit)))?;
        let last = field_pair((address >> 3) as u16, style.reserved);
        list.push_words(&style.gouraud_head, corners, last)?;
        Ok(true)
    }

    /// The light levels of polygon `index`'s corners lit as `lit` says, by the light's
    /// `direction` in its matrix's model space and its `ambient` part.
    #[inline(always)]
    pub(crate) fn corner_levels(
        &self,
        lit: LitStyle,
        index: usize,
        direction: Vec3,
        ambient: i32,
    ) -> Option<[i32; 4]> {
        match lit {
            LitStyle::Corners => {
                let normals = self.model.normals()?;
                let corners = self.model.corner_normals()?.get(4 * index..4 * index + 4)?;
                let mut levels = [0; 4];
                for (level, corner) in levels.iter_mut().zip(corners) {
                    let normal = normals.get(usize::from(corner.get()))?.raw();
                    *level = light_level(normal, direction, ambient);
                }
                Some(levels)
            }
            LitStyle::Face => {
                let normal = self.model.polygons().get(index)?.normal().raw();
                Some([light_level(normal, direction, ambient); 4])
            }
            LitStyle::None => None,
        }
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

/// The gouraud colours of polygon `index` of `model` in `fog`: its shading's (neutral
/// when flat) faded by each corner's depth (`view`) on a surface of colour `base`. Not
/// inlined: the general emission's frame stays as it was without fog (the C interface's
/// calls keep within their stack).
#[inline(never)]
fn fog_colors(
    model: &Model<'_>,
    index: usize,
    (shading, lighting): (Shading, Option<Lighting>),
    (fog, base): (&Fog, u16),
    view: &[Vec3; 4],
    near: i32,
) -> GouraudTable {
    let colors = match shading {
        Shading::Flat => GouraudTable([NEUTRAL; 4]),
        _ => gouraud_colors(model, index, shading, lighting),
    };
    fogged(colors, fog, base, view, near)
}

/// `colors` (a polygon's corners' gouraud colours) faded in `fog` by each corner's depth
/// (`view`, a corner nearer than `near` as if on it), on a surface of colour `base`.
pub(crate) fn fogged(
    colors: GouraudTable,
    fog: &Fog,
    base: u16,
    view: &[Vec3; 4],
    near: i32,
) -> GouraudTable {
    GouraudTable(core::array::from_fn(|i| {
        let share = fog.share(fog_depth(view[i][2], near));
        fog.faded(colors.0[i], base, share)
    }))
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
            Some(q) => project(on_near_plane(p, q, camera.near), camera),
            None => project(p, camera),
        }
    })
}

/// Which polygon to emit, whether in parts, its camera-space matrix and the light in that
/// matrix's model space.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Emit<'t> {
    pub(crate) index: usize,
    pub(crate) in_parts: bool,
    pub(crate) matrix: &'t Matrix,
    /// The light's direction in the matrix's model space ([`ModelLight::direction`]);
    /// `None` when the matrix scales (a BMOT bone): normals then go through its cofactors
    /// into camera space, made unit length again.
    pub(crate) model_light: Option<Vec3>,
}

/// The general command of `polygon` (and its gouraud tables), without fog (inlined with
/// [`emit_in`]: its fog's code left out, the frame as it was without fog).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn emit(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    camera: &Camera,
    light: Option<(Vec3, i32)>,
    points: &[ViewPoint],
    polygon: Emit<'_>,
) -> Result<(), DrawError> {
    emit_in(list, model, resources, camera, light, points, polygon, None)
}

/// [`emit_in`] in `fog`, a function of its own (its frame apart from its caller's).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn emit_fogged(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    camera: &Camera,
    light: Option<(Vec3, i32)>,
    points: &[ViewPoint],
    polygon: Emit<'_>,
    fog: &Fog,
) -> Result<(), DrawError> {
    emit_in(
        list,
        model,
        resources,
        camera,
        light,
        points,
        polygon,
        Some(fog),
    )
}

/// The general command of `polygon` (and its gouraud tables) in `fog`: with a fog, every
/// polygon is shaded, each corner's gouraud colour faded by its depth ([`fogged`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn emit_in(
    list: &mut CommandBuffer<'_>,
    model: &Model<'_>,
    resources: &ModelVram<'_>,
    camera: &Camera,
    light: Option<(Vec3, i32)>,
    points: &[ViewPoint],
    polygon: Emit<'_>,
    fog: Option<&Fog>,
) -> Result<(), DrawError> {
    let index = polygon.index;
    let Some((corners, material)) = model.polygons().get(index).zip(model.material_of(index))
    else {
        return Ok(());
    };
    let flags = material.flags();
    let light = light.filter(|_| flags.contains(MaterialFlags::LIGHT));
    let lighting = light.map(|(direction, ambient)| {
        // The model-space direction, or the cofactors of a matrix that stretches.
        let through = polygon.model_light.ok_or_else(|| cofactors(polygon.matrix));
        let level = |normal: Vec3| match &through {
            Ok(model_direction) => light_level(normal, *model_direction, ambient),
            Err(c) => light_level(stretched_normal(c, normal), direction, ambient),
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
            ColorCalc::of(
                shaded || fog.is_some(),
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
    let sprites = material
        .texture()
        .and_then(|t| resources.sprites(usize::from(t), flags.contains(MaterialFlags::END_CODES)));
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
    // In fog every polygon has its own colours: its shading's (neutral when flat), each
    // corner faded by its depth towards the fog's colour from its own: the polygon's
    // colour, or a mid texel's for a texture.
    let base = if sprites.is_some() { NEUTRAL } else { color };
    let fogged_colors = fog.map(|fog| {
        fog_colors(
            model,
            index,
            (shading, lighting),
            (fog, base),
            &view,
            camera.near,
        )
    });
    if !polygon.in_parts {
        let screen = corners
            .corners()
            .map(|c| Some(points[usize::from(c)].screen));
        let corners = screen_corners(&view, &screen, camera);
        let sprite =
            sprites.map(|s| choose_level(s, &corners, flags.contains(MaterialFlags::MIPMAPS)));
        let gouraud = match (fogged_colors, shading) {
            (Some(colors), _) => Some(list.push_gouraud(colors)?),
            (None, Shading::Flat) => None,
            (None, Shading::Model) => resources.gouraud.get(index).map(|&t| u32::from(t) << 3),
            (None, Shading::Uniform | Shading::Lit { .. }) => {
                Some(list.push_gouraud(gouraud_colors(model, index, shading, lighting))?)
            }
        };
        return list.push(table(corners, sprite, gouraud));
    }
    // Each part shaded as its share of the whole polygon (one table for all when the
    // colour is the same everywhere).
    let (shared, per_part) = match (fogged_colors, shading) {
        (Some(colors), _) => (None, Some(part_gouraud(&colors))),
        (None, Shading::Flat) => (None, None),
        (None, Shading::Uniform) => {
            let colors = gouraud_colors(model, index, shading, lighting);
            (Some(list.push_gouraud(colors)?), None)
        }
        (None, Shading::Model | Shading::Lit { .. }) => {
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
