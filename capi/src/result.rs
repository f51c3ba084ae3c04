//! Error codes: `jom_result` and its messages.

use jom::render::DrawError;
use jom::vdp1::VramError;
use jom::LoadError;

/// What a function of the C interface did: [`JOM_OK`] or one of the `JOM_ERROR_*` codes.
pub type jom_result = i32;

/// Done.
pub const JOM_OK: jom_result = 0;
/// A pointer argument is null.
pub const JOM_ERROR_NULL: jom_result = 1;
/// A state (`jom_model`, `jom_vram`, ...) was never initialised by its `_init` / `_load`
/// function, or was released.
pub const JOM_ERROR_HANDLE: jom_result = 2;
/// A pointer or a buffer is not aligned as it must be (4 bytes).
pub const JOM_ERROR_ALIGNMENT: jom_result = 3;
/// The bytes are not a valid JOM model.
pub const JOM_ERROR_BAD_MODEL: jom_result = 4;
/// An argument is out of range (an index, a size, a camera or light value).
pub const JOM_ERROR_ARGUMENT: jom_result = 5;
/// A buffer the caller gave is too small (work buffers, per-polygon tables, names).
pub const JOM_ERROR_BUFFER_TOO_SMALL: jom_result = 6;
/// The VRAM range given for textures or gouraud tables is full.
pub const JOM_ERROR_VRAM_FULL: jom_result = 7;
/// A fixed-capacity table (`JOM_MAX_TEXTURES`, `JOM_MAX_GOURAUD`, `JOM_MAX_MODEL_TEXTURES`)
/// is full.
pub const JOM_ERROR_TABLE_FULL: jom_result = 8;
/// A texture is neither in the model nor given by the texture callback.
pub const JOM_ERROR_MISSING_TEXTURE: jom_result = 9;
/// A texture's size, format or pixels are not ones the VDP1 draws.
pub const JOM_ERROR_BAD_TEXTURE: jom_result = 10;
/// The command list or its gouraud tables are full.
pub const JOM_ERROR_LIST_FULL: jom_result = 11;
/// The name was not found (an animation, a file).
pub const JOM_ERROR_NOT_FOUND: jom_result = 12;
/// The hardware did not answer (a VBlank, the CD drive).
pub const JOM_ERROR_HARDWARE: jom_result = 13;
/// The list's `gouraud_vram` is not one its command tables can hold: they keep the frame
/// gouraud tables' VRAM address / 8 in 16 bits, so it must be a multiple of 8 and its
/// `gouraud_capacity` tables must end inside VDP1 VRAM.
pub const JOM_ERROR_GOURAUD_VRAM: jom_result = 14;
/// The list's frame gouraud tables ran out: visible lit polygons were left out (the
/// farthest; the rest is drawn). `gouraud_count` was not set back to 0 for the frame, or
/// `gouraud_capacity` is too small.
pub const JOM_ERROR_GOURAUD_FULL: jom_result = 15;
/// The state holds textures still in VRAM (a `jom_textures` uploaded before):
/// `jom_textures_release` them first.
pub const JOM_ERROR_IN_USE: jom_result = 16;
/// No frame is under way: `jom_frame_draw`, `jom_frame_draw_pose` or `jom_frame_finish`
/// without a `jom_frame_begin` since the last finish.
pub const JOM_ERROR_NO_FRAME: jom_result = 17;

/// The messages, by code.
const MESSAGES: [&core::ffi::CStr; 18] = [
    c"done",
    c"a pointer argument is null",
    c"the state was not initialised (or was released)",
    c"a pointer or buffer is not 4-byte aligned",
    c"the bytes are not a valid JOM model",
    c"an argument is out of range",
    c"a buffer is too small",
    c"the VRAM range is full",
    c"a fixed-capacity table is full",
    c"a texture is missing (not embedded, not given by the callback)",
    c"a texture's size, format or pixels are not ones the VDP1 draws",
    c"the command list or its gouraud tables are full",
    c"not found",
    c"the hardware did not answer",
    c"the list's gouraud_vram is not a multiple of 8 or its gouraud tables pass VRAM's end",
    c"the list's gouraud tables are full: lit polygons were left out (gouraud_count not reset?)",
    c"the textures are still uploaded: release them first",
    c"no frame is under way: jom_frame_begin first",
];

/// The message of `code`, a static zero-ended string (`"unknown error"` for a code that
/// is none of the above, a callback's own for instance).
#[no_mangle]
pub extern "C" fn jom_error_message(code: jom_result) -> *const core::ffi::c_char {
    usize::try_from(code)
        .ok()
        .and_then(|i| MESSAGES.get(i))
        .map_or(c"unknown error".as_ptr(), |m| m.as_ptr())
}

/// A [`jom_result`] from a Rust error.
pub(crate) trait Code {
    fn code(&self) -> jom_result;
}

impl Code for LoadError {
    fn code(&self) -> jom_result {
        match self {
            LoadError::Misaligned { .. } => JOM_ERROR_ALIGNMENT,
            _ => JOM_ERROR_BAD_MODEL,
        }
    }
}

impl Code for VramError {
    fn code(&self) -> jom_result {
        match self {
            VramError::RegionFull { .. } => JOM_ERROR_VRAM_FULL,
            VramError::TableFull { .. } => JOM_ERROR_TABLE_FULL,
            VramError::MissingTexture { .. } => JOM_ERROR_MISSING_TEXTURE,
            _ => JOM_ERROR_BAD_TEXTURE,
        }
    }
}

impl Code for DrawError {
    fn code(&self) -> jom_result {
        match self {
            DrawError::BufferTooSmall { .. } => JOM_ERROR_BUFFER_TOO_SMALL,
            DrawError::CommandListFull { .. } | DrawError::GouraudListFull { .. } => {
                JOM_ERROR_LIST_FULL
            }
            _ => JOM_ERROR_ARGUMENT,
        }
    }
}

/// `Ok` as [`JOM_OK`], an error as its code: the last step of every function.
pub(crate) fn to_code(result: Result<(), jom_result>) -> jom_result {
    match result {
        Ok(()) => JOM_OK,
        Err(code) => code,
    }
}
