//! `saturn-link`: upload, download, execute and watch a program on a Saturn through the USB
//! dev cart. A thin front: the arguments are read here, the work is the library's. Errors
//! are one line on stderr and exit status 1; see docs/boot.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use saturn_link::address::{check_execute, parse_number, Span};
use saturn_link::console::ConsoleEnd;
use saturn_link::error::Silence;
use saturn_link::protocol::Cart;
use saturn_link::transport::{DeviceSpec, Link};
use saturn_link::{Address, Error};

/// Talks to a Sega Saturn through the USB dev cart (usbcart, FT245 0403:6001): uploads and
/// downloads work RAM, starts programs and shows what they print.
#[derive(Debug, Parser)]
#[command(name = "saturn-link", version)]
struct Cli {
    /// usb (the first cart on USB, 0403:6001), a serial device or pseudo-terminal
    /// (/dev/ttyUSB0), or tcp:HOST:PORT
    #[arg(long, global = true, value_name = "SPEC", default_value = "usb", value_parser = DeviceSpec::parse)]
    device: DeviceSpec,
    /// The longest wait for the cart, and for the program's output
    #[arg(long, global = true, value_name = "SECONDS", default_value = "5", value_parser = parse_timeout)]
    timeout: Duration,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Writes FILE to work RAM at ADDRESS and checks the cart's CRC answer
    Upload {
        file: PathBuf,
        #[arg(default_value = "0x06004000", value_parser = parse_address)]
        address: Address,
    },
    /// Reads LENGTH bytes of work RAM from ADDRESS into FILE, checked against the cart's CRC
    Download {
        #[arg(value_parser = parse_address)]
        address: Address,
        #[arg(value_parser = parse_number)]
        length: u32,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: PathBuf,
    },
    /// Has the cart call ADDRESS
    Execute {
        #[arg(value_parser = parse_address)]
        address: Address,
    },
    /// Prints what the running program sends, until its result line or the time-out
    Console,
    /// Uploads FILE, executes it at ADDRESS and prints what it sends; exits 0 when its
    /// result line says "0 failed", 1 otherwise or with no result line
    Run {
        file: PathBuf,
        #[arg(default_value = "0x06004000", value_parser = parse_address)]
        address: Address,
    },
}

fn parse_address(text: &str) -> Result<Address, String> {
    parse_number(text).map(Address)
}

/// Seconds, more than 0 and at most a day.
fn parse_timeout(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(seconds > 0.0 && seconds <= 86_400.0) {
        return Err(format!(
            "'{text}' is not a time-out (expected more than 0 and at most 86400 seconds)"
        ));
    }
    Ok(Duration::from_secs_f64(seconds))
}

fn main() -> ExitCode {
    let cli: Cli = match saturn_link::cli::parse() {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    match run_command(&cli) {
        Ok(status) => status,
        Err(e) => {
            eprintln!("saturn-link: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_command(cli: &Cli) -> Result<ExitCode, Error> {
    match &cli.command {
        Command::Upload { file, address } => {
            let data = read_program(file, *address)?;
            let mut cart = open(cli)?;
            upload(&mut cart, file, *address, &data)?;
        }
        Command::Download {
            address,
            length,
            output,
        } => {
            Span::for_download(*address, (*length).into())?;
            let mut cart = open(cli)?;
            let data = cart.download(*address, (*length).into())?;
            std::fs::write(output, &data).map_err(|source| Error::WriteFile {
                path: output.clone(),
                source,
            })?;
            say(&format!(
                "downloaded {length} bytes from {address} into {} (CRC good)",
                output.display()
            ));
        }
        Command::Execute { address } => {
            check_execute(*address)?;
            let mut cart = open(cli)?;
            cart.execute(*address)?;
            say(&format!("executing at {address}"));
        }
        Command::Console => {
            open(cli)?.console(&mut std::io::stdout())?;
        }
        Command::Run { file, address } => return run(cli, file, *address),
    }
    Ok(ExitCode::SUCCESS)
}

/// Upload, execute, console: the program's result is the exit status.
fn run(cli: &Cli, file: &Path, address: Address) -> Result<ExitCode, Error> {
    let data = read_program(file, address)?;
    check_execute(address)?;
    let mut cart = open(cli)?;
    upload(&mut cart, file, address, &data)?;
    cart.execute(address)?;
    say(&format!("executing at {address}"));
    let why = match cart.console(&mut std::io::stdout())? {
        ConsoleEnd::Result(summary) if summary.succeeded() => return Ok(ExitCode::SUCCESS),
        ConsoleEnd::Result(summary) => {
            say(&format!("the program reported {} failed", summary.failed));
            return Ok(ExitCode::from(1));
        }
        ConsoleEnd::Quiet => Silence::TimedOut(cart.timeout()),
        ConsoleEnd::Closed => Silence::Closed,
    };
    Err(Error::NoResult {
        device: cart.device().to_string(),
        why,
    })
}

/// A program file, checked to fit work RAM from `address` before anything is opened.
fn read_program(file: &Path, address: Address) -> Result<Vec<u8>, Error> {
    let data = std::fs::read(file).map_err(|source| Error::ReadFile {
        path: file.to_path_buf(),
        source,
    })?;
    Span::for_upload(address, data.len() as u64).map_err(|source| Error::FileRange {
        path: file.to_path_buf(),
        source,
    })?;
    Ok(data)
}

fn upload(
    cart: &mut Cart<Box<dyn Link>>,
    file: &Path,
    address: Address,
    data: &[u8],
) -> Result<(), Error> {
    cart.upload(address, data)?;
    say(&format!(
        "uploaded {} ({} bytes) to {address} (CRC good)",
        file.display(),
        data.len()
    ));
    Ok(())
}

fn open(cli: &Cli) -> Result<Cart<Box<dyn Link>>, Error> {
    let device = cli.device.to_string();
    let link = cli.device.open(cli.timeout).map_err(|reason| Error::Open {
        device: device.clone(),
        reason,
    })?;
    Ok(Cart::new(link, device, cli.timeout))
}

/// A progress line, on stderr: stdout carries only what the program prints.
fn say(message: &str) {
    eprintln!("saturn-link: {message}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use saturn_link::address::DEFAULT_LOAD_ADDRESS;

    #[test]
    fn time_outs() {
        assert_eq!(parse_timeout("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_timeout("0.25"), Ok(Duration::from_millis(250)));
        for bad in ["0", "-1", "nan", "inf", "86401", "x", ""] {
            assert!(parse_timeout(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["saturn-link", "run", "prog.bin"]).unwrap();
        assert_eq!(cli.device, DeviceSpec::Usb);
        assert!(matches!(
            cli.command,
            Command::Run { address, .. } if address == DEFAULT_LOAD_ADDRESS
        ));
    }
}
