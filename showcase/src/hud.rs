//! Numbers in the corners of the screen (frames per second, polygons drawn): 7-segment
//! digits drawn as VDP1 polygons (no font, no texture), pushed as the frame's 2D
//! commands.

use jom::render::DrawError;
use jom::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, Point};

use crate::scene::SCREEN;

/// Digit width and height in pixels, and the gap between digits.
const WIDTH: i16 = 6;
const HEIGHT: i16 = 11;
const GAP: i16 = 3;

/// The width of `digits` digits on screen.
pub const fn width(digits: usize) -> i16 {
    digits as i16 * (WIDTH + GAP) - GAP
}

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

/// Pushes `value` as `digits` digits (leading zeros left out) at screen position `at`
/// (its top left corner, from the screen's top left; the list's origin is the screen's
/// centre), in `color` (RGB555), through `push`.
pub fn number(
    mut push: impl FnMut(CommandTable) -> Result<(), DrawError>,
    value: u32,
    digits: usize,
    at: (i16, i16),
    color: u16,
) -> Result<(), DrawError> {
    let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
    let mut place = 1;
    for _ in 1..digits {
        place *= 10;
    }
    let mut shown = false;
    for i in 0..digits {
        let digit = (value / place % 10) as usize;
        place /= 10;
        shown |= digit != 0 || i + 1 == digits;
        if !shown {
            continue;
        }
        let x = at.0 + i as i16 * (WIDTH + GAP) - SCREEN.pixels() as i16 / 2;
        let y = at.1 - 112;
        for s in (0..7).filter(|s| DIGITS[digit] >> s & 1 == 1) {
            let (left, top, right, bottom) = segment(s, x, y);
            let corners = [
                Point::new(left, top),
                Point::new(right, top),
                Point::new(right, bottom),
                Point::new(left, bottom),
            ];
            push(CommandTable::polygon(color, corners, mode))?;
        }
    }
    Ok(())
}

/// Most digits a [`Number`] shows.
const MAX_DIGITS: usize = 4;

/// A number's commands, kept from frame to frame and made again only when it changes:
/// pushed at once ([`jom::render::Frame::push_commands`]), they cost the frame a copy (made
/// and pushed one by one every frame, the two numbers cost the master some 13,000 cycles,
/// Mednafen).
pub struct Number {
    shows: Option<u32>,
    tables: [CommandTable; 7 * MAX_DIGITS],
    len: usize,
}

impl Number {
    pub const fn new() -> Self {
        Self {
            shows: None,
            tables: [CommandTable::end(); 7 * MAX_DIGITS],
            len: 0,
        }
    }

    /// The commands of `value` as [`number`] draws it (`digits` at most [`MAX_DIGITS`]).
    pub fn tables(
        &mut self,
        value: u32,
        digits: usize,
        at: (i16, i16),
        color: u16,
    ) -> &[CommandTable] {
        if self.shows != Some(value) {
            let (tables, len) = (&mut self.tables, &mut self.len);
            *len = 0;
            let keep = |table| {
                let slot = tables.get_mut(*len).ok_or(DrawError::CommandListFull {
                    capacity: 7 * MAX_DIGITS,
                })?;
                *slot = table;
                *len += 1;
                Ok(())
            };
            let made = number(keep, value, digits.min(MAX_DIGITS), at, color);
            self.shows = made.is_ok().then_some(value);
        }
        &self.tables[..self.len]
    }
}

/// Frames between two updates of a [`Readout`]'s numbers: a number that changes every
/// frame cannot be read, and each change makes its commands again (both numbers made again
/// every frame cost the master 9,500 cycles a frame: `make showcase-bench`, Mednafen, work
/// 496,635 against 487,169).
pub const READOUT_FRAMES: u32 = 16;

/// What the corners show: the frames a second over the last [`READOUT_FRAMES`] frames, and
/// the polygons drawn of one frame in them, each updated once in those frames (half of
/// them apart, so that no frame makes both numbers again).
pub struct Readout {
    rates: crate::clock::Rates,
    frames: u32,
    counts: u32,
    /// Frames a second and polygons drawn, as shown.
    pub fps: u32,
    pub drawn: u32,
}

impl Readout {
    pub const fn new(rates: crate::clock::Rates) -> Self {
        Self {
            rates,
            frames: 0,
            counts: 0,
            fps: 0,
            drawn: 0,
        }
    }

    /// A frame `period` timer counts after the last one, the frame before it having drawn
    /// `drawn` polygons.
    pub fn add(&mut self, period: u32, drawn: usize) {
        self.frames += 1;
        self.counts = self.counts.wrapping_add(period);
        if self.frames == READOUT_FRAMES / 2 {
            self.drawn = drawn as u32;
        }
        if self.frames == READOUT_FRAMES {
            self.fps = self
                .rates
                .per_second(self.counts / self.frames)
                .unwrap_or(self.fps);
            (self.frames, self.counts) = (0, 0);
        }
    }
}
