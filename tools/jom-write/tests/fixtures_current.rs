//! The checked-in fixtures are exactly what `jom_write::fixtures` writes (run
//! `cargo run -p jom-write --bin jom-fixtures` after changing them).

#[test]
fn checked_in_fixtures_are_current() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    for (name, file) in jom_write::fixtures::all() {
        let path = dir.join(format!("{name}.jom"));
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            on_disk == file.to_bytes(),
            "{} differs from jom_write::fixtures::{name}(): run `cargo run -p jom-write --bin jom-fixtures`",
            path.display()
        );
    }
    for (name, bytes) in jom_write::fixtures::texture_file_images() {
        let path = dir.join(name);
        let on_disk = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            on_disk == bytes,
            "{} differs from jom_write::fixtures::texture_file_images(): run `cargo run -p jom-write --bin jom-fixtures`",
            path.display()
        );
    }
}

#[test]
fn aligned_bytes_are_aligned_whatever_the_allocation() {
    for len in 0..16 {
        let bytes: Vec<u8> = (0..len).collect();
        let copy = jom_write::AlignedBytes::new(&bytes);
        assert_eq!(copy.bytes().as_ptr() as usize % 4, 0);
        assert_eq!(copy.bytes(), bytes);
    }
}
