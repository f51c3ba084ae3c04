//! A serial device or pseudo-terminal by path, in raw mode: the cart's FT245 as Linux's
//! `ftdi_sio` driver shows it (`/dev/ttyUSB0`; an FT245 in FIFO mode ignores the baud
//! rate), or the simulated cart's pseudo-terminal.

use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::time::{Duration, Instant};

use rustix::event::PollFlags;
use rustix::fs::{Mode, OFlags};
use rustix::termios::{isatty, tcflush, tcgetattr, tcsetattr, OptionalActions, QueueSelector};

use super::fd::{self, Read};
use super::Link;

/// An open terminal device.
#[derive(Debug)]
pub struct SerialLink {
    fd: OwnedFd,
}

impl SerialLink {
    /// Opens `path` (never as the controlling terminal) and puts it in raw mode: no echo,
    /// no line editing, no translation of bytes. The error says why, for
    /// [`crate::Error::Open`].
    pub fn open(path: &Path) -> Result<SerialLink, String> {
        let flags = OFlags::RDWR | OFlags::NOCTTY | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = rustix::fs::open(path, flags, Mode::empty())
            .map_err(|e| io::Error::from(e).to_string())?;
        if !isatty(&fd) {
            return Err("not a serial device or pseudo-terminal \
                        (expected usb, a terminal device such as /dev/ttyUSB0, or tcp:HOST:PORT)"
                .into());
        }
        make_raw(&fd).map_err(|e| format!("cannot put it in raw mode: {e}"))?;
        Ok(SerialLink { fd })
    }
}

/// Raw mode, applied at once.
pub fn make_raw(fd: impl AsFd) -> io::Result<()> {
    let mut termios = tcgetattr(&fd)?;
    termios.make_raw();
    tcsetattr(&fd, OptionalActions::Now, &termios)?;
    Ok(())
}

impl Link for SerialLink {
    fn send(&mut self, bytes: &[u8], timeout: Duration) -> io::Result<()> {
        fd::write_all(self.fd.as_fd(), bytes, timeout)
    }

    fn receive(&mut self, buf: &mut [u8], timeout: Duration) -> io::Result<usize> {
        let deadline = Instant::now() + timeout;
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            let events = fd::wait(self.fd.as_fd(), PollFlags::IN, remaining)?;
            if events.is_empty() {
                return Ok(0);
            }
            match fd::read_now(self.fd.as_fd(), buf)? {
                Read::Bytes(n) => return Ok(n),
                Read::Gone => return Err(super::closed()),
                // Woken with nothing to read: wait for the rest of the time.
                Read::Nothing if remaining.is_zero() => return Ok(0),
                Read::Nothing => {}
            }
        }
    }

    fn discard_input(&mut self) -> io::Result<()> {
        tcflush(&self.fd, QueueSelector::IFlush)?;
        Ok(())
    }
}
