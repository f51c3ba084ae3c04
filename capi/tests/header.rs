//! `include/jom.h` against the Rust side: every constant the same, every function of the
//! library declared, and C that includes it compiling with the host's gcc and (when the
//! SH-2 toolchain is there) `sh-elf-gcc -m2 -mb`, whose build checks the structs' sizes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn header() -> String {
    std::fs::read_to_string(root().join("include/jom.h")).expect("include/jom.h")
}

/// The value of `#define NAME value` of the header's SH-2 branch (the first definition).
fn define(text: &str, name: &str) -> Option<i64> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("#define ")?;
        let (key, value) = rest.split_once(char::is_whitespace)?;
        let value = value.split("/*").next()?.trim();
        (key == name).then(|| value.parse().ok())?
    })
}

#[test]
fn the_constants_are_the_rust_ones() {
    let text = header();
    let codes = [
        ("JOM_OK", jom_c::JOM_OK),
        ("JOM_ERROR_NULL", jom_c::JOM_ERROR_NULL),
        ("JOM_ERROR_HANDLE", jom_c::JOM_ERROR_HANDLE),
        ("JOM_ERROR_ALIGNMENT", jom_c::JOM_ERROR_ALIGNMENT),
        ("JOM_ERROR_BAD_MODEL", jom_c::JOM_ERROR_BAD_MODEL),
        ("JOM_ERROR_ARGUMENT", jom_c::JOM_ERROR_ARGUMENT),
        (
            "JOM_ERROR_BUFFER_TOO_SMALL",
            jom_c::JOM_ERROR_BUFFER_TOO_SMALL,
        ),
        ("JOM_ERROR_VRAM_FULL", jom_c::JOM_ERROR_VRAM_FULL),
        ("JOM_ERROR_TABLE_FULL", jom_c::JOM_ERROR_TABLE_FULL),
        (
            "JOM_ERROR_MISSING_TEXTURE",
            jom_c::JOM_ERROR_MISSING_TEXTURE,
        ),
        ("JOM_ERROR_BAD_TEXTURE", jom_c::JOM_ERROR_BAD_TEXTURE),
        ("JOM_ERROR_LIST_FULL", jom_c::JOM_ERROR_LIST_FULL),
        ("JOM_ERROR_NOT_FOUND", jom_c::JOM_ERROR_NOT_FOUND),
        ("JOM_ERROR_HARDWARE", jom_c::JOM_ERROR_HARDWARE),
        ("JOM_ERROR_GOURAUD_VRAM", jom_c::JOM_ERROR_GOURAUD_VRAM),
        ("JOM_ERROR_GOURAUD_FULL", jom_c::JOM_ERROR_GOURAUD_FULL),
        ("JOM_ERROR_IN_USE", jom_c::JOM_ERROR_IN_USE),
        ("JOM_ERROR_NO_FRAME", jom_c::JOM_ERROR_NO_FRAME),
    ];
    for (name, value) in codes {
        assert_eq!(define(&text, name), Some(i64::from(value)), "{name}");
    }
    let capacities = [
        ("JOM_MAX_BONES", jom_c::JOM_MAX_BONES),
        ("JOM_MAX_TEXTURES", jom_c::JOM_MAX_TEXTURES),
        ("JOM_MAX_GOURAUD", jom_c::JOM_MAX_GOURAUD),
        ("JOM_MAX_MODEL_TEXTURES", jom_c::JOM_MAX_MODEL_TEXTURES),
        ("JOM_MAX_DRAWS", jom_c::JOM_MAX_DRAWS),
        ("JOM_MAX_LEVELS", jom_c::JOM_MAX_LEVELS),
    ];
    for (name, value) in capacities {
        assert_eq!(define(&text, name), Some(value as i64), "{name}");
    }
    let billboards = [
        (
            "JOM_BILLBOARD_HALF_TRANSPARENT",
            jom_c::JOM_BILLBOARD_HALF_TRANSPARENT,
        ),
        ("JOM_BILLBOARD_MESH", jom_c::JOM_BILLBOARD_MESH),
        ("JOM_BILLBOARD_NO_FOG", jom_c::JOM_BILLBOARD_NO_FOG),
        ("JOM_ANCHOR_UPPER_LEFT", jom_c::JOM_ANCHOR_UPPER_LEFT),
        ("JOM_ANCHOR_UPPER_CENTER", jom_c::JOM_ANCHOR_UPPER_CENTER),
        ("JOM_ANCHOR_UPPER_RIGHT", jom_c::JOM_ANCHOR_UPPER_RIGHT),
        ("JOM_ANCHOR_CENTER_LEFT", jom_c::JOM_ANCHOR_CENTER_LEFT),
        ("JOM_ANCHOR_CENTER", jom_c::JOM_ANCHOR_CENTER),
        ("JOM_ANCHOR_CENTER_RIGHT", jom_c::JOM_ANCHOR_CENTER_RIGHT),
        ("JOM_ANCHOR_LOWER_LEFT", jom_c::JOM_ANCHOR_LOWER_LEFT),
        ("JOM_ANCHOR_LOWER_CENTER", jom_c::JOM_ANCHOR_LOWER_CENTER),
        ("JOM_ANCHOR_LOWER_RIGHT", jom_c::JOM_ANCHOR_LOWER_RIGHT),
    ];
    for (name, value) in billboards {
        assert_eq!(define(&text, name), Some(i64::from(value)), "{name}");
    }
    // The sizes: the first branch is the SH-2's, the second a 64-bit host's.
    let host = text.split("#else").nth(1).expect("the 64-bit branch");
    for size in jom_c::STATE_SIZES {
        assert_eq!(
            define(&text, size.name),
            Some(size.sh2 as i64),
            "{} (SH-2)",
            size.name
        );
        assert_eq!(
            define(host, size.name),
            Some(size.host as i64),
            "{} (64-bit)",
            size.name
        );
    }
}

#[test]
fn every_library_function_is_declared() {
    let text = header();
    let sources = [
        "model.rs",
        "textures.rs",
        "player.rs",
        "draw.rs",
        "frame.rs",
        "world.rs",
        "result.rs",
        "saturn.rs",
    ];
    let mut count = 0;
    for source in sources {
        let code = std::fs::read_to_string(root().join("src").join(source)).expect("source");
        for line in code.lines().filter(|l| l.contains("extern \"C\" fn jom_")) {
            let name = line
                .split("fn ")
                .nth(1)
                .and_then(|r| r.split('(').next())
                .unwrap();
            assert!(
                text.contains(&format!(" {name}(")),
                "{name} is not declared in jom.h"
            );
            count += 1;
        }
    }
    assert!(count >= 40, "{count} functions");
}

fn compile(compiler: &str, flags: &[&str]) {
    let output = Command::new(compiler)
        .args(flags)
        .args([
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
            "-fsyntax-only",
            "-I",
        ])
        .arg(root().join("include"))
        .arg(root().join("tests/c/abi_test.c"))
        .output()
        .unwrap_or_else(|e| panic!("{compiler}: {e}"));
    assert!(
        output.status.success(),
        "{compiler}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn c_compiles_against_the_header_on_the_host() {
    if Command::new("gcc").arg("--version").output().is_err() {
        test_skip::skip("gcc absent");
        return;
    }
    compile("gcc", &[]);
    // C++ too (the extern "C" block).
    let output = Command::new("g++")
        .args([
            "-x",
            "c++",
            "-std=c++17",
            "-Wall",
            "-Werror",
            "-fsyntax-only",
            "-I",
        ])
        .arg(root().join("include"))
        .arg(root().join("include/jom.h"))
        .output();
    if let Ok(output) = output {
        assert!(
            output.status.success(),
            "g++: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The SH-2 GCC of ci/sh2-toolchain.sh's cache, if built.
fn sh_gcc() -> Option<PathBuf> {
    if let Some(cc) = std::env::var_os("JOM_SH2_CC") {
        return Some(cc.into());
    }
    let cache = Path::new(&std::env::var_os("HOME")?).join(".cache/jom-sh2");
    std::fs::read_dir(cache)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("gcc/bin/sh-elf-gcc"))
        .find(|p| p.exists())
}

#[test]
fn c_compiles_against_the_header_for_the_sh2() {
    let Some(gcc) = sh_gcc() else {
        test_skip::skip("sh-elf-gcc absent (ci/sh2-toolchain.sh builds it)");
        return;
    };
    // -D__SH2__ is GCC's own under -m2: the header's _Static_asserts of the structs run.
    compile(gcc.to_str().unwrap(), &["-m2", "-mb", "-ffreestanding"]);
}
