//! Animation on the host: the pose of a 32-bone skeleton between two keys (`pose_at`) and
//! the matrices of its bones (`bone_matrices`), alone and together as a frame does them.
//! The skeleton is a chain (each bone the child of the one before, the deepest hierarchy).
//! `cargo bench --bench pose`.

use criterion::{criterion_group, criterion_main, Criterion};
use jom::anim::{bone_matrices, pose_at, Pose};
use jom::format::MAX_BONES;
use jom::math::Matrix;
use jom::Model;
use jom_write::AlignedBytes;

fn bench_pose(c: &mut Criterion) {
    let bytes = AlignedBytes::new(&jom_write::scenes::chain().to_bytes());
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

/// The same with BMOT offsets and scales on every bone (issue 17).
fn bench_pose_motion(c: &mut Criterion) {
    let bytes = AlignedBytes::new(&jom_write::scenes::chain_motion().to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("valid model");
    let animation = model.animations().get(0).expect("one animation");
    assert_eq!(animation.motion.len(), MAX_BONES);
    let mut out = [Matrix::IDENTITY; MAX_BONES];
    let time = std::hint::black_box(31);
    c.bench_function(
        "pose_at + bone_matrices, 32 bones, BMOT on every bone",
        |b| {
            b.iter(|| {
                let pose = pose_at(&animation, MAX_BONES, time);
                bone_matrices(&model, &pose, &mut out);
                std::hint::black_box(&out);
            })
        },
    );
}

criterion_group!(benches, bench_pose, bench_pose_motion);
criterion_main!(benches);
