//! Regions of a level (REGN, `--cells N`): the converted model's polygons put in order of
//! region, each region's points its own (a point two regions use is written once for
//! each), and each region's bounding sphere. A region is the polygons of one group (a glTF
//! node, an OBJ `o` or `g`) in one cell of an N x N grid over X and Z (the ground's plane in
//! the Saturn's axes); the renderer culls each by its sphere before transforming its points
//! (docs/levels.md). Runs after the importers, on the file every format becomes.

use jom_write::{JomFile, Region};
use std::collections::BTreeMap;

/// The most cells a side of the grid (`--cells`).
pub const MAX_CELLS: u32 = 64;

/// Puts `file`'s polygons in order of region (group, then cell of an `cells` x `cells`
/// grid over X and Z) and gives the regions; the groups' ranges follow. Refused for a
/// model with a skeleton (a posed draw is not culled by region) and when the points, once
/// each region has its own, are more than 65,535.
pub fn split(file: &mut JomFile, cells: u32) -> Result<Vec<Region>, String> {
    if file.bones.is_some() {
        return Err(
            "--cells is for models without a skeleton: a posed draw is not culled by \
                    region (draw the level as a rigid model)"
                .into(),
        );
    }
    let keys = region_keys(file, cells);
    // Polygons in order of region, each region's in the model's order.
    let mut order: Vec<usize> = (0..file.polygons.len()).collect();
    order.sort_by_key(|&p| keys[p]);
    let mut points = Vec::new();
    let mut colors = file.vertex_colors.as_ref().map(|_| Vec::new());
    let mut regions: Vec<Region> = Vec::new();
    let mut polygons = Vec::with_capacity(order.len());
    let mut start = 0;
    while start < order.len() {
        let key = keys[order[start]];
        let end = start
            + order[start..]
                .iter()
                .take_while(|&&p| keys[p] == key)
                .count();
        let first_point = points.len();
        let mut own: BTreeMap<u16, u16> = BTreeMap::new();
        for &p in &order[start..end] {
            let mut polygon = file.polygons[p];
            for corner in &mut polygon.corners {
                let next = points.len();
                let index = *own.entry(*corner).or_insert_with(|| {
                    points.push(file.points[usize::from(*corner)]);
                    if let (Some(colors), Some(source)) = (&mut colors, &file.vertex_colors) {
                        colors.push(source[usize::from(*corner)]);
                    }
                    next as u16
                });
                if points.len() > usize::from(u16::MAX) {
                    return Err(format!(
                        "--cells {cells}: the regions need more than 65,535 points (each \
                         region has its own); use fewer cells"
                    ));
                }
                *corner = index;
            }
            polygons.push(polygon);
        }
        regions.push(Region {
            first_point: first_point as u16,
            point_count: (points.len() - first_point) as u16,
            first_polygon: start as u16,
            polygon_count: (end - start) as u16,
            ..Region::default()
        });
        start = end;
    }
    let reach = reach(&points);
    for region in &mut regions {
        let first = usize::from(region.first_point);
        let own = &points[first..first + usize::from(region.point_count)];
        (region.center, region.radius) = sphere(own, reach);
    }
    reorder_polygons(file, &order);
    file.polygons = polygons;
    file.points = points;
    file.vertex_colors = colors;
    if let Some(groups) = &mut file.groups {
        for (g, group) in groups.iter_mut().enumerate() {
            let of_group = |r: &&Region| keys[order[usize::from(r.first_polygon)]].0 == g;
            let mine: Vec<&Region> = regions.iter().filter(of_group).collect();
            let (first, last) = (mine.first(), mine.last());
            group.first_polygon = first.map_or(0, |r| r.first_polygon);
            group.polygon_count =
                last.map_or(0, |r| r.first_polygon + r.polygon_count) - group.first_polygon;
            group.first_point = first.map_or(0, |r| r.first_point);
            group.point_count =
                last.map_or(0, |r| r.first_point + r.point_count) - group.first_point;
        }
    }
    Ok(regions)
}

/// Each polygon's region: its group (GRUP's order, the polygons of no group after) and
/// its cell (row along Z, then column along X) by its centre; a polygon that takes the
/// depth of the one before it (sort previous) goes with that one.
fn region_keys(file: &JomFile, cells: u32) -> Vec<(usize, u32)> {
    let cells = cells.clamp(1, MAX_CELLS);
    let (mut low, mut high) = ([i64::MAX; 2], [i64::MIN; 2]);
    for point in &file.points {
        for (axis, &v) in [point[0], point[2]].iter().enumerate() {
            low[axis] = low[axis].min(i64::from(v));
            high[axis] = high[axis].max(i64::from(v));
        }
    }
    let groups = file.groups.as_deref().unwrap_or(&[]);
    let group_of = |p: usize| {
        groups
            .iter()
            .position(|g| {
                let first = usize::from(g.first_polygon);
                (first..first + usize::from(g.polygon_count)).contains(&p)
            })
            .unwrap_or(groups.len())
    };
    let cell_along = |axis: usize, v: i64| {
        let span = (high[axis] - low[axis]).max(1);
        (((v - low[axis]) * i64::from(cells)) / span).clamp(0, i64::from(cells) - 1) as u32
    };
    let mut keys: Vec<(usize, u32)> = Vec::with_capacity(file.polygons.len());
    for (p, polygon) in file.polygons.iter().enumerate() {
        let previous = file
            .materials
            .get(usize::from(file.polygon_materials[p]))
            .is_some_and(|m| m.flags & 0b110 == 0b110);
        if let (true, Some(&last)) = (previous, keys.last()) {
            keys.push(last);
            continue;
        }
        let centre = |axis: usize| {
            polygon
                .corners
                .iter()
                .map(|&c| i64::from(file.points[usize::from(c)][axis]))
                .sum::<i64>()
                / 4
        };
        let cell = cell_along(1, centre(2)) * cells + cell_along(0, centre(0));
        keys.push((group_of(p), cell));
    }
    keys
}

/// The per-polygon chunks (QMAT, CNRM, GOUR) in the polygons' new `order`.
fn reorder_polygons(file: &mut JomFile, order: &[usize]) {
    file.polygon_materials = order.iter().map(|&p| file.polygon_materials[p]).collect();
    let fours = |values: &Vec<u16>| -> Vec<u16> {
        order
            .iter()
            .flat_map(|&p| values[4 * p..4 * p + 4].iter().copied())
            .collect()
    };
    file.corner_normals = file.corner_normals.as_ref().map(fours);
    file.gouraud = file.gouraud.as_ref().map(fours);
}

/// The farthest a point is from the origin, rounded up (raw Q16.16): the engine's reach.
fn reach(points: &[[i32; 3]]) -> f64 {
    points
        .iter()
        .map(|p| length(p.map(f64::from)))
        .fold(0.0, f64::max)
        .ceil()
}

fn length([x, y, z]: [f64; 3]) -> f64 {
    (x * x + y * y + z * z).sqrt()
}

/// The sphere of `points` (raw Q16.16): the centre of their box, brought within `reach` of
/// the origin (the engine moves it as a point), and the radius that holds them all,
/// rounded up with a unit to spare.
fn sphere(points: &[[i32; 3]], reach: f64) -> ([i32; 3], i32) {
    let (mut low, mut high) = ([f64::MAX; 3], [f64::MIN; 3]);
    for point in points {
        for axis in 0..3 {
            low[axis] = low[axis].min(f64::from(point[axis]));
            high[axis] = high[axis].max(f64::from(point[axis]));
        }
    }
    let mut centre = [0, 1, 2].map(|a| (low[a] + high[a]) / 2.0);
    let from_origin = length(centre);
    if from_origin > reach - 1.0 {
        let shrink = (reach - 1.0).max(0.0) / from_origin;
        centre = centre.map(|c| c * shrink);
    }
    let centre = centre.map(|c| c.trunc() as i32);
    let radius = points
        .iter()
        .map(|p| length([0, 1, 2].map(|a| f64::from(p[a]) - f64::from(centre[a]))))
        .fold(0.0, f64::max);
    (centre, radius.ceil() as i32 + 1)
}
