//! A model exported by Blender itself: `tools/blender/uv_atlas_box.py` builds a box whose
//! six faces each map one cell of one image and exports it with Blender's OBJ exporter;
//! `jomc convert` must give each face its own cell, and `jomc render` must draw it.
//! Skipped (and said so) when `blender` is not on PATH.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn jomc(dir: &Path, args: &[&str]) {
    let output = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("jomc runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The cells' colours, as in the script, in RGB 555 read back as 8 bits (c << 3 | c >> 2).
fn cell_colours() -> Vec<[u8; 3]> {
    let eight = |c: u8| {
        let five = ((u16::from(c) * 31 + 127) / 255) as u8;
        five << 3 | five >> 2
    };
    [
        [230, 40, 40],
        [40, 200, 40],
        [40, 60, 230],
        [230, 220, 40],
        [40, 210, 220],
        [220, 40, 210],
    ]
    .iter()
    .map(|c| c.map(eight))
    .collect()
}

#[test]
fn a_blender_uv_atlas_box_shows_each_cell_on_its_own_face() {
    if Command::new("blender").arg("--version").output().is_err() {
        eprintln!("skipped: blender is not on PATH (apt-get install blender)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../blender/uv_atlas_box.py");
    // Blender's Python must not take the caller's library path (see the field notes).
    let exported = Command::new("blender")
        .args(["-b", "--factory-startup", "--python"])
        .arg(&script)
        .arg("--")
        .arg(dir.path())
        .env_remove("PYTHONPATH")
        .env_remove("PYTHONHOME")
        .output()
        .expect("blender runs");
    assert!(
        exported.status.success() && dir.path().join("box.obj").exists(),
        "{}{}",
        String::from_utf8_lossy(&exported.stdout),
        String::from_utf8_lossy(&exported.stderr)
    );
    jomc(
        dir.path(),
        &["convert", "box.obj", "-o", "box.jom", "--embed-textures"],
    );
    let bytes = jom_write::AlignedBytes::new(&std::fs::read(dir.path().join("box.jom")).unwrap());
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    assert_eq!(model.polygons().len(), 6);
    let sizes: Vec<(u16, u16)> = model
        .textures()
        .unwrap()
        .iter()
        .map(|t| (t.header.width(), t.header.height()))
        .collect();
    assert_eq!(sizes, [(16, 16); 6], "one 16 x 16 cell a face");

    // Looked at from each side, the middle of the screen is a different cell's colour.
    let colours = cell_colours();
    let mut seen = BTreeSet::new();
    for rotate in ["0,0,0", "0,90,0", "0,180,0", "0,270,0", "90,0,0", "-90,0,0"] {
        jomc(
            dir.path(),
            &[
                "render",
                "box.jom",
                "-o",
                "view.png",
                &format!("--rotate={rotate}"),
            ],
        );
        let (width, height, pixels) =
            vdp1_soft::preview::read_png(&dir.path().join("view.png")).unwrap();
        let at = |x: u32, y: u32| {
            let i = 3 * (y * width + x) as usize;
            [pixels[i], pixels[i + 1], pixels[i + 2]]
        };
        let middle = at(width / 2, height / 2);
        let cell = colours
            .iter()
            .position(|&c| c == middle)
            .unwrap_or_else(|| panic!("rotated {rotate}: {middle:?} is no cell's colour"));
        seen.insert(cell);
    }
    assert_eq!(seen.len(), 6, "each face its own cell: {seen:?}");
}
