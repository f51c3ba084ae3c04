//! The matrices of the bones of a pose.

#[cfg(jom_saturn)]
pub(crate) mod sh2;

use super::{add_sample, Pose};
use crate::format::{Bone, Model, MAX_BONES};
use crate::math::{mul, Angle, Matrix, Vec3, ONE};
use crate::worker::Worker;

/// The matrix of the points of no bone's group: the translation by the pose's root offset.
pub fn root_matrix(pose: &Pose) -> Matrix {
    Matrix::translation(pose.root)
}

/// `m` the turn of a bone around its pivot: `T(pivot) * R(angles) * T(-pivot)`, i.e. the
/// rotation with the translation `pivot - R pivot`. In place (each bone's, every frame: a
/// matrix returned by value is copied on the SH-2).
pub(crate) fn set_joint(m: &mut Matrix, pivot: Vec3, angles: [Angle; 3]) {
    m.set_rotation_xyz(angles);
    let turned = m.rotate(pivot);
    m.0[0][3] = pivot[0].wrapping_sub(turned[0]);
    m.0[1][3] = pivot[1].wrapping_sub(turned[1]);
    m.0[2][3] = pivot[2].wrapping_sub(turned[2]);
}

/// `m` a bone that also moves and stretches, by `motion` (offset, scale):
/// `T(pivot + offset) * R(angles) * S(scale) * T(-pivot)`, i.e. the rotation's columns
/// times the scale, with the translation `pivot + offset - R S pivot`. In place, as
/// [`set_joint`].
pub(crate) fn set_moved_joint(
    m: &mut Matrix,
    pivot: Vec3,
    angles: [Angle; 3],
    motion: (Vec3, Vec3),
) {
    let (offset, scale) = motion;
    m.set_rotation_xyz(angles);
    for row in &mut m.0 {
        row[0] = mul(row[0], scale[0]);
        row[1] = mul(row[1], scale[1]);
        row[2] = mul(row[2], scale[2]);
    }
    let turned = m.rotate(pivot);
    m.0[0][3] = pivot[0].wrapping_add(offset[0]).wrapping_sub(turned[0]);
    m.0[1][3] = pivot[1].wrapping_add(offset[1]).wrapping_sub(turned[1]);
    m.0[2][3] = pivot[2].wrapping_add(offset[2]).wrapping_sub(turned[2]);
}

/// `parent * local` into `out`: on a Saturn by the SH-2 assembly (`matrix.S`, bound by
/// `sh2`), else by [`compose_reference`].
pub(crate) fn compose(parent: &Matrix, local: &Matrix, out: &mut Matrix) {
    #[cfg(jom_saturn)]
    sh2::compose(parent, local, out);
    #[cfg(not(jom_saturn))]
    compose_reference(parent, local, out);
}

/// `parent * local` into `out` in Rust, written out (no closures, no matrix copies).
#[cfg_attr(all(jom_saturn, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn compose_reference(parent: &Matrix, local: &Matrix, out: &mut Matrix) {
    let (p, l) = (&parent.0, &local.0);
    macro_rules! cell {
        ($r:expr, $c:expr) => {
            // Wrapping, as `mac.l` does: stretched bones (BMOT) may have large entries.
            ((i64::from(p[$r][0]) * i64::from(l[0][$c]))
                .wrapping_add(i64::from(p[$r][1]) * i64::from(l[1][$c]))
                .wrapping_add(i64::from(p[$r][2]) * i64::from(l[2][$c]))
                >> 16) as i32
        };
    }
    for (r, (row, out_row)) in p.iter().zip(&mut out.0).enumerate() {
        *out_row = [
            cell!(r, 0),
            cell!(r, 1),
            cell!(r, 2),
            cell!(r, 3).wrapping_add(row[3]),
        ];
    }
}

/// The model-space matrix of each bone of `model` in `pose`, parents first:
/// `M_bone = M_parent * T(pivot + t) * R(angles) * S(s) * T(-pivot)` (the offset `t` and
/// scale `s` only when [`Pose::moves`] (their values as [`bone_motion`](super::bone_motion)
/// gives them), else `T(pivot) * R(angles) * T(-pivot)`), with [`root_matrix`] as the
/// parent of a root bone. A bone's points (its group) are drawn through its matrix. Entries
/// past the model's bones are the root matrix, as are the angles of bones past
/// `pose.bone_count`; a parent that is not before its bone (a validated model has none) is
/// taken as the root.
pub fn bone_matrices(model: &Model<'_>, pose: &Pose, out: &mut [Matrix; MAX_BONES]) {
    // Two loops, so that the common one (no BMOT) is the code it was before BMOT.
    if pose.moves() {
        moved_bone_matrices(model, pose, out);
    } else {
        turned_bone_matrices(model, pose, out);
    }
}

/// Every one of `matrices` the root matrix `root`, word by word: through `fill` each was a
/// `memcpy` call on the SH-2 (16 of them after a 16-bone model's matrices).
fn fill_root(matrices: &mut [Matrix], root: &Matrix) {
    for matrix in matrices {
        for (row, from) in matrix.0.iter_mut().zip(&root.0) {
            let [a, b, c, d] = *from;
            *row = [a, b, c, d];
        }
    }
}

/// The angles of bone `index` in `pose` (zero past its bones). Angle by angle: the SH-2
/// code generator copied the three as a 6-byte `memcpy` call.
#[inline(always)]
fn angles_of(pose: &Pose, index: usize) -> [Angle; 3] {
    match pose.rotations.get(index) {
        Some(&[x, y, z]) if index < pose.bone_count => [x, y, z],
        _ => [Angle(0); 3],
    }
}

/// `out[index] = M_parent * local`, the parent a bone before it or the root.
#[inline(always)]
fn place(bone: &Bone, index: usize, root: &Matrix, local: &Matrix, out: &mut [Matrix; MAX_BONES]) {
    let (before, rest) = out.split_at_mut(index);
    let parent = match bone.parent().map(usize::from) {
        Some(parent) if parent < index => &before[parent],
        // A root bone: T(root) * local.
        _ => root,
    };
    compose(parent, local, &mut rest[0]);
}

/// [`bone_matrices`] of a pose that only turns its bones.
fn turned_bone_matrices(model: &Model<'_>, pose: &Pose, out: &mut [Matrix; MAX_BONES]) {
    let root = root_matrix(pose);
    let bones = model.bones();
    let count = bones.len().min(MAX_BONES);
    let (made, rest) = out.split_at_mut(count);
    turned_part(&bones[..count], pose, &root, (0, &[]), made);
    fill_root(rest, &root);
}

/// Skeletons of fewer bones [`bone_matrices_with`] makes on one CPU.
pub const MIN_SHARED_BONES: usize = 8;

/// [`bone_matrices`] with `worker` (the second CPU: [`Renderer::with_worker`]) making a
/// part of the bones: those from a cut on, each after the bones before the cut it hangs
/// from (made again there, so that neither CPU waits for the other), the cut where the
/// busier CPU has the fewest bones to make (the showcase's 16-bone character: 10 and 6, with
/// the hips made again). The same matrices as `bone_matrices`. A pose that moves or scales
/// bones (BMOT), a skeleton of fewer than [`MIN_SHARED_BONES`] or no worker: on this CPU.
///
/// [`Renderer::with_worker`]: crate::render::Renderer::with_worker
///
/// ```
/// # use jom::anim::{bone_matrices, bone_matrices_with, pose_at};
/// # use jom::format::MAX_BONES;
/// # use jom::math::Matrix;
/// # use jom::render::InOrder;
/// # let file = jom_write::scenes::chain();
/// # let bytes = jom_write::AlignedBytes::new(&file.to_bytes());
/// # let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
/// let animation = model.animations().get(0).unwrap();
/// let pose = pose_at(&animation, model.bones().len(), 12);
/// let (mut shared, mut alone) = ([Matrix::IDENTITY; MAX_BONES], [Matrix::IDENTITY; MAX_BONES]);
/// bone_matrices_with(&model, &pose, &mut shared, Some(&mut InOrder));
/// bone_matrices(&model, &pose, &mut alone);
/// assert_eq!(shared, alone);
/// ```
pub fn bone_matrices_with(
    model: &Model<'_>,
    pose: &Pose,
    out: &mut [Matrix; MAX_BONES],
    worker: Option<&mut (dyn Worker + '_)>,
) {
    let bones = model.bones();
    let count = bones.len().min(MAX_BONES);
    let worker = match worker {
        Some(worker) if count >= MIN_SHARED_BONES && !pose.moves() => worker,
        _ => return bone_matrices(model, pose, out),
    };
    let Some((cut, hung_from)) = cut_of(&bones[..count]) else {
        return bone_matrices(model, pose, out);
    };
    let root = root_matrix(pose);
    let (first, second) = out.split_at_mut(cut);
    worker.join(
        &mut || turned_part(&bones[..cut], pose, &root, (0, &[]), first),
        &mut || {
            // The bones before the cut that the second part hangs from, parents first.
            let mut below = [Matrix::IDENTITY; MAX_BONES];
            let mut local = Matrix::IDENTITY;
            let mut bit = 1u32;
            for (index, bone) in bones[..cut].iter().enumerate() {
                if hung_from & bit != 0 {
                    set_joint(&mut local, bone.pivot().raw(), angles_of(pose, index));
                    place(bone, index, &root, &local, &mut below);
                }
                bit <<= 1;
            }
            let (made, rest) = second.split_at_mut(count - cut);
            turned_part(&bones[cut..count], pose, &root, (cut, &below[..cut]), made);
            fill_root(rest, &root);
        },
    );
}

/// Where [`bone_matrices_with`] cuts `bones` (at least 8), and the bones before the cut the
/// bones from it on hang from (bit `i`: bone `i`): the cut from half way on where the
/// larger of the two parts (the second with the bones it hangs from) is the smallest;
/// `None` when that is all the bones (a chain).
fn cut_of(bones: &[Bone]) -> Option<(usize, u32)> {
    let count = bones.len();
    // Each bone's ancestors (bit i: bone i), then those of the bones from each one on.
    let mut ancestors = [0u32; MAX_BONES];
    let mut bit = 1u32;
    for (index, bone) in bones.iter().enumerate() {
        if let Some(parent) = bone.parent().map(usize::from).filter(|&p| p < index) {
            ancestors[index] = ancestors[parent] | (bit >> (index - parent));
        }
        bit <<= 1;
    }
    let mut from = [0u32; MAX_BONES + 1];
    for index in (0..count).rev() {
        from[index] = from[index + 1] | ancestors[index];
    }
    let (mut best, mut best_cost) = ((count / 2, 0), usize::MAX);
    let mut below = (1u32 << (count / 2)) - 1;
    for (cut, &hung) in from.iter().enumerate().take(count).skip(count / 2) {
        let hung_from = hung & below;
        let cost = cut.max(count - cut + hung_from.count_ones() as usize);
        if cost < best_cost {
            (best, best_cost) = ((cut, hung_from), cost);
        }
        below = below << 1 | 1;
    }
    (best_cost < count).then_some(best)
}

/// The matrices of `bones` (bones `first.0` on of their model) into `out`, each after its
/// parent's: in `out` from `first.0` on, in `first.1` (the bones before, those the part
/// hangs from made) before it, or the root matrix for a root bone.
fn turned_part(
    bones: &[Bone],
    pose: &Pose,
    root: &Matrix,
    (first, below): (usize, &[Matrix]),
    out: &mut [Matrix],
) {
    let mut local = Matrix::IDENTITY;
    for (i, bone) in bones.iter().enumerate() {
        let index = first + i;
        set_joint(&mut local, bone.pivot().raw(), angles_of(pose, index));
        let (before, rest) = out.split_at_mut(i);
        let parent = match bone.parent().map(usize::from) {
            Some(parent) if parent < first => below.get(parent).unwrap_or(root),
            Some(parent) if parent < index => &before[parent - first],
            _ => root,
        };
        compose(parent, &local, &mut rest[0]);
    }
}

/// [`bone_matrices`] of a pose with BMOT samples: each bone's offset and scale from the
/// tracks, walked along with the bones (both go by increasing bone).
#[inline(never)]
fn moved_bone_matrices(model: &Model<'_>, pose: &Pose, out: &mut [Matrix; MAX_BONES]) {
    let root = root_matrix(pose);
    let bones = model.bones();
    let mut samples = pose.motion.map(|sample| {
        sample.map(|s| {
            let tracks = model.bone_motion().of_animation(usize::from(s.animation));
            (s, tracks, 0usize)
        })
    });
    let mut local = Matrix::IDENTITY;
    for index in 0..MAX_BONES {
        let Some(bone) = bones.get(index) else {
            fill_root(&mut out[index..], &root);
            return;
        };
        let angles = angles_of(pose, index);
        if index < pose.bone_count {
            let mut motion = ([0; 3], [ONE; 3]);
            for (sample, tracks, cursor) in samples.iter_mut().flatten() {
                while let Some((track_bone, keys)) = tracks.get(*cursor) {
                    if usize::from(track_bone) > index {
                        break;
                    }
                    *cursor += 1;
                    if usize::from(track_bone) == index {
                        add_sample(&mut motion, keys, sample);
                        break;
                    }
                }
            }
            set_moved_joint(&mut local, bone.pivot().raw(), angles, motion);
        } else {
            set_joint(&mut local, bone.pivot().raw(), angles);
        }
        place(bone, index, &root, &local, out);
    }
}
