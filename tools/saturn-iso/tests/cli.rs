//! The `saturn-iso` binary: an image built end to end (when genisoimage or xorriso is
//! installed) and read back as Yabause reads it, and bad arguments (exit status 1, no
//! output file).

use std::path::Path;
use std::process::{Command, Output};

use saturn_iso::{root_files, Tool, PROGRAM_NAME};

fn saturn_iso(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_saturn-iso"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fake program: 5000 bytes, so that it spans three sectors.
fn program(dir: &Path) -> String {
    let bytes: Vec<u8> = (0..5000u32).map(|i| (i * 7 + 3) as u8).collect();
    let path = dir.join("prog.bin");
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn check_image(tool: &str) {
    let dir = tempfile::tempdir().unwrap();
    let prog = program(dir.path());
    let extra = dir.path().join("robot.jom");
    std::fs::write(&extra, b"JOM1 fake").unwrap();
    let iso = dir.path().join("demo.iso");
    let o = saturn_iso(&[
        "--program",
        &prog,
        "--load-address",
        "0x06004000",
        "--title",
        "JOM DEMO",
        "--file",
        &format!("ROBOT.JOM={}", extra.display()),
        "--tool",
        tool,
        "-o",
        iso.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let image = std::fs::read(&iso).unwrap();
    // The system area holds our IP: what Yabause's BIOS emulation checks.
    assert_eq!(&image[..16], b"SEGA SEGASATURN ");
    assert_eq!(&image[0xE0..0xE4], &[0, 0, 0x10, 0]);
    assert_eq!(&image[0xF0..0xF4], &[0x06, 0, 0x40, 0]);
    assert_eq!(&image[0xE00..0xE0C], &saturn_iso::boot_stub(0x0600_4000));
    // The volume descriptor's system and volume ids.
    assert_eq!(&image[16 * 2048 + 8..16 * 2048 + 23], b"SEGA SEGASATURN");
    assert_eq!(&image[16 * 2048 + 40..16 * 2048 + 47], b"JOMDEMO");
    // The program first in the root directory, then the extra file.
    let files = root_files(&image).unwrap();
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, [PROGRAM_NAME, "ROBOT.JOM"]);
    assert_eq!(files[0].data, std::fs::read(&prog).unwrap());
    assert_eq!(files[1].data, b"JOM1 fake");
    let cue = std::fs::read_to_string(dir.path().join("demo.cue")).unwrap();
    assert_eq!(
        cue,
        "FILE \"demo.iso\" BINARY\r\n  TRACK 01 MODE1/2048\r\n    INDEX 01 00:00:00\r\n"
    );
    // Nothing else left beside the outputs (temporary files renamed).
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    left.sort();
    assert_eq!(left, ["demo.cue", "demo.iso", "prog.bin", "robot.jom"]);
}

#[test]
fn builds_a_bootable_image() {
    match Tool::find() {
        Ok(tool) => check_image(tool.name()),
        Err(e) => test_skip::skip(&e.to_string()),
    }
}

#[test]
fn builds_with_xorriso_too() {
    if Tool::find().is_ok() && Command::new("xorriso").arg("-version").output().is_ok() {
        check_image("xorriso");
    } else {
        test_skip::skip("xorriso is not installed");
    }
}

/// Each case: the arguments after `--program P -o OUT`, and a piece of the message.
#[test]
fn bad_arguments_exit_1_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let prog = program(dir.path());
    let out = dir.path().join("out.iso");
    let out_s = out.to_str().unwrap().to_string();
    let missing = dir.path().join("missing.bin");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--title", "T", "--load-address", "0x06000000"],
            "outside high work RAM",
        ),
        (
            &["--title", "T", "--load-address", "0x06004002"],
            "not a multiple of 4",
        ),
        (
            &["--title", "T", "--load-address", "0x060FFF00"],
            "ends past high work RAM",
        ),
        (
            &["--title", "T", "--load-address", "six"],
            "not a 32-bit number",
        ),
        (&["--title", &"T".repeat(113)], "at most 112 fit"),
        (&["--title", "T", "--file", "robot.jom=x"], "8.3 name"),
        (
            &["--title", "T", "--file", "ROBOT.JOM"],
            "expected NAME=PATH",
        ),
        (
            &["--title", "T", "--file", "00.BIN=x"],
            "sorts before 0PROGRAM.BIN",
        ),
        (&["--title", "T", "--file", "0PROGRAM.BIN=x"], "given twice"),
        (
            &[
                "--title",
                "T",
                "--file",
                &format!("A.BIN={}", missing.display()),
            ],
            "no such file",
        ),
        (&["--title", "T", "--date", "2026"], "YYYYMMDD"),
        (&["--title", "T", "--areas", "JZ"], "not one of"),
        (&["--title", "T", "--volume", "lower"], "volume id"),
        (&["--title", "T", "--tool", "mkisofs9"], "invalid value"),
        (&[], "--title"),
        (&["--title", "T", "--no-such-option"], "unexpected argument"),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--program", &prog, "-o", &out_s];
        args.extend_from_slice(extra);
        let o = saturn_iso(&args);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(message),
            "{extra:?}: {:?} lacks {message:?}",
            stderr(&o)
        );
        assert!(!out.exists(), "{extra:?} left {out_s}");
    }
    // A missing program, an empty one, and no --program at all.
    let o = saturn_iso(&[
        "--program",
        missing.to_str().unwrap(),
        "--title",
        "T",
        "-o",
        &out_s,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read the program"),
        "{}",
        stderr(&o)
    );
    let empty = dir.path().join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    let o = saturn_iso(&[
        "--program",
        empty.to_str().unwrap(),
        "--title",
        "T",
        "-o",
        &out_s,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is empty"), "{}", stderr(&o));
    let o = saturn_iso(&["--title", "T", "-o", &out_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!out.exists());
    // --help is not an error.
    assert_eq!(saturn_iso(&["--help"]).status.code(), Some(0));
}
