//! Levels of detail (LODS) from the source's names: the groups (glTF nodes, Blender
//! objects, OBJ `o` or `g`) whose name ends in `_LOD1`, `_LOD2`, ... (any case) are the
//! lower levels, the others the model itself (level 0). Each lower level becomes a JOM file
//! of its own, with the model's materials and textures, written in the model's LODS chunk
//! with the size on screen below which it is drawn (docs/levels.md). The converter makes no
//! level itself (no decimation): a level is what the artist modelled. Runs after the
//! importers, on the file every format becomes.
//!
//! A model with a skeleton keeps it in every level (BONE, ANIM and BMOT byte for byte, so
//! that one pose moves them all): each level's groups are the model's, in GRUP order, so
//! that each bone moves the same group index in every file. The group `NAME_LODk` is level
//! k's part of the model's group `NAME` (the glTF importer names a skinned level's groups
//! after their joints so); a group of the model with no part in level k is empty there.

use jom_write::{Bone, Group, JomFile};
use std::collections::HashMap;

/// BONE.group of a bone that moves no polygons.
const NO_GROUP: u16 = 0xFFFF;

/// The size on screen (the model's radius, pixels) below which level `k` (from 1) is
/// drawn, when `--lod-pixels` does not say: 48, then half of the level before's.
pub fn default_pixels(level: usize) -> u32 {
    (48u32 >> (level - 1).min(5)).max(1)
}

/// The level a group's name says (`_LODk` at its end: k, else 0).
pub fn level_of(name: &str) -> usize {
    base_and_level(name).1
}

/// `name` without its `_LODk` and k; `name` itself and 0 when it names no lower level.
pub fn base_and_level(name: &str) -> (&str, usize) {
    let upper = name.to_ascii_uppercase();
    match upper.rfind("_LOD") {
        Some(at) => match upper[at + 4..].parse() {
            Ok(level) if level > 0 => (&name[..at], level),
            _ => (name, 0),
        },
        None => (name, 0),
    }
}

/// The name of level `level`'s part of the model's group `name`.
pub fn level_name(name: &str, level: usize) -> String {
    format!("{name}_LOD{level}")
}

/// `file` cut by its groups' names into the model itself and its lower levels (level 1
/// first), or `None` when no group is named as a lower level. Refused when a level is
/// missing below one that is there, when level 0 has no polygon and, in a model with a
/// skeleton, when a lower level's group is not named after one of the model's groups.
pub fn split(file: &JomFile) -> Result<Option<(JomFile, Vec<JomFile>)>, String> {
    let groups = file.groups.as_deref().unwrap_or(&[]);
    let levels: Vec<usize> = groups.iter().map(|g| level_of(&g.name)).collect();
    let most = levels.iter().copied().max().unwrap_or(0);
    if most == 0 {
        return Ok(None);
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
    let mut files: Vec<JomFile> = match &file.bones {
        Some(bones) => {
            let bones = own_bones(bones, groups)?;
            (0..=most)
                .map(|k| {
                    Ok(JomFile {
                        bones: Some(bones.clone()),
                        ..regrouped(file, &parts_of_level(groups, k)?, k == 0)
                    })
                })
                .collect::<Result<_, String>>()?
        }
        None => (0..=most)
            .map(|k| subset(file, |p| polygon_levels[p] == k, |g| levels[g] == k))
            .collect(),
    };
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

/// `bones` with their groups indexed among the model's own groups (those of level 0, in
/// GRUP order, as every level has them); refused when a bone moves a lower level's group.
fn own_bones(bones: &[Bone], groups: &[Group]) -> Result<Vec<Bone>, String> {
    let own: Vec<usize> = (0..groups.len())
        .filter(|&g| level_of(&groups[g].name) == 0)
        .collect();
    bones
        .iter()
        .map(|bone| {
            let group = match bone.group {
                NO_GROUP => NO_GROUP,
                g => match own.iter().position(|&o| o == usize::from(g)) {
                    Some(index) => index as u16,
                    None => {
                        return Err(format!(
                            "bone {} moves the group {}, of a lower level of detail: expected \
                             a group of the model itself (each level's part of it follows)",
                            bone.name,
                            groups.get(usize::from(g)).map_or("?", |g| g.name.as_str())
                        ))
                    }
                },
            };
            Ok(Bone {
                group,
                ..bone.clone()
            })
        })
        .collect()
}

/// For each of the model's own groups (level 0, GRUP order), the group that is its part in
/// level `level` (itself for level 0), if any; refused when a group of the level is not
/// named after one of the model's groups (its bone would be none of the skeleton's).
fn parts_of_level(groups: &[Group], level: usize) -> Result<Vec<Option<usize>>, String> {
    let own: Vec<usize> = (0..groups.len())
        .filter(|&g| level_of(&groups[g].name) == 0)
        .collect();
    if level == 0 {
        return Ok(own.into_iter().map(Some).collect());
    }
    let mut parts = vec![None; own.len()];
    for g in (0..groups.len()).filter(|&g| level_of(&groups[g].name) == level) {
        let name = &groups[g].name;
        let base = base_and_level(name).0;
        let Some(o) = own.iter().position(|&o| groups[o].name == base) else {
            return Err(format!(
                "group {name} (level of detail {level}) of a model with a skeleton: expected \
                 a group of the model itself named {base}, whose bone moves the level's part \
                 (each level keeps the model's skeleton)"
            ));
        };
        if let Some(first) = parts[o].replace(g) {
            return Err(format!(
                "groups {} and {name} are both level of detail {level}'s part of the model's \
                 group {base}: expected one",
                groups[first].name
            ));
        }
    }
    Ok(parts)
}

/// A level of a model with a skeleton: for each of the model's groups, the polygons and
/// own points of its part (`parts`, a group of `file` or none: an empty group), under the
/// model's group's name, so that every bone moves the same group index in every level;
/// with `ungrouped` (the model itself) the polygons in no group first, as GRUP has them.
/// The points the polygons use outside their parts' ranges (shared by several groups)
/// follow the groups' points, in order of first use, moved by no bone as in `file`.
fn regrouped(file: &JomFile, parts: &[Option<usize>], ungrouped: bool) -> JomFile {
    let groups = file.groups.as_deref().unwrap_or(&[]);
    let own: Vec<&Group> = groups.iter().filter(|g| level_of(&g.name) == 0).collect();
    let range =
        |start: u16, count: u16| usize::from(start)..usize::from(start) + usize::from(count);
    let mut kept: Vec<usize> = Vec::new();
    if ungrouped {
        kept.extend((0..file.polygons.len()).filter(|&p| {
            !groups
                .iter()
                .any(|g| range(g.first_polygon, g.polygon_count).contains(&p))
        }));
    }
    let mut new_index: HashMap<u16, u16> = HashMap::new();
    let mut sources: Vec<u16> = Vec::new();
    let mut new_groups = Vec::with_capacity(parts.len());
    for (g, part) in own.iter().zip(parts) {
        let (polygons, points) = match part.map(|g| &groups[g]) {
            Some(g) => (
                range(g.first_polygon, g.polygon_count),
                range(g.first_point, g.point_count),
            ),
            None => (0..0, 0..0),
        };
        new_groups.push(Group {
            name: g.name.clone(),
            first_point: sources.len() as u16,
            point_count: points.len() as u16,
            first_polygon: kept.len() as u16,
            polygon_count: polygons.len() as u16,
        });
        kept.extend(polygons);
        for point in points {
            new_index.insert(point as u16, sources.len() as u16);
            sources.push(point as u16);
        }
    }
    let mut polygons = Vec::with_capacity(kept.len());
    for &p in &kept {
        let mut polygon = file.polygons[p];
        for corner in &mut polygon.corners {
            let next = sources.len() as u16;
            *corner = *new_index.entry(*corner).or_insert_with(|| {
                sources.push(*corner);
                next
            });
        }
        polygons.push(polygon);
    }
    let fours = |values: &Vec<u16>| -> Vec<u16> {
        kept.iter()
            .flat_map(|&p| values[4 * p..4 * p + 4].iter().copied())
            .collect()
    };
    JomFile {
        points: sources
            .iter()
            .map(|&p| file.points[usize::from(p)])
            .collect(),
        vertex_colors: file
            .vertex_colors
            .as_ref()
            .map(|colors| sources.iter().map(|&p| colors[usize::from(p)]).collect()),
        polygon_materials: kept.iter().map(|&p| file.polygon_materials[p]).collect(),
        corner_normals: file.corner_normals.as_ref().map(fours),
        gouraud: file.gouraud.as_ref().map(fours),
        polygons,
        groups: Some(new_groups),
        extra_chunks: Vec::new(),
        ..file.clone()
    }
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
