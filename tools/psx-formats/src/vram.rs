//! The PlayStation's frame buffer (1024 x 512 16-bit words) as far as textures need it:
//! TIM images are loaded at their positions, and a textured primitive reads its texels
//! through its texture page (TSB) and colour lookup table (CBA).

use crate::tim::Tim;

/// Frame buffer width in 16-bit words.
pub const WIDTH: usize = 1024;
/// Frame buffer height in lines.
pub const HEIGHT: usize = 512;

/// How a texture page's words hold texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Depth {
    /// 4 texels per word, indices into a 16-colour lookup table.
    Clut4,
    /// 2 texels per word, indices into a 256-colour lookup table.
    Clut8,
    /// 1 texel per word, its colour.
    Direct15,
    /// TPF 3, which the GPU reserves.
    Reserved,
}

/// A texture page (TSB): its top left in the frame buffer, its texel depth and its
/// semi-transparency rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TexturePage {
    /// In words, a multiple of 64.
    pub x: u16,
    /// 0 or 256.
    pub y: u16,
    pub depth: Depth,
    /// ABR: 0 50% back + 50% polygon, 1 100% + 100%, 2 100% - 100%, 3 100% + 25%.
    pub rate: u8,
}

impl TexturePage {
    /// From a TSB word: bits 0-3 x / 64, bit 4 y / 256, bits 5-6 ABR, bits 7-8 TPF.
    pub fn from_tsb(tsb: u16) -> Self {
        Self {
            x: (tsb & 0xF) * 64,
            y: ((tsb >> 4) & 1) * 256,
            rate: ((tsb >> 5) & 3) as u8,
            depth: match (tsb >> 7) & 3 {
                0 => Depth::Clut4,
                1 => Depth::Clut8,
                2 => Depth::Direct15,
                _ => Depth::Reserved,
            },
        }
    }
}

/// A colour lookup table's position (CBA).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClutPosition {
    /// In words, a multiple of 16.
    pub x: u16,
    pub y: u16,
}

impl ClutPosition {
    /// From a CBA word: bits 0-5 x / 16, bits 6-14 y.
    pub fn from_cba(cba: u16) -> Self {
        Self {
            x: (cba & 0x3F) * 16,
            y: (cba >> 6) & 0x1FF,
        }
    }
}

/// A texel the frame buffer cannot give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// No TIM covers the texel's word (x, y).
    Texel { x: usize, y: usize },
    /// No TIM covers the lookup table entry's word (x, y).
    Clut { x: usize, y: usize },
    /// The page's depth is TPF 3.
    ReservedDepth,
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Missing::Texel { x, y } => {
                write!(f, "no TIM image covers frame buffer word ({x}, {y})")
            }
            Missing::Clut { x, y } => {
                write!(f, "no TIM lookup table covers frame buffer word ({x}, {y})")
            }
            Missing::ReservedDepth => write!(f, "the texture page's depth is TPF 3 (reserved)"),
        }
    }
}

/// The frame buffer after loading TIM files: each word's value and whether a TIM set it.
pub struct FrameBuffer {
    words: Vec<Option<u16>>,
}

impl Default for FrameBuffer {
    fn default() -> Self {
        Self::new()
    }
}

impl FrameBuffer {
    /// An empty frame buffer: no word loaded.
    pub fn new() -> Self {
        Self {
            words: vec![None; WIDTH * HEIGHT],
        }
    }

    /// Loads a TIM's lookup table and image at their positions, over what was there (as
    /// LoadImage does, in the order the files are given). Words outside the frame buffer
    /// (which [`tim::read`](crate::tim::read) refuses) are left out.
    pub fn load(&mut self, tim: &Tim) {
        for block in tim.clut.iter().chain([&tim.image]) {
            for (row, line) in block.rows().enumerate() {
                let y = usize::from(block.y) + row;
                for (column, &word) in line.iter().enumerate() {
                    let x = usize::from(block.x) + column;
                    if x < WIDTH && y < HEIGHT {
                        self.words[y * WIDTH + x] = Some(word);
                    }
                }
            }
        }
    }

    /// The word at (x, y), if a TIM set it.
    pub fn word(&self, x: usize, y: usize) -> Option<u16> {
        if x < WIDTH && y < HEIGHT {
            self.words[y * WIDTH + x]
        } else {
            None
        }
    }

    /// The 15-bit colour (PlayStation layout: R bits 0-4, G 5-9, B 10-14, STP 15; 0 is
    /// transparent) of texel (u, v) of `page` through `clut`.
    pub fn texel(
        &self,
        page: TexturePage,
        clut: ClutPosition,
        u: u8,
        v: u8,
    ) -> Result<u16, Missing> {
        let (u, y) = (usize::from(u), usize::from(page.y) + usize::from(v));
        let (per_word, bits) = match page.depth {
            Depth::Clut4 => (4, 4),
            Depth::Clut8 => (2, 8),
            Depth::Direct15 => (1, 16),
            Depth::Reserved => return Err(Missing::ReservedDepth),
        };
        // The page's words wrap at the frame buffer's right edge, as the GPU's addresses do.
        let x = (usize::from(page.x) + u / per_word) % WIDTH;
        let word = self.word(x, y).ok_or(Missing::Texel { x, y })?;
        if page.depth == Depth::Direct15 {
            return Ok(word);
        }
        let index = (usize::from(word) >> ((u % per_word) * bits)) & ((1 << bits) - 1);
        let (cx, cy) = ((usize::from(clut.x) + index) % WIDTH, usize::from(clut.y));
        self.word(cx, cy).ok_or(Missing::Clut { x: cx, y: cy })
    }
}
