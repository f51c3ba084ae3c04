//! `tests/c/abi_test.c` built with the host's gcc against the host `libjom_c.a` and run:
//! its own checks pass, and it prints the lines that `ci/capi-test.sh` compares with the
//! same program built by `sh-elf-gcc -m2 -mb` and run as SH-2 code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `model_data.c`: the fixtures the program uses, as 4-byte-aligned C arrays.
pub fn model_data(fixtures: &Path) -> String {
    let mut c = String::from("#include <stdint.h>\n");
    for name in ["mesh_motion", "texture_files", "levels"] {
        let bytes = std::fs::read(fixtures.join(format!("{name}.jom"))).expect("fixture");
        let values: Vec<String> = bytes.iter().map(u8::to_string).collect();
        let _ = writeln!(
            c,
            "const uint8_t {name}_jom[] __attribute__((aligned(4))) = {{{}}};\n\
             const uint32_t {name}_jom_size = {};",
            values.join(","),
            bytes.len()
        );
    }
    c
}

/// The directory of the host build's artifacts (`target/debug`), where `libjom_c.a` is.
fn artifacts() -> PathBuf {
    let exe = std::env::current_exe().expect("the test's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/debug")
        .to_path_buf()
}

/// The host build's `libjom_c.a`: `target/debug/libjom_c.a` after `cargo build`, only in
/// `deps/` (with its hash) when `cargo test` built it: the newest of them, the one this
/// run built.
fn static_library(artifacts: &Path) -> PathBuf {
    let in_deps = std::fs::read_dir(artifacts.join("deps"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("libjom_c-") && name.ends_with(".a"))
        });
    std::iter::once(artifacts.join("libjom_c.a"))
        .chain(in_deps)
        .filter_map(|path| Some((path.metadata().and_then(|m| m.modified()).ok()?, path)))
        .max()
        .map(|(_, path)| path)
        .unwrap_or_else(|| {
            panic!(
                "no libjom_c.a in {} (built with the crate)",
                artifacts.display()
            )
        })
}

#[test]
fn the_c_abi_test_passes_on_the_host() {
    if Command::new("gcc").arg("--version").output().is_err() {
        test_skip::skip("gcc absent");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = static_library(&artifacts());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi");
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("model_data.c");
    std::fs::write(&data, model_data(&root.join("../tests/fixtures"))).unwrap();
    let program = dir.join("abi_test");
    let built = Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root.join("include"))
        .arg(root.join("tests/c/abi_test.c"))
        .arg(&data)
        .arg(&library)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&program)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let run = Command::new(&program).output().unwrap();
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{text}");
    assert!(text.contains(" checks passed, 00000000 failed"), "{text}");
    assert!(text.contains("callback calls 00000002"), "{text}");
}
