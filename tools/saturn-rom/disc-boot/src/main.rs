//! The program our boot ROM (`saturn-rom --disc`) starts in place of a BIOS: it boots the
//! disc in the drive as a BIOS does, so that an emulator given the ROM runs any of our CD
//! images (and their programs are bounded by work RAM, not by the ROM).
//!
//! 1. The IP (the disc's sector 0) must start with the hardware id `SEGA SEGASATURN `;
//!    its first-read address (IP offset 0xF0) is where the program goes.
//! 2. The first file of the root directory (ISO 9660, `jom::iso9660`: what a BIOS loads,
//!    `saturn-iso`'s `0PROGRAM.BIN`) is read whole into low work RAM: this program itself
//!    runs in high work RAM, where that file goes.
//! 3. The ROM's `enter` routine (`saturn_rom::ENTER`, code in ROM that touches no RAM but
//!    its destination) copies it to the first-read address, purges the cache and jumps
//!    there, interrupts masked, as a program started by a BIOS expects.
//!
//! A disc it cannot boot leaves the back screen in a colour that says why ([`Refusal`]),
//! never a hang on a wait without end: every CD block wait is bounded (`jom::hw::cd`).
//! What a BIOS does and this does not (the IP's own code, the security check, the area
//! codes): docs/boot.md.
#![no_std]
#![no_main]

use jom::hw::cd::CdSectors;
use jom::hw::{self, Saturn};
use jom::iso9660::{Iso9660, Iso9660Error, SectorSource};

/// The ROM's routine that copies `size` bytes from `source` to `destination` (both
/// multiples of 4), purges the cache and jumps to `destination` (`tools/saturn-rom`'s
/// `ENTER`, ROM offset 0x428: the ROM is at address 0).
const ROM_ENTER: usize = 0x428;

/// The IP's hardware id, at its offset 0.
const HARDWARE_ID: &[u8; 16] = b"SEGA SEGASATURN ";
/// The IP's first-read address (big endian), at offset 0xF0.
const FIRST_READ_OFFSET: usize = 0xF0;
/// High work RAM from the first address a program may be loaded at (the BIOS's work area
/// and the IP are below it) to its end.
const PROGRAM_RAM: core::ops::Range<u32> = 0x0600_4000..0x0610_0000;
/// The most a program can be: all of [`PROGRAM_RAM`].
const MAX_PROGRAM: usize = (PROGRAM_RAM.end - PROGRAM_RAM.start) as usize;

/// Where the program is read before it is copied to its address.
#[link_section = ".lwram.program"]
static mut PROGRAM: jom::Aligned<[u8; MAX_PROGRAM]> = jom::Aligned([0; MAX_PROGRAM]);

/// Why a disc does not boot, shown as the back screen's colour (RGB555 and bit 15).
#[derive(Clone, Copy, Debug)]
enum Refusal {
    /// Magenta: the CD block or the volume could not be read (no disc, not ISO 9660, a
    /// read that failed).
    Unreadable = 0x8000 | 31 << 10 | 31,
    /// Yellow: sector 0 is not a Saturn IP (no `SEGA SEGASATURN `).
    NotASaturnDisc = 0x8000 | 31 << 5 | 31,
    /// Blue: the root directory has no file.
    NoProgram = 0x8000 | 31 << 10,
    /// Cyan: the first-read address and the file's size do not fit high work RAM from
    /// 0x06004000, or the address is not a multiple of 4.
    DoesNotFit = 0x8000 | 31 << 10 | 31 << 5,
}

impl From<Iso9660Error> for Refusal {
    fn from(error: Iso9660Error) -> Self {
        match error {
            Iso9660Error::NotFound => Self::NoProgram,
            _ => Self::Unreadable,
        }
    }
}

fn main(mut saturn: Saturn) -> ! {
    match saturn
        .cd
        .sectors()
        .map_err(|_| Refusal::Unreadable)
        .and_then(load)
    {
        Ok((address, size)) => enter(address, size),
        Err(refusal) => {
            hw::init_display(refusal as u16);
            loop {}
        }
    }
}

jom::entry!(main);

/// Reads the IP and the first-read file into [`PROGRAM`]: the first-read address and the
/// file's size.
fn load(sectors: CdSectors<'_>) -> Result<(u32, usize), Refusal> {
    let mut volume = Iso9660::open(sectors)?;
    let mut ip = jom::Aligned([0u8; 2048]);
    volume
        .source_mut()
        .read_sectors(0, &mut ip.0)
        .map_err(|_| Refusal::Unreadable)?;
    let address = first_read_address(&ip.0)?;
    let file = volume.first_file()?;
    if !fits(address, file.size) {
        return Err(Refusal::DoesNotFit);
    }
    // SAFETY: the one reference to the buffer, taken once.
    let buffer = unsafe { &mut (*core::ptr::addr_of_mut!(PROGRAM)).0 };
    let size = volume.read_file(file, buffer)?;
    Ok((address, size))
}

/// The IP's first-read address, if the sector is a Saturn IP.
fn first_read_address(ip: &[u8; 2048]) -> Result<u32, Refusal> {
    if &ip[..HARDWARE_ID.len()] != HARDWARE_ID {
        return Err(Refusal::NotASaturnDisc);
    }
    let field = &ip[FIRST_READ_OFFSET..FIRST_READ_OFFSET + 4];
    Ok(u32::from_be_bytes([field[0], field[1], field[2], field[3]]))
}

/// Whether `size` bytes at `address` lie in [`PROGRAM_RAM`], word aligned.
fn fits(address: u32, size: u32) -> bool {
    address.is_multiple_of(4) && PROGRAM_RAM.contains(&address) && size <= PROGRAM_RAM.end - address
}

/// Hands the program read to the ROM's `enter`, which copies it to `address` and jumps.
fn enter(address: u32, size: usize) -> ! {
    type Enter = unsafe extern "C" fn(destination: u32, source: *const u8, size: usize) -> !;
    // SAFETY: the ROM's routine at that address has this signature (saturn-rom's ENTER);
    // the source is the whole buffer read, rounded up to words within it.
    unsafe {
        let enter: Enter = core::mem::transmute(ROM_ENTER);
        let source = core::ptr::addr_of!(PROGRAM).cast::<u8>();
        enter(address, source, size.next_multiple_of(4))
    }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    hw::init_display(Refusal::Unreadable as u16);
    loop {}
}
