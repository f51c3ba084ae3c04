//! A text layer for debug output: VDP2's normal scroll screen NBG0 as a grid of 8 x 8
//! characters in front of the VDP1 sprite layer, with jom's own font ([`font`]).
//!
//! `TextLayer::init` (SH-2 builds, after `hw::init_display`) loads the font and the
//! palettes and sets NBG0 up; then [`TextLayer::write_at`] puts a string at a column and
//! row in a [`Color`], [`TextLayer::bar`] fills a row with a colour (and text in black on
//! it), [`TextLayer::clear`] empties the grid, the layer is a [`core::fmt::Write`] cursor
//! (`writeln!`: a line longer than the grid wraps, a new line at the bottom scrolls the
//! grid up), and `TextLayer::set_visible` turns it off and on. An example: the guide's
//! "Text on the screen" (`docs/guide.md`).
//!
//! The grid is the screen's: 40 columns at 320 pixels, 44 at 352 ([`Grid::new`]), 28 rows
//! (the 224 lines [`DISPLAY_LINES`] the display shows in both standards: a PAL console
//! shows 224 lines too until the engine sets PAL's 256-line mode, when a [`Grid`] of 256
//! lines has 32 rows).
//!
//! # What it owns
//!
//! - **VDP2 VRAM** `0x1C000..0x20000`, the last 16 KiB of bank A0: the characters at
//!   [`FONT_OFFSET`] (each glyph twice, 32 bytes a character of 16 colours: as text,
//!   ink on transparent, and as on a bar, black on the bar's colour; 6,080 bytes), NBG0's
//!   one page of 64 x 64 one-word pattern names at [`MAP_OFFSET`] (8 KiB; the grid is its
//!   top left corner). The back screen (`init_display`: VRAM's last word, bank B1) is
//!   elsewhere.
//! - **Colour RAM** bytes `0x600..0x6A0` ([`CRAM_OFFSET`]): a palette of 16 colours for
//!   each [`Color`] (colour 1 the colour, 2 black), NBG0's colour RAM offset pointing at
//!   them; in colour RAM modes 0 and 1 alike (RGB555; a mode-2 RAM is set to mode 1).
//!   The VDP1's palette sprites read from colour RAM's start (their offset stays 0), far
//!   below.
//! - **The registers of NBG0**, written whole where NBG0 shares them (most VDP2 registers
//!   are write-only: a game showing its own backgrounds sets them after
//!   `TextLayer::init`): `BGON`'s NBG0 bit (`vdp2::show_layers`), the cycle patterns of every VRAM
//!   bank (bank A0's T0 and T1 for NBG0's pattern names and characters, CPU access
//!   elsewhere), `RAMCTL`'s colour RAM mode (read, kept when RGB555), `MZCTL`, `CHCTLA`,
//!   `PNCN0`, `PLSZ`, `MPOFN`, `MPABN0`, `MPCDN0`, NBG0's scroll and zoom, `ZMCTL`,
//!   `SCRCTL`, `WCTLA`, `CRAOFA`, `SFPRMD`, `CCCTL`, `CLOFEN` (no mosaic, window, colour
//!   calculation or offset), `PRINA` (NBG0 at priority 7) and `PRISA`: the sprite layer
//!   goes from priority 7 (`init_display`) to 6, below the text, as at equal priorities
//!   the sprite layer is in front (the manual orders ties by its table 11.1; Mednafen's
//!   VDP2 mixes a tie as NBG3 < NBG2 < NBG1 < NBG0 < RBG0 < sprite).
//!
//! The logic (cell addresses, pattern names, glyphs to 4-bit pixels, clipping, scrolling)
//! is plain Rust over a [`TextVram`], tested on the host; only `TextLayer::init`,
//! `TextLayer::set_visible` and the Saturn's `Vdp2Vram` touch the hardware.

pub mod font;

use crate::hw::vdp2::{ScreenWidth, DISPLAY_LINES};
use core::fmt;
use font::{FIRST, FONT, GLYPHS};

/// Where the characters start, a byte offset in VDP2 VRAM: bank A0's last 16 KiB.
pub const FONT_OFFSET: u32 = 0x1_C000;
/// Where NBG0's page of pattern names starts, a byte offset in VDP2 VRAM: 64 x 64 names
/// of one word (8 KiB) to the end of bank A0.
pub const MAP_OFFSET: u32 = 0x1_E000;
/// Names in a row of the page (and rows in the page).
pub const PAGE_COLUMNS: u32 = 64;
/// Where the palettes start, a byte offset in colour RAM: colour 0x300 of the RGB555
/// modes, NBG0's colour RAM offset 3 (`CRAOFA`, steps of 0x200 bytes).
pub const CRAM_OFFSET: u32 = 0x600;

/// A character of 8 x 8 pixels of 4 bits.
const CHARACTER_BYTES: u32 = 32;
/// The character number of the first glyph as text (VRAM byte offset / 32, as the VDP2
/// takes a pattern name's character number: Mednafen's `cg_addr`).
const TEXT_CHARACTERS: u32 = FONT_OFFSET / CHARACTER_BYTES;
/// The character number of the first glyph on a bar.
const BAR_CHARACTERS: u32 = TEXT_CHARACTERS + GLYPHS as u32;
/// Bytes of a page of one-word names.
const PAGE_BYTES: u32 = 2 * PAGE_COLUMNS * PAGE_COLUMNS;

// The characters end before the page, the page ends with bank A0 and is where a map
// register can point (a multiple of its 8 KiB), and every character shares the upper
// bits that `PNCN0` supplies (a one-word name holds the lower 10).
const _: () = assert!(FONT_OFFSET + 2 * GLYPHS as u32 * CHARACTER_BYTES <= MAP_OFFSET);
const _: () = assert!(MAP_OFFSET + PAGE_BYTES == 0x2_0000);
const _: () = assert!(MAP_OFFSET.is_multiple_of(PAGE_BYTES));
const _: () = assert!(TEXT_CHARACTERS >> 10 == (BAR_CHARACTERS + GLYPHS as u32 - 1) >> 10);

/// A palette's colour for text, and for a bar's background.
const INK: u8 = 1;
/// A palette's black: text on a bar.
const BAR_INK: u8 = 2;
/// Colour 0 of a 16-colour cell: transparent.
const TRANSPARENT: u8 = 0;
/// Black, RGB555.
const BLACK: u16 = 0;

/// A colour of text or of a bar: each is a palette (its number in the pattern names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Color {
    /// White.
    White,
    /// Light grey.
    Grey,
    /// Green (a passed test).
    Green,
    /// Red (a failed one).
    Red,
    /// Yellow.
    Yellow,
}

impl Color {
    /// Every colour, in palette order.
    pub const ALL: [Color; 5] = [
        Color::White,
        Color::Grey,
        Color::Green,
        Color::Red,
        Color::Yellow,
    ];

    /// The colour as RGB555 (red in bits 4-0, green 9-5, blue 14-10), as colour RAM holds
    /// it in modes 0 and 1.
    pub const fn rgb(self) -> u16 {
        let (r, g, b) = match self {
            Color::White => (31, 31, 31),
            Color::Grey => (20, 20, 20),
            Color::Green => (6, 27, 6),
            Color::Red => (31, 7, 5),
            Color::Yellow => (31, 28, 4),
        };
        r | g << 5 | b << 10
    }

    /// The palette number (0 to 15 of the colour RAM offset's 256 colours).
    const fn palette(self) -> u16 {
        self as u16
    }
}

/// The grid of characters the screen shows, from NBG0's top left cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Characters in a row.
    pub columns: u8,
    /// Rows.
    pub rows: u8,
}

impl Grid {
    /// The grid of a screen `width` wide and `lines` high: 8 x 8 pixels a character (40
    /// columns at 320 pixels, 44 at 352; 28 rows at 224 lines, 30 at 240, 32 at 256).
    pub const fn new(width: ScreenWidth, lines: u16) -> Self {
        Self {
            columns: (width.pixels() / 8) as u8,
            rows: (lines / 8) as u8,
        }
    }

    /// The grid of the display the engine sets (`init_display_at`): [`DISPLAY_LINES`].
    pub const fn of_display(width: ScreenWidth) -> Self {
        Self::new(width, DISPLAY_LINES)
    }
}

/// VDP2 VRAM as the text layer uses it: 16-bit words at byte offsets from VRAM's start.
/// The Saturn's (`Vdp2Vram`, SH-2 builds) reads and writes the hardware; a test's holds
/// an array.
pub trait TextVram {
    /// The word at `offset` (even).
    fn read(&self, offset: u32) -> u16;
    /// Writes `word` at `offset` (even).
    fn write(&mut self, offset: u32, word: u16);
}

/// Where the pattern name of the cell at `column`, `row` is: the page is row after row of
/// [`PAGE_COLUMNS`] words.
pub const fn cell_offset(column: u8, row: u8) -> u32 {
    MAP_OFFSET + 2 * (row as u32 * PAGE_COLUMNS + column as u32)
}

/// The glyph of `byte`: its own for ASCII 0x20 to 0x7E, `?`'s for any other.
const fn glyph(byte: u8) -> u32 {
    match byte {
        FIRST..=0x7E => (byte - FIRST) as u32,
        _ => (b'?' - FIRST) as u32,
    }
}

/// A one-word pattern name (16-colour 1 x 1 cells, `PNCN0`'s character number mode 0):
/// the palette in bits 15-12, no flip (bits 11, 10), the character number's lower 10 bits
/// (the VDP2 User's Manual, figure 4.10 (1); Mednafen's `TILEFETCHER_FETCH_BODY`).
const fn name(character: u32, color: Color) -> u16 {
    color.palette() << 12 | (character & 0x3FF) as u16
}

/// The pattern name that shows `byte` as text in `color` (ink on transparent).
pub const fn pattern_name(byte: u8, color: Color) -> u16 {
    name(TEXT_CHARACTERS + glyph(byte), color)
}

/// The pattern name that shows `byte` in black on a bar of `color`.
const fn bar_pattern_name(byte: u8, color: Color) -> u16 {
    name(BAR_CHARACTERS + glyph(byte), color)
}

/// An empty cell: a space as text (every pixel transparent).
pub const BLANK: u16 = pattern_name(b' ', Color::White);

/// A glyph's rows as 4-bit pixels, as the VDP2 reads a 16-colour cell: a row is 4 bytes,
/// its left pixel in the first byte's high nibble (Mednafen's `MAKE_NBGRBG_PIX`: pixel x
/// of a row at bits `(x & 3 ^ 3) * 4` of word `x / 4`); `ink` where the glyph's bit is set
/// (bit 7 the left pixel), `paper` elsewhere.
pub const fn cell_rows(glyph: &[u8; 8], ink: u8, paper: u8) -> [u32; 8] {
    let mut rows = [0u32; 8];
    let mut y = 0;
    while y < 8 {
        let mut x = 0;
        while x < 8 {
            let pixel = if glyph[y] & (0x80 >> x) != 0 {
                ink
            } else {
                paper
            };
            rows[y] |= ((pixel & 0xF) as u32) << (28 - 4 * x);
            x += 1;
        }
        y += 1;
    }
    rows
}

/// Writes character `character` (a character number) of `rows` to `vram`.
fn write_character(vram: &mut impl TextVram, character: u32, rows: &[u32; 8]) {
    let at = character * CHARACTER_BYTES;
    for (y, row) in rows.iter().enumerate() {
        let row_at = at + 4 * y as u32;
        vram.write(row_at, (row >> 16) as u16);
        vram.write(row_at + 2, *row as u16);
    }
}

/// Writes the font to `vram` (every glyph as text and on a bar) and empties the whole page.
#[cfg_attr(not(any(jom_sh2, test, feature = "selftest")), allow(dead_code))]
pub(crate) fn load(vram: &mut impl TextVram) {
    for (i, glyph) in FONT.iter().enumerate() {
        let text = cell_rows(glyph, INK, TRANSPARENT);
        write_character(vram, TEXT_CHARACTERS + i as u32, &text);
        let bar = cell_rows(glyph, BAR_INK, INK);
        write_character(vram, BAR_CHARACTERS + i as u32, &bar);
    }
    for i in 0..PAGE_COLUMNS * PAGE_COLUMNS {
        vram.write(MAP_OFFSET + 2 * i, BLANK);
    }
}

/// The colour RAM words of `color`'s palette: (byte offset, RGB555) of its colour and of
/// black. The other 13 colours of the palette are never shown.
pub const fn palette(color: Color) -> [(u32, u16); 2] {
    let at = CRAM_OFFSET + 32 * color.palette() as u32;
    [
        (at + 2 * INK as u32, color.rgb()),
        (at + 2 * BAR_INK as u32, BLACK),
    ]
}

/// The text layer: a grid of characters on NBG0 and a cursor (see the module's
/// documentation). Made by `TextLayer::init` in SH-2 builds.
pub struct TextLayer<M: TextVram> {
    vram: M,
    grid: Grid,
    column: u8,
    row: u8,
    color: Color,
}

impl<M: TextVram> TextLayer<M> {
    /// A layer over `vram`, which holds the font and an empty page ([`load`]): the cursor
    /// at the top left, writing in white.
    #[cfg_attr(not(any(jom_sh2, test, feature = "selftest")), allow(dead_code))]
    pub(crate) fn new(vram: M, grid: Grid) -> Self {
        Self {
            vram,
            grid,
            column: 0,
            row: 0,
            color: Color::White,
        }
    }

    /// The grid.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The memory the layer writes (for the tests).
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn vram(&self) -> &M {
        &self.vram
    }

    /// Empties every cell of the grid and puts the cursor at the top left.
    pub fn clear(&mut self) {
        for row in 0..self.grid.rows {
            self.clear_row(row);
        }
        self.column = 0;
        self.row = 0;
    }

    /// Shows `text` from `column`, `row` in `color`, cut at the grid's right edge (nothing
    /// on a row outside the grid); gives how many characters were shown. A character
    /// other than ASCII 0x20 to 0x7E shows as `?`. The cursor stays where it was.
    pub fn write_at(&mut self, column: u8, row: u8, text: &str, color: Color) -> usize {
        self.put(column, row, text, |byte| pattern_name(byte, color))
    }

    /// Fills `row` with `color` from edge to edge, `text` in black on it from column 1
    /// (cut at the right edge): a total at a glance (green when every test passed, red
    /// otherwise). Nothing for a row outside the grid.
    pub fn bar(&mut self, row: u8, color: Color, text: &str) {
        if row >= self.grid.rows {
            return;
        }
        let background = bar_pattern_name(b' ', color);
        for column in 0..self.grid.columns {
            self.vram.write(cell_offset(column, row), background);
        }
        self.put(1, row, text, |byte| bar_pattern_name(byte, color));
    }

    /// Moves the cursor (kept inside the grid).
    pub fn move_to(&mut self, column: u8, row: u8) {
        self.column = column.min(self.grid.columns);
        self.row = row.min(self.grid.rows.saturating_sub(1));
    }

    /// The cursor: column, row.
    pub fn cursor(&self) -> (u8, u8) {
        (self.column, self.row)
    }

    /// The colour the cursor writes in from now on.
    pub fn set_color(&mut self, color: Color) {
        self.color = color;
    }

    /// Shows each character of `text` as `name_of` names it, from `column`, `row`, cut at
    /// the right edge.
    fn put(&mut self, column: u8, row: u8, text: &str, name_of: impl Fn(u8) -> u16) -> usize {
        if row >= self.grid.rows {
            return 0;
        }
        let room = usize::from(self.grid.columns.saturating_sub(column));
        let mut shown = 0;
        for (i, c) in text.chars().take(room).enumerate() {
            let byte = u8::try_from(c).unwrap_or(0);
            self.vram
                .write(cell_offset(column + i as u8, row), name_of(byte));
            shown += 1;
        }
        shown
    }

    fn clear_row(&mut self, row: u8) {
        for column in 0..self.grid.columns {
            self.vram.write(cell_offset(column, row), BLANK);
        }
    }

    /// The cursor to the next row's start: the grid scrolls up a row when the cursor is on
    /// the last.
    fn new_line(&mut self) {
        self.column = 0;
        if self.row + 1 < self.grid.rows {
            self.row += 1;
        } else {
            self.scroll();
        }
    }

    /// Moves every row of the grid up one (the first is lost) and empties the last.
    fn scroll(&mut self) {
        let rows = self.grid.rows;
        for row in 1..rows {
            for column in 0..self.grid.columns {
                let word = self.vram.read(cell_offset(column, row));
                self.vram.write(cell_offset(column, row - 1), word);
            }
        }
        if rows > 0 {
            self.clear_row(rows - 1);
        }
    }
}

/// The cursor: each character at the cursor in its colour ([`TextLayer::set_color`]); `\n`
/// goes to the next row's start; a character past the right edge wraps to the next row;
/// a new row past the bottom scrolls the grid up.
impl<M: TextVram> fmt::Write for TextLayer<M> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        if self.grid.rows == 0 || self.grid.columns == 0 {
            return Ok(());
        }
        for c in text.chars() {
            if c == '\n' {
                self.new_line();
                continue;
            }
            if self.column >= self.grid.columns {
                self.new_line();
            }
            let byte = u8::try_from(c).unwrap_or(0);
            let word = pattern_name(byte, self.color);
            self.vram.write(cell_offset(self.column, self.row), word);
            self.column += 1;
        }
        Ok(())
    }
}

/// The register values `TextLayer::init` writes (SH-2 builds), as plain constants that
/// the host tests check.
#[cfg_attr(not(jom_sh2), allow(dead_code))]
mod registers {
    use super::{Color, CRAM_OFFSET, MAP_OFFSET, PAGE_BYTES, TEXT_CHARACTERS};

    /// `BGON`'s bit of NBG0 (bit 0), shown and hidden through `vdp2::show_layers`, the
    /// other backgrounds' bits (the floor's RBG0) as they were; NBG0's dot 0 transparent
    /// (`N0TPON`, bit 8, clear).
    pub const BGON_SHOWN: u16 = 1 << 0;
    /// `CHCTLA`: NBG0 in cells (`N0BMEN`, bit 1, clear) of 1 x 1 (`N0CHSZ`, bit 0) and 16
    /// colours (`N0CHCN`, bits 6-4, 0); NBG1's bits 0 too.
    pub const CHCTLA: u16 = 0;
    /// `PNCN0`: one-word pattern names (`N0PNB`, bit 15), character number mode 0 (10 bits
    /// and the flips: `N0CNSM`, bit 14, clear), the character numbers' bits 14-10 in bits
    /// 4-0 (`N0SCN`), palette bits 6-4 (`N0SPLT`, bits 7-5) and the special priority and
    /// colour calculation bits 0.
    pub const PNCN0: u16 = 1 << 15 | (TEXT_CHARACTERS >> 10) as u16;
    /// The page's map number: VRAM offset / 8 KiB for one-word names of 1 x 1 cells in
    /// planes of one page (Mednafen's `adj_map_regs`: the number shifted by 13 - 1 words).
    const MAP: u16 = (MAP_OFFSET / PAGE_BYTES) as u16;
    /// `MPOFN`: the map number's bits 8-6 for NBG0 (bits 2-0), 0 for the others.
    pub const MPOFN: u16 = MAP >> 6;
    /// `MPABN0` and `MPCDN0`: planes A and B (C and D) of NBG0 all the page (bits 5-0 and
    /// 13-8), so that whatever NBG0 shows is the page.
    pub const MPABN0: u16 = (MAP & 0x3F) << 8 | (MAP & 0x3F);
    /// `PLSZ`: NBG0's plane one page (bits 1-0), the others' too.
    pub const PLSZ: u16 = 0;
    /// `ZMXIN0` and `ZMYIN0`: a coordinate increment of 1.0 (the integer part, bits 2-0; the
    /// registers are 0 after a reset, which would show one column and row of the page).
    pub const ZOOM_ONE: u16 = 1;
    /// `CRAOFA`: NBG0's colour RAM address offset (bits 2-0), in steps of 0x200 bytes in
    /// colour RAM modes 0 and 1; the other backgrounds' 0.
    pub const CRAOFA: u16 = (CRAM_OFFSET / 0x200) as u16;
    /// `PRINA`: NBG0 at priority 7 (bits 2-0), NBG1 0 (not shown).
    pub const PRINA: u16 = 7;
    /// `PRISA`: sprite priority register 0 (the VDP1 layer's RGB pixels, and palette
    /// pixels whose priority bits are 0) at 6 (bits 2-0), register 1 at 0, as
    /// `init_display` leaves it.
    pub const PRISA: u16 = 6;
    /// The cycle patterns (`CYCA0L` to `CYCB1U`): in bank A0 NBG0's pattern name read at T0
    /// (access command 0) and character read at T1 (command 4: a character read may
    /// follow its name read at T0 to T2 in normal resolution, the manual's table 3.4),
    /// no access (F) at T2 and CPU access (E) from T3 to T7; bank A1 the same but for
    /// NBG0's reads (used if bank A is split in two, when CPU access needs a free time
    /// before it in both halves, the manual's 3.3); banks B0 and B1 CPU access throughout.
    /// A reset leaves every pattern 0, NBG0's name read in every time of every bank.
    pub const CYCLE_PATTERNS: [u16; 8] = [
        0x04FE, 0xEEEE, // A0
        0xFFFE, 0xEEEE, // A1
        0xEEEE, 0xEEEE, // B0
        0xEEEE, 0xEEEE, // B1
    ];

    /// `RAMCTL`'s colour RAM mode bits (13-12).
    const CRMD: u16 = 0x3000;
    /// Colour RAM mode 1: RGB555, 2,048 colours.
    const CRMD_RGB555_2048: u16 = 0x1000;

    /// `RAMCTL` for the text layer from the value found (Yabause reads it as 0, so there the
    /// layer leaves 0: mode 0, banks whole): colour RAM mode 0 or 1 (RGB555,
    /// colour n the word at byte 2n, where [`super::palette`] writes) kept, mode 2 or 3
    /// (RGB888, 4 bytes a colour) changed to 1; the rest (the VRAM banks' split, the
    /// rotation screens' banks, the coefficient table) kept.
    pub const fn ramctl(found: u16) -> u16 {
        match found & CRMD {
            0x0000 | CRMD_RGB555_2048 => found,
            _ => found & !CRMD | CRMD_RGB555_2048,
        }
    }

    const _: () = assert!(Color::ALL.len() <= 16);
}

/// What the floor (`hw::floor`) shares of the text layer's settings: the VRAM cycle
/// patterns and the colour RAM mode.
#[cfg_attr(not(jom_sh2), allow(unused_imports))]
pub(crate) use registers::{ramctl, CYCLE_PATTERNS};

#[cfg(jom_sh2)]
pub use saturn::Vdp2Vram;

#[cfg(jom_sh2)]
mod saturn {
    use super::registers::*;
    use super::{load, palette, Color, Grid, TextLayer, TextVram};
    use crate::hw::address;
    use crate::hw::vdp2::{show_layers, vdp2, ScreenWidth};
    use core::ptr::{read_volatile, write_volatile};

    /// VDP2 VRAM, read and written by the CPU (16-bit accesses). Made only by
    /// `TextLayer::init`.
    pub struct Vdp2Vram {
        _private: (),
    }

    impl TextVram for Vdp2Vram {
        fn read(&self, offset: u32) -> u16 {
            // SAFETY: inside VDP2 VRAM (every offset the layer makes is in bank A0).
            unsafe { read_volatile((address::VDP2_VRAM + offset as usize) as *const u16) }
        }

        fn write(&mut self, offset: u32, word: u16) {
            // SAFETY: as in `read`; the text layer's part of VRAM, which it owns.
            unsafe { write_volatile((address::VDP2_VRAM + offset as usize) as *mut u16, word) }
        }
    }

    impl TextLayer<Vdp2Vram> {
        /// Sets the text layer up on a display `width` wide (`hw::init_display_at`'s, which
        /// comes first: it turns every background off): the font into VRAM, the palettes
        /// into colour RAM, the registers listed in the module's documentation; the grid
        /// empty and shown, the cursor at the top left in white.
        pub fn init(width: ScreenWidth) -> Self {
            let vdp2 = vdp2();
            let mut vram = Vdp2Vram { _private: () };
            // SAFETY (the writes below): documented register values; VRAM and colour RAM
            // offsets inside the text layer's part, which it owns.
            show_layers(BGON_SHOWN, false);
            unsafe {
                vdp2.ramctl.write(ramctl(vdp2.ramctl.read()));
            }
            load(&mut vram);
            for color in Color::ALL {
                for (offset, rgb) in palette(color) {
                    let at = address::VDP2_CRAM + offset as usize;
                    // SAFETY: inside colour RAM (16-bit writes, as it takes them).
                    unsafe { write_volatile(at as *mut u16, rgb) };
                }
            }
            // SAFETY: as above.
            unsafe {
                for (register, pattern) in vdp2.cyc.iter().zip(CYCLE_PATTERNS) {
                    register.write(pattern);
                }
                vdp2.mzctl.write(0);
                vdp2.chctla.write(CHCTLA);
                vdp2.pncn0.write(PNCN0);
                vdp2.plsz.write(PLSZ);
                vdp2.mpofn.write(MPOFN);
                vdp2.mpabn0.write(MPABN0);
                vdp2.mpcdn0.write(MPABN0);
                vdp2.scxin0.write(0);
                vdp2.scxdn0.write(0);
                vdp2.scyin0.write(0);
                vdp2.scydn0.write(0);
                vdp2.zmxin0.write(ZOOM_ONE);
                vdp2.zmxdn0.write(0);
                vdp2.zmyin0.write(ZOOM_ONE);
                vdp2.zmydn0.write(0);
                vdp2.zmctl.write(0);
                vdp2.scrctl.write(0);
                vdp2.wctla.write(0);
                vdp2.craofa.write(CRAOFA);
                vdp2.sfprmd.write(0);
                vdp2.ccctl.write(0);
                vdp2.clofen.write(0);
                vdp2.prina.write(PRINA);
                vdp2.prisa.write(PRISA);
            }
            show_layers(BGON_SHOWN, true);
            TextLayer::new(vram, Grid::of_display(width))
        }

        /// Shows the layer or hides it (`BGON`'s NBG0 bit; the other backgrounds stay as
        /// they are). What it holds stays.
        pub fn set_visible(&mut self, visible: bool) {
            show_layers(BGON_SHOWN, visible);
        }
    }
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
