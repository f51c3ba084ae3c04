//! `saturn-iso`: a bootable Sega Saturn CD image (for Yabause's BIOS emulation, or with
//! `--ip-template` for a console) from a raw SH-2 program. See the crate's documentation and
//! docs/boot.md.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, ValueEnum};
use saturn_iso::{
    make_iso, parse_u32, volume_id_from_title, IpConfig, IpTemplate, IsoOptions, Tool, PROGRAM_NAME,
};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum ToolArg {
    /// genisoimage if installed, else xorriso
    Auto,
    Genisoimage,
    Xorriso,
}

/// Builds a Saturn CD image: our own IP.BIN (no Sega security code unless --ip-template: see
/// docs/boot.md), the program as the first file of the root directory (0PROGRAM.BIN), extra
/// files, and a .cue beside the image.
#[derive(Debug, Parser)]
#[command(name = "saturn-iso", version)]
struct Cli {
    /// The raw program binary (sh-elf-objcopy -O binary), linked at --load-address
    #[arg(long, value_name = "PROGRAM.bin")]
    program: PathBuf,
    /// Where the BIOS loads the program and the IP's boot stub jumps (IP first-read address)
    #[arg(long, value_name = "ADDRESS", default_value = "0x06004000", value_parser = parse_u32)]
    load_address: u32,
    /// The game title in the IP (at most 112 printable ASCII characters)
    #[arg(long)]
    title: String,
    /// An extra file in the root directory, NAME an 8.3 uppercase name (repeatable)
    #[arg(long = "file", value_name = "NAME=PATH")]
    files: Vec<String>,
    /// The ISO image to write; the .cue goes beside it
    #[arg(short = 'o', long = "output", value_name = "OUT.iso")]
    output: PathBuf,
    /// The volume id (default: the title's letters and digits, uppercase)
    #[arg(long)]
    volume: Option<String>,
    /// Maker id (16 characters at most; "SEGA TP T-nnn" for a third party)
    #[arg(long, default_value = "SEGA TP T-000")]
    maker_id: String,
    /// Product number (10 characters at most)
    #[arg(long, default_value = "T-000000")]
    product: String,
    /// Version (6 characters at most)
    #[arg(long = "product-version", default_value = "V1.000")]
    product_version: String,
    /// Release date, YYYYMMDD
    #[arg(long, default_value = "20261129")]
    date: String,
    /// Area symbols (J, T, U, B, K, A, E, L) [default: JTUE; with --ip-template, the
    /// template's, and only areas it has blocks for]
    #[arg(long)]
    areas: Option<String>,
    /// Compatible peripherals (J = control pad)
    #[arg(long, default_value = "J")]
    peripherals: String,
    /// Master SH-2 stack address (0 = the BIOS default)
    #[arg(long, default_value = "0", value_parser = parse_u32)]
    master_stack: u32,
    /// Slave SH-2 stack address (0 = the BIOS default)
    #[arg(long, default_value = "0", value_parser = parse_u32)]
    slave_stack: u32,
    /// The ISO 9660 tool
    #[arg(long, value_enum, default_value = "auto")]
    tool: ToolArg,
    /// Also write the IP (IP.BIN) here
    #[arg(long, value_name = "IP.BIN")]
    ip_out: Option<PathBuf>,
    /// For a console: take Sega's security code and area code blocks from FILE (your SDK's
    /// IP.BIN, or the first sectors of a disc image made with it), checked; our system id
    /// and boot code stay (docs/boot.md, "A disc for a console")
    #[arg(long, value_name = "FILE")]
    ip_template: Option<PathBuf>,
}

fn run(cli: Cli) -> Result<(), saturn_iso::Error> {
    let start = Instant::now();
    let mut files = Vec::new();
    for spec in &cli.files {
        let (name, path) = spec
            .split_once('=')
            .ok_or_else(|| saturn_iso::Error(format!("--file {spec:?}: expected NAME=PATH")))?;
        files.push((name.to_string(), PathBuf::from(path)));
    }
    let template = cli
        .ip_template
        .as_deref()
        .map(IpTemplate::read)
        .transpose()?;
    let mut ip = IpConfig::new(&cli.title, cli.load_address);
    ip.maker_id = cli.maker_id;
    ip.product_number = cli.product;
    ip.version = cli.product_version;
    ip.release_date = cli.date;
    ip.area_symbols = match (cli.areas, &template) {
        (Some(areas), _) => areas,
        (None, Some(template)) => template.symbols(),
        (None, None) => ip.area_symbols,
    };
    ip.peripherals = cli.peripherals;
    ip.master_stack = cli.master_stack;
    ip.slave_stack = cli.slave_stack;
    let tool = match cli.tool {
        ToolArg::Auto => None,
        ToolArg::Genisoimage => Some(Tool::Genisoimage),
        ToolArg::Xorriso => Some(Tool::Xorriso),
    };
    let opts = IsoOptions {
        program: cli.program,
        volume_id: cli
            .volume
            .unwrap_or_else(|| volume_id_from_title(&cli.title)),
        ip,
        files,
        output: cli.output,
        tool,
        ip_output: cli.ip_out,
        ip_template: template,
    };
    let report = make_iso(&opts)?;
    println!(
        "saturn-iso: {} ({} bytes, {}): {PROGRAM_NAME} {} bytes at {:#010x}{}, volume {}; {}{} ({:.2} s)",
        report.iso.display(),
        report.iso_size,
        report.tool.name(),
        report.program_size,
        opts.ip.first_read_address,
        if opts.files.is_empty() {
            String::new()
        } else {
            format!(" + {}", opts.files.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "))
        },
        opts.volume_id,
        report.cue.display(),
        match &opts.ip_template {
            Some(t) => format!(
                "; IP for a console: areas {}, security code and area blocks from {}",
                opts.ip.area_symbols, t.source
            ),
            None => String::new(),
        },
        start.elapsed().as_secs_f64()
    );
    Ok(())
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
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("saturn-iso: {e}");
            ExitCode::from(1)
        }
    }
}
