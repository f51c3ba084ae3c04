//! Tests of the command tables (bit by bit), VRAM regions and the texture and gouraud
//! caches, on the host and on the SH-2.

use super::*;
use crate::format::{MaterialFlags, Model, Tag};
use crate::{check, check_eq, Aligned};

fn every_chunk() -> &'static [u8] {
    crate::selftest::fixtures::EVERY_CHUNK
}

/// A copy of the `every_chunk` fixture to patch (for the texture cache and `draw` tests).
pub(crate) struct PatchedModel {
    buffer: Aligned<[u8; 2048]>,
    len: usize,
}

impl PatchedModel {
    pub(crate) fn every_chunk() -> Self {
        let source = every_chunk();
        let mut buffer = Aligned([0; 2048]);
        buffer.0[..source.len()].copy_from_slice(source);
        Self {
            buffer,
            len: source.len(),
        }
    }

    fn parsed(&self) -> Option<Model<'_>> {
        Model::from_bytes(&self.buffer.0[..self.len]).ok()
    }

    /// Without its embedded textures (TIMG renamed to a tag no reader knows): the
    /// textures are then files, their pixels given to `load_model` by its callback.
    pub(crate) fn without_timg(mut self) -> Self {
        let timg = self
            .parsed()
            .and_then(|m| m.chunks().find(|c| c.tag == Tag::TIMG));
        if let Some(offset) = timg.map(|c| c.offset) {
            self.buffer.0[offset..offset + 4].copy_from_slice(b"XIMG");
        }
        self
    }

    /// Material `index` with `flags` instead of its own.
    pub(crate) fn material_flags(mut self, index: usize, flags: MaterialFlags) -> Self {
        let start = self.buffer.0.as_ptr() as usize;
        let record = self
            .parsed()
            .and_then(|m| m.materials().get(index).map(core::ptr::from_ref));
        // The flags are at byte 24 of a material record.
        if let Some(offset) = record.map(|r| r as usize - start + 24) {
            self.buffer.0[offset..offset + 4].copy_from_slice(&flags.bits().to_be_bytes());
        }
        self
    }

    /// Polygon `index`'s corners with the NTAB indexes `normals` (CNRM).
    // For the assembly's tests (`asm_tests`), built for the SH-2 only.
    #[cfg_attr(not(jom_asm), allow(dead_code))]
    pub(crate) fn corner_normals(mut self, index: usize, normals: [u16; 4]) -> Self {
        let cnrm = self
            .parsed()
            .and_then(|m| m.chunks().find(|c| c.tag == Tag::CNRM));
        // After the tag, the size and the count, four u16 a polygon.
        if let Some(offset) = cnrm.map(|c| c.offset + 12 + 8 * index) {
            for (k, normal) in normals.iter().enumerate() {
                let at = offset + 2 * k;
                self.buffer.0[at..at + 2].copy_from_slice(&normal.to_be_bytes());
            }
        }
        self
    }

    /// The patched model.
    // A test's failure, as the tests return it (see `test_suite!`).
    #[allow(clippy::result_large_err)]
    pub(crate) fn model(&self) -> Result<Model<'_>, crate::selftest::Failure> {
        Model::from_bytes(&self.buffer.0[..self.len]).map_err(|e| {
            crate::selftest::Failure::new(file!(), line!(), format_args!("patched fixture: {e}"))
        })
    }
}

/// The wall's (TEXT 0) flags in the fixture.
fn wall_flags() -> MaterialFlags {
    let model = Model::from_bytes(every_chunk()).ok();
    model
        .and_then(|m| m.materials().get(1).map(|m| m.flags()))
        .unwrap_or_default()
}

fn corners() -> [Point; 4] {
    [
        Point::new(-10, -20),
        Point::new(30, -20),
        Point::new(31, 40),
        Point::new(-12, 41),
    ]
}

/// The 16 words of a table, as the VDP1 reads them.
fn words(table: &CommandTable) -> [u16; 16] {
    let bytes = table.to_be_bytes();
    core::array::from_fn(|i| u16::from_be_bytes([bytes[2 * i], bytes[2 * i + 1]]))
}

/// Vertex words of [`corners`].
const CORNER_WORDS: [u16; 8] = [0xFFF6, 0xFFEC, 30, 0xFFEC, 31, 40, 0xFFF4, 41];

fn with_vertices(head: [u16; 6], vertices: [u16; 8], tail: [u16; 2]) -> [u16; 16] {
    let mut all = [0; 16];
    all[..6].copy_from_slice(&head);
    all[6..14].copy_from_slice(&vertices);
    all[14..].copy_from_slice(&tail);
    all
}

/// RGB555 pixels, big endian, none of them 0 (transparent) and each different.
fn rgb_pixels<const BYTES: usize>() -> [u8; BYTES] {
    core::array::from_fn(|i| match i % 2 {
        0 => 0x80 | (i / 512) as u8,
        _ => (i / 2) as u8,
    })
}

/// The leaf's 8 x 2 pixels as a file holds them: its lookup table, then the 4-bit pixels.
fn leaf_pixels() -> [u8; 40] {
    core::array::from_fn(|i| {
        if i < 32 {
            (i as u8) | 0x80
        } else {
            0x12 + i as u8
        }
    })
}

fn source(width: u16, height: u16, format: u16, data: &[u8]) -> TextureSource<'_> {
    TextureSource {
        width,
        height,
        format,
        data,
    }
}

/// The VRAM bytes of an RGB555 sprite.
fn sprite_bytes<'v>(vram: &'v MemoryVram<'_>, sprite: &Sprite) -> &'v [u8] {
    let start = sprite.address as usize;
    let len = 2 * usize::from(sprite.width) * usize::from(sprite.height);
    vram.bytes().get(start..start + len).unwrap_or(&[])
}

/// A list of `tables` from VRAM address 0 (and an end after them), checked.
fn checked(tables: &[CommandTable]) -> Result<u32, RuleBreak> {
    let mut bytes = [0u8; 512];
    for (i, table) in tables.iter().chain([&CommandTable::end()]).enumerate() {
        bytes[32 * i..32 * i + 32].copy_from_slice(&table.to_be_bytes());
    }
    check_list(
        |a| u16::from_be_bytes([bytes[a as usize % 512], bytes[(a as usize + 1) % 512]]),
        0,
    )
}

crate::test_suite! {
    fn end_and_clipping_tables() {
        check_eq!(words(&CommandTable::end()), with_vertices([0x8000, 0, 0, 0, 0, 0], [0; 8], [0, 0]));
        let system = CommandTable::system_clip(Point::new(319, 223));
        check_eq!(words(&system), with_vertices([0x0009, 0, 0, 0, 0, 0], [0, 0, 0, 0, 319, 223, 0, 0], [0, 0]));
        let user = CommandTable::user_clip(Point::new(8, 16), Point::new(300, 200));
        check_eq!(words(&user), with_vertices([0x0008, 0, 0, 0, 0, 0], [8, 16, 0, 0, 300, 200, 0, 0], [0, 0]));
        let local = CommandTable::local_coordinates(Point::new(160, 112));
        check_eq!(words(&local), with_vertices([0x000A, 0, 0, 0, 0, 0], [160, 112, 0, 0, 0, 0, 0, 0], [0, 0]));
    }

    fn polygon_table() {
        let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
        let table = CommandTable::polygon(0x801F, corners(), mode);
        // CMDPMOD: RGB (5 << 3), end codes disabled (bit 7).
        check_eq!(words(&table), with_vertices([0x0004, 0, 0x00A8, 0x801F, 0, 0], CORNER_WORDS, [0, 0]));
        let shaded = CommandTable::polygon(0x801F, corners(), DrawMode::new(ColorMode::Rgb, ColorCalc::GouraudHalfTransparent, true, false))
            .with_gouraud(0x24010);
        // Mesh (bit 8), gouraud + half transparent (7), the table at 0x24010 / 8.
        check_eq!(words(&shaded), with_vertices([0x0004, 0, 0x01AF, 0x801F, 0, 0], CORNER_WORDS, [0x4802, 0]));
    }

    fn distorted_sprite_tables() {
        let rgb = Sprite { address: 0x28000, width: 64, height: 32, lut: None };
        let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::HalfTransparent, false, true);
        let table = CommandTable::distorted_sprite(&rgb, corners(), mode, CTRL_FLIP_H);
        // CMDCTRL: flip H (bit 4), distorted sprite (2); CMDSIZE: 64 / 8 = 8, 32 lines.
        check_eq!(words(&table), with_vertices([0x0012, 0, 0x002B, 0, 0x5000, 0x0820], CORNER_WORDS, [0, 0]));
        let lut = Sprite { address: 0x28020, width: 16, height: 255, lut: Some(0x28000) };
        let mode = DrawMode::new(ColorMode::Lut16, ColorCalc::Gouraud, false, false);
        let table = CommandTable::distorted_sprite(&lut, corners(), mode, CTRL_FLIP_H | CTRL_FLIP_V).with_gouraud(0x20008);
        // Flip H and V; lookup table mode (1 << 3), gouraud (4); CMDCOLR: the table / 8.
        check_eq!(words(&table), with_vertices([0x0032, 0, 0x008C, 0x5000, 0x5004, 0x02FF], CORNER_WORDS, [0x4001, 0]));
        check_eq!(CommandTable::from_be_bytes(&table.to_be_bytes()), table);
        check_eq!(table.corners(), corners());
    }

    fn gouraud_table_levels() {
        check_eq!(GouraudTable::uniform(16).0, [0xC210; 4]);
        check_eq!(GouraudTable::uniform(40).0, [0xFFFF; 4]);
        check_eq!(GouraudTable::uniform(0).0, [0x8000; 4]);
    }

    fn textures_are_uploaded_once_per_name() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("fixture"))) };
        let mut bytes = [0u8; 4096];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut cache = TextureCache::<8>::new(1024..4096);
        let first = cache.load_model_value::<4>(&model, &mut vram, |_, _| None);
        check!(first.is_ok());
        // Both textures of the fixture, each in one variant (the wall's material asks for
        // end codes and mipmaps, but 8 pixels cannot be halved for the VDP1).
        check_eq!(cache.len(), 2);
        let Ok(first) = first else { return Ok(()) };
        let wall = first.get(0, true).copied();
        let leaf = first.get(1, false).copied();
        check!(first.get(0, false).is_none());
        check_eq!(wall.map(|s| (s.full.address, s.full.width, s.full.height, s.full.lut)), Some((1024, 8, 2, None)));
        // The leaf: a 32-byte lookup table, then 8 x 2 pixels of 4 bits.
        check_eq!(leaf.map(|s| (s.full.address, s.full.lut)), Some((1024 + 32 + 32, Some(1024 + 32))));
        // The wall's pixels, with end codes after the last visible pixel of each row.
        check_eq!(&vram.bytes()[1024..1026], &[0x80, 0x1F]);
        check_eq!(&vram.bytes()[1024 + 14..1024 + 16], &[0x7F, 0xFF]);
        // A second model with the same names: nothing new in VRAM.
        let before = [vram.bytes()[1024 + 64..1024 + 80].iter().fold(0u32, |s, &b| s + u32::from(b))];
        let second = cache.load_model_value::<4>(&model, &mut vram, |_, _| None);
        check_eq!(cache.len(), 2);
        check_eq!(second.as_ref().ok().and_then(|s| s.get(0, true).copied()), wall);
        let after = [vram.bytes()[1024 + 64..1024 + 80].iter().fold(0u32, |s, &b| s + u32::from(b))];
        check_eq!(before, after);
        // Released by both models, the textures leave; loading again reuses the space.
        if let Ok(second) = second {
            cache.release_model(&second);
        }
        check_eq!(cache.len(), 2);
        cache.release_model(&first);
        check_eq!(cache.len(), 0);
        let again = cache.load_model_value::<4>(&model, &mut vram, |_, _| None);
        check_eq!(again.ok().and_then(|s| s.get(0, true).map(|s| s.full.address)), Some(1024));
    }

    fn full_vram_and_tables_are_errors() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("fixture"))) };
        let mut bytes = [0u8; 256];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut small = TextureCache::<8>::new(0..64);
        // The wall takes 32 bytes; the leaf needs its lookup table (32) and pixels (8).
        let error = small.load_model_value::<4>(&model, &mut vram, |_, _| None).err();
        // (Its block: 40 bytes rounded up to the 32-byte granule of textures.)
        check_eq!(error, Some(VramError::RegionFull { region: "texture", needed: 64, available: 32 }));
        let mut one = TextureCache::<1>::new(0..256);
        let error = one.load_model_value::<4>(&model, &mut vram, |_, _| None).err();
        check_eq!(error, Some(VramError::TableFull { table: "texture cache", capacity: 1 }));
        let mut gouraud = GouraudCache::<2>::new(0..0);
        let mut per_polygon = [0u16; 3];
        let error = gouraud.load_model(&model, &mut vram, &mut per_polygon);
        check_eq!(error, Err(VramError::RegionFull { region: "gouraud", needed: 8, available: 0 }));
    }

    fn gouraud_tables_are_shared() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("fixture"))) };
        let mut bytes = [0u8; 1024];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut cache = GouraudCache::<4>::new(512..1024);
        let mut first = [0u16; 3];
        let mut second = [0u16; 3];
        check_eq!(cache.load_model(&model, &mut vram, &mut first), Ok(()));
        check_eq!(cache.load_model(&model, &mut vram, &mut second), Ok(()));
        check_eq!(cache.len(), 1);
        check_eq!(first, [512 / 8, 0, 0]);
        check_eq!(first, second);
        // The four colours of polygon 0 of GOUR, big endian.
        check_eq!(&vram.bytes()[512..514], &[0xC2, 0x1F]);
        cache.release_model(&model, &first);
        check_eq!(cache.len(), 1);
        cache.release_model(&model, &second);
        check_eq!(cache.len(), 0);
    }

    fn texture_sizes_the_vdp1_cannot_draw_are_errors() {
        // The textures as files (no TIMG): the callback gives any size, and every size is
        // checked: width a multiple of 8 from 8 to 504, height 1 to 255, a known format,
        // and enough bytes for them.
        let patched = PatchedModel::every_chunk().without_timg();
        let model = patched.model()?;
        check!(model.textures().is_none());
        let (wide, leaf) = (rgb_pixels::<1024>(), leaf_pixels());
        let mut bytes = [0u8; 4096];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut cache = TextureCache::<8>::new(0..4096);
        let cases = [
            (source(512, 1, 0, &wide), source(8, 2, 1, &leaf), VramError::TextureSize { index: 0, width: 512, height: 1 }),
            (source(12, 2, 0, &wide), source(8, 2, 1, &leaf), VramError::TextureSize { index: 0, width: 12, height: 2 }),
            (source(0, 2, 0, &wide), source(8, 2, 1, &leaf), VramError::TextureSize { index: 0, width: 0, height: 2 }),
            (source(8, 0, 0, &wide), source(8, 2, 1, &leaf), VramError::TextureSize { index: 0, width: 8, height: 0 }),
            (source(8, 256, 0, &wide), source(8, 2, 1, &leaf), VramError::TextureSize { index: 0, width: 8, height: 256 }),
            (source(8, 2, 2, &wide), source(8, 2, 1, &leaf), VramError::TextureFormat { index: 0, format: 2 }),
            (source(8, 2, 0, &wide[..31]), source(8, 2, 1, &leaf), VramError::TexturePixelsShort { index: 0, needed: 32, available: 31 }),
            (source(8, 2, 0, &wide), source(8, 2, 1, &leaf[..39]), VramError::TexturePixelsShort { index: 1, needed: 40, available: 39 }),
            (source(8, 2, 0, &wide), source(520, 2, 1, &leaf), VramError::TextureSize { index: 1, width: 520, height: 2 }),
        ];
        for (case, (wall, leaf, expected)) in cases.iter().enumerate() {
            let loaded = cache.load_model_value::<4>(&model, &mut vram, |i, _| Some(if i == 0 { *wall } else { *leaf }));
            check_eq!((case, loaded.err()), (case, Some(*expected)));
            check_eq!((case, cache.len()), (case, 0));
        }
        // The widest the VDP1 draws, 504 pixels, in one row: its pixels, end codes added.
        let widest = rgb_pixels::<1008>();
        let loaded = cache.load_model_value::<4>(&model, &mut vram, |i, _| Some(if i == 0 { source(504, 1, 0, &widest) } else { source(8, 2, 1, &leaf) }));
        let wall = loaded.ok().and_then(|t| t.get(0, true).copied());
        check_eq!(wall.map(|s| (s.full.width, s.full.height)), Some((504, 1)));
        check!(wall.is_some_and(|s| sprite_bytes(&vram, &s.full) == &widest[..]));
    }

    fn command_lists_keep_the_vdp1_manuals_rules() {
        let lut = Sprite { address: 0x28040, width: 16, height: 8, lut: Some(0x28000) };
        let mode = DrawMode::new(ColorMode::Lut16, ColorCalc::Gouraud, false, false);
        let sprite = CommandTable::distorted_sprite(&lut, corners(), mode, 0).with_gouraud(0x20008);
        let polygon = CommandTable::polygon(0x801F, corners(), DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false));
        let clip = CommandTable::system_clip(Point::new(319, 223));
        check_eq!(checked(&[clip, sprite, polygon]), Ok(4));
        let at = |command: u32, rule| Err(RuleBreak { command, rule });
        let broken = |change: fn(&mut CommandTable)| {
            let mut bad = sprite;
            change(&mut bad);
            checked(&[clip, bad])
        };
        check_eq!(broken(|t| t.colr += 1), at(32, Rule::LookupTableOffBoundary));
        check_eq!(broken(|t| t.ctrl |= 0x40), at(32, Rule::ReservedBits("CMDCTRL")));
        check_eq!(broken(|t| t.pmod |= 0x2000), at(32, Rule::ReservedBits("CMDPMOD")));
        check_eq!(broken(|t| t.size |= 0x4000), at(32, Rule::ReservedBits("CMDSIZE")));
        check_eq!(broken(|t| t.ctrl = 3), at(32, Rule::UnknownCommand));
        check_eq!(broken(|t| t.pmod |= 7 << 3), at(32, Rule::UnknownColorMode));
        check_eq!(broken(|t| t.size &= 0xFF00), at(32, Rule::EmptySprite));
        check_eq!(broken(|t| t.srca = 0xFFFF), at(32, Rule::TextureOutsideVram));
        check_eq!(broken(|t| t.vertices[5] = 5000), at(32, Rule::VertexOutOfRange));
        // A jump to the middle of a table; a jump to itself, forever.
        check_eq!(broken(|t| { t.ctrl |= 1 << 12; t.link = 2 }), at(32, Rule::LinkOffTable));
        check_eq!(broken(|t| { t.ctrl |= 1 << 12; t.link = 4 }), at(0, Rule::NoEnd));
        // A skipped command is not drawn: only its jump is read.
        check_eq!(broken(|t| { t.ctrl |= 4 << 12; t.colr += 1 }), Ok(3));
        // Zoom point bits belong to scaled sprites alone.
        check_eq!(broken(|t| t.ctrl |= 0x0A00), at(32, Rule::ReservedBits("CMDCTRL")));
    }

    fn scaled_sprites_keep_the_vdp1_manuals_rules() {
        let lut = Sprite { address: 0x28040, width: 16, height: 8, lut: Some(0x28000) };
        let mode = DrawMode::new(ColorMode::Lut16, ColorCalc::Replace, false, false);
        let clip = CommandTable::system_clip(Point::new(319, 223));
        let (at, size) = (Point::new(-20, 10), Point::new(31, 15));
        let zoomed = CommandTable::scaled_sprite(&lut, at, size, ZoomPoint::Center, mode, 0);
        check_eq!(zoomed.ctrl, 0x0A01);
        check_eq!(zoomed.corners(), [at, size, Point::default(), Point::default()]);
        let corners = CommandTable::scaled_sprite_corners(&lut, at, Point::new(40, 30), mode, 0);
        check_eq!(corners.ctrl, 0x0001);
        check_eq!(checked(&[clip, zoomed, corners]), Ok(4));
        let zoom_points = [0x0, 0x5, 0x6, 0x7, 0x9, 0xA, 0xB, 0xD, 0xE, 0xF];
        for bits in 0..16u16 {
            let mut table = zoomed;
            table.ctrl = (table.ctrl & !0x0F00) | bits << 8;
            let expected = match zoom_points.contains(&bits) {
                true => Ok(3),
                false => Err(RuleBreak { command: 32, rule: Rule::UnknownZoomPoint }),
            };
            check_eq!((bits, checked(&[clip, table])), (bits, expected));
        }
        // The size (vertex B) is checked with a zoom point; vertex C without one.
        let at_32 = |rule| Err(RuleBreak { command: 32, rule });
        let mut wide = zoomed;
        wide.vertices[2] = 5000;
        check_eq!(checked(&[clip, wide]), at_32(Rule::VertexOutOfRange));
        let mut far = corners;
        far.vertices[5] = -5000;
        check_eq!(checked(&[clip, far]), at_32(Rule::VertexOutOfRange));
        // Where the VDP1 places each (Mednafen's `vdp1_sprite.cpp`): the odd pixel of a
        // centred size right of and below the point; a size of 31 spans 32 pixels.
        let place = |bits| ZoomPoint::corners(bits, (100, 50), (31, 15), (0, 0));
        check_eq!(place(0x5), [(100, 50), (131, 50), (131, 65), (100, 65)]);
        check_eq!(place(0xA), [(85, 43), (116, 43), (116, 58), (85, 58)]);
        check_eq!(place(0xE), [(85, 35), (116, 35), (116, 50), (85, 50)]);
        check_eq!(place(0xF), [(69, 35), (100, 35), (100, 50), (69, 50)]);
        check_eq!(ZoomPoint::corners(0, (1, 2), (0, 0), (9, 7)), [(1, 2), (9, 2), (9, 7), (1, 7)]);
    }

    fn every_lookup_table_starts_on_a_32_byte_boundary() {
        // Two 16-colour textures of sizes that are not multiples of 32 bytes (the wall 8 x 3
        // with its end-code copy, the leaf 8 x 2): each table where the VDP1 reads it, the
        // two low bits of CMDCOLR clear.
        let model = PatchedModel::every_chunk().without_timg();
        let model = model.model()?;
        let wall: [u8; 44] = core::array::from_fn(|i| i as u8 | 0x80);
        let leaf = leaf_pixels();
        let files = |i: usize, _: &crate::format::Name| Some(if i == 0 { source(8, 3, 1, &wall) } else { source(8, 2, 1, &leaf) });
        let mut bytes = [0u8; 4096];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut cache = TextureCache::<8>::new(1032..4096);
        let Ok(loaded) = cache.load_model_value::<4>(&model, &mut vram, files) else {
            return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("load failed")));
        };
        let sets = [loaded.get(0, true), loaded.get(1, false)];
        check!(sets.iter().all(|set| set.is_some()));
        for set in sets.into_iter().flatten() {
            let lut = set.full.lut.unwrap_or(1);
            check_eq!(lut % 32, 0);
            let table = CommandTable::distorted_sprite(&set.full, corners(), DrawMode::new(ColorMode::Lut16, ColorCalc::Replace, false, false), 0);
            check_eq!(table.colr & 3, 0);
        }
    }

    fn a_shared_texture_gets_the_extras_a_later_model_asks_for() {
        // Two models share the wall's texture (32 x 8, a file): the first model's
        // material asks for no mipmaps and no subdivision, the second's for both.
        let plain_flags = MaterialFlags::from_bits(wall_flags().bits() & !(MaterialFlags::MIPMAPS | MaterialFlags::SUBDIVISION).bits());
        let plain = PatchedModel::every_chunk().without_timg().material_flags(1, plain_flags);
        let rich = PatchedModel::every_chunk().without_timg();
        let (plain, rich) = (plain.model()?, rich.model()?);
        let (wall, leaf) = (rgb_pixels::<512>(), leaf_pixels());
        let files = |i: usize, _: &crate::format::Name| Some(if i == 0 { source(32, 8, 0, &wall) } else { source(8, 2, 1, &leaf) });
        let mut bytes = [0u8; 4096];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut cache = TextureCache::<8>::new(0..4096);
        let first = cache.load_model_value::<4>(&plain, &mut vram, files);
        let second = cache.load_model_value::<4>(&rich, &mut vram, files);
        let (Ok(first), Ok(second)) = (first, second) else {
            return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("loads failed")));
        };
        check_eq!(cache.len(), 2);
        let (Some(before), Some(after)) = (first.get(0, true).copied(), second.get(0, true).copied()) else {
            return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no wall")));
        };
        check_eq!((before.mipmaps, before.quarters), ([None, None], None));
        // The second model gets the same texture, with half and quarter sizes and the
        // four quarters added for it, as loaded alone.
        check_eq!(after.full, before.full);
        let mut alone_bytes = [0u8; 4096];
        let mut alone_vram = MemoryVram::new(&mut alone_bytes);
        let alone = TextureCache::<8>::new(0..4096).load_model_value::<4>(&rich, &mut alone_vram, files);
        let Some(alone) = alone.ok().and_then(|t| t.get(0, true).copied()) else {
            return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no wall alone")));
        };
        let extras = |set: &SpriteSet| -> heapless::Vec<Sprite, 6> {
            set.mipmaps.iter().flatten().chain(set.quarters.iter().flatten()).copied().collect()
        };
        check_eq!(extras(&after).len(), 6);
        check_eq!(extras(&after).len(), extras(&alone).len());
        for (shared, single) in extras(&after).iter().zip(&extras(&alone)) {
            check_eq!((shared.width, shared.height), (single.width, single.height));
            check!(sprite_bytes(&vram, shared) == sprite_bytes(&alone_vram, single));
        }
        // Released by both, everything leaves VRAM, the extras too.
        cache.release_model(&second);
        cache.release_model(&first);
        check_eq!(cache.len(), 0);
        let again = cache.load_model_value::<4>(&rich, &mut vram, files);
        check_eq!(again.ok().and_then(|t| t.get(0, true).copied()), Some(alone));
    }

    fn a_failed_load_gives_back_what_it_took() {
        let plain_flags = MaterialFlags::from_bits(wall_flags().bits() & !MaterialFlags::MIPMAPS.bits());
        let plain = PatchedModel::every_chunk().without_timg().material_flags(1, plain_flags);
        let rich = PatchedModel::every_chunk().without_timg();
        let (plain, rich) = (plain.model()?, rich.model()?);
        let (wall, leaf) = (rgb_pixels::<512>(), leaf_pixels());
        let files = |i: usize, _: &crate::format::Name| Some(if i == 0 { source(32, 8, 0, &wall) } else { source(8, 2, 1, &leaf) });
        let no_leaf = |i: usize, _: &crate::format::Name| if i == 0 { Some(source(32, 8, 0, &wall)) } else { None };
        let bad_leaf = |i: usize, _: &crate::format::Name| Some(if i == 0 { source(32, 8, 0, &wall) } else { source(12, 2, 1, &leaf) });
        let mut bytes = [0u8; 4096];
        let mut vram = MemoryVram::new(&mut bytes);
        // An empty cache: the wall is uploaded, then the leaf is missing.
        let mut cache = TextureCache::<8>::new(0..4096);
        let empty = cache.clone();
        let error = cache.load_model_value::<4>(&plain, &mut vram, no_leaf).err();
        check_eq!(error, Some(VramError::MissingTexture { index: 1 }));
        check_eq!(cache.len(), 0);
        check!(cache == empty);
        // A cache holding the first model: the second's wall gets its mipmaps added to
        // the texture already there, then its leaf is of a size the VDP1 cannot draw (the
        // leaf in VRAM needs no pixels, but those given are checked): the mipmaps leave
        // again.
        let first = cache.load_model_value::<4>(&plain, &mut vram, files);
        check!(first.is_ok());
        let holding = cache.clone();
        let wall_bytes: heapless::Vec<u8, 1024> = vram.bytes()[..1024].iter().copied().collect();
        let error = cache.load_model_value::<4>(&rich, &mut vram, bad_leaf).err();
        check_eq!(error, Some(VramError::TextureSize { index: 1, width: 12, height: 2 }));
        check!(cache == holding);
        check!(vram.bytes()[..1024] == wall_bytes[..]);
        // The leaf in VRAM as the second model needs it: no pixels are asked for it.
        check!(cache.load_model_value::<4>(&rich, &mut vram, no_leaf).is_ok());
        // No room for the mipmaps (160 bytes) after the wall and its quarters (1,024) and
        // the leaf (40, a block of 64).
        let mut small = TextureCache::<8>::new(0..1088 + 100);
        let first = small.load_model_value::<4>(&plain, &mut vram, files);
        check!(first.is_ok());
        let holding = small.clone();
        let error = small.load_model_value::<4>(&rich, &mut vram, files).err();
        check_eq!(error, Some(VramError::RegionFull { region: "texture", needed: 160, available: 100 }));
        check!(small == holding);
        // The embedded textures of the fixture, the second one too big for the region.
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("fixture"))) };
        let mut tight = TextureCache::<8>::new(0..64);
        check!(tight.load_model_value::<4>(&model, &mut vram, |_, _| None).is_err());
        check_eq!(tight.len(), 0);
        check_eq!(tight.load_model_value::<4>(&model, &mut vram, |_, _| None).err(), Some(VramError::RegionFull { region: "texture", needed: 64, available: 32 }));
    }

    fn a_failed_gouraud_load_gives_back_what_it_took() {
        // The wall with gouraud too: its polygon's GOUR colours (all 0) are a second
        // table, which does not fit after the base's.
        let flags = wall_flags() | MaterialFlags::GOURAUD;
        let patched = PatchedModel::every_chunk().material_flags(1, flags);
        let model = patched.model()?;
        let mut bytes = [0u8; 64];
        let mut vram = MemoryVram::new(&mut bytes);
        // (From 8: a table at address 0 would read as none in `per_polygon`.)
        let mut cache = GouraudCache::<4>::new(8..16);
        let empty = cache.clone();
        let mut per_polygon = [0u16; 3];
        let error = cache.load_model(&model, &mut vram, &mut per_polygon);
        check_eq!(error, Err(VramError::RegionFull { region: "gouraud", needed: 8, available: 0 }));
        check_eq!(cache.len(), 0);
        check!(cache == empty);
        check_eq!(per_polygon, [0; 3]);
        // With room for both: two tables.
        let mut roomy = GouraudCache::<4>::new(8..24);
        check_eq!(roomy.load_model(&model, &mut vram, &mut per_polygon), Ok(()));
        check_eq!((roomy.len(), per_polygon), (2, [1, 2, 0]));
    }
}
