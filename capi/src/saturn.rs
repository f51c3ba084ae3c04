//! The Saturn helpers of a C program that has no library of its own for the display, the
//! VBlank, the CD and backup RAM (the example of `examples/c/`, linked with our `rt/`
//! start-up): the engine's `jom::hw`. A Jo Engine, libyaul or SGL program uses its own
//! and leaves these out.

use core::ffi::c_char;
use core::fmt::Write;
use core::mem::MaybeUninit;

use jom::hw::{self, backup_ram::BackupRamText};
use jom::iso9660::{Iso9660, Iso9660Error};

use crate::result::{
    jom_result, to_code, JOM_ERROR_BUFFER_TOO_SMALL, JOM_ERROR_HARDWARE, JOM_ERROR_NOT_FOUND,
    JOM_ERROR_NULL,
};
use crate::state;

/// Masks every interrupt (a program that installs no handler) and sets the display up:
/// 320x224, the VDP1's sprite layer over a back screen of RGB555 `background`.
#[no_mangle]
pub extern "C" fn jom_saturn_init_display(background: u16) -> jom_result {
    hw::mask_interrupts();
    hw::init_display(background);
    0
}

/// Waits for the start of the next VBlank (bounded: `JOM_ERROR_HARDWARE` if it does not
/// come).
#[no_mangle]
pub extern "C" fn jom_saturn_wait_vblank() -> jom_result {
    match hw::wait_vblank() {
        Ok(()) => 0,
        Err(_) => JOM_ERROR_HARDWARE,
    }
}

fn iso_code(error: Iso9660Error) -> jom_result {
    match error {
        Iso9660Error::NotFound => JOM_ERROR_NOT_FOUND,
        Iso9660Error::BufferTooSmall { .. } => JOM_ERROR_BUFFER_TOO_SMALL,
        _ => JOM_ERROR_HARDWARE,
    }
}

/// Reads the file `name` of the CD's root (ISO 9660) into `buffer` (`capacity` bytes) and
/// writes its size to `size`.
///
/// # Safety
/// Each pointer is null or valid (`buffer`: `capacity` writable bytes); no other use of
/// the CD drive is under way.
#[no_mangle]
pub unsafe extern "C" fn jom_cd_load_file(
    name: *const c_char,
    buffer: *mut u8,
    capacity: u32,
    size: *mut u32,
) -> jom_result {
    to_code((|| {
        if buffer.is_null() {
            return Err(JOM_ERROR_NULL);
        }
        // SAFETY: the caller's promise: a zero-ended string (ISO 9660 paths are short).
        let name = unsafe { state::c_str(name, 255)? };
        // SAFETY: the caller's promise.
        let size = unsafe { state::plain_mut(size)? };
        // SAFETY: the caller's promise.
        let buffer = unsafe { core::slice::from_raw_parts_mut(buffer, capacity as usize) };
        // SAFETY: only the CD drive of these parts is used, and only during this call
        // (the caller's promise that nothing else drives it meanwhile).
        let mut saturn = unsafe { hw::Saturn::new() };
        let sectors = saturn.cd.sectors().map_err(|_| JOM_ERROR_HARDWARE)?;
        // In place: each move of the volume copies its 2 KiB sector on the SH-2's stack.
        let mut room = MaybeUninit::uninit();
        let volume = Iso9660::open_in(&mut room, sectors).map_err(iso_code)?;
        let bytes = volume.load_file(name, buffer).map_err(iso_code)?;
        *size = bytes.len() as u32;
        Ok(())
    })())
}

/// Writes `text` to backup RAM after the marker "JOMT", ended by a zero: what the CI's
/// emulator runs read back (`ci/emu/test-report.py`).
///
/// # Safety
/// `text` is null or zero-ended.
#[no_mangle]
pub unsafe extern "C" fn jom_saturn_report(text: *const c_char) -> jom_result {
    // SAFETY: the caller's promise. Backup RAM holds about 16 KiB of text.
    let text = match unsafe { state::c_str(text, 16 * 1024) } {
        Ok(text) => text,
        Err(code) => return code,
    };
    let mut out = BackupRamText::open(b"JOMT");
    let _ = out.write_str(text);
    out.close();
    0
}
