//! A model's counts read from its bytes by a `const fn`: what a renderer's memory is sized
//! by for a model linked into the program, known when the program is compiled
//! ([`renderer_memory!`](crate::renderer_memory)`(models: ...)`). The walk is the one of
//! [`Chunks`](super::Chunks) made `const`: a file validation would refuse is a compile
//! error here, and the game's [`Model::from_bytes`](super::Model::from_bytes) checks it
//! whole at run time.

use super::chunks::{CHUNK_HEADER_SIZE, HEADER_SIZE};

/// What sizes the memory of a renderer that holds a model (see
/// [`RendererSizes`](crate::render::RendererSizes)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelCounts {
    /// Points (PNTS).
    pub points: usize,
    /// Polygons (QUAD).
    pub polygons: usize,
    /// TEXT names.
    pub texture_names: usize,
    /// Whether its polygons have gouraud colours (GOUR): each then a model gouraud table.
    pub gouraud: bool,
}

impl ModelCounts {
    /// The counts of the JOM file `bytes` (its PNTS, QUAD and TEXT counts, whether it has
    /// GOUR), its lower levels of detail (LODS) added in as if loaded with it (a game loads
    /// those it draws: the memory is sized for all). Panics on bytes that are not a JOM
    /// file's chunks: in a `const`, a compile error.
    pub const fn of(bytes: &[u8]) -> Self {
        assert!(
            bytes.len() >= HEADER_SIZE && be32(bytes, 0) == u32::from_be_bytes(*b"JOM1"),
            "not a JOM file (no JOM1 header)"
        );
        let mut counts = Self {
            points: 0,
            polygons: 0,
            texture_names: 0,
            gouraud: false,
        };
        let mut offset = HEADER_SIZE;
        loop {
            assert!(
                offset + CHUNK_HEADER_SIZE <= bytes.len(),
                "a chunk header past the file's end"
            );
            let (tag, size) = (be32(bytes, offset), be32(bytes, offset + 4) as usize);
            let data = offset + CHUNK_HEADER_SIZE;
            assert!(size <= bytes.len() - data, "a chunk past the file's end");
            let count = if size >= 4 {
                be32(bytes, data) as usize
            } else {
                0
            };
            match &tag.to_be_bytes() {
                b"END " => return counts,
                b"PNTS" => counts.points = count,
                b"QUAD" => counts.polygons = count,
                b"TEXT" => counts.texture_names = count,
                b"GOUR" => counts.gouraud = true,
                b"LODS" => counts = counts.with_levels(bytes, data + 4, count),
                _ => {}
            }
            offset = data + size;
        }
    }
}

impl ModelCounts {
    /// These counts and those of the `count` LODS entries from `offset` of `bytes`.
    const fn with_levels(self, bytes: &[u8], offset: usize, count: usize) -> Self {
        let mut counts = self;
        let (mut offset, mut level) = (offset, 0);
        while level < count {
            assert!(
                offset + 8 <= bytes.len(),
                "a LODS entry past the file's end"
            );
            let size = be32(bytes, offset + 4) as usize;
            assert!(
                size <= bytes.len() - offset - 8,
                "a LODS level past the file's end"
            );
            let (_, rest) = bytes.split_at(offset + 8);
            let (file, _) = rest.split_at(size);
            let lower = Self::of(file);
            counts.points += lower.points;
            counts.polygons += lower.polygons;
            counts.texture_names += lower.texture_names;
            counts.gouraud |= lower.gouraud;
            offset += 8 + size;
            level += 1;
        }
        counts
    }
}

/// The big-endian `u32` at `offset` (in bounds: the callers check).
const fn be32(bytes: &[u8], offset: usize) -> u32 {
    u32::from_be_bytes([
        bytes[offset],
        bytes[offset + 1],
        bytes[offset + 2],
        bytes[offset + 3],
    ])
}
