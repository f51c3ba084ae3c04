//! Writes the test fixtures (`tests/fixtures/` of the engine crate: the `.jom` models and the texture files) from
//! `jom_write::fixtures`: `cargo run -p jom-write --bin jom-fixtures`.

use std::path::Path;

fn main() -> std::io::Result<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    std::fs::create_dir_all(&dir)?;
    for (name, file) in jom_write::fixtures::all() {
        let path = dir.join(format!("{name}.jom"));
        std::fs::write(&path, file.to_bytes())?;
        println!("wrote {}", path.display());
    }
    for (name, bytes) in jom_write::fixtures::texture_file_images() {
        let path = dir.join(name);
        std::fs::write(&path, bytes)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
