//! A TCP connection: `--device tcp:HOST:PORT` on the PC's side, and the simulated cart's
//! accepted connection on the other.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::Link;

/// The shortest wait a socket takes (a zero time-out means "none" to it).
const SHORTEST_WAIT: Duration = Duration::from_millis(1);

/// A connected TCP stream.
#[derive(Debug)]
pub struct TcpLink {
    stream: TcpStream,
}

impl TcpLink {
    /// Connects to `address` (`HOST:PORT`), trying each address it resolves to for at
    /// most `timeout`. The error says why, for [`crate::Error::Open`].
    pub fn connect(address: &str, timeout: Duration) -> Result<TcpLink, String> {
        let addresses = address.to_socket_addrs().map_err(|e| e.to_string())?;
        let mut last_error = format!("{address} resolves to no address");
        for socket_address in addresses {
            match TcpStream::connect_timeout(&socket_address, timeout.max(SHORTEST_WAIT)) {
                Ok(stream) => return TcpLink::from_stream(stream).map_err(|e| e.to_string()),
                Err(e) => last_error = e.to_string(),
            }
        }
        Err(last_error)
    }

    /// Wraps a connected stream (the simulated cart's accepted one).
    pub fn from_stream(stream: TcpStream) -> io::Result<TcpLink> {
        stream.set_nodelay(true)?;
        Ok(TcpLink { stream })
    }

    /// Closes the sending direction: the other side reads all that was sent, then the end.
    pub fn finish_sending(&mut self) -> io::Result<()> {
        self.stream.shutdown(std::net::Shutdown::Write)
    }
}

fn is_time_out(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

impl Link for TcpLink {
    fn send(&mut self, bytes: &[u8], timeout: Duration) -> io::Result<()> {
        self.stream
            .set_write_timeout(Some(timeout.max(SHORTEST_WAIT)))?;
        self.stream.write_all(bytes).map_err(|e| {
            if is_time_out(&e) {
                io::Error::new(io::ErrorKind::TimedOut, "the other side took nothing")
            } else {
                e
            }
        })
    }

    fn receive(&mut self, buf: &mut [u8], timeout: Duration) -> io::Result<usize> {
        self.stream
            .set_read_timeout(Some(timeout.max(SHORTEST_WAIT)))?;
        loop {
            return match self.stream.read(buf) {
                Ok(0) if !buf.is_empty() => Err(super::closed()),
                Ok(n) => Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if is_time_out(&e) => Ok(0),
                Err(e) => Err(e),
            };
        }
    }

    fn discard_input(&mut self) -> io::Result<()> {
        self.stream.set_nonblocking(true)?;
        let mut buf = [0; 256];
        let drained = loop {
            match self.stream.read(&mut buf) {
                Ok(0) => break Ok(()),
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        self.stream.set_nonblocking(false)?;
        drained
    }
}
