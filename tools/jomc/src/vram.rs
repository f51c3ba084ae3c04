//! The VDP1 VRAM a model's textures take once the engine has loaded them
//! (`jom::vdp1::TextureCache::load_model`), counted as the engine allocates it: per texture
//! and per end-code variant its materials use (a material with `jo_end_codes 1` gets a copy
//! with end codes), the lookup table (32 bytes, 16-colour textures), the texture, its half
//! and quarter size copies when a material asks for mipmaps (where the width stays a
//! multiple of 8), its four quarters when a material subdivides, each image rounded up to 8
//! bytes (addresses are stored / 8), the block rounded up to
//! [`TEXTURE_BLOCK_BYTES`](jom::vdp1::TEXTURE_BLOCK_BYTES) (a lookup table starts its block,
//! on a 32-byte boundary). A test compares these figures with the engine's own allocation.

use jom::format::MaterialFlags;
use std::collections::HashMap;

/// A texture as the engine sizes it.
pub struct TextureShape<'a> {
    /// The TEXT name: the engine loads a name once.
    pub name: &'a str,
    pub width: u16,
    pub height: u16,
    /// 16 colours and a lookup table.
    pub lut: bool,
}

/// The bytes of the engine's default texture region (`VramLayout::default().textures`).
pub fn default_texture_region() -> u32 {
    let region = jom::vdp1::VramLayout::default().textures;
    region.end - region.start
}

/// The VRAM bytes of each texture (by TEXT index) that `materials` (each a texture index
/// and flags) use; a name loaded before costs nothing again.
pub fn texture_bytes(
    textures: &[TextureShape<'_>],
    materials: &[(Option<usize>, MaterialFlags)],
) -> Vec<u32> {
    // What the materials ask of each (name, end codes) variant, at its first TEXT index.
    let mut variants: HashMap<(&str, bool), (usize, Uses)> = HashMap::new();
    for &(texture, flags) in materials {
        let Some(shape) = texture.and_then(|t| textures.get(t).map(|s| (t, s))) else {
            continue;
        };
        let (index, shape) = shape;
        let end_codes = flags.contains(MaterialFlags::END_CODES);
        let entry = variants
            .entry((shape.name, end_codes))
            .or_insert((index, Uses::default()));
        entry.0 = entry.0.min(index);
        entry.1.mipmaps |= flags.contains(MaterialFlags::MIPMAPS);
        entry.1.quarters |= flags.subdivides();
    }
    let mut bytes = vec![0; textures.len()];
    for (index, uses) in variants.into_values() {
        bytes[index] += variant_bytes(&textures[index], uses);
    }
    bytes
}

/// What the materials using one variant of a texture ask of it.
#[derive(Clone, Copy, Default)]
struct Uses {
    mipmaps: bool,
    quarters: bool,
}

/// One variant: the lookup table, the texture and the copies `uses` asks for.
fn variant_bytes(shape: &TextureShape<'_>, uses: Uses) -> u32 {
    let image = |width: u16, height: u16| {
        let row = match shape.lut {
            true => u32::from(width) / 2,
            false => u32::from(width) * 2,
        };
        (row * u32::from(height)).next_multiple_of(8)
    };
    let drawable = |width: u16, height: u16| width >= 8 && width.is_multiple_of(8) && height >= 1;
    let (width, height) = (shape.width, shape.height);
    let mut bytes = if shape.lut { 32 } else { 0 } + image(width, height);
    if uses.mipmaps {
        for shift in 1..3 {
            let (w, h) = (width >> shift, height >> shift);
            if drawable(w, h) {
                bytes += image(w, h);
            }
        }
    }
    let (w, h) = (width / 2, height / 2);
    if uses.quarters && drawable(w, h) {
        bytes += 4 * image(w, h);
    }
    bytes.next_multiple_of(jom::vdp1::TEXTURE_BLOCK_BYTES)
}

/// `bytes` as a share of the default texture region, for people: `12.5%`.
pub fn share_of_default(bytes: u64) -> String {
    format!(
        "{:.1}%",
        bytes as f64 * 100.0 / f64::from(default_texture_region())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_and_variants_add_up_as_the_engine_allocates_them() {
        let shape = |name, width, height, lut| TextureShape {
            name,
            width,
            height,
            lut,
        };
        let textures = [shape("A.BIN", 16, 16, false), shape("B.BIN", 8, 3, true)];
        let plain = MaterialFlags::default();
        let bytes = texture_bytes(&textures, &[(Some(0), plain), (Some(1), plain)]);
        // 16 x 16 x 2; 32 + 8 x 3 / 2 = 12 rounded to 16, the block to 64.
        assert_eq!(bytes, [512, 64]);
        let mip = MaterialFlags::MIPMAPS;
        let ends = MaterialFlags::END_CODES;
        let split = MaterialFlags::SUBDIVISION;
        let bytes = texture_bytes(
            &textures,
            &[
                (Some(0), mip),
                (Some(0), ends),
                (Some(1), split),
                (None, mip),
            ],
        );
        // A: 512 + 8 x 8 x 2 (the 4 x 4 copy is too narrow), and again with end codes.
        // B: its quarters would be 4 wide: none.
        assert_eq!(bytes, [512 + 128 + 512, 64]);
        assert_eq!(default_texture_region(), 0x80000 - 0x28000);
    }
}
