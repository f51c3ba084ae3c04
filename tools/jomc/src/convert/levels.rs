//! Levels of detail (LODS) from the source's names: the groups (glTF nodes, Blender
//! objects, OBJ `o` or `g`) whose name ends in `_LOD1`, `_LOD2`, ... (any case) are the
//! lower levels, the others the model itself (level 0). Each lower level becomes a JOM file
//! of its own, with the model's materials and textures, written in the model's LODS chunk
//! with the size on screen below which it is drawn (docs/levels.md). The converter makes no
//! level itself (no decimation): a level is what the artist modelled. Runs after the
//! importers, on the file every format becomes.

use jom_write::{Group, JomFile};
use std::collections::HashMap;

/// The size on screen (the model's radius, pixels) below which level `k` (from 1) is
/// drawn, when `--lod-pixels` does not say: 48, then half of the level before's.
pub fn default_pixels(level: usize) -> u32 {
    (48u32 >> (level - 1).min(5)).max(1)
}

/// The level a group's name says (`_LODk` at its end: k, else 0).
fn level_of(name: &str) -> usize {
    let upper = name.to_ascii_uppercase();
    match upper.rfind("_LOD") {
        Some(at) => upper[at + 4..].parse().unwrap_or(0),
        None => 0,
    }
}

/// `file` cut by its groups' names into the model itself and its lower levels (level 1
/// first), or `None` when no group is named as a lower level. Refused when a level is
/// missing below one that is there, when the model has a skeleton (its levels would need
/// groups for the same bones) and when level 0 has no polygon.
pub fn split(file: &JomFile) -> Result<Option<(JomFile, Vec<JomFile>)>, String> {
    let groups = file.groups.as_deref().unwrap_or(&[]);
    let levels: Vec<usize> = groups.iter().map(|g| level_of(&g.name)).collect();
    let most = levels.iter().copied().max().unwrap_or(0);
    if most == 0 {
        return Ok(None);
    }
    if file.bones.is_some() {
        return Err(
            "levels of detail (groups named _LOD1, ...) of a model with a skeleton: \
                    the converter makes them for models without one"
                .into(),
        );
    }
    if let Some(missing) = (1..most).find(|k| !levels.contains(k)) {
        return Err(format!(
            "a group is named for level of detail {most} but none for level {missing} \
             (_LOD{missing}): expected the levels 1 to {most} each"
        ));
    }
    let level_of_polygon = |p: usize| {
        groups
            .iter()
            .position(|g| {
                let first = usize::from(g.first_polygon);
                (first..first + usize::from(g.polygon_count)).contains(&p)
            })
            .map_or(0, |g| levels[g])
    };
    let polygon_levels: Vec<usize> = (0..file.polygons.len()).map(level_of_polygon).collect();
    let mut files: Vec<JomFile> = (0..=most)
        .map(|k| subset(file, |p| polygon_levels[p] == k, |g| levels[g] == k))
        .collect();
    if files[0].polygons.is_empty() {
        return Err(
            "every group is named for a lower level of detail (_LODk): expected the \
                    model itself too (groups without _LOD)"
                .into(),
        );
    }
    let first = files.remove(0);
    Ok(Some((first, files)))
}

/// The polygons of `file` that `keep` keeps, with the points they use (in order of first
/// use), their per-polygon and per-point data, and the groups `keep_group` keeps (their
/// ranges as the kept polygons and points fall).
fn subset(
    file: &JomFile,
    keep: impl Fn(usize) -> bool,
    keep_group: impl Fn(usize) -> bool,
) -> JomFile {
    let mut new_index: HashMap<u16, u16> = HashMap::new();
    let mut points = Vec::new();
    let mut colors = file.vertex_colors.as_ref().map(|_| Vec::new());
    let mut polygons = Vec::new();
    let mut kept = Vec::new();
    // Where each kept polygon's points began (for the groups' point ranges).
    let mut points_before = Vec::new();
    for (p, polygon) in file.polygons.iter().enumerate() {
        if !keep(p) {
            continue;
        }
        points_before.push(points.len());
        let mut polygon = *polygon;
        for corner in &mut polygon.corners {
            let next = points.len() as u16;
            *corner = *new_index.entry(*corner).or_insert_with(|| {
                points.push(file.points[usize::from(*corner)]);
                if let (Some(colors), Some(source)) = (&mut colors, &file.vertex_colors) {
                    colors.push(source[usize::from(*corner)]);
                }
                next
            });
        }
        polygons.push(polygon);
        kept.push(p);
    }
    let fours = |values: &Vec<u16>| -> Vec<u16> {
        kept.iter()
            .flat_map(|&p| values[4 * p..4 * p + 4].iter().copied())
            .collect()
    };
    let groups = file.groups.as_ref().map(|groups| {
        groups
            .iter()
            .enumerate()
            .filter(|&(g, _)| keep_group(g))
            .map(|(_, g)| {
                let range = usize::from(g.first_polygon)
                    ..usize::from(g.first_polygon) + usize::from(g.polygon_count);
                let mine: Vec<usize> = (0..kept.len())
                    .filter(|&i| range.contains(&kept[i]))
                    .collect();
                let (first, end) = match (mine.first(), mine.last()) {
                    (Some(&first), Some(&last)) => (first, last + 1),
                    _ => (0, 0),
                };
                let first_point = points_before.get(first).copied().unwrap_or(0);
                let end_point = points_before.get(end).copied().unwrap_or(points.len());
                Group {
                    name: g.name.clone(),
                    first_point: first_point as u16,
                    point_count: end_point.saturating_sub(first_point) as u16,
                    first_polygon: first as u16,
                    polygon_count: (end - first) as u16,
                }
            })
            .collect()
    });
    JomFile {
        points,
        vertex_colors: colors,
        polygon_materials: kept.iter().map(|&p| file.polygon_materials[p]).collect(),
        corner_normals: file.corner_normals.as_ref().map(fours),
        gouraud: file.gouraud.as_ref().map(fours),
        polygons,
        groups,
        extra_chunks: Vec::new(),
        ..file.clone()
    }
}
