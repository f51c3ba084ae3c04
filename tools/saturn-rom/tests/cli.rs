//! The `saturn-rom` binary: a ROM written, and errors with exit status 1 and no output
//! file.

use std::process::Command;

use saturn_rom::{build_rom, RomConfig, MAX_PROGRAM_SIZE};

fn program(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + 3) as u8).collect()
}

/// The binary: a ROM written, and errors with exit status 1 and no output file.
#[test]
fn command_line() {
    let exe = env!("CARGO_BIN_EXE_saturn-rom");
    let dir = tempfile::tempdir().unwrap();
    let prog = dir.path().join("prog.bin");
    let out = dir.path().join("boot.rom");
    std::fs::write(&prog, program(1000)).unwrap();
    let o = Command::new(exe)
        .arg("--program")
        .arg(&prog)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rom = std::fs::read(&out).unwrap();
    assert_eq!(
        rom,
        build_rom(&program(1000), &RomConfig::default()).unwrap()
    );

    std::fs::write(&prog, program(MAX_PROGRAM_SIZE + 1)).unwrap();
    let big = dir.path().join("big.rom");
    let o = Command::new(exe)
        .arg("--program")
        .arg(&prog)
        .arg("-o")
        .arg(&big)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.starts_with("saturn-rom: the program is 522241 bytes"),
        "{stderr}"
    );
    assert!(!big.exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(
        leftovers.len(),
        2,
        "only prog.bin and boot.rom: {leftovers:?}"
    );

    let o = Command::new(exe)
        .args(["--program", "/nonexistent/prog.bin", "-o"])
        .arg(&big)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(!big.exists());
    let o = Command::new(exe)
        .arg("--program")
        .arg(&prog)
        .args(["--load-address", "nowhere", "-o"])
        .arg(&big)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(!big.exists());
}
