//! PICA200 (Nintendo 3DS GPU) texture formats and their decoding to RGBA8.
//!
//! Every format but ETC1 stores 8x8 tiles, tiles in rows from the first row of the image,
//! texels inside a tile in Morton (Z) order: texel `i` is at x = bits 0, 2, 4 of `i` and
//! y = bits 1, 3, 5. ETC1 stores each 8x8 tile as four 4x4 blocks (top left, top right,
//! bottom left, bottom right), each a little-endian u64 (ETC1A4: after a u64 of 4-bit
//! alphas). Multi-byte texels are little endian, so RGBA8 is the bytes A, B, G, R.
//! Images are returned as the file stores them, the first stored row first.

/// The texture formats, by their GL format code in a CMB (`tex`) entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextureFormat {
    Rgba8,
    Rgb8,
    Rgba5551,
    Rgb565,
    Rgba4444,
    La8,
    Hilo8,
    L8,
    A8,
    La4,
    L4,
    A4,
    Etc1,
    Etc1A4,
}

/// Every format, for tests and documentation.
pub const FORMATS: [TextureFormat; 14] = [
    TextureFormat::Rgba8,
    TextureFormat::Rgb8,
    TextureFormat::Rgba5551,
    TextureFormat::Rgb565,
    TextureFormat::Rgba4444,
    TextureFormat::La8,
    TextureFormat::Hilo8,
    TextureFormat::L8,
    TextureFormat::A8,
    TextureFormat::La4,
    TextureFormat::L4,
    TextureFormat::A4,
    TextureFormat::Etc1,
    TextureFormat::Etc1A4,
];

impl TextureFormat {
    /// The format of a CMB texture entry's u32 (pixel format in the low half, data type in
    /// the high half; ETC1 is also seen with data type 0x1401).
    pub fn from_code(code: u32) -> Option<Self> {
        Some(match code {
            0x1401_6752 => Self::Rgba8,
            0x1401_6754 => Self::Rgb8,
            0x8034_6752 => Self::Rgba5551,
            0x8363_6754 => Self::Rgb565,
            0x8033_6752 => Self::Rgba4444,
            0x1401_6758 => Self::La8,
            0x1401_6759 => Self::Hilo8,
            0x1401_6757 => Self::L8,
            0x1401_6756 => Self::A8,
            0x6760_6758 => Self::La4,
            0x6761_6757 => Self::L4,
            0x6761_6756 => Self::A4,
            0x0000_675A | 0x1401_675A => Self::Etc1,
            0x0000_675B | 0x1401_675B => Self::Etc1A4,
            _ => return None,
        })
    }

    /// The code [`Self::from_code`] reads (the first where there are two).
    pub fn code(self) -> u32 {
        match self {
            Self::Rgba8 => 0x1401_6752,
            Self::Rgb8 => 0x1401_6754,
            Self::Rgba5551 => 0x8034_6752,
            Self::Rgb565 => 0x8363_6754,
            Self::Rgba4444 => 0x8033_6752,
            Self::La8 => 0x1401_6758,
            Self::Hilo8 => 0x1401_6759,
            Self::L8 => 0x1401_6757,
            Self::A8 => 0x1401_6756,
            Self::La4 => 0x6760_6758,
            Self::L4 => 0x6761_6757,
            Self::A4 => 0x6761_6756,
            Self::Etc1 => 0x0000_675A,
            Self::Etc1A4 => 0x0000_675B,
        }
    }

    /// Bits per texel.
    pub fn bits(self) -> usize {
        match self {
            Self::Rgba8 => 32,
            Self::Rgb8 => 24,
            Self::Rgba5551 | Self::Rgb565 | Self::Rgba4444 | Self::La8 | Self::Hilo8 => 16,
            Self::L8 | Self::A8 | Self::La4 | Self::Etc1A4 => 8,
            Self::L4 | Self::A4 | Self::Etc1 => 4,
        }
    }

    /// Bytes of a `width` x `height` image (both multiples of 8).
    pub fn byte_size(self, width: usize, height: usize) -> usize {
        width * height * self.bits() / 8
    }
}

/// Decodes `data` (at least [`TextureFormat::byte_size`] bytes; `width` and `height`
/// multiples of 8) to RGBA8 texels, row by row. A8 and A4 are white with their alpha (on
/// the 3DS their colour comes from elsewhere), L8 and L4 opaque; HILO8 is (hi, lo, 0).
pub fn decode(format: TextureFormat, width: usize, height: usize, data: &[u8]) -> Vec<[u8; 4]> {
    assert!(
        width.is_multiple_of(8) && height.is_multiple_of(8),
        "PICA textures are made of 8x8 tiles"
    );
    assert!(
        data.len() >= format.byte_size(width, height),
        "short texture data"
    );
    let mut out = vec![[0; 4]; width * height];
    match format {
        TextureFormat::Etc1 | TextureFormat::Etc1A4 => decode_etc1(
            width,
            height,
            data,
            format == TextureFormat::Etc1A4,
            &mut out,
        ),
        _ => {
            let tiles_per_row = width / 8;
            for (index, texel) in (0..width * height).map(|i| (i, texel(format, data, i))) {
                let (tile, within) = (index / 64, index % 64);
                let x = (tile % tiles_per_row) * 8 + morton(within);
                let y = (tile / tiles_per_row) * 8 + morton(within >> 1);
                out[y * width + x] = texel;
            }
        }
    }
    out
}

/// Bits 0, 2 and 4 of `i` as a number 0 to 7.
fn morton(i: usize) -> usize {
    (i & 1) | ((i >> 1) & 2) | ((i >> 2) & 4)
}

fn expand4(n: u16) -> u8 {
    (n as u8 & 0x0F) * 0x11
}

fn expand5(n: u16) -> u8 {
    let n = n as u8 & 0x1F;
    (n << 3) | (n >> 2)
}

fn expand6(n: u16) -> u8 {
    let n = n as u8 & 0x3F;
    (n << 2) | (n >> 4)
}

/// The `i`th stored texel of a tiled format.
fn texel(format: TextureFormat, data: &[u8], i: usize) -> [u8; 4] {
    let byte = |k: usize| data[i * format.bits() / 8 + k];
    let half = || u16::from_le_bytes([byte(0), byte(1)]);
    let nibble = || {
        let b = data[i / 2] as u16;
        if i.is_multiple_of(2) {
            b & 0x0F
        } else {
            b >> 4
        }
    };
    match format {
        TextureFormat::Rgba8 => [byte(3), byte(2), byte(1), byte(0)],
        TextureFormat::Rgb8 => [byte(2), byte(1), byte(0), 255],
        TextureFormat::Rgba5551 => {
            let p = half();
            let a = if p & 1 != 0 { 255 } else { 0 };
            [expand5(p >> 11), expand5(p >> 6), expand5(p >> 1), a]
        }
        TextureFormat::Rgb565 => {
            let p = half();
            [expand5(p >> 11), expand6(p >> 5), expand5(p), 255]
        }
        TextureFormat::Rgba4444 => {
            let p = half();
            [
                expand4(p >> 12),
                expand4(p >> 8),
                expand4(p >> 4),
                expand4(p),
            ]
        }
        TextureFormat::La8 => [byte(1), byte(1), byte(1), byte(0)],
        TextureFormat::Hilo8 => [byte(1), byte(0), 0, 255],
        TextureFormat::L8 => [byte(0), byte(0), byte(0), 255],
        TextureFormat::A8 => [255, 255, 255, byte(0)],
        TextureFormat::La4 => {
            let b = byte(0) as u16;
            let l = expand4(b >> 4);
            [l, l, l, expand4(b)]
        }
        TextureFormat::L4 => {
            let l = expand4(nibble());
            [l, l, l, 255]
        }
        TextureFormat::A4 => [255, 255, 255, expand4(nibble())],
        TextureFormat::Etc1 | TextureFormat::Etc1A4 => unreachable!("ETC1 is not tiled texels"),
    }
}

/// The ETC1 intensity modifiers (small, large) of each table.
const ETC1_MODIFIERS: [[i32; 2]; 8] = [
    [2, 8],
    [5, 17],
    [9, 29],
    [13, 42],
    [18, 60],
    [24, 80],
    [33, 106],
    [47, 183],
];

fn decode_etc1(width: usize, height: usize, data: &[u8], alpha: bool, out: &mut [[u8; 4]]) {
    let block_bytes = if alpha { 16 } else { 8 };
    let mut at = 0;
    for tile_y in (0..height).step_by(8) {
        for tile_x in (0..width).step_by(8) {
            for (dx, dy) in [(0, 0), (4, 0), (0, 4), (4, 4)] {
                let word = |k: usize| {
                    let mut b = [0; 8];
                    b.copy_from_slice(&data[at + k..at + k + 8]);
                    u64::from_le_bytes(b)
                };
                let (alphas, color) = if alpha {
                    (word(0), word(8))
                } else {
                    (u64::MAX, word(0))
                };
                let block = etc1_block(color);
                for x in 0..4 {
                    for y in 0..4 {
                        let nibble = (alphas >> (4 * (x * 4 + y))) as u16;
                        let [r, g, b] = block[x * 4 + y];
                        out[(tile_y + dy + y) * width + tile_x + dx + x] =
                            [r, g, b, expand4(nibble)];
                    }
                }
                at += block_bytes;
            }
        }
    }
}

/// The 16 colours of an ETC1 block, texel `x * 4 + y` (the format's own order).
fn etc1_block(block: u64) -> [[u8; 3]; 16] {
    let control = (block >> 32) as u32;
    let texels = block as u32;
    let field = |shift: u32, bits: u32| ((control >> shift) & ((1 << bits) - 1)) as i32;
    let (base1, base2) = if control & 2 != 0 {
        // Differential: 5-bit bases and 3-bit signed differences.
        let channel = |shift: u32| {
            let base = field(shift + 3, 5);
            let diff = (field(shift, 3) << 29) >> 29;
            let five = |v: i32| ((v << 3) | (v >> 2)) & 0xFF;
            (five(base), five((base + diff) & 0x1F))
        };
        let (r, g, b) = (channel(24), channel(16), channel(8));
        ([r.0, g.0, b.0], [r.1, g.1, b.1])
    } else {
        let four = |shift: u32| field(shift, 4) * 0x11;
        (
            [four(28), four(20), four(12)],
            [four(24), four(16), four(8)],
        )
    };
    let flip = control & 1 != 0;
    let (table1, table2) = (field(5, 3) as usize, field(2, 3) as usize);
    let mut out = [[0; 3]; 16];
    for (i, texel) in out.iter_mut().enumerate() {
        let (x, y) = (i / 4, i % 4);
        let second = if flip { y >= 2 } else { x >= 2 };
        let (base, table) = if second {
            (base2, table2)
        } else {
            (base1, table1)
        };
        let [small, large] = ETC1_MODIFIERS[table];
        let modifier = match ((texels >> (16 + i)) & 1, (texels >> i) & 1) {
            (0, 0) => small,
            (0, _) => large,
            (_, 0) => -small,
            _ => -large,
        };
        *texel = base.map(|c| (c + modifier).clamp(0, 255) as u8);
    }
    out
}
