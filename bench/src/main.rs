//! The engine's phases timed on the SH-2 with its free-running timer (CPU clock / 128, so
//! with its overflow flag up to 16.7 million cycles a measurement): validation, poses,
//! `draw` of 529 and 2,025 textured quads phase by phase, `draw_pose` of 1,024 quads and 16 bones, texture upload. Each
//! result is a line in backup RAM (after the marker "JOMB"), read by `ci/bench.sh`. The
//! command lists (up to 134 KiB) live on the stack, which `link.x` makes 256 KiB.
#![no_std]
#![no_main]

use core::fmt::Write;
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::hw::backup_ram::BackupRamText;
use jom::hw::frt::{self, Divider, CPU_CLOCK_320};
use jom::hw::{self, SaturnVram};
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    draw_pose, draw_timed, Camera, CommandList, DrawBuffers, ModelVram, Posed, ViewPoint,
};
use jom::vdp1::{ModelTextures, TextureCache, VramLayout};
use jom::Model;

static GRID500: &[u8] = jom::include_aligned!(env!("JOM_BENCH_GRID500"));
static GRID2000: &[u8] = jom::include_aligned!(env!("JOM_BENCH_GRID2000"));
static SKIN: &[u8] = jom::include_aligned!(env!("JOM_BENCH_SKIN"));
static CHAIN: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAIN"));

const MAX_POINTS: usize = 4 * 4096;
const MAX_POLYGONS: usize = 4096;
const DIVIDER: Divider = Divider::By128;

/// Work buffers too large for the stack or high work RAM: in low work RAM, which is not
/// cleared at start (`link.x`): `main` clears what must start at zero.
struct Buffers {
    points: [ViewPoint; MAX_POINTS],
    order: [u64; MAX_POLYGONS],
    gouraud: [u16; MAX_POLYGONS],
}

#[link_section = ".lwram.buffers"]
static mut BUFFERS: Buffers = Buffers {
    points: [ViewPoint {
        view: [0; 3],
        screen: jom::vdp1::Point { x: 0, y: 0 },
    }; MAX_POINTS],
    order: [0; MAX_POLYGONS],
    gouraud: [0; MAX_POLYGONS],
};

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

#[no_mangle]
pub extern "C" fn main() -> ! {
    hw::mask_interrupts();
    hw::init_display(0x8000);
    frt::start(DIVIDER);
    let mut out = BackupRamText::open(b"JOMB");
    // SAFETY: the only reference to the buffers, taken once.
    let buffers = unsafe { &mut *core::ptr::addr_of_mut!(BUFFERS) };
    buffers.gouraud.fill(0);
    let _ = writeln!(
        out,
        "phase|scene|units|cycles|cycles per unit|frames per second"
    );

    let bytes = GRID2000.len() as u32;
    let validation = cycles(|| {
        let _ = core::hint::black_box(Model::from_bytes(core::hint::black_box(GRID2000)));
    });
    row(
        &mut out,
        "validation (from_bytes)",
        "GRID2000.JOM",
        bytes,
        "bytes",
        validation,
    );

    let chain = model(CHAIN);
    if let Some(animation) = chain.animations().get(0) {
        let mut matrices = [Matrix::IDENTITY; MAX_BONES];
        let pose = cycles(|| {
            let pose = pose_at(&animation, chain.bones().len(), 31);
            bone_matrices(&chain, &pose, &mut matrices);
        });
        row(
            &mut out,
            "pose_at + bone_matrices",
            "32-bone chain",
            1,
            "pose",
            pose,
        );
    }

    let layout = VramLayout::default();
    let mut vram = SaturnVram;
    // No 4,096-quad grid: at these speeds its phases last longer than two turns of the
    // timer (16.7 million cycles), which the clock cannot tell apart.
    for (name, bytes) in [("529 quads", GRID500), ("2,025 quads", GRID2000)] {
        let grid = model(bytes);
        let mut cache = TextureCache::<4>::new(layout.textures.clone());
        let mut textures: Option<ModelTextures<4>> = None;
        let upload =
            cycles(|| textures = cache.load_model::<4>(&grid, &mut vram, |_, _| None).ok());
        let Some(textures) = textures else { continue };
        if name == "529 quads" {
            row(
                &mut out,
                "texture upload (16x16 RGB555)",
                name,
                1,
                "512 bytes",
                upload,
            );
        }
        let resources = ModelVram {
            textures: &textures,
            gouraud: &buffers.gouraud[..grid.polygons().len()],
        };
        let camera = Camera {
            position: [0, 0, -3 * ONE],
            ..Camera::default()
        };
        let transform =
            Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
        let mut list = CommandList::<4200, 16>::new(320, 224, &layout);
        // The phases are timed inside `draw_timed` (one clock: two would clear each
        // other's overflow flag); the total is their sum.
        let mut work = DrawBuffers {
            points: &mut buffers.points,
            order: &mut buffers.order,
        };
        let timed = draw_timed(
            &mut list,
            &grid,
            &resources,
            &transform,
            &camera,
            None,
            &mut work,
            &mut clock(),
        );
        let Ok((stats, phases)) = timed else { continue };
        let drawn = stats.drawn;
        let time = (phases.transform + phases.sort + phases.emit) * DIVIDER.clocks();
        let quads = drawn as u32;
        let clocks = DIVIDER.clocks();
        row(
            &mut out,
            "draw (transform, project, cull, sort, emit)",
            name,
            quads,
            "visible quads",
            time,
        );
        let points = grid.points().len() as u32;
        row(
            &mut out,
            "  transform + project",
            name,
            points,
            "points",
            phases.transform * clocks,
        );
        row(
            &mut out,
            "  cull + depth + sort",
            name,
            quads,
            "quads",
            phases.sort * clocks,
        );
        row(
            &mut out,
            "  emit",
            name,
            quads,
            "quads",
            phases.emit * clocks,
        );
        cache.release_model(&textures);
    }

    let skin = model(SKIN);
    let mut cache = TextureCache::<4>::new(layout.textures.clone());
    if let (Ok(textures), Some(animation)) = (
        cache.load_model::<4>(&skin, &mut vram, |_, _| None),
        skin.animations().get(0),
    ) {
        let resources = ModelVram {
            textures: &textures,
            gouraud: &buffers.gouraud[..skin.polygons().len()],
        };
        let camera = Camera {
            position: [0, 0, -3 * ONE],
            ..Camera::default()
        };
        let mut list = CommandList::<1100, 16>::new(320, 224, &layout);
        let mut drawn = 0;
        let time = cycles(|| {
            let pose = pose_at(&animation, skin.bones().len(), 15);
            let mut bones = [Matrix::IDENTITY; MAX_BONES];
            bone_matrices(&skin, &pose, &mut bones);
            let root = root_matrix(&pose);
            let posed = Posed {
                transform: &Matrix::IDENTITY,
                root: &root,
                bones: &bones,
            };
            let mut work = DrawBuffers {
                points: &mut buffers.points,
                order: &mut buffers.order,
            };
            drawn = draw_pose(
                &mut list, &skin, &resources, &posed, &camera, None, &mut work,
            )
            .map_or(0, |s| s.drawn);
        });
        row(
            &mut out,
            "pose + draw_pose (16 bones)",
            "1,024 quads",
            drawn as u32,
            "visible quads",
            time,
        );
    }
    out.close();
    hw::init_display(0x8000 | 24 << 5);
    loop {}
}

/// A result line; the frames per second a frame of this work alone allows, for the
/// per-frame phases.
fn row(out: &mut BackupRamText, phase: &str, scene: &str, units: u32, unit: &str, cycles: u32) {
    let per_unit = cycles / units.max(1);
    let _ = write!(out, "{phase}|{scene}|{units} {unit}|{cycles}|{per_unit}|");
    let _ = match phase.starts_with("draw") || phase.starts_with("pose +") {
        true => writeln!(out, "{}", CPU_CLOCK_320 / cycles.max(1)),
        false => writeln!(out, "-"),
    };
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hw::init_display(0x8000 | 24);
    loop {}
}
