//! `jomc compare`: the picture error between two models as drawn, used to measure what
//! pairing triangles into quads costs (docs/convert.md, "Measured fidelity").

mod common;

use common::Case;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn jomc(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("jomc runs")
}

/// `jomc convert model.obj -o OUT ARGS` in the case's directory: its summary.
fn convert_to(case: &Case, out: &str, args: &[&str]) -> String {
    let mut all = vec!["convert", "model.obj", "-o", out];
    all.extend_from_slice(args);
    success(&jomc(case.dir.path(), &all))
}

fn success(output: &std::process::Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// `jomc compare A B --json` in `dir`: the mean error and the worst view's.
fn compare(dir: &Path, a: &str, b: &str, extra: &[&str]) -> (f64, f64) {
    let mut args = vec!["compare", a, b, "--json"];
    args.extend_from_slice(extra);
    let json: serde_json::Value = serde_json::from_str(&success(&jomc(dir, &args))).unwrap();
    let worst = json["worst"].as_u64().unwrap() as usize;
    (
        json["error"].as_f64().unwrap(),
        json["views"][worst]["error"].as_f64().unwrap(),
    )
}

/// A textured tube of triangles, each side's rectangle cut along its diagonal: `sides`
/// sides around, `rows` rows, the texture (64 x 64 texels, a pattern of 8 x 8 blocks)
/// wrapped once around it.
fn tube(case: &Case, sides: usize, rows: usize) {
    let mut obj = String::from("mtllib tube.mtl\n");
    for row in 0..=rows {
        for side in 0..=sides {
            let angle = side as f64 / sides as f64 * std::f64::consts::TAU;
            let _ = writeln!(
                obj,
                "v {} {} {}\nvt {} {}",
                angle.cos(),
                row as f64 * 0.5,
                angle.sin(),
                side as f64 / sides as f64,
                row as f64 / rows as f64
            );
        }
    }
    obj.push_str("usemtl tube\n");
    let index = |row: usize, side: usize| row * (sides + 1) + side + 1;
    for row in 0..rows {
        for side in 0..sides {
            let (a, b, c, d) = (
                index(row, side),
                index(row, side + 1),
                index(row + 1, side + 1),
                index(row + 1, side),
            );
            let _ = writeln!(obj, "f {a}/{a} {d}/{d} {c}/{c}\nf {a}/{a} {c}/{c} {b}/{b}");
        }
    }
    case.file("model.obj", &obj);
    case.file("tube.mtl", "newmtl tube\nmap_Kd tube.png\njo_dual 1\n");
    case.png("tube.png", 64, 64, |x, y| {
        let block = (x / 8 + y / 8) % 2;
        [(x * 4) as u8, (y * 4) as u8, 255 * block as u8, 255]
    });
}

#[test]
fn a_model_compared_with_itself_has_no_error() {
    let case = Case::new();
    tube(&case, 12, 3);
    case.converted(&["--quads", "--embed-textures"]);
    let text = success(&jomc(
        case.dir.path(),
        &["compare", "model.jom", "model.jom"],
    ));
    assert!(
        text.starts_with("model.jom against model.jom: picture error 0.000 of 255, blurred 0.000 (mean of 8 views: 8 rotations x 1 poses, 320x224); worst 0.000 at rotate "),
        "{text}"
    );
    assert!(text.contains(" (0 of "), "{text}");
}

/// Pairing costs no more picture error than an equally right conversion of the same
/// triangles: the other corner order (`--keep-triangles`, A-B the first edge instead of
/// the shortest), which moves texels by as much as the VDP1's squeezed texture rows do.
/// The measured "noise floor" of the per-pixel error, under which no reduction can be told
/// from another choice of the converter.
fn assert_within_the_floor(name: &str, quads: (f64, f64), floor: (f64, f64)) {
    eprintln!(
        "{name}: quads against triangles: picture error {:.3} of 255 (worst view {:.3}); \
         the other corner order: {:.3} (worst {:.3})",
        quads.0, quads.1, floor.0, floor.1
    );
    assert!(
        quads.0 <= 1.5 * floor.0 + 0.1,
        "{name}: pairing costs {} where the corner order costs {}",
        quads.0,
        floor.0
    );
}

#[test]
fn quads_of_a_tubes_cut_rectangles_draw_as_close_as_its_triangles_do() {
    let case = Case::new();
    tube(&case, 12, 3);
    let triangles = convert_to(
        &case,
        "triangles.jom",
        &["--quads", "--quad-pairing", "none", "--embed-textures"],
    );
    assert!(triangles.contains("72 polygons"), "{triangles}");
    convert_to(
        &case,
        "other.jom",
        &["--keep-triangles", "--embed-textures"],
    );
    let quads = convert_to(&case, "quads.jom", &["--quads", "--embed-textures"]);
    assert!(
        quads.contains("36 polygons")
            && quads.contains("72 triangles paired into 36 quads, 0 triangles left"),
        "{quads}"
    );
    let dir = case.dir.path();
    assert_within_the_floor(
        "tube",
        compare(dir, "triangles.jom", "quads.jom", &[]),
        compare(dir, "triangles.jom", "other.jom", &[]),
    );
}

fn samples() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples/cmb");
    if dir.is_dir() {
        Some(dir)
    } else {
        test_skip::skip("../shared/samples/cmb absent");
        None
    }
}

/// The cow and the gel with an animation each, converted without pairs and with, and
/// compared from the default views at rest and at the animation's start.
#[test]
fn the_samples_paired_into_quads_draw_as_close_as_their_triangles_do() {
    let Some(dir) = samples() else { return };
    let cases = [
        ("oot3d_cow/cow.cmb", "oot3d_cow/usi_mogmog.csab"),
        ("lm3ds_gel/Luigi_2p_gel.cmb", "lm3ds_gel/2pdm_gg_wait.csab"),
    ];
    let out = tempfile::tempdir().unwrap();
    for (model, csab) in cases {
        let convert = |name: &str, options: &[&str]| {
            let model = dir.join(model);
            let csab = dir.join(csab);
            let mut args = vec![
                "convert",
                model.to_str().unwrap(),
                "--csab",
                csab.to_str().unwrap(),
                "--embed-textures",
                "-o",
                name,
            ];
            args.extend_from_slice(options);
            success(&jomc(out.path(), &args))
        };
        convert("triangles.jom", &["--quad-pairing", "none"]);
        convert("other.jom", &["--keep-triangles"]);
        convert("quads.jom", &[]);
        let dir = out.path();
        assert_within_the_floor(
            model,
            compare(dir, "triangles.jom", "quads.jom", &["--frames", "1"]),
            compare(dir, "triangles.jom", "other.jom", &["--frames", "1"]),
        );
    }
}

#[test]
fn a_pose_the_second_model_lacks_is_one_error() {
    let case = Case::new();
    case.file(
        "model.obj",
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\no body\nf 1 2 3 4\n",
    );
    case.file(
        "rig.json",
        r#"{"bones": [{"name": "body", "group": "body"}],
            "animations": [{"name": "spin", "key_ticks": 10, "keys": [{}, {"angles": {"body": [0, 90, 0]}}]}]}"#,
    );
    convert_to(&case, "a.jom", &["--skeleton", "rig.json"]);
    convert_to(&case, "b.jom", &[]);
    let output = jomc(case.dir.path(), &["compare", "a.jom", "b.jom"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "jomc: b.jom vs a.jom: model B has no animation \"spin\"\n"
    );
    let output = jomc(case.dir.path(), &["compare", "a.jom", "gone.jom"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("jomc: gone.jom: "));
}
