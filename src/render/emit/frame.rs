//! Emission frame-wide: the sorted polygons of all a frame's draws in one pass, each the
//! template of its draw's material (plain: the command with its corners; lit: the command
//! with its corners and a gouraud table of its corners' light), whatever draw or material
//! the polygon before was of: a change costs a look-up, not a run's set-up. On a Saturn the
//! pass is assembly (`emit.S`, `jom_emit_frame`); [`emit_templates_reference`] is its Rust
//! reference. A polygon crossing the near plane stops the pass: [`emit_templates`] makes
//! it from its template, its corners moved onto the plane, and the pass goes on. What the
//! pass does not take otherwise (a polygon drawn in parts, of a material of neither
//! template, of a stretching matrix) it stops at, for the general emission of that one
//! polygon.

use super::light::{light_level, neutral_lit, ModelLight};
#[cfg(jom_asm)]
use super::records::DrawRecord;
use super::records::{FrameTemplate, PassLight, TemplateKind};
#[cfg(jom_asm)]
use super::sh2::FrameJobs;
use super::template::{EmitStyle, LitTemplate, CACHED_STYLES};
use crate::format::{Material, MaterialFlags};
use crate::math::{Vec3, ONE};
use crate::render::shared::{polygon_of, ModelFrame, SortKey, MIN_SHARED_POLYGONS};
use crate::render::transforms::Transforms;
use crate::vdp1::{field_pair, CommandTable, GouraudTable};
use crate::worker::Worker;

/// What the frame pass keeps of one draw: its light in its matrices' model spaces, made
/// for each frame, and its first [`CACHED_STYLES`] materials' templates, kept from frame to
/// frame while they are of the same loaded model in the same kind of light (they depend
/// on the model, its textures' VRAM slots and whether the frame is lit, not on the light's
/// direction).
pub(crate) struct DrawTemplates {
    pub(crate) light: ModelLight,
    pub(crate) templates: [FrameTemplate; CACHED_STYLES],
    pub(crate) kinds: [TemplateKind; CACHED_STYLES],
    /// Some of `kinds` are lit.
    pub(crate) any_lit: bool,
    /// What the templates are made for (`TemplatesFor::NONE`: nothing yet).
    made_for: TemplatesFor,
}

/// What a draw's templates are made for: one load of a model (a renderer's handles each
/// have their own serial, never 0, so that a model dropped and another loaded into its
/// VRAM slots is a new one) and the frame's light (none, lit templates usable, or lit
/// with an ambient part they cannot take).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct TemplatesFor {
    serial: u32,
    light: u8,
}

impl TemplatesFor {
    const NONE: Self = Self {
        serial: 0,
        light: 0,
    };
}

impl DrawTemplates {
    /// [`EMPTY`](Self::EMPTY), written at `this`, which is all zero already.
    ///
    /// # Safety
    /// `this` is valid for writes and all zero.
    pub(crate) unsafe fn empty_in_zeroed(this: *mut Self) {
        // SAFETY: the caller's promise; all zero is `EMPTY` but for the light (its `None`
        // and its runs found for no draw), and `TemplateKind::None` is 0 (`repr(u8)`).
        unsafe { ModelLight::none_in(core::ptr::addr_of_mut!((*this).light)) };
    }

    /// Nothing made (all zero: no image of it in the program).
    pub(crate) const EMPTY: Self = Self {
        light: ModelLight::NONE,
        templates: [FrameTemplate::NONE; CACHED_STYLES],
        kinds: [TemplateKind::None; CACHED_STYLES],
        any_lit: false,
        made_for: TemplatesFor::NONE,
    };

    /// Starts a frame of `frame`'s model, loaded as `serial` (not 0: the templates made
    /// for the same serial and kind of light are kept; 0: made again), drawn with
    /// `transforms` in the light `light_view` (camera space, with its ambient part): the
    /// light is made for this frame (shared with `worker`, if any: [`ModelLight::set`]) when
    /// the model has a material it lights (the showcase's ground of plain grass made it for
    /// nothing: some 2,500 cycles a frame). Lit templates only when the ambient part is 0 to
    /// 1 (the general emission clamps it) and the model has every corner's normal.
    pub(crate) fn start(
        &mut self,
        frame: &ModelFrame<'_, '_>,
        serial: u32,
        transforms: &Transforms,
        light_view: Option<(Vec3, i32)>,
        worker: Option<&mut (dyn Worker + '_)>,
    ) {
        let lights = |m: &Material| m.flags().contains(MaterialFlags::LIGHT);
        let lit_materials = frame.model.materials().iter().any(lights);
        let model_light = light_view.filter(|_| lit_materials);
        self.light.set(frame.model, transforms, model_light, worker);
        let lit_usable = self.light.ambient().is_some_and(|a| (0..=ONE).contains(&a));
        let made_for = TemplatesFor {
            serial,
            light: match (light_view.is_some(), lit_usable) {
                (false, _) => 1,
                (true, true) => 2,
                (true, false) => 3,
            },
        };
        if serial == 0 || made_for != self.made_for {
            self.make_templates(frame, light_view.is_some(), lit_usable);
            self.made_for = made_for;
        }
    }

    /// The templates of `frame`'s model's materials in a frame with or without light
    /// (`lit_frame`), lit ones when `lit_usable`.
    fn make_templates(&mut self, frame: &ModelFrame<'_, '_>, lit_frame: bool, lit_usable: bool) {
        let model = frame.model;
        let normals = model.normals().is_some_and(|n| !n.is_empty())
            && model
                .corner_normals()
                .is_some_and(|c| c.len() >= 4 * model.polygons().len());
        let lit_usable = normals && lit_usable;
        let materials = model.materials().len();
        for (index, (template, kind)) in self.templates.iter_mut().zip(&mut self.kinds).enumerate()
        {
            (*template, *kind) = match index < materials {
                false => (FrameTemplate::NONE, TemplateKind::None),
                true => {
                    let style = EmitStyle::of(frame, index as u16, lit_frame);
                    let lit = LitTemplate::of(&style);
                    match (style.plain(), lit.usable() && lit_usable) {
                        (true, _) => (
                            FrameTemplate {
                                head: style.head,
                                last: style.last,
                            },
                            TemplateKind::Plain,
                        ),
                        (false, true) => (
                            FrameTemplate {
                                head: lit.head,
                                last: lit.reserved,
                            },
                            TemplateKind::Lit,
                        ),
                        (false, false) => (FrameTemplate::NONE, TemplateKind::None),
                    }
                }
            };
        }
        self.any_lit = self.kinds.contains(&TemplateKind::Lit);
    }
}

/// One draw as the frame pass sees it: its polygons are the frame's `first..` (as many as
/// its model has), its points `frame.points`, their corners tested against the `near`
/// plane ([`tested_near`](super::near::tested_near): `i32::MIN` when none crosses its camera's).
pub(crate) struct FrameDraw<'f, 'm> {
    pub(crate) first: usize,
    pub(crate) frame: &'f ModelFrame<'f, 'm>,
    pub(crate) templates: &'f DrawTemplates,
    pub(crate) near: i32,
}

impl<'f> FrameDraw<'f, '_> {
    /// The draw as the pass's assembly takes it, with its frame's compact copy of the
    /// screen positions when the pass's form without the near plane's test may read it
    /// ([`untested_screens`](super::near::untested_screens)).
    #[cfg(jom_asm)]
    pub(crate) fn record(&self) -> DrawRecord<'f> {
        let frame = self.frame;
        let screens =
            super::near::untested_screens(self.near, frame.screens, frame.model.points().len());
        DrawRecord {
            first: self.first,
            frame,
            kinds: &self.templates.kinds,
            templates: &self.templates.templates,
            runs: self.templates.light.runs(),
            near: self.near,
            screens,
        }
    }
}

/// Emits the polygons of `keys` (frame numbers of `draws`' polygons, sorted) from the
/// first into `tables` and `gouraud` (the first gouraud table at VRAM address
/// `first_gouraud` * 8) while each is of a draw of `draws` whose material has a template
/// (lit ones: their matrix does not stretch, in `light`), and there is room; gives how
/// many polygons and how many gouraud tables. The pass ([`emit_pass`]) takes those wholly in front of their camera's near plane; one it stops at for crossing
/// the near plane is its template with its corners moved onto the plane (as the general
/// emission moves them), made here, and the pass goes on after it.
pub(crate) fn emit_templates(
    draws: &[FrameDraw<'_, '_>],
    light: PassLight,
    keys: &[SortKey],
    (tables, gouraud, first_gouraud): (&mut [CommandTable], &mut [GouraudTable], u32),
) -> (usize, usize) {
    #[cfg(jom_asm)]
    let pass = FrameJobs::of(draws.iter().map(FrameDraw::record));
    let (mut done, mut lit) = (0, 0);
    loop {
        let out = (
            &mut tables[done..],
            &mut gouraud[lit..],
            first_gouraud + lit as u32,
        );
        #[cfg(jom_asm)]
        // SAFETY: the draws' frames hold their models' points and the templates are made
        // for those models (`DrawTemplates::start`), lit ones only with an ambient part of
        // 0 to 1.
        let (more, more_lit) = unsafe { pass.emit(light, &keys[done..], out) };
        #[cfg(not(jom_asm))]
        let (more, more_lit) = emit_templates_reference(draws, light, &keys[done..], out);
        (done, lit) = (done + more, lit + more_lit);
        let (Some(&key), Some(table)) = (keys.get(done), tables.get_mut(done)) else {
            return (done, lit);
        };
        let grda = first_gouraud + lit as u32;
        let corners = |draw: &FrameDraw<'_, '_>, index| Some(draw.frame.corner_words(index));
        let Some((words, took)) =
            template_command(draws, light, key, gouraud.get_mut(lit), grda, corners)
        else {
            return (done, lit);
        };
        *table.as_words_mut() = words;
        (done, lit) = (done + 1, lit + usize::from(took));
    }
}

/// One pass of [`emit_templates`]: the polygons of `keys` from the first while each is of
/// a template and wholly in front of its camera's near plane (what
/// [`emit_templates_reference`] does); on a SH-2 by `jom_emit_frame`.
#[cfg(all(jom_asm, feature = "selftest"))]
pub(crate) fn emit_pass(
    draws: &[FrameDraw<'_, '_>],
    light: PassLight,
    keys: &[SortKey],
    out: (&mut [CommandTable], &mut [GouraudTable], u32),
) -> (usize, usize) {
    // SAFETY: as in `emit_templates`.
    unsafe { FrameJobs::of(draws.iter().map(FrameDraw::record)).emit(light, keys, out) }
}

/// [`emit_templates`] with `worker` taking the second part of `keys` into the second part
/// of the free command and gouraud tables (each CPU its own part, cut where about half the
/// work is before: [`balanced_split`]), when there are [enough](MIN_SHARED_POLYGONS) and
/// room for a table of each a polygon; gives the polygons emitted from the first (the
/// second part's only when the first got through) and the gouraud tables taken. The second
/// part's gouraud tables stay where that CPU wrote them, after the first part's room: the
/// tables between, which the first part did not use, go to VRAM unused (a few KiB more to
/// write, where moving the second part's down and their commands' addresses with them cost
/// the master some 19,000 cycles a frame in the showcase, Mednafen). The tables taken are
/// never more than the polygons emitted, as with one CPU.
pub(crate) fn emit_templates_shared(
    draws: &[FrameDraw<'_, '_>],
    light: PassLight,
    keys: &[SortKey],
    out: (&mut [CommandTable], &mut [GouraudTable], u32),
    worker: &mut dyn Worker,
) -> (usize, usize) {
    let pass = |keys: &[SortKey], out: PassOut<'_>| emit_templates(draws, light, keys, out);
    shared_pass(draws, keys, out, worker, &pass)
}

/// What a frame pass writes into: the free command tables, the free gouraud tables and the
/// first one's VRAM address / 8.
pub(super) type PassOut<'o> = (&'o mut [CommandTable], &'o mut [GouraudTable], u32);

/// A frame pass over some draws: the polygons of the keys it is given into what it is
/// given to write, as [`emit_templates`] does; gives how many polygons and gouraud tables.
pub(super) type FramePass<'p> = dyn Fn(&[SortKey], PassOut<'_>) -> (usize, usize) + Sync + 'p;

/// `pass` (a frame pass over `draws`: [`emit_templates`], or the fog's) over `keys` into
/// `out`, shared with `worker` as [`emit_templates_shared`] says.
pub(super) fn shared_pass(
    draws: &[FrameDraw<'_, '_>],
    keys: &[SortKey],
    (tables, gouraud, first_gouraud): PassOut<'_>,
    worker: &mut dyn Worker,
    pass: &FramePass<'_>,
) -> (usize, usize) {
    let count = keys.len();
    if count < MIN_SHARED_POLYGONS || tables.len() < count || gouraud.len() < count {
        return pass(keys, (tables, gouraud, first_gouraud));
    }
    let split = balanced_split(draws, keys);
    let (here_tables, there_tables) = tables.split_at_mut(split);
    let (here_gouraud, there_gouraud) = gouraud.split_at_mut(split);
    let there_first = first_gouraud + split as u32;
    let (mut here, mut there) = ((0, 0), (0, 0));
    worker.join(
        &mut || here = pass(&keys[..split], (here_tables, here_gouraud, first_gouraud)),
        &mut || there = pass(&keys[split..], (there_tables, there_gouraud, there_first)),
    );
    let ((done, lit), (more, more_lit)) = (here, there);
    if done < split {
        return here;
    }
    let taken = match more_lit {
        0 => lit,
        _ => split + more_lit,
    };
    (split + more, taken)
}

/// Keys looked at to cut a frame pass for two CPUs: every `count / SPLIT_SAMPLES`th.
const SPLIT_SAMPLES: usize = 32;

/// Where to cut `keys` so that each CPU has about half of the pass's work: a lit
/// polygon (its corners' light worked out, a gouraud table written) costs about twice a
/// plain one (Mednafen, the showcase: 270 and 130 cycles), and a frame's polygons are seldom
/// lit evenly (a lit character before an unlit ground, nearer than most of it). Judged
/// from [`SPLIT_SAMPLES`] keys evenly spaced; at least one key in each part. Half way when no
/// draw has a lit template (nothing to look up).
pub(crate) fn balanced_split(draws: &[FrameDraw<'_, '_>], keys: &[SortKey]) -> usize {
    let count = keys.len();
    if !draws.iter().any(|draw| draw.templates.any_lit) {
        return count / 2;
    }
    // Indexes, no iterator adapters or closures: the SH-2 code generator left those as
    // calls, some 150 cycles a sample.
    let step = count.div_ceil(SPLIT_SAMPLES).max(1);
    let mut weights = [0u8; SPLIT_SAMPLES];
    let (mut total, mut samples, mut at) = (0, 0, 0);
    while at < count && samples < SPLIT_SAMPLES {
        let weight = match lit_polygon(draws, keys[at]) {
            true => 2,
            false => 1,
        };
        weights[samples] = weight;
        total += u32::from(weight);
        samples += 1;
        at += step;
    }
    let (mut before, mut sample) = (0, 0);
    while sample < samples && 2 * (before + u32::from(weights[sample])) < total {
        before += u32::from(weights[sample]);
        sample += 1;
    }
    (sample * step + step / 2).clamp(1, count.max(2) - 1)
}

/// Whether the polygon of `key` (a frame number of `draws`' polygons) is of a lit
/// template. Its own loop, not [`draw_of`]: through that look-up (even written as a loop)
/// the split cost the showcase some 1,000 cycles a frame more (Mednafen).
#[inline(always)]
fn lit_polygon(draws: &[FrameDraw<'_, '_>], key: SortKey) -> bool {
    let number = polygon_of(key);
    for draw in draws {
        let materials = draw.frame.model.polygon_materials();
        let index = number.wrapping_sub(draw.first);
        if index < materials.len() {
            let material = usize::from(materials[index].get());
            return material < CACHED_STYLES && draw.templates.kinds[material] == TemplateKind::Lit;
        }
    }
    false
}

/// The draw of `key`'s polygon (a frame number of `draws`' polygons, in order of their
/// first) and the polygon's index in its model. A loop inlined where it is called (as
/// `lit_polygon` finds its draw): on the SH-2 a call and an iterator's closure cost the fog's
/// pass, which looks up each polygon's draw, a share of its time.
#[inline(always)]
pub(super) fn draw_of<'d, 'f, 'm>(
    draws: &'d [FrameDraw<'f, 'm>],
    key: SortKey,
) -> Option<(&'d FrameDraw<'f, 'm>, usize)> {
    let number = polygon_of(key);
    for draw in draws {
        let index = number.wrapping_sub(draw.first);
        if index < draw.frame.model.polygons().len() {
            return Some((draw, index));
        }
    }
    None
}

/// The Rust version of a pass of [`emit_templates`] (on a SH-2 `emit.S`), a loop with
/// nothing else: the polygons of `keys` from the first while each is of a template and
/// wholly in front of its camera's near plane, and there is room.
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn emit_templates_reference(
    draws: &[FrameDraw<'_, '_>],
    light: PassLight,
    keys: &[SortKey],
    (tables, gouraud, first_gouraud): (&mut [CommandTable], &mut [GouraudTable], u32),
) -> (usize, usize) {
    let mut lit = 0;
    let mut emitted = 0;
    for (&key, table) in keys.iter().zip(tables) {
        let grda = first_gouraud + lit as u32;
        let corners =
            |draw: &FrameDraw<'_, '_>, index| draw.frame.corner_words_in_front_of(index, draw.near);
        let Some((words, took)) =
            template_command(draws, light, key, gouraud.get_mut(lit), grda, corners)
        else {
            break;
        };
        *table.as_words_mut() = words;
        lit += usize::from(took);
        emitted += 1;
    }
    (emitted, lit)
}

/// The command of the polygon of `key` (a frame number of `draws`' polygons) from its
/// draw's material's template with the corners `corners` gives, and whether it took the
/// gouraud table `colors` (a lit one's: its corners' light; VRAM address `grda` * 8; a lit
/// one whose corners share one normal takes the ramp's table of its colour instead, when
/// `light` has the ramp); `None` when it is of no draw given, of a material without a
/// template, lit by a stretching matrix or without a gouraud table, or `corners` gives
/// none.
fn template_command(
    draws: &[FrameDraw<'_, '_>],
    light: PassLight,
    key: SortKey,
    colors: Option<&mut GouraudTable>,
    grda: u32,
    corners: impl Fn(&FrameDraw<'_, '_>, usize) -> Option<[u32; 4]>,
) -> Option<([u32; 8], bool)> {
    let (draw, index) = draw_of(draws, key)?;
    let frame = draw.frame;
    let material = usize::from(frame.model.polygon_materials()[index].get());
    let kind = *draw.templates.kinds.get(material)?;
    let template = &draw.templates.templates[material];
    let [w0, w1, w2, w3] = match kind {
        TemplateKind::None => return None,
        _ => corners(draw, index)?,
    };
    let [h0, h1, h2] = template.head;
    let (last, took) = match kind {
        TemplateKind::Lit => {
            let direction = *draw.templates.light.direction(index)?;
            let colors = colors?;
            let levels = corner_levels(frame, index, direction, light.ambient)?;
            match (light.ramp, one_normal(frame, index)) {
                (Some(ramp), true) => {
                    let color = neutral_lit(levels[0]) & 0x1F;
                    (
                        field_pair((ramp + u32::from(color)) as u16, template.last as u16),
                        false,
                    )
                }
                _ => {
                    *colors = GouraudTable(levels.map(neutral_lit));
                    (field_pair(grda as u16, template.last as u16), true)
                }
            }
        }
        _ => (template.last, false),
    };
    Some(([h0, h1, h2, w0, w1, w2, w3, last], took))
}

/// Whether polygon `index`'s corners all name one normal (CNRM): a flat face, whose corners
/// all get one colour.
fn one_normal(frame: &ModelFrame<'_, '_>, index: usize) -> bool {
    let corners = frame
        .model
        .corner_normals()
        .and_then(|c| c.get(4 * index..4 * index + 4));
    corners.is_some_and(|c| c.iter().all(|n| n.get() == c[0].get()))
}

/// The light levels of polygon `index`'s corners by their normals, the light's
/// `direction` in its matrix's model space and its `ambient` part.
pub(super) fn corner_levels(
    frame: &ModelFrame<'_, '_>,
    index: usize,
    direction: Vec3,
    ambient: i32,
) -> Option<[i32; 4]> {
    let normals = frame.model.normals()?;
    let corners = frame
        .model
        .corner_normals()?
        .get(4 * index..4 * index + 4)?;
    let mut levels = [0; 4];
    for (level, corner) in levels.iter_mut().zip(corners) {
        let normal = normals.get(usize::from(corner.get()))?.raw();
        *level = light_level(normal, direction, ambient);
    }
    Some(levels)
}
