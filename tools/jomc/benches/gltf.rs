//! `jomc convert` of a generated binary glTF, the binary run as a process:
//! `cargo bench -p jomc --bench gltf`.
//!
//! - `65k_triangles_glb`: a grid of 181 x 181 squares cut into 65,522 indexed triangles
//!   (positions and normals, 33,124 vertices) in one mesh node, as Blender's exporter
//!   writes them; the conversion pairs them back into 32,761 quads and writes the file.

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// A GLB holding a flat grid of `n` x `n` squares, two triangles each.
fn grid_glb(n: u32) -> Vec<u8> {
    let side = n + 1;
    let mut bin = Vec::new();
    for y in 0..side {
        for x in 0..side {
            for c in [x as f32 * 0.01, y as f32 * 0.01, 0.0] {
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
    std::fs::write(&glb, grid_glb(181)).expect("write GLB");
    let out = dir.path().join("out.jom");
    let written = convert(&glb, &out);
    let summary = String::from_utf8_lossy(&written.stdout);
    assert!(
        written.status.success() && summary.contains("65522 triangles paired into quads"),
        "{summary}{}",
        String::from_utf8_lossy(&written.stderr)
    );
    let mut group = c.benchmark_group("convert");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("65k_triangles_glb", |b| b.iter(|| convert(&glb, &out)));
    group.finish();
}

criterion_group!(gltf, benches);
criterion_main!(gltf);
