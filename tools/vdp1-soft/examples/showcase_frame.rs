//! Draws the showcase's fixed frame (the scene of `showcase/src/scene.rs`, included here
//! word for word) through the engine's `Renderer` and the software VDP1: the picture the
//! emulator's screenshot of `ci/showcase.sh test` is compared with.
//!
//! `cargo run -p vdp1-soft --example showcase_frame -- HERO.JOM GROUND.JOM OUT.png [--orbit YAW,PITCH,DISTANCE] [--ticks T]`
//!
//! `--orbit` (raw angle units of 1/65,536 turn and world units) draws another view, to
//! look at the scene from the host; `--ticks` another time of the animation (how far the
//! emulator test's figure falls when the frame is not the one the Saturn drew).

#[path = "../../../showcase/src/scene.rs"]
#[allow(dead_code)]
mod scene;

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{Posed, Renderer};
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

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: showcase_frame HERO.JOM GROUND.JOM OUT.png [--orbit YAW,PITCH,DISTANCE] [--ticks T]";
    let (files, options) = match args.as_slice() {
        [hero, ground, out, options @ ..] if options.len() % 2 == 0 => {
            ([hero, ground, out], options)
        }
        _ => return Err(usage.into()),
    };
    let (mut view, mut ticks) = (scene::FIXED_ORBIT, scene::FIXED_TICKS);
    for pair in options.chunks(2) {
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
    let [hero_path, ground_path, output] = files;
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
    let hero_handle = renderer
        .load(&hero)
        .map_err(|e| format!("{hero_path}: {e}"))?;
    let ground_handle = renderer
        .load(&ground)
        .map_err(|e| format!("{ground_path}: {e}"))?;

    let mut player = AnimationPlayer::new(&hero);
    player.play(scene::FIXED_ANIMATION);
    player.seek(ticks);
    let pose = player.pose(&hero);
    let mut bones = [Matrix::IDENTITY; MAX_BONES];
    bone_matrices(&hero, &pose, &mut bones);
    let root = root_matrix(&pose);
    let posed = Posed {
        transform: &scene::PLACE,
        root: &root,
        bones: &bones,
    };
    let camera = view.camera();
    let mut frame = renderer
        .begin(&camera, Some(&scene::LIGHT))
        .map_err(|e| e.to_string())?;
    for place in scene::ground_places() {
        frame
            .draw_ground(&ground_handle, &place)
            .map_err(|e| e.to_string())?;
    }
    frame
        .draw_posed(&hero_handle, &posed)
        .map_err(|e| e.to_string())?;
    let stats = frame.finish().map_err(|e| e.to_string())?;
    drop((hero_handle, ground_handle));
    drop(renderer);

    // The jump at VRAM 0 points at the list just written (CMDLINK = address / 8).
    let list = u32::from(u16::from_be_bytes([vram[2], vram[3]])) * 8;
    let mut picture = FrameBuffer::new(usize::from(camera.width), usize::from(camera.height));
    draw_list(&vram, list, &mut picture);
    // Where the VDP1 drew nothing the VDP2 shows its back screen.
    for pixel in picture.pixels.iter_mut().filter(|p| **p == 0) {
        *pixel = scene::BACKGROUND;
    }
    write_png(&picture, Path::new(output))?;
    println!(
        "{output}: the showcase's frame, {} polygons drawn ({} commands), {} culled",
        stats.drawn, stats.commands, stats.culled
    );
    Ok(())
}
