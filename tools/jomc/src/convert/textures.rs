//! Textures: each scene image a material uses to VDP1 pixels (RGB 555, or 16 colours with
//! a lookup table for `jo_lut 1`), named for TEXT, TIMG and the .BIN files.

use super::scene::Origin;
use jom_write::{Pixels, Texture};
use std::collections::{BTreeMap, HashMap};

/// How a texture's pixels are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Palette {
    /// RGB 555, bit 15 set; 0 is transparent.
    Rgb555,
    /// 16 colours and a lookup table (`jo_lut 1`, embedded): entry 0 transparent, the
    /// opaque colours in entries 1 to `colors` (15, or 14 with end codes, whose code 15
    /// would end the line).
    Lut { colors: usize },
}

/// A converted texture.
pub struct Converted {
    /// The name in TEXT (and TIMG, and of the .BIN file): 8.3, uppercase.
    pub name: String,
    pub width: u16,
    pub height: u16,
    pub pixels: Pixels,
    /// Where its first user names it, and what it is, for the messages.
    pub origin: Origin,
    pub label: String,
}

impl Converted {
    /// Its TIMG entry.
    pub fn timg_entry(&self) -> Texture {
        Texture {
            name: self.name.clone(),
            width: self.width,
            height: self.height,
            pixels: self.pixels.clone(),
        }
    }

    /// Its jo engine .BIN image: always RGB 555 (a 16-colour texture as its colours).
    pub fn jo_image_bin(&self) -> Vec<u8> {
        let rgb = match &self.pixels {
            Pixels::Rgb555(pixels) => pixels.clone(),
            Pixels::Lut4 { lut, indices } => indices
                .iter()
                .flat_map(|&byte| [byte >> 4, byte & 15])
                .map(|i| lut[usize::from(i)])
                .collect(),
        };
        jom_write::jo_image_bin(self.width, self.height, &rgb)
    }
}

/// A texture to convert.
pub struct Request<'a> {
    /// What its name is made from (the image's name).
    pub stem: &'a str,
    /// What it is, for the messages: `map_Kd wall.png`.
    pub label: String,
    pub origin: Origin,
    pub width: u32,
    pub height: u32,
    pub rgba: &'a [[u8; 4]],
    pub palette: Palette,
    /// Named by a hash of its pixels (embedded or baked textures), else by its file name.
    pub named_by_pixels: bool,
}

/// The textures of a model, each once: a texture whose name (and pixels) another already
/// has is that one.
#[derive(Default)]
pub struct TextureTable {
    pub textures: Vec<Converted>,
    by_name: HashMap<String, usize>,
}

impl TextureTable {
    /// The index of the texture `request` makes, converted when new; the problem when the
    /// VDP1 cannot draw it or another texture has its name.
    pub fn add(&mut self, request: Request<'_>) -> Result<usize, String> {
        let (width, height) = check_size(request.width, request.height)?;
        let rgb: Vec<u16> = request.rgba.iter().map(|&p| rgb555(p)).collect();
        let pixels = match request.palette {
            Palette::Lut { colors } => lut4(&rgb, colors),
            Palette::Rgb555 => Pixels::Rgb555(rgb),
        };
        let name = match request.named_by_pixels {
            true => hashed_name(request.stem, &timg_payload(width, height, &pixels)),
            false => plain_name(request.stem),
        };
        if let Some(&index) = self.by_name.get(&name) {
            let other = &self.textures[index];
            if (other.width, other.height) == (width, height) && other.pixels == pixels {
                return Ok(index);
            }
            return Err(format!(
                "its name {name} is also the name of {}, a different texture (names are the \
                 image's first letters, and a hash of the pixels when embedded): rename one",
                other.label
            ));
        }
        self.by_name.insert(name.clone(), self.textures.len());
        self.textures.push(Converted {
            name,
            width,
            height,
            pixels,
            origin: request.origin,
            label: request.label,
        });
        Ok(self.textures.len() - 1)
    }

    /// The textures in the order `order` gives (each index once), and the new index of each
    /// old one (`None`: left out).
    pub fn into_order(self, order: &[usize]) -> (Vec<Converted>, Vec<Option<usize>>) {
        let mut new_index = vec![None; self.textures.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = Some(new);
        }
        let mut slots: Vec<Option<Converted>> = self.textures.into_iter().map(Some).collect();
        let textures = order.iter().filter_map(|&old| slots[old].take()).collect();
        (textures, new_index)
    }
}

/// What the VDP1 can draw: a width multiple of 8 from 8 to 504, a height from 1 to 255.
/// Other sizes are refused rather than padded: padding would change how the texture
/// spreads over the quad.
fn check_size(width: u32, height: u32) -> Result<(u16, u16), String> {
    if !width.is_multiple_of(8) || !(8..=504).contains(&width) || !(1..=255).contains(&height) {
        return Err(format!(
            "{width}x{height} pixels: the VDP1 needs a width multiple of 8 from 8 to 504 and a \
             height from 1 to 255"
        ));
    }
    Ok((width as u16, height as u16))
}

/// A pixel as RGB 555 with bit 15 set; alpha under 128 becomes 0, the transparent pixel.
/// Each channel is rounded to 5 bits.
pub(crate) fn rgb555([r, g, b, a]: [u8; 4]) -> u16 {
    if a < 128 {
        return 0;
    }
    let five = |c: u8| (u16::from(c) * 31 + 127) / 255;
    0x8000 | (five(b) << 10) | (five(g) << 5) | five(r)
}

/// 16 colours with a lookup table: entry 0 transparent, the opaque colours in entries 1 to
/// `colors` (quantised by median cut when there are more), two pixels a byte, left one
/// high.
fn lut4(rgb: &[u16], colors: usize) -> Pixels {
    let mut counts: BTreeMap<u16, u64> = BTreeMap::new();
    for &p in rgb.iter().filter(|&&p| p != 0) {
        *counts.entry(p).or_default() += 1;
    }
    let palette: Vec<u16> = if counts.len() <= colors {
        counts.keys().copied().collect()
    } else {
        median_cut(counts.into_iter().collect(), colors)
    };
    let mut lut = [0u16; 16];
    lut[1..=palette.len()].copy_from_slice(&palette);
    // Every RGB 555 colour's entry, computed once per colour used.
    let mut entry_of: Vec<Option<u8>> = vec![None; 0x8000];
    let mut entry = |p: u16| -> u8 {
        if p == 0 {
            return 0;
        }
        *entry_of[usize::from(p & 0x7FFF)].get_or_insert_with(|| nearest(&palette, p) + 1)
    };
    let indices = rgb
        .chunks_exact(2)
        .map(|pair| (entry(pair[0]) << 4) | entry(pair[1]))
        .collect();
    Pixels::Lut4 { lut, indices }
}

fn channels(c: u16) -> [i32; 3] {
    [c & 31, (c >> 5) & 31, (c >> 10) & 31].map(i32::from)
}

fn from_channels([r, g, b]: [i32; 3]) -> u16 {
    0x8000 | ((b as u16) << 10) | ((g as u16) << 5) | r as u16
}

/// The index of the palette colour nearest to `c` (squared distance over the 5-bit
/// channels; the lowest index on a tie).
fn nearest(palette: &[u16], c: u16) -> u8 {
    let [r, g, b] = channels(c);
    let distance = |p: &u16| {
        let [pr, pg, pb] = channels(*p);
        (pr - r).pow(2) + (pg - g).pow(2) + (pb - b).pow(2)
    };
    let mut best = 0;
    for (i, p) in palette.iter().enumerate() {
        if distance(p) < distance(&palette[best]) {
            best = i;
        }
    }
    best as u8
}

/// Median cut: the box (of colours weighted by their pixel counts) with the widest channel
/// is split at the weighted median of that channel until there are `n` boxes; each box
/// gives its weighted mean colour.
fn median_cut(colors: Vec<(u16, u64)>, n: usize) -> Vec<u16> {
    let mut boxes: Vec<Vec<(u16, u64)>> = vec![colors];
    while boxes.len() < n {
        let widest = boxes
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len() > 1)
            .map(|(i, b)| (i, widest_channel(b)))
            .max_by_key(|&(i, (_, range))| (range, std::cmp::Reverse(i)));
        let Some((i, (channel, _))) = widest else {
            break;
        };
        let mut colors = boxes.swap_remove(i);
        colors.sort_by_key(|&(c, _)| (channels(c)[channel], c));
        let total: u64 = colors.iter().map(|&(_, w)| w).sum();
        let mut seen = 0;
        let split = colors
            .iter()
            .position(|&(_, w)| {
                seen += w;
                seen * 2 >= total
            })
            .map_or(1, |p| (p + 1).clamp(1, colors.len() - 1));
        let upper = colors.split_off(split);
        boxes.insert(i, upper);
        boxes.insert(i, colors);
    }
    boxes.iter().map(|b| mean(b)).collect()
}

/// The channel with the widest range in `colors`, and that range.
fn widest_channel(colors: &[(u16, u64)]) -> (usize, i32) {
    (0..3)
        .map(|ch| {
            let values = colors.iter().map(|&(c, _)| channels(c)[ch]);
            let range = values.clone().max().unwrap_or(0) - values.min().unwrap_or(0);
            (ch, range)
        })
        .max_by_key(|&(ch, range)| (range, std::cmp::Reverse(ch)))
        .unwrap_or((0, 0))
}

fn mean(colors: &[(u16, u64)]) -> u16 {
    let total: u64 = colors.iter().map(|&(_, w)| w).sum();
    let mut sums = [0u64; 3];
    for &(c, w) in colors {
        for (sum, value) in sums.iter_mut().zip(channels(c)) {
            *sum += value as u64 * w;
        }
    }
    from_channels(sums.map(|s| ((s + total / 2) / total) as i32))
}

/// The bytes a TIMG entry holds after its name, which the hash names.
fn timg_payload(width: u16, height: u16, pixels: &Pixels) -> Vec<u8> {
    let mut bytes = Vec::new();
    let format: u16 = match pixels {
        Pixels::Rgb555(_) => 0,
        Pixels::Lut4 { .. } => 1,
    };
    for v in [width, height, format] {
        bytes.extend_from_slice(&v.to_be_bytes());
    }
    match pixels {
        Pixels::Rgb555(p) => p
            .iter()
            .for_each(|v| bytes.extend_from_slice(&v.to_be_bytes())),
        Pixels::Lut4 { lut, indices } => {
            lut.iter()
                .for_each(|v| bytes.extend_from_slice(&v.to_be_bytes()));
            bytes.extend_from_slice(indices);
        }
    }
    bytes
}

/// FNV-1a, 64 bits: tiny, stable across versions and platforms (the names are shared by
/// every model ever converted, so the hash must never change).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The file name's letters and digits, uppercase; anything else becomes `_`.
fn sanitized(stem: &str) -> String {
    let name: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() {
        "T".into()
    } else {
        name
    }
}

/// `WALL.BIN`: the first 8 characters of the file name.
fn plain_name(stem: &str) -> String {
    let mut name = sanitized(stem);
    name.truncate(8);
    name + ".BIN"
}

/// `WA1A2B3C.BIN`: 2 characters of the file name and the top 24 bits of the pixels' hash
/// in hexadecimal (8.3).
fn hashed_name(stem: &str, payload: &[u8]) -> String {
    let mut prefix = sanitized(stem);
    prefix.truncate(2);
    let digits = 8 - prefix.len();
    let hash = fnv1a(payload) >> (64 - 4 * digits);
    format!("{prefix}{hash:0digits$X}.BIN")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_8_3_uppercase() {
        assert_eq!(plain_name("brick wall-2"), "BRICK_WA.BIN");
        assert_eq!(plain_name("a"), "A.BIN");
        let name = hashed_name("wall", b"pixels");
        assert_eq!(name.len(), 12);
        assert!(name.starts_with("WA") && name.ends_with(".BIN"), "{name}");
        assert_eq!(hashed_name("w", b"x").len(), 12);
        assert_ne!(
            hashed_name("wall", b"pixels"),
            hashed_name("wall", b"pixelz")
        );
    }

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn rgb555_rounds_channels_and_alpha_makes_transparent() {
        assert_eq!(rgb555([255, 0, 0, 255]), 0x801F);
        assert_eq!(rgb555([0, 0, 255, 255]), 0xFC00);
        assert_eq!(rgb555([0, 0, 0, 255]), 0x8000);
        assert_eq!(rgb555([255, 255, 255, 127]), 0);
        assert_eq!(
            rgb555([132, 132, 132, 200]),
            0x8000 | (16 << 10) | (16 << 5) | 16
        );
    }

    #[test]
    fn median_cut_gives_15_colours_near_the_image() {
        // 32 greys: each quantised colour must be within 1 step of 2 neighbours.
        let colors: Vec<(u16, u64)> = (0..32)
            .map(|g| (from_channels([g, g, g]), 1 + g as u64))
            .collect();
        let palette = median_cut(colors.clone(), 15);
        assert_eq!(palette.len(), 15);
        for &(c, _) in &colors {
            let p = palette[usize::from(nearest(&palette, c))];
            assert!(
                (channels(p)[0] - channels(c)[0]).abs() <= 2,
                "{c:#x} -> {p:#x}"
            );
        }
    }
}
