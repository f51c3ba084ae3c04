//! TOD, the PlayStation's animation (Sony, File Formats, "TOD: Animation Data"): a header
//! (ID 0x50, version, resolution, frame count), then the frames in time order, each a
//! frame header (size in words, packet count, frame number) and its packets. A packet is
//! one word (object ID bits 0-15, type bits 16-19, flag bits 20-23, length in words bits
//! 24-31, the word included) and its data.

use crate::bytes::Bytes;
use crate::Error;

/// The TOD file's ID byte.
pub const ID: u8 = 0x50;

/// An animation.
#[derive(Clone, Debug, PartialEq)]
pub struct Tod {
    pub version: u8,
    /// Ticks (1/60 s) per frame; libgs treats 0 as 1.
    pub resolution: u16,
    pub frames: Vec<Frame>,
}

/// One frame: what changes at that time.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// Byte offset of the frame header.
    pub offset: usize,
    pub number: u32,
    pub packets: Vec<Packet>,
}

/// A packet: the object it applies to and what it does.
#[derive(Clone, Debug, PartialEq)]
pub struct Packet {
    /// Byte offset of the packet header.
    pub offset: usize,
    /// The object (or, for light and camera packets, the light or camera) ID.
    pub object: u16,
    pub body: Body,
}

/// A packet's data, by packet type.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// 0000: the GsDOBJ2 attribute: bits where `mask` is 0 take `value`'s.
    Attribute { mask: u32, value: u32 },
    /// 0001: rotation, scale, translation, absolute or added to the current values.
    Coordinate(Coordinate),
    /// 0010: the TMD object the object draws (1 is the TMD's first).
    TmdId(u16),
    /// 0011: the parent object (0 or 0xFFFF: none).
    Parent(u16),
    /// 0100: the coordinate matrix itself.
    Matrix(Matrix),
    /// 0110: a light source (read past).
    Light,
    /// 0111: the camera (read past).
    Camera,
    /// 1000, flag 0: create the object.
    Create,
    /// 1000, flag 1: kill the object.
    Kill,
    /// 1110 and 1111: extended and special commands (not defined by the manual; read past).
    Special,
}

/// A coordinate (RST) packet. Only the present values change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coordinate {
    /// Flag bit 0: add rotation and translation and multiply scale instead of setting them.
    pub differential: bool,
    /// Degrees x 4096 around X, Y, Z (libgs divides by 360 into 1/4096 turns).
    pub rotation: Option<[i32; 3]>,
    /// 4.12 fixed point (4096 = 1.0) along X, Y, Z.
    pub scale: Option<[i16; 3]>,
    pub translation: Option<[i32; 3]>,
}

/// A GsCOORDINATE2's coord: a 4.12 rotation-scale matrix (rows) and a translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matrix {
    pub m: [[i16; 3]; 3],
    pub t: [i32; 3],
}

/// Reads a TOD file.
pub fn read(bytes: &[u8]) -> Result<Tod, Error> {
    let file = Bytes(bytes);
    let id = file.u8(0, "TOD header")?;
    if id != ID {
        return Err(Error::at(
            0,
            format!("ID 0x{id:02x}, expected 0x50 (not a TOD file)"),
        ));
    }
    let version = file.u8(1, "TOD header")?;
    let resolution = file.u16(2, "TOD header")?;
    let count = file.u32(4, "TOD header")? as usize;
    // A frame is at least its 8-byte header.
    if count > file.len() / 8 {
        return Err(Error::at(
            4,
            format!(
                "{count} frames cannot fit in a file of {} bytes (8 bytes a frame at least)",
                file.len()
            ),
        ));
    }
    let mut frames = Vec::with_capacity(count);
    let mut at = 8;
    for index in 0..count {
        let frame = frame(file, at, index)?;
        at += 4 * usize::from(file.u16(at, "frame header")?);
        if let Some(previous) = frames.last().map(|f: &Frame| f.number) {
            if frame.number <= previous {
                return Err(Error::at(
                    at_number(&frame),
                    format!(
                        "frame {index} has number {}, expected more than the previous frame's {previous}",
                        frame.number
                    ),
                ));
            }
        }
        frames.push(frame);
    }
    if at != file.len() {
        return Err(Error::at(
            at,
            format!(
                "{} bytes after the {count} frames the header announces, expected the end of \
                 the file",
                file.len() - at
            ),
        ));
    }
    Ok(Tod {
        version,
        resolution,
        frames,
    })
}

fn at_number(frame: &Frame) -> usize {
    frame.offset + 4
}

fn frame(file: Bytes<'_>, at: usize, index: usize) -> Result<Frame, Error> {
    let size_words = usize::from(file.u16(at, "frame header")?);
    let packet_count = usize::from(file.u16(at + 2, "frame header")?);
    let number = file.u32(at + 4, "frame header")?;
    let end = at + 4 * size_words;
    if size_words < 2 || end > file.len() {
        return Err(Error::at(
            at,
            format!(
                "frame {index}: size {size_words} words, expected at least 2 (its header) and \
                 to end within the file ({} bytes, {} left from here)",
                file.len(),
                file.len() - at
            ),
        ));
    }
    let mut packets = Vec::with_capacity(packet_count.min(size_words));
    let mut p = at + 8;
    for k in 0..packet_count {
        if p >= end {
            return Err(Error::at(
                p,
                format!(
                    "frame {index}: packet {k} of {packet_count} starts at the frame's end (size \
                     {size_words} words): the packets do not fit"
                ),
            ));
        }
        let (packet, length) = packet(file, p, end, index, k)?;
        packets.push(packet);
        p += 4 * length;
    }
    if p != end {
        return Err(Error::at(
            p,
            format!(
                "frame {index}: its {packet_count} packets end at byte {p}, expected the frame's \
                 end at byte {end} (size {size_words} words)"
            ),
        ));
    }
    Ok(Frame {
        offset: at,
        number,
        packets,
    })
}

/// The packet at `at` (inside a frame ending at `frame_end`) and its length in words.
fn packet(
    file: Bytes<'_>,
    at: usize,
    frame_end: usize,
    frame: usize,
    index: usize,
) -> Result<(Packet, usize), Error> {
    let header = file.u32(at, "packet header")?;
    let object = (header & 0xFFFF) as u16;
    let kind = (header >> 16) & 0xF;
    let flag = (header >> 20) & 0xF;
    let length = (header >> 24) as usize;
    let what = format!("frame {frame} packet {index} (type {kind:04b}, object {object})");
    if length == 0 || at + 4 * length > frame_end {
        return Err(Error::at(
            at + 3,
            format!(
                "{what}: length {length} words, expected at least 1 and to end within its frame \
                 ({} words left)",
                (frame_end - at) / 4
            ),
        ));
    }
    let data = at + 4;
    let expect = |expected: usize, why: &str| -> Result<(), Error> {
        if length == expected {
            Ok(())
        } else {
            Err(Error::at(
                at + 3,
                format!("{what}: length {length} words, expected {expected} ({why})"),
            ))
        }
    };
    let body = match kind {
        0 => {
            expect(3, "header, mask, value")?;
            Body::Attribute {
                mask: file.u32(data, "attribute")?,
                value: file.u32(data + 4, "attribute")?,
            }
        }
        1 => {
            let has = |bit: u32| flag & bit != 0;
            let words =
                1 + 3 * usize::from(has(2)) + 2 * usize::from(has(4)) + 3 * usize::from(has(8));
            expect(
                words,
                &format!("flag {flag:04b}: header, then 3 words of R, 2 of S, 3 of T as flagged"),
            )?;
            let mut p = data;
            let mut take = |words: usize| {
                let start = p;
                p += 4 * words;
                start
            };
            let rotation = match has(2) {
                true => Some(file.i32x3(take(3), "rotation")?),
                false => None,
            };
            let scale = match has(4) {
                true => Some(file.i16x3(take(2), "scale")?),
                false => None,
            };
            let translation = match has(8) {
                true => Some(file.i32x3(take(3), "translation")?),
                false => None,
            };
            Body::Coordinate(Coordinate {
                differential: has(1),
                rotation,
                scale,
                translation,
            })
        }
        2 | 3 => {
            expect(2, "header and a 2-byte ID")?;
            let id = file.u16(data, "ID")?;
            if kind == 2 {
                Body::TmdId(id)
            } else {
                Body::Parent(id)
            }
        }
        4 => {
            expect(
                9,
                "header, 9 halfwords of matrix, pad, 3 words of translation",
            )?;
            let mut m = [[0; 3]; 3];
            for (r, row) in m.iter_mut().enumerate() {
                *row = file.i16x3(data + 6 * r, "matrix")?;
            }
            Body::Matrix(Matrix {
                m,
                t: file.i32x3(data + 20, "matrix translation")?,
            })
        }
        5 => {
            return Err(Error::at(
                at + 2,
                format!("{what}: a TMD data packet, which libgs does not support either"),
            ))
        }
        6 => Body::Light,
        7 => Body::Camera,
        8 => {
            expect(1, "an object-control packet has no data")?;
            match flag {
                0 => Body::Create,
                1 => Body::Kill,
                _ => {
                    return Err(Error::at(
                        at + 2,
                        format!(
                            "{what}: object-control flag {flag}, expected 0 (create) or 1 (kill)"
                        ),
                    ))
                }
            }
        }
        14 | 15 => Body::Special,
        _ => {
            return Err(Error::at(
                at + 2,
                format!("{what}: packet type {kind}, expected 0 to 8, 14 or 15"),
            ))
        }
    };
    Ok((
        Packet {
            offset: at,
            object,
            body,
        },
        length,
    ))
}
