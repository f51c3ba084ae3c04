//! `saturn-cart-sim`: a simulated USB dev cart for tests and scripts. It offers a
//! pseudo-terminal (its path is the first line on stdout) or a TCP port on 127.0.0.1
//! (`tcp:127.0.0.1:PORT` is the first line), answers the PC byte for byte as the cart's
//! firmware does (`saturn_link::sim`), writes one line a command to stderr, and exits
//! when the PC closes the connection (or, with `--exit-after-relay`, once the program's
//! text has been read): status 0 if every expectation held, 1 otherwise.

use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use saturn_link::address::{parse_number, DEFAULT_LOAD_ADDRESS};
use saturn_link::sim::{serve, Ending, Expectation, Serving, SimCart, SimOptions};
use saturn_link::transport::pty::PtyMaster;
use saturn_link::transport::tcp::TcpLink;
use saturn_link::transport::Link;
use saturn_link::Address;

/// How long the PC has to read the program's text before `--exit-after-relay` closes a
/// pseudo-terminal (which drops what is unread).
const READ_GRACE: Duration = Duration::from_secs(10);

/// A simulated Saturn USB dev cart: answers saturn-link over a pseudo-terminal (default)
/// or TCP as the cart's firmware does, over a simulated work RAM.
#[derive(Debug, Parser)]
#[command(name = "saturn-cart-sim", version)]
struct Cli {
    /// Listen on 127.0.0.1:PORT instead of a pseudo-terminal (0: any free port)
    #[arg(long, value_name = "PORT")]
    tcp: Option<u16>,
    /// What the program prints once executed: this file's bytes, sent as they are
    #[arg(long, value_name = "FILE")]
    relay: Option<PathBuf>,
    /// At the execute, RAM at ADDRESS (default 0x06004000) must hold FILE and the execute
    /// must be at ADDRESS; otherwise say so on stderr and exit with status 1
    #[arg(long, value_name = "FILE[@ADDRESS]")]
    expect: Option<String>,
    /// Answer 0x01 (bad CRC) to every upload
    #[arg(long)]
    bad_crc: bool,
    /// Stop answering after N bytes received from the PC
    #[arg(long, value_name = "N", value_parser = parse_count)]
    silent_after: Option<u64>,
    /// Exit once the program's text has been sent (and read), without waiting for the PC
    /// to close the connection
    #[arg(long)]
    exit_after_relay: bool,
}

fn parse_count(text: &str) -> Result<u64, String> {
    parse_number(text).map(u64::from)
}

fn main() -> ExitCode {
    let cli: Cli = match saturn_link::cli::parse() {
        Ok(cli) => cli,
        Err(status) => return status,
    };
    match simulate(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("saturn-cart-sim: {message}");
            ExitCode::from(1)
        }
    }
}

/// Runs the cart on its link; true if every expectation held.
fn simulate(cli: &Cli) -> Result<bool, String> {
    let mut cart = SimCart::new(options(cli)?);
    let serving = Serving {
        exit_after_relay: cli.exit_after_relay,
        stop: None,
    };
    match cli.tcp {
        Some(port) => serve_tcp(port, &mut cart, serving)?,
        None => serve_pty(&mut cart, serving)?,
    }
    for event in cart.events() {
        eprintln!("saturn-cart-sim: {event}");
    }
    let problems = cart.problems();
    for problem in &problems {
        eprintln!("saturn-cart-sim: {problem}");
    }
    Ok(problems.is_empty())
}

fn options(cli: &Cli) -> Result<SimOptions, String> {
    let relay = match &cli.relay {
        Some(path) => read(path)?,
        None => Vec::new(),
    };
    let expect = cli.expect.as_deref().map(expectation).transpose()?;
    Ok(SimOptions {
        bad_crc: cli.bad_crc,
        silent_after: cli.silent_after,
        relay,
        expect,
    })
}

/// `FILE` or `FILE@ADDRESS`.
fn expectation(text: &str) -> Result<Expectation, String> {
    let (file, address) = match text.rsplit_once('@') {
        Some((file, address)) if parse_number(address).is_ok() => {
            (file, Address(parse_number(address)?))
        }
        _ => (text, DEFAULT_LOAD_ADDRESS),
    };
    Ok(Expectation {
        name: file.to_string(),
        data: read(Path::new(file))?,
        address,
    })
}

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Tells the PC where to connect: the first line on stdout.
fn announce(device: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout();
    writeln!(stdout, "{device}")
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write to stdout: {e}"))
}

fn serve_pty(cart: &mut SimCart, serving: Serving<'_>) -> Result<(), String> {
    let mut pty = PtyMaster::open().map_err(|e| format!("cannot open a pseudo-terminal: {e}"))?;
    announce(&pty.path().display().to_string())?;
    let ending =
        serve(&mut pty, cart, serving).map_err(|e| format!("{}: {e}", pty.path().display()))?;
    if ending == Ending::Relayed {
        let read = pty
            .wait_until_read(READ_GRACE)
            .map_err(|e| format!("{}: {e}", pty.path().display()))?;
        if !read {
            return Err(format!(
                "the PC did not read the program's text within {} s",
                READ_GRACE.as_secs()
            ));
        }
    }
    Ok(())
}

fn serve_tcp(port: u16, cart: &mut SimCart, serving: Serving<'_>) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let address = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    announce(&format!("tcp:{address}"))?;
    let (stream, _) = listener
        .accept()
        .map_err(|e| format!("cannot accept on {address}: {e}"))?;
    let mut link = TcpLink::from_stream(stream).map_err(|e| format!("{address}: {e}"))?;
    let ending = serve(&mut link, cart, serving).map_err(|e| format!("{address}: {e}"))?;
    if ending == Ending::Relayed {
        // The PC reads what was sent, then the end.
        let _ = link.finish_sending();
        let _ = link.discard_input();
    }
    Ok(())
}
