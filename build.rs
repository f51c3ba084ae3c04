//! For the SH-2 target (`sh2-target.json`): compiles the start-up code and the C helpers of
//! `rt/` with the sh-elf GCC, links libgcc, and puts `link.x` (the Saturn memory map) where
//! the final link finds it (`-Tlink.x`). For any other target it does nothing.

use std::env;
use std::path::PathBuf;
use std::process::Command;

/// The name cargo gives the target of `sh2-target.json`.
const SH2_TARGET: &str = "sh2-target";
const SH2_FLAGS: [&str; 3] = ["-m2", "-mb", "-O2"];
/// The runtime: start-up code, the C functions `core` calls, and the SH-2 assembly of the
/// engine's hot loops (each beside the Rust version it replaces on a Saturn).
const RT_SOURCES: [&str; 7] = [
    "rt/crt0.S",
    "rt/mem.c",
    "src/render/project/transform.S",
    "src/render/cull/cull.S",
    "src/render/emit/emit.S",
    "src/anim/skeleton/matrix.S",
    "src/render/sort/sort.S",
];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(jom_sh2)");
    println!("cargo::rerun-if-changed=build.rs");
    if env::var("TARGET").as_deref() != Ok(SH2_TARGET) {
        return;
    }
    println!("cargo::rustc-cfg=jom_sh2");
    for file in ["link.x", "rt/abi.inc"].iter().chain(&RT_SOURCES) {
        println!("cargo::rerun-if-changed={file}");
    }
    println!("cargo::rerun-if-env-changed=JOM_SH2_CC");
    println!("cargo::rerun-if-env-changed=JOM_SH2_AR");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
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
