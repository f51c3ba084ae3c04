//! The mesh: the scene's faces to JOM points and polygons. Axes and scale, faces cut into
//! quads and triangles, polygon normals, welding, the group order (GRUP), the corner
//! normals (NTAB, CNRM), the vertex colours (VCOL) and the bounding sphere.

use super::rig::{Affine, RigBone, SampledAnimation};
use super::scene::{Corner, Face, Origin, Scene, SceneAxes, SceneRig};
use super::{bake, sphere, Error, MAX_INDEXED};
use jom_write::{Group, Polygon};
use std::collections::HashMap;

/// The command-line choices that shape the mesh.
pub struct Settings {
    pub scale: f64,
    pub keep_triangles: bool,
    pub weld: bool,
}

/// From the scene's axes to the Saturn's (Y down, Z forward): from Y up, a turn of 180
/// degrees around X; then the scale.
pub struct Transform {
    scale: f64,
    saturn: bool,
}

impl Transform {
    pub fn new(scale: f64, axes: SceneAxes) -> Self {
        Self {
            scale,
            saturn: axes == SceneAxes::Saturn,
        }
    }

    /// A position (point, pivot, root offset), scaled.
    pub fn position(&self, p: [f64; 3]) -> [f64; 3] {
        self.direction(p).map(|c| c * self.scale)
    }

    /// A direction (normal), not scaled.
    pub fn direction(&self, [x, y, z]: [f64; 3]) -> [f64; 3] {
        if self.saturn {
            [x, y, z]
        } else {
            [x, -y, -z]
        }
    }

    /// Angles around X, Y, Z: the turn around X maps the Y and Z axes to -Y and -Z, so a
    /// rotation around them turns the other way.
    pub fn angles(&self, [x, y, z]: [f64; 3]) -> [f64; 3] {
        self.direction([x, y, z])
    }

    /// A bone matrix of the scene's axes and units in the Saturn's: `C * m * C^-1` for
    /// this transform `C` (the scale cancels out of the rotation part).
    pub fn matrix(&self, m: &Affine) -> Affine {
        let sign = self.direction([1.0; 3]);
        std::array::from_fn(|i| {
            std::array::from_fn(|j| match j {
                3 => m[i][3] * sign[i] * self.scale,
                _ => m[i][j] * sign[i] * sign[j],
            })
        })
    }

    /// A scene's rig in the Saturn's axes and model units.
    pub fn rig(&self, rig: &SceneRig) -> (Vec<RigBone>, Vec<SampledAnimation>) {
        let bones = rig
            .bones
            .iter()
            .map(|b| RigBone {
                pivot: self.position(b.pivot),
                ..b.clone()
            })
            .collect();
        let animations = rig
            .animations
            .iter()
            .map(|a| SampledAnimation {
                keys: a
                    .keys
                    .iter()
                    .map(|key| key.iter().map(|m| self.matrix(m)).collect())
                    .collect(),
                ..a.clone()
            })
            .collect();
        (bones, animations)
    }
}

/// A Q16.16 vector, or the problem.
pub fn fixed_vector(v: [f64; 3]) -> Result<[i32; 3], String> {
    let mut out = [0; 3];
    for (o, c) in out.iter_mut().zip(v) {
        let raw = (c * 65536.0).round();
        if !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&raw) {
            return Err(format!(
                "{c} is outside the range of a Q16.16 number (-32768 to 32767.99998)"
            ));
        }
        *o = raw as i32;
    }
    Ok(out)
}

/// The colour of a point or corner without one.
pub const WHITE: [f64; 3] = [1.0; 3];

/// The converted mesh, in file order.
pub struct Mesh {
    pub points: Vec<[i32; 3]>,
    /// VCOL: each point's colour in Q16.16.
    pub colors: Option<Vec<[i32; 3]>>,
    pub polygons: Vec<Polygon>,
    /// The scene face of each polygon (for its material).
    pub polygon_faces: Vec<u32>,
    /// The scene corners of each polygon, A, B, C, D (for colours and texture coordinates).
    pub polygon_corners: Vec<[Corner; 4]>,
    pub normals: Option<Vec<[i32; 3]>>,
    pub corner_normals: Option<Vec<u16>>,
    pub groups: Option<Vec<Group>>,
    /// The scene's group names, GRUP's order.
    pub group_names: Vec<String>,
    pub center: [i32; 3],
    pub radius: i32,
}

/// A polygon before the points are welded and ordered: scene corners A, B, C, D.
struct Draft {
    corners: [Corner; 4],
    normal: [i32; 3],
    face: u32,
}

/// The group key of a face: GRUP order, the faces outside any group first.
const UNGROUPED: u32 = u32::MAX;

fn group_key(face: &Face) -> u32 {
    face.group.unwrap_or(UNGROUPED)
}

/// Builds the mesh of `scene`.
pub fn build(scene: &Scene, settings: &Settings) -> Result<Mesh, Error> {
    let axes = Transform::new(settings.scale, scene.axes);
    let positions = positions(scene, &axes)?;
    let mut drafts = drafts(scene, &positions, settings);
    // Stable: each group's polygons together, in scene order, the ungrouped ones first.
    drafts.sort_by_key(|d| group_key(&scene.faces[d.face as usize]).wrapping_add(1));
    let weld = Weld::new(scene, &positions, &drafts, settings.weld);
    let order = PointOrder::new(scene, &drafts, &weld);
    let points: Vec<[i32; 3]> = order
        .points
        .iter()
        .map(|&v| positions[v as usize])
        .collect();
    check_reach(
        scene,
        &points,
        |i| &scene.vertices[order.points[i] as usize].origin,
        settings.scale,
    )?;
    let (center, radius) = sphere::bounding_sphere(&points)
        .ok_or_else(|| scene.model_error("the model is too large for a Q16.16 radius"))?;
    let normals = scene
        .every_corner_has_a_normal()
        .then(|| corner_normals(scene, &axes, &drafts))
        .transpose()?;
    let colors = colors(scene, &order)?;

    // The limits last, so that a model over them costs what a model under them does.
    let face = |i: usize| Some(&scene.faces[drafts[i].face as usize].origin);
    check_limit(scene, drafts.len(), "polygons", face)?;
    let vertex = |i: usize| Some(&scene.vertices[order.points[i] as usize].origin);
    check_limit(scene, points.len(), "points (after welding)", vertex)?;
    let normal_count = normals.as_ref().map_or(0, |(table, _)| table.len());
    check_limit(scene, normal_count, "different normals", |_| None)?;
    check_limit(scene, scene.groups.len(), "groups", |_| None)?;

    let final_point = |c: &Corner| order.final_index[weld.of_vertex[c.vertex as usize] as usize];
    let polygons = drafts
        .iter()
        .map(|d| Polygon {
            normal: d.normal,
            corners: d.corners.each_ref().map(|c| final_point(c) as u16),
        })
        .collect();
    let (normals, corner_normals) = normals.unzip();
    Ok(Mesh {
        colors,
        groups: (!scene.groups.is_empty()).then(|| groups(scene, &drafts, &order)),
        group_names: scene.groups.clone(),
        polygon_faces: drafts.iter().map(|d| d.face).collect(),
        polygon_corners: drafts.iter().map(|d| d.corners).collect(),
        points,
        polygons,
        normals,
        corner_normals,
        center,
        radius,
    })
}

/// An error when `count` passes the u16 indexes, at the place that `origin_of` gives for
/// the first one too many.
fn check_limit<'s>(
    scene: &'s Scene,
    count: usize,
    what: &str,
    origin_of: impl Fn(usize) -> Option<&'s Origin>,
) -> Result<(), Error> {
    if count <= MAX_INDEXED {
        return Ok(());
    }
    let message = format!("the model has {count} {what}, more than the 65,535 a JOM file indexes");
    Err(match origin_of(MAX_INDEXED) {
        Some(origin) => scene.error(origin, message + " (this line makes the 65,536th)"),
        None => scene.model_error(message),
    })
}

/// Every scene vertex in Saturn axes and Q16.16, or the problem at its origin.
fn positions(scene: &Scene, axes: &Transform) -> Result<Vec<[i32; 3]>, Error> {
    scene
        .vertices
        .iter()
        .map(|v| fixed_vector(axes.position(v.position)).map_err(|m| scene.error(&v.origin, m)))
        .collect()
}

/// The distance of a point from the origin, raw Q16.16.
fn distance(point: &[i32; 3]) -> f64 {
    point
        .iter()
        .map(|&c| f64::from(c).powi(2))
        .sum::<f64>()
        .sqrt()
}

/// An error at the first point farther from the origin than the engine draws
/// ([`jom::format::MAX_REACH`]), with the `--scale` that brings the farthest one in.
fn check_reach<'s>(
    scene: &'s Scene,
    points: &[[i32; 3]],
    origin_of: impl Fn(usize) -> &'s Origin,
    scale: f64,
) -> Result<(), Error> {
    let limit = f64::from(jom::format::MAX_REACH);
    let Some(first) = points.iter().position(|p| distance(p) > limit) else {
        return Ok(());
    };
    let farthest = points.iter().map(distance).fold(0.0, f64::max);
    // Three significant digits, rounded down: that scale is within the limit.
    let fitting = scale * limit / farthest;
    let step = 10f64.powf(fitting.log10().floor() - 2.0);
    let suggested = (fitting / step).floor() * step;
    let [x, y, z] = points[first].map(|c| f64::from(c) / 65536.0);
    Err(scene.error(
        origin_of(first),
        format!(
            "the point ({x}, {y}, {z}) is {:.1} units from the model's origin, past the \
             engine's limit of {} (docs/format.md, \"Engine limits\"): convert with \
             --scale {suggested} or less",
            distance(&points[first]) / 65536.0,
            jom::format::MAX_REACH >> 16,
        ),
    ))
}

/// Every face cut into quads and triangles, corners in the Saturn's order, without the
/// polygons of zero area (nothing to draw, and no normal).
fn drafts(scene: &Scene, positions: &[[i32; 3]], settings: &Settings) -> Vec<Draft> {
    let mut drafts = Vec::with_capacity(scene.faces.len());
    let mut corners = Vec::new();
    for (face_index, face) in scene.faces.iter().enumerate() {
        corners.clear();
        corners.extend_from_slice(scene.face_corners(face));
        if scene.axes == SceneAxes::YUpRightHanded {
            // Reversed, the first corner kept first (it stays the texture's A).
            corners[1..].reverse();
        }
        for piece in fan(corners.len()) {
            let shaped = match piece {
                (a, b, c, Some(d)) => quad([corners[a], corners[b], corners[c], corners[d]], scene),
                (a, b, c, None) => {
                    let triangle = [corners[a], corners[b], corners[c]];
                    if settings.keep_triangles {
                        [triangle[0], triangle[1], triangle[2], triangle[2]]
                    } else {
                        shortest_edge_first(triangle, positions)
                    }
                }
            };
            if let Some(normal) = normal(&shaped.map(|c| positions[c.vertex as usize])) {
                drafts.push(Draft {
                    corners: shaped,
                    normal,
                    face: face_index as u32,
                });
            }
        }
    }
    drafts
}

/// A face of `n` corners cut in a fan of quads around its first corner, the last piece a
/// triangle when `n` is odd: (0 1 2 3) (0 3 4 5) ... (0 n-2 n-1). Right for the convex
/// faces a modeller exports; a concave face must be cut in the modeller.
fn fan(n: usize) -> impl Iterator<Item = (usize, usize, usize, Option<usize>)> {
    (1..n.saturating_sub(1))
        .step_by(2)
        .map(move |i| (0, i, i + 1, (i + 2 < n).then_some(i + 2)))
}

/// A quad turned (its winding kept) for its texture: when its coordinates are the image's
/// corners, so that the VDP1 draws the image as they ask (A-B along a row, see
/// [`bake::corner_turn`]); otherwise so that A is the corner with the top left of the
/// texture, the smallest u + v (v is down). Without texture coordinates the first corner
/// stays A.
fn quad(corners: [Corner; 4], scene: &Scene) -> [Corner; 4] {
    let Some(uvs) = texture_coordinates(&corners, scene) else {
        return corners;
    };
    let first = bake::corner_turn(&uvs).unwrap_or_else(|| {
        let key = |i: usize| uvs[i][0] + uvs[i][1];
        (0..4).fold(0, |best, i| if key(i) < key(best) { i } else { best })
    });
    let mut turned = corners;
    turned.rotate_left(first);
    turned
}

/// The texture coordinates of the four corners, when each has some.
pub fn texture_coordinates(corners: &[Corner; 4], scene: &Scene) -> Option<[[f64; 2]; 4]> {
    let mut uvs = [[0.0; 2]; 4];
    for (uv, corner) in uvs.iter_mut().zip(corners) {
        *uv = scene.uvs[corner.uv? as usize];
    }
    Some(uvs)
}

/// A triangle as (A, B, C, C), turned (its winding kept) so that its shortest edge is
/// A-B; on a tie the earliest edge of (0-1, 1-2, 2-0).
fn shortest_edge_first(t: [Corner; 3], positions: &[[i32; 3]]) -> [Corner; 4] {
    let p = t.map(|c| positions[c.vertex as usize]);
    let lengths = [
        distance2(p[0], p[1]),
        distance2(p[1], p[2]),
        distance2(p[2], p[0]),
    ];
    let first = (0..3).fold(
        0,
        |best, i| if lengths[i] < lengths[best] { i } else { best },
    );
    let [a, b, c] = [t[first], t[(first + 1) % 3], t[(first + 2) % 3]];
    [a, b, c, c]
}

fn distance2(a: [i32; 3], b: [i32; 3]) -> i128 {
    (0..3)
        .map(|i| (i128::from(a[i]) - i128::from(b[i])).pow(2))
        .sum()
}

/// The unit normal of a polygon whose corners are in the Saturn's order (clockwise seen
/// from the front), pointing out of its front; `None` when its area is 0. Newell's sum,
/// exact in integers: also right for a quad that is not quite flat.
fn normal(corners: &[[i32; 3]; 4]) -> Option<[i32; 3]> {
    let mut n = [0i128; 3];
    for i in 0..4 {
        let [x0, y0, z0] = corners[i].map(i128::from);
        let [x1, y1, z1] = corners[(i + 1) % 4].map(i128::from);
        n[0] += (y0 - y1) * (z0 + z1);
        n[1] += (z0 - z1) * (x0 + x1);
        n[2] += (x0 - x1) * (y0 + y1);
    }
    if n == [0; 3] {
        return None;
    }
    // Newell's sum follows the right-hand rule: for clockwise corners it points in.
    Some(unit(n.map(|c| -(c as f64))))
}

/// `v` scaled to length 1, in Q16.16 (0 stays 0).
fn unit(v: [f64; 3]) -> [i32; 3] {
    let length = v.iter().map(|c| c * c).sum::<f64>().sqrt();
    if length == 0.0 {
        return [0; 3];
    }
    v.map(|c| (c / length * 65536.0).round() as i32)
}

/// Which scene vertices become one point.
struct Weld {
    /// The welded point of each scene vertex (`u32::MAX`: used by no polygon).
    of_vertex: Vec<u32>,
    /// The first scene vertex of each welded point (whose colour it keeps).
    first_vertex: Vec<u32>,
    /// The group each welded point belongs to: its vertex's own group when it has one,
    /// else the group of the polygons using it, `None` when several groups (or polygons
    /// outside any group) use it.
    only_group: Vec<Option<u32>>,
}

impl Weld {
    /// Points at the same position are merged (unless `weld` is false) only when they
    /// belong to the same groups: a group's own points stay its own. A vertex with a
    /// group of its own belongs to that group alone, whichever faces use it, so that a
    /// face whose corners follow different bones keeps its corners shared with its
    /// neighbours' (a skinned mesh stays closed).
    fn new(scene: &Scene, positions: &[[i32; 3]], drafts: &[Draft], weld: bool) -> Self {
        let mut users: Vec<Vec<u32>> = vec![Vec::new(); scene.vertices.len()];
        for draft in drafts {
            let group = group_key(&scene.faces[draft.face as usize]);
            for corner in &draft.corners {
                let set = &mut users[corner.vertex as usize];
                if !set.contains(&group) {
                    set.push(group);
                }
            }
        }
        let mut set_ids: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut slots: HashMap<([i32; 3], u32), u32> = HashMap::new();
        let mut result = Weld {
            of_vertex: vec![u32::MAX; scene.vertices.len()],
            first_vertex: Vec::new(),
            only_group: Vec::new(),
        };
        for (vertex, mut set) in users.into_iter().enumerate() {
            if set.is_empty() {
                continue;
            }
            if let Some(group) = scene.vertices[vertex].group {
                set = vec![group];
            }
            set.sort_unstable();
            let only_group = match set.as_slice() {
                [g] if *g != UNGROUPED => Some(*g),
                _ => None,
            };
            let next_set = set_ids.len() as u32;
            let set_id = *set_ids.entry(set).or_insert(next_set);
            let next_point = result.first_vertex.len() as u32;
            let point = if weld {
                *slots
                    .entry((positions[vertex], set_id))
                    .or_insert(next_point)
            } else {
                next_point
            };
            if point == next_point {
                result.first_vertex.push(vertex as u32);
                result.only_group.push(only_group);
            }
            result.of_vertex[vertex] = point;
        }
        result
    }
}

/// The order of the points in PNTS: each group's own points together, in group order
/// (the range GRUP gives the group, which the engine moves by the group's bone), then the
/// points shared by several groups or used outside the groups; in each part, in the order
/// the polygons first use them.
struct PointOrder {
    /// The first scene vertex of each point, in file order.
    points: Vec<u32>,
    /// The file index of each welded point.
    final_index: Vec<u32>,
    /// The first point of each group's own points, and the end of the last group's.
    group_starts: Vec<u32>,
}

impl PointOrder {
    fn new(scene: &Scene, drafts: &[Draft], weld: &Weld) -> Self {
        let shared = scene.groups.len();
        let mut parts: Vec<Vec<u32>> = vec![Vec::new(); shared + 1];
        let mut seen = vec![false; weld.first_vertex.len()];
        for corner in drafts.iter().flat_map(|d| &d.corners) {
            let point = weld.of_vertex[corner.vertex as usize] as usize;
            if !std::mem::replace(&mut seen[point], true) {
                let part = weld.only_group[point].map_or(shared, |g| g as usize);
                parts[part].push(point as u32);
            }
        }
        let mut order = PointOrder {
            points: Vec::with_capacity(weld.first_vertex.len()),
            final_index: vec![0; weld.first_vertex.len()],
            group_starts: Vec::with_capacity(shared + 1),
        };
        for part in &parts {
            order.group_starts.push(order.points.len() as u32);
            for &point in part {
                order.final_index[point as usize] = order.points.len() as u32;
                order.points.push(weld.first_vertex[point as usize]);
            }
        }
        order
    }
}

/// GRUP: each group's polygons (contiguous after the sort) and its own points.
fn groups(scene: &Scene, drafts: &[Draft], order: &PointOrder) -> Vec<Group> {
    let mut polygon_counts = vec![0usize; scene.groups.len()];
    for draft in drafts {
        if let Some(g) = scene.faces[draft.face as usize].group {
            polygon_counts[g as usize] += 1;
        }
    }
    let ungrouped = drafts.len() - polygon_counts.iter().sum::<usize>();
    let mut first_polygon = ungrouped;
    scene
        .groups
        .iter()
        .enumerate()
        .map(|(g, name)| {
            let group = Group {
                name: name.clone(),
                first_point: order.group_starts[g] as u16,
                point_count: (order.group_starts[g + 1] - order.group_starts[g]) as u16,
                first_polygon: first_polygon as u16,
                polygon_count: polygon_counts[g] as u16,
            };
            first_polygon += polygon_counts[g];
            group
        })
        .collect()
}

/// NTAB (the scene's normals used by the polygons, in Saturn axes, length 1, each value
/// once, in order of first use) and CNRM (the NTAB index of each corner).
/// A normal of the scene without a direction (length 0) cannot be made unit length: an
/// error at the first face using it.
fn corner_normals(
    scene: &Scene,
    axes: &Transform,
    drafts: &[Draft],
) -> Result<(Vec<[i32; 3]>, Vec<u16>), Error> {
    let mut table: Vec<[i32; 3]> = Vec::new();
    let mut index_of_value: HashMap<[i32; 3], u32> = HashMap::new();
    let mut index_of_vn: Vec<Option<u32>> = vec![None; scene.normals.len()];
    let mut corners = Vec::with_capacity(drafts.len() * 4);
    for draft in drafts {
        let direction =
            |c: &Corner| scene.normals[c.normal.expect("every corner has a normal") as usize];
        if let Some(corner) = draft
            .corners
            .iter()
            .find(|c| unit(axes.direction(direction(c))) == [0; 3])
        {
            let origin = &scene.faces[draft.face as usize].origin;
            let message = format!(
                "the normal {:?} of a corner of this face has no direction (length 0): a JOM \
                 normal is of unit length",
                direction(corner)
            );
            return Err(scene.error(origin, message));
        }
    }
    for corner in drafts.iter().flat_map(|d| &d.corners) {
        let vn = corner.normal.expect("every corner has a normal") as usize;
        let index = *index_of_vn[vn].get_or_insert_with(|| {
            let value = unit(axes.direction(scene.normals[vn]));
            *index_of_value.entry(value).or_insert_with(|| {
                table.push(value);
                table.len() as u32 - 1
            })
        });
        // Truncated past 65,535, but then the caller's limit check refuses the model.
        corners.push(index as u16);
    }
    Ok((table, corners))
}

/// VCOL, when some corner has a colour: each point's first vertex's colour, which is the
/// colour of the first corner using that vertex (white when it has none).
fn colors(scene: &Scene, order: &PointOrder) -> Result<Option<Vec<[i32; 3]>>, Error> {
    if !scene.has_colors() {
        return Ok(None);
    }
    let mut color_of_vertex: Vec<Option<Option<u32>>> = vec![None; scene.vertices.len()];
    for corner in &scene.corners {
        color_of_vertex[corner.vertex as usize].get_or_insert(corner.color);
    }
    order
        .points
        .iter()
        .map(|&v| {
            let vertex = &scene.vertices[v as usize];
            let value = match color_of_vertex[v as usize].flatten() {
                Some(c) => scene.colors[c as usize],
                None => WHITE,
            };
            fixed_vector(value).map_err(|m| scene.error(&vertex.origin, m))
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::super::scene::{Place, Vertex};
    use super::*;
    use std::path::Path;

    /// Two quads in a strip along X, rows of two vertices at x = 0, 1, 2, each quad with
    /// vertices of its own (as a glTF export splits them): row 0 in group 0, rows 1 and 2
    /// in group 1, the quads in groups 0 and 1; and a third quad, of group 0, from row 2
    /// back to row 1, whose vertices at row 2's place are group 0's.
    fn strip() -> Scene {
        let mut scene = Scene::new(Path::new("strip"), SceneAxes::Saturn);
        scene.groups = vec!["a".into(), "b".into()];
        let origin = Origin {
            file: 0,
            place: Place::File,
        };
        let quads: [([f64; 2], u32, [u32; 4]); 3] = [
            ([0.0, 1.0], 0, [0, 1, 1, 0]),
            ([1.0, 2.0], 1, [1, 1, 1, 1]),
            ([2.0, 1.0], 0, [0, 1, 1, 0]),
        ];
        for ([x0, x1], group, vertex_groups) in quads {
            let start = scene.corners.len();
            let corners = [[x0, 0.0], [x1, 0.0], [x1, 1.0], [x0, 1.0]];
            for ([x, y], vertex_group) in corners.into_iter().zip(vertex_groups) {
                scene.vertices.push(Vertex {
                    position: [x, y, 0.0],
                    group: Some(vertex_group),
                    origin: origin.clone(),
                });
                scene.corners.push(Corner {
                    vertex: scene.vertices.len() as u32 - 1,
                    uv: None,
                    normal: None,
                    color: None,
                });
            }
            scene.faces.push(Face {
                corners: start..start + 4,
                group: Some(group),
                material: None,
                origin: origin.clone(),
            });
        }
        scene
    }

    #[test]
    fn points_take_their_vertex_group_and_weld_only_within_it() {
        let settings = Settings {
            scale: 1.0,
            keep_triangles: false,
            weld: true,
        };
        let mesh = build(&strip(), &settings).unwrap();
        let groups = mesh.groups.unwrap();
        // Row 0 (2 points) and row 2 of the third quad are group 0's; rows 1 and 2 of the
        // strip group 1's: row 1 is one pair of points for both quads using it, row 2 is
        // two pairs (one per group).
        let [a, b] = [&groups[0], &groups[1]].map(|g| (g.first_point, g.point_count));
        assert_eq!((a, b), ((0, 4), (4, 4)));
        assert_eq!(mesh.points.len(), 8);
        // GRUP's polygons follow the faces' groups: a's two quads, then b's.
        let polygons = [&groups[0], &groups[1]].map(|g| (g.first_polygon, g.polygon_count));
        assert_eq!(polygons, [(0, 2), (2, 1)]);
        // The first quad (group a) uses group b's points of row 1, as the second does.
        let group_of = |p: u16| usize::from(p >= 4);
        let first: Vec<usize> = mesh.polygons[0]
            .corners
            .iter()
            .map(|&c| group_of(c))
            .collect();
        assert_eq!(first.iter().filter(|&&g| g == 1).count(), 2, "{first:?}");
        let shared = mesh.polygons[0]
            .corners
            .iter()
            .filter(|c| mesh.polygons[2].corners.contains(c))
            .count();
        assert_eq!(shared, 2, "the strip's quads share row 1");
    }

    #[test]
    fn a_y_up_bone_matrix_becomes_the_same_motion_in_saturn_axes() {
        let transform = Transform::new(2.0, SceneAxes::YUpRightHanded);
        // A quarter turn around Z then a move by (1, 2, 3), in Y-up axes.
        let m: Affine = [
            [0.0, -1.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 2.0],
            [0.0, 0.0, 1.0, 3.0],
        ];
        let apply = |m: &Affine, p: [f64; 3]| -> [f64; 3] {
            std::array::from_fn(|i| (0..3).map(|j| m[i][j] * p[j]).sum::<f64>() + m[i][3])
        };
        let p = [0.5, -1.0, 4.0];
        let converted = transform.matrix(&m);
        // Moving a converted point is converting the moved point.
        assert_eq!(
            apply(&converted, transform.position(p)),
            transform.position(apply(&m, p))
        );
        let saturn = Transform::new(1.0, SceneAxes::Saturn);
        assert_eq!(saturn.matrix(&m), m);
    }
}
