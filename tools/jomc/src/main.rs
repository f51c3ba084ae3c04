//! `jomc`, the JOM toolchain: `jomc convert MODEL -o FILE.JOM` converts a model, `jomc info
//! FILE.JOM` describes it, `jomc render FILE.JOM -o view.png` draws it as the Saturn would,
//! `jomc compare A.JOM B.JOM` measures how far B's pictures are from A's, `jomc new PATH`
//! writes a new game crate, `jomc plane PICTURE.png -o FLOOR.BIN` makes the VDP2 floor's
//! file. The conversion and the template are the
//! library's (`jomc::convert`, `jomc::new`).

mod compare_command;
mod info;
mod render;

use jomc::convert;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "jomc",
    version,
    about = "The JOM toolchain for Sega Saturn 3D models"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Describe a JOM file: its header, chunks, materials, textures, groups, skeleton.
    Info {
        /// The JOM file.
        file: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Convert a Wavefront OBJ (+ MTL, PNG textures, skeleton JSON) to a JOM file.
    Convert(ConvertArgs),
    /// Draw a JOM file through the engine and a software VDP1 into a PNG.
    Render(render::Args),
    /// The picture error of model B against model A, both drawn from the same views and
    /// poses by the engine and a software VDP1.
    Compare(compare_command::Args),
    /// Write a new game crate at PATH (which must not exist, or be an empty folder).
    New(jomc::new::Args),
    /// Convert a PNG to the VDP2 floor's file (cells, map, palette: docs/vdp2.md).
    Plane(jomc::plane::Args),
}

/// `jomc convert`: the model, the output, then the conversion's options.
#[derive(clap::Args)]
struct ConvertArgs {
    /// The model: a Wavefront OBJ (its `mtllib` files are read from its directory), a glTF
    /// 2.0 file (.gltf with its buffers and images, or .glb), a PlayStation TMD (by its
    /// extension .tmd or its ID 0x41) or a 3DS CMB (by its extension .cmb).
    #[arg(value_name = "MODEL")]
    obj: PathBuf,
    /// The JOM file to write.
    #[arg(short, long)]
    output: PathBuf,
    #[command(flatten)]
    options: convert::Options,
}

/// Converts, printing the importers' warnings (also those given before an error).
fn convert(args: &ConvertArgs) -> Result<String, String> {
    let sources = convert::Sources::disk();
    let result = convert::convert_with(&args.obj, &args.output, &args.options, &sources);
    for warning in sources.warnings() {
        eprintln!("jomc: warning: {warning}");
    }
    result.map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Info { file, json } => info::run(&file, json),
        Command::Convert(args) => convert(&args),
        Command::Render(args) => render::run(&args),
        Command::Compare(args) => compare_command::run(&args),
        Command::New(args) => jomc::new::run(&args),
        Command::Plane(args) => jomc::plane::run(&args),
    };
    match result {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("jomc: {message}");
            ExitCode::FAILURE
        }
    }
}
