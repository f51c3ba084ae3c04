//! Sega's part of an IP, taken from a file the user names (`saturn-iso --ip-template FILE`):
//! the security code and the area code blocks, checked against the layout of the crate's
//! documentation ("The IP a BIOS accepts"). Nothing of Sega's is in this crate: the tests
//! use [`made_up_template`], the layout with filler bytes.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::{
    ip_offsets, stub_offset, Error, AREA_BLOCK_SIZE, AREA_CODE_OFFSET, AREA_LETTERS, MAX_IP_SIZE,
    SECURITY_CODE,
};

/// The offset in an area code block of its area name's initial: the area's symbol (the
/// crate's documentation, fact 3).
pub const AREA_BLOCK_SYMBOL: usize = 8;

/// The hardware id an IP starts with.
const HARDWARE_ID: &[u8; 16] = b"SEGA SEGASATURN ";

/// The first 12 bytes of a raw (2352-byte) CD sector: an image of such sectors has them
/// where an IP has its hardware id.
const RAW_SECTOR_SYNC: [u8; 12] = [0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0];

/// The security code and the area code blocks of an IP (an SDK's `IP.BIN`, or the first
/// sectors of a disc image made with one), checked by [`IpTemplate::parse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IpTemplate {
    /// Where it came from (the file's path), for messages.
    pub source: String,
    /// IP bytes 0x100-0xDFF, as they are.
    pub security_code: Vec<u8>,
    /// The area code blocks with their area symbols, in the template's order.
    pub areas: Vec<(char, [u8; AREA_BLOCK_SIZE])>,
}

/// `0x0E00`-style offsets, as the documentation writes them.
fn hex(offset: usize) -> String {
    format!("0x{offset:03X}")
}

/// A byte for a message: `0x4A ('J')`, `0x00`.
fn byte(b: u8) -> String {
    if b.is_ascii_graphic() || b == b' ' {
        format!("0x{b:02X} ('{}')", b as char)
    } else {
        format!("0x{b:02X}")
    }
}

/// `J, T, U`, or `none`.
fn list(symbols: impl IntoIterator<Item = char>) -> String {
    let list: Vec<String> = symbols.into_iter().map(String::from).collect();
    if list.is_empty() {
        "none".into()
    } else {
        list.join(", ")
    }
}

impl IpTemplate {
    /// Reads and checks the file at `path` (its first [`MAX_IP_SIZE`] bytes: an IP, or a
    /// whole disc image).
    pub fn read(path: &Path) -> Result<Self, Error> {
        let source = path.display().to_string();
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|file| file.take(MAX_IP_SIZE as u64).read_to_end(&mut bytes))
            .map_err(|e| Error(format!("cannot read the IP template {source}: {e}")))?;
        Self::parse(&bytes, &source)
    }

    /// Checks `bytes`, the start of an IP, named `source` in messages, and takes its
    /// security code and area code blocks. One error, the first found, in the form
    /// `SOURCE: byte OFFSET: expected ..., found ...` (or `SOURCE: ends at byte ...` for a
    /// file too short), for:
    /// - a file shorter than the system id, the security code and one area block per area
    ///   symbol its system id lists (0x40);
    /// - no hardware id "SEGA SEGASATURN " at 0 (a raw image of 2352-byte sectors is named
    ///   as such);
    /// - area symbols at 0x40 other than one to eight of J, T, U, B, K, A, E, L, each once,
    ///   then spaces;
    /// - a security code (0x100-0xDFF) all 0x00 or all 0xFF: not a real one;
    /// - an area block (0x20 bytes from 0xE00, one per symbol in their order) whose area
    ///   name does not start with its symbol at block offset 8 ([`AREA_BLOCK_SYMBOL`]).
    pub fn parse(bytes: &[u8], source: &str) -> Result<Self, Error> {
        let at =
            |offset: usize, what: String| Error(format!("{source}: byte {}: {what}", hex(offset)));
        let len = bytes.len();
        if len >= HARDWARE_ID.len() && bytes[..HARDWARE_ID.len()] != HARDWARE_ID[..] {
            let found = if bytes.starts_with(&RAW_SECTOR_SYNC) {
                "the sync pattern of a raw CD sector: an image of 2352-byte sectors (give an \
                 image of 2048-byte sectors, an .iso, or an IP.BIN)"
                    .to_string()
            } else {
                format!("\"{}\"", bytes[..HARDWARE_ID.len()].escape_ascii())
            };
            return Err(at(
                0,
                format!(
                    "expected the hardware id \"SEGA SEGASATURN \" of an IP (an SDK's IP.BIN, or \
                     a disc image's first sectors), found {found}"
                ),
            ));
        }
        let minimum = stub_offset(1);
        if len < minimum {
            return Err(Error(format!(
                "{source}: ends at byte {} ({len} bytes): expected at least 0x{minimum:X} bytes, \
                 the system id (0x000-0x0FF), Sega's security code (0x100-0xDFF) and an area \
                 code block (0x20 bytes) per area symbol",
                hex(len)
            )));
        }

        let (field_at, field_size) = ip_offsets::AREA_SYMBOLS;
        let field = &bytes[field_at..field_at + field_size];
        let count = field.iter().position(|&b| b == b' ').unwrap_or(field_size);
        let mut symbols: Vec<char> = Vec::new();
        for (i, &b) in field.iter().enumerate() {
            let c = b as char;
            if i >= count {
                if b != b' ' {
                    return Err(at(
                        field_at + i,
                        format!(
                            "expected spaces after the area symbols \"{}\", found {}",
                            String::from_iter(&symbols),
                            byte(b)
                        ),
                    ));
                }
            } else if !b.is_ascii() || !AREA_LETTERS.contains(c) {
                return Err(at(
                    field_at + i,
                    format!(
                        "expected an area symbol (J, T, U, B, K, A, E or L) in the area symbols \
                         \"{}\" at 0x040, found {}",
                        field.escape_ascii(),
                        byte(b)
                    ),
                ));
            } else if symbols.contains(&c) {
                return Err(at(
                    field_at + i,
                    format!("expected each area symbol once, found '{c}' again"),
                ));
            } else {
                symbols.push(c);
            }
        }
        if symbols.is_empty() {
            return Err(at(
                field_at,
                "expected at least one area symbol (J, T, U, B, K, A, E or L), found spaces".into(),
            ));
        }
        let listed = String::from_iter(&symbols);

        let (security_at, security_size) = SECURITY_CODE;
        let security_code = &bytes[security_at..security_at + security_size];
        for blank in [0x00, 0xFF] {
            if security_code.iter().all(|&b| b == blank) {
                return Err(at(
                    security_at,
                    format!(
                        "expected Sega's security code in bytes 0x100-0xDFF, as every SDK's \
                         IP.BIN and every disc's first sector hold it, found only 0x{blank:02X} \
                         bytes (not a real one: an IP of saturn-iso without a template has \
                         zeros there)"
                    ),
                ));
            }
        }

        let mut areas: Vec<(char, [u8; AREA_BLOCK_SIZE])> = Vec::new();
        for (i, &symbol) in symbols.iter().enumerate() {
            let start = AREA_CODE_OFFSET + AREA_BLOCK_SIZE * i;
            let end = start + AREA_BLOCK_SIZE;
            let has = list(areas.iter().map(|(s, _)| *s));
            let Some(block) = bytes.get(start..end) else {
                return Err(Error(format!(
                    "{source}: ends at byte {} ({len} bytes): expected the area code block for \
                     '{symbol}' at bytes {}-{} (the area symbols \"{listed}\" at 0x040 call for \
                     {} blocks, to 0x{:X}); it has blocks for {has}",
                    hex(len),
                    hex(start),
                    hex(end - 1),
                    symbols.len(),
                    stub_offset(symbols.len())
                )));
            };
            let initial = block[AREA_BLOCK_SYMBOL];
            if initial != symbol as u8 {
                return Err(at(
                    start + AREA_BLOCK_SYMBOL,
                    format!(
                        "expected the area code block for '{symbol}' (area symbol {} of \
                         \"{listed}\" at 0x040) at bytes {}-{}, its area name's initial '{symbol}' \
                         at this byte, found {}; the blocks before it are for {has}",
                        i + 1,
                        hex(start),
                        hex(end - 1),
                        byte(initial)
                    ),
                ));
            }
            let mut copy = [0u8; AREA_BLOCK_SIZE];
            copy.copy_from_slice(block);
            areas.push((symbol, copy));
        }
        Ok(IpTemplate {
            source: source.to_string(),
            security_code: security_code.to_vec(),
            areas,
        })
    }

    /// The template's area symbols, in its order (e.g. `JTUE`).
    pub fn symbols(&self) -> String {
        self.areas.iter().map(|(s, _)| *s).collect()
    }

    /// The block of each of `symbols`, in their order; an error naming the symbols the
    /// template has when it lacks one.
    pub fn blocks_for(&self, symbols: &str) -> Result<Vec<&[u8; AREA_BLOCK_SIZE]>, Error> {
        let mut blocks = Vec::new();
        let mut missing = Vec::new();
        for symbol in symbols.chars() {
            match self.areas.iter().find(|(s, _)| *s == symbol) {
                Some((_, block)) => blocks.push(block),
                None => missing.push(symbol),
            }
        }
        if !missing.is_empty() {
            return Err(Error(format!(
                "area symbols \"{symbols}\": the IP template {} has area code blocks for {} only, \
                 none for {}: give areas among \"{}\" (--areas), or a template that has them",
                self.source,
                list(self.symbols().chars()),
                list(missing),
                self.symbols()
            )));
        }
        Ok(blocks)
    }
}

/// A template of the layout a BIOS reads, with made-up bytes, not Sega's: the hardware id,
/// a system id of its own (maker `MADE-UP TEMPLATE`, IP size 0x1800, first read
/// 0x06010000), `areas` at 0x40, a made-up security code (neither all 0x00 nor all 0xFF),
/// one made-up block per area, its symbol at [`AREA_BLOCK_SYMBOL`], then 0xA5 bytes (an
/// initial program of its own) up to `len` bytes. For tests.
#[doc(hidden)]
pub fn made_up_template(areas: &str, len: usize) -> Vec<u8> {
    let mut ip = vec![0xA5u8; len.max(stub_offset(areas.len()))];
    let mut put =
        |offset: usize, bytes: &[u8]| ip[offset..offset + bytes.len()].copy_from_slice(bytes);
    put(0x00, HARDWARE_ID);
    put(0x10, b"MADE-UP TEMPLATE");
    put(0x20, b"T-999999  V9.999");
    put(0x30, b"19991231CD-1/1  ");
    put(0x40, format!("{areas:<10}      ").as_bytes());
    put(0x50, format!("{:<16}", "JAM").as_bytes());
    put(
        0x60,
        format!("{:<112}", "NOT SEGA'S: FILLER BYTES FOR TESTS").as_bytes(),
    );
    put(0xD0, &[b' '; 16]);
    put(0xE0, &0x1800u32.to_be_bytes());
    put(0xE4, &[0; 12]);
    put(0xF0, &0x0601_0000u32.to_be_bytes());
    put(0xF4, &[0; 12]);
    let security: Vec<u8> = (0..SECURITY_CODE.1).map(|i| (i * 37 + 11) as u8).collect();
    put(SECURITY_CODE.0, &security);
    for (i, symbol) in areas.bytes().enumerate() {
        let mut block = [0xC0 + i as u8; AREA_BLOCK_SIZE];
        block[AREA_BLOCK_SYMBOL] = symbol;
        put(stub_offset(i), &block);
    }
    ip
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{boot_stub, build_ip, build_ip_from_template, IpConfig, IP_SIZE};

    const SOURCE: &str = "made-up.bin";

    fn be32(ip: &[u8], offset: usize) -> u32 {
        u32::from_be_bytes(ip[offset..offset + 4].try_into().unwrap())
    }

    fn parse(bytes: &[u8]) -> Result<IpTemplate, Error> {
        IpTemplate::parse(bytes, SOURCE)
    }

    fn config(areas: &str) -> IpConfig {
        let mut config = IpConfig::new("JOM DEMO", 0x0600_4000);
        config.area_symbols = areas.into();
        config
    }

    #[test]
    fn takes_the_security_code_and_the_area_blocks() {
        let bytes = made_up_template("JTUE", 0x1800);
        let t = parse(&bytes).unwrap();
        assert_eq!(t.source, SOURCE);
        assert_eq!(t.symbols(), "JTUE");
        assert_eq!(t.security_code, &bytes[0x100..0xE00]);
        for (i, (symbol, block)) in t.areas.iter().enumerate() {
            assert_eq!(*symbol, "JTUE".as_bytes()[i] as char);
            assert_eq!(&block[..], &bytes[0xE00 + 0x20 * i..0xE20 + 0x20 * i]);
        }
        // Exactly as long as it must be, and all eight areas.
        assert!(parse(&bytes[..0xE80]).is_ok());
        let all = made_up_template("JTUBKAEL", 0xF00);
        assert_eq!(parse(&all).unwrap().symbols(), "JTUBKAEL");
    }

    /// Every field of the written IP where a BIOS reads it.
    #[test]
    fn the_ip_for_a_console() {
        let bytes = made_up_template("JTUE", 0x1800);
        let t = parse(&bytes).unwrap();
        let c = config(&t.symbols());
        let ip = build_ip_from_template(&c, &t).unwrap();
        assert_eq!(ip.len(), IP_SIZE);
        // The system id is ours, not the template's, and what build_ip writes.
        assert_eq!(ip[..0x100], build_ip(&c).unwrap()[..0x100]);
        assert_eq!(&ip[0x00..0x10], b"SEGA SEGASATURN ");
        assert_eq!(&ip[0x10..0x20], b"SEGA TP T-000   ");
        assert_eq!(&ip[0x40..0x4A], b"JTUE      ");
        assert_eq!(&ip[0x60..0x68], b"JOM DEMO");
        assert_eq!(be32(&ip, 0xE0), 0x1000); // IP size: the template said 0x1800
        assert_eq!(be32(&ip, 0xE8), 0); // master stack
        assert_eq!(be32(&ip, 0xEC), 0); // slave stack
        assert_eq!(be32(&ip, 0xF0), 0x0600_4000); // first read: the template said 0x06010000
        assert_eq!(be32(&ip, 0xF4), 0); // first-read size: the whole file

        // The security code byte for byte, then the area blocks in the order of 0x40.
        assert_eq!(ip[0x100..0xE00], bytes[0x100..0xE00]);
        for (i, symbol) in "JTUE".bytes().enumerate() {
            let block = &ip[0xE00 + 0x20 * i..0xE20 + 0x20 * i];
            assert_eq!(block, &bytes[0xE00 + 0x20 * i..0xE20 + 0x20 * i]);
            assert_eq!(block[AREA_BLOCK_SYMBOL], symbol);
        }
        // Our stub right after the last block; nothing of the template's own program.
        assert_eq!(stub_offset(4), 0xE80);
        assert_eq!(&ip[0xE80..0xE8C], &boot_stub(0x0600_4000));
        assert!(ip[0xE8C..].iter().all(|&b| b == 0));
        // The stub's literal: mov.l @(1,PC) at 0x06002E80 reads (0x06002E80 & !3) + 4 + 4.
        let literal = (0x0600_2E80usize & !3) + 4 + 4 * usize::from(ip[0xE81]) - 0x0600_2000;
        assert_eq!(literal, 0xE88);
        assert_eq!(be32(&ip, literal), 0x0600_4000);
        // The IP size covers the stub and leaves the initial program at least 0x100 bytes.
        assert!(be32(&ip, 0xE0) as usize >= 0xE8C);
        assert!(be32(&ip, 0xE0) as usize - stub_offset(8) >= 0x100);
    }

    #[test]
    fn areas_in_the_order_asked() {
        let bytes = made_up_template("JTUE", 0x1000);
        let t = parse(&bytes).unwrap();
        let ip = build_ip_from_template(&config("EJ"), &t).unwrap();
        assert_eq!(&ip[0x40..0x4A], b"EJ        ");
        assert_eq!(ip[0xE00..0xE20], bytes[0xE60..0xE80]); // E
        assert_eq!(ip[0xE20..0xE40], bytes[0xE00..0xE20]); // J
        assert_eq!(&ip[0xE40..0xE4C], &boot_stub(0x0600_4000));
        assert!(ip[0xE4C..].iter().all(|&b| b == 0));
        // Eight areas: the stub at 0xF00, 0x100 bytes before the IP's end.
        let all = made_up_template("JTUBKAEL", 0x1000);
        let mut c = config("JTUBKAEL");
        c.first_read_address = 0x0601_0000;
        let ip = build_ip_from_template(&c, &parse(&all).unwrap()).unwrap();
        assert_eq!(ip[0xE00..0xF00], all[0xE00..0xF00]);
        assert_eq!(&ip[0xF00..0xF0C], &boot_stub(0x0601_0000));
        assert_eq!(be32(&ip, 0xF0), 0x0601_0000);
    }

    #[test]
    fn areas_the_template_lacks_are_refused() {
        let t = parse(&made_up_template("JTUE", 0x1000)).unwrap();
        let e = build_ip_from_template(&config("JK"), &t).unwrap_err().0;
        for piece in [
            "area symbols \"JK\"",
            "made-up.bin has area code blocks for J, T, U, E only, none for K",
            "among \"JTUE\"",
        ] {
            assert!(e.contains(piece), "{e:?} lacks {piece:?}");
        }
        // The system id's own checks come first.
        let e = build_ip_from_template(&config("JZ"), &t).unwrap_err().0;
        assert!(e.contains("'Z' is not one of"), "{e}");
    }

    /// Each refusal: one message with the file, the byte offset and what was expected.
    #[test]
    fn refusals() {
        let good = made_up_template("JTUE", 0x1800);
        let edit = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut bytes = good.clone();
            f(&mut bytes);
            bytes
        };
        let cases: Vec<(Vec<u8>, &[&str])> = vec![
            (
                vec![],
                &["made-up.bin: ends at byte 0x000 (0 bytes): expected at least 0xE20 bytes"],
            ),
            (
                good[..0xDFF].to_vec(),
                &[
                    "ends at byte 0xDFF (3583 bytes)",
                    "security code (0x100-0xDFF)",
                ],
            ),
            (
                good[..0xE70].to_vec(),
                &[
                    "ends at byte 0xE70 (3696 bytes)",
                    "expected the area code block for 'E' at bytes 0xE60-0xE7F",
                    "\"JTUE\" at 0x040 call for 4 blocks, to 0xE80",
                    "it has blocks for J, T, U",
                ],
            ),
            (
                edit(&|b| b[15] = b'X'),
                &[
                    "made-up.bin: byte 0x000: expected the hardware id \"SEGA SEGASATURN \"",
                    "found \"SEGA SEGASATURNX\"",
                ],
            ),
            (
                edit(&|b| b[..12].copy_from_slice(&RAW_SECTOR_SYNC)),
                &["byte 0x000", "raw CD sector", "2352-byte sectors"],
            ),
            (
                edit(&|b| b[0x100..0xE00].fill(0)),
                &[
                    "made-up.bin: byte 0x100: expected Sega's security code",
                    "only 0x00 bytes",
                ],
            ),
            (
                edit(&|b| b[0x100..0xE00].fill(0xFF)),
                &["byte 0x100", "only 0xFF bytes"],
            ),
            (
                edit(&|b| b[0x41] = b'X'),
                &[
                    "byte 0x041: expected an area symbol",
                    "\"JXUE      \"",
                    "found 0x58 ('X')",
                ],
            ),
            (
                edit(&|b| b[0x41] = b'J'),
                &["byte 0x041: expected each area symbol once, found 'J' again"],
            ),
            (
                edit(&|b| b[0x40..0x4A].fill(b' ')),
                &["byte 0x040: expected at least one area symbol"],
            ),
            (
                edit(&|b| b[0x48] = b'K'),
                &["byte 0x048: expected spaces after the area symbols \"JTUE\""],
            ),
            (
                edit(&|b| b[0xE60..0xE80].fill(0)),
                &[
                    "made-up.bin: byte 0xE68: expected the area code block for 'E'",
                    "area symbol 4 of \"JTUE\"",
                    "bytes 0xE60-0xE7F",
                    "found 0x00",
                    "the blocks before it are for J, T, U",
                ],
            ),
            (
                edit(&|b| b.copy_within(0xE20..0xE40, 0xE00)),
                &[
                    "byte 0xE08: expected the area code block for 'J'",
                    "found 0x54 ('T')",
                    "before it are for none",
                ],
            ),
        ];
        for (i, (bytes, pieces)) in cases.into_iter().enumerate() {
            let Err(Error(e)) = parse(&bytes) else {
                panic!("case {i} ({pieces:?}) was accepted");
            };
            assert_eq!(e.lines().count(), 1, "{e}");
            for piece in pieces {
                assert!(e.contains(piece), "{e:?} lacks {piece:?}");
            }
        }
    }

    #[test]
    fn reads_the_start_of_a_disc_image() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disc.iso");
        let mut image = made_up_template("U", 0x8000);
        image.resize(0x10_0000, 0x5A);
        std::fs::write(&path, &image).unwrap();
        let t = IpTemplate::read(&path).unwrap();
        assert_eq!(t.symbols(), "U");
        assert_eq!(t.source, path.display().to_string());
        let e = IpTemplate::read(&dir.path().join("missing.bin"))
            .unwrap_err()
            .0;
        assert!(e.starts_with("cannot read the IP template "), "{e}");
        assert!(e.contains("missing.bin"), "{e}");
    }
}
