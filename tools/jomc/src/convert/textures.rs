//! Textures: each scene image a material uses to VDP1 pixels (RGB 555, or 16 colours with
//! a lookup table for `jo_lut 1`), named for TEXT, TIMG and the .BIN files.

use super::palette;
use super::scene::Origin;
use jom_write::{Pixels, Texture};
use std::collections::HashMap;

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
#[derive(Clone)]
pub struct Converted {
    /// The name in TEXT (and TIMG, and of the .BIN file): 8.3, uppercase.
    pub name: String,
    pub width: u16,
    pub height: u16,
    pub pixels: Pixels,
    /// The image's RGB 555 pixels (0 transparent) before any reduction: what a 16-colour
    /// or halved form is measured against.
    pub original: Vec<u16>,
    /// The original's size.
    pub original_size: (u16, u16),
    /// What its name is made from, and whether the name hashes the pixels (embedded or
    /// baked textures: a reduced form gets a name of its own) or is the file's.
    pub stem: String,
    pub named_by_pixels: bool,
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
        jom_write::jo_image_bin(self.width, self.height, &palette::drawn(&self.pixels))
    }

    /// Whether it has 16 colours and a lookup table.
    pub fn is_lut(&self) -> bool {
        matches!(self.pixels, Pixels::Lut4 { .. })
    }

    /// Stores it as `pixels` of `width` x `height`, named anew by its pixels when its name
    /// hashes them (a file's name stays).
    pub fn set_pixels(&mut self, width: u16, height: u16, pixels: Pixels) {
        if self.named_by_pixels {
            self.name = hashed_name(&self.stem, &timg_payload(width, height, &pixels));
        }
        (self.width, self.height, self.pixels) = (width, height, pixels);
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
            Palette::Lut { colors } => palette::lut4(&rgb, colors),
            Palette::Rgb555 => Pixels::Rgb555(rgb.clone()),
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
            original: rgb,
            original_size: (width, height),
            stem: request.stem.to_string(),
            named_by_pixels: request.named_by_pixels,
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
}
