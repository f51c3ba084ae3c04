//! A model and its textures from an ISO 9660 volume (the CD, through
//! [`crate::hw::cd`]; any [`SectorSource`] on the host and in the tests), the textures
//! going to VRAM through the [`TextureCache`] one at a time, through one reused buffer:
//!
//! - [`read_model`]: a model read whole into a buffer and validated, its textures left to
//!   the caller.
//! - [`load_model`]: a model with embedded textures (TIMG, the first chunk) keeps only the
//!   rest of the file in RAM. Its header and the chunks after TIMG are read into the model
//!   buffer (a JOM file without TIMG, used in place: its TEXT names map to the textures the
//!   cache then holds), then each TIMG entry is read into the scratch buffer and uploaded.
//!   The entries are read after the rest because which copies of a texture VRAM needs (end
//!   codes, mipmaps, quarters) depends on the materials, which follow TIMG in the file.
//!   A model without TIMG is read whole and its texture files loaded as below.
//! - [`load_texture_files`]: the textures of a model without TIMG are files next to it
//!   named by TEXT, jo engine `.BIN` or `.TGA` images ([`crate::image`]): each is read into
//!   the end of the scratch buffer and decoded at its start.
//!
//! A texture whose name the cache holds already (in every variant the model uses) is not
//! read at all. Validation errors of a model whose TIMG was left out have offsets in the
//! model as it is in RAM: the file's offsets less the TIMG chunk (8 bytes + its size).

use crate::format::{timg_entry, Name, HEADER_SIZE};
use crate::image::{self, ImageError, ImageFormat};
use crate::iso9660::{CdError, FileEntry, Iso9660, Iso9660Error, SectorSource};
use crate::vdp1::{ModelTextures, TextureCache, TextureSource, Vram, VramError};
use crate::{Aligned, LoadError, Model};
use core::fmt;

/// The longest path of a texture file (the model's directory, `/`, the TEXT name).
const MAX_PATH: usize = 128;
/// A chunk header: tag and size.
const CHUNK_HEADER: usize = 8;
/// The TIMG count.
const COUNT: usize = 4;
/// A TIMG entry's header.
const TEXTURE_HEADER: usize = 24;

/// What went wrong loading a model or its textures from a disc: the disc's, the model's
/// or a texture's error, each its own type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiscError {
    /// Reading the volume or the model's file, or a buffer too small for it.
    Volume(Iso9660Error),
    /// The model is not a valid JOM file.
    Model(LoadError),
    /// A texture file of TEXT does not decode.
    Image {
        /// The TEXT index.
        index: usize,
        /// The file's name.
        name: Name,
        /// What is wrong with it.
        error: ImageError,
    },
    /// A TEXT name that is neither `.BIN` nor `.TGA`, for a model without TIMG.
    UnknownImageFormat {
        /// The TEXT index.
        index: usize,
        /// The name.
        name: Name,
    },
    /// A texture file of TEXT could not be read.
    TextureFile {
        /// The TEXT index.
        index: usize,
        /// The file's name.
        name: Name,
        /// The read's error.
        error: Iso9660Error,
    },
    /// VRAM or a texture table is full.
    Vram(VramError),
}

impl From<Iso9660Error> for DiscError {
    fn from(error: Iso9660Error) -> Self {
        Self::Volume(error)
    }
}

impl From<CdError> for DiscError {
    fn from(error: CdError) -> Self {
        Self::Volume(Iso9660Error::Read(error))
    }
}

impl From<LoadError> for DiscError {
    fn from(error: LoadError) -> Self {
        Self::Model(error)
    }
}

impl From<VramError> for DiscError {
    fn from(error: VramError) -> Self {
        Self::Vram(error)
    }
}

impl fmt::Display for DiscError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Volume(error) => write!(f, "{error}"),
            Self::Model(error) => write!(f, "{error}"),
            Self::Image { index, name, error } => {
                write!(f, "texture {index} ({name}): {error}")
            }
            Self::UnknownImageFormat { index, name } => write!(
                f,
                "texture {index} ({name}): expected a .BIN or .TGA file name"
            ),
            Self::TextureFile { index, name, error } => {
                write!(f, "texture {index} ({name}): {error}")
            }
            Self::Vram(error) => write!(f, "{error}"),
        }
    }
}

impl core::error::Error for DiscError {}

/// Reads the model at `path` whole into `buffer` (4-byte aligned: the model is read in
/// place) and validates it; its textures stay where they are (TIMG) or on the disc.
pub fn read_model<'b, S: SectorSource>(
    volume: &mut Iso9660<S>,
    path: &str,
    buffer: &'b mut Aligned<[u8]>,
) -> Result<Model<'b>, DiscError> {
    let bytes = volume.load_file(path, &mut buffer.0)?;
    Ok(Model::from_bytes(bytes)?)
}

/// Reads the model at `path` into `buffer` and its textures into VRAM through `cache`,
/// each through `scratch` (as large as the largest texture: its TIMG pixels, or its file
/// (`.BIN`) or its file and pixels (`.TGA`)). With TIMG, only the rest of the file stays
/// in `buffer` (see the module's documentation). On an error the textures it loaded are
/// given back, as [`TextureCache::load_model`] does (copies it added to textures the
/// cache held, mipmaps or quarters, stay).
pub fn load_model<'b, S: SectorSource, const N: usize, const M: usize>(
    volume: &mut Iso9660<S>,
    path: &str,
    buffer: &'b mut Aligned<[u8]>,
    cache: &mut TextureCache<N>,
    vram: &mut impl Vram,
    scratch: &mut [u8],
) -> Result<(Model<'b>, ModelTextures<M>), DiscError> {
    let mut textures = ModelTextures::EMPTY;
    let model = load_model_into(volume, path, buffer, cache, vram, scratch, &mut textures)?;
    Ok((model, textures))
}

/// [`load_model`] with the model's textures written into `textures` (emptied first; empty
/// after an error) in place: for a table of many textures (hundreds of KiB at a thousand),
/// kept in a `static` rather than returned through the stack.
pub fn load_model_into<'b, S: SectorSource, const N: usize, const M: usize>(
    volume: &mut Iso9660<S>,
    path: &str,
    buffer: &'b mut Aligned<[u8]>,
    cache: &mut TextureCache<N>,
    vram: &mut impl Vram,
    scratch: &mut [u8],
    textures: &mut ModelTextures<M>,
) -> Result<Model<'b>, DiscError> {
    textures.clear();
    let mut sink = CacheSink {
        cache: &mut *cache,
        vram,
        textures: &mut *textures,
    };
    let loading = load_model_with(volume, path, buffer, scratch, &mut sink);
    if loading.is_err() {
        // No table of the caller's holds them: kept, they would stay in VRAM for good.
        cache.release_model(textures);
        textures.clear();
    }
    loading
}

/// Where a disc loader puts a model's textures as it reads them, one at a time in TEXT
/// order: a [`TextureCache`] and the model's [`ModelTextures`], or the
/// [`Renderer`](crate::render::Renderer)'s caches.
pub(crate) trait TextureSink {
    /// Called once the model is read, before its first texture.
    fn start(&mut self, model: &Model<'_>) -> Result<(), VramError>;
    /// Whether the next texture at TEXT index `index` needs its pixels (see
    /// [`TextureCache::needs_pixels`]).
    fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool;
    /// Uploads the next texture (see [`TextureCache::load_texture`]).
    fn load_texture(
        &mut self,
        model: &Model<'_>,
        source: Option<&TextureSource<'_>>,
    ) -> Result<(), VramError>;
}

/// A [`TextureSink`] of a cache, a VRAM and a model's table.
struct CacheSink<'a, const N: usize, const M: usize, V> {
    cache: &'a mut TextureCache<N>,
    vram: &'a mut V,
    textures: &'a mut ModelTextures<M>,
}

impl<const N: usize, const M: usize, V: Vram> TextureSink for CacheSink<'_, N, M, V> {
    fn start(&mut self, _: &Model<'_>) -> Result<(), VramError> {
        Ok(())
    }

    fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool {
        self.cache.needs_pixels(model, index)
    }

    fn load_texture(
        &mut self,
        model: &Model<'_>,
        source: Option<&TextureSource<'_>>,
    ) -> Result<(), VramError> {
        self.cache
            .load_texture(model, self.textures, source, &mut *self.vram)
    }
}

/// [`load_model_into`] with the textures going to `sink`.
pub(crate) fn load_model_with<'b, S: SectorSource>(
    volume: &mut Iso9660<S>,
    path: &str,
    buffer: &'b mut Aligned<[u8]>,
    scratch: &mut [u8],
    sink: &mut dyn TextureSink,
) -> Result<Model<'b>, DiscError> {
    let entry = volume.find(path)?;
    let mut head = Aligned([0u8; HEADER_SIZE + CHUNK_HEADER + COUNT]);
    let head_len = head.0.len().min(entry.size as usize);
    volume.read_at(entry, 0, &mut head.0[..head_len])?;
    let first_chunk = &head.0[HEADER_SIZE..HEADER_SIZE + 4];
    if head_len < head.0.len() || first_chunk != b"TIMG" {
        let size = volume.read_file(entry, &mut buffer.0)?;
        let model = Model::from_bytes(&buffer.0[..size])?;
        sink.start(&model)?;
        let directory = path.rsplit_once('/').map_or("", |(directory, _)| directory);
        fill_texture_files(volume, directory, &model, sink, scratch)?;
        return Ok(model);
    }
    let timg = TimgChunk::from_head(&head.0, entry.size)?;
    let rest = (entry.size - timg.end) as usize;
    let kept = HEADER_SIZE + rest;
    if buffer.0.len() < kept {
        return Err(DiscError::Volume(Iso9660Error::BufferTooSmall {
            needed: kept as u32,
            available: buffer.0.len(),
        }));
    }
    buffer.0[..HEADER_SIZE].copy_from_slice(&head.0[..HEADER_SIZE]);
    volume.read_at(entry, timg.end, &mut buffer.0[HEADER_SIZE..kept])?;
    let model = Model::from_bytes(&buffer.0[..kept])?;
    sink.start(&model)?;
    timg.stream(volume, entry, &model, sink, scratch)?;
    Ok(model)
}

/// The TIMG chunk of a file on the disc, from the first bytes of the file.
struct TimgChunk {
    /// Its size, as in its header.
    size: u32,
    /// Its entry count.
    count: u32,
    /// Where the chunk after it starts in the file.
    end: u32,
}

impl TimgChunk {
    fn from_head(head: &[u8], file_size: u32) -> Result<Self, LoadError> {
        let be32 =
            |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
        let size = be32(HEADER_SIZE + 4);
        let offset = HEADER_SIZE;
        if !size.is_multiple_of(4) {
            return Err(LoadError::ChunkSizeNotAligned {
                chunk: crate::format::Tag::TIMG,
                offset,
                size,
            });
        }
        let available = file_size - (HEADER_SIZE + CHUNK_HEADER) as u32;
        if size > available {
            return Err(LoadError::ChunkPastEnd {
                chunk: crate::format::Tag::TIMG,
                offset,
                size,
                available: available as usize,
            });
        }
        Ok(Self {
            size,
            count: be32(HEADER_SIZE + CHUNK_HEADER),
            end: (HEADER_SIZE + CHUNK_HEADER) as u32 + size,
        })
    }

    /// Reads each entry (its header, then its pixels into `scratch` where the cache needs
    /// them) and uploads it, checked as validation checks TIMG.
    fn stream<S: SectorSource>(
        &self,
        volume: &mut Iso9660<S>,
        entry: FileEntry,
        model: &Model<'_>,
        sink: &mut dyn TextureSink,
        scratch: &mut [u8],
    ) -> Result<(), DiscError> {
        let names = model.texture_names();
        let data = HEADER_SIZE + CHUNK_HEADER;
        let tag = crate::format::Tag::TIMG;
        if self.count != names.len() as u32 {
            return Err(DiscError::Model(LoadError::CountDisagrees {
                chunk: tag,
                offset: data,
                count: self.count,
                expected: names.len() as u32,
                rule: "one per name of TEXT",
            }));
        }
        let end = self.end as usize;
        let mut at = data + COUNT;
        for (index, name) in names.iter().enumerate() {
            if at + TEXTURE_HEADER > end {
                return Err(DiscError::Model(LoadError::ChunkTooSmall {
                    chunk: tag,
                    offset: data,
                    size: self.size,
                    needed: (at + TEXTURE_HEADER - data) as u64,
                }));
            }
            let mut header = Aligned([0u8; TEXTURE_HEADER]);
            volume.read_at(entry, at as u32, &mut header.0)?;
            let (header, pixels) = timg_entry(&header.0, at, index, name)?;
            let start = at + TEXTURE_HEADER;
            if start + pixels > end {
                return Err(DiscError::Model(LoadError::TexturePixelsShort {
                    offset: start,
                    texture: index,
                    needed: pixels as u64,
                    available: end - start,
                }));
            }
            if sink.needs_pixels(model, index) {
                let Some(data) = scratch.get_mut(..pixels) else {
                    return Err(DiscError::Volume(Iso9660Error::BufferTooSmall {
                        needed: pixels as u32,
                        available: scratch.len(),
                    }));
                };
                volume.read_at(entry, start as u32, data)?;
                let source = TextureSource {
                    width: header.width(),
                    height: header.height(),
                    format: header.format_raw(),
                    data,
                };
                sink.load_texture(model, Some(&source))?;
            } else {
                sink.load_texture(model, None)?;
            }
            at = (start + pixels).next_multiple_of(4);
        }
        if at != end {
            return Err(DiscError::Model(LoadError::CountMismatch {
                chunk: tag,
                offset: data,
                count: self.count,
                size: self.size,
                expected: (at - data) as u64,
            }));
        }
        Ok(())
    }
}

/// Uploads the textures of `model` through `cache`: its TIMG entries if it has them,
/// otherwise the files of `directory` (`""`: the root) that TEXT names, each read into the
/// end of `scratch` and decoded at its start (see [`image::decode`]). Files whose textures
/// the cache holds already are not read. On an error the textures it loaded are given back.
pub fn load_texture_files<S: SectorSource, const N: usize, const M: usize>(
    volume: &mut Iso9660<S>,
    directory: &str,
    model: &Model<'_>,
    cache: &mut TextureCache<N>,
    vram: &mut impl Vram,
    scratch: &mut [u8],
) -> Result<ModelTextures<M>, DiscError> {
    let mut textures = ModelTextures::EMPTY;
    if model.textures().is_some() {
        cache.load_model(model, vram, |_, _| None, &mut textures)?;
        return Ok(textures);
    }
    let mut sink = CacheSink {
        cache: &mut *cache,
        vram,
        textures: &mut textures,
    };
    if let Err(error) = fill_texture_files(volume, directory, model, &mut sink, scratch) {
        // The table is dropped with the error: kept, they would stay in VRAM for good.
        cache.release_model(&textures);
        return Err(error);
    }
    Ok(textures)
}

/// [`load_texture_files`] into `textures` (empty) in place; embedded textures (TIMG after
/// other chunks) are uploaded one by one.
fn fill_texture_files<S: SectorSource>(
    volume: &mut Iso9660<S>,
    directory: &str,
    model: &Model<'_>,
    sink: &mut dyn TextureSink,
    scratch: &mut [u8],
) -> Result<(), DiscError> {
    if let Some(embedded) = model.textures() {
        for texture in embedded.iter() {
            let source = TextureSource {
                width: texture.header.width(),
                height: texture.header.height(),
                format: texture.header.format_raw(),
                data: texture.data,
            };
            sink.load_texture(model, Some(&source))?;
        }
        return Ok(());
    }
    for (index, name) in model.texture_names().iter().enumerate() {
        if !sink.needs_pixels(model, index) {
            sink.load_texture(model, None)?;
            continue;
        }
        let source = read_texture_file(volume, directory, index, name, scratch)?;
        sink.load_texture(model, Some(&source))?;
    }
    Ok(())
}

/// Reads and decodes texture file `name` of `directory` in `scratch`.
fn read_texture_file<'s, S: SectorSource>(
    volume: &mut Iso9660<S>,
    directory: &str,
    index: usize,
    name: &Name,
    scratch: &'s mut [u8],
) -> Result<TextureSource<'s>, DiscError> {
    let file_error = |error| DiscError::TextureFile {
        index,
        name: *name,
        error,
    };
    let format = ImageFormat::of_name(name.as_str())
        .ok_or(DiscError::UnknownImageFormat { index, name: *name })?;
    let mut path = heapless::String::<MAX_PATH>::new();
    let joined = match directory {
        "" => path.push_str(name.as_str()),
        _ => path
            .push_str(directory)
            .and_then(|()| path.push('/'))
            .and_then(|()| path.push_str(name.as_str())),
    };
    joined.map_err(|()| file_error(Iso9660Error::BadPath))?;
    let file = volume.find(&path).map_err(file_error)?;
    let size = file.size as usize;
    let start =
        scratch
            .len()
            .checked_sub(size)
            .ok_or(file_error(Iso9660Error::BufferTooSmall {
                needed: file.size,
                available: scratch.len(),
            }))?;
    volume
        .read_file(file, &mut scratch[start..])
        .map_err(file_error)?;
    image::decode(format, scratch, start).map_err(|error| DiscError::Image {
        index,
        name: *name,
        error,
    })
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
