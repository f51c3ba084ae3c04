//! TMD reading against files made by the test writer from the manual's packet tables.

mod writer;

use psx_formats::tmd::{self, Primitive};
use psx_formats::vram::{ClutPosition, Depth, TexturePage};
use writer::{raw_primitive, Object, Polygon};

/// Light off (flag bit 0), double sided (bit 1), gradation (bit 2).
const UNLIT: u8 = 1;
const DOUBLE: u8 = 2;
const GRADATION: u8 = 4;
/// Mode bits: gouraud, quad, textured, semi-transparent.
const GOURAUD: u8 = 0x10;
const QUAD: u8 = 0x08;
const TEXTURED: u8 = 0x04;
const SEMI: u8 = 0x02;

fn square() -> Vec<[i16; 3]> {
    vec![
        [0, 0, 0],
        [100, 0, 0],
        [0, 100, 0],
        [100, 100, 0],
        [50, 50, -20],
    ]
}

/// A polygon of the given type with every item distinct, as the manual lays it out.
fn polygon(mode: u8, flag: u8) -> Polygon {
    let corners = if mode & QUAD != 0 { 4 } else { 3 };
    let lit = flag & UNLIT == 0;
    let textured = mode & TEXTURED != 0;
    let per_corner_colors = if lit {
        !textured && flag & GRADATION != 0
    } else {
        mode & GOURAUD != 0
    };
    let color_count = match (lit && textured, per_corner_colors) {
        (true, _) => 0,
        (false, true) => corners,
        (false, false) => 1,
    };
    Polygon {
        mode: 0x20 | mode,
        flag,
        vertices: [3, 1, 4, 0][..corners].to_vec(),
        normals: match (lit, mode & GOURAUD != 0) {
            (false, _) => vec![],
            (true, true) => [1, 0, 2, 1][..corners].to_vec(),
            (true, false) => vec![2],
        },
        colors: (0..color_count)
            .map(|i| [10 + i as u8, 20 + i as u8, 30 + i as u8])
            .collect(),
        uvs: if textured {
            (0..corners)
                .map(|i| [i as u8 * 16, 255 - i as u8])
                .collect()
        } else {
            vec![]
        },
        cba: if textured { 0x7801 } else { 0 },
        tsb: if textured { 0x009a } else { 0 },
    }
}

fn one_object(primitives: Vec<Vec<u8>>) -> Vec<u8> {
    writer::tmd(&[Object {
        vertices: square(),
        normals: vec![[0, 0, -4096], [0, -4096, 0], [4096, 0, 0]],
        primitives,
        scale: 0,
    }])
}

/// The manual's ilen of each polygon type: (mode bits, flag, ilen).
const MANUAL_ILEN: [(u8, u8, usize); 20] = [
    (0, 0, 3),                              // F3
    (GOURAUD, 0, 4),                        // G3
    (0, GRADATION, 5),                      // F3, gradation
    (GOURAUD, GRADATION, 6),                // G3, gradation
    (TEXTURED, 0, 5),                       // FT3
    (GOURAUD | TEXTURED, 0, 6),             // GT3
    (QUAD, 0, 4),                           // F4
    (QUAD | GOURAUD, 0, 5),                 // G4
    (QUAD, GRADATION, 7),                   // F4, gradation
    (QUAD | GOURAUD, GRADATION, 8),         // G4, gradation
    (QUAD | TEXTURED, 0, 7),                // FT4
    (QUAD | GOURAUD | TEXTURED, 0, 8),      // GT4
    (0, UNLIT, 3),                          // F3, no light
    (GOURAUD, UNLIT, 5),                    // G3, no light
    (TEXTURED, UNLIT, 6),                   // FT3, no light
    (GOURAUD | TEXTURED, UNLIT, 8),         // GT3, no light
    (QUAD, UNLIT, 3),                       // F4, no light
    (QUAD | GOURAUD, UNLIT, 6),             // G4, no light
    (QUAD | TEXTURED, UNLIT, 7),            // FT4, no light
    (QUAD | GOURAUD | TEXTURED, UNLIT, 10), // GT4, no light
];

#[test]
fn every_polygon_type_reads_back_with_the_manuals_length() {
    for (mode, flag, ilen) in MANUAL_ILEN {
        let spec = polygon(mode | SEMI, flag | DOUBLE);
        let packet = spec.packet();
        assert_eq!(
            usize::from(packet[1]),
            ilen,
            "mode {mode:#x} flag {flag:#x}"
        );
        let model = tmd::read(&one_object(vec![packet])).expect("reads");
        let [Primitive::Polygon(p)] = &model.objects[0].primitives[..] else {
            panic!("one polygon expected");
        };
        assert_eq!(p.offset, 12 + 28, "first primitive after the table");
        assert_eq!(p.vertices, spec.vertices, "mode {mode:#x} flag {flag:#x}");
        assert_eq!(p.normals, spec.normals, "mode {mode:#x} flag {flag:#x}");
        assert_eq!(p.colors, spec.colors, "mode {mode:#x} flag {flag:#x}");
        assert_eq!(p.is_quad(), mode & QUAD != 0);
        assert_eq!(p.is_gouraud(), mode & GOURAUD != 0);
        assert_eq!(p.is_lit(), flag & UNLIT == 0);
        assert!(p.is_double_sided());
        assert!(p.is_semi_transparent());
        match &p.texture {
            None => assert_eq!(mode & TEXTURED, 0),
            Some(t) => {
                assert_eq!(t.uvs, spec.uvs);
                assert_eq!(t.clut, ClutPosition { x: 16, y: 480 });
                assert_eq!(
                    t.page,
                    TexturePage {
                        x: 640,
                        y: 256,
                        depth: Depth::Clut8,
                        rate: 0
                    }
                );
            }
        }
    }
}

#[test]
fn a_lit_flat_triangle_is_read_from_the_manuals_bytes() {
    // olen 4, ilen 3, flag 0, mode 0x20; R G B mode; N0 V0; V1 V2.
    let packet = vec![4, 3, 0, 0x22, 255, 128, 0, 0x22, 2, 0, 1, 0, 3, 0, 4, 0];
    let model = tmd::read(&one_object(vec![packet])).expect("reads");
    let Primitive::Polygon(p) = &model.objects[0].primitives[0] else {
        panic!("a polygon");
    };
    assert_eq!(
        (p.vertices.clone(), p.normals.clone()),
        (vec![1, 3, 4], vec![2])
    );
    assert_eq!(p.colors, vec![[255, 128, 0]]);
    assert!(p.is_semi_transparent() && !p.is_double_sided() && !p.is_quad());
    assert_eq!(p.outline(), vec![1, 3, 4]);
}

#[test]
fn a_quads_outline_is_v0_v1_v3_v2() {
    let model = tmd::read(&one_object(vec![polygon(QUAD, 0).packet()])).expect("reads");
    let Primitive::Polygon(p) = &model.objects[0].primitives[0] else {
        panic!("a polygon");
    };
    assert_eq!(p.vertices, vec![3, 1, 4, 0]);
    assert_eq!(p.outline(), vec![3, 1, 0, 4]);
}

#[test]
fn lines_and_sprites_are_read_past() {
    let line = raw_primitive(2, 1, 0x40, &[0x40ff_ffff, 0x0001_0000]);
    let sprite = raw_primitive(3, 1, 0x64, &[0, 0, 0]);
    let triangle = polygon(0, 0).packet();
    let model = tmd::read(&one_object(vec![line, sprite, triangle])).expect("reads");
    let p = &model.objects[0].primitives;
    assert_eq!(p[0], Primitive::Line { offset: 40 });
    assert_eq!(p[1], Primitive::Sprite { offset: 40 + 12 });
    assert!(matches!(&p[2], Primitive::Polygon(t) if t.offset == 40 + 12 + 16));
}

#[test]
fn objects_vertices_normals_and_the_scale_word_are_read() {
    let bytes = writer::tmd(&[
        Object {
            vertices: vec![[1, -2, 3]],
            normals: vec![[0, 4096, 0]],
            primitives: vec![],
            scale: -1,
        },
        Object {
            vertices: square(),
            normals: vec![[0, 0, -4096], [0, -4096, 0], [4096, 0, 0]],
            primitives: vec![polygon(0, 0).packet()],
            scale: 0,
        },
    ]);
    let model = tmd::read(&bytes).expect("reads");
    assert_eq!(model.objects.len(), 2);
    assert_eq!(model.objects[0].vertices, vec![[1, -2, 3]]);
    assert_eq!(model.objects[0].normals, vec![[0, 4096, 0]]);
    assert_eq!(model.objects[0].scale, -1);
    assert_eq!(model.objects[1].offset, 12 + 28);
    assert_eq!(model.objects[1].vertices, square());
}

/// The error's byte offset and message for `bytes`.
fn error(bytes: &[u8]) -> (usize, String) {
    let e = tmd::read(bytes).expect_err("must fail");
    (e.offset, e.message)
}

#[test]
fn bad_files_name_the_byte_and_what_was_expected() {
    let good = one_object(vec![polygon(GOURAUD, 0).packet()]);

    let mut wrong_id = good.clone();
    wrong_id[0] = 0x42;
    assert_eq!(
        error(&wrong_id),
        (0, "ID 0x42, expected 0x41 (not a TMD file)".into())
    );

    let mut fixp = good.clone();
    fixp[4] = 1;
    assert_eq!(error(&fixp).0, 4);
    assert!(error(&fixp).1.contains("FIXP"));

    let mut many_objects = good.clone();
    many_objects[8] = 9;
    let (at, message) = error(&many_objects);
    assert_eq!(at, 8);
    assert!(message.contains("9 objects"), "{message}");

    assert_eq!(error(&good[..6]).0, 4, "a truncated header");

    let mut short_ilen = good.clone();
    short_ilen[40 + 1] = 3;
    let (at, message) = error(&short_ilen);
    assert_eq!(at, 41);
    assert_eq!(
        message,
        "object 0 primitive 0 (mode 0x30, flag 0x00: lit gouraud triangle): ilen 3, expected 4"
    );

    let mut bad_vertex = polygon(GOURAUD, 0);
    bad_vertex.vertices[2] = 5;
    let (at, message) = error(&one_object(vec![bad_vertex.packet()]));
    assert_eq!(at, 40);
    assert_eq!(
        message,
        "object 0 primitive 0: vertex index 5 is out of range, expected 0 to 4 (the object has 5 vertices)"
    );

    let mut bad_normal = polygon(0, 0);
    bad_normal.normals[0] = 3;
    let (at, message) = error(&one_object(vec![bad_normal.packet()]));
    assert_eq!(at, 40);
    assert!(
        message.contains("normal index 3 is out of range, expected 0 to 2"),
        "{message}"
    );

    let unknown = raw_primitive(1, 0, 0x80, &[0]);
    let (at, message) = error(&one_object(vec![unknown]));
    assert_eq!(at, 43);
    assert!(message.contains("mode 0x80 (code 100)"), "{message}");

    let mut past_end = good.clone();
    past_end.truncate(good.len() - 8 * 5 - 8 * 3 - 4);
    let (_, message) = error(&past_end);
    assert!(message.contains("go past the end of the file"), "{message}");

    let mut count = good.clone();
    count[12 + 20..12 + 24].copy_from_slice(&u32::MAX.to_le_bytes());
    let (at, message) = error(&count);
    assert_eq!(at, 12 + 20);
    assert!(
        message.contains("4294967295 primitives cannot fit"),
        "{message}"
    );
}
