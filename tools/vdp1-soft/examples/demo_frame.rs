//! Renders the demo's fixed frame (the scene of `demo/src/scene.rs`, included here word
//! for word) through the engine and the software VDP1: the picture the emulator's
//! screenshot of `make demo-test` is compared with.
//!
//! `cargo run -p vdp1-soft --example demo_frame -- build/DEMO.JOM build/demo-reference.png`

#[path = "../../../demo/src/scene.rs"]
mod scene;

use jom::Model;
use std::path::Path;
use vdp1_soft::preview::{render_scene, write_png};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model_path, output] = args.as_slice() else {
        return Err("usage: demo_frame MODEL.JOM OUTPUT.png".into());
    };
    let bytes = std::fs::read(model_path).map_err(|e| format!("{model_path}: {e}"))?;
    let buffer = jom_write::AlignedBytes::new(&bytes);
    let model = Model::from_bytes(buffer.bytes()).map_err(|e| format!("{model_path}: {e}"))?;
    let frame = scene::at(&model, scene::FIXED_YAW);
    // A model without animations stands in its rest pose, as the demo's player leaves it.
    let pose = (!model.animations().is_empty()).then_some((scene::ANIMATION, scene::FIXED_TICKS));
    let (mut picture, stats) = render_scene(
        &model,
        &frame.camera,
        &frame.transform,
        Some(&frame.light),
        pose,
    )?;
    // Where the VDP1 drew nothing the VDP2 shows its back screen.
    for pixel in picture.pixels.iter_mut().filter(|p| **p == 0) {
        *pixel = scene::BACKGROUND;
    }
    write_png(&picture, Path::new(output))?;
    println!(
        "{output}: the demo's fixed frame, {} polygons drawn",
        stats.drawn
    );
    Ok(())
}
