//! `saturn-rom`: a 512 KiB boot ROM of our own (no Sega code) that starts a raw SH-2
//! program, for an emulator that takes it as its BIOS. See the crate's documentation and
//! docs/boot.md.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use saturn_rom::{make_rom, parse_u32, RomConfig, DEFAULT_STACK, PAYLOAD_OFFSET, ROM_SIZE};

/// Builds a 512 KiB Saturn boot ROM: reset vectors and a loader of ours that copies the
/// program to its load address and jumps there with interrupts masked. For emulators
/// (Mednafen: -ss.bios_sanity 0 -ss.bios_jp ROM -ss.bios_na_eu ROM); see docs/boot.md.
#[derive(Debug, Parser)]
#[command(name = "saturn-rom", version)]
struct Cli {
    /// The raw program binary (sh-elf-objcopy -O binary), linked at --load-address
    #[arg(long, value_name = "PROGRAM.bin")]
    program: PathBuf,
    /// Where the loader copies the program and jumps (work RAM, a multiple of 4)
    #[arg(long, value_name = "ADDRESS", default_value = "0x06004000", value_parser = parse_u32)]
    load_address: u32,
    /// The initial stack pointer (reset vectors); the program's start-up may set its own
    #[arg(long, value_name = "ADDRESS", value_parser = parse_u32)]
    stack: Option<u32>,
    /// The ROM image to write (524,288 bytes)
    #[arg(short = 'o', long = "output", value_name = "OUT.rom")]
    output: PathBuf,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let config = RomConfig {
        load_address: cli.load_address,
        stack: cli.stack.unwrap_or(DEFAULT_STACK),
    };
    match make_rom(&cli.program, &config, &cli.output) {
        Ok(size) => {
            println!(
                "saturn-rom: {} ({ROM_SIZE} bytes): program {size} bytes at ROM {PAYLOAD_OFFSET:#x}, loaded to {:#010x}, stack {:#010x}",
                cli.output.display(),
                config.load_address,
                config.stack
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("saturn-rom: {e}");
            ExitCode::from(1)
        }
    }
}
