//! The software VDP1 follows the jump modes of the command table (`CMDCTRL` bits 12-14):
//! skip, assign, call and return, as the renderer's jump at VRAM 0 needs.

use jom::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, Point};
use vdp1_soft::{draw_list, FrameBuffer};

const RED: u16 = 0x8000 | 31;
const GREEN: u16 = 0x8000 | 31 << 5;
const BLUE: u16 = 0x8000 | 31 << 10;

/// A polygon over the whole 8 x 8 frame (or its left half), with jump mode `jump` to `link`.
fn polygon(color: u16, left_half: bool, jump: u16, link: u32) -> CommandTable {
    let right = if left_half { 3 } else { 7 };
    let corners = [
        Point::new(0, 0),
        Point::new(right, 0),
        Point::new(right, 7),
        Point::new(0, 7),
    ];
    let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
    let mut table = CommandTable::polygon(color, corners, mode);
    table.ctrl |= jump << 12;
    table.link = (link / 8) as u16;
    table
}

fn vram_with(tables: &[(u32, CommandTable)]) -> Vec<u8> {
    let mut vram = vec![0; 0x400];
    for (address, table) in tables {
        let at = *address as usize;
        vram[at..at + 32].copy_from_slice(&table.to_be_bytes());
    }
    vram
}

#[test]
fn a_skipped_jump_goes_to_its_link_without_drawing() {
    // At 0: a red polygon that skips itself and jumps to 0x100 (JP 5, the renderer's jump);
    // at 0x20 a red polygon never reached; at 0x100 green, then the end.
    let vram = vram_with(&[
        (0, polygon(RED, false, 5, 0x100)),
        (0x20, polygon(RED, false, 0, 0)),
        (0x100, polygon(GREEN, false, 0, 0)),
        (0x120, CommandTable::end()),
    ]);
    let mut frame = FrameBuffer::new(8, 8);
    assert_eq!(draw_list(&vram, 0, &mut frame), Ok(3));
    assert!(
        frame.pixels.iter().all(|&p| p == GREEN),
        "{:?}",
        frame.pixels
    );
}

#[test]
fn an_assign_jump_draws_its_command_then_jumps() {
    let vram = vram_with(&[
        (0, polygon(BLUE, false, 1, 0x100)),
        (0x20, polygon(RED, false, 0, 0)),
        (0x100, CommandTable::end()),
    ]);
    let mut frame = FrameBuffer::new(8, 8);
    assert_eq!(draw_list(&vram, 0, &mut frame), Ok(2));
    assert!(frame.pixels.iter().all(|&p| p == BLUE));
}

#[test]
fn a_call_returns_to_the_command_after_it() {
    // 0: skip-call 0x200; there green over the frame, then a red that skips itself and
    // returns; back at 0x20, blue over the left half (drawn after the green), the end.
    let vram = vram_with(&[
        (0, polygon(RED, false, 6, 0x200)),
        (0x20, polygon(BLUE, true, 0, 0)),
        (0x40, CommandTable::end()),
        (0x200, polygon(GREEN, false, 0, 0)),
        (0x220, polygon(RED, false, 7, 0)),
    ]);
    let mut frame = FrameBuffer::new(8, 8);
    // The call, green, the return, blue, the end.
    assert_eq!(draw_list(&vram, 0, &mut frame), Ok(5));
    for y in 0..8 {
        for x in 0..8 {
            let expected = if x < 4 { BLUE } else { GREEN };
            assert_eq!(frame.get(x, y), expected, "pixel ({x}, {y})");
        }
    }
}
