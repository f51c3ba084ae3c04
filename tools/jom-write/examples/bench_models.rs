//! Writes the models of the SH-2 benchmark program (`bench/`, `make bench`) into a folder:
//! grids of 529 and 2,025 textured quads, a 1,024-quad grid skinned by 16 bones,
//! and a 32-bone chain.
//!
//! `cargo run -p jom-write --example bench_models -- build/bench`

use jom_write::scenes;

fn main() -> std::io::Result<()> {
    let dir = std::path::PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "build/bench".into()),
    );
    std::fs::create_dir_all(&dir)?;
    for (name, file) in [
        ("GRID500.JOM", scenes::grid(23)),
        ("GRID2000.JOM", scenes::grid(45)),
        ("SKIN.JOM", scenes::skinned()),
        ("CHAIN.JOM", scenes::chain()),
    ] {
        std::fs::write(dir.join(name), file.to_bytes())?;
    }
    println!("{}: benchmark models written", dir.display());
    Ok(())
}
