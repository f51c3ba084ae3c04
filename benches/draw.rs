//! The SH-2 benchmark's phases on the host (criterion), so that a regression shows without
//! an emulator: on the meshes of `make bench` (500, 2,000 and 4,000 textured quads sharing
//! their points, 16 bones), a whole frame of one draw (`ListFrame`) static and animated
//! (`pose_at`, `bone_matrices`, `draw_posed`), its phases alone (transform + project per
//! point; cull + sort + emit, timed by the frame's clock), model validation and texture
//! upload. `cargo bench --bench draw`.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    transform_points_reference, Camera, CommandBuffer, DrawError, DrawSlot, FrameMemory,
    FrameStats, FrameTables, ListFrame, LoadedModel, ModelVram, Posed, Projection, ViewPoint,
};
use jom::vdp1::{
    CommandTable, GouraudTable, MemoryVram, ModelTextures, Point, TextureCache, VramLayout,
    VRAM_SIZE,
};
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
    let mut textures = ModelTextures::EMPTY;
    TextureCache::<4>::new(layout.textures.clone())
        .load_model(model, &mut vram, |_, _| None, &mut textures)
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

/// Nanoseconds since the first reading, wrapping: the frames' clock.
fn nanos() -> u32 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u32
}

/// A frame's memory and list for one model of `points` and `polygons`, kept from frame to
/// frame.
struct Work {
    points: Vec<ViewPoint>,
    screens: Vec<Point>,
    keys: Vec<u32>,
    slots: Vec<DrawSlot>,
    tables: Box<FrameTables<1>>,
    commands: Vec<CommandTable>,
    gouraud: Vec<GouraudTable>,
}

impl Work {
    fn new(points: usize, polygons: usize) -> Self {
        Self {
            points: vec![ViewPoint::default(); points],
            screens: vec![Point::default(); points],
            keys: vec![0; 2 * polygons],
            slots: vec![DrawSlot::EMPTY],
            tables: Box::new(FrameTables::EMPTY),
            commands: vec![CommandTable::EMPTY; 4100],
            gouraud: vec![GouraudTable::default(); 16],
        }
    }

    /// A frame of `model` placed by `draw` (timed when `clock`), into the list from its
    /// head on.
    fn frame(
        &mut self,
        model: LoadedModel<'_>,
        camera: &Camera,
        clock: bool,
        draw: impl for<'f> FnOnce(&mut ListFrame<'f>, LoadedModel<'f>) -> Result<(), DrawError>,
    ) -> FrameStats {
        let mut memory = FrameMemory::new(
            &mut self.points,
            &mut self.screens,
            &mut self.keys,
            &mut self.slots,
            &mut self.tables,
        );
        let base = VramLayout::default().frame_gouraud.start;
        let mut list = CommandBuffer::new(&mut self.commands, 0, &mut self.gouraud, 0, base);
        list.start(camera.width, camera.height)
            .expect("room for the head");
        let mut frame = ListFrame::begin(memory.reborrow(), camera, None).expect("a camera");
        if clock {
            frame = frame.with_clock(nanos);
        }
        draw(&mut frame, model).expect("a draw");
        frame.finish(&mut list).expect("drawn")
    }
}

fn bench_frames(c: &mut Criterion) {
    for (name, columns, rows) in SCENES {
        let bytes = AlignedBytes::new(&jom_write::scenes::mesh(columns, rows).to_bytes());
        let model = Model::from_bytes(bytes.bytes()).expect("valid model");
        let (_, textures, gouraud) = upload(&model);
        let loaded = LoadedModel {
            model: &model,
            vram: ModelVram {
                textures: textures.slots(),
                gouraud: &gouraud,
            },
        };
        let (camera, transform) = (camera(), transform());
        let mut work = Work::new(model.points().len(), model.polygons().len());
        c.bench_function(&format!("frame, {name}, static"), |b| {
            b.iter(|| {
                let stats = work.frame(loaded, &camera, false, |frame, loaded| {
                    frame.draw(loaded, &transform)
                });
                std::hint::black_box(stats)
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
                let stats = work.frame(loaded, &camera, false, |frame, loaded| {
                    frame.draw_posed(loaded, &posed)
                });
                std::hint::black_box(stats)
            })
        });
        c.bench_function(&format!("cull + sort + emit, {name}"), |b| {
            b.iter_custom(|iterations| {
                let mut total = Duration::ZERO;
                for _ in 0..iterations {
                    let stats = work.frame(loaded, &camera, true, |frame, loaded| {
                        frame.draw(loaded, &transform)
                    });
                    total += Duration::from_nanos(u64::from(stats.times.sort + stats.times.emit));
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
            let mut textures = ModelTextures::<4>::EMPTY;
            TextureCache::<4>::new(layout.textures.clone())
                .load_model(&model, &mut vram, |_, _| None, &mut textures)
                .expect("texture fits");
            std::hint::black_box(textures)
        })
    });
}

criterion_group!(benches, bench_frames, bench_phases);
criterion_main!(benches);
