//! For every target: turns the layout files the SH-2 assembly includes (`LAYOUTS`) into
//! compile-time checks against the Rust types. For the SH-2 target (`sh2-target.json`):
//! sets the cfgs of the SH-2 builds, compiles the start-up code and the C helpers of `rt/`
//! and the assembly loops (each beside the Rust loop it replaces) with the sh-elf GCC, links
//! libgcc, and puts `link.x` (the Saturn memory map) where the final link finds it
//! (`-Tlink.x`).

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The name cargo gives the target of `sh2-target.json`.
const SH2_TARGET: &str = "sh2-target";
const SH2_FLAGS: [&str; 3] = ["-m2", "-mb", "-O2"];
/// The runtime (`rt/`: start-up code, the C functions `core` calls) and the SH-2 assembly of
/// the engine's hot loops, each beside the Rust loop it replaces and its binding (`sh2.rs`).
const RT_SOURCES: [&str; 12] = [
    "rt/crt0.S",
    "rt/interrupts.S",
    "rt/mem.c",
    "src/hw/nmi.S",
    "src/hw/vblank.S",
    "src/render/project/transform.S",
    "src/render/cull/cull.S",
    "src/render/emit/emit.S",
    "src/anim/skeleton/matrix.S",
    "src/render/transforms/view.S",
    "src/render/sort/sort.S",
    "src/format/validate/geometry.S",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(jom_sh2, jom_asm, jom_saturn)");
    println!("cargo::rerun-if-changed=build.rs");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write_layout_checks(&out);
    if env::var("TARGET").as_deref() != Ok(SH2_TARGET) {
        return;
    }
    // `jom_sh2`: the hardware exists. `jom_asm`: every SH-2 build, qemu's too: the loops
    // whose assembly qemu's user-mode SH-4 runs as an SH-2 does (the emission and the sort)
    // use it, so that `make sh2-test` compares them with their Rust references.
    // `jom_saturn`: the program runs on a Saturn's SH-2 (not under qemu: no `soft-divide`
    // feature): its division unit divides, and the loops qemu cannot run use their assembly:
    // the transform (the division unit, a write of SR), the bones' matrix product (a write of
    // SR, privileged in qemu's user mode) and the culling (`subv`, whose overflow bit qemu
    // 7.2 gets wrong: -1 - 1 overflows there, INT_MIN - 1 does not).
    println!("cargo::rustc-cfg=jom_sh2");
    println!("cargo::rustc-cfg=jom_asm");
    if env::var_os("CARGO_FEATURE_SOFT_DIVIDE").is_none() {
        println!("cargo::rustc-cfg=jom_saturn");
    }
    for file in ["link.x", "rt/abi.inc"].iter().chain(&RT_SOURCES) {
        println!("cargo::rerun-if-changed={file}");
    }
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");

    std::fs::copy("link.x", out.join("link.x")).expect("link.x is copied to OUT_DIR");
    println!("cargo::rustc-link-search=native={}", out.display());

    let gcc = env::var("JOM_SH2_CC").unwrap_or_else(|_| "sh-elf-gcc".into());
    let mut build = cc::Build::new();
    build
        .compiler(&gcc)
        .archiver(std::env::var("JOM_SH2_AR").unwrap_or_else(|_| "sh-elf-ar".into()))
        .no_default_flags(true)
        .flag("-ffreestanding")
        .flag("-fno-builtin")
        .flag("-fno-tree-loop-distribute-patterns")
        .include("rt")
        // The layout names (`.equ`) stay out of the objects' symbols (and disassembly).
        .flag("-Wa,--strip-local-absolute")
        .files(RT_SOURCES);
    for flag in SH2_FLAGS {
        build.flag(flag);
    }
    // Not bundled into the rlib: rustc then names both libraries at the end of the final
    // link, after `core`, which needs them too (memcpy, 64-bit division). The start-up code
    // is linked whole: nothing refers to `_start` but the entry point.
    build.cargo_metadata(false).compile("jom_rt");
    println!("cargo::rustc-link-lib=static:-bundle,+whole-archive=jom_rt");

    let libgcc = Command::new(&gcc)
        .args(&SH2_FLAGS[..2])
        .arg("-print-libgcc-file-name")
        .output()
        .expect("the sh-elf GCC runs (set JOM_SH2_CC)");
    let libgcc = PathBuf::from(String::from_utf8_lossy(&libgcc.stdout).trim());
    let dir = libgcc.parent().expect("libgcc.a is in a directory");
    println!("cargo::rustc-link-search=native={}", dir.display());
    println!("cargo::rustc-link-lib=static:-bundle=gcc");
}

/// The layouts of the structures the SH-2 assembly reads, one `.inc` file each set (the
/// format is in `rt/layout.inc`): the assembly uses their names, and build.rs turns each
/// file into `const` asserts, `$OUT_DIR/<file stem>.rs`, which the module holding the types
/// includes. One place a layout, checked at compile time: `rt/layout.inc` in every build,
/// the jobs (which hold pointers, 32-bit on the SH-2 only) in the SH-2 builds that use them.
const LAYOUTS: [&str; 4] = [
    "rt/layout.inc",
    "src/render/cull/cull_job.inc",
    "src/render/emit/emit_job.inc",
    "src/render/transforms/view_product.inc",
];

/// Writes the checks of every file of [`LAYOUTS`] into `out`.
fn write_layout_checks(out: &Path) {
    for path in LAYOUTS {
        println!("cargo::rerun-if-changed={path}");
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let checks = layout_checks(path, &text).unwrap_or_else(|e| panic!("{e}"));
        let stem = Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a layout file has a name");
        std::fs::write(out.join(format!("{stem}.rs")), checks)
            .unwrap_or_else(|e| panic!("{stem}.rs in OUT_DIR: {e}"));
    }
}

/// One `/* layout: Type */` section of a layout file.
struct Layout {
    name: String,
    /// The type's name in upper snake case: the names of its lines start with it.
    prefix: String,
    /// The field (lower case), its offset and where its line is.
    fields: Vec<(String, u32, String)>,
    /// `PREFIX_SIZEOF` and where its line is.
    size: Option<(u32, String)>,
}

/// The Rust asserts of a layout file: for each section the offset of every field named,
/// the type's size, and a pattern naming every field of the type (so that one without a
/// line does not compile).
fn layout_checks(path: &str, text: &str) -> Result<String, String> {
    let mut layouts: Vec<Layout> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let place = format!("{path}:{}", index + 1);
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("/* layout: ") {
            let name = rest
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .next()
                .filter(|n| !n.is_empty())
                .ok_or(format!("{place}: expected `/* layout: Type`"))?;
            layouts.push(Layout {
                name: name.to_string(),
                prefix: upper_snake(name),
                fields: Vec::new(),
                size: None,
            });
            continue;
        }
        let Some(equ) = line.strip_prefix(".equ") else {
            continue;
        };
        let equ = equ.split("/*").next().unwrap_or("");
        let (symbol, value) = equ
            .split_once(',')
            .ok_or(format!("{place}: expected `.equ NAME, value`"))?;
        let (symbol, value) = (symbol.trim(), value.trim());
        // A value in terms of other names is derived (an element of a field): not a field.
        let Ok(offset) = value.parse::<u32>() else {
            continue;
        };
        let layout = layouts.last_mut().ok_or(format!(
            "{place}: {symbol} before any `/* layout: Type */` line"
        ))?;
        let field = symbol
            .strip_prefix(layout.prefix.as_str())
            .and_then(|f| f.strip_prefix('_'))
            .ok_or(format!(
                "{place}: {symbol} does not start with {}_",
                layout.prefix
            ))?;
        match field {
            "SIZEOF" => layout.size = Some((offset, place)),
            _ => layout.fields.push((field.to_lowercase(), offset, place)),
        }
    }
    let mut rust = format!("// Written by build.rs from {path}: the checks of its layouts.\n");
    for layout in &layouts {
        let name = &layout.name;
        let (size, place) = layout
            .size
            .as_ref()
            .ok_or(format!("{path}: {name} has no {}_SIZEOF", layout.prefix))?;
        rust += &format!(
            "const _: () = assert!(core::mem::size_of::<{name}>() == {size}, \
             \"{place}: the size of {name} is not {size}\");\n"
        );
        for (field, offset, place) in &layout.fields {
            rust += &format!(
                "const _: () = assert!(core::mem::offset_of!({name}, {field}) == {offset}, \
                 \"{place}: {name}.{field} is not at {offset}\");\n"
            );
        }
        if layout.fields.is_empty() {
            continue;
        }
        let names: Vec<&str> = layout.fields.iter().map(|f| f.0.as_str()).collect();
        let pattern = if names.iter().all(|n| n.parse::<usize>().is_ok()) {
            let mut indexes: Vec<usize> = names.iter().filter_map(|n| n.parse().ok()).collect();
            indexes.sort_unstable();
            if indexes.iter().enumerate().any(|(i, &n)| i != n) {
                return Err(format!(
                    "{path}: the fields of {name} are not 0 to {}",
                    names.len() - 1
                ));
            }
            format!("{name}({})", vec!["_"; names.len()].join(", "))
        } else {
            let fields: Vec<String> = names.iter().map(|n| format!("{n}: _")).collect();
            format!("{name} {{ {} }}", fields.join(", "))
        };
        rust += &format!(
            "// Every field of {name} has a line in {path}: the pattern names them all.\n\
             const _: fn(&{name}) = |{pattern}| {{}};\n"
        );
    }
    Ok(rust)
}

/// `CullJob` -> `CULL_JOB`.
fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}
