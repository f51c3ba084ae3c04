//! Little-endian reads that fail with the offset and the item instead of panicking.

use crate::Error;

/// A file's bytes.
#[derive(Clone, Copy)]
pub(crate) struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    /// `len` bytes at `offset`, or an error naming `what`.
    pub fn slice(self, offset: usize, len: usize, what: &str) -> Result<&'a [u8], Error> {
        offset
            .checked_add(len)
            .and_then(|end| self.0.get(offset..end))
            .ok_or_else(|| {
                Error::at(
                    offset.min(self.0.len()),
                    format!(
                        "{what}: {len} bytes at offset {offset} go past the end of the file ({} bytes)",
                        self.0.len()
                    ),
                )
            })
    }

    pub fn u8(self, offset: usize, what: &str) -> Result<u8, Error> {
        Ok(self.slice(offset, 1, what)?[0])
    }

    pub fn u16(self, offset: usize, what: &str) -> Result<u16, Error> {
        let b = self.slice(offset, 2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    pub fn i16(self, offset: usize, what: &str) -> Result<i16, Error> {
        Ok(self.u16(offset, what)? as i16)
    }

    pub fn u32(self, offset: usize, what: &str) -> Result<u32, Error> {
        let b = self.slice(offset, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub fn i32(self, offset: usize, what: &str) -> Result<i32, Error> {
        Ok(self.u32(offset, what)? as i32)
    }

    /// Three little-endian `i16` at `offset` (a TMD vertex or normal, an SVECTOR).
    pub fn i16x3(self, offset: usize, what: &str) -> Result<[i16; 3], Error> {
        Ok([
            self.i16(offset, what)?,
            self.i16(offset + 2, what)?,
            self.i16(offset + 4, what)?,
        ])
    }

    /// Three little-endian `i32` at `offset`.
    pub fn i32x3(self, offset: usize, what: &str) -> Result<[i32; 3], Error> {
        Ok([
            self.i32(offset, what)?,
            self.i32(offset + 4, what)?,
            self.i32(offset + 8, what)?,
        ])
    }

    pub fn len(self) -> usize {
        self.0.len()
    }
}
