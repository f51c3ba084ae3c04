//! Views of the chunks whose records are not all of one size: the embedded textures (TIMG)
//! and the animations with their keys (ANIM).

use super::be::Rgb555Be;
use super::records::{
    record, records, Animation, BoneRotation, MotionKey, MotionTrack, Name, TextureHeader, Vector,
};

/// The embedded textures (TIMG chunk), in the order of TEXT.
#[derive(Clone, Copy, Debug)]
pub struct Textures<'a> {
    /// The chunk's data after the count.
    pub(crate) entries: &'a [u8],
    pub(crate) count: usize,
}

impl<'a> Textures<'a> {
    /// The number of textures.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the chunk holds no texture.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The textures, in file order.
    pub fn iter(&self) -> TextureIter<'a> {
        TextureIter {
            rest: self.entries,
            left: self.count,
        }
    }
}

impl<'a> IntoIterator for Textures<'a> {
    type Item = Texture<'a>;
    type IntoIter = TextureIter<'a>;

    fn into_iter(self) -> TextureIter<'a> {
        self.iter()
    }
}

/// An iterator over embedded textures.
#[derive(Clone, Debug)]
pub struct TextureIter<'a> {
    rest: &'a [u8],
    left: usize,
}

impl<'a> Iterator for TextureIter<'a> {
    type Item = Texture<'a>;

    fn next(&mut self) -> Option<Texture<'a>> {
        self.left = self.left.checked_sub(1)?;
        let (texture, size) = Texture::parse(self.rest)?;
        self.rest = self.rest.get(size..)?;
        Some(texture)
    }
}

/// An embedded texture.
#[derive(Clone, Copy, Debug)]
pub struct Texture<'a> {
    /// Its header: name, width, height, format.
    pub header: &'a TextureHeader,
    /// Its pixels.
    pub pixels: TexturePixels<'a>,
    /// Its pixel data as stored (the lookup table first for format 1): big endian, what
    /// VDP1 VRAM holds.
    pub data: &'a [u8],
}

/// The pixels of an embedded texture.
#[derive(Clone, Copy, Debug)]
pub enum TexturePixels<'a> {
    /// Format 0: width x height RGB555 pixels, left to right then top to bottom; 0 is
    /// transparent.
    Rgb555(&'a [Rgb555Be]),
    /// Format 1: a 16-colour lookup table (colour 0 transparent) and two pixels a byte, the
    /// left one in the high 4 bits.
    Lut4 {
        /// The lookup table.
        lut: &'a [Rgb555Be; 16],
        /// width x height / 2 bytes.
        pixels: &'a [u8],
    },
}

/// Pixel format 0: RGB555.
pub(crate) const FORMAT_RGB555: u16 = 0;
/// Pixel format 1: 4 bits per pixel and a lookup table.
pub(crate) const FORMAT_LUT4: u16 = 1;
const TEXTURE_HEADER_SIZE: usize = core::mem::size_of::<TextureHeader>();
const LUT_SIZE: usize = 32;

impl<'a> Texture<'a> {
    /// The texture's name.
    pub fn name(&self) -> &'a Name {
        self.header.name()
    }

    /// The bytes of pixel data (lookup table included) a texture of this format and size
    /// holds, or `None` for an unknown format.
    pub(crate) fn pixel_bytes(header: &TextureHeader) -> Option<u64> {
        let pixels = u64::from(header.width()) * u64::from(header.height());
        match header.format_raw() {
            FORMAT_RGB555 => Some(pixels * 2),
            FORMAT_LUT4 => Some(LUT_SIZE as u64 + pixels / 2),
            _ => None,
        }
    }

    /// The texture at the start of `bytes` and the bytes it takes (padded to 4).
    pub(crate) fn parse(bytes: &'a [u8]) -> Option<(Self, usize)> {
        let header = record::<TextureHeader>(bytes, 0)?;
        let len = usize::try_from(Self::pixel_bytes(header)?).ok()?;
        let data = bytes.get(TEXTURE_HEADER_SIZE..TEXTURE_HEADER_SIZE.checked_add(len)?)?;
        let pixels = match header.format_raw() {
            FORMAT_RGB555 => TexturePixels::Rgb555(records(data, 0, len / 2)?),
            _ => TexturePixels::Lut4 {
                lut: records(data, 0, 16)?.try_into().ok()?,
                pixels: &data[LUT_SIZE..],
            },
        };
        Some((
            Self {
                header,
                pixels,
                data,
            },
            TEXTURE_HEADER_SIZE + len.next_multiple_of(4),
        ))
    }
}

/// The animations (ANIM chunk) and their keys.
#[derive(Clone, Copy, Debug, Default)]
pub struct Animations<'a> {
    pub(crate) records: &'a [Animation],
    /// The chunk's data, from its count: key offsets are relative to it.
    pub(crate) data: &'a [u8],
    pub(crate) bone_count: usize,
    /// The BMOT chunk (empty without).
    pub(crate) motion: BoneMotion<'a>,
}

impl<'a> Animations<'a> {
    /// The number of animations.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether the model has no animation.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The animation records.
    pub fn records(&self) -> &'a [Animation] {
        self.records
    }

    /// Animation `index`.
    pub fn get(&self, index: usize) -> Option<AnimationView<'a>> {
        let record = self.records.get(index)?;
        let key_size = key_size(self.bone_count);
        let start = usize::try_from(record.key_offset()).ok()?;
        let len = usize::from(record.key_count()).checked_mul(key_size)?;
        let keys = self.data.get(start..start.checked_add(len)?)?;
        Some(AnimationView {
            index,
            record,
            keys,
            bone_count: self.bone_count,
            motion: self.motion.of_animation(index),
        })
    }

    /// The first animation named `name` (`jo_3d_model_is_animation`).
    pub fn find(&self, name: &str) -> Option<AnimationView<'a>> {
        let index = self
            .records
            .iter()
            .position(|a| a.name().as_bytes() == name.as_bytes())?;
        self.get(index)
    }

    /// Whether an animation before `index` has the same name (the `duplicate` field that
    /// `jo_3d_load_model` sets). Computed here, so the file's bytes stay read-only: the
    /// field in the file is ignored.
    pub fn is_duplicate(&self, index: usize) -> bool {
        let Some(this) = self.records.get(index) else {
            return false;
        };
        self.records[..index]
            .iter()
            .any(|a| a.name() == this.name())
    }

    /// The animations, in file order.
    pub fn iter(&self) -> impl Iterator<Item = AnimationView<'a>> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

/// The size of one key for a skeleton of `bone_count` bones: the root offset, 3 angles per
/// bone, padded to 4 bytes.
pub(crate) const fn key_size(bone_count: usize) -> usize {
    (12 + 6 * bone_count).next_multiple_of(4)
}

/// An animation and its keys.
#[derive(Clone, Copy, Debug)]
pub struct AnimationView<'a> {
    /// The animation's number in ANIM.
    pub index: usize,
    /// Its record.
    pub record: &'a Animation,
    keys: &'a [u8],
    bone_count: usize,
    /// Its BMOT tracks.
    pub motion: MotionTracks<'a>,
}

impl<'a> AnimationView<'a> {
    /// The animation's name.
    pub fn name(&self) -> &'a Name {
        self.record.name()
    }

    /// Key `index`, or `None` past the last key.
    pub fn key(&self, index: usize) -> Option<Key<'a>> {
        let start = index.checked_mul(key_size(self.bone_count))?;
        Some(Key {
            root: record(self.keys, start)?,
            rotations: records(self.keys, start + 12, self.bone_count)?,
        })
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = Key<'a>> + '_ {
        (0..usize::from(self.record.key_count())).filter_map(|i| self.key(i))
    }
}

/// A key of an animation: the pose of the skeleton at one time.
#[derive(Clone, Copy, Debug)]
pub struct Key<'a> {
    /// The offset of the whole model.
    pub root: &'a Vector,
    /// For each bone, its rotation around X, Y then Z of its parent.
    pub rotations: &'a [BoneRotation],
}

/// The BMOT chunk: tracks of per-key offsets and scales of bones, strictly increasing by
/// (animation, bone), each with as many keys as its animation (validated).
#[derive(Clone, Copy, Debug, Default)]
pub struct BoneMotion<'a> {
    pub(crate) tracks: &'a [MotionTrack],
    /// The chunk's data, from its count: key offsets are relative to it.
    pub(crate) data: &'a [u8],
    /// The key count of each animation, to size each track.
    pub(crate) animations: &'a [Animation],
}

impl<'a> BoneMotion<'a> {
    /// The track records, in file order.
    pub fn tracks(&self) -> &'a [MotionTrack] {
        self.tracks
    }

    /// The tracks of animation `index` (found by a binary search: they are sorted).
    pub fn of_animation(&self, index: usize) -> MotionTracks<'a> {
        let Ok(index) = u16::try_from(index) else {
            return MotionTracks::default();
        };
        let start = self.tracks.partition_point(|t| t.animation() < index);
        let end = start + self.tracks[start..].partition_point(|t| t.animation() == index);
        let key_count = self
            .animations
            .get(usize::from(index))
            .map_or(0, |a| usize::from(a.key_count()));
        MotionTracks {
            tracks: &self.tracks[start..end],
            data: self.data,
            key_count,
        }
    }
}

/// The BMOT tracks of one animation, by increasing bone.
#[derive(Clone, Copy, Debug, Default)]
pub struct MotionTracks<'a> {
    tracks: &'a [MotionTrack],
    data: &'a [u8],
    key_count: usize,
}

impl<'a> MotionTracks<'a> {
    /// The number of tracks (bones that move or stretch).
    pub fn len(&self) -> usize {
        self.tracks.len()
    }

    /// Whether no bone moves or stretches in the animation.
    pub fn is_empty(&self) -> bool {
        self.tracks.is_empty()
    }

    /// Track `index`: its bone and its keys (one per key of the animation).
    pub fn get(&self, index: usize) -> Option<(u16, &'a [MotionKey])> {
        let track = self.tracks.get(index)?;
        let keys = records(
            self.data,
            usize::try_from(track.key_offset()).ok()?,
            self.key_count,
        )?;
        Some((track.bone(), keys))
    }

    /// The tracks in order of bone: each bone and its keys.
    pub fn iter(&self) -> impl Iterator<Item = (u16, &'a [MotionKey])> + 'a {
        let tracks = *self;
        (0..self.len()).filter_map(move |i| tracks.get(i))
    }
}
