//! The bindings of the common cases of emission in SH-2 assembly (`emit.S`, beside this
//! file): sorted polygons of one plain material, each the material's command with its
//! corners, written as eight words into the command list; and sorted polygons of materials
//! lit by corner normals, each its material's command and a gouraud table of its corners'
//! light; the polygons of a frame's draws in one pass (`jom_emit_frame`); a run's row of
//! the light table (`jom_light_colors`). The Rust versions (`ModelFrame::emit_plain_reference`,
//! `ModelFrame::emit_lit_reference`, `emit_templates_reference`, `light_colors_reference`) stay
//! the references: `asm_tests` compares them with the assembly in every SH-2 build (qemu
//! too).

use super::records::{
    DrawRecord, FrameTemplate, LightRuns, PassLight, RunLight, TemplateKind, FRAME_DRAWS,
};
use super::template::{LitTemplate, CACHED_STYLES};
use crate::format::{Model, Polygon, U16Be, Vector};
use crate::math::Vec3;
use crate::render::list::LIGHT_RAMP;
use crate::render::shared::{SortKey, ViewPoint};
use crate::vdp1::{CommandTable, GouraudTable, Point};

/// What `jom_emit_plain` reads and writes (its layout: `emit_job.inc`).
#[repr(C)]
struct EmitJob {
    keys: *const SortKey,
    key_count: u32,
    materials: *const U16Be,
    material: u32,
    polygons: *const Polygon,
    /// The view points, or for `jom_emit_plain_in_front` their screen positions.
    points: *const u8,
    near: i32,
    head: [u32; 3],
    last: u32,
    tables: *mut CommandTable,
    table_count: u32,
    emitted: u32,
}

// Its layout, checked against `emit_job.inc` (which `emit.S` includes): build.rs writes it.
include!(concat!(env!("OUT_DIR"), "/emit_job.rs"));

/// The form of `jom_emit_plain` for polygons in front of `near` and where it reads their
/// corners: without the test, from `screens` (when they hold the model's `needed` points),
/// when `near` is `i32::MIN`; else with it, from `points`.
fn corner_source(
    near: i32,
    points: &[ViewPoint],
    screens: Option<&[Point]>,
    needed: usize,
) -> (unsafe extern "C" fn(*mut EmitJob), *const u8) {
    match super::near::untested_screens(near, screens, needed) {
        Some(screens) => (jom_emit_plain_in_front, screens.as_ptr().cast()),
        None => (jom_emit_plain, points.as_ptr().cast()),
    }
}

/// What `jom_emit_lit` reads and writes (its layout: `emit_job.inc`).
#[repr(C)]
struct EmitLitJob {
    templates: *const LitTemplate,
    template_count: u32,
    polygons: *const Polygon,
    near: i32,
    points: *const ViewPoint,
    corner_normals: *const U16Be,
    run_groups: *const u8,
    run_ends: *const u32,
    run_rows: *const i16,
    colors: *const u16,
    run_lights: *const RunLight,
    normals: *const Vector,
    ambient: i32,
    direct: i32,
    ramp: *const u16,
    gouraud_index: u32,
    keys: *const SortKey,
    count: u32,
    materials: *const U16Be,
    tables: *mut CommandTable,
    gouraud: *mut GouraudTable,
    emitted: u32,
}

/// What `jom_light_colors` reads (its layout: `emit_job.inc`).
#[repr(C)]
struct LightColorsJob {
    normals: *const Vector,
    count: u32,
    direction: [i32; 3],
    ambient: i32,
    direct: i32,
    ramp: *const u16,
    colors: *mut u16,
}

/// What `jom_emit_frame` reads and writes (its layout: `emit_job.inc`).
#[repr(C)]
struct FrameEmitJob {
    draws: *const DrawEmitJob,
    draw_count: u32,
    keys: *const SortKey,
    count: u32,
    ambient: i32,
    direct: i32,
    ramp: *const u16,
    tables: *mut CommandTable,
    gouraud: *mut GouraudTable,
    gouraud_left: u32,
    gouraud_index: u32,
    emitted: u32,
    flat_index: u32,
}

/// One draw as `jom_emit_frame` reads it (its layout: `emit_job.inc`).
#[repr(C)]
#[derive(Clone, Copy)]
struct DrawEmitJob {
    first: u32,
    end: u32,
    materials: *const U16Be,
    kinds: *const TemplateKind,
    templates: *const FrameTemplate,
    polygons: *const Polygon,
    /// The view points, or for `jom_emit_frame_in_front` their screen positions.
    points: *const u8,
    near: i32,
    corner_normals: *const U16Be,
    normals: *const Vector,
    run_groups: *const u8,
    run_ends: *const u32,
    run_rows: *const i16,
    colors: *const u16,
    run_lights: *const RunLight,
    count: u32,
}

extern "C" {
    fn jom_emit_plain(job: *mut EmitJob);
    fn jom_emit_plain_in_front(job: *mut EmitJob);
    fn jom_emit_lit(job: *mut EmitLitJob);
    fn jom_light_colors(job: *const LightColorsJob);
    fn jom_emit_frame(job: *mut FrameEmitJob);
    fn jom_emit_frame_in_front(job: *mut FrameEmitJob);
}

/// Writes the commands of the polygons of `keys` (of `model`, its points transformed into
/// `points`, their screen positions also into `screens` when given) into `tables` from
/// the start, while they are of the `(material, first three words, last word)` style's
/// material and wholly in front of the `near` plane, and there is room; gives how many. A
/// `near` of `i32::MIN` (no corner is behind it) with `screens` takes the routine's form
/// without the test, which reads them.
///
/// # Safety
///
/// Every key's index (its low 16 bits) is the index of one of `model`'s polygons.
pub(crate) unsafe fn emit_plain_run(
    model: &Model<'_>,
    (points, screens): (&[ViewPoint], Option<&[Point]>),
    near: i32,
    (material, head, last): (u16, [u32; 3], u32),
    keys: &[SortKey],
    tables: &mut [CommandTable],
) -> usize {
    let needed = model.points().len();
    if keys.is_empty() || tables.is_empty() || points.len() < needed {
        return 0;
    }
    let (routine, corners) = corner_source(near, points, screens, needed);
    let mut job = EmitJob {
        keys: keys.as_ptr(),
        key_count: keys.len() as u32,
        materials: model.polygon_materials().as_ptr(),
        material: u32::from(material),
        polygons: model.polygons().as_ptr(),
        points: corners,
        near,
        head,
        last,
        tables: tables.as_mut_ptr(),
        table_count: tables.len() as u32,
        emitted: 0,
    };
    // SAFETY: either form reads at most `keys.len()` keys, for each the material and the
    // polygon of its index (one of the model's, as the caller promises: QMAT holds one a
    // polygon) and the view points or screen positions of its corners (a validated
    // model's corners index its points, which `points` and `screens` all hold), and writes
    // at most `tables.len()` tables.
    unsafe { routine(&mut job) };
    job.emitted as usize
}

/// Writes the commands and gouraud tables of the polygons of `keys` (of `model`, its points
/// transformed into `points`) into `tables` and `gouraud` from the start, the first gouraud
/// table at VRAM address `gouraud_index` * 8, while each polygon's material has a usable
/// template in `templates`, it is wholly in front of the `near` plane, its matrix does not
/// stretch and there is room; gives how many. What `ModelFrame::emit_lit_reference` does.
///
/// # Safety
///
/// Every key's index (its low 16 bits) is the index of one of `model`'s polygons, and
/// `ambient` is 0 to 1.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn emit_lit_run(
    model: &Model<'_>,
    points: &[ViewPoint],
    near: i32,
    templates: &[LitTemplate; CACHED_STYLES],
    light: LightRuns<'_>,
    ambient: i32,
    keys: &[SortKey],
    (tables, gouraud, gouraud_index): (&mut [CommandTable], &mut [GouraudTable], u32),
) -> usize {
    let (Some(normals), Some(corner_normals)) = (model.normals(), model.corner_normals()) else {
        return 0;
    };
    let count = keys.len().min(tables.len()).min(gouraud.len());
    let complete = corner_normals.len() >= 4 * model.polygons().len();
    if count == 0 || !complete || points.len() < model.points().len() || normals.is_empty() {
        return 0;
    }
    let mut job = EmitLitJob {
        keys: keys.as_ptr(),
        count: count as u32,
        materials: model.polygon_materials().as_ptr(),
        templates: templates.as_ptr(),
        template_count: CACHED_STYLES as u32,
        polygons: model.polygons().as_ptr(),
        points: points.as_ptr(),
        near,
        corner_normals: corner_normals.as_ptr(),
        normals: normals.as_ptr(),
        run_groups: light.groups.as_ptr(),
        run_ends: light.ends.as_ptr(),
        run_rows: light.rows.as_ptr(),
        colors: light.colors.map_or(core::ptr::null(), |c| c.as_ptr()),
        run_lights: light.lights.as_ptr(),
        ambient,
        direct: crate::math::ONE - ambient,
        ramp: LIGHT_RAMP.as_ptr(),
        tables: tables.as_mut_ptr(),
        gouraud: gouraud.as_mut_ptr(),
        gouraud_index,
        emitted: 0,
    };
    // SAFETY: the routine reads at most `count` keys, for each the material, the polygon
    // and the four corner normals of its index (one of the model's, as the caller
    // promises; QMAT holds one a polygon, CNRM four: checked above), the view points of
    // its corners (a validated model's corners index its points, which `points` all hold),
    // a template below `template_count`, its group's first run (a group below `RUN_GROUPS`)
    // and the runs' ends and lights from there to its own (at the latest the one after the
    // last: `ModelLight::index_runs`), the normals its corners name (a validated model's
    // CNRM indexes its NTAB) or their colours in its run's row of the table (the row of
    // each run below the one after the last, `normals` colours long), and the ramp's 17
    // colours at a level of 0 to 1 (`ambient` 0 to 1); it writes at most `count` command
    // and gouraud tables.
    unsafe { jom_emit_lit(&mut job) };
    job.emitted as usize
}

/// The draws of a frame as `jom_emit_frame` reads them: at most `FRAME_DRAWS`, made once
/// for the passes over a frame's polygons (the polygons of the others stop a pass).
pub(crate) struct FrameJobs {
    jobs: [DrawEmitJob; FRAME_DRAWS],
    count: usize,
    /// The routine's form: without the near plane's test when no draw's polygons are
    /// tested against one (each draw's `near` is `i32::MIN`: none crosses its camera's)
    /// and each has its screen positions' compact copy (which that form reads).
    routine: unsafe extern "C" fn(*mut FrameEmitJob),
}

impl FrameJobs {
    /// The jobs of `draws`, up to the first whose frame lacks some of its model's points.
    pub(crate) fn of<'a>(draws: impl IntoIterator<Item = DrawRecord<'a>>) -> Self {
        const EMPTY: DrawEmitJob = DrawEmitJob {
            first: 0,
            end: 0,
            materials: core::ptr::null(),
            kinds: core::ptr::null(),
            templates: core::ptr::null(),
            polygons: core::ptr::null(),
            points: core::ptr::null(),
            near: 0,
            corner_normals: core::ptr::null(),
            normals: core::ptr::null(),
            run_groups: core::ptr::null(),
            run_ends: core::ptr::null(),
            run_rows: core::ptr::null(),
            colors: core::ptr::null(),
            run_lights: core::ptr::null(),
            count: 0,
        };
        let mut jobs = Self {
            jobs: [EMPTY; FRAME_DRAWS],
            count: 0,
            routine: jom_emit_frame,
        };
        // Each draw's screen positions, when the form without the near plane's test may
        // read them.
        let mut screens: [Option<*const u8>; FRAME_DRAWS] = [None; FRAME_DRAWS];
        for ((draw, job), untested) in draws.into_iter().zip(&mut jobs.jobs).zip(&mut screens) {
            let frame = draw.frame;
            let model = frame.model;
            if frame.points.len() < model.points().len() {
                break;
            }
            let light = draw.runs;
            *job = DrawEmitJob {
                first: draw.first as u32,
                end: (draw.first + model.polygons().len()) as u32,
                materials: model.polygon_materials().as_ptr(),
                kinds: draw.kinds.as_ptr(),
                templates: draw.templates.as_ptr(),
                polygons: model.polygons().as_ptr(),
                points: frame.points.as_ptr().cast(),
                near: draw.near,
                corner_normals: model
                    .corner_normals()
                    .map_or(core::ptr::null(), |c| c.as_ptr()),
                normals: model.normals().map_or(core::ptr::null(), |n| n.as_ptr()),
                run_groups: light.groups.as_ptr(),
                run_ends: light.ends.as_ptr(),
                run_rows: light.rows.as_ptr(),
                colors: light.colors.map_or(core::ptr::null(), |c| c.as_ptr()),
                run_lights: light.lights.as_ptr(),
                count: model.polygons().len() as u32,
            };
            *untested = draw.screens.map(|s| s.as_ptr().cast());
            jobs.count += 1;
        }
        let screens = &screens[..jobs.count];
        if screens.iter().all(Option::is_some) {
            jobs.routine = jom_emit_frame_in_front;
            for (job, screens) in jobs.jobs.iter_mut().zip(screens.iter().flatten()) {
                job.points = *screens;
            }
        }
        jobs
    }

    /// What `emit_templates_reference` (frame.rs) does, by `jom_emit_frame`: the polygons
    /// of `keys` (frame numbers of the draws' polygons) from the first, each its draw's
    /// material's template, into the command and gouraud tables of `out` (the first
    /// gouraud table at VRAM address `first_gouraud` * 8); gives how many polygons and how
    /// many gouraud tables.
    ///
    /// # Safety
    ///
    /// The draws these jobs were made of are still borrowed as they were: each draw's
    /// frame holds all its model's points and its templates are made for its model
    /// (`DrawTemplates::start`: lit kinds only when every polygon has its corner normals),
    /// and `light.ambient` is 0 to 1 when a template is lit.
    pub(crate) unsafe fn emit(
        &self,
        PassLight { ambient, ramp }: PassLight,
        keys: &[SortKey],
        (tables, gouraud, first_gouraud): (&mut [CommandTable], &mut [GouraudTable], u32),
    ) -> (usize, usize) {
        let mut job = FrameEmitJob {
            draws: self.jobs.as_ptr(),
            draw_count: self.count as u32,
            keys: keys.as_ptr(),
            count: keys.len().min(tables.len()) as u32,
            ambient,
            direct: crate::math::ONE - ambient,
            ramp: LIGHT_RAMP.as_ptr(),
            tables: tables.as_mut_ptr(),
            gouraud: gouraud.as_mut_ptr(),
            gouraud_left: gouraud.len() as u32,
            gouraud_index: first_gouraud,
            emitted: 0,
            // 0: no ramp (VRAM address 0 holds the command list, never a gouraud table).
            flat_index: ramp.unwrap_or(0),
        };
        // SAFETY: either form of the routine reads at most `count` keys and, for a key of
        // one of the draws given, the material of its index (QMAT: one a polygon), the kind
        // and template of a material below `CACHED_STYLES` (the arrays' length), the polygon
        // and the view points (in front: screen positions) of its corners (a validated
        // model's corners index its points, which the draw's points and screen positions
        // all hold: `of`); for a lit kind also its four corner
        // normals (CNRM holds four a polygon when a template is lit, as the caller
        // promises), its run as for `emit_lit_run`, the normals they name (a validated
        // model's CNRM indexes its NTAB) or their colours in the run's row of the table,
        // and the ramp's 17 colours at a level of 0 to 1 (`ambient` 0 to 1). It writes at
        // most `count` command tables and `gouraud_left` gouraud tables (a flat polygon's
        // command names a ramp table, `flat_index` + its colour's channel, 0 to 16).
        unsafe { (self.routine)(&mut job) };
        let lit = job.gouraud_index.wrapping_sub(first_gouraud) as usize;
        (job.emitted as usize, lit)
    }
}

/// What `light_colors_reference` (light.rs) does, by `jom_light_colors`: the gouraud colour
/// of each of `normals` in the light from `direction` with the `ambient` part (0 to 1), into
/// `colors` (as many as both hold).
pub(crate) fn light_colors(normals: &[Vector], direction: Vec3, ambient: i32, colors: &mut [u16]) {
    if !(0..=crate::math::ONE).contains(&ambient) {
        return;
    }
    let job = LightColorsJob {
        normals: normals.as_ptr(),
        count: normals.len().min(colors.len()) as u32,
        direction,
        ambient,
        direct: crate::math::ONE - ambient,
        ramp: LIGHT_RAMP.as_ptr(),
        colors: colors.as_mut_ptr(),
    };
    // SAFETY: the routine reads `count` normals and writes `count` colours (no more than
    // either slice holds), and reads the ramp's 17 colours at a level of 0 to 1 (the
    // caller's `ambient` is 0 to 1; the facing is clamped to 0 to 1).
    unsafe { jom_light_colors(&job) };
}
