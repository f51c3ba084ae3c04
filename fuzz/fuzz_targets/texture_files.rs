//! The texture file decoders (jo engine .BIN, TGA) on any bytes, into a separate buffer and
//! in place at every placement: a texture or an error, never a panic or a read out of
//! bounds.
#![no_main]

use jom::image::{buffer_bytes, decode, decode_into, ImageFormat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for format in [ImageFormat::JoBin, ImageFormat::Tga] {
        let mut pixels = vec![0u8; 2 * 504 * 255];
        let _ = decode_into(format, data, &mut pixels);
        let needed = buffer_bytes(format, data).unwrap_or(data.len());
        for spare in [0, needed.saturating_sub(data.len()), 3] {
            let mut buffer = vec![0u8; spare + data.len()];
            buffer[spare..].copy_from_slice(data);
            let _ = decode(format, &mut buffer, spare);
        }
    }
});
