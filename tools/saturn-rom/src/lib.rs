//! `saturn-rom`: a 512 KiB Sega Saturn boot ROM of our own that starts a raw SH-2 program.
//!
//! Given to an emulator as its BIOS (Mednafen: `-ss.bios_sanity 0 -ss.bios_jp ROM
//! -ss.bios_na_eu ROM`), it lets the emulator run our programs without Sega's BIOS, which
//! must never be used or shipped here. It holds no Sega code. The image, big endian:
//!
//! | ROM offset | What |
//! |---|---|
//! | 0x000 | the SH-2 exception vector table: power-on and manual reset PC ([`ENTRY`]) and SP, every other vector [`HALT`] |
//! | 0x400 | the header: `JOMBOOT1`, load address, payload offset, payload size, stack |
//! | 0x420 | the loader ([`LOADER`], assembled from `src/loader.s`) |
//! | 0x800 | the payload: the program, padded with zeros to a multiple of 4 |
//! | ... | zeros up to 512 KiB |
//!
//! Its payload is a program (`--program`), or, for any of our CD images, the disc boot
//! program (`disc-boot/`, `make boot-rom`: build/saturn-boot.rom), which loads the disc's
//! first-read file as a BIOS does and hands it to the loader's [`ENTER`].
//!
//! The loader masks interrupts (SR = 0xF0), points VBR at the table, masks every SCU
//! interrupt and clears the pending ones, waits for the CD block and has it authenticate
//! the disc ("Authenticate Device", as a BIOS does at boot: Mednafen delivers no data
//! sector before it; every wait bounded), copies the payload to the load address with
//! 32-bit moves, purges and enables the SH-2 cache and jumps to the load address with SR
//! still 0xF0 and r15 the stack of the header. What it does not do (a real BIOS does) is
//! listed in docs/boot.md: bus state controller and memory refresh set-up, the slave
//! SH-2, sound, the SMPC's start-up commands, the boot animation, reading IP.BIN, and
//! the security check of a real disc.

use std::fmt;
use std::io::Write;
use std::path::Path;

/// The ROM's size: the Saturn BIOS area, 512 KiB at 0x00000000.
pub const ROM_SIZE: usize = 512 * 1024;
/// Where the header starts.
pub const HEADER_OFFSET: usize = 0x400;
/// The header's magic.
pub const MAGIC: &[u8; 8] = b"JOMBOOT1";
/// Where the loader starts.
pub const LOADER_OFFSET: usize = 0x420;
/// The address every exception vector but the resets points to: the loader's first
/// instruction, a branch to itself (an unexpected exception stops there).
pub const HALT: u32 = LOADER_OFFSET as u32;
/// The reset entry: the loader's `start` (ROM is at address 0).
pub const ENTRY: u32 = LOADER_OFFSET as u32 + 4;
/// The loader's `enter(destination, source, size)`, callable as a C function by the
/// program the ROM started (`tools/saturn-rom/disc-boot`, which reads a program from the
/// disc): copies `size` bytes (a multiple of 4) from `source` to `destination`, purges and
/// enables the cache and jumps to `destination`. It runs from ROM and uses no RAM.
pub const ENTER: u32 = LOADER_OFFSET as u32 + 8;
/// Where the payload starts.
pub const PAYLOAD_OFFSET: usize = 0x800;
/// The largest program the ROM holds.
pub const MAX_PROGRAM_SIZE: usize = ROM_SIZE - PAYLOAD_OFFSET;
/// The default load address: high work RAM, where our programs are linked (`link.x`).
pub const DEFAULT_LOAD_ADDRESS: u32 = 0x0600_4000;
/// The default initial stack: just below the default load address, growing down in high
/// work RAM (the loader itself uses no stack; `jom`'s start-up code sets its own).
pub const DEFAULT_STACK: u32 = 0x0600_4000;

/// The loader: `src/loader.s` assembled (`sh-elf-as --big`, `sh-elf-objcopy -O binary`).
/// A test assembles the file again, when `sh-elf-as` is installed, and compares.
pub const LOADER: [u8; 212] = [
    0xaf, 0xfe, 0x00, 0x09, // 0x420: bra 420; nop
    0xa0, 0x0f, 0x00, 0x09, // 0x424: bra 446; nop
    0x61, 0x43, 0x36, 0x4c, // 0x428: mov r4,r1; add r4,r6
    0x34, 0x62, 0x89, 0x03, // 0x42c: cmp/hs r6,r4; bt 438
    0x60, 0x56, 0x24, 0x02, // 0x430: mov.l @r5+,r0; mov.l r0,@r4
    0xaf, 0xfa, 0x74, 0x04, // 0x434: bra 42c; add #4,r4
    0xd2, 0x28, 0xe0, 0x10, // 0x438: mov.l 4dc,r2 ! fffffe92; mov #16,r0
    0x22, 0x00, 0xe0, 0x01, // 0x43c: mov.b r0,@r2; mov #1,r0
    0x22, 0x00, 0x41, 0x2b, // 0x440: mov.b r0,@r2; jmp @r1
    0x00, 0x09, 0xd0, 0x21, // 0x444: nop; mov.l 4cc,r0 ! f0
    0x40, 0x0e, 0xe0, 0x00, // 0x448: ldc r0,sr; mov #0,r0
    0x40, 0x2e, 0xd1, 0x26, // 0x44c: ldc r0,vbr; mov.l 4e8,r1 ! ffffffe0
    0x60, 0x12, 0x92, 0x39, // 0x450: mov.l @r1,r0; mov.w 4c8,r2 ! 8000
    0x20, 0x28, 0x89, 0x0a, // 0x454: tst r2,r0; bt 46e
    0xd1, 0x20, 0xe0, 0x10, // 0x458: mov.l 4dc,r1 ! fffffe92; mov #16,r0
    0x21, 0x00, 0xe0, 0x01, // 0x45c: mov.b r0,@r1; mov #1,r0
    0x21, 0x00, 0xd1, 0x23, // 0x460: mov.b r0,@r1; mov.l 4f0,r1 ! 60002ac
    0x6f, 0x12, 0xd1, 0x21, // 0x464: mov.l @r1,r15; mov.l 4ec,r1 ! 6000250
    0x60, 0x12, 0x40, 0x2b, // 0x468: mov.l @r1,r0; jmp @r0
    0x00, 0x09, 0xd1, 0x18, // 0x46c: nop; mov.l 4d0,r1 ! 25fe00a0
    0xd0, 0x18, 0x21, 0x02, // 0x470: mov.l 4d4,r0 ! bfff; mov.l r0,@r1
    0xe0, 0x00, 0x11, 0x01, // 0x474: mov #0,r0; mov.l r0,@(4,r1)
    0xd1, 0x19, 0xe2, 0x01, // 0x478: mov.l 4e0,r1 ! 25890008; mov #1,r2
    0xb0, 0x1a, 0x00, 0x09, // 0x47c: bsr 4b4; nop
    0x23, 0x38, 0x89, 0x11, // 0x480: tst r3,r3; bt 4a8
    0x90, 0x1e, 0x21, 0x01, // 0x484: mov.w 4c4,r0 ! fdfe; mov.w r0,@r1
    0x90, 0x1d, 0x81, 0x18, // 0x488: mov.w 4c6,r0 ! e000; mov.w r0,@(16,r1)
    0xe0, 0x00, 0x81, 0x1a, // 0x48c: mov #0,r0; mov.w r0,@(20,r1)
    0x81, 0x1c, 0x81, 0x1e, // 0x490: mov.w r0,@(24,r1); mov.w r0,@(28,r1)
    0xe2, 0x01, 0xb0, 0x0d, // 0x494: mov #1,r2; bsr 4b4
    0x00, 0x09, 0x23, 0x38, // 0x498: nop; tst r3,r3
    0x89, 0x04, 0x85, 0x1e, // 0x49c: bt 4a8; mov.w @(28,r1),r0
    0xe2, 0x02, 0x42, 0x18, // 0x4a0: mov #2,r2; shll8 r2
    0xb0, 0x06, 0x00, 0x09, // 0x4a4: bsr 4b4; nop
    0xd1, 0x0b, 0x54, 0x12, // 0x4a8: mov.l 4d8,r1 ! 400; mov.l @(8,r1),r4
    0x55, 0x13, 0x56, 0x14, // 0x4ac: mov.l @(12,r1),r5; mov.l @(16,r1),r6
    0xaf, 0xba, 0x5f, 0x15, // 0x4b0: bra 428; mov.l @(20,r1),r15
    0xd3, 0x0b, 0x60, 0x11, // 0x4b4: mov.l 4e4,r3 ! 800000; mov.w @r1,r0
    0x20, 0x28, 0x8b, 0x01, // 0x4b8: tst r2,r0; bf 4c0
    0x43, 0x10, 0x8b, 0xfa, // 0x4bc: dt r3; bf 4b6
    0x00, 0x0b, 0x00, 0x09, // 0x4c0: rts; nop
    0xfd, 0xfe, 0xe0, 0x00, // 0x4c4: .word 0xfdfe, 0xe000
    0x80, 0x00, 0x00, 0x09, // 0x4c8: .word 0x8000; (align) nop
    0x00, 0x00, 0x00, 0xf0, // 0x4cc: .long 0x000000f0
    0x25, 0xfe, 0x00, 0xa0, // 0x4d0: .long 0x25fe00a0
    0x00, 0x00, 0xbf, 0xff, // 0x4d4: .long 0x0000bfff
    0x00, 0x00, 0x04, 0x00, // 0x4d8: .long 0x00000400
    0xff, 0xff, 0xfe, 0x92, // 0x4dc: .long 0xfffffe92
    0x25, 0x89, 0x00, 0x08, // 0x4e0: .long 0x25890008
    0x00, 0x80, 0x00, 0x00, // 0x4e4: .long 0x00800000
    0xff, 0xff, 0xff, 0xe0, // 0x4e8: .long 0xffffffe0
    0x06, 0x00, 0x02, 0x50, // 0x4ec: .long 0x06000250
    0x06, 0x00, 0x02, 0xac, // 0x4f0: .long 0x060002ac
];

const _: () = assert!(LOADER_OFFSET + LOADER.len() <= PAYLOAD_OFFSET);
const _: () = assert!(HEADER_OFFSET + 24 <= LOADER_OFFSET);

/// The work RAM areas a program can be loaded into: (name, start, end).
pub const RAM_AREAS: [(&str, u32, u32); 2] = [
    ("low work RAM", 0x0020_0000, 0x0030_0000),
    ("high work RAM", 0x0600_0000, 0x0610_0000),
];

/// An error: one message, for `saturn-rom: <message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn err<T>(message: String) -> Result<T, Error> {
    Err(Error(message))
}

/// Parses a 32-bit number, decimal or `0x` hexadecimal (`_` separators allowed).
pub fn parse_u32(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(&hex.replace('_', ""), 16),
        None => t.replace('_', "").parse::<u32>(),
    };
    parsed.map_err(|_| format!("{text:?} is not a 32-bit number (decimal or 0x hexadecimal)"))
}

/// What the ROM starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RomConfig {
    /// Where the program is copied and entered.
    pub load_address: u32,
    /// The initial stack pointer (reset vectors and the header).
    pub stack: u32,
}

impl Default for RomConfig {
    fn default() -> Self {
        Self {
            load_address: DEFAULT_LOAD_ADDRESS,
            stack: DEFAULT_STACK,
        }
    }
}

fn put_u32(rom: &mut [u8], offset: usize, value: u32) {
    rom[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
}

/// Builds the ROM image for `program` (a raw binary linked at `config.load_address`).
pub fn build_rom(program: &[u8], config: &RomConfig) -> Result<Vec<u8>, Error> {
    if program.is_empty() {
        return err("the program is empty".into());
    }
    if program.len() > MAX_PROGRAM_SIZE {
        return err(format!(
            "the program is {} bytes, the ROM has room for {MAX_PROGRAM_SIZE} ({} KiB minus {PAYLOAD_OFFSET:#x} bytes of vectors, header and loader)",
            program.len(),
            ROM_SIZE / 1024
        ));
    }
    let load = config.load_address;
    if !load.is_multiple_of(4) {
        return err(format!("load address {load:#010x} is not a multiple of 4"));
    }
    if !config.stack.is_multiple_of(4) {
        return err(format!(
            "stack {:#010x} is not a multiple of 4",
            config.stack
        ));
    }
    let padded = program.len().div_ceil(4) * 4;
    let end = u64::from(load) + padded as u64;
    let Some((area, _, area_end)) = RAM_AREAS
        .iter()
        .find(|(_, start, end)| (*start..*end).contains(&load))
    else {
        return err(format!(
            "load address {load:#010x} is not in work RAM (low 0x00200000-0x002FFFFF or high 0x06000000-0x060FFFFF)"
        ));
    };
    if end > u64::from(*area_end) {
        return err(format!(
            "the program ({} bytes at {load:#010x}) runs past the end of {area} ({area_end:#010x})",
            program.len()
        ));
    }

    let mut rom = vec![0u8; ROM_SIZE];
    // The vector table: every vector stops at HALT but the resets.
    for vector in 0..256 {
        put_u32(&mut rom, vector * 4, HALT);
    }
    for reset in [0, 8] {
        put_u32(&mut rom, reset, ENTRY);
        put_u32(&mut rom, reset + 4, config.stack);
    }
    rom[HEADER_OFFSET..HEADER_OFFSET + 8].copy_from_slice(MAGIC);
    put_u32(&mut rom, HEADER_OFFSET + 8, load);
    put_u32(&mut rom, HEADER_OFFSET + 12, PAYLOAD_OFFSET as u32);
    put_u32(&mut rom, HEADER_OFFSET + 16, padded as u32);
    put_u32(&mut rom, HEADER_OFFSET + 20, config.stack);
    rom[LOADER_OFFSET..LOADER_OFFSET + LOADER.len()].copy_from_slice(&LOADER);
    rom[PAYLOAD_OFFSET..PAYLOAD_OFFSET + program.len()].copy_from_slice(program);
    Ok(rom)
}

/// Reads `program`, builds the ROM and writes it to `output` (through a temporary file
/// beside it, renamed at the end: a failure leaves no output file). Returns the program's
/// size.
pub fn make_rom(program: &Path, config: &RomConfig, output: &Path) -> Result<usize, Error> {
    let bytes = std::fs::read(program)
        .map_err(|e| Error(format!("cannot read {}: {e}", program.display())))?;
    let rom = build_rom(&bytes, config)?;
    let dir = match output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let write = || -> std::io::Result<()> {
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        tmp.write_all(&rom)?;
        tmp.as_file().sync_all()?;
        tmp.persist(output).map_err(|e| e.error)?;
        Ok(())
    };
    write().map_err(|e| Error(format!("cannot write {}: {e}", output.display())))?;
    Ok(bytes.len())
}

#[cfg(test)]
mod tests;
