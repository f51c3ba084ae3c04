//! Tests of the command tables (bit by bit), VRAM regions and the texture and gouraud
//! caches, on the host and on the SH-2.

use super::*;
use crate::format::Model;
use crate::{check, check_eq};

fn every_chunk() -> &'static [u8] {
    crate::include_aligned!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/every_chunk.jom"
    ))
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
        let first = cache.load_model::<4>(&model, &mut vram, |_, _| None);
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
        let second = cache.load_model::<4>(&model, &mut vram, |_, _| None);
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
        let again = cache.load_model::<4>(&model, &mut vram, |_, _| None);
        check_eq!(again.ok().and_then(|s| s.get(0, true).map(|s| s.full.address)), Some(1024));
    }

    fn full_vram_and_tables_are_errors() {
        let Ok(model) = Model::from_bytes(every_chunk()) else { return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("fixture"))) };
        let mut bytes = [0u8; 256];
        let mut vram = MemoryVram::new(&mut bytes);
        let mut small = TextureCache::<8>::new(0..64);
        // The wall takes 32 bytes; the leaf needs its lookup table (32) and pixels (8).
        let error = small.load_model::<4>(&model, &mut vram, |_, _| None).err();
        check_eq!(error, Some(VramError::RegionFull { region: "texture", needed: 40, available: 32 }));
        let mut one = TextureCache::<1>::new(0..256);
        let error = one.load_model::<4>(&model, &mut vram, |_, _| None).err();
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
}
