//! `jom::vdp2::FloorTiles::from_bytes` on any input (a `jomc plane` file's reader), then
//! every view of a file it accepts and its load into VDP2 memory: never a panic, an
//! out-of-bounds read, or a write outside VRAM or colour RAM.
#![no_main]

use jom::vdp2::{FloorTiles, Vdp2Memory};
use libfuzzer_sys::fuzz_target;

struct Bounds;

impl Vdp2Memory for Bounds {
    fn write_vram(&mut self, offset: u32, _: u16) {
        assert!(offset.is_multiple_of(2) && offset < 0x8_0000);
    }

    fn write_cram(&mut self, offset: u32, _: u16) {
        assert!(offset.is_multiple_of(2) && offset < 0x1000);
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(tiles) = FloorTiles::from_bytes(data) {
        for i in 0..=tiles.colors() {
            let _ = tiles.color(i);
        }
        for i in 0..tiles.cells() {
            assert_eq!(tiles.cell(i).len(), 64);
        }
        tiles.load(&mut Bounds);
    }
});
