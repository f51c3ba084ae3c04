//! VDP1 VRAM behind a trait: the Saturn writes the real 512 KiB (in `hw`), the host and the
//! tests a byte array. The layout splits it into regions: command tables, the gouraud
//! tables made each frame (lighting), the gouraud tables of loaded models, and textures
//! with their lookup tables.

use super::command::{CommandTable, GouraudTable};
use core::fmt;

pub use crate::hw::vdp1::FrameEnd;
use core::ops::Range;

/// The size of VDP1 VRAM.
pub const VRAM_SIZE: u32 = crate::hw::vdp1::VRAM_SIZE;

/// Somewhere command tables, gouraud tables and textures can be written, big endian, at
/// byte addresses from 0 to [`VRAM_SIZE`].
pub trait Vram {
    /// Writes `bytes` at `address`.
    fn write(&mut self, address: u32, bytes: &[u8]);

    /// Writes a command table at `address`.
    fn write_command(&mut self, address: u32, table: &CommandTable) {
        self.write(address, &table.to_be_bytes());
    }

    /// Writes `tables` one after the other from `address` (32 bytes each). By default one
    /// [`write_command`](Self::write_command) each; a VRAM that can move the whole array
    /// at once (the Saturn's, by SCU DMA) does so.
    fn write_commands(&mut self, address: u32, tables: &[CommandTable]) {
        for (i, table) in tables.iter().enumerate() {
            self.write_command(address + 32 * i as u32, table);
        }
    }

    /// Writes a gouraud table at `address`.
    fn write_gouraud(&mut self, address: u32, table: &GouraudTable) {
        let mut bytes = [0; 8];
        for (chunk, color) in bytes.chunks_exact_mut(2).zip(table.0) {
            chunk.copy_from_slice(&color.to_be_bytes());
        }
        self.write(address, &bytes);
    }

    /// Writes `tables` one after the other from `address` (8 bytes each). By default one
    /// [`write_gouraud`](Self::write_gouraud) each; the Saturn's VRAM moves the whole
    /// array by SCU DMA.
    fn write_gouraud_tables(&mut self, address: u32, tables: &[GouraudTable]) {
        for (i, table) in tables.iter().enumerate() {
            self.write_gouraud(address + 8 * i as u32, table);
        }
    }
}

impl<V: Vram + ?Sized> Vram for &mut V {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        (**self).write(address, bytes);
    }

    fn write_command(&mut self, address: u32, table: &CommandTable) {
        (**self).write_command(address, table);
    }

    fn write_commands(&mut self, address: u32, tables: &[CommandTable]) {
        (**self).write_commands(address, tables);
    }

    fn write_gouraud(&mut self, address: u32, table: &GouraudTable) {
        (**self).write_gouraud(address, table);
    }

    fn write_gouraud_tables(&mut self, address: u32, tables: &[GouraudTable]) {
        (**self).write_gouraud_tables(address, tables);
    }
}

/// The VDP1 as the [`Renderer`](crate::render::Renderer) drives it: its VRAM, and its
/// frame change, after which it draws the command list that the jump at VRAM address 0
/// points to (read when the VDP1 starts drawing a frame). On the Saturn the start of
/// VBlank; on the host a [`MemoryVram`] changes frame whenever asked (nothing draws from it
/// while the program runs).
///
/// The renderer calls [`list_flipped`](Self::list_flipped) each time it has pointed the
/// jump at another list, then asks whether the VDP1 has changed frame since (and so left
/// the other list) before it writes that other list: it waits only when the VDP1 has not.
/// Once it knows of the change it asks how the drawing of the field that change ended
/// ended ([`last_frame_end`](Self::last_frame_end)): a list too heavy for a field is shown
/// without its last commands (the nearest polygons, the overlays).
pub trait Vdp1: Vram {
    /// The jump at VRAM 0 is about to be pointed at another list (the Saturn's records
    /// the moment, for the floor: `hw::vdp1::last_flip`).
    fn prepare_flip(&mut self) {}
    /// The jump at VRAM 0 now points at another list: the frame change that counts is the
    /// next one.
    fn list_flipped(&mut self);
    /// Whether the VDP1 has changed frame since the last [`list_flipped`](Self::list_flipped),
    /// without waiting. `false` when it cannot tell (then the renderer waits).
    fn frame_changed(&mut self) -> bool;
    /// Waits until the VDP1 has changed frame since the last
    /// [`list_flipped`](Self::list_flipped): at once if it has.
    fn wait_frame_change(&mut self) -> Result<(), FrameTimeout>;
    /// How the VDP1's drawing of the field that ended at its last frame change ended:
    /// asked once the renderer knows of a change since the last
    /// [`list_flipped`](Self::list_flipped) ([`frame_changed`](Self::frame_changed) said
    /// yes, or [`wait_frame_change`](Self::wait_frame_change) returned), before the next
    /// change. [`FrameEnd::Unknown`] unless the VDP1 can tell.
    fn last_frame_end(&mut self) -> FrameEnd {
        FrameEnd::Unknown
    }
}

/// The VDP1's frame change did not come.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FrameTimeout {
    /// What was waited for (e.g. "VBlank").
    pub waiting_for: &'static str,
}

impl fmt::Display for FrameTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "timed out waiting for {}", self.waiting_for)
    }
}

impl core::error::Error for FrameTimeout {}

impl Vdp1 for MemoryVram<'_> {
    fn list_flipped(&mut self) {}

    fn frame_changed(&mut self) -> bool {
        true
    }

    fn wait_frame_change(&mut self) -> Result<(), FrameTimeout> {
        Ok(())
    }

    /// Nothing draws from it: nothing is ever cut short.
    fn last_frame_end(&mut self) -> FrameEnd {
        FrameEnd::Finished
    }
}

/// VRAM in memory: the host's and the tests' (and what the software VDP1 reads).
pub struct MemoryVram<'a> {
    bytes: &'a mut [u8],
}

impl<'a> MemoryVram<'a> {
    /// VRAM held in `bytes` (usually [`VRAM_SIZE`] long; writes past its end are dropped).
    pub fn new(bytes: &'a mut [u8]) -> Self {
        Self { bytes }
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        self.bytes
    }
}

impl Vram for MemoryVram<'_> {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        let start = address as usize;
        let end = (start + bytes.len()).min(self.bytes.len());
        if let Some(target) = self.bytes.get_mut(start..end) {
            target.copy_from_slice(&bytes[..end - start]);
        }
    }
}

/// How VRAM is shared out. Every region starts on an 8-byte boundary (addresses are
/// stored / 8 in command tables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VramLayout {
    /// Command tables, 32 bytes each.
    pub commands: Range<u32>,
    /// Gouraud tables written each frame (lighting), 8 bytes each.
    pub frame_gouraud: Range<u32>,
    /// Gouraud tables of loaded models (GOUR), 8 bytes each.
    pub gouraud: Range<u32>,
    /// Textures and their lookup tables.
    pub textures: Range<u32>,
}

impl Default for VramLayout {
    /// 4,096 command tables (128 KiB), 2,048 frame and 2,048 model gouraud tables (16 KiB
    /// each), and 352 KiB of textures.
    fn default() -> Self {
        Self {
            commands: 0x00000..0x20000,
            frame_gouraud: 0x20000..0x24000,
            gouraud: 0x24000..0x28000,
            textures: 0x28000..VRAM_SIZE,
        }
    }
}

/// A region of VRAM, a table or a cache is full, or a texture is not one the VDP1 draws.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VramError {
    /// No room left in a VRAM region.
    RegionFull {
        /// Which region.
        region: &'static str,
        /// The bytes asked for.
        needed: u32,
        /// The bytes left.
        available: u32,
    },
    /// A fixed-capacity table (of textures, gouraud tables, commands) is full.
    TableFull {
        /// Which table.
        table: &'static str,
        /// Its capacity.
        capacity: usize,
    },
    /// A TEXT name has no TIMG texture and no pixels were given for it.
    MissingTexture {
        /// The TEXT index.
        index: usize,
    },
    /// A texture's size is not one the VDP1 draws (a width that is a multiple of 8 from 8
    /// to 504, a height from 1 to 255).
    TextureSize {
        /// The TEXT index.
        index: usize,
        /// Its width in pixels.
        width: u16,
        /// Its height in pixels.
        height: u16,
    },
    /// A texture's pixel format is neither RGB555 (0) nor 16 colours (1).
    TextureFormat {
        /// The TEXT index.
        index: usize,
        /// The format given.
        format: u16,
    },
    /// A texture has fewer bytes than its size and format need.
    TexturePixelsShort {
        /// The TEXT index.
        index: usize,
        /// The bytes its size and format need (lookup table included).
        needed: usize,
        /// The bytes given.
        available: usize,
    },
    /// A texture was given for a TEXT index the model does not have.
    NoSuchTexture {
        /// The TEXT index.
        index: usize,
        /// The model's number of TEXT names.
        count: usize,
    },
}

impl fmt::Display for VramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            VramError::RegionFull {
                region,
                needed,
                available,
            } => {
                write!(f, "VDP1 VRAM: the {region} region is full ({needed} bytes needed, {available} left)")
            }
            VramError::TableFull { table, capacity } => {
                write!(f, "the {table} table is full (capacity {capacity})")
            }
            VramError::MissingTexture { index } => {
                write!(
                    f,
                    "texture {index} of TEXT is not embedded and no pixels were given for it"
                )
            }
            VramError::TextureSize {
                index,
                width,
                height,
            } => {
                write!(f, "texture {index} of TEXT is {width}x{height}: the VDP1 draws a width that is a multiple of 8 from 8 to 504 and a height from 1 to 255")
            }
            VramError::TextureFormat { index, format } => {
                write!(f, "texture {index} of TEXT has pixel format {format}, expected 0 (RGB555) or 1 (16 colours)")
            }
            VramError::TexturePixelsShort {
                index,
                needed,
                available,
            } => {
                write!(f, "texture {index} of TEXT has {available} bytes of pixels, its size and format need {needed}")
            }
            VramError::NoSuchTexture { index, count } => {
                write!(f, "texture {index} given for a model of {count} TEXT names")
            }
        }
    }
}

impl core::error::Error for VramError {}

/// The alignment and size granule of a texture's block: a block starts with its lookup
/// table when it has one, and the VDP1 reads a lookup table from a 32-byte boundary (it
/// ignores `CMDCOLR`'s two low bits: the VDP1 manual's colour table address; Mednafen reads
/// the table at `(CMDCOLR & !3) * 8`). Every block a multiple of it, so that the next one
/// stays aligned and a VRAM count is the sum of its blocks (`jomc`'s budget counts so).
pub const TEXTURE_BLOCK_BYTES: u32 = 32;

/// The alignment and size granule of the other regions' blocks: the VDP1 takes their
/// addresses / 8.
pub(crate) const BLOCK_BYTES: u32 = 8;

/// Hands out blocks of a region, each a multiple of its granule and aligned to it (8 bytes,
/// or [`TEXTURE_BLOCK_BYTES`] for textures), first from blocks given back, then from the
/// untouched end.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct RegionAllocator<const FREE: usize> {
    /// `None` only in [`UNPLACED`](Self::UNPLACED).
    name: Option<&'static str>,
    /// Blocks are multiples of `1 << granule_shift` bytes (a shift, so that `UNPLACED` is
    /// all zero: a granule of 8 would move every cache in a `static` from `.bss` into
    /// `.data`, and into the program's file).
    granule_shift: u32,
    next: u32,
    end: u32,
    free: heapless::Vec<Range<u32>, FREE>,
    /// What was free at the last [`save`](Self::save).
    saved: Saved<FREE>,
}

/// What a [`RegionAllocator`] had free when saved: kept beside it, not as a copy on the
/// stack (the list of 256 free blocks of the C interface's gouraud cache is 2 KiB, of the
/// 8 KiB a C caller has). Not part of what the allocator is: any two are equal.
#[derive(Clone, Debug)]
struct Saved<const FREE: usize> {
    next: u32,
    free: heapless::Vec<Range<u32>, FREE>,
}

impl<const FREE: usize> PartialEq for Saved<FREE> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<const FREE: usize> Eq for Saved<FREE> {}

impl<const FREE: usize> Saved<FREE> {
    const NOTHING: Self = Self {
        next: 0,
        free: heapless::Vec::new(),
    };
}

impl<const FREE: usize> RegionAllocator<FREE> {
    /// An allocator of nothing, all zero: what a cache in a `static` (in `.bss`) starts
    /// as, before it is given its region.
    pub(crate) const UNPLACED: Self = Self {
        name: None,
        granule_shift: 0,
        next: 0,
        end: 0,
        free: heapless::Vec::new(),
        saved: Saved::NOTHING,
    };

    /// Blocks of `granule` bytes (a power of two) in `region`.
    pub(crate) const fn new(name: &'static str, region: Range<u32>, granule: u32) -> Self {
        Self {
            name: Some(name),
            granule_shift: granule.trailing_zeros(),
            next: region.start.next_multiple_of(granule),
            end: region.end,
            free: heapless::Vec::new(),
            saved: Saved::NOTHING,
        }
    }

    /// Everything free again, in `region` named `name`: in place (no copy of an empty
    /// allocator, which the SH-2's compiler would keep as a constant as large as its list).
    pub(crate) fn reset(&mut self, name: &'static str, region: Range<u32>, granule: u32) {
        self.name = Some(name);
        self.granule_shift = granule.trailing_zeros();
        self.next = region.start.next_multiple_of(granule);
        self.end = region.end;
        self.free.clear();
    }

    /// Remembers what is free now, for [`restore`](Self::restore).
    pub(crate) fn save(&mut self) {
        self.saved.next = self.next;
        self.saved.free.clear();
        // As long as `free`: it fits.
        let _ = self.saved.free.extend_from_slice(&self.free);
    }

    /// Back to what was free at the last [`save`](Self::save) (the blocks handed out
    /// since are free again).
    pub(crate) fn restore(&mut self) {
        self.next = self.saved.next;
        self.free.clear();
        let _ = self.free.extend_from_slice(&self.saved.free);
    }

    pub(crate) fn allocate(&mut self, size: u32) -> Result<u32, VramError> {
        let size = size.next_multiple_of(1 << self.granule_shift);
        if let Some(i) = self
            .free
            .iter()
            .position(|block| block.len() as u32 >= size)
        {
            let block = &mut self.free[i];
            let address = block.start;
            block.start += size;
            if block.start == block.end {
                self.free.swap_remove(i);
            }
            return Ok(address);
        }
        let available = self.end.saturating_sub(self.next);
        if size > available {
            return Err(VramError::RegionFull {
                region: match self.name {
                    Some(name) => name,
                    None => "unplaced",
                },
                needed: size,
                available,
            });
        }
        let address = self.next;
        self.next += size;
        Ok(address)
    }

    /// Gives a block back: the end moves back when it was the last one (and over the
    /// blocks given back before it that are then last), otherwise it is kept for a later
    /// block of its size or less (dropped if that list is full).
    pub(crate) fn release(&mut self, address: u32, size: u32) {
        let size = size.next_multiple_of(1 << self.granule_shift);
        if address + size == self.next {
            self.next = address;
            while let Some(i) = self.free.iter().position(|block| block.end == self.next) {
                self.next = self.free.swap_remove(i).start;
            }
        } else {
            let _ = self.free.push(address..address + size);
        }
    }
}

// `hw::init_display` writes `hw::vdp1::END_COMMAND` at VRAM 0 without this module's
// types: it must be the command that ends a list.
const _: () = {
    let end = crate::hw::vdp1::END_COMMAND;
    assert!(u16::from_be_bytes([end[0], end[1]]) == super::command::CTRL_END);
};

/// The tables as the bytes they are in memory, for one DMA.
///
/// # Safety
/// `T` must be `#[repr(C)]` without padding (every byte initialised).
#[cfg(all(jom_sh2, target_endian = "big"))]
unsafe fn table_bytes<T>(tables: &[T]) -> &[u8] {
    // SAFETY: the caller's promise; the length is the slice's own size in bytes.
    unsafe {
        core::slice::from_raw_parts(tables.as_ptr().cast::<u8>(), core::mem::size_of_val(tables))
    }
}

/// The Saturn's VDP1 VRAM as a [`Vram`]: each write by SCU DMA when it can, else by the CPU
/// ([`SaturnVram`](crate::hw::SaturnVram)'s own methods).
#[cfg(jom_sh2)]
impl Vram for crate::hw::SaturnVram {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        self.write_bytes(address, bytes);
    }

    /// The tables as they are in memory: on the big-endian SH-2 a `#[repr(C)]`
    /// [`CommandTable`] of 16-bit fields is exactly the 32 bytes the VDP1 reads, so the
    /// whole array goes in one DMA when it can.
    fn write_commands(&mut self, address: u32, tables: &[CommandTable]) {
        // SAFETY: `CommandTable` is `#[repr(C)]`, 32 bytes of 16-bit fields with no
        // padding (asserted in vdp1::command).
        #[cfg(target_endian = "big")]
        if self.write_by_dma(address, unsafe { table_bytes(tables) }) {
            return;
        }
        for (i, table) in tables.iter().enumerate() {
            self.write_command(address + 32 * i as u32, table);
        }
    }

    /// The tables as they are in memory (a `#[repr(C)]` [`GouraudTable`] of four 16-bit
    /// colours is the 8 bytes the VDP1 reads on the big-endian SH-2): a frame's tables in
    /// one DMA instead of a CPU write each.
    fn write_gouraud_tables(&mut self, address: u32, tables: &[GouraudTable]) {
        // SAFETY: `GouraudTable` is `#[repr(C)]`, four `u16` with no padding (8 bytes,
        // asserted in vdp1::command).
        #[cfg(target_endian = "big")]
        if self.write_by_dma(address, unsafe { table_bytes(tables) }) {
            return;
        }
        for (i, table) in tables.iter().enumerate() {
            self.write_gouraud(address + 8 * i as u32, table);
        }
    }
}

/// The Saturn's VDP1 (1-cycle mode, drawing started by the frame change: see
/// [`hw::init_display`](crate::hw)) changes frame at the end of VBlank, and may go on
/// drawing the old list through the VBlank: the VDP1 manual's frame-change sequence (FBCR,
/// section 4.2) changes "at the end of the V blank", and Mednafen does so (its `vdp1.cpp`
/// swaps the frame buffers and starts drawing at the first HBlank after the VBlank's end).
/// The SCU flags every VBlank's end and every HBlank's start in `IST` (with the interrupts
/// masked, as [`hw::mask_interrupts`](crate::hw) leaves them), so a frame change that came
/// while the CPU worked is known without waiting for the next one: the VBlank's end
/// flagged since the flip, then an HBlank's start flagged since the VBlank's end was first
/// seen. Should a game's own interrupt handler take the flags, the wait still sees a whole
/// VBlank end in `TVSTAT`, then the next HBlank.
///
/// At that frame change the VDP1 copies `EDSR`'s `CEF` (the list's end command fetched in
/// the field that ends) into `BEF`, and the address of the command table it was at into
/// `LOPR` (the VDP1 manual's EDSR and LOPR; Mednafen's `vdp1.cpp` does both at its frame
/// buffer swap, aborting the drawing that has not ended), and keeps them until the next
/// change: [`last_frame_end`](Vdp1::last_frame_end) reads them
/// ([`SaturnVram::last_frame_end`](crate::hw::SaturnVram::last_frame_end)). Yabause (0.9.14)
/// draws a whole list at once at the VBlank's end and sets `CEF` there, so it never
/// reports a list cut short.
#[cfg(jom_sh2)]
impl Vdp1 for crate::hw::SaturnVram {
    fn prepare_flip(&mut self) {
        crate::hw::SaturnVram::prepare_flip(self);
    }

    fn list_flipped(&mut self) {
        self.watch_frame_change();
    }

    fn frame_changed(&mut self) -> bool {
        self.frame_changed_since_watch()
    }

    fn wait_frame_change(&mut self) -> Result<(), FrameTimeout> {
        self.wait_frame_change_with(|| ())
            .map_err(|timeout| FrameTimeout {
                waiting_for: timeout.waiting_for,
            })
    }

    fn last_frame_end(&mut self) -> FrameEnd {
        crate::hw::SaturnVram::last_frame_end(self)
    }
}
