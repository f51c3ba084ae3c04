//! Renders the demo's fixed frame (the scene of `demo/src/scene.rs`, included here word
//! for word: three figures of the model, sorted together) through the engine's
//! `Renderer` and the software VDP1: the picture the emulator's screenshot of
//! `ci/demo.sh test` is compared with. With `--commands FILE` it also writes the bytes of
//! the committed frame (`sh2-test/src/frame_bytes.rs`), which the SH-2 test draws again on
//! the emulated Saturns and compares.
//!
//! It fails when the VDP1 follows more commands than Yabause draws in a frame
//! (`scene::YABAUSE_MAX_COMMANDS`): Yabause's screenshot would then miss the end of the list
//! and differ from this picture for a reason of the emulator's.
//!
//! With `--check-sort` it fails when the scene would not show a wrong sort: the figures
//! drawn in the reverse order must give the same picture, and painting each figure's own
//! list over the one before (what a renderer sorting each model alone did) one that differs
//! in at least 1% of its pixels. (`ci/demo.sh` checks the robot so; a large model may have
//! polygons of two figures at the same depth, whose order follows the draw order.)
//!
//! With `--floor FLOOR.BIN` (the demo's `floor` feature, `ci/floor.sh`) the pixels the
//! VDP1 leaves empty show the VDP2's floor and sky as `jom::vdp2` computes them for the
//! same camera (`FloorFrame::color`: the VDP2's own arithmetic, exact where the emulators
//! follow the VDP2 manual's formulas), instead of the back screen's colour.
//!
//! With `--billboards` (the demo's `billboards` feature, `ci/billboards.sh`) the frame
//! has the billboards of `demo/src/billboards.rs` among the figures, and its fog.
//!
//! With `--turned` the camera is the second fixed frame's of the demo's `floor-latency`
//! feature (turned by `floor::LATENCY_TURN`).
//!
//! `cargo run -p vdp1-soft --example demo_frame -- build/DEMO.JOM build/demo-reference.png [--commands build/SCENE.BIN] [--check-sort] [--floor build/FLOOR.BIN] [--turned] [--billboards]`

#[path = "../../../demo/src/billboards.rs"]
mod billboards;
#[path = "../../../demo/src/floor.rs"]
mod floor;
#[path = "../../../sh2-test/src/frame_bytes.rs"]
mod frame_bytes;
#[path = "../../../demo/src/scene.rs"]
mod scene;

use jom::render::{ModelHandle, Renderer};
use jom::vdp1::{FrameTimeout, Vdp1, Vram, VRAM_SIZE};
use jom::Model;
use std::cell::RefCell;
use std::path::Path;
use vdp1_soft::preview::write_png;
use vdp1_soft::{draw_list, FrameBuffer};

/// VRAM in memory that the example reads between frames (the renderer owns its `Vdp1`).
struct SharedVram<'a>(&'a RefCell<Vec<u8>>);

impl Vram for SharedVram<'_> {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        let mut vram = self.0.borrow_mut();
        let start = address as usize;
        vram[start..start + bytes.len()].copy_from_slice(bytes);
    }
}

impl Vdp1 for SharedVram<'_> {
    fn list_flipped(&mut self) {}

    fn frame_changed(&mut self) -> bool {
        true
    }

    fn wait_frame_change(&mut self) -> Result<(), FrameTimeout> {
        Ok(())
    }
}

fn main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let check_sort = args.iter().any(|a| a == "--check-sort");
    args.retain(|a| a != "--check-sort");
    // The second fixed frame of the demo's `floor-latency` feature.
    let turned = args.iter().any(|a| a == "--turned");
    args.retain(|a| a != "--turned");
    let with_billboards = args.iter().any(|a| a == "--billboards");
    args.retain(|a| a != "--billboards");
    let yaw = match turned {
        true => jom::math::Angle(scene::FIXED_YAW.0 ^ floor::LATENCY_TURN.0),
        false => scene::FIXED_YAW,
    };
    let floor_file = match args.iter().position(|a| a == "--floor") {
        Some(at) if at + 1 < args.len() => Some(args.drain(at..at + 2).nth(1).unwrap_or_default()),
        Some(_) => return Err("--floor needs a file".into()),
        None => None,
    };
    let (model_path, output, commands) = match args.as_slice() {
        [model, output] => (model, output, None),
        [model, output, flag, commands] if flag == "--commands" => (model, output, Some(commands)),
        _ => {
            return Err(
                "usage: demo_frame MODEL.JOM OUTPUT.png [--commands FILE] [--check-sort]".into(),
            )
        }
    };
    let bytes = std::fs::read(model_path).map_err(|e| format!("{model_path}: {e}"))?;
    let buffer = jom_write::AlignedBytes::new(&bytes);
    let model = Model::from_bytes(buffer.bytes()).map_err(|e| format!("{model_path}: {e}"))?;
    let vram = RefCell::new(vec![0u8; VRAM_SIZE as usize]);
    let memory = scene::scene_memory!().ok_or("the renderer's memory was taken")?;
    let memory = match with_billboards {
        true => {
            let (placed, keys) = jom::billboard_memory!(billboards::COUNT)
                .ok_or("the billboards' memory was taken")?;
            memory.with_billboards(placed, keys)
        }
        false => memory,
    };
    let renderer = Renderer::new(SharedVram(&vram), memory, None).map_err(|e| e.to_string())?;
    let robot = renderer
        .load(&model)
        .map_err(|e| format!("{model_path}: {e}"))?;
    let painted =
        |order: Option<&[usize]>| paint(&renderer, &robot, &vram, order, (yaw, with_billboards));

    let (picture, drawn) = painted(None)?;
    let followed = followed_commands(&vram.borrow())?;
    if followed > scene::YABAUSE_MAX_COMMANDS {
        return Err(format!(
            "{model_path}: the VDP1 follows {followed} commands, Yabause draws the first {} only",
            scene::YABAUSE_MAX_COMMANDS
        ));
    }
    if let Some(path) = commands {
        // Drawn again with the memory the SH-2 test has room for (frame_bytes.rs).
        let compared_vram = RefCell::new(vec![0u8; VRAM_SIZE as usize]);
        let memory = frame_bytes::compared_memory!().ok_or("the compared memory was taken")?;
        let compared =
            Renderer::new(SharedVram(&compared_vram), memory, None).map_err(|e| e.to_string())?;
        let robot = compared
            .load(&model)
            .map_err(|e| format!("{model_path}: {e}"))?;
        paint(&compared, &robot, &compared_vram, None, (yaw, false))?;
        let mut committed = Vec::new();
        frame_bytes::committed_frame(
            |address, bytes| {
                let start = address as usize;
                bytes.copy_from_slice(&compared_vram.borrow()[start..start + bytes.len()]);
            },
            |bytes| committed.extend_from_slice(bytes),
        )?;
        std::fs::write(path, &committed).map_err(|e| format!("{path}: {e}"))?;
    }
    let sort = match check_sort {
        true => format!(
            "; {} pixels differ when each figure is painted after the one before",
            wrong_sort_pixels(&picture, painted)?
        ),
        false => String::new(),
    };
    let mut picture = picture;
    // Where the VDP1 drew nothing the VDP2 shows its back screen, or the floor and sky.
    let behind = behind_sprites(&model, floor_file.as_deref(), yaw)?;
    for (i, pixel) in picture.pixels.iter_mut().enumerate() {
        if *pixel == 0 {
            *pixel = behind(i % picture.width, i / picture.width);
        }
    }
    write_png(&picture, Path::new(output))?;
    println!(
        "{output}: the demo's fixed frame, {drawn} polygons of {} figures drawn{sort}",
        scene::FIGURES.len()
    );
    Ok(())
}

/// The colour the VDP2 shows at a pixel where the VDP1 drew nothing: the back screen's,
/// or with `floor_file` the floor's and the sky's for the fixed frame's camera.
fn behind_sprites(
    model: &Model<'_>,
    floor_file: Option<&str>,
    yaw: jom::math::Angle,
) -> Result<Box<dyn Fn(usize, usize) -> u16>, String> {
    let Some(path) = floor_file else {
        return Ok(Box::new(|_, _| scene::BACKGROUND));
    };
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    // The example's one picture: the file kept for the program's life.
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    let tiles = jom::vdp2::FloorTiles::from_bytes(bytes).map_err(|e| format!("{path}: {e}"))?;
    let camera = scene::camera(model, yaw);
    let floor = floor::floor().map_err(|e| e.to_string())?;
    let mut frame = jom::vdp2::FloorFrame::default();
    let buffer = jom::vdp2::floor::Buffer(0);
    floor
        .frame_into(&camera, buffer, &mut frame)
        .map_err(|e| e.to_string())?;
    Ok(Box::new(move |x, y| {
        0x8000 | frame.color(&tiles, x as i32, y)
    }))
}

/// The commands the VDP1 follows from VRAM 0 before the end command (the jump there
/// counted), as Yabause counts them.
fn followed_commands(vram: &[u8]) -> Result<usize, String> {
    let mut ignored = FrameBuffer::new(1, 1);
    // draw_list counts the end command too.
    let read = draw_list(vram, 0, &mut ignored).map_err(|e| e.to_string())?;
    Ok(read - 1)
}

/// Checks that `picture` (the scene as the demo draws it) shows a wrong sort: the figures
/// drawn in the reverse order give the same picture, and each figure's own frame painted
/// over the one before a picture that differs in at least 1% of its pixels (how many).
fn wrong_sort_pixels(
    picture: &FrameBuffer,
    painted: impl Fn(Option<&[usize]>) -> Result<(FrameBuffer, usize), String>,
) -> Result<usize, String> {
    let (reversed, _) = painted(Some(&[2, 1, 0]))?;
    if reversed.pixels != picture.pixels {
        return Err("the figures drawn in the reverse order give another picture".into());
    }
    let mut one_by_one = FrameBuffer::new(picture.width, picture.height);
    for figure in 0..scene::FIGURES.len() {
        let (alone, _) = painted(Some(&[figure]))?;
        for (pixel, &drawn) in one_by_one.pixels.iter_mut().zip(&alone.pixels) {
            if drawn != 0 {
                *pixel = drawn;
            }
        }
    }
    let wrong = one_by_one
        .pixels
        .iter()
        .zip(&picture.pixels)
        .filter(|(a, b)| a != b)
        .count();
    if wrong * 100 < picture.pixels.len() {
        return Err(format!(
            "painting the figures one after the other changes only {wrong} pixels: the scene would not show a wrong sort"
        ));
    }
    Ok(wrong)
}

/// The figures of `order` (`None`: the scene as the demo draws it) drawn in one frame at
/// the fixed time, as the software VDP1 paints the list the frame committed; and the
/// polygons drawn.
fn paint<V: Vdp1>(
    renderer: &Renderer<'_, V>,
    robot: &ModelHandle<'_, '_>,
    vram: &RefCell<Vec<u8>>,
    order: Option<&[usize]>,
    (yaw, with_billboards): (jom::math::Angle, bool),
) -> Result<(FrameBuffer, usize), String> {
    let model = robot.model();
    let mut players = scene::players(model);
    for player in &mut players {
        player.seek(scene::FIXED_TICKS);
    }
    let camera = scene::camera(model, yaw);
    let mut frame = renderer
        .begin(&camera, Some(&scene::LIGHT))
        .map_err(|e| e.to_string())?;
    match order {
        None => scene::draw(&mut frame, robot, &players),
        Some(order) => order
            .iter()
            .try_for_each(|&figure| scene::draw_figure(&mut frame, robot, &players, figure)),
    }
    .map_err(|e| e.to_string())?;
    if with_billboards {
        frame.set_fog(Some(billboards::fog(model, &camera)));
        billboards::draw(&mut frame, renderer, robot).map_err(|e| e.to_string())?;
    }
    let stats = frame.finish().map_err(|e| e.to_string())?;
    if with_billboards && stats.billboards == 0 {
        return Err("no billboard drawn: the model has no texture in VRAM".into());
    }
    let mut picture = FrameBuffer::new(usize::from(camera.width), usize::from(camera.height));
    draw_list(&vram.borrow(), 0, &mut picture).map_err(|e| e.to_string())?;
    Ok((picture, stats.drawn))
}
