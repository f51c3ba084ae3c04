//! TIM, the PlayStation's image in frame-buffer form (Sony, File Formats, "TIM: Screen
//! Image Data"): an ID word, a flag word (pixel mode, whether a colour lookup table
//! follows), then the lookup table block (when present) and the pixel block, each a
//! rectangle of 16-bit words with its position in the frame buffer.

use crate::bytes::Bytes;
use crate::vram::{HEIGHT, WIDTH};
use crate::Error;

/// The TIM file's ID word (ID 0x10, version 0).
pub const ID: u32 = 0x10;

/// How the image's words hold pixels (flag bits 0-2, PMODE).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelMode {
    Clut4,
    Clut8,
    Direct15,
}

impl PixelMode {
    /// Pixels per 16-bit word.
    pub fn pixels_per_word(self) -> usize {
        match self {
            PixelMode::Clut4 => 4,
            PixelMode::Clut8 => 2,
            PixelMode::Direct15 => 1,
        }
    }
}

/// A rectangle of frame-buffer words: the lookup table, or the image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Byte offset of the block's header (bnum) in the file.
    pub offset: usize,
    /// Position in the frame buffer, in words and lines.
    pub x: u16,
    pub y: u16,
    /// Size in 16-bit words and lines (an image of 4-bit pixels is 4 pixels a word).
    pub width: u16,
    pub height: u16,
    /// `width * height` words, row by row.
    pub words: Vec<u16>,
}

impl Block {
    /// The block's rows of words.
    pub fn rows(&self) -> impl Iterator<Item = &[u16]> {
        self.words.chunks_exact(usize::from(self.width).max(1))
    }
}

/// An image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tim {
    pub mode: PixelMode,
    pub clut: Option<Block>,
    pub image: Block,
}

impl Tim {
    /// The image's width in pixels.
    pub fn pixel_width(&self) -> usize {
        usize::from(self.image.width) * self.mode.pixels_per_word()
    }
}

/// Reads a TIM file of 4-bit, 8-bit or 15-bit pixels (24-bit and mixed images cannot be
/// textures, so they are refused), with or without a lookup table block (flag CF).
pub fn read(bytes: &[u8]) -> Result<Tim, Error> {
    let file = Bytes(bytes);
    let id = file.u32(0, "TIM header")?;
    if id != ID {
        return Err(Error::at(
            0,
            format!("ID 0x{id:x}, expected 0x10 (not a TIM file)"),
        ));
    }
    let flags = file.u32(4, "TIM header")?;
    let mode = match flags & 7 {
        0 => PixelMode::Clut4,
        1 => PixelMode::Clut8,
        2 => PixelMode::Direct15,
        other => {
            return Err(Error::at(
                4,
                format!(
                    "pixel mode {other} ({}), expected 0 (4-bit), 1 (8-bit) or 2 (15-bit): only \
                     those can be textures",
                    match other {
                        3 => "24-bit",
                        4 => "mixed",
                        _ => "undefined",
                    }
                ),
            ))
        }
    };
    // A 4-bit or 8-bit image may leave its lookup table to another TIM (its polygons'
    // CBA names where it is in the frame buffer), so CF is not required.
    let has_clut = flags & 8 != 0;
    let mut at = 8;
    let clut = if has_clut {
        let block = block(file, at, "lookup table")?;
        at += 12 + block.words.len() * 2;
        Some(block)
    } else {
        None
    };
    let image = block(file, at, "image")?;
    let end = at + 12 + image.words.len() * 2;
    if end != file.len() {
        return Err(Error::at(
            end,
            format!(
                "{} bytes after the image block, expected the end of the file",
                file.len() - end
            ),
        ));
    }
    Ok(Tim { mode, clut, image })
}

fn block(file: Bytes<'_>, at: usize, what: &str) -> Result<Block, Error> {
    let header = format!("{what} block header");
    let bnum = file.u32(at, &header)? as usize;
    let x = file.u16(at + 4, &header)?;
    let y = file.u16(at + 6, &header)?;
    let width = file.u16(at + 8, &header)?;
    let height = file.u16(at + 10, &header)?;
    let count = usize::from(width) * usize::from(height);
    let expected = 12 + 2 * count;
    if bnum != expected {
        return Err(Error::at(
            at,
            format!(
                "{what} block length {bnum}, expected {expected} (12 + 2 x {width} x {height} words)"
            ),
        ));
    }
    if count == 0 {
        return Err(Error::at(
            at + 8,
            format!("{what} of {width} x {height} words, expected at least 1 x 1"),
        ));
    }
    if usize::from(x) + usize::from(width) > WIDTH || usize::from(y) + usize::from(height) > HEIGHT
    {
        return Err(Error::at(
            at + 4,
            format!(
                "{what} at ({x}, {y}), {width} x {height} words: expected inside the frame buffer \
                 ({WIDTH} x {HEIGHT})"
            ),
        ));
    }
    let data = file.slice(at + 12, 2 * count, &format!("{what} words"))?;
    let words = data
        .chunks_exact(2)
        .map(|w| u16::from_le_bytes([w[0], w[1]]))
        .collect();
    Ok(Block {
        offset: at,
        x,
        y,
        width,
        height,
        words,
    })
}
