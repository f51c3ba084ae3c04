//! `psx_formats::tim::read` on any input, then loading it into the frame buffer and
//! sampling texels through every kind of texture page: never a panic or an out-of-bounds
//! read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use psx_formats::tim;
use psx_formats::vram::{ClutPosition, FrameBuffer, TexturePage};

fuzz_target!(|data: &[u8]| {
    if let Ok(image) = tim::read(data) {
        let mut vram = FrameBuffer::new();
        vram.load(&image);
        let clut = image
            .clut
            .as_ref()
            .map_or(ClutPosition { x: 0, y: 0 }, |c| ClutPosition {
                x: c.x,
                y: c.y,
            });
        for depth_bits in 0..4u16 {
            let tsb = (image.image.x / 64) | (image.image.y / 256) << 4 | depth_bits << 7;
            let page = TexturePage::from_tsb(tsb);
            for (u, v) in [(0, 0), (255, 255), (17, 3)] {
                let _ = vram.texel(page, clut, u, v);
            }
        }
    }
});
