//! Sega Saturn CD images for `jom` programs: our own IP.BIN, the program as the first file
//! of the root directory, extra files, and a `.cue` sheet.
//!
//! # What boots where
//!
//! * **Yabause's BIOS emulation** (`yabause-qt -nb`), the emulator of the project's tests,
//!   checks only the hardware id "SEGA SEGASATURN" at offset 0, the IP size at 0xE0 and the
//!   first-read address at 0xF0. It copies the IP (the first `ip_size` bytes of the disc) to
//!   0x06002000, loads the first file of the root directory to the first-read address and
//!   jumps to 0x06002E00, that is IP offset 0xE00. The IP built here holds, at 0xE00, a
//!   12-byte SH-2 stub of our own ([`boot_stub`]) that jumps to the program's load address.
//! * **A real console** (or an emulator running Sega's BIOS) also checks the security code
//!   (IP offset 0x100 to 0xDFF, Sega's copyrighted code) and one area-code block per area
//!   symbol right after it, whose code then runs the application's initial program. Neither
//!   is in this repository. [`build_ip`] leaves that range zero; with `--ip-template FILE`
//!   ([`IpTemplate`], [`build_ip_from_template`]) they are taken from a file the user names
//!   (their SDK's `IP.BIN`, or the first sectors of a disc image made with it), checked, and
//!   written with our system id, our stub after the last area block. No console has booted
//!   such a disc here.
//! * **A cartridge loader** (or a link cable / `yabause --binary`) needs no IP at all: only
//!   the raw program binary, loaded at its link address (0x06004000 for `jom`).
//!
//! The layout of the 256-byte system id at the start of the IP is in [`ip_offsets`].
//!
//! # The IP a BIOS accepts, and where each fact comes from
//!
//! Sources, named rather than copied:
//! - **Sheet** SEGA's "Disc Format Standards Specification Sheet", chapter "Boot system",
//!   as published in the Exodus emulator's archive of the Saturn developer documents
//!   (`docs.exodusemulator.com/Archives/SSDDV1R1E/c/c03/hon/p025.htm`, table "IP structure"
//!   and figure "SYSTEM ID structure"; `p031.htm`, "Application initial program" and
//!   "1st READ FILE").
//! - **Tutorial** the same archive's CD-ROM tutorial, "3-2. Create IP"
//!   (`.../SSDDV1R1E/tutorial/date/cd-rom/da3-2.htm`): the boot code (system id, security
//!   code, area codes) is Sega's part; the application initial program, right after the
//!   area code, the application's.
//! - **libyaul** `yaul-org/libyaul`, `libyaul/ip/ip.sx` (the order it assembles an IP in)
//!   and the sizes of the files of `libyaul/ip/blobs/` it includes (`sys_sec.bin` 3,328
//!   bytes, each `sys_are?.bin` 32 bytes).
//! - **Jo Engine** `johannes-fetz/joengine`, `Compiler/COMMON/IP.BIN` (4,860 bytes; area
//!   symbols `JTUE`, four area blocks; IP size field 0x1800; first-read size 0).
//! - **SegaXtreme** the forum thread "Multi-region saturn disks"
//!   (`segaxtreme.net/threads/multi-region-saturn-disks.1943/`): a disc listing the areas
//!   `JTUBKAEL` at byte 64 has eight area blocks from byte 3584, in that order, each
//!   naming its area (Japan to Latin America); adding an area to a disc takes both its
//!   symbol and its block.
//! - **Yabause** `Yabause/yabause`, `yabause/src/yabause.c`, `YabauseQuickLoadGame`.
//!
//! The facts:
//! 1. 0x000-0x0FF, the system id: the fields of [`ip_offsets`] (Sheet). At 0xE0-0xEF the
//!    sheet has IP size, reserved, master stack, slave stack (libyaul's `ip.sx` has the
//!    master stack at 0xE4: we follow the sheet; both are 0 by default).
//! 2. 0x100-0xDFF, the security code: 0xD00 bytes right after the system id (Sheet;
//!    libyaul: `sys_sec.bin` is 0xD00 bytes, included right after the system id). Sega's
//!    SDK ships one (`SYS_SEC.OBJ`) (Sheet); libyaul's and Jo Engine's are the same bytes
//!    (compared here, not copied).
//! 3. From 0xE00, the area code group: one 0x20-byte block per area symbol, 0x20 to 0x100
//!    bytes in all (so one to eight blocks) (Sheet), in the order the symbols are listed at
//!    0x40 (libyaul: `J`, `T`, `U`, `E` blocks in that order; Jo Engine: `JTUE`, the same
//!    four; SegaXtreme: `JTUBKAEL` and eight blocks in that order). Each block begins with
//!    a branch to the block after it, then a text naming its area, whose initial (block
//!    offset 8) is the area's symbol (the blocks of libyaul and Jo Engine, read here for
//!    their layout; SegaXtreme lists the eight names, each starting with its symbol's
//!    letter). [`IpTemplate::parse`] checks that letter: a block for each symbol, not
//!    blank bytes.
//! 4. Right after the last area block, the application initial program (our [`boot_stub`]):
//!    placed immediately after the area code group, it runs right after the area code
//!    (Sheet, "Application initial program"; Tutorial). A BIOS reaches it through the area
//!    code; Yabause, which jumps to 0x06002E00 (IP offset 0xE00) whatever the IP holds
//!    (Yabause), reaches it the same way when area blocks precede it, each block branching
//!    to the next: the stub is at 0xE00 only when there are no blocks (without a template,
//!    for the emulators). libyaul and Jo Engine
//!    start their initial program with the same 0x80-byte block (`sys_init.bin`, Sega's
//!    library's `SYS_INIT`) before their own jump to the first read; it is part of the
//!    application's program, not of the boot code (Tutorial), and is not taken here:
//!    whether a console needs it is not established (no console has run our IP).
//! 5. The IP size at 0xE0: the bytes the BIOS copies from the start of the disc to
//!    0x06002000 (Yabause reads that many, rounded up to whole sectors) (Yabause); an IP is
//!    0x1000 to 0x8000 bytes, its initial program at least 0x100 (Sheet). Ours is 0x1000
//!    ([`IP_SIZE`]): the system id, the security code, at most eight blocks (to 0xF00) and
//!    the stub (to 0xF0C), the rest zeros; at least 0x100 bytes from the last block's end.
//! 6. The first read: while the licence SEGA logo shows, the BIOS reads the first file of
//!    the root directory to the first-read address (0xF0), and, that address being set,
//!    does not run it (Sheet, "1st READ FILE"): our stub jumps there. First-read size 0 is
//!    what Jo Engine's IP.BIN has.

use std::cmp::Ordering;
use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

mod template;
#[doc(hidden)]
pub use template::made_up_template;
pub use template::{IpTemplate, AREA_BLOCK_SYMBOL};

/// The name the program gets in the root directory. ISO 9660 sorts the root directory by
/// name and Yabause loads its first file: a leading `0` sorts before any letter.
pub const PROGRAM_NAME: &str = "0PROGRAM.BIN";

/// The size of the IP built here (the BIOS copies this much to 0x06002000).
pub const IP_SIZE: usize = 0x1000;

/// Where Yabause's BIOS emulation jumps in the IP (0x06002E00), and where [`build_ip`] puts
/// the [`boot_stub`] (no area blocks: [`stub_offset`]`(0)`).
pub const STUB_OFFSET: usize = 0xE00;

/// Sega's security code: IP offsets 0x100-0xDFF (0xD00 bytes), right after the system id.
pub const SECURITY_CODE: (usize, usize) = (0x100, 0xD00);

/// Where the area code blocks start (right after the security code), one per area symbol.
pub const AREA_CODE_OFFSET: usize = 0xE00;

/// The size of one area code block.
pub const AREA_BLOCK_SIZE: usize = 0x20;

/// Where the application initial program (our [`boot_stub`]) goes: right after the last of
/// `area_blocks` area code blocks (0xE00 with none).
pub const fn stub_offset(area_blocks: usize) -> usize {
    AREA_CODE_OFFSET + AREA_BLOCK_SIZE * area_blocks
}

/// The system area of an ISO 9660 image: the most an IP can be.
pub const MAX_IP_SIZE: usize = 0x8000;

/// High work RAM, where the first read goes: the BIOS and the IP use 0x06000000-0x06003FFF.
pub const FIRST_READ_MIN: u32 = 0x0600_4000;
/// The end (exclusive) of high work RAM.
pub const HIGH_WORK_RAM_END: u32 = 0x0610_0000;

/// Offsets and sizes of the system id fields (the first 256 bytes of the IP).
pub mod ip_offsets {
    /// "SEGA SEGASATURN " (16 bytes).
    pub const HARDWARE_ID: (usize, usize) = (0x00, 16);
    /// "SEGA ENTERPRISES" for Sega, "SEGA TP T-nnn   " for a third party (16 bytes).
    pub const MAKER_ID: (usize, usize) = (0x10, 16);
    /// Product number, e.g. "T-000000  " (10 bytes).
    pub const PRODUCT_NUMBER: (usize, usize) = (0x20, 10);
    /// Version, "V1.000" (6 bytes).
    pub const VERSION: (usize, usize) = (0x2A, 6);
    /// Release date, "YYYYMMDD" (8 bytes).
    pub const RELEASE_DATE: (usize, usize) = (0x30, 8);
    /// Device information, "CD-1/1  " (8 bytes).
    pub const DEVICE_INFO: (usize, usize) = (0x38, 8);
    /// Area symbols, e.g. "JTUE      " (10 bytes).
    pub const AREA_SYMBOLS: (usize, usize) = (0x40, 10);
    /// Reserved, spaces (6 bytes).
    pub const RESERVED_1: (usize, usize) = (0x4A, 6);
    /// Compatible peripherals, e.g. "J" for the control pad (16 bytes).
    pub const PERIPHERALS: (usize, usize) = (0x50, 16);
    /// Game title (112 bytes, space padded).
    pub const TITLE: (usize, usize) = (0x60, 112);
    /// Reserved, spaces (16 bytes).
    pub const RESERVED_2: (usize, usize) = (0xD0, 16);
    /// IP size in bytes (u32, big endian).
    pub const IP_SIZE: usize = 0xE0;
    /// Reserved (u32, zero).
    pub const RESERVED_3: usize = 0xE4;
    /// Master SH-2 stack (u32 big endian, 0 = the BIOS default).
    pub const MASTER_STACK: usize = 0xE8;
    /// Slave SH-2 stack (u32 big endian, 0 = the BIOS default).
    pub const SLAVE_STACK: usize = 0xEC;
    /// First-read address (u32 big endian).
    pub const FIRST_READ_ADDRESS: usize = 0xF0;
    /// First-read size (u32 big endian, 0 = the whole file).
    pub const FIRST_READ_SIZE: usize = 0xF4;
    /// Reserved (8 bytes, zero).
    pub const RESERVED_4: (usize, usize) = (0xF8, 8);
}

/// An error with a message for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn err<T>(message: impl Into<String>) -> Result<T, Error> {
    Err(Error(message.into()))
}

/// The fields of the system id. [`IpConfig::new`] gives the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpConfig {
    pub maker_id: String,
    pub product_number: String,
    pub version: String,
    pub release_date: String,
    pub device_info: String,
    pub area_symbols: String,
    pub peripherals: String,
    pub title: String,
    pub master_stack: u32,
    pub slave_stack: u32,
    pub first_read_address: u32,
    pub first_read_size: u32,
}

impl IpConfig {
    /// The defaults for a homebrew program loaded at `load_address`.
    pub fn new(title: &str, load_address: u32) -> Self {
        IpConfig {
            maker_id: "SEGA TP T-000".into(),
            product_number: "T-000000".into(),
            version: "V1.000".into(),
            release_date: "20261129".into(),
            device_info: "CD-1/1".into(),
            area_symbols: "JTUE".into(),
            peripherals: "J".into(),
            title: title.into(),
            master_stack: 0,
            slave_stack: 0,
            first_read_address: load_address,
            first_read_size: 0,
        }
    }
}

/// The area symbols a Saturn knows: Japan, Taiwan/Asia, USA, Brazil, Korea, Asia PAL,
/// Europe, Latin America.
pub const AREA_LETTERS: &str = "JTUBKAEL";

fn put_text(
    ip: &mut [u8],
    (offset, size): (usize, usize),
    name: &str,
    text: &str,
) -> Result<(), Error> {
    if let Some(c) = text.chars().find(|c| !(' '..='~').contains(c)) {
        return err(format!(
            "{name} {text:?}: character {c:?} is not printable ASCII"
        ));
    }
    if text.len() > size {
        return err(format!(
            "{name} {text:?} is {} characters long, at most {size} fit",
            text.len()
        ));
    }
    let field = &mut ip[offset..offset + size];
    field.fill(b' ');
    field[..text.len()].copy_from_slice(text.as_bytes());
    Ok(())
}

fn put_u32(ip: &mut [u8], offset: usize, value: u32) {
    ip[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
}

fn check_date(date: &str) -> Result<(), Error> {
    let bad = || err(format!("release date {date:?}: expected YYYYMMDD"));
    if date.len() != 8 || !date.bytes().all(|b| b.is_ascii_digit()) {
        return bad();
    }
    let month: u32 = date[4..6].parse().unwrap_or(0);
    let day: u32 = date[6..8].parse().unwrap_or(0);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return bad();
    }
    Ok(())
}

fn check_areas(areas: &str) -> Result<(), Error> {
    if areas.is_empty() {
        return err("area symbols: at least one is needed (J, T, U, B, K, A, E or L)");
    }
    for (i, c) in areas.char_indices() {
        if !AREA_LETTERS.contains(c) {
            return err(format!(
                "area symbols {areas:?}: {c:?} is not one of J, T, U, B, K, A, E, L"
            ));
        }
        if areas[..i].contains(c) {
            return err(format!("area symbols {areas:?}: {c:?} is given twice"));
        }
    }
    Ok(())
}

/// Checks that a first read at `address` of `size` bytes fits in high work RAM.
pub fn check_load_range(address: u32, size: u64) -> Result<(), Error> {
    if !address.is_multiple_of(4) {
        return err(format!(
            "load address {address:#010x} is not a multiple of 4"
        ));
    }
    if !(FIRST_READ_MIN..HIGH_WORK_RAM_END).contains(&address) {
        return err(format!(
            "load address {address:#010x} is outside high work RAM {FIRST_READ_MIN:#010x}-{:#010x}",
            HIGH_WORK_RAM_END - 1
        ));
    }
    if u64::from(address) + size > u64::from(HIGH_WORK_RAM_END) {
        return err(format!(
            "a program of {size} bytes at {address:#010x} ends past high work RAM ({:#010x})",
            HIGH_WORK_RAM_END - 1
        ));
    }
    Ok(())
}

/// The SH-2 code at IP offset 0xE00: jump to `entry`.
///
/// ```text
/// 0xE00  d0 01   mov.l  @(4,pc),r0   ; r0 = the literal at ((0xE00 & ~3) + 4) + 1 * 4 = 0xE08
/// 0xE02  40 2b   jmp    @r0
/// 0xE04  00 09   nop                 ; delay slot
/// 0xE06  00 09   nop                 ; pad: the literal must be 4-byte aligned
/// 0xE08  entry   .long  entry
/// ```
///
/// Encodings (SH-2 programming manual): `mov.l @(disp,PC),Rn` is `1101 nnnn dddd dddd`
/// with the address `(PC & ~3) + 4 + disp * 4`, `jmp @Rm` is `0100 mmmm 0010 1011`, `nop`
/// is `0000 0000 0000 1001`. The stub is position independent: it works at any 4-byte
/// aligned address.
pub fn boot_stub(entry: u32) -> [u8; 12] {
    let mut stub = [0u8; 12];
    stub[0..2].copy_from_slice(&0xD001u16.to_be_bytes()); // mov.l @(disp=1,pc),r0
    stub[2..4].copy_from_slice(&0x402Bu16.to_be_bytes()); // jmp @r0
    stub[4..6].copy_from_slice(&0x0009u16.to_be_bytes()); // nop (delay slot)
    stub[6..8].copy_from_slice(&0x0009u16.to_be_bytes()); // nop (alignment)
    stub[8..12].copy_from_slice(&entry.to_be_bytes());
    stub
}

/// Builds the IP ([`IP_SIZE`] bytes): the system id, zeros where a real disc has Sega's
/// security code and area codes, and the [`boot_stub`] at 0xE00. What Yabause's BIOS
/// emulation boots; a console's BIOS refuses it ([`build_ip_from_template`]).
pub fn build_ip(config: &IpConfig) -> Result<Vec<u8>, Error> {
    let mut ip = system_id(config)?;
    ip[STUB_OFFSET..STUB_OFFSET + 12].copy_from_slice(&boot_stub(config.first_read_address));
    Ok(ip)
}

/// Builds the IP ([`IP_SIZE`] bytes) a console's BIOS accepts: our system id, the
/// template's security code at 0x100 byte for byte, from 0xE00 the template's area code
/// block of each of `config.area_symbols` in their order, then the [`boot_stub`] right
/// after the last block ([`stub_offset`]), zeros to the end. An error when the template
/// has no block for one of the symbols (it says which it has).
pub fn build_ip_from_template(config: &IpConfig, template: &IpTemplate) -> Result<Vec<u8>, Error> {
    let mut ip = system_id(config)?;
    let blocks = template.blocks_for(&config.area_symbols)?;
    let (offset, size) = SECURITY_CODE;
    ip[offset..offset + size].copy_from_slice(&template.security_code);
    for (i, block) in blocks.iter().enumerate() {
        let at = stub_offset(i);
        ip[at..at + AREA_BLOCK_SIZE].copy_from_slice(&block[..]);
    }
    // At most eight blocks (check_areas): the stub ends by 0xF0C, inside the IP.
    let stub = stub_offset(blocks.len());
    ip[stub..stub + 12].copy_from_slice(&boot_stub(config.first_read_address));
    Ok(ip)
}

/// [`IP_SIZE`] bytes: the system id of `config` (every field checked), zeros after it.
fn system_id(config: &IpConfig) -> Result<Vec<u8>, Error> {
    use ip_offsets as o;
    let mut ip = vec![0u8; IP_SIZE];
    put_text(&mut ip, o::HARDWARE_ID, "hardware id", "SEGA SEGASATURN ")?;
    put_text(&mut ip, o::MAKER_ID, "maker id", &config.maker_id)?;
    put_text(
        &mut ip,
        o::PRODUCT_NUMBER,
        "product number",
        &config.product_number,
    )?;
    put_text(&mut ip, o::VERSION, "version", &config.version)?;
    check_date(&config.release_date)?;
    put_text(
        &mut ip,
        o::RELEASE_DATE,
        "release date",
        &config.release_date,
    )?;
    put_text(&mut ip, o::DEVICE_INFO, "device info", &config.device_info)?;
    check_areas(&config.area_symbols)?;
    put_text(
        &mut ip,
        o::AREA_SYMBOLS,
        "area symbols",
        &config.area_symbols,
    )?;
    put_text(&mut ip, o::RESERVED_1, "reserved", "")?;
    put_text(&mut ip, o::PERIPHERALS, "peripherals", &config.peripherals)?;
    if config.title.trim().is_empty() {
        return err("the title is empty");
    }
    put_text(&mut ip, o::TITLE, "title", &config.title)?;
    put_text(&mut ip, o::RESERVED_2, "reserved", "")?;
    put_u32(&mut ip, o::IP_SIZE, IP_SIZE as u32);
    put_u32(&mut ip, o::RESERVED_3, 0);
    for (name, stack) in [
        ("master stack", config.master_stack),
        ("slave stack", config.slave_stack),
    ] {
        if !stack.is_multiple_of(4) {
            return err(format!("{name} {stack:#010x} is not a multiple of 4"));
        }
    }
    put_u32(&mut ip, o::MASTER_STACK, config.master_stack);
    put_u32(&mut ip, o::SLAVE_STACK, config.slave_stack);
    check_load_range(config.first_read_address, 0)?;
    put_u32(&mut ip, o::FIRST_READ_ADDRESS, config.first_read_address);
    put_u32(&mut ip, o::FIRST_READ_SIZE, config.first_read_size);
    Ok(ip)
}

/// Parses `0x06004000`, `0X6004000` or `100679680`.
pub fn parse_u32(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(&hex.replace('_', ""), 16),
        None => t.replace('_', "").parse::<u32>(),
    };
    parsed.map_err(|_| format!("{text:?} is not a 32-bit number (decimal or 0x hexadecimal)"))
}

/// Checks an ISO 9660 level 1 file name: `NAME.EXT` with 1-8 and 0-3 characters from A-Z,
/// 0-9 and `_`.
pub fn check_file_name(name: &str) -> Result<(), Error> {
    let (stem, ext) = name.split_once('.').unwrap_or((name, ""));
    let ok = |s: &str| {
        s.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    };
    if stem.is_empty() || stem.len() > 8 || ext.len() > 3 || !ok(stem) || !ok(ext) {
        return err(format!(
            "file name {name:?}: expected an 8.3 name of A-Z, 0-9 and _ (ISO 9660 level 1), e.g. ROBOT.JOM"
        ));
    }
    Ok(())
}

/// ISO 9660's order of file identifiers (ECMA-119 9.3): names compared padded with
/// spaces, then extensions padded with spaces.
pub fn iso_name_order(a: &str, b: &str) -> Ordering {
    fn key(name: &str) -> ([u8; 8], [u8; 3]) {
        let (stem, ext) = name.split_once('.').unwrap_or((name, ""));
        let mut s = [b' '; 8];
        let mut e = [b' '; 3];
        for (d, c) in s.iter_mut().zip(stem.bytes()) {
            *d = c;
        }
        for (d, c) in e.iter_mut().zip(ext.bytes()) {
            *d = c;
        }
        (s, e)
    }
    key(a).cmp(&key(b))
}

/// The `.cue` sheet for an ISO file (what Mednafen needs to open it).
pub fn cue_sheet(iso_file_name: &str) -> String {
    format!("FILE \"{iso_file_name}\" BINARY\r\n  TRACK 01 MODE1/2048\r\n    INDEX 01 00:00:00\r\n")
}

/// The ISO 9660 tool: genisoimage, or xorriso in its mkisofs mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Genisoimage,
    Xorriso,
}

impl Tool {
    fn command(self) -> Command {
        match self {
            Tool::Genisoimage => Command::new("genisoimage"),
            Tool::Xorriso => {
                let mut c = Command::new("xorriso");
                c.args(["-as", "mkisofs"]);
                c
            }
        }
    }

    /// The first of genisoimage and xorriso found on PATH.
    pub fn find() -> Result<Tool, Error> {
        for tool in [Tool::Genisoimage, Tool::Xorriso] {
            let name = tool.name();
            let found = std::env::var_os("PATH")
                .map(|p| std::env::split_paths(&p).any(|d| d.join(name).is_file()))
                .unwrap_or(false);
            if found {
                return Ok(tool);
            }
        }
        err("neither genisoimage nor xorriso is on PATH (apt-get install genisoimage)")
    }

    pub fn name(self) -> &'static str {
        match self {
            Tool::Genisoimage => "genisoimage",
            Tool::Xorriso => "xorriso",
        }
    }
}

/// Everything [`make_iso`] needs.
#[derive(Debug, Clone)]
pub struct IsoOptions {
    pub program: PathBuf,
    pub ip: IpConfig,
    /// `(8.3 name on the disc, path on the host)`.
    pub files: Vec<(String, PathBuf)>,
    pub volume_id: String,
    pub output: PathBuf,
    /// `None`: the first of genisoimage and xorriso found (after every argument is checked).
    pub tool: Option<Tool>,
    /// Also write the IP here.
    pub ip_output: Option<PathBuf>,
    /// Sega's security code and area code blocks for a console ([`build_ip_from_template`]);
    /// `None`: zeros there, the IP Yabause boots ([`build_ip`]).
    pub ip_template: Option<IpTemplate>,
}

/// What [`make_iso`] wrote.
#[derive(Debug, Clone)]
pub struct IsoReport {
    pub tool: Tool,
    pub iso: PathBuf,
    pub cue: PathBuf,
    pub iso_size: u64,
    pub program_size: u64,
}

/// A volume id from a title: its letters, digits and `_`, uppercase, at most 32.
pub fn volume_id_from_title(title: &str) -> String {
    let v: String = title
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .map(|c| c.to_ascii_uppercase())
        .take(32)
        .collect();
    if v.is_empty() {
        "JOM".into()
    } else {
        v
    }
}

fn check_volume_id(v: &str) -> Result<(), Error> {
    if v.is_empty()
        || v.len() > 32
        || !v
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return err(format!(
            "volume id {v:?}: expected 1 to 32 characters of A-Z, 0-9 and _"
        ));
    }
    Ok(())
}

/// The `.cue` path beside an ISO: `x/demo.iso` -> `x/demo.cue`.
pub fn cue_path(iso: &Path) -> PathBuf {
    iso.with_extension("cue")
}

/// Builds the ISO and its `.cue`. Both are written to temporary files beside the outputs
/// and renamed, so a failure leaves no partial output.
pub fn make_iso(opts: &IsoOptions) -> Result<IsoReport, Error> {
    let io = |what: &str, path: &Path, e: std::io::Error| {
        Error(format!("{what} {}: {e}", path.display()))
    };
    let program =
        fs::read(&opts.program).map_err(|e| io("cannot read the program", &opts.program, e))?;
    if program.is_empty() {
        return err(format!("the program {} is empty", opts.program.display()));
    }
    check_load_range(opts.ip.first_read_address, program.len() as u64)?;
    check_volume_id(&opts.volume_id)?;
    let ip = match &opts.ip_template {
        Some(template) => build_ip_from_template(&opts.ip, template)?,
        None => build_ip(&opts.ip)?,
    };

    let mut names: Vec<&str> = vec![PROGRAM_NAME];
    for (name, path) in &opts.files {
        check_file_name(name)?;
        if names.contains(&name.as_str()) {
            return err(format!(
                "file name {name} is given twice (or is the program's name)"
            ));
        }
        if iso_name_order(name, PROGRAM_NAME) != Ordering::Greater {
            return err(format!(
                "file name {name} sorts before {PROGRAM_NAME}: the program must be the first file of the root directory"
            ));
        }
        if !path.is_file() {
            return err(format!("--file {name}={}: no such file", path.display()));
        }
        names.push(name);
    }
    let out_name = opts
        .output
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| Error(format!("output {}: not a file name", opts.output.display())))?
        .to_string();
    if out_name.contains('"') {
        return err(format!(
            "output {out_name}: a name with '\"' cannot go in a .cue sheet"
        ));
    }
    let out_dir = match opts.output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !out_dir.is_dir() {
        return err(format!(
            "output directory {} does not exist",
            out_dir.display()
        ));
    }

    let tool = match opts.tool {
        Some(t) => t,
        None => Tool::find()?,
    };
    let work = tempfile::tempdir()
        .map_err(|e| Error(format!("cannot make a temporary directory: {e}")))?;
    let root = work.path().join("root");
    fs::create_dir(&root).map_err(|e| io("cannot create", &root, e))?;
    let ip_path = work.path().join("IP.BIN");
    fs::write(&ip_path, &ip).map_err(|e| io("cannot write", &ip_path, e))?;
    fs::write(root.join(PROGRAM_NAME), &program).map_err(|e| io("cannot write", &root, e))?;
    for (name, path) in &opts.files {
        fs::copy(path, root.join(name)).map_err(|e| io("cannot copy", path, e))?;
    }

    let tmp_iso = tempfile::Builder::new()
        .prefix(&format!(".{out_name}."))
        .tempfile_in(&out_dir)
        .map_err(|e| io("cannot create a temporary file in", &out_dir, e))?;
    let mut cmd = tool.command();
    cmd.args([
        "-quiet",
        "-sysid",
        "SEGA SEGASATURN",
        "-V",
        &opts.volume_id,
        "-iso-level",
        "1",
        "-G",
    ])
    .arg(&ip_path)
    .arg("-o")
    .arg(tmp_iso.path())
    .arg(&root);
    let output = cmd
        .output()
        .map_err(|e| Error(format!("cannot run {}: {e}", tool.name())))?;
    if !output.status.success() {
        return err(format!(
            "{} failed ({}): {}",
            tool.name(),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let image = fs::read(tmp_iso.path()).map_err(|e| io("cannot read back", tmp_iso.path(), e))?;
    let first = first_root_file(&image)?;
    if first.name != PROGRAM_NAME || first.data != program {
        return err(format!(
            "the image's first root file is {} ({} bytes), not the program: {} changed its layout",
            first.name,
            first.data.len(),
            tool.name()
        ));
    }
    if image[..IP_SIZE] != ip[..] {
        return err(format!(
            "the image's system area does not hold the IP ({})",
            tool.name()
        ));
    }

    let cue = cue_path(&opts.output);
    let mut tmp_cue = tempfile::Builder::new()
        .prefix(".cue.")
        .tempfile_in(&out_dir)
        .map_err(|e| io("cannot create a temporary file in", &out_dir, e))?;
    tmp_cue
        .write_all(cue_sheet(&out_name).as_bytes())
        .map_err(|e| io("cannot write", tmp_cue.path(), e))?;
    if let Some(p) = &opts.ip_output {
        fs::write(p, &ip).map_err(|e| io("cannot write", p, e))?;
    }
    set_readable(tmp_iso.path())?;
    set_readable(tmp_cue.path())?;
    tmp_iso
        .persist(&opts.output)
        .map_err(|e| io("cannot write", &opts.output, e.error))?;
    tmp_cue
        .persist(&cue)
        .map_err(|e| io("cannot write", &cue, e.error))?;
    Ok(IsoReport {
        tool,
        iso: opts.output.clone(),
        cue,
        iso_size: image.len() as u64,
        program_size: program.len() as u64,
    })
}

/// Temporary files are created 0600: give the outputs the usual 0644.
fn set_readable(path: &Path) -> Result<(), Error> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o644)).map_err(|e| {
            Error(format!(
                "cannot set the permissions of {}: {e}",
                path.display()
            ))
        })?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// A file of an ISO 9660 image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsoFile {
    /// The identifier without its `;1` version.
    pub name: String,
    pub data: Vec<u8>,
}

/// Reads the first file of the root directory as Yabause's BIOS emulation does: the root
/// directory record of the primary volume descriptor (sector 16, offset 0x9C), then the
/// third record of that directory (after `.` and `..`).
pub fn first_root_file(image: &[u8]) -> Result<IsoFile, Error> {
    root_files(image)?
        .into_iter()
        .next()
        .ok_or_else(|| Error("the root directory is empty".into()))
}

/// Every file of the root directory, in the order of the directory.
pub fn root_files(image: &[u8]) -> Result<Vec<IsoFile>, Error> {
    const SECTOR: usize = 2048;
    let bad = |what: &str| Error(format!("not an ISO 9660 image: {what}"));
    let pvd = image
        .get(16 * SECTOR..17 * SECTOR)
        .ok_or_else(|| bad("too short"))?;
    if pvd[0] != 1 || &pvd[1..6] != b"CD001" {
        return Err(bad("no primary volume descriptor at sector 16"));
    }
    let le32 =
        |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]) as usize;
    let root = &pvd[0x9C..0x9C + 34];
    let (dir_lba, dir_size) = (le32(root, 2), le32(root, 10));
    let dir = image
        .get(dir_lba * SECTOR..dir_lba * SECTOR + dir_size)
        .ok_or_else(|| bad("root directory past the end"))?;
    let mut files = Vec::new();
    let mut at = 0;
    let mut index = 0;
    while at < dir.len() {
        let len = dir[at] as usize;
        if len == 0 {
            // Records do not cross sectors: the rest of this one is padding.
            at = (at / SECTOR + 1) * SECTOR;
            continue;
        }
        let rec = dir
            .get(at..at + len)
            .ok_or_else(|| bad("truncated directory record"))?;
        if index >= 2 {
            let (lba, size) = (le32(rec, 2), le32(rec, 10));
            let name_len = rec[32] as usize;
            let raw = String::from_utf8_lossy(&rec[33..33 + name_len]).to_string();
            let name = raw
                .split(';')
                .next()
                .unwrap_or("")
                .trim_end_matches('.')
                .to_string();
            let data = image
                .get(lba * SECTOR..lba * SECTOR + size)
                .ok_or_else(|| bad("file past the end"))?
                .to_vec();
            files.push(IsoFile { name, data });
        }
        index += 1;
        at += len;
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip() -> Vec<u8> {
        build_ip(&IpConfig::new("JOM DEMO", 0x0600_4000)).unwrap()
    }

    fn field(ip: &[u8], (offset, size): (usize, usize)) -> &[u8] {
        &ip[offset..offset + size]
    }

    fn be32(ip: &[u8], offset: usize) -> u32 {
        u32::from_be_bytes(ip[offset..offset + 4].try_into().unwrap())
    }

    #[test]
    fn system_id_fields_are_at_their_offsets() {
        let ip = ip();
        assert_eq!(ip.len(), 0x1000);
        assert_eq!(&ip[0x00..0x10], b"SEGA SEGASATURN ");
        assert_eq!(&ip[0x10..0x20], b"SEGA TP T-000   ");
        assert_eq!(&ip[0x20..0x2A], b"T-000000  ");
        assert_eq!(&ip[0x2A..0x30], b"V1.000");
        assert_eq!(&ip[0x30..0x38], b"20261129");
        assert_eq!(&ip[0x38..0x40], b"CD-1/1  ");
        assert_eq!(&ip[0x40..0x4A], b"JTUE      ");
        assert_eq!(&ip[0x4A..0x50], b"      ");
        assert_eq!(&ip[0x50..0x60], b"J               ");
        let mut title = b"JOM DEMO".to_vec();
        title.resize(112, b' ');
        assert_eq!(&ip[0x60..0xD0], &title[..]);
        assert_eq!(&ip[0xD0..0xE0], &[b' '; 16]);
        assert_eq!(&ip[0xE0..0xE4], &[0x00, 0x00, 0x10, 0x00]); // IP size 0x1000
        assert_eq!(&ip[0xE4..0xE8], &[0; 4]);
        assert_eq!(&ip[0xE8..0xF0], &[0; 8]); // master and slave stacks: BIOS defaults
        assert_eq!(&ip[0xF0..0xF4], &[0x06, 0x00, 0x40, 0x00]); // first-read address
        assert_eq!(&ip[0xF4..0xF8], &[0; 4]); // first-read size: the whole file
        assert_eq!(&ip[0xF8..0x100], &[0; 8]);
        // Where a real disc has Sega's security code and area codes: nothing of theirs.
        assert!(ip[0x100..0xE00].iter().all(|&b| b == 0));
        assert!(ip[0xE0C..].iter().all(|&b| b == 0));
        // The named offsets agree with the literal ones above.
        use ip_offsets as o;
        assert_eq!(field(&ip, o::TITLE).len(), 112);
        assert_eq!(field(&ip, o::AREA_SYMBOLS), b"JTUE      ");
        assert_eq!(be32(&ip, o::IP_SIZE), IP_SIZE as u32);
        assert_eq!(be32(&ip, o::FIRST_READ_ADDRESS), 0x0600_4000);
        assert_eq!(o::RESERVED_4.0 + o::RESERVED_4.1, 0x100);
    }

    /// Without a template the IP is what it was before templates: every byte.
    #[test]
    fn without_a_template_the_ip_is_unchanged() {
        let mut expected = vec![0u8; 0x1000];
        let mut put = |offset: usize, bytes: &[u8]| {
            expected[offset..offset + bytes.len()].copy_from_slice(bytes)
        };
        put(
            0x00,
            b"SEGA SEGASATURN SEGA TP T-000   T-000000  V1.00020261129CD-1/1  ",
        );
        put(0x40, b"JTUE            J               JOM DEMO");
        put(0x68, &[b' '; 0xE0 - 0x68]);
        put(0xE0, &[0, 0, 0x10, 0]);
        put(0xF0, &[0x06, 0, 0x40, 0]);
        put(
            0xE00,
            &[0xD0, 0x01, 0x40, 0x2B, 0, 0x09, 0, 0x09, 0x06, 0, 0x40, 0],
        );
        assert_eq!(ip(), expected);
    }

    #[test]
    fn every_field_is_configurable() {
        let mut c = IpConfig::new("A", 0x0600_8000);
        c.maker_id = "SEGA TP T-999".into();
        c.product_number = "T-12345H".into();
        c.version = "V2.010".into();
        c.release_date = "19941122".into();
        c.area_symbols = "U".into();
        c.peripherals = "JAM".into();
        c.master_stack = 0x0600_2000;
        c.slave_stack = 0x0600_1000;
        c.first_read_size = 0x1234;
        let ip = build_ip(&c).unwrap();
        assert_eq!(&ip[0x10..0x20], b"SEGA TP T-999   ");
        assert_eq!(&ip[0x20..0x2A], b"T-12345H  ");
        assert_eq!(&ip[0x2A..0x30], b"V2.010");
        assert_eq!(&ip[0x30..0x38], b"19941122");
        assert_eq!(&ip[0x40..0x4A], b"U         ");
        assert_eq!(&ip[0x50..0x53], b"JAM");
        assert_eq!(be32(&ip, 0xE8), 0x0600_2000);
        assert_eq!(be32(&ip, 0xEC), 0x0600_1000);
        assert_eq!(be32(&ip, 0xF0), 0x0600_8000);
        assert_eq!(be32(&ip, 0xF4), 0x1234);
        assert_eq!(&ip[0xE08..0xE0C], &[0x06, 0x00, 0x80, 0x00]);
    }

    /// The bytes that `sh-elf-objdump -D -b binary -m sh2 -EB --adjust-vma=0x06002e00`, run on
    /// the 12 bytes alone, decodes
    /// as `mov.l 0x6002e08,r0 ! 6004000; jmp @r0; nop; nop` and the literal.
    #[test]
    fn boot_stub_bytes() {
        assert_eq!(
            boot_stub(0x0600_4000),
            [0xD0, 0x01, 0x40, 0x2B, 0x00, 0x09, 0x00, 0x09, 0x06, 0x00, 0x40, 0x00]
        );
        let ip = ip();
        assert_eq!(&ip[0xE00..0xE0C], &boot_stub(0x0600_4000));
        // mov.l @(disp,PC),R0: 1101 nnnn dddd dddd; the literal's address.
        let op = u16::from_be_bytes([ip[0xE00], ip[0xE01]]);
        assert_eq!(op >> 12, 0xD);
        assert_eq!((op >> 8) & 0xF, 0); // r0
        let literal = ((0x0600_2E00u32 & !3) + 4 + 4 * u32::from(op & 0xFF)) - 0x0600_2000;
        assert_eq!(literal, 0xE08);
        assert_eq!(literal % 4, 0);
        // jmp @r0 = 0100 0000 0010 1011, then nop in the delay slot.
        assert_eq!(&ip[0xE02..0xE06], &[0x40, 0x2B, 0x00, 0x09]);
    }

    #[test]
    fn bad_fields_are_errors() {
        let base = IpConfig::new("JOM DEMO", 0x0600_4000);
        let check = |f: &dyn Fn(&mut IpConfig), expected: &str| {
            let mut c = base.clone();
            f(&mut c);
            let e = build_ip(&c).unwrap_err().0;
            assert!(e.contains(expected), "{e:?} does not contain {expected:?}");
        };
        check(&|c| c.title = "X".repeat(113), "at most 112 fit");
        check(&|c| c.title = "   ".into(), "the title is empty");
        check(&|c| c.title = "caf\u{e9}".into(), "not printable ASCII");
        check(
            &|c| c.maker_id = "SEGA TP T-000 LONGER".into(),
            "at most 16 fit",
        );
        check(
            &|c| c.product_number = "T-1234567890".into(),
            "at most 10 fit",
        );
        check(&|c| c.version = "V1.0000".into(), "at most 6 fit");
        check(
            &|c| c.release_date = "2026-11-29".into(),
            "expected YYYYMMDD",
        );
        check(&|c| c.release_date = "20261329".into(), "expected YYYYMMDD");
        check(&|c| c.area_symbols = "JX".into(), "'X' is not one of");
        check(&|c| c.area_symbols = "JJ".into(), "given twice");
        check(&|c| c.area_symbols = "".into(), "at least one");
        check(
            &|c| c.first_read_address = 0x0600_2000,
            "outside high work RAM",
        );
        check(
            &|c| c.first_read_address = 0x0610_0000,
            "outside high work RAM",
        );
        check(
            &|c| c.first_read_address = 0x0600_4002,
            "not a multiple of 4",
        );
        check(&|c| c.master_stack = 0x0600_2002, "not a multiple of 4");
    }

    #[test]
    fn load_range() {
        assert!(check_load_range(0x0600_4000, 0x000F_C000).is_ok());
        let e = check_load_range(0x0600_4000, 0x000F_C001).unwrap_err().0;
        assert!(e.contains("ends past high work RAM"), "{e}");
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_u32("0x06004000"), Ok(0x0600_4000));
        assert_eq!(parse_u32("0X0600_4000"), Ok(0x0600_4000));
        assert_eq!(parse_u32("100679680"), Ok(0x0600_4000));
        assert!(parse_u32("0x1_0000_0000").is_err());
        assert!(parse_u32("six").is_err());
        assert!(parse_u32("").is_err());
    }

    #[test]
    fn file_names() {
        for ok in ["ROBOT.JOM", "A", "A.B", "ABCDEFGH.XYZ", "TEX_01.BIN"] {
            assert!(check_file_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "robot.jom",
            "ABCDEFGHI.BIN",
            "A.ABCD",
            ".BIN",
            "A B.BIN",
            "A.B.C",
            "",
            "DIR/A.BIN",
        ] {
            assert!(check_file_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn program_sorts_first() {
        assert_eq!(iso_name_order(PROGRAM_NAME, "A.BIN"), Ordering::Less);
        assert_eq!(iso_name_order(PROGRAM_NAME, "0Q.BIN"), Ordering::Less);
        assert_eq!(iso_name_order(PROGRAM_NAME, "0PROGRAM.BIO"), Ordering::Less);
        assert_eq!(iso_name_order(PROGRAM_NAME, "00.BIN"), Ordering::Greater);
        assert_eq!(iso_name_order(PROGRAM_NAME, "0.BIN"), Ordering::Greater);
        assert_eq!(iso_name_order(PROGRAM_NAME, "0PROGRAM"), Ordering::Greater);
        // Padding with spaces: "AB" sorts before "A_" (' ' < '_') and "A.Z" before "AB".
        assert_eq!(iso_name_order("A.Z", "AB"), Ordering::Less);
    }

    #[test]
    fn cue_and_volume() {
        assert_eq!(
            cue_sheet("demo.iso"),
            "FILE \"demo.iso\" BINARY\r\n  TRACK 01 MODE1/2048\r\n    INDEX 01 00:00:00\r\n"
        );
        assert_eq!(
            cue_path(Path::new("build/demo.iso")),
            Path::new("build/demo.cue")
        );
        assert_eq!(volume_id_from_title("JOM DEMO"), "JOMDEMO");
        assert_eq!(volume_id_from_title("my game 2!"), "MYGAME2");
        assert_eq!(volume_id_from_title("!!!"), "JOM");
        assert!(check_volume_id("JOM_DEMO").is_ok());
        assert!(check_volume_id("jom").is_err());
        assert!(check_volume_id(&"A".repeat(33)).is_err());
    }
}
