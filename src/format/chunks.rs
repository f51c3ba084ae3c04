//! Walking the chunk headers of a file: the one place that knows how chunks follow each
//! other, used by validation and by [`Model::chunks`](super::Model::chunks).

use super::error::{LoadError, Tag};
use super::records::{record, ChunkHeader};

/// Size of the file header, where the first chunk starts.
pub(crate) const HEADER_SIZE: usize = 24;
pub(crate) const CHUNK_HEADER_SIZE: usize = 8;

/// A chunk of a file.
#[derive(Clone, Copy, Debug)]
pub struct Chunk<'a> {
    /// Its identifier.
    pub tag: Tag,
    /// Where its header starts in the file.
    pub offset: usize,
    /// Its data.
    pub data: &'a [u8],
}

impl Chunk<'_> {
    /// Where its data starts in the file.
    pub fn data_offset(&self) -> usize {
        self.offset + CHUNK_HEADER_SIZE
    }

    /// The size of its data, as in its header.
    pub fn size(&self) -> u32 {
        // A chunk's data fits in a file whose offsets are checked against u32 sizes.
        self.data.len() as u32
    }
}

/// The chunks of a file after its header, in file order, `END ` included; an error ends the
/// walk.
#[derive(Clone, Debug)]
pub(crate) struct ChunkWalk<'a> {
    bytes: &'a [u8],
    offset: usize,
    done: bool,
}

impl<'a> ChunkWalk<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            offset: HEADER_SIZE,
            done: false,
        }
    }

    fn step(&mut self) -> Result<Chunk<'a>, LoadError> {
        let offset = self.offset;
        let available = self.bytes.len().saturating_sub(offset);
        if available == 0 {
            return Err(LoadError::MissingEnd { offset });
        }
        let header = record::<ChunkHeader>(self.bytes, offset)
            .ok_or(LoadError::TruncatedChunkHeader { offset, available })?;
        let chunk = Tag(header.tag);
        let size = header.size.get();
        if size % 4 != 0 {
            return Err(LoadError::ChunkSizeNotAligned {
                chunk,
                offset,
                size,
            });
        }
        let start = offset + CHUNK_HEADER_SIZE;
        let data = usize::try_from(size)
            .ok()
            .and_then(|len| self.bytes.get(start..start.checked_add(len)?))
            .ok_or(LoadError::ChunkPastEnd {
                chunk,
                offset,
                size,
                available: available - CHUNK_HEADER_SIZE,
            })?;
        self.offset = start + data.len();
        if chunk == Tag::END {
            self.done = true;
            if size != 0 {
                return Err(LoadError::EndNotEmpty { offset, size });
            }
            if self.offset != self.bytes.len() {
                return Err(LoadError::DataAfterEnd {
                    offset: self.offset,
                    trailing: self.bytes.len() - self.offset,
                });
            }
        }
        Ok(Chunk {
            tag: chunk,
            offset,
            data,
        })
    }
}

impl<'a> Iterator for ChunkWalk<'a> {
    type Item = Result<Chunk<'a>, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let step = self.step();
        self.done |= step.is_err();
        Some(step)
    }
}

/// The chunks of a validated model, in file order, `END ` included.
#[derive(Clone, Debug)]
pub struct Chunks<'a>(pub(crate) ChunkWalk<'a>);

impl<'a> Iterator for Chunks<'a> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        self.0.next()?.ok()
    }
}
