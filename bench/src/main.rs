//! The engine's phases timed on the SH-2 with its free-running timer (CPU clock / 128, so
//! with its overflow flag up to 16.7 million cycles a measurement): validation, poses,
//! texture upload, and one frame of each scene (meshes of 500, 2,000 and 4,000 textured
//! quads, static through `draw` and animated by 16 bones through `draw_pose`) phase by
//! phase. Each result is a line in backup RAM (after the marker "JOMB", closed by "end"),
//! read by `ci/bench.sh`.
#![no_std]
#![no_main]

use core::fmt::Write;
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::hw::backup_ram::BackupRamText;
use jom::hw::frt::{self, Divider, CPU_CLOCK_320};
use jom::hw::slave::Slave;
use jom::hw::{self, SaturnVram};
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    draw_pose_timed, draw_timed, Camera, CommandList, DrawBuffers, DrawError, DrawStats, ModelVram,
    PhaseTimes, Posed, SortKey, ViewPoint, Worker,
};
use jom::vdp1::{ModelTextures, TextureCache, VramLayout};
use jom::Model;

static MESH500: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH500"));
static MESH2000: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH2000"));
static MESH4000: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH4000"));
static CHAIN: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAIN"));
/// The same chain with BMOT offsets and scales on every bone.
static CHAIN_MOTION: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAINMOT"));

const MAX_POINTS: usize = 4200;
const MAX_POLYGONS: usize = 4000;
const DIVIDER: Divider = Divider::By128;

/// The frame's work buffers and command list, in high work RAM (`.bss`) like a game's:
/// statics, since built on the stack they would overflow it.
struct Work {
    points: [ViewPoint; MAX_POINTS],
    order: [SortKey; 2 * MAX_POLYGONS],
    list: CommandList<{ MAX_POLYGONS + 8 }, 16>,
}

static mut WORK: Work = Work {
    points: [ViewPoint {
        view: [0; 3],
        screen: jom::vdp1::Point { x: 0, y: 0 },
    }; MAX_POINTS],
    order: [0; 2 * MAX_POLYGONS],
    list: CommandList::EMPTY,
};

/// The meshes have no GOUR tables.
static NO_GOURAUD: [u16; MAX_POLYGONS] = [0; MAX_POLYGONS];

/// The timer as a clock that counts its turns: a turn is seen through the timer's overflow
/// flag, so the span between two readings must stay under two turns (16.7 million cycles
/// at CPU clock / 128), and a span is measured as exactly as the counter allows.
fn clock() -> impl FnMut() -> u32 {
    frt::wrapped();
    let mut turns = 0u32;
    move || {
        let now = frt::count();
        if frt::wrapped() {
            turns += 1;
        }
        turns << 16 | u32::from(now)
    }
}

/// CPU cycles that `work` takes.
fn cycles(work: impl FnOnce()) -> u32 {
    let mut clock = clock();
    let start = clock();
    work();
    clock().wrapping_sub(start) * DIVIDER.clocks()
}

fn model(bytes: &'static [u8]) -> Model<'static> {
    match Model::from_bytes(bytes) {
        Ok(model) => model,
        Err(_) => loop {},
    }
}

jom::entry!(main);

fn main(saturn: hw::Saturn) -> ! {
    hw::init_display(0x8000);
    frt::start(DIVIDER);
    let mut out = BackupRamText::open(b"JOMB");
    let layout = VramLayout::default();
    // SAFETY: the only reference to the work space, taken once.
    let work = unsafe { &mut *core::ptr::addr_of_mut!(WORK) };
    work.list.reset(320, 224, &layout);
    let _ = writeln!(
        out,
        "phase|scene|units|cycles|cycles per unit|frames per second"
    );

    let validation = cycles(|| {
        let _ = core::hint::black_box(Model::from_bytes(core::hint::black_box(MESH4000)));
    });
    let bytes = MESH4000.len() as u32;
    row(
        &mut out,
        "validation (from_bytes)",
        "MESH4000.JOM",
        bytes,
        "bytes",
        validation,
    );

    for (bytes, scene) in [
        (CHAIN, "32-bone chain"),
        (CHAIN_MOTION, "32-bone chain, BMOT on every bone"),
    ] {
        pose_rows(&mut out, &model(bytes), scene);
    }

    let mut slave = match saturn.slave.start() {
        Ok(slave) => Some(slave),
        Err(_) => {
            let _ = writeln!(out, "the slave SH-2 did not start|-|-|-|-|-");
            None
        }
    };
    let mut vram = saturn.vram;
    for (name, bytes) in [
        ("500 quads", MESH500),
        ("2,000 quads", MESH2000),
        ("4,000 quads", MESH4000),
    ] {
        let mesh = model(bytes);
        let mut cache = TextureCache::<4>::new(layout.textures.clone());
        let mut textures: Option<ModelTextures<4>> = None;
        let upload =
            cycles(|| textures = cache.load_model::<4>(&mesh, &mut vram, |_, _| None).ok());
        let Some(textures) = textures else { continue };
        if name == "500 quads" {
            row(
                &mut out,
                "texture upload (64x64 RGB555, DMA)",
                name,
                8,
                "KiB",
                upload,
            );
        }
        let resources = ModelVram {
            textures: &textures,
            gouraud: &NO_GOURAUD[..mesh.polygons().len()],
        };
        for animated in [false, true] {
            let kind = if animated {
                "animated, 16 bones"
            } else {
                "static"
            };
            let (posing, timed) = frame(work, &mesh, &resources, animated, None);
            frame_rows(&mut out, kind, name, mesh.points().len(), posing, timed);
            if let (Some(slave), "2,000 quads" | "4,000 quads") = (slave.as_mut(), name) {
                let kind = if animated {
                    "animated, 16 bones, master + slave"
                } else {
                    "static, master + slave"
                };
                let (posing, timed) = frame(work, &mesh, &resources, animated, Some(slave));
                frame_rows(&mut out, kind, name, mesh.points().len(), posing, timed);
            }
        }
        cache.release_model(&textures);
    }
    let _ = writeln!(out, "end");
    out.close();
    hw::init_display(0x8000 | 24 << 5);
    loop {}
}

/// The rows of a 32-bone pose: `pose_at` between two keys, `bone_matrices`, both.
fn pose_rows(out: &mut BackupRamText, chain: &Model<'_>, scene: &str) {
    let Some(animation) = chain.animations().get(0) else {
        return;
    };
    let mut matrices = [Matrix::IDENTITY; MAX_BONES];
    let mut pose = None;
    let posing = cycles(|| pose = Some(pose_at(&animation, chain.bones().len(), 31)));
    let pose = pose.unwrap_or_default();
    let matrices_time = cycles(|| bone_matrices(chain, &pose, &mut matrices));
    row(out, "pose_at", scene, 32, "bones", posing);
    row(out, "bone_matrices", scene, 32, "bones", matrices_time);
    let both = posing + matrices_time;
    row(out, "pose_at + bone_matrices", scene, 32, "bones", both);
}

/// One frame of `mesh` (posed by its animation when `animated`) through `draw_timed` or
/// `draw_pose_timed`, with `worker` if any: the pose's time (0 for a static frame) and the
/// phases, in timer units.
fn frame(
    work: &mut Work,
    mesh: &Model<'_>,
    resources: &ModelVram<'_, 4>,
    animated: bool,
    worker: Option<&mut Slave>,
) -> (u32, Result<(DrawStats, PhaseTimes), DrawError>) {
    let camera = Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    };
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
    let mut buffers = DrawBuffers {
        points: &mut work.points,
        order: &mut work.order,
        worker: worker.map(|w| w as &mut dyn Worker),
    };
    work.list.clear();
    // One clock for the pose and the phases: two would clear each other's overflow flag.
    let mut clock = clock();
    let animation = mesh.animations().get(0).filter(|_| animated);
    let Some(animation) = animation else {
        let timed = draw_timed(
            &mut work.list,
            mesh,
            resources,
            &transform,
            &camera,
            None,
            &mut buffers,
            &mut clock,
        );
        return (0, timed);
    };
    let start = clock();
    let pose = pose_at(&animation, mesh.bones().len(), 15);
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    bone_matrices(mesh, &pose, &mut bones);
    let root = root_matrix(&pose);
    let posing = clock().wrapping_sub(start);
    let posed = Posed {
        transform: &transform,
        root: &root,
        bones: &bones,
    };
    let timed = draw_pose_timed(
        &mut work.list,
        mesh,
        resources,
        &posed,
        &camera,
        None,
        &mut buffers,
        &mut clock,
    );
    (posing, timed)
}

/// The rows of one frame of a scene: each phase (`posing`: the pose and its matrices, in
/// timer units, 0 for a static scene), then the whole frame per visible quad.
fn frame_rows(
    out: &mut BackupRamText,
    kind: &str,
    name: &str,
    points: usize,
    posing: u32,
    timed: Result<(DrawStats, PhaseTimes), DrawError>,
) {
    let scene = Scene(name, kind);
    let Ok((stats, phases)) = timed else {
        row(out, "draw failed", &scene, 0, "-", 0);
        return;
    };
    let clocks = DIVIDER.clocks();
    let quads = stats.drawn as u32;
    if posing != 0 {
        row(
            out,
            "  pose_at + bone_matrices",
            &scene,
            16,
            "bones",
            posing * clocks,
        );
    }
    row(
        out,
        "  transform + project",
        &scene,
        points as u32,
        "points",
        phases.transform * clocks,
    );
    row(
        out,
        "  cull + depth + sort",
        &scene,
        quads,
        "visible quads",
        phases.sort * clocks,
    );
    row(
        out,
        "  emit",
        &scene,
        quads,
        "visible quads",
        phases.emit * clocks,
    );
    row(
        out,
        "  cull + sort + emit",
        &scene,
        quads,
        "visible quads",
        (phases.sort + phases.emit) * clocks,
    );
    let frame = (posing + phases.transform + phases.sort + phases.emit) * clocks;
    row(out, "frame", &scene, quads, "visible quads", frame);
}

/// A scene's name and kind ("static" or "animated").
struct Scene<'s>(&'s str, &'s str);

impl core::fmt::Display for Scene<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.1 {
            "" => write!(f, "{}", self.0),
            kind => write!(f, "{}, {kind}", self.0),
        }
    }
}

/// A result line; the frames per second a frame of this work alone allows, for frames.
fn row(
    out: &mut BackupRamText,
    phase: &str,
    scene: impl core::fmt::Display,
    units: u32,
    unit: &str,
    cycles: u32,
) {
    // Cycles per unit to a tenth (units of a few cycles, such as validation's bytes).
    let tenths = (u64::from(cycles) * 10 / u64::from(units.max(1))) as u32;
    let per_unit = tenths / 10;
    let tenth = tenths % 10;
    let _ = write!(
        out,
        "{phase}|{scene}|{units} {unit}|{cycles}|{per_unit}.{tenth}|"
    );
    let _ = match phase == "frame" {
        true => writeln!(out, "{}", CPU_CLOCK_320 / cycles.max(1)),
        false => writeln!(out, "-"),
    };
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hw::init_display(0x8000 | 24);
    loop {}
}
