//! Emission: each visible polygon, back to front, as a VDP1 command with its material's
//! colour or texture and flags. This module owns the order of it: the farthest left out when
//! the list is short of room, the plain runs (one plain material in front of the near plane:
//! the material's template written as eight words, SH-2 assembly on an SH-2, `emit.S`
//! bound by `sh2`, without the test of the plane when the culling kept no polygon crossing
//! it, [`tested_near`]; with a second CPU each emits half of a big model), the fast path
//! from the template, and the general command of one polygon ([`emit`]) with its corners
//! behind the near plane moved onto it ([`screen_corners`]). A frame of several draws goes
//! through `frame` instead: one pass over all the draws' sorted polygons, each its
//! material's template whatever draw or material came before. What goes into a command is
//! in the submodules, bottom first: `near` (whether the near plane is tested), `template`
//! (per material), `records` (what the assembly reads), `sh2` (the assembly's bindings),
//! `light` (light levels, gouraud colours), `mipmap` (the texture's level), `subdivide`
//! (drawing in parts), `frame` (the frame pass).

mod frame;
mod light;
mod mipmap;
mod near;
mod records;
#[cfg(jom_asm)]
mod sh2;
mod subdivide;
mod template;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;

#[cfg(all(jom_asm, feature = "selftest"))]
pub(crate) use frame::emit_pass;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use frame::emit_templates_reference;
pub(crate) use frame::{emit_templates, emit_templates_shared, DrawTemplates, FrameDraw};
pub(crate) use light::ModelLight;
#[cfg(all(jom_asm, feature = "selftest"))]
pub(crate) use light::{light_colors, light_colors_reference};
pub(crate) use records::{PassLight, FRAME_DRAWS};
pub use subdivide::DEFAULT_SUBDIVISION_ERROR;
pub(crate) use template::EmitStyle;

use light::{corner_normals, gouraud_colors, light_level, neutral_lit, Lighting, Shading};
use mipmap::choose_level;
pub(crate) use near::tested_near;
use near::untested_screens;
use subdivide::{part_gouraud, parts};
pub(crate) use template::LitTemplate;
use template::{rgb555, LitStyle, StyleCache, CACHED_STYLES};

use crate::format::{MaterialFlags, Model};
use crate::math::{Matrix, Vec3, ONE};
use crate::render::camera::Camera;
use crate::render::error::DrawError;
use crate::render::list::CommandBuffer;
use crate::render::project::{on_near_plane, project};
use crate::render::shared::{
    polygon_of, DrawStats, Kept, ModelFrame, ModelVram, SortKey, ViewPoint, MIN_SHARED_POLYGONS,
};
use crate::render::transforms::{cofactors, stretched_normal, Transforms};
use crate::vdp1::{
    field_pair, ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, Point, Sprite,
    CTRL_FLIP_H, CTRL_FLIP_V,
};
use crate::worker::Worker;
use core::mem::MaybeUninit;

/// What the emission of one draw keeps through a frame (in a [`Renderer`]'s frame the
/// draw's polygons come in many runs when they interleave with another draw's in depth:
/// [`FrameEmitCaches`]): the light in its matrices' model spaces, made once, and its
/// materials' templates, each made at its first polygon, so that neither a run nor a
/// change of material costs a set-up. A renderer keeps one from frame to frame for its
/// frames of one draw: the templates then stay while it draws the same loaded model in the
/// same kind of light ([`start_keyed`](Self::start_keyed)).
///
/// [`Renderer`]: crate::render::Renderer
pub(crate) struct EmitCache {
    pub(crate) light: ModelLight,
    styles: StyleCache,
    /// The serial of the loaded model the styles are made for (0: none) and whether in a
    /// frame with light.
    styles_for: (u32, bool),
}

impl EmitCache {
    /// Nothing made yet.
    pub(crate) const EMPTY: Self = Self {
        light: ModelLight::NONE,
        styles: StyleCache::EMPTY,
        styles_for: (0, false),
    };

    /// Starts a frame of `model` drawn with `transforms` in the light `light_view` (camera
    /// space, with its ambient part), every style made again.
    pub(crate) fn start(
        &mut self,
        model: &Model<'_>,
        transforms: &Transforms,
        light_view: Option<(Vec3, i32)>,
    ) {
        self.start_keyed(model, 0, transforms, light_view);
    }

    /// [`start`](Self::start) for `model` loaded as `serial` (a renderer's handle's: a new
    /// one for each load; 0 for none): the styles made in frames before for the same
    /// serial, with light or without as this one, are kept (they depend on the model, its
    /// textures' VRAM slots and whether the frame is lit, not on the light's direction).
    pub(crate) fn start_keyed(
        &mut self,
        model: &Model<'_>,
        serial: u32,
        transforms: &Transforms,
        light_view: Option<(Vec3, i32)>,
    ) {
        self.light.set(model, transforms, light_view, None);
        let styles_for = (serial, light_view.is_some());
        if serial == 0 || styles_for != self.styles_for {
            self.styles.clear();
            self.styles_for = styles_for;
        }
    }
}

/// The [`EmitCache`]s of a frame's draws whose polygons come in turns in depth order, two
/// at a time (a model standing on another): the cache of a third draw takes the place of
/// the one used least lately, started again (the same commands, a set-up more). A cache is
/// made at its first use (a frame whose polygons all go through the frame pass makes none:
/// nothing of their 8 KiB is written).
pub(crate) struct FrameEmitCaches {
    caches: [MaybeUninit<EmitCache>; 2],
    /// The draw each cache is started for, plus one (0: none, and the cache not made).
    draws: [usize; 2],
    /// The cache used last.
    last: usize,
}

impl FrameEmitCaches {
    /// None started, in `room`: written in place, since made as a value (and moved there)
    /// the 8 KiB of its caches were copied, uninitialised, at each frame (12,000 cycles in
    /// the showcase, Mednafen).
    pub(crate) fn empty_in(room: &mut MaybeUninit<Self>) -> &mut Self {
        let this = room.as_mut_ptr();
        // SAFETY: every field but the caches (which may stay uninitialised) is written
        // before the reference is made.
        unsafe {
            core::ptr::addr_of_mut!((*this).draws).write([0; 2]);
            core::ptr::addr_of_mut!((*this).last).write(0);
            room.assume_init_mut()
        }
    }

    /// The cache of draw `draw` (of `model` with `transforms`, in the light `light_view`),
    /// started for this frame.
    pub(crate) fn of(
        &mut self,
        draw: usize,
        model: &Model<'_>,
        transforms: &Transforms,
        light_view: Option<(Vec3, i32)>,
    ) -> &mut EmitCache {
        let slot = match self.draws.iter().position(|&d| d == draw + 1) {
            Some(slot) => slot,
            None => {
                let slot = 1 - self.last;
                if self.draws[slot] == 0 {
                    self.caches[slot].write(EmitCache::EMPTY);
                }
                self.draws[slot] = draw + 1;
                // SAFETY: written just now or for the draw it was started for before.
                unsafe { self.caches[slot].assume_init_mut() }.start(model, transforms, light_view);
                slot
            }
        };
        self.last = slot;
        // SAFETY: a slot with a draw holds a cache made for it (above).
        unsafe { self.caches[slot].assume_init_mut() }
    }
}

/// Emits the polygons of `order` (sorted, farthest first; `kept` says how many are drawn
/// in parts and cross the near plane) into `list`, leaving out the farthest when it is
/// short of room: the plain ones in runs (shared with `worker` for a big model), the lit
/// ones of a template and the other fast ones one by one from their material's template,
/// the rest through [`emit`]. `cache` is the draw's, [started](EmitCache::start) for this
/// frame.
#[allow(clippy::too_many_arguments)]
pub(crate) fn emit_sorted(
    frame: &ModelFrame<'_, '_>,
    list: &mut CommandBuffer<'_>,
    transforms: &Transforms,
    cache: &mut EmitCache,
    order: &[SortKey],
    kept: Kept,
    worker: Option<&mut (dyn Worker + '_)>,
    stats: &mut DrawStats,
) -> Result<(), DrawError> {
    let ModelFrame {
        model,
        resources,
        camera,
        points,
        ..
    } = *frame;
    // Farthest first; when the list or the frame's gouraud tables are short of room the
    // farthest are left out. Each polygon takes at most one command and one frame gouraud
    // table, four of each in parts; without light only parts take gouraud tables.
    let (room, gouraud_room) = (list.room(), list.gouraud_room());
    let EmitCache { light, styles, .. } = cache;
    let lit_frame = light.view.is_some();
    let at_most = order.len() + 3 * kept.parts;
    let gouraud_at_most = if lit_frame || kept.parts > 0 {
        at_most
    } else {
        0
    };
    let near = tested_near(camera, kept);
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
                    (left, _) => {
                        stats.gouraud_full = left.is_some();
                        false
                    }
                }
            })
            .count();
        order.len() - kept
    };
    stats.dropped = skip;
    let mut next = skip;
    if let Some(worker) = worker {
        let keys = &order[skip..];
        let shared = emit_shared(frame, list, worker, styles, (keys, near), lit_frame);
        next += shared;
        stats.drawn += shared;
        stats.commands += shared;
    }
    let materials = model.polygon_materials();
    while let Some(&key) = order.get(next) {
        let index = polygon_of(key);
        let style = styles.get(frame, materials[index].get(), lit_frame);
        if style.plain() {
            let emitted = frame.emit_plain_run(list, style, &order[next..], near);
            if emitted > 0 {
                next += emitted;
                stats.drawn += emitted;
                stats.commands += emitted;
                continue;
            }
        }
        if LitTemplate::of(style).usable() {
            let emitted = frame.emit_lit_run(list, &styles.lit, light, &order[next..]);
            if emitted > 0 {
                next += emitted;
                stats.drawn += emitted;
                stats.commands += emitted;
                continue;
            }
        }
        let style = styles.get(frame, materials[index].get(), lit_frame);
        let before = list.commands().len();
        let fast = match style.lit {
            LitStyle::None => style.fast && frame.emit_fast(list, style, index),
            _ => frame.emit_lit(list, style, light, index)?,
        };
        if !fast {
            let polygon = Emit {
                index,
                in_parts: style.may_split && frame.in_parts(index),
                matrix: &transforms.matrices[transforms.polygon_matrix(index)],
                model_light: light.direction(index).copied(),
            };
            emit(list, model, resources, camera, light.view, points, polygon)?;
        }
        stats.drawn += 1;
        stats.commands += list.commands().len() - before;
        next += 1;
    }
    Ok(())
}

/// Emits the first half of `keys` here and the second half on `worker`, each into its own
/// half of the list's free tables, when all of them are of one plain material and in
/// front of the `near` plane (a big model's common case; [`tested_near`]); gives how many
/// polygons are emitted, from the first: all of them, or what this CPU's half got through
/// (the rest goes through the loop of [`emit_sorted`], which writes over what the worker
/// left).
pub(crate) fn emit_shared(
    frame: &ModelFrame<'_, '_>,
    list: &mut CommandBuffer<'_>,
    worker: &mut dyn Worker,
    styles: &mut StyleCache,
    (keys, near): (&[SortKey], i32),
    lit_frame: bool,
) -> usize {
    let Some(&first) = keys.first().filter(|_| keys.len() >= MIN_SHARED_POLYGONS) else {
        return 0;
    };
    let material = frame.model.polygon_materials()[polygon_of(first)].get();
    let style = styles.get(frame, material, lit_frame);
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
            &mut || first_done = frame.emit_plain(here, style, &keys[..half], near),
            &mut || second_done = frame.emit_plain(there, style, &keys[half..], near),
        );
        match first_done == half && second_done == keys.len() - half {
            true => keys.len(),
            false => first_done,
        }
    })
}

impl ModelFrame<'_, '_> {
    /// Emits the polygons of `keys` (the culling's, sorted: indexes of the model's polygons)
    /// from the start while they are of the style's material (a [`plain`](EmitStyle::plain)
    /// one) and wholly in front of the `near` plane ([`tested_near`]), and gives how many:
    /// the common case.
    pub(crate) fn emit_plain_run(
        &self,
        list: &mut CommandBuffer<'_>,
        style: &EmitStyle,
        keys: &[SortKey],
        near: i32,
    ) -> usize {
        list.fill_with(|tables| self.emit_plain(tables, style, keys, near))
    }

    /// [`emit_plain_run`](Self::emit_plain_run) into `tables` (as many as they hold): on a
    /// SH-2 by its assembly (`emit.S`).
    pub(crate) fn emit_plain(
        &self,
        tables: &mut [CommandTable],
        style: &EmitStyle,
        keys: &[SortKey],
        near: i32,
    ) -> usize {
        #[cfg(jom_asm)]
        // SAFETY: the keys come from the culling (`cull_visible`), which writes indexes of
        // the model's polygons only (a frame's draw's taken back to its own).
        return unsafe {
            sh2::emit_plain_run(
                self.model,
                (self.points, self.screens),
                near,
                (style.material, style.head, style.last),
                keys,
                tables,
            )
        };
        #[cfg(not(jom_asm))]
        self.emit_plain_reference(tables, style, keys, near)
    }

    /// The Rust version of [`emit_plain`](Self::emit_plain), in a loop with nothing else
    /// in it.
    // On a Saturn only the tests run the Rust version (against the assembly).
    #[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
    pub(crate) fn emit_plain_reference(
        &self,
        tables: &mut [CommandTable],
        style: &EmitStyle,
        keys: &[SortKey],
        near: i32,
    ) -> usize {
        let materials = self.model.polygon_materials();
        let mut emitted = 0;
        for (&key, table) in keys.iter().zip(tables) {
            let index = polygon_of(key);
            if materials[index].get() != style.material {
                break;
            }
            let Some([w0, w1, w2, w3]) = self.corner_words_in_front_of(index, near) else {
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

    /// Emits the polygons of `keys` (the culling's, sorted) from the start while each is of a
    /// material with a usable lit template in `templates` (by material index: lit by its
    /// corner normals, never in parts), wholly in front of the near plane and of a matrix
    /// that does not stretch, each its template with its corners and a gouraud table of its
    /// corners' light; gives how many: the common case of lit models, whatever the order
    /// of their materials. None when the ambient light is not 0 to 1 (the polygon by
    /// polygon path clamps it).
    pub(crate) fn emit_lit_run(
        &self,
        list: &mut CommandBuffer<'_>,
        templates: &[LitTemplate; CACHED_STYLES],
        light: &ModelLight,
        keys: &[SortKey],
    ) -> usize {
        let Some(ambient) = light.ambient().filter(|a| (0..=ONE).contains(a)) else {
            return 0;
        };
        list.fill_lit_with(|tables, gouraud, first_gouraud| {
            #[cfg(jom_asm)]
            // SAFETY: the keys come from the culling (`cull_visible`), which writes indexes
            // of the model's polygons only; the ambient part is 0 to 1.
            return unsafe {
                sh2::emit_lit_run(
                    self.model,
                    self.points,
                    self.camera.near,
                    templates,
                    light.runs(),
                    ambient,
                    keys,
                    (tables, gouraud, first_gouraud),
                )
            };
            #[cfg(not(jom_asm))]
            self.emit_lit_reference(
                templates,
                light,
                ambient,
                keys,
                (tables, gouraud, first_gouraud),
            )
        })
    }

    /// The Rust version of [`emit_lit_run`](Self::emit_lit_run) (on a SH-2 `emit.S`), into
    /// `tables` and `gouraud`, the first gouraud table at VRAM address `first_gouraud` * 8.
    #[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
    pub(crate) fn emit_lit_reference(
        &self,
        templates: &[LitTemplate; CACHED_STYLES],
        light: &ModelLight,
        ambient: i32,
        keys: &[SortKey],
        (tables, gouraud, first_gouraud): (&mut [CommandTable], &mut [GouraudTable], u32),
    ) -> usize {
        let materials = self.model.polygon_materials();
        let mut emitted = 0;
        for ((&key, table), colors) in keys.iter().zip(tables).zip(gouraud) {
            let index = polygon_of(key);
            let template = templates.get(usize::from(materials[index].get()));
            let Some(template) = template.filter(|t| t.usable()) else {
                break;
            };
            let Some([w0, w1, w2, w3]) = self.corner_words_in_front(index) else {
                break;
            };
            let Some(&direction) = light.direction(index) else {
                break;
            };
            let lit = LitStyle::Corners;
            let Some(levels) = self.corner_levels(lit, index, direction, ambient) else {
                break;
            };
            *colors = GouraudTable(levels.map(neutral_lit));
            let grda = (first_gouraud + emitted as u32) as u16;
            let last = field_pair(grda, template.reserved as u16);
            let [h0, h1, h2] = template.head;
            *table.as_words_mut() = [h0, h1, h2, w0, w1, w2, w3, last];
            emitted += 1;
        }
        emitted
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
    fn corner_levels(
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
