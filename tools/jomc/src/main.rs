//! `jomc`, the JOM toolchain: `jomc info FILE.JOM` describes a model, `jomc render
//! FILE.JOM -o view.png` draws it as the Saturn would.

mod convert;
mod info;
mod render;
mod vram;

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
    Convert(convert::Args),
    /// Draw a JOM file through the engine and a software VDP1 into a PNG.
    Render(render::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Info { file, json } => info::run(&file, json),
        Command::Convert(args) => convert::run(&args).map_err(|e| e.to_string()),
        Command::Render(args) => render::run(&args),
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
