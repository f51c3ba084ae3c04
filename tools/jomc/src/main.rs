//! `jomc`, the JOM toolchain: `jomc info FILE.JOM` describes a model.

mod info;

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
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Info { file, json } => info::run(&file, json),
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
