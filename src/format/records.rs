//! The fixed-size records of a JOM file, laid out exactly as in the file (`#[repr(C)]`, the
//! layouts of `jo_3d_polygon`, `jo_3d_material`, `jo_3d_model_group`, `jo_3d_bone` and
//! `jo_3d_animation`), with their sizes and field offsets asserted at compile time.

use super::be::{AngleBe, FixedBe, I16Be, Rgb555Be, U16Be, U32Be};
use super::flags::MaterialFlags;
use crate::math::{Angle, Fixed};
use core::mem::{align_of, offset_of, size_of};

/// A record that may be read in place from any bytes of its size and alignment.
///
/// # Safety
/// The type is `#[repr(C)]` or `#[repr(transparent)]`, has no padding, every bit pattern is
/// a valid value, and its alignment is at most 4 (a JOM buffer is 4-byte aligned).
pub(crate) unsafe trait Record: Sized {}

/// `count` records of type `T` starting `start` bytes into `bytes`, or `None` when they do
/// not fit or are misaligned.
pub(crate) fn records<T: Record>(bytes: &[u8], start: usize, count: usize) -> Option<&[T]> {
    let len = count.checked_mul(size_of::<T>())?;
    let slice = bytes.get(start..start.checked_add(len)?)?;
    if !slice.as_ptr().cast::<T>().is_aligned() {
        return None;
    }
    // SAFETY: `T: Record` accepts any bits; the slice is in bounds and aligned for `T`,
    // and the returned lifetime is the input's.
    Some(unsafe { core::slice::from_raw_parts(slice.as_ptr().cast::<T>(), count) })
}

/// One record of type `T` starting `start` bytes into `bytes`.
pub(crate) fn record<T: Record>(bytes: &[u8], start: usize) -> Option<&T> {
    records(bytes, start, 1)?.first()
}

macro_rules! assert_layout {
    ($t:ty, size $size:expr, align $align:expr $(, $field:ident @ $offset:expr)*) => {
        const _: () = assert!(size_of::<$t>() == $size);
        const _: () = assert!(align_of::<$t>() == $align);
        $(const _: () = assert!(offset_of!($t, $field) == $offset);)*
    };
}

/// A name of at most 15 characters ended by a zero (`char[16]`). Validation guarantees the
/// zero and that the characters are ASCII.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Name([u8; 16]);
assert_layout!(Name, size 16, align 1);

impl Name {
    /// The characters before the zero.
    pub fn as_bytes(&self) -> &[u8] {
        let end = self.0.iter().position(|&b| b == 0).unwrap_or(self.0.len());
        &self.0[..end]
    }

    /// The name as text (empty if it is not ASCII, which validation rules out).
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(self.as_bytes()).unwrap_or("")
    }

    /// The 16 bytes as stored.
    pub const fn raw(&self) -> &[u8; 16] {
        &self.0
    }

    /// Whether the name is stored as `char[16]` must be: ASCII, a zero within 16 bytes.
    pub(crate) fn is_valid(&self) -> bool {
        // Up to the zero, which ends most names within a few bytes (`contains` and
        // `is_ascii` are calls of a few hundred SH-2 cycles a name).
        for &byte in &self.0 {
            if byte == 0 {
                return true;
            }
            if !byte.is_ascii() {
                return false;
            }
        }
        false
    }
}

impl core::fmt::Display for Name {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::fmt::Debug for Name {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

/// A point, normal or pivot: three Q16.16 coordinates in the Saturn's axes (X right, Y down,
/// Z forward).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Vector {
    pub(crate) x: FixedBe,
    pub(crate) y: FixedBe,
    pub(crate) z: FixedBe,
}
assert_layout!(Vector, size 12, align 4, x @ 0, y @ 4, z @ 8);

impl Vector {
    /// The coordinates (x, y, z).
    #[inline(always)]
    pub fn get(&self) -> [Fixed; 3] {
        [self.x.get(), self.y.get(), self.z.get()]
    }

    /// The raw Q16.16 coordinates (`0x10000` = 1.0).
    #[inline(always)]
    pub fn raw(&self) -> [i32; 3] {
        // Element by element, not `map`: the SH-2 code generator does not inline the
        // closure of an array's `map` (a call per point in the transform's loop).
        [
            self.x.get().to_bits(),
            self.y.get().to_bits(),
            self.z.get().to_bits(),
        ]
    }
}

/// A vertex colour (VCOL): red, green, blue in Q16.16, 1.0 = full intensity.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct VertexColor {
    pub(crate) r: FixedBe,
    pub(crate) g: FixedBe,
    pub(crate) b: FixedBe,
}
assert_layout!(VertexColor, size 12, align 4, r @ 0, g @ 4, b @ 8);

impl VertexColor {
    /// The channels (r, g, b).
    pub fn get(&self) -> [Fixed; 3] {
        [self.r.get(), self.g.get(), self.b.get()]
    }
}

/// A polygon (`jo_3d_polygon`): its unit normal and the indexes in PNTS of its corners A, B,
/// C, D. A triangle repeats C as D.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Polygon {
    pub(crate) normal: Vector,
    pub(crate) corners: [U16Be; 4],
}
assert_layout!(Polygon, size 20, align 4, normal @ 0, corners @ 12);

impl Polygon {
    /// The unit normal of the polygon.
    #[inline(always)]
    pub fn normal(&self) -> &Vector {
        &self.normal
    }

    /// The indexes in PNTS of the corners A, B, C, D.
    #[inline(always)]
    pub fn corners(&self) -> [u16; 4] {
        // Not `map`: see `Vector::raw`.
        let c = &self.corners;
        [c[0].get(), c[1].get(), c[2].get(), c[3].get()]
    }

    /// Whether the polygon is a triangle (D repeats C).
    pub fn is_triangle(&self) -> bool {
        self.corners[2] == self.corners[3]
    }
}

/// A material (`jo_3d_material`).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Material {
    pub(crate) name: Name,
    pub(crate) color: [u8; 3],
    shine: u8,
    pub(crate) texture: I16Be,
    pub(crate) subdivision_error: U16Be,
    pub(crate) flags: U32Be,
    pub(crate) user: U32Be,
}
assert_layout!(Material, size 32, align 4, name @ 0, color @ 16, shine @ 19, texture @ 20,
    subdivision_error @ 22, flags @ 24, user @ 28);

impl Material {
    /// The MTL `newmtl` name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The colour of untextured polygons (MTL `Kd`), 8 bits per channel (r, g, b).
    pub fn color(&self) -> [u8; 3] {
        self.color
    }

    /// MTL `Ns`, 0 to 255: for the program.
    pub fn shine(&self) -> u8 {
        self.shine
    }

    /// The index of the texture in TEXT, or `None` for an untextured material.
    pub fn texture(&self) -> Option<u16> {
        u16::try_from(self.texture.get()).ok()
    }

    /// The texture field as stored (`-1`: no texture).
    pub fn texture_raw(&self) -> i16 {
        self.texture.get()
    }

    /// The distortion in pixels over which polygons are drawn in parts; 0: the engine's
    /// default.
    pub fn subdivision_error(&self) -> u16 {
        self.subdivision_error.get()
    }

    /// The engine and program flags.
    pub fn flags(&self) -> MaterialFlags {
        MaterialFlags::from_bits(self.flags.get())
    }

    /// MTL `jo_value`: for the program.
    pub fn user(&self) -> u32 {
        self.user.get()
    }
}

/// A group (`jo_3d_model_group`): an OBJ `o` or `g`, its polygons and the points used only
/// by them, both as contiguous ranges.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Group {
    pub(crate) name: Name,
    pub(crate) first_point: U16Be,
    pub(crate) point_count: U16Be,
    pub(crate) first_polygon: U16Be,
    pub(crate) polygon_count: U16Be,
}
assert_layout!(Group, size 24, align 2, name @ 0, first_point @ 16, point_count @ 18,
    first_polygon @ 20, polygon_count @ 22);

impl Group {
    /// The OBJ `o` or `g` name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The indexes in PNTS of the points used only by the group.
    pub fn points(&self) -> core::ops::Range<usize> {
        range(self.first_point.get(), self.point_count.get())
    }

    /// The indexes in QUAD of the group's polygons.
    pub fn polygons(&self) -> core::ops::Range<usize> {
        range(self.first_polygon.get(), self.polygon_count.get())
    }
}

fn range(first: u16, count: u16) -> core::ops::Range<usize> {
    usize::from(first)..usize::from(first) + usize::from(count)
}

/// A region of a level (REGN, this project's chunk: docs/format.md): a bounding sphere and
/// the polygons and points it covers, each a contiguous range. The renderer culls a rigid
/// draw's regions by their spheres before any of their points is transformed.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Region {
    pub(crate) center: Vector,
    pub(crate) radius: FixedBe,
    pub(crate) first_point: U16Be,
    pub(crate) point_count: U16Be,
    pub(crate) first_polygon: U16Be,
    pub(crate) polygon_count: U16Be,
}
assert_layout!(Region, size 24, align 4, center @ 0, radius @ 12, first_point @ 16,
    point_count @ 18, first_polygon @ 20, polygon_count @ 22);

impl Region {
    /// The centre of its bounding sphere (model space).
    pub fn center(&self) -> &Vector {
        &self.center
    }

    /// The radius of its bounding sphere, raw Q16.16: every point of the region is within
    /// it of the centre.
    pub fn radius_raw(&self) -> i32 {
        self.radius.get().to_bits()
    }

    /// The indexes in PNTS of its points (those its polygons use, and no other region's).
    pub fn points(&self) -> core::ops::Range<usize> {
        range(self.first_point.get(), self.point_count.get())
    }

    /// The indexes in QUAD of its polygons.
    pub fn polygons(&self) -> core::ops::Range<usize> {
        range(self.first_polygon.get(), self.polygon_count.get())
    }
}

/// A bone of the rigid skeleton (`jo_3d_bone`).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bone {
    pub(crate) name: Name,
    pub(crate) group: U16Be,
    pub(crate) parent: I16Be,
    pub(crate) pivot: Vector,
}
assert_layout!(Bone, size 32, align 4, name @ 0, group @ 16, parent @ 18, pivot @ 20);

impl Bone {
    /// `JO_3D_BONE_NO_GROUP`: a bone that moves no polygons.
    pub const NO_GROUP: u16 = 0xFFFF;

    /// The bone's name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The index in GRUP of the group the bone moves, or `None`.
    pub fn group(&self) -> Option<u16> {
        Some(self.group.get()).filter(|&g| g != Self::NO_GROUP)
    }

    /// The index of the parent bone (always before this one), or `None` for a root.
    pub fn parent(&self) -> Option<u16> {
        u16::try_from(self.parent.get()).ok()
    }

    /// The parent field as stored (`-1`: root).
    pub fn parent_raw(&self) -> i16 {
        self.parent.get()
    }

    /// The joint the bone turns around, in model space.
    pub fn pivot(&self) -> &Vector {
        &self.pivot
    }
}

/// An animation record (`jo_3d_animation`); its keys are read through
/// [`Animations`](super::Animations).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Animation {
    pub(crate) name: Name,
    pub(crate) key_count: U16Be,
    pub(crate) key_ticks: U16Be,
    pub(crate) flags: U16Be,
    pub(crate) duplicate: U16Be,
    pub(crate) offset: U32Be,
}
assert_layout!(Animation, size 28, align 4, name @ 0, key_count @ 16, key_ticks @ 18,
    flags @ 20, duplicate @ 22, offset @ 24);

impl Animation {
    /// `JO_3D_ANIMATION_LOOP`: the last key goes back to the first.
    pub const LOOP: u16 = 1;

    /// The animation's name.
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// The number of keys (at least 1).
    pub fn key_count(&self) -> u16 {
        self.key_count.get()
    }

    /// The time between two keys, in ticks of 1/60 s (at least 1).
    pub fn key_ticks(&self) -> u16 {
        self.key_ticks.get()
    }

    /// The flags as stored.
    pub fn flags(&self) -> u16 {
        self.flags.get()
    }

    /// Whether the last key goes back to the first.
    pub fn is_looped(&self) -> bool {
        self.flags.get() & Self::LOOP != 0
    }

    /// The offset of the keys from the start of the chunk's data.
    pub fn key_offset(&self) -> u32 {
        self.offset.get()
    }
}

/// The rotation of one bone in a key: angles around X, Y then Z of its parent.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoneRotation {
    pub(crate) x: AngleBe,
    pub(crate) y: AngleBe,
    pub(crate) z: AngleBe,
}
assert_layout!(BoneRotation, size 6, align 2, x @ 0, y @ 2, z @ 4);

impl BoneRotation {
    /// The angles around X, Y and Z.
    pub fn get(&self) -> [Angle; 3] {
        [self.x.get(), self.y.get(), self.z.get()]
    }
}

/// A BMOT track: the offsets and scales of one bone in one animation.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MotionTrack {
    pub(crate) animation: U16Be,
    pub(crate) bone: U16Be,
    pub(crate) offset: U32Be,
}
assert_layout!(MotionTrack, size 8, align 4, animation @ 0, bone @ 2, offset @ 4);

impl MotionTrack {
    /// The animation's index in ANIM.
    pub fn animation(&self) -> u16 {
        self.animation.get()
    }

    /// The bone's index in BONE.
    pub fn bone(&self) -> u16 {
        self.bone.get()
    }

    /// The offset of the keys from the start of the chunk's data.
    pub fn key_offset(&self) -> u32 {
        self.offset.get()
    }

    /// (animation, bone) as one number, the order of the tracks.
    pub(crate) fn order(&self) -> u32 {
        u32::from(self.animation()) << 16 | u32::from(self.bone())
    }
}

/// A bone's offset and scale in one key of a BMOT track.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MotionKey {
    pub(crate) offset: Vector,
    pub(crate) scale: Vector,
}
assert_layout!(MotionKey, size 24, align 4, offset @ 0, scale @ 12);

impl MotionKey {
    /// The bone's offset (model units, rest axes), raw Q16.16.
    #[inline(always)]
    pub fn offset(&self) -> [i32; 3] {
        self.offset.raw()
    }

    /// The scale along X, Y, Z, raw Q16.16 (`0x10000` = 1.0, never negative).
    #[inline(always)]
    pub fn scale(&self) -> [i32; 3] {
        self.scale.raw()
    }
}

/// The header of an embedded texture (TIMG entry); its pixels follow it.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TextureHeader {
    pub(crate) name: Name,
    pub(crate) width: U16Be,
    pub(crate) height: U16Be,
    pub(crate) format: U16Be,
    pub(crate) reserved: U16Be,
}
assert_layout!(TextureHeader, size 24, align 2, name @ 0, width @ 16, height @ 18,
    format @ 20, reserved @ 22);

impl TextureHeader {
    /// The texture's name (the same in TEXT).
    pub fn name(&self) -> &Name {
        &self.name
    }

    /// Width in pixels, a multiple of 8.
    pub fn width(&self) -> u16 {
        self.width.get()
    }

    /// Height in pixels.
    pub fn height(&self) -> u16 {
        self.height.get()
    }

    /// The pixel format as stored (0: RGB555, 1: 16-colour lookup table).
    pub fn format_raw(&self) -> u16 {
        self.format.get()
    }
}

/// The header of the file.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Header {
    pub(crate) magic: [u8; 4],
    pub(crate) version: U16Be,
    pub(crate) reserved: U16Be,
    pub(crate) center: Vector,
    pub(crate) radius: FixedBe,
}
assert_layout!(Header, size super::chunks::HEADER_SIZE, align 4, magic @ 0, version @ 4, reserved @ 6, center @ 8,
    radius @ 20);

/// The header of a chunk.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct ChunkHeader {
    pub(crate) tag: [u8; 4],
    pub(crate) size: U32Be,
}
assert_layout!(ChunkHeader, size 8, align 4, tag @ 0, size @ 4);

// SAFETY: each type below is repr(C)/repr(transparent) over integers and byte arrays, with
// no padding (the size asserts above add up the fields) and alignment at most 4.
unsafe impl Record for U16Be {}
unsafe impl Record for U32Be {}
unsafe impl Record for Rgb555Be {}
unsafe impl Record for Name {}
unsafe impl Record for Vector {}
unsafe impl Record for VertexColor {}
unsafe impl Record for Polygon {}
unsafe impl Record for Material {}
unsafe impl Record for Group {}
unsafe impl Record for Region {}
unsafe impl Record for Bone {}
unsafe impl Record for Animation {}
unsafe impl Record for BoneRotation {}
unsafe impl Record for MotionTrack {}
unsafe impl Record for MotionKey {}
unsafe impl Record for TextureHeader {}
unsafe impl Record for Header {}
unsafe impl Record for ChunkHeader {}
