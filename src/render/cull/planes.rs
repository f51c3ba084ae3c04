//! Runs of coplanar polygons, found once when a model is loaded: a box's side made of a
//! grid of quads faces the eye or not as a whole, so the culling, finding its first
//! polygon facing away, passes over the rest of the run at once (`cull.S`) instead of
//! testing each (about 50 cycles a polygon on the SH-2).

use crate::format::{Group, Model};

/// Writes into `runs` (one byte a polygon of `model`) how many polygons after each are in
/// its run (at most 255): consecutive polygons of one material, of the same normal, in the
/// same plane (the normal's dot product with corner A the same, exactly: the culling's
/// facing test, which takes the normal and corner A, gives each of them the same answer
/// for any eye) and, in a model with groups, of the same group with corner A among the
/// group's own points (so that the matrix that moves the first moves them all).
pub(crate) fn write_plane_runs(model: &Model<'_>, runs: &mut [u8]) {
    let count = model.polygons().len().min(runs.len());
    let mut after = 0u8;
    for index in (0..count).rev() {
        after = match index + 1 < count && same_plane(model, index, index + 1) {
            true => after.saturating_add(1),
            false => 0,
        };
        runs[index] = after;
    }
}

/// Whether polygon `next` joins the run of polygon `index`.
fn same_plane(model: &Model<'_>, index: usize, next: usize) -> bool {
    let (polygons, materials) = (model.polygons(), model.polygon_materials());
    let (first, second) = (&polygons[index], &polygons[next]);
    let normal = first.normal().raw();
    let offset = |corner: u16| {
        let point = model.points()[usize::from(corner)].raw();
        (0..3).fold(0i64, |sum, axis| {
            sum + i64::from(normal[axis]) * i64::from(point[axis])
        })
    };
    let (a, next_a) = (first.corners()[0], second.corners()[0]);
    materials[index] == materials[next]
        && normal == second.normal().raw()
        && offset(a) == offset(next_a)
        && same_group(model.groups(), (index, a), (next, next_a))
}

/// Whether two polygons (index, corner A) are of one group with their corners A among its
/// points; true in a model without groups.
fn same_group(groups: &[Group], first: (usize, u16), second: (usize, u16)) -> bool {
    if groups.is_empty() {
        return true;
    }
    let owns = |group: &Group, (polygon, corner): (usize, u16)| {
        group.polygons().contains(&polygon) && group.points().contains(&usize::from(corner))
    };
    groups
        .iter()
        .any(|group| owns(group, first) && owns(group, second))
}
