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
pub const LOADER: [u8; 204] = [
    0xaf, 0xfe, 0x00, 0x09, // 0x420: bra 420; nop
    0xd0, 0x27, 0x40, 0x0e, // 0x424: mov.l 4c4,r0 ! f0; ldc r0,sr
    0xe0, 0x00, 0x40, 0x2e, // 0x428: mov #0,r0; ldc r0,vbr
    0xd1, 0x2c, 0x60, 0x12, // 0x42c: mov.l 4e0,r1 ! ffffffe0; mov.l @r1,r0
    0x92, 0x47, 0x20, 0x28, // 0x430: mov.w 4c2,r2 ! 8000; tst r2,r0
    0x89, 0x0a, 0xd1, 0x27, // 0x434: bt 44c; mov.l 4d4,r1 ! fffffe92
    0xe0, 0x10, 0x21, 0x00, // 0x438: mov #16,r0; mov.b r0,@r1
    0xe0, 0x01, 0x21, 0x00, // 0x43c: mov #1,r0; mov.b r0,@r1
    0xd1, 0x29, 0x6f, 0x12, // 0x440: mov.l 4e8,r1 ! 60002ac; mov.l @r1,r15
    0xd1, 0x27, 0x60, 0x12, // 0x444: mov.l 4e4,r1 ! 6000250; mov.l @r1,r0
    0x40, 0x2b, 0x00, 0x09, // 0x448: jmp @r0; nop
    0xd1, 0x1e, 0xd0, 0x1f, // 0x44c: mov.l 4c8,r1 ! 25fe00a0; mov.l 4cc,r0 ! bfff
    0x21, 0x02, 0xe0, 0x00, // 0x450: mov.l r0,@r1; mov #0,r0
    0x11, 0x01, 0xd1, 0x20, // 0x454: mov.l r0,@(4,r1); mov.l 4d8,r1 ! 25890008
    0xe2, 0x01, 0xb0, 0x28, // 0x458: mov #1,r2; bsr 4ae
    0x00, 0x09, 0x23, 0x38, // 0x45c: nop; tst r3,r3
    0x89, 0x11, 0x90, 0x2c, // 0x460: bt 486; mov.w 4be,r0 ! fdfe
    0x21, 0x01, 0x90, 0x2b, // 0x464: mov.w r0,@r1; mov.w 4c0,r0 ! e000
    0x81, 0x18, 0xe0, 0x00, // 0x468: mov.w r0,@(16,r1); mov #0,r0
    0x81, 0x1a, 0x81, 0x1c, // 0x46c: mov.w r0,@(20,r1); mov.w r0,@(24,r1)
    0x81, 0x1e, 0xe2, 0x01, // 0x470: mov.w r0,@(28,r1); mov #1,r2
    0xb0, 0x1b, 0x00, 0x09, // 0x474: bsr 4ae; nop
    0x23, 0x38, 0x89, 0x04, // 0x478: tst r3,r3; bt 486
    0x85, 0x1e, 0xe2, 0x02, // 0x47c: mov.w @(28,r1),r0; mov #2,r2
    0x42, 0x18, 0xb0, 0x14, // 0x480: shll8 r2; bsr 4ae
    0x00, 0x09, 0xd1, 0x12, // 0x484: nop; mov.l 4d0,r1 ! 400
    0x52, 0x12, 0x53, 0x13, // 0x488: mov.l @(8,r1),r2; mov.l @(12,r1),r3
    0x54, 0x14, 0x5f, 0x15, // 0x48c: mov.l @(16,r1),r4; mov.l @(20,r1),r15
    0x65, 0x23, 0x34, 0x2c, // 0x490: mov r2,r5; add r2,r4
    0x32, 0x42, 0x89, 0x03, // 0x494: cmp/hs r4,r2; bt 4a0
    0x60, 0x36, 0x22, 0x02, // 0x498: mov.l @r3+,r0; mov.l r0,@r2
    0xaf, 0xfa, 0x72, 0x04, // 0x49c: bra 494; add #4,r2
    0xd1, 0x0c, 0xe0, 0x10, // 0x4a0: mov.l 4d4,r1 ! fffffe92; mov #16,r0
    0x21, 0x00, 0xe0, 0x01, // 0x4a4: mov.b r0,@r1; mov #1,r0
    0x21, 0x00, 0x45, 0x2b, // 0x4a8: mov.b r0,@r1; jmp @r5
    0x00, 0x09, 0xd3, 0x0b, // 0x4ac: nop; mov.l 4dc,r3 ! 800000
    0x60, 0x11, 0x20, 0x28, // 0x4b0: mov.w @r1,r0; tst r2,r0
    0x8b, 0x01, 0x43, 0x10, // 0x4b4: bf 4ba; dt r3
    0x8b, 0xfa, 0x00, 0x0b, // 0x4b8: bf 4b0; rts
    0x00, 0x09, 0xfd, 0xfe, // 0x4bc: nop; .word 0xfdfe
    0xe0, 0x00, 0x80, 0x00, // 0x4c0: .word 0xe000, 0x8000
    0x00, 0x00, 0x00, 0xf0, // 0x4c4: .long 0x000000f0
    0x25, 0xfe, 0x00, 0xa0, // 0x4c8: .long 0x25fe00a0
    0x00, 0x00, 0xbf, 0xff, // 0x4cc: .long 0x0000bfff
    0x00, 0x00, 0x04, 0x00, // 0x4d0: .long 0x00000400
    0xff, 0xff, 0xfe, 0x92, // 0x4d4: .long 0xfffffe92
    0x25, 0x89, 0x00, 0x08, // 0x4d8: .long 0x25890008
    0x00, 0x80, 0x00, 0x00, // 0x4dc: .long 0x00800000
    0xff, 0xff, 0xff, 0xe0, // 0x4e0: .long 0xffffffe0
    0x06, 0x00, 0x02, 0x50, // 0x4e4: .long 0x06000250
    0x06, 0x00, 0x02, 0xac, // 0x4e8: .long 0x060002ac
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
