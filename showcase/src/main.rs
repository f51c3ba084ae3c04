//! The jom showcase: a character of Blender's (`tools/blender/showcase.py`, converted by
//! `jomc` when the CD image is built) on a textured ground, both read from the CD and
//! drawn with the `Renderer`, the slave SH-2 taking half of the work.
//!
//! The pad: left and right turn the camera around the character (it turns by itself when
//! left alone), up and down raise and lower it, L and R (or B and C) bring it nearer and
//! farther; A cross-fades to the next animation (idle, walk, wave). The frames per second
//! (over the last 16 frames) are in the top left corner, the polygons drawn (one frame's)
//! in the top right one, each updated every 16 frames (`hud::Readout`).
//!
//! It runs on NTSC and PAL consoles alike: the video standard read from the VDP2 at the
//! start sets what the timer's counts are worth and how long a field lasts
//! (`clock::Rates`); the animations play 60 ticks a second at both field rates.
//!
//! With the `fixed-frame` feature it draws one fixed frame, the one the emulator test
//! compares with the host's software VDP1; with `measure` it runs by itself and writes
//! what 1,080 frames took to backup RAM (`ci/showcase.sh bench`).
#![no_std]
#![no_main]

mod clock;
mod hud;
mod measure;
mod pace;
mod scene;

use jom::anim::{bone_matrices_with, root_matrix, AnimationPlayer};
use jom::format::MAX_BONES;
use jom::hw::slave::Slave;
use jom::hw::smpc::PadButtons;
use jom::hw::{self, Saturn};
use jom::iso9660::Iso9660;
use jom::math::{Angle, Matrix};
use jom::render::{Posed, Renderer, Worker};
use jom::Model;

use scene::Orbit;

/// The largest file of each model (the character is about 68 KiB, the ground's tile 34
/// KiB, a 4 x 4th of it 3 KiB).
const HERO_BYTES: usize = 128 * 1024;
const GROUND_BYTES: usize = 64 * 1024;

/// Where the models are read from CD and used in place: high work RAM. Not low work RAM,
/// where each 16-bit access costs 7 cycles (a cache line 56) on the bus the two CPUs
/// share: drawn from there, transform and cull with the slave ran at the master-alone
/// rates of high work RAM (BENCHMARKS.md, "Frames displayed (issue 14)").
static mut HERO_BUFFER: jom::Aligned<[u8; HERO_BYTES]> = jom::Aligned([0; HERO_BYTES]);
static mut GROUND_BUFFER: jom::Aligned<[u8; GROUND_BYTES]> = jom::Aligned([0; GROUND_BYTES]);

/// The slave SH-2, once started (the renderer borrows it for the rest of the program).
static mut SLAVE: Option<Slave> = None;

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
    measure::stage("started");
    // SAFETY: the only references to the buffers and the slave's place, taken once; the
    // models and the renderer borrow them for the rest of the program.
    let (hero_buffer, ground_buffer, slave_place) = unsafe {
        (
            &mut *core::ptr::addr_of_mut!(HERO_BUFFER),
            &mut *core::ptr::addr_of_mut!(GROUND_BUFFER),
            &mut *core::ptr::addr_of_mut!(SLAVE),
        )
    };
    let sectors = cd.sectors().unwrap_or_else(|_| fail(Failure::Model));
    let mut volume = Iso9660::open(sectors).unwrap_or_else(|_| fail(Failure::Model));
    let hero = jom::disc::read_model(&mut volume, scene::HERO_FILE, hero_buffer)
        .unwrap_or_else(|_| fail(Failure::Model));
    let ground = jom::disc::read_model(&mut volume, scene::GROUND_FILE, ground_buffer)
        .unwrap_or_else(|_| fail(Failure::Model));
    drop(volume);
    measure::stage("models read");
    // Without a slave (it did not answer) the master does all the work.
    let worker = slave
        .start()
        .ok()
        .map(|s| slave_place.insert(s) as &mut dyn Worker);
    let memory = jom::renderer_memory!(points: 2304, polygons: 2048, commands: 2112,
        frame_gouraud: 2048, model_gouraud: 16, textures: 64, model_textures: 64,
        model_polygons: 16, model_planes: 2048, draws: 1 + scene::GROUND_TILES * scene::GROUND_TILES)
    .unwrap_or_else(|| fail(Failure::Renderer));
    let renderer = Renderer::new(vram, memory, worker).unwrap_or_else(|_| fail(Failure::Renderer));
    renderer.set_clock(Some(clock::now));
    let hero_handle = renderer
        .load(&hero)
        .unwrap_or_else(|_| fail(Failure::Textures));
    let ground_handle = renderer
        .load(&ground)
        .unwrap_or_else(|_| fail(Failure::Textures));
    measure::stage("models loaded");

    let mut show = Show::new(&hero, rates);
    let mut pace = pace::Pace::new(rates);
    let _ = hw::smpc::start_pad_read();
    // Made once: `bone_matrices_with` writes every entry each frame (1,700 cycles a frame to
    // make again).
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    loop {
        pace.start();
        let pose = show.player.pose(&hero);
        // The legs on the slave while the master makes the rest (one join).
        renderer.with_worker(|worker| bone_matrices_with(&hero, &pose, &mut bones, worker));
        let root = root_matrix(&pose);
        let posed = Posed {
            transform: &scene::PLACE,
            root: &root,
            bones: &bones,
        };
        let camera = show.orbit.camera();
        pace.posed();
        // With `probe`, every 30 frames the next of: the whole scene, without light,
        // the character alone, the ground alone (where the time goes).
        let segment = if cfg!(feature = "probe") {
            (show.frames / 30) % 4
        } else {
            0
        };
        let light = (segment != 1).then_some(&scene::LIGHT);
        let mut frame = renderer
            .begin(&camera, light)
            .unwrap_or_else(|_| fail(Failure::Draw));
        let period = pace.begun();
        let ground_drawn = match segment {
            2 => Ok(()),
            _ => scene::ground_places()
                .try_for_each(|place| frame.draw_ground(&ground_handle, &place)),
        };
        let drawn = ground_drawn
            .and_then(|()| match segment {
                3 => Ok(()),
                _ => frame.draw_posed(&hero_handle, &posed),
            })
            .and_then(|()| pace.push_readout(&mut frame));
        if drawn.is_err() {
            fail(Failure::Draw);
        }
        let shown = frame.finish().unwrap_or_else(|_| fail(Failure::Draw));
        pace.finished(shown, period, segment);
        show.next_frame(period);
    }
}

/// What the program shows: the animation player and the camera's orbit, moved by the pad
/// (or, with `measure`, by the program itself).
struct Show<'m> {
    model: Model<'m>,
    player: AnimationPlayer<'m>,
    orbit: Orbit,
    previous_buttons: PadButtons,
    frames: u32,
    rates: clock::Rates,
    /// Timer counts shown but not yet turned into fields of animation.
    unticked: u32,
}

impl<'m> Show<'m> {
    fn new(model: &Model<'m>, rates: clock::Rates) -> Self {
        let mut player = AnimationPlayer::new(model);
        // Each field advances the animation by the ticks it lasts.
        player.set_speed(rates.ticks_per_field);
        if cfg!(feature = "fixed-frame") {
            player.play(scene::FIXED_ANIMATION);
            player.seek(scene::FIXED_TICKS);
            player.pause();
        } else {
            player.play(scene::FIRST_ANIMATION);
        }
        Self {
            model: *model,
            player,
            orbit: scene::FIXED_ORBIT,
            previous_buttons: PadButtons::default(),
            frames: 0,
            rates,
            unticked: 0,
        }
    }

    /// Reads the pad (the answer to last frame's request, and the request for the next),
    /// moves the camera and the animation on by one frame.
    /// After a frame that took `period` timer counts: the pad read, the camera moved and
    /// the animation advanced by the fields that went by (each the ticks of a field at the
    /// player's speed), so that it plays at its own speed whatever the frame rate and the
    /// field rate.
    fn next_frame(&mut self, period: u32) {
        if cfg!(feature = "fixed-frame") {
            return;
        }
        self.frames += 1;
        let buttons = hw::smpc::finish_pad_read()
            .ok()
            .flatten()
            .unwrap_or_default();
        let _ = hw::smpc::start_pad_read();
        let buttons = if cfg!(feature = "measure") {
            // Every two seconds, A: each cross-fade and animation is in the measure.
            let a = self.frames % 120 == 0;
            PadButtons(if a { PadButtons::A } else { 0 })
        } else {
            buttons
        };
        self.orbit = steer(self.orbit, buttons);
        let newly = PadButtons(buttons.0 & !self.previous_buttons.0);
        if newly.pressed(PadButtons::A) {
            let next = (self.player.animation() + 1) % self.model.animations().len().max(1);
            let fields = self.rates.fields_of_ticks(scene::CROSS_FADE_TICKS);
            self.player.cross_fade(next, fields);
        }
        self.previous_buttons = buttons;
        self.unticked = self.unticked.saturating_add(period);
        let fields = self.unticked / self.rates.field;
        self.unticked %= self.rates.field;
        // At most a few fields at once: a stall (a disc read) does not jump the animation.
        self.player.advance(fields.min(4));
    }
}

/// The orbit moved by the pad this frame: turned by itself when no direction is held.
fn steer(orbit: Orbit, buttons: PadButtons) -> Orbit {
    let held = |mask| buttons.pressed(mask);
    let turn: i16 = match (held(PadButtons::LEFT), held(PadButtons::RIGHT)) {
        (true, false) => -0x200,
        (false, true) => 0x200,
        _ if held(PadButtons::UP) || held(PadButtons::DOWN) => 0,
        _ => 0x40,
    };
    let raise: i16 = match (held(PadButtons::UP), held(PadButtons::DOWN)) {
        (true, false) => 0x100,
        (false, true) => -0x100,
        _ => 0,
    };
    let nearer = held(PadButtons::L) || held(PadButtons::B);
    let farther = held(PadButtons::R) || held(PadButtons::C);
    let zoom = match (nearer, farther) {
        (true, false) => -jom::math::ONE / 16,
        (false, true) => jom::math::ONE / 16,
        _ => 0,
    };
    Orbit {
        yaw: Angle(orbit.yaw.0.wrapping_add(turn)),
        pitch: Angle(
            orbit
                .pitch
                .0
                .saturating_add(raise)
                .clamp(scene::LOWEST.0, scene::HIGHEST.0),
        ),
        distance: (orbit.distance + zoom).clamp(scene::NEAREST, scene::FARTHEST),
    }
}

/// 0: no slave SH-2 (it did not start), 1: it shares the work, 2: it was lost (a job timed
/// out; the master does all).
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
