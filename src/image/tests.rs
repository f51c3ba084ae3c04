//! Tests of the texture file decoders, run on the host and on the SH-2: small files written
//! here byte by byte (every depth, origin and encoding of TGA), the checked-in fixtures
//! that `jom-write` writes, and every error.

use super::*;
use crate::check_eq;
use crate::selftest::Failure;

const W: usize = 8;
const H: usize = 2;
/// The largest test file: an 18-byte header, a 4-byte id, a colour map of 3 bytes and
/// 16 pixels of 4 bytes each with a packet byte each.
const FILE: usize = 18 + 4 + 3 + W * H * 5;

/// A 5-bit channel as 8 bits, so that rounding back to 5 bits gives it again.
fn eight(v: u16) -> u8 {
    ((v << 3) | (v >> 2)) as u8
}

/// The test picture: (r, g, b) 5-bit channels of pixel (x, y) (top-left origin). The left
/// half of each row is one colour (runs for RLE), the right half differs pixel by pixel.
fn color(x: usize, y: usize) -> (u16, u16, u16) {
    if x < 4 {
        (31, (y * 9) as u16, 3)
    } else {
        ((x * 3) as u16, (y * 20 + 1) as u16, (x + y * 7) as u16)
    }
}

fn expected(x: usize, y: usize) -> u16 {
    let (r, g, b) = color(x, y);
    0x8000 | b << 10 | g << 5 | r
}

/// A TGA file of the test picture: `depth` bits, `descriptor` (origin and attribute bits),
/// run-length encoded or not, with an image id and a colour map to skip when `extras`.
fn tga(depth: u8, descriptor: u8, rle: bool, extras: bool) -> ([u8; FILE], usize) {
    let mut file = [0u8; FILE];
    let image_type = if rle { 10 } else { 2 };
    let (id, map) = if extras { (4, 1) } else { (0, 0) };
    file[..18].copy_from_slice(&[
        id, map, image_type, 0, 0, map, 0, 24, 0, 0, 0, 0, W as u8, 0, H as u8, 0, depth,
        descriptor,
    ]);
    let mut at = 18 + usize::from(id) + 3 * usize::from(map);
    let mut pixels = [[0u8; 4]; W * H];
    for (k, pixel) in pixels.iter_mut().enumerate() {
        let (fx, fy) = (k % W, k / W);
        let x = if descriptor & 0x10 != 0 {
            W - 1 - fx
        } else {
            fx
        };
        let y = if descriptor & 0x20 != 0 {
            fy
        } else {
            H - 1 - fy
        };
        let (r, g, b) = color(x, y);
        *pixel = match depth {
            16 => {
                let v = 0x8000 | r << 10 | g << 5 | b;
                let [lo, hi] = v.to_le_bytes();
                [lo, hi, 0, 0]
            }
            _ => [eight(b), eight(g), eight(r), 255],
        };
    }
    let size = usize::from(depth / 8);
    let mut k = 0;
    while k < pixels.len() {
        if !rle {
            file[at..at + size].copy_from_slice(&pixels[k][..size]);
            at += size;
            k += 1;
            continue;
        }
        let run = pixels[k..].iter().take_while(|p| **p == pixels[k]).count();
        if run > 1 {
            file[at] = 0x80 | (run - 1) as u8;
            file[at + 1..at + 1 + size].copy_from_slice(&pixels[k][..size]);
            at += 1 + size;
            k += run;
        } else {
            file[at] = 0;
            file[at + 1..at + 1 + size].copy_from_slice(&pixels[k][..size]);
            at += 1 + size;
            k += 1;
        }
    }
    (file, at)
}

/// A .BIN file of the test picture.
fn bin() -> [u8; 4 + 2 * W * H] {
    let mut file = [0u8; 4 + 2 * W * H];
    file[..4].copy_from_slice(&[W as u8, 0, H as u8, 0]);
    for k in 0..W * H {
        let value = expected(k % W, k / W);
        file[4 + 2 * k..6 + 2 * k].copy_from_slice(&value.to_le_bytes());
    }
    file
}

/// Checks that `source` is the test picture, big endian.
#[allow(clippy::result_large_err)]
fn is_the_picture(source: &TextureSource<'_>, what: &str) -> Result<(), Failure> {
    check_eq!((source.width, source.height, source.format), (8, 2, 0));
    check_eq!(source.data.len(), 2 * W * H);
    for k in 0..W * H {
        let found = u16::from_be_bytes([source.data[2 * k], source.data[2 * k + 1]]);
        let wanted = expected(k % W, k / W);
        if found != wanted {
            return Err(Failure::new(
                file!(),
                line!(),
                format_args!("{what}: pixel {k}: {found:#06x}, expected {wanted:#06x}"),
            ));
        }
    }
    Ok(())
}

/// The decoded texture, or the decoder's error as a failure at `line`.
#[allow(clippy::result_large_err)]
fn decoded(
    result: Result<TextureSource<'_>, ImageError>,
    line: u32,
) -> Result<TextureSource<'_>, Failure> {
    result.map_err(|e| Failure::new(file!(), line, format_args!("{e}")))
}

fn problem(result: Result<TextureSource<'_>, ImageError>) -> Option<(usize, ImageProblem)> {
    result.err().map(|e| (e.offset, e.problem))
}

crate::test_suite! {
    fn formats_come_from_the_extension() {
        check_eq!(ImageFormat::of_name("WALL.BIN"), Some(ImageFormat::JoBin));
        check_eq!(ImageFormat::of_name("wall.tga"), Some(ImageFormat::Tga));
        check_eq!(ImageFormat::of_name("WALL.PNG"), None);
        check_eq!(ImageFormat::of_name("WALL"), None);
    }

    fn a_jo_bin_image_is_little_endian_and_comes_out_big_endian() {
        let file = bin();
        let mut pixels = [0u8; 2 * W * H];
        is_the_picture(&decoded(decode_into(ImageFormat::JoBin, &file, &mut pixels), line!())?, "into")?;
        // In place, the file at the start of the buffer or anywhere after.
        for start in [0, 1, 7, 40] {
            let mut buffer = [0u8; 80];
            buffer[start..start + file.len()].copy_from_slice(&file);
            let buffer = &mut buffer[..start + file.len()];
            is_the_picture(&decoded(decode(ImageFormat::JoBin, buffer, start), line!())?, "in place")?;
        }
    }

    fn bad_jo_bin_images_are_refused_with_their_offset() {
        let file = bin();
        let mut out = [0u8; 64];
        let mut decode_bin = |bytes: &[u8]| problem(decode_into(ImageFormat::JoBin, bytes, &mut out));
        check_eq!(
            decode_bin(&file[..3]),
            Some((0, ImageProblem::Truncated { what: "the width and the height", needed: 4 }))
        );
        let mut wide = file;
        wide[0] = 12;
        check_eq!(decode_bin(&wide), Some((0, ImageProblem::Size { width: 12, height: 2 })));
        wide[0] = 0;
        wide[1] = 2; // 512
        check_eq!(decode_bin(&wide), Some((0, ImageProblem::Size { width: 512, height: 2 })));
        let mut flat = file;
        flat[2] = 0;
        check_eq!(decode_bin(&flat), Some((0, ImageProblem::Size { width: 8, height: 0 })));
        check_eq!(
            decode_bin(&file[..35]),
            Some((35, ImageProblem::Length { expected: 36, found: 35 }))
        );
        let mut long = [0u8; 37];
        long[..36].copy_from_slice(&file);
        check_eq!(decode_bin(&long), Some((36, ImageProblem::Length { expected: 36, found: 37 })));
        let mut small = [0u8; 30];
        check_eq!(
            problem(decode_into(ImageFormat::JoBin, &file, &mut small)),
            Some((0, ImageProblem::BufferTooSmall { needed: 32, available: 30 }))
        );
    }

    fn tga_images_of_every_depth_origin_and_encoding_decode() {
        for depth in [16u8, 24, 32] {
            for descriptor in [0x00u8, 0x10, 0x20, 0x30] {
                for rle in [false, true] {
                    for extras in [false, true] {
                        let (file, len) = tga(depth, descriptor, rle, extras);
                        let mut pixels = [0u8; 2 * W * H];
                        let decoded = decode_into(ImageFormat::Tga, &file[..len], &mut pixels);
                        let source = match decoded {
                            Ok(source) => source,
                            Err(e) => {
                                return Err(Failure::new(
                                    file!(),
                                    line!(),
                                    format_args!("{depth} bits, {descriptor:#x}, rle {rle}: {e}"),
                                ))
                            }
                        };
                        is_the_picture(&source, "tga")?;
                    }
                }
            }
        }
    }

    fn tga_images_decode_in_place_after_their_pixels() {
        let (file, len) = tga(32, 0x08, true, false);
        let mut buffer = [0u8; 2 * W * H + FILE];
        let start = 2 * W * H;
        buffer[start..start + len].copy_from_slice(&file[..len]);
        is_the_picture(&decoded(decode(ImageFormat::Tga, &mut buffer[..start + len], start), line!())?, "in place")?;
        check_eq!(buffer_bytes(ImageFormat::Tga, &file[..len]), Ok(start + len));
        let mut short = [0u8; 2 * W * H + FILE];
        short[8..8 + len].copy_from_slice(&file[..len]);
        check_eq!(
            problem(decode(ImageFormat::Tga, &mut short[..8 + len], 8)),
            Some((0, ImageProblem::BufferTooSmall { needed: start + len, available: 8 + len }))
        );
    }

    fn alpha_under_128_and_a_clear_attribute_bit_are_transparent() {
        // 32 bits with 8 attribute bits: alpha 127 transparent, 128 opaque.
        let (mut file, len) = tga(32, 0x28, false, false);
        file[18 + 3] = 127;
        file[18 + 4 + 3] = 128;
        let mut pixels = [0u8; 2 * W * H];
        let source = decoded(decode_into(ImageFormat::Tga, &file[..len], &mut pixels), line!())?;
        check_eq!([source.data[0], source.data[1]], [0, 0]);
        check_eq!(u16::from_be_bytes([source.data[2], source.data[3]]), expected(1, 0));
        // Without attribute bits the fourth byte is not alpha: opaque.
        let (mut file, len) = tga(32, 0x20, false, false);
        file[18 + 3] = 0;
        let source = decoded(decode_into(ImageFormat::Tga, &file[..len], &mut pixels), line!())?;
        check_eq!(u16::from_be_bytes([source.data[0], source.data[1]]), expected(0, 0));
        // 16 bits with an attribute bit: bit 15 clear is transparent.
        let (mut file, len) = tga(16, 0x21, false, false);
        file[18 + 1] &= 0x7F;
        let source = decoded(decode_into(ImageFormat::Tga, &file[..len], &mut pixels), line!())?;
        check_eq!([source.data[0], source.data[1]], [0, 0]);
        check_eq!(u16::from_be_bytes([source.data[2], source.data[3]]), expected(1, 0));
    }

    fn bad_tga_images_are_refused_with_their_offset() {
        let (file, len) = tga(24, 0x20, false, false);
        let mut out = [0u8; 2 * W * H];
        let mut at = |patch: &[(usize, u8)], len: usize| {
            let mut bytes = file;
            for &(i, v) in patch {
                bytes[i] = v;
            }
            problem(decode_into(ImageFormat::Tga, &bytes[..len], &mut out))
        };
        check_eq!(
            at(&[], 17),
            Some((0, ImageProblem::Truncated { what: "an 18-byte header", needed: 18 }))
        );
        check_eq!(at(&[(1, 2)], len), Some((1, ImageProblem::ColorMapType(2))));
        check_eq!(at(&[(2, 1)], len), Some((2, ImageProblem::ImageType(1))));
        check_eq!(at(&[(2, 3)], len), Some((2, ImageProblem::ImageType(3))));
        check_eq!(at(&[(16, 8)], len), Some((16, ImageProblem::Depth(8))));
        check_eq!(
            at(&[(12, 9)], len),
            Some((12, ImageProblem::Size { width: 9, height: 2 }))
        );
        check_eq!(
            at(&[(0, 200)], len),
            Some((18, ImageProblem::Truncated { what: "the image id and colour map", needed: 200 }))
        );
        check_eq!(
            at(&[], len - 1),
            Some((18, ImageProblem::Truncated { what: "the pixels", needed: 48 }))
        );
        let (rle, rle_len) = tga(24, 0x20, true, false);
        let mut decode_rle = |patch: &[(usize, u8)], len: usize| {
            let mut bytes = rle;
            for &(i, v) in patch {
                bytes[i] = v;
            }
            problem(decode_into(ImageFormat::Tga, &bytes[..len], &mut out))
        };
        check_eq!(
            decode_rle(&[(18, 0xFF)], rle_len),
            Some((18, ImageProblem::RunPastEnd { run: 128, left: 16 }))
        );
        check_eq!(
            decode_rle(&[], rle_len - 1),
            Some((rle_len - 3, ImageProblem::Truncated { what: "the pixels of a packet", needed: 3 }))
        );
        check_eq!(
            decode_rle(&[], 18),
            Some((18, ImageProblem::Truncated { what: "a run-length packet", needed: 1 }))
        );
    }

    fn the_checked_in_texture_files_decode() {
        let bin = crate::selftest::fixtures::CHECKER;
        let tga = crate::selftest::fixtures::GRADIENT;
        let mut pixels = [0u8; 2 * 16 * 8];
        let checker = decoded(decode_into(ImageFormat::JoBin, bin, &mut pixels), line!())?;
        check_eq!((checker.width, checker.height), (16, 8));
        for k in 0..16 * 8 {
            let found = u16::from_be_bytes([checker.data[2 * k], checker.data[2 * k + 1]]);
            check_eq!(found, fixture_checker(k % 16, k / 16));
        }
        let gradient = decoded(decode_into(ImageFormat::Tga, tga, &mut pixels), line!())?;
        check_eq!((gradient.width, gradient.height), (8, 8));
        for k in 0..8 * 8 {
            let found = u16::from_be_bytes([gradient.data[2 * k], gradient.data[2 * k + 1]]);
            check_eq!(found, fixture_gradient(k % 8, k / 8));
        }
    }
}

/// Pixel (x, y) of `tests/fixtures/CHECKER.BIN` (written by `jom_write::fixtures`): 4x4
/// squares of red and transparent, the top-left square red.
pub(crate) fn fixture_checker(x: usize, y: usize) -> u16 {
    if (x / 4 + y / 4).is_multiple_of(2) {
        0x801F
    } else {
        0
    }
}

/// Pixel (x, y) of `tests/fixtures/GRADIENT.TGA` (32 bits, run-length encoded, bottom-up,
/// written by `jom_write::fixtures`): blue rising to the right, green downwards, the
/// bottom-right pixel transparent.
pub(crate) fn fixture_gradient(x: usize, y: usize) -> u16 {
    if (x, y) == (7, 7) {
        0
    } else {
        0x8000 | ((4 * x) as u16) << 10 | ((4 * y) as u16) << 5 | 31
    }
}
