//! The SH-2 benchmark's phases on the host (criterion), so that a regression shows without
//! an emulator: on the meshes of `make bench` (500, 2,000 and 4,000 textured quads sharing
//! their points, 16 bones), a whole frame static (`draw`) and animated (`pose_at`,
//! `bone_matrices`, `draw_pose`), its phases alone (transform + project per point; cull +
//! sort + emit, timed inside `draw_timed`), model validation and texture upload.
//! `cargo bench --bench draw`.

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    draw, draw_pose, draw_timed, transform_points_reference, Camera, CommandList, DrawBuffers,
    ModelVram, Posed, Projection, ViewPoint,
};
use jom::vdp1::{MemoryVram, ModelTextures, TextureCache, VramLayout, VRAM_SIZE};
use jom::Model;
use jom_write::AlignedBytes;

/// The scenes of `make bench`: (name, columns, rows).
const SCENES: [(&str, usize, usize); 3] = [
    ("500 quads", 25, 20),
    ("2,000 quads", 50, 40),
    ("4,000 quads", 80, 50),
];

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

fn camera() -> Camera {
    Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    }
}

fn transform() -> Matrix {
    Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)])
}

fn bench_frames(c: &mut Criterion) {
    for (name, columns, rows) in SCENES {
        let bytes = AlignedBytes::new(&jom_write::scenes::mesh(columns, rows).to_bytes());
        let model = Model::from_bytes(bytes.bytes()).expect("valid model");
        let (layout, textures, gouraud) = upload(&model);
        let resources = ModelVram {
            textures: textures.slots(),
            gouraud: &gouraud,
        };
        let (camera, transform) = (camera(), transform());
        let mut points = vec![ViewPoint::default(); model.points().len()];
        let mut order = vec![0; 2 * model.polygons().len()];
        let mut list = Box::new(CommandList::<4100, 16>::new(320, 224, &layout));
        c.bench_function(&format!("frame, {name}, static"), |b| {
            b.iter(|| {
                list.clear();
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
        let animation = model.animations().get(0).expect("one animation");
        c.bench_function(&format!("frame, {name}, animated, 16 bones"), |b| {
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
                list.clear();
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
        });
        c.bench_function(&format!("cull + sort + emit, {name}"), |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    list.clear();
                    let mut buffers = DrawBuffers {
                        points: &mut points,
                        order: &mut order,
                        worker: None,
                    };
                    let start = Instant::now();
                    let mut clock = || start.elapsed().as_nanos() as u32;
                    let (_, phases) = draw_timed(
                        &mut list,
                        &model,
                        &resources,
                        &transform,
                        &camera,
                        None,
                        &mut buffers,
                        &mut clock,
                    )
                    .expect("drawn");
                    total += Duration::from_nanos(u64::from(phases.sort + phases.emit));
                }
                total
            })
        });
    }
}

fn bench_phases(c: &mut Criterion) {
    let bytes = AlignedBytes::new(&jom_write::scenes::mesh(80, 50).to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("valid model");
    let projection = Projection::of(&camera());
    let matrix = camera().view().then(&transform());
    let mut points = vec![ViewPoint::default(); model.points().len()];
    c.bench_function("transform + project, 4,131 points", |b| {
        b.iter(|| {
            transform_points_reference(&matrix, &projection, model.points(), &mut points);
            std::hint::black_box(&points);
        })
    });
    c.bench_function("validation, MESH4000 (147,116 bytes)", |b| {
        b.iter(|| std::hint::black_box(Model::from_bytes(std::hint::black_box(bytes.bytes()))))
    });
    let layout = VramLayout::default();
    let mut vram_bytes = vec![0; VRAM_SIZE as usize];
    c.bench_function("texture upload, 64x64 RGB555 (8 KiB)", |b| {
        b.iter(|| {
            let mut vram = MemoryVram::new(&mut vram_bytes);
            let textures = TextureCache::<4>::new(layout.textures.clone()).load_model::<4>(
                &model,
                &mut vram,
                |_, _| None,
            );
            std::hint::black_box(textures.expect("texture fits"))
        })
    });
}

criterion_group!(benches, bench_frames, bench_phases);
criterion_main!(benches);
