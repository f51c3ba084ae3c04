//! Texture files made by other tools decode with the engine's decoders (`jom::image`) to the
//! pixels the converter makes of the same picture: TGA files written by ImageMagick
//! (`/usr/bin/convert`; skipped when it is not installed), and the `.BIN` files that
//! `jomc convert --texture-dir` writes.

use jom::image::{decode_into, probe, ImageFormat};
use std::path::Path;
use std::process::Command;

const WIDTH: u32 = 16;
const HEIGHT: u32 = 8;

/// The test picture: colours over the whole range, alpha 0, 100, 200 and 255.
fn rgba(x: u32, y: u32) -> [u8; 4] {
    let alpha = [255, 0, 100, 200][((x + y) % 4) as usize];
    [(x * 17) as u8, (y * 36) as u8, (255 - x * 9) as u8, alpha]
}

/// What the converter makes of a pixel: 5 bits a channel rounded, bit 15 set; alpha under
/// 128 transparent (0).
fn rgb555([r, g, b, a]: [u8; 4], alpha: bool) -> u16 {
    if alpha && a < 128 {
        return 0;
    }
    let five = |c: u8| (u16::from(c) * 31 + 127) / 255;
    0x8000 | five(b) << 10 | five(g) << 5 | five(r)
}

fn write_png(path: &Path) {
    let file = std::fs::File::create(path).unwrap();
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    let data: Vec<u8> = (0..WIDTH * HEIGHT)
        .flat_map(|k| rgba(k % WIDTH, k / WIDTH))
        .collect();
    writer.write_image_data(&data).unwrap();
}

/// The file decoded: big-endian pixels as u16.
fn decoded(format: ImageFormat, bytes: &[u8]) -> Vec<u16> {
    let info = probe(format, bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (u32::from(info.width), u32::from(info.height)),
        (WIDTH, HEIGHT)
    );
    let mut pixels = vec![0; info.pixel_bytes()];
    let source = decode_into(format, bytes, &mut pixels).unwrap_or_else(|e| panic!("{e}"));
    source
        .data
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect()
}

fn expected(alpha: bool) -> Vec<u16> {
    (0..WIDTH * HEIGHT)
        .map(|k| rgb555(rgba(k % WIDTH, k / WIDTH), alpha))
        .collect()
}

#[test]
fn tga_files_written_by_imagemagick_decode_to_the_converters_pixels() {
    let convert = Path::new("/usr/bin/convert");
    if !convert.exists() {
        test_skip::skip("ImageMagick (/usr/bin/convert) is not installed (ci/setup.sh yabause)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("picture.png");
    write_png(&png);
    // 32 bits with alpha, uncompressed and run-length encoded, top-down and bottom-up
    // rows; 24 bits without alpha. ImageMagick 6 writes the rows in the order it holds
    // them whatever origin it writes in the header (and reads them back the same way), so
    // a file whose header says "bottom left" is flipped first to hold its rows bottom-up,
    // as the TGA specification has them.
    let top_left = ["-orient", "TopLeft"];
    let bottom_left = ["-flip", "-orient", "BottomLeft"];
    let cases: [(&str, &[&str], &[&str], bool); 5] = [
        ("plain.tga", &top_left, &[], true),
        ("rle.tga", &top_left, &["-compress", "RLE"], true),
        ("up.tga", &bottom_left, &[], true),
        ("up-rle.tga", &bottom_left, &["-compress", "RLE"], true),
        ("rgb.tga", &top_left, &["-alpha", "off"], false),
    ];
    for (name, origin, options, alpha) in cases {
        let tga = dir.path().join(name);
        let status = Command::new(convert)
            .arg(&png)
            .args(origin)
            .args(options)
            .arg(&tga)
            .status()
            .unwrap();
        assert!(status.success(), "convert {options:?}");
        let bytes = std::fs::read(&tga).unwrap();
        assert_eq!(bytes[16], if alpha { 32 } else { 24 }, "{name}: depth");
        let top_down = origin == top_left;
        assert_eq!(bytes[17] & 0x20 != 0, top_down, "{name}: origin bit");
        assert_eq!(
            bytes[2],
            if options.contains(&"RLE") { 10 } else { 2 },
            "{name}: type"
        );
        assert!(
            decoded(ImageFormat::Tga, &bytes) == expected(alpha),
            "{name}"
        );
    }
}

#[test]
fn bin_files_written_by_the_converter_decode_to_its_pixels() {
    let dir = tempfile::tempdir().unwrap();
    write_png(&dir.path().join("wall.png"));
    std::fs::write(dir.path().join("m.mtl"), "newmtl wall\nmap_Kd wall.png\n").unwrap();
    std::fs::write(
        dir.path().join("m.obj"),
        "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nusemtl wall\nf 1 2 3 4\n",
    )
    .unwrap();
    let cd = dir.path().join("cd");
    std::fs::create_dir(&cd).unwrap();
    let converted = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("convert")
        .arg(dir.path().join("m.obj"))
        .arg("-o")
        .arg(dir.path().join("M.JOM"))
        .arg("--texture-dir")
        .arg(&cd)
        .output()
        .unwrap();
    assert!(
        converted.status.success(),
        "{}",
        String::from_utf8_lossy(&converted.stderr)
    );
    let bytes = std::fs::read(cd.join("WALL.BIN")).unwrap();
    assert!(decoded(ImageFormat::JoBin, &bytes) == expected(true));
}
