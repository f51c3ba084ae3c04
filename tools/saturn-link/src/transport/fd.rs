//! Non-blocking file descriptors read and written with `poll` deadlines: what the serial
//! link ([`super::serial`]) and the simulated cart's pseudo-terminal ([`super::pty`]) share.

use std::io;
use std::os::fd::BorrowedFd;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::io::Errno;

use super::gone;

/// What one read found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// This many bytes (at least one).
    Bytes(usize),
    /// Nothing yet.
    Nothing,
    /// The other side has gone (end of file, or `EIO` from a terminal whose other side
    /// closed).
    Gone,
}

/// Waits up to `timeout` for one of `events` on `fd`; returns what happened (empty when the
/// time ran out). `POLLHUP` and `POLLERR` come whether asked for or not.
pub fn wait(fd: BorrowedFd<'_>, events: PollFlags, timeout: Duration) -> io::Result<PollFlags> {
    let deadline = Instant::now() + timeout;
    loop {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let timespec = Timespec {
            tv_sec: remaining.as_secs().try_into().unwrap_or(i64::MAX),
            tv_nsec: remaining.subsec_nanos().into(),
        };
        let mut fds = [PollFd::from_borrowed_fd(fd, events)];
        match poll(&mut fds, Some(&timespec)) {
            Ok(_) => return Ok(fds[0].revents()),
            Err(Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// Reads what is there without waiting.
pub fn read_now(fd: BorrowedFd<'_>, buf: &mut [u8]) -> io::Result<Read> {
    loop {
        return match rustix::io::read(fd, &mut *buf) {
            Ok(0) => Ok(Read::Gone),
            Ok(n) => Ok(Read::Bytes(n)),
            Err(Errno::AGAIN) => Ok(Read::Nothing),
            Err(Errno::INTR) => continue,
            Err(Errno::IO) => Ok(Read::Gone),
            Err(e) => Err(e.into()),
        };
    }
}

/// Writes all of `bytes`; fails with [`io::ErrorKind::TimedOut`] when the other side takes
/// nothing for `timeout`, and [`io::ErrorKind::BrokenPipe`] when it has gone.
pub fn write_all(fd: BorrowedFd<'_>, mut bytes: &[u8], timeout: Duration) -> io::Result<()> {
    while !bytes.is_empty() {
        match rustix::io::write(fd, bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(Errno::INTR) => {}
            Err(Errno::AGAIN) => {
                let events = wait(fd, PollFlags::OUT, timeout)?;
                if events.is_empty() {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "the other side took nothing",
                    ));
                }
                if !events.contains(PollFlags::OUT) {
                    return Err(gone());
                }
            }
            Err(Errno::IO | Errno::PIPE) => return Err(gone()),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}
