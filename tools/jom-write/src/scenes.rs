//! Models for benchmarks, made of many simple parts: grids of textured quads (a skinned
//! one moved by a chain of bones) and a 32-bone chain. Used by the engine's criterion
//! benchmarks on the host and by the SH-2 benchmark program (`bench/`).

use crate::{Animation, Bone, Group, JomFile, Key, Material, Pixels, Polygon, Texture};

const ONE: i32 = 0x10000;
/// `JO_3D_MAX_BONES`.
const MAX_BONES: usize = 32;

/// A `side` x `side` grid of textured quads, each with its own four points.
pub fn grid(side: usize) -> JomFile {
    let mut file = textured_tile(16);
    let step = 2 * ONE / side as i32;
    for row in 0..side {
        for column in 0..side {
            let (x, y) = (-ONE + column as i32 * step, -ONE + row as i32 * step);
            let first = file.points.len() as u16;
            file.points.extend([
                [x, y, 0],
                [x + step, y, 0],
                [x + step, y + step, 0],
                [x, y + step, 0],
            ]);
            file.polygons.push(Polygon {
                normal: [0, 0, -ONE],
                corners: [first, first + 1, first + 2, first + 3],
            });
            file.polygon_materials.push(0);
        }
    }
    file
}

/// A 32 x 32 grid (1,024 quads) cut into 16 groups of 64 quads (two rows each), each moved
/// by a bone of a chain, with a two-key animation.
pub fn skinned() -> JomFile {
    let mut file = grid(32);
    let bones = 16;
    file.groups = Some(
        (0..bones)
            .map(|b| Group {
                name: format!("g{b}"),
                first_point: (b * 64 * 4) as u16,
                point_count: 64 * 4,
                first_polygon: (b * 64) as u16,
                polygon_count: 64,
            })
            .collect(),
    );
    file.bones = Some(
        (0..bones)
            .map(|b| Bone {
                name: format!("b{b}"),
                group: b as u16,
                parent: b as i16 - 1,
                pivot: [0, -ONE + (b as i32) * ONE / 8, 0],
            })
            .collect(),
    );
    let key = |a: i16| Key {
        root: [0, 0, 0],
        angles: vec![[a, a / 2, 0]; bones],
    };
    file.animations = Some(vec![Animation {
        name: "bend".into(),
        key_ticks: 30,
        looped: true,
        keys: vec![key(0), key(0x400)],
    }]);
    file
}

/// A square and a chain of 32 bones, with an 8-key looped animation, keys 7 ticks apart.
pub fn chain() -> JomFile {
    let bones = (0..MAX_BONES)
        .map(|i| Bone {
            name: format!("bone{i}"),
            group: 0xFFFF,
            parent: i as i16 - 1,
            pivot: [0, -(i as i32) * ONE / 4, i as i32 * 100],
        })
        .collect();
    let keys = (0..8)
        .map(|k: i32| Key {
            root: [k * ONE / 8, -k * 1000, k * 77],
            angles: (0..MAX_BONES as i32)
                .map(|b| {
                    let a = (k * 0x1234 + b * 0x0567) as i16;
                    [a, a.wrapping_mul(3), a.wrapping_neg()]
                })
                .collect(),
        })
        .collect();
    JomFile {
        radius: 8 * ONE,
        bones: Some(bones),
        animations: Some(vec![Animation {
            name: "wave".into(),
            key_ticks: 7,
            looped: true,
            keys,
        }]),
        ..crate::fixtures::minimal()
    }
}

/// [`chain`] with a BMOT track on every bone: each key moves and stretches every bone
/// (the worst case of issue 17's chunk).
pub fn chain_motion() -> JomFile {
    let mut file = chain();
    let key_count = file.animations.as_ref().map_or(0, |a| a[0].keys.len()) as i32;
    file.bone_motion = Some(
        (0..MAX_BONES as u16)
            .map(|bone| crate::BoneMotion {
                animation: 0,
                bone,
                keys: (0..key_count)
                    .map(|k| crate::MotionKey {
                        offset: [k * 300, -(i32::from(bone)) * 50, k * 17],
                        scale: [ONE + k * 1000, ONE - k * 500, ONE + i32::from(bone) * 100],
                    })
                    .collect(),
            })
            .collect(),
    );
    file
}

/// The SH-2 benchmark's scenes: a `columns` x `rows` grid of textured quads sharing their
/// points (as a modelled surface does: `(columns + 1) x (rows + 1)` points) and a 64 x 64
/// texture (8 KiB), 2 units wide,
/// cut into 16 bands of rows, each the group of a bone of a chain, with a two-key bending
/// animation. Drawn with `draw` it is a static scene, with `draw_pose` an animated one.
pub fn mesh(columns: usize, rows: usize) -> JomFile {
    const BONES: usize = 16;
    let mut file = textured_tile(64);
    let step = 2 * ONE / columns as i32;
    let top = -(rows as i32) * step / 2;
    for row in 0..=rows {
        for column in 0..=columns {
            file.points
                .push([-ONE + column as i32 * step, top + row as i32 * step, 0]);
        }
    }
    grid_quads(&mut file, 0, columns, rows);
    // Band b: quad rows [b * rows / 16, (b + 1) * rows / 16) and the point rows above them
    // (the last band also the bottom row of points).
    let band = |b: usize| b * rows / BONES;
    file.groups = Some(
        (0..BONES)
            .map(|b| {
                let point_rows = band(b + 1) - band(b) + usize::from(b == BONES - 1);
                Group {
                    name: format!("g{b}"),
                    first_point: (band(b) * (columns + 1)) as u16,
                    point_count: (point_rows * (columns + 1)) as u16,
                    first_polygon: (band(b) * columns) as u16,
                    polygon_count: ((band(b + 1) - band(b)) * columns) as u16,
                }
            })
            .collect(),
    );
    file.bones = Some(
        (0..BONES)
            .map(|b| Bone {
                name: format!("b{b}"),
                group: b as u16,
                parent: b as i16 - 1,
                pivot: [0, top + (band(b) as i32) * step, 0],
            })
            .collect(),
    );
    let key = |a: i16| Key {
        root: [0, 0, 0],
        angles: vec![[a, a / 2, 0]; BONES],
    };
    file.animations = Some(vec![Animation {
        name: "bend".into(),
        key_ticks: 30,
        looped: true,
        keys: vec![key(0), key(0x200)],
    }]);
    file
}

/// The `columns` x `rows` quads of a grid of `(columns + 1) x (rows + 1)` points stored row
/// by row from point `first`, facing negative z, of material 0.
pub fn grid_quads(file: &mut JomFile, first: u16, columns: usize, rows: usize) {
    let point = |row: usize, column: usize| first + (row * (columns + 1) + column) as u16;
    for row in 0..rows {
        for column in 0..columns {
            file.polygons.push(Polygon {
                normal: [0, 0, -ONE],
                corners: [
                    point(row, column),
                    point(row, column + 1),
                    point(row + 1, column + 1),
                    point(row + 1, column),
                ],
            });
            file.polygon_materials.push(0);
        }
    }
}

/// A model with one material, textured by a `side` x `side` RGB555 texture, and nothing
/// else.
pub fn textured_tile(side: u16) -> JomFile {
    JomFile {
        version: 1,
        radius: 2 * ONE,
        materials: vec![Material {
            name: "tile".into(),
            color: [255; 3],
            texture: 0,
            ..Default::default()
        }],
        texture_names: vec!["TILE.BIN".into()],
        textures: Some(vec![Texture {
            name: "TILE.BIN".into(),
            width: side,
            height: side,
            pixels: Pixels::Rgb555(
                (0..u32::from(side) * u32::from(side))
                    .map(|i| 0x8000 | i as u16)
                    .collect(),
            ),
        }]),
        ..Default::default()
    }
}

/// A flat level (a ground in the X-Z plane, facing up: -Y in the Saturn's axes) of
/// `cells` x `cells` regions (REGN), each `per_cell` x `per_cell` textured quads of one
/// unit `scale` times, on points of their own (a region's points are its own). The quads
/// alternate two colours, so that the picture shows where each is.
pub fn level(cells: usize, per_cell: usize, scale: i32) -> JomFile {
    let colour = |name: &str, color| Material {
        name: name.into(),
        color,
        texture: -1,
        ..Default::default()
    };
    let mut file = JomFile {
        version: 1,
        materials: vec![
            colour("light", [200, 190, 120]),
            colour("dark", [40, 120, 60]),
        ],
        ..Default::default()
    };
    let side = (cells * per_cell) as i32;
    let unit = scale * ONE;
    let half = side * unit / 2;
    let mut regions = Vec::new();
    for cell_z in 0..cells {
        for cell_x in 0..cells {
            let first_point = file.points.len();
            let first_polygon = file.polygons.len();
            let (x0, z0) = (
                -half + (cell_x * per_cell) as i32 * unit,
                -half + (cell_z * per_cell) as i32 * unit,
            );
            for row in 0..=per_cell as i32 {
                for column in 0..=per_cell as i32 {
                    file.points.push([x0 + column * unit, 0, z0 + row * unit]);
                }
            }
            let width = per_cell as u16 + 1;
            for row in 0..per_cell as u16 {
                for column in 0..per_cell as u16 {
                    let a = first_point as u16 + row * width + column;
                    // Clockwise seen from above (-Y): A, B along +X, then +Z.
                    file.polygons.push(Polygon {
                        normal: [0, -ONE, 0],
                        corners: [a, a + 1, a + width + 1, a + width],
                    });
                    let (x, z) = (
                        cell_x * per_cell + usize::from(column),
                        cell_z * per_cell + usize::from(row),
                    );
                    file.polygon_materials.push(((x + z) % 2) as u16);
                }
            }
            let extent = per_cell as i64 * i64::from(unit);
            // Half the cell's diagonal, rounded up.
            let radius = ((extent * extent / 2) as f64).sqrt().ceil() as i32 + 1;
            regions.push(crate::Region {
                center: [x0 + (extent / 2) as i32, 0, z0 + (extent / 2) as i32],
                radius,
                first_point: first_point as u16,
                point_count: (file.points.len() - first_point) as u16,
                first_polygon: first_polygon as u16,
                polygon_count: (file.polygons.len() - first_polygon) as u16,
            });
        }
    }
    let corner = (2.0f64).sqrt() * f64::from(half);
    file.radius = corner.ceil() as i32 + 1;
    file.extra_chunks.push(crate::regions_chunk(&regions));
    file
}
