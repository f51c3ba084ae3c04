//! `jomc convert MODEL.TMD [--tod ...] [--tim ...]` end to end: models made by the test
//! writer from Sony's manual, then Sony's own samples (../shared/samples/psx, skipped when
//! absent) posed by the engine's animation code against the TOD player.

#[path = "../../psx-formats/tests/writer/mod.rs"]
mod writer;

use jom::anim::{bone_matrices, pose_at};
use jom::format::{MaterialFlags, MAX_BONES};
use jom::math::Matrix;
use jom::Model;
use jom_write::AlignedBytes;
use psx_formats::player::{self, Player, Pose};
use psx_formats::tod;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use writer::packet::{self, rst};
use writer::{Block, Object, Polygon};

/// A directory of input files.
struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("temporary directory"),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> &Self {
        std::fs::write(self.path(name), bytes).expect("write input");
        self
    }

    /// `jomc convert ARGS -o out.jom` in the case's directory.
    fn convert(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_jomc"))
            .current_dir(self.dir.path())
            .arg("convert")
            .args(args)
            .args(["-o", "out.jom"])
            .output()
            .expect("jomc runs")
    }

    fn converted(&self, args: &[&str]) -> (AlignedBytes, String) {
        let output = self.convert(args);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(output.status.success(), "{stderr}");
        let bytes = std::fs::read(self.path("out.jom")).expect("output");
        (AlignedBytes::new(&bytes), stderr)
    }

    /// Expects a failure: status 1, one line, no output file.
    fn error(&self, args: &[&str]) -> String {
        let output = self.convert(args);
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(
            output.status.code(),
            Some(1),
            "expected a failure: {stderr}"
        );
        assert!(!self.path("out.jom").exists(), "an output file was left");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        stderr.trim_end().to_string()
    }
}

fn model(bytes: &AlignedBytes) -> Model<'_> {
    Model::from_bytes(bytes.bytes()).expect("the engine reads the file")
}

const GOURAUD: u8 = 0x10;
const QUAD: u8 = 0x08;
const TEXTURED: u8 = 0x04;
const SEMI: u8 = 0x02;
const UNLIT: u8 = 1;
const DOUBLE: u8 = 2;
const GRADATION: u8 = 4;

/// A unit square of 4 points (z = 0) and a point in front of it.
fn square_object(primitives: Vec<Vec<u8>>) -> Object {
    Object {
        vertices: vec![
            [0, 0, 0],
            [64, 0, 0],
            [0, 64, 0],
            [64, 64, 0],
            [32, 32, -16],
        ],
        normals: vec![[0, 0, -4096]],
        primitives,
        scale: 0,
    }
}

fn flat_triangle(flag: u8, mode: u8, color: [u8; 3]) -> Vec<u8> {
    Polygon {
        mode: 0x20 | mode,
        flag,
        vertices: vec![0, 2, 1],
        normals: if flag & UNLIT == 0 { vec![0] } else { vec![] },
        colors: vec![color],
        ..Polygon::default()
    }
    .packet()
}

#[test]
fn polygons_become_faces_with_their_materials_and_groups() {
    let gradation_quad = Polygon {
        mode: 0x20 | QUAD,
        flag: GRADATION | DOUBLE,
        vertices: vec![0, 1, 2, 3],
        normals: vec![0],
        colors: vec![[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]],
        ..Polygon::default()
    };
    let line = writer::raw_primitive(2, 1, 0x40, &[0x40ff_ffff, 0x0001_0000]);
    let case = Case::new();
    case.file(
        "m.tmd",
        &writer::tmd(&[
            square_object(vec![flat_triangle(0, SEMI, [255, 128, 0]), line]),
            square_object(vec![
                gradation_quad.packet(),
                flat_triangle(UNLIT, 0, [0, 0, 255]),
            ]),
        ]),
    );
    let (bytes, stderr) = case.converted(&["m.tmd"]);
    assert!(stderr.contains("1 lines and sprites left out"), "{stderr}");
    let m = model(&bytes);
    assert_eq!(m.polygons().len(), 3);
    let names: Vec<&str> = m.groups().iter().map(|g| g.name().as_str()).collect();
    assert_eq!(names, ["object1", "object2"]);
    let flags: Vec<MaterialFlags> = m.materials().iter().map(|mat| mat.flags()).collect();
    let half = MaterialFlags::LIGHT | MaterialFlags::HALF_TRANSPARENT;
    assert!(flags.contains(&half), "{flags:?}");
    assert!(flags
        .contains(&(MaterialFlags::LIGHT | MaterialFlags::DUAL_PLANE | MaterialFlags::GOURAUD)));
    assert!(
        flags.contains(&MaterialFlags::default()),
        "the unlit triangle: no flag"
    );
    // The quad's outline is V0 V1 V3 V2: (0,0) (64,0) (64,64) (0,64), clockwise on a Y-down
    // screen: its normal faces -Z as the TMD's does.
    let quad = m.polygons().iter().find(|p| {
        p.corners()
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len()
            == 4
    });
    let quad = quad.expect("a quad");
    let position = |i: u16| m.points()[usize::from(i)].get().map(|c| c.to_num::<f64>());
    let outline: Vec<[f64; 3]> = quad.corners().iter().map(|&c| position(c)).collect();
    assert_eq!(
        outline,
        [
            [0.0, 0.0, 0.0],
            [64.0, 0.0, 0.0],
            [64.0, 64.0, 0.0],
            [0.0, 64.0, 0.0]
        ]
    );
    assert!(quad.normal().get()[2].to_num::<f64>() < -0.99);
    // The gradation's corner colours in GOUR: red, green, white, blue (outline order).
    let gour = m.gouraud().expect("GOUR");
    let index = m
        .polygons()
        .iter()
        .position(|p| std::ptr::eq(p, quad))
        .unwrap();
    let corners: Vec<[u8; 3]> = gour[4 * index..4 * index + 4]
        .iter()
        .map(|g| {
            let c = g.get();
            [c.r(), c.g(), c.b()]
        })
        .collect();
    assert_eq!(corners, [[16, 0, 0], [0, 16, 0], [16, 16, 16], [0, 0, 16]]);
}

fn samples() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples/psx");
    if dir.is_dir() {
        Some(dir)
    } else {
        test_skip::skip("../shared/samples/psx absent");
        None
    }
}

/// The poses the player gives every frame of `tods`, played in order, per TOD.
fn libgs_poses(tods: &[PathBuf]) -> Vec<Vec<Pose>> {
    let mut player = Player::new();
    tods.iter()
        .map(|path| {
            let tod = tod::read(&std::fs::read(path).expect("TOD")).expect("reads");
            let played = player.play(&tod).expect("plays");
            // One pose per frame number: a skipped number changes nothing.
            let first = played[0].0;
            let mut poses: Vec<Pose> = Vec::new();
            for (number, pose) in played {
                if let Some(last) = poses.last().cloned() {
                    poses.resize((number - first) as usize, last);
                }
                poses.push(pose);
            }
            poses
        })
        .collect()
}

fn raw(v: [f64; 3]) -> [i32; 3] {
    v.map(|c| (c * 65536.0).round() as i32)
}

fn unraw(v: [i32; 3]) -> [f64; 3] {
    v.map(|c| f64::from(c) / 65536.0)
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

/// Converts `model` with `tods` (paths) at `scale`, then poses every point of every bone's
/// group with the engine's own animation code at every key of every animation, and
/// compares it with where the TOD player (libgs's semantics) puts it: returns the largest
/// distance as a share of the model's size (its bounding sphere's diameter).
fn posing_error(case: &Case, model_path: &Path, tods: &[PathBuf], scale: f64) -> f64 {
    let mut args: Vec<String> = vec![
        model_path.display().to_string(),
        "--scale".into(),
        scale.to_string(),
    ];
    for p in tods {
        args.extend(["--tod".to_string(), p.display().to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (bytes, _) = case.converted(&args);
    let m = model(&bytes);
    let expected = libgs_poses(tods);
    let bones = m.bones();
    let size = 2.0 * m.radius().to_num::<f64>();
    let rest = &expected[0][0];
    let mut worst: f64 = 0.0;
    let mut checked = 0;
    for (a, animation) in m.animations().iter().enumerate() {
        let stem = tods[a].file_stem().unwrap().to_str().unwrap();
        assert_eq!(animation.name().as_str(), stem);
        let frames = &expected[a];
        assert_eq!(usize::from(animation.record.key_count()), frames.len());
        for (k, frame) in frames.iter().enumerate() {
            let time = k as u32 * u32::from(animation.record.key_ticks());
            let pose = pose_at(&animation, bones.len(), time);
            let mut matrices = [Matrix::IDENTITY; MAX_BONES];
            bone_matrices(&m, &pose, &mut matrices);
            for (b, bone) in bones.iter().enumerate() {
                let Some(group) = bone.group() else { continue };
                let id: u16 = bone
                    .name()
                    .as_str()
                    .trim_start_matches("obj")
                    .parse()
                    .expect("objN");
                let skin = player::multiply(
                    &frame[&id].world,
                    &player::invert(&rest[&id].world).unwrap(),
                );
                for point in &m.points()[m.groups()[usize::from(group)].points()] {
                    let at_rest = unraw(point.get().map(|c| c.to_bits()));
                    let engine = unraw(matrices[b].apply(raw(at_rest)));
                    let libgs =
                        player::transform(&skin, at_rest.map(|c| c / scale)).map(|c| c * scale);
                    worst = worst.max(distance(engine, libgs) / size);
                    checked += 1;
                }
            }
        }
    }
    let keys: usize = expected.iter().map(Vec::len).sum();
    assert_eq!(checked, m.points().len() * keys, "every point at every key");
    worst
}

#[test]
fn the_hand_and_its_transitions_pose_as_libgs_plays_them() {
    let Some(dir) = samples() else { return };
    let case = Case::new();
    // A transition alone refers to objects that JAANKEN creates.
    let te = dir.join("TE.TMD").display().to_string();
    let alone = case.error(&[&te, "--tod", &dir.join("N_C.TOD").display().to_string()]);
    assert!(alone.contains("N_C.TOD: byte offset 16 (0x10): a packet for object 19, which no object-control packet has created"), "{alone}");
    let tods: Vec<PathBuf> = ["JAANKEN.TOD", "N_C.TOD", "C_N.TOD"]
        .map(|t| dir.join(t))
        .into();
    for scale in [1.0, 0.25] {
        let error = posing_error(&case, &dir.join("TE.TMD"), &tods, scale);
        eprintln!(
            "scale {scale}: largest error {:.6}% of the hand's size",
            error * 100.0
        );
        assert!(error < 0.001, "scale {scale}: {error}");
    }
}

/// A joint (object 3, no geometry) carrying two geometry objects (1 and 2, drawing TMD
/// objects 1 and 2), the second hanging from the first.
fn arm_tod(frames_after: Vec<(u32, Vec<Vec<u8>>)>) -> Vec<u8> {
    let mut frames = vec![(
        0,
        vec![
            packet::create(1),
            packet::create(2),
            packet::create(3),
            packet::tmd_id(1, 1),
            packet::tmd_id(2, 2),
            packet::parent(1, 3),
            packet::parent(2, 1),
            packet::parent(3, 0),
            rst(
                3,
                false,
                Some([0, 0, 0]),
                Some([4096; 3]),
                Some([100, 0, 0]),
            ),
            rst(1, false, Some([0, 90 * 4096, 0]), None, Some([0, 10, 0])),
            rst(2, false, None, None, Some([64, 0, 0])),
        ],
    )];
    frames.extend(frames_after);
    writer::tod(0, &frames)
}

fn arm_tmd() -> Vec<u8> {
    let quad = Polygon {
        mode: 0x20 | QUAD | GOURAUD,
        flag: 0,
        vertices: vec![0, 1, 2, 3],
        normals: vec![0, 0, 0, 0],
        colors: vec![[200, 200, 200]],
        ..Polygon::default()
    };
    writer::tmd(&[
        square_object(vec![quad.packet()]),
        square_object(vec![flat_triangle(0, 0, [9, 9, 9])]),
    ])
}

#[test]
fn tod_objects_become_bones_and_each_tod_an_animation() {
    let case = Case::new();
    case.file("arm.tmd", &arm_tmd());
    let turn = 15 * 4096;
    case.file(
        "wave.tod",
        &arm_tod(vec![
            (1, vec![rst(3, true, Some([0, 0, turn]), None, None)]),
            (
                2,
                vec![rst(1, true, Some([turn, 0, 0]), None, Some([0, 5, 0]))],
            ),
            (4, vec![rst(2, false, Some([0, 0, -2 * turn]), None, None)]),
        ]),
    );
    case.file(
        "back.tod",
        &writer::tod(
            3,
            &[(0, vec![rst(3, true, Some([0, 0, -turn]), None, None)])],
        ),
    );
    let (bytes, _) = case.converted(&["arm.tmd", "--tod", "wave.tod", "--tod", "back.tod"]);
    let m = model(&bytes);
    let bones: Vec<(&str, Option<u16>, Option<u16>)> = m
        .bones()
        .iter()
        .map(|b| (b.name().as_str(), b.parent(), b.group()))
        .collect();
    // Parents first; the joint moves no polygons.
    assert_eq!(
        bones,
        [
            ("obj3", None, None),
            ("obj1", Some(0), Some(0)),
            ("obj2", Some(1), Some(1))
        ]
    );
    let animations: Vec<(&str, u16, u16)> = m
        .animations()
        .iter()
        .map(|a| {
            (
                a.name().as_str(),
                a.record.key_count(),
                a.record.key_ticks(),
            )
        })
        .collect();
    // Frame numbers 0 to 4 (3 repeats 2); resolution 0 is a tick a frame.
    assert_eq!(animations, [("wave", 5, 1), ("back", 1, 3)]);
    // The points are at rest where the first frame puts them: TMD object 2's point (64, 0, 0)
    // is 64 along object 1's X (turned 90 degrees around Y: -Z), from (100, 10, 0) + (0, 0, -64).
    let group = &m.groups()[1];
    let points: Vec<[f64; 3]> = m.points()[group.points()]
        .iter()
        .map(|p| unraw(p.get().map(|c| c.to_bits())))
        .collect();
    assert!(
        points
            .iter()
            .any(|p| distance(*p, [100.0, 10.0, -128.0]) < 1e-3),
        "{points:?}"
    );
    let tods = [case.path("wave.tod"), case.path("back.tod")];
    for scale in [1.0, 3.0] {
        let error = posing_error(&case, &case.path("arm.tmd"), &tods, scale);
        assert!(error < 0.001, "scale {scale}: {error}");
    }
}

#[test]
fn bad_input_gives_one_line_naming_the_file_and_byte_and_no_output() {
    let case = Case::new();
    let mut wrong_id = arm_tmd();
    wrong_id[0] = 0x42;
    case.file("id.tmd", &wrong_id);
    assert_eq!(
        case.error(&["id.tmd"]),
        "jomc: id.tmd: byte offset 0 (0x0): ID 0x42, expected 0x41 (not a TMD file)"
    );

    let mut short = arm_tmd();
    short[12 + 2 * 28 + 1] = 4;
    case.file("ilen.tmd", &short);
    assert_eq!(
        case.error(&["ilen.tmd"]),
        "jomc: ilen.tmd: byte offset 69 (0x45): object 0 primitive 0 (mode 0x38, flag 0x00: lit gouraud quad): ilen 4, expected 5"
    );

    let bad_index = Polygon {
        mode: 0x20,
        vertices: vec![0, 1, 7],
        normals: vec![0],
        colors: vec![[1, 2, 3]],
        ..Polygon::default()
    };
    case.file(
        "index.tmd",
        &writer::tmd(&[square_object(vec![bad_index.packet()])]),
    );
    assert_eq!(
        case.error(&["index.tmd"]),
        "jomc: index.tmd: byte offset 40 (0x28): object 0 primitive 0: vertex index 7 is out of range, expected 0 to 4 (the object has 5 vertices)"
    );

    case.file("arm.tmd", &arm_tmd());
    let mut tod = arm_tod(vec![]);
    tod[8] += 1; // the frame's size in words, one more than its packets
    tod.extend([0; 4]);
    case.file("size.tod", &tod);
    let message = case.error(&["arm.tmd", "--tod", "size.tod"]);
    assert!(
        message.starts_with("jomc: size.tod: byte offset "),
        "{message}"
    );
    assert!(message.contains("expected the frame's end"), "{message}");

    let missing = writer::tod(0, &[(0, vec![packet::create(1), packet::tmd_id(1, 3)])]);
    case.file("missing.tod", &missing);
    assert_eq!(
        case.error(&["arm.tmd", "--tod", "missing.tod"]),
        "jomc: missing.tod: byte offset 20 (0x14): object 1 draws TMD ID 3, but arm.tmd has 2 objects (IDs 1 to 2)"
    );

    let killed = arm_tod(vec![(1, vec![packet::kill(2)])]);
    case.file("killed.tod", &killed);
    let message = case.error(&["arm.tmd", "--tod", "killed.tod"]);
    assert!(
        message.contains("a JOM bone cannot appear or vanish"),
        "{message}"
    );

    let textured = Polygon {
        mode: 0x20 | TEXTURED,
        vertices: vec![0, 1, 2],
        normals: vec![0],
        uvs: vec![[0, 0], [15, 0], [0, 15]],
        cba: 0x7800,
        tsb: 0x000a,
        ..Polygon::default()
    };
    case.file(
        "textured.tmd",
        &writer::tmd(&[square_object(vec![textured.packet()])]),
    );
    assert_eq!(
        case.error(&["textured.tmd"]),
        "jomc: textured.tmd: byte offset 40 (0x28): object 0 primitive 0: texel (0, 0) of its texture page at (640, 0), 4-bit, lookup table at (0, 480): no TIM image covers frame buffer word (640, 0) (give the TIM with --tim)"
    );
    // A TIM elsewhere in the frame buffer does not help.
    let tim = writer::tim(
        2,
        None,
        &Block {
            x: 0,
            y: 0,
            width: 8,
            height: 8,
            words: &[0x7fff; 64],
        },
    );
    case.file("elsewhere.tim", &tim);
    assert!(case
        .error(&["textured.tmd", "--tim", "elsewhere.tim"])
        .contains("no TIM image covers frame buffer word (640, 0)"));
    let mut bad_tim = tim.clone();
    bad_tim[0] = 0x11;
    case.file("bad.tim", &bad_tim);
    assert_eq!(
        case.error(&["textured.tmd", "--tim", "bad.tim"]),
        "jomc: bad.tim: byte offset 0 (0x0): ID 0x11, expected 0x10 (not a TIM file)"
    );

    let long = arm_tod(vec![(70_000, vec![])]);
    case.file("long.tod", &long);
    let message = case.error(&["arm.tmd", "--tod", "long.tod"]);
    assert!(message.contains("frame number 70000 is 70000 frames after the first (0): an animation has at most 65535 keys"), "{message}");

    let many: Vec<Vec<u8>> = (1..=33).map(packet::create).collect();
    case.file("many.tod", &writer::tod(0, &[(0, many)]));
    let message = case.error(&["arm.tmd", "--tod", "many.tod"]);
    assert!(
        message.contains("33 objects in the first frame, more than the 32 bones"),
        "{message}"
    );

    case.file("model.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    assert_eq!(
        case.error(&["model.obj", "--tod", "arm.tod"]),
        "jomc: model.obj: --tod is for PlayStation TMD models, and this is a Wavefront OBJ model"
    );
}

/// The 5-bit (R, G, B) of a PlayStation or VDP1 colour (the same layout).
fn channels(color: u16) -> [u8; 3] {
    [0, 5, 10].map(|shift| ((color >> shift) & 31) as u8)
}

/// Converts and renders MADO.TMD with `tim` (bytes), returns the rendered pixels' 5-bit
/// colours other than the black background.
fn render_mado(case: &Case, dir: &Path, tim: &[u8]) -> Vec<[u8; 3]> {
    case.file("MADO.TIM", tim);
    let model = dir.join("MADO.TMD").display().to_string();
    case.converted(&[&model, "--tim", "MADO.TIM", "--embed-textures"]);
    let rendered = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(case.dir.path())
        .args(["render", "out.jom", "-o", "mado.png"])
        .output()
        .expect("jomc runs");
    assert!(
        rendered.status.success(),
        "{}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    let (_, _, rgb) = vdp1_soft::preview::read_png(&case.path("mado.png")).expect("PNG");
    rgb.chunks_exact(3)
        .map(|p| [p[0] >> 3, p[1] >> 3, p[2] >> 3])
        .filter(|c| *c != [0; 3])
        .collect()
}

#[test]
fn mado_renders_with_the_colours_of_its_tim() {
    let Some(dir) = samples() else { return };
    let tim = std::fs::read(dir.join("MADO.TIM")).expect("MADO.TIM");
    let lookup = psx_formats::tim::read(&tim)
        .expect("reads")
        .clut
        .expect("a lookup table");
    let palette: Vec<[u8; 3]> = lookup.words.iter().map(|&c| channels(c)).collect();
    let case = Case::new();
    let pixels = render_mado(&case, &dir, &tim);
    // Unlit (no --light): every pixel is a colour of the TIM's lookup table, and the
    // tower shows several of them (walls, roof, windows), each over many pixels.
    assert!(pixels.len() > 1000, "{} pixels drawn", pixels.len());
    let mut counts = std::collections::BTreeMap::new();
    for p in &pixels {
        assert!(palette.contains(p), "{p:?} is not a colour of MADO.TIM");
        *counts.entry(*p).or_insert(0) += 1;
    }
    let shown = counts.values().filter(|&&n| n >= 20).count();
    assert!(shown >= 4, "{counts:?}");

    // The same model with the lookup table's colours changed shows the new colours: the
    // pixels come from the TIM. (A colour of 0 is transparent, whatever its index.)
    let mut red = tim.clone();
    for entry in 0..16 {
        let at = 8 + 12 + 2 * entry;
        if red[at..at + 2] != [0, 0] {
            red[at..at + 2].copy_from_slice(&0x801Fu16.to_le_bytes());
        }
    }
    let pixels = render_mado(&case, &dir, &red);
    assert!(pixels.len() > 1000);
    assert!(
        pixels.iter().all(|p| *p == [31, 0, 0]),
        "{:?}",
        pixels.iter().find(|p| **p != [31, 0, 0])
    );
}

#[test]
fn texels_come_from_the_tims_at_their_frame_buffer_positions() {
    // A 15-bit TIM at (960, 0) and a 4-bit one at (640, 256) with its lookup table at (0, 500).
    let direct: Vec<u16> = (0..16 * 16)
        .map(|i| 0x8000 | (i as u16 * 37) & 0x7fff)
        .collect();
    let indices: Vec<u16> = (0..4 * 16)
        .map(|i| if i % 2 == 0 { 0x3210 } else { 0x7654 })
        .collect();
    let clut: Vec<u16> = (0..16).map(|i| 0x8000 | (i << 10)).collect();
    let quad = |tsb: u16, cba: u16| Polygon {
        mode: 0x20 | QUAD | TEXTURED,
        vertices: vec![0, 1, 2, 3],
        normals: vec![0],
        uvs: vec![[0, 0], [8, 0], [0, 8], [8, 8]],
        cba,
        tsb,
        ..Polygon::default()
    };
    let case = Case::new();
    case.file(
        "t.tmd",
        &writer::tmd(&[
            square_object(vec![quad(15 | 0x100, 0).packet()]),
            square_object(vec![quad(10 | 0x10, 500 << 6).packet()]),
        ]),
    );
    case.file(
        "direct.tim",
        &writer::tim(
            2,
            None,
            &Block {
                x: 960,
                y: 0,
                width: 16,
                height: 16,
                words: &direct,
            },
        ),
    );
    case.file(
        "lut.tim",
        &writer::tim(
            0,
            Some(&Block {
                x: 0,
                y: 500,
                width: 16,
                height: 1,
                words: &clut,
            }),
            &Block {
                x: 640,
                y: 256,
                width: 4,
                height: 16,
                words: &indices,
            },
        ),
    );
    let (bytes, _) = case.converted(&[
        "t.tmd",
        "--tim",
        "direct.tim",
        "--tim",
        "lut.tim",
        "--embed-textures",
    ]);
    let m = model(&bytes);
    let textures: Vec<Vec<u16>> = m
        .textures()
        .expect("TIMG")
        .iter()
        .map(|t| match t.pixels {
            jom::format::TexturePixels::Rgb555(p) => p.iter().map(|c| c.get().0).collect(),
            jom::format::TexturePixels::Lut4 { lut, pixels } => pixels
                .iter()
                .flat_map(|b| [b >> 4, b & 15])
                .map(|i| lut[usize::from(i)].get().0)
                .collect(),
        })
        .collect();
    let expected_direct: Vec<u16> = (0..8)
        .flat_map(|v| (0..8).map(move |u| (v, u)))
        .map(|(v, u)| direct[16 * v + u])
        .collect();
    // Texel u of a 4-bit page: nibble u % 4 of word u / 4; index i is blue i.
    let expected_lut: Vec<u16> = (0..8)
        .flat_map(|_| (0..8).map(|u: u16| clut[usize::from(u)]))
        .collect();
    assert!(textures.contains(&expected_direct), "{textures:?}");
    assert!(textures.contains(&expected_lut), "{textures:?}");
}

#[test]
fn sonys_cubes_name_the_first_polygon_whose_texture_page_has_no_tim() {
    let Some(dir) = samples() else { return };
    let case = Case::new();
    // The samples come without the TIMs of the cubes' texture pages.
    for (name, expected) in [
        ("CUBE3GT.TMD", "byte offset 120 (0x78): object 0 primitive 4: texel (1, 0) of its texture page at (640, 0), 8-bit"),
        ("CUBE4T.TMD", "byte offset 108 (0x6c): object 0 primitive 2: texel (1, 0) of its texture page at (640, 0), 8-bit"),
    ] {
        let message = case.error(&[&dir.join(name).display().to_string()]);
        assert!(message.contains(expected), "{message}");
        assert!(message.ends_with("no TIM image covers frame buffer word (640, 0) (give the TIM with --tim)"), "{message}");
    }
}
