//! A link whose answers are fixed in advance: unit tests and the fuzz target drive
//! [`crate::protocol::Cart`] and the console reader with it, no device needed.
//!
//! `receive` hands out the script in pieces of at most `piece` bytes; past its end it
//! reports at once what a real link reports after its time-out: nothing (0) or, with
//! [`ScriptEnd::Closed`], a closed link.

use std::io;
use std::time::Duration;

use super::Link;

/// What the link does once its script has been read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptEnd {
    /// Stays quiet: every receive times out.
    Silence,
    /// Reports the link closed.
    Closed,
}

/// A scripted link.
#[derive(Clone, Debug)]
pub struct ScriptLink {
    script: Vec<u8>,
    position: usize,
    piece: usize,
    end: ScriptEnd,
    /// Everything sent to it, in order.
    pub sent: Vec<u8>,
}

impl ScriptLink {
    /// A link that answers `script`, `piece` bytes at most at a time (at least 1).
    pub fn new(script: Vec<u8>, piece: usize, end: ScriptEnd) -> ScriptLink {
        ScriptLink {
            script,
            position: 0,
            piece: piece.max(1),
            end,
            sent: Vec::new(),
        }
    }

    /// How much of the script has not been read.
    pub fn unread(&self) -> &[u8] {
        &self.script[self.position..]
    }
}

impl Link for ScriptLink {
    fn send(&mut self, bytes: &[u8], _timeout: Duration) -> io::Result<()> {
        self.sent.extend_from_slice(bytes);
        Ok(())
    }

    fn receive(&mut self, buf: &mut [u8], _timeout: Duration) -> io::Result<usize> {
        let rest = self.unread();
        if rest.is_empty() {
            return match self.end {
                ScriptEnd::Silence => Ok(0),
                ScriptEnd::Closed => Err(super::closed()),
            };
        }
        let n = rest.len().min(self.piece).min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.position += n;
        Ok(n)
    }

    fn discard_input(&mut self) -> io::Result<()> {
        // The script holds the answers to the commands still to come: nothing is stale.
        Ok(())
    }
}
