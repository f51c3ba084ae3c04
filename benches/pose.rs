//! Animation on the host: the pose of a 32-bone skeleton between two keys (`pose_at`) and
//! the matrices of its bones (`bone_matrices`), alone and together as a frame does them.
//! The skeleton is a chain (each bone the child of the one before, the deepest hierarchy).
//! `cargo bench --bench pose`.

use criterion::{criterion_group, criterion_main, Criterion};
use jom::anim::{bone_matrices, pose_at, Pose};
use jom::format::MAX_BONES;
use jom::math::{Matrix, ONE};
use jom::Model;
use jom_write::{AlignedBytes, Animation, Bone, JomFile, Key, Material, Polygon};

/// A square and a chain of 32 bones, with an 8-key looped animation, keys 7 ticks apart.
fn chain() -> JomFile {
    let bones = (0..MAX_BONES)
        .map(|i| Bone {
            name: format!("bone{i}"),
            group: 0xFFFF,
            parent: i as i16 - 1,
            pivot: [0, -(i as i32) * ONE / 4, i as i32 * 100],
        })
        .collect();
    let keys = (0..8)
        .map(|k: i32| Key {
            root: [k * ONE / 8, -k * 1000, k * 77],
            angles: (0..MAX_BONES as i32)
                .map(|b| {
                    let a = (k * 0x1234 + b * 0x0567) as i16;
                    [a, a.wrapping_mul(3), a.wrapping_neg()]
                })
                .collect(),
        })
        .collect();
    JomFile {
        version: 1,
        radius: 8 * ONE,
        points: vec![
            [-ONE, -ONE, 0],
            [ONE, -ONE, 0],
            [ONE, ONE, 0],
            [-ONE, ONE, 0],
        ],
        polygons: vec![Polygon {
            normal: [0, 0, -ONE],
            corners: [0, 1, 2, 3],
        }],
        polygon_materials: vec![0],
        materials: vec![Material {
            name: "default".into(),
            texture: -1,
            ..Default::default()
        }],
        bones: Some(bones),
        animations: Some(vec![Animation {
            name: "wave".into(),
            key_ticks: 7,
            looped: true,
            keys,
        }]),
        ..Default::default()
    }
}

fn bench_pose(c: &mut Criterion) {
    let bytes = AlignedBytes::new(&chain().to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("valid model");
    let animation = model.animations().get(0).expect("one animation");
    let bone_count = model.bones().len();
    assert_eq!(bone_count, MAX_BONES);
    let mut out = [Matrix::IDENTITY; MAX_BONES];
    // Tick 31: between keys 4 and 5, so every value is interpolated.
    let time = std::hint::black_box(31);
    c.bench_function("pose_at, 32 bones", |b| {
        b.iter(|| std::hint::black_box(pose_at(&animation, bone_count, time)))
    });
    let pose: Pose = pose_at(&animation, bone_count, time);
    c.bench_function("bone_matrices, 32 bones in a chain", |b| {
        b.iter(|| {
            bone_matrices(&model, std::hint::black_box(&pose), &mut out);
            std::hint::black_box(&out);
        })
    });
    c.bench_function("pose_at + bone_matrices, 32 bones", |b| {
        b.iter(|| {
            let pose = pose_at(&animation, bone_count, time);
            bone_matrices(&model, &pose, &mut out);
            std::hint::black_box(&out);
        })
    });
}

criterion_group!(benches, bench_pose);
criterion_main!(benches);
