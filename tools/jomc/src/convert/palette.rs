//! 16-colour textures: the quantizer that turns a texture's RGB 555 pixels into a lookup
//! table of at most 15 opaque colours (entry 0 is the transparent pixel) and 4-bit pixels,
//! and the texture error that decides whether a texture may be stored so.
//!
//! The quantizer is our own: median cut for a start (the box of colours, weighted by pixel
//! counts, with the widest channel range split at the weighted median of that channel),
//! then Lloyd's k-means over the image's colour histogram until no colour changes entry.
//! Why not a crate: `imagequant` (libimagequant) is GPL-3, which this MIT/Apache project
//! cannot take; `color_quant` is NeuQuant, made for 256 colours and poor at 15; and the
//! problem is small (5-bit channels, at most 32,768 colours, 15 entries), so the whole of
//! it is a hundred lines that keep transparency exact (no opaque pixel ever takes entry 0)
//! and give the same table for the same pixels on every machine (no floating point in the
//! table). The k-means passes lower median cut's error (`tests`, on a gradient).

use jom_write::Pixels;
use std::collections::BTreeMap;

/// Most k-means passes; each one moves every entry to the mean of its colours. On the
/// samples the passes stop on their own (no colour changes entry) well before this.
const MAX_PASSES: usize = 32;

/// 16 colours with a lookup table: entry 0 transparent, the opaque colours in entries 1 to
/// `colors` (quantised when there are more), two pixels a byte, left one high.
pub fn lut4(rgb: &[u16], colors: usize) -> Pixels {
    let mut counts: BTreeMap<u16, u64> = BTreeMap::new();
    for &p in rgb.iter().filter(|&&p| p != 0) {
        *counts.entry(p & 0x7FFF).or_default() += 1;
    }
    let histogram: Vec<(u16, u64)> = counts.into_iter().collect();
    let palette: Vec<u16> = if histogram.len() <= colors {
        histogram.iter().map(|&(c, _)| c | 0x8000).collect()
    } else {
        k_means(&histogram, median_cut(histogram.clone(), colors))
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

/// The pixels as the VDP1 draws them, RGB 555 (0: transparent).
pub fn drawn(pixels: &Pixels) -> Vec<u16> {
    match pixels {
        Pixels::Rgb555(pixels) => pixels.clone(),
        Pixels::Lut4 { lut, indices } => indices
            .iter()
            .flat_map(|&byte| [byte >> 4, byte & 15])
            .map(|i| lut[usize::from(i)])
            .collect(),
    }
}

/// How far `drawn` is from `original` (RGB 555 pixels of one size, 0 transparent): the
/// mean absolute difference of the 8-bit channels (R, G, B, each 5-bit value widened as the
/// PNG files and `jomc compare` widen it) over the opaque pixels, 0 to 255, the unit of
/// `jomc compare`'s picture error. `None` when the two differ in which pixels are
/// transparent: transparency is kept exact, never traded.
pub fn texture_error(original: &[u16], drawn: &[u16]) -> Option<f64> {
    if original.len() != drawn.len() {
        return None;
    }
    let mut sum = 0u64;
    let mut opaque = 0u64;
    for (&a, &b) in original.iter().zip(drawn) {
        if (a == 0) != (b == 0) {
            return None;
        }
        if a != 0 {
            opaque += 1;
            let (ca, cb) = (wide(a), wide(b));
            sum += (0..3).map(|i| ca[i].abs_diff(cb[i]) as u64).sum::<u64>();
        }
    }
    Some(match opaque {
        0 => 0.0,
        _ => sum as f64 / (3 * opaque) as f64,
    })
}

/// A pixel's channels widened to 8 bits (`c << 3 | c >> 2`).
fn wide(p: u16) -> [i32; 3] {
    channels(p).map(|c| c << 3 | c >> 2)
}

fn channels(c: u16) -> [i32; 3] {
    [c & 31, (c >> 5) & 31, (c >> 10) & 31].map(i32::from)
}

fn from_channels([r, g, b]: [i32; 3]) -> u16 {
    0x8000 | ((b as u16) << 10) | ((g as u16) << 5) | r as u16
}

fn distance(a: [i32; 3], b: [i32; 3]) -> i32 {
    (0..3).map(|i| (a[i] - b[i]).pow(2)).sum()
}

/// The index of the palette colour nearest to `c` (squared distance over the 5-bit
/// channels; the lowest index on a tie).
fn nearest(palette: &[u16], c: u16) -> u8 {
    let c = channels(c);
    let mut best = 0;
    let mut best_distance = i32::MAX;
    for (i, &p) in palette.iter().enumerate() {
        let d = distance(channels(p), c);
        if d < best_distance {
            (best, best_distance) = (i, d);
        }
    }
    best as u8
}

/// Lloyd's k-means from `palette`: each colour of the histogram to its nearest entry, each
/// entry to the weighted mean of its colours (rounded to 5 bits), until no colour changes
/// entry. An entry left without colours keeps its place.
fn k_means(histogram: &[(u16, u64)], mut palette: Vec<u16>) -> Vec<u16> {
    let mut owner: Vec<u8> = vec![u8::MAX; histogram.len()];
    for _ in 0..MAX_PASSES {
        let mut changed = false;
        for (slot, &(c, _)) in owner.iter_mut().zip(histogram) {
            let entry = nearest(&palette, c);
            changed |= *slot != entry;
            *slot = entry;
        }
        if !changed {
            break;
        }
        let mut sums = vec![([0u64; 3], 0u64); palette.len()];
        for (&entry, &(c, w)) in owner.iter().zip(histogram) {
            let (sum, weight) = &mut sums[usize::from(entry)];
            for (s, v) in sum.iter_mut().zip(channels(c)) {
                *s += v as u64 * w;
            }
            *weight += w;
        }
        for (p, (sum, weight)) in palette.iter_mut().zip(sums) {
            if weight > 0 {
                *p = from_channels(sum.map(|s| ((s + weight / 2) / weight) as i32));
            }
        }
    }
    palette
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A gradient image of many colours, with a transparent border.
    fn gradient(width: usize, height: usize) -> Vec<u16> {
        let mut pixels = Vec::new();
        for y in 0..height {
            for x in 0..width {
                let border = x == 0 || y == 0;
                let (r, g, b) = (
                    x * 31 / width,
                    y * 31 / height,
                    (x + y) * 15 / (width + height),
                );
                pixels.push(match border {
                    true => 0,
                    false => from_channels([r as i32, g as i32, b as i32 + 8]),
                });
            }
        }
        pixels
    }

    #[test]
    fn median_cut_gives_15_colours_near_the_image() {
        // 32 greys: each quantised colour must be within 2 steps of its own.
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

    #[test]
    fn transparency_stays_exact_and_few_colours_stay_exact() {
        let pixels = gradient(32, 16);
        let lut = lut4(&pixels, 15);
        let shown = drawn(&lut);
        for (a, b) in pixels.iter().zip(&shown) {
            assert_eq!(*a == 0, *b == 0);
        }
        assert!(texture_error(&pixels, &shown).is_some());
        // 3 colours and transparency: exact.
        let few = [0, 0x801F, 0x83E0, 0xFC00, 0x801F, 0, 0x83E0, 0x83E0];
        let lut = lut4(&few, 15);
        assert_eq!(drawn(&lut), few);
        assert_eq!(texture_error(&few, &drawn(&lut)), Some(0.0));
    }

    #[test]
    fn k_means_passes_lower_the_error_of_median_cut() {
        let pixels = gradient(64, 64);
        let mut counts: BTreeMap<u16, u64> = BTreeMap::new();
        for &p in pixels.iter().filter(|&&p| p != 0) {
            *counts.entry(p & 0x7FFF).or_default() += 1;
        }
        let histogram: Vec<(u16, u64)> = counts.into_iter().collect();
        let cut = median_cut(histogram.clone(), 15);
        let error_of = |palette: &[u16]| {
            let drawn: Vec<u16> = pixels
                .iter()
                .map(|&p| match p {
                    0 => 0,
                    _ => palette[usize::from(nearest(palette, p))],
                })
                .collect();
            texture_error(&pixels, &drawn).unwrap_or(f64::INFINITY)
        };
        let (before, after) = (error_of(&cut), error_of(&k_means(&histogram, cut.clone())));
        assert!(after < before, "median cut {before}, with k-means {after}");
        assert_eq!(drawn(&lut4(&pixels, 15)), {
            let palette = k_means(&histogram, cut);
            pixels
                .iter()
                .map(|&p| match p {
                    0 => 0,
                    _ => palette[usize::from(nearest(&palette, p))],
                })
                .collect::<Vec<u16>>()
        });
    }

    #[test]
    fn the_error_is_in_8_bit_steps_and_refuses_a_change_of_transparency() {
        // Red 31 against red 30: 255 against 247, 8 of 255 on one channel of three.
        let error = texture_error(&[0x801F, 0], &[0x801E, 0]).unwrap_or(0.0);
        assert!((error - 8.0 / 3.0).abs() < 1e-9, "{error}");
        assert_eq!(texture_error(&[0x801F, 0], &[0x801F, 0x801F]), None);
    }
}
