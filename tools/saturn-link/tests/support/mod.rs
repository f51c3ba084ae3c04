//! What the tests share: running the real `saturn-link` and `saturn-cart-sim` binaries with
//! bounded waits, and simulated carts run inside the test (so that the test can look at
//! their RAM afterwards) on a pseudo-terminal or a TCP port.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use saturn_link::sim::{serve, Ending, Serving, SimCart};
use saturn_link::transport::pty::PtyMaster;
use saturn_link::transport::tcp::TcpLink;
use saturn_link::transport::Link;

/// The longest any child process may run before the test fails (every wait in the tools
/// is bounded; this catches one that is not).
pub const CHILD_LIMIT: Duration = Duration::from_secs(30);

/// A finished `saturn-link` run.
#[derive(Debug)]
pub struct Ran {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// Runs `saturn-link` with `args`.
pub fn saturn_link(args: &[&str]) -> Ran {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_saturn-link"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = read_all(child.stdout.take().unwrap());
    let stderr = read_all(child.stderr.take().unwrap());
    let status = wait_bounded(&mut child, CHILD_LIMIT, "saturn-link");
    Ran {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
        elapsed: start.elapsed(),
    }
}

fn read_all(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        pipe.read_to_end(&mut bytes).unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Waits for `child`, killing it and failing the test past `limit`.
fn wait_bounded(child: &mut Child, limit: Duration, name: &str) -> Option<i32> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name} did not end within {} s", limit.as_secs());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A `saturn-cart-sim` process.
pub struct SimProcess {
    child: Child,
    /// Its first stdout line: the device to give `--device`.
    pub device: String,
    stderr: Option<JoinHandle<String>>,
}

impl SimProcess {
    /// Starts `saturn-cart-sim` with `args` and reads where it listens.
    pub fn start(args: &[&str]) -> SimProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_saturn-cart-sim"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let stderr = Some(read_all(child.stderr.take().unwrap()));
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver
            .recv_timeout(Duration::from_secs(10))
            .expect("saturn-cart-sim printed no device");
        let device = line.trim_end().to_string();
        assert!(!device.is_empty(), "saturn-cart-sim printed an empty line");
        SimProcess {
            child,
            device,
            stderr,
        }
    }

    /// Waits for the simulated cart to end: its status and stderr.
    pub fn finish(mut self) -> (Option<i32>, String) {
        let status = wait_bounded(&mut self.child, Duration::from_secs(10), "saturn-cart-sim");
        let stderr = self.stderr.take().unwrap().join().unwrap();
        (status, stderr)
    }
}

impl Drop for SimProcess {
    fn drop(&mut self) {
        // A test that failed half-way leaves no simulated cart behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A simulated cart served by a thread of the test.
pub struct InProcess {
    /// What to give `--device`.
    pub device: String,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<(SimCart, Ending)>,
}

impl InProcess {
    /// Waits for the PC to have closed the link (at most a few seconds), then returns the
    /// cart and how its serving ended.
    pub fn finish(self) -> (SimCart, Ending) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !self.thread.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }

    /// Stops the cart at once (no PC came): returns it and how its serving ended.
    pub fn stop(self) -> (SimCart, Ending) {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}

/// `cart` on a new pseudo-terminal.
pub fn pty_cart(cart: SimCart) -> InProcess {
    let pty = PtyMaster::open().unwrap();
    let device = pty.path().display().to_string();
    serve_in_thread(device, cart, move |_| Some(Box::new(pty)))
}

/// `cart` on a new TCP port of 127.0.0.1.
pub fn tcp_cart(cart: SimCart) -> InProcess {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let device = format!("tcp:{}", listener.local_addr().unwrap());
    listener.set_nonblocking(true).unwrap();
    serve_in_thread(device, cart, move |stop| loop {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).unwrap();
                return Some(Box::new(TcpLink::from_stream(stream).unwrap()));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => panic!("accept: {e}"),
        }
    })
}

fn serve_in_thread(
    device: String,
    mut cart: SimCart,
    connect: impl FnOnce(&AtomicBool) -> Option<Box<dyn Link + Send>> + Send + 'static,
) -> InProcess {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let thread = std::thread::spawn(move || {
        let Some(mut link) = connect(&flag) else {
            return (cart, Ending::Stopped);
        };
        let serving = Serving {
            exit_after_relay: false,
            stop: Some(&flag),
        };
        let ending = serve(&mut link, &mut cart, serving).unwrap();
        (cart, ending)
    });
    InProcess {
        device,
        stop,
        thread,
    }
}

/// A pseudo-terminal whose far end answers with a fixed reply once it has received
/// `expected` bytes: a cart that misbehaves in ways the simulated one does not.
pub fn scripted_pty(expected: usize, reply: Vec<u8>) -> (String, JoinHandle<Vec<u8>>) {
    let mut pty = PtyMaster::open().unwrap();
    let device = pty.path().display().to_string();
    let thread = std::thread::spawn(move || {
        let deadline = Instant::now() + CHILD_LIMIT;
        let mut received = Vec::new();
        let mut buf = [0u8; 4096];
        let mut replied = false;
        while Instant::now() < deadline {
            match pty.receive(&mut buf, Duration::from_millis(20)) {
                Ok(n) => received.extend_from_slice(&buf[..n]),
                Err(_) => break,
            }
            if !replied && received.len() >= expected {
                pty.send(&reply, Duration::from_secs(5)).unwrap();
                replied = true;
            }
        }
        received
    });
    (device, thread)
}

/// A file of `len` bytes that are not all alike.
pub fn program(dir: &Path, name: &str, len: usize) -> (PathBuf, Vec<u8>) {
    let data: Vec<u8> = (0..len).map(|i| (i * 7 + i / 251) as u8).collect();
    let path = dir.join(name);
    std::fs::write(&path, &data).unwrap();
    (path, data)
}

/// A path as an argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}
