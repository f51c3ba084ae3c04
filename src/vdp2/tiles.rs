//! The floor's picture as `jomc plane` writes it (`docs/vdp2.md`): 256-colour cells of
//! 8 x 8 pixels, the map of the picture in cells, and the palette, read in place by
//! [`FloorTiles::from_bytes`] with one [`TilesError`] (the byte offset and what was
//! expected) for a bad file. Big endian throughout:
//!
//! | offset | bytes | what |
//! |---|---|---|
//! | 0 | 4 | `JFLR` |
//! | 4 | 2 | version, 1 |
//! | 6 | 2 | width in cells: 1, 2, 4, 8, 16, 32 or 64 |
//! | 8 | 2 | height in cells, the same |
//! | 10 | 2 | colours, 1 to 256 |
//! | 12 | 2 | cells, 1 to 2,048 |
//! | 14 | 2 | 0 |
//! | 16 | 2 x colours | the palette, RGB555 (bit 15 clear) |
//! | | 2 x width x height | the map: each cell of the picture's index, row by row |
//! | | 64 x cells | the cells: 8 rows of 8 colour indexes |
//!
//! The picture repeats across RBG0's page of 64 x 64 cells (so its sides divide 64 cells:
//! powers of two), and the page across the plane: the floor is endless.

use crate::vdp2::layout;
use crate::vdp2::Vdp2Memory;
use core::fmt;

/// The file's first bytes.
pub const MAGIC: [u8; 4] = *b"JFLR";
/// The version this engine reads.
pub const VERSION: u16 = 1;
/// Bytes before the palette.
pub const HEADER_BYTES: usize = 16;
/// Bytes of a cell.
pub const CELL_BYTES: usize = 64;
/// Cells across the page RBG0 shows (and down).
pub const PAGE_CELLS: u32 = 64;

/// A bad floor file: where, and what was expected there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TilesError {
    /// The byte offset in the file.
    pub offset: usize,
    /// What was expected.
    pub expected: &'static str,
    /// What was found (a value, or the file's length when it is too short).
    pub found: u32,
}

impl fmt::Display for TilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte {}: expected {}, found {}",
            self.offset, self.expected, self.found
        )
    }
}

impl core::error::Error for TilesError {}

/// A floor's picture, checked, over the file's bytes.
#[derive(Clone, Copy, Debug)]
pub struct FloorTiles<'a> {
    bytes: &'a [u8],
    width: u16,
    height: u16,
    colors: u16,
    cells: u16,
}

fn word(bytes: &[u8], offset: usize) -> u16 {
    u16::from_be_bytes([bytes[offset], bytes[offset + 1]])
}

impl<'a> FloorTiles<'a> {
    /// Checks `bytes` as a floor file (see the module's documentation).
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, TilesError> {
        let error = |offset, expected, found| TilesError {
            offset,
            expected,
            found,
        };
        if bytes.len() < HEADER_BYTES {
            let expected = "a header of 16 bytes";
            return Err(error(bytes.len(), expected, bytes.len() as u32));
        }
        if bytes[..4] != MAGIC {
            let found = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            return Err(error(0, "the magic JFLR (a file of jomc plane)", found));
        }
        let field = |offset, expected, valid: &dyn Fn(u16) -> bool| {
            let value = word(bytes, offset);
            match valid(value) {
                true => Ok(value),
                false => Err(error(offset, expected, u32::from(value))),
            }
        };
        let side = |n: u16| n.is_power_of_two() && u32::from(n) <= PAGE_CELLS;
        field(4, "version 1", &|v| v == VERSION)?;
        let width = field(6, "a width of 1, 2, 4, ... or 64 cells", &side)?;
        let height = field(8, "a height of 1, 2, 4, ... or 64 cells", &side)?;
        let colors = field(10, "1 to 256 colours", &|n| (1..=256).contains(&n))?;
        let cells = field(12, "1 to 2048 cells", &|n| {
            (1..=layout::MAX_CELLS).contains(&usize::from(n))
        })?;
        field(14, "0 (reserved)", &|v| v == 0)?;
        let tiles = Self {
            bytes,
            width,
            height,
            colors,
            cells,
        };
        let size = tiles.cells_offset() + usize::from(cells) * CELL_BYTES;
        if bytes.len() != size {
            let expected = "the file to end after the cells";
            return Err(error(size.min(bytes.len()), expected, bytes.len() as u32));
        }
        for i in 0..usize::from(colors) {
            field(
                HEADER_BYTES + 2 * i,
                "an RGB555 colour (bit 15 clear)",
                &|c| c & 0x8000 == 0,
            )?;
        }
        for i in 0..usize::from(width) * usize::from(height) {
            let at = tiles.map_offset() + 2 * i;
            field(at, "a cell index below the cell count", &|n| n < cells)?;
        }
        let pixels = &bytes[tiles.cells_offset()..];
        if let Some(i) = pixels.iter().position(|&p| u16::from(p) >= colors) {
            let at = tiles.cells_offset() + i;
            return Err(error(
                at,
                "a colour index below the colour count",
                u32::from(pixels[i]),
            ));
        }
        Ok(tiles)
    }

    /// The picture's width in cells.
    pub fn width_cells(&self) -> u16 {
        self.width
    }

    /// Its height in cells.
    pub fn height_cells(&self) -> u16 {
        self.height
    }

    /// Colours of the palette.
    pub fn colors(&self) -> u16 {
        self.colors
    }

    /// Cells.
    pub fn cells(&self) -> u16 {
        self.cells
    }

    /// Colour `i` of the palette (RGB555; 0 past the last).
    pub fn color(&self, i: u16) -> u16 {
        match i < self.colors {
            true => word(self.bytes, HEADER_BYTES + 2 * usize::from(i)),
            false => 0,
        }
    }

    /// The bytes of cell `i` (8 rows of 8 colour indexes), as RBG0's 256-colour cells hold
    /// them.
    pub fn cell(&self, i: u16) -> &'a [u8] {
        let start = self.cells_offset() + usize::from(i.min(self.cells - 1)) * CELL_BYTES;
        &self.bytes[start..start + CELL_BYTES]
    }

    /// The two-word pattern name of the page's cell at `column`, `row` (each 0 to 63): the
    /// picture's cell there (it repeats), palette 0, no flip, its character number (VRAM
    /// byte offset / 32) where [`layout::CELLS`] puts cell `i` (64 bytes each).
    pub fn page_name(&self, column: u32, row: u32) -> [u16; 2] {
        let (w, h) = (u32::from(self.width), u32::from(self.height));
        let at = ((row % h) * w + column % w) as usize;
        let cell = u32::from(word(self.bytes, self.map_offset() + 2 * at));
        let character = (layout::CELLS + cell * CELL_BYTES as u32) / 32;
        [0, character as u16]
    }

    /// The colour of the picture's pixel `(x, y)`, the picture repeated in both
    /// directions.
    pub fn texel(&self, x: u32, y: u32) -> u16 {
        let (w, h) = (u32::from(self.width), u32::from(self.height));
        let at = (((y / 8) % h) * w + (x / 8) % w) as usize;
        let cell = word(self.bytes, self.map_offset() + 2 * at);
        let index = self.cell(cell)[((y % 8) * 8 + x % 8) as usize];
        self.color(u16::from(index))
    }

    /// Writes the picture where RBG0 reads it ([`layout`]): the cells to bank A1, the
    /// page of pattern names (the picture repeated over 64 x 64 cells) to bank B0, the
    /// palette to colour RAM.
    pub fn load(&self, memory: &mut impl Vdp2Memory) {
        for i in 0..self.cells {
            let at = layout::CELLS + u32::from(i) * CELL_BYTES as u32;
            for (j, pair) in self.cell(i).chunks_exact(2).enumerate() {
                memory.write_vram(at + 2 * j as u32, u16::from_be_bytes([pair[0], pair[1]]));
            }
        }
        for row in 0..PAGE_CELLS {
            for column in 0..PAGE_CELLS {
                let at = layout::PAGE + 4 * (row * PAGE_CELLS + column);
                let [first, second] = self.page_name(column, row);
                memory.write_vram(at, first);
                memory.write_vram(at + 2, second);
            }
        }
        for i in 0..self.colors {
            memory.write_cram(layout::PALETTE + 2 * u32::from(i), self.color(i));
        }
    }

    fn map_offset(&self) -> usize {
        HEADER_BYTES + 2 * usize::from(self.colors)
    }

    fn cells_offset(&self) -> usize {
        self.map_offset() + 2 * usize::from(self.width) * usize::from(self.height)
    }
}

// A character number is 15 bits (units of 32 bytes): every cell of bank A1 has one.
const _: () = assert!((layout::CELLS + layout::MAX_CELLS as u32 * 64) / 32 <= 0x8000);

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
