//! The animation player and its pose (`jo_3d_model_get_pose`).

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer, Pose};
use jom::format::MAX_BONES;
use jom::math::Matrix;
use jom::Model;

use crate::model::{jom_model, model_of};
use crate::result::{jom_result, to_code, JOM_ERROR_ARGUMENT};
use crate::state::{self, State};

/// A 3x4 matrix of Q16.16 (row-major; column 3 is the translation): `jom::math::Matrix`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct jom_matrix {
    /// Rows.
    pub m: [[i32; 4]; 3],
}

const _: () = assert!(core::mem::size_of::<jom_matrix>() == core::mem::size_of::<Matrix>());
const _: () = assert!(core::mem::align_of::<jom_matrix>() == core::mem::align_of::<Matrix>());

/// `matrices` as the engine's matrices, in place: a pose's 33 matrices copied took 1.5 KiB
/// of stack a copy, of the 8 KiB a C caller has.
pub(crate) fn as_matrices(matrices: &[jom_matrix]) -> &[Matrix] {
    // SAFETY: a `jom_matrix` is a `Matrix`'s layout (its one field, the rows, as
    // `Matrix`'s transparent one: size and alignment asserted above).
    unsafe { core::slice::from_raw_parts(matrices.as_ptr().cast(), matrices.len()) }
}

impl From<&jom_matrix> for Matrix {
    fn from(matrix: &jom_matrix) -> Self {
        Matrix(matrix.m)
    }
}

/// The most bones of a model (the header's `JOM_MAX_BONES`).
pub const JOM_MAX_BONES: usize = MAX_BONES;

/// A pose as the renderer draws it: the matrix of the points of no bone (the root
/// offset) and one matrix per bone, in model space.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_pose {
    /// The points and polygons of no bone's group.
    pub root: jom_matrix,
    /// Bone `i`'s group; the first `bone_count` are the model's.
    pub bones: [jom_matrix; JOM_MAX_BONES],
    /// The model's bones.
    pub bone_count: u32,
}

const _: () = assert!(core::mem::size_of::<jom_pose>() == 48 * (JOM_MAX_BONES + 1) + 4);

/// An animation player (opaque, `JOM_PLAYER_SIZE` bytes).
#[repr(C)]
pub struct jom_player {
    _opaque: [u32; 0],
}

/// The bytes of a `jom_player`.
pub const JOM_PLAYER_SIZE: usize = crate::state_size(3);

pub(crate) struct PlayerState {
    model: *const Model<'static>,
    player: AnimationPlayer<'static>,
}

impl State for PlayerState {
    const TAG: u32 = u32::from_be_bytes(*b"JPLY");
}

const _: () = assert!(crate::state::size_of_state::<PlayerState>() <= JOM_PLAYER_SIZE);

fn player_of<'a>(player: *mut jom_player) -> Result<&'a mut PlayerState, jom_result> {
    // SAFETY: the C side gives a `jom_player` or null (checked, with the tag).
    unsafe { state::get_mut(player.cast()) }
}

/// Starts `player` on the animations of `model` (which must stay loaded): animation 0
/// from its start, speed 1.0.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_init(
    player: *mut jom_player,
    model: *const jom_model,
) -> jom_result {
    to_code((|| {
        let model = model_of(model)?;
        let state = PlayerState {
            model,
            player: AnimationPlayer::new(model),
        };
        // SAFETY: the caller's promise.
        unsafe { state::init(player.cast(), state) }
    })())
}

/// Checks that `index` is one of the player's animations.
fn animation(state: &PlayerState, index: u32) -> Result<usize, jom_result> {
    // SAFETY: the model of `jom_player_init`, still loaded (the caller's promise).
    let model = unsafe { &*state.model };
    let index = index as usize;
    (index < model.animations().len())
        .then_some(index)
        .ok_or(JOM_ERROR_ARGUMENT)
}

/// Plays animation `index` from its start (a cross-fade in progress is dropped).
///
/// # Safety
/// `player` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_play(player: *mut jom_player, index: u32) -> jom_result {
    to_code((|| {
        let state = player_of(player)?;
        let index = animation(state, index)?;
        state.player.play(index);
        Ok(())
    })())
}

/// Fades from the current animation to animation `index` over `ticks` ticks of
/// `jom_player_advance` (0: at once).
///
/// # Safety
/// `player` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_cross_fade(
    player: *mut jom_player,
    index: u32,
    ticks: u32,
) -> jom_result {
    to_code((|| {
        let state = player_of(player)?;
        let index = animation(state, index)?;
        state.player.cross_fade(index, ticks);
        Ok(())
    })())
}

/// Moves the time on by `ticks` (1/60 s each) times the speed.
///
/// # Safety
/// `player` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_advance(player: *mut jom_player, ticks: u32) -> jom_result {
    to_code((|| {
        player_of(player)?.player.advance(ticks);
        Ok(())
    })())
}

/// Sets the speed (Q16.16, 0x10000 = 1.0; negative plays backwards).
///
/// # Safety
/// `player` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_set_speed(player: *mut jom_player, speed: i32) -> jom_result {
    to_code((|| {
        player_of(player)?.player.set_speed(speed);
        Ok(())
    })())
}

/// Puts the current animation at `time`: ticks in Q16.16 (64 bits: `ticks << 16`).
///
/// # Safety
/// `player` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_seek(player: *mut jom_player, time: u64) -> jom_result {
    to_code((|| {
        player_of(player)?.player.seek_fixed(time);
        Ok(())
    })())
}

/// The current animation's index and time (ticks in Q16.16, 64 bits); either pointer may
/// be null.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_get_time(
    player: *mut jom_player,
    animation: *mut u32,
    time: *mut u64,
) -> jom_result {
    to_code((|| {
        let state = player_of(player)?;
        if !animation.is_null() {
            // SAFETY: the caller's promise.
            *unsafe { state::plain_mut(animation)? } = state.player.animation() as u32;
        }
        if !time.is_null() {
            // SAFETY: the caller's promise.
            *unsafe { state::plain_mut(time)? } = state.player.time();
        }
        Ok(())
    })())
}

/// Writes the matrices of `pose` of `model` to `out`.
fn write_pose(model: &Model<'_>, pose: &Pose, out: &mut jom_pose) {
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    bone_matrices(model, pose, &mut bones);
    out.root = jom_matrix {
        m: root_matrix(pose).0,
    };
    for (out, bone) in out.bones.iter_mut().zip(&bones) {
        *out = jom_matrix { m: bone.0 };
    }
    out.bone_count = model.bones().len() as u32;
}

/// The player's pose now (cross-fade included), as matrices to draw.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_player_get_pose(
    player: *mut jom_player,
    pose: *mut jom_pose,
) -> jom_result {
    to_code((|| {
        let state = player_of(player)?;
        // SAFETY: the caller's promise.
        let out = unsafe { state::plain_mut(pose)? };
        // SAFETY: the model of `jom_player_init`, still loaded (the caller's promise).
        let model = unsafe { &*state.model };
        write_pose(model, &state.player.pose(model), out);
        Ok(())
    })())
}

/// The rest pose of `model` (every bone at its place in the file).
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_pose_rest(model: *const jom_model, pose: *mut jom_pose) -> jom_result {
    to_code((|| {
        let model = model_of(model)?;
        // SAFETY: the caller's promise.
        let out = unsafe { state::plain_mut(pose)? };
        write_pose(model, &Pose::rest(model.bones().len()), out);
        Ok(())
    })())
}
