//! Models: validated once, used in place (`jo_3d_load_model`).

use core::ffi::c_char;

use jom::Model;

use crate::result::{
    jom_result, to_code, Code, JOM_ERROR_ARGUMENT, JOM_ERROR_NOT_FOUND, JOM_ERROR_NULL,
};
use crate::state::{self, State};

/// A model in the caller's memory: opaque, [`JOM_MODEL_SIZE`] bytes.
#[repr(C)]
pub struct jom_model {
    _opaque: [u32; 0],
}

/// The bytes of a `jom_model` (the header's `JOM_MODEL_SIZE`).
pub const JOM_MODEL_SIZE: usize = crate::state_size(0);

impl State for Model<'static> {
    const TAG: u32 = u32::from_be_bytes(*b"JMDL");
}

const _: () = assert!(crate::state::size_of_state::<Model<'static>>() <= JOM_MODEL_SIZE);

/// What a C program needs to know of a model to size its buffers and place its camera.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_model_info {
    /// PNTS: a draw of it takes a `jom_view_point` and a `jom_point` each of the frame's
    /// work space.
    pub points: u32,
    /// QUAD: a draw of it takes 2 sort keys each of the frame's work space; also the
    /// `uint16_t` per polygon of `jom_textures_upload`'s gouraud table.
    pub polygons: u32,
    /// BONE.
    pub bones: u32,
    /// ANIM.
    pub animations: u32,
    /// TEXT names.
    pub textures: u32,
    /// Whether the textures are in the file (TIMG); 0: they are files, given by the
    /// texture callback.
    pub embedded_textures: u32,
    /// The bounding sphere's centre (Q16.16 model units).
    pub center: [i32; 3],
    /// Its radius (Q16.16).
    pub radius: i32,
    /// Lower levels of detail (LODS): `jom_model_load_level` 1 to `levels`.
    pub levels: u32,
    /// Regions (REGN): culled by their spheres by any draw.
    pub regions: u32,
}

pub(crate) fn model_of<'a>(model: *const jom_model) -> Result<&'a Model<'static>, jom_result> {
    // SAFETY: the C side gives a `jom_model` or null (checked, with the tag).
    unsafe { state::get(model.cast()) }
}

/// Validates the `size` bytes at `bytes` (4-byte aligned) as a JOM model and keeps it in
/// `model`, used in place: the bytes must stay as they are while the model is used.
///
/// # Safety
/// `model` is null or points to `JOM_MODEL_SIZE` writable bytes; `bytes` is null or points
/// to `size` readable bytes that outlive the model.
#[no_mangle]
pub unsafe extern "C" fn jom_model_load(
    model: *mut jom_model,
    bytes: *const u8,
    size: u32,
) -> jom_result {
    to_code((|| {
        if bytes.is_null() {
            return Err(JOM_ERROR_NULL);
        }
        // SAFETY: the caller's promise: `size` bytes that outlive the model.
        let bytes: &'static [u8] = unsafe { core::slice::from_raw_parts(bytes, size as usize) };
        // SAFETY: the caller's promise.
        unsafe { load_into(model, bytes) }
    })())
}

/// Validates `bytes` as a JOM model and keeps it in `model` (`jom_model_load` and
/// `jom_model_load_level`).
///
/// # Safety
/// `model` is null or points to `JOM_MODEL_SIZE` writable bytes.
unsafe fn load_into(model: *mut jom_model, bytes: &'static [u8]) -> Result<(), jom_result> {
    if model.is_null() {
        return Err(JOM_ERROR_NULL);
    }
    let loaded = Model::from_bytes(bytes).map_err(|e| e.code())?;
    // SAFETY: the caller's promise.
    unsafe { state::init(model.cast(), loaded) }
}

/// Writes the counts and bounding sphere of `model` to `info`.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_model_get_info(
    model: *const jom_model,
    info: *mut jom_model_info,
) -> jom_result {
    to_code((|| {
        let model = model_of(model)?;
        // SAFETY: the caller's promise.
        let info = unsafe { state::plain_mut(info)? };
        let count = |n: usize| n as u32;
        *info = jom_model_info {
            points: count(model.points().len()),
            polygons: count(model.polygons().len()),
            bones: count(model.bones().len()),
            animations: count(model.animations().len()),
            textures: count(model.texture_names().len()),
            embedded_textures: u32::from(model.textures().is_some()),
            center: model.center().raw(),
            radius: model.radius().to_bits(),
            levels: count(model.levels().count()),
            regions: count(model.regions().len()),
        };
        Ok(())
    })())
}

/// The index of the first animation named `name` (`jo_3d_model_is_animation`), or
/// `JOM_ERROR_NOT_FOUND`.
///
/// # Safety
/// Each pointer is null or valid; `name` is zero-ended.
#[no_mangle]
pub unsafe extern "C" fn jom_model_find_animation(
    model: *const jom_model,
    name: *const c_char,
    index: *mut u32,
) -> jom_result {
    to_code((|| {
        let model = model_of(model)?;
        // SAFETY: the caller's promise: a zero-ended string. Animation names are at most
        // 15 characters: a longer one cannot match.
        let name = unsafe { state::c_str(name, 64)? };
        // SAFETY: the caller's promise.
        let index = unsafe { state::plain_mut(index)? };
        let animations = model.animations();
        let found = (0..animations.len())
            .find(|&i| animations.get(i).is_some_and(|a| a.name().as_str() == name))
            .ok_or(JOM_ERROR_NOT_FOUND)?;
        *index = found as u32;
        Ok(())
    })())
}

/// Keeps lower level `level` (1 to the model's `levels`) of `model` in `lower`: the level's
/// JOM file inside the model's bytes (its LODS chunk), validated again, used in place (the
/// model's bytes stay as they are while it is used). `lower` and `model` may be the same.
///
/// # Safety
/// `lower` is null or points to `JOM_MODEL_SIZE` writable bytes; `model` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_model_load_level(
    lower: *mut jom_model,
    model: *const jom_model,
    level: u32,
) -> jom_result {
    to_code((|| {
        let parent = model_of(model)?;
        if lower.is_null() {
            return Err(JOM_ERROR_NULL);
        }
        let index = (level as usize).checked_sub(1).ok_or(JOM_ERROR_ARGUMENT)?;
        let (_, bytes) = parent.levels().nth(index).ok_or(JOM_ERROR_ARGUMENT)?;
        // SAFETY: the caller's promise.
        unsafe { load_into(lower, bytes) }
    })())
}

/// The TEXT index of the texture named `name` (`Renderer::sprite_named`: a billboard's
/// `texture`), or `JOM_ERROR_NOT_FOUND`.
///
/// # Safety
/// Each pointer is null or valid; `name` is zero-ended.
#[no_mangle]
pub unsafe extern "C" fn jom_model_find_texture(
    model: *const jom_model,
    name: *const c_char,
    index: *mut u32,
) -> jom_result {
    to_code((|| {
        let model = model_of(model)?;
        // SAFETY: the caller's promise: a zero-ended string. Texture names are at most 15
        // characters: a longer one cannot match.
        let name = unsafe { state::c_str(name, 64)? };
        // SAFETY: the caller's promise.
        let index = unsafe { state::plain_mut(index)? };
        let found = model
            .texture_names()
            .iter()
            .position(|n| n.as_str() == name)
            .ok_or(JOM_ERROR_NOT_FOUND)?;
        *index = found as u32;
        Ok(())
    })())
}
