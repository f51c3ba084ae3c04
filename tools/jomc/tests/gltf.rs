//! `jomc convert` of glTF files: Blender's own exports (tools/blender/rig_scene.py) posed
//! through the engine against Blender's own posed geometry, the real oracle glTFs of
//! ../shared/samples/cmb, and malformed files.

mod common;

use base64::Engine as _;
use jom::format::{MaterialFlags, TexturePixels};
use jom::math::Matrix;
use jom::Model;
use jom_write::AlignedBytes;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn jomc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("jomc runs")
}

/// Converts `input` in `dir` to `output` with `args`, failing the test on an error.
fn convert(dir: &Path, input: &str, output: &str, args: &[&str]) -> (AlignedBytes, String) {
    let result = jomc(dir, &[&["convert", input, "-o", output], args].concat());
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let bytes = std::fs::read(dir.join(output)).expect("output");
    (
        AlignedBytes::new(&bytes),
        String::from_utf8_lossy(&result.stdout).into_owned(),
    )
}

fn model(bytes: &AlignedBytes) -> Model<'_> {
    Model::from_bytes(bytes.bytes()).expect("the engine reads the converted file")
}

/// The directory Blender wrote the test scene into, made once; `None` without Blender.
fn blender_scene() -> Option<&'static Path> {
    static SCENE: OnceLock<Option<tempfile::TempDir>> = OnceLock::new();
    SCENE
        .get_or_init(|| {
            let path = format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default());
            let found = Command::new("sh")
                .args(["-c", "command -v blender"])
                .env("PATH", &path)
                .output()
                .is_ok_and(|o| o.status.success());
            if !found {
                return None;
            }
            let dir = tempfile::tempdir().expect("temporary directory");
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blender/rig_scene.py");
            let run = Command::new("blender")
                .args(["-b", "--factory-startup", "--python"])
                .arg(&script)
                .arg("--")
                .arg(dir.path())
                .env("PATH", &path)
                .output()
                .expect("blender runs");
            assert!(
                run.status.success() && dir.path().join("frames.txt").exists(),
                "blender failed: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            Some(dir)
        })
        .as_ref()
        .map(|d| d.path())
}

macro_rules! blender_or_skip {
    () => {
        match blender_scene() {
            Some(dir) => dir,
            None => {
                test_skip::skip("blender is not installed (ci/setup.sh blender)");
                return;
            }
        }
    };
}

/// The `v` lines of an OBJ file, in the Saturn's axes (Blender exports Y up like glTF).
fn obj_points(path: &Path) -> Vec<[f64; 3]> {
    std::fs::read_to_string(path)
        .expect("posed OBJ")
        .lines()
        .filter_map(|line| line.strip_prefix("v "))
        .map(|rest| {
            let v: Vec<f64> = rest
                .split_whitespace()
                .map(|w| w.parse().unwrap())
                .collect();
            [v[0], -v[1], -v[2]]
        })
        .collect()
}

/// Every point of `model` where the engine draws it at `ticks` of animation `name`: each
/// group's points through its bone's matrix, the others through the root matrix.
fn posed_points(model: &Model<'_>, name: &str, ticks: u32) -> Vec<[f64; 3]> {
    let animation = model.animations().find(name).expect("the animation");
    let pose = jom::anim::pose_at(&animation, model.bones().len(), ticks);
    let mut matrices = [Matrix::IDENTITY; jom::format::MAX_BONES];
    jom::anim::bone_matrices(model, &pose, &mut matrices);
    let root = jom::anim::root_matrix(&pose);
    let points = model.points();
    (0..points.len())
        .map(|p| {
            let group = model.groups().iter().position(|g| g.points().contains(&p));
            let bone = group.and_then(|g| {
                model
                    .bones()
                    .iter()
                    .position(|b| b.group() == Some(g as u16))
            });
            let matrix = bone.map_or(&root, |b| &matrices[b]);
            matrix
                .apply(points[p].raw())
                .map(|c| f64::from(c) / 65536.0)
        })
        .collect()
}

/// The largest distance from a point of either set to the nearest point of the other.
fn set_distance(a: &[[f64; 3]], b: &[[f64; 3]]) -> f64 {
    let nearest = |p: &[f64; 3], set: &[[f64; 3]]| {
        set.iter()
            .map(|q| (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>().sqrt())
            .fold(f64::INFINITY, f64::min)
    };
    let one_way =
        |x: &[[f64; 3]], y: &[[f64; 3]]| x.iter().map(|p| nearest(p, y)).fold(0.0, f64::max);
    one_way(a, b).max(one_way(b, a))
}

#[test]
fn blender_gltf_poses_match_blender_at_every_tested_frame() {
    let dir = blender_or_skip!();
    let (bytes, summary) = convert(dir, "rig.glb", "rig.jom", &["--embed-textures"]);
    assert!(
        summary.contains("68 triangles paired into 34 quads, 0 triangles left"),
        "{summary}"
    );
    let model = model(&bytes);
    // body, arm, tail, tip, and a bone following body for the tail's body rings (the
    // torso is body's first group).
    assert_eq!(model.bones().len(), 5);
    assert!(
        !model.bone_motion().tracks().is_empty(),
        "Swing_loop moves and stretches bones"
    );
    let size = 2.0 * model.radius().to_num::<f64>();
    let frames = std::fs::read_to_string(dir.join("frames.txt")).unwrap();
    let mut checked = 0;
    for line in frames.lines() {
        let (action, frame) = line.split_once(' ').unwrap();
        let frame: u32 = frame.parse().unwrap();
        // 24 frames a second, 60 ticks a second.
        assert_eq!(frame * 60 % 24, 0, "the tested frames fall on whole ticks");
        let ours = posed_points(&model, action, frame * 60 / 24);
        let blender = obj_points(&dir.join(format!("pose_{action}_{frame}.obj")));
        assert_eq!(ours.len(), blender.len(), "{action} {frame}");
        let distance = set_distance(&ours, &blender);
        eprintln!("{action} frame {frame}: largest distance {distance:.5} (size {size:.3})");
        assert!(
            distance <= 0.01 * size,
            "{action} frame {frame}: a point is {distance} from Blender's (size {size})"
        );
        checked += 1;
    }
    assert_eq!(checked, 10);
    let looped: Vec<bool> = model
        .animations()
        .records()
        .iter()
        .map(|a| a.is_looped())
        .collect();
    assert_eq!(looped, [true, false], "Swing_loop loops, Wave does not");
}

/// A skinned lower level of detail (`Tail_LOD1`, skinned to the model's armature) keeps
/// the model's skeleton and groups, and the engine poses it where Blender does; one skinned
/// to another armature is refused, naming its node.
#[test]
fn a_skinned_lower_level_poses_as_blender_places_it() {
    let dir = blender_or_skip!();
    let (whole, _) = convert(dir, "rig.glb", "whole.jom", &[]);
    let (bytes, _) = convert(dir, "rig_lod.glb", "lod.jom", &[]);
    let (whole, model) = (model(&whole), model(&bytes));
    // The model itself is the scene without the level.
    let raw = |m: &Model<'_>| -> Vec<[i32; 3]> { m.points().iter().map(|p| p.raw()).collect() };
    assert_eq!(raw(&model), raw(&whole));
    let groups = |m: &Model<'_>| -> Vec<(String, usize, usize)> {
        m.groups()
            .iter()
            .map(|g| {
                (
                    g.name().as_str().to_string(),
                    g.points().len(),
                    g.polygons().len(),
                )
            })
            .collect()
    };
    assert_eq!(groups(&model), groups(&whole));
    let lower = model.level(1).expect("level 1");
    // Three rings of four points, one per bone, in the tail's groups (named after the
    // joints, as the model's); the torso and the arm have no part in it.
    let counts: Vec<(usize, usize)> = groups(&lower).iter().map(|g| (g.1, g.2)).collect();
    let names: Vec<String> = groups(&lower).into_iter().map(|g| g.0).collect();
    assert_eq!(names, ["body", "tail", "tip", "Arm", "Torso"]);
    assert_eq!(counts, [(4, 5), (4, 4), (4, 1), (0, 0), (0, 0)]);
    let size = 2.0 * model.radius().to_num::<f64>();
    let frames = std::fs::read_to_string(dir.join("frames.txt")).unwrap();
    for line in frames.lines() {
        let (action, frame) = line.split_once(' ').unwrap();
        let frame: u32 = frame.parse().unwrap();
        let ours = posed_points(&lower, action, frame * 60 / 24);
        let blender = obj_points(&dir.join(format!("pose_lod_{action}_{frame}.obj")));
        assert_eq!(ours.len(), blender.len(), "{action} {frame}");
        let distance = set_distance(&ours, &blender);
        assert!(
            distance <= 0.01 * size,
            "{action} frame {frame}: a point of level 1 is {distance} from Blender's"
        );
    }
    let refused = jomc(dir, &["convert", "rig_lod_other.glb", "-o", "other.jom"]);
    assert_eq!(refused.status.code(), Some(1));
    let error = String::from_utf8_lossy(&refused.stderr);
    assert!(
        error.contains("mesh node Tail_LOD1 (level of detail 1) has a part body_LOD1")
            && error.contains("skinned to the model's own armature"),
        "{error}"
    );
    assert!(!dir.join("other.jom").exists(), "no output on error");
}

/// The group whose point range holds point `p`, if any.
fn group_of_point(model: &Model<'_>, p: usize) -> Option<usize> {
    model.groups().iter().position(|g| g.points().contains(&p))
}

#[test]
fn a_skinned_mesh_whose_faces_span_bones_stays_closed() {
    let dir = blender_or_skip!();
    let (bytes, _) = convert(dir, "rig.glb", "closed.jom", &[]);
    let model = model(&bytes);
    // Each Blender vertex is one point, whatever the glTF split (per face normals), and
    // no two points are at one place: the seams between the tail's bones are not doubled.
    let points: Vec<[i32; 3]> = model.points().iter().map(|p| p.raw()).collect();
    assert_eq!(points.len(), obj_points(&dir.join("rig.obj")).len());
    let distinct: std::collections::HashSet<[i32; 3]> = points.iter().copied().collect();
    assert_eq!(distinct.len(), points.len(), "two points at one position");
    // Closed: every edge of every polygon is shared by exactly two polygons.
    let mut edges: std::collections::HashMap<(u16, u16), usize> = Default::default();
    for polygon in model.polygons() {
        let corners = polygon.corners();
        for i in 0..4 {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            if a != b {
                *edges.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
    }
    let open: Vec<_> = edges.iter().filter(|(_, &n)| n != 2).collect();
    assert!(open.is_empty(), "edges not used by two polygons: {open:?}");
    // The tail's seam polygons use the points of two groups (two bones).
    let spanning = model
        .polygons()
        .iter()
        .filter(|p| {
            let groups: std::collections::HashSet<_> = p
                .corners()
                .iter()
                .map(|&c| group_of_point(&model, usize::from(c)))
                .collect();
            groups.len() > 1
        })
        .count();
    assert_eq!(spanning, 8, "two seams of four quads");
    // Every point is in one group's range (a bone moves it): the ranges cover the points
    // without overlapping.
    assert!((0..points.len()).all(|p| group_of_point(&model, p).is_some()));
    let covered: usize = model.groups().iter().map(|g| g.points().len()).sum();
    assert_eq!(covered, points.len());
}

#[test]
fn blender_gltf_quads_materials_and_textures() {
    let dir = blender_or_skip!();
    // Texels exactly as baked.
    let exact = common::EXACT_TEXELS;
    let (bytes, _) = convert(dir, "rig.glb", "rig.jom", &exact);
    let model = model(&bytes);
    // Two boxes and the tail's 22 quads: Blender cut each into two triangles.
    assert_eq!(model.polygons().len(), 34);
    assert!(model.polygons().iter().all(|p| !p.is_triangle()));
    let skin = model
        .materials()
        .iter()
        .find(|m| m.name().as_str().starts_with("Skin"))
        .expect("Skin");
    let flags = skin.flags();
    assert!(flags.contains(MaterialFlags::LIGHT) && !flags.contains(MaterialFlags::DUAL_PLANE));
    assert_eq!(flags.sort_mode(), jom::format::SortMode::Min);
    let plain = model
        .materials()
        .iter()
        .find(|m| m.name().as_str() == "Plain")
        .expect("Plain");
    assert!(plain.flags().contains(MaterialFlags::DUAL_PLANE));
    assert_eq!(plain.flags().user_bits(), (1 << 1) | (1 << 3));
    assert_eq!(plain.texture(), None);
    // Every texel of Skin's textures comes from Blender's atlas (PNG); Paint's from its
    // one-colour JPEG, (0.2, 0.4, 0.8), give or take the JPEG's rounding.
    let atlas = decode_png(&dir.join("atlas.png"));
    let colours: std::collections::HashSet<u16> = atlas.iter().map(|&p| rgb555(p)).collect();
    let paint = rgb555([51, 102, 204, 255]);
    let textures: Vec<_> = model.textures().expect("embedded").iter().collect();
    let mut seen = [0; 2];
    for material in model.materials() {
        let Some(texture) = material.texture() else {
            continue;
        };
        let TexturePixels::Rgb555(pixels) = textures[usize::from(texture)].pixels else {
            panic!("RGB 555 expected");
        };
        let name = material.name().as_str();
        if name.starts_with("Skin") {
            assert!(
                pixels.iter().all(|p| colours.contains(&p.get().0)),
                "{name}"
            );
            seen[0] += 1;
        } else if name.starts_with("Paint") {
            let close = |p: u16| {
                (0..3).all(|c| ((p >> (5 * c)) & 31).abs_diff((paint >> (5 * c)) & 31) <= 1)
            };
            assert!(pixels.iter().all(|p| close(p.get().0)), "{name}");
            seen[1] += 1;
        }
    }
    assert!(
        seen[0] > 0 && seen[1] > 0,
        "textured Skin and Paint: {seen:?}"
    );
}

#[test]
fn the_blender_model_renders_animated() {
    let dir = blender_or_skip!();
    convert(dir, "rig.glb", "anim.jom", &["--embed-textures"]);
    let render = jomc(
        dir,
        &[
            "render", "anim.jom", "-o", "anim.png", "--anim", "Wave", "--frames", "4",
        ],
    );
    assert!(
        render.status.success(),
        "{}",
        String::from_utf8_lossy(&render.stderr)
    );
    assert!(dir.join("anim.png").exists());
}

#[test]
fn separate_gltf_files_convert_like_the_glb() {
    let dir = blender_or_skip!();
    let (glb, _) = convert(dir, "rig.glb", "a.jom", &["--embed-textures"]);
    let (separate, _) = convert(dir, "rig_separate.gltf", "b.jom", &["--embed-textures"]);
    assert_eq!(glb.bytes(), separate.bytes());
}

#[test]
fn blender_obj_pairs_with_quads_and_keep_triangles_keeps_gltf_triangles() {
    let dir = blender_or_skip!();
    let (triangles, summary) = convert(dir, "rig.glb", "t.jom", &["--keep-triangles"]);
    assert!(!summary.contains("paired"), "{summary}");
    assert_eq!(model(&triangles).polygons().len(), 68);
    let (obj, summary) = convert(dir, "rig.obj", "o.jom", &["--quads"]);
    assert!(summary.contains("0 triangles paired"), "{summary}");
    assert_eq!(model(&obj).polygons().len(), 34);
}

#[test]
fn rotations_only_warns_with_the_largest_error() {
    let dir = blender_or_skip!();
    let result = jomc(
        dir,
        &["convert", "rig.glb", "-o", "r.jom", "--rotations-only"],
    );
    assert!(result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("warning"), "{stderr}");
    let bytes = AlignedBytes::new(&std::fs::read(dir.join("r.jom")).unwrap());
    assert!(model(&bytes).bone_motion().tracks().is_empty());
}

fn decode_png(path: &Path) -> Vec<[u8; 4]> {
    let mut decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgba);
    buffer[..info.buffer_size()]
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

fn rgb555([r, g, b, _]: [u8; 4]) -> u16 {
    let c = |v: u8| (u16::from(v) * 31 + 127) / 255;
    0x8000 | (c(b) << 10) | (c(g) << 5) | c(r)
}

/// The oracle glTFs of ../shared/samples/cmb (FinModelUtility's conversions of real CMB
/// models: not drawn here, their baked textures outnumber `jomc render`'s table of 64); their images are named in the glTF without the `_00` of the files beside it,
/// so each is copied with its image under that name into a temporary directory.
fn oracle(
    folder: &str,
    glb: &str,
    image: &str,
    named: &str,
) -> Option<(tempfile::TempDir, String)> {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples/cmb");
    let source: PathBuf = samples.join(folder);
    if !source.join(glb).exists() {
        test_skip::skip(&format!("../shared/samples/cmb/{folder}/{glb} absent"));
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(glb),
        std::fs::read(source.join(glb)).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join(named),
        std::fs::read(source.join(image)).unwrap(),
    )
    .unwrap();
    Some((dir, glb.to_string()))
}

#[test]
fn the_oracle_gltfs_convert_and_pose() {
    let cases = [
        ("oot3d_cow", "cow.glb", "cow_00.png", "cow.png", 10, 4),
        (
            "lm3ds_gel",
            "Luigi_2p_gel.glb",
            "Luigi_2p_gel_00.png",
            "Luigi_2p_gel.png",
            2,
            4,
        ),
    ];
    for (folder, glb, image, named, bones, animations) in cases {
        let Some((dir, glb)) = oracle(folder, glb, image, named) else {
            continue;
        };
        let (bytes, summary) = convert(dir.path(), &glb, "m.jom", &["--embed-textures"]);
        assert!(summary.contains("triangles paired into"), "{summary}");
        let model = model(&bytes);
        assert_eq!(model.bones().len(), bones, "{glb}");
        assert_eq!(model.animations().len(), animations, "{glb}");
        assert!(model.textures().is_some_and(|t| !t.is_empty()), "{glb}");
        let radius = model.radius().to_num::<f64>();
        for animation in model.animations().iter() {
            let name = animation.name().as_str().to_string();
            let record = &model.animations().records()[model
                .animations()
                .iter()
                .position(|a| a.name().as_str() == name)
                .unwrap()];
            let length = u32::from(record.key_count()) * u32::from(record.key_ticks());
            for ticks in [0, length / 3, length / 2] {
                let points = posed_points(&model, &name, ticks);
                assert!(
                    points
                        .iter()
                        .flatten()
                        .all(|c| c.abs() < 4.0 * radius + 1000.0),
                    "{glb} {name} {ticks}: a point flew off"
                );
            }
        }
    }
}

/// A one-triangle glTF whose buffer is a data URI, with `patch` applied to its JSON.
fn triangle_gltf(patch: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut data = Vec::new();
    for p in [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        for c in p {
            data.extend_from_slice(&c.to_le_bytes());
        }
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&data)
    );
    let mut json = serde_json::json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "tri", "mesh": 0}],
        "meshes": [{"name": "tri", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "buffers": [{"byteLength": 36, "uri": uri}]
    });
    patch(&mut json);
    json.to_string()
}

/// Converts `text` as model.gltf and expects one error line, status 1, no output.
fn gltf_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.gltf"), text).unwrap();
    let result = jomc(dir.path(), &["convert", "model.gltf", "-o", "model.jom"]);
    assert_eq!(result.status.code(), Some(1), "expected a failure");
    assert!(
        !dir.path().join("model.jom").exists(),
        "an output file was left"
    );
    let stderr = String::from_utf8(result.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn a_minimal_gltf_converts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.gltf"), triangle_gltf(|_| {})).unwrap();
    let (bytes, summary) = convert(dir.path(), "model.gltf", "m.jom", &[]);
    assert!(
        summary.contains("1 polygons") && summary.contains("0 triangles paired"),
        "{summary}"
    );
    let model = model(&bytes);
    // glTF's (0, 1, 0) is the Saturn's (0, -1, 0).
    let points: Vec<[i32; 3]> = model.points().iter().map(|p| p.raw()).collect();
    assert!(points.contains(&[0, -0x10000, 0]), "{points:?}");
}

#[test]
fn bad_gltf_files_get_one_error_naming_the_json_path() {
    let cases: Vec<(String, &str)> = vec![
        ("{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [".into(), "model.gltf: bad glTF JSON at line 1"),
        (
            triangle_gltf(|j| j["accessors"][0]["count"] = 4.into()),
            "model.gltf: accessors[0]: POSITION of meshes[0].primitives[0]: 4 elements",
        ),
        (
            triangle_gltf(|j| j["buffers"][0]["uri"] = "gone.bin".into()),
            "model.gltf: buffers[0]: uri gone.bin:",
        ),
        (
            triangle_gltf(|j| {
                j["extensionsUsed"] = serde_json::json!(["KHR_draco_mesh_compression"]);
                j["extensionsRequired"] = serde_json::json!(["KHR_draco_mesh_compression"]);
            }),
            "model.gltf: extensionsRequired[0] = \"KHR_draco_mesh_compression\": Unsupported extension",
        ),
        (
            triangle_gltf(|j| j["meshes"][0]["primitives"][0]["mode"] = 1.into()),
            "model.gltf: meshes[0].primitives[0]: mesh tri: mode Lines is not read",
        ),
        (
            triangle_gltf(|j| j["nodes"][0]["mesh"] = 3.into()),
            "model.gltf: nodes[0].mesh:",
        ),
    ];
    for (text, expected) in cases {
        let error = gltf_error(&text);
        assert!(
            error.starts_with(&format!("jomc: {expected}")),
            "{error}\nexpected {expected}"
        );
    }
}

#[test]
fn other_binary_input_says_which_formats_are_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.tga"), [0u8, 0xFF, 0xFE, 7]).unwrap();
    let result = jomc(dir.path(), &["convert", "model.tga", "-o", "m.jom"]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(
        stderr.contains(
            "expected Wavefront OBJ (.obj), glTF 2.0 (.gltf, .glb), PlayStation TMD (.tmd) \
             or 3DS CMB (.cmb)"
        ),
        "{stderr}"
    );
}

/// A 16 x 8 PNG: the left half opaque red, the right half blue with alpha 200 on even
/// rows and 100 on odd ones.
fn half_and_half_png() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 16, 8);
    encoder.set_color(png::ColorType::Rgba);
    let mut writer = encoder.write_header().unwrap();
    let data: Vec<u8> = (0..8u32)
        .flat_map(|y| (0..16u32).map(move |x| (x, y)))
        .flat_map(|(x, y)| match (x < 8, y % 2) {
            (true, _) => [255, 0, 0, 255],
            (false, 0) => [0, 0, 255, 200],
            (false, _) => [0, 0, 255, 100],
        })
        .collect();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    bytes
}

#[test]
fn gltf_materials_alpha_mask_texture_transform_and_extras() {
    let png = base64::engine::general_purpose::STANDARD.encode(half_and_half_png());
    let text = triangle_gltf(|j| {
        // Texture coordinates (0, 0), (1, 0), (0, 1), after the buffer's positions.
        let uri = j["buffers"][0]["uri"].as_str().unwrap().to_string();
        let (head, data) = uri.split_once(',').unwrap();
        let mut bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        for c in [0.0f32, 0.0, 1.0, 0.0, 0.0, 1.0] {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        j["buffers"][0] = serde_json::json!({"byteLength": 60, "uri": format!("{head},{encoded}")});
        let push = |array: &mut serde_json::Value, item| array.as_array_mut().unwrap().push(item);
        push(
            &mut j["bufferViews"],
            serde_json::json!({"buffer": 0, "byteOffset": 36, "byteLength": 24}),
        );
        push(
            &mut j["accessors"],
            serde_json::json!({"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}),
        );
        j["meshes"][0]["primitives"][0]["attributes"]["TEXCOORD_0"] = 1.into();
        j["meshes"][0]["primitives"][0]["material"] = 0.into();
        j["extensionsUsed"] = serde_json::json!(["KHR_texture_transform"]);
        j["images"] =
            serde_json::json!([{"name": "halves", "uri": format!("data:image/png;base64,{png}")}]);
        j["textures"] = serde_json::json!([{"source": 0}]);
        j["materials"] = serde_json::json!([{
            "name": "masked",
            "alphaMode": "MASK",
            "alphaCutoff": 0.6,
            "doubleSided": true,
            "extras": {"jo_flip": "hv", "jo_dual": 0, "jo_user": [2, 5], "other": "kept out"},
            "pbrMetallicRoughness": {"baseColorTexture": {"index": 0, "extensions": {
                "KHR_texture_transform": {"offset": [0.5, 0], "scale": [0.5, 1]}}}}
        }]);
    });
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.gltf"), text).unwrap();
    let exact = common::EXACT_TEXELS;
    let (bytes, _) = convert(dir.path(), "model.gltf", "m.jom", &exact);
    let model = model(&bytes);
    let material = &model.materials()[0];
    let flags = material.flags();
    assert!(flags.contains(MaterialFlags::FLIP_H) && flags.contains(MaterialFlags::FLIP_V));
    assert!(
        !flags.contains(MaterialFlags::DUAL_PLANE),
        "jo_dual 0 wins over doubleSided"
    );
    assert_eq!(flags.user_bits(), (1 << 2) | (1 << 5));
    // The transform maps the triangle onto the right (blue) half; under the cutoff is
    // transparent.
    let textures: Vec<_> = model.textures().expect("embedded").iter().collect();
    let TexturePixels::Rgb555(pixels) = textures[usize::from(material.texture().unwrap())].pixels
    else {
        panic!("RGB 555 expected");
    };
    let blue = rgb555([0, 0, 255, 255]);
    let values: Vec<u16> = pixels.iter().map(|p| p.get().0).collect();
    assert!(values.iter().all(|&p| p == blue || p == 0), "{values:x?}");
    assert!(values.contains(&blue) && values.contains(&0), "{values:x?}");
}

/// The one-triangle glTF with `nodes` mesh nodes, each moved by one channel of an
/// animation "slide": a STEP translation from (0, 0, 0) to (1, 0, 0) at 1 s.
fn sliding_gltf(nodes: usize) -> String {
    triangle_gltf(|j| {
        let uri = j["buffers"][0]["uri"].as_str().unwrap().to_string();
        let (head, data) = uri.split_once(',').unwrap();
        let mut bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .unwrap();
        for c in [0.0f32, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0] {
            bytes.extend_from_slice(&c.to_le_bytes());
        }
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        j["buffers"][0] = serde_json::json!({"byteLength": 68, "uri": format!("{head},{encoded}")});
        let views = j["bufferViews"].as_array_mut().unwrap();
        views.push(serde_json::json!({"buffer": 0, "byteOffset": 36, "byteLength": 8}));
        views.push(serde_json::json!({"buffer": 0, "byteOffset": 44, "byteLength": 24}));
        let accessors = j["accessors"].as_array_mut().unwrap();
        accessors.push(
            serde_json::json!({"bufferView": 1, "componentType": 5126, "count": 2,
                                          "type": "SCALAR", "min": [0], "max": [1]}),
        );
        accessors.push(
            serde_json::json!({"bufferView": 2, "componentType": 5126, "count": 2,
                                          "type": "VEC3"}),
        );
        j["nodes"] = (0..nodes)
            .map(|i| serde_json::json!({"name": format!("part{i}"), "mesh": 0}))
            .collect();
        j["scenes"][0]["nodes"] = (0..nodes).collect();
        j["animations"] = serde_json::json!([{
            "name": "slide",
            "samplers": [{"input": 1, "output": 2, "interpolation": "STEP"}],
            "channels": (0..nodes)
                .map(|i| serde_json::json!({"sampler": 0, "target": {"node": i, "path": "translation"}}))
                .collect::<Vec<_>>()
        }]);
    })
}

#[test]
fn an_animated_node_is_a_bone_sampled_every_key_ticks() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.gltf"), sliding_gltf(1)).unwrap();
    let (bytes, _) = convert(dir.path(), "model.gltf", "m.jom", &[]);
    let slid = model(&bytes);
    assert_eq!(slid.bones().len(), 1);
    assert_eq!(slid.bones()[0].group(), Some(0));
    let record = &slid.animations().records()[0];
    // 1 s at the default 2 ticks a key: keys at 0, 2, ..., 60 ticks.
    assert_eq!(
        (record.key_count(), record.key_ticks(), record.is_looped()),
        (31, 2, false)
    );
    let slide = slid.animations().find("slide").unwrap();
    let at = |ticks| jom::anim::pose_at(&slide, 1, ticks).root;
    // STEP: nothing until the key at 1 s, then the whole move (the root's offset).
    assert_eq!(at(58), [0, 0, 0]);
    assert_eq!(at(60), [0x10000, 0, 0]);
    let (bytes, _) = convert(
        dir.path(),
        "model.gltf",
        "m.jom",
        &["--key-ticks", "15", "--loop", "slide"],
    );
    let looped = model(&bytes);
    let record = &looped.animations().records()[0];
    assert_eq!(
        (record.key_count(), record.key_ticks(), record.is_looped()),
        (4, 15, true)
    );
}

#[test]
fn more_than_32_bones_is_an_error_giving_the_count() {
    let error = gltf_error(&sliding_gltf(33));
    assert!(
        error.starts_with("jomc: model.gltf: the model needs 33 bones"),
        "{error}"
    );
}
