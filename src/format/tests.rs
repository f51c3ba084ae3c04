//! Tests of reading and validating JOM files, run on the host and on the SH-2. They read the
//! checked-in fixtures and copies of them patched byte by byte, so they need no allocator.

use super::{Chunk, LoadError, MaterialFlags, Model, ModelCounts, SortMode, Tag, TexturePixels};
use crate::math::ONE;
use crate::{check, check_eq, Aligned, Angle};
use core::fmt::Write;

fn every_chunk() -> &'static [u8] {
    crate::selftest::fixtures::EVERY_CHUNK
}

fn minimal() -> &'static [u8] {
    crate::selftest::fixtures::MINIMAL
}

/// The fixture with a BMOT chunk.
fn motion() -> &'static [u8] {
    crate::selftest::fixtures::MOTION
}

/// A chunk of the valid fixture.
fn chunk(tag: Tag) -> Chunk<'static> {
    chunk_of(every_chunk(), tag)
}

/// A chunk of a valid fixture.
fn chunk_of(source: &'static [u8], tag: Tag) -> Chunk<'static> {
    let model = Model::from_bytes(source).ok();
    let found = model.and_then(|m| m.chunks().find(|c| c.tag == tag));
    found.unwrap_or(Chunk {
        tag,
        offset: 0,
        data: &[],
    })
}

/// Where record `index` of `size` bytes of a chunk starts (after the count).
fn record_at(tag: Tag, size: usize, index: usize) -> usize {
    chunk(tag).data_offset() + 4 + size * index
}

/// A copy of the valid fixture to patch.
struct Patched {
    buffer: Aligned<[u8; 2048]>,
    len: usize,
    source: &'static [u8],
}

impl Patched {
    fn new() -> Self {
        Self::of(every_chunk())
    }

    /// A copy of `source` (at most 2048 bytes) to patch.
    fn of(source: &'static [u8]) -> Self {
        let mut buffer = Aligned([0; 2048]);
        buffer.0[..source.len()].copy_from_slice(source);
        Self {
            buffer,
            len: source.len(),
            source,
        }
    }

    fn set(mut self, offset: usize, bytes: &[u8]) -> Self {
        self.buffer.0[offset..offset + bytes.len()].copy_from_slice(bytes);
        self
    }

    fn u16(self, offset: usize, value: u16) -> Self {
        self.set(offset, &value.to_be_bytes())
    }

    fn u32(self, offset: usize, value: u32) -> Self {
        self.set(offset, &value.to_be_bytes())
    }

    fn rename(self, tag: Tag, new: &[u8; 4]) -> Self {
        let offset = chunk_of(self.source, tag).offset;
        self.set(offset, new)
    }

    fn i32(self, offset: usize, value: i32) -> Self {
        self.set(offset, &value.to_be_bytes())
    }

    /// Removes the last `n` bytes of a chunk's data and fixes its size.
    fn shrink(mut self, tag: Tag, n: usize) -> Self {
        let c = chunk_of(self.source, tag);
        let end = c.data_offset() + c.data.len();
        self.buffer.0.copy_within(end..self.len, end - n);
        self.len -= n;
        self.u32(c.offset + 4, c.size() - n as u32)
    }

    fn with_len(mut self, len: usize) -> Self {
        self.len = len;
        self
    }

    fn error(&self) -> Option<LoadError> {
        Model::from_bytes(&self.buffer.0[..self.len]).err()
    }
}

fn name_is(name: &super::Name, expected: &str) -> bool {
    name.as_str() == expected
}

crate::test_suite! {
    fn the_counts_read_when_compiling_are_those_of_the_model_loaded() {
        // `ModelCounts::of` in a `const` (as `renderer_memory!(models: ...)` reads them).
        const EVERY: &[u8] = crate::selftest::fixtures::EVERY_CHUNK;
        const COUNTS: ModelCounts = ModelCounts::of(EVERY);
        for (bytes, counts) in [(every_chunk(), COUNTS), (minimal(), ModelCounts::of(minimal())), (motion(), ModelCounts::of(motion()))] {
            let Ok(model) = Model::from_bytes(bytes) else { return Err(fail()) };
            let loaded = ModelCounts {
                points: model.points().len(),
                polygons: model.polygons().len(),
                texture_names: model.texture_names().len(),
                gouraud: model.gouraud().is_some(),
            };
            check_eq!(counts, loaded);
        }
        check!(COUNTS.gouraud && COUNTS.texture_names == 2);
    }

    fn every_chunk_fixture_loads() {
        let model = Model::from_bytes(every_chunk());
        check!(model.is_ok());
        let Ok(model) = model else { return Ok(()) };
        check_eq!(model.version(), 1);
        check_eq!(model.center().raw(), [0, -0x8000, 0]);
        check_eq!(model.radius().to_bits(), 0x20000);
        check_eq!(model.points().len(), 6);
        check_eq!(model.polygons().len(), 3);
        check_eq!(model.polygon_materials().len(), 3);
        check_eq!(model.materials().len(), 3);
        check_eq!(model.texture_names().len(), 2);
        check_eq!(model.textures().map(|t| t.len()), Some(2));
        check_eq!(model.normals().map(<[_]>::len), Some(3));
        check_eq!(model.corner_normals().map(<[_]>::len), Some(12));
        check_eq!(model.vertex_colors().map(<[_]>::len), Some(6));
        check_eq!(model.gouraud().map(<[_]>::len), Some(12));
        check_eq!(model.groups().len(), 2);
        check_eq!(model.bones().len(), 3);
        check_eq!(model.animations().len(), 3);
    }

    fn minimal_fixture_has_no_optional_chunk() {
        let Ok(model) = Model::from_bytes(minimal()) else {
            check!(false);
            return Ok(());
        };
        check_eq!(model.polygons().len(), 1);
        check!(model.textures().is_none());
        check!(model.texture_names().is_empty());
        check!(model.normals().is_none() && model.corner_normals().is_none());
        check!(model.vertex_colors().is_none() && model.gouraud().is_none());
        check!(model.groups().is_empty() && model.bones().is_empty());
        check!(model.animations().is_empty());
        check_eq!(model.materials()[0].texture(), None);
    }

    fn chunks_are_listed_in_file_order() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        let expected = [
            *b"TIMG", *b"PNTS", *b"QUAD", *b"QMAT", *b"MATL", *b"TEXT", *b"NTAB", *b"CNRM",
            *b"VCOL", *b"GOUR", *b"GRUP", *b"BONE", *b"ANIM", *b"XTRA", *b"END ",
        ];
        let mut offset = 24;
        let mut count = 0;
        for (chunk, tag) in model.chunks().zip(expected) {
            check_eq!(chunk.tag, Tag(tag));
            check_eq!(chunk.offset, offset);
            offset += 8 + chunk.data.len();
            count += 1;
        }
        check_eq!(count, expected.len());
        check_eq!(offset, every_chunk().len());
    }

    fn points_and_polygons_read_in_place() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        check_eq!(model.points()[5].raw(), [0, -0x20000, 0x4000]);
        let points = model.points().as_ptr() as usize;
        check_eq!(points, every_chunk().as_ptr() as usize + chunk(Tag::PNTS).data_offset() + 4);
        let triangle = &model.polygons()[2];
        check_eq!(triangle.corners(), [4, 5, 1, 1]);
        check!(triangle.is_triangle());
        check!(!model.polygons()[0].is_triangle());
        check_eq!(triangle.normal().raw(), [46341, -46341, 0]);
        check_eq!(model.polygon_materials()[2].get(), 2);
        check!(model.material_of(1).is_some_and(|m| name_is(m.name(), "wall")));
        check!(model.material_of(3).is_none());
    }

    fn materials_read_every_field_and_flag() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        let [red, wall, leaf] = [0, 1, 2].map(|i| &model.materials()[i]);
        check!(name_is(red.name(), "red"));
        check_eq!(red.color(), [255, 0, 0]);
        check_eq!(red.shine(), 10);
        check_eq!(red.texture(), None);
        check_eq!(red.user(), 7);
        check_eq!(red.flags().sort_mode(), SortMode::Min);
        check!(red.flags().contains(MaterialFlags::LIGHT | MaterialFlags::GOURAUD));
        check!(!red.flags().contains(MaterialFlags::DUAL_PLANE));
        check_eq!(wall.texture(), Some(0));
        check_eq!(wall.subdivision_error(), 4);
        check_eq!(wall.flags().sort_mode(), SortMode::Previous);
        for flag in [
            MaterialFlags::DUAL_PLANE,
            MaterialFlags::HALF_TRANSPARENT,
            MaterialFlags::FLIP_H,
            MaterialFlags::END_CODES,
            MaterialFlags::MIPMAPS,
            MaterialFlags::SUBDIVISION,
        ] {
            check!(wall.flags().contains(flag));
        }
        check_eq!(leaf.texture(), Some(1));
        check_eq!(leaf.shine(), 255);
        check_eq!(leaf.user(), 0xDEAD_BEEF);
        check_eq!(leaf.flags().sort_mode(), SortMode::Center);
        check!(leaf.flags().contains(MaterialFlags::SCREEN_DOORS | MaterialFlags::FLIP_V));
        check!(leaf.flags().contains(MaterialFlags::SUBDIVISION_NEAR));
        check_eq!(leaf.flags().user_bits(), 0x8001);
        check!(leaf.flags().contains(MaterialFlags::user(0) | MaterialFlags::user(15)));
        check_eq!(MaterialFlags::SORT_MAX.sort_mode(), SortMode::Max);
    }

    fn embedded_textures_in_both_formats() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        let Some(textures) = model.textures() else { return Err(fail()) };
        let mut iter = textures.iter();
        let (Some(wall), Some(leaf), None) = (iter.next(), iter.next(), iter.next()) else {
            return Err(fail());
        };
        check!(name_is(wall.name(), "WALL_1A2B3C.BIN"));
        check!(name_is(&model.texture_names()[1], "LEAF_4D5E6F.BIN"));
        check_eq!((wall.header.width(), wall.header.height()), (8, 2));
        let TexturePixels::Rgb555(pixels) = wall.pixels else { return Err(fail()) };
        check_eq!(pixels.len(), 16);
        check_eq!((pixels[0].get().0, pixels[1].get().0, pixels[9].get().0), (0x801F, 0, 0x801F));
        check_eq!(pixels[0].get().r(), 31);
        let TexturePixels::Lut4 { lut, pixels } = leaf.pixels else { return Err(fail()) };
        check_eq!(leaf.header.format_raw(), 1);
        check_eq!((lut[0].get().0, lut[15].get().g()), (0, 15));
        check_eq!(pixels, &[0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF][..]);
    }

    fn corner_and_vertex_data() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        let (Some(normals), Some(corners), Some(colors), Some(gouraud)) =
            (model.normals(), model.corner_normals(), model.vertex_colors(), model.gouraud())
        else {
            return Err(fail());
        };
        check_eq!(normals[1].raw(), [0, -46341, -46341]);
        check_eq!(corners[10].get(), 1);
        check_eq!(colors[3].get().map(|c| c.to_bits()), [0x10000, 0x10000, 0]);
        let first = gouraud[0].get();
        check_eq!((first.r(), first.g(), first.b()), (31, 16, 16));
        check_eq!(gouraud[11].get().0, 0);
    }

    fn groups_and_bones() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        let spike = &model.groups()[1];
        check!(name_is(spike.name(), "spike"));
        check_eq!(spike.points(), 5..6);
        check_eq!(spike.polygons(), 2..3);
        let [root, middle, tip] = [0, 1, 2].map(|i| &model.bones()[i]);
        check_eq!((root.group(), root.parent(), root.parent_raw()), (Some(0), None, -1));
        check_eq!((middle.group(), middle.parent()), (Some(1), Some(0)));
        check_eq!(middle.pivot().raw(), [0, -0x10000, 0]);
        check_eq!((tip.group(), tip.parent()), (None, Some(1)));
        check!(name_is(tip.name(), "tip"));
    }

    fn animations_keys_and_duplicates() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(fail()) };
        let animations = model.animations();
        let (Some(walk), Some(rest), Some(walk2)) = (animations.get(0), animations.get(1), animations.get(2))
        else {
            return Err(fail());
        };
        check!(animations.get(3).is_none());
        check_eq!((walk.record.key_count(), walk.record.key_ticks(), walk.record.is_looped()), (3, 10, true));
        check_eq!((rest.record.key_count(), rest.record.key_ticks(), rest.record.is_looped()), (1, 5, false));
        check_eq!(walk.keys().count(), 3);
        let Some(key) = walk.key(2) else { return Err(fail()) };
        check_eq!(key.root.raw(), [0, 0, 0x10000]);
        check_eq!(key.rotations.len(), 3);
        check_eq!(key.rotations[1].get(), [Angle(-0x7000), Angle(0), Angle(0)]);
        check_eq!(key.rotations[2].get()[2], Angle(0x100));
        check!(walk.key(3).is_none());
        let Some(last) = walk2.key(1) else { return Err(fail()) };
        check_eq!(last.rotations[2].get(), [Angle(-0x8000), Angle(0x7FFF), Angle(0)]);
        check_eq!(rest.key(0).map(|k| k.root.raw()), Some([1, 2, 3]));
        check_eq!([0, 1, 2, 3].map(|i| animations.is_duplicate(i)), [false, false, true, false]);
        check_eq!(animations.find("walk").map(|a| a.index), Some(0));
        check_eq!(animations.find("rest").map(|a| a.index), Some(1));
        check!(animations.find("run").is_none());
        check_eq!(animations.iter().count(), 3);
    }

    fn unknown_chunks_are_skipped() {
        check_eq!(Patched::new().rename(Tag(*b"XTRA"), b"ZZZ9").error(), None);
        check_eq!(Patched::new().error(), None);
    }

    fn misaligned_buffer() {
        let buffer = Patched::new();
        let error = Model::from_bytes(&buffer.buffer.0[2..buffer.len]).err();
        check!(matches!(error, Some(LoadError::Misaligned { address }) if address % 4 == 2));
    }

    fn too_short() {
        check_eq!(Patched::new().with_len(20).error(), Some(LoadError::TooShort { len: 20 }));
        check_eq!(Model::from_bytes(&[]).err(), Some(LoadError::TooShort { len: 0 }));
    }

    fn bad_magic() {
        check_eq!(Patched::new().set(0, b"JOM2").error(), Some(LoadError::BadMagic { found: *b"JOM2" }));
    }

    fn unsupported_version() {
        check_eq!(Patched::new().u16(4, 2).error(), Some(LoadError::UnsupportedVersion { found: 2 }));
    }

    fn truncated_chunk_header() {
        let len = every_chunk().len() - 4;
        let expected = LoadError::TruncatedChunkHeader { offset: len - 4, available: 4 };
        check_eq!(Patched::new().with_len(len).error(), Some(expected));
    }

    fn chunk_size_not_aligned() {
        let pnts = chunk(Tag::PNTS);
        let expected = LoadError::ChunkSizeNotAligned { chunk: Tag::PNTS, offset: pnts.offset, size: 78 };
        check_eq!(Patched::new().u32(pnts.offset + 4, 78).error(), Some(expected));
    }

    fn chunk_past_end() {
        let anim = chunk(Tag::ANIM);
        let available = every_chunk().len() - anim.offset - 8;
        let expected =
            LoadError::ChunkPastEnd { chunk: Tag::ANIM, offset: anim.offset, size: 0xFFFF_FFF0, available };
        check_eq!(Patched::new().u32(anim.offset + 4, 0xFFFF_FFF0).error(), Some(expected));
    }

    fn missing_end() {
        let end = chunk(Tag::END).offset;
        check_eq!(Patched::new().with_len(end).error(), Some(LoadError::MissingEnd { offset: end }));
        let renamed = Patched::new().rename(Tag::END, b"END?");
        check_eq!(renamed.error(), Some(LoadError::MissingEnd { offset: every_chunk().len() }));
    }

    fn end_not_empty() {
        let end = chunk(Tag::END).offset;
        let patched = Patched::new().u32(end + 4, 4).with_len(every_chunk().len() + 4);
        check_eq!(patched.error(), Some(LoadError::EndNotEmpty { offset: end, size: 4 }));
    }

    fn data_after_end() {
        let len = every_chunk().len();
        let expected = LoadError::DataAfterEnd { offset: len, trailing: 8 };
        check_eq!(Patched::new().with_len(len + 8).error(), Some(expected));
    }

    fn missing_required_chunks() {
        for tag in [Tag::PNTS, Tag::QUAD, Tag::QMAT, Tag::MATL] {
            let error = Patched::new().rename(tag, b"GONE").error();
            check_eq!(error, Some(LoadError::MissingChunk { chunk: tag }));
        }
    }

    fn duplicate_chunk() {
        let first = chunk(Tag::GRUP).offset;
        let offset = chunk(Tag(*b"XTRA")).offset;
        let expected = LoadError::DuplicateChunk { chunk: Tag::GRUP, offset, first };
        check_eq!(Patched::new().rename(Tag(*b"XTRA"), b"GRUP").error(), Some(expected));
    }

    fn chunk_too_small_for_its_records() {
        let anim = chunk(Tag::ANIM);
        let error = Patched::new().u32(anim.data_offset(), 1000).error();
        let expected = LoadError::ChunkTooSmall {
            chunk: Tag::ANIM,
            offset: anim.data_offset(),
            size: anim.size(),
            needed: 4 + 28 * 1000,
        };
        check_eq!(error, Some(expected));
    }

    fn count_mismatch() {
        let pnts = chunk(Tag::PNTS);
        let expected = LoadError::CountMismatch {
            chunk: Tag::PNTS,
            offset: pnts.data_offset(),
            count: 7,
            size: pnts.size(),
            expected: 4 + 7 * 12,
        };
        check_eq!(Patched::new().u32(pnts.data_offset(), 7).error(), Some(expected));
    }

    fn two_byte_records_are_padded_to_four() {
        // 3 polygons: QMAT holds 3 x 2 bytes + 2 bytes of padding, as 4 indexes would.
        let qmat = chunk(Tag::QMAT);
        check_eq!(qmat.size(), 12);
        let shorter = Patched::new().u32(qmat.data_offset(), 2).error();
        let mismatch =
            LoadError::CountMismatch { chunk: Tag::QMAT, offset: qmat.data_offset(), count: 2, size: 12, expected: 8 };
        check_eq!(shorter, Some(mismatch));
        let longer = Patched::new().u32(qmat.data_offset(), 4).error();
        let disagrees = LoadError::CountDisagrees {
            chunk: Tag::QMAT,
            offset: qmat.data_offset(),
            count: 4,
            expected: 3,
            rule: "one per polygon of QUAD",
        };
        check_eq!(longer, Some(disagrees));
    }

    fn too_many_points_or_bones() {
        let pnts = chunk(Tag::PNTS);
        let expected = LoadError::TooMany { chunk: Tag::PNTS, offset: pnts.data_offset(), count: 70_000, max: 65_535 };
        check_eq!(Patched::new().u32(pnts.data_offset(), 70_000).error(), Some(expected));
        let bone = chunk(Tag::BONE);
        let expected = LoadError::TooMany { chunk: Tag::BONE, offset: bone.data_offset(), count: 33, max: 32 };
        check_eq!(Patched::new().u32(bone.data_offset(), 33).error(), Some(expected));
    }

    fn counts_that_must_agree() {
        for (tag, rule) in [(Tag::CNRM, "4 per polygon of QUAD"), (Tag::GOUR, "4 per polygon of QUAD")] {
            let offset = chunk(tag).data_offset();
            let expected = LoadError::CountDisagrees { chunk: tag, offset, count: 11, expected: 12, rule };
            check_eq!(Patched::new().u32(offset, 11).error(), Some(expected));
        }
        let vcol = chunk(Tag::VCOL).data_offset();
        let shrunk = Patched::new().shrink(Tag::VCOL, 12).u32(vcol, 5).error();
        let rule = "one per point of PNTS";
        check_eq!(shrunk, Some(LoadError::CountDisagrees { chunk: Tag::VCOL, offset: vcol, count: 5, expected: 6, rule }));
        let timg = chunk(Tag::TIMG).data_offset();
        let rule = "one per name of TEXT";
        let expected = LoadError::CountDisagrees { chunk: Tag::TIMG, offset: timg, count: 1, expected: 2, rule };
        check_eq!(Patched::new().u32(timg, 1).error(), Some(expected));
    }

    fn missing_dependencies() {
        for (chunk_tag, needs) in [(Tag::CNRM, Tag::NTAB), (Tag::GOUR, Tag::VCOL), (Tag::ANIM, Tag::BONE)] {
            let expected = LoadError::MissingDependency { chunk: chunk_tag, offset: chunk(chunk_tag).offset, needs };
            check_eq!(Patched::new().rename(needs, b"NONE").error(), Some(expected));
        }
    }

    fn polygon_corner_out_of_range() {
        let offset = record_at(Tag::QUAD, 20, 2) + 14;
        let error = Patched::new().u16(offset, 6).error();
        let expected = LoadError::IndexOutOfRange {
            chunk: Tag::QUAD,
            offset,
            record: 2,
            field: "corner B",
            index: 6,
            limit: 6,
            target: Tag::PNTS,
        };
        check_eq!(error, Some(expected));
    }

    fn other_indexes_out_of_range() {
        let cases = [
            (Tag::QMAT, record_at(Tag::QMAT, 2, 1), 3, 1, "material", 3, Tag::MATL),
            (Tag::MATL, record_at(Tag::MATL, 32, 2) + 20, 2, 2, "texture", 2, Tag::TEXT),
            (Tag::MATL, record_at(Tag::MATL, 32, 0) + 20, 0xFFFE, 0, "texture", 2, Tag::TEXT),
            (Tag::CNRM, record_at(Tag::CNRM, 2, 7), 3, 7, "normal", 3, Tag::NTAB),
            (Tag::BONE, record_at(Tag::BONE, 32, 1) + 16, 2, 1, "group", 2, Tag::GRUP),
        ];
        for (chunk, offset, value, record, field, limit, target) in cases {
            let index = if value == 0xFFFE { -2 } else { i32::from(value) };
            let expected = LoadError::IndexOutOfRange { chunk, offset, record, field, index, limit, target };
            check_eq!(Patched::new().u16(offset, value).error(), Some(expected));
        }
    }

    fn group_ranges_out_of_bounds() {
        let offset = record_at(Tag::GRUP, 24, 1);
        let points = Patched::new().u16(offset + 18, 2).error();
        let expected =
            LoadError::RangeOutOfBounds { offset: offset + 16, group: 1, what: "points", first: 5, count: 2, limit: 6 };
        check_eq!(points, Some(expected));
        let polygons = Patched::new().u16(offset + 20, 3).error();
        let expected = LoadError::RangeOutOfBounds {
            offset: offset + 20,
            group: 1,
            what: "polygons",
            first: 3,
            count: 1,
            limit: 3,
        };
        check_eq!(polygons, Some(expected));
    }

    fn bone_parent_must_come_first() {
        for (bone, parent) in [(1, 1_i16), (1, 2), (0, -2), (2, 0x7FFF)] {
            let offset = record_at(Tag::BONE, 32, bone) + 18;
            let error = Patched::new().u16(offset, parent as u16).error();
            check_eq!(error, Some(LoadError::BadParent { offset, bone, parent }));
        }
        check_eq!(Patched::new().u16(record_at(Tag::BONE, 32, 2) + 18, 0).error(), None);
    }

    fn animation_key_rules() {
        let record = record_at(Tag::ANIM, 28, 1);
        let no_keys = Patched::new().u16(record + 16, 0).error();
        check_eq!(no_keys, Some(LoadError::NoKeys { offset: record, animation: 1 }));
        let zero_ticks = Patched::new().u16(record + 18, 0).error();
        check_eq!(zero_ticks, Some(LoadError::ZeroKeyTicks { offset: record, animation: 1 }));
        let misaligned = Patched::new().u32(record + 24, 90).error();
        check_eq!(misaligned, Some(LoadError::KeysMisaligned { offset: record, animation: 1, key_offset: 90 }));
    }

    fn animation_keys_outside_the_chunk() {
        let anim = chunk(Tag::ANIM);
        let record = record_at(Tag::ANIM, 28, 2);
        let keys_start = 4 + 3 * 28;
        let (start, end) = (u64::from(anim.size()) - 32, u64::from(anim.size()) + 32);
        let past = Patched::new().u32(record + 24, start as u32).error();
        let size = anim.size();
        check_eq!(past, Some(LoadError::KeysOutOfChunk { offset: record, animation: 2, start, end, keys_start, size }));
        let over_records = Patched::new().u32(record + 24, 4).error();
        let expected = LoadError::KeysOutOfChunk { offset: record, animation: 2, start: 4, end: 68, keys_start, size };
        check_eq!(over_records, Some(expected));
    }

    fn texture_size_and_format() {
        let first = chunk(Tag::TIMG).data_offset() + 4;
        let width = Patched::new().u16(first + 16, 12).error();
        check_eq!(width, Some(LoadError::TextureSize { offset: first, texture: 0, width: 12, height: 2 }));
        let height = Patched::new().u16(first + 18, 0).error();
        check_eq!(height, Some(LoadError::TextureSize { offset: first, texture: 0, width: 8, height: 0 }));
        let format = Patched::new().u16(first + 20, 2).error();
        check_eq!(format, Some(LoadError::TextureFormat { offset: first, texture: 0, format: 2 }));
    }

    fn texture_pixels_short() {
        let second = chunk(Tag::TIMG).data_offset() + 4 + 24 + 32;
        let error = Patched::new().u16(second + 18, 3).error();
        let expected = LoadError::TexturePixelsShort { offset: second + 24, texture: 1, needed: 44, available: 40 };
        check_eq!(error, Some(expected));
    }

    fn texture_name_must_match_text() {
        let text = chunk(Tag::TEXT).data_offset() + 4 + 16;
        let error = Patched::new().set(text, b"X").error();
        let offset = chunk(Tag::TIMG).data_offset() + 4 + 24 + 32;
        check_eq!(error, Some(LoadError::TextureNameMismatch { offset, texture: 1 }));
    }

    fn names_must_end_with_zero() {
        let offset = record_at(Tag::MATL, 32, 1);
        let unterminated = Patched::new().set(offset, b"ABCDEFGHIJKLMNOP").error();
        check_eq!(unterminated, Some(LoadError::BadName { chunk: Tag::MATL, offset }));
        let offset = record_at(Tag::ANIM, 28, 0);
        let not_ascii = Patched::new().set(offset, &[0xC3, 0xA9, 0]).error();
        check_eq!(not_ascii, Some(LoadError::BadName { chunk: Tag::ANIM, offset }));
    }

    fn bone_motion_reads_in_place() {
        let Ok(model) = Model::from_bytes(motion()) else { return Err(fail()) };
        let motion = model.bone_motion();
        check_eq!(motion.tracks().len(), 3);
        let animations = model.animations();
        let (Some(walk), Some(rest), Some(walk2)) = (animations.get(0), animations.get(1), animations.get(2))
        else {
            return Err(fail());
        };
        check_eq!(walk.motion.len(), 2);
        check!(rest.motion.is_empty());
        let Some((spike, keys)) = walk.motion.get(0) else { return Err(fail()) };
        check_eq!((spike, keys.len()), (1, 3));
        check_eq!(keys[1].offset(), [0, -ONE / 2, 0]);
        check_eq!(keys[2].scale(), [0, ONE, ONE]);
        check_eq!(walk.motion.get(1).map(|(bone, keys)| (bone, keys[0].offset())), Some((2, [0, 0, ONE / 4])));
        check!(walk.motion.get(2).is_none());
        let Some((root, keys)) = walk2.motion.get(0) else { return Err(fail()) };
        check_eq!((root, keys.len(), keys[1].scale()), (0, 2, [2 * ONE, ONE, ONE]));
        check_eq!(walk2.motion.iter().count(), 1);
        // Every other chunk reads as in the fixture without BMOT.
        check!(Model::from_bytes(every_chunk()).is_ok_and(|m| m.bone_motion().tracks().is_empty()));
    }

    fn bone_motion_needs_anim_and_room_for_its_tracks() {
        let bmot = chunk_of(motion(), Tag::BMOT);
        let needs = LoadError::MissingDependency { chunk: Tag::BMOT, offset: bmot.offset, needs: Tag::ANIM };
        check_eq!(Patched::of(motion()).rename(Tag::ANIM, b"NONE").error(), Some(needs));
        let data = bmot.data_offset();
        let too_small = LoadError::ChunkTooSmall { chunk: Tag::BMOT, offset: data, size: bmot.size(), needed: 4 + 8 * 100 };
        check_eq!(Patched::of(motion()).u32(data, 100).error(), Some(too_small));
        check_eq!(Patched::of(motion()).shrink(Tag::BMOT, bmot.data.len()).error(), Some(LoadError::ChunkTooSmall { chunk: Tag::BMOT, offset: data, size: 0, needed: 4 }));
        // No track at all is a valid (empty) chunk.
        let empty = Patched::of(motion()).u32(data, 0).shrink(Tag::BMOT, bmot.data.len() - 4);
        check_eq!(empty.error(), None);
    }

    fn bone_motion_indexes_and_order() {
        let data = chunk_of(motion(), Tag::BMOT).data_offset();
        let track = |i: usize| data + 4 + 8 * i;
        let animation = LoadError::IndexOutOfRange { chunk: Tag::BMOT, offset: track(1), record: 1, field: "animation", index: 3, limit: 3, target: Tag::ANIM };
        check_eq!(Patched::of(motion()).u16(track(1), 3).error(), Some(animation));
        let bone = LoadError::IndexOutOfRange { chunk: Tag::BMOT, offset: track(0) + 2, record: 0, field: "bone", index: 3, limit: 3, target: Tag::BONE };
        check_eq!(Patched::of(motion()).u16(track(0) + 2, 3).error(), Some(bone));
        // Track 1 repeats track 0's (animation, bone), then comes before it.
        let order = Some(LoadError::TracksOutOfOrder { offset: track(1), track: 1 });
        check_eq!(Patched::of(motion()).u16(track(1) + 2, 1).error(), order);
        check_eq!(Patched::of(motion()).u16(track(1) + 2, 0).error(), order);
        check_eq!(Patched::of(motion()).u16(track(2), 0).error(), Some(LoadError::TracksOutOfOrder { offset: track(2), track: 2 }));
    }

    fn bone_motion_keys_inside_the_chunk() {
        let bmot = chunk_of(motion(), Tag::BMOT);
        let data = bmot.data_offset();
        let track = |i: usize| data + 4 + 8 * i;
        check_eq!(
            Patched::of(motion()).u32(track(0) + 4, 30).error(),
            Some(LoadError::MotionKeysMisaligned { offset: track(0), track: 0, key_offset: 30 })
        );
        let size = bmot.size();
        let outside = |t: usize, start: u64, end: u64| LoadError::MotionKeysOutOfChunk { offset: track(t), track: t, start, end, keys_start: 28, size };
        // Track 2 has the 2 keys of animation 2, track 0 the 3 of animation 0.
        check_eq!(Patched::of(motion()).u32(track(2) + 4, size - 24).error(), Some(outside(2, u64::from(size) - 24, u64::from(size) + 24)));
        check_eq!(Patched::of(motion()).u32(track(0) + 4, 24).error(), Some(outside(0, 24, 96)));
        check_eq!(Patched::of(motion()).u32(track(0) + 4, 0xFFFF_FFFC).error(), Some(outside(0, 0xFFFF_FFFC, 0xFFFF_FFFC + 72)));
        // Tracks may share keys: still inside.
        check_eq!(Patched::of(motion()).u32(track(1) + 4, 28).error(), None);
    }

    fn bone_motion_scales_are_not_negative() {
        let data = chunk_of(motion(), Tag::BMOT).data_offset();
        // Track 0 key 1, scale y: keys from 28, 24 bytes a key, the scale after the offset.
        let at = data + 28 + 24 + 12 + 4;
        let negative = LoadError::NegativeScale { offset: at, track: 0, key: 1, axis: 1, scale: -1 };
        check_eq!(Patched::of(motion()).i32(at, -1).error(), Some(negative));
        // Zero is fine (the bone collapses), offsets may be anything.
        check_eq!(Patched::of(motion()).i32(at, 0).error(), None);
        check_eq!(Patched::of(motion()).i32(at - 12, -ONE).error(), None);
        let mut text = heapless::String::<200>::new();
        check!(write!(text, "{negative}").is_ok());
        check!(text.starts_with("BMOT chunk, track 0 key 1 at offset "));
        check!(text.ends_with("scale y is -1 (raw Q16.16), expected 0 or more (a mirror cannot be drawn)"));
    }

    fn points_beyond_the_engine_limit_are_refused() {
        use super::MAX_REACH;
        // Point 2 (12 bytes a point) moved to just past the limit along z, then along the
        // diagonal (each coordinate well within Q16.16, the length beyond).
        let at = record_at(Tag::PNTS, 12, 2);
        let past = MAX_REACH as i32 + 1;
        let beyond = LoadError::PointOutOfRange { offset: at, point: 2, coordinates: [0, 0, past], distance: past as u32 };
        check_eq!(Patched::new().i32(at, 0).i32(at + 4, 0).i32(at + 8, past).error(), Some(beyond));
        let side = 17_000 * ONE;
        let diagonal = Patched::new().i32(at, side).i32(at + 4, -side).i32(at + 8, side);
        let expected = LoadError::PointOutOfRange { offset: at, point: 2, coordinates: [side, -side, side], distance: 1_929_698_589 };
        check_eq!(diagonal.error(), Some(expected));
        // The limit itself loads, and the reach is its length, rounded up.
        let patched = Patched::new().i32(at, 0).i32(at + 4, 0).i32(at + 8, -(MAX_REACH as i32));
        let model = Model::from_bytes(&patched.buffer.0[..patched.len]);
        check!(model.is_ok());
        let Ok(model) = model else { return Ok(()) };
        check_eq!(model.reach(), MAX_REACH);
        let mut text = heapless::String::<200>::new();
        check!(write!(text, "{expected}").is_ok());
        check!(text.starts_with("PNTS chunk, point 2 at offset "));
        check!(text.ends_with(": (1114112000, -1114112000, 1114112000) (raw Q16.16) is 29444 units from the origin, expected at most 28672 (the engine's limit; convert with a smaller --scale)"));
    }

    fn polygon_normals_must_be_unit() {
        // Polygon 1's normal (20 bytes a polygon, the normal first) made 1.1 long, then 0.
        let at = record_at(Tag::QUAD, 20, 1);
        let long = Patched::new().i32(at, 0x11999).i32(at + 4, 0).i32(at + 8, 0);
        let expected = LoadError::NormalNotUnit { chunk: Tag::QUAD, offset: at, record: 1, normal: [0x11999, 0, 0], length: 0x11999 };
        check_eq!(long.error(), Some(expected));
        let zero = Patched::new().i32(at, 0).i32(at + 4, 0).i32(at + 8, 0);
        check_eq!(zero.error(), Some(LoadError::NormalNotUnit { chunk: Tag::QUAD, offset: at, record: 1, normal: [0; 3], length: 0 }));
        // Within 1/64 loads: 1 + 1/64 and 1 - 1/64 exactly.
        check_eq!(Patched::new().i32(at, ONE + ONE / 64).i32(at + 4, 0).i32(at + 8, 0).error(), None);
        check_eq!(Patched::new().i32(at, 0).i32(at + 4, -(ONE - ONE / 64)).i32(at + 8, 0).error(), None);
        let mut text = heapless::String::<200>::new();
        check!(write!(text, "{expected}").is_ok());
        check!(text.ends_with(": normal (72089, 0, 0) (raw Q16.16) has length 72089/65536, expected unit length (65536) within 1/64"));
    }

    fn ntab_normals_must_be_unit() {
        // NTAB normal 0 (12 bytes a normal) made huge: the overflow the back-face and
        // lighting products would have met.
        let at = record_at(Tag::NTAB, 12, 0);
        let huge = Patched::new().i32(at, i32::MAX).i32(at + 4, i32::MAX).i32(at + 8, i32::MAX);
        let expected = LoadError::NormalNotUnit { chunk: Tag::NTAB, offset: at, record: 0, normal: [i32::MAX; 3], length: 3_719_550_785 };
        check_eq!(huge.error(), Some(expected));
        let mut text = heapless::String::<200>::new();
        check!(write!(text, "{expected}").is_ok());
        check!(text.starts_with("NTAB chunk, record 0 at offset "));
    }

    fn geometry_at_the_engine_limits() {
        use super::MAX_REACH;
        // The closest integer vectors either side of each limit (their square lengths are
        // the limits' squares or their nearest neighbours that are sums of three squares),
        // through whichever loop checks them (SH-2 assembly on a Saturn).
        let reach = MAX_REACH as i32;
        let at = record_at(Tag::PNTS, 12, 2);
        let point = |[x, y, z]: [i32; 3]| Patched::new().i32(at, x).i32(at + 4, y).i32(at + 8, z);
        // MAX_REACH^2 - 2 loads, its reach rounded up to MAX_REACH; MAX_REACH^2 + 1 does not.
        let inside = point([reach - 1, 60_875, 7_234]);
        let model = Model::from_bytes(&inside.buffer.0[..inside.len]);
        check_eq!(model.map(|m| m.reach()).ok(), Some(MAX_REACH));
        let outside = [1_879_048_185, 153_928, 51_116];
        let beyond = LoadError::PointOutOfRange { offset: at, point: 2, coordinates: outside, distance: MAX_REACH };
        check_eq!(point(outside).error(), Some(beyond));
        // The farthest any point can be (a square length past 2^63).
        let corner = LoadError::PointOutOfRange { offset: at, point: 2, coordinates: [i32::MIN; 3], distance: 3_719_550_786 };
        check_eq!(point([i32::MIN; 3]).error(), Some(corner));
        // Normals: (1 - 1/64)^2 and (1 + 1/64)^2 load; (1 - 1/64)^2 - 2 and (1 + 1/64)^2 + 1
        // do not, in QUAD (polygon 1, 20 bytes a polygon) and in NTAB (normal 0).
        let (shortest, longest) = (ONE - ONE / 64, ONE + ONE / 64);
        for (tag, size, record) in [(Tag::QUAD, 20, 1), (Tag::NTAB, 12, 0)] {
            let at = record_at(tag, size, record);
            let normal = |[x, y, z]: [i32; 3]| Patched::new().i32(at, x).i32(at + 4, y).i32(at + 8, z).error();
            check_eq!((tag, normal([0, shortest, 0])), (tag, None));
            check_eq!((tag, normal([0, 0, -longest])), (tag, None));
            let short = [-64_509, 615, 94];
            check_eq!(normal(short), Some(LoadError::NormalNotUnit { chunk: tag, offset: at, record, normal: short, length: 64_511 }));
            let long = [longest, 1, 0];
            check_eq!(normal(long), Some(LoadError::NormalNotUnit { chunk: tag, offset: at, record, normal: long, length: longest as u32 }));
        }
    }

    fn errors_read_as_sentences() {
        let error = LoadError::IndexOutOfRange {
            chunk: Tag::QUAD,
            offset: 100,
            record: 2,
            field: "corner B",
            index: 6,
            limit: 6,
            target: Tag::PNTS,
        };
        let mut text = heapless::String::<160>::new();
        check!(write!(text, "{error}").is_ok());
        check_eq!(
            text.as_str(),
            "QUAD chunk, record 2 at offset 100 (0x64): corner B 6 is out of range, expected 0 to 5 (PNTS count 6)"
        );
        text.clear();
        check!(write!(text, "{}", LoadError::MissingChunk { chunk: Tag::END }).is_ok());
        check_eq!(text.as_str(), "the END chunk is missing (every file has one)");
    }
}

/// A failure for a fixture that does not have the shape the test expects.
fn fail() -> crate::selftest::Failure {
    crate::selftest::Failure::new(
        file!(),
        line!(),
        format_args!("the fixture does not have the expected shape"),
    )
}
