//! Pairing triangles back into quads, a scene stage for every importer (glTF by default,
//! where Blender's exporter cuts every quad in two; OBJ with `--quads`). The Saturn draws
//! quads: a triangle costs as much as a quad, and a textured triangle squeezes a whole
//! texture row into a point.
//!
//! Two triangles sharing an edge become one quad when they have the same material and
//! group (or, in a skinned mesh, when each of their vertices has a group of its own), are
//! wound the same way across the edge, lie in one plane within
//! [`FLAT_DEGREES`], make a convex quad, and their texture coordinates continue across the
//! edge (the same uv and colour on both sides of it, and the quad convex in uv space the
//! same way round), so a texture baked for the quad maps as it did on the triangles. Where
//! a triangle could pair with several neighbours, the pairs whose shared edge is the
//! longest edge of both triangles (the diagonal of a cut quad) go first, then the flattest.

use super::scene::{Corner, Face, Scene};
use std::collections::HashMap;

/// How far from one plane (the angle between the two triangles' normals) a pair may be.
pub const FLAT_DEGREES: f64 = 1.0;

/// Pairs the scene's triangles into quads; returns how many triangles were paired.
pub fn pair(scene: &mut Scene) -> usize {
    let candidates = candidates(scene);
    let mut taken = vec![false; scene.faces.len()];
    let mut partner: Vec<Option<[Corner; 4]>> = vec![None; scene.faces.len()];
    let mut removed = vec![false; scene.faces.len()];
    let mut paired = 0;
    for candidate in candidates {
        let (first, second) = (candidate.first, candidate.second);
        if taken[first] || taken[second] {
            continue;
        }
        taken[first] = true;
        taken[second] = true;
        partner[first] = Some(candidate.quad);
        removed[second] = true;
        paired += 2;
    }
    if paired == 0 {
        return 0;
    }
    let old_faces = std::mem::take(&mut scene.faces);
    let old_corners = std::mem::take(&mut scene.corners);
    for (index, face) in old_faces.into_iter().enumerate() {
        if removed[index] {
            continue;
        }
        let start = scene.corners.len();
        match partner[index] {
            Some(quad) => scene.corners.extend_from_slice(&quad),
            None => scene
                .corners
                .extend_from_slice(&old_corners[face.corners.clone()]),
        }
        scene.faces.push(Face {
            corners: start..scene.corners.len(),
            ..face
        });
    }
    paired
}

/// A pair of triangles that can make a quad.
struct Candidate {
    first: usize,
    second: usize,
    /// Its corners, wound as the triangles.
    quad: [Corner; 4],
    /// Shared edge the longest of both triangles.
    diagonal: bool,
    /// The cosine of the angle between the triangles.
    flatness: f64,
}

/// Every pair that may become a quad, best first.
fn candidates(scene: &Scene) -> Vec<Candidate> {
    // The triangles on each edge (its two vertices, smaller first).
    let mut edges: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (index, face) in scene.faces.iter().enumerate() {
        let corners = scene.face_corners(face);
        if corners.len() != 3 {
            continue;
        }
        for i in 0..3 {
            let (a, b) = (corners[i].vertex, corners[(i + 1) % 3].vertex);
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((index, i));
        }
    }
    let mut candidates: Vec<Candidate> = edges
        .values()
        .filter(|users| users.len() == 2)
        .filter_map(|users| candidate(scene, users[0], users[1]))
        .collect();
    candidates.sort_by(|a, b| {
        b.diagonal
            .cmp(&a.diagonal)
            .then(b.flatness.total_cmp(&a.flatness))
            .then(a.first.min(a.second).cmp(&b.first.min(b.second)))
            .then(a.first.max(a.second).cmp(&b.first.max(b.second)))
    });
    candidates
}

/// Whether two faces' groups let them be one quad (of the first's group): the same group,
/// or every corner's vertex with a group of its own (a skinned mesh), so that the faces'
/// groups only pick the bone that turns the polygon's normal and no point changes bone.
fn groups_allow_pairing(scene: &Scene, one: &Face, two: &Face) -> bool {
    let own_groups = |face: &Face| {
        scene
            .face_corners(face)
            .iter()
            .all(|c| scene.vertices[c.vertex as usize].group.is_some())
    };
    one.group == two.group || (own_groups(one) && own_groups(two))
}

/// The quad of triangles `one` and `two` (each a face and the corner its shared edge
/// starts at), if they make a good one.
fn candidate(scene: &Scene, one: (usize, usize), two: (usize, usize)) -> Option<Candidate> {
    let (first, second) = (one.0.min(two.0), one.0.max(two.0));
    let (one, two) = if one.0 == first {
        (one, two)
    } else {
        (two, one)
    };
    let (face_one, face_two) = (&scene.faces[one.0], &scene.faces[two.0]);
    if one.0 == two.0
        || face_one.material != face_two.material
        || !groups_allow_pairing(scene, face_one, face_two)
    {
        return None;
    }
    let t1 = scene.face_corners(face_one);
    let t2 = scene.face_corners(face_two);
    // T1 as (a, b, c) with the shared edge b -> c; T2 must run it c -> b, then its apex d.
    let (a, b, c) = (t1[(one.1 + 2) % 3], t1[one.1], t1[(one.1 + 1) % 3]);
    let (c2, b2, d) = (t2[two.1], t2[(two.1 + 1) % 3], t2[(two.1 + 2) % 3]);
    if c2.vertex != c.vertex || b2.vertex != b.vertex || d.vertex == a.vertex {
        return None;
    }
    if !same_attributes(scene, &b, &b2) || !same_attributes(scene, &c, &c2) {
        return None;
    }
    let position = |corner: &Corner| scene.vertices[corner.vertex as usize].position;
    let quad = [a, b, d, c];
    let points = quad.map(|q| position(&q));
    let n1 = cross(sub(points[1], points[0]), sub(points[3], points[0]));
    let n2 = cross(sub(points[2], points[1]), sub(points[3], points[1]));
    let flatness = dot(n1, n2) / (length(n1) * length(n2));
    if flatness.is_nan() || flatness < FLAT_DEGREES.to_radians().cos() {
        return None;
    }
    if !convex(&points, n1) {
        return None;
    }
    if let Some(uvs) = quad
        .iter()
        .map(|q| q.uv.map(|uv| scene.uvs[uv as usize]))
        .collect::<Option<Vec<_>>>()
    {
        let uv3 = uvs.iter().map(|&[u, v]| [u, v, 0.0]).collect::<Vec<_>>();
        let points = [uv3[0], uv3[1], uv3[2], uv3[3]];
        let turn = cross(sub(points[1], points[0]), sub(points[3], points[0]));
        if !convex(&points, turn) {
            return None;
        }
    } else if quad.iter().any(|q| q.uv.is_some()) {
        return None;
    }
    let length2 = |p: [f64; 3], q: [f64; 3]| dot(sub(p, q), sub(p, q));
    let shared = length2(position(&b), position(&c));
    let longest =
        |x: [f64; 3]| shared >= length2(x, position(&b)) && shared >= length2(x, position(&c));
    Some(Candidate {
        first,
        second,
        quad,
        diagonal: longest(position(&a)) && longest(position(&d)),
        flatness,
    })
}

/// Whether two corners on the same vertex look the same: uv and colour.
fn same_attributes(scene: &Scene, x: &Corner, y: &Corner) -> bool {
    let uv = |c: &Corner| c.uv.map(|i| scene.uvs[i as usize]);
    let color = |c: &Corner| c.color.map(|i| scene.colors[i as usize]);
    uv(x) == uv(y) && color(x) == color(y)
}

/// Whether the quad turns the same way (that of `normal`) at each of its corners.
fn convex(points: &[[f64; 3]; 4], normal: [f64; 3]) -> bool {
    let scale = length(normal);
    if scale == 0.0 || !scale.is_finite() {
        return false;
    }
    (0..4).all(|i| {
        let turn = cross(
            sub(points[(i + 1) % 4], points[i]),
            sub(points[(i + 2) % 4], points[(i + 1) % 4]),
        );
        dot(turn, normal) > 1e-9 * scale * scale
    })
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn length(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::scene::{Origin, Place, SceneAxes, Vertex};
    use std::path::Path;

    /// A scene of triangles over `positions`, each with uvs equal to its x, y when
    /// `uv` (`None`: no uvs), in material `material[i]`.
    fn scene(positions: &[[f64; 3]], triangles: &[[u32; 3]], materials: &[u32], uv: bool) -> Scene {
        let mut scene = Scene::new(Path::new("t.gltf"), SceneAxes::YUpRightHanded);
        let origin = Origin {
            file: 0,
            place: Place::File,
        };
        for p in positions {
            scene.vertices.push(Vertex {
                position: *p,
                group: None,
                origin: origin.clone(),
            });
            scene.uvs.push([p[0], p[1]]);
        }
        for (t, m) in triangles.iter().zip(materials) {
            let start = scene.corners.len();
            scene.corners.extend(t.map(|v| Corner {
                vertex: v,
                uv: uv.then_some(v),
                normal: None,
                color: None,
            }));
            scene.faces.push(Face {
                corners: start..start + 3,
                group: None,
                material: Some(*m),
                origin: origin.clone(),
            });
        }
        scene
    }

    fn corners(scene: &Scene) -> Vec<Vec<u32>> {
        scene
            .faces
            .iter()
            .map(|f| scene.face_corners(f).iter().map(|c| c.vertex).collect())
            .collect()
    }

    const SQUARE: [[f64; 3]; 4] = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ];

    #[test]
    fn a_cut_square_becomes_one_quad_wound_as_its_triangles() {
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        assert_eq!(pair(&mut s), 2);
        assert_eq!(corners(&s), [vec![1, 2, 3, 0]]);
    }

    #[test]
    fn triangles_stay_when_they_differ_bend_fold_or_break_their_uvs() {
        // Another material.
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 1], true);
        assert_eq!(pair(&mut s), 0);
        // Bent by more than FLAT_DEGREES.
        let mut bent = SQUARE;
        bent[3][2] = 0.1;
        let mut s = scene(&bent, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        assert_eq!(pair(&mut s), 0);
        // Concave: the fourth point inside the first triangle's side of the edge.
        let dart = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 2.0, 0.0],
            [1.5, 0.5, 0.0],
        ];
        let mut s = scene(&dart, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        assert_eq!(pair(&mut s), 0);
        // The second triangle's uvs do not continue across the edge.
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        s.uvs.push([5.0, 5.0]);
        let last = s.corners.len() - 2;
        s.corners[last].uv = Some(4);
        assert_eq!(pair(&mut s), 0);
        // Wound against each other.
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 3, 2]], &[0, 0], false);
        assert_eq!(pair(&mut s), 0);
    }

    #[test]
    fn the_diagonal_pairs_first() {
        // A strip of two squares cut along their diagonals: the middle triangles could
        // pair across the shared side, but each square's halves pair instead.
        let points = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [1.0, 1.0, 0.0],
            [2.0, 1.0, 0.0],
        ];
        let triangles = [[0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4]];
        let mut s = scene(&points, &triangles, &[0; 4], false);
        assert_eq!(pair(&mut s), 4);
        let mut quads = corners(&s);
        quads.iter_mut().for_each(|q| q.sort_unstable());
        assert_eq!(quads, [vec![0, 1, 3, 4], vec![1, 2, 4, 5]]);
    }
}
