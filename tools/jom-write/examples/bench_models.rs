//! Writes the models of the SH-2 benchmark program (`bench/`, `make bench`) into a folder:
//! meshes of 500, 2,000 and 4,000 textured quads, each cut into 16 groups moved by a chain
//! of 16 bones (drawn static and animated), and a 32-bone chain for poses, without and with
//! BMOT offsets and scales on every bone.
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
        ("MESH500.JOM", scenes::mesh(25, 20)),
        ("MESH2000.JOM", scenes::mesh(50, 40)),
        ("MESH4000.JOM", scenes::mesh(80, 50)),
        ("CHAIN.JOM", scenes::chain()),
        ("CHAINMOT.JOM", scenes::chain_motion()),
    ] {
        std::fs::write(dir.join(name), file.to_bytes())?;
    }
    println!("{}: benchmark models written", dir.display());
    Ok(())
}
