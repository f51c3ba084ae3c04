//! The binding of the common case of emission in SH-2 assembly (`emit.S`, beside this
//! file): sorted polygons of one plain material, each the material's command with its
//! corners, written as eight words into the command list. The Rust version
//! (`Frame::emit_plain_reference`) stays the reference: `asm_tests` compares the two in
//! every SH-2 build (qemu too).

use crate::format::{Model, Polygon, U16Be};
use crate::render::{SortKey, ViewPoint};
use crate::vdp1::CommandTable;

/// What `jom_emit_plain` reads and writes (its layout: `emit_job.inc`).
#[repr(C)]
struct EmitJob {
    keys: *const SortKey,
    key_count: u32,
    materials: *const U16Be,
    material: u32,
    polygons: *const Polygon,
    points: *const ViewPoint,
    near: i32,
    head: [u32; 3],
    last: u32,
    tables: *mut CommandTable,
    table_count: u32,
    emitted: u32,
}

// Its layout, checked against `emit_job.inc` (which `emit.S` includes): build.rs writes it.
include!(concat!(env!("OUT_DIR"), "/emit_job.rs"));

extern "C" {
    fn jom_emit_plain(job: *mut EmitJob);
}

/// Writes the commands of the polygons of `keys` (of `model`, its points transformed into
/// `points`) into `tables` from the start, while they are of the `(material, first three
/// words, last word)` style's material and wholly in front of the `near` plane, and there
/// is room; gives how many.
///
/// # Safety
///
/// Every key's index (its low 16 bits) is the index of one of `model`'s polygons.
pub(crate) unsafe fn emit_plain_run(
    model: &Model<'_>,
    points: &[ViewPoint],
    near: i32,
    (material, head, last): (u16, [u32; 3], u32),
    keys: &[SortKey],
    tables: &mut [CommandTable],
) -> usize {
    if keys.is_empty() || tables.is_empty() || points.len() < model.points().len() {
        return 0;
    }
    let mut job = EmitJob {
        keys: keys.as_ptr(),
        key_count: keys.len() as u32,
        materials: model.polygon_materials().as_ptr(),
        material: u32::from(material),
        polygons: model.polygons().as_ptr(),
        points: points.as_ptr(),
        near,
        head,
        last,
        tables: tables.as_mut_ptr(),
        table_count: tables.len() as u32,
        emitted: 0,
    };
    // SAFETY: the routine reads at most `keys.len()` keys, for each the material and the
    // polygon of its index (one of the model's, as the caller promises: QMAT holds one a
    // polygon) and the view points of its corners (a validated model's corners index its
    // points, which `points` all hold), and writes at most `tables.len()` tables.
    unsafe { jom_emit_plain(&mut job) };
    job.emitted as usize
}
