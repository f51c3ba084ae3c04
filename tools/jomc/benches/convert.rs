//! `jomc convert` on generated grids of triangles (with normals), the binary run as a
//! process: `cargo bench -p jomc --bench convert`.
//!
//! - `200k_triangles`: 200,000 triangles, 100,651 points. A JOM file indexes at most
//!   65,535 polygons and points, so this conversion ends with the limit error, after the
//!   whole model is built (the limits are checked last on purpose).
//! - `65k_triangles`: 65,522 triangles, the largest grid a JOM file holds, written out.
//! - `65k_uv_quads`: 65,000 quads (65,511 points), each mapping one of the 64 tiles (8 x 8 texels) of a
//!   64 x 64 texture: every face baked, 64 different textures (and materials) after
//!   sharing.

use criterion::{criterion_group, criterion_main, Criterion};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A flat grid of `columns` x `rows` squares, two triangles each.
fn grid_obj(columns: usize, rows: usize) -> String {
    let mut obj = String::from("vn 0 0 1\n");
    for y in 0..=rows {
        for x in 0..=columns {
            let _ = writeln!(
                obj,
                "v {} {} {}",
                x as f64 * 0.01,
                y as f64 * 0.01,
                (x ^ y) as f64 * 1e-4
            );
        }
    }
    obj.push_str("o grid\n");
    let index = |x: usize, y: usize| y * (columns + 1) + x + 1;
    for y in 0..rows {
        for x in 0..columns {
            let (a, b, c, d) = (
                index(x, y),
                index(x + 1, y),
                index(x + 1, y + 1),
                index(x, y + 1),
            );
            let _ = writeln!(obj, "f {a}//1 {b}//1 {c}//1\nf {a}//1 {c}//1 {d}//1");
        }
    }
    obj
}

/// A flat grid of `columns` x `rows` quads, quad (x, y) mapping tile (x % 8, y % 8) of
/// `tiles.png` (64 x 64 texels), and its MTL.
fn tiled_obj(columns: usize, rows: usize) -> (String, String) {
    let mut obj = String::from("mtllib tiles.mtl\n");
    for y in 0..=rows {
        for x in 0..=columns {
            let _ = writeln!(obj, "v {} {} 0", x as f64 * 0.01, y as f64 * 0.01);
        }
    }
    for ty in 0..=8 {
        for tx in 0..=8 {
            let _ = writeln!(obj, "vt {} {}", tx as f64 / 8.0, 1.0 - ty as f64 / 8.0);
        }
    }
    obj.push_str("usemtl tiles\n");
    let point = |x: usize, y: usize| y * (columns + 1) + x + 1;
    let uv = |x: usize, y: usize| y * 9 + x + 1;
    for y in 0..rows {
        for x in 0..columns {
            let (tx, ty) = (x % 8, y % 8);
            let _ = writeln!(
                obj,
                "f {}/{} {}/{} {}/{} {}/{}",
                point(x, y),
                uv(tx, ty + 1),
                point(x + 1, y),
                uv(tx + 1, ty + 1),
                point(x + 1, y + 1),
                uv(tx + 1, ty),
                point(x, y + 1),
                uv(tx, ty)
            );
        }
    }
    (obj, "newmtl tiles\nmap_Kd tiles.png\n".to_string())
}

/// `tiles.png`: 64 x 64 texels, each 8 x 8 tile its own pattern.
fn write_tiles_png(path: &Path) {
    let file = std::fs::File::create(path).expect("create PNG");
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), 64, 64);
    encoder.set_color(png::ColorType::Rgb);
    let data: Vec<u8> = (0..64u32 * 64)
        .flat_map(|i| {
            let (x, y) = (i % 64, i / 64);
            let tile = (y / 8) * 8 + x / 8;
            [(tile * 4) as u8, (x * 4) as u8, (y * 4) as u8]
        })
        .collect();
    let mut writer = encoder.write_header().expect("PNG header");
    writer.write_image_data(&data).expect("PNG data");
}

fn convert(obj: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("convert")
        .arg(obj)
        .arg("-o")
        .arg(out)
        .arg("--embed-textures")
        .output()
        .expect("jomc runs")
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let big = dir.path().join("big.obj");
    std::fs::write(&big, grid_obj(400, 250)).expect("write OBJ");
    let largest = dir.path().join("largest.obj");
    std::fs::write(&largest, grid_obj(181, 181)).expect("write OBJ");
    let tiled = dir.path().join("tiles.obj");
    let (obj, mtl) = tiled_obj(260, 250);
    std::fs::write(&tiled, obj).expect("write OBJ");
    std::fs::write(dir.path().join("tiles.mtl"), mtl).expect("write MTL");
    write_tiles_png(&dir.path().join("tiles.png"));
    let out = dir.path().join("out.jom");

    let refused = convert(&big, &out);
    assert_eq!(
        refused.status.code(),
        Some(1),
        "200k triangles pass the limits"
    );
    let written = convert(&largest, &out);
    assert!(
        written.status.success(),
        "{}",
        String::from_utf8_lossy(&written.stderr)
    );

    let baked = convert(&tiled, &out);
    assert!(
        baked.status.success(),
        "{}",
        String::from_utf8_lossy(&baked.stderr)
    );
    let mut group = c.benchmark_group("convert");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("200k_triangles", |b| b.iter(|| convert(&big, &out)));
    group.bench_function("65k_triangles", |b| b.iter(|| convert(&largest, &out)));
    group.bench_function("65k_uv_quads", |b| b.iter(|| convert(&tiled, &out)));
    group.finish();
}

criterion_group!(convert_benches, benches);
criterion_main!(convert_benches);
