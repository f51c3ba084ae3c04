//! The frames per second in a corner of the screen: 7-segment digits drawn as VDP1
//! polygons (no font, no texture).

use jom::hw::frt;
use jom::render::{DrawError, Frame};
use jom::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, Point, Vdp1};

/// Digit width and height in pixels, and the gap between digits.
const WIDTH: i16 = 6;
const HEIGHT: i16 = 11;
const GAP: i16 = 3;
const COLOR: u16 = 0x8000 | 31 << 5 | 31;

/// The segments lit for each digit: bits a (top), b (top right), c (bottom right),
/// d (bottom), e (bottom left), f (top left), g (middle).
const DIGITS: [u8; 10] = [0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F];

/// The rectangle of segment `segment` (0 = a ... 6 = g) of a digit at (x, y): left, top,
/// right, bottom (inclusive).
fn segment(segment: usize, x: i16, y: i16) -> (i16, i16, i16, i16) {
    let (right, middle, bottom) = (x + WIDTH - 1, y + HEIGHT / 2, y + HEIGHT - 1);
    match segment {
        0 => (x, y, right, y),
        1 => (right, y, right, middle),
        2 => (right, middle, right, bottom),
        3 => (x, bottom, right, bottom),
        4 => (x, middle, x, bottom),
        5 => (x, y, x, middle),
        _ => (x, middle, right, middle),
    }
}

/// Adds `value` (up to 3 digits) to `frame`, over the 3D, at screen position `at` (from the
/// top left corner; the list's origin is the screen's centre).
pub fn push_number<V: Vdp1>(
    frame: &mut Frame<'_, '_, V>,
    value: u32,
    at: (i16, i16),
) -> Result<(), DrawError> {
    let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
    let digits = [value / 100 % 10, value / 10 % 10, value % 10];
    let first = digits.iter().position(|&d| d != 0).unwrap_or(2);
    for (i, &digit) in digits.iter().enumerate().skip(first) {
        let x = at.0 + i as i16 * (WIDTH + GAP) - 160;
        let y = at.1 - 112;
        for s in (0..7).filter(|s| DIGITS[digit as usize] >> s & 1 == 1) {
            let (left, top, right, bottom) = segment(s, x, y);
            let corners = [
                Point::new(left, top),
                Point::new(right, top),
                Point::new(right, bottom),
                Point::new(left, bottom),
            ];
            frame.push_command(CommandTable::polygon(COLOR, corners, mode))?;
        }
    }
    Ok(())
}

/// Frames per second from the time of one frame in timer counts (CPU clock / 32) at
/// `cpu_clock` (Hz: `frt::cpu_clock` of the console's standard).
pub fn frames_per_second(counts: u16, cpu_clock: u32) -> u32 {
    (cpu_clock / frt::Divider::By32.clocks())
        .checked_div(u32::from(counts))
        .unwrap_or(0)
}
