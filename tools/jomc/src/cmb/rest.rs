//! The bones' rest matrices and the model made rigid: every corner with the one bone it
//! follows, in model space (the file's axes and units), and every triangle with the bone
//! most of its weight follows.

use super::model::{Cmb, Material, Skinning};

/// A row-major 3x4 affine matrix; column 3 is the translation.
pub type Affine = [[f64; 4]; 3];

/// The identity.
pub const IDENTITY: Affine = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// `T(translation) * Rz * Ry * Rx * S(scale)`: how a CMB bone (and a CSAB pose) places its
/// children relative to its parent; angles in radians, X applied first.
pub fn local_matrix(scale: [f64; 3], rotation: [f64; 3], translation: [f64; 3]) -> Affine {
    let [(sx, cx), (sy, cy), (sz, cz)] = rotation.map(f64::sin_cos);
    let r = [
        [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
        [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
        [-sy, cy * sx, cy * cx],
    ];
    let mut m = IDENTITY;
    for row in 0..3 {
        for col in 0..3 {
            m[row][col] = r[row][col] * scale[col];
        }
        m[row][3] = translation[row];
    }
    m
}

/// `a * b`: `b` first.
pub fn compose(a: &Affine, b: &Affine) -> Affine {
    let mut m = [[0.0; 4]; 3];
    for (row, out) in m.iter_mut().enumerate() {
        for (col, cell) in out.iter_mut().enumerate() {
            *cell = (0..3).map(|k| a[row][k] * b[k][col]).sum::<f64>()
                + if col == 3 { a[row][3] } else { 0.0 };
        }
    }
    m
}

/// `m` applied to the point `p`.
pub fn apply(m: &Affine, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3])
}

/// `m` applied to the direction `v` (no translation).
pub fn rotate(m: &Affine, v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2])
}

/// The inverse of `m`, or `None` when it is singular (a bone scaled to 0).
pub fn inverse(m: &Affine) -> Option<Affine> {
    let a = |r: usize, c: usize| m[r][c];
    let cof =
        |r0: usize, r1: usize, c0: usize, c1: usize| a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0);
    let det = a(0, 0) * cof(1, 2, 1, 2) - a(0, 1) * cof(1, 2, 0, 2) + a(0, 2) * cof(1, 2, 0, 1);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv3 = [
        [cof(1, 2, 1, 2), -cof(0, 2, 1, 2), cof(0, 1, 1, 2)],
        [-cof(1, 2, 0, 2), cof(0, 2, 0, 2), -cof(0, 1, 0, 2)],
        [cof(1, 2, 0, 1), -cof(0, 2, 0, 1), cof(0, 1, 0, 1)],
    ]
    .map(|row| row.map(|v| v / det));
    let t = [m[0][3], m[1][3], m[2][3]];
    let mut out = IDENTITY;
    for r in 0..3 {
        out[r][..3].copy_from_slice(&inv3[r]);
        out[r][3] = -(inv3[r][0] * t[0] + inv3[r][1] * t[1] + inv3[r][2] * t[2]);
    }
    Some(out)
}

/// Each bone's model-space matrix at rest, parents first (as the file orders them).
pub fn rest_matrices(cmb: &Cmb) -> Vec<Affine> {
    let mut world: Vec<Affine> = Vec::with_capacity(cmb.bones.len());
    for bone in &cmb.bones {
        let local = local_matrix(
            bone.scale.map(f64::from),
            bone.rotation.map(f64::from),
            bone.translation.map(f64::from),
        );
        let m = match bone.parent {
            Some(parent) => compose(&world[parent], &local),
            None => local,
        };
        world.push(m);
    }
    world
}

/// One corner of a rigid triangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Corner {
    /// Model space at rest.
    pub position: [f64; 3],
    /// Model space, unit length (or zero when the shape has none).
    pub normal: [f64; 3],
    /// RGBA, 1.0 = full; white when the shape has no colours.
    pub color: [f32; 4],
    /// The first texture coordinates after the material's transform, (s, t) as the 3DS
    /// samples them: t runs up, t = 1 is the first stored row of the texture.
    pub uv: Option<[f32; 2]>,
    /// The bone its vertex follows (the heaviest of a smooth vertex's), index in
    /// [`Cmb::bones`].
    pub bone: usize,
}

/// A triangle: its corners, each following its own bone, and the one bone that most of
/// its weight follows.
#[derive(Debug, Clone, PartialEq)]
pub struct Triangle {
    pub corners: [Corner; 3],
    /// Index in [`Cmb::bones`].
    pub bone: usize,
    /// Index in [`Cmb::materials`].
    pub material: usize,
}

/// The model made rigid.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidModel {
    pub triangles: Vec<Triangle>,
    /// Vertices of smoothly skinned sets given to their heaviest bone only.
    pub smooth_vertices: usize,
    /// Triangles whose corners follow different bones (rigid or smooth skinning); their
    /// [`Triangle::bone`] is the one most of their weight follows.
    pub split_triangles: usize,
}

/// The material's first texture coordinate transform applied to (s, t), as the 3DS's
/// "Maya" texture matrix (noclip.website's `calcTexMtx`): rotation in half turns about
/// (0.5, 0.5) of a texture whose t runs up.
fn uv_transform(material: &Material, uv: [f32; 2]) -> [f32; 2] {
    let [ss, st] = material.uv_scale.map(f64::from);
    let [ts, tt] = material.uv_translation.map(f64::from);
    let (sin, cos) = (f64::from(material.uv_rotation) * std::f64::consts::PI).sin_cos();
    let (u, v) = (f64::from(uv[0]), f64::from(uv[1]));
    let s = ss * cos * u + ss * sin * v + ss * (-0.5 * cos - (0.5 * sin - 0.5) - ts);
    let t = -st * sin * u + st * cos * v + st * (-0.5 * cos + (0.5 * sin - 0.5) + tt) + 1.0;
    [s as f32, t as f32]
}

/// The bone and weight each vertex of a set follows (indices in the skeleton).
fn vertex_bones(
    shape: &super::model::Shape,
    set: &super::model::PrimitiveSet,
    vertex: usize,
) -> Vec<(usize, f32)> {
    let table = |i: usize| set.bone_table.get(i).copied();
    match set.skinning {
        Skinning::Single => vec![(set.bone_table[0], 1.0)],
        Skinning::Rigid | Skinning::Smooth => {
            let indices = shape.bone_indices.as_ref().map(|b| b[vertex].as_slice());
            let weights = shape.bone_weights.as_ref().map(|w| w[vertex].as_slice());
            let pairs: Vec<(usize, f32)> = match indices {
                Some(indices) => indices
                    .iter()
                    .enumerate()
                    .filter_map(|(k, &i)| {
                        let weight = match (set.skinning, weights) {
                            (Skinning::Smooth, Some(w)) => w.get(k).copied().unwrap_or(0.0),
                            _ if k == 0 => 1.0,
                            _ => 0.0,
                        };
                        Some((table(i)?, weight))
                    })
                    .filter(|&(_, w)| w > 0.0)
                    .collect(),
                None => Vec::new(),
            };
            if pairs.is_empty() {
                // No bone indices (Luigi's Mansion 3D's rigid sets of one bone have none):
                // the set's first bone.
                vec![(set.bone_table.first().copied().unwrap_or(0), 1.0)]
            } else {
                pairs
            }
        }
    }
}

/// Every mesh's triangles, each corner with one bone: single and rigid skinning place the
/// bone-local positions by the bone's rest matrix; smooth skinning keeps the model-space
/// positions and gives each vertex its heaviest bone.
pub fn make_rigid(cmb: &Cmb) -> RigidModel {
    let rest = rest_matrices(cmb);
    let mut triangles = Vec::new();
    let (mut smooth_vertices, mut split_triangles) = (0, 0);
    for mesh in &cmb.meshes {
        let shape = &cmb.shapes[mesh.shape];
        let material = &cmb.materials[mesh.material];
        for set in &shape.primitive_sets {
            if set.skinning == Skinning::Smooth {
                let mut seen = std::collections::BTreeSet::new();
                seen.extend(set.triangles.iter().flatten().copied());
                smooth_vertices += seen
                    .iter()
                    .filter(|&&v| vertex_bones(shape, set, v).len() > 1)
                    .count();
            }
            for triangle in &set.triangles {
                let bones = triangle.map(|v| vertex_bones(shape, set, v));
                let bone = heaviest(&bones);
                if bones.iter().flatten().any(|&(b, _)| b != bone) {
                    split_triangles += 1;
                }
                let corners = [0, 1, 2].map(|k| {
                    let v = triangle[k];
                    let own = bones[k]
                        .iter()
                        .fold((bones[k][0].0, f32::MIN), |best, &(b, w)| {
                            if w > best.1 {
                                (b, w)
                            } else {
                                best
                            }
                        })
                        .0;
                    let place = match set.skinning {
                        Skinning::Smooth => IDENTITY,
                        _ => rest.get(own).copied().unwrap_or(IDENTITY),
                    };
                    let position = apply(&place, shape.positions[v].map(f64::from));
                    let normal = shape
                        .normals
                        .as_ref()
                        .map_or([0.0; 3], |n| unit(rotate(&place, n[v].map(f64::from))));
                    Corner {
                        position,
                        normal,
                        color: shape.colors.as_ref().map_or([1.0; 4], |c| c[v]),
                        uv: shape.uvs.as_ref().map(|uv| uv_transform(material, uv[v])),
                        bone: own,
                    }
                });
                triangles.push(Triangle {
                    corners,
                    bone,
                    material: mesh.material,
                });
            }
        }
    }
    RigidModel {
        triangles,
        smooth_vertices,
        split_triangles,
    }
}

/// The bone with the most weight over a triangle's corners (the lowest index on a tie).
fn heaviest(corners: &[Vec<(usize, f32)>; 3]) -> usize {
    let mut totals = std::collections::BTreeMap::<usize, f32>::new();
    for &(bone, weight) in corners.iter().flatten() {
        *totals.entry(bone).or_default() += weight;
    }
    totals
        .iter()
        .fold(
            (0, f32::MIN),
            |best, (&b, &w)| if w > best.1 { (b, w) } else { best },
        )
        .0
}

fn unit(v: [f64; 3]) -> [f64; 3] {
    let length = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if length > 0.0 {
        v.map(|c| c / length)
    } else {
        v
    }
}

/// Each bone's model-space matrix at `frame` of `animation` (30 frames a second): the
/// animated tracks replace the bone's rest values, the others stay.
pub fn posed_matrices(cmb: &Cmb, animation: &super::csab::Csab, frame: f64) -> Vec<Affine> {
    let mut world: Vec<Affine> = Vec::with_capacity(cmb.bones.len());
    for (index, bone) in cmb.bones.iter().enumerate() {
        let node = animation.nodes.iter().find(|n| n.bone == index);
        let value = |tracks: Option<&[Option<super::csab::Track>; 3]>, rest: [f32; 3]| {
            [0, 1, 2].map(|k| match tracks.and_then(|t| t[k].as_ref()) {
                Some(track) => track.sample(frame),
                None => f64::from(rest[k]),
            })
        };
        let local = local_matrix(
            value(node.map(|n| &n.scale), bone.scale),
            value(node.map(|n| &n.rotation), bone.rotation),
            value(node.map(|n| &n.translation), bone.translation),
        );
        let m = match bone.parent {
            Some(parent) => compose(&world[parent], &local),
            None => local,
        };
        world.push(m);
    }
    world
}
