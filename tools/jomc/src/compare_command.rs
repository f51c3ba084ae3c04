//! `jomc compare A.JOM B.JOM`: the picture error of B against A (`jomc::compare`).

use clap::Args as ClapArgs;
use jom::vdp1::TextureSource;
use jom::Model;
use jom_write::AlignedBytes;
use jomc::compare::{self, Comparison, Drawn, Settings};
use jomc::texture_files;
use std::fmt::Write;
use std::path::PathBuf;
use vdp1_soft::FrameBuffer;

/// The options of `jomc compare`.
#[derive(ClapArgs, Debug)]
pub struct Args {
    /// The reference model (before a reduction).
    a: PathBuf,
    /// The model compared with it (after).
    b: PathBuf,
    /// Screen width in pixels.
    #[arg(long, default_value_t = 320)]
    width: u16,
    /// Screen height in pixels.
    #[arg(long, default_value_t = 224)]
    height: u16,
    /// A view: the models' rotation, degrees X,Y,Z (repeat for several; default: six
    /// around, every 60 degrees around Y, one from above and one from below).
    #[arg(long, value_parser = crate::render::triple, allow_hyphen_values = true)]
    rotate: Vec<[f64; 3]>,
    /// Frames of each animation of A compared, besides the rest pose (0: the rest pose only).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=64))]
    frames: u32,
    /// Direction the light travels, X,Y,Z.
    #[arg(long, value_parser = crate::render::triple, allow_hyphen_values = true, default_value = "-1,2,3")]
    light: [f64; 3],
    /// No light.
    #[arg(long)]
    no_light: bool,
    /// Print every view's error.
    #[arg(long)]
    each: bool,
    /// Print one JSON object (the mean, the worst view's index, every view).
    #[arg(long)]
    json: bool,
    /// Write the worst view as a PNG: A, B and their difference side by side.
    #[arg(long, value_name = "PNG")]
    worst: Option<PathBuf>,
}

fn read(path: &PathBuf) -> Result<AlignedBytes, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let buffer = AlignedBytes::new(&bytes);
    Model::from_bytes(buffer.bytes()).map_err(|e| jomc::load_error(path, &bytes, &e))?;
    Ok(buffer)
}

pub fn run(args: &Args) -> Result<String, String> {
    let (bytes_a, bytes_b) = (read(&args.a)?, read(&args.b)?);
    let model_a = Model::from_bytes(bytes_a.bytes()).expect("checked");
    let model_b = Model::from_bytes(bytes_b.bytes()).expect("checked");
    let files_a = texture_files::read(&model_a, &texture_files::folder_of(&args.a, None))?;
    let files_b = texture_files::read(&model_b, &texture_files::folder_of(&args.b, None))?;
    let sources_a: Vec<TextureSource<'_>> = files_a.iter().map(|d| d.source()).collect();
    let sources_b: Vec<TextureSource<'_>> = files_b.iter().map(|d| d.source()).collect();
    let settings = Settings {
        width: args.width,
        height: args.height,
        views: match args.rotate.is_empty() {
            true => compare::default_views(),
            false => args.rotate.clone(),
        },
        frames: args.frames,
        light: (!args.no_light).then_some(args.light),
    };
    let a = Drawn {
        model: &model_a,
        texture_files: &sources_a,
    };
    let b = Drawn {
        model: &model_b,
        texture_files: &sources_b,
    };
    let mut worst: Option<(f64, FrameBuffer)> = None;
    let comparison = compare::compare_each(&a, &b, &settings, |view, frame_a, frame_b| {
        if args.worst.is_some() && worst.as_ref().is_none_or(|(e, _)| view.error > *e) {
            worst = Some((view.error, compare::side_by_side(frame_a, frame_b)));
        }
    })
    .map_err(|e| format!("{} vs {}: {e}", args.b.display(), args.a.display()))?;
    if let (Some(path), Some((_, frame))) = (&args.worst, &worst) {
        crate::render::write_atomically(path, |p| vdp1_soft::preview::write_png(frame, p))?;
    }
    if args.json {
        return serde_json::to_string(&comparison)
            .map(|s| s + "\n")
            .map_err(|e| e.to_string());
    }
    Ok(text(args, &settings, &comparison))
}

fn text(args: &Args, settings: &Settings, comparison: &Comparison) -> String {
    let mut out = String::new();
    if args.each {
        for view in &comparison.views {
            let _ = writeln!(
                out,
                "{}: {:.3}, blurred {:.3} ({} of {} pixels differ)",
                view.label(),
                view.error,
                view.blurred_error,
                view.differing,
                view.pixels
            );
        }
    }
    let worst = comparison.worst_view();
    let poses = comparison.views.len() / settings.views.len().max(1);
    let _ = writeln!(
        out,
        "{} against {}: picture error {:.3} of 255, blurred {:.3} (mean of {} views: {} \
         rotations x {} poses, {}x{}); worst {:.3} at {} ({} of {} pixels differ)",
        args.b.display(),
        args.a.display(),
        comparison.error,
        comparison.blurred_error,
        comparison.views.len(),
        settings.views.len(),
        poses,
        settings.width,
        settings.height,
        worst.error,
        worst.label(),
        worst.differing,
        worst.pixels
    );
    out
}
