//! `jomc render` end to end: a converted OBJ drawn to a PNG, and failures leave no file.

use std::path::Path;
use std::process::Command;

fn jomc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .args(args)
        .output()
        .expect("jomc runs")
}

/// `jomc` with `args`, which must succeed (else its error is the test's).
fn jomc_ok(args: &[&str]) -> std::process::Output {
    let output = jomc(args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// Converts the robot fixture (OBJ, MTL, skeleton) to `model`.
fn convert_robot(model: &str) {
    jomc_ok(&[
        "convert",
        &fixture("robot.obj"),
        "-o",
        model,
        "--skeleton",
        &fixture("robot.json"),
    ]);
}

#[test]
fn a_converted_obj_renders_to_a_png() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("ROBOT.JOM");
    let png = dir.path().join("robot.png");
    let (model, png) = (model.to_str().unwrap(), png.to_str().unwrap());
    convert_robot(model);
    let rendered = jomc_ok(&[
        "render", model, "-o", png, "--rotate", "-20,30,0", "--light", "-1,2,3",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&rendered.stdout),
        format!("{png}: 2 polygons drawn, 0 culled, 0 dropped\n")
    );
    let (width, height, pixels) = vdp1_soft::preview::read_png(Path::new(png)).unwrap();
    assert_eq!((width, height), (320, 224));
    // The body (grey, lit) and the arm (red, gouraud) are both on screen.
    let colours: std::collections::BTreeSet<[u8; 3]> = pixels
        .chunks(3)
        .map(|p| [p[0], p[1], p[2]])
        .filter(|p| *p != [0, 0, 0])
        .collect();
    assert!(
        colours.iter().any(|c| c[0] > 200 && c[1] < 60 && c[2] < 60),
        "no red arm"
    );
    assert!(
        colours
            .iter()
            .any(|c| c[0] > 60 && (i32::from(c[0]) - i32::from(c[2])).abs() < 40),
        "no grey body"
    );
}

#[test]
fn a_bad_model_or_option_leaves_no_png() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jom");
    std::fs::write(&bad, b"JOM1 not really").unwrap();
    let png = dir.path().join("out.png");
    let output = jomc(&["render", bad.to_str().unwrap(), "-o", png.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("bad.jom: the file is 15 bytes long"));
    assert!(!png.exists());
    let output = jomc(&[
        "render",
        bad.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
        "--rotate",
        "1,2",
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("expected 3 numbers"));
    assert!(!png.exists());
}

#[test]
fn an_animation_renders_posed_and_as_a_strip() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("ROBOT.JOM");
    let model = model.to_str().unwrap();
    convert_robot(model);
    let pixels = |time: &str| {
        let png = dir.path().join(format!("wave{time}.png"));
        render_ok(&[
            "render",
            model,
            "-o",
            png.to_str().unwrap(),
            "--anim",
            "wave",
            "--time",
            time,
        ])
    };
    // Tick 0 is the first key, tick 15 the second (the arm raised): different pictures;
    // tick 30 is back at the first key (the animation loops).
    let (first, second, looped) = (pixels("0"), pixels("15"), pixels("30"));
    assert_ne!(first, second);
    assert_eq!(first, looped);

    let strip = dir.path().join("strip.png");
    let output = jomc_ok(&[
        "render",
        model,
        "-o",
        strip.to_str().unwrap(),
        "--anim",
        "wave",
        "--frames",
        "4",
        "--width",
        "80",
        "--height",
        "60",
    ]);
    assert!(String::from_utf8_lossy(&output.stdout).ends_with("4 frames of wave, ticks 0 to 22\n"));
    let (width, height, _) = vdp1_soft::preview::read_png(&strip).unwrap();
    assert_eq!((width, height), (4 * 80, 60));

    let missing = jomc(&[
        "render",
        model,
        "-o",
        strip.to_str().unwrap(),
        "--anim",
        "run",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr)
        .contains("no animation \"run\": the model has wave, rest"));
}

/// `--anim` draws the BMOT offsets and scales: the robot's arm, stretched 1.5 times at the
/// second key of "wave", covers more pixels than in the same file with BMOT hidden (its tag
/// changed, as an engine that does not know it would skip it), and the first key (no
/// offset, scale 1) draws the same.
#[test]
fn an_animation_with_bone_motion_renders_moved_and_stretched() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("ROBOT.JOM");
    let model = model.to_str().unwrap();
    convert_robot(model);
    let mut bytes = std::fs::read(model).unwrap();
    let at = bytes
        .windows(4)
        .position(|w| w == b"BMOT")
        .expect("a BMOT chunk");
    bytes[at..at + 4].copy_from_slice(b"bmot");
    let hidden = dir.path().join("HIDDEN.JOM");
    std::fs::write(&hidden, &bytes).unwrap();
    let pixels = |file: &str, time: &str| {
        let png = dir.path().join("frame.png");
        render_ok(&[
            "render",
            file,
            "-o",
            png.to_str().unwrap(),
            "--anim",
            "wave",
            "--time",
            time,
        ])
    };
    let red = |pixels: &[u8]| {
        pixels
            .chunks(3)
            .filter(|p| p[0] > 200 && p[1] < 60 && p[2] < 60)
            .count()
    };
    let hidden = hidden.to_str().unwrap();
    assert_eq!(pixels(model, "0"), pixels(hidden, "0"));
    let (moved, turned) = (pixels(model, "15"), pixels(hidden, "15"));
    assert_ne!(moved, turned);
    assert!(
        red(&moved) > red(&turned) * 5 / 4,
        "{} {}",
        red(&moved),
        red(&turned)
    );
}

/// The demo's robot (OBJ + MTL + PNG textures, skeleton) converted with `args`.
fn convert_demo_robot(model: &Path, args: &[&str]) {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../demo/assets");
    let (obj, skeleton) = (assets.join("robot.obj"), assets.join("robot.json"));
    let mut all = vec![
        "convert",
        obj.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
        "--skeleton",
        skeleton.to_str().unwrap(),
    ];
    all.extend_from_slice(args);
    jomc_ok(&all);
}

/// `jomc` with `args` (a render, `-o` among them), which must succeed: the picture's pixels.
fn render_ok(args: &[&str]) -> Vec<u8> {
    jomc_ok(args);
    let png = args[args.iter().position(|&a| a == "-o").unwrap() + 1];
    vdp1_soft::preview::read_png(Path::new(png)).unwrap().2
}

#[test]
fn texture_files_are_read_from_the_texture_dir_and_drawn_as_embedded_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cd = dir.path().join("cd");
    std::fs::create_dir(&cd).unwrap();
    let (files, embedded) = (dir.path().join("FILES.JOM"), dir.path().join("EMBED.JOM"));
    convert_demo_robot(&files, &["--texture-dir", cd.to_str().unwrap()]);
    convert_demo_robot(&embedded, &["--embed-textures"]);
    let png = dir.path().join("out.png");
    let png = png.to_str().unwrap();
    fn render<'a>(model: &'a Path, png: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args = vec!["render", model.to_str().unwrap(), "-o", png];
        args.extend_from_slice(&["--rotate", "-15,30,0", "--light", "-1,2,3"]);
        args.extend_from_slice(extra);
        args
    }
    let reference = render_ok(&render(&embedded, png, &[]));
    assert!(reference.chunks(3).any(|p| p != [0, 0, 0]));
    // The files are not beside the model: one precise error, no picture.
    std::fs::remove_file(png).unwrap();
    let missing = jomc(&render(&files, png, &[]));
    assert_eq!(missing.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("no file CHEST.BIN (texture 0 of TEXT"),
        "{stderr}"
    );
    assert!(!Path::new(png).exists());
    // From --texture-dir, the same picture as with the embedded textures.
    assert!(
        render_ok(&render(
            &files,
            png,
            &["--texture-dir", cd.to_str().unwrap()]
        )) == reference
    );
    // By default, from the model's folder.
    let beside = cd.join("ROBOT.JOM");
    std::fs::copy(&files, &beside).unwrap();
    assert!(render_ok(&render(&beside, png, &[])) == reference);
    // A bad file: its path, the byte offset, what was expected.
    std::fs::write(cd.join("CHEST.BIN"), [32, 0, 33, 0]).unwrap();
    let bad = jomc(&render(&beside, png, &[]));
    assert_eq!(bad.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("CHEST.BIN: .BIN image, byte 4: the file is 4 bytes, expected 2116"),
        "{stderr}"
    );
}
