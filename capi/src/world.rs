//! What a frame draws besides whole models (issue 42): its fog (`jom_fog`), billboards
//! (`jom_billboard`: a texture of an uploaded model standing at a point, facing the
//! screen) and models drawn at a level of detail (`jom_lod`: one byte a draw site). Each
//! goes through the frame under way (`jom::render::ListFrame`'s `set_fog`,
//! `draw_billboard`, `draw_lod` and `draw_posed_lod`); this module only checks the C
//! side's arguments.

use jom::math::Matrix;
use jom::render::{Billboard, BillboardLook, DrawError, Fog, ListFrame, LoadedModel, Lod, Posed};
use jom::vdp1::ZoomPoint;

use crate::frame::{draw_in, jom_frame, loaded_model, state_of, under_way, FrameState};
use crate::model::jom_model;
use crate::player::{as_matrices, jom_matrix, jom_pose};
use crate::result::{
    jom_result, to_code, Code, JOM_ERROR_ALIGNMENT, JOM_ERROR_ARGUMENT, JOM_ERROR_NO_FRAME,
    JOM_ERROR_NULL,
};
use crate::state;
use crate::textures::{jom_textures, TexturesState};

/// A fog over a frame (`jom::render::Fog`): surfaces fade from their own colour at depth
/// `near_z` to `colour` at `far_z` and beyond.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_fog {
    /// RGB555 (bit 15 ignored).
    pub colour: u16,
    pub reserved: u16,
    /// Camera depths, Q16.16: 0 <= near_z <= far_z (equal: all fog from near_z on).
    pub near_z: i32,
    pub far_z: i32,
}

/// Fades the polygons and billboards of the frame under way into `fog` (NULL: none), at
/// any time before its finish; each `jom_frame_begin` starts a frame without fog.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_set_fog(
    frame: *mut jom_frame,
    fog: *const jom_fog,
) -> jom_result {
    to_code((|| {
        let state = state_of(frame)?;
        let fog = if fog.is_null() {
            None
        } else {
            // SAFETY: the caller's promise.
            let f = unsafe { state::plain(fog)? };
            if f.near_z < 0 || f.far_z < f.near_z {
                return Err(JOM_ERROR_ARGUMENT);
            }
            Some(Fog {
                colour: f.colour,
                near: f.near_z,
                far: f.far_z,
            })
        };
        // SAFETY: from `state_of`.
        let frame = unsafe { under_way(state) }
            .as_mut()
            .ok_or(JOM_ERROR_NO_FRAME)?;
        frame.set_fog(fog);
        Ok(())
    })())
}

/// `jom_billboard.flags`: averaged with what is behind it (the VDP1's half transparency).
pub const JOM_BILLBOARD_HALF_TRANSPARENT: u8 = 1;
/// `jom_billboard.flags`: every other pixel drawn (the VDP1's mesh).
pub const JOM_BILLBOARD_MESH: u8 = 2;
/// `jom_billboard.flags`: not faded by the frame's fog.
pub const JOM_BILLBOARD_NO_FOG: u8 = 4;
const BILLBOARD_FLAGS: u8 =
    JOM_BILLBOARD_HALF_TRANSPARENT | JOM_BILLBOARD_MESH | JOM_BILLBOARD_NO_FOG;

/// `jom_billboard.anchor`, the point of the sprite at its position (the VDP1's zoom point
/// numbers, `jom::vdp1::ZoomPoint`; 0 is the centre too, so a zeroed billboard is
/// centred): the upper left corner.
pub const JOM_ANCHOR_UPPER_LEFT: u8 = 0x5;
/// The middle of the upper edge.
pub const JOM_ANCHOR_UPPER_CENTER: u8 = 0x6;
/// The upper right corner.
pub const JOM_ANCHOR_UPPER_RIGHT: u8 = 0x7;
/// The middle of the left edge.
pub const JOM_ANCHOR_CENTER_LEFT: u8 = 0x9;
/// The centre.
pub const JOM_ANCHOR_CENTER: u8 = 0xA;
/// The middle of the right edge.
pub const JOM_ANCHOR_CENTER_RIGHT: u8 = 0xB;
/// The lower left corner.
pub const JOM_ANCHOR_LOWER_LEFT: u8 = 0xD;
/// The middle of the lower edge (a tree's foot).
pub const JOM_ANCHOR_LOWER_CENTER: u8 = 0xE;
/// The lower right corner.
pub const JOM_ANCHOR_LOWER_RIGHT: u8 = 0xF;

/// A billboard (`jom::render::Billboard`): texture `texture` (TEXT index) of the model
/// whose upload is `textures`, `size` world units wide and high, standing at `position`
/// with its `anchor` there, facing the screen.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_billboard {
    /// World units, Q16.16.
    pub position: [i32; 3],
    /// Width and height, world units (Q16.16), each above 0.
    pub size: [i32; 2],
    /// The upload (`jom_textures_upload`) of the model whose texture it shows.
    pub textures: *const jom_textures,
    /// The texture's TEXT index in that model.
    pub texture: u16,
    /// `JOM_ANCHOR_*` (0: the centre).
    pub anchor: u8,
    /// `JOM_BILLBOARD_*`.
    pub flags: u8,
    /// A gouraud colour added to every texel (RGB555, 16 a channel leaves it as it is;
    /// bit 15 set whatever it is), 0: none.
    pub gouraud: u16,
    pub reserved: u16,
}

/// The anchor of `value`, or `None` for a number that is not one.
fn anchor_of(value: u8) -> Option<ZoomPoint> {
    Some(match value {
        0 | JOM_ANCHOR_CENTER => ZoomPoint::Center,
        JOM_ANCHOR_UPPER_LEFT => ZoomPoint::UpperLeft,
        JOM_ANCHOR_UPPER_CENTER => ZoomPoint::UpperCenter,
        JOM_ANCHOR_UPPER_RIGHT => ZoomPoint::UpperRight,
        JOM_ANCHOR_CENTER_LEFT => ZoomPoint::CenterLeft,
        JOM_ANCHOR_CENTER_RIGHT => ZoomPoint::CenterRight,
        JOM_ANCHOR_LOWER_LEFT => ZoomPoint::LowerLeft,
        JOM_ANCHOR_LOWER_CENTER => ZoomPoint::LowerCenter,
        JOM_ANCHOR_LOWER_RIGHT => ZoomPoint::LowerRight,
        _ => return None,
    })
}

/// The engine's billboard of `billboard`, checked: its textures uploaded, its texture one
/// of them in VRAM, its size, anchor and flags in range.
fn billboard_of(billboard: &jom_billboard) -> Result<Billboard, jom_result> {
    // SAFETY: the C side gives a `jom_textures` or null (checked, with the tag).
    let loaded: &TexturesState = unsafe { state::get(billboard.textures.cast())? };
    let sprite = loaded.sprite(usize::from(billboard.texture));
    let anchor = anchor_of(billboard.anchor);
    let valid = billboard.size.iter().all(|&s| s > 0) && billboard.flags & !BILLBOARD_FLAGS == 0;
    let (Some(sprite), Some(anchor), true) = (sprite, anchor, valid) else {
        return Err(JOM_ERROR_ARGUMENT);
    };
    let flag = |f: u8| billboard.flags & f != 0;
    let look = BillboardLook {
        half_transparent: flag(JOM_BILLBOARD_HALF_TRANSPARENT),
        mesh: flag(JOM_BILLBOARD_MESH),
        gouraud: (billboard.gouraud != 0).then_some(billboard.gouraud),
        fog: !flag(JOM_BILLBOARD_NO_FOG),
    };
    Ok(Billboard {
        position: billboard.position,
        size: billboard.size,
        sprite,
        anchor,
        look,
    })
}

/// Draws `billboard` in the frame under way: placed now (culled behind the near plane,
/// past the far one, below a pixel or off screen), sorted with the frame's polygons by its
/// depth at `jom_frame_finish`, into the room of the work space's billboard arrays
/// (`JOM_ERROR_BUFFER_TOO_SMALL` past it). Its textures stay uploaded until the list is
/// drawn (the command holds their VRAM address).
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_draw_billboard(
    frame: *mut jom_frame,
    billboard: *const jom_billboard,
) -> jom_result {
    to_code((|| {
        let state = state_of(frame)?;
        // SAFETY: the caller's promise.
        let billboard = billboard_of(unsafe { state::plain(billboard)? })?;
        // SAFETY: from `state_of`.
        let frame = unsafe { under_way(state) }
            .as_mut()
            .ok_or(JOM_ERROR_NO_FRAME)?;
        frame.draw_billboard(&billboard).map_err(|e| e.code())
    })())
}

/// The most levels of a `jom_frame_draw_lod` (the model itself and its lower levels).
pub const JOM_MAX_LEVELS: usize = 8;

/// A draw site's level of detail (`jom::render::Lod`), kept by the caller from frame to
/// frame, one per thing drawn: 0 (the model itself) to start; each draw moves it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_lod {
    /// The level drawn last.
    pub level: u8,
}

/// One level of a model drawn by its level of detail: the model (level 0: the model
/// itself; level k: its `jom_model_load_level` k) and its upload.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_lod_level {
    pub model: *const jom_model,
    pub textures: *const jom_textures,
}

/// The levels of a draw, checked.
struct Levels {
    /// As the engine draws them (the first repeated after those given).
    models: [LoadedModel<'static>; JOM_MAX_LEVELS],
    /// As given (kept by the caller during the call).
    given: &'static [jom_lod_level],
}

/// The levels of `levels` (`count` of them), checked: 1 to `JOM_MAX_LEVELS`, each loaded
/// with textures of its own, level k the k-th lower level of level 0's file (so no more
/// than it has).
fn levels_of(levels: *const jom_lod_level, count: u32) -> Result<Levels, jom_result> {
    if levels.is_null() {
        return Err(JOM_ERROR_NULL);
    }
    if !(1..=JOM_MAX_LEVELS).contains(&(count as usize)) {
        return Err(JOM_ERROR_ARGUMENT);
    }
    if !levels.is_aligned() {
        return Err(JOM_ERROR_ALIGNMENT);
    }
    // SAFETY: the caller's promise: `count` levels at `levels`, kept during the call.
    let levels = unsafe { core::slice::from_raw_parts(levels, count as usize) };
    let finest = loaded_model(levels[0].model, levels[0].textures)?;
    let mut models = [finest; JOM_MAX_LEVELS];
    let mut lower = finest.model.levels();
    for (model, level) in models.iter_mut().zip(levels).skip(1) {
        *model = loaded_model(level.model, level.textures)?;
        let own = lower.next().map(|(_, bytes)| bytes);
        if !own.is_some_and(|bytes| core::ptr::eq(bytes, model.model.bytes())) {
            return Err(JOM_ERROR_ARGUMENT);
        }
    }
    Ok(Levels {
        models,
        given: levels,
    })
}

/// Draws with `draw` the level `lod` moves to of `levels` in the frame under way of
/// `state`, and writes the level drawn back to `lod`.
fn draw_level(
    state: *mut FrameState,
    Levels { models, given }: Levels,
    lod: &mut jom_lod,
    draw: impl FnOnce(
        &mut ListFrame<'static>,
        &[LoadedModel<'static>],
        &mut Lod,
    ) -> Result<(), DrawError>,
) -> Result<(), jom_result> {
    let mut chosen = Lod::at(lod.level);
    let drawn = draw_in(state, |frame| {
        draw(frame, &models[..given.len()], &mut chosen)?;
        Ok(given[chosen.level().min(given.len() - 1)].textures)
    });
    lod.level = chosen.level() as u8;
    drawn
}

/// The arguments `jom_frame_draw_lod` and `jom_frame_draw_pose_lod` share, read and checked:
/// the frame's state, the levels, the draw site's `jom_lod` and the transform.
///
/// # Safety
/// Each pointer is null or valid; `levels`: `count` of them.
unsafe fn lod_arguments<'a>(
    frame: *mut jom_frame,
    (levels, count): (*const jom_lod_level, u32),
    lod: *mut jom_lod,
    transform: *const jom_matrix,
) -> Result<(*mut FrameState, Levels, &'a mut jom_lod, Matrix), jom_result> {
    let state = state_of(frame)?;
    let levels = levels_of(levels, count)?;
    // SAFETY: the caller's promise.
    let lod = unsafe { state::plain_mut(lod)? };
    // SAFETY: the caller's promise.
    let transform = Matrix::from(unsafe { state::plain(transform)? });
    Ok((state, levels, lod, transform))
}

/// Draws the level of detail of a model that `lod` moves to, placed by `transform`
/// (`jom::render::ListFrame::draw_lod`): `levels[0]` the model itself, `levels[k]` its
/// lower level k (`jom_model_load_level`), each with its upload; `count` 1 to
/// `JOM_MAX_LEVELS`, fewer than the file has: the last given drawn for the rest. The level
/// moves by the model's radius on screen against each level's size (LODS), with an eighth
/// of hysteresis each way; `lod->level` is the level drawn.
///
/// # Safety
/// Each pointer is null or valid; `levels`: `count` of them.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_draw_lod(
    frame: *mut jom_frame,
    levels: *const jom_lod_level,
    count: u32,
    lod: *mut jom_lod,
    transform: *const jom_matrix,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let (state, levels, lod, transform) =
            unsafe { lod_arguments(frame, (levels, count), lod, transform)? };
        draw_level(state, levels, lod, |frame, models, lod| {
            frame.draw_lod(models, lod, &transform)
        })
    })())
}

/// `jom_frame_draw_lod` in `pose` (`jom_frame_draw_pose`): every level has the model's
/// skeleton (LODS's rule), so one pose fits them all.
///
/// # Safety
/// Each pointer is null or valid; `levels`: `count` of them.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_draw_pose_lod(
    frame: *mut jom_frame,
    levels: *const jom_lod_level,
    count: u32,
    lod: *mut jom_lod,
    transform: *const jom_matrix,
    pose: *const jom_pose,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let (state, levels, lod, transform) =
            unsafe { lod_arguments(frame, (levels, count), lod, transform)? };
        // SAFETY: the caller's promise.
        let pose = unsafe { state::plain(pose)? };
        if levels.models[0].model.bones().len() > pose.bone_count as usize {
            return Err(JOM_ERROR_ARGUMENT);
        }
        let posed = Posed {
            transform: &transform,
            root: &as_matrices(core::slice::from_ref(&pose.root))[0],
            bones: as_matrices(&pose.bones),
        };
        draw_level(state, levels, lod, |frame, models, lod| {
            frame.draw_posed_lod(models, lod, &posed)
        })
    })())
}

// The plain structs' sizes on the SH-2, as jom.h's `_Static_assert`s have them.
#[cfg(target_pointer_width = "32")]
const _: () = {
    assert!(core::mem::size_of::<jom_fog>() == 12);
    assert!(core::mem::size_of::<jom_billboard>() == 32);
    assert!(core::mem::size_of::<jom_lod>() == 1);
    assert!(core::mem::size_of::<jom_lod_level>() == 8);
};
