//! Texture baking: the VDP1 draws a whole texture over a polygon (its top row along A-B,
//! its bottom row along D-C), so a face whose texture coordinates pick out only a part of
//! an image (an atlas), turn it, shear it, or repeat it gets a texture of its own, sampled
//! from the image the way the VDP1 will spread it over the face. A quad whose coordinates
//! are the image's four corners (in any rotation or mirror) uses the image as it is,
//! turned by the choice of corner A and the VDP1's flips.

use super::scene::Image;

/// The command-line choices that size baked textures.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Texels of the baked texture per texel of the image (`--texel-scale`).
    pub texel_scale: f64,
    /// The largest baked texture (`--max-texture`): a width multiple of 8 up to 504, a
    /// height up to 255.
    pub max_width: u16,
    pub max_height: u16,
}

/// The VDP1's flips that draw an image as a face's corner coordinates ask.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flips {
    pub h: bool,
    pub v: bool,
}

/// How far a coordinate may be from 0 or 1 and still be an image corner (exporters write 6
/// decimals).
const CORNER_TOLERANCE: f64 = 1e-6;

/// Each corner's image corner, (0 or 1, 0 or 1) for (u, v), when the four coordinates are
/// the image's four corners, each once, in the order of going round the image (either
/// way).
fn image_corners(uvs: &[[f64; 2]; 4]) -> Option<[(u8, u8); 4]> {
    let bit = |c: f64| match c {
        _ if c.abs() <= CORNER_TOLERANCE => Some(0),
        _ if (c - 1.0).abs() <= CORNER_TOLERANCE => Some(1),
        _ => None,
    };
    let mut codes = [(0, 0); 4];
    for (code, [u, v]) in codes.iter_mut().zip(uvs) {
        *code = (bit(*u)?, bit(*v)?);
    }
    // Round the square: each step changes exactly one of u and v (so all four differ).
    let round = (0..4).all(|i| {
        let (a, b) = (codes[i], codes[(i + 1) % 4]);
        (a.0 != b.0) != (a.1 != b.1)
    });
    round.then_some(codes)
}

/// For a quad whose coordinates are the image's corners: how far to turn its corners
/// (winding kept) so that A-B runs along the image's top or bottom row, as the VDP1 draws
/// a texture's rows, A on the top left where the winding allows it, else on the top row
/// (the flips then mirror it).
pub fn corner_turn(uvs: &[[f64; 2]; 4]) -> Option<usize> {
    let codes = image_corners(uvs)?;
    (0..4)
        .filter(|&i| codes[i].0 != codes[(i + 1) % 4].0)
        .min_by_key(|&i| (codes[i].1, codes[i].0))
}

/// The flips that draw the image on a quad already turned by [`corner_turn`]; `None` when
/// its coordinates are not the image's corners with A-B along a row (the face is baked).
pub fn corner_flips(uvs: &[[f64; 2]; 4]) -> Option<Flips> {
    let codes = image_corners(uvs)?;
    // A-B along a row: the VDP1 puts texel (0, 0) at A, then flips mirror it.
    (codes[0].0 != codes[1].0).then_some(Flips {
        h: codes[0].0 == 1,
        v: codes[0].1 == 1,
    })
}

/// A texture baked for one face.
pub struct Baked {
    pub width: u16,
    pub height: u16,
    /// Row by row from the top left (the texel drawn at A).
    pub rgba: Vec<[u8; 4]>,
}

/// The texture of a face whose corners A, B, C, D have the coordinates `uvs` (a triangle
/// is A, B, C, C), sampled from `image`: texel (x, y) is drawn by the VDP1 at (s, t) =
/// ((x + 0.5) / width, (y + 0.5) / height) of the face, s from edge A-D to edge B-C and t
/// from A-B to D-C, so it takes the image at the coordinates interpolated there. Each
/// texel is the image's texel at that point (nearest, repeating outside 0 to 1).
pub fn bake(image: &Image, uvs: &[[f64; 2]; 4], settings: &Settings) -> Baked {
    let (width, height) = size(image, uvs, settings);
    let [a, b, c, d] = *uvs;
    let mut rgba = Vec::with_capacity(usize::from(width) * usize::from(height));
    let (image_w, image_h) = (f64::from(image.width), f64::from(image.height));
    for y in 0..height {
        let t = (f64::from(y) + 0.5) / f64::from(height);
        // The row's ends, on edges A-D and B-C.
        let left = lerp(a, d, t);
        let right = lerp(b, c, t);
        for x in 0..width {
            let s = (f64::from(x) + 0.5) / f64::from(width);
            let [u, v] = lerp(left, right, s);
            let column = texel(u * image_w, image.width);
            let row = texel(v * image_h, image.height);
            rgba.push(image.rgba[row * image.width as usize + column]);
        }
    }
    Baked {
        width,
        height,
        rgba,
    }
}

/// The baked texture's size: the face's extent in texels of the image along its rows
/// (the longer of A-B and D-C) and its columns (the longer of A-D and B-C), times the
/// texel scale, the width rounded up to a multiple of 8, both within the largest size.
fn size(image: &Image, uvs: &[[f64; 2]; 4], settings: &Settings) -> (u16, u16) {
    let [a, b, c, d] = *uvs;
    let texels = |p: [f64; 2], q: [f64; 2]| {
        let du = (q[0] - p[0]) * f64::from(image.width);
        let dv = (q[1] - p[1]) * f64::from(image.height);
        du.hypot(dv)
    };
    let across = texels(a, b).max(texels(d, c)) * settings.texel_scale;
    let down = texels(a, d).max(texels(b, c)) * settings.texel_scale;
    // A whole number of texels from coordinates written with 6 decimals (15.99998 or
    // 16.00003) is that number.
    let whole = |extent: f64| (extent - 1e-3).ceil().max(1.0);
    let width = (whole(across) / 8.0).ceil() * 8.0;
    (
        width.min(f64::from(settings.max_width)) as u16,
        whole(down).min(f64::from(settings.max_height)) as u16,
    )
}

fn lerp(p: [f64; 2], q: [f64; 2], t: f64) -> [f64; 2] {
    [p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]
}

/// The texel of a coordinate in texels, the image repeating on both sides.
fn texel(position: f64, size: u32) -> usize {
    (position.floor() as i64).rem_euclid(i64::from(size)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: Settings = Settings {
        texel_scale: 1.0,
        max_width: 504,
        max_height: 255,
    };

    /// A `width` x `height` image whose texel (x, y) is (x, y, 0, 255).
    fn ramp(width: u32, height: u32) -> Image {
        Image {
            name: "ramp".into(),
            label: "ramp.png".into(),
            width,
            height,
            rgba: (0..height)
                .flat_map(|y| (0..width).map(move |x| [x as u8, y as u8, 0, 255]))
                .collect(),
        }
    }

    const TL: [f64; 2] = [0.0, 0.0];
    const TR: [f64; 2] = [1.0, 0.0];
    const BR: [f64; 2] = [1.0, 1.0];
    const BL: [f64; 2] = [0.0, 1.0];

    #[test]
    fn the_image_corners_in_any_rotation_or_mirror_are_drawn_as_they_are() {
        assert_eq!(corner_turn(&[TL, TR, BR, BL]), Some(0));
        assert_eq!(corner_turn(&[BR, BL, TL, TR]), Some(2));
        // Mirrored (the other way round): A on the top row, mirrored by a flip.
        let mirrored = [TL, BL, BR, TR];
        assert_eq!(corner_turn(&mirrored), Some(3));
        let turned = [TR, TL, BL, BR];
        assert_eq!(corner_flips(&turned), Some(Flips { h: true, v: false }));
        assert_eq!(
            corner_flips(&[BL, BR, TR, TL]),
            Some(Flips { h: false, v: true })
        );
        assert_eq!(corner_flips(&[TL, TR, BR, BL]), Some(Flips::default()));
        // Not the corners, or not round the image, or A-B not along a row.
        assert_eq!(corner_turn(&[TL, BR, TR, BL]), None);
        assert_eq!(corner_turn(&[TL, [0.5, 0.0], BR, BL]), None);
        assert_eq!(corner_flips(&[TL, BL, BR, TR]), None);
        assert_eq!(corner_turn(&[TL, TR, BR, BR]), None);
    }

    #[test]
    fn a_part_of_an_atlas_is_baked_texel_for_texel() {
        let image = ramp(64, 32);
        // The 16 x 8 texels from (8, 4).
        let (u0, v0, u1, v1) = (8.0 / 64.0, 4.0 / 32.0, 24.0 / 64.0, 12.0 / 32.0);
        let baked = bake(&image, &[[u0, v0], [u1, v0], [u1, v1], [u0, v1]], &SETTINGS);
        assert_eq!((baked.width, baked.height), (16, 8));
        assert_eq!(baked.rgba[0], [8, 4, 0, 255]);
        assert_eq!(baked.rgba[16 * 8 - 1], [23, 11, 0, 255]);
    }

    #[test]
    fn turned_coordinates_turn_the_texture() {
        let image = ramp(16, 16);
        // A at the image's top right, B at its bottom right: the texture's top row is the
        // image's right column, from the top.
        let baked = bake(&image, &[TR, BR, BL, TL], &SETTINGS);
        assert_eq!((baked.width, baked.height), (16, 16));
        let row0: Vec<[u8; 4]> = baked.rgba[..16].to_vec();
        assert!(row0
            .iter()
            .enumerate()
            .all(|(i, p)| *p == [15, i as u8, 0, 255]));
    }

    #[test]
    fn coordinates_outside_0_to_1_repeat_and_a_triangle_ends_in_c() {
        let image = ramp(8, 8);
        let baked = bake(&image, &[TL, [2.0, 0.0], [2.0, 1.0], BL], &SETTINGS);
        assert_eq!((baked.width, baked.height), (16, 8));
        assert_eq!(baked.rgba[8], [0, 0, 0, 255], "the image again from x = 8");
        let baked = bake(&image, &[[-1.0, 0.0], TL, BL, [-1.0, 1.0]], &SETTINGS);
        assert_eq!(baked.rgba[0], [0, 0, 0, 255]);
        // A triangle: the last row gathers near C.
        let triangle = bake(&image, &[TL, TR, BL, BL], &SETTINGS);
        // Down: the longer of A-D (8 texels) and B-C (the diagonal, 11.3).
        assert_eq!((triangle.width, triangle.height), (8, 12));
        let last = &triangle.rgba[11 * 8..];
        assert!(last.iter().all(|p| p[0] == 0 && p[1] == 7), "{last:?}");
    }

    #[test]
    fn sizes_follow_the_texel_scale_and_the_largest_size() {
        let image = ramp(200, 200);
        let whole = [TL, TR, BR, BL];
        let scaled = Settings {
            texel_scale: 0.5,
            ..SETTINGS
        };
        let baked = bake(
            &image,
            &[[0.0, 0.0], [0.5, 0.0], [0.5, 0.5], [0.0, 0.5]],
            &scaled,
        );
        // 50 texels across: a multiple of 8 is 56.
        assert_eq!((baked.width, baked.height), (56, 50));
        let capped = Settings {
            texel_scale: 4.0,
            max_width: 64,
            max_height: 40,
        };
        let baked = bake(&image, &whole, &capped);
        assert_eq!((baked.width, baked.height), (64, 40));
    }
}
