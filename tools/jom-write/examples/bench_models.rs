//! Writes the models of the SH-2 benchmark program (`bench/`, `make bench`) into a folder:
//! meshes of 500, 2,000 and 4,000 textured quads, each cut into 16 groups moved by a chain
//! of 16 bones (drawn static and animated), and a 32-bone chain for poses, without and with
//! BMOT offsets and scales on every bone; and `SCREEN2000.JOM`, 2,000 textured quads sized
//! as a game's on screen (two layers that together cover about 1.5 times the screen's
//! pixels), for the frames the player sees; `LEVEL.JOM`, a ground of 1,600 quads in 100
//! regions (REGN), and `LEVELPLAIN.JOM`, the same without regions.
//!
//! `cargo run -p jom-write --example bench_models -- build/bench`

use jom_write::{scenes, JomFile};

/// 1.0 in the file's 16.16 units.
const ONE: i32 = 1 << 16;

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
        ("SCREEN2000.JOM", screen_layers()),
        ("LEVEL.JOM", scenes::level(10, 4, 4)),
        ("LEVELPLAIN.JOM", level_without_regions()),
    ] {
        std::fs::write(dir.join(name), file.to_bytes())?;
    }
    println!("{}: benchmark models written", dir.display());
    Ok(())
}

/// The level of `LEVEL.JOM` without its REGN chunk: the same polygons drawn whole.
fn level_without_regions() -> JomFile {
    let mut file = scenes::level(10, 4, 4);
    file.extra_chunks.retain(|(tag, _)| tag != b"REGN");
    file
}

/// 2,000 quads seen from `(0, 0, -2)` by the default camera (focal length 192, 320 x 224):
/// a back layer of 40 x 25 quads at depth 3 over 98% of the screen's width and height (about
/// 7.8 x 8.6 pixels a quad) and a front layer of 25 x 40 quads at depth 2 over the middle
/// half of its width and its whole height (6.4 x 5.6 pixels): 1.46 times the screen's
/// 71,680 pixels drawn, every quad visible, one 64 x 64 RGB555 texture.
fn screen_layers() -> JomFile {
    let mut file = JomFile {
        radius: 4 * ONE,
        ..scenes::textured_tile(64)
    };
    // World half-sizes that fill the screen at depth d: 160 d / 192 and 112 d / 192.
    let fill = |pixels: i32, depth: i32| pixels * depth * ONE / 192;
    let back = [fill(160 * 98 / 100, 3), fill(112 * 98 / 100, 3)];
    let front = [fill(80, 2), fill(112, 2)];
    add_layer(&mut file, [40, 25], back, ONE);
    add_layer(&mut file, [25, 40], front, 0);
    file
}

/// A sheet of `columns x rows` quads sharing their points, centred on the z axis at `z`,
/// `half` its half width and height, facing the camera at negative z.
fn add_layer(file: &mut JomFile, [columns, rows]: [i32; 2], half: [i32; 2], z: i32) {
    let first = file.points.len() as u16;
    for row in 0..=rows {
        for column in 0..=columns {
            let x = -half[0] + 2 * half[0] / columns * column;
            let y = -half[1] + 2 * half[1] / rows * row;
            file.points.push([x, y, z]);
        }
    }
    scenes::grid_quads(file, first, columns as usize, rows as usize);
}
