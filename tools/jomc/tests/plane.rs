//! `jomc plane` from the command line: a PNG becomes a floor file the engine reads; a bad
//! input is one error line and status 1, and no file.

use jom::vdp2::FloorTiles;
use std::process::Command;

fn jomc(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .args(args)
        .output()
        .expect("jomc runs")
}

fn write_png(path: &std::path::Path, width: u32, height: u32, rgba: &[u8]) {
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(file, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .unwrap()
        .write_image_data(rgba)
        .unwrap();
}

#[test]
fn a_png_becomes_a_floor_file() {
    let dir = tempfile::tempdir().unwrap();
    let (png, out) = (dir.path().join("floor.png"), dir.path().join("FLOOR.BIN"));
    let rgba: Vec<u8> = (0..32 * 16)
        .flat_map(|i| match (i % 32 / 8 + i / 32 / 8) % 2 {
            0 => [200, 40, 40, 255],
            _ => [240, 240, 240, 255],
        })
        .collect();
    write_png(&png, 32, 16, &rgba);
    let run = jomc(&[
        "plane".as_ref(),
        png.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("32 x 16 pixels, 8 cells (2 distinct), 2 colours"),
        "{stdout}"
    );
    let bytes = std::fs::read(&out).unwrap();
    let tiles = FloorTiles::from_bytes(&bytes).unwrap();
    assert_eq!((tiles.width_cells(), tiles.height_cells()), (4, 2));
}

#[test]
fn a_bad_input_is_one_error_and_status_1() {
    let dir = tempfile::tempdir().unwrap();
    let (png, out) = (dir.path().join("floor.png"), dir.path().join("FLOOR.BIN"));
    std::fs::write(&png, b"not a picture").unwrap();
    let run = jomc(&[
        "plane".as_ref(),
        png.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with(&format!("jomc: {}: not a PNG", png.display())),
        "{stderr}"
    );
    assert!(!out.exists());
    // A picture of a size the plane cannot repeat: the size named.
    write_png(&png, 24, 8, &[9; 24 * 8 * 4]);
    let run = jomc(&[
        "plane".as_ref(),
        png.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("24 x 8 pixels: a floor's picture"));
    assert!(!out.exists());
}
