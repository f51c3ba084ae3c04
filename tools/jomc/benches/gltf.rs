//! `jomc convert` of a generated binary glTF, the binary run as a process:
//! `cargo bench -p jomc --bench gltf`.
//!
//! - `65k_triangles_glb`: a grid of 181 x 181 squares cut into 65,522 indexed triangles
//!   (positions and normals, 33,124 vertices) in one mesh node, as Blender's exporter
//!   writes them; the conversion pairs them back into 32,761 quads and writes the file.
//! - `65k_bumpy_triangles_glb`: the same grid over bumps (z = 0.01 sin(0.7 x) cos(0.9 y)
//!   at vertex (x, y), 0.01 apart): its triangles are folded by up to about 40 degrees, so
//!   only some pairs are allowed (`--quad-fold`, default 20) and the maximum matching has
//!   augmenting paths to find: 28,609 quads and 8,304 triangles left (the greedy pass
//!   alone: 24,232 quads, 17,058 triangles).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A GLB holding a grid of `n` x `n` squares, two triangles each, vertex (x, y) at height
/// `height(x, y)`.
fn grid_glb(n: u32, height: fn(u32, u32) -> f32) -> Vec<u8> {
    let side = n + 1;
    let mut bin = Vec::new();
    for y in 0..side {
        for x in 0..side {
            for c in [x as f32 * 0.01, y as f32 * 0.01, height(x, y)] {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
    }
    let positions = bin.len();
    for _ in 0..side * side {
        for c in [0.0f32, 0.0, 1.0] {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    let normals = bin.len() - positions;
    let index = |x: u32, y: u32| y * side + x;
    for y in 0..n {
        for x in 0..n {
            let (a, b, c, d) = (
                index(x, y),
                index(x + 1, y),
                index(x + 1, y + 1),
                index(x, y + 1),
            );
            for i in [a, b, c, a, c, d] {
                bin.extend_from_slice(&i.to_le_bytes());
            }
        }
    }
    let indices = bin.len() - positions - normals;
    let count = side * side;
    let json = format!(
        r#"{{"asset":{{"version":"2.0"}},"scene":0,"scenes":[{{"nodes":[0]}}],
        "nodes":[{{"name":"grid","mesh":0}}],
        "meshes":[{{"primitives":[{{"attributes":{{"POSITION":0,"NORMAL":1}},"indices":2}}]}}],
        "accessors":[
          {{"bufferView":0,"componentType":5126,"count":{count},"type":"VEC3","min":[0,0,0],"max":[2,2,0]}},
          {{"bufferView":1,"componentType":5126,"count":{count},"type":"VEC3"}},
          {{"bufferView":2,"componentType":5125,"count":{},"type":"SCALAR"}}],
        "bufferViews":[
          {{"buffer":0,"byteOffset":0,"byteLength":{positions}}},
          {{"buffer":0,"byteOffset":{positions},"byteLength":{normals}}},
          {{"buffer":0,"byteOffset":{},"byteLength":{indices}}}],
        "buffers":[{{"byteLength":{}}}]}}"#,
        n * n * 6,
        positions + normals,
        bin.len()
    );
    let mut json = json.into_bytes();
    while json.len() % 4 != 0 {
        json.push(b' ');
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut glb = Vec::with_capacity(total);
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&(total as u32).to_le_bytes());
    glb.extend_from_slice(&(json.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(&json);
    glb.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"BIN\0");
    glb.extend_from_slice(&bin);
    glb
}

fn convert(glb: &Path, out: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("convert")
        .arg(glb)
        .arg("-o")
        .arg(out)
        .output()
        .expect("jomc runs")
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let glb = dir.path().join("grid.glb");
    std::fs::write(&glb, grid_glb(181, |_, _| 0.0)).expect("write GLB");
    let bumpy = dir.path().join("bumpy.glb");
    let bumps = |x: u32, y: u32| 0.01 * (0.7 * x as f32).sin() * (0.9 * y as f32).cos();
    std::fs::write(&bumpy, grid_glb(181, bumps)).expect("write GLB");
    let out = dir.path().join("out.jom");
    for (file, expected) in [
        (
            &glb,
            "65522 triangles paired into 32761 quads, 0 triangles left",
        ),
        (&bumpy, "triangles paired into"),
    ] {
        let written = convert(file, &out);
        let summary = String::from_utf8_lossy(&written.stdout);
        assert!(
            written.status.success() && summary.contains(expected),
            "{summary}{}",
            String::from_utf8_lossy(&written.stderr)
        );
        eprintln!("{summary}");
    }
    let mut group = c.benchmark_group("convert");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("65k_triangles_glb", |b| b.iter(|| convert(&glb, &out)));
    group.bench_function("65k_bumpy_triangles_glb", |b| {
        b.iter(|| convert(&bumpy, &out))
    });
    group.finish();
}

criterion_group!(gltf, benches);
criterion_main!(gltf);
