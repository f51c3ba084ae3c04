//! The text layer's tests: the layout in VRAM and colour RAM, the pattern names, the glyphs'
//! 4-bit pixels, the font's art, the register values, and the layer over a memory of words
//! (clipping at the right edge, the bar, the cursor's wrap and scroll).

use super::font::{self, FONT, GLYPHS};
use super::registers::*;
use super::*;
use crate::{check, check_eq};
use core::fmt::Write;

/// What the fake VRAM holds before anything is written: no pattern name of the layer.
const UNWRITTEN: u16 = 0xA5A5;

/// VDP2 VRAM's part that the layer owns (from [`FONT_OFFSET`] to the end of bank A0), as
/// words; a write anywhere else is counted in `stray`, not kept.
struct FakeVram {
    words: [u16; 0x2000],
    stray: u32,
}

impl FakeVram {
    fn new() -> Self {
        Self {
            words: [UNWRITTEN; 0x2000],
            stray: 0,
        }
    }

    fn index(offset: u32) -> Option<usize> {
        let i = (offset.checked_sub(FONT_OFFSET)? / 2) as usize;
        (offset.is_multiple_of(2) && i < 0x2000).then_some(i)
    }
}

impl TextVram for FakeVram {
    fn read(&self, offset: u32) -> u16 {
        Self::index(offset).map_or(UNWRITTEN, |i| self.words[i])
    }

    fn write(&mut self, offset: u32, word: u16) {
        match Self::index(offset) {
            Some(i) => self.words[i] = word,
            None => self.stray += 1,
        }
    }
}

/// A layer over a fake VRAM with the font loaded: 40 x 28, the grid of a 320 x 224 screen.
fn layer() -> TextLayer<FakeVram> {
    let mut vram = FakeVram::new();
    load(&mut vram);
    TextLayer::new(vram, Grid::of_display(ScreenWidth::W320))
}

/// The characters a row of the grid shows (as text or on a bar), `#` for a word that is
/// no glyph of the font.
fn row_text(layer: &TextLayer<FakeVram>, row: u8) -> heapless::String<64> {
    let mut text = heapless::String::new();
    for column in 0..layer.grid().columns {
        let word = layer.vram().read(cell_offset(column, row));
        // The character number as the VDP2 makes it (`PNCN0`'s bits above the name's 10).
        let character = u32::from(PNCN0 & 0x1F) << 10 | u32::from(word & 0x3FF);
        let glyph = character.wrapping_sub(TEXT_CHARACTERS) % GLYPHS as u32;
        let c = match character.checked_sub(TEXT_CHARACTERS) {
            Some(i) if i < 2 * GLYPHS as u32 => char::from(FIRST + glyph as u8),
            _ => '#',
        };
        let _ = text.push(c);
    }
    text
}

/// A line of `x`s and digits `length` long.
fn line(length: usize) -> heapless::String<64> {
    let mut text = heapless::String::new();
    for i in 0..length {
        let _ = text.push(char::from(b'0' + (i % 10) as u8));
    }
    text
}

/// The colour the VDP2 shows at pixel `x`, `y` of the cell at `column`, `row` (`None`:
/// transparent), made as Mednafen's VDP2 makes it from the name, `PNCN0`, the character's
/// 4-bit dots, `CRAOFA` and colour RAM (here the layer's palettes).
fn shown(layer: &TextLayer<FakeVram>, column: u8, row: u8, x: u32, y: u32) -> Option<u16> {
    let name = layer.vram().read(cell_offset(column, row));
    let character = u32::from(PNCN0 & 0x1F) << 10 | u32::from(name & 0x3FF);
    let word = layer.vram().read(character * 32 + 4 * y + 2 * (x / 4));
    let dot = word >> (((x % 4) ^ 3) * 4) & 0xF;
    if dot == 0 {
        return None;
    }
    let colour = u32::from(CRAOFA) << 8 | u32::from(name >> 12) << 4 | u32::from(dot);
    let mut words = Color::ALL.iter().flat_map(|&color| palette(color));
    words
        .find(|&(offset, _)| offset == 2 * colour)
        .map(|(_, rgb)| rgb)
}

/// A small art in the font's layout: `'a'` (a diagonal) and `'b'` (the left column).
const SMALL_ART: &str = "
'a'      'b'
#....... #.......
.#...... #.......
..#..... #.......
...#.... #.......
....#... #.......
.....#.. #.......
......#. #.......
.......# #.......
";

crate::test_suite! {
    fn cells_are_words_of_the_page_row_after_row() {
        check_eq!(cell_offset(0, 0), 0x1_E000);
        check_eq!(cell_offset(1, 0), 0x1_E002);
        check_eq!(cell_offset(0, 1), 0x1_E080);
        check_eq!(cell_offset(39, 27), 0x1_E000 + 2 * (27 * 64 + 39));
        check_eq!(Grid::of_display(ScreenWidth::W320), Grid { columns: 40, rows: 28 });
        check_eq!(Grid::of_display(ScreenWidth::W352), Grid { columns: 44, rows: 28 });
        check_eq!(Grid::new(ScreenWidth::W320, 240).rows, 30);
        // PAL's 256 lines, 352 pixels: the largest grid still ends inside the page.
        let largest = Grid::new(ScreenWidth::W352, 256);
        check_eq!(largest, Grid { columns: 44, rows: 32 });
        check!(cell_offset(largest.columns - 1, largest.rows - 1) + 2 <= MAP_OFFSET + 0x2000);
    }

    fn pattern_names_hold_the_palette_and_the_character() {
        // 'A' is glyph 33; the characters as text start at 0x1C000 / 32 = 0xE00, whose
        // lower 10 bits are 0x200; on a bar 95 later.
        check_eq!(pattern_name(b'A', Color::White), 0x0200 + 33);
        check_eq!(pattern_name(b'A', Color::Red), 0x3000 | (0x0200 + 33));
        check_eq!(bar_pattern_name(b'A', Color::Green), 0x2000 | (0x0200 + 95 + 33));
        check_eq!(BLANK, 0x0200);
        // Control characters, DEL and bytes past ASCII show as '?'.
        for byte in [0x00, 0x0A, 0x1F, 0x7F, 0xE9] {
            check_eq!(pattern_name(byte, Color::Grey), pattern_name(b'?', Color::Grey));
        }
        // What the VDP2 makes of a name (Mednafen's tile fetch): the character at `PNCN0`'s
        // bits 4-0 over the name's lower 10, times 32 bytes; the colour of dot d at colour
        // RAM colour `CRAOFA` * 256 + palette * 16 + d, 2 bytes a colour.
        for byte in [b' ', b'A', b'~'] {
            for color in Color::ALL {
                let word = pattern_name(byte, color);
                let character = u32::from(PNCN0 & 0x1F) << 10 | u32::from(word & 0x3FF);
                check_eq!(character * 32, FONT_OFFSET + 32 * u32::from(byte - b' '));
                let ink = (u32::from(CRAOFA) << 8 | u32::from(word >> 12) << 4 | 1) * 2;
                check_eq!(ink, palette(color)[0].0);
                check_eq!(word & 0x0C00, 0); // no flip
            }
        }
    }

    fn glyphs_expand_to_4_bit_pixels() {
        let glyph = [0x80, 0x01, 0xFF, 0x00, 0x3C, 0, 0, 0];
        let text = cell_rows(&glyph, 1, 0);
        check_eq!(text[0], 0x1000_0000);
        check_eq!(text[1], 0x0000_0001);
        check_eq!(text[2], 0x1111_1111);
        check_eq!(text[3], 0);
        check_eq!(text[4], 0x0011_1100);
        let on_bar = cell_rows(&glyph, 2, 1);
        check_eq!(on_bar[0], 0x2111_1111);
        check_eq!(on_bar[3], 0x1111_1111);
        // In VRAM: 'A' as text and on a bar, 4 bytes a row, the left pixels' word first.
        let mut vram = FakeVram::new();
        load(&mut vram);
        let text_a = FONT_OFFSET + 32 * 33;
        check_eq!([vram.read(text_a), vram.read(text_a + 2)], [0x0011, 0x0000]); // ..##....
        check_eq!([vram.read(text_a + 8), vram.read(text_a + 10)], [0x1100, 0x1100]); // ##..##..
        let bar_a = FONT_OFFSET + 32 * (95 + 33);
        check_eq!([vram.read(bar_a), vram.read(bar_a + 2)], [0x1122, 0x1111]);
        check_eq!([vram.read(bar_a + 28), vram.read(bar_a + 30)], [0x1111, 0x1111]);
        check_eq!(vram.stray, 0);
    }

    fn cells_show_their_glyphs_as_the_vdp2_reads_them() {
        let mut text = layer();
        text.write_at(3, 4, "Ag", Color::Red);
        text.bar(6, Color::Yellow, "Ag");
        for (i, byte) in [b'A', b'g'].into_iter().enumerate() {
            let glyph = FONT[usize::from(byte - b' ')];
            for y in 0..8 {
                for x in 0..8 {
                    let ink = glyph[y as usize] & (0x80 >> x) != 0;
                    let as_text = shown(&text, 3 + i as u8, 4, x, y);
                    check_eq!(as_text, ink.then_some(Color::Red.rgb()));
                    let on_bar = shown(&text, 1 + i as u8, 6, x, y);
                    check_eq!(on_bar, Some(if ink { 0 } else { Color::Yellow.rgb() }));
                }
            }
        }
        // An empty cell and the bar's own cells.
        check!((0..64).all(|p| shown(&text, 0, 0, p % 8, p / 8).is_none()));
        check!((0..64).all(|p| shown(&text, 0, 6, p % 8, p / 8) == Some(Color::Yellow.rgb())));
    }

    fn the_font_is_its_art() {
        check_eq!(GLYPHS, 95);
        check_eq!(FONT[0], [0; 8]);
        check_eq!(FONT[usize::from(b'A' - b' ')], [0x30, 0x78, 0xCC, 0xCC, 0xFC, 0xCC, 0xCC, 0x00]);
        check_eq!(FONT[usize::from(b'0' - b' ')], [0x78, 0xCC, 0xDC, 0xFC, 0xEC, 0xCC, 0x78, 0x00]);
        check_eq!(FONT[usize::from(b'g' - b' ')], [0x00, 0x00, 0x7C, 0xCC, 0xCC, 0x7C, 0x0C, 0xF8]);
        check_eq!(FONT[usize::from(b'~' - b' ')], [0x00, 0x00, 0x72, 0xDE, 0x8C, 0x00, 0x00, 0x00]);
        // Every glyph but the space has ink, and none touches column 7: characters side by
        // side never join.
        for (i, glyph) in FONT.iter().enumerate() {
            check_eq!(glyph.iter().any(|&row| row != 0), i != 0);
            check!(glyph.iter().all(|&row| row & 1 == 0));
        }
        // The parser on art of its own.
        let small: [[u8; 8]; 2] = font::parse(SMALL_ART, b'a');
        check_eq!(small[0], [0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01]);
        check_eq!(small[1], [0x80; 8]);
    }

    fn the_registers_point_at_the_layout() {
        check_eq!(PNCN0, 0x8003); // one-word names, characters 0xC00-0xFFF
        check_eq!((MPOFN, MPABN0), (0, 0x0F0F)); // map 15: 15 x 8 KiB = 0x1E000
        check_eq!(CRAOFA, 3); // 3 x 0x200 = 0x600
        check_eq!(CYCLE_PATTERNS[0] >> 12, 0x0); // A0, T0: NBG0's pattern name read
        check_eq!(CYCLE_PATTERNS[0] >> 8 & 0xF, 0x4); // A0, T1: NBG0's character read
        // No other time of any bank reads for NBG0 (commands 0 and 4).
        for (i, pattern) in CYCLE_PATTERNS.iter().enumerate() {
            for t in 0..4 {
                let command = pattern >> (12 - 4 * t) & 0xF;
                if i > 0 || t > 1 {
                    check!(command == 0xE || command == 0xF);
                }
            }
        }
        check!(PRINA & 7 > PRISA & 7); // the text in front of the sprite layer
        // RAMCTL: RGB555 kept, RGB888 made RGB555 of 2,048 colours, the other bits kept.
        check_eq!(ramctl(0x0000), 0x0000);
        check_eq!(ramctl(0x1303), 0x1303);
        check_eq!(ramctl(0x2300), 0x1300);
        check_eq!(ramctl(0xB3FF), 0x93FF);
        // The palettes: colour 1 the colour, 2 black, 16 colours (32 bytes) a palette.
        check_eq!(Color::White.rgb(), 0x7FFF);
        check_eq!(palette(Color::White), [(0x602, 0x7FFF), (0x604, 0)]);
        check_eq!(palette(Color::Green), [(0x642, Color::Green.rgb()), (0x644, 0)]);
        check!(palette(Color::Yellow)[1].0 < 0x6A0);
    }

    fn loading_empties_the_page_and_clear_empties_the_grid() {
        let mut vram = FakeVram::new();
        load(&mut vram);
        check_eq!(vram.stray, 0);
        for i in 0..PAGE_COLUMNS * PAGE_COLUMNS {
            check_eq!(vram.read(MAP_OFFSET + 2 * i), BLANK);
        }
        // Every character's word written (none left as the fake's filler, which no
        // character holds: its nibbles 5 and A are no colour of a glyph).
        for offset in (FONT_OFFSET..FONT_OFFSET + 2 * GLYPHS as u32 * 32).step_by(2) {
            check!(vram.read(offset) != UNWRITTEN);
        }
        let mut text = TextLayer::new(vram, Grid::of_display(ScreenWidth::W320));
        text.bar(5, Color::Red, "bar");
        check_eq!(text.write_at(3, 27, "text", Color::Yellow), 4);
        text.move_to(7, 9);
        text.clear();
        check_eq!(text.cursor(), (0, 0));
        for i in 0..PAGE_COLUMNS * PAGE_COLUMNS {
            check_eq!(text.vram().read(MAP_OFFSET + 2 * i), BLANK);
        }
    }

    fn strings_are_cut_at_the_right_edge() {
        let mut text = layer();
        check_eq!(text.write_at(36, 2, "abcdefgh", Color::Yellow), 4);
        let row = row_text(&text, 2);
        check_eq!(&row[36..], "abcd");
        check_eq!(row.trim(), "abcd");
        check_eq!(text.vram().read(cell_offset(39, 2)), pattern_name(b'd', Color::Yellow));
        // The page's cells right of the grid (not shown) stay empty.
        check_eq!(text.vram().read(cell_offset(40, 2)), BLANK);
        check_eq!(text.write_at(40, 3, "x", Color::White), 0);
        check_eq!(text.write_at(0, 28, "x", Color::White), 0);
        check_eq!(text.vram().read(cell_offset(0, 28)), BLANK);
        // A character past ASCII counts as one, shown as '?'.
        check_eq!(text.write_at(0, 0, "é!", Color::White), 2);
        check_eq!(row_text(&text, 0).trim(), "?!");
        check_eq!(text.cursor(), (0, 0));
        check_eq!(text.vram().stray, 0);
    }

    fn the_cursor_wraps_long_lines_and_scrolls_at_the_bottom() {
        let mut text = layer();
        text.set_color(Color::Green);
        check!(write!(text, "{}", line(45)).is_ok());
        check_eq!(row_text(&text, 0).as_str(), line(40).as_str());
        check_eq!(row_text(&text, 1).trim_end(), "01234");
        check_eq!(text.cursor(), (5, 1));
        check_eq!(text.vram().read(cell_offset(0, 1)), pattern_name(b'0', Color::Green));
        // A line exactly as wide as the grid and its new line make one row, not two.
        text.clear();
        check!(writeln!(text, "{}", line(40)).is_ok());
        check!(write!(text, "next").is_ok());
        check_eq!(row_text(&text, 1).trim_end(), "next");
        check_eq!(text.cursor(), (4, 1));
        // 30 lines on 28 rows: the first three scroll away, the last row is empty for the
        // next line, and the cursor waits at its start.
        text.clear();
        for i in 0..30 {
            check!(writeln!(text, "line {i}").is_ok());
        }
        check_eq!(row_text(&text, 0).trim_end(), "line 3");
        check_eq!(row_text(&text, 26).trim_end(), "line 29");
        check_eq!(row_text(&text, 27).trim_end(), "");
        check_eq!(text.cursor(), (0, 27));
        check_eq!(text.vram().read(cell_offset(0, 26)), pattern_name(b'l', Color::Green));
        check_eq!(text.vram().stray, 0);
    }

    fn a_bar_fills_its_row_edge_to_edge() {
        let mut text = layer();
        text.write_at(0, 26, "above", Color::White);
        text.bar(27, Color::Green, "12 passed, 0 failed");
        check_eq!(row_text(&text, 27).as_str(), " 12 passed, 0 failed                    ");
        for column in 0..40 {
            let word = text.vram().read(cell_offset(column, 27));
            check_eq!(word >> 12, Color::Green as u16);
            check!(u32::from(word & 0x3FF) >= (BAR_CHARACTERS & 0x3FF));
        }
        check_eq!(text.vram().read(cell_offset(0, 27)), bar_pattern_name(b' ', Color::Green));
        check_eq!(text.vram().read(cell_offset(1, 27)), bar_pattern_name(b'1', Color::Green));
        check_eq!(text.vram().read(cell_offset(40, 27)), BLANK);
        check_eq!(row_text(&text, 26).trim_end(), "above");
        // A row outside the grid: nothing; a long text: cut at the right edge.
        text.bar(28, Color::Red, "x");
        check_eq!(text.vram().read(cell_offset(0, 28)), BLANK);
        text.bar(0, Color::Red, line(50).as_str());
        check_eq!(&row_text(&text, 0)[1..], &line(39)[..]);
        check_eq!(text.vram().read(cell_offset(40, 0)), BLANK);
        // The bar scrolls with the text.
        text.move_to(0, 27);
        check!(writeln!(text).is_ok());
        check_eq!(row_text(&text, 26).as_str(), " 12 passed, 0 failed                    ");
        check_eq!(text.vram().read(cell_offset(0, 26)), bar_pattern_name(b' ', Color::Green));
        check_eq!(text.vram().stray, 0);
    }
}
