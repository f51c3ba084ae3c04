//! The binding of the common case of culling in SH-2 assembly (`cull.S`, beside this
//! file): polygons of one plain material seen through one matrix, culled by their normals
//! against the eye, the far plane and the screen, their sort keys written. The Rust version
//! (`Frame::cull_plain_run_reference`) stays the reference: the render tests compare this
//! path with the general one, and `asm_tests` the two, in every SH-2 build (qemu too).

use core::ops::Range;

use crate::format::{Model, Polygon, U16Be, Vector};
use crate::render::cull::{PlainCull, PlainRun};
use crate::render::{Camera, SortKey, ViewPoint};

/// What `jom_cull_plain` reads and writes (its layout: `cull_job.inc`).
#[repr(C)]
struct CullJob {
    material: u32,
    end: u32,
    materials: *const U16Be,
    points: *const ViewPoint,
    model_points: *const Vector,
    eye: [i32; 3],
    mirrored: u32,
    owned_start: u32,
    owned_end: u32,
    near: i32,
    far: i32,
    half_width: i32,
    half_height: i32,
    depth_factor: u32,
    polygons: *const Polygon,
    start: u32,
    keys: *mut SortKey,
    done: u32,
    culled: u32,
    last_depth: i32,
}

// Its layout, checked against `cull_job.inc` (which `cull.S` includes): build.rs writes it.
include!(concat!(env!("OUT_DIR"), "/cull_job.rs"));

extern "C" {
    fn jom_cull_plain(job: *mut CullJob);
}

/// Culls the polygons of `range` of `model` (its points transformed into `points`) from
/// the start of the range while they stay in `plain`'s case, writing the keys of the
/// visible ones to `keys` from its start.
pub(crate) fn cull_plain_run(
    model: &Model<'_>,
    points: &[ViewPoint],
    camera: &Camera,
    plain: &PlainCull,
    range: Range<usize>,
    keys: &mut [SortKey],
) -> PlainRun {
    let (polygons, materials) = (model.polygons(), model.polygon_materials());
    // A key at most a polygon: no more polygons than keys. Every corner of a validated
    // model indexes its points, which `points` must all hold.
    let end = range.end.min(range.start + keys.len()).min(polygons.len());
    if range.start >= end || points.len() < model.points().len() || materials.len() < end {
        return PlainRun::default();
    }
    let mut job = CullJob {
        material: u32::from(plain.material),
        end: end as u32,
        materials: materials.as_ptr(),
        points: points.as_ptr(),
        model_points: model.points().as_ptr(),
        eye: plain.eye.position,
        mirrored: u32::from(plain.eye.mirrored),
        owned_start: plain.owned.start,
        owned_end: plain.owned.end,
        near: camera.near,
        far: camera.far,
        half_width: i32::from(camera.width / 2),
        half_height: i32::from(camera.height / 2),
        depth_factor: plain.depth_factor,
        polygons: polygons.as_ptr(),
        start: range.start as u32,
        keys: keys.as_mut_ptr(),
        done: 0,
        culled: 0,
        last_depth: 0,
    };
    let first_key = job.keys;
    // SAFETY: the routine reads polygons and their materials from `start` to `end`
    // (within both slices, checked above), the model points and view points of their
    // corners (indexes a validated model keeps below its point count, which both slices
    // hold), and writes at most one key a polygon, `end - start` at most, within `keys`.
    unsafe { jom_cull_plain(&mut job) };
    // SAFETY: `job.keys` moved on from `first_key` within `keys`, by whole keys.
    let visible = unsafe { job.keys.offset_from(first_key) } as usize;
    PlainRun {
        done: job.done as usize,
        visible,
        culled: job.culled as usize,
        last_depth: job.last_depth,
    }
}
