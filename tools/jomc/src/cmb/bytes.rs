//! Bounds-checked little-endian reads that name the chunk they are in.

use std::fmt;

/// A malformed file: the chunk, the byte offset (from the start of the file) and what was
/// expected there.
#[derive(Debug, Clone, PartialEq)]
pub struct FormatError {
    /// The chunk's name as in the file (`sepd`, `tex`, ...), or `header`.
    pub chunk: &'static str,
    /// Byte offset from the start of the file.
    pub offset: usize,
    /// What was expected.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} chunk at offset {} (0x{:X}): {}",
            self.chunk, self.offset, self.offset, self.message
        )
    }
}

impl std::error::Error for FormatError {}

/// A view of the whole file that reads at absolute offsets, each error naming `chunk`.
#[derive(Clone, Copy)]
pub(crate) struct Reader<'a> {
    pub data: &'a [u8],
    pub chunk: &'static str,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8], chunk: &'static str) -> Self {
        Self { data, chunk }
    }

    /// The same file, errors naming `chunk`.
    pub fn in_chunk(self, chunk: &'static str) -> Self {
        Self { chunk, ..self }
    }

    pub fn error(&self, offset: usize, message: impl Into<String>) -> FormatError {
        FormatError {
            chunk: self.chunk,
            offset,
            message: message.into(),
        }
    }

    /// `len` bytes at `offset`, or an error saying `what` does not fit in the file.
    pub fn bytes(&self, offset: usize, len: usize, what: &str) -> Result<&'a [u8], FormatError> {
        offset
            .checked_add(len)
            .and_then(|end| self.data.get(offset..end))
            .ok_or_else(|| {
                self.error(
                    offset,
                    format!(
                        "expected {what} ({len} bytes), but the file ends at {}",
                        self.data.len()
                    ),
                )
            })
    }

    fn array<const N: usize>(&self, offset: usize, what: &str) -> Result<[u8; N], FormatError> {
        let bytes = self.bytes(offset, N, what)?;
        let mut out = [0; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    pub fn u8(&self, offset: usize, what: &str) -> Result<u8, FormatError> {
        Ok(self.array::<1>(offset, what)?[0])
    }

    pub fn u16(&self, offset: usize, what: &str) -> Result<u16, FormatError> {
        Ok(u16::from_le_bytes(self.array(offset, what)?))
    }

    pub fn i16(&self, offset: usize, what: &str) -> Result<i16, FormatError> {
        Ok(i16::from_le_bytes(self.array(offset, what)?))
    }

    pub fn u32(&self, offset: usize, what: &str) -> Result<u32, FormatError> {
        Ok(u32::from_le_bytes(self.array(offset, what)?))
    }

    pub fn i32(&self, offset: usize, what: &str) -> Result<i32, FormatError> {
        Ok(i32::from_le_bytes(self.array(offset, what)?))
    }

    /// A u32 used as an offset or a count.
    pub fn usize(&self, offset: usize, what: &str) -> Result<usize, FormatError> {
        Ok(self.u32(offset, what)? as usize)
    }

    /// A finite f32 (NaN and infinities are refused: nothing downstream could use them).
    pub fn f32(&self, offset: usize, what: &str) -> Result<f32, FormatError> {
        let value = f32::from_le_bytes(self.array(offset, what)?);
        if value.is_finite() {
            Ok(value)
        } else {
            Err(self.error(
                offset,
                format!("expected a finite number for {what}, found {value}"),
            ))
        }
    }

    pub fn vec3(&self, offset: usize, what: &str) -> Result<[f32; 3], FormatError> {
        Ok([
            self.f32(offset, what)?,
            self.f32(offset + 4, what)?,
            self.f32(offset + 8, what)?,
        ])
    }

    /// Checks the 4-byte magic at `offset`.
    pub fn magic(&self, offset: usize, magic: &[u8; 4]) -> Result<(), FormatError> {
        let found = self.bytes(offset, 4, &format!("the magic {:?}", show(magic)))?;
        if found == magic {
            Ok(())
        } else {
            Err(self.error(
                offset,
                format!(
                    "expected the magic {:?}, found {:?}",
                    show(magic),
                    show(found)
                ),
            ))
        }
    }

    /// A name of `len` bytes ended by a zero (or not, when it fills them), as text.
    pub fn name(&self, offset: usize, len: usize, what: &str) -> Result<String, FormatError> {
        let bytes = self.bytes(offset, len, what)?;
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(len);
        Ok(String::from_utf8_lossy(&bytes[..end]).into_owned())
    }
}

fn show(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                b as char
            } else {
                '.'
            }
        })
        .collect()
}
