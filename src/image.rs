//! Texture files, as the CD holds them for a model without embedded textures (TEXT names a
//! file per texture): jo engine `.BIN` images and Truevision `.TGA` images, decoded into
//! the VDP1's big-endian RGB 555 pixels, a [`TextureSource`] ready for the
//! [`TextureCache`](crate::vdp1::TextureCache). No allocation: the caller gives one buffer,
//! reused from one texture to the next.
//!
//! - `.BIN` (jo engine's `jo_sprite_add_bin`): `u16` width, `u16` height, then width x
//!   height RGB 555 pixels, left to right then top to bottom, every value **little
//!   endian** (jo's loader swaps each with `jo_swap_endian_ushort` on the SH-2). Pixel 0 is
//!   transparent. The file is exactly `4 + 2 x width x height` bytes.
//! - `.TGA`: image type 2 (uncompressed true colour) or 10 (run-length encoded), 15/16, 24
//!   or 32 bits a pixel, any colour map skipped, the origin (descriptor bits 4 and 5:
//!   right-to-left, top-to-bottom) honoured. With attribute bits in the descriptor
//!   (bits 3-0), a 16-bit pixel whose attribute bit is 0 or a 32-bit pixel whose alpha is
//!   under 128 becomes transparent (0); the colours are rounded to 5 bits as the converter
//!   rounds PNG pixels, with bit 15 set.
//!
//! Both need a size the VDP1 draws (width a multiple of 8 from 8 to 504, height 1 to 255).
//! A bad file gives one [`ImageError`]: the byte offset in the file and what was expected.

use crate::vdp1::TextureSource;
use core::fmt;

/// The widest texture the VDP1 draws.
const MAX_WIDTH: u16 = 504;
/// The tallest.
const MAX_HEIGHT: u16 = 255;
const BIN_HEADER: usize = 4;
const TGA_HEADER: usize = 18;
const TGA_TRUE_COLOR: u8 = 2;
const TGA_RLE_TRUE_COLOR: u8 = 10;
const TGA_RIGHT_TO_LEFT: u8 = 1 << 4;
const TGA_TOP_TO_BOTTOM: u8 = 1 << 5;

/// The kind of a texture file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// A jo engine `.BIN` image.
    JoBin,
    /// A Truevision `.TGA` image.
    Tga,
}

impl ImageFormat {
    /// The format a file name's extension says (`.BIN` or `.TGA`, any case).
    pub fn of_name(name: &str) -> Option<Self> {
        let (_, extension) = name.rsplit_once('.')?;
        if extension.eq_ignore_ascii_case("BIN") {
            Some(Self::JoBin)
        } else if extension.eq_ignore_ascii_case("TGA") {
            Some(Self::Tga)
        } else {
            None
        }
    }
}

/// What is wrong with a texture file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageProblem {
    /// The file ends before `what`.
    Truncated {
        /// What the file should hold from the offset on.
        what: &'static str,
        /// The bytes it needs from the offset.
        needed: usize,
    },
    /// A size the VDP1 cannot draw.
    Size {
        /// The width in the file.
        width: u16,
        /// The height in the file.
        height: u16,
    },
    /// A `.BIN` file whose length is not `4 + 2 x width x height`.
    Length {
        /// The length its header implies.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A TGA colour map type other than 0 (none) or 1 (present, skipped).
    ColorMapType(u8),
    /// A TGA image type other than 2 (true colour) or 10 (run-length encoded true colour).
    ImageType(u8),
    /// A TGA pixel depth other than 15, 16, 24 or 32 bits.
    Depth(u8),
    /// A run-length packet that goes past the last pixel.
    RunPastEnd {
        /// The pixels the packet holds.
        run: usize,
        /// The pixels left to fill.
        left: usize,
    },
    /// The buffer cannot hold the file and its pixels.
    BufferTooSmall {
        /// The bytes needed.
        needed: usize,
        /// The buffer's length.
        available: usize,
    },
}

/// A texture file that does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageError {
    /// The file's format.
    pub format: ImageFormat,
    /// The byte offset in the file where the problem is.
    pub offset: usize,
    /// The problem.
    pub problem: ImageProblem,
}

impl fmt::Display for ImageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = match self.format {
            ImageFormat::JoBin => ".BIN",
            ImageFormat::Tga => ".TGA",
        };
        write!(f, "{format} image, byte {}: ", self.offset)?;
        match self.problem {
            ImageProblem::Truncated { what, needed } => {
                write!(f, "the file ends, expected {what} ({needed} bytes)")
            }
            ImageProblem::Size { width, height } => write!(
                f,
                "{width}x{height} pixels, expected a width multiple of 8 from 8 to 504 and a \
                 height from 1 to 255"
            ),
            ImageProblem::Length { expected, found } => write!(
                f,
                "the file is {found} bytes, expected {expected} (4 + 2 x width x height)"
            ),
            ImageProblem::ColorMapType(t) => {
                write!(f, "colour map type {t}, expected 0 or 1")
            }
            ImageProblem::ImageType(t) => write!(
                f,
                "image type {t}, expected 2 (true colour) or 10 (run-length encoded true colour)"
            ),
            ImageProblem::Depth(d) => write!(f, "{d} bits a pixel, expected 15, 16, 24 or 32"),
            ImageProblem::RunPastEnd { run, left } => write!(
                f,
                "a packet of {run} pixels, expected at most {left} (the pixels left)"
            ),
            ImageProblem::BufferTooSmall { needed, available } => write!(
                f,
                "the buffer holds {available} bytes, expected {needed} (file and pixels)"
            ),
        }
    }
}

impl core::error::Error for ImageError {}

/// A texture file's size, read from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
}

impl ImageInfo {
    /// The bytes its RGB 555 pixels take.
    pub fn pixel_bytes(&self) -> usize {
        2 * usize::from(self.width) * usize::from(self.height)
    }
}

/// Reads and checks a texture file's header.
pub fn probe(format: ImageFormat, file: &[u8]) -> Result<ImageInfo, ImageError> {
    match format {
        ImageFormat::JoBin => bin_header(file),
        ImageFormat::Tga => tga_header(file).map(|h| h.info),
    }
}

/// The bytes a buffer needs for [`decode`] to decode `file` in it.
pub fn buffer_bytes(format: ImageFormat, file: &[u8]) -> Result<usize, ImageError> {
    let info = probe(format, file)?;
    Ok(match format {
        // Decoded front to back over the file itself.
        ImageFormat::JoBin => file.len(),
        ImageFormat::Tga => file.len() + info.pixel_bytes(),
    })
}

/// Decodes the file in `buffer[file_start..]` into pixels at the start of `buffer`. A
/// `.BIN` image may lie anywhere in the buffer (its pixels are written front to back over
/// it, never ahead of what is still to be read); a `.TGA` image's pixels must fit before
/// `file_start`. This is how one buffer serves every texture of a model: the file is read
/// into its end, the pixels come out at its start.
pub fn decode(
    format: ImageFormat,
    buffer: &mut [u8],
    file_start: usize,
) -> Result<TextureSource<'_>, ImageError> {
    let available = buffer.len();
    let file = buffer.get(file_start..).unwrap_or(&[]);
    let info = probe(format, file)?;
    let too_small = |needed| ImageError {
        format,
        offset: 0,
        problem: ImageProblem::BufferTooSmall { needed, available },
    };
    match format {
        ImageFormat::JoBin => {
            let pixels = info.pixel_bytes();
            for i in (0..pixels).step_by(2) {
                let at = file_start + BIN_HEADER + i;
                let value = u16::from_le_bytes([buffer[at], buffer[at + 1]]);
                buffer[i..i + 2].copy_from_slice(&value.to_be_bytes());
            }
            Ok(source(info, &buffer[..pixels]))
        }
        ImageFormat::Tga => {
            let needed = info.pixel_bytes() + file.len();
            if info.pixel_bytes() > file_start {
                return Err(too_small(needed));
            }
            let (pixels, file) = buffer.split_at_mut(file_start);
            decode_into(format, file, pixels)?;
            Ok(source(info, &buffer[..info.pixel_bytes()]))
        }
    }
}

/// Decodes `file` into `pixels` (at least [`ImageInfo::pixel_bytes`] long).
pub fn decode_into<'p>(
    format: ImageFormat,
    file: &[u8],
    pixels: &'p mut [u8],
) -> Result<TextureSource<'p>, ImageError> {
    let info = probe(format, file)?;
    let needed = info.pixel_bytes();
    if pixels.len() < needed {
        return Err(ImageError {
            format,
            offset: 0,
            problem: ImageProblem::BufferTooSmall {
                needed,
                available: pixels.len(),
            },
        });
    }
    let out = &mut pixels[..needed];
    match format {
        ImageFormat::JoBin => {
            for (pixel, stored) in out
                .chunks_exact_mut(2)
                .zip(file[BIN_HEADER..].chunks_exact(2))
            {
                pixel.copy_from_slice(&[stored[1], stored[0]]);
            }
        }
        ImageFormat::Tga => tga_pixels(&tga_header(file)?, file, out)?,
    }
    Ok(source(info, out))
}

fn source(info: ImageInfo, data: &[u8]) -> TextureSource<'_> {
    TextureSource {
        width: info.width,
        height: info.height,
        format: 0,
        data,
    }
}

fn check_size(format: ImageFormat, offset: usize, info: ImageInfo) -> Result<(), ImageError> {
    let ImageInfo { width, height } = info;
    if width % 8 != 0 || !(8..=MAX_WIDTH).contains(&width) || !(1..=MAX_HEIGHT).contains(&height) {
        return Err(ImageError {
            format,
            offset,
            problem: ImageProblem::Size { width, height },
        });
    }
    Ok(())
}

fn truncated(
    format: ImageFormat,
    file: &[u8],
    start: usize,
    what: &'static str,
    needed: usize,
) -> ImageError {
    ImageError {
        format,
        offset: start.min(file.len()),
        problem: ImageProblem::Truncated { what, needed },
    }
}

fn bin_header(file: &[u8]) -> Result<ImageInfo, ImageError> {
    let format = ImageFormat::JoBin;
    let Some(header) = file.get(..BIN_HEADER) else {
        return Err(truncated(
            format,
            file,
            0,
            "the width and the height",
            BIN_HEADER,
        ));
    };
    let info = ImageInfo {
        width: u16::from_le_bytes([header[0], header[1]]),
        height: u16::from_le_bytes([header[2], header[3]]),
    };
    check_size(format, 0, info)?;
    let expected = BIN_HEADER + info.pixel_bytes();
    if file.len() != expected {
        return Err(ImageError {
            format,
            offset: file.len().min(expected),
            problem: ImageProblem::Length {
                expected,
                found: file.len(),
            },
        });
    }
    Ok(info)
}

/// What the TGA header says.
struct TgaHeader {
    info: ImageInfo,
    rle: bool,
    /// Bytes a pixel.
    bytes: usize,
    /// Whether the attribute bits (alpha) are used.
    alpha: bool,
    descriptor: u8,
    /// Where the pixel data starts.
    data: usize,
}

fn tga_header(file: &[u8]) -> Result<TgaHeader, ImageError> {
    let format = ImageFormat::Tga;
    let error = |offset, problem| ImageError {
        format,
        offset,
        problem,
    };
    let Some(h) = file.get(..TGA_HEADER) else {
        return Err(truncated(format, file, 0, "an 18-byte header", TGA_HEADER));
    };
    let le16 = |at: usize| u16::from_le_bytes([h[at], h[at + 1]]);
    let (id_length, color_map, image_type) = (h[0], h[1], h[2]);
    if color_map > 1 {
        return Err(error(1, ImageProblem::ColorMapType(color_map)));
    }
    if image_type != TGA_TRUE_COLOR && image_type != TGA_RLE_TRUE_COLOR {
        return Err(error(2, ImageProblem::ImageType(image_type)));
    }
    let depth = h[16];
    let bytes = match depth {
        15 | 16 => 2,
        24 => 3,
        32 => 4,
        _ => return Err(error(16, ImageProblem::Depth(depth))),
    };
    let info = ImageInfo {
        width: le16(12),
        height: le16(14),
    };
    check_size(format, 12, info)?;
    let map_bytes = match color_map {
        1 => usize::from(le16(5)) * usize::from(h[7]).div_ceil(8),
        _ => 0,
    };
    let data = TGA_HEADER + usize::from(id_length) + map_bytes;
    if file.len() < data {
        return Err(truncated(
            format,
            file,
            TGA_HEADER,
            "the image id and colour map",
            data - TGA_HEADER,
        ));
    }
    let descriptor = h[17];
    Ok(TgaHeader {
        info,
        rle: image_type == TGA_RLE_TRUE_COLOR,
        bytes,
        alpha: descriptor & 0x0F != 0 && depth != 24,
        descriptor,
        data,
    })
}

/// Writes every pixel of the file, in the file's order, where the origin puts it.
fn tga_pixels(header: &TgaHeader, file: &[u8], out: &mut [u8]) -> Result<(), ImageError> {
    let (width, height) = (
        usize::from(header.info.width),
        usize::from(header.info.height),
    );
    let count = width * height;
    let mut put = |k: usize, pixel: &[u8]| {
        let (x, y) = (k % width, k / width);
        let x = if header.descriptor & TGA_RIGHT_TO_LEFT != 0 {
            width - 1 - x
        } else {
            x
        };
        let y = if header.descriptor & TGA_TOP_TO_BOTTOM != 0 {
            y
        } else {
            height - 1 - y
        };
        let at = 2 * (y * width + x);
        out[at..at + 2].copy_from_slice(&rgb555(pixel, header.alpha).to_be_bytes());
    };
    let size = header.bytes;
    let format = ImageFormat::Tga;
    if !header.rle {
        let needed = count * size;
        let Some(data) = file.get(header.data..header.data + needed) else {
            return Err(truncated(format, file, header.data, "the pixels", needed));
        };
        data.chunks_exact(size)
            .enumerate()
            .for_each(|(k, p)| put(k, p));
        return Ok(());
    }
    let (mut k, mut at) = (0, header.data);
    while k < count {
        let Some(&packet) = file.get(at) else {
            return Err(truncated(format, file, at, "a run-length packet", 1));
        };
        let run = usize::from(packet & 0x7F) + 1;
        if run > count - k {
            return Err(ImageError {
                format,
                offset: at,
                problem: ImageProblem::RunPastEnd {
                    run,
                    left: count - k,
                },
            });
        }
        let repeated = packet & 0x80 != 0;
        let needed = if repeated { size } else { run * size };
        let Some(data) = file.get(at + 1..at + 1 + needed) else {
            return Err(truncated(
                format,
                file,
                at + 1,
                "the pixels of a packet",
                needed,
            ));
        };
        for i in 0..run {
            let pixel = if repeated {
                data
            } else {
                &data[i * size..(i + 1) * size]
            };
            put(k + i, pixel);
        }
        k += run;
        at += 1 + needed;
    }
    Ok(())
}

/// A TGA pixel (little endian: 16-bit ARRRRRGGGGGBBBBB, or B, G, R[, A]) as VDP1 RGB 555.
fn rgb555(pixel: &[u8], alpha: bool) -> u16 {
    let five = |c: u8| (u16::from(c) * 31 + 127) / 255;
    let (r, g, b, opaque) = match *pixel {
        [lo, hi] => {
            let v = u16::from_le_bytes([lo, hi]);
            (v >> 10 & 31, v >> 5 & 31, v & 31, v & 0x8000 != 0)
        }
        [b, g, r] => (five(r), five(g), five(b), true),
        [b, g, r, a, ..] => (five(r), five(g), five(b), a >= 128),
        _ => (0, 0, 0, false),
    };
    if alpha && !opaque {
        return 0;
    }
    0x8000 | b << 10 | g << 5 | r
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
