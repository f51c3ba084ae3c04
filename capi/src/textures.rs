//! VDP1 VRAM: a program's texture and gouraud caches over the VRAM ranges it gives (so
//! they live beside its own sprites and command list), and the textures of each model,
//! uploaded once per name.

use core::ffi::{c_char, c_void};
use core::ops::Range;

use jom::format::Name;
use jom::render::ModelVram;
use jom::vdp1::{
    GouraudCache, ModelTextures, Sprite, TextureCache, TextureSource, Vram, VRAM_SIZE,
};
use jom::Model;

use crate::model::{jom_model, model_of};
use crate::result::{
    jom_result, to_code, Code, JOM_ERROR_ARGUMENT, JOM_ERROR_BUFFER_TOO_SMALL, JOM_ERROR_HANDLE,
    JOM_ERROR_IN_USE, JOM_ERROR_MISSING_TEXTURE, JOM_ERROR_NULL, JOM_OK,
};
use crate::state::{self, State};

/// Textures in VRAM at once (distinct names and end-code variants).
pub const JOM_MAX_TEXTURES: usize = 128;
/// Distinct model gouraud tables (GOUR) in VRAM at once (a power of two).
pub const JOM_MAX_GOURAUD: usize = 256;
/// TEXT names of one model.
pub const JOM_MAX_MODEL_TEXTURES: usize = 32;
/// The bytes of a `jom_vram`.
pub const JOM_VRAM_SIZE: usize = crate::state_size(1);
/// The bytes of a `jom_textures`.
pub const JOM_TEXTURES_SIZE: usize = crate::state_size(2);

/// VDP1 VRAM seen through a pointer the caller gives: the real VRAM (`0x25C00000` on the
/// Saturn) or, in a test, a buffer of `JOM_VRAM_BYTES`.
pub(crate) struct PointerVram {
    base: *mut u8,
}

impl Vram for PointerVram {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        let end = address as usize + bytes.len();
        if end > VRAM_SIZE as usize {
            // The engine writes inside the ranges it was given, which `jom_vram_init`
            // checked: nothing reaches here.
            return;
        }
        // SAFETY: `base` points to VRAM_SIZE writable bytes (`jom_vram_init`'s caller) and
        // the write is inside them.
        let target = unsafe { self.base.add(address as usize) };
        // The VDP1's VRAM takes 16-bit writes: big-endian pairs on the big-endian SH-2.
        let halves =
            cfg!(target_endian = "big") && address.is_multiple_of(2) && target.is_aligned();
        let mut pairs = bytes.chunks_exact(2);
        let mut offset = 0;
        if halves {
            for pair in pairs.by_ref() {
                let half = u16::from_be_bytes([pair[0], pair[1]]);
                // SAFETY: inside the buffer, 2-byte aligned.
                unsafe { target.add(offset).cast::<u16>().write_volatile(half) };
                offset += 2;
            }
        }
        for (i, &byte) in bytes[offset..].iter().enumerate() {
            // SAFETY: inside the buffer.
            unsafe { target.add(offset + i).write_volatile(byte) };
        }
    }
}

/// The texture and gouraud caches of a program (opaque, `JOM_VRAM_SIZE` bytes).
#[repr(C)]
pub struct jom_vram {
    _opaque: [u32; 0],
}

pub(crate) struct VramState {
    target: PointerVram,
    textures: TextureCache<JOM_MAX_TEXTURES>,
    gouraud: GouraudCache<JOM_MAX_GOURAUD>,
}

impl VramState {
    /// Where the VRAM writes go.
    pub(crate) fn target(&mut self) -> &mut PointerVram {
        &mut self.target
    }
}

impl State for VramState {
    const TAG: u32 = u32::from_be_bytes(*b"JVRM");
}

const _: () = assert!(crate::state::size_of_state::<VramState>() <= JOM_VRAM_SIZE);

/// A `start`..`end` VRAM range: 8-byte aligned (the VDP1 addresses textures / 8), inside
/// VRAM, not empty.
fn range(start: u32, end: u32) -> Result<Range<u32>, jom_result> {
    let valid = start.is_multiple_of(8) && end.is_multiple_of(8) && start < end && end <= VRAM_SIZE;
    valid.then_some(start..end).ok_or(JOM_ERROR_ARGUMENT)
}

fn overlap(a: &Range<u32>, b: &Range<u32>) -> bool {
    a.start < b.end && b.start < a.end
}

/// Starts the caches in `vram`: textures go to VRAM `textures_start`..`textures_end`,
/// model gouraud tables to `gouraud_start`..`gouraud_end` (byte addresses from VRAM's
/// start, multiples of 8, not overlapping), written through `vram_base` (the VDP1's VRAM,
/// `(void *)0x25C00000`, or any buffer of 512 KiB).
///
/// # Safety
/// `vram` is null or points to `JOM_VRAM_SIZE` writable bytes; `vram_base` is null or
/// points to 512 KiB of writable memory for as long as `vram` is used.
#[no_mangle]
pub unsafe extern "C" fn jom_vram_init(
    vram: *mut jom_vram,
    vram_base: *mut c_void,
    textures_start: u32,
    textures_end: u32,
    gouraud_start: u32,
    gouraud_end: u32,
) -> jom_result {
    to_code((|| {
        if vram_base.is_null() {
            return Err(JOM_ERROR_NULL);
        }
        let textures = range(textures_start, textures_end)?;
        let gouraud = range(gouraud_start, gouraud_end)?;
        if overlap(&textures, &gouraud) {
            return Err(JOM_ERROR_ARGUMENT);
        }
        // In place: the caches are tens of KiB. Zero is an empty cache and a null pointer.
        // SAFETY: the caller's promise.
        unsafe {
            state::init_zeroed::<VramState>(vram.cast(), |state| {
                state.target.base = vram_base.cast();
                state.textures.reset_in_place(textures);
                state.gouraud.reset_in_place(gouraud);
                Ok(())
            })
        }
    })())
}

/// The textures and gouraud tables of one model in VRAM (opaque, `JOM_TEXTURES_SIZE`
/// bytes).
#[repr(C)]
pub struct jom_textures {
    _opaque: [u32; 0],
}

pub(crate) struct TexturesState {
    /// The `jom_model` they were uploaded for, and the bytes it held then: a model loaded
    /// into that `jom_model` later is told apart by its bytes (another buffer or size; one
    /// read into the same buffer at the same size passes for the same).
    model: *const Model<'static>,
    model_bytes: *const [u8],
    pub(crate) textures: ModelTextures<JOM_MAX_MODEL_TEXTURES>,
    /// Each polygon's gouraud table address / 8, in the caller's array (empty when the
    /// model has no GOUR).
    gouraud: *mut u16,
    gouraud_len: usize,
}

impl TexturesState {
    pub(crate) fn gouraud(&self) -> &[u16] {
        if self.gouraud_len == 0 {
            return &[];
        }
        // SAFETY: the caller's array of `gouraud_len`, which `jom_textures_upload`'s
        // caller keeps while the textures are used.
        unsafe { core::slice::from_raw_parts(self.gouraud, self.gouraud_len) }
    }

    /// Texture `index` (TEXT) of the model at its full size in VRAM, for a billboard;
    /// `None` past the model's textures.
    pub(crate) fn sprite(&self, index: usize) -> Option<Sprite> {
        let vram = ModelVram {
            textures: self.textures.slots(),
            gouraud: &[],
        };
        vram.sprite(index)
    }

    /// Whether these are the textures of `model` as it is loaded now (not of the model its
    /// `jom_model` held before).
    pub(crate) fn belongs_to(&self, model: &Model<'static>) -> bool {
        self.uploaded_for(model) && core::ptr::eq(self.model_bytes, model.bytes())
    }

    /// Whether these were uploaded for the `jom_model` at `model`, whatever it holds now.
    fn uploaded_for(&self, model: &Model<'static>) -> bool {
        core::ptr::eq(self.model, model)
    }
}

impl State for TexturesState {
    const TAG: u32 = u32::from_be_bytes(*b"JTEX");
}

const _: () = assert!(crate::state::size_of_state::<TexturesState>() <= JOM_TEXTURES_SIZE);

/// A texture's pixels as a file holds them (a jo engine `.BIN` read from CD): what the
/// texture callback gives for a texture the model does not embed.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_texture_source {
    /// Width in pixels: a multiple of 8 from 8 to 504.
    pub width: u16,
    /// Height in pixels: 1 to 255.
    pub height: u16,
    /// 0: RGB555; 1: 16 colours, a lookup table of 16 RGB555 colours first.
    pub format: u16,
    /// Zero.
    pub reserved: u16,
    /// The pixels, big endian; read during the callback's `jom_textures_upload` only.
    pub data: *const u8,
    /// The bytes at `data`.
    pub size: u32,
}

/// Gives the pixels of texture `index` (TEXT name `name`, zero-ended) in `source` and
/// returns `JOM_OK`, or returns an error code, which `jom_textures_upload` returns.
pub type jom_texture_file_fn = Option<
    unsafe extern "C" fn(
        user: *mut c_void,
        index: u32,
        name: *const c_char,
        source: *mut jom_texture_source,
    ) -> jom_result,
>;

/// A TEXT name as a zero-ended string (names are at most 15 characters and a zero).
fn c_name(name: &Name) -> [u8; 17] {
    let mut text = [0u8; 17];
    let bytes = name.as_bytes();
    let length = bytes.len().min(16);
    text[..length].copy_from_slice(&bytes[..length]);
    text
}

/// What the texture callback gave, checked: pixels that the engine then copies to VRAM.
fn from_callback(
    files: jom_texture_file_fn,
    user: *mut c_void,
    index: usize,
    name: &Name,
    failure: &mut jom_result,
) -> Option<TextureSource<'static>> {
    let files = files?;
    let text = c_name(name);
    let mut source = jom_texture_source {
        width: 0,
        height: 0,
        format: 0,
        reserved: 0,
        data: core::ptr::null(),
        size: 0,
    };
    // SAFETY: a C function of the caller's, given valid pointers.
    let code = unsafe { files(user, index as u32, text.as_ptr().cast(), &mut source) };
    if code != JOM_OK {
        *failure = code;
        return None;
    }
    if source.data.is_null() {
        *failure = JOM_ERROR_MISSING_TEXTURE;
        return None;
    }
    // SAFETY: the callback's promise: `size` bytes at `data`, until the upload returns
    // (the engine copies them to VRAM before that).
    let data = unsafe { core::slice::from_raw_parts(source.data, source.size as usize) };
    Some(TextureSource {
        width: source.width,
        height: source.height,
        format: source.format,
        data,
    })
}

/// Uploads the textures of `model` (embedded, or given by `files` for a model whose
/// textures are files) into the texture range of `vram`, once per name, and its gouraud
/// tables (GOUR) into the gouraud range; keeps them in `textures`. `gouraud` is the
/// caller's `uint16_t` per polygon (`gouraud_count` of them, kept while the textures are
/// used); NULL and 0 for a model without GOUR. On an error nothing stays in VRAM.
/// `textures` holding an upload still (not released) is refused with `JOM_ERROR_IN_USE`:
/// writing over it would lose its references, and with them the VRAM it holds.
///
/// # Safety
/// Each pointer is null or valid for its size; `files`, if not null, is a function as
/// `jom_texture_file_fn` says.
#[no_mangle]
pub unsafe extern "C" fn jom_textures_upload(
    vram: *mut jom_vram,
    model: *const jom_model,
    textures: *mut jom_textures,
    gouraud: *mut u16,
    gouraud_count: u32,
    files: jom_texture_file_fn,
    user: *mut c_void,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let cache = unsafe { state::get_mut::<VramState>(vram.cast())? };
        let model = model_of(model)?;
        // Checked before anything goes to VRAM: a state that cannot be written afterwards
        // would leave the upload with no one to release it.
        // SAFETY: the caller's promise.
        match unsafe { state::get::<TexturesState>(textures.cast()) } {
            Ok(_) => return Err(JOM_ERROR_IN_USE),
            Err(JOM_ERROR_HANDLE) => {}
            Err(code) => return Err(code),
        }
        let polygons = model.polygons().len();
        let gouraud: &mut [u16] = if model.gouraud().is_some() {
            // SAFETY: the caller's promise.
            let slice = unsafe { state::slice_mut(gouraud, gouraud_count)? };
            slice
                .get_mut(..polygons)
                .ok_or(JOM_ERROR_BUFFER_TOO_SMALL)?
        } else {
            &mut []
        };
        // In place: the table of a model's textures is kilobytes. Zero is an empty table
        // and null pointers; the state is tagged only once all is in VRAM.
        // SAFETY: the caller's promise.
        unsafe {
            state::init_zeroed::<TexturesState>(textures.cast(), |state| {
                upload(cache, model, gouraud, files, user, state)
            })
        }
    })())
}

/// `jom_textures_upload`'s work, into `state` (zero): on an error nothing stays in VRAM.
fn upload(
    cache: &mut VramState,
    model: &Model<'static>,
    gouraud: &mut [u16],
    files: jom_texture_file_fn,
    user: *mut c_void,
    state: &mut TexturesState,
) -> Result<(), jom_result> {
    let mut failure = JOM_OK;
    let loaded = cache.textures.load_model(
        model,
        &mut cache.target,
        |index, name| from_callback(files, user, index, name, &mut failure),
        &mut state.textures,
    );
    match loaded {
        Ok(()) => {}
        Err(_) if failure != JOM_OK => return Err(failure),
        Err(error) => return Err(error.code()),
    }
    if let Err(error) = cache.gouraud.load_model(model, &mut cache.target, gouraud) {
        cache.textures.release_model(&state.textures);
        return Err(error.code());
    }
    state.model = model;
    state.model_bytes = model.bytes();
    state.gouraud = gouraud.as_mut_ptr();
    state.gouraud_len = gouraud.len();
    Ok(())
}

/// Gives back the VRAM of `textures` (what no other model uses leaves VRAM) and
/// releases the state. `model` is the `jom_model` they were uploaded for; another model
/// may have been loaded into it since: what the upload took is given back, by the names
/// and addresses kept in `textures` and the caller's per-polygon array.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_textures_release(
    vram: *mut jom_vram,
    model: *const jom_model,
    textures: *mut jom_textures,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let cache = unsafe { state::get_mut::<VramState>(vram.cast())? };
        let model = model_of(model)?;
        // SAFETY: the caller's promise.
        let loaded = unsafe { state::get::<TexturesState>(textures.cast())? };
        if !loaded.uploaded_for(model) {
            return Err(JOM_ERROR_ARGUMENT);
        }
        cache.textures.release_model(&loaded.textures);
        // By address, not by the model's GOUR colours: those are the colours of whatever
        // model the `jom_model` holds now, whose tables another upload may hold.
        cache.gouraud.release_addresses(loaded.gouraud());
        // SAFETY: the caller's promise.
        unsafe { state::release::<TexturesState>(textures.cast()) }
    })())
}

/// The number of textures in VRAM (all models together), in `count`.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_vram_texture_count(
    vram: *const jom_vram,
    count: *mut u32,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let cache = unsafe { state::get::<VramState>(vram.cast())? };
        // SAFETY: the caller's promise.
        let count = unsafe { state::plain_mut(count)? };
        *count = cache.textures.len() as u32;
        Ok(())
    })())
}
