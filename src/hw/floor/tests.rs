//! The floor's VRAM, colour RAM and register values read back as the VDP2 reads them
//! (the addressing of Mednafen's `vdp2_render.cpp`: the table at `RPTA`, the coefficient
//! at `KAst`, the map, the page, the pattern name, the cell, the palette at the colour RAM
//! offset): each pixel RBG0 shows is the picture's texel that the maths puts there. Host
//! only (the memory is a map of every word written).

extern crate std;

use super::registers::*;
use crate::math::{Angle, ONE};
use crate::render::Camera;
use crate::vdp2::floor::{Buffer, Floor, FloorFrame, RotationTable, Sky, TRANSPARENT};
use crate::vdp2::tiles::tests::good;
use crate::vdp2::{FloorTiles, Vdp2Memory};
use core::mem::offset_of;
use std::collections::BTreeMap;

#[derive(Default)]
struct Written {
    vram: BTreeMap<u32, u16>,
    cram: BTreeMap<u32, u16>,
}

impl Vdp2Memory for Written {
    fn write_vram(&mut self, offset: u32, word: u16) {
        assert!(offset.is_multiple_of(2) && offset < 0x8_0000);
        self.vram.insert(offset, word);
    }

    fn write_cram(&mut self, offset: u32, word: u16) {
        assert!(offset.is_multiple_of(2) && offset < 0x1000);
        self.cram.insert(offset, word);
    }
}

impl Written {
    fn word(&self, offset: u32) -> u16 {
        *self
            .vram
            .get(&offset)
            .unwrap_or_else(|| panic!("VRAM {offset:#x} never written"))
    }

    fn long(&self, offset: u32) -> u32 {
        u32::from(self.word(offset)) << 16 | u32::from(self.word(offset + 2))
    }

    /// The bank (A0, A1, B0, B1: 0 to 3) RBG0 uses for `use_` (`RDBS`: 1 coefficients, 2
    /// names, 3 characters) holds `offset`.
    fn in_bank(offset: u32, use_: u16) -> bool {
        let bank = offset >> 17;
        (RAMCTL_BANKS >> (2 * bank)) & 3 == use_
    }

    /// The table the VDP2 reads at `RPTAU`:`rptal(buffer)`.
    fn table(&self, buffer: Buffer) -> RotationTable {
        let at = (u32::from(RPTAU) << 16 | u32::from(rptal(buffer))) * 2;
        let long = |field: usize| self.long(at + field as u32);
        let short = |field: usize| self.word(at + field as u32);
        let mut table = RotationTable::default();
        table.xst = long(offset_of!(RotationTable, xst));
        table.yst = long(offset_of!(RotationTable, yst));
        table.zst = long(offset_of!(RotationTable, zst));
        table.dxst = long(offset_of!(RotationTable, dxst));
        table.dyst = long(offset_of!(RotationTable, dyst));
        table.dx = long(offset_of!(RotationTable, dx));
        table.dy = long(offset_of!(RotationTable, dy));
        table.mx = long(offset_of!(RotationTable, mx));
        table.my = long(offset_of!(RotationTable, my));
        table.kx = long(offset_of!(RotationTable, kx));
        table.ky = long(offset_of!(RotationTable, ky));
        table.kast = long(offset_of!(RotationTable, kast));
        table.dkast = long(offset_of!(RotationTable, dkast));
        table.dkax = long(offset_of!(RotationTable, dkax));
        for i in 0..6 {
            table.matrix[i] = long(offset_of!(RotationTable, matrix) + 4 * i);
        }
        for i in 0..3 {
            table.viewpoint[i] = short(offset_of!(RotationTable, viewpoint) + 2 * i);
            table.center[i] = short(offset_of!(RotationTable, center) + 2 * i);
        }
        table
    }

    /// The colour RBG0 shows at pixel `(h, v)` from `buffer`'s tables, or `None` where it
    /// is transparent.
    fn pixel(&self, buffer: Buffer, h: i32, v: i32) -> Option<u16> {
        let table = self.table(buffer);
        let coefficient_at = table.coefficient_index(KTAOF, v as u32) * 4;
        assert!(Self::in_bank(coefficient_at, 1));
        let [x, y] = table.sample(self.long(coefficient_at), h, v)?;
        let (ix, iy) = ((x >> 10) as u32, (y >> 10) as u32);
        // Plane A to P of the map, each the same map register; two-word names of 1 x 1
        // cells: a page is 16 KiB.
        let plane = ((ix >> 9) & 3) | ((iy >> 9) & 3) << 2;
        let map_register = match plane % 2 {
            0 => MPRA & 0x3F,
            _ => MPRA >> 8,
        };
        let page = ((u32::from(MPOFR) << 6) + u32::from(map_register)) << 14;
        let name_at = page + 4 * (((ix >> 3) & 63) + ((iy >> 3) & 63) * 64);
        assert!(Self::in_bank(name_at, 2));
        let (palette, character) = (self.word(name_at) & 0x7F, self.word(name_at + 2) & 0x7FFF);
        assert_eq!(PNCR & 0x8000, 0);
        assert_eq!(CHCTLB, 1 << 12);
        let byte_at = u32::from(character) * 32 + (iy & 7) * 8 + (ix & 7);
        assert!(Self::in_bank(byte_at, 3));
        let word = self.word(byte_at & !1);
        let index = if byte_at % 2 == 0 {
            word >> 8
        } else {
            word & 0xFF
        };
        let color =
            (u32::from(CRAOFB) << 8) + ((u32::from(palette) << 4) & !0xFF) + u32::from(index);
        Some(
            *self
                .cram
                .get(&(2 * color))
                .expect("colour RAM never written"),
        )
    }
}

#[test]
fn rbg0_shows_the_picture_where_the_maths_puts_it() {
    let file = good();
    let tiles = FloorTiles::from_bytes(&file).unwrap();
    let mut memory = Written::default();
    tiles.load(&mut memory);
    let sky = Sky {
        zenith: 0x7C00,
        horizon: 0x7FFF,
    };
    let floor = Floor::new(0, ONE / 4, sky).unwrap();
    let camera = Camera {
        position: [100 * ONE + 1234, -3 * ONE, -50 * ONE],
        rotation: [Angle::from_degrees(-25), Angle::from_degrees(33), Angle(0)],
        ..Camera::default()
    };
    let mut checked = 0;
    for buffer in (0..crate::vdp2::layout::BUFFERS).map(Buffer) {
        let mut frame = FloorFrame::default();
        floor.frame_into(&camera, buffer, &mut frame).unwrap();
        frame.write(buffer, &mut memory);
        for v in (0..224).step_by(3) {
            // The back screen's colour of the line, from its table.
            let sky_at = (u32::from(BKTAU & 7) << 16 | u32::from(bktal(buffer))) * 2;
            assert_eq!(memory.word(sky_at + 2 * v as u32), frame.sky[v as usize]);
            for h in (0..320).step_by(5) {
                let shown = memory.pixel(buffer, h, v);
                // The stand-in's colour: the texel where RBG0 shows, else the sky.
                let sky = frame.sky[v as usize];
                let on_floor = frame.coefficients[v as usize] & TRANSPARENT == 0;
                assert_eq!(shown.is_some(), on_floor, "pixel ({h}, {v})");
                let expected = frame.color(&tiles, h, v as usize);
                assert_eq!(shown.unwrap_or(sky), expected, "pixel ({h}, {v})");
                checked += usize::from(shown.is_some());
            }
        }
    }
    assert!(checked > 6000, "{checked} pixels on the floor");
    // Both colours of the picture's cells show (the test does not read one cell only).
    assert_eq!(BGON_FLOOR & 0x1010, 0x1010);
}
