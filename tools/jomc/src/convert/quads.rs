//! Pairing triangles back into quads, a scene stage for every importer (glTF and CMB by
//! default, where the exporters cut every quad in two; OBJ and TMD with `--quads`). The
//! Saturn draws quads: a triangle costs as much as a quad, and a textured triangle squeezes
//! a whole texture row into a point.
//!
//! Two triangles sharing an edge may become one quad when (see [`candidate`]):
//!
//! - they have the same material and group (or, in a skinned mesh, each of their vertices
//!   has a group of its own), and are wound the same way across the edge, which no other
//!   triangle uses;
//! - the quad is not folded past the tolerance ([`Settings::fold_degrees`], the angle between
//!   the two triangles' normals) and is convex on the model's surface: seen along its own
//!   normal (the cross product of its diagonals, Newell's normal of the four corners, which
//!   the pipeline writes to QUAD for culling and light), it turns the same way at each
//!   corner;
//! - one texture can be baked across both: their corners on the shared edge have the same
//!   texture coordinates, colours and normals on both sides, the quad is convex in texture
//!   space the same way round, and the two triangles map the texture as one (the second's
//!   apex within [`UV_TOLERANCE_TEXELS`] of where the first's mapping, the surface
//!   unfolded, puts it), so that the texture baked for the quad (bilinear over its
//!   corners' coordinates, as the VDP1 spreads it) maps as it did on the triangles.
//!
//! Which pairs: as many as possible, a maximum matching of the graph whose nodes are the
//! triangles and whose edges are the allowed pairs ([`maximum_matching`]: Edmonds' blossom
//! algorithm). It starts from the greedy pairing (the pairs whose shared edge is the
//! longest edge of both triangles, the diagonal of a cut quad, first, then the flattest)
//! and grows it by shortest augmenting paths, so most of the greedy choices stay.
//! [`Pairing::Greedy`] stops at the greedy pairing (for comparison).

use super::matching::{maximum_matching, Graph, NONE};
use super::scene::{Corner, Face, Scene};
use std::collections::HashMap;

/// How pairs are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Pairing {
    /// As many pairs as the allowed pairs make (a maximum matching).
    Matching,
    /// The greedy pairing alone: the best pairs first, each taken when both its triangles
    /// are still free (for comparison).
    Greedy,
    /// No pairs: the triangles as they are (for comparison; `--keep-triangles` also keeps
    /// their corner order).
    None,
}

/// The command-line choices of the pairing.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The largest angle between the two triangles' normals, in degrees (`--quad-fold`).
    pub fold_degrees: f64,
    pub pairing: Pairing,
}

/// The default of `--quad-fold`, chosen by measurement on the samples (docs/convert.md).
pub const DEFAULT_FOLD_DEGREES: f64 = 20.0;

/// Pairs the scene's triangles into quads; returns how many pairs were made.
pub fn pair(scene: &mut Scene, settings: &Settings) -> usize {
    if settings.pairing == Pairing::None {
        return 0;
    }
    let candidates = candidates(scene, settings.fold_degrees);
    let mut mate = vec![NONE; scene.faces.len()];
    for (index, candidate) in candidates.iter().enumerate() {
        let (first, second) = (candidate.first, candidate.second);
        if mate[first] == NONE && mate[second] == NONE {
            mate[first] = index as u32;
            mate[second] = index as u32;
        }
    }
    // The matching can only grow the greedy pairing from a triangle left free beside an
    // allowed pair.
    let free_beside_a_pair = candidates
        .iter()
        .any(|c| mate[c.first] == NONE || mate[c.second] == NONE);
    if settings.pairing == Pairing::Matching && free_beside_a_pair {
        // From the greedy pairing (each triangle's candidate) to each triangle's mate.
        let mut partner: Vec<u32> = mate
            .iter()
            .enumerate()
            .map(|(face, &c)| match c {
                NONE => NONE,
                c => {
                    let c = &candidates[c as usize];
                    (c.first + c.second - face) as u32
                }
            })
            .collect();
        let pairs: Vec<(u32, u32)> = candidates
            .iter()
            .map(|c| (c.first as u32, c.second as u32))
            .collect();
        maximum_matching(&Graph::new(scene.faces.len(), &pairs), &mut partner);
        // Back to each triangle's candidate.
        let mut of_pair: HashMap<(u32, u32), u32> = HashMap::with_capacity(pairs.len());
        for (index, &pair) in pairs.iter().enumerate() {
            of_pair.insert(pair, index as u32);
        }
        for (face, &other) in partner.iter().enumerate() {
            mate[face] = match other {
                NONE => NONE,
                other => {
                    let key = (
                        face.min(other as usize) as u32,
                        face.max(other as usize) as u32,
                    );
                    of_pair[&key]
                }
            };
        }
    }
    let mut pairs = 0;
    let mut quad: Vec<Option<[Corner; 4]>> = vec![None; scene.faces.len()];
    let mut removed = vec![false; scene.faces.len()];
    for (face, &c) in mate.iter().enumerate() {
        if c == NONE {
            continue;
        }
        let candidate = &candidates[c as usize];
        if candidate.first == face {
            quad[face] = Some(candidate.quad);
            removed[candidate.second] = true;
            pairs += 1;
        }
    }
    if pairs == 0 {
        return 0;
    }
    let old_faces = std::mem::take(&mut scene.faces);
    let old_corners = std::mem::take(&mut scene.corners);
    for (index, face) in old_faces.into_iter().enumerate() {
        if removed[index] {
            continue;
        }
        let start = scene.corners.len();
        match quad[index] {
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
    pairs
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

/// Every pair that may become a quad, best first (the greedy pairing's order).
fn candidates(scene: &Scene, fold_degrees: f64) -> Vec<Candidate> {
    let points = points(scene);
    // The triangles on each edge (its two points, smaller first).
    let mut edges: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (index, face) in scene.faces.iter().enumerate() {
        let corners = scene.face_corners(face);
        if corners.len() != 3 {
            continue;
        }
        for i in 0..3 {
            let a = points[corners[i].vertex as usize];
            let b = points[corners[(i + 1) % 3].vertex as usize];
            edges
                .entry((a.min(b), a.max(b)))
                .or_default()
                .push((index, i));
        }
    }
    let least_flatness = fold_degrees.to_radians().cos();
    let mut candidates: Vec<Candidate> = edges
        .values()
        .filter(|users| users.len() == 2)
        .filter_map(|users| candidate(scene, &points, users[0], users[1], least_flatness))
        .collect();
    candidates.sort_by(|a, b| {
        b.diagonal
            .cmp(&a.diagonal)
            .then(b.flatness.total_cmp(&a.flatness))
            .then(a.first.cmp(&b.first))
            .then(a.second.cmp(&b.second))
    });
    candidates
}

/// The point of each scene vertex: vertices at the same position with the same group (of
/// their own) are one point, as the pipeline's welding makes them (an importer may give
/// each corner its own vertex, as the CMB one does).
fn points(scene: &Scene) -> Vec<u32> {
    let mut known: HashMap<([u64; 3], Option<u32>), u32> = HashMap::new();
    scene
        .vertices
        .iter()
        .map(|v| {
            let key = (v.position.map(f64::to_bits), v.group);
            let next = known.len() as u32;
            *known.entry(key).or_insert(next)
        })
        .collect()
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
/// starts at, `point_of` the point of each vertex), if they make a good one: folded by an angle whose cosine is at least
/// `least_flatness`.
fn candidate(
    scene: &Scene,
    point_of: &[u32],
    one: (usize, usize),
    two: (usize, usize),
    least_flatness: f64,
) -> Option<Candidate> {
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
    let point = |corner: &Corner| point_of[corner.vertex as usize];
    if point(&c2) != point(&c) || point(&b2) != point(&b) || point(&d) == point(&a) {
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
    if flatness.is_nan() || flatness < least_flatness {
        return None;
    }
    // Convex seen along the quad's own normal (its diagonals' cross product).
    let normal = cross(sub(points[2], points[0]), sub(points[3], points[1]));
    if !convex(&points, normal) {
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
        // One mapping across both: the apex d where the first triangle's mapping, the
        // second unfolded into its plane, puts it.
        let image = face_one
            .material
            .and_then(|m| scene.materials.get(m as usize)?.texture.as_ref())
            .and_then(|t| scene.images.get(t.image as usize));
        if let Some(image) = image {
            let size = [f64::from(image.width), f64::from(image.height)];
            let [ua, ub, ud, uc] = [uvs[0], uvs[1], uvs[2], uvs[3]];
            let [pa, pb, pd, pc] = quad.map(|q| position(&q));
            let l = unfolded_barycentric(pa, pb, pc, pd)?;
            let predicted = [0, 1].map(|k| l[0] * ua[k] + l[1] * ub[k] + l[2] * uc[k]);
            let off = ((predicted[0] - ud[0]) * size[0]).hypot((predicted[1] - ud[1]) * size[1]);
            // (NaN, from a degenerate mapping, is refused too.)
            if off.is_nan() || off > UV_TOLERANCE_TEXELS {
                return None;
            }
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

/// How far (in texels of the image) the apex of the second triangle's texture coordinates
/// may be from where the first triangle's mapping puts it: the quad's texture is baked
/// bilinearly over its four corners, which is each triangle's own mapping only when the
/// two triangles map the texture as one (chosen by measurement, docs/convert.md).
pub const UV_TOLERANCE_TEXELS: f64 = 3.0;

/// The barycentric coordinates, in the triangle `a`, `b`, `c`, of the apex `d` of a second
/// triangle on the edge `b`-`c`, turned about that edge into the first triangle's plane
/// (the surface unfolded); `None` for a degenerate triangle.
fn unfolded_barycentric(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> Option<[f64; 3]> {
    let edge = sub(c, b);
    let edge_length = length(edge);
    let normal = cross(sub(b, a), sub(c, a));
    let scale = length(normal);
    if edge_length == 0.0 || scale == 0.0 {
        return None;
    }
    let along = edge.map(|x| x / edge_length);
    // In the plane, across the edge away from a.
    let mut across = cross(along, normal.map(|x| x / scale));
    if dot(across, sub(a, b)) > 0.0 {
        across = across.map(|x| -x);
    }
    let from_b = sub(d, b);
    let t = dot(from_b, along);
    let h = length(sub(from_b, along.map(|x| x * t)));
    let unfolded = [0, 1, 2].map(|k| b[k] + along[k] * t + across[k] * h);
    // Barycentric coordinates in the plane of a, b, c.
    let (e1, e2, p) = (sub(b, a), sub(c, a), sub(unfolded, a));
    let (aa, ab, bb) = (dot(e1, e1), dot(e1, e2), dot(e2, e2));
    let (x, y) = (dot(p, e1), dot(p, e2));
    let det = aa * bb - ab * ab;
    let l1 = (bb * x - ab * y) / det;
    let l2 = (aa * y - ab * x) / det;
    Some([1.0 - l1 - l2, l1, l2])
}

/// Whether two corners on the same vertex look the same: uv, colour and normal.
fn same_attributes(scene: &Scene, x: &Corner, y: &Corner) -> bool {
    let uv = |c: &Corner| c.uv.map(|i| scene.uvs[i as usize]);
    let color = |c: &Corner| c.color.map(|i| scene.colors[i as usize]);
    let normal = |c: &Corner| c.normal.map(|i| scene.normals[i as usize]);
    uv(x) == uv(y) && color(x) == color(y) && normal(x) == normal(y)
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

    const DEFAULT: Settings = Settings {
        fold_degrees: DEFAULT_FOLD_DEGREES,
        pairing: Pairing::Matching,
    };

    #[test]
    fn a_cut_square_becomes_one_quad_wound_as_its_triangles() {
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        assert_eq!(pair(&mut s, &DEFAULT), 1);
        assert_eq!(corners(&s), [vec![1, 2, 3, 0]]);
    }

    #[test]
    fn triangles_stay_when_they_differ_fold_or_break_their_uvs() {
        // Another material.
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 1], true);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
        // Folded by 5.7 degrees: within the default fold, past 5 degrees.
        let mut bent = SQUARE;
        bent[3][2] = 0.1;
        let mut s = scene(&bent, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        let five = Settings {
            fold_degrees: 5.0,
            ..DEFAULT
        };
        assert_eq!(pair(&mut s, &five), 0);
        assert_eq!(pair(&mut s, &DEFAULT), 1);
        // Folded by 35 degrees.
        bent[3][2] = 0.7;
        let mut s = scene(&bent, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
        // Concave: the fourth point inside the first triangle's side of the edge.
        let dart = [
            [0.0, 0.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.0, 2.0, 0.0],
            [1.5, 0.5, 0.0],
        ];
        let mut s = scene(&dart, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
        // The second triangle's uvs do not continue across the edge.
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        s.uvs.push([5.0, 5.0]);
        let last = s.corners.len() - 2;
        s.corners[last].uv = Some(4);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
        // Nor do their normals (a hard edge).
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 2, 3]], &[0, 0], true);
        s.normals = vec![[0.0, 0.0, 1.0], [0.0, 1.0, 0.0]];
        s.corners.iter_mut().for_each(|c| c.normal = Some(0));
        s.corners[last].normal = Some(1);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
        // Wound against each other.
        let mut s = scene(&SQUARE, &[[0, 1, 2], [0, 3, 2]], &[0, 0], false);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
    }

    #[test]
    fn a_folded_quad_must_be_convex_seen_along_its_own_normal() {
        // A square folded along its diagonal 0-2 by 15 degrees: convex on the surface.
        let lift = (15f64.to_radians()).sin() * 0.5f64.sqrt();
        let mut folded = SQUARE;
        folded[3][2] = lift;
        let mut s = scene(&folded, &[[0, 1, 2], [0, 2, 3]], &[0, 0], false);
        assert_eq!(pair(&mut s, &DEFAULT), 1);
        // An arrowhead folded by a few degrees, both triangles wound the same way: seen
        // along the quad's normal it turns the other way at corner 1.
        let arrow = [
            [0.0, 0.0, 0.0],
            [1.0, 0.8, 0.0],
            [1.0, 2.0, 0.0],
            [2.0, 0.0, 0.1],
        ];
        let mut s = scene(&arrow, &[[0, 1, 2], [2, 1, 3]], &[0, 0], false);
        assert_eq!(pair(&mut s, &DEFAULT), 0);
        // Without the notch (corner 1 moved out), the same fold pairs.
        let mut kite = arrow;
        kite[1] = [1.4, -0.5, 0.0];
        let mut s = scene(&kite, &[[0, 1, 2], [2, 1, 3]], &[0, 0], false);
        assert_eq!(pair(&mut s, &DEFAULT), 1);
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
        assert_eq!(pair(&mut s, &DEFAULT), 2);
        let mut quads = corners(&s);
        quads.iter_mut().for_each(|q| q.sort_unstable());
        assert_eq!(quads, [vec![0, 1, 3, 4], vec![1, 2, 4, 5]]);
    }

    #[test]
    fn the_matching_pairs_what_the_greedy_pass_leaves() {
        // A strip of four triangles in a slanted band: the middle two share the longest
        // edge of both, so the greedy pass pairs them first and leaves the ends alone; the
        // matching pairs the ends with them instead.
        let points = [
            [0.0, 0.0, 0.0],
            [0.9, 1.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.9, 1.0, 0.0],
            [2.0, 0.0, 0.0],
            [2.9, 1.0, 0.0],
        ];
        let triangles = [[0, 2, 1], [1, 2, 3], [2, 4, 3], [3, 4, 5]];
        let greedy = Settings {
            pairing: Pairing::Greedy,
            ..DEFAULT
        };
        let mut s = scene(&points, &triangles, &[0; 4], false);
        assert_eq!(pair(&mut s, &greedy), 1);
        assert_eq!(s.faces.len(), 3);
        let mut s = scene(&points, &triangles, &[0; 4], false);
        assert_eq!(pair(&mut s, &DEFAULT), 2);
        let mut quads = corners(&s);
        quads.iter_mut().for_each(|q| q.sort_unstable());
        assert_eq!(quads, [vec![0, 1, 2, 3], vec![2, 3, 4, 5]]);
    }
}
