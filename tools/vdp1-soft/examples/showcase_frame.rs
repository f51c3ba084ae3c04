//! Draws the showcase's fixed frame (the scene of `showcase/src/scene.rs`, included here
//! word for word) through the engine's `Renderer` and the software VDP1: the picture the
//! emulator's screenshot of `ci/showcase.sh test` is compared with.
//!
//! `cargo run -p vdp1-soft --example showcase_frame -- HERO.JOM GROUND.JOM OUT.png [--orbit YAW,PITCH,DISTANCE] [--ticks T]`
//! `cargo run -p vdp1-soft --example showcase_frame -- HERO.JOM GROUND.JOM --turn`
//!
//! `--orbit` (raw angle units of 1/65,536 turn and world units) draws another view, to
//! look at the scene from the host; `--ticks` another time of the animation (how far the
//! emulator test's figure falls when the frame is not the one the Saturn drew).
//!
//! `--turn` counts the polygons drawn in every view of the camera's turn by itself (its
//! yaws, 0x40 of a turn apart, at the fixed frame's pitch and distance) with every pose the
//! showcase shows, sampled: each animation every [`TURN_TICKS`] ticks of its loop, and each
//! cross-fade to the next, started every 4 x [`TURN_TICKS`] ticks of the animation before,
//! every [`TURN_TICKS`] ticks of the fade. It prints the least and the most and how many
//! views drew fewer than 1,000 (the showcase is to draw at least that: `ci/showcase.sh
//! test` checks that none did).

#[path = "../../../showcase/src/scene.rs"]
#[allow(dead_code)]
mod scene;

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{FrameStats, ModelHandle, Posed, Renderer};
use jom::vdp1::{MemoryVram, VRAM_SIZE};
use jom::Model;
use std::path::Path;
use vdp1_soft::preview::write_png;
use vdp1_soft::{draw_list, FrameBuffer};

fn read(path: &str) -> Result<jom_write::AlignedBytes, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(jom_write::AlignedBytes::new(&bytes))
}

fn orbit(text: &str) -> Result<scene::Orbit, String> {
    let parts: Vec<i32> = text
        .split(',')
        .map(|p| p.trim().parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--orbit {text}: {e}"))?;
    let [yaw, pitch, distance] = parts[..] else {
        return Err(format!("--orbit {text}: expected YAW,PITCH,DISTANCE"));
    };
    Ok(scene::Orbit {
        yaw: Angle(yaw as i16),
        pitch: Angle(pitch as i16),
        distance: distance * ONE,
    })
}

/// Ticks between the poses `--turn` samples.
const TURN_TICKS: u32 = 3;
/// The yaws of the camera's turn: it turns by 0x40 of a turn a frame (`steer`, main.rs).
const TURN_YAW_STEP: usize = 0x40;

/// What the command line asks for: a frame's picture, or the count over the turn.
enum Task {
    Frame {
        output: String,
        view: scene::Orbit,
        ticks: u32,
    },
    Turn,
}

fn task(options: &[String], usage: &str) -> Result<Task, String> {
    if options == ["--turn"] {
        return Ok(Task::Turn);
    }
    let [output, pairs @ ..] = options else {
        return Err(usage.into());
    };
    let (mut view, mut ticks) = (scene::FIXED_ORBIT, scene::FIXED_TICKS);
    if pairs.len() % 2 != 0 {
        return Err(usage.into());
    }
    for pair in pairs.chunks(2) {
        match pair[0].as_str() {
            "--orbit" => view = orbit(&pair[1])?,
            "--ticks" => {
                ticks = pair[1]
                    .parse()
                    .map_err(|e| format!("--ticks {}: {e}", pair[1]))?
            }
            _ => return Err(usage.into()),
        }
    }
    Ok(Task::Frame {
        output: output.clone(),
        view,
        ticks,
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: showcase_frame HERO.JOM GROUND.JOM (OUT.png [--orbit YAW,PITCH,DISTANCE] [--ticks T] | --turn)";
    let [hero_path, ground_path, options @ ..] = args.as_slice() else {
        return Err(usage.into());
    };
    let task = task(options, usage)?;
    let (hero_bytes, ground_bytes) = (read(hero_path)?, read(ground_path)?);
    let hero = Model::from_bytes(hero_bytes.bytes()).map_err(|e| format!("{hero_path}: {e}"))?;
    let ground =
        Model::from_bytes(ground_bytes.bytes()).map_err(|e| format!("{ground_path}: {e}"))?;

    // The showcase's sizes (`showcase/src/main.rs`).
    let memory = jom::renderer_memory!(points: 2304, polygons: 2048, commands: 2100,
        frame_gouraud: 2048, model_gouraud: 16, textures: 64, model_textures: 64,
        model_polygons: 16, model_planes: 2048, draws: 1 + scene::GROUND_TILES * scene::GROUND_TILES)
    .ok_or("renderer memory taken twice")?;
    let mut vram = vec![0u8; VRAM_SIZE as usize];
    let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)
        .map_err(|e| format!("renderer: {e}"))?;
    let scene = Scene {
        renderer: &renderer,
        hero: &hero,
        hero_handle: renderer
            .load(&hero)
            .map_err(|e| format!("{hero_path}: {e}"))?,
        ground_handle: renderer
            .load(&ground)
            .map_err(|e| format!("{ground_path}: {e}"))?,
    };
    let Task::Frame {
        output,
        view,
        ticks,
    } = task
    else {
        let count = scene.turn()?;
        println!(
            "the camera's turn: {} views, {} to {} polygons drawn, the least at {}; {} under 1,000",
            count.views, count.least.0, count.most, count.least.1, count.under_1000
        );
        return Ok(());
    };
    let mut player = AnimationPlayer::new(&hero);
    player.play(scene::FIXED_ANIMATION);
    player.seek(ticks);
    let stats = scene.draw(&player, &view)?;
    drop(scene);

    // The jump at VRAM 0 points at the list just written (CMDLINK = address / 8).
    let list = u32::from(u16::from_be_bytes([vram[2], vram[3]])) * 8;
    let camera = view.camera();
    let mut picture = FrameBuffer::new(usize::from(camera.width), usize::from(camera.height));
    draw_list(&vram, list, &mut picture).map_err(|e| e.to_string())?;
    // Where the VDP1 drew nothing the VDP2 shows its back screen.
    for pixel in picture.pixels.iter_mut().filter(|p| **p == 0) {
        *pixel = scene::BACKGROUND;
    }
    write_png(&picture, Path::new(&output))?;
    println!(
        "{output}: the showcase's frame, {} polygons drawn ({} commands), {} culled",
        stats.drawn, stats.commands, stats.culled
    );
    Ok(())
}

/// The showcase's scene loaded into a renderer.
struct Scene<'s, 'm> {
    renderer: &'s Renderer<'m, MemoryVram<'m>>,
    hero: &'s Model<'s>,
    hero_handle: ModelHandle<'s, 's>,
    ground_handle: ModelHandle<'s, 's>,
}

impl Scene<'_, '_> {
    /// Draws the ground and the character in `player`'s pose, seen from `view`.
    fn draw(
        &self,
        player: &AnimationPlayer<'_>,
        view: &scene::Orbit,
    ) -> Result<FrameStats, String> {
        let pose = player.pose(self.hero);
        let mut bones = [Matrix::IDENTITY; MAX_BONES];
        bone_matrices(self.hero, &pose, &mut bones);
        let root = root_matrix(&pose);
        let posed = Posed {
            transform: &scene::PLACE,
            root: &root,
            bones: &bones,
        };
        let mut frame = self
            .renderer
            .begin(&view.camera(), Some(&scene::LIGHT))
            .map_err(|e| e.to_string())?;
        for place in scene::ground_places() {
            frame
                .draw_ground(&self.ground_handle, &place)
                .map_err(|e| e.to_string())?;
        }
        frame
            .draw_posed(&self.hero_handle, &posed)
            .map_err(|e| e.to_string())?;
        frame.finish().map_err(|e| e.to_string())
    }

    /// Draws every view of the camera's turn in every sampled pose: see `--turn`.
    fn turn(&self) -> Result<TurnCount, String> {
        let mut count = TurnCount {
            views: 0,
            under_1000: 0,
            least: (usize::MAX, String::new()),
            most: 0,
        };
        let animations = self.hero.animations();
        for (animation, view) in animations.iter().enumerate() {
            // A loop's length: its last key goes back to the first.
            let loop_ticks =
                u32::from(view.record.key_count()) * u32::from(view.record.key_ticks());
            for ticks in (0..loop_ticks).step_by(TURN_TICKS as usize) {
                let mut player = AnimationPlayer::new(self.hero);
                player.play(animation);
                player.seek(ticks);
                self.count_turn(&player, &mut count, || {
                    format!("animation {animation} tick {ticks}")
                })?;
            }
            let next = (animation + 1) % animations.len();
            for start in (0..loop_ticks).step_by(4 * TURN_TICKS as usize) {
                for faded in (0..scene::CROSS_FADE_TICKS).step_by(TURN_TICKS as usize) {
                    let mut player = AnimationPlayer::new(self.hero);
                    player.play(animation);
                    player.seek(start);
                    player.cross_fade(next, scene::CROSS_FADE_TICKS);
                    player.advance(faded);
                    self.count_turn(&player, &mut count, || {
                        format!("animation {animation} tick {start} fading to {next} by {faded}")
                    })?;
                }
            }
        }
        Ok(count)
    }

    /// Adds `player`'s pose from every yaw of the turn to `count`.
    fn count_turn(
        &self,
        player: &AnimationPlayer<'_>,
        count: &mut TurnCount,
        pose: impl Fn() -> String,
    ) -> Result<(), String> {
        for yaw in (0..=u16::MAX).step_by(TURN_YAW_STEP) {
            let view = scene::Orbit {
                yaw: Angle(yaw as i16),
                ..scene::FIXED_ORBIT
            };
            let drawn = self.draw(player, &view)?.drawn;
            count.add(drawn, || format!("{}, yaw {yaw}", pose()));
        }
        Ok(())
    }
}

/// The least and most polygons drawn over the views of `--turn`, and where.
struct TurnCount {
    views: u32,
    under_1000: u32,
    least: (usize, String),
    most: usize,
}

impl TurnCount {
    fn add(&mut self, drawn: usize, view: impl FnOnce() -> String) {
        self.views += 1;
        self.under_1000 += u32::from(drawn < 1000);
        self.most = self.most.max(drawn);
        if drawn < self.least.0 {
            self.least = (drawn, view());
        }
    }
}
