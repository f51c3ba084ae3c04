//! `jomc convert` end to end: small OBJ/MTL/PNG/JSON inputs through the binary, the output
//! read back chunk by chunk with the engine's reader (`jom::Model`) and `jomc info --json`.

use jom::format::{MaterialFlags, TexturePixels};
use jom::Model;
use jom_write::AlignedBytes;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

mod common;

use common::{model, Case, ONE};

fn points(model: &Model<'_>) -> Vec<[i32; 3]> {
    model.points().iter().map(|p| p.raw()).collect()
}

fn corners(model: &Model<'_>) -> Vec<[u16; 4]> {
    model.polygons().iter().map(|p| p.corners()).collect()
}

fn tags(model: &Model<'_>) -> Vec<String> {
    model
        .chunks()
        .map(|c| String::from_utf8_lossy(&c.tag.0).into_owned())
        .collect()
}

/// The positions of the corners A, B, C, D of `polygon`.
fn corner_points(model: &Model<'_>, polygon: usize) -> Vec<[i32; 3]> {
    let points = points(model);
    model.polygons()[polygon]
        .corners()
        .iter()
        .map(|&c| points[usize::from(c)])
        .collect()
}

const TRIANGLE: &str = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";

#[test]
fn obj_axes_become_saturn_axes_with_reversed_order_and_outward_unit_normals() {
    let case = Case::new();
    case.file("model.obj", TRIANGLE);
    let bytes = case.converted(&["--keep-triangles"]);
    let model = model(&bytes);
    assert_eq!(tags(&model), ["PNTS", "QUAD", "QMAT", "MATL", "END "]);
    // (x, y, z) -> (x, -y, -z); points in the order the polygon uses them.
    assert_eq!(points(&model), [[0, 0, 0], [0, -ONE, 0], [ONE, 0, 0]]);
    // OBJ order 1 2 3 reversed, the first corner kept: 1 3 2, the triangle as (A, B, C, C).
    assert_eq!(
        corner_points(&model, 0),
        [[0, 0, 0], [0, -ONE, 0], [ONE, 0, 0], [ONE, 0, 0]]
    );
    // The OBJ face looks at +Z (counter-clockwise); in Saturn axes its front looks at -Z.
    assert_eq!(model.polygons()[0].normal().raw(), [0, 0, -ONE]);
    assert_eq!(model.materials()[0].name().as_str(), "default");
    assert_eq!(model.materials()[0].color(), [255; 3]);
}

#[test]
fn saturn_axes_keeps_coordinates_and_order() {
    let case = Case::new();
    case.file("model.obj", TRIANGLE);
    let model_bytes = case.converted(&["--saturn-axes", "--keep-triangles"]);
    let model = model(&model_bytes);
    assert_eq!(
        corner_points(&model, 0),
        [[0, 0, 0], [ONE, 0, 0], [0, ONE, 0], [0, ONE, 0]]
    );
    // Clockwise on a Y-down screen: the front looks at -Z.
    assert_eq!(model.polygons()[0].normal().raw(), [0, 0, -ONE]);
}

#[test]
fn scale_multiplies_coordinates_and_the_sphere() {
    let case = Case::new();
    case.file("model.obj", TRIANGLE);
    let bytes = case.converted(&["--scale", "2.5"]);
    let model = model(&bytes);
    assert!(points(&model).contains(&[0, -5 * ONE / 2, 0]));
    assert!(points(&model).contains(&[5 * ONE / 2, 0, 0]));
    // A bad command line is clap's usage error (status 2), before anything is read.
    let output = case.convert(&["--scale", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a positive number"));
}

#[test]
fn triangles_put_their_shortest_edge_in_a_b_unless_kept() {
    let case = Case::new();
    // Edges: 1-2 long (4), 2-3 short (1), 3-1 long.
    case.file("model.obj", "v 0 0 0\nv 4 0 0\nv 4 1 0\nf 1 2 3\n");
    let bytes = case.converted(&["--saturn-axes"]);
    let model = model(&bytes);
    let [a, b, c, d] = <[[i32; 3]; 4]>::try_from(corner_points(&model, 0)).unwrap();
    assert_eq!((a, b), ([4 * ONE, 0, 0], [4 * ONE, ONE, 0]));
    assert_eq!((c, d), ([0, 0, 0], [0, 0, 0]));
    let kept = case.converted(&["--saturn-axes", "--keep-triangles"]);
    let model = self::model(&kept);
    assert_eq!(corner_points(&model, 0)[0], [0, 0, 0]);
    assert_eq!(corner_points(&model, 0)[1], [4 * ONE, 0, 0]);
}

#[test]
fn faces_of_5_and_6_corners_are_cut_into_quads_and_a_triangle() {
    let case = Case::new();
    let ring: String = (0..6)
        .map(|i| {
            let a = f64::from(i) * std::f64::consts::PI / 3.0;
            format!("v {} {} 0\n", a.cos(), a.sin())
        })
        .collect();
    case.file("model.obj", &(ring + "f 1 2 3 4 5\nf 1 2 3 4 5 6\n"));
    let bytes = case.converted(&["--saturn-axes", "--keep-triangles"]);
    let model = model(&bytes);
    // The pentagon: (1 2 3 4) (1 4 5); the hexagon: (1 2 3 4) (1 4 5 6).
    assert_eq!(model.polygons().len(), 4);
    let triangles: Vec<bool> = model.polygons().iter().map(|p| p.is_triangle()).collect();
    assert_eq!(triangles, [false, true, false, false]);
    assert_eq!(corners(&model)[0], [0, 1, 2, 3]);
    assert_eq!(corners(&model)[1], [0, 3, 4, 4]);
    assert_eq!(corners(&model)[3], [0, 3, 4, 5]);
    for polygon in model.polygons() {
        assert_eq!(polygon.normal().raw(), [0, 0, -ONE]);
    }
}

#[test]
fn the_texture_top_left_corner_becomes_a() {
    let case = Case::new();
    // The quad's corners from the bottom left (u, v) = (0, 0) counter-clockwise: the
    // top left of the texture (0, 1) is the 4th corner.
    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n\
         f 1/1 2/2 3/3 4/4\n",
    );
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    // Saturn: top left (0, -1, 0) is A, then clockwise on screen: top right, ...
    assert_eq!(
        corner_points(&model, 0),
        [[0, -ONE, 0], [ONE, -ONE, 0], [ONE, 0, 0], [0, 0, 0]]
    );
}

#[test]
fn zero_area_faces_are_dropped() {
    let case = Case::new();
    case.file("model.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 2\n");
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    assert_eq!(model.polygons().len(), 0);
    assert_eq!(model.points().len(), 0);
}

/// Two groups side by side: each has a point at (1, 0, 0), and "left" has two.
const TWO_GROUPS: &str = "\
v 0 0 0\nv 1 0 0\nv 1 1 0\nv 1 0 0\n\
v 1 0 0\nv 2 0 0\nv 2 1 0\n\
g left\nf 1 2 3\nf 1 4 3\n\
g right\nf 5 6 7\n";

#[test]
fn welding_merges_points_only_within_the_same_groups() {
    let case = Case::new();
    case.file("model.obj", TWO_GROUPS);
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    // left: (0,0,0) (1,0,0) twice -> one, (1,1,0); right: its own (1,0,0).
    assert_eq!(model.points().len(), 6);
    let at_1_0_0 = points(&model).iter().filter(|p| **p == [ONE, 0, 0]).count();
    assert_eq!(at_1_0_0, 2);
    let unwelded = case.converted(&["--no-weld"]);
    assert_eq!(self::model(&unwelded).points().len(), 7);
}

#[test]
fn groups_hold_contiguous_polygons_and_their_own_points() {
    let case = Case::new();
    // "a" comes back after "b": its polygons are put together; point 3 is shared.
    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 0\nv 6 5 0\nv 5 6 0\nv 7 7 0\n\
         f 1 2 3\no a\nf 1 2 3\ng b\nf 4 5 6\ng a\nf 3 7 2\n",
    );
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    let groups: Vec<(String, std::ops::Range<usize>, std::ops::Range<usize>)> = model
        .groups()
        .iter()
        .map(|g| (g.name().as_str().to_string(), g.points(), g.polygons()))
        .collect();
    // Polygon 0 is outside the groups (before the first o); a: 1..3, b: 3..4.
    // Points: a's own (used by a only): 7 -> 1 point; b's own: 3; the rest is shared.
    assert_eq!(groups[0], ("a".to_string(), 0..1, 1..3));
    assert_eq!(groups[1], ("b".to_string(), 1..4, 3..4));
    assert_eq!(model.points().len(), 7);
    let own_of_a = model.points()[0].raw();
    assert_eq!(own_of_a, [7 * ONE, -7 * ONE, 0]);
}

#[test]
fn normals_give_ntab_and_cnrm_only_when_every_face_has_them() {
    let case = Case::new();
    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 2\nvn 0 1 0\n\
         f 1//1 2//1 3//2\nf 2//2 4//2 3//2\n",
    );
    let bytes = case.converted(&["--keep-triangles"]);
    let model = model(&bytes);
    let normals: Vec<[i32; 3]> = model.normals().unwrap().iter().map(|n| n.raw()).collect();
    // Saturn axes, length 1, in order of first use: A of polygon 0 is OBJ corner 1.
    assert_eq!(normals, [[0, 0, -ONE], [0, -ONE, 0]]);
    let cnrm: Vec<u16> = model
        .corner_normals()
        .unwrap()
        .iter()
        .map(|c| c.get())
        .collect();
    // Polygon 0: corners 1 3 2 (reversed) -> vn 1 2 1, D = C.
    assert_eq!(&cnrm[..4], [0, 1, 0, 0]);
    assert_eq!(&cnrm[4..], [1, 1, 1, 1]);

    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\nf 1 2 3\n",
    );
    let partial = case.converted(&[]);
    assert!(self::model(&partial).normals().is_none());
}

#[test]
fn vertex_colours_give_vcol_and_gouraud_materials_give_gour() {
    let case = Case::new();
    case.file(
        "model.mtl",
        "newmtl shaded\njo_gouraud 1\nnewmtl flat\nKd 0 1 0\n",
    );
    case.file(
        "model.obj",
        "mtllib model.mtl\nv 0 0 0 1 1 1\nv 1 0 0 0 0 0\nv 0 1 0 1 0.5 0\nv 0 1 0 0 0 1\n\
         usemtl shaded\nf 1 2 3\nusemtl flat\nf 1 2 4\n",
    );
    let bytes = case.converted(&["--keep-triangles"]);
    let model = model(&bytes);
    let colors: Vec<[i32; 3]> = model
        .vertex_colors()
        .unwrap()
        .iter()
        .map(|c| c.get().map(jom::Fixed::to_bits))
        .collect();
    // Points 3 and 4 are welded: the first one's colour is kept.
    assert_eq!(colors.len(), 3);
    assert!(colors.contains(&[ONE, ONE / 2, 0]));
    assert!(!colors.contains(&[0, 0, ONE]));
    let gour: Vec<u16> = model.gouraud().unwrap().iter().map(|c| c.get().0).collect();
    // Polygon 0 (shaded): corners 1 3 2 2: white = 16 (unchanged), (1, .5, 0), black.
    let rgb = |r: u16, g: u16, b: u16| 0x8000 | (b << 10) | (g << 5) | r;
    assert_eq!(
        &gour[..4],
        [rgb(16, 16, 16), rgb(16, 8, 0), rgb(0, 0, 0), rgb(0, 0, 0)]
    );
    assert_eq!(&gour[4..], [0; 4]); // flat: no gouraud
    assert!(model.materials()[0]
        .flags()
        .contains(MaterialFlags::GOURAUD));
}

#[test]
fn every_mtl_option_sets_its_flag_or_field() {
    let case = Case::new();
    let options: [(&str, u32); 14] = [
        ("jo_dual 1", 1 << 0),
        ("jo_sort min", 1 << 1),
        ("jo_sort max", 1 << 2),
        ("jo_sort previous", 3 << 1),
        ("jo_sort center", 0),
        ("jo_half_transparent 1", 1 << 4),
        ("d 0.5", 1 << 4),
        ("jo_screen_doors 1", 1 << 5),
        ("jo_light 1", 1 << 6),
        ("jo_flip hv", 3 << 7),
        ("jo_end_codes 1", 1 << 9),
        ("jo_mipmaps 1", 1 << 10),
        ("jo_subdivision 1", 1 << 11),
        ("jo_subdivision 2", 1 << 12),
    ];
    let mut mtl = String::new();
    let mut obj = String::from("mtllib model.mtl\n");
    for (i, (option, _)) in options.iter().enumerate() {
        mtl += &format!("newmtl m{i}\n{option}\n");
        obj += &format!("v {i} 0 0\nv {i} 1 0\nv {i}.5 0 0\nusemtl m{i}\nf -3 -2 -1\n");
    }
    mtl += "newmtl last\nKd 0.5 1 0\nNs 300\njo_flip v\njo_flip h\njo_user 0 15\njo_user 3\n\
            jo_value 4000000000\njo_subdivision_error 12\njo_dual 1\njo_dual 0\n";
    obj += "usemtl last\nf 1 2 3\n";
    case.file("model.mtl", &mtl);
    case.file("model.obj", &obj);
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    for (i, (option, flags)) in options.iter().enumerate() {
        assert_eq!(model.materials()[i].flags().bits(), *flags, "{option}");
    }
    let last = &model.materials()[options.len()];
    assert_eq!(last.name().as_str(), "last");
    assert_eq!(last.color(), [128, 255, 0]);
    assert_eq!(last.shine(), 255);
    assert_eq!(
        last.flags().bits(),
        (1 << 7) | (1 << 16) | (1 << 31) | (1 << 19)
    );
    assert_eq!(last.user(), 4_000_000_000);
    assert_eq!(last.subdivision_error(), 12);
    assert_eq!(last.texture(), None);
    // QMAT: each polygon its material.
    let qmat: Vec<u16> = model.polygon_materials().iter().map(|m| m.get()).collect();
    assert_eq!(qmat, (0..=options.len() as u16).collect::<Vec<_>>());
}

/// A model of two materials using two PNGs; `lut` adds `jo_lut 1` to the second.
fn textured_case(lut: bool) -> Case {
    let case = Case::new();
    case.png("brick wall.png", 16, 2, |x, y| {
        let a = if x == 0 && y == 0 { 0 } else { 255 };
        [(x * 16) as u8, (y * 100) as u8, 7, a]
    });
    case.png("leaf.png", 8, 4, |x, y| {
        [(x * 30) as u8, (y * 60) as u8, ((x + y) * 9) as u8, 255]
    });
    let lut = if lut { "jo_lut 1\n" } else { "" };
    case.file(
        "model.mtl",
        &format!(
            "newmtl wall\nmap_Kd -s 1 1 1 brick wall.png\nnewmtl leaf\nmap_Kd leaf.png\n{lut}\
             newmtl wall2\nmap_Kd brick wall.png\n"
        ),
    );
    case.file(
        "model.obj",
        "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n\
         usemtl wall\nf 1 2 3\nusemtl leaf\nf 1 3 2\nusemtl wall2\nf 2 1 3\n",
    );
    case
}

#[test]
fn textures_are_named_in_text_and_written_as_jo_bin_images() {
    let case = textured_case(false);
    std::fs::create_dir(case.path("cd")).unwrap();
    let bytes = case.converted(&["--texture-dir", "cd"]);
    let model = model(&bytes);
    let names: Vec<&str> = model.texture_names().iter().map(|n| n.as_str()).collect();
    assert_eq!(names, ["BRICK_WA.BIN", "LEAF.BIN"]);
    let textures: Vec<Option<u16>> = model.materials().iter().map(|m| m.texture()).collect();
    assert_eq!(textures, [Some(0), Some(1), Some(0)]);
    assert!(model.textures().is_none());
    // .BIN: little-endian width, height, RGB 555 pixels (jo_sprite_add_bin).
    let bin = std::fs::read(case.path("cd/BRICK_WA.BIN")).unwrap();
    assert_eq!(bin.len(), 4 + 16 * 2 * 2);
    assert_eq!(&bin[..4], [16, 0, 2, 0]);
    assert_eq!(
        u16::from_le_bytes([bin[4], bin[5]]),
        0,
        "alpha 0 is transparent"
    );
    let pixel_1_0 = u16::from_le_bytes([bin[6], bin[7]]);
    assert_eq!(
        pixel_1_0,
        0x8000 | (1 << 10) | 2,
        "(16, 0, 7) rounded to 5 bits"
    );
}

#[test]
fn embedded_textures_are_named_by_a_hash_of_their_pixels_and_shared() {
    let case = textured_case(false);
    let bytes = case.converted(&["--embed-textures"]);
    let model = model(&bytes);
    assert_eq!(tags(&model)[0], "TIMG");
    let timg: Vec<_> = model.textures().unwrap().iter().collect();
    assert_eq!(timg.len(), 2);
    let name = timg[0].name().as_str().to_string();
    assert_eq!(name.len(), 12, "8.3: {name}");
    assert!(name.starts_with("BR") && name.ends_with(".BIN"), "{name}");
    assert_eq!(model.texture_names()[0].as_str(), name);
    assert_eq!((timg[0].header.width(), timg[0].header.height()), (16, 2));
    let TexturePixels::Rgb555(pixels) = timg[0].pixels else {
        panic!("RGB 555 expected")
    };
    assert_eq!(pixels[0].get().0, 0);

    // The same PNG in another model, under another file name, gets the same name.
    let other = Case::new();
    std::fs::copy(case.path("brick wall.png"), other.path("br.png")).unwrap();
    other.file("model.mtl", "newmtl x\nmap_Kd br.png\n");
    other.file(
        "model.obj",
        "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl x\nf 1 2 3\n",
    );
    let other_bytes = other.converted(&["--embed-textures"]);
    assert_eq!(self::model(&other_bytes).texture_names()[0].as_str(), name);
}

#[test]
fn jo_lut_gives_16_colour_textures_quantised_when_needed() {
    let case = textured_case(true);
    let bytes = case.converted(&["--embed-textures"]);
    let model = model(&bytes);
    let timg: Vec<_> = model.textures().unwrap().iter().collect();
    assert_eq!(timg[0].header.format_raw(), 0);
    assert_eq!(timg[1].header.format_raw(), 1);
    let TexturePixels::Lut4 { lut, pixels } = timg[1].pixels else {
        panic!("a lookup table expected")
    };
    assert_eq!(lut[0].get().0, 0, "colour 0 is transparent");
    assert_eq!(pixels.len(), 8 * 4 / 2);
    // leaf.png has 32 different opaque colours: 15 are kept, every pixel uses one.
    assert!(lut[1..].iter().all(|c| c.get().0 & 0x8000 != 0));
    assert!(pixels.iter().all(|&b| b >> 4 != 0 && b & 15 != 0));
}

#[test]
fn the_skeleton_example_converts_to_bone_and_anim() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let case = Case::new();
    for name in ["robot.obj", "robot.mtl", "robot.json"] {
        std::fs::copy(fixtures.join(name), case.path(name)).unwrap();
    }
    std::fs::rename(case.path("robot.obj"), case.path("model.obj")).unwrap();
    let bytes = case.converted(&["--skeleton", "robot.json"]);
    let model = model(&bytes);
    assert_eq!(
        tags(&model),
        [
            "PNTS", "QUAD", "QMAT", "MATL", "NTAB", "CNRM", "VCOL", "GOUR", "GRUP", "BONE", "ANIM",
            "BMOT", "END "
        ]
    );
    let bones = model.bones();
    assert_eq!(bones[0].name().as_str(), "body");
    assert_eq!((bones[0].group(), bones[0].parent()), (Some(0), None));
    assert_eq!((bones[1].group(), bones[1].parent()), (Some(1), Some(0)));
    assert_eq!(bones[1].pivot().raw(), [ONE, -7 * ONE / 4, 0]);
    // Welding keeps the arm's corner at (1, 2, 0) apart from the body's.
    assert_eq!(model.points().len(), 8);
    let animations = model.animations();
    let wave = animations.find("wave").unwrap();
    assert_eq!((wave.record.key_count(), wave.record.key_ticks()), (2, 15));
    assert!(wave.record.is_looped());
    let key = wave.key(1).unwrap();
    assert_eq!(key.root.raw(), [0, -ONE / 4, 0]);
    // Degrees to jo_angle, Y and Z turned the other way by the axis conversion.
    let body = key.rotations[0].get().map(|a| a.0);
    let arm = key.rotations[1].get().map(|a| a.0);
    assert_eq!(body, [0, -1820, 0]); // 10 degrees = 1820.4
    assert_eq!(arm, [0, 0, -0x2000]);
    // BMOT: the arm moves by (0, 0.5, 0) (Saturn axes: (0, -0.5, 0)) and stretches 1.5
    // times along Y in "wave" only; the rig rounds against the body's rounded turn.
    let tracks: Vec<_> = wave.motion.iter().collect();
    assert_eq!(tracks.len(), 1);
    let (bone, keys) = tracks[0];
    assert_eq!((bone, keys.len()), (1, 2));
    assert_eq!((keys[0].offset(), keys[0].scale()), ([0; 3], [ONE; 3]));
    let near = |a: [i32; 3], b: [i32; 3]| a.iter().zip(&b).all(|(a, b)| (a - b).abs() <= 16);
    assert!(
        near(keys[1].offset(), [0, -ONE / 2, 0]),
        "{:?}",
        keys[1].offset()
    );
    assert!(
        near(keys[1].scale(), [ONE, 3 * ONE / 2, ONE]),
        "{:?}",
        keys[1].scale()
    );
    let rest = animations.find("rest").unwrap();
    assert!(rest.motion.is_empty());
    assert!(!rest.record.is_looped());
    assert_eq!(
        rest.key(0).unwrap().rotations[1].get().map(|a| a.0),
        [0, 0, 0]
    );

    // jomc info --json on the result.
    let info = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .args(["info", "--json"])
        .arg(case.path("model.jom"))
        .output()
        .unwrap();
    assert!(info.status.success());
    let json: Value = serde_json::from_slice(&info.stdout).unwrap();
    assert_eq!(json["points"], 8);
    assert_eq!(json["polygons"], 2);
    assert_eq!(json["normals"], 1);
    assert_eq!(json["vertex_colors"], true);
    assert_eq!(json["gouraud"], true);
    assert_eq!(json["groups"][1]["name"], "arm");
    assert_eq!(json["bones"][1]["parent"], 0);
    assert_eq!(json["animations"][0]["loop"], true);
    assert_eq!(json["bone_motion"][0]["bone"], 1);
    assert_eq!(json["bone_motion"][0]["keys"][1]["scale"][0], 1.0);
    assert_eq!(json["materials"][0]["name"], "metal");
    assert_eq!(
        json["materials"][0]["color"],
        serde_json::json!([153, 153, 179])
    );
    assert_eq!(json["materials"][0]["shine"], 200);
    assert_eq!(json["materials"][1]["user"], 7);
    assert_eq!(json["materials"][1]["flags"], (1 << 3) | (1 << 18));
}

#[test]
fn rotations_only_leaves_bmot_out_and_says_how_far_off() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let case = Case::new();
    for name in ["robot.obj", "robot.mtl", "robot.json"] {
        std::fs::copy(fixtures.join(name), case.path(name)).unwrap();
    }
    std::fs::rename(case.path("robot.obj"), case.path("model.obj")).unwrap();
    let output = case.convert(&["--skeleton", "robot.json", "--rotations-only"]);
    assert!(output.status.success());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("jomc: warning: ")
            && stderr.contains("robot.json: rotations only: the bones' offsets and scales are dropped; the largest error is ")
            && stderr.contains("model units (animation wave, key 1, bone arm)"),
        "{stderr}"
    );
    let bytes = AlignedBytes::new(&std::fs::read(case.path("model.jom")).unwrap());
    let model = model(&bytes);
    assert!(!tags(&model).contains(&"BMOT".to_string()));
    let wave = model.animations().find("wave").unwrap();
    assert_eq!(
        wave.key(1).unwrap().rotations[1].get().map(|a| a.0),
        [0, 0, -0x2000]
    );
}

#[test]
fn the_bounding_sphere_is_the_smallest_around_the_points() {
    let case = Case::new();
    // A right triangle: the smallest sphere is centred on its hypotenuse.
    case.file("model.obj", "v 0 0 0\nv 2 0 0\nv 1 1 0\nf 1 2 3\n");
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    assert_eq!(model.center().raw(), [ONE, 0, 0]);
    assert_eq!(model.radius().to_bits(), ONE);
}

#[test]
fn output_is_byte_identical_across_runs() {
    let case = textured_case(true);
    case.file(
        "model.obj",
        &(std::fs::read_to_string(case.path("model.obj")).unwrap()
            + "g a\nv 3 3 3\nf 1 2 4\ng b\nf 4 2 3\n"),
    );
    let runs: Vec<Vec<u8>> = (0..3)
        .map(|_| case.converted(&["--embed-textures"]).bytes().to_vec())
        .collect();
    assert_eq!(runs[0], runs[1]);
    assert_eq!(runs[1], runs[2]);
}

#[test]
fn bad_input_names_the_file_and_line_exits_1_and_leaves_no_output() {
    let obj = "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n";
    let cases: [(&str, &str, &str, &[&str]); 15] = [
        (
            "model.obj",
            "v 0 0 0\nv 1 0 0\nf 1 2 9\n",
            "model.obj:3: face index 9 is out of range",
            &[],
        ),
        (
            "model.obj",
            "v 0 0 0\nf 1 2\n",
            "model.obj:2: a face needs 3 corners",
            &[],
        ),
        (
            "model.obj",
            "v 0 0 x\n",
            "model.obj:1: v: \"x\" is not a finite number",
            &[],
        ),
        (
            "model.obj",
            "v 40000 0 0\nf 1 1 1\n",
            "model.obj:1: 40000 is outside the range",
            &[],
        ),
        (
            "model.mtl",
            "newmtl m\njo_sort far\n",
            "model.mtl:2: jo_sort far: expected min, max",
            &[],
        ),
        (
            "model.mtl",
            "newmtl m\njo_flip x\n",
            "model.mtl:2: jo_flip x: expected h, v or hv",
            &[],
        ),
        (
            "model.mtl",
            "newmtl m\njo_shiny 1\n",
            "model.mtl:2: unknown option jo_shiny",
            &[],
        ),
        (
            "model.mtl",
            "newmtl m\njo_user 16\n",
            "model.mtl:2: jo_user 16: expected 0 to 15",
            &[],
        ),
        (
            "model.mtl",
            "newmtl m\nmap_Kd gone.png\n",
            "model.mtl:2: map_Kd ",
            &[],
        ),
        (
            "model.mtl",
            "newmtl m\njo_gouraud 1\n",
            "model.mtl:1: material m has jo_gouraud 1",
            &[],
        ),
        (
            "model.mtl",
            "newmtl other\n",
            "model.obj:5: usemtl m: no such material",
            &[],
        ),
        (
            "skeleton.json",
            "{\"bones\": [\n{\"name\": 3}]}",
            "skeleton.json:2: invalid type",
            &["--skeleton", "skeleton.json"],
        ),
        (
            "skeleton.json",
            "{\"bones\": [\n{\"name\": \"a\",\n \"parent\": \"b\"}]}",
            "skeleton.json:3: bone a: parent b",
            &["--skeleton", "skeleton.json"],
        ),
        (
            "skeleton.json",
            "{\"bones\": [{\"name\": \"a\"}], \"animations\": [{\"name\": \"w\", \"key_ticks\": 1,\n\"keys\": [{\"scales\":\n{\"a\": [1, -0.5, 1]}}]}]}",
            "skeleton.json:3: animation w: bone a scale [1.0, -0.5, 1.0]: each scale must be 0 or more",
            &["--skeleton", "skeleton.json"],
        ),
        (
            "skeleton.json",
            "{\"bones\": [{\"name\": \"a\"}], \"animations\": [{\"name\": \"w\", \"key_ticks\": 1,\n\"keys\": [{\"offsets\":\n{\"b\": [1, 0, 1]}}]}]}",
            "skeleton.json:3: animation w: no bone named b",
            &["--skeleton", "skeleton.json"],
        ),
    ];
    for (file, text, expected, args) in cases {
        let case = Case::new();
        case.file("model.obj", obj)
            .file("model.mtl", "newmtl m\n")
            .file(file, text);
        let error = case.error(args);
        assert!(error.starts_with("jomc: "), "{error}");
        let error = error.trim_start_matches("jomc: ");
        assert!(
            error.contains(expected),
            "{file}: {error:?} lacks {expected:?}"
        );
    }
}

#[test]
fn a_texture_the_vdp1_cannot_draw_is_refused() {
    let case = Case::new();
    case.png("odd.png", 12, 2, |_, _| [1, 2, 3, 255]);
    case.file("model.mtl", "newmtl m\nmap_Kd odd.png\n");
    case.file(
        "model.obj",
        "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl m\nf 1 2 3\n",
    );
    let error = case.error(&[]);
    assert!(
        error.contains("model.mtl:2: map_Kd odd.png: 12x2 pixels"),
        "{error}"
    );
}

#[test]
fn more_than_65535_polygons_is_refused_at_the_face_that_passes_the_limit() {
    let case = Case::new();
    let mut obj = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\n");
    obj += &"f 1 2 3\n".repeat(65_536);
    case.file("model.obj", &obj);
    let error = case.error(&[]);
    assert!(
        error.contains("model.obj:65539: the model has 65536 polygons, more than the 65,535"),
        "{error}"
    );
}

#[test]
fn an_existing_output_is_left_untouched_by_a_failure() {
    let case = Case::new();
    case.file("model.obj", "f 1 2 3\n");
    std::fs::write(case.path("model.jom"), b"old").unwrap();
    let output = case.convert(&[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(case.path("model.jom")).unwrap(), b"old");
    let leftovers = std::fs::read_dir(case.dir.path()).unwrap().count();
    assert_eq!(leftovers, 2, "no temporary file left");
}

/// Issue #13: a point farther from the origin than the engine draws (28672 units) is
/// refused at its line, with the `--scale` that fits; with that scale the file converts
/// and the engine loads it.
#[test]
fn a_point_past_the_engine_limit_is_refused_with_a_scale_that_fits() {
    let case = Case::new();
    // 21000 x sqrt(2) = 29698.5 units from the origin (each coordinate fits Q16.16).
    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 21000 0 21000\nv 0 1 0\nf 1 2 3\nf 1 2 4\n",
    );
    let error = case.error(&[]);
    assert_eq!(
        error,
        format!(
            "jomc: {}: the point (21000, 0, -21000) is 29698.5 units from the model's origin, \
             past the engine's limit of 28672 (docs/format.md, \"Engine limits\"): convert with \
             --scale 0.965 or less",
            "model.obj:3"
        )
    );
    let bytes = case.converted(&["--scale", "0.965"]);
    let model = common::model(&bytes);
    assert!(model.reach() <= jom::format::MAX_REACH);
}

/// Issue #13: a normal without a direction cannot be made unit length: refused at the
/// face that uses it (the engine refuses normals that are not unit length).
#[test]
fn a_normal_of_length_zero_is_refused_at_its_face() {
    let case = Case::new();
    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nvn 0 0 0\nf 1//1 2//1 3//1\nf 1//1 3//2 2//1\n",
    );
    let error = case.error(&[]);
    assert!(
        error.starts_with("jomc: model.obj:7: the normal [0.0, 0.0, 0.0] of a corner of this face has no direction"),
        "{error}"
    );
}
