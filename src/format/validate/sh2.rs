//! The binding of the geometry's checks in SH-2 assembly (`geometry.S`, beside this file):
//! each vector's square length by three multiply-accumulates, the polygons' corners and
//! normals in one pass over QUAD (without branches for models of at most 0x8000 points). The Rust checks (`check_polygons`, `check_points`,
//! `check_normals`) stay the reference, and give the error when a loop says a record
//! fails; `asm_tests` compares the two on the emulated Saturns (the routines write SR, which
//! qemu's user mode forbids).

use super::{SHORTEST_SQUARED, SPAN_SQUARED};
use crate::format::{Polygon, U16Be, Vector};

// The constants geometry.S holds (`UNIT_SHORTEST_SQUARED`, `UNIT_SQUARED_SPAN`), and the
// shape it relies on: the shortest square length below 2^32, the span within a word.
const _: () = assert!(SHORTEST_SQUARED == 0xF810_0000 && SPAN_SQUARED == 0x1000_0000);

extern "C" {
    fn jom_quads_pass(polygons: *const Polygon, count: u32, points: u32) -> u32;
    fn jom_check_quads(polygons: *const Polygon, count: u32, points: u32) -> u32;
    fn jom_check_normals(normals: *const Vector, count: u32) -> u32;
    fn jom_indexes_below(indexes: *const U16Be, count: u32, limit: u32) -> u32;
    fn jom_farthest(points: *const Vector, count: u32, squared: *mut u64);
}

/// The largest limit of the indexes (PNTS's points for QUAD's corners) the loops without
/// branches take: they test indexes as 15-bit numbers (geometry.S).
const FAST_LIMIT: usize = 0x8000;

/// Whether every polygon has its corners below `points` (at most 0xFFFF, as PNTS holds)
/// and a normal of unit length within the tolerance. For at most [`FAST_LIMIT`] points
/// the loop without branches tests the normals short of the tolerance's longest end
/// (false for a normal just there, which the Rust checks then accept).
pub(crate) fn quads_pass(polygons: &[Polygon], points: usize) -> bool {
    if points > FAST_LIMIT {
        return quads_passing(polygons, points) == polygons.len();
    }
    // SAFETY: the routine reads the `polygons.len()` records of the slice (20 bytes each,
    // rt/layout.inc, checked by `asm_layout`) and keeps the registers the ABI asks.
    unsafe { jom_quads_pass(polygons.as_ptr(), polygons.len() as u32, points as u32) != 0 }
}

/// How many polygons from the first have every corner below `points` (at most 0xFFFF, as
/// PNTS holds) and a normal of unit length within the tolerance (all of them when all do).
fn quads_passing(polygons: &[Polygon], points: usize) -> usize {
    debug_assert!(
        points <= usize::from(u16::MAX),
        "the routine compares points << 16"
    );
    // SAFETY: the routine reads the `polygons.len()` records of the slice (20 bytes each,
    // rt/layout.inc, checked by `asm_layout`) and keeps the registers the ABI asks.
    unsafe { jom_check_quads(polygons.as_ptr(), polygons.len() as u32, points as u32) as usize }
}

/// How many normals from the first are of unit length within the tolerance.
pub(crate) fn normals_passing(normals: &[Vector]) -> usize {
    // SAFETY: the routine reads the `normals.len()` vectors of the slice.
    unsafe { jom_check_normals(normals.as_ptr(), normals.len() as u32) as usize }
}

/// The largest square length of `points` (0 for none), raw Q32.32.
pub(crate) fn farthest_squared(points: &[Vector]) -> u64 {
    let mut squared = 0;
    // SAFETY: the routine reads the `points.len()` vectors of the slice and writes the one
    // u64 borrowed here.
    unsafe { jom_farthest(points.as_ptr(), points.len() as u32, &mut squared) };
    squared
}

/// Whether every index is below `limit`; `None` when the routine cannot say (a limit
/// past 0x8000: it tests 15-bit numbers; indexes not on a 4-byte boundary: it reads them
/// two at a time).
pub(crate) fn indexes_below(indexes: &[U16Be], limit: usize) -> Option<bool> {
    if limit > usize::from(u16::MAX) {
        return Some(true);
    }
    if limit > FAST_LIMIT || indexes.as_ptr() as usize % 4 != 0 {
        return None;
    }
    // SAFETY: the routine reads the `indexes.len()` u16 of the slice, from its start on a
    // 4-byte boundary (checked above), as words of two and the odd one last as a u16.
    Some(unsafe { jom_indexes_below(indexes.as_ptr(), indexes.len() as u32, limit as u32) } != 0)
}
