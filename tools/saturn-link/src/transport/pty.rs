//! The simulated cart's end of a pseudo-terminal: the PC opens the other end by its path,
//! as it would open `/dev/ttyUSB0`.
//!
//! A pseudo-terminal has no connection as such: the PC is taken as connected once the
//! terminal's other end is open (or a byte came), and as gone when it is closed again.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::event::PollFlags;
use rustix::fs::{fcntl_getfl, fcntl_setfl, Mode, OFlags};
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};

use super::fd::{self, Read};
use super::serial::make_raw;
use super::Link;

/// How often the master looks for the PC while no one has the terminal open (`poll`
/// reports a hang-up at once then, so it cannot just wait).
const LOOK_INTERVAL: Duration = Duration::from_millis(5);

/// The master side of a new pseudo-terminal.
#[derive(Debug)]
pub struct PtyMaster {
    master: OwnedFd,
    path: PathBuf,
    connected: bool,
}

impl PtyMaster {
    /// A new pseudo-terminal in raw mode; the PC opens [`PtyMaster::path`].
    pub fn open() -> io::Result<PtyMaster> {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)?;
        grantpt(&master)?;
        unlockpt(&master)?;
        let path = PathBuf::from(ptsname(&master, Vec::new())?.into_string().map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                "the terminal's name is not UTF-8",
            )
        })?);
        // Raw mode is the terminal's, kept while the master lives: no echo of what the
        // cart sends, no translation either way, whoever opens it.
        make_raw(open_other_end(&path)?)?;
        fcntl_setfl(&master, fcntl_getfl(&master)? | OFlags::NONBLOCK)?;
        Ok(PtyMaster {
            master,
            path,
            connected: false,
        })
    }

    /// The terminal the PC opens.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Waits up to `timeout` until the PC has read everything written to it (the terminal
    /// drops what is unread when the master closes); false if it has not by then.
    pub fn wait_until_read(&self, timeout: Duration) -> io::Result<bool> {
        let deadline = Instant::now() + timeout;
        // Twice empty in a row: written bytes reach the terminal's queue a moment later.
        let mut empty_looks = 0;
        while Instant::now() < deadline {
            let unread = rustix::io::ioctl_fionread(open_other_end(&self.path)?)?;
            empty_looks = if unread == 0 { empty_looks + 1 } else { 0 };
            if empty_looks == 2 {
                return Ok(true);
            }
            std::thread::sleep(LOOK_INTERVAL);
        }
        Ok(false)
    }
}

fn open_other_end(path: &Path) -> io::Result<OwnedFd> {
    let flags = OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC;
    Ok(rustix::fs::open(path, flags, Mode::empty())?)
}

impl Link for PtyMaster {
    fn send(&mut self, bytes: &[u8], timeout: Duration) -> io::Result<()> {
        fd::write_all(self.master.as_fd(), bytes, timeout)
    }

    fn receive(&mut self, buf: &mut [u8], timeout: Duration) -> io::Result<usize> {
        let deadline = Instant::now() + timeout;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            let slice = if self.connected {
                remaining
            } else {
                remaining.min(LOOK_INTERVAL)
            };
            let events = fd::wait(self.master.as_fd(), PollFlags::IN, slice)?;
            if events.contains(PollFlags::IN) {
                match fd::read_now(self.master.as_fd(), buf)? {
                    Read::Bytes(n) => {
                        self.connected = true;
                        return Ok(n);
                    }
                    Read::Gone if self.connected => return Err(super::closed()),
                    Read::Gone => std::thread::sleep(slice),
                    Read::Nothing => {}
                }
            } else if events.contains(PollFlags::HUP) {
                // No one has the terminal open.
                if self.connected {
                    return Err(super::closed());
                }
                std::thread::sleep(slice);
            } else if events.is_empty() {
                // A quiet wait without a hang-up: the PC has the terminal open.
                self.connected = true;
            }
            if Instant::now() >= deadline {
                return Ok(0);
            }
        }
    }

    fn discard_input(&mut self) -> io::Result<()> {
        let mut buf = [0; 256];
        while let Read::Bytes(_) = fd::read_now(self.master.as_fd(), &mut buf)? {}
        Ok(())
    }
}
