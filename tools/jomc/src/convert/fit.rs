//! The textures fitted into VDP1 VRAM in steps, each one measured: near-identical textures
//! shared (one VRAM copy), textures stored as 16 colours with a lookup table, then the
//! largest textures halved until the whole fits the budget. The steps work on the TEXT
//! list and the materials that name it; the converter (`convert::mod`) measures the
//! picture error each step costs and prints it. docs/convert.md, "Fitting VDP1 VRAM".

use super::palette;
use super::textures::Converted;
use crate::vram;
use jom::format::MaterialFlags;
use jom_write::{Material, Pixels};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// The default largest texture error (`--texture-error`), of 255: see docs/convert.md,
/// "Fitting VDP1 VRAM", for how it was chosen.
pub const DEFAULT_MAX_ERROR: f64 = 2.0;

/// Candidates a texture is compared with when looking for a near-identical one: bounds
/// the work on a model of thousands of textures of one size.
const MAX_CANDIDATES: usize = 64;

/// When textures become 16 colours with a lookup table (embedded textures only: a .BIN
/// is always RGB 555).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaletteMode {
    /// When the texture's error stays within the bound.
    Auto,
    /// Every texture named by its pixels, whatever the error.
    Always,
    /// None but those of `jo_lut 1` materials.
    Never,
}

/// The choices of the fitting.
pub struct Settings {
    pub palette: PaletteMode,
    /// The largest texture error (see [`palette::texture_error`]) of a near-identical
    /// share or of a 16-colour form.
    pub max_error: f64,
    /// The most VDP1 VRAM bytes the textures may take.
    pub budget: u32,
    /// Textures in the file (TIMG): only those can have 16 colours.
    pub embed: bool,
}

/// A fitting step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Near-identical textures share one.
    Shared,
    /// Textures stored as 16 colours with a lookup table.
    Palettes,
    /// The largest textures halved until the whole fits.
    Halved,
}

/// The textures and the materials naming them (MATL's texture indexes into TEXT).
#[derive(Clone)]
pub struct TextureSet {
    pub textures: Vec<Converted>,
    pub materials: Vec<Material>,
}

/// One step done: how many textures it changed and what it left.
pub struct Stage {
    pub step: Step,
    pub changed: usize,
    pub set: TextureSet,
    pub bytes: u64,
}

/// The steps' results, in order; the last one's set is the model's (none: nothing
/// changed). `Err` when even the smallest form passes the budget: the bytes it needs.
pub fn fit(start: &TextureSet, settings: &Settings) -> Result<Vec<Stage>, u64> {
    let mut stages: Vec<Stage> = Vec::new();
    let mut set = start.clone();
    let shared = set.share_near_identical(settings.max_error);
    push(&mut stages, Step::Shared, shared, &set);
    if settings.embed {
        let palettes = set.palettes(settings.palette, settings.max_error);
        push(&mut stages, Step::Palettes, palettes, &set);
    }
    if set.total_bytes() > u64::from(settings.budget) {
        let halved = set.halve_until(settings.budget);
        push(&mut stages, Step::Halved, halved, &set);
        let needed = set.total_bytes();
        if needed > u64::from(settings.budget) {
            return Err(needed);
        }
    }
    Ok(stages)
}

fn push(stages: &mut Vec<Stage>, step: Step, changed: usize, set: &TextureSet) {
    if changed > 0 {
        stages.push(Stage {
            step,
            changed,
            set: set.clone(),
            bytes: set.total_bytes(),
        });
    }
}

impl TextureSet {
    /// The VRAM bytes of each texture, as the engine allocates them.
    pub fn bytes(&self) -> Vec<u32> {
        let shapes: Vec<vram::TextureShape<'_>> = self
            .textures
            .iter()
            .map(|t| vram::TextureShape {
                name: &t.name,
                width: t.width,
                height: t.height,
                lut: t.is_lut(),
            })
            .collect();
        let uses: Vec<(Option<usize>, MaterialFlags)> = self
            .materials
            .iter()
            .map(|m| {
                let texture = usize::try_from(m.texture).ok();
                (texture, MaterialFlags::from_bits(m.flags))
            })
            .collect();
        vram::texture_bytes(&shapes, &uses)
    }

    pub fn total_bytes(&self) -> u64 {
        self.bytes().iter().map(|&b| u64::from(b)).sum()
    }

    /// Whether some material drawing each texture has end codes (its 16-colour form
    /// then keeps code 15, the end code, free).
    fn end_codes(&self) -> Vec<bool> {
        let mut ends = vec![false; self.textures.len()];
        for m in &self.materials {
            if let Ok(t) = usize::try_from(m.texture) {
                ends[t] |= MaterialFlags::from_bits(m.flags).contains(MaterialFlags::END_CODES);
            }
        }
        ends
    }

    /// Each texture whose original is within `max_error` of an earlier texture as drawn
    /// (same size, same transparent pixels, same form) becomes that one; the count.
    fn share_near_identical(&mut self, max_error: f64) -> usize {
        let ends = self.end_codes();
        let mut kept: HashMap<u64, Vec<(usize, f64)>> = HashMap::new();
        let mut into: Vec<usize> = (0..self.textures.len()).collect();
        let mut shared = 0;
        for (i, texture) in self.textures.iter().enumerate() {
            let key = share_key(texture, ends[i]);
            let level = mean_level(&texture.original);
            let candidates = kept.entry(key).or_default();
            let found = candidates
                .iter()
                .filter(|&&(_, other)| (other - level).abs() <= max_error)
                .take(MAX_CANDIDATES)
                .find(|&&(r, _)| {
                    let drawn = palette::drawn(&self.textures[r].pixels);
                    palette::texture_error(&texture.original, &drawn)
                        .is_some_and(|e| e <= max_error)
                });
            match found {
                Some(&(r, _)) => {
                    into[i] = r;
                    shared += 1;
                }
                None => candidates.push((i, level)),
            }
        }
        self.merge(&into);
        shared
    }

    /// Textures named by their pixels stored as 16 colours (15, or 14 with end codes)
    /// when `mode` allows it; the count.
    fn palettes(&mut self, mode: PaletteMode, max_error: f64) -> usize {
        if mode == PaletteMode::Never {
            return 0;
        }
        let ends = self.end_codes();
        let mut changed = 0;
        for (texture, &end_codes) in self.textures.iter_mut().zip(&ends) {
            if texture.is_lut()
                || !texture.named_by_pixels
                || !lut_saves(texture.width, texture.height)
            {
                continue;
            }
            let lut = palette::lut4(&palette::drawn(&texture.pixels), colours(end_codes));
            let error = palette::texture_error(&texture.original, &palette::drawn(&lut));
            let within = error.is_some_and(|e| e <= max_error);
            if mode == PaletteMode::Always || within {
                texture.set_pixels(texture.width, texture.height, lut);
                changed += 1;
            }
        }
        self.merge_same_names();
        changed
    }

    /// The largest texture halved (width to a multiple of 8, at least 8; height at least
    /// 1), resampled from its original, again and again until the whole is within
    /// `budget` or no texture named by its pixels can shrink; the halvings made.
    fn halve_until(&mut self, budget: u32) -> usize {
        let ends = self.end_codes();
        let mut stuck = vec![false; self.textures.len()];
        let mut bytes = self.bytes();
        let mut halvings = 0;
        while bytes.iter().map(|&b| u64::from(b)).sum::<u64>() > u64::from(budget) {
            let largest = (0..self.textures.len())
                .filter(|&i| !stuck[i] && self.textures[i].named_by_pixels)
                .max_by_key(|&i| (bytes[i], std::cmp::Reverse(i)));
            let Some(i) = largest else {
                break;
            };
            let texture = &mut self.textures[i];
            let (width, height) = (texture.width, texture.height);
            let half = (
                ((width / 2).next_multiple_of(8)).max(8),
                (height / 2).max(1),
            );
            if half == (width, height) {
                stuck[i] = true;
                continue;
            }
            let rgb = resample(&texture.original, texture.original_size, half);
            let pixels = match texture.is_lut() && lut_saves(half.0, half.1) {
                true => palette::lut4(&rgb, colours(ends[i])),
                false => Pixels::Rgb555(rgb),
            };
            texture.set_pixels(half.0, half.1, pixels);
            halvings += 1;
            bytes = self.bytes();
        }
        self.merge_same_names();
        halvings
    }

    /// Textures of one name (the same pixels) become the first of them.
    fn merge_same_names(&mut self) {
        let mut first: HashMap<&str, usize> = HashMap::new();
        let into: Vec<usize> = (0..self.textures.len())
            .map(|i| *first.entry(&self.textures[i].name).or_insert(i))
            .collect();
        self.merge(&into);
    }

    /// Texture i becomes texture `into[i]` (an earlier one, or itself): the materials name
    /// the kept ones, renumbered in order.
    fn merge(&mut self, into: &[usize]) {
        let mut new_index = vec![usize::MAX; self.textures.len()];
        let mut kept = Vec::new();
        for (i, texture) in std::mem::take(&mut self.textures).into_iter().enumerate() {
            if into[i] == i {
                new_index[i] = kept.len();
                kept.push(texture);
            }
        }
        for m in &mut self.materials {
            if let Ok(t) = usize::try_from(m.texture) {
                m.texture = new_index[into[t]] as i16;
            }
        }
        self.textures = kept;
    }
}

/// Whether the 16-colour form of a `width` x `height` texture takes less VRAM than its
/// RGB 555 form (a lookup table costs 32 bytes and a block is 32-byte aligned: 8 x 4 and
/// smaller take less in RGB 555).
fn lut_saves(width: u16, height: u16) -> bool {
    let texels = u32::from(width) * u32::from(height);
    let block = |bytes: u32| bytes.next_multiple_of(8).next_multiple_of(32);
    block(32 + texels / 2) < block(texels * 2)
}

fn colours(end_codes: bool) -> usize {
    match end_codes {
        true => 14,
        false => 15,
    }
}

/// What two textures must share to be one: size, form, end codes, transparent pixels.
fn share_key(texture: &Converted, end_codes: bool) -> u64 {
    let mut hasher = DefaultHasher::new();
    (texture.width, texture.height, texture.is_lut(), end_codes).hash(&mut hasher);
    for chunk in texture.original.chunks(64) {
        let mask = chunk
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &p)| m | (u64::from(p != 0) << i));
        mask.hash(&mut hasher);
    }
    hasher.finish()
}

/// The mean over the opaque pixels of the mean of their 8-bit channels: two textures whose
/// levels differ by more than E are more than E apart (the mean of differences is at least
/// the difference of means), so most candidates are passed over without a comparison.
fn mean_level(pixels: &[u16]) -> f64 {
    let (sum, count) = pixels
        .iter()
        .filter(|&&p| p != 0)
        .fold((0u64, 0u64), |(s, n), &p| {
            let c = [p & 31, (p >> 5) & 31, (p >> 10) & 31].map(|c| u64::from(c << 3 | c >> 2));
            (s + c.iter().sum::<u64>(), n + 1)
        });
    match count {
        0 => 0.0,
        _ => sum as f64 / (3 * count) as f64,
    }
}

/// `pixels` of `from` size resampled to `to` by area: each texel the mean of the opaque
/// pixels its area covers, transparent when more than half of them are.
fn resample(pixels: &[u16], from: (u16, u16), to: (u16, u16)) -> Vec<u16> {
    let (fw, fh) = (usize::from(from.0), usize::from(from.1));
    let (tw, th) = (usize::from(to.0), usize::from(to.1));
    let span = |i: usize, small: usize, large: usize| {
        let start = i * large / small;
        start..((i + 1) * large / small).max(start + 1).min(large)
    };
    let mut out = Vec::with_capacity(tw * th);
    for y in 0..th {
        for x in 0..tw {
            let (mut sum, mut opaque, mut all) = ([0u32; 3], 0u32, 0u32);
            for sy in span(y, th, fh) {
                for sx in span(x, tw, fw) {
                    let p = pixels[sy * fw + sx];
                    all += 1;
                    if p != 0 {
                        opaque += 1;
                        for (s, shift) in sum.iter_mut().zip([0, 5, 10]) {
                            *s += u32::from((p >> shift) & 31);
                        }
                    }
                }
            }
            out.push(match opaque * 2 >= all {
                false => 0,
                true => {
                    let [r, g, b] = sum.map(|s| ((s + opaque / 2) / opaque) as u16);
                    0x8000 | (b << 10) | (g << 5) | r
                }
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resampling_averages_the_opaque_and_keeps_most_transparent() {
        // 16 x 2 to 8 x 1: each texel 4 pixels.
        let mut pixels = vec![0x8000 | 10; 32];
        pixels[0] = 0;
        pixels[16] = 0; // texel 0: 2 of 4 transparent: opaque (not more than half).
        pixels[2] = 0;
        pixels[3] = 0;
        pixels[18] = 0; // texel 1: 3 of 4 transparent.
        let out = resample(&pixels, (16, 2), (8, 1));
        assert_eq!(out.len(), 8);
        assert_eq!(out[0], 0x8000 | 10);
        assert_eq!(out[1], 0);
        assert_eq!(out[2], 0x8000 | 10);
    }

    #[test]
    fn tiny_textures_stay_rgb_555() {
        assert!(!lut_saves(8, 1));
        assert!(!lut_saves(8, 2));
        assert!(!lut_saves(8, 4)); // 64 bytes either way.
        assert!(lut_saves(8, 5)); // 64 against 96.
        assert!(lut_saves(16, 3)); // 64 against 96.
    }

    #[test]
    fn the_mean_level_bounds_the_error() {
        let a = [0x8000 | 31, 0x8000 | (31 << 5), 0];
        let b = [0x8000, 0x8000 | (20 << 5), 0];
        let error = palette::texture_error(&a, &b).unwrap_or(0.0);
        assert!((mean_level(&a) - mean_level(&b)).abs() <= error + 1e-9);
    }
}
