//! Sony PlayStation 3D data as Sony's "File Formats" manual describes it: TMD models
//! ([`tmd`]), TOD animations ([`tod`]) and TIM images ([`tim`]), all little endian; the
//! frame buffer that TIM images are loaded into and that textured TMD primitives sample
//! ([`vram`]); and a TOD player that poses objects as libgs does ([`player`]).
//!
//! Every reader checks every offset, count and length against the file and returns one
//! [`Error`] naming the byte offset and what was expected; none panics on any input (the
//! fuzz targets in `fuzz/` hold them to it). The crate is separate from `jomc` so that the
//! fuzz crate can reach the readers.

mod bytes;
pub mod player;
pub mod tim;
pub mod tmd;
pub mod tod;
pub mod vram;

use std::fmt;

/// A problem in a file: the byte offset it was found at and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// Offset from the start of the file, in bytes.
    pub offset: usize,
    /// What is wrong, and what was expected.
    pub message: String,
}

impl Error {
    pub(crate) fn at(offset: usize, message: impl Into<String>) -> Self {
        Self {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "byte {} (0x{:x}): {}",
            self.offset, self.offset, self.message
        )
    }
}

impl std::error::Error for Error {}
