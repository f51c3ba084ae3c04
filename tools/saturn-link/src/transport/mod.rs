//! The links to a cart, behind one trait, [`Link`], and the `--device` argument that picks
//! one, [`DeviceSpec`]:
//! - [`ftdi`]: the cart's FT245 on USB, through usbfs (pure Rust, `nusb`);
//! - [`serial`]: a serial device or pseudo-terminal by path (Linux's `ftdi_sio` shows the
//!   FT245 as `/dev/ttyUSB0`; the simulated cart offers a pseudo-terminal), in raw mode;
//! - [`tcp`]: a TCP connection (the simulated cart's `--tcp`);
//! - [`pty`]: the other side of a pseudo-terminal, the simulated cart's;
//! - [`script`]: replies fixed in advance, for unit tests and the fuzz target;
//! - [`fd`]: reads and writes of a file descriptor bounded by `poll`, shared by [`serial`]
//!   and [`pty`].
//!
//! Every wait is bounded by the time-out its caller gives.

pub mod fd;
pub mod ftdi;
pub mod pty;
pub mod script;
pub mod serial;
pub mod tcp;

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// A byte stream to a cart (or, for the simulated cart, to the PC).
pub trait Link {
    /// Sends all of `bytes`. Fails with [`io::ErrorKind::TimedOut`] when the other end takes
    /// nothing for `timeout`, and with [`io::ErrorKind::UnexpectedEof`] or
    /// [`io::ErrorKind::BrokenPipe`] when it has gone.
    fn send(&mut self, bytes: &[u8], timeout: Duration) -> io::Result<()>;

    /// Waits up to `timeout` for bytes and returns how many it put at the start of `buf`:
    /// at least one, or 0 only when `timeout` passed with nothing. Fails with
    /// [`io::ErrorKind::UnexpectedEof`] when the other end has closed.
    fn receive(&mut self, buf: &mut [u8], timeout: Duration) -> io::Result<usize>;

    /// Drops whatever has arrived and not been read (stale output of an earlier program),
    /// so that the next answer read is the answer to the next command.
    fn discard_input(&mut self) -> io::Result<()>;
}

impl<L: Link + ?Sized> Link for Box<L> {
    fn send(&mut self, bytes: &[u8], timeout: Duration) -> io::Result<()> {
        (**self).send(bytes, timeout)
    }

    fn receive(&mut self, buf: &mut [u8], timeout: Duration) -> io::Result<usize> {
        (**self).receive(buf, timeout)
    }

    fn discard_input(&mut self) -> io::Result<()> {
        (**self).discard_input()
    }
}

/// Whether an I/O error means the other end has gone.
pub fn is_closed(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::UnexpectedEof
            | io::ErrorKind::BrokenPipe
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::NotConnected
    )
}

/// The error of a read from a link whose other side has closed.
pub fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, "the other side closed")
}

/// The error of a write to a link whose other side has gone.
pub fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the other side closed")
}

/// Which device `--device` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceSpec {
    /// `usb`: the first FT245 on USB with id 0403:6001.
    Usb,
    /// `tcp:HOST:PORT`.
    Tcp(String),
    /// Anything else: a serial device or pseudo-terminal.
    Path(PathBuf),
}

impl DeviceSpec {
    /// Reads `--device`'s argument; an empty one or a `tcp:` without a port is refused.
    pub fn parse(text: &str) -> Result<DeviceSpec, String> {
        if text == "usb" {
            return Ok(DeviceSpec::Usb);
        }
        if let Some(address) = text.strip_prefix("tcp:") {
            let port_ok = address
                .rsplit_once(':')
                .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
            return if port_ok {
                Ok(DeviceSpec::Tcp(address.to_string()))
            } else {
                Err(format!(
                    "'{text}' is not a TCP device (expected tcp:HOST:PORT, e.g. tcp:127.0.0.1:4000)"
                ))
            };
        }
        if text.is_empty() {
            return Err("empty device (expected usb, a device path or tcp:HOST:PORT)".into());
        }
        Ok(DeviceSpec::Path(PathBuf::from(text)))
    }

    /// Opens the link; the error is the device's message for [`crate::Error::Open`].
    pub fn open(&self, timeout: Duration) -> Result<Box<dyn Link>, String> {
        match self {
            DeviceSpec::Usb => Ok(Box::new(ftdi::Ft245::open_first()?)),
            DeviceSpec::Tcp(address) => Ok(Box::new(tcp::TcpLink::connect(address, timeout)?)),
            DeviceSpec::Path(path) => Ok(Box::new(serial::SerialLink::open(path)?)),
        }
    }
}

impl fmt::Display for DeviceSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeviceSpec::Usb => write!(
                f,
                "usb (FT245 {:04x}:{:04x})",
                ftdi::VENDOR_ID,
                ftdi::PRODUCT_ID
            ),
            DeviceSpec::Tcp(address) => write!(f, "tcp:{address}"),
            DeviceSpec::Path(path) => write!(f, "{}", path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_specs() {
        assert_eq!(DeviceSpec::parse("usb"), Ok(DeviceSpec::Usb));
        assert_eq!(
            DeviceSpec::parse("tcp:127.0.0.1:4000"),
            Ok(DeviceSpec::Tcp("127.0.0.1:4000".into()))
        );
        assert_eq!(
            DeviceSpec::parse("tcp:[::1]:4000"),
            Ok(DeviceSpec::Tcp("[::1]:4000".into()))
        );
        assert_eq!(
            DeviceSpec::parse("/dev/ttyUSB0"),
            Ok(DeviceSpec::Path("/dev/ttyUSB0".into()))
        );
        for bad in [
            "",
            "tcp:",
            "tcp:host",
            "tcp::4000",
            "tcp:host:99999",
            "tcp:host:x",
        ] {
            assert!(DeviceSpec::parse(bad).is_err(), "{bad:?}");
        }
        assert_eq!(DeviceSpec::Usb.to_string(), "usb (FT245 0403:6001)");
    }
}
