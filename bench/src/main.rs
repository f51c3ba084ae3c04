//! The engine's phases timed on the SH-2 with its free-running timer (CPU clock / 128, so
//! with its overflow flag up to 16.7 million cycles a measurement): validation, poses,
//! texture upload, and one frame of each scene (meshes of 500, 2,000 and 4,000 textured
//! quads, static through `Frame::draw` and animated by 16 bones through
//! `Frame::draw_posed`, through the game-facing `Renderer`) phase by phase. Each result is a line in backup RAM (after the marker "JOMB", closed by "end"),
//! read by `ci/bench.sh`.
#![no_std]
#![no_main]

use core::cell::RefCell;
use core::fmt::Write;
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::hw::backup_ram::BackupRamText;
use jom::hw::frt::{self, Divider, CPU_CLOCK_320};
use jom::hw::{self, SaturnVram};
use jom::math::{Angle, Matrix, ONE};
use jom::render::{Camera, DrawError, FrameStats, ModelHandle, Posed, Renderer, Worker};
use jom::vdp1::{CommandTable, FrameTimeout, GouraudTable, Vdp1, Vram};
use jom::Model;

static MESH500: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH500"));
static MESH2000: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH2000"));
static MESH4000: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH4000"));
static CHAIN: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAIN"));
/// The same chain with BMOT offsets and scales on every bone.
static CHAIN_MOTION: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAINMOT"));

const DIVIDER: Divider = Divider::By128;

/// The renderer's memory for one mesh a frame: 4,131 points and 4,000 quads at most, a list
/// of the 3 head commands, the quads and the end; the meshes have no GOUR and one texture.
macro_rules! bench_memory {
    () => {
        jom::renderer_memory!(points: 4200, polygons: 4000, commands: 4008, frame_gouraud: 16,
            model_gouraud: 16, textures: 4, model_textures: 4, model_polygons: 16, draws: 1)
    };
}

/// The one VDP1 VRAM shared by the bench's two renderers (one frame at a time).
struct SharedVram<'v>(&'v RefCell<SaturnVram>);

impl Vram for SharedVram<'_> {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        self.0.borrow_mut().write(address, bytes);
    }

    fn write_command(&mut self, address: u32, table: &CommandTable) {
        self.0.borrow_mut().write_command(address, table);
    }

    fn write_commands(&mut self, address: u32, tables: &[CommandTable]) {
        self.0.borrow_mut().write_commands(address, tables);
    }

    fn write_gouraud(&mut self, address: u32, table: &GouraudTable) {
        self.0.borrow_mut().write_gouraud(address, table);
    }
}

impl Vdp1 for SharedVram<'_> {
    fn wait_frame_change(&mut self) -> Result<(), FrameTimeout> {
        self.0.borrow_mut().wait_frame_change()
    }
}

/// The timer's turns seen so far, through its overflow flag: the renderer's clock is a
/// plain function, so the count lives here.
static mut TURNS: u32 = 0;

/// The timer as a clock that counts its turns: a span between two readings must stay
/// under two turns (16.7 million cycles at CPU clock / 128), and is measured as exactly as
/// the counter allows. One clock for everything timed: two would clear each other's
/// overflow flag.
fn clock() -> u32 {
    let now = frt::count();
    // SAFETY: only the master CPU runs this program's code (the slave runs the jobs it is
    // given), and the clock is never read from inside itself.
    let turns = unsafe { &mut *core::ptr::addr_of_mut!(TURNS) };
    if frt::wrapped() {
        *turns += 1;
    }
    *turns << 16 | u32::from(now)
}

/// CPU cycles that `work` takes.
fn cycles(work: impl FnOnce()) -> u32 {
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
    frt::wrapped();
    let mut out = BackupRamText::open(b"JOMB");
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
    let with_slave = slave.is_some();
    // The master alone, and the master with the slave as the renderer's worker: two
    // renderers (the worker is given when one is made) drawing the one VRAM.
    let vram = RefCell::new(saturn.vram);
    let (Some(alone), Some(shared)) = (bench_memory!(), bench_memory!()) else {
        give_up(out, "the renderer's memory was taken")
    };
    let renderers = (
        Renderer::new(SharedVram(&vram), alone, None),
        Renderer::new(
            SharedVram(&vram),
            shared,
            slave.as_mut().map(|s| s as &mut dyn Worker),
        ),
    );
    let (Ok(alone), Ok(shared)) = renderers else {
        give_up(out, "the renderer refused its memory")
    };
    for renderer in [&alone, &shared] {
        renderer.set_clock(Some(clock));
    }
    for (name, bytes) in [
        ("500 quads", MESH500),
        ("2,000 quads", MESH2000),
        ("4,000 quads", MESH4000),
    ] {
        let mesh = model(bytes);
        let mut loaded = None;
        let upload = cycles(|| loaded = alone.load(&mesh).ok());
        let (Some(handle), Ok(shared_handle)) = (loaded, shared.load(&mesh)) else {
            continue;
        };
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
        for animated in [false, true] {
            let kind = if animated {
                "animated, 16 bones"
            } else {
                "static"
            };
            let (posing, stats) = frame(&alone, &handle, animated);
            frame_rows(&mut out, kind, name, mesh.points().len(), posing, stats);
            if let (true, "2,000 quads" | "4,000 quads") = (with_slave, name) {
                let kind = if animated {
                    "animated, 16 bones, master + slave"
                } else {
                    "static, master + slave"
                };
                let (posing, stats) = frame(&shared, &shared_handle, animated);
                frame_rows(&mut out, kind, name, mesh.points().len(), posing, stats);
            }
        }
    }
    let _ = writeln!(out, "end");
    out.close();
    hw::init_display(0x8000 | 24 << 5);
    loop {}
}

/// Ends the results with `why` (no "end": the report says the run did not finish) and
/// stops on a red screen.
fn give_up(mut out: BackupRamText, why: &str) -> ! {
    let _ = writeln!(out, "{why}|-|-|-|-|-");
    out.close();
    hw::init_display(0x8000 | 24);
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

/// One frame of `mesh` (posed by its animation when `animated`) through `renderer`: the
/// pose's time (0 for a static frame), in timer units, and what the frame did (its phase
/// times too). The wait for the VDP1's frame change, at the frame's start, is not timed.
fn frame<V: Vdp1>(
    renderer: &Renderer<'_, V>,
    mesh: &ModelHandle<'_, '_>,
    animated: bool,
) -> (u32, Result<FrameStats, DrawError>) {
    let camera = Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    };
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
    let mut frame = match renderer.begin(&camera, None) {
        Ok(frame) => frame,
        Err(error) => return (0, Err(error)),
    };
    let model = mesh.model();
    let animation = model.animations().get(0).filter(|_| animated);
    let Some(animation) = animation else {
        return (
            0,
            frame.draw(mesh, &transform).and_then(|()| frame.finish()),
        );
    };
    let start = clock();
    let pose = pose_at(&animation, model.bones().len(), 15);
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    bone_matrices(model, &pose, &mut bones);
    let root = root_matrix(&pose);
    let posing = clock().wrapping_sub(start);
    let posed = Posed {
        transform: &transform,
        root: &root,
        bones: &bones,
    };
    let stats = frame.draw_posed(mesh, &posed).and_then(|()| frame.finish());
    (posing, stats)
}

/// The rows of one frame of a scene: each phase (`posing`: the pose and its matrices, in
/// timer units, 0 for a static scene), then the whole frame per visible quad.
fn frame_rows(
    out: &mut BackupRamText,
    kind: &str,
    name: &str,
    points: usize,
    posing: u32,
    stats: Result<FrameStats, DrawError>,
) {
    let scene = Scene(name, kind);
    let Ok(FrameStats {
        drawn,
        times: phases,
        ..
    }) = stats
    else {
        row(out, "draw failed", &scene, 0, "-", 0);
        return;
    };
    let clocks = DIVIDER.clocks();
    let quads = drawn as u32;
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
    // What the renderer adds after the emission (the old `draw` left the list in RAM): the
    // list and its gouraud tables written to VRAM, the jump at VRAM 0 pointed at them.
    let commit = phases.commit * clocks;
    row(out, "  commit", &scene, quads, "visible quads", commit);
    let committed = frame + commit;
    row(
        out,
        "frame + commit",
        &scene,
        quads,
        "visible quads",
        committed,
    );
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
    let _ = match phase.starts_with("frame") {
        true => writeln!(out, "{}", CPU_CLOCK_320 / cycles.max(1)),
        false => writeln!(out, "-"),
    };
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hw::init_display(0x8000 | 24);
    loop {}
}
