//! `include_jom!` used as a game uses it (a passing use), and built in a small crate with a
//! bad file (the compile error names the file and the problem).

use jom_macros::include_jom;
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn a_valid_model_is_linked_in_aligned_and_loaded() {
    let model: jom::Model<'static> = include_jom!("../tests/fixtures/every_chunk.jom");
    let file = include_bytes!("../../tests/fixtures/every_chunk.jom");
    assert_eq!(model.bytes(), &file[..]);
    assert_eq!(model.bytes().as_ptr() as usize % 4, 0);
    assert_eq!(model.polygon_materials().len(), model.polygons().len());
}

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `cargo build` of a crate that includes `model` (bytes) with `include_jom!`: its
/// standard error when the build fails, `None` when it succeeds. The crate pins the
/// workspace's versions (its Cargo.lock) and builds offline into a target directory of
/// its own beside the workspace's (the first run builds syn and jom for it).
fn build_with(model: &[u8]) -> Option<String> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let root = root().canonicalize().expect("the repository");
    let manifest = format!(
        "[package]\nname = \"uses-include-jom\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n\
         [dependencies]\njom = {{ path = {:?} }}\njom-macros = {{ path = {:?} }}\n\n[workspace]\n",
        root,
        root.join("macros"),
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).expect("manifest");
    std::fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).expect("lock");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    std::fs::create_dir(dir.path().join("assets")).expect("assets");
    std::fs::write(dir.path().join("assets/robot.jom"), model).expect("model");
    std::fs::write(
        dir.path().join("src/lib.rs"),
        "pub fn robot() -> jom::Model<'static> {\n    jom_macros::include_jom!(\"assets/robot.jom\")\n}\n",
    )
    .expect("source");
    let output = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--message-format=short"])
        .current_dir(dir.path())
        .env("CARGO_TARGET_DIR", root.join("target/include-jom-tests"))
        .output()
        .expect("cargo runs");
    (!output.status.success()).then(|| String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_bad_model_is_a_compile_error_naming_the_file_and_the_problem() {
    let good = std::fs::read(root().join("tests/fixtures/minimal.jom")).expect("fixture");
    assert_eq!(build_with(&good), None, "the valid fixture builds");
    // Corner D of polygon 0 (QUAD data at 92: count, then the normal) made 9: 4 points.
    let mut bad = good.clone();
    let corner_d = 92 + 4 + 12 + 6;
    bad[corner_d..corner_d + 2].copy_from_slice(&9u16.to_be_bytes());
    let error = build_with(&bad).expect("the bad model does not build");
    let expected = "error: assets/robot.jom: QUAD chunk, record 0 at offset 114 (0x72): \
                    corner D 9 is out of range, expected 0 to 3 (PNTS count 4)";
    assert!(error.contains(expected), "{error}");
    assert!(error.contains("src/lib.rs:2:"), "{error}");
}
