//! Emission of one draw's sorted polygons: the farthest left out when the list is short of
//! room, the plain runs (one plain material in front of the near plane: the material's
//! template written as eight words, SH-2 assembly on an SH-2, `emit.S` bound by `sh2`,
//! without the test of the plane when the culling kept no polygon crossing it; with a
//! second CPU each emits half of a big model), the lit runs (each its template and a
//! gouraud table of its corners' light), each other polygon on its own (`polygon`), and
//! what a draw keeps of it through a frame and from frame to frame ([`EmitCache`]).

use super::light::{neutral_lit, ModelLight};
use super::near::tested_near;
use super::polygon::{emit, Emit};
#[cfg(jom_asm)]
use super::sh2;
use super::template::{EmitStyle, LitStyle, LitTemplate, StyleCache, CACHED_STYLES};
use crate::format::Model;
use crate::math::{Vec3, ONE};
use crate::render::error::DrawError;
use crate::render::list::CommandBuffer;
use crate::render::shared::{
    polygon_of, DrawStats, Kept, ModelFrame, SortKey, MIN_SHARED_POLYGONS,
};
use crate::render::transforms::Transforms;
use crate::vdp1::{field_pair, CommandTable, GouraudTable};
use crate::worker::Worker;
use core::mem::MaybeUninit;

/// What the emission of one draw keeps through a frame (in a [`Renderer`]'s frame the
/// draw's polygons come in many runs when they interleave with another draw's in depth:
/// [`EmitCaches`]): the light in its matrices' model spaces, made once, and its
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
    /// Nothing made yet, written in `room`: made as a value, its 4 KiB went through the
    /// stack (twice on the SH-2), where a C caller has 8 KiB in all.
    pub(crate) fn empty_in(room: &mut MaybeUninit<Self>) -> &mut Self {
        let this = room.as_mut_ptr();
        // SAFETY: each field is written (in place) before the reference is made.
        unsafe {
            ModelLight::none_in(core::ptr::addr_of_mut!((*this).light));
            StyleCache::empty_in(core::ptr::addr_of_mut!((*this).styles));
            core::ptr::addr_of_mut!((*this).styles_for).write((0, false));
            room.assume_init_mut()
        }
    }

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

/// The [`EmitCache`]s a frame's end works with, kept in its tables (on the stack they
/// passed what a C caller has), two, each made at its first use (all zero until then: a
/// `static` of them is in `.bss`) or, in a renderer's memory, when it is made:
/// - a frame of one draw uses the first, kept from frame to frame (its styles kept while it
///   draws the same loaded model in the same kind of light: [`EmitCache::start_keyed`]);
/// - the frame pass of a frame of several draws uses both for the polygons it stops at, of
///   draws that come in turns in depth order two at a time (a model standing on another):
///   the cache of a third draw takes the place of the one used least lately, started
///   again (the same commands, a set-up more). A pass starts each cache afresh (its own
///   serial, 0: the first cache's kept styles are made again at the next frame of one
///   draw).
pub(crate) struct EmitCaches {
    caches: [MaybeUninit<EmitCache>; 2],
    made: [bool; 2],
    /// The draw each cache is started for in this frame's pass, plus one (0: none).
    draws: [usize; 2],
    /// The cache used last.
    last: usize,
}

impl EmitCaches {
    /// None made.
    pub(crate) const EMPTY: Self = Self {
        caches: [MaybeUninit::zeroed(), MaybeUninit::zeroed()],
        made: [false; 2],
        draws: [0; 2],
        last: 0,
    };

    /// Cache `slot`, made if it was not.
    fn made(&mut self, slot: usize) -> &mut EmitCache {
        if !self.made[slot] {
            EmitCache::empty_in(&mut self.caches[slot]);
            self.made[slot] = true;
        }
        // SAFETY: made above, or before.
        unsafe { self.caches[slot].assume_init_mut() }
    }

    /// Makes both caches now, so that no frame pays for it: a renderer's memory, made
    /// once (a first frame that made them took 7,300 cycles more to emit 500 quads,
    /// Mednafen). A list frame's tables, which a C caller lends at every frame, make them
    /// at their first use.
    pub(crate) fn make_all(&mut self) {
        for slot in 0..self.caches.len() {
            self.made(slot);
        }
    }

    /// The cache of frames of one draw.
    pub(crate) fn one_draw(&mut self) -> &mut EmitCache {
        self.made(0)
    }

    /// The frame pass's caches, none started for this frame.
    pub(crate) fn pass(&mut self) -> &mut Self {
        self.draws = [0; 2];
        self.last = 0;
        self
    }

    /// In the frame pass, the cache of draw `draw` (of `model` with `transforms`, in the
    /// light `light_view`), started for this frame.
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
                self.draws[slot] = draw + 1;
                self.made(slot).start(model, transforms, light_view);
                slot
            }
        };
        self.last = slot;
        self.made(slot)
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

/// Emits the first part of `keys` ([`first_part`]) here and the rest on `worker`, each
/// into its own part of the list's free tables, when all of them are of one plain material
/// and in front of the `near` plane (a big model's common case; [`tested_near`]); gives how
/// many polygons are emitted, from the first: all of them, or what this CPU's part got
/// through (the rest goes through the loop of [`emit_sorted`], which writes over what the
/// worker left).
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
    let first = first_part(keys.len());
    list.fill_with(|tables| {
        if tables.len() < keys.len() {
            return 0;
        }
        let (here, there) = tables.split_at_mut(first);
        let (mut first_done, mut second_done) = (0, 0);
        worker.join(
            &mut || first_done = frame.emit_plain(here, style, &keys[..first], near),
            &mut || second_done = frame.emit_plain(there, style, &keys[first..], near),
        );
        match first_done == first && second_done == keys.len() - first {
            true => keys.len(),
            false => first_done,
        }
    })
}

/// How many of `count` plain polygons [`emit_shared`] emits on this CPU: a 128th more
/// than half, because the second CPU's part of the same count takes longer. Its command
/// writes wait for the bus, which the master holds (Mednafen, 4,000 quads: the slave's
/// half ended 4,480 cycles after the master's 168,704). Where the cut falls changes
/// nothing written: plain commands take no gouraud table.
pub(crate) fn first_part(count: usize) -> usize {
    count / 2 + count / 128
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
}
