//! Tests of animation: poses from keys, playback, cross-fade and bone matrices, on the
//! fixture's skeleton (3 bones; "walk": 3 keys 10 ticks apart, looped; "rest": 1 key;
//! "walk" again: 2 keys 60 ticks apart, not looped), on the host and on the SH-2.

use super::*;
use crate::format::{AnimationView, Model};
use crate::math::{Matrix, Vec3};
use crate::selftest::Failure;
use crate::{check, check_eq};

// A failure carries its message inline (no allocator on the SH-2): tests only.
#[allow(clippy::result_large_err)]
fn every_chunk() -> Result<Model<'static>, Failure> {
    let bytes = crate::selftest::fixtures::EVERY_CHUNK;
    Model::from_bytes(bytes)
        .map_err(|e| Failure::new(file!(), line!(), format_args!("fixture: {e:?}")))
}

/// The fixture with BMOT: "walk" moves and stretches the spike and the tip, the second
/// "walk" stretches the root.
#[allow(clippy::result_large_err)]
fn motion() -> Result<Model<'static>, Failure> {
    Model::from_bytes(motion_bytes())
        .map_err(|e| Failure::new(file!(), line!(), format_args!("fixture: {e:?}")))
}

fn motion_bytes() -> &'static [u8] {
    crate::selftest::fixtures::MOTION
}

/// A scale matrix.
fn scale(s: Vec3) -> Matrix {
    Matrix([[s[0], 0, 0, 0], [0, s[1], 0, 0], [0, 0, s[2], 0]])
}

#[allow(clippy::result_large_err)]
fn animation<'a>(model: &Model<'a>, index: usize) -> Result<AnimationView<'a>, Failure> {
    model.animations().get(index).ok_or_else(|| {
        Failure::new(
            file!(),
            line!(),
            format_args!("no animation {index} in the fixture"),
        )
    })
}

const WALK: usize = 0;
const REST: usize = 1;
const WALK_AGAIN: usize = 2;

fn angles(x: i16, y: i16, z: i16) -> [Angle; 3] {
    [Angle(x), Angle(y), Angle(z)]
}

/// Whether two points are within a few 1/65536 units.
fn near(a: Vec3, b: Vec3) -> bool {
    a.iter().zip(&b).all(|(a, b)| (a - b).abs() <= 4)
}

fn matrices(model: &Model<'_>, pose: &Pose) -> [Matrix; MAX_BONES] {
    let mut out = [Matrix::IDENTITY; MAX_BONES];
    bone_matrices(model, pose, &mut out);
    out
}

crate::test_suite! {
    fn bones_move_and_stretch_between_keys() {
        let model = motion()?;
        let walk = animation(&model, WALK)?;
        let start = pose_at(&walk, 3, 0);
        check!(start.moves());
        check_eq!(bone_motion(&model, &start, 1), ([0; 3], [ONE; 3]));
        check_eq!(bone_motion(&model, &start, 2), ([0, 0, ONE / 4], [3 * ONE / 2; 3]));
        check_eq!(bone_motion(&model, &start, 0), ([0; 3], [ONE; 3]));
        // Tick 5: half way from key 0 to key 1; the rotations as without BMOT.
        let middle = pose_at(&walk, 3, 5);
        check_eq!(bone_motion(&model, &middle, 1), ([0, -ONE / 4, 0], [3 * ONE / 4, 3 * ONE / 2, ONE]));
        check_eq!(middle.rotations[1], angles(0x4000, 0, 0));
        check_eq!(middle.motion[0], Some(MotionSample { animation: 0, key: 0, next: 1, fraction: ONE / 2, weight: ONE }));
        // Tick 25: half way from the last key back to the first.
        let back = pose_at(&walk, 3, 25);
        check_eq!(bone_motion(&model, &back, 1), ([ONE / 2, 0, 0], [ONE / 2, ONE, ONE]));
        // An animation without tracks keeps the fast path.
        let rest = pose_at(&animation(&model, REST)?, 3, 0);
        check!(!rest.moves());
        check_eq!(bone_motion(&model, &rest, 1), ([0; 3], [ONE; 3]));
        // The second walk stops at its last key.
        let end = pose_at(&animation(&model, WALK_AGAIN)?, 3, 1000);
        check_eq!(bone_motion(&model, &end, 0), ([0, ONE, 0], [2 * ONE, ONE, ONE]));
    }

    fn moved_bones_compose_offset_rotation_and_scale_around_the_pivot() {
        let model = motion()?;
        let pose = pose_at(&animation(&model, WALK)?, 3, 5);
        let m = matrices(&model, &pose);
        // By hand: M_spike = T(root) * M_root * T(pivot + t) * R * S * T(-pivot).
        let root = Matrix::translation(pose.root).then(&Matrix::rotation_xyz(pose.rotations[0]));
        let pivot = [0, -ONE, 0];
        let (t, s) = bone_motion(&model, &pose, 1);
        let spike = root
            .then(&Matrix::translation([pivot[0] + t[0], pivot[1] + t[1], pivot[2] + t[2]]))
            .then(&Matrix::rotation_xyz(pose.rotations[1]))
            .then(&scale(s))
            .then(&Matrix::translation([0, ONE, 0]));
        let tip_pivot = [0, -2 * ONE, ONE / 4];
        let tip = spike
            .then(&Matrix::translation([0, -2 * ONE, ONE / 2]))
            .then(&Matrix::rotation_xyz(pose.rotations[2]))
            .then(&scale([3 * ONE / 2; 3]))
            .then(&Matrix::translation([0, 2 * ONE, -ONE / 4]));
        for p in [[0, -ONE, 0], [ONE / 3, -ONE, 2 * ONE], tip_pivot, [-ONE, ONE, ONE]] {
            check!(near(m[1].apply(p), spike.apply(p)));
            check!(near(m[2].apply(p), tip.apply(p)));
        }
        // The spike's pivot moves by the offset only (in its parent's space).
        check!(near(m[1].apply(pivot), root.apply([0, -ONE - ONE / 4, 0])));
        // Key 2: the spike's scale x is 0: its points collapse onto its pivot's plane.
        let flat = matrices(&model, &pose_at(&animation(&model, WALK)?, 3, 20));
        check!(near(flat[1].apply([ONE, -2 * ONE, ONE]), flat[1].apply([-ONE, -2 * ONE, ONE])));
    }

    fn cross_fades_blend_offsets_and_scales() {
        let model = motion()?;
        let walk = animation(&model, WALK)?;
        let again = animation(&model, WALK_AGAIN)?;
        let mut player = AnimationPlayer::new(&model);
        player.play(WALK);
        player.advance(5);
        player.cross_fade(WALK_AGAIN, 10);
        player.advance(5);
        let from = pose_at(&walk, 3, 10);
        let to = pose_at(&again, 3, 5);
        let expected = blend(&from, &to, ONE / 2);
        check_eq!(player.pose(&model), expected);
        check!(expected.moves());
        // Half of each: offsets and scales within a unit of the mean.
        for bone in 0..3 {
            let (a, b, mixed) = (bone_motion(&model, &from, bone), bone_motion(&model, &to, bone), bone_motion(&model, &expected, bone));
            for axis in 0..3 {
                check!((mixed.0[axis] - (a.0[axis] + b.0[axis]) / 2).abs() <= 1);
                check!((mixed.1[axis] - (a.1[axis] + b.1[axis]) / 2).abs() <= 1);
            }
        }
        // The matrices of the blend use the blended values.
        let (t, s) = bone_motion(&model, &expected, 0);
        let by_hand = Matrix::translation(expected.root)
            .then(&Matrix::translation(t))
            .then(&Matrix::rotation_xyz(expected.rotations[0]))
            .then(&scale(s));
        check!(near(matrices(&model, &expected)[0].apply([ONE, ONE, ONE]), by_hand.apply([ONE, ONE, ONE])));
        // From a pose without BMOT (rest) the scales start at 1.
        let rest = pose_at(&animation(&model, REST)?, 3, 0);
        let half = blend(&rest, &from, ONE / 2);
        check!(half.moves());
        check_eq!(bone_motion(&model, &half, 1).1, [(ONE + ONE / 2) / 2, (ONE + 2 * ONE) / 2, ONE]);
        check_eq!(blend(&rest, &from, 0), blend(&rest, &rest, 0));
        check_eq!(blend(&rest, &from, ONE).motion, from.motion);
        // A blend of blends keeps the two samples that weigh most.
        let three = blend(&expected, &pose_at(&walk, 3, 0), ONE / 4);
        check_eq!(three.motion.iter().flatten().count(), 2);
        check_eq!(three.motion[0].map(|s| s.weight), Some(3 * ONE / 8));
        // The end of the fade is the new animation alone.
        player.advance(5);
        check_eq!(player.pose(&model), pose_at(&again, 3, 10));
    }

    fn extreme_offsets_and_scales_give_matrices_never_a_panic() {
        // Any valid BMOT (scales up to 32,768, offsets anywhere) down a chain of joints.
        let pivot = [i32::MAX, i32::MIN, 7];
        let mut parent = Matrix::translation([i32::MAX, i32::MIN, 1]);
        for _ in 0..3 {
            let mut local = Matrix::IDENTITY;
            let motion = ([i32::MAX, i32::MIN, -1], [i32::MAX, 0, i32::MAX / 3]);
            super::skeleton::set_moved_joint(&mut local, pivot, angles(0x1234, -0x4321, 0x7FFF), motion);
            let mut out = Matrix::IDENTITY;
            super::skeleton::compose_reference(&parent, &local, &mut out);
            let _ = out.apply([i32::MIN, i32::MAX, i32::MIN]);
            let _ = out.rotate([i32::MAX; 3]);
            check_eq!(out.0[1][1], 0);
            parent = out;
        }
        let mut a = Pose::rest(3);
        a.motion[0] = Some(MotionSample { animation: 0, key: 1, next: 2, fraction: ONE, weight: i32::MAX });
        let model = motion()?;
        let _ = matrices(&model, &blend(&a, &a, ONE / 3));
        let _ = bone_motion(&model, &a, 1);
    }

    fn without_bmot_the_rotations_still_play() {
        // An engine that does not know BMOT skips it as any unknown chunk: the same file
        // with the chunk renamed plays the same rotations and root offsets, no offsets or
        // scales.
        let source = motion_bytes();
        let mut copy = crate::Aligned([0u8; 2048]);
        copy.0[..source.len()].copy_from_slice(source);
        let full = motion()?;
        let Some(bmot) = full.chunks().find(|c| c.tag == crate::format::Tag::BMOT) else {
            return Err(Failure::new(file!(), line!(), format_args!("no BMOT in the fixture")));
        };
        copy.0[bmot.offset..bmot.offset + 4].copy_from_slice(b"bmot");
        let stripped = Model::from_bytes(&copy.0[..source.len()])
            .map_err(|e| Failure::new(file!(), line!(), format_args!("stripped: {e:?}")))?;
        check!(stripped.bone_motion().tracks().is_empty());
        let plain = every_chunk()?;
        for (index, time) in [(WALK, 5), (WALK, 25), (WALK_AGAIN, 30)] {
            let with = pose_at(&animation(&full, index)?, 3, time);
            let without = pose_at(&animation(&stripped, index)?, 3, time);
            check!(!without.moves());
            check_eq!((without.root, without.rotations), (with.root, with.rotations));
            check_eq!(matrices(&stripped, &without), matrices(&plain, &pose_at(&animation(&plain, index)?, 3, time)));
        }
    }

    fn keys_are_exact_and_the_midpoint_is_half_way() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK)?;
        let start = pose_at(&walk, 3, 0);
        check_eq!(start.bone_count, 3);
        check_eq!(start.root, [0, 0, 0]);
        check_eq!(start.rotations[1], angles(0x1000, 0, 0));
        let key1 = pose_at(&walk, 3, 10);
        check_eq!(key1.root, [0, -ONE / 8, 0]);
        check_eq!(key1.rotations[0], angles(0, 0x2000, 0));
        check_eq!(key1.rotations[1], angles(0x7000, 0, 0));
        check_eq!(key1.rotations[2], angles(0, 0, -0x100));
        // Tick 5: half way from key 0 to key 1, root and every angle.
        let middle = pose_at(&walk, 3, 5);
        check_eq!(middle.root, [0, -ONE / 16, 0]);
        check_eq!(middle.rotations[0], angles(0, 0x1000, 0));
        check_eq!(middle.rotations[1], angles(0x4000, 0, 0));
        check_eq!(middle.rotations[2], angles(0, 0, -0x80));
        check_eq!(middle.rotations[3], angles(0, 0, 0));
        // Sub-tick time: a quarter of a tick after tick 5 moves on a little.
        let later = pose_at_fixed(&walk, 3, (5 << 16) + ONE as u64 / 4);
        check!(later.root[1] < middle.root[1] && later.root[1] > key1.root[1]);
        check!(later.rotations[1][0].0 > 0x4000 && later.rotations[1][0].0 < 0x7000);
    }

    fn angles_take_the_shortest_way_round() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK)?;
        // Bone 1 around X goes from 0x7000 (key 1) to -0x7000 (key 2): through 0x8000.
        check_eq!(pose_at(&walk, 3, 15).rotations[1][0], Angle(-0x8000));
        check_eq!(pose_at(&walk, 3, 12).rotations[1][0], Angle(0x7666));
        let after = pose_at(&walk, 3, 18).rotations[1][0].0;
        check!((-0x8000..=-0x7000).contains(&after));
        // Bone 2 around Z from -0x100 to 0x100: through 0.
        check_eq!(pose_at(&walk, 3, 15).rotations[2], angles(0, 0, 0));
        // The same in a blend, both ways.
        let mut a = Pose::rest(1);
        let mut b = Pose::rest(1);
        a.rotations[0] = angles(0x7000, -0x7000, 0x100);
        b.rotations[0] = angles(-0x7000, 0x7000, -0x100);
        check_eq!(blend(&a, &b, ONE / 2).rotations[0], angles(-0x8000, -0x8000, 0));
        check_eq!(blend(&a, &b, ONE / 4).rotations[0], angles(0x7800, -0x7800, 0x80));
    }

    fn looped_animation_goes_from_the_last_key_to_the_first() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK)?;
        // Tick 25: half way from key 2 back to key 0.
        let back = pose_at(&walk, 3, 25);
        check_eq!(back.root, [0, 0, ONE / 2]);
        check_eq!(back.rotations[0], angles(0, 0x2000, 0));
        check_eq!(back.rotations[2], angles(0, 0, 0x80));
        // The time wraps at 3 keys x 10 ticks.
        check_eq!(pose_at(&walk, 3, 30), pose_at(&walk, 3, 0));
        check_eq!(pose_at(&walk, 3, 35), pose_at(&walk, 3, 5));
        check_eq!(pose_at(&walk, 3, 305), pose_at(&walk, 3, 5));
        // u32::MAX = 30 x 143165576 + 15.
        check_eq!(pose_at(&walk, 3, u32::MAX), pose_at(&walk, 3, 15));
    }

    fn non_looped_animation_stops_at_its_last_key() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK_AGAIN)?;
        let middle = pose_at(&walk, 3, 30);
        check_eq!(middle.root, [ONE / 2, 0, 0]);
        check_eq!(middle.rotations[2], angles(-0x4000, 0x4000, 0));
        for time in [60, 61, 1000, u32::MAX] {
            let end = pose_at(&walk, 3, time);
            check_eq!(end.root, [ONE, 0, 0]);
            check_eq!(end.rotations[0], angles(-0x8000, 0x7FFF, 0));
            check_eq!(end.rotations[2], angles(-0x8000, 0x7FFF, 0));
        }
    }

    fn one_key_animation_is_constant() {
        let model = every_chunk()?;
        let rest = animation(&model, REST)?;
        for time in [0, 3, 5, 7, 100, u32::MAX] {
            let pose = pose_at(&rest, 3, time);
            check_eq!(pose.root, [1, 2, 3]);
            check_eq!(pose.rotations[0], angles(1, 2, 3));
            check_eq!(pose.rotations[1], angles(4, 5, 6));
            check_eq!(pose.rotations[2], angles(7, 8, 9));
        }
    }

    fn bone_counts_are_clamped() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK)?;
        // More bones than the keys hold, or than MAX_BONES: no panic, zero angles.
        let pose = pose_at(&walk, 1000, 5);
        check_eq!(pose.bone_count, MAX_BONES);
        check_eq!(pose.rotations[1], angles(0x4000, 0, 0));
        check_eq!(pose.rotations[3], angles(0, 0, 0));
        let one = pose_at(&walk, 1, 5);
        check_eq!(one.bone_count, 1);
        check_eq!(one.rotations[1], angles(0, 0, 0));
        let _ = matrices(&model, &pose);
        let _ = matrices(&model, &Pose::rest(0));
    }

    fn player_speed_and_seek() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK)?;
        let mut player = AnimationPlayer::new(&model);
        player.play(WALK);
        check_eq!(player.pose(&model), pose_at(&walk, 3, 0));
        player.advance(7);
        check_eq!(player.pose(&model), pose_at(&walk, 3, 7));
        // Half speed: 10 frames are 5 ticks.
        player.set_speed(ONE / 2);
        player.advance(10);
        check_eq!(player.time(), 12 << 16);
        check_eq!(player.pose(&model), pose_at(&walk, 3, 12));
        // Double speed, and the loop: 12 + 2 x 13 = 38 = 8 after 30.
        player.set_speed(2 * ONE);
        player.advance(13);
        check_eq!(player.pose(&model), pose_at(&walk, 3, 8));
        // A quarter speed keeps the quarter ticks.
        player.set_speed(ONE / 4);
        player.advance(1);
        check_eq!(player.time(), (8 << 16) + ONE as u64 / 4);
        check_eq!(player.pose(&model), pose_at_fixed(&walk, 3, (8 << 16) + ONE as u64 / 4));
        // Backwards across the start: 8.25 - 9 = -0.75 = 29.25.
        player.set_speed(-ONE);
        player.advance(9);
        check_eq!(player.time(), (29 << 16) + ONE as u64 / 4);
        // Seek, wrapped for a looped animation.
        player.seek(15);
        check_eq!(player.pose(&model), pose_at(&walk, 3, 15));
        player.seek(47);
        check_eq!(player.time(), 17 << 16);
        // Paused, the time stays; resumed, it goes on.
        player.set_speed(ONE);
        player.pause();
        check!(player.is_paused());
        player.advance(5);
        check_eq!(player.time(), 17 << 16);
        player.resume();
        player.advance(5);
        check_eq!(player.time(), 22 << 16);
        check!(!player.is_finished());
    }

    fn player_stops_a_non_looped_animation_at_its_end() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK_AGAIN)?;
        let mut player = AnimationPlayer::new(&model);
        player.play(WALK_AGAIN);
        player.advance(59);
        check!(!player.is_finished());
        player.advance(1);
        check!(player.is_finished());
        player.advance(100);
        check_eq!(player.time(), 60 << 16);
        check_eq!(player.pose(&model), pose_at(&walk, 3, 60));
        player.seek(1000);
        check_eq!(player.time(), 60 << 16);
        // Backwards it ends at its start.
        player.set_speed(-ONE);
        check!(!player.is_finished());
        player.advance(u32::MAX);
        check_eq!(player.time(), 0);
        check!(player.is_finished());
    }

    fn cross_fade_blends_the_old_pose_into_the_new() {
        let model = every_chunk()?;
        let walk = animation(&model, WALK)?;
        let again = animation(&model, WALK_AGAIN)?;
        let mut player = AnimationPlayer::new(&model);
        player.play(WALK);
        player.advance(5);
        player.cross_fade(WALK_AGAIN, 10);
        check!(player.is_fading());
        check_eq!(player.animation(), WALK_AGAIN);
        // Start: the old pose.
        check_eq!(player.pose(&model), pose_at(&walk, 3, 5));
        // Middle: half of each, each at its own time.
        player.advance(5);
        let expected = blend(&pose_at(&walk, 3, 10), &pose_at(&again, 3, 5), ONE / 2);
        check_eq!(player.pose(&model), expected);
        check!(player.pose(&model) != pose_at(&again, 3, 5));
        // Paused, nothing moves.
        player.pause();
        player.advance(3);
        check_eq!(player.pose(&model), expected);
        player.resume();
        // End: the new pose alone.
        player.advance(5);
        check!(!player.is_fading());
        check_eq!(player.pose(&model), pose_at(&again, 3, 10));
        player.advance(5);
        check_eq!(player.pose(&model), pose_at(&again, 3, 15));
        // A fade of 0 ticks is a cut.
        player.cross_fade(WALK, 0);
        check!(!player.is_fading());
        check_eq!(player.pose(&model), pose_at(&walk, 3, 0));
    }

    fn blend_ends_are_exact() {
        let mut a = Pose::rest(2);
        let mut b = Pose::rest(3);
        a.root = [-ONE, 5, i32::MIN];
        b.root = [ONE, -5, i32::MAX];
        a.rotations[0] = angles(0x1234, -0x8000, 0x7FFF);
        b.rotations[0] = angles(-0x4321, 0x7FFF, -0x8000);
        b.rotations[2] = angles(9, 8, 7);
        let start = blend(&a, &b, 0);
        check_eq!(start.root, a.root);
        check_eq!(start.rotations, a.rotations);
        check_eq!(start.bone_count, 3);
        check_eq!(blend(&a, &b, ONE), b);
        check_eq!(blend(&a, &b, -ONE), start);
        check_eq!(blend(&a, &b, 3 * ONE), b);
        check_eq!(blend(&a, &b, ONE / 2).root, [0, 0, 0]);
    }

    fn children_turn_with_their_parents_around_the_pivots() {
        // Bones: root (pivot 0), spike (child of root, pivot (0, -1, 0)), tip (child of
        // spike, pivot (0, -2, 1/4)).
        let model = every_chunk()?;
        let mut pose = Pose::rest(3);
        pose.root = [ONE, 0, 0];
        pose.rotations[0] = angles(0, 0, 0x4000); // 90° around Z: (x, y) -> (-y, x)
        pose.rotations[1] = angles(0x4000, 0, 0); // 90° around X: (y, z) -> (-z, y)
        let m = matrices(&model, &pose);
        // The root bone: around the origin, then moved by the root offset.
        check!(near(m[0].apply([0, -ONE, 0]), [2 * ONE, 0, 0]));
        check!(near(m[0].apply([ONE, 0, 0]), [ONE, ONE, 0]));
        // The spike's pivot does not move with the spike, only with its parent.
        check!(near(m[1].apply([0, -ONE, 0]), [2 * ONE, 0, 0]));
        // The tip's pivot: around the spike's pivot by X, (0, -1, 1/4) -> (0, -1/4, -1)
        // -> (0, -5/4, -1); then the root's Z -> (5/4, 0, -1); then the offset.
        let tip = [0, -2 * ONE, ONE / 4];
        check!(near(m[1].apply(tip), [ONE + 5 * ONE / 4, 0, -ONE]));
        // The tip does not turn: it follows the spike exactly.
        check!(near(m[2].apply(tip), m[1].apply(tip)));
        check!(near(m[2].apply([ONE, ONE, ONE]), m[1].apply([ONE, ONE, ONE])));
        // Turning the tip moves points around its own pivot, in the spike's space.
        pose.rotations[2] = angles(0, 0x4000, 0);
        let turned = matrices(&model, &pose);
        check!(near(turned[2].apply(tip), m[1].apply(tip)));
        check!(!near(turned[2].apply([0, -2 * ONE, ONE]), m[1].apply([0, -2 * ONE, ONE])));
        // The same by hand: M_tip = M_spike * T(pivot) * Ry(90°) * T(-pivot).
        let by_hand = m[1]
            .then(&Matrix::translation(tip))
            .then(&Matrix::rotation_y(Angle(0x4000)))
            .then(&Matrix::translation([0, 2 * ONE, -ONE / 4]));
        let p = [ONE / 3, -ONE, 2 * ONE];
        check!(near(turned[2].apply(p), by_hand.apply(p)));
        // Entries past the bones, and points of no bone: the root offset only.
        check_eq!(m[3], root_matrix(&pose));
        check_eq!(root_matrix(&pose).apply([0, ONE, 0]), [ONE, ONE, 0]);
        // The rest pose: every bone's matrix is the identity.
        let rest = matrices(&model, &Pose::rest(3));
        check_eq!(rest[2], Matrix::IDENTITY);
    }

    fn duplicate_names_play_by_index() {
        let model = every_chunk()?;
        let animations = model.animations();
        let found = animations.find("walk");
        check_eq!(found.map(|a| a.index), Some(WALK));
        check!(!animations.is_duplicate(WALK));
        check!(animations.is_duplicate(WALK_AGAIN));
        let mut player = AnimationPlayer::new(&model);
        player.play(WALK_AGAIN);
        player.advance(30);
        let pose = player.pose(&model);
        check_eq!(pose.root, [ONE / 2, 0, 0]);
        check_eq!(pose.rotations[1], angles(-0x4000, 0x4000, 0));
    }

    fn animation_out_of_range_gives_the_rest_pose() {
        let model = every_chunk()?;
        let mut player = AnimationPlayer::new(&model);
        player.play(99);
        player.advance(10);
        player.seek(5);
        check_eq!(player.pose(&model), Pose::rest(3));
        check!(player.is_finished());
        player.play(WALK);
        player.advance(5);
        player.cross_fade(usize::MAX, 10);
        player.advance(10);
        check_eq!(player.pose(&model), Pose::rest(3));
        check_eq!(Pose::default().bone_count, 0);
    }
}
