//! CSAB skeletal animations, versions 3 (Ocarina of Time 3D) and 5 (Luigi's Mansion 3D):
//! per bone (`anod`), up to nine tracks (translation, rotation, scale on X, Y, Z), each
//! linear, Hermite or constant. Layouts: noclip.website's `oot3d/csab.ts`, M-1's
//! `Grezzo/csab.bt` and FinModelUtility's CSAB reader.
//!
//! Version 5 stores a linear track as one quantised value per frame, `raw * scale - bias`,
//! with `raw` an unsigned 16-bit number for translations and a signed one for rotations
//! and scales. Translations are *not* halved (FinModelUtility halves them, unsure): the
//! stored scale and bias map the raw range 0..65535 exactly onto the track's range, which
//! real files use end to end (raw values of 0 and 65534/65535 occur in one track), so a
//! halved raw value would leave the top half of every range unreachable.

use super::bytes::{FormatError, Reader};

/// The versions read.
pub const VERSIONS: [u32; 2] = [3, 5];

/// A CSAB animation.
#[derive(Debug, Clone, PartialEq)]
pub struct Csab {
    pub version: u32,
    /// The last frame (30 frames a second): frames run from 0 to `duration`.
    pub duration: u32,
    /// The loop mode word is 1 (its meaning is uncertain: the known files all have 0).
    pub looped: bool,
    pub nodes: Vec<Node>,
}

/// The tracks of one bone; an absent track keeps the bone's rest value.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Index in the model's bones.
    pub bone: usize,
    pub translation: [Option<Track>; 3],
    /// Radians.
    pub rotation: [Option<Track>; 3],
    pub scale: [Option<Track>; 3],
}

/// A Hermite key: the value and its slopes (value units per frame) on both sides.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HermiteKey {
    pub frame: f64,
    pub value: f64,
    pub slope_in: f64,
    pub slope_out: f64,
}

/// One animated value over time.
#[derive(Debug, Clone, PartialEq)]
pub enum Track {
    /// (frame, value), frames increasing; straight lines between keys.
    Linear(Vec<(f64, f64)>),
    /// Keys by increasing frame; cubic Hermite curves between them.
    Hermite(Vec<HermiteKey>),
}

/// What a track animates: decides how version 5 stores raw values and how angles are
/// interpolated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quantity {
    Translation,
    Rotation,
    Scale,
}

impl Track {
    /// The value at `frame`: the first key's before it, the last key's after it.
    pub fn sample(&self, frame: f64) -> f64 {
        match self {
            Track::Linear(keys) => {
                let next = keys.partition_point(|&(f, _)| f <= frame);
                match (next.checked_sub(1).map(|i| keys[i]), keys.get(next)) {
                    (None, Some(&(_, v))) | (Some((_, v)), None) => v,
                    (Some((f0, v0)), Some(&(f1, v1))) => v0 + (v1 - v0) * (frame - f0) / (f1 - f0),
                    (None, None) => 0.0,
                }
            }
            Track::Hermite(keys) => {
                let next = keys.partition_point(|k| k.frame <= frame);
                match (
                    next.checked_sub(1).map(|i| keys[i]),
                    keys.get(next).copied(),
                ) {
                    (None, Some(k)) | (Some(k), None) => k.value,
                    (Some(k0), Some(k1)) => {
                        let length = k1.frame - k0.frame;
                        let s = (frame - k0.frame) / length;
                        let (s2, s3) = (s * s, s * s * s);
                        (2.0 * s3 - 3.0 * s2 + 1.0) * k0.value
                            + (s3 - 2.0 * s2 + s) * k0.slope_out * length
                            + (-2.0 * s3 + 3.0 * s2) * k1.value
                            + (s3 - s2) * k1.slope_in * length
                    }
                    (None, None) => 0.0,
                }
            }
        }
    }

    /// Linear rotation keys whose neighbours differ by more than half a turn are
    /// unwrapped, so the angle turns the short way (as the 3DS's animation player does).
    fn unwrap_angles(&mut self) {
        if let Track::Linear(keys) = self {
            for i in 1..keys.len() {
                let previous = keys[i - 1].1;
                let turn = std::f64::consts::TAU;
                keys[i].1 -= ((keys[i].1 - previous) / turn).round() * turn;
            }
        }
    }
}

/// Reads a CSAB file.
pub fn parse(data: &[u8]) -> Result<Csab, FormatError> {
    let r = Reader::new(data, "header");
    r.magic(0, b"csab")?;
    let version = r.u32(0x08, "the version")?;
    if !VERSIONS.contains(&version) {
        return Err(r.error(0x08, format!("unknown version {version}, expected 3 or 5")));
    }
    // Version 5 adds three floats after the reserved word.
    let counts = if version > 4 { 0x1C } else { 0x10 };
    let animation_count = r.u32(counts, "the animation count")?;
    if animation_count != 1 {
        return Err(r.error(counts, format!("{animation_count} animations, expected 1")));
    }
    let anim = r.usize(counts + 4, "the animation offset")?;
    let ra = r.in_chunk("animation");
    let duration = ra.u32(anim + 0x10, "the duration")?;
    let looped = ra.u32(anim + 0x14, "the loop mode")? == 1;
    let node_count = ra.usize(anim + 0x18, "the anod count")?;
    let bone_count = ra.usize(anim + 0x1C, "the bone count")?;
    if node_count > bone_count {
        return Err(ra.error(
            anim + 0x18,
            format!("{node_count} anod chunks for {bone_count} bones, expected at most one a bone"),
        ));
    }
    let table = anim + 0x20;
    ra.bytes(table, bone_count * 2, "the bone table")?;
    let offsets = (table + bone_count * 2 + 3) & !3;
    ra.bytes(offsets, node_count * 4, "the anod offsets")?;
    let nodes = (0..node_count)
        .map(|i| {
            let offset = ra.usize(offsets + 4 * i, "an anod offset")?;
            let at = anim
                .checked_add(offset)
                .ok_or_else(|| ra.error(offsets + 4 * i, "the anod offset overflows"))?;
            node(r.in_chunk("anod"), at, version, bone_count)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Csab {
        version,
        duration,
        looped,
        nodes,
    })
}

fn node(r: Reader<'_>, at: usize, version: u32, bone_count: usize) -> Result<Node, FormatError> {
    r.magic(at, b"anod")?;
    let bone = r.u16(at + 4, "the bone index")? as usize;
    if bone >= bone_count {
        return Err(r.error(
            at + 4,
            format!("anod for bone {bone}, expected below the animation's {bone_count} bones"),
        ));
    }
    let short_rotations = if version > 4 {
        r.u8(at + 6, "the short rotation flag")? != 0
    } else {
        r.u16(at + 6, "the short rotation flag")? != 0
    };
    let track = |k: usize, quantity: Quantity| -> Result<Option<Track>, FormatError> {
        let offset = r.u16(at + 8 + 2 * k, "a track offset")? as usize;
        if offset == 0 {
            return Ok(None);
        }
        let short = short_rotations && quantity == Quantity::Rotation;
        let rt = r.in_chunk("track");
        let mut track = if version > 4 {
            track_v5(rt, at + offset, quantity, short)?
        } else {
            track_v3(rt, at + offset, short)?
        };
        if quantity == Quantity::Rotation {
            track.unwrap_angles();
        }
        Ok(Some(track))
    };
    Ok(Node {
        bone,
        translation: [
            track(0, Quantity::Translation)?,
            track(1, Quantity::Translation)?,
            track(2, Quantity::Translation)?,
        ],
        rotation: [
            track(3, Quantity::Rotation)?,
            track(4, Quantity::Rotation)?,
            track(5, Quantity::Rotation)?,
        ],
        scale: [
            track(6, Quantity::Scale)?,
            track(7, Quantity::Scale)?,
            track(8, Quantity::Scale)?,
        ],
    })
}

/// A 16-bit angle of a "short rotation" track: a signed fraction of half a turn.
fn short_angle(raw: i16) -> f64 {
    f64::from(raw) / 32767.0 * std::f64::consts::PI
}

const LINEAR: u8 = 1;
const HERMITE: u8 = 2;

/// Refuses a key count whose keys cannot be in the file (before allocating for them).
fn check_keys(r: Reader<'_>, at: usize, count: usize, size: usize) -> Result<(), FormatError> {
    let end = count.checked_mul(size).and_then(|n| n.checked_add(at));
    if end.is_some_and(|end| end <= r.data.len()) {
        Ok(())
    } else {
        Err(r.error(
            at,
            format!(
                "{count} keys of {size} bytes do not fit in the file's {} bytes",
                r.data.len()
            ),
        ))
    }
}

fn interpolation_error(r: Reader<'_>, at: usize, kind: u32) -> FormatError {
    r.error(
        at,
        format!("track type {kind}, expected 1 (linear) or 2 (Hermite)"),
    )
}

fn track_v3(r: Reader<'_>, at: usize, short: bool) -> Result<Track, FormatError> {
    let kind = r.u32(at, "the track type")?;
    let count = r.usize(at + 4, "the key count")?;
    let start = f64::from(r.i32(at + 8, "the start frame")?);
    let keys = at + 0x10;
    let track = match (kind, short) {
        (1, false) => {
            check_keys(r, keys, count, 8)?;
            Track::Linear(
                (0..count)
                    .map(|i| {
                        let k = keys + 8 * i;
                        Ok((
                            start + f64::from(r.u32(k, "a key frame")?),
                            f64::from(r.f32(k + 4, "a key value")?),
                        ))
                    })
                    .collect::<Result<_, FormatError>>()?,
            )
        }
        (1, true) => {
            check_keys(r, keys, count, 4)?;
            Track::Linear(
                (0..count)
                    .map(|i| {
                        let k = keys + 4 * i;
                        Ok((
                            start + f64::from(r.u16(k, "a key frame")?),
                            short_angle(r.i16(k + 2, "a key value")?),
                        ))
                    })
                    .collect::<Result<_, FormatError>>()?,
            )
        }
        (2, _) => Track::Hermite(hermite_keys(r, keys, count, short, start)?),
        _ => return Err(interpolation_error(r, at, kind)),
    };
    check_order(r, at, track)
}

fn hermite_keys(
    r: Reader<'_>,
    at: usize,
    count: usize,
    short: bool,
    start: f64,
) -> Result<Vec<HermiteKey>, FormatError> {
    let size = if short { 8 } else { 16 };
    check_keys(r, at, count, size)?;
    (0..count)
        .map(|i| {
            let k = at + size * i;
            Ok(if short {
                HermiteKey {
                    frame: start + f64::from(r.u16(k, "a key frame")?),
                    value: short_angle(r.i16(k + 2, "a key value")?),
                    slope_in: short_angle(r.i16(k + 4, "a key slope")?),
                    slope_out: short_angle(r.i16(k + 6, "a key slope")?),
                }
            } else {
                HermiteKey {
                    frame: start + f64::from(r.u32(k, "a key frame")?),
                    value: f64::from(r.f32(k + 4, "a key value")?),
                    slope_in: f64::from(r.f32(k + 8, "a key slope")?),
                    slope_out: f64::from(r.f32(k + 12, "a key slope")?),
                }
            })
        })
        .collect()
}

fn track_v5(
    r: Reader<'_>,
    at: usize,
    quantity: Quantity,
    short: bool,
) -> Result<Track, FormatError> {
    let constant = r.u8(at, "the constant flag")? != 0;
    let kind = r.u8(at + 1, "the track type")?;
    let count = r.u16(at + 2, "the key count")? as usize;
    let track = if constant {
        // One (scale, bias, raw) record a frame.
        check_keys(r, at + 4, count, 12)?;
        Track::Linear(
            (0..count)
                .map(|i| {
                    let k = at + 4 + 12 * i;
                    let scale = f64::from(r.f32(k, "a key scale")?);
                    let bias = f64::from(r.f32(k + 4, "a key bias")?);
                    let raw = f64::from(r.u32(k + 8, "a key value")?);
                    Ok((i as f64, raw * scale - bias))
                })
                .collect::<Result<_, FormatError>>()?,
        )
    } else {
        match kind {
            LINEAR => {
                let scale = f64::from(r.f32(at + 4, "the track scale")?);
                let bias = f64::from(r.f32(at + 8, "the track bias")?);
                check_keys(r, at + 12, count, 2)?;
                Track::Linear(
                    (0..count)
                        .map(|i| {
                            let k = at + 12 + 2 * i;
                            let raw = match quantity {
                                Quantity::Translation => f64::from(r.u16(k, "a key value")?),
                                Quantity::Rotation | Quantity::Scale => {
                                    f64::from(r.i16(k, "a key value")?)
                                }
                            };
                            Ok((i as f64, raw * scale - bias))
                        })
                        .collect::<Result<_, FormatError>>()?,
                )
            }
            HERMITE => Track::Hermite(hermite_keys(r, at + 4, count, short, 0.0)?),
            other => return Err(interpolation_error(r, at + 1, u32::from(other))),
        }
    };
    check_order(r, at, track)
}

/// A track needs keys, in order of frame.
fn check_order(r: Reader<'_>, at: usize, track: Track) -> Result<Track, FormatError> {
    let frames: Vec<f64> = match &track {
        Track::Linear(keys) => keys.iter().map(|k| k.0).collect(),
        Track::Hermite(keys) => keys.iter().map(|k| k.frame).collect(),
    };
    if frames.is_empty() {
        return Err(r.error(at, "a track without keys, expected at least one"));
    }
    if let Some(i) = frames.windows(2).position(|w| w[1] <= w[0]) {
        return Err(r.error(
            at,
            format!(
                "key {} at frame {} follows frame {}, expected increasing frames",
                i + 1,
                frames[i + 1],
                frames[i]
            ),
        ));
    }
    Ok(track)
}
