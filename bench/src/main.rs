//! The engine's phases timed on the SH-2 with its free-running timer (CPU clock / 128, so
//! with its overflow flag up to 16.7 million cycles a measurement): validation, poses, a
//! model's load (its texture's upload), and one frame of each scene (meshes of 500, 2,000
//! and 4,000 textured quads, static through `Frame::draw` and animated by 16 bones through
//! `Frame::draw_posed`, through the game-facing `Renderer`, by the master alone and with
//! the slave lent to it) phase by phase, the 2,000-quad mesh also from low work RAM; then
//! the frames the player sees of 2,000 quads sized as a game's on screen (`display`). Each
//! result is a line in backup RAM (after the marker "JOMB", closed by "end"), read by
//! `ci/bench.sh`.
//!
//! Cycles are cycles on any console; the figures a second are of the console it runs on,
//! at its clock (`cpu_clock`): BENCHMARKS.md's are an NTSC console's (Mednafen's default
//! region), and on a PAL one (Mednafen `--region eu`) a row after the header says so and
//! the frames a second are at PAL's 26.69 MHz and 49.92 fields a second.
#![no_std]
#![no_main]

mod display;

use core::fmt::Write;
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::hw::backup_ram::BackupRamText;
use jom::hw::frt::{self, Divider};
use jom::hw::{self, SaturnVram, ScreenWidth, VideoStandard};
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    Billboard, Camera, DrawError, Fog, FrameStats, ModelHandle, Posed, Renderer, Worker,
};
use jom::vdp1::{CommandTable, FrameEnd, FrameTimeout, GouraudTable, Vdp1, Vram};
use jom::vdp2::floor::{Buffer, LINES};
use jom::vdp2::{Floor, FloorFrame, Sky, Vdp2Memory};
use jom::Model;

static MESH500: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH500"));
static MESH2000: &[u8] = jom::include_aligned!(env!("JOM_BENCH_MESH2000"));
static CHAIN: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAIN"));
/// The same chain with BMOT offsets and scales on every bone.
static CHAIN_MOTION: &[u8] = jom::include_aligned!(env!("JOM_BENCH_CHAINMOT"));
/// A ground of 1,600 quads in 10 x 10 regions (REGN) of 4 x 4 quads, 160 x 160 units, and
/// the same without REGN (`bench_models`).
static LEVEL: &[u8] = jom::include_aligned!(env!("JOM_BENCH_LEVEL"));
static LEVEL_PLAIN: &[u8] = jom::include_aligned!(env!("JOM_BENCH_LEVELPLAIN"));
/// Read from the CD, in turn, into one buffer of high work RAM (the program has no room
/// for both beside the renderer): the 4,000-quad mesh, then the on-screen scene (two
/// layers of quads that cover the screen about 1.5 times: `bench_models`'
/// `SCREEN2000.JOM`).
const MESH4000_FILE: &str = "MESH4000.JOM";
const SCREEN_FILE: &str = "SCREEN.JOM";
const DISC_BYTES: usize = 148 * 1024;
static mut DISC_BUFFER: jom::Aligned<[u8; DISC_BYTES]> = jom::Aligned([0; DISC_BYTES]);

/// Where the 2,000-quad mesh is copied to be drawn from low work RAM (where the showcase
/// read its models before issue 14): its file is 77 KiB.
const LOW_BYTES: usize = 80 * 1024;
#[link_section = ".lwram.mesh"]
static mut LOW_MESH: jom::Aligned<[u8; LOW_BYTES]> = jom::Aligned([0; LOW_BYTES]);

/// How long each scene of the frames displayed runs, in seconds of the timer.
const DISPLAY_SECONDS: u32 = 5;
/// Frame changes the VDP1 alone is watched re-drawing the list.
const REDRAW_FIELDS: u32 = 300;

const DIVIDER: Divider = Divider::By128;

/// The master SH-2's clock on this console (NTSC or PAL) at the bench's 320 pixels (Hz):
/// what its figures a second are divided by.
fn cpu_clock() -> u32 {
    frt::cpu_clock(hw::video_standard(), ScreenWidth::W320)
}

/// Fields a second in hundredths, for the frames a second a draw of whole fields allows:
/// NTSC's as the bench has always given them (the nominal 59.94; Mednafen's NTSC fields
/// are 59.83 a second), PAL's 49.92.
fn fields_per_100_seconds() -> u32 {
    match hw::video_standard() {
        VideoStandard::Ntsc => 5994,
        VideoStandard::Pal => (frt::fields_per_1000_seconds(VideoStandard::Pal) + 5) / 10,
    }
}

/// The VDP1 VRAM as the bench's renderer draws it: `SaturnVram`, its command writes and
/// frame-change waits watched for the frames displayed (`display`).
struct WatchedVram(SaturnVram);

impl Vram for WatchedVram {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        self.0.write(address, bytes);
        // The jump's control word, written last (its link first).
        if address == 0 {
            display::jump_pointed();
        }
    }

    fn write_command(&mut self, address: u32, table: &CommandTable) {
        display::command_written(address, table);
        self.0.write_command(address, table);
    }

    fn write_commands(&mut self, address: u32, tables: &[CommandTable]) {
        self.0.write_commands(address, tables);
    }

    fn write_gouraud(&mut self, address: u32, table: &GouraudTable) {
        self.0.write_gouraud(address, table);
    }
}

impl Vdp1 for WatchedVram {
    fn list_flipped(&mut self) {
        self.0.list_flipped();
    }

    fn frame_changed(&mut self) -> bool {
        self.0.frame_changed()
    }

    fn wait_frame_change(&mut self) -> Result<(), FrameTimeout> {
        if !display::watching() {
            return self.0.wait_frame_change();
        }
        // `SaturnVram`'s wait, reading the VDP1's registers all through it.
        self.0
            .wait_frame_change_with(|| display::look(clock()))
            .map_err(|timeout| FrameTimeout {
                waiting_for: timeout.waiting_for,
            })
    }

    fn last_frame_end(&mut self) -> FrameEnd {
        self.0.last_frame_end()
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
    let mut now = frt::count();
    // SAFETY: only the master CPU runs this program's code (the slave runs the jobs it is
    // given), and the clock is never read from inside itself.
    let turns = unsafe { &mut *core::ptr::addr_of_mut!(TURNS) };
    if frt::wrapped() {
        *turns += 1;
        // Read again: the turn may have come after the reading above, which would then
        // count as one turn later.
        now = frt::count();
    }
    let time = *turns << 16 | u32::from(now);
    // While the frames displayed are counted, every reading of the clock (the renderer's,
    // between its phases) also looks at the VDP1.
    display::look(time);
    time
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
    hw::stack::paint();
    let hw::Saturn {
        vram, slave, cd, ..
    } = saturn;
    hw::init_display(0x8000);
    frt::start(DIVIDER);
    frt::wrapped();
    let mut out = BackupRamText::open(b"JOMB");
    let _ = writeln!(
        out,
        "phase|scene|units|cycles|cycles per unit|frames per second"
    );
    if hw::video_standard() == VideoStandard::Pal {
        let fields = fields_per_100_seconds();
        let _ = writeln!(
            out,
            "a PAL console: frames a second at {} Hz, {}.{:02} fields a second|-|-|-|-|-",
            cpu_clock(),
            fields / 100,
            fields % 100
        );
    }

    let mut cd = cd;
    // SAFETY: the only reference to the buffer, for the rest of the program.
    let disc = unsafe { &mut *core::ptr::addr_of_mut!(DISC_BUFFER) };
    // Before anything is in VRAM or the buffer (its bytes are the DMA's source).
    dma_overlap_rows(&mut out, &mut disc.0);
    let Some(mesh4000) = read_file(&mut cd, MESH4000_FILE, &mut disc.0) else {
        give_up(out, "MESH4000.JOM could not be read from the CD")
    };
    let validation = cycles(|| {
        let _ = core::hint::black_box(Model::from_bytes(core::hint::black_box(mesh4000)));
    });
    let bytes = mesh4000.len() as u32;
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

    floor_rows(&mut out);

    let mut slave = match slave.start() {
        Ok(slave) => Some(slave),
        Err(_) => {
            let _ = writeln!(out, "the slave SH-2 did not start|-|-|-|-|-");
            None
        }
    };
    let with_slave = slave.is_some();
    // The master alone, and the master with the slave as the renderer's worker (lent
    // for the rows "master + slave": `with_slave_lent`).
    // For one mesh a frame: 4,131 points and 4,000 quads at most, a list of the 3 head
    // commands, the quads and the end; the meshes have no GOUR and one texture, and are one
    // plane each, facing the camera (no plane runs kept: nothing to pass over).
    // Frame gouraud tables for the billboards in fog (one each: `billboard_rows`).
    let memory = jom::renderer_memory!(points: 4200, polygons: 4000, commands: 4008,
        frame_gouraud: 1024, model_gouraud: 16, textures: 4, model_textures: 4,
        model_polygons: 16, model_planes: 0, draws: 1);
    let Some(memory) = memory else {
        give_up(out, "the renderer's memory was taken")
    };
    let Some((placed, keys)) = jom::billboard_memory!(BILLBOARDS) else {
        give_up(out, "the billboards' memory was taken")
    };
    let memory = memory.with_billboards(placed, keys);
    let Ok(renderer) = Renderer::new(WatchedVram(vram), memory, None) else {
        give_up(out, "the renderer refused its memory")
    };
    renderer.set_clock(Some(clock));
    let mut slave = slave.as_mut().map(|s| s as &mut dyn Worker);
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    for (name, bytes) in [
        ("500 quads", MESH500),
        ("2,000 quads", MESH2000),
        ("4,000 quads", &*mesh4000),
    ] {
        let Ok(mesh) = Model::from_bytes(bytes) else {
            continue;
        };
        let mut loaded = None;
        let load = cycles(|| loaded = renderer.load(&mesh).ok());
        let Some(handle) = loaded else {
            continue;
        };
        if name == "500 quads" {
            billboard_rows(&mut out, &renderer, &handle);
            // The whole load: its 64x64 RGB555 texture (8 KiB) by DMA and the model's
            // tables (`corners_in_groups`' pass over its polygons, for one).
            row(
                &mut out,
                "Renderer::load (a 64x64 RGB555 texture by DMA)",
                name,
                8,
                "KiB",
                load,
            );
        }
        for animated in [false, true] {
            let kind = if animated {
                "animated, 16 bones"
            } else {
                "static"
            };
            let (posing, stats) = frame(
                &renderer,
                &handle,
                animated.then_some(&mut bones),
                &bench_camera(),
            );
            frame_rows(&mut out, kind, name, mesh.points().len(), posing, stats);
            if let (true, "2,000 quads" | "4,000 quads") = (with_slave, name) {
                let kind = if animated {
                    "animated, 16 bones, master + slave"
                } else {
                    "static, master + slave"
                };
                let (posing, stats) = with_slave_lent(&renderer, &mut slave, || {
                    frame(
                        &renderer,
                        &handle,
                        animated.then_some(&mut bones),
                        &bench_camera(),
                    )
                });
                frame_rows(&mut out, kind, name, mesh.points().len(), posing, stats);
            }
        }
    }
    low_work_ram_rows(&mut out, &renderer, &mut slave);
    level_rows(&mut out, &renderer, &mut slave);
    // The 4,000-quad mesh's handle is gone: its buffer takes the on-screen scene.
    let screen = read_file(&mut cd, SCREEN_FILE, &mut disc.0).map(Model::from_bytes);
    let Some(Ok(screen)) = screen else {
        give_up(out, "SCREEN.JOM could not be read from the CD")
    };
    match renderer.load(&screen) {
        Ok(handle) => {
            displayed_rows(&mut out, &renderer, &handle, "master alone");
            if with_slave {
                with_slave_lent(&renderer, &mut slave, || {
                    displayed_rows(&mut out, &renderer, &handle, "master + slave")
                });
            }
            vdp1_rows(&mut out);
        }
        Err(_) => {
            let _ = writeln!(out, "SCREEN2000 did not load|-|-|-|-|-");
        }
    }
    let untouched = hw::stack::untouched();
    if untouched < STACK_MARGIN {
        give_up(
            out,
            "the master stack came within 8 KiB of its end (link.x)",
        )
    }
    let _ = writeln!(out, "end");
    out.close();
    hw::init_display(0x8000 | 24 << 5);
    loop {}
}

/// Of the master stack link.x gives, what the run must leave unused (or it gives up): the
/// room a deeper call in a later change may take.
const STACK_MARGIN: usize = 8 * 1024;

/// What a CPU loop of [`OVERLAP_WORDS`] turns does alongside the DMA.
#[derive(Clone, Copy)]
enum Loop {
    /// A word stored to high work RAM a turn (through the cache, which writes through).
    Stores,
    /// A word loaded from high work RAM a turn (cache-through: every load on the bus).
    Loads,
    /// Registers only (the code in the cache).
    Registers,
}

/// Turns of each loop of [`dma_overlap_rows`] (shorter than the DMA: about 5 to 10
/// cycles a turn).
const OVERLAP_WORDS: usize = 2048;

/// Whether the CPU is held while SCU DMA level 0 moves a command list's size from high
/// work RAM to VDP1 VRAM (what overlapping the commit with the emission relies on): the
/// DMA timed alone, then each [`Loop`] alone and with the DMA running (started just
/// before it), and from the DMA's start to its end with the loop run meanwhile. `buffer` (in high work RAM, at least 72,192 bytes) is the DMA's source
/// and the loops' words; VRAM from 256 KiB is written, before anything is there.
fn dma_overlap_rows(out: &mut BackupRamText, buffer: &mut [u8]) {
    const DMA_BYTES: usize = 64_000;
    const VRAM_AT: u32 = 0x4_0000;
    let scene = "SCU DMA of 64,000 bytes (2,000 commands)";
    if buffer.len() < DMA_BYTES + 4 * OVERLAP_WORDS {
        return;
    }
    let (source, rest) = buffer.split_at_mut(DMA_BYTES);
    let words = rest.as_mut_ptr().cast::<u32>();
    let dma = cycles(|| {
        let _ = hw::scu::dma_to_vdp1(source, VRAM_AT);
    });
    row(out, "DMA alone", scene, 1, "transfer", dma);
    let run = |kind: Loop| match kind {
        // SAFETY (all three): `words` holds `OVERLAP_WORDS` words of the buffer (checked
        // above), 4-aligned (the buffer is `Aligned`), apart from the DMA's source.
        Loop::Stores => (0..OVERLAP_WORDS)
            .for_each(|i| unsafe { core::ptr::write_volatile(words.add(i), i as u32) }),
        Loop::Loads => {
            let uncached =
                (words as usize | hw::scu::address::HIGH_WORK_RAM_UNCACHED) as *const u32;
            let sum = (0..OVERLAP_WORDS).fold(0u32, |sum, i| {
                sum ^ unsafe { core::ptr::read_volatile(uncached.add(i)) }
            });
            core::hint::black_box(sum);
        }
        Loop::Registers => {
            let mixed = (0..OVERLAP_WORDS as u32).fold(1u32, |x, i| x.rotate_left(5) ^ i);
            core::hint::black_box(mixed);
        }
    };
    for (kind, phase_alone, phase_during, phase_end) in [
        (
            Loop::Stores,
            "  stores alone",
            "  stores during the DMA",
            "  DMA and stores, to the DMA's end",
        ),
        (
            Loop::Loads,
            "  loads (cache-through) alone",
            "  loads (cache-through) during the DMA",
            "  DMA and loads, to the DMA's end",
        ),
        (
            Loop::Registers,
            "  registers only alone",
            "  registers only during the DMA",
            "  DMA and registers, to the DMA's end",
        ),
    ] {
        let alone = cycles(|| run(kind));
        let (mut during, mut until_end) = (0, 0);
        let start = clock();
        // SAFETY: `source` is neither written nor freed before the wait just after.
        if unsafe { hw::scu::start_dma_to_vdp1(source, VRAM_AT) }.is_ok() {
            during = cycles(|| run(kind));
        }
        let _ = hw::scu::wait_dma_to_vdp1();
        if during != 0 {
            until_end = clock().wrapping_sub(start) * DIVIDER.clocks();
        }
        for (phase, time) in [(phase_alone, alone), (phase_during, during)] {
            row(out, phase, scene, OVERLAP_WORDS as u32, "words", time);
        }
        row(out, phase_end, scene, 1, "transfer", until_end);
    }
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

/// VDP2 memory written as `hw::floor::FloorPlane::follow` writes it (cache-through, a word
/// at a time).
struct Vdp2Ram;

impl Vdp2Memory for Vdp2Ram {
    fn write_vram(&mut self, offset: u32, word: u16) {
        let at = hw::address::VDP2_VRAM + offset as usize;
        // SAFETY: VDP2 VRAM, within its 512 KiB (the floor's layout).
        unsafe { core::ptr::write_volatile(at as *mut u16, word) }
    }

    fn write_cram(&mut self, offset: u32, word: u16) {
        let at = hw::address::VDP2_CRAM + offset as usize;
        // SAFETY: VDP2 colour RAM, within its 4 KiB (the floor's layout).
        unsafe { core::ptr::write_volatile(at as *mut u16, word) }
    }
}

/// The VDP2 floor's work a frame (`FloorPlane::follow` without its register writes): the
/// rotation parameter table and the 256 lines' coefficients and sky colours for a camera
/// 1.5 units above the floor looking 20 degrees down (`Floor::frame_into`), then their
/// writes to VDP2 memory (`FloorFrame::write`; RBG0 is off in the bench, nothing shows).
fn floor_rows(out: &mut BackupRamText) {
    let sky = Sky {
        zenith: 0x7C00,
        horizon: 0x7FFF,
    };
    let Ok(floor) = Floor::new(0, ONE / 4, sky) else {
        let _ = writeln!(out, "the bench's floor was refused|-|-|-|-|-");
        return;
    };
    let camera = Camera {
        position: [0, -3 * ONE / 2, -4 * ONE],
        rotation: [Angle::from_degrees(-20), Angle(0), Angle(0)],
        ..Camera::default()
    };
    let mut frame = FloorFrame::default();
    let mut made = Ok(());
    let maths = cycles(|| made = floor.frame_into(&camera, Buffer(1), &mut frame));
    if made.is_err() {
        let _ = writeln!(out, "the bench's floor camera was refused|-|-|-|-|-");
        return;
    }
    let shown = u32::from(camera.height);
    row(
        out,
        "floor: frame_into",
        "VDP2 floor",
        shown,
        "lines",
        maths,
    );
    let write = cycles(|| frame.write(Buffer(1), &mut Vdp2Ram));
    row(
        out,
        "floor: write to VDP2",
        "VDP2 floor",
        LINES as u32,
        "lines",
        write,
    );
}

/// The billboards of the billboards' frame (and the most a frame of the bench draws).
const BILLBOARDS: usize = 1000;

/// A frame of [`BILLBOARDS`] billboards of the 500-quad mesh's texture and nothing else
/// (a grid of 40 x 25 before the camera, 16 x 16 pixels each, at 20 depths), without and
/// with a fog: the cycles of their `draw_billboard` calls (each placed: its view point,
/// projection, culling and command), then of the frame's sort and emission (theirs: the
/// sort of their keys, their commands and, in fog, their gouraud tables into the list),
/// a billboard each; then the mesh's emission without and in that fog, a quad each.
fn billboard_rows<V: Vdp1>(
    out: &mut BackupRamText,
    renderer: &Renderer<'_, V>,
    mesh: &ModelHandle<'_, '_>,
) {
    let Some(sprite) = renderer.sprite(mesh, 0) else {
        let _ = writeln!(
            out,
            "the 500-quad mesh has no texture for billboards|-|-|-|-|-"
        );
        return;
    };
    let camera = bench_camera();
    let fog = Fog {
        colour: 0x8000 | 20 << 10 | 20 << 5 | 20,
        near: 2 * ONE,
        far: 8 * ONE,
    };
    for (fogged, scene) in [
        (None, "1,000 billboards"),
        (Some(fog), "1,000 billboards in fog"),
    ] {
        let Ok(mut frame) = renderer.begin(&camera, None) else {
            give_up_row(out, "billboards: begin refused");
            return;
        };
        frame.set_fog(fogged);
        let mut placed = Ok(());
        let placing = cycles(|| {
            for i in 0..BILLBOARDS as i32 {
                // 12 pixels a unit at 16 units: x and y over the screen, z from 4 to 16.
                let z = 4 * ONE + (i % 20) * (ONE * 12 / 20);
                let at = [(i % 40 - 20) * z / 30, (i / 40 - 12) * z / 30, z];
                let size = z / 12;
                let board = Billboard::new(at, [size, size], sprite);
                if let Err(error) = frame.draw_billboard(&board) {
                    placed = Err(error);
                    break;
                }
            }
        });
        let stats = placed.and_then(|()| frame.finish());
        let Ok(stats) = stats else {
            give_up_row(out, "billboards: the frame was refused");
            return;
        };
        let drawn = stats.billboards as u32;
        row(
            out,
            "draw_billboard (placing)",
            scene,
            drawn,
            "billboards",
            placing,
        );
        let ended = (stats.times.sort + stats.times.emit) * DIVIDER.clocks();
        row(
            out,
            "finish: sort + emission",
            scene,
            drawn,
            "billboards",
            ended,
        );
    }
    // The mesh itself without and in the fog: in fog each quad goes through the general
    // emission with a gouraud table of its own.
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
    for (fogged, scene) in [(None, "500 quads, no fog"), (Some(fog), "500 quads in fog")] {
        let Ok(mut frame) = renderer.begin(&camera, None) else {
            give_up_row(out, "fog: begin refused");
            return;
        };
        frame.set_fog(fogged);
        let Ok(stats) = frame.draw(mesh, &transform).and_then(|()| frame.finish()) else {
            give_up_row(out, "fog: the frame was refused");
            return;
        };
        let emit = stats.times.emit * DIVIDER.clocks();
        row(
            out,
            "emission",
            scene,
            stats.drawn as u32,
            "visible quads",
            emit,
        );
    }
}

/// A row that says what went wrong, in place of the measure.
fn give_up_row(out: &mut BackupRamText, what: &str) {
    let _ = writeln!(out, "{what}|-|-|-|-|-");
}

/// The camera of the meshes' frames.
fn bench_camera() -> Camera {
    Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    }
}

/// The 2,000-quad mesh's static frame read from low work RAM (1 MiB of DRAM: Mednafen
/// charges 7 cycles a 16-bit access, a cache line 56, against about 7 a line from high work
/// RAM), master alone and with the slave, whose accesses share the one bus.
fn low_work_ram_rows<'m, V: Vdp1>(
    out: &mut BackupRamText,
    renderer: &Renderer<'m, V>,
    slave: &mut Option<&'m mut dyn Worker>,
) {
    // SAFETY: the only reference to the buffer, for the rest of the program.
    let low = unsafe { &mut *core::ptr::addr_of_mut!(LOW_MESH) };
    let Some(copy) = low.0.get_mut(..MESH2000.len()) else {
        let _ = writeln!(
            out,
            "MESH2000 does not fit the low work RAM buffer|-|-|-|-|-"
        );
        return;
    };
    copy.copy_from_slice(MESH2000);
    let low: &'static jom::Aligned<[u8; LOW_BYTES]> = low;
    let mesh = model(&low.0[..MESH2000.len()]);
    let points = mesh.points().len();
    let Ok(handle) = renderer.load(&mesh) else {
        let _ = writeln!(out, "MESH2000 did not load from low work RAM|-|-|-|-|-");
        return;
    };
    let (posing, stats) = frame(renderer, &handle, None, &bench_camera());
    frame_rows(
        out,
        "static, model in low work RAM",
        "2,000 quads",
        points,
        posing,
        stats,
    );
    if slave.is_some() {
        let (posing, stats) = with_slave_lent(renderer, slave, || {
            frame(renderer, &handle, None, &bench_camera())
        });
        let kind = "static, model in low work RAM, master + slave";
        frame_rows(out, kind, "2,000 quads", points, posing, stats);
    }
}

/// `work` done with `slave` lent to `renderer` as its worker (the rows "master + slave"),
/// then taken back.
fn with_slave_lent<'m, V: Vdp1, R>(
    renderer: &Renderer<'m, V>,
    slave: &mut Option<&'m mut dyn Worker>,
    work: impl FnOnce() -> R,
) -> R {
    if let Err(refused) = renderer.set_worker(slave.take()) {
        *slave = refused.worker;
    }
    let done = work();
    if let Ok(lent) = renderer.set_worker(None) {
        *slave = lent;
    }
    done
}

/// The file at `path` on the CD, read into `buffer`.
fn read_file<'b>(cd: &mut hw::cd::CdDrive, path: &str, buffer: &'b mut [u8]) -> Option<&'b [u8]> {
    let sectors = cd.sectors().ok()?;
    // In place: the volume's 2 KiB sector, moved, went through this frame several times.
    let mut room = core::mem::MaybeUninit::uninit();
    let volume = jom::iso9660::Iso9660::open_in(&mut room, sectors).ok()?;
    volume.load_file(path, buffer).ok().map(|bytes| &*bytes)
}

/// The camera of the frames displayed: `SCREEN2000`'s layers at depths 2 and 3.
fn screen_camera() -> Camera {
    Camera {
        position: [0, 0, -2 * ONE],
        ..Camera::default()
    }
}

/// The scene of the frames displayed.
const SCREEN_SCENE: &str = "2,000 quads on screen (1.46x its pixels)";

/// The frames displayed: `screen` drawn (and finished) frame after frame through
/// `renderer` for [`DISPLAY_SECONDS`], the VDP1 watched all along (`display`): frames
/// the CPU finished, frames the VDP1 drew whole and showed, the frame changes (VBlanks)
/// in that time and the longest time the VDP1 went unwatched.
fn displayed_rows<V: Vdp1>(
    out: &mut BackupRamText,
    renderer: &Renderer<'_, V>,
    screen: &ModelHandle<'_, '_>,
    kind: &str,
) {
    let scene = Scene(SCREEN_SCENE, kind);
    let camera = screen_camera();
    let counts = DISPLAY_SECONDS * (cpu_clock() / DIVIDER.clocks());
    let field = field_counts();
    let start = clock();
    display::start(start);
    let mut frames = 0u32;
    let mut failed = false;
    // The phases' times summed, `begin`'s and the waits for the frame change (`finish`'s).
    let (mut phases, mut begins, mut waits) = ([0u32; 4], 0u32, 0u32);
    while clock().wrapping_sub(start) < counts && !failed {
        let beginning = clock();
        let drawn = renderer.begin(&camera, None).and_then(|mut frame| {
            begins += clock().wrapping_sub(beginning);
            frame.draw(screen, &Matrix::IDENTITY)?;
            for _ in 0..frames % 4 {
                frame.push_command(display::SKIPPED)?;
            }
            frame.finish()
        });
        match drawn {
            Ok(FrameStats { times: t, .. }) => {
                waits += t.wait;
                for (sum, time) in phases
                    .iter_mut()
                    .zip([t.transform, t.sort, t.emit, t.commit])
                {
                    *sum += time;
                }
            }
            Err(_) => failed = true,
        }
        frames += 1;
    }
    let elapsed = clock().wrapping_sub(start);
    // The last frame's first draws, watched (not counted in the time).
    for _ in 0..3 {
        display::wait_vblank_with(|| display::look(clock()));
    }
    let watched = display::stop();
    if failed {
        row(out, "draw failed", &scene, 0, "-", 0);
        return;
    }
    let clocks = DIVIDER.clocks();
    let cycles = elapsed * clocks;
    let fields = elapsed / field.max(1);
    display_row(
        out,
        "frames finished (CPU)",
        &scene,
        watched.finished,
        "frames",
        cycles,
    );
    display_row(
        out,
        "frames displayed",
        &scene,
        watched.displayed,
        "frames",
        cycles,
    );
    display_row(
        out,
        "frame changes (VBlanks)",
        &scene,
        fields,
        "fields",
        cycles,
    );
    let frames = frames.max(1);
    let per_frame = |counts: u32| counts / frames * clocks;
    for (phase, sum) in [
        "  transform + project a frame",
        "  cull + depth + sort a frame",
        "  emit a frame",
        "  commit a frame",
    ]
    .into_iter()
    .zip(phases)
    {
        let time = per_frame(sum);
        let _ = writeln!(out, "{phase}|{scene}|1 frame|{time}|{time}.0|-");
    }
    let work = per_frame(phases.iter().sum());
    let (begins, waits) = (per_frame(begins), per_frame(waits));
    let _ = writeln!(
        out,
        "  CPU work a frame (transform to commit)|{scene}|1 frame|{work}|{work}.0|-"
    );
    let _ = writeln!(
        out,
        "  begin a frame (with the call)|{scene}|1 frame|{begins}|{begins}.0|-"
    );
    let _ = writeln!(
        out,
        "  wait for the frame change a frame|{scene}|1 frame|{waits}|{waits}.0|-"
    );
    let gap = watched.longest_gap * clocks;
    let _ = writeln!(
        out,
        "  longest time the VDP1 went unwatched|{scene}|1 gap|{gap}|{gap}.0|-"
    );
}

/// The timer counts of a field, timed over 60 VBlanks.
fn field_counts() -> u32 {
    // The clock read all through: a turn of the timer between two readings would be lost.
    let wait = || {
        display::wait_vblank_with(|| {
            clock();
        })
    };
    wait();
    let start = clock();
    for _ in 0..60 {
        wait();
    }
    clock().wrapping_sub(start) / 60
}

/// The VDP1 alone, drawing the list the last frame left at VRAM 0: its draw timed as
/// emitted, with high-speed shrink, with 8 x 8 textures; and re-drawn at every frame
/// change for [`REDRAW_FIELDS`], how many of those showed it whole.
fn vdp1_rows(out: &mut BackupRamText) {
    let scene = Scene(SCREEN_SCENE, "VDP1 alone, the list in VRAM");
    let clocks = DIVIDER.clocks();
    let field = field_counts() * clocks;
    let mut sizes = [0u16; 4008];
    let _ = writeln!(out, "  a field|{scene}|1 field|{field}|{field}.0|-");
    for (phase, change) in [
        ("VDP1 draw of the list", None),
        (
            "VDP1 draw, high-speed shrink",
            Some(display::Change::HighSpeedShrink),
        ),
        (
            "VDP1 draw, 8 x 8 textures",
            Some(display::Change::Texture8x8),
        ),
    ] {
        if let Some(change) = change {
            display::change_list(change, true, &mut sizes);
        }
        let time = display::draw_time(clock);
        if let Some(change) = change {
            display::change_list(change, false, &mut sizes);
        }
        match time {
            Some(time) => {
                let cycles = time * clocks;
                // Frames a second it allows: whole fields a draw takes, at the console's
                // fields a second.
                let fields = cycles.div_ceil(field.max(1));
                let tenths = fields_per_100_seconds() / fields.max(1) / 10;
                let _ = writeln!(
                    out,
                    "{phase}|{scene}|2000 quads|{cycles}|{}.{}|{}.{}",
                    cycles / 2000,
                    cycles % 2000 * 10 / 2000,
                    tenths / 10,
                    tenths % 10
                );
            }
            None => {
                let _ = writeln!(out, "{phase}|{scene}|did not end|-|-|-");
            }
        }
    }
    if let Some((whole, time)) = display::redrawn_whole(REDRAW_FIELDS, clock) {
        let cycles = time * clocks;
        display_row(
            out,
            "frames displayed, re-drawn",
            &scene,
            whole,
            "frames",
            cycles,
        );
    }
}

/// A row of frames counted over `cycles`: the frames a second they make, to a tenth.
fn display_row(
    out: &mut BackupRamText,
    phase: &str,
    scene: impl core::fmt::Display,
    count: u32,
    unit: &str,
    cycles: u32,
) {
    let per = cycles / count.max(1);
    let tenths = (u64::from(count) * u64::from(cpu_clock()) * 10 / u64::from(cycles.max(1))) as u32;
    let _ = writeln!(
        out,
        "{phase}|{scene}|{count} {unit}|{cycles}|{per}.0|{}.{}",
        tenths / 10,
        tenths % 10
    );
}

/// One frame of `mesh` (posed by its animation, its matrices made in `bones`, when given)
/// through `renderer`: the pose's time (0 for a static frame), in timer units, and what the
/// frame did (its phase times too). The wait for the VDP1's frame change, at the frame's
/// start, is not timed. (`bones` from `main`: a function's frame stays within 4 KiB.)
fn frame<V: Vdp1>(
    renderer: &Renderer<'_, V>,
    mesh: &ModelHandle<'_, '_>,
    bones: Option<&mut [Matrix; MAX_BONES]>,
    camera: &Camera,
) -> (u32, Result<FrameStats, DrawError>) {
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
    let mut frame = match renderer.begin(camera, None) {
        Ok(frame) => frame,
        Err(error) => return (0, Err(error)),
    };
    let model = mesh.model();
    let animation = model.animations().get(0).zip(bones);
    let Some((animation, bones)) = animation else {
        return (
            0,
            frame.draw(mesh, &transform).and_then(|()| frame.finish()),
        );
    };
    let start = clock();
    let pose = pose_at(&animation, model.bones().len(), 15);
    bone_matrices(model, &pose, bones);
    let root = root_matrix(&pose);
    let posing = clock().wrapping_sub(start);
    let posed = Posed {
        transform: &transform,
        root: &root,
        bones,
    };
    let stats = frame.draw_posed(mesh, &posed).and_then(|()| frame.finish());
    (posing, stats)
}

/// The rows of a frame of the level (a ground 160 x 160 units, seen from 36 units above its
/// centre looking straight down: the view's footprint, 60 x 42 units, a tenth of it; 192
/// of its quads on screen), drawn as ground without and with its regions, by the master
/// alone and with the slave.
fn level_rows<'m, V: Vdp1>(
    out: &mut BackupRamText,
    renderer: &Renderer<'m, V>,
    slave: &mut Option<&'m mut dyn Worker>,
) {
    let camera = Camera {
        position: [0, -36 * ONE, 0],
        rotation: [Angle::from_degrees(-90), Angle(0), Angle(0)],
        ..Camera::default()
    };
    for (bytes, name) in [
        (LEVEL_PLAIN, "level 1,600 quads (10x the view)"),
        (LEVEL, "level 1,600 quads in 100 regions"),
    ] {
        let level = model(bytes);
        let Ok(handle) = renderer.load(&level) else {
            continue;
        };
        let draw = || {
            let mut frame = renderer.begin(&camera, None)?;
            frame.draw_ground(&handle, &Matrix::IDENTITY)?;
            frame.finish()
        };
        let points = level.points().len();
        frame_rows(out, "static", name, points, 0, draw());
        if slave.is_some() {
            let stats = with_slave_lent(renderer, slave, draw);
            frame_rows(out, "static, master + slave", name, points, 0, stats);
        }
    }
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
        true => writeln!(out, "{}", cpu_clock() / cycles.max(1)),
        false => writeln!(out, "-"),
    };
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hw::init_display(0x8000 | 24);
    loop {}
}
