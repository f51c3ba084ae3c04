//! The `saturn-iso` binary: an image built end to end (when genisoimage or xorriso is
//! installed) and read back as Yabause reads it, the same with an IP template (made up by
//! the test: the layout, not Sega's bytes), and bad arguments and templates (exit status 1,
//! no output file).

use std::path::Path;
use std::process::{Command, Output};

use saturn_iso::{made_up_template, root_files, Tool, PROGRAM_NAME};

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

fn be32(bytes: &[u8], offset: usize) -> u32 {
    u32::from_be_bytes(bytes[offset..offset + 4].try_into().unwrap())
}

/// `--ip-template` with a made-up template of the areas JTUE: the image's IP (and
/// `--ip-out`) has our system id with the template's areas, its security code and area
/// blocks, our stub after them; `--areas EU` takes those two blocks in that order.
#[test]
fn builds_an_image_for_a_console() {
    let tool = match Tool::find() {
        Ok(tool) => tool,
        Err(e) => return test_skip::skip(&e.to_string()),
    };
    let dir = tempfile::tempdir().unwrap();
    let prog = program(dir.path());
    let template = made_up_template("JTUE", 0x1800);
    let template_path = dir.path().join("IP.BIN");
    std::fs::write(&template_path, &template).unwrap();
    for (areas, order) in [(None, "JTUE"), (Some("EU"), "EU")] {
        let iso = dir.path().join("console.iso");
        let ip_out = dir.path().join("ip-out.bin");
        let mut args = vec![
            "--program",
            &prog,
            "--title",
            "JOM DEMO",
            "--tool",
            tool.name(),
            "--ip-template",
            template_path.to_str().unwrap(),
            "--ip-out",
            ip_out.to_str().unwrap(),
            "-o",
            iso.to_str().unwrap(),
        ];
        if let Some(areas) = areas {
            args.extend(["--areas", areas]);
        }
        let o = saturn_iso(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            stdout.contains(&format!("IP for a console: areas {order}")),
            "{stdout}"
        );
        let image = std::fs::read(&iso).unwrap();
        let ip = &image[..0x1000];
        assert_eq!(std::fs::read(&ip_out).unwrap(), ip);
        assert_eq!(&ip[..16], b"SEGA SEGASATURN ");
        assert_eq!(&ip[0x10..0x20], b"SEGA TP T-000   "); // ours, not the template's
        assert_eq!(&ip[0x40..0x40 + order.len()], order.as_bytes());
        assert_eq!(be32(ip, 0xE0), 0x1000);
        assert_eq!(be32(ip, 0xF0), 0x0600_4000);
        assert_eq!(ip[0x100..0xE00], template[0x100..0xE00]);
        for (i, symbol) in order.bytes().enumerate() {
            let from = "JTUE".bytes().position(|s| s == symbol).unwrap();
            assert_eq!(
                ip[0xE00 + 0x20 * i..0xE20 + 0x20 * i],
                template[0xE00 + 0x20 * from..0xE20 + 0x20 * from]
            );
        }
        let stub = 0xE00 + 0x20 * order.len();
        assert_eq!(&ip[stub..stub + 12], &saturn_iso::boot_stub(0x0600_4000));
        assert!(ip[stub + 12..].iter().all(|&b| b == 0));
        // The program is still the first file, as the BIOS reads it.
        let files = root_files(&image).unwrap();
        assert_eq!(files[0].name, PROGRAM_NAME);
        assert_eq!(files[0].data, std::fs::read(&prog).unwrap());
    }
}

/// A template refused: exit status 1, one message naming the file, the byte and what was
/// expected, and neither the image nor --ip-out written.
#[test]
fn bad_templates_exit_1_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let prog = program(dir.path());
    let out = dir.path().join("out.iso");
    let ip_out = dir.path().join("ip-out.bin");
    let good = made_up_template("JTUE", 0x1000);
    let mut no_security = good.clone();
    no_security[0x100..0xE00].fill(0);
    let mut no_e_block = good.clone();
    no_e_block[0xE60..0xE80].fill(0xFF);
    let mut not_an_ip = good.clone();
    not_an_ip[..4].copy_from_slice(b"JOM1");
    let cases: &[(&[u8], &[&str], &[&str])] = &[
        (&good[..0xD00], &[], &["ends at byte 0xD00 (3328 bytes)"]),
        (&not_an_ip, &[], &["byte 0x000: expected the hardware id"]),
        (
            &no_security,
            &[],
            &["byte 0x100: expected Sega's security code"],
        ),
        (
            &no_e_block,
            &[],
            &[
                "byte 0xE68: expected the area code block for 'E'",
                "before it are for J, T, U",
            ],
        ),
        (
            &good,
            &["--areas", "JK"],
            &["has area code blocks for J, T, U, E only, none for K"],
        ),
    ];
    let template = dir.path().join("TEMPLATE.BIN");
    for (bytes, extra, pieces) in cases {
        std::fs::write(&template, bytes).unwrap();
        let mut args = vec![
            "--program",
            &prog,
            "--title",
            "T",
            "--ip-template",
            template.to_str().unwrap(),
            "--ip-out",
            ip_out.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let o = saturn_iso(&args);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{pieces:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.starts_with("saturn-iso: "), "{e}");
        if !pieces[0].starts_with("has area") {
            assert!(e.contains(&format!("{}: ", template.display())), "{e}");
        }
        for piece in *pieces {
            assert!(e.contains(piece), "{e:?} lacks {piece:?}");
        }
        assert!(
            !out.exists() && !ip_out.exists(),
            "{pieces:?} left an output"
        );
    }
    let o = saturn_iso(&[
        "--program",
        &prog,
        "--title",
        "T",
        "--ip-template",
        dir.path().join("missing.bin").to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read the IP template"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}
