//! `jomc convert` on generated grids of triangles (with normals), the binary run as a
//! process: `cargo bench -p jomc --bench convert`.
//!
//! - `200k_triangles`: 200,000 triangles, 100,651 points. A JOM file indexes at most
//!   65,535 polygons and points, so this conversion ends with the limit error, after the
//!   whole model is built (the limits are checked last on purpose).
//! - `65k_triangles`: 65,522 triangles, the largest grid a JOM file holds, written out.

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

fn convert(obj: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("convert")
        .arg(obj)
        .arg("-o")
        .arg(out)
        .output()
        .expect("jomc runs")
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let big = dir.path().join("big.obj");
    std::fs::write(&big, grid_obj(400, 250)).expect("write OBJ");
    let largest = dir.path().join("largest.obj");
    std::fs::write(&largest, grid_obj(181, 181)).expect("write OBJ");
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

    let mut group = c.benchmark_group("convert");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("200k_triangles", |b| b.iter(|| convert(&big, &out)));
    group.bench_function("65k_triangles", |b| b.iter(|| convert(&largest, &out)));
    group.finish();
}

criterion_group!(convert_benches, benches);
criterion_main!(convert_benches);
