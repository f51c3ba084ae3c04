//! Writes the test fixtures (`tests/fixtures/*.jom` of the engine crate) from
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
    Ok(())
}
