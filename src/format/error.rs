//! Why a file was rejected: every [`LoadError`] names the chunk, the byte offset in the file
//! and what was expected.

use core::fmt;

/// The identifier of a chunk (`PNTS`, `QUAD`, ...).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tag(pub [u8; 4]);

impl Tag {
    /// Embedded textures.
    pub const TIMG: Tag = Tag(*b"TIMG");
    /// Points.
    pub const PNTS: Tag = Tag(*b"PNTS");
    /// Polygons.
    pub const QUAD: Tag = Tag(*b"QUAD");
    /// Material of each polygon.
    pub const QMAT: Tag = Tag(*b"QMAT");
    /// Materials.
    pub const MATL: Tag = Tag(*b"MATL");
    /// Texture names.
    pub const TEXT: Tag = Tag(*b"TEXT");
    /// Normals.
    pub const NTAB: Tag = Tag(*b"NTAB");
    /// Normal of each corner.
    pub const CNRM: Tag = Tag(*b"CNRM");
    /// Vertex colours.
    pub const VCOL: Tag = Tag(*b"VCOL");
    /// Gouraud colours of the corners.
    pub const GOUR: Tag = Tag(*b"GOUR");
    /// Groups.
    pub const GRUP: Tag = Tag(*b"GRUP");
    /// Bones.
    pub const BONE: Tag = Tag(*b"BONE");
    /// Animations.
    pub const ANIM: Tag = Tag(*b"ANIM");
    /// Offsets and scales of the bones in the animations (issue 17, after ANIM).
    pub const BMOT: Tag = Tag(*b"BMOT");
    /// Regions of a level: bounding spheres and the polygons and points each covers
    /// (this project's, docs/format.md "REGN").
    pub const REGN: Tag = Tag(*b"REGN");
    /// Levels of detail: the lower levels, each a whole JOM file (this project's,
    /// docs/format.md "LODS").
    pub const LODS: Tag = Tag(*b"LODS");
    /// End of the file.
    pub const END: Tag = Tag(*b"END ");
    /// The file header (not a chunk; used to place errors in it).
    pub const HEADER: Tag = Tag(*b"JOM1");

    /// Every chunk this version of the format defines, in the file's order.
    pub const KNOWN: [Tag; 17] = [
        Tag::TIMG,
        Tag::PNTS,
        Tag::QUAD,
        Tag::QMAT,
        Tag::MATL,
        Tag::TEXT,
        Tag::NTAB,
        Tag::CNRM,
        Tag::VCOL,
        Tag::GOUR,
        Tag::GRUP,
        Tag::BONE,
        Tag::ANIM,
        Tag::BMOT,
        Tag::REGN,
        Tag::LODS,
        Tag::END,
    ];
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self.0.iter().rposition(|&b| b != b' ') {
            Some(last) => &self.0[..=last],
            None => &self.0[..],
        };
        for &b in text {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02X}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag({self})")
    }
}

/// A JOM file that [`Model::from_bytes`](super::Model::from_bytes) refused. Offsets are
/// byte offsets from the start of the file, of the field or record at fault.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The buffer does not start on a 4-byte boundary (the SH-2 cannot read it in place).
    Misaligned {
        /// The buffer's address.
        address: usize,
    },
    /// The buffer is shorter than the 24-byte header.
    TooShort {
        /// The buffer's length.
        len: usize,
    },
    /// The file does not start with `JOM1`.
    BadMagic {
        /// The first 4 bytes.
        found: [u8; 4],
    },
    /// The header's version is not 1.
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
    },
    /// Fewer than 8 bytes are left for a chunk header.
    TruncatedChunkHeader {
        /// Where the chunk header starts.
        offset: usize,
        /// The bytes left.
        available: usize,
    },
    /// A chunk's size is not a multiple of 4.
    ChunkSizeNotAligned {
        /// The chunk.
        chunk: Tag,
        /// Where its header starts.
        offset: usize,
        /// The size in its header.
        size: u32,
    },
    /// A chunk's data goes past the end of the file.
    ChunkPastEnd {
        /// The chunk.
        chunk: Tag,
        /// Where its header starts.
        offset: usize,
        /// The size in its header.
        size: u32,
        /// The bytes after its header.
        available: usize,
    },
    /// The file ends without an `END ` chunk.
    MissingEnd {
        /// Where the file ends.
        offset: usize,
    },
    /// The `END ` chunk has data.
    EndNotEmpty {
        /// Where the `END ` chunk starts.
        offset: usize,
        /// Its size.
        size: u32,
    },
    /// Bytes follow the `END ` chunk.
    DataAfterEnd {
        /// Where they start.
        offset: usize,
        /// How many there are.
        trailing: usize,
    },
    /// A chunk every file has (PNTS, QUAD, QMAT, MATL) is missing.
    MissingChunk {
        /// The chunk.
        chunk: Tag,
    },
    /// A chunk appears twice.
    DuplicateChunk {
        /// The chunk.
        chunk: Tag,
        /// Where the second one starts.
        offset: usize,
        /// Where the first one starts.
        first: usize,
    },
    /// A chunk is too small for its count field or its fixed part.
    ChunkTooSmall {
        /// The chunk.
        chunk: Tag,
        /// Where its data starts.
        offset: usize,
        /// Its size.
        size: u32,
        /// The bytes it needs at least.
        needed: u64,
    },
    /// A chunk's count does not agree with its size (records of 2 bytes are padded to 4).
    CountMismatch {
        /// The chunk.
        chunk: Tag,
        /// Where its data (the count) starts.
        offset: usize,
        /// The count in the chunk.
        count: u32,
        /// The chunk's size.
        size: u32,
        /// The size that count implies.
        expected: u64,
    },
    /// A count is over the limit of the format (65,535 for u16 indexes, 32 bones).
    TooMany {
        /// The chunk.
        chunk: Tag,
        /// Where its count is.
        offset: usize,
        /// The count in the chunk.
        count: u32,
        /// The largest count allowed.
        max: u32,
    },
    /// A count differs from the count of another chunk it must match.
    CountDisagrees {
        /// The chunk.
        chunk: Tag,
        /// Where its count is.
        offset: usize,
        /// The count in the chunk.
        count: u32,
        /// The count it must have.
        expected: u32,
        /// Where the expected count comes from.
        rule: &'static str,
    },
    /// A chunk needs another chunk that is missing (CNRM needs NTAB, GOUR needs VCOL, ANIM
    /// needs BONE, BMOT needs ANIM).
    MissingDependency {
        /// The chunk.
        chunk: Tag,
        /// Where it starts.
        offset: usize,
        /// The chunk it needs.
        needs: Tag,
    },
    /// An index does not point into the chunk it refers to.
    IndexOutOfRange {
        /// The chunk holding the index.
        chunk: Tag,
        /// Where the index is.
        offset: usize,
        /// The number of the record holding it.
        record: usize,
        /// What the index is.
        field: &'static str,
        /// The index.
        index: i32,
        /// The number of entries it may point to.
        limit: u32,
        /// The chunk it points into.
        target: Tag,
    },
    /// A group's range of points or polygons goes past their count.
    RangeOutOfBounds {
        /// Where the group is.
        offset: usize,
        /// The group's number.
        group: usize,
        /// "points" or "polygons".
        what: &'static str,
        /// The first index of the range.
        first: u16,
        /// The length of the range.
        count: u16,
        /// The number of points or polygons.
        limit: u32,
    },
    /// A bone's parent is not a bone before it (or -1).
    BadParent {
        /// Where the bone is.
        offset: usize,
        /// The bone's number.
        bone: usize,
        /// The parent in the file.
        parent: i16,
    },
    /// An animation has no keys.
    NoKeys {
        /// Where the animation record is.
        offset: usize,
        /// The animation's number.
        animation: usize,
    },
    /// An animation has 0 ticks between keys.
    ZeroKeyTicks {
        /// Where the animation record is.
        offset: usize,
        /// The animation's number.
        animation: usize,
    },
    /// An animation's keys are not on a 4-byte boundary (their fixed-point root offsets
    /// could not be read in place).
    KeysMisaligned {
        /// Where the animation record is.
        offset: usize,
        /// The animation's number.
        animation: usize,
        /// The key offset in the record.
        key_offset: u32,
    },
    /// An animation's keys are not inside the chunk's key area (after the records).
    KeysOutOfChunk {
        /// Where the animation record is.
        offset: usize,
        /// The animation's number.
        animation: usize,
        /// The keys' start, from the start of the chunk's data.
        start: u64,
        /// The keys' end.
        end: u64,
        /// Where the key area starts.
        keys_start: u64,
        /// The chunk's size.
        size: u32,
    },
    /// BMOT tracks are not in strictly increasing (animation, bone) order.
    TracksOutOfOrder {
        /// Where the track is.
        offset: usize,
        /// The track's number.
        track: usize,
    },
    /// A BMOT track's keys are not on a 4-byte boundary.
    MotionKeysMisaligned {
        /// Where the track is.
        offset: usize,
        /// The track's number.
        track: usize,
        /// The key offset in the track.
        key_offset: u32,
    },
    /// A BMOT track's keys (one per key of its animation) are not inside the chunk's key
    /// area (after the track table).
    MotionKeysOutOfChunk {
        /// Where the track is.
        offset: usize,
        /// The track's number.
        track: usize,
        /// The keys' start, from the start of the chunk's data.
        start: u64,
        /// The keys' end.
        end: u64,
        /// Where the key area starts.
        keys_start: u64,
        /// The chunk's size.
        size: u32,
    },
    /// A BMOT scale is negative (a mirror, which would turn the bone's polygons inside out).
    NegativeScale {
        /// Where the scale component is.
        offset: usize,
        /// The track's number.
        track: usize,
        /// The key's number.
        key: usize,
        /// The axis: 0 for X, 1 for Y, 2 for Z.
        axis: u8,
        /// The raw Q16.16 value.
        scale: i32,
    },
    /// A point is farther from the model's origin than the renderer's integer arithmetic
    /// allows (see [`MAX_REACH`](super::MAX_REACH) and docs/format.md, "Engine limits").
    PointOutOfRange {
        /// Where the point is.
        offset: usize,
        /// The point's number in PNTS.
        point: usize,
        /// Its coordinates, raw Q16.16.
        coordinates: [i32; 3],
        /// Its distance from the origin, raw Q16.16 (rounded down).
        distance: u32,
    },
    /// A normal (of a polygon in QUAD, or in NTAB) is not of unit length within
    /// [`NORMAL_TOLERANCE`](super::NORMAL_TOLERANCE).
    NormalNotUnit {
        /// QUAD or NTAB.
        chunk: Tag,
        /// Where the normal is.
        offset: usize,
        /// The number of the record holding it.
        record: usize,
        /// The normal, raw Q16.16.
        normal: [i32; 3],
        /// Its length, raw Q16.16 (rounded down).
        length: u32,
    },
    /// An embedded texture's size is not one the VDP1 can draw.
    TextureSize {
        /// Where the texture's header is.
        offset: usize,
        /// The texture's number.
        texture: usize,
        /// Its width.
        width: u16,
        /// Its height.
        height: u16,
    },
    /// An embedded texture has an unknown pixel format.
    TextureFormat {
        /// Where the texture's header is.
        offset: usize,
        /// The texture's number.
        texture: usize,
        /// The format in the file.
        format: u16,
    },
    /// An embedded texture's pixels go past the end of the chunk.
    TexturePixelsShort {
        /// Where the texture's pixels start.
        offset: usize,
        /// The texture's number.
        texture: usize,
        /// The bytes its size and format need.
        needed: u64,
        /// The bytes left in the chunk.
        available: usize,
    },
    /// An embedded texture's name differs from the TEXT name of the same number.
    TextureNameMismatch {
        /// Where the TIMG name is.
        offset: usize,
        /// The texture's number.
        texture: usize,
    },
    /// A name is not ASCII ended by a zero within its 16 bytes.
    BadName {
        /// The chunk holding it.
        chunk: Tag,
        /// Where the name is.
        offset: usize,
    },
    /// A region (REGN) breaks one of its rules (docs/format.md, "REGN").
    BadRegion {
        /// Where the region's record is.
        offset: usize,
        /// The region's number.
        region: usize,
        /// What is wrong.
        problem: RegionProblem,
    },
    /// A level of detail (LODS) breaks one of its rules (docs/format.md, "LODS").
    BadLevel {
        /// Where the level's entry is.
        offset: usize,
        /// The level's number (1 is the first lower level; 0 is the file itself).
        level: usize,
        /// What is wrong.
        problem: LevelProblem,
    },
    /// A lower level's own JOM file is refused (its error, offsets within that file).
    LevelRefused {
        /// Where the level's JOM file starts in the file.
        offset: usize,
        /// The level's number.
        level: usize,
    },
}

/// What is wrong with a REGN region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionProblem {
    /// Its polygons do not start where the region before it ends (0 for the first).
    PolygonsNotNext {
        /// Its first polygon.
        first: u32,
        /// Where they must start.
        expected: u32,
    },
    /// The regions' polygons end before or past QUAD's count (checked at the last region).
    PolygonsNotAll {
        /// Where the regions' polygons end.
        end: u32,
        /// The polygons of QUAD.
        polygons: u32,
    },
    /// Its points start before the region before ends, or go past PNTS.
    PointsOutOfOrder {
        /// Its points' range.
        first: u32,
        /// Its points' end.
        end: u32,
        /// The end of the region before's points (0 for the first).
        after: u32,
        /// The points of PNTS.
        points: u32,
    },
    /// A corner of one of its polygons is not one of its points.
    CornerOutside {
        /// The polygon.
        polygon: u32,
        /// The corner's point.
        point: u32,
    },
    /// One of its points is farther from its centre than its radius.
    PointOutside {
        /// The point.
        point: u32,
        /// Its distance from the centre, raw Q16.16 (rounded down).
        distance: u32,
        /// The radius, raw Q16.16.
        radius: i32,
    },
    /// Its centre is farther from the origin than the model's farthest point (the
    /// renderer moves it as it moves the points).
    CenterOutOfReach {
        /// Its distance from the origin, raw Q16.16 (rounded down).
        distance: u32,
        /// The model's reach, raw Q16.16.
        reach: u32,
    },
    /// Its first polygon takes the depth of the polygon before it (sort mode previous):
    /// that polygon is another region's, maybe not drawn.
    StartsWithPrevious {
        /// The polygon.
        polygon: u32,
    },
}

/// What is wrong with a LODS level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelProblem {
    /// The entry's header or its file goes past the chunk.
    PastChunk {
        /// The bytes the entry needs.
        needed: u64,
        /// The bytes left in the chunk.
        available: u64,
    },
    /// Its size on screen is not below the level before's (each lower level is for a
    /// smaller picture).
    NotSmaller {
        /// Its size in pixels.
        pixels: u32,
        /// The level before's (for level 1: none, any size above 0).
        before: u32,
    },
    /// Its file has a LODS chunk itself (levels do not nest).
    Nested,
    /// Its skeleton (BONE, ANIM, BMOT) differs from the file's: the same animation
    /// player must pose every level.
    OtherSkeleton {
        /// The chunk that differs.
        chunk: Tag,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LoadError::*;
        match *self {
            Misaligned { address } => write!(
                f,
                "the buffer at address {address:#x} is not 4-byte aligned: \
                 a JOM file must be loaded at an address that is a multiple of 4"
            ),
            TooShort { len } => {
                write!(
                    f,
                    "the file is {len} bytes long, shorter than its 24-byte header"
                )
            }
            BadMagic { found } => write!(
                f,
                "header at offset 0: magic is {}, expected JOM1 (this is not a JOM file)",
                Tag(found)
            ),
            UnsupportedVersion { found } => write!(
                f,
                "header at offset 4: version {found} is not supported, expected 1"
            ),
            TruncatedChunkHeader { offset, available } => write!(
                f,
                "offset {}: only {available} bytes left where an 8-byte chunk header was expected",
                At(offset)
            ),
            ChunkSizeNotAligned {
                chunk,
                offset,
                size,
            } => write!(
                f,
                "{chunk} chunk at offset {}: size {size} is not a multiple of 4",
                At(offset)
            ),
            ChunkPastEnd {
                chunk,
                offset,
                size,
                available,
            } => write!(
                f,
                "{chunk} chunk at offset {}: size {size} goes past the end of the file \
                 (only {available} bytes follow its header)",
                At(offset)
            ),
            MissingEnd { offset } => write!(
                f,
                "the file ends at offset {} without an END chunk",
                At(offset)
            ),
            EndNotEmpty { offset, size } => write!(
                f,
                "END chunk at offset {}: size {size}, expected 0",
                At(offset)
            ),
            DataAfterEnd { offset, trailing } => write!(
                f,
                "offset {}: {trailing} bytes after the END chunk, expected the end of the file",
                At(offset)
            ),
            MissingChunk { chunk } => {
                write!(f, "the {chunk} chunk is missing (every file has one)")
            }
            DuplicateChunk {
                chunk,
                offset,
                first,
            } => write!(
                f,
                "{chunk} chunk at offset {}: a second {chunk} chunk (the first is at offset {}), \
                 expected one",
                At(offset),
                At(first)
            ),
            ChunkTooSmall {
                chunk,
                offset,
                size,
                needed,
            } => write!(
                f,
                "{chunk} chunk data at offset {}: {size} bytes, expected at least {needed}",
                At(offset)
            ),
            CountMismatch {
                chunk,
                offset,
                count,
                size,
                expected,
            } => write!(
                f,
                "{chunk} chunk data at offset {}: count {count} needs {expected} bytes of data, \
                 the chunk has {size}",
                At(offset)
            ),
            TooMany {
                chunk,
                offset,
                count,
                max,
            } => write!(
                f,
                "{chunk} chunk data at offset {}: count {count}, expected at most {max}",
                At(offset)
            ),
            CountDisagrees {
                chunk,
                offset,
                count,
                expected,
                rule,
            } => write!(
                f,
                "{chunk} chunk data at offset {}: count {count}, expected {expected} ({rule})",
                At(offset)
            ),
            MissingDependency {
                chunk,
                offset,
                needs,
            } => write!(
                f,
                "{chunk} chunk at offset {}: needs a {needs} chunk, the file has none",
                At(offset)
            ),
            IndexOutOfRange {
                chunk,
                offset,
                record,
                field,
                index,
                limit,
                target,
            } => {
                write!(
                f,
                "{chunk} chunk, record {record} at offset {}: {field} {index} is out of range, \
                 expected {}",
                At(offset),
                Expected { limit, target, field }
            )
            }
            RangeOutOfBounds {
                offset,
                group,
                what,
                first,
                count,
                limit,
            } => write!(
                f,
                "GRUP chunk, group {group} at offset {}: {what} {first}..{} go past the {limit} \
                 {what} of the model",
                At(offset),
                u32::from(first) + u32::from(count)
            ),
            BadParent {
                offset,
                bone,
                parent,
            } => write!(
                f,
                "BONE chunk, bone {bone} at offset {}: parent {parent}, expected -1 or a bone \
                 before it (0 to {})",
                At(offset),
                bone as i64 - 1
            ),
            NoKeys { offset, animation } => write!(
                f,
                "ANIM chunk, animation {animation} at offset {}: key_count 0, expected at least 1",
                At(offset)
            ),
            ZeroKeyTicks { offset, animation } => write!(
                f,
                "ANIM chunk, animation {animation} at offset {}: key_ticks 0, expected at least 1",
                At(offset)
            ),
            KeysMisaligned {
                offset,
                animation,
                key_offset,
            } => write!(
                f,
                "ANIM chunk, animation {animation} at offset {}: key offset {key_offset} is not \
                 a multiple of 4",
                At(offset)
            ),
            KeysOutOfChunk {
                offset,
                animation,
                start,
                end,
                keys_start,
                size,
            } => write!(
                f,
                "ANIM chunk, animation {animation} at offset {}: keys at {start}..{end} of the \
                 chunk's data, expected them within {keys_start}..{size} (after the records, \
                 inside the chunk)",
                At(offset)
            ),
            TracksOutOfOrder { offset, track } => write!(
                f,
                "BMOT chunk, track {track} at offset {}: its (animation, bone) is not after the \
                 previous track's, expected tracks in strictly increasing order",
                At(offset)
            ),
            MotionKeysMisaligned {
                offset,
                track,
                key_offset,
            } => write!(
                f,
                "BMOT chunk, track {track} at offset {}: key offset {key_offset} is not a \
                 multiple of 4",
                At(offset)
            ),
            MotionKeysOutOfChunk {
                offset,
                track,
                start,
                end,
                keys_start,
                size,
            } => write!(
                f,
                "BMOT chunk, track {track} at offset {}: keys at {start}..{end} of the chunk's \
                 data, expected them within {keys_start}..{size} (after the tracks, inside the \
                 chunk)",
                At(offset)
            ),
            NegativeScale {
                offset,
                track,
                key,
                axis,
                scale,
            } => write!(
                f,
                "BMOT chunk, track {track} key {key} at offset {}: scale {} is {scale} (raw \
                 Q16.16), expected 0 or more (a mirror cannot be drawn)",
                At(offset),
                ["x", "y", "z"][usize::from(axis % 3)],
            ),
            PointOutOfRange {
                offset,
                point,
                coordinates: [x, y, z],
                distance,
            } => write!(
                f,
                "PNTS chunk, point {point} at offset {}: ({x}, {y}, {z}) (raw Q16.16) is {} \
                 units from the origin, expected at most {} (the engine's limit; convert with \
                 a smaller --scale)",
                At(offset),
                distance >> 16,
                super::MAX_REACH >> 16,
            ),
            NormalNotUnit {
                chunk,
                offset,
                record,
                normal: [x, y, z],
                length,
            } => write!(
                f,
                "{chunk} chunk, record {record} at offset {}: normal ({x}, {y}, {z}) (raw \
                 Q16.16) has length {length}/65536, expected unit length (65536) within \
                 1/{}",
                At(offset),
                65536 / super::NORMAL_TOLERANCE,
            ),
            TextureSize {
                offset,
                texture,
                width,
                height,
            } => write!(
                f,
                "TIMG chunk, texture {texture} at offset {}: {width}x{height}, expected a width \
                 multiple of 8 from 8 to 504 and a height from 1 to 255",
                At(offset)
            ),
            TextureFormat {
                offset,
                texture,
                format,
            } => write!(
                f,
                "TIMG chunk, texture {texture} at offset {}: format {format}, expected 0 (RGB555) \
                 or 1 (16-colour lookup table)",
                At(offset)
            ),
            TexturePixelsShort {
                offset,
                texture,
                needed,
                available,
            } => write!(
                f,
                "TIMG chunk, texture {texture}, pixels at offset {}: {needed} bytes expected, \
                 {available} left in the chunk",
                At(offset)
            ),
            TextureNameMismatch { offset, texture } => write!(
                f,
                "TIMG chunk, texture {texture} at offset {}: its name differs from TEXT name \
                 {texture}, expected the same",
                At(offset)
            ),
            BadName { chunk, offset } => write!(
                f,
                "{chunk} chunk, name at offset {}: expected ASCII ended by a zero within 16 bytes",
                At(offset)
            ),
            BadRegion {
                offset,
                region,
                problem,
            } => {
                write!(f, "REGN chunk, region {region} at offset {}: ", At(offset))?;
                problem.fmt(f)
            }
            BadLevel {
                offset,
                level,
                problem,
            } => {
                write!(f, "LODS chunk, level {level} at offset {}: ", At(offset))?;
                problem.fmt(f)
            }
            LevelRefused { offset, level } => write!(
                f,
                "LODS chunk, level {level}: its JOM file at offset {} is refused (check it \
                 alone: Model::level gives its error)",
                At(offset)
            ),
        }
    }
}

impl core::error::Error for LoadError {}

impl fmt::Display for RegionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RegionProblem::*;
        match *self {
            PolygonsNotNext { first, expected } => write!(
                f,
                "its polygons start at {first}, expected {expected} (right after the region \
                 before's)"
            ),
            PolygonsNotAll { end, polygons } => write!(
                f,
                "the regions' polygons end at {end}, expected {polygons} (every polygon of QUAD \
                 in one region)"
            ),
            PointsOutOfOrder {
                first,
                end,
                after,
                points,
            } => write!(
                f,
                "its points {first}..{end}, expected within {after}..{points} (after the region \
                 before's, inside PNTS)"
            ),
            CornerOutside { polygon, point } => write!(
                f,
                "polygon {polygon} has point {point} for a corner, expected one of the region's \
                 points"
            ),
            PointOutside {
                point,
                distance,
                radius,
            } => write!(
                f,
                "point {point} is {distance} (raw Q16.16) from its centre, expected within its \
                 radius {radius}"
            ),
            CenterOutOfReach { distance, reach } => write!(
                f,
                "its centre is {distance} (raw Q16.16) from the origin, expected within the \
                 model's reach {reach}"
            ),
            StartsWithPrevious { polygon } => write!(
                f,
                "its first polygon {polygon} takes the depth of the polygon before it (sort \
                 previous), expected a region to start with a polygon of its own depth"
            ),
        }
    }
}

impl fmt::Display for LevelProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LevelProblem::*;
        match *self {
            PastChunk { needed, available } => {
                write!(f, "{needed} bytes expected, {available} left in the chunk")
            }
            NotSmaller { pixels, before } => write!(
                f,
                "drawn below {pixels} pixels, expected 1 to {} (below the level before's)",
                before.saturating_sub(1)
            ),
            Nested => write!(
                f,
                "its JOM file has a LODS chunk, expected none (levels do not nest)"
            ),
            OtherSkeleton { chunk } => write!(
                f,
                "its {chunk} chunk differs from the file's, expected the same skeleton in every \
                 level"
            ),
        }
    }
}

/// An offset shown in decimal and hexadecimal.
struct At(usize);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({:#x})", self.0, self.0)
    }
}

/// The valid range of an index, for messages.
struct Expected {
    limit: u32,
    target: Tag,
    field: &'static str,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let optional = match self.field {
            "texture" => "-1 or ",
            "group" => "65535 (no group) or ",
            _ => "",
        };
        match self.limit {
            0 => write!(
                f,
                "{optional}an index into {}, which is empty or absent",
                self.target
            ),
            n => write!(f, "{optional}0 to {} ({} count {n})", n - 1, self.target),
        }
    }
}
