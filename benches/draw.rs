//! `draw` on the host: a frame of 500 and of 2,000 textured quads (a grid of quads facing
//! the camera, turned so that every polygon goes through the whole path: transform,
//! project, cull, sort, emit), and `draw_pose` of a 1,000-quad model skinned by group (16
//! bones, each moving a 64-quad group). `cargo bench --bench draw`.

use criterion::{criterion_group, criterion_main, Criterion};
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{draw, draw_pose, Camera, CommandList, DrawBuffers, ModelVram, Posed, ViewPoint};
use jom::vdp1::{MemoryVram, ModelTextures, TextureCache, VramLayout, VRAM_SIZE};
use jom::Model;
use jom_write::AlignedBytes;

/// The model's texture in VRAM (a host array), and no gouraud tables.
fn upload(model: &Model<'_>) -> (VramLayout, ModelTextures<4>, Vec<u16>) {
    let layout = VramLayout::default();
    let mut vram_bytes = vec![0; VRAM_SIZE as usize];
    let mut vram = MemoryVram::new(&mut vram_bytes);
    let textures = TextureCache::<4>::new(layout.textures.clone())
        .load_model::<4>(model, &mut vram, |_, _| None)
        .expect("texture fits");
    (layout, textures, vec![0; model.polygons().len()])
}

fn bench_draw(c: &mut Criterion) {
    // 23² = 529 and 45² = 2,025 quads: the 500 and 2,000 of the issue, rounded up to squares.
    for side in [23, 45] {
        let bytes = AlignedBytes::new(&jom_write::scenes::grid(side).to_bytes());
        let model = Model::from_bytes(bytes.bytes()).expect("valid model");
        let (layout, textures, gouraud) = upload(&model);
        let resources = ModelVram {
            textures: &textures,
            gouraud: &gouraud,
        };
        let camera = Camera {
            position: [0, 0, -3 * ONE],
            ..Camera::default()
        };
        let transform =
            Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
        let mut points = vec![ViewPoint::default(); model.points().len()];
        let mut order = vec![0; 2 * model.polygons().len()];
        c.bench_function(&format!("draw {} textured quads", side * side), |b| {
            b.iter(|| {
                let mut list = CommandList::<2100, 16>::new(320, 224, &layout);
                let mut buffers = DrawBuffers {
                    points: &mut points,
                    order: &mut order,
                    worker: None,
                };
                let stats = draw(
                    &mut list,
                    &model,
                    &resources,
                    &transform,
                    &camera,
                    None,
                    &mut buffers,
                );
                std::hint::black_box(stats.expect("drawn"))
            })
        });
    }
}

fn bench_draw_pose(c: &mut Criterion) {
    let bytes = AlignedBytes::new(&jom_write::scenes::skinned().to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("valid model");
    let (layout, textures, gouraud) = upload(&model);
    let resources = ModelVram {
        textures: &textures,
        gouraud: &gouraud,
    };
    let camera = Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    };
    let transform = Matrix::IDENTITY;
    let animation = model.animations().get(0).expect("one animation");
    let mut points = vec![ViewPoint::default(); model.points().len()];
    let mut order = vec![0; 2 * model.polygons().len()];
    c.bench_function(
        "draw_pose 1024 textured quads, 16 bones (with pose_at + bone_matrices)",
        |b| {
            b.iter(|| {
                let pose = pose_at(&animation, model.bones().len(), 15);
                let mut bones = [Matrix::IDENTITY; MAX_BONES];
                bone_matrices(&model, &pose, &mut bones);
                let root = root_matrix(&pose);
                let posed = Posed {
                    transform: &transform,
                    root: &root,
                    bones: &bones,
                };
                let mut list = CommandList::<1100, 16>::new(320, 224, &layout);
                let mut buffers = DrawBuffers {
                    points: &mut points,
                    order: &mut order,
                    worker: None,
                };
                let stats = draw_pose(
                    &mut list,
                    &model,
                    &resources,
                    &posed,
                    &camera,
                    None,
                    &mut buffers,
                );
                std::hint::black_box(stats.expect("drawn"))
            })
        },
    );
}

criterion_group!(benches, bench_draw, bench_draw_pose);
criterion_main!(benches);
