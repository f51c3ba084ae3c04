//! Textures and gouraud tables in VDP1 VRAM, uploaded once and shared: a texture once per
//! name (the TIMG name holds a hash of the pixels, so two models with the same texture
//! share it), a gouraud table once per set of four colours.

use super::command::{GouraudTable, Sprite};
use super::vram::{RegionAllocator, Vram, VramError};
use crate::format::{MaterialFlags, Model, Name};
use core::ops::Range;

/// Pixel format 1: 16 colours through a lookup table.
const FORMAT_LUT4: u16 = 1;
const LUT_BYTES: u32 = 32;
/// The end code of RGB pixels (`jo_sprite_add_end_codes`).
const END_CODE_RGB: u16 = 0x7FFF;
/// The end code of 4-bit pixels.
const END_CODE_LUT: u8 = 0xF;
/// The widest texture the VDP1 draws.
const MAX_WIDTH: usize = 504;

/// A texture's pixels as stored in a file (TIMG entry or a .BIN read from CD): big endian,
/// a lookup table of 16 colours first in format 1.
#[derive(Clone, Copy, Debug)]
pub struct TextureSource<'a> {
    /// Width in pixels (a multiple of 8).
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// 0: RGB555, 1: 16 colours + lookup table.
    pub format: u16,
    /// The pixels (and lookup table).
    pub data: &'a [u8],
}

impl TextureSource<'_> {
    fn bytes_per_row(&self, width: u16) -> usize {
        if self.format == FORMAT_LUT4 {
            usize::from(width) / 2
        } else {
            usize::from(width) * 2
        }
    }

    fn lut_bytes(&self) -> u32 {
        if self.format == FORMAT_LUT4 {
            LUT_BYTES
        } else {
            0
        }
    }

    /// The pixel rows, after the lookup table.
    fn pixels(&self) -> &[u8] {
        self.data.get(self.lut_bytes() as usize..).unwrap_or(&[])
    }
}

/// A texture in VRAM with its smaller copies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SpriteSet {
    /// The texture as drawn near the camera.
    pub full: Sprite,
    /// Half and quarter size copies (`jo_mipmaps`), where the width allows it.
    pub mipmaps: [Option<Sprite>; 2],
    /// The four quarters of the texture (top left, top right, bottom right, bottom left:
    /// the parts at corners A, B, C, D) for polygons drawn in parts (`jo_subdivision`),
    /// where the width allows it.
    pub quarters: Option<[Sprite; 4]>,
}

/// A texture of the cache.
#[derive(Clone, Debug)]
struct Entry {
    name: Name,
    end_codes: bool,
    sprites: SpriteSet,
    block: Range<u32>,
    users: u32,
}

/// The textures of the loaded models, each uploaded once per name (and end-code variant).
pub struct TextureCache<const N: usize> {
    allocator: RegionAllocator<N>,
    entries: heapless::Vec<Entry, N>,
}

/// The textures of one model, by TEXT index: the sprites for materials without and with
/// end codes.
#[derive(Clone, Debug, Default)]
pub struct ModelTextures<const M: usize> {
    slots: heapless::Vec<[Option<SpriteSet>; 2], M>,
    names: heapless::Vec<Name, M>,
}

impl<const M: usize> ModelTextures<M> {
    /// The texture for TEXT index `index`, in the variant a material with `end_codes` uses.
    pub fn get(&self, index: usize, end_codes: bool) -> Option<&SpriteSet> {
        self.slots.get(index)?[usize::from(end_codes)].as_ref()
    }

    /// How many textures (TEXT indexes) are loaded.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no texture is loaded.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

impl<const N: usize> TextureCache<N> {
    /// An empty cache that places textures in `region` (from a [`VramLayout`](super::VramLayout)).
    pub fn new(region: Range<u32>) -> Self {
        Self {
            allocator: RegionAllocator::new("texture", region),
            entries: heapless::Vec::new(),
        }
    }

    /// The number of textures in VRAM.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the cache holds no texture.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Uploads the textures `model` uses: the embedded ones (TIMG), or, for a model whose
    /// textures are files, the pixels `external` gives for each TEXT name (read from CD).
    /// A texture already in VRAM under the same name is not uploaded again.
    pub fn load_model<'m, const M: usize>(
        &mut self,
        model: &Model<'m>,
        vram: &mut impl Vram,
        mut external: impl FnMut(usize, &Name) -> Option<TextureSource<'m>>,
    ) -> Result<ModelTextures<M>, VramError> {
        let mut loaded = ModelTextures::default();
        let mut embedded = model.textures().map(|t| t.iter());
        for (index, name) in model.texture_names().iter().enumerate() {
            let source = match embedded.as_mut().and_then(Iterator::next) {
                Some(texture) => Some(TextureSource {
                    width: texture.header.width(),
                    height: texture.header.height(),
                    format: texture.header.format_raw(),
                    data: texture.data,
                }),
                None => external(index, name),
            };
            self.load_texture(model, &mut loaded, source.as_ref(), vram)?;
        }
        Ok(loaded)
    }

    /// Whether the next texture of `model` at TEXT index `index` needs its pixels: a variant
    /// its materials use (with or without end codes) is not in VRAM under its name yet.
    /// A loader reading textures from CD skips the file when it does not.
    pub fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool {
        let Some(name) = model.texture_names().get(index) else {
            return false;
        };
        [false, true].into_iter().any(|end_codes| {
            variant_use(model, index, end_codes).is_some()
                && !self
                    .entries
                    .iter()
                    .any(|e| e.name == *name && e.end_codes == end_codes)
        })
    }

    /// Uploads the next texture of `model`, TEXT index `loaded.len()`, from `source` (its
    /// pixels are needed only where [`needs_pixels`](Self::needs_pixels) says so), and adds
    /// it to `loaded`. For loaders that bring a model's textures one at a time (from CD,
    /// through one reused buffer); [`load_model`](Self::load_model) is this for each name.
    pub fn load_texture<const M: usize>(
        &mut self,
        model: &Model<'_>,
        loaded: &mut ModelTextures<M>,
        source: Option<&TextureSource<'_>>,
        vram: &mut impl Vram,
    ) -> Result<(), VramError> {
        let index = loaded.slots.len();
        let names = model.texture_names();
        let name = names.get(index).ok_or(VramError::NoSuchTexture {
            index,
            count: names.len(),
        })?;
        let full = VramError::TableFull {
            table: "model texture",
            capacity: M,
        };
        loaded.names.push(*name).map_err(|_| full)?;
        loaded.slots.push([None, None]).map_err(|_| full)?;
        for end_codes in [false, true] {
            let Some(uses) = variant_use(model, index, end_codes) else {
                continue;
            };
            let sprites = self.acquire(index, name, end_codes, uses, source, vram)?;
            loaded.slots[index][usize::from(end_codes)] = Some(sprites);
        }
        Ok(())
    }

    /// Gives back a model's textures: those no other model uses leave VRAM.
    pub fn release_model<const M: usize>(&mut self, textures: &ModelTextures<M>) {
        for (slot, name) in textures.slots.iter().zip(&textures.names) {
            for (end_codes, sprites) in [false, true].into_iter().zip(slot) {
                if sprites.is_some() {
                    self.release(name, end_codes);
                }
            }
        }
    }

    fn acquire(
        &mut self,
        index: usize,
        name: &Name,
        end_codes: bool,
        uses: Uses,
        source: Option<&TextureSource<'_>>,
        vram: &mut impl Vram,
    ) -> Result<SpriteSet, VramError> {
        if let Some(entry) = self
            .entries
            .iter_mut()
            .find(|e| e.name == *name && e.end_codes == end_codes)
        {
            entry.users += 1;
            return Ok(entry.sprites);
        }
        let source = source.ok_or(VramError::MissingTexture { index })?;
        if self.entries.is_full() {
            return Err(VramError::TableFull {
                table: "texture cache",
                capacity: N,
            });
        }
        let images = images(source, uses);
        let size = source.lut_bytes() + images.iter().map(|i| image_bytes(source, i)).sum::<u32>();
        let start = self.allocator.allocate(size)?;
        let sprites = upload(source, &images, start, end_codes, vram);
        let entry = Entry {
            name: *name,
            end_codes,
            sprites,
            block: start..start + size,
            users: 1,
        };
        // Cannot fail: fullness was checked above.
        let _ = self.entries.push(entry);
        Ok(sprites)
    }

    fn release(&mut self, name: &Name, end_codes: bool) {
        let Some(i) = self
            .entries
            .iter()
            .position(|e| e.name == *name && e.end_codes == end_codes)
        else {
            return;
        };
        let entry = &mut self.entries[i];
        entry.users -= 1;
        if entry.users == 0 {
            let block = entry.block.clone();
            self.entries.swap_remove(i);
            self.allocator.release(block.start, block.end - block.start);
        }
    }
}

/// What the materials using one texture (in one end-code variant) ask of it.
#[derive(Clone, Copy, Debug, Default)]
struct Uses {
    mipmaps: bool,
    subdivision: bool,
}

/// Whether a material of `model` uses TEXT index `index` with (or without) end codes, and
/// if so whether one of them wants mipmaps or subdivision.
fn variant_use(model: &Model<'_>, index: usize, end_codes: bool) -> Option<Uses> {
    let users = model.materials().iter().filter(|m| {
        m.texture() == Some(index as u16)
            && m.flags().contains(MaterialFlags::END_CODES) == end_codes
    });
    users.fold(None, |uses: Option<Uses>, m| {
        let flags = m.flags();
        let uses = uses.unwrap_or_default();
        Some(Uses {
            mipmaps: uses.mipmaps || flags.contains(MaterialFlags::MIPMAPS),
            subdivision: uses.subdivision || flags.subdivides(),
        })
    })
}

/// One image uploaded from a texture: a `width` x `height` window at (`x`, `y`), every
/// `step`-th pixel.
#[derive(Clone, Copy, Debug)]
struct Image {
    role: Role,
    width: u16,
    height: u16,
    x: usize,
    y: usize,
    step: usize,
}

/// What an image is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Full,
    Mipmap(usize),
    Quarter(usize),
}

/// The images a texture needs in VRAM: itself, then its mipmaps, then its quarters, each
/// only where the VDP1 can draw it (a width that is a multiple of 8).
fn images(source: &TextureSource<'_>, uses: Uses) -> heapless::Vec<Image, 7> {
    let mut images = heapless::Vec::new();
    let (width, height) = (source.width, source.height);
    let _ = images.push(Image {
        role: Role::Full,
        width,
        height,
        x: 0,
        y: 0,
        step: 1,
    });
    let drawable = |w: u16, h: u16| w >= 8 && w.is_multiple_of(8) && h >= 1;
    if uses.mipmaps {
        for shift in 1..3 {
            let (w, h) = (width >> shift, height >> shift);
            if drawable(w, h) {
                let role = Role::Mipmap(shift - 1);
                let _ = images.push(Image {
                    role,
                    width: w,
                    height: h,
                    x: 0,
                    y: 0,
                    step: 1 << shift,
                });
            }
        }
    }
    let (w, h) = (width / 2, height / 2);
    if uses.subdivision && drawable(w, h) {
        for (quarter, (qx, qy)) in [(0, 0), (1, 0), (1, 1), (0, 1)].into_iter().enumerate() {
            let (x, y) = (qx * usize::from(w), qy * usize::from(h));
            let role = Role::Quarter(quarter);
            let _ = images.push(Image {
                role,
                width: w,
                height: h,
                x,
                y,
                step: 1,
            });
        }
    }
    images
}

fn image_bytes(source: &TextureSource<'_>, image: &Image) -> u32 {
    (source.bytes_per_row(image.width) * usize::from(image.height)).next_multiple_of(8) as u32
}

/// Writes the lookup table and each image, row by row (a row fits on the stack), and
/// gives their sprites.
fn upload(
    source: &TextureSource<'_>,
    images: &[Image],
    start: u32,
    end_codes: bool,
    vram: &mut impl Vram,
) -> SpriteSet {
    let lut = (source.format == FORMAT_LUT4).then_some(start);
    if lut.is_some() {
        vram.write(start, source.data.get(..LUT_BYTES as usize).unwrap_or(&[]));
    }
    let mut address = start + source.lut_bytes();
    let empty = Sprite {
        address: start,
        width: 0,
        height: 0,
        lut,
    };
    let mut set = SpriteSet {
        full: empty,
        mipmaps: [None; 2],
        quarters: None,
    };
    let mut quarters = [empty; 4];
    let mut row = [0u8; MAX_WIDTH * 2];
    for image in images {
        let row_bytes = source.bytes_per_row(image.width);
        let whole = row_bytes * usize::from(image.height);
        let as_stored = image.step == 1 && image.x == 0 && image.y == 0;
        if let Some(pixels) = source
            .pixels()
            .get(..whole)
            .filter(|_| as_stored && !end_codes)
        {
            // The texture as it is in the file: one write (one DMA on a Saturn).
            vram.write(address, pixels);
        }
        for y in (0..usize::from(image.height)).filter(|_| !as_stored || end_codes) {
            let row = &mut row[..row_bytes];
            sample_row(source, image, y, row);
            if end_codes {
                add_end_codes(source.format, row);
            }
            vram.write(address + (y * row_bytes) as u32, row);
        }
        let sprite = Sprite {
            address,
            width: image.width,
            height: image.height,
            lut,
        };
        match image.role {
            Role::Full => set.full = sprite,
            Role::Mipmap(level) => set.mipmaps[level] = Some(sprite),
            Role::Quarter(quarter) => {
                quarters[quarter] = sprite;
                set.quarters = Some(quarters);
            }
        }
        address += image_bytes(source, image);
    }
    set
}

/// Row `y` of an image: from the source's row `image.y + y * step`, the pixels from
/// `image.x`, every `step`-th one (point sampling, which keeps 4-bit indexes valid).
fn sample_row(source: &TextureSource<'_>, image: &Image, y: usize, row: &mut [u8]) {
    let source_row = source.bytes_per_row(source.width);
    let line_start = (image.y + y * image.step) * source_row;
    let line = source
        .pixels()
        .get(line_start..line_start + source_row)
        .unwrap_or(&[]);
    if source.format == FORMAT_LUT4 {
        for x in 0..row.len() * 2 {
            set_pixel4(row, x, pixel4(line, image.x + x * image.step));
        }
    } else {
        for (x, out) in row.chunks_exact_mut(2).enumerate() {
            let px = 2 * (image.x + x * image.step);
            out.copy_from_slice(line.get(px..px + 2).unwrap_or(&[0, 0]));
        }
    }
}

/// Pixel `x` of a row of 4-bit pixels (two a byte, the left one in the high bits); 0 past
/// the end.
pub fn pixel4(row: &[u8], x: usize) -> u8 {
    row.get(x / 2)
        .map_or(0, |b| if x & 1 == 0 { b >> 4 } else { b & 0xF })
}

fn set_pixel4(row: &mut [u8], x: usize, value: u8) {
    if let Some(b) = row.get_mut(x / 2) {
        *b = if x & 1 == 0 {
            (*b & 0x0F) | value << 4
        } else {
            (*b & 0xF0) | (value & 0xF)
        };
    }
}

/// Puts end codes after the last visible (non-zero) pixel of a row: the VDP1 stops the
/// line there when the material asks for end codes.
fn add_end_codes(format: u16, row: &mut [u8]) {
    if format == FORMAT_LUT4 {
        let pixels = row.len() * 2;
        let last = (0..pixels).rev().find(|&px| pixel4(row, px) != 0);
        let first_end = last.map_or(0, |px| px + 1);
        for px in first_end..(first_end + 2).min(pixels) {
            set_pixel4(row, px, END_CODE_LUT);
        }
    } else {
        let pixels = row.len() / 2;
        let last = (0..pixels)
            .rev()
            .find(|&px| row[2 * px] != 0 || row[2 * px + 1] != 0);
        let first_end = last.map_or(0, |px| px + 1);
        for px in first_end..(first_end + 2).min(pixels) {
            row[2 * px..2 * px + 2].copy_from_slice(&END_CODE_RGB.to_be_bytes());
        }
    }
}

/// The gouraud tables of loaded models (GOUR), one per set of four colours.
pub struct GouraudCache<const N: usize> {
    allocator: RegionAllocator<N>,
    tables: heapless::FnvIndexMap<GouraudTable, (u32, u32), N>,
}

impl<const N: usize> GouraudCache<N> {
    /// An empty cache placing tables in `region`. `N` is a power of two.
    pub fn new(region: Range<u32>) -> Self {
        Self {
            allocator: RegionAllocator::new("gouraud", region),
            tables: heapless::FnvIndexMap::new(),
        }
    }

    /// The number of tables in VRAM.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table is in VRAM.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Uploads the GOUR colours of each polygon whose material has the gouraud flag, once
    /// per set of colours, and writes each such polygon's table address / 8 to
    /// `per_polygon` (0 for the others). `per_polygon` has one entry per polygon.
    pub fn load_model(
        &mut self,
        model: &Model<'_>,
        vram: &mut impl Vram,
        per_polygon: &mut [u16],
    ) -> Result<(), VramError> {
        per_polygon.iter_mut().for_each(|t| *t = 0);
        let Some(colors) = model.gouraud() else {
            return Ok(());
        };
        for (polygon, slot) in per_polygon
            .iter_mut()
            .enumerate()
            .take(model.polygons().len())
        {
            let gouraud = model
                .material_of(polygon)
                .is_some_and(|m| m.flags().contains(MaterialFlags::GOURAUD));
            let Some(corners) = colors.get(4 * polygon..4 * polygon + 4).filter(|_| gouraud) else {
                continue;
            };
            let table = GouraudTable(core::array::from_fn(|i| corners[i].get().0));
            *slot = (self.acquire(table, vram)? >> 3) as u16;
        }
        Ok(())
    }

    /// Gives back the tables of a model loaded with `per_polygon`.
    pub fn release_model(&mut self, model: &Model<'_>, per_polygon: &[u16]) {
        let Some(colors) = model.gouraud() else {
            return;
        };
        for (polygon, _) in per_polygon.iter().enumerate().filter(|(_, &t)| t != 0) {
            let Some(corners) = colors.get(4 * polygon..4 * polygon + 4) else {
                continue;
            };
            let table = GouraudTable(core::array::from_fn(|i| corners[i].get().0));
            if let Some((address, users)) = self.tables.get_mut(&table) {
                *users -= 1;
                if *users == 0 {
                    let address = *address;
                    self.tables.remove(&table);
                    self.allocator.release(address, 8);
                }
            }
        }
    }

    fn acquire(&mut self, table: GouraudTable, vram: &mut impl Vram) -> Result<u32, VramError> {
        if let Some((address, users)) = self.tables.get_mut(&table) {
            *users += 1;
            return Ok(*address);
        }
        let full = VramError::TableFull {
            table: "gouraud cache",
            capacity: N,
        };
        if self.tables.len() == N {
            return Err(full);
        }
        let address = self.allocator.allocate(8)?;
        vram.write_gouraud(address, &table);
        self.tables.insert(table, (address, 1)).map_err(|_| full)?;
        Ok(address)
    }
}
