//! The matrices of the bones of a pose.

use super::Pose;
use crate::format::{Model, MAX_BONES};
use crate::math::{Angle, Matrix, Vec3};

/// The matrix of the points of no bone's group: the translation by the pose's root offset.
pub fn root_matrix(pose: &Pose) -> Matrix {
    Matrix::translation(pose.root)
}

/// The turn of a bone around its pivot: `T(pivot) * R(angles) * T(-pivot)`, i.e. the
/// rotation with the translation `pivot - R pivot`.
fn joint(pivot: Vec3, angles: [Angle; 3]) -> Matrix {
    let mut m = Matrix::rotation_xyz(angles);
    let turned = m.rotate(pivot);
    m.0[0][3] = pivot[0].wrapping_sub(turned[0]);
    m.0[1][3] = pivot[1].wrapping_sub(turned[1]);
    m.0[2][3] = pivot[2].wrapping_sub(turned[2]);
    m
}

/// The model-space matrix of each bone of `model` in `pose`, parents first:
/// `M_bone = M_parent * T(pivot) * R(angles) * T(-pivot)`, with [`root_matrix`] as the
/// parent of a root bone. A bone's points (its group) are drawn through its matrix. Entries
/// past the model's bones are the root matrix, as are the angles of bones past
/// `pose.bone_count`; a parent that is not before its bone (a validated model has none) is
/// taken as the root.
pub fn bone_matrices(model: &Model<'_>, pose: &Pose, out: &mut [Matrix; MAX_BONES]) {
    let root = root_matrix(pose);
    let bones = model.bones();
    for index in 0..MAX_BONES {
        let Some(bone) = bones.get(index) else {
            out[index..].fill(root);
            return;
        };
        let angles = match pose.rotations.get(index) {
            Some(angles) if index < pose.bone_count => *angles,
            _ => [Angle(0); 3],
        };
        let mut local = joint(bone.pivot().raw(), angles);
        out[index] = match bone.parent().map(usize::from) {
            Some(parent) if parent < index => out[parent].then(&local),
            // A root bone: T(root) * local, i.e. the root offset added.
            _ => {
                for (row, cells) in local.0.iter_mut().enumerate() {
                    cells[3] = cells[3].wrapping_add(pose.root[row]);
                }
                local
            }
        };
    }
}
