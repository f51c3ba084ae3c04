//! `jomc info` end to end: the binary on real files, valid and malformed.

use jom_write::{fixtures, JomFile};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

fn jomc(args: &[&str], file: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .args(args)
        .arg(file)
        .output()
        .expect("jomc runs")
}

fn json_of(file: &Path) -> Value {
    let output = jomc(&["info", "--json"], file);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty());
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

#[test]
fn json_has_exactly_the_documented_keys_and_values() {
    let info = json_of(&fixture("every_chunk.jom"));
    let keys: Vec<&str> = info
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "version",
        "center",
        "radius",
        "chunks",
        "points",
        "polygons",
        "quads",
        "triangles",
        "materials",
        "textures",
        "timg",
        "texture_vram",
        "default_texture_region",
        "fitting",
        "normals",
        "vertex_colors",
        "gouraud",
        "groups",
        "bones",
        "animations",
        "bone_motion",
        "regions",
        "levels",
    ];
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    expected.sort_unstable();
    assert_eq!(sorted, expected);

    assert_eq!(info["version"], 1);
    // 8 x 2 RGB 555 (its copies for mipmaps and quarters would be 4 wide: none), only the
    // end-code variant; 8 x 2 with 16 colours: 32 bytes of lookup table and 8 of pixels,
    // a block of 64 (texture blocks are multiples of 32 bytes).
    assert_eq!(info["texture_vram"], 32 + 64);
    assert_eq!(info["default_texture_region"], 0x80000 - 0x28000);
    // A file without FITS (not fitted by jomc convert): no steps.
    assert_eq!(info["fitting"], json!([]));
    assert_eq!(info["center"], json!([0.0, -0.5, 0.0]));
    assert_eq!(info["radius"], 2.0);
    let tags: Vec<&str> = info["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tag"].as_str().unwrap())
        .collect();
    assert_eq!(
        tags,
        [
            "TIMG", "PNTS", "QUAD", "QMAT", "MATL", "TEXT", "NTAB", "CNRM", "VCOL", "GOUR", "GRUP",
            "BONE", "ANIM", "XTRA", "END "
        ]
    );
    assert_eq!(
        info["chunks"][0],
        json!({"tag": "TIMG", "offset": 24, "size": 124})
    );
    assert_eq!(
        (info["points"].as_u64(), info["polygons"].as_u64()),
        (Some(6), Some(3))
    );
    assert_eq!(
        info["materials"][2],
        json!({"name": "leaf", "color": [0, 255, 0], "shine": 255, "texture": 1, "subdivision_error": 0,
               "flags": 0x8001_1120_u32, "user": 0xDEAD_BEEF_u32})
    );
    assert_eq!(info["materials"][0]["texture"], -1);
    assert_eq!(
        info["textures"],
        json!(["WALL_1A2B3C.BIN", "LEAF_4D5E6F.BIN"])
    );
    assert_eq!(
        info["timg"][1],
        json!({"name": "LEAF_4D5E6F.BIN", "width": 8, "height": 2, "format": 1})
    );
    assert_eq!(info["normals"], 3);
    assert_eq!(
        (info["vertex_colors"].as_bool(), info["gouraud"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(
        info["groups"][1],
        json!({"name": "spike", "first_point": 5, "point_count": 1, "first_polygon": 2, "polygon_count": 1})
    );
    assert_eq!(
        info["bones"][2],
        json!({"name": "tip", "group": 65535, "parent": 1, "pivot": [0.0, -2.0, 0.25]})
    );
    assert_eq!(
        info["animations"],
        json!([
            {"name": "walk", "key_count": 3, "key_ticks": 10, "loop": true, "duplicate": false},
            {"name": "rest", "key_count": 1, "key_ticks": 5, "loop": false, "duplicate": false},
            {"name": "walk", "key_count": 2, "key_ticks": 60, "loop": false, "duplicate": true},
        ])
    );
}

#[test]
fn json_of_a_minimal_file_has_empty_optional_parts() {
    let info = json_of(&fixture("minimal.jom"));
    assert_eq!(info["normals"], 0);
    assert_eq!(info["vertex_colors"], false);
    for key in [
        "textures",
        "timg",
        "groups",
        "bones",
        "animations",
        "bone_motion",
    ] {
        assert_eq!(info[key], json!([]), "{key}");
    }
}

#[test]
fn text_describes_the_model_for_a_person() {
    let output = jomc(&["info"], &fixture("every_chunk.jom"));
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "6 points, 3 polygons (1 quads, 2 triangles), 3 normals",
        "with vertex colours and gouraud colours",
        "ANIM at     856 (0x00358), 280 bytes",
        "wall             colour 255,255,255 shine 0 texture 0 (WALL_1A2B3C.BIN)",
        "1: LEAF_4D5E6F.BIN 8x2 16 colours + lookup table",
        "spike            points 5..6 polygons 2..3",
        "2: tip              parent spike group (no group) pivot (0, -2, 0.25)",
        "walk             2 keys every 60 ticks (1/60 s), duplicate name",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

/// A change that breaks the valid fixture.
type Breakage = Box<dyn Fn(&mut JomFile)>;

/// Each kind of malformed file: exit status 1, its specific error on stderr, no stdout.
#[test]
fn malformed_files_are_rejected_with_their_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Breakage, &str)> = vec![
        ("version", Box::new(|f| f.version = 3), "header at offset 4: version 3 is not supported, expected 1"),
        ("corner", Box::new(|f| f.polygons[1].corners[3] = 9), "QUAD chunk, record 1 at offset 290 (0x122): corner D 9 is out of range, expected 0 to 5 (PNTS count 6)"),
        ("qmat", Box::new(|f| f.polygon_materials.push(0)), "QMAT chunk data at offset 320 (0x140): count 4, expected 3 (one per polygon of QUAD)"),
        ("material", Box::new(|f| f.polygon_materials[0] = 5), "QMAT chunk, record 0 at offset 324 (0x144): material 5 is out of range, expected 0 to 2 (MATL count 3)"),
        ("texture", Box::new(|f| f.materials[0].texture = 2), "MATL chunk, record 0 at offset 364 (0x16c): texture 2 is out of range, expected -1 or 0 to 1 (TEXT count 2)"),
        ("vcol", Box::new(|f| { f.vertex_colors.as_mut().unwrap().pop(); }), "VCOL chunk data at offset 576 (0x240): count 5, expected 6 (one per point of PNTS)"),
        ("cnrm", Box::new(|f| f.normals = None), "CNRM chunk at offset 484 (0x1e4): needs a NTAB chunk, the file has none"),
        ("bones", Box::new(|f| f.bones.as_mut().unwrap()[1].parent = 2), "BONE chunk, bone 1 at offset 810 (0x32a): parent 2, expected -1 or a bone before it (0 to 0)"),
        ("width", Box::new(|f| f.textures.as_mut().unwrap()[0].width = 4), "TIMG chunk, texture 0 at offset 36 (0x24): 4x2, expected a width multiple of 8 from 8 to 504 and a height from 1 to 255"),
        ("keys", Box::new(|f| f.animations.as_mut().unwrap()[1].keys.clear()), "ANIM chunk, animation 1 at offset 896 (0x380): key_count 0, expected at least 1"),
        ("name", Box::new(|f| f.groups.as_mut().unwrap()[0].name = "caf\u{e9}".into()), "GRUP chunk, name at offset 700 (0x2bc): expected ASCII ended by a zero within 16 bytes"),
        ("timg-name", Box::new(|f| f.texture_names[0] = "OTHER.BIN".into()), "TIMG chunk, texture 0 at offset 36 (0x24): its name differs from TEXT name 0, expected the same"),
        ("bmot", Box::new(|f| f.bone_motion = Some(vec![jom_write::BoneMotion { animation: 1, bone: 0, keys: vec![jom_write::MotionKey { offset: [0; 3], scale: [0x10000, -1, 0x10000] }] }])), "BMOT chunk, track 0 key 0 at offset 1180 (0x49c): scale y is -1 (raw Q16.16), expected 0 or more (a mirror cannot be drawn)"),
        ("dup", Box::new(|f| f.extra_chunks.push((*b"PNTS", vec![0; 4]))), "PNTS chunk at offset 1156 (0x484): a second PNTS chunk (the first is at offset 156 (0x9c)), expected one"),
    ];
    for (name, break_it, message) in cases {
        let mut file = fixtures::every_chunk();
        break_it(&mut file);
        let path = dir.path().join(format!("{name}.jom"));
        std::fs::write(&path, file.to_bytes()).unwrap();
        for args in [&["info"][..], &["info", "--json"][..]] {
            let output = jomc(args, &path);
            assert_eq!(output.status.code(), Some(1), "{name}");
            assert!(
                output.stdout.is_empty(),
                "{name}: stdout {:?}",
                String::from_utf8_lossy(&output.stdout)
            );
            let stderr = String::from_utf8(output.stderr).unwrap();
            assert_eq!(
                stderr,
                format!("jomc: {}: {message}\n", path.display()),
                "{name}"
            );
        }
    }
}

#[test]
fn bone_motion_is_shown_as_text_and_json() {
    let info = json_of(&fixture("motion.jom"));
    assert_eq!(info["bone_motion"].as_array().unwrap().len(), 3);
    assert_eq!(
        info["bone_motion"][0],
        json!({"animation": 0, "bone": 1, "keys": [
            {"offset": [0.0, 0.0, 0.0], "scale": [1.0, 1.0, 1.0]},
            {"offset": [0.0, -0.5, 0.0], "scale": [0.5, 2.0, 1.0]},
            {"offset": [1.0, 0.0, 0.0], "scale": [0.0, 1.0, 1.0]}
        ]})
    );
    assert_eq!(info["chunks"][13]["tag"], "BMOT");
    let output = jomc(&["info"], &fixture("motion.jom"));
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "bone motion (3 tracks: offsets and scales, BMOT):",
        "  animation 0 (walk) bone 1 (spike):",
        "    key 1: offset (0, -0.5, 0) scale (0.5, 2, 1)",
        "  animation 2 (walk) bone 0 (root):",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
}

#[test]
fn unreadable_and_truncated_files() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.jom");
    let output = jomc(&["info"], &missing);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.jom: No such file"));
    let bytes = std::fs::read(fixture("every_chunk.jom")).unwrap();
    let cut = dir.path().join("cut.jom");
    std::fs::write(&cut, &bytes[..1000]).unwrap();
    let output = jomc(&["info"], &cut);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ANIM chunk at offset 856 (0x358): size 280 goes past the end of the file (only 136 bytes follow its header)"), "{stderr}");
}
