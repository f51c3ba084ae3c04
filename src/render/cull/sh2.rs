//! The binding of the common case of culling in SH-2 assembly (`cull.S`, beside this
//! file): polygons of one plain material seen through one matrix, culled by their normals
//! against the eye, the far plane and the screen, their sort keys written. The Rust version
//! (`ModelFrame::cull_plain_run_reference`) stays the reference: the render tests compare this
//! path with the general one, and `asm_tests` the two, on the emulated Saturns.

use core::ops::Range;

use super::plain::{center_depth, PlainCull, PlainMaterials, PlainRun};
use crate::format::{Model, Polygon, U16Be, Vector};
use crate::render::camera::Camera;
use crate::render::shared::{SortKey, ViewPoint};
use crate::render::sort::KeyCounts;

/// What `jom_cull_plain` reads and writes (its layout: `cull_job.inc`).
#[repr(C)]
struct CullJob {
    neg_eye: [i32; 3],
    material: i32,
    owned_start: u32,
    owned_count: u32,
    near: i32,
    far: i32,
    half_width: i32,
    full_width: i32,
    half_height: i32,
    full_height: i32,
    depth_factor: u32,
    mirror: i32,
    counts: *mut KeyCounts,
    model_points: *const Vector,
    polygons: *const Polygon,
    materials: *const U16Be,
    depths: *const i32,
    count: u32,
    start: u32,
    keys: *mut SortKey,
    done: u32,
    side_focal: i32,
    side_half_width: i32,
    side_half_height: i32,
    plain_materials: *const PlainMaterials,
    plane_runs: *const u8,
    crossing: u32,
}

// Its layout and that of `KeyCounts`, checked against `cull_job.inc` (which `cull.S`
// includes): build.rs writes it.
include!(concat!(env!("OUT_DIR"), "/cull_job.rs"));

extern "C" {
    fn jom_cull_plain(job: *mut CullJob);
    fn jom_cull_plain_runs(job: *mut CullJob);
    fn jom_cull_plain_all(job: *mut CullJob);
    fn jom_cull_plain_runs_all(job: *mut CullJob);
}

/// Culls the polygons of `range` of `model` (its points transformed into `points`) from
/// the start of the range while they stay in `plain`'s case, writing the keys of the
/// visible ones to `keys` from its start and counting them in `counts`.
pub(crate) fn cull_plain_run(
    model: &Model<'_>,
    points: &[ViewPoint],
    camera: &Camera,
    plain: &PlainCull,
    range: Range<usize>,
    keys: &mut [SortKey],
    counts: &mut KeyCounts,
) -> PlainRun {
    let (polygons, materials) = (model.polygons(), model.polygon_materials());
    // A key at most a polygon: no more polygons than keys. Every corner of a validated
    // model indexes its points, which `points` must all hold.
    let end = range.end.min(range.start + keys.len()).min(polygons.len());
    // The loop takes a depth in front of the near plane for at least 0 (the renderer's
    // cameras have `near >= 1`: `render::limits`).
    let unchecked = camera.near < 1;
    if range.start >= end
        || points.len() < model.points().len()
        || materials.len() < end
        || unchecked
    {
        return PlainRun::default();
    }
    let (half_width, half_height) = (i32::from(camera.width / 2), i32::from(camera.height / 2));
    let halves = plain.sides.halves().unwrap_or((0, 0));
    let [x, y, z] = plain.eye.position;
    let mut job = CullJob {
        // The eye is within (-2^31, 2^31) (`Eye::of`): its negation is exact.
        neg_eye: [x.wrapping_neg(), y.wrapping_neg(), z.wrapping_neg()],
        // As the loop's `mov.w` loads a material: sign-extended.
        material: i32::from(plain.material as i16),
        owned_start: plain.owned.start,
        owned_count: plain.owned.end.saturating_sub(plain.owned.start),
        near: camera.near,
        far: camera.far,
        half_width,
        full_width: 2 * half_width,
        half_height,
        full_height: 2 * half_height,
        depth_factor: plain.depth_factor,
        mirror: -i32::from(plain.eye.mirrored),
        counts,
        count: (end - range.start) as u32,
        polygons: polygons[range.start..].as_ptr(),
        materials: materials[range.start..].as_ptr(),
        depths: points.as_ptr().cast::<i32>().wrapping_add(2),
        model_points: model.points().as_ptr(),
        // The loop counts from the range's first frame number (an index below the
        // renderer's 65,536 polygons a frame, offset by the polygons before).
        start: (range.start + plain.numbered_from) as u32,
        keys: keys.as_mut_ptr(),
        done: 0,
        // The side planes' (0 when not used: a half is at least the margin).
        side_focal: camera.focal_length,
        side_half_width: halves.0,
        side_half_height: halves.1,
        plain_materials: plain.plain_materials,
        plane_runs: core::ptr::null(),
        crossing: 0,
    };
    // With the range's plane runs, a form that reads them; when the matrix moves every
    // point of the model (a validated model's corners index its points), one that does not
    // look corner A up in its range.
    let runs = plain.plane_runs.get(range.start..end);
    let all = plain.owned.start == 0 && plain.owned.end as usize >= model.points().len();
    let routine: unsafe extern "C" fn(*mut CullJob) = match (runs, all) {
        (Some(_), true) => jom_cull_plain_runs_all,
        (Some(_), false) => jom_cull_plain_runs,
        (None, true) => jom_cull_plain_all,
        (None, false) => jom_cull_plain,
    };
    if let Some(runs) = runs {
        job.plane_runs = runs.as_ptr();
    }
    let first_key = job.keys;
    // SAFETY: each form reads polygons and their materials from `start` to `end`
    // (within both slices, checked above), the model points and view points of their
    // corners (indexes a validated model keeps below its point count, which both slices
    // hold; `depths` is each view point's z, `ViewPoint::view[2]`), reads the plain
    // materials' byte of a material below `PLAIN_MATERIALS` and the plane run of a
    // polygon of the range (passing over no more polygons than the range has), writes at
    // most one key a polygon, `end - start` at most, within `keys`, and adds 1 to
    // `counts.low` at a key's byte 2 (256 entries).
    unsafe { routine(&mut job) };
    // SAFETY: `job.keys` moved on from `first_key` within `keys`, by whole keys.
    let visible = unsafe { job.keys.offset_from(first_key) } as usize;
    let done = job.done as usize;
    PlainRun {
        done,
        visible,
        culled: done - visible,
        crossing: job.crossing as usize,
        last_depth: match done {
            0 => 0,
            _ => center_depth(&polygons[range.start + done - 1], points),
        },
    }
}
