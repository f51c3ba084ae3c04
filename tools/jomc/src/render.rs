//! `jomc render`: a model drawn by the engine's own code (a frame of the pipeline,
//! `jom::render::ListFrame`) and the software VDP1, written to a PNG. A model without TIMG
//! has its textures as files (.BIN, .TGA) named by TEXT, decoded by the engine's own
//! decoders (`jom::image`).

use clap::Args as ClapArgs;
use jom::vdp1::TextureSource;
use jom::Model;
use jom_write::AlignedBytes;
use jomc::texture_files;
use std::path::{Path, PathBuf};
use vdp1_soft::preview::{self, View};

/// The options of `jomc render`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The JOM file.
    file: PathBuf,
    /// The PNG to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Screen width in pixels.
    #[arg(long, default_value_t = 320)]
    width: u16,
    /// Screen height in pixels.
    #[arg(long, default_value_t = 224)]
    height: u16,
    /// Rotation of the model around its bounding-sphere centre, degrees: X,Y,Z.
    #[arg(long, value_parser = triple, default_value = "0,0,0", allow_hyphen_values = true)]
    rotate: [f64; 3],
    /// Distance from the camera to the bounding-sphere centre, in model units
    /// (default: the whole model in view).
    #[arg(long)]
    distance: Option<f64>,
    /// Draw the model posed by this animation (default: the rest pose).
    #[arg(long)]
    anim: Option<String>,
    /// The animation's time in ticks (60 a second).
    #[arg(long, default_value_t = 0, requires = "anim")]
    time: u32,
    /// Draw N frames of the animation over its length, side by side in one PNG strip.
    #[arg(long, requires = "anim", conflicts_with = "time", value_parser = clap::value_parser!(u32).range(1..=64))]
    frames: Option<u32>,
    /// Direction the light travels, X,Y,Z (default: no light).
    #[arg(long, value_parser = triple, allow_hyphen_values = true)]
    light: Option<[f64; 3]>,
    /// Where the texture files of a model without embedded textures are (the .BIN or .TGA
    /// files its TEXT names; default: the JOM file's folder).
    #[arg(long)]
    texture_dir: Option<PathBuf>,
}

pub fn triple(text: &str) -> Result<[f64; 3], String> {
    let values: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>().map_err(|e| format!("{v:?}: {e}")))
        .collect::<Result<_, _>>()?;
    <[f64; 3]>::try_from(values)
        .map_err(|v| format!("expected 3 numbers separated by commas, got {}", v.len()))
}

/// Renders and writes the PNG (through a temporary file, so a failure leaves none).
pub fn run(args: &Args) -> Result<String, String> {
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let buffer = AlignedBytes::new(&bytes);
    let model =
        Model::from_bytes(buffer.bytes()).map_err(|e| jomc::load_error(&args.file, &bytes, &e))?;
    let view = View {
        width: args.width,
        height: args.height,
        rotate: args.rotate,
        distance: args.distance,
        light: args.light,
        animation: args.anim.clone().map(|name| (name, args.time)),
    };
    let folder = texture_files::folder_of(&args.file, args.texture_dir.as_deref());
    let decoded = texture_files::read(&model, &folder)?;
    let files: Vec<TextureSource<'_>> = decoded.iter().map(|d| d.source()).collect();
    let in_file = |e: String| format!("{}: {e}", args.file.display());
    if let (Some(name), Some(frames)) = (&args.anim, args.frames) {
        let (strip, last) =
            preview::render_strip_with(&model, &view, name, frames, &files).map_err(in_file)?;
        write_atomically(&args.output, |path| preview::write_png(&strip, path))?;
        return Ok(format!(
            "{}: {frames} frames of {name}, ticks 0 to {last}\n",
            args.output.display()
        ));
    }
    let (frame, stats) = preview::render_with(&model, &view, &files).map_err(in_file)?;
    write_atomically(&args.output, |path| preview::write_png(&frame, path))?;
    Ok(format!(
        "{}: {} polygons drawn, {} culled, {} dropped\n",
        args.output.display(),
        stats.drawn,
        stats.culled,
        stats.dropped
    ))
}

pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<(), String> {
    let temporary = path.with_extension("png.part");
    if let Err(e) = write(&temporary)
        .and_then(|()| std::fs::rename(&temporary, path).map_err(|e| e.to_string()))
    {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    Ok(())
}
