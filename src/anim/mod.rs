//! The skeleton in motion: this module owns the poses of a model's rigid skeleton (the root
//! offset and three angles per bone), their computation from the keys of an animation
//! ([`pose_at`], `jo_3d_model_get_pose`), the cross-fade between two poses ([`blend`]), the
//! playback of animations over time ([`AnimationPlayer`]) and the matrices that place each
//! bone's points ([`bone_matrices`]). Keys are `key_ticks` ticks apart (60 ticks per second);
//! between two keys the root offset and each angle are interpolated linearly, the angles along
//! the shortest way round (they wrap at `0x10000`), and so are the bones' offsets and
//! scales of the BMOT chunk (issue 17) when the animation has them (a pose keeps where it
//! samples them, [`bone_motion`] gives their values). A looped animation wraps at `key_count *
//! key_ticks` ticks and its last key goes back to the first; any other stops at its last key,
//! `(key_count - 1) * key_ticks`. Each bone turns by its angles (around X, then Y, then Z:
//! [`Matrix::rotation_xyz`](crate::math::Matrix::rotation_xyz)) around its pivot (model space)
//! in its parent's space, parents first: `M_bone = M_parent * T(pivot + t) * R(angles) *
//! S(s) * T(-pivot)` (`t` = 0, `s` = 1 without BMOT), where the parent of a root bone is `T(root offset)` ([`root_matrix`], also the
//! matrix of the points of no bone's group). Everything is integer math (Q16.16, a division
//! per pose, none per bone), allocation-free and panic-free on any input: an animation index
//! out of range gives the rest pose (every value zero).

mod player;
pub(crate) mod skeleton;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;

pub use player::AnimationPlayer;
pub use skeleton::{bone_matrices, bone_matrices_with, root_matrix, MIN_SHARED_BONES};

use crate::format::{AnimationView, Model, MotionKey, MAX_BONES};
use crate::math::{mul, Angle, Vec3, ONE};

/// The ticks of one second (`JO_3D_ANIMATION_TICKS_PER_SECOND`).
pub const TICKS_PER_SECOND: u32 = 60;

/// The pose of a skeleton at one time: the offset of the whole model and, for each bone,
/// its angles around X, Y then Z of its parent, and (BMOT) its offset and scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pose {
    /// The offset of the whole model, in raw Q16.16.
    pub root: Vec3,
    /// The angles of each bone (the first [`bone_count`](Self::bone_count) are used, the
    /// others are zero).
    pub rotations: [[Angle; 3]; MAX_BONES],
    /// Where the bones' offsets and scales (BMOT) come from: up to two animations' tracks,
    /// each at a place between two keys and with a weight (a cross-fade blends two).
    /// Kept as places, not values, so that a pose stays small (it is copied by value) and
    /// a pose without BMOT costs what it did before; [`bone_motion`] and [`bone_matrices`]
    /// read the values from the model. Both `None`: no bone moves or stretches.
    pub motion: [Option<MotionSample>; 2],
    /// The number of bones of the pose (at most [`MAX_BONES`]).
    pub bone_count: usize,
}

impl Pose {
    /// The rest pose of `bone_count` bones (at most [`MAX_BONES`]): no offset, no rotation.
    pub const fn rest(bone_count: usize) -> Self {
        Self {
            root: [0; 3],
            rotations: [[Angle(0); 3]; MAX_BONES],
            motion: [None; 2],
            bone_count: if bone_count < MAX_BONES {
                bone_count
            } else {
                MAX_BONES
            },
        }
    }
}

impl Pose {
    /// Whether a bone may move or stretch (the pose samples BMOT tracks): without,
    /// [`bone_matrices`] takes the rotations-only path.
    pub fn moves(&self) -> bool {
        self.motion[0].is_some()
    }
}

/// A place in an animation's BMOT tracks: between `key` and `next` by `fraction`, weighing
/// `weight` (Q16.16, `ONE` alone) in the pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MotionSample {
    /// The animation's index in ANIM.
    pub animation: u16,
    /// The key before.
    pub key: u16,
    /// The key after.
    pub next: u16,
    /// The way from `key` to `next`, Q16.16 (`0..=ONE`).
    pub fraction: i32,
    /// The sample's share of the pose, Q16.16.
    pub weight: i32,
}

impl Default for Pose {
    /// The rest pose of no bone.
    fn default() -> Self {
        Self::rest(0)
    }
}

/// `a + (b - a) * t` for `t` in `0..=ONE`, rounded, exact at both ends.
#[inline]
fn lerp_fixed(a: i32, b: i32, t: i32) -> i32 {
    let delta = i64::from(b) - i64::from(a);
    a.wrapping_add(((delta * i64::from(t) + 0x8000) >> 16) as i32)
}

/// From `a` toward `b` by `t` (`0..=ONE`) along the shortest way round, rounded, exact at
/// both ends. The 32-bit product cannot overflow: the turn is in `-0x8000..0x8000`.
#[inline]
fn lerp_angle(a: Angle, b: Angle, t: i32) -> Angle {
    let delta = i32::from(b.0.wrapping_sub(a.0));
    Angle(a.0.wrapping_add(((delta * t + 0x8000) >> 16) as i16))
}

/// The pose of `animation` at `time` ticks (`jo_3d_model_get_pose`) for a skeleton of
/// `bone_count` bones (the model's, clamped to [`MAX_BONES`]; bones the keys do not hold
/// stay at zero). See [`pose_at_fixed`] for a time between two ticks.
///
/// ```
/// use jom::anim::pose_at;
/// use jom::math::{Angle, ONE};
/// let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
/// let model = jom::Model::from_bytes(bytes)?;
/// let walk = model.animations().find("walk").expect("the fixture has a walk");
/// // Keys 10 ticks apart: tick 5 is half way from key 0 to key 1.
/// let pose = pose_at(&walk, model.bones().len(), 5);
/// assert_eq!(pose.root, [0, -ONE / 16, 0]);
/// assert_eq!(pose.rotations[0], [Angle(0), Angle(0x1000), Angle(0)]);
/// # Ok::<(), jom::LoadError>(())
/// ```
pub fn pose_at(animation: &AnimationView<'_>, bone_count: usize, time: u32) -> Pose {
    pose_at_fixed(animation, bone_count, u64::from(time) << 16)
}

/// [`pose_at`] with the time in Q16.16 ticks (`0x10000` per tick), for playback slower
/// than a tick a frame.
pub fn pose_at_fixed(animation: &AnimationView<'_>, bone_count: usize, time: u64) -> Pose {
    let mut pose = Pose::rest(bone_count);
    let record = animation.record;
    let (key, next, fraction) = key_position(
        record.key_count(),
        record.key_ticks(),
        record.is_looped(),
        time,
    );
    let (Some(a), Some(b)) = (animation.key(key), animation.key(next)) else {
        return pose;
    };
    let (root_a, root_b) = (a.root.raw(), b.root.raw());
    for (axis, out) in pose.root.iter_mut().enumerate() {
        *out = lerp_fixed(root_a[axis], root_b[axis], fraction);
    }
    let bones = pose
        .bone_count
        .min(a.rotations.len())
        .min(b.rotations.len());
    for bone in 0..bones {
        let (from, to) = (a.rotations[bone].get(), b.rotations[bone].get());
        pose.rotations[bone] = [
            lerp_angle(from[0], to[0], fraction),
            lerp_angle(from[1], to[1], fraction),
            lerp_angle(from[2], to[2], fraction),
        ];
    }
    if !animation.motion.is_empty() {
        // Indexes of animations with tracks and key numbers fit in u16 (BMOT, key_count).
        pose.motion[0] = Some(MotionSample {
            animation: animation.index as u16,
            key: key as u16,
            next: next as u16,
            fraction,
            weight: ONE,
        });
    }
    pose
}

/// [`lerp_fixed`] of each component.
#[inline]
fn lerp_vec(a: Vec3, b: Vec3, t: i32) -> Vec3 {
    [
        lerp_fixed(a[0], b[0], t),
        lerp_fixed(a[1], b[1], t),
        lerp_fixed(a[2], b[2], t),
    ]
}

/// The key before a time (Q16.16 ticks), the key after it and the Q16.16 fraction of the
/// way between them. Counts of 0 are taken as 1 (a validated file has none).
fn key_position(key_count: u16, key_ticks: u16, looped: bool, time: u64) -> (usize, usize, i32) {
    let key_count = u64::from(key_count.max(1));
    let key_ticks = u64::from(key_ticks.max(1));
    let last = key_count - 1;
    let time = if looped {
        let period = (key_count * key_ticks) << 16;
        if time >= period {
            time % period
        } else {
            time
        }
    } else if time >= (last * key_ticks) << 16 {
        return (last as usize, last as usize, 0);
    } else {
        time
    };
    // The one division of the pose: the time in Q16.16 keys.
    let position = match u32::try_from(time) {
        Ok(time) => u64::from(time / key_ticks as u32),
        Err(_) => time / key_ticks,
    };
    let key = (position >> 16).min(last);
    let next = if key == last { 0 } else { key + 1 };
    (key as usize, next as usize, (position & 0xFFFF) as i32)
}

/// The pose `t` of the way from `from` to `to` (`t` in Q16.16, clamped to `0..=ONE`): the
/// root offset, the bones' offsets and scales linearly, each angle along the shortest way
/// round. `blend(a, b, 0)` is `a` and `blend(a, b, ONE)` is `b`. For the cross-fade
/// between two animations.
pub fn blend(from: &Pose, to: &Pose, t: i32) -> Pose {
    let t = t.clamp(0, ONE);
    let mut pose = Pose::rest(from.bone_count.max(to.bone_count));
    for (axis, out) in pose.root.iter_mut().enumerate() {
        *out = lerp_fixed(from.root[axis], to.root[axis], t);
    }
    let bones = from.rotations.iter().zip(&to.rotations);
    for (out, (a, b)) in pose.rotations.iter_mut().take(pose.bone_count).zip(bones) {
        for axis in 0..3 {
            out[axis] = lerp_angle(a[axis], b[axis], t);
        }
    }
    if from.moves() || to.moves() {
        pose.motion = blend_motion(from, to, t);
    }
    pose
}

/// The BMOT samples of `blend(from, to, t)`: `from`'s weighing `1 - t`, `to`'s `t`. Of a
/// blend of blends (more than two samples) the two that weigh most are kept.
fn blend_motion(from: &Pose, to: &Pose, t: i32) -> [Option<MotionSample>; 2] {
    let weighed = |sample: &Option<MotionSample>, share: i32| {
        sample.map(|s| MotionSample {
            weight: mul(s.weight, share),
            ..s
        })
    };
    let mut all = [
        weighed(&from.motion[0], ONE - t),
        weighed(&from.motion[1], ONE - t),
        weighed(&to.motion[0], t),
        weighed(&to.motion[1], t),
    ];
    let mut out = [None; 2];
    for slot in &mut out {
        let heaviest = (0..all.len())
            .filter(|&i| all[i].is_some_and(|s| s.weight > 0))
            .max_by_key(|&i| all[i].map_or(0, |s| s.weight));
        if let Some(i) = heaviest {
            *slot = all[i].take();
        }
    }
    out
}

/// The offset and scale of `bone` in `pose` (model units and rest axes, raw Q16.16): each
/// BMOT sample's value between its keys, weighed (a bone without a track has offset 0 and
/// scale 1).
pub fn bone_motion(model: &Model<'_>, pose: &Pose, bone: usize) -> (Vec3, Vec3) {
    let mut motion = ([0; 3], [ONE; 3]);
    for sample in pose.motion.iter().flatten() {
        let tracks = model
            .bone_motion()
            .of_animation(usize::from(sample.animation));
        if let Some((_, keys)) = tracks.iter().find(|&(b, _)| usize::from(b) == bone) {
            add_sample(&mut motion, keys, sample);
        }
    }
    motion
}

/// Adds a sample of a bone's keys to its (offset, scale): `weight * (value - rest)`.
#[inline]
pub(crate) fn add_sample(motion: &mut (Vec3, Vec3), keys: &[MotionKey], sample: &MotionSample) {
    let (Some(a), Some(b)) = (
        keys.get(usize::from(sample.key)),
        keys.get(usize::from(sample.next)),
    ) else {
        return;
    };
    let offset = lerp_vec(a.offset(), b.offset(), sample.fraction);
    let scale = lerp_vec(a.scale(), b.scale(), sample.fraction);
    for axis in 0..3 {
        motion.0[axis] = motion.0[axis].wrapping_add(mul(offset[axis], sample.weight));
        motion.1[axis] =
            motion.1[axis].wrapping_add(mul(scale[axis].wrapping_sub(ONE), sample.weight));
    }
}
