//! Textures and gouraud tables in VDP1 VRAM, uploaded once and shared: a texture once per
//! name (the TIMG name holds a hash of the pixels, so two models with the same texture
//! share it), a gouraud table once per set of four colours.

use super::command::{GouraudTable, Sprite};
use super::vram::{RegionAllocator, Vram, VramError, BLOCK_BYTES, TEXTURE_BLOCK_BYTES};
use crate::format::{MaterialFlags, Model, Name, Texture};
use core::ops::Range;

/// Pixel format 0: RGB555.
const FORMAT_RGB555: u16 = 0;
/// Pixel format 1: 16 colours through a lookup table.
const FORMAT_LUT4: u16 = 1;
const LUT_BYTES: u32 = 32;
/// The end code of RGB pixels (`jo_sprite_add_end_codes`).
const END_CODE_RGB: u16 = 0x7FFF;
/// The end code of 4-bit pixels.
const END_CODE_LUT: u8 = 0xF;
/// The widest texture the VDP1 draws.
const MAX_WIDTH: u16 = 504;
/// The tallest texture the VDP1 draws (`CMDSIZE` holds the height in 8 bits).
const MAX_HEIGHT: u16 = 255;

/// A texture's pixels as stored in a file (TIMG entry or a .BIN read from CD): big endian,
/// a lookup table of 16 colours first in format 1.
#[derive(Clone, Copy, Debug)]
pub struct TextureSource<'a> {
    /// Width in pixels: a multiple of 8 from 8 to 504.
    pub width: u16,
    /// Height in pixels: 1 to 255.
    pub height: u16,
    /// 0: RGB555, 1: 16 colours + lookup table.
    pub format: u16,
    /// The pixels (and lookup table): at least what the size and format need; what
    /// follows is not read.
    pub data: &'a [u8],
}

impl<'a> TextureSource<'a> {
    /// An embedded (TIMG) texture.
    pub(crate) fn of(texture: &Texture<'a>) -> Self {
        Self {
            width: texture.header.width(),
            height: texture.header.height(),
            format: texture.header.format_raw(),
            data: texture.data,
        }
    }

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

    /// Whether the VDP1 draws this texture (its size and format) and `data` holds it;
    /// `index` (in TEXT) names it in the error.
    fn check(&self, index: usize) -> Result<(), VramError> {
        let (width, height) = (self.width, self.height);
        if !width.is_multiple_of(8)
            || !(8..=MAX_WIDTH).contains(&width)
            || !(1..=MAX_HEIGHT).contains(&height)
        {
            return Err(VramError::TextureSize {
                index,
                width,
                height,
            });
        }
        if self.format != FORMAT_RGB555 && self.format != FORMAT_LUT4 {
            return Err(VramError::TextureFormat {
                index,
                format: self.format,
            });
        }
        let needed = self.lut_bytes() as usize + self.bytes_per_row(width) * usize::from(height);
        if self.data.len() < needed {
            return Err(VramError::TexturePixelsShort {
                index,
                needed,
                available: self.data.len(),
            });
        }
        Ok(())
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
#[derive(Clone, PartialEq, Eq, Debug)]
struct Entry {
    name: Name,
    end_codes: bool,
    sprites: SpriteSet,
    /// What its images were made for: the uses of every model that loaded it.
    uses: Uses,
    /// The block of the lookup table, the texture and the copies its first model asked
    /// for.
    block: Range<u32>,
    /// The blocks of the mipmaps and of the quarters, when a later model asked for them.
    extras: [Option<Range<u32>>; 2],
    users: u32,
}

impl Entry {
    /// Uploads the copies `wanted` asks for that the texture does not have yet, each
    /// kind in a block of its own.
    fn add_extras<const FREE: usize>(
        &mut self,
        wanted: Uses,
        source: &TextureSource<'_>,
        allocator: &mut RegionAllocator<FREE>,
        vram: &mut impl Vram,
    ) -> Result<(), VramError> {
        for (slot, extra) in [Uses::MIPMAPS, Uses::SUBDIVISION].into_iter().enumerate() {
            if !wanted.has(extra) || self.uses.has(extra) {
                continue;
            }
            let images = images(source, extra, false);
            if !images.is_empty() {
                let size = images_bytes(source, &images);
                let start = allocator.allocate(size)?;
                let lut = self.sprites.full.lut;
                upload(
                    source,
                    &images,
                    start,
                    lut,
                    self.end_codes,
                    vram,
                    &mut self.sprites,
                );
                self.extras[slot] = Some(start..start + size);
            }
            self.uses = self.uses.with(extra);
        }
        Ok(())
    }

    /// Back to the copies of `before` (their blocks are the allocator's business).
    fn restore(&mut self, before: Uses) {
        if !before.has(Uses::MIPMAPS) {
            self.sprites.mipmaps = [None; 2];
            self.extras[0] = None;
        }
        if !before.has(Uses::SUBDIVISION) {
            self.sprites.quarters = None;
            self.extras[1] = None;
        }
        self.uses = before;
    }
}

/// What loading a model did to an entry of the cache, for undoing it if the load fails.
#[derive(Clone, Copy, Debug)]
enum Acquired {
    /// Uploaded it.
    Created,
    /// Found it as it needed it.
    Reused,
    /// Found it and added copies to it: what it was made for before.
    Extended(Uses),
}

/// The textures of the loaded models, each uploaded once per name (and end-code variant).
/// Comparable, so that a test can see that a failed load left it as it was.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TextureCache<const N: usize> {
    allocator: RegionAllocator<N>,
    entries: heapless::Vec<Entry, N>,
}

/// The sprites of one TEXT index of a model: for its materials without and with end
/// codes.
pub type TextureSlot = [Option<SpriteSet>; 2];

/// Where loading puts a model's textures, one slot per TEXT index in order.
pub(crate) trait TextureSlots {
    /// The slots filled so far.
    fn len(&self) -> usize;
    /// The most slots it holds.
    fn capacity(&self) -> usize;
    /// Adds an empty slot for the next TEXT index, named `name`; `false` when full.
    fn push(&mut self, name: Name) -> bool;
    /// Slot `index`.
    fn slot_mut(&mut self, index: usize) -> &mut TextureSlot;
    /// Keeps the first `len` slots.
    fn truncate(&mut self, len: usize);
}

/// [`TextureSlots`] in a slice: the first `len` are filled.
pub(crate) struct SlotSlice<'a> {
    pub(crate) slots: &'a mut [TextureSlot],
    pub(crate) len: usize,
}

impl TextureSlots for SlotSlice<'_> {
    fn len(&self) -> usize {
        self.len
    }

    fn capacity(&self) -> usize {
        self.slots.len()
    }

    fn push(&mut self, _: Name) -> bool {
        let Some(slot) = self.slots.get_mut(self.len) else {
            return false;
        };
        *slot = [None, None];
        self.len += 1;
        true
    }

    fn slot_mut(&mut self, index: usize) -> &mut TextureSlot {
        &mut self.slots[index]
    }

    fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl<const M: usize> TextureSlots for ModelTextures<M> {
    fn len(&self) -> usize {
        self.slots.len()
    }

    fn capacity(&self) -> usize {
        M
    }

    fn push(&mut self, name: Name) -> bool {
        if self.slots.is_full() {
            return false;
        }
        // Both have room: they grow together.
        let _ = self.names.push(name);
        let _ = self.slots.push([None, None]);
        true
    }

    fn slot_mut(&mut self, index: usize) -> &mut TextureSlot {
        &mut self.slots[index]
    }

    fn truncate(&mut self, len: usize) {
        self.names.truncate(len);
        self.slots.truncate(len);
    }
}

/// The textures of one model, by TEXT index: the sprites for materials without and with
/// end codes.
#[derive(Clone, Debug, Default)]
pub struct ModelTextures<const M: usize> {
    slots: heapless::Vec<TextureSlot, M>,
    names: heapless::Vec<Name, M>,
}

impl<const M: usize> ModelTextures<M> {
    /// No texture loaded: what a `static` starts as (in `.bss`, not built on the stack,
    /// which a table of a thousand textures would overflow), filled in place by
    /// [`crate::disc::load_model_into`].
    pub const EMPTY: Self = Self {
        slots: heapless::Vec::new(),
        names: heapless::Vec::new(),
    };

    /// The texture for TEXT index `index`, in the variant a material with `end_codes` uses.
    pub fn get(&self, index: usize, end_codes: bool) -> Option<&SpriteSet> {
        self.slots.get(index)?[usize::from(end_codes)].as_ref()
    }

    /// Each TEXT index's textures (both variants): what drawing looks them up in
    /// ([`ModelVram::textures`](crate::render::ModelVram::textures)).
    pub fn slots(&self) -> &[TextureSlot] {
        &self.slots
    }

    /// How many textures (TEXT indexes) are loaded.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no texture is loaded.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forgets every texture (their VRAM stays with the cache).
    pub(crate) fn clear(&mut self) {
        self.slots.clear();
        self.names.clear();
    }
}

impl<const N: usize> TextureCache<N> {
    /// Empties the cache and places textures in `region` from now on, in place: a cache
    /// in memory that does not move (the C interface's, `capi/`), without building a whole
    /// empty cache on the stack.
    #[doc(hidden)]
    pub fn reset_in_place(&mut self, region: Range<u32>) {
        TextureStore::reset(self, region);
    }

    /// A cache of no region, all zero (for a `static` in `.bss`), until
    /// [`TextureStore::reset`] places it.
    pub(crate) const UNPLACED: Self = Self {
        allocator: RegionAllocator::UNPLACED,
        entries: heapless::Vec::new(),
    };

    /// An empty cache that places textures in `region` (from a [`VramLayout`](super::VramLayout)).
    /// A `const fn`, so that a large cache can be a `static` instead of on the stack.
    pub const fn new(region: Range<u32>) -> Self {
        Self {
            allocator: RegionAllocator::new("texture", region, TEXTURE_BLOCK_BYTES),
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
    /// A texture already in VRAM under the same name is not uploaded again; the copies its
    /// materials ask for (mipmaps, quarters) that it lacks are added. Every texture is
    /// checked (a size the VDP1 draws, a known format, enough bytes), and kept in `loaded`
    /// (emptied first). On an error the cache (its entries and what is free in its region)
    /// is as it was before the call, and `loaded` empty.
    pub fn load_model<'m, const M: usize>(
        &mut self,
        model: &Model<'m>,
        vram: &mut impl Vram,
        mut external: impl FnMut(usize, &Name) -> Option<TextureSource<'m>>,
        loaded: &mut ModelTextures<M>,
    ) -> Result<(), VramError> {
        // `loaded` is filled where it is (a static, a C caller's state): a table of the
        // textures of a model is kilobytes, which a return by value copies through the
        // stack, several times over on the SH-2.
        loaded.clear();
        self.allocator.save();
        let mut acquired = heapless::Vec::<_, M>::new();
        let mut embedded = model.textures().map(|t| t.iter());
        for (index, name) in model.texture_names().iter().enumerate() {
            let source = match embedded.as_mut().and_then(Iterator::next) {
                Some(texture) => Some(TextureSource::of(&texture)),
                None => external(index, name),
            };
            let loading = self.load_one(model, loaded, source.as_ref(), vram, &mut acquired);
            if let Err(error) = loading {
                self.undo(&loaded.names, &acquired);
                self.allocator.restore();
                loaded.clear();
                return Err(error);
            }
        }
        Ok(())
    }

    /// [`load_model`](Self::load_model) into a new table, for the tests' small ones.
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn load_model_value<'m, const M: usize>(
        &mut self,
        model: &Model<'m>,
        vram: &mut impl Vram,
        external: impl FnMut(usize, &Name) -> Option<TextureSource<'m>>,
    ) -> Result<ModelTextures<M>, VramError> {
        let mut loaded = ModelTextures::EMPTY;
        self.load_model(model, vram, external, &mut loaded)?;
        Ok(loaded)
    }

    /// [`load_model`](Self::load_model) into `loaded` (empty), one texture at a time: on an
    /// error the textures loaded are given back (last first), but copies added to
    /// textures other models had (mipmaps, quarters) stay.
    pub(crate) fn load_model_into<'m>(
        &mut self,
        model: &Model<'m>,
        vram: &mut impl Vram,
        external: &mut dyn FnMut(usize, &Name) -> Option<TextureSource<'m>>,
        loaded: &mut SlotSlice<'_>,
    ) -> Result<(), VramError> {
        let mut embedded = model.textures().map(|t| t.iter());
        for (index, name) in model.texture_names().iter().enumerate() {
            let source = match embedded.as_mut().and_then(Iterator::next) {
                Some(texture) => Some(TextureSource::of(&texture)),
                None => external(index, name),
            };
            if let Err(error) = self.load_texture_into(model, loaded, source.as_ref(), vram) {
                self.release_slots(model.texture_names(), &loaded.slots[..loaded.len]);
                loaded.len = 0;
                return Err(error);
            }
        }
        Ok(())
    }

    /// Whether the next texture of `model` at TEXT index `index` needs its pixels: a variant
    /// its materials use (with or without end codes) is not in VRAM under its name yet, or
    /// lacks copies they ask for (mipmaps, quarters). A loader reading textures from CD
    /// skips the file when it does not.
    pub fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool {
        let Some(name) = model.texture_names().get(index) else {
            return false;
        };
        [false, true].into_iter().any(|end_codes| {
            variant_use(model, index, end_codes).is_some_and(|uses| {
                self.position(name, end_codes)
                    .is_none_or(|i| !self.entries[i].uses.has(uses))
            })
        })
    }

    /// Uploads the next texture of `model`, TEXT index `loaded.len()`, from `source` (its
    /// pixels are needed only where [`needs_pixels`](Self::needs_pixels) says so), and adds
    /// it to `loaded`. For loaders that bring a model's textures one at a time (from CD,
    /// through one reused buffer); [`load_model`](Self::load_model) is this for each name.
    /// On an error the cache and `loaded` are as they were before the call (the textures
    /// loaded before it stay: [`release_model`](Self::release_model) gives them back).
    pub fn load_texture<const M: usize>(
        &mut self,
        model: &Model<'_>,
        loaded: &mut ModelTextures<M>,
        source: Option<&TextureSource<'_>>,
        vram: &mut impl Vram,
    ) -> Result<(), VramError> {
        self.load_texture_into(model, loaded, source, vram)
    }

    /// [`load_texture`](Self::load_texture) into any [`TextureSlots`].
    pub(crate) fn load_texture_into(
        &mut self,
        model: &Model<'_>,
        loaded: &mut impl TextureSlots,
        source: Option<&TextureSource<'_>>,
        vram: &mut impl Vram,
    ) -> Result<(), VramError> {
        self.allocator.save();
        let before = loaded.len();
        let mut acquired = heapless::Vec::<_, 1>::new();
        let loading = self.load_one(model, loaded, source, vram, &mut acquired);
        if loading.is_err() {
            self.undo(&model.texture_names()[before..loaded.len()], &acquired);
            self.allocator.restore();
            loaded.truncate(before);
        }
        loading
    }

    /// Loads TEXT index `loaded.len()` into `loaded`, with what it did to each entry pushed
    /// on `acquired` (by variant), for undoing.
    fn load_one<const K: usize>(
        &mut self,
        model: &Model<'_>,
        loaded: &mut impl TextureSlots,
        source: Option<&TextureSource<'_>>,
        vram: &mut impl Vram,
        acquired: &mut heapless::Vec<[Option<Acquired>; 2], K>,
    ) -> Result<(), VramError> {
        let index = loaded.len();
        let names = model.texture_names();
        let name = names.get(index).ok_or(VramError::NoSuchTexture {
            index,
            count: names.len(),
        })?;
        if let Some(source) = source {
            source.check(index)?;
        }
        let full = VramError::TableFull {
            table: "model texture",
            capacity: loaded.capacity(),
        };
        if !loaded.push(*name) {
            return Err(full);
        }
        acquired.push([None, None]).map_err(|_| full)?;
        let done = acquired.len() - 1;
        for end_codes in [false, true] {
            let Some(uses) = variant_use(model, index, end_codes) else {
                continue;
            };
            let (sprites, how) = self.acquire(index, name, end_codes, uses, source, vram)?;
            loaded.slot_mut(index)[usize::from(end_codes)] = Some(sprites);
            acquired[done][usize::from(end_codes)] = Some(how);
        }
        Ok(())
    }

    /// Undoes what a failed load did to the entries, last first (the allocator is put
    /// back as a whole by the caller).
    fn undo(&mut self, names: &[Name], acquired: &[[Option<Acquired>; 2]]) {
        for (name, variants) in names.iter().zip(acquired).rev() {
            for end_codes in [true, false] {
                let Some(how) = variants[usize::from(end_codes)] else {
                    continue;
                };
                let Some(i) = self.position(name, end_codes) else {
                    continue;
                };
                match how {
                    // The newest entries are last: removing keeps the others' order.
                    Acquired::Created => {
                        self.entries.remove(i);
                    }
                    Acquired::Reused => self.entries[i].users -= 1,
                    Acquired::Extended(before) => {
                        self.entries[i].users -= 1;
                        self.entries[i].restore(before);
                    }
                }
            }
        }
    }

    /// Gives back a model's textures: those no other model uses leave VRAM.
    pub fn release_model<const M: usize>(&mut self, textures: &ModelTextures<M>) {
        self.release_slots(&textures.names, &textures.slots);
    }

    /// Gives back the textures of `slots` (by TEXT index, named by `names`), last first.
    pub(crate) fn release_slots(&mut self, names: &[Name], slots: &[TextureSlot]) {
        for (slot, name) in slots.iter().zip(names).rev() {
            for (end_codes, sprites) in [false, true].into_iter().zip(slot) {
                if sprites.is_some() {
                    self.release(name, end_codes);
                }
            }
        }
    }

    fn position(&self, name: &Name, end_codes: bool) -> Option<usize> {
        self.entries
            .iter()
            .position(|e| e.name == *name && e.end_codes == end_codes)
    }

    fn acquire(
        &mut self,
        index: usize,
        name: &Name,
        end_codes: bool,
        uses: Uses,
        source: Option<&TextureSource<'_>>,
        vram: &mut impl Vram,
    ) -> Result<(SpriteSet, Acquired), VramError> {
        let missing = VramError::MissingTexture { index };
        if let Some(i) = self.position(name, end_codes) {
            let entry = &mut self.entries[i];
            let before = entry.uses;
            if !before.has(uses) {
                let source = source.ok_or(missing)?;
                if let Err(error) = entry.add_extras(uses, source, &mut self.allocator, vram) {
                    entry.restore(before);
                    return Err(error);
                }
            }
            entry.users += 1;
            let how = match entry.uses == before {
                true => Acquired::Reused,
                false => Acquired::Extended(before),
            };
            return Ok((entry.sprites, how));
        }
        let source = source.ok_or(missing)?;
        if self.entries.is_full() {
            return Err(VramError::TableFull {
                table: "texture cache",
                capacity: N,
            });
        }
        let images = images(source, uses, true);
        let size = source.lut_bytes() + images_bytes(source, &images);
        let start = self.allocator.allocate(size)?;
        let lut = (source.format == FORMAT_LUT4).then_some(start);
        if lut.is_some() {
            vram.write(start, source.data.get(..LUT_BYTES as usize).unwrap_or(&[]));
        }
        let pixels = start + source.lut_bytes();
        let mut sprites = SpriteSet {
            full: Sprite {
                address: pixels,
                width: source.width,
                height: source.height,
                lut,
            },
            mipmaps: [None; 2],
            quarters: None,
        };
        upload(source, &images, pixels, lut, end_codes, vram, &mut sprites);
        let entry = Entry {
            name: *name,
            end_codes,
            sprites,
            uses,
            block: start..start + size,
            extras: [None, None],
            users: 1,
        };
        // Cannot fail: fullness was checked above.
        let _ = self.entries.push(entry);
        Ok((sprites, Acquired::Created))
    }

    fn release(&mut self, name: &Name, end_codes: bool) {
        if let Some(i) = self.position(name, end_codes) {
            self.release_at(i);
        }
    }

    /// Gives back the textures of `slots`, last first, found by where they are in VRAM
    /// (each entry's texture has its own address): what the renderer keeps of a model.
    pub(crate) fn release_sprites(&mut self, slots: &[TextureSlot]) {
        for sprites in slots
            .iter()
            .rev()
            .flat_map(|slot| slot.iter().rev().flatten())
        {
            let address = sprites.full.address;
            if let Some(i) = self
                .entries
                .iter()
                .position(|e| e.sprites.full.address == address)
            {
                self.release_at(i);
            }
        }
    }

    fn release_at(&mut self, i: usize) {
        let entry = &mut self.entries[i];
        entry.users -= 1;
        if entry.users == 0 {
            let entry = self.entries.swap_remove(i);
            for block in core::iter::once(entry.block).chain(entry.extras.into_iter().flatten()) {
                self.allocator.release(block.start, block.end - block.start);
            }
        }
    }
}

/// What the materials using one texture (in one end-code variant) ask of it: mipmaps,
/// quarters for subdivision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Uses(u8);

impl Uses {
    const MIPMAPS: Self = Self(1);
    const SUBDIVISION: Self = Self(2);

    fn has(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
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
        let mut uses = uses.unwrap_or_default();
        if flags.contains(MaterialFlags::MIPMAPS) {
            uses = uses.with(Uses::MIPMAPS);
        }
        if flags.subdivides() {
            uses = uses.with(Uses::SUBDIVISION);
        }
        Some(uses)
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

/// The images a texture needs in VRAM for `uses`: itself (with `full`), then its mipmaps,
/// then its quarters, each only where the VDP1 can draw it (a width that is a multiple
/// of 8).
fn images(source: &TextureSource<'_>, uses: Uses, full: bool) -> heapless::Vec<Image, 7> {
    let mut images = heapless::Vec::new();
    let (width, height) = (source.width, source.height);
    if full {
        let _ = images.push(Image {
            role: Role::Full,
            width,
            height,
            x: 0,
            y: 0,
            step: 1,
        });
    }
    let drawable = |w: u16, h: u16| w >= 8 && w.is_multiple_of(8) && h >= 1;
    if uses.has(Uses::MIPMAPS) {
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
    if uses.has(Uses::SUBDIVISION) && drawable(w, h) {
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

fn images_bytes(source: &TextureSource<'_>, images: &[Image]) -> u32 {
    images.iter().map(|i| image_bytes(source, i)).sum()
}

/// Writes each image from `address`, row by row (a row fits on the stack), and puts
/// their sprites (with the lookup table at `lut`) in `set`.
fn upload(
    source: &TextureSource<'_>,
    images: &[Image],
    mut address: u32,
    lut: Option<u32>,
    end_codes: bool,
    vram: &mut impl Vram,
    set: &mut SpriteSet,
) {
    let mut row = [0u8; MAX_WIDTH as usize * 2];
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
        // Rows fit: `TextureSource::check` keeps widths to what the VDP1 draws.
        let rows = (0..usize::from(image.height)).filter(|_| !as_stored || end_codes);
        if let Some(row) = row.get_mut(..row_bytes) {
            for y in rows {
                sample_row(source, image, y, row);
                if end_codes {
                    add_end_codes(source.format, row);
                }
                vram.write(address + (y * row_bytes) as u32, row);
            }
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
            Role::Quarter(quarter) => set.quarters.get_or_insert([sprite; 4])[quarter] = sprite,
        }
        address += image_bytes(source, image);
    }
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

/// The gouraud tables of loaded models (GOUR), one per set of four colours. Comparable,
/// so that a test can see that a failed load left it as it was.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GouraudCache<const N: usize> {
    allocator: RegionAllocator<N>,
    tables: heapless::FnvIndexMap<GouraudTable, (u32, u32), N>,
}

impl<const N: usize> GouraudCache<N> {
    /// Empties the cache and places tables in `region` from now on, in place (as
    /// [`TextureCache::reset_in_place`]).
    #[doc(hidden)]
    pub fn reset_in_place(&mut self, region: Range<u32>) {
        GouraudStore::reset(self, region);
    }

    /// A cache of no region, all zero (for a `static` in `.bss`), until
    /// [`GouraudStore::reset`] places it.
    pub(crate) const UNPLACED: Self = Self {
        allocator: RegionAllocator::UNPLACED,
        tables: heapless::FnvIndexMap::new(),
    };

    /// An empty cache placing tables in `region`. `N` is a power of two.
    pub const fn new(region: Range<u32>) -> Self {
        Self {
            allocator: RegionAllocator::new("gouraud", region, BLOCK_BYTES),
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
    /// `per_polygon` (0 for the others). `per_polygon` has one entry per polygon. On an
    /// error the cache is as it was before the call and `per_polygon` all 0.
    pub fn load_model(
        &mut self,
        model: &Model<'_>,
        vram: &mut impl Vram,
        per_polygon: &mut [u16],
    ) -> Result<(), VramError> {
        self.allocator.save();
        let loaded = self.load_into(model, vram, per_polygon);
        if loaded.is_err() {
            // `per_polygon` holds the tables acquired before the error.
            self.release_model(model, per_polygon);
            self.allocator.restore();
            per_polygon.fill(0);
        }
        loaded
    }

    /// [`load_model`](Self::load_model) without the undoing.
    fn load_into(
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

    /// [`release_model`](Self::release_model) by the tables' addresses (`per_polygon`, as
    /// loading wrote it), without the model, whose bytes may be gone: what the renderer
    /// keeps of a model, and what the C interface (`capi/`) releases after its caller
    /// loaded another model into the same memory. Public (hidden) for the latter.
    #[doc(hidden)]
    pub fn release_addresses(&mut self, per_polygon: &[u16]) {
        for address in per_polygon
            .iter()
            .filter(|&&t| t != 0)
            .map(|&t| u32::from(t) << 3)
        {
            let Some(table) = self
                .tables
                .iter()
                .find(|(_, (at, _))| *at == address)
                .map(|(table, _)| *table)
            else {
                continue;
            };
            if let Some((_, users)) = self.tables.get_mut(&table) {
                *users -= 1;
                if *users == 0 {
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

/// A [`TextureCache`] of any capacity, as the [`Renderer`](crate::render::Renderer) holds
/// it (the capacity is the `renderer_memory!`'s business).
pub(crate) trait TextureStore {
    /// Empties it and places textures in `region`.
    fn reset(&mut self, region: Range<u32>);
    /// [`TextureCache::load_model`] into `loaded`.
    fn load_model<'m>(
        &mut self,
        model: &Model<'m>,
        vram: &mut dyn Vram,
        external: &mut dyn FnMut(usize, &Name) -> Option<TextureSource<'m>>,
        loaded: &mut SlotSlice<'_>,
    ) -> Result<(), VramError>;
    /// [`TextureCache::needs_pixels`].
    fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool;
    /// [`TextureCache::load_texture`] into `loaded`.
    fn load_texture(
        &mut self,
        model: &Model<'_>,
        loaded: &mut SlotSlice<'_>,
        source: Option<&TextureSource<'_>>,
        vram: &mut dyn Vram,
    ) -> Result<(), VramError>;
    /// Gives back the textures of `slots` (see [`TextureCache::release_sprites`]).
    fn release(&mut self, slots: &[TextureSlot]);
    /// The number of textures in VRAM.
    fn len(&self) -> usize;
}

impl<const N: usize> TextureStore for TextureCache<N> {
    fn reset(&mut self, region: Range<u32>) {
        // In place: a whole empty cache would be a constant of the program's.
        self.entries.clear();
        self.allocator.reset("texture", region, TEXTURE_BLOCK_BYTES);
    }

    fn load_model<'m>(
        &mut self,
        model: &Model<'m>,
        mut vram: &mut dyn Vram,
        external: &mut dyn FnMut(usize, &Name) -> Option<TextureSource<'m>>,
        loaded: &mut SlotSlice<'_>,
    ) -> Result<(), VramError> {
        self.load_model_into(model, &mut vram, external, loaded)
    }

    fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool {
        TextureCache::needs_pixels(self, model, index)
    }

    fn load_texture(
        &mut self,
        model: &Model<'_>,
        loaded: &mut SlotSlice<'_>,
        source: Option<&TextureSource<'_>>,
        mut vram: &mut dyn Vram,
    ) -> Result<(), VramError> {
        self.load_texture_into(model, loaded, source, &mut vram)
    }

    fn release(&mut self, slots: &[TextureSlot]) {
        self.release_sprites(slots);
    }

    fn len(&self) -> usize {
        TextureCache::len(self)
    }
}

/// A [`GouraudCache`] of any capacity, as the [`Renderer`](crate::render::Renderer) holds
/// it.
pub(crate) trait GouraudStore {
    /// Empties it and places tables in `region`.
    fn reset(&mut self, region: Range<u32>);
    /// [`GouraudCache::load_model`].
    fn load_model(
        &mut self,
        model: &Model<'_>,
        vram: &mut dyn Vram,
        per_polygon: &mut [u16],
    ) -> Result<(), VramError>;
    /// Gives back the tables of a model loaded with `per_polygon` (see
    /// [`GouraudCache::release_addresses`]).
    fn release(&mut self, per_polygon: &[u16]);
    /// The number of tables in VRAM.
    fn len(&self) -> usize;
}

impl<const N: usize> GouraudStore for GouraudCache<N> {
    fn reset(&mut self, region: Range<u32>) {
        self.tables.clear();
        self.allocator.reset("gouraud", region, BLOCK_BYTES);
    }

    fn load_model(
        &mut self,
        model: &Model<'_>,
        mut vram: &mut dyn Vram,
        per_polygon: &mut [u16],
    ) -> Result<(), VramError> {
        GouraudCache::load_model(self, model, &mut vram, per_polygon)
    }

    fn release(&mut self, per_polygon: &[u16]) {
        self.release_addresses(per_polygon);
    }

    fn len(&self) -> usize {
        GouraudCache::len(self)
    }
}
