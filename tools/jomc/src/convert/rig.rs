//! The rigid rig shared by every importer: from sampled bone matrices to BONE, ANIM and BMOT.
//!
//! An importer (glTF, CMB, TMD+TOD, ...) samples each bone's model-space "skinning" matrix
//! at each key: the transform that takes a point of the model at rest (as stored in PNTS) to
//! where it is at that key, in the Saturn's axes and model units. [`convert`] turns those
//! matrices into what the engine plays (`jom::anim`): for each bone and key, angles around
//! X, then Y, then Z (`Rz * Ry * Rx`, `jom::math::Matrix::rotation_xyz`), an offset `t` and a
//! scale `s` such that the bone's local matrix `M_parent^-1 * M_bone` is
//! `T(pivot + t) * R(angles) * S(s) * T(-pivot)`. Everything is computed against the
//! matrices the engine will rebuild from the rounded values (parents first), so a child
//! makes up for its parent's rounding instead of adding to it.

use jom_write::{Animation, Bone, BoneMotion, Key, MotionKey};
use std::f64::consts::{PI, TAU};

/// A row-major 3x4 affine matrix: column 3 is the translation.
pub type Affine = [[f64; 4]; 3];

/// A bone of the rig, parents before children.
#[derive(Clone, Debug, PartialEq)]
pub struct RigBone {
    /// The bone's name (ASCII, at most 15 characters are stored).
    pub name: String,
    /// The parent's index in the bone list (before this bone), `None` for a root.
    pub parent: Option<usize>,
    /// The GRUP group the bone moves, `None` for none.
    pub group: Option<u16>,
    /// The joint, in model space (Saturn axes, model units).
    pub pivot: [f64; 3],
}

/// An animation sampled at its keys.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledAnimation {
    /// The animation's name.
    pub name: String,
    /// Ticks (1/60 s) between two keys, at least 1.
    pub key_ticks: u16,
    /// Whether the last key goes back to the first.
    pub looped: bool,
    /// `keys[k][b]`: bone b's skinning matrix at key k.
    pub keys: Vec<Vec<Affine>>,
}

/// BONE, ANIM and (when a bone moves or stretches) BMOT, and what was lost on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Rig {
    /// BONE, in the order of the input bones.
    pub bones: Vec<Bone>,
    /// ANIM, in the order of the input animations.
    pub animations: Vec<Animation>,
    /// BMOT, `None` when no bone moves or stretches.
    pub bone_motion: Option<Vec<BoneMotion>>,
    /// One line each, for the user (the converter prints them).
    pub warnings: Vec<String>,
}

/// JO_3D_MAX_BONES.
const MAX_BONES: usize = 32;
/// BONE.group of a bone that moves no polygons.
const NO_GROUP: u16 = 0xFFFF;
/// A scale component closer to 1 than this is taken as none: sampled matrices carry
/// rounding noise, which would otherwise write BMOT tracks for bones that only turn.
const REST_TOLERANCE: f64 = 1e-4;
/// An offset component closer to 0 than this many rounding steps of an angle (a 65,536th of
/// a turn) at the rig's size is taken as none: a child making up for its parent's rounded
/// angles moves its pivot by about that much.
const REST_OFFSET_STEPS: f64 = 4.0;
/// A parent whose matrix shrinks some direction below this keeps no information about its
/// children's local motion: their values come from the nearest key where it does.
const SINGULAR_SCALE: f64 = 1e-3;
/// Below this cos(y) the angles are in gimbal lock: only x - z (or x + z) is defined.
const GIMBAL_COS: f64 = 1e-6;
/// A scale below this before clamping to 0 is a mirror, not an overshoot: it is reported.
const MIRROR_WARNING: f64 = 1e-2;
/// The rig's matrices are reported as not held when a point moves further than this share
/// of the rig's size from where the input puts it.
const FIT_WARNING: f64 = 1e-3;

/// Decomposes every bone's matrix at every key into what JOM plays; see the module
/// documentation. The first bone's (a root's) offset goes into the key's root offset, which
/// the engine applies to every root and to the points of no bone's group: the only offset
/// of a single-root rig; other roots keep their offset from it in BMOT. BMOT tracks are
/// written only for the (animation, bone) pairs whose offset or scale is not 0 / 1; a
/// negative scale (an interpolation overshooting 0, or a mirror) is clamped to 0. With
/// `rotations_only` the offsets and scales are dropped and a warning gives the largest
/// error this makes.
pub fn convert(
    bones: &[RigBone],
    animations: &[SampledAnimation],
    rotations_only: bool,
) -> Result<Rig, String> {
    check(bones, animations)?;
    let pivots: Vec<[i32; 3]> = bones
        .iter()
        .map(|b| fixed(b.pivot).map_err(|m| format!("bone {} pivot: {m}", b.name)))
        .collect::<Result<_, _>>()?;
    let mut rig = Rig {
        bones: bones
            .iter()
            .zip(&pivots)
            .map(|(b, &pivot)| Bone {
                name: b.name.clone(),
                group: b.group.unwrap_or(NO_GROUP),
                parent: b.parent.map_or(-1, |p| p as i16),
                pivot,
            })
            .collect(),
        animations: Vec::new(),
        bone_motion: None,
        warnings: Vec::new(),
    };
    let mut tracks = Vec::new();
    let mut fit = Worst::default();
    let mut mirror = Worst::default();
    let mut dropped = false;
    let size = rig_size(bones);
    let solver = Solver {
        bones,
        pivots: &pivots,
        rotations_only,
        offset_tolerance: REST_OFFSET_STEPS * TAU / 65536.0 * size,
    };
    for (index, animation) in animations.iter().enumerate() {
        let solved = solver.animation(animation)?;
        let (motion, record) = solved.output(animation, index as u16);
        tracks.extend(motion);
        rig.animations.push(record);
        mirror.merge(&solved.mirror, &animation.name);
        fit.merge(
            &chain_error(&solved, animation, bones, &pivots, size),
            &animation.name,
        );
        dropped |= solved.dropped;
    }
    if let Some(w) = mirror.found() {
        rig.warnings.push(format!(
            "a bone is mirrored (scale {:.4}), which the Saturn cannot draw: clamped to 0 ({w})",
            -mirror.value
        ));
    }
    if let Some(w) = fit.found() {
        if dropped {
            rig.warnings.push(format!(
                "rotations only: the bones' offsets and scales are dropped; the largest error \
                 is {:.4} model units ({w})",
                fit.value
            ));
        } else if fit.value > FIT_WARNING * size {
            rig.warnings.push(format!(
                "the bones' matrices are not all turns, offsets and scales along the bone's \
                 axes (shear?): the largest error is {:.4} model units ({w})",
                fit.value
            ));
        }
    }
    rig.bone_motion = (!tracks.is_empty()).then_some(tracks);
    Ok(rig)
}

fn check(bones: &[RigBone], animations: &[SampledAnimation]) -> Result<(), String> {
    if bones.len() > MAX_BONES {
        return Err(format!(
            "{} bones, more than the {MAX_BONES} of JO_3D_MAX_BONES",
            bones.len()
        ));
    }
    for (i, bone) in bones.iter().enumerate() {
        if bone.parent.is_some_and(|p| p >= i) {
            return Err(format!(
                "bone {}: its parent is not a bone before it (parents come first)",
                bone.name
            ));
        }
    }
    if animations.len() > usize::from(u16::MAX) {
        return Err(format!("{} animations, more than 65,535", animations.len()));
    }
    for a in animations {
        if a.key_ticks == 0 {
            return Err(format!("animation {}: key_ticks must be 1 or more", a.name));
        }
        if a.keys.is_empty() || a.keys.len() > usize::from(u16::MAX) {
            return Err(format!(
                "animation {}: {} keys, expected 1 to 65,535",
                a.name,
                a.keys.len()
            ));
        }
        for (k, key) in a.keys.iter().enumerate() {
            if key.len() != bones.len() {
                return Err(format!(
                    "animation {} key {k}: {} matrices for {} bones",
                    a.name,
                    key.len(),
                    bones.len()
                ));
            }
            if key.iter().flatten().flatten().any(|v| !v.is_finite()) {
                return Err(format!(
                    "animation {} key {k}: a matrix holds a value that is not a number",
                    a.name
                ));
            }
        }
    }
    Ok(())
}

/// The largest value seen and where.
#[derive(Default)]
struct Worst {
    value: f64,
    at: Option<String>,
}

impl Worst {
    fn note(&mut self, value: f64, at: impl FnOnce() -> String) {
        if value > self.value {
            self.value = value;
            self.at = Some(at());
        }
    }

    fn merge(&mut self, other: &Worst, animation: &str) {
        if let Some(at) = &other.at {
            self.note(other.value, || format!("animation {animation}, {at}"));
        }
    }

    fn found(&self) -> Option<&str> {
        self.at.as_deref()
    }
}

/// What one bone does at one key, as stored (raw Q16.16 and jo_angles).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Local {
    angles: [i16; 3],
    offset: [i32; 3],
    scale: [i32; 3],
}

impl Local {
    const REST: Local = Local {
        angles: [0; 3],
        offset: [0; 3],
        scale: [ONE; 3],
    };
}

const ONE: i32 = 0x10000;

/// One animation solved: the root offset of each key, `locals[k][b]`, and what the solving
/// lost.
struct Solved {
    roots: Vec<[i32; 3]>,
    locals: Vec<Vec<Local>>,
    /// Whether `rotations_only` dropped an offset or a scale.
    dropped: bool,
    mirror: Worst,
}

struct Solver<'a> {
    bones: &'a [RigBone],
    pivots: &'a [[i32; 3]],
    rotations_only: bool,
    /// See [`REST_OFFSET_STEPS`].
    offset_tolerance: f64,
}

impl Solver<'_> {
    fn animation(&self, animation: &SampledAnimation) -> Result<Solved, String> {
        let bone_count = self.bones.len();
        let mut roots = Vec::with_capacity(animation.keys.len());
        let mut locals: Vec<Vec<Option<Local>>> = Vec::with_capacity(animation.keys.len());
        let mut previous: Vec<Option<[f64; 3]>> = vec![None; bone_count];
        let mut mirror = Worst::default();
        let mut dropped = false;
        for (k, key) in animation.keys.iter().enumerate() {
            let mut root = [0; 3];
            let mut built: Vec<Affine> = Vec::with_capacity(bone_count);
            let mut key_locals = Vec::with_capacity(bone_count);
            for (b, bone) in self.bones.iter().enumerate() {
                let mut parent = match bone.parent {
                    Some(p) => built[p],
                    None => translation(to_f64(root)),
                };
                let pivot = to_f64(self.pivots[b]);
                let solved = match inverse(&parent) {
                    Some(inverse) => {
                        let local = multiply(&inverse, &key[b]);
                        let (mut local, overshoot) =
                            self.decompose(&local, pivot, previous[b], b)?;
                        if overshoot > MIRROR_WARNING {
                            mirror.note(overshoot, || format!("key {k}, bone {}", bone.name));
                        }
                        previous[b] = Some(angles_radians(local.angles));
                        if b == 0 {
                            // The first bone is a root: its offset is the key's.
                            root = std::mem::take(&mut local.offset);
                            parent = translation(to_f64(root));
                        }
                        let kept = self.kept(local);
                        dropped |= kept != local;
                        Some(kept)
                    }
                    None => None,
                };
                // A bone under a collapsed parent is collapsed whatever it does: its
                // matrix stays its parent's until the neighbouring keys fill it in.
                built.push(match solved {
                    Some(local) => multiply(&parent, &local_matrix(&local, pivot)),
                    None => parent,
                });
                key_locals.push(solved);
            }
            roots.push(root);
            locals.push(key_locals);
        }
        Ok(Solved {
            roots,
            locals: fill_collapsed(locals, bone_count),
            dropped,
            mirror,
        })
    }

    /// What is stored of `local`: all of it, or with `rotations_only` its angles.
    fn kept(&self, local: Local) -> Local {
        if self.rotations_only {
            Local {
                angles: local.angles,
                ..Local::REST
            }
        } else {
            local
        }
    }

    /// `local = T(pivot + t) R S T(-pivot)`: the angles (continuous with `previous`), then
    /// the scale and offset that best fit with the rounded angles. Also gives how far below
    /// 0 the most negative scale was before it was clamped.
    fn decompose(
        &self,
        local: &Affine,
        pivot: [f64; 3],
        previous: Option<[f64; 3]>,
        bone: usize,
    ) -> Result<(Local, f64), String> {
        let fallback = previous.map_or(IDENTITY, rotation_xyz);
        let rotation = nearest_rotation(local, &fallback);
        let angles = quantize_angles(euler_xyz(&rotation, previous));
        let rotation = rotation_xyz(angles_radians(angles));
        let mut scale = [0.0; 3];
        let mut overshoot: f64 = 0.0;
        for (j, s) in scale.iter_mut().enumerate() {
            let fit = (0..3).map(|r| rotation[r][j] * local[r][j]).sum::<f64>();
            overshoot = overshoot.max(-fit);
            *s = snap(fit.max(0.0), 1.0, REST_TOLERANCE);
        }
        // t = L_t - pivot + R S pivot.
        let stretched = scaled_columns(&rotation, scale);
        let turned = apply_linear(&stretched, pivot);
        let mut offset = [0.0; 3];
        for r in 0..3 {
            offset[r] = snap(
                local[r][3] - pivot[r] + turned[r],
                0.0,
                self.offset_tolerance,
            );
        }
        let name = &self.bones[bone].name;
        Ok((
            Local {
                angles,
                offset: fixed(offset).map_err(|m| format!("bone {name} offset: {m}"))?,
                scale: fixed(scale).map_err(|m| format!("bone {name} scale: {m}"))?,
            },
            overshoot,
        ))
    }
}

/// `value`, or `rest` when within `tolerance` of it.
fn snap(value: f64, rest: f64, tolerance: f64) -> f64 {
    if (value - rest).abs() <= tolerance {
        rest
    } else {
        value
    }
}

/// The keys where a bone sat under a collapsed parent take the bone's values of the
/// previous key where it did not (or the next one; the rest pose when there is none).
fn fill_collapsed(locals: Vec<Vec<Option<Local>>>, bone_count: usize) -> Vec<Vec<Local>> {
    let mut out: Vec<Vec<Local>> = vec![vec![Local::REST; bone_count]; locals.len()];
    for b in 0..bone_count {
        let column: Vec<Option<Local>> = locals.iter().map(|key| key[b]).collect();
        let first = column
            .iter()
            .flatten()
            .next()
            .copied()
            .unwrap_or(Local::REST);
        let mut last = first;
        for (k, value) in column.iter().enumerate() {
            last = value.unwrap_or(last);
            out[k][b] = last;
        }
    }
    out
}

impl Solved {
    /// The BMOT tracks of the animation and its ANIM record.
    fn output(&self, animation: &SampledAnimation, index: u16) -> (Vec<BoneMotion>, Animation) {
        let keys = self
            .locals
            .iter()
            .zip(&self.roots)
            .map(|(key, &root)| Key {
                root,
                angles: key.iter().map(|l| l.angles).collect(),
            })
            .collect();
        let mut tracks = Vec::new();
        let bone_count = self.locals.first().map_or(0, Vec::len);
        for b in 0..bone_count {
            let motion: Vec<MotionKey> = self
                .locals
                .iter()
                .map(|key| MotionKey {
                    offset: key[b].offset,
                    scale: key[b].scale,
                })
                .collect();
            if motion.iter().any(|m| *m != MotionKey::REST) {
                tracks.push(BoneMotion {
                    animation: index,
                    bone: b as u16,
                    keys: motion,
                });
            }
        }
        let record = Animation {
            name: animation.name.clone(),
            key_ticks: animation.key_ticks,
            looped: animation.looped,
            keys,
        };
        (tracks, record)
    }
}

/// The distance points move from where the input puts them, at worst, through the
/// matrices rebuilt from the stored values: at each bone's pivot and `size` from it along
/// each axis.
fn chain_error(
    solved: &Solved,
    animation: &SampledAnimation,
    bones: &[RigBone],
    pivots: &[[i32; 3]],
    size: f64,
) -> Worst {
    let mut worst = Worst::default();
    for (k, (key, input)) in solved.locals.iter().zip(&animation.keys).enumerate() {
        let built = build_chain(solved.roots[k], key, bones, pivots);
        for (b, bone) in bones.iter().enumerate() {
            let pivot = to_f64(pivots[b]);
            for probe in probes(pivot, size) {
                let error = distance(apply(&built[b], probe), apply(&input[b], probe));
                worst.note(error, || format!("key {k}, bone {}", bone.name));
            }
        }
    }
    worst
}

/// The model-space matrix of each bone from stored values, as the engine composes them.
fn build_chain(
    root: [i32; 3],
    key: &[Local],
    bones: &[RigBone],
    pivots: &[[i32; 3]],
) -> Vec<Affine> {
    let mut built: Vec<Affine> = Vec::with_capacity(bones.len());
    for (b, bone) in bones.iter().enumerate() {
        let parent = match bone.parent {
            Some(p) => built[p],
            None => translation(to_f64(root)),
        };
        built.push(multiply(&parent, &local_matrix(&key[b], to_f64(pivots[b]))));
    }
    built
}

fn probes(pivot: [f64; 3], size: f64) -> Vec<[f64; 3]> {
    let mut out = vec![pivot];
    for axis in 0..3 {
        for sign in [-1.0, 1.0] {
            let mut p = pivot;
            p[axis] += sign * size;
            out.push(p);
        }
    }
    out
}

/// Half the largest distance between two pivots, at least 1 model unit: the distance at
/// which errors of angle are measured.
fn rig_size(bones: &[RigBone]) -> f64 {
    let mut size: f64 = 0.0;
    for a in bones {
        for b in bones {
            size = size.max(distance(a.pivot, b.pivot) / 2.0);
        }
    }
    size.max(1.0)
}

const IDENTITY: Affine = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// `T(pivot + offset) * R(angles) * S(scale) * T(-pivot)`, angles in radians around X,
/// then Y, then Z: a bone's local matrix as the engine composes it.
pub fn joint(pivot: [f64; 3], angles: [f64; 3], offset: [f64; 3], scale: [f64; 3]) -> Affine {
    let mut m = scaled_columns(&rotation_xyz(angles), scale);
    let turned = apply_linear(&m, pivot);
    for r in 0..3 {
        m[r][3] = pivot[r] + offset[r] - turned[r];
    }
    m
}

/// The translation by `t`.
pub fn translation(t: [f64; 3]) -> Affine {
    let mut m = IDENTITY;
    for r in 0..3 {
        m[r][3] = t[r];
    }
    m
}

/// [`joint`] of stored values.
fn local_matrix(local: &Local, pivot: [f64; 3]) -> Affine {
    joint(
        pivot,
        angles_radians(local.angles),
        to_f64(local.offset),
        to_f64(local.scale),
    )
}

/// `Rz * Ry * Rx`, the engine's `Matrix::rotation_xyz`.
fn rotation_xyz([x, y, z]: [f64; 3]) -> Affine {
    let (sx, cx) = x.sin_cos();
    let (sy, cy) = y.sin_cos();
    let (sz, cz) = z.sin_cos();
    [
        [cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx, 0.0],
        [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx, 0.0],
        [-sy, cy * sx, cy * cx, 0.0],
    ]
}

/// The angles (radians) of `Rz * Ry * Rx = rotation`: of the two solutions, the one
/// closest to `previous`; in gimbal lock (y at ±90°, where only x - z or x + z counts)
/// the previous z is kept.
fn euler_xyz(r: &Affine, previous: Option<[f64; 3]>) -> [f64; 3] {
    let sy = (-r[2][0]).clamp(-1.0, 1.0);
    let cy = r[0][0].hypot(r[1][0]);
    if cy < GIMBAL_COS {
        let y = sy.atan2(cy);
        let z = previous.map_or(0.0, |p| p[2]);
        let x = if sy > 0.0 {
            z + r[0][1].atan2(r[1][1])
        } else {
            (-r[0][1]).atan2(r[1][1]) - z
        };
        return [x, y, z];
    }
    let first = [r[2][1].atan2(r[2][2]), sy.atan2(cy), r[1][0].atan2(r[0][0])];
    let second = [
        (-r[2][1]).atan2(-r[2][2]),
        sy.atan2(-cy),
        (-r[1][0]).atan2(-r[0][0]),
    ];
    match previous {
        Some(p) if turn_distance(second, p) < turn_distance(first, p) => second,
        _ => first,
    }
}

/// The sum of the angles between two sets, each the shortest way round (how the engine
/// interpolates).
fn turn_distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3)
        .map(|i| (a[i] - b[i] + PI).rem_euclid(TAU) - PI)
        .map(f64::abs)
        .sum()
}

/// Radians to jo_angles (0x10000 a turn), wrapped.
fn quantize_angles(radians: [f64; 3]) -> [i16; 3] {
    radians.map(|a| ((a / TAU * 65536.0).round() as i64).rem_euclid(0x10000) as u16 as i16)
}

fn angles_radians(angles: [i16; 3]) -> [f64; 3] {
    angles.map(|a| f64::from(a) / 65536.0 * TAU)
}

/// The rotation nearest the linear part of `m` (its orthogonal polar factor), the columns
/// taken as directions: a column of length 0 (a collapsed axis) is taken from `fallback`,
/// and a mirror turns the shortest column the other way (its scale then clamps to 0).
fn nearest_rotation(m: &Affine, fallback: &Affine) -> Affine {
    let mut columns = [[0.0; 3]; 3];
    let mut lengths = [0.0; 3];
    for j in 0..3 {
        let c = [m[0][j], m[1][j], m[2][j]];
        lengths[j] = norm(c);
        columns[j] = if lengths[j] > REST_TOLERANCE {
            c.map(|v| v / lengths[j])
        } else {
            [fallback[0][j], fallback[1][j], fallback[2][j]]
        };
    }
    let collapsed: Vec<usize> = (0..3).filter(|&j| lengths[j] <= REST_TOLERANCE).collect();
    if let [j] = collapsed[..] {
        // One axis collapsed: the other two still say the turn (c0 = c1 x c2, cyclically).
        let c = cross(columns[(j + 1) % 3], columns[(j + 2) % 3]);
        let length = norm(c);
        if length > REST_TOLERANCE {
            columns[j] = c.map(|v| v / length);
        }
    }
    let mut q: Affine = [[0.0; 4]; 3];
    for (j, c) in columns.iter().enumerate() {
        for r in 0..3 {
            q[r][j] = c[r];
        }
    }
    if determinant(&q) < 0.0 {
        let shortest = (0..3)
            .min_by(|&a, &b| lengths[a].total_cmp(&lengths[b]))
            .unwrap_or(0);
        for row in &mut q {
            row[shortest] = -row[shortest];
        }
    }
    if determinant(&q) < 1e-6 {
        return *fallback;
    }
    // Newton's iteration Q <- (Q + Q^-T) / 2 converges to the polar factor.
    for _ in 0..64 {
        let Some(inv) = inverse(&q) else {
            return *fallback;
        };
        let mut next = q;
        let mut change: f64 = 0.0;
        for r in 0..3 {
            for c in 0..3 {
                next[r][c] = (q[r][c] + inv[c][r]) / 2.0;
                change = change.max((next[r][c] - q[r][c]).abs());
            }
        }
        q = next;
        if change < 1e-15 {
            break;
        }
    }
    q
}

fn scaled_columns(m: &Affine, scale: [f64; 3]) -> Affine {
    let mut out = *m;
    for row in &mut out {
        for j in 0..3 {
            row[j] *= scale[j];
        }
        row[3] = 0.0;
    }
    out
}

/// `a * b`: `b` first, then `a`.
pub fn multiply(a: &Affine, b: &Affine) -> Affine {
    let mut out = [[0.0; 4]; 3];
    for r in 0..3 {
        for c in 0..4 {
            out[r][c] = (0..3).map(|i| a[r][i] * b[i][c]).sum::<f64>();
        }
        out[r][3] += a[r][3];
    }
    out
}

fn determinant(m: &Affine) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// The inverse of an affine matrix, `None` when some direction is shrunk below
/// [`SINGULAR_SCALE`] (its smallest singular value, bounded from below by det / the two
/// longest columns).
fn inverse(m: &Affine) -> Option<Affine> {
    let det = determinant(m);
    let mut lengths: Vec<f64> = (0..3).map(|j| norm([m[0][j], m[1][j], m[2][j]])).collect();
    lengths.sort_by(f64::total_cmp);
    if !det.is_finite() || det.abs() <= SINGULAR_SCALE * lengths[1] * lengths[2] {
        return None;
    }
    let mut out = [[0.0; 4]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().take(3).enumerate() {
            // The cofactor of (c, r), cyclic indexes give the signs.
            let (r1, r2) = ((c + 1) % 3, (c + 2) % 3);
            let (c1, c2) = ((r + 1) % 3, (r + 2) % 3);
            *cell = (m[r1][c1] * m[r2][c2] - m[r1][c2] * m[r2][c1]) / det;
        }
    }
    let t = [m[0][3], m[1][3], m[2][3]];
    let back = apply_linear(&out, t);
    for r in 0..3 {
        out[r][3] = -back[r];
    }
    Some(out)
}

fn apply_linear(m: &Affine, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2])
}

fn apply(m: &Affine, p: [f64; 3]) -> [f64; 3] {
    let v = apply_linear(m, p);
    [v[0] + m[0][3], v[1] + m[1][3], v[2] + m[2][3]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    norm([a[0] - b[0], a[1] - b[1], a[2] - b[2]])
}

fn to_f64(raw: [i32; 3]) -> [f64; 3] {
    raw.map(|v| f64::from(v) / 65536.0)
}

/// Q16.16 of each component, or the problem.
fn fixed(v: [f64; 3]) -> Result<[i32; 3], String> {
    super::geometry::fixed_vector(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn degrees(d: [f64; 3]) -> [f64; 3] {
        d.map(f64::to_radians)
    }

    fn bone(name: &str, parent: Option<usize>, pivot: [f64; 3]) -> RigBone {
        RigBone {
            name: name.into(),
            parent,
            group: None,
            pivot,
        }
    }

    fn sampled(keys: Vec<Vec<Affine>>) -> SampledAnimation {
        SampledAnimation {
            name: "move".into(),
            key_ticks: 4,
            looped: true,
            keys,
        }
    }

    fn raw_angle(degrees: f64) -> i16 {
        quantize_angles([degrees.to_radians(), 0.0, 0.0])[0]
    }

    fn fixed1(v: f64) -> i32 {
        (v * 65536.0).round() as i32
    }

    fn close(a: [f64; 3], b: [f64; 3], tolerance: f64) -> bool {
        distance(a, b) <= tolerance
    }

    /// Every bone's matrix rebuilt from the rig's output (root offset, angles, BMOT).
    fn rebuilt(rig: &Rig, bones: &[RigBone], animation: usize, key: usize) -> Vec<Affine> {
        let record = &rig.animations[animation];
        let locals: Vec<Local> = (0..bones.len())
            .map(|b| {
                let motion = rig
                    .bone_motion
                    .iter()
                    .flatten()
                    .find(|t| usize::from(t.animation) == animation && usize::from(t.bone) == b)
                    .map_or(MotionKey::REST, |t| t.keys[key]);
                Local {
                    angles: record.keys[key].angles[b],
                    offset: motion.offset,
                    scale: motion.scale,
                }
            })
            .collect();
        let pivots: Vec<[i32; 3]> = rig.bones.iter().map(|b| b.pivot).collect();
        build_chain(record.keys[key].root, &locals, bones, &pivots)
    }

    /// Points around every pivot land where the input puts them.
    fn assert_holds(rig: &Rig, bones: &[RigBone], animations: &[SampledAnimation], tolerance: f64) {
        for (a, animation) in animations.iter().enumerate() {
            for (k, key) in animation.keys.iter().enumerate() {
                let built = rebuilt(rig, bones, a, k);
                for (b, bone) in bones.iter().enumerate() {
                    for p in probes(bone.pivot, 3.0) {
                        let (got, want) = (apply(&built[b], p), apply(&key[b], p));
                        assert!(
                            close(got, want, tolerance),
                            "animation {a} key {k} bone {b} at {p:?}: {got:?}, expected {want:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn known_joints_decompose_into_their_angles_offsets_and_scales() {
        let bones = [
            bone("body", None, [0.0; 3]),
            bone("arm", Some(0), [1.0, -2.0, 0.5]),
        ];
        let sets = [
            [10.0, 20.0, 30.0],
            [-45.0, 60.0, 135.0],
            [170.0, -80.0, -100.0],
            [0.0, 0.0, 0.0],
        ];
        for set in sets {
            let offset = [0.5, -1.25, 2.0];
            let scale = [1.5, 0.25, 1.0];
            let parent = joint([0.0; 3], degrees([0.0, 30.0, 0.0]), [0.0; 3], [1.0; 3]);
            let arm = multiply(&parent, &joint(bones[1].pivot, degrees(set), offset, scale));
            let animations = [sampled(vec![vec![parent, arm]])];
            let rig = convert(&bones, &animations, false).unwrap();
            let key = &rig.animations[0].keys[0];
            // Within 3 units: the arm makes up for its parent's rounding (more at y = -80,
            // near gimbal lock, where x and z move a lot for a small turn).
            for (got, want) in key.angles[1].iter().zip(set.map(raw_angle)) {
                assert!(
                    (got.wrapping_sub(want)).abs() <= 3,
                    "angles of {set:?}: {key:?}"
                );
            }
            assert_eq!(key.angles[0], [0, raw_angle(30.0), 0]);
            let tracks = rig
                .bone_motion
                .as_ref()
                .expect("the arm moves and stretches");
            assert_eq!(tracks.len(), 1);
            assert_eq!((tracks[0].animation, tracks[0].bone), (0, 1));
            let motion = tracks[0].keys[0];
            for axis in 0..3 {
                assert!(
                    (motion.offset[axis] - fixed1(offset[axis])).abs() <= 8,
                    "{motion:?}"
                );
                assert!(
                    (motion.scale[axis] - fixed1(scale[axis])).abs() <= 2,
                    "{motion:?}"
                );
            }
            assert_holds(&rig, &bones, &animations, 1e-3);
            assert!(rig.warnings.is_empty(), "{:?}", rig.warnings);
        }
    }

    #[test]
    fn near_gimbal_lock_the_turn_is_kept() {
        let bones = [bone("a", None, [0.0, 1.0, 0.0])];
        let mut keys = Vec::new();
        for set in [
            [20.0, 89.999, 40.0],
            [35.0, 90.0, -10.0],
            [-60.0, -90.0, 70.0],
            [5.0, -89.99, 5.0],
        ] {
            keys.push(vec![joint(
                bones[0].pivot,
                degrees(set),
                [0.0; 3],
                [1.0; 3],
            )]);
        }
        let animations = [sampled(keys)];
        let rig = convert(&bones, &animations, false).unwrap();
        assert_holds(&rig, &bones, &animations, 2e-3);
        assert!(rig.bone_motion.is_none());
        // In gimbal lock the previous z is kept: only x - z is defined.
        let second = rig.animations[0].keys[1].angles[0];
        assert_eq!(second[1], raw_angle(90.0));
        assert_eq!(second[2], rig.animations[0].keys[0].angles[0][2]);
    }

    #[test]
    fn children_of_turned_and_stretched_parents_get_their_own_motion() {
        let bones = [
            bone("hip", None, [0.0; 3]),
            bone("leg", Some(0), [0.0, 1.0, 0.0]),
            bone("foot", Some(1), [0.0, 3.0, 1.0]),
        ];
        let hip = joint(
            [0.0; 3],
            degrees([0.0, 0.0, 40.0]),
            [2.0, 0.0, 0.0],
            [1.0, 2.0, 1.0],
        );
        let leg = multiply(
            &hip,
            &joint(
                bones[1].pivot,
                degrees([30.0, -20.0, 0.0]),
                [0.0; 3],
                [1.0; 3],
            ),
        );
        let foot = multiply(
            &leg,
            &joint(
                bones[2].pivot,
                degrees([0.0, 0.0, -15.0]),
                [0.0, 0.5, 0.0],
                [1.0; 3],
            ),
        );
        let animations = [sampled(vec![vec![hip, leg, foot]])];
        let rig = convert(&bones, &animations, false).unwrap();
        let key = &rig.animations[0].keys[0];
        // The root's offset is the key's root offset; its scale is a BMOT track.
        assert_eq!(key.root, [2 * 0x10000, 0, 0]);
        assert_eq!(key.angles[1], [raw_angle(30.0), raw_angle(-20.0), 0]);
        assert_eq!(key.angles[2], [0, 0, raw_angle(-15.0)]);
        let tracks = rig.bone_motion.as_ref().unwrap();
        let bones_moved: Vec<u16> = tracks.iter().map(|t| t.bone).collect();
        assert_eq!(bones_moved, [0, 2]);
        assert_eq!(tracks[0].keys[0].offset, [0; 3]);
        assert_eq!(tracks[0].keys[0].scale, [0x10000, 0x20000, 0x10000]);
        assert_holds(&rig, &bones, &animations, 1e-3);
    }

    #[test]
    fn scale_zero_collapses_the_bone_and_its_children_keep_their_turn() {
        let bones = [
            bone("root", None, [0.0; 3]),
            bone("bud", Some(0), [0.0, -1.0, 0.0]),
            bone("leaf", Some(1), [0.0, -2.0, 0.0]),
        ];
        let mut keys = Vec::new();
        for s in [0.0, 0.5, 1.0] {
            let bud = joint(bones[1].pivot, degrees([0.0, 0.0, 0.0]), [0.0; 3], [s; 3]);
            let leaf = multiply(
                &bud,
                &joint(
                    bones[2].pivot,
                    degrees([0.0, 45.0, 0.0]),
                    [0.0; 3],
                    [1.0; 3],
                ),
            );
            keys.push(vec![IDENTITY, bud, leaf]);
        }
        let animations = [sampled(keys)];
        let rig = convert(&bones, &animations, false).unwrap();
        let tracks = rig.bone_motion.as_ref().unwrap();
        assert_eq!(tracks.len(), 1);
        let scales: Vec<[i32; 3]> = tracks[0].keys.iter().map(|k| k.scale).collect();
        assert_eq!(scales, [[0; 3], [0x8000; 3], [0x10000; 3]]);
        // At key 0 the leaf is under a collapsed bud: it takes its turn from key 1.
        let leaf: Vec<[i16; 3]> = rig.animations[0].keys.iter().map(|k| k.angles[2]).collect();
        assert_eq!(leaf, [[0, raw_angle(45.0), 0]; 3]);
        assert_holds(&rig, &bones, &animations, 1e-3);
    }

    #[test]
    fn a_negative_overshoot_clamps_to_zero_and_a_mirror_is_reported() {
        let bones = [
            bone("root", None, [0.0; 3]),
            bone("gel", Some(0), [0.0, -1.0, 0.0]),
        ];
        let keys = [-0.001, 1.0, -0.5].map(|s| {
            vec![
                IDENTITY,
                joint(bones[1].pivot, [0.0; 3], [0.0; 3], [s, 1.0, 1.0]),
            ]
        });
        let overshoot = [sampled(keys[..2].to_vec())];
        let rig = convert(&bones, &overshoot, false).unwrap();
        let track = &rig.bone_motion.as_ref().unwrap()[0];
        assert_eq!(track.keys[0].scale, [0, 0x10000, 0x10000]);
        // The turn did not flip to make up for the sign.
        assert_eq!(rig.animations[0].keys[0].angles[1], [0; 3]);
        assert!(rig.warnings.is_empty(), "{:?}", rig.warnings);
        let mirror = [sampled(keys[1..].to_vec())];
        let rig = convert(&bones, &mirror, false).unwrap();
        assert_eq!(rig.bone_motion.as_ref().unwrap()[0].keys[1].scale[0], 0);
        assert!(
            rig.warnings
                .iter()
                .any(|w| w.contains("mirrored (scale -0.5000)")
                    && w.contains("animation move, key 1, bone gel")),
            "{:?}",
            rig.warnings
        );
    }

    #[test]
    fn angles_stay_continuous_from_key_to_key() {
        // A turn around Y past 90 degrees: the other solution of the angles (x and z at
        // 180) would make the engine swing x and z half a turn between two keys.
        let bones = [bone("spin", None, [0.0; 3])];
        let keys: Vec<Vec<Affine>> = (0..12)
            .map(|i| {
                let set = [10.0, f64::from(i) * 20.0, 5.0];
                vec![joint([0.0; 3], degrees(set), [0.0; 3], [1.0; 3])]
            })
            .collect();
        let animations = [sampled(keys)];
        let rig = convert(&bones, &animations, false).unwrap();
        let angles: Vec<[i16; 3]> = rig.animations[0].keys.iter().map(|k| k.angles[0]).collect();
        for pair in angles.windows(2) {
            for axis in 0..3 {
                let step = pair[1][axis].wrapping_sub(pair[0][axis]);
                assert!(
                    i32::from(step).abs() <= i32::from(raw_angle(25.0)),
                    "{pair:?}"
                );
            }
        }
        assert_holds(&rig, &bones, &animations, 1e-3);
    }

    #[test]
    fn rotations_only_drops_offsets_and_scales_and_says_how_far_off() {
        let bones = [
            bone("root", None, [0.0; 3]),
            bone("arm", Some(0), [1.0, 0.0, 0.0]),
        ];
        let arm = joint(
            bones[1].pivot,
            degrees([0.0, 0.0, 90.0]),
            [0.0, 2.0, 0.0],
            [1.0; 3],
        );
        let root = translation([0.0, 0.0, 5.0]);
        let animations = [sampled(vec![vec![root, multiply(&root, &arm)]])];
        let rig = convert(&bones, &animations, true).unwrap();
        assert!(rig.bone_motion.is_none());
        let key = &rig.animations[0].keys[0];
        // The root offset is ANIM's: kept.
        assert_eq!(key.root, [0, 0, 5 * 0x10000]);
        assert_eq!(key.angles[1], [0, 0, raw_angle(90.0)]);
        assert_eq!(
            rig.warnings,
            [
                "rotations only: the bones' offsets and scales are dropped; the largest error is \
              2.0000 model units (animation move, key 0, bone arm)"
            ]
        );
        // Without the option nothing is lost.
        let full = convert(&bones, &animations, false).unwrap();
        assert!(full.warnings.is_empty(), "{:?}", full.warnings);
        assert_holds(&full, &bones, &animations, 1e-3);
    }

    /// The engine's own bone matrices (`jom::anim::bone_matrices`) of a file written from
    /// the rig put points where the input matrices do: the angle convention, the pivots,
    /// the root offset and the BMOT offsets and scales are the engine's.
    #[test]
    fn the_engine_poses_the_rig_as_the_input_says() {
        let bones = [
            bone("body", None, [0.0, -1.0, 0.0]),
            bone("arm", Some(0), [1.0, -2.0, 0.5]),
            bone("hand", Some(1), [2.5, -2.0, 0.5]),
        ];
        /// Offset and scale.
        type Motion = ([f64; 3], [f64; 3]);
        /// Body, arm and hand angles, root offset, arm and hand motion.
        type Case = ([f64; 3], [f64; 3], [f64; 3], [f64; 3], Motion, Motion);
        let still: Motion = ([0.0; 3], [1.0; 3]);
        let cases: [Case; 2] = [
            (
                [0.0; 3],
                [10.0, 20.0, 30.0],
                [-40.0, 75.0, 120.0],
                [0.5, 0.0, 0.0],
                still,
                still,
            ),
            (
                [0.0, 45.0, 0.0],
                [170.0, -80.0, -100.0],
                [0.0, 89.99, 10.0],
                [0.0, -1.0, 2.0],
                ([0.25, 0.5, -1.0], [1.5, 0.5, 1.0]),
                ([0.0, 0.0, 0.75], [0.0, 2.0, 1.25]),
            ),
        ];
        let keys: Vec<Vec<Affine>> = cases
            .into_iter()
            .map(|(body, arm, hand, root, arm_motion, hand_motion)| {
                let body = joint(bones[0].pivot, degrees(body), root, [1.0; 3]);
                let arm_local = joint(bones[1].pivot, degrees(arm), arm_motion.0, arm_motion.1);
                let arm = multiply(&body, &arm_local);
                let hand_local = joint(bones[2].pivot, degrees(hand), hand_motion.0, hand_motion.1);
                let hand = multiply(&arm, &hand_local);
                vec![body, arm, hand]
            })
            .collect();
        for turns_only in [true, false] {
            let only_turns: Vec<Vec<Affine>> = vec![keys[0].clone()];
            let animations = [sampled(if turns_only { only_turns } else { keys.clone() })];
            let rig = convert(&bones, &animations, false).unwrap();
            assert_eq!(rig.bone_motion.is_none(), turns_only);
            let file = jom_write::JomFile {
                bones: Some(rig.bones.clone()),
                animations: Some(rig.animations.clone()),
                bone_motion: rig.bone_motion.clone(),
                ..jom_write::fixtures::minimal()
            };
            let bytes = jom_write::AlignedBytes::new(&file.to_bytes());
            let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
            let animation = model.animations().get(0).unwrap();
            for (k, input) in animations[0].keys.iter().enumerate() {
                let pose = jom::anim::pose_at(&animation, 3, k as u32 * 4);
                let mut matrices = [jom::math::Matrix::IDENTITY; 32];
                jom::anim::bone_matrices(&model, &pose, &mut matrices);
                for (b, bone) in bones.iter().enumerate() {
                    for p in probes(bone.pivot, 3.0) {
                        let raw = p.map(|v| (v * 65536.0).round() as i32);
                        let got = to_f64(matrices[b].apply(raw));
                        let want = apply(&input[b], p);
                        assert!(close(got, want, 2e-3), "key {k} bone {b}: {got:?} {want:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn angles_wrap_into_an_i16() {
        let raw = |d: [f64; 3]| quantize_angles(degrees(d));
        assert_eq!(raw([0.0, 90.0, 180.0]), [0, 0x4000, i16::MIN]);
        assert_eq!(raw([-90.0, 450.0, -180.0]), [-0x4000, 0x4000, i16::MIN]);
    }

    #[test]
    fn bad_input_is_refused() {
        let one = [bone("a", None, [0.0; 3])];
        let wrong_count = [sampled(vec![vec![IDENTITY, IDENTITY]])];
        assert_eq!(
            convert(&one, &wrong_count, false).unwrap_err(),
            "animation move key 0: 2 matrices for 1 bones"
        );
        let mut nan = IDENTITY;
        nan[0][3] = f64::NAN;
        assert!(convert(&one, &[sampled(vec![vec![nan]])], false).is_err());
        assert!(convert(&one, &[sampled(vec![])], false).is_err());
        let child_first = [bone("a", Some(1), [0.0; 3]), bone("b", None, [0.0; 3])];
        assert!(convert(&child_first, &[], false).is_err());
        let far = [sampled(vec![vec![translation([40000.0, 0.0, 0.0])]])];
        assert!(convert(&one, &far, false).unwrap_err().contains("Q16.16"));
    }
}
