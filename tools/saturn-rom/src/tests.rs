//! The ROM's layout: vectors, header, loader, payload placement and the limits.

use super::*;
use std::process::Command;

fn u32_at(rom: &[u8], offset: usize) -> u32 {
    u32::from_be_bytes(rom[offset..offset + 4].try_into().unwrap())
}

fn program(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

#[test]
fn vectors_point_at_the_loader() {
    let rom = build_rom(&program(100), &RomConfig::default()).unwrap();
    assert_eq!(rom.len(), ROM_SIZE);
    // Power-on reset: PC, SP; manual reset: the same.
    assert_eq!(u32_at(&rom, 0x0), ENTRY);
    assert_eq!(u32_at(&rom, 0x4), DEFAULT_STACK);
    assert_eq!(u32_at(&rom, 0x8), ENTRY);
    assert_eq!(u32_at(&rom, 0xC), DEFAULT_STACK);
    // Every other vector (exceptions, traps, interrupts) stops at HALT.
    for vector in 4..256 {
        assert_eq!(u32_at(&rom, vector * 4), HALT, "vector {vector}");
    }
    // HALT is `bra HALT; nop`, ENTRY the instruction after it.
    assert_eq!(
        &rom[HALT as usize..HALT as usize + 4],
        &[0xaf, 0xfe, 0x00, 0x09]
    );
    assert_eq!(ENTRY, HALT + 4);
}

#[test]
fn header_and_loader() {
    let config = RomConfig {
        load_address: 0x0020_0000,
        stack: 0x0030_0000,
    };
    let rom = build_rom(&program(10), &config).unwrap();
    assert_eq!(&rom[0x400..0x408], b"JOMBOOT1");
    assert_eq!(u32_at(&rom, 0x408), 0x0020_0000);
    assert_eq!(u32_at(&rom, 0x40C), PAYLOAD_OFFSET as u32);
    assert_eq!(
        u32_at(&rom, 0x410),
        12,
        "the size is rounded up to a multiple of 4"
    );
    assert_eq!(u32_at(&rom, 0x414), 0x0030_0000);
    assert_eq!(u32_at(&rom, 0x4), 0x0030_0000);
    assert_eq!(&rom[LOADER_OFFSET..LOADER_OFFSET + LOADER.len()], &LOADER);
    // The loader's literal pool: the header's address and SR = 0xF0.
    assert_eq!(u32_at(&LOADER, 0xAC), 0xF0);
    assert_eq!(u32_at(&LOADER, 0xB8), HEADER_OFFSET as u32);
    // The CD block's HIRQ register.
    assert_eq!(u32_at(&LOADER, 0xC0), 0x2589_0008);
    // The slave SH-2's entry and stack (the BIOS work area's words).
    assert_eq!(u32_at(&LOADER, 0xCC), 0x0600_0250);
    assert_eq!(u32_at(&LOADER, 0xD0), 0x0600_02AC);
    // The reset branches over `enter`, which starts `mov r4,r1; add r4,r6`.
    assert_eq!(ENTER, ENTRY + 4);
    let enter = ENTER as usize - LOADER_OFFSET;
    assert_eq!(&LOADER[enter..enter + 4], &[0x61, 0x43, 0x36, 0x4c]);
}

#[test]
fn payload_placement() {
    let prog = program(5001);
    let rom = build_rom(&prog, &RomConfig::default()).unwrap();
    assert_eq!(&rom[PAYLOAD_OFFSET..PAYLOAD_OFFSET + prog.len()], &prog[..]);
    // Zero padding to the multiple of 4 and to the end of the ROM.
    assert!(rom[PAYLOAD_OFFSET + prog.len()..].iter().all(|&b| b == 0));
    // Nothing between the loader and the payload.
    assert!(rom[LOADER_OFFSET + LOADER.len()..PAYLOAD_OFFSET]
        .iter()
        .all(|&b| b == 0));
}

#[test]
fn the_largest_program_fits_one_more_byte_does_not() {
    let rom = build_rom(&program(MAX_PROGRAM_SIZE), &RomConfig::default()).unwrap();
    assert_eq!(rom.len(), ROM_SIZE);
    assert_eq!(u32_at(&rom, 0x410), MAX_PROGRAM_SIZE as u32);
    let e = build_rom(&program(MAX_PROGRAM_SIZE + 1), &RomConfig::default()).unwrap_err();
    assert!(e.0.contains("the ROM has room for 522240"), "{e}");
}

#[test]
fn bad_programs_and_addresses() {
    let cases: &[(usize, u32, &str)] = &[
        (0, 0x0600_4000, "the program is empty"),
        (4, 0x0600_4002, "not a multiple of 4"),
        (4, 0x0000_1000, "not in work RAM"),
        (4, 0x0610_0000, "not in work RAM"),
        (0x1_0001, 0x002F_0000, "runs past the end of low work RAM"),
        (8, 0x060F_FFFC, "runs past the end of high work RAM"),
    ];
    for &(len, load_address, message) in cases {
        let config = RomConfig {
            load_address,
            ..RomConfig::default()
        };
        let e = build_rom(&program(len), &config).unwrap_err();
        assert!(
            e.0.contains(message),
            "{len} bytes at {load_address:#x}: {e}"
        );
    }
    let config = RomConfig {
        stack: 0x0600_3FFE,
        ..RomConfig::default()
    };
    assert!(build_rom(&program(4), &config).is_err());
}

#[test]
fn parse_numbers() {
    assert_eq!(parse_u32("0x06004000"), Ok(0x0600_4000));
    assert_eq!(parse_u32("0X0600_4000"), Ok(0x0600_4000));
    assert_eq!(parse_u32("100663296"), Ok(0x0600_0000));
    assert!(parse_u32("0x1_0000_0000").is_err());
    assert!(parse_u32("six").is_err());
}

/// `src/loader.s` assembles to [`LOADER`] (skipped, with a note, when binutils-sh-elf is
/// not installed: `apt-get install binutils-sh-elf`).
#[test]
fn loader_matches_its_source() {
    if Command::new("sh-elf-as").arg("--version").output().is_err() {
        test_skip::skip("sh-elf-as is not installed: loader.s not reassembled");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/src/loader.s");
    let object = dir.path().join("loader.o");
    let binary = dir.path().join("loader.bin");
    let status = Command::new("sh-elf-as")
        .args(["--big", "-o"])
        .arg(&object)
        .arg(source)
        .status()
        .unwrap();
    assert!(status.success());
    let status = Command::new("sh-elf-objcopy")
        .args(["-O", "binary", "-j", ".text"])
        .arg(&object)
        .arg(&binary)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&binary).unwrap(), LOADER);
    // The symbols the vectors use.
    let nm = Command::new("sh-elf-nm").arg(&object).output().unwrap();
    let nm = String::from_utf8(nm.stdout).unwrap();
    assert!(nm.contains("00000000 T halt"), "{nm}");
    assert!(nm.contains("00000004 T start"), "{nm}");
}
