//! The jom world, the second showcase: the first showcase's character walking in a village
//! of Blender's (`tools/blender/world.py`: nine cells of houses, fences, a well, carts,
//! crates, barrels and rocks, a forest around them; converted by `jomc` when the CD image is built)
//! on the VDP2's endless floor under its sky, the camera following behind it. The models
//! are read from the CD and drawn with the `Renderer`, the slave SH-2 taking half of the
//! work; the floor follows the same camera (`jom::hw::floor`).
//!
//! The pad: up and down walk forward and back, left and right turn (the camera turns
//! with the character); the character walks while it moves and stands idle otherwise.
//! The frames per second (over the last 16 frames) are in the top left corner, the
//! polygons drawn (one frame's) in the top right one.
//!
//! With the `fog` feature the frame is in fog (`scene::FOG`: off by default, for its cost).
//! With the `fixed-frame` feature it draws one fixed frame, the one the emulator test
//! compares with the host's software VDP1 and floor; with `measure` it walks by itself
//! (`scene::measured_walk`) and writes what 1,080 frames took to backup RAM
//! (`ci/world.sh bench`).
#![no_std]
#![no_main]

#[path = "../../showcase/src/clock.rs"]
mod clock;
#[path = "../../showcase/src/hud.rs"]
mod hud;
#[path = "../../showcase/src/measure.rs"]
mod measure;
#[path = "../../showcase/src/pace.rs"]
mod pace;
mod scene;

use jom::anim::{bone_matrices_with, root_matrix, AnimationPlayer};
use jom::format::MAX_BONES;
use jom::hw::floor::FloorPlane;
use jom::hw::slave::Slave;
use jom::hw::smpc::PadButtons;
use jom::hw::{self, Saturn};
use jom::iso9660::Iso9660;
use jom::math::Matrix;
use jom::render::{Posed, Renderer, Worker};
use jom::vdp1::Vdp1;
use jom::Model;

use scene::Walker;

/// The largest file of the character (103 KiB: the model's 65 KiB and its level of detail's
/// 37 KiB, each with the animations) and the level's files together (the village's 129 KiB,
/// with regions, the forest's 9 KiB).
const HERO_BYTES: usize = 104 * 1024;
const LEVEL_BYTES: usize = 144 * 1024;

/// Where the models are read from CD and used in place: high work RAM (the showcase's
/// reasons: low work RAM's accesses cost the two CPUs' shared bus 7 cycles each).
static mut HERO_BUFFER: jom::Aligned<[u8; HERO_BYTES]> = jom::Aligned([0; HERO_BYTES]);
static mut LEVEL_BUFFER: jom::Aligned<[u8; LEVEL_BYTES]> = jom::Aligned([0; LEVEL_BYTES]);

/// The slave SH-2, once started (the renderer borrows it for the rest of the program).
static mut SLAVE: Option<Slave> = None;

/// The floor's picture, `jomc plane` of `tools/blender/world.py`'s grass (the Makefile's
/// `build/world/GRASS.BIN`), linked into the program.
static FLOOR_FILE: &[u8] = jom::include_aligned!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../build/world/GRASS.BIN"
));

/// What failed, shown as the back screen's colour (red, then green levels that tell the
/// step apart in a screenshot).
#[derive(Clone, Copy)]
enum Failure {
    /// A model could not be read from CD, or is not a valid JOM file.
    Model = 1,
    Renderer,
    Textures,
    Draw,
    Panic,
    /// The SMPC did not end the clock change, or a field did not last what the console's
    /// standard and the screen's clock make it.
    Clock,
    /// The floor's picture or its camera.
    Floor,
}

jom::entry!(main);

fn main(saturn: Saturn) -> ! {
    let Saturn {
        vram,
        slave,
        mut cd,
        ..
    } = saturn;
    let rates = pace::start(&slave).unwrap_or_else(|| fail(Failure::Clock));
    let mut floor = {
        let tiles = jom::vdp2::FloorTiles::from_bytes(FLOOR_FILE);
        let (Ok(tiles), Ok(floor)) = (tiles, scene::floor()) else {
            fail(Failure::Floor)
        };
        FloorPlane::init(&tiles, floor)
    };
    measure::stage("started");
    // SAFETY: the only references to the buffers and the slave's place, taken once; the
    // models and the renderer borrow them for the rest of the program.
    let (hero_buffer, level_buffer, slave_place) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(HERO_BUFFER),
            &mut *core::ptr::addr_of_mut!(LEVEL_BUFFER),
            &mut *core::ptr::addr_of_mut!(SLAVE),
        )
    };
    let sectors = cd.sectors().unwrap_or_else(|_| fail(Failure::Model));
    let mut volume = Iso9660::open(sectors).unwrap_or_else(|_| fail(Failure::Model));
    let hero = jom::disc::read_model(&mut volume, scene::HERO_FILE, hero_buffer)
        .unwrap_or_else(|_| fail(Failure::Model));
    let mut rest: &mut [u8] = &mut level_buffer.0;
    let mut read = |name: &str| -> Model<'static> {
        let len = volume
            .load_file(name, rest)
            .unwrap_or_else(|_| fail(Failure::Model))
            .len();
        // The next file 4-byte aligned after this one (the buffer's start is).
        let (file, after) = core::mem::take(&mut rest).split_at_mut(len.next_multiple_of(4));
        rest = after;
        let file: &'static [u8] = file;
        Model::from_bytes(&file[..len]).unwrap_or_else(|_| fail(Failure::Model))
    };
    let forest = read(scene::FOREST_FILE);
    let village = read(scene::LEVEL_FILE);
    drop(volume);
    measure::stage("models read");
    // Without a slave (it did not answer) the master does all the work.
    let worker = slave
        .start()
        .ok()
        .map(|s| slave_place.insert(s) as &mut dyn Worker);
    let memory = scene::world_memory!().unwrap_or_else(|| fail(Failure::Renderer));
    let renderer = Renderer::new(vram, memory, worker).unwrap_or_else(|_| fail(Failure::Renderer));
    renderer.set_clock(Some(clock::now));
    let load = |model: &Model<'static>| {
        renderer
            .load(model)
            .unwrap_or_else(|_| fail(Failure::Textures))
    };
    let hero_far = hero.level(1).unwrap_or_else(|| fail(Failure::Model));
    let hero_handles = [load(&hero), load(&hero_far)];
    let forest_handle = load(&forest);
    let village_handle = load(&village);
    let mut trees = [scene::Tree::default(); scene::TREES];
    let tree_count = scene::trees(&forest, &mut trees);
    let tree = renderer
        .sprite(&forest_handle, 0)
        .unwrap_or_else(|| fail(Failure::Textures));
    let level = scene::Level {
        village: &village_handle,
        tree,
        trees: &trees[..tree_count],
    };
    let mut people = scene::People::new([&hero_handles[0], &hero_handles[1]]);
    measure::stage("models loaded");

    let mut show = Show::new(&hero, rates);
    let mut pace = pace::Pace::new(rates);
    let _ = hw::smpc::start_pad_read();
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    let mut idle_bones = [Matrix::IDENTITY; MAX_BONES];
    loop {
        pace.start();
        let root = pose_on_both(&renderer, &hero, &show.player, &mut bones);
        let idle_root = pose_on_both(&renderer, &hero, &show.idle, &mut idle_bones);
        let idle = scene::IdlePose {
            root: &idle_root,
            bones: &idle_bones,
        };
        let place = show.walker.place();
        let posed = Posed {
            transform: &place,
            root: &root,
            bones: &bones,
        };
        let camera = show.walker.camera();
        pace.posed();
        // With `probe`, every 30 frames the next of: the whole scene, without light, the
        // character and the villagers alone, the level alone (where the time goes).
        let segment = if cfg!(feature = "probe") {
            (show.frames / 30) % 4
        } else {
            0
        };
        let light = (segment != 1).then_some(&scene::LIGHT);
        let mut frame = renderer
            .begin(&camera, light)
            .unwrap_or_else(|_| fail(Failure::Draw));
        if cfg!(feature = "fog") {
            frame.set_fog(Some(scene::FOG));
        }
        let period = pace.begun();
        let level_drawn = match segment {
            2 => Ok(()),
            _ => scene::draw_level(&mut frame, &level)
                .and_then(|()| scene::draw_trees(&mut frame, &level)),
        };
        let drawn = level_drawn
            .and_then(|()| match segment {
                3 => Ok(()),
                _ => {
                    let view = (&camera, &show.walker);
                    scene::draw_people(&mut frame, &mut people, &posed, &idle, view)
                }
            })
            .and_then(|()| pace.push_readout(&mut frame));
        if drawn.is_err() {
            fail(Failure::Draw);
        }
        let shown = frame.finish().unwrap_or_else(|_| fail(Failure::Draw));
        if floor.follow(&camera).is_err() {
            fail(Failure::Floor);
        }
        pace.finished(shown, period, segment);
        show.next_frame(period);
    }
}

/// What the program shows: the character's animation and where it walks, moved by the pad
/// (or, with `measure`, by the program itself).
struct Show<'m> {
    player: AnimationPlayer<'m>,
    /// The villagers' pose: idle.
    idle: AnimationPlayer<'m>,
    walker: Walker,
    /// Whether the character walked last frame (its animation: walking or idle).
    walking: bool,
    frames: u32,
    rates: clock::Rates,
    /// Timer counts shown but not yet turned into fields of animation and walk.
    unticked: u32,
}

impl<'m> Show<'m> {
    fn new(model: &Model<'m>, rates: clock::Rates) -> Self {
        let mut player = AnimationPlayer::new(model);
        player.set_speed(rates.ticks_per_field);
        let mut idle = AnimationPlayer::new(model);
        idle.set_speed(rates.ticks_per_field);
        idle.play(scene::IDLE);
        let measuring = cfg!(feature = "measure");
        if cfg!(feature = "fixed-frame") {
            player.play(scene::WALK);
            player.seek(scene::FIXED_TICKS);
            player.pause();
            idle.seek(scene::FIXED_TICKS);
            idle.pause();
        } else {
            player.play(if measuring { scene::WALK } else { scene::IDLE });
        }
        Self {
            player,
            idle,
            walker: if measuring {
                scene::MEASURE_START
            } else {
                scene::FIXED_WALKER
            },
            walking: measuring,
            frames: 0,
            rates,
            unticked: 0,
        }
    }

    /// After a frame that took `period` timer counts: the pad read (the answer to last
    /// frame's request, and the request for the next), the character moved by the fields
    /// that went by (a step or a turn each: it walks at its own speed whatever the frame
    /// rate), the animation advanced as many fields.
    fn next_frame(&mut self, period: u32) {
        if cfg!(feature = "fixed-frame") {
            return;
        }
        self.unticked = self.unticked.saturating_add(period);
        // At most a few fields at once: a stall (a disc read) does not jump.
        let fields = (self.unticked / self.rates.field).min(4);
        self.unticked %= self.rates.field;
        self.player.advance(fields);
        self.idle.advance(fields);
        if cfg!(feature = "measure") {
            // A frame, a step of the measured walk: the same views as `world_frame --walk`.
            self.walker = scene::measured_walk(self.walker, self.frames);
            self.frames += 1;
            return;
        }
        self.frames += 1;
        let buttons = hw::smpc::finish_pad_read()
            .ok()
            .flatten()
            .unwrap_or_default();
        let _ = hw::smpc::start_pad_read();
        let held = |mask| i32::from(buttons.pressed(mask));
        let ahead = held(PadButtons::UP) - held(PadButtons::DOWN);
        let turn = held(PadButtons::RIGHT) - held(PadButtons::LEFT);
        for _ in 0..fields {
            self.walker = self.walker.moved(ahead, turn);
        }
        let walking = ahead != 0 || turn != 0;
        if walking != self.walking {
            let animation = if walking { scene::WALK } else { scene::IDLE };
            let fade = self.rates.fields_of_ticks(scene::CROSS_FADE_TICKS);
            self.player.cross_fade(animation, fade);
            self.walking = walking;
        }
    }
}

/// `player`'s pose of `model`: its bones' matrices into `bones`, made on both CPUs (the
/// renderer's worker), and its root's matrix.
fn pose_on_both<V: Vdp1>(
    renderer: &Renderer<'_, V>,
    model: &Model<'_>,
    player: &AnimationPlayer<'_>,
    bones: &mut [Matrix; MAX_BONES],
) -> Matrix {
    let pose = player.pose(model);
    renderer.with_worker(|worker| bone_matrices_with(model, &pose, bones, worker));
    root_matrix(&pose)
}

/// 0: no slave SH-2 (it did not start), 1: it shares the work, 2: it was lost (a job timed
/// out; the master does all). Read by `measure`.
fn slave_state() -> u32 {
    // SAFETY: read on the master, which alone writes it (once, before the loop).
    match unsafe { &*core::ptr::addr_of!(SLAVE) } {
        None => 0,
        Some(slave) if slave.lost() => 2,
        Some(_) => 1,
    }
}

/// Shows what failed (the back screen: red 24, green 4 x the step number) and stops.
fn fail(failure: Failure) -> ! {
    hw::init_display(0x8000 | (failure as u16 * 4) << 5 | 24);
    loop {}
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    fail(Failure::Panic)
}
