//! Writes JOM files (host only). [`JomFile`] holds every chunk as plain values; `to_bytes`
//! lays them out exactly as the specification says (big endian, chunks padded to 4 bytes,
//! chunks in the specification's order). It writes what it is given, consistent or not, so
//! tests can also make malformed files; `jom::Model::from_bytes` is the judge.

pub mod fixtures;
pub mod scenes;

/// A copy of a file at a 4-byte-aligned address, as `jom::Model::from_bytes` needs (a
/// `Vec<u8>` is only byte aligned).
pub struct AlignedBytes {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl AlignedBytes {
    /// Copies `bytes`.
    pub fn new(bytes: &[u8]) -> Self {
        let mut storage = vec![0; bytes.len() + 3];
        let start = storage.as_ptr().align_offset(4);
        storage[start..start + bytes.len()].copy_from_slice(bytes);
        Self {
            storage,
            start,
            len: bytes.len(),
        }
    }

    /// The copy.
    pub fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
}

/// A name of at most 15 bytes (longer names are truncated, as the format says).
pub type Name = String;

/// A JOM file's content. Fixed-point values are raw Q16.16 (`0x10000` = 1.0).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JomFile {
    /// Header version (1).
    pub version: u16,
    /// Centre of the bounding sphere.
    pub center: [i32; 3],
    /// Radius of the bounding sphere.
    pub radius: i32,
    /// TIMG, written first when present.
    pub textures: Option<Vec<Texture>>,
    /// PNTS.
    pub points: Vec<[i32; 3]>,
    /// QUAD.
    pub polygons: Vec<Polygon>,
    /// QMAT.
    pub polygon_materials: Vec<u16>,
    /// MATL.
    pub materials: Vec<Material>,
    /// TEXT, written when not empty.
    pub texture_names: Vec<Name>,
    /// NTAB.
    pub normals: Option<Vec<[i32; 3]>>,
    /// CNRM.
    pub corner_normals: Option<Vec<u16>>,
    /// VCOL.
    pub vertex_colors: Option<Vec<[i32; 3]>>,
    /// GOUR.
    pub gouraud: Option<Vec<u16>>,
    /// GRUP.
    pub groups: Option<Vec<Group>>,
    /// BONE.
    pub bones: Option<Vec<Bone>>,
    /// ANIM (its keys hold one rotation per bone of `bones`).
    pub animations: Option<Vec<Animation>>,
    /// BMOT (issue 17): per-bone offset and scale keys, written after ANIM. Tracks are
    /// written in the order given; a valid file has them strictly increasing by
    /// (animation, bone), each with as many keys as its animation.
    pub bone_motion: Option<Vec<BoneMotion>>,
    /// Chunks of other kinds, written just before END (a newer writer's chunks).
    pub extra_chunks: Vec<([u8; 4], Vec<u8>)>,
}

/// A TIMG entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub name: Name,
    pub width: u16,
    pub height: u16,
    pub pixels: Pixels,
}

/// The pixels of a TIMG entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Pixels {
    /// Format 0.
    Rgb555(Vec<u16>),
    /// Format 1: the lookup table and two pixels a byte.
    Lut4 { lut: [u16; 16], indices: Vec<u8> },
}

/// A QUAD record.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Polygon {
    pub normal: [i32; 3],
    pub corners: [u16; 4],
}

/// A MATL record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Material {
    pub name: Name,
    pub color: [u8; 3],
    pub shine: u8,
    pub texture: i16,
    pub subdivision_error: u16,
    pub flags: u32,
    pub user: u32,
}

/// A GRUP record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    pub name: Name,
    pub first_point: u16,
    pub point_count: u16,
    pub first_polygon: u16,
    pub polygon_count: u16,
}

/// A BONE record.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bone {
    pub name: Name,
    pub group: u16,
    pub parent: i16,
    pub pivot: [i32; 3],
}

/// An ANIM record and its keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Animation {
    pub name: Name,
    pub key_ticks: u16,
    pub looped: bool,
    pub keys: Vec<Key>,
}

/// A key: the root offset and, per bone, the angles around X, Y, Z.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Key {
    pub root: [i32; 3],
    pub angles: Vec<[i16; 3]>,
}

/// A BMOT track: the offset and scale of one bone in every key of one animation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoneMotion {
    /// The animation's index in ANIM.
    pub animation: u16,
    /// The bone's index in BONE.
    pub bone: u16,
    /// One per key of the animation.
    pub keys: Vec<MotionKey>,
}

/// The offset and scale of a bone in one key, raw Q16.16.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MotionKey {
    /// The bone's offset in model units and rest axes (like the pivot); 0: none.
    pub offset: [i32; 3],
    /// The scale along each axis, `0x10000` = 1.0, each at least 0.
    pub scale: [i32; 3],
}

impl MotionKey {
    /// No offset, scale 1.
    pub const REST: MotionKey = MotionKey {
        offset: [0; 3],
        scale: [0x10000; 3],
    };
}

impl Default for MotionKey {
    fn default() -> Self {
        Self::REST
    }
}

/// Big-endian byte output.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn i16(&mut self, v: i16) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn i32(&mut self, v: i32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn vector(&mut self, v: [i32; 3]) {
        v.into_iter().for_each(|c| self.i32(c));
    }
    fn name(&mut self, name: &str) {
        let mut field = [0u8; 16];
        let bytes = name.as_bytes();
        let len = bytes.len().min(15);
        field[..len].copy_from_slice(&bytes[..len]);
        self.0.extend_from_slice(&field);
    }
    fn count(&mut self, n: usize) {
        self.u32(u32::try_from(n).expect("counts fit in u32"));
    }
    fn pad4(&mut self) {
        while !self.0.len().is_multiple_of(4) {
            self.0.push(0);
        }
    }
}

impl JomFile {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Out::default();
        out.0.extend_from_slice(b"JOM1");
        out.u16(self.version);
        out.u16(0);
        out.vector(self.center);
        out.i32(self.radius);
        let mut chunk = |tag: &[u8; 4], fill: &dyn Fn(&mut Out)| {
            let mut data = Out::default();
            fill(&mut data);
            data.pad4();
            out.0.extend_from_slice(tag);
            out.count(data.0.len());
            out.0.extend_from_slice(&data.0);
        };
        if let Some(textures) = &self.textures {
            chunk(b"TIMG", &|o| write_textures(o, textures));
        }
        chunk(b"PNTS", &|o| vectors(o, &self.points));
        chunk(b"QUAD", &|o| {
            o.count(self.polygons.len());
            for p in &self.polygons {
                o.vector(p.normal);
                p.corners.into_iter().for_each(|c| o.u16(c));
            }
        });
        chunk(b"QMAT", &|o| u16s(o, &self.polygon_materials));
        chunk(b"MATL", &|o| {
            o.count(self.materials.len());
            for m in &self.materials {
                o.name(&m.name);
                m.color.into_iter().for_each(|c| o.u8(c));
                o.u8(m.shine);
                o.i16(m.texture);
                o.u16(m.subdivision_error);
                o.u32(m.flags);
                o.u32(m.user);
            }
        });
        if !self.texture_names.is_empty() {
            chunk(b"TEXT", &|o| {
                o.count(self.texture_names.len());
                self.texture_names.iter().for_each(|n| o.name(n));
            });
        }
        if let Some(normals) = &self.normals {
            chunk(b"NTAB", &|o| vectors(o, normals));
        }
        if let Some(corners) = &self.corner_normals {
            chunk(b"CNRM", &|o| u16s(o, corners));
        }
        if let Some(colors) = &self.vertex_colors {
            chunk(b"VCOL", &|o| vectors(o, colors));
        }
        if let Some(gouraud) = &self.gouraud {
            chunk(b"GOUR", &|o| u16s(o, gouraud));
        }
        if let Some(groups) = &self.groups {
            chunk(b"GRUP", &|o| {
                o.count(groups.len());
                for g in groups {
                    o.name(&g.name);
                    [
                        g.first_point,
                        g.point_count,
                        g.first_polygon,
                        g.polygon_count,
                    ]
                    .into_iter()
                    .for_each(|v| o.u16(v));
                }
            });
        }
        if let Some(bones) = &self.bones {
            chunk(b"BONE", &|o| {
                o.count(bones.len());
                for b in bones {
                    o.name(&b.name);
                    o.u16(b.group);
                    o.i16(b.parent);
                    o.vector(b.pivot);
                }
            });
        }
        if let Some(animations) = &self.animations {
            chunk(b"ANIM", &|o| write_animations(o, animations));
        }
        if let Some(tracks) = &self.bone_motion {
            chunk(b"BMOT", &|o| write_bone_motion(o, tracks));
        }
        for (tag, data) in &self.extra_chunks {
            chunk(tag, &|o| o.0.extend_from_slice(data));
        }
        chunk(b"END ", &|_| {});
        out.0
    }
}

fn vectors(o: &mut Out, vectors: &[[i32; 3]]) {
    o.count(vectors.len());
    vectors.iter().for_each(|&v| o.vector(v));
}

fn u16s(o: &mut Out, values: &[u16]) {
    o.count(values.len());
    values.iter().for_each(|&v| o.u16(v));
}

fn write_textures(o: &mut Out, textures: &[Texture]) {
    o.count(textures.len());
    for t in textures {
        o.name(&t.name);
        o.u16(t.width);
        o.u16(t.height);
        match &t.pixels {
            Pixels::Rgb555(pixels) => {
                o.u16(0);
                o.u16(0);
                pixels.iter().for_each(|&p| o.u16(p));
            }
            Pixels::Lut4 { lut, indices } => {
                o.u16(1);
                o.u16(0);
                lut.iter().for_each(|&c| o.u16(c));
                o.0.extend_from_slice(indices);
            }
        }
        o.pad4();
    }
}

/// The records first, then each animation's keys in order; a key is padded to 4 bytes.
fn write_animations(o: &mut Out, animations: &[Animation]) {
    o.count(animations.len());
    let mut key_offset = 4 + 28 * animations.len();
    let mut keys = Out::default();
    for a in animations {
        o.name(&a.name);
        o.u16(u16::try_from(a.keys.len()).expect("at most 65,535 keys"));
        o.u16(a.key_ticks);
        o.u16(u16::from(a.looped));
        o.u16(0);
        o.count(key_offset);
        for key in &a.keys {
            keys.vector(key.root);
            key.angles
                .iter()
                .flatten()
                .for_each(|&angle| keys.i16(angle));
            keys.pad4();
        }
        key_offset = 4 + 28 * animations.len() + keys.0.len();
    }
    o.0.extend_from_slice(&keys.0);
}

/// The track table (count, then animation, bone and key offset per track), then each
/// track's keys in table order: offset then scale, 24 bytes a key.
fn write_bone_motion(o: &mut Out, tracks: &[BoneMotion]) {
    o.count(tracks.len());
    let mut key_offset = 4 + 8 * tracks.len();
    for track in tracks {
        o.u16(track.animation);
        o.u16(track.bone);
        o.count(key_offset);
        key_offset += 24 * track.keys.len();
    }
    for key in tracks.iter().flat_map(|t| &t.keys) {
        o.vector(key.offset);
        o.vector(key.scale);
    }
}

/// A jo engine `.BIN` image (what `jo_sprite_add_bin` reads from the CD): width, height, then
/// width x height RGB555 pixels, left to right then top to bottom, every value a
/// **little-endian** u16 (the jo engine's loader swaps each one with `jo_swap_endian_ushort`
/// on the big-endian SH-2). Pixel 0 is transparent.
pub fn jo_image_bin(width: u16, height: u16, pixels: &[u16]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(4 + 2 * pixels.len());
    for value in [width, height].iter().chain(pixels) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    bytes
}

/// A 32-bit Truevision TGA image (type 10, run-length encoded; bottom-up rows, as most
/// tools write them; 8 attribute bits: the alpha) of `width` x `height` RGBA pixels given
/// top to bottom. What the engine's TGA decoder reads, for fixtures.
pub fn tga_rle_32(width: u16, height: u16, rgba: &[[u8; 4]]) -> Vec<u8> {
    let mut bytes = vec![0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    bytes.extend_from_slice(&width.to_le_bytes());
    bytes.extend_from_slice(&height.to_le_bytes());
    bytes.extend_from_slice(&[32, 0x08]);
    let bgra = |[r, g, b, a]: [u8; 4]| [b, g, r, a];
    let rows: Vec<&[[u8; 4]]> = rgba.chunks(usize::from(width)).rev().collect();
    let pixels: Vec<[u8; 4]> = rows.concat().into_iter().map(bgra).collect();
    let mut k = 0;
    while k < pixels.len() {
        let run = pixels[k..]
            .iter()
            .take(128)
            .take_while(|p| **p == pixels[k])
            .count();
        if run > 1 {
            bytes.push(0x80 | (run - 1) as u8);
            bytes.extend_from_slice(&pixels[k]);
            k += run;
        } else {
            let raw = pixels[k..]
                .windows(2)
                .take(128)
                .take_while(|w| w[0] != w[1])
                .count()
                .max(1);
            bytes.push((raw - 1) as u8);
            pixels[k..k + raw]
                .iter()
                .for_each(|p| bytes.extend_from_slice(p));
            k += raw;
        }
    }
    bytes
}

/// A REGN region (this project's chunk, docs/format.md "REGN"), raw Q16.16.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Region {
    /// The centre of its bounding sphere.
    pub center: [i32; 3],
    /// Its radius: every point of the region within it of the centre.
    pub radius: i32,
    /// Its points (those its polygons use, and no other region's).
    pub first_point: u16,
    pub point_count: u16,
    /// Its polygons (the regions' follow each other and are all the model's).
    pub first_polygon: u16,
    pub polygon_count: u16,
}

/// The REGN chunk of `regions`, for [`JomFile::extra_chunks`].
pub fn regions_chunk(regions: &[Region]) -> ([u8; 4], Vec<u8>) {
    let mut out = Out::default();
    out.0
        .extend_from_slice(&(regions.len() as u32).to_be_bytes());
    for region in regions {
        for v in region.center {
            out.0.extend_from_slice(&v.to_be_bytes());
        }
        out.0.extend_from_slice(&region.radius.to_be_bytes());
        out.u16(region.first_point);
        out.u16(region.point_count);
        out.u16(region.first_polygon);
        out.u16(region.polygon_count);
    }
    (*b"REGN", out.0)
}

/// The LODS chunk of the lower levels `levels` (level 1 first): each the size on screen
/// (pixels) below which it is drawn and its whole JOM file, for [`JomFile::extra_chunks`].
pub fn levels_chunk(levels: &[(u32, Vec<u8>)]) -> ([u8; 4], Vec<u8>) {
    let mut out = Vec::new();
    out.extend_from_slice(&(levels.len() as u32).to_be_bytes());
    for (pixels, file) in levels {
        out.extend_from_slice(&pixels.to_be_bytes());
        out.extend_from_slice(&(file.len() as u32).to_be_bytes());
        out.extend_from_slice(file);
    }
    (*b"LODS", out)
}
