//! Where the floor's data goes in VDP2 VRAM (byte offsets) and colour RAM, beside the text
//! layer's (`hw::text`: the last 16 KiB of bank A0, colour RAM from 0x600) and
//! `init_display`'s back screen word (VRAM's last word). Four buffers of each per-frame
//! table: the one on screen, the two frames' entered to show, and one for the CPU to write
//! (`vdp2::floor::FieldFloors`).

use crate::hw::text::{CRAM_OFFSET as TEXT_CRAM, FONT_OFFSET as TEXT_VRAM};

/// The buffers of each per-frame table.
pub const BUFFERS: usize = 4;
/// RBG0's cells (256 colours, 64 bytes each): bank A1 whole.
pub const CELLS: u32 = 0x2_0000;
/// Cells bank A1 holds.
pub const MAX_CELLS: usize = 2048;
/// RBG0's page of 64 x 64 two-word pattern names (16 KiB): the start of bank B0.
pub const PAGE: u32 = 0x4_0000;
/// Bytes of the page.
pub const PAGE_BYTES: u32 = 64 * 64 * 4;
/// The rotation parameter tables: bank A0, below the text layer (the VDP2 takes a
/// table at a multiple of 0x80 bytes whose bit 7 is clear: parameter B would follow).
pub const TABLES: [u32; BUFFERS] = [0x1_B000, 0x1_B100, 0x1_B200, 0x1_B300];
/// The coefficient tables (4 bytes a line): bank B1, which RBG0 reads coefficients from.
pub const COEFFICIENTS: [u32; BUFFERS] = [0x6_0000, 0x6_0400, 0x6_0800, 0x6_0C00];
/// The sky's tables of back screen colours (a word a line): bank A0, below the
/// rotation parameter tables (bank A0 is not RBG0's: the CPU writes it during the
/// display too).
pub const SKY: [u32; BUFFERS] = [0x1_A000, 0x1_A200, 0x1_A400, 0x1_A600];
/// The palette (256 RGB555 colours): colour RAM bytes 0x400 to 0x5FF, RBG0's colour RAM
/// offset 2 (steps of 0x200 bytes in colour RAM modes 0 and 1).
pub const PALETTE: u32 = 0x400;
/// The back screen word of `init_display` (VRAM's last word).
pub const BACK_SCREEN: u32 = 0x7_FFFE;

const _: () = assert!(CELLS + MAX_CELLS as u32 * 64 == 0x4_0000);
const _: () = assert!(PAGE + PAGE_BYTES <= 0x6_0000);
const _: () = assert!(COEFFICIENTS[0] >= 0x6_0000);
const _: () = assert!(COEFFICIENTS[BUFFERS - 1] + 4 * LINES <= BACK_SCREEN);
const _: () = assert!(SKY[BUFFERS - 1] + 2 * LINES <= TABLES[0]);
const _: () = assert!(TABLES[BUFFERS - 1] + 0x80 <= TEXT_VRAM);
const _: () = assert!(PALETTE + 512 <= TEXT_CRAM);
const LINES: u32 = crate::vdp2::floor::LINES as u32;
const _: () = {
    let mut i = 0;
    while i < BUFFERS {
        assert!(TABLES[i].is_multiple_of(0x100));
        if i > 0 {
            assert!(TABLES[i - 1] + 0x80 <= TABLES[i]);
            assert!(COEFFICIENTS[i - 1] + 4 * LINES <= COEFFICIENTS[i]);
            assert!(SKY[i - 1] + 2 * LINES <= SKY[i]);
        }
        // Each buffer differs from the others in the lower address registers alone
        // (`RPTAL`, `BKTAL`, `KAst`), so that one register write changes buffers.
        assert!(TABLES[i] >> 17 == TABLES[0] >> 17 && SKY[i] >> 17 == SKY[0] >> 17);
        assert!(COEFFICIENTS[i] >> 18 == COEFFICIENTS[0] >> 18);
        i += 1;
    }
};
