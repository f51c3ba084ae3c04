//! The models behind the checked-in test files in `tests/fixtures/` (the engine's tests embed
//! those files, on the host and on the SH-2). `cargo test` checks that the files are what
//! these functions write; `cargo run -p jom-write --bin jom-fixtures` rewrites them.

use crate::{
    Animation, Bone, BoneMotion, Group, JomFile, Key, Material, MotionKey, Pixels, Polygon, Texture,
};

const ONE: i32 = 0x10000;

/// Every checked-in fixture: file stem and content.
pub fn all() -> Vec<(&'static str, JomFile)> {
    vec![
        ("every_chunk", every_chunk()),
        ("minimal", minimal()),
        ("motion", motion()),
        ("mesh_motion", mesh_motion()),
        // Enough polygons and points for `draw` to share them with a second CPU.
        ("mesh", crate::scenes::mesh(12, 10)),
        ("mesh_materials", mesh_materials()),
        ("texture_files", texture_files()),
        ("boxes", boxes()),
        // A ground of 4 x 4 regions (REGN), each 3 x 3 quads of 4 units.
        ("level", crate::scenes::level(4, 3, 4)),
        ("levels", levels()),
    ]
}

/// A model with a lower level of detail (LODS): the mesh fixture's 12 x 10 quads, untextured,
/// and as its level 1, drawn below 40 pixels, a mesh of 4 x 4 quads with the same skeleton.
pub fn levels() -> JomFile {
    let plain = |mut file: JomFile| {
        file.textures = None;
        file.texture_names.clear();
        for material in &mut file.materials {
            material.texture = -1;
        }
        file
    };
    let mut file = plain(crate::scenes::mesh(12, 10));
    file.extra_chunks
        .push(crate::levels_chunk(&[(40, levels_lower().to_bytes())]));
    file
}

/// The lower level of [`levels`]: 4 x 4 quads, the skeleton of the 12 x 10 mesh.
pub fn levels_lower() -> JomFile {
    let plain = |mut file: JomFile| {
        file.textures = None;
        file.texture_names.clear();
        for material in &mut file.materials {
            material.texture = -1;
        }
        file
    };
    let upper = crate::scenes::mesh(12, 10);
    JomFile {
        bones: upper.bones,
        animations: upper.animations,
        ..plain(crate::scenes::mesh(4, 4))
    }
}

/// The texture files of `texture_files()`, as on its CD: name and bytes.
pub fn texture_file_images() -> Vec<(&'static str, Vec<u8>)> {
    // 4x4 squares of red and transparent (jom::image's tests know these pixels).
    let checker: Vec<u16> = (0..16 * 8)
        .map(|k| {
            let (x, y) = (k % 16, k / 16);
            if (x / 4 + y / 4) % 2 == 0 {
                0x801F
            } else {
                0
            }
        })
        .collect();
    // Red 31, green 4 x y, blue 4 x x (5 bits, widened to 8), the last pixel transparent.
    let eight = |v: usize| ((v << 3) | (v >> 2)) as u8;
    let gradient: Vec<[u8; 4]> = (0..64)
        .map(|k| {
            let (x, y) = (k % 8, k / 8);
            let alpha = if (x, y) == (7, 7) { 0 } else { 255 };
            [255, eight(4 * y), eight(4 * x), alpha]
        })
        .collect();
    vec![
        ("CHECKER.BIN", crate::jo_image_bin(16, 8, &checker)),
        ("GRADIENT.TGA", crate::tga_rle_32(8, 8, &gradient)),
    ]
}

/// Two quads side by side facing the camera (-Z), textured by files on the CD (no TIMG):
/// `CHECKER.BIN` (plain) and `GRADIENT.TGA` (with end codes).
pub fn texture_files() -> JomFile {
    JomFile {
        version: 1,
        center: [0, 0, 0],
        radius: 2 * ONE + ONE / 2,
        points: vec![
            [-2 * ONE, -ONE, 0],
            [0, -ONE, 0],
            [0, ONE, 0],
            [-2 * ONE, ONE, 0],
            [2 * ONE, -ONE, 0],
            [2 * ONE, ONE, 0],
        ],
        polygons: vec![
            Polygon {
                normal: [0, 0, -ONE],
                corners: [0, 1, 2, 3],
            },
            Polygon {
                normal: [0, 0, -ONE],
                corners: [1, 4, 5, 2],
            },
        ],
        polygon_materials: vec![0, 1],
        materials: vec![
            Material {
                name: "checker".into(),
                color: [255, 255, 255],
                texture: 0,
                ..Default::default()
            },
            Material {
                name: "gradient".into(),
                color: [255, 255, 255],
                texture: 1,
                flags: 1 << 9,
                ..Default::default()
            },
        ],
        texture_names: vec!["CHECKER.BIN".into(), "GRADIENT.TGA".into()],
        ..Default::default()
    }
}

/// Only the chunks every file has: one quad, one material.
pub fn minimal() -> JomFile {
    JomFile {
        version: 1,
        center: [0, 0, 0],
        radius: ONE + ONE / 2,
        points: vec![
            [-ONE, -ONE, 0],
            [ONE, -ONE, 0],
            [ONE, ONE, 0],
            [-ONE, ONE, 0],
        ],
        polygons: vec![Polygon {
            normal: [0, 0, -ONE],
            corners: [0, 1, 2, 3],
        }],
        polygon_materials: vec![0],
        materials: vec![Material {
            name: "default".into(),
            color: [200, 200, 200],
            texture: -1,
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// A small model holding every chunk of the format, with odd counts where padding rules
/// apply (3 polygons, 3 bones), two textures (RGB555 and 4-bit lookup table), three
/// animations (the third a duplicate name of the first) and one chunk of an unknown kind.
pub fn every_chunk() -> JomFile {
    let checker = (0..16)
        .map(|i| if (i + i / 8) % 2 == 0 { 0x801F } else { 0 })
        .collect();
    JomFile {
        version: 1,
        center: [0, -ONE / 2, 0],
        radius: 2 * ONE,
        textures: Some(vec![
            Texture {
                name: "WALL_1A2B3C.BIN".into(),
                width: 8,
                height: 2,
                pixels: Pixels::Rgb555(checker),
            },
            Texture {
                name: "LEAF_4D5E6F.BIN".into(),
                width: 8,
                height: 2,
                pixels: Pixels::Lut4 {
                    lut: std::array::from_fn(|i| if i == 0 { 0 } else { 0x8000 | (i as u16) << 5 }),
                    indices: vec![0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF],
                },
            },
        ]),
        points: vec![
            [-ONE, 0, -ONE],
            [ONE, 0, -ONE],
            [ONE, 0, ONE],
            [-ONE, 0, ONE],
            [0, -ONE, 0],
            [0, -2 * ONE, ONE / 4],
        ],
        polygons: vec![
            Polygon {
                normal: [0, ONE, 0],
                corners: [0, 1, 2, 3],
            },
            Polygon {
                normal: [0, -46341, -46341],
                corners: [0, 4, 1, 1],
            },
            Polygon {
                normal: [46341, -46341, 0],
                corners: [4, 5, 1, 1],
            },
        ],
        polygon_materials: vec![0, 1, 2],
        materials: vec![
            Material {
                name: "red".into(),
                color: [255, 0, 0],
                shine: 10,
                texture: -1,
                subdivision_error: 0,
                flags: 0b10 | 1 << 6 | 1 << 3,
                user: 7,
            },
            Material {
                name: "wall".into(),
                color: [255, 255, 255],
                shine: 0,
                texture: 0,
                subdivision_error: 4,
                flags: 1 | 0b110 | 1 << 4 | 1 << 7 | 1 << 9 | 1 << 10 | 1 << 11,
                user: 0,
            },
            Material {
                name: "leaf".into(),
                color: [0, 255, 0],
                shine: 255,
                texture: 1,
                subdivision_error: 0,
                flags: 1 << 5 | 1 << 8 | 1 << 12 | 1 << 16 | 1 << 31,
                user: 0xDEAD_BEEF,
            },
        ],
        texture_names: vec!["WALL_1A2B3C.BIN".into(), "LEAF_4D5E6F.BIN".into()],
        normals: Some(vec![[0, ONE, 0], [0, -46341, -46341], [46341, -46341, 0]]),
        corner_normals: Some(vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 1, 2]),
        vertex_colors: Some(vec![
            [ONE, 0, 0],
            [0, ONE, 0],
            [0, 0, ONE],
            [ONE, ONE, 0],
            [ONE, ONE, ONE],
            [0, 0, 0],
        ]),
        gouraud: Some(vec![
            0x8000 | 16 << 10 | 16 << 5 | 31,
            0x8000 | 16 << 10 | 31 << 5 | 16,
            0x8000 | 31 << 10 | 16 << 5 | 16,
            0x8000 | 16 << 10 | 16 << 5 | 16,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
        ]),
        groups: Some(vec![
            Group {
                name: "base".into(),
                first_point: 0,
                point_count: 4,
                first_polygon: 0,
                polygon_count: 2,
            },
            Group {
                name: "spike".into(),
                first_point: 5,
                point_count: 1,
                first_polygon: 2,
                polygon_count: 1,
            },
        ]),
        bones: Some(vec![
            Bone {
                name: "root".into(),
                group: 0,
                parent: -1,
                pivot: [0, 0, 0],
            },
            Bone {
                name: "spike".into(),
                group: 1,
                parent: 0,
                pivot: [0, -ONE, 0],
            },
            Bone {
                name: "tip".into(),
                group: 0xFFFF,
                parent: 1,
                pivot: [0, -2 * ONE, ONE / 4],
            },
        ]),
        animations: Some(vec![
            Animation {
                name: "walk".into(),
                key_ticks: 10,
                looped: true,
                keys: vec![
                    Key {
                        root: [0, 0, 0],
                        angles: vec![[0, 0, 0], [0x1000, 0, 0], [0, 0, 0]],
                    },
                    Key {
                        root: [0, -ONE / 8, 0],
                        angles: vec![[0, 0x2000, 0], [0x7000, 0, 0], [0, 0, -0x100]],
                    },
                    Key {
                        root: [0, 0, ONE],
                        angles: vec![[0, 0x4000, 0], [-0x7000, 0, 0], [0, 0, 0x100]],
                    },
                ],
            },
            Animation {
                name: "rest".into(),
                key_ticks: 5,
                looped: false,
                keys: vec![Key {
                    root: [1, 2, 3],
                    angles: vec![[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                }],
            },
            Animation {
                name: "walk".into(),
                key_ticks: 60,
                looped: false,
                keys: vec![
                    Key {
                        root: [0, 0, 0],
                        angles: vec![[0; 3]; 3],
                    },
                    Key {
                        root: [ONE, 0, 0],
                        angles: vec![[-0x8000, 0x7FFF, 0]; 3],
                    },
                ],
            },
        ]),
        bone_motion: None,
        extra_chunks: vec![(*b"XTRA", vec![0, 0, 0, 0])],
    }
}

/// [`every_chunk`] with a BMOT chunk (issue 17): in "walk" (3 keys) the spike moves and
/// stretches, down to scale 0 on X, and the tip moves and grows; in the second "walk"
/// (2 keys) the root stretches along X.
pub fn motion() -> JomFile {
    let key = |offset: [i32; 3], scale: [i32; 3]| MotionKey { offset, scale };
    JomFile {
        bone_motion: Some(vec![
            BoneMotion {
                animation: 0,
                bone: 1,
                keys: vec![
                    key([0, 0, 0], [ONE; 3]),
                    key([0, -ONE / 2, 0], [ONE / 2, 2 * ONE, ONE]),
                    key([ONE, 0, 0], [0, ONE, ONE]),
                ],
            },
            BoneMotion {
                animation: 0,
                bone: 2,
                keys: vec![key([0, 0, ONE / 4], [3 * ONE / 2; 3]); 3],
            },
            BoneMotion {
                animation: 2,
                bone: 0,
                keys: vec![key([0; 3], [ONE; 3]), key([0, ONE, 0], [2 * ONE, ONE, ONE])],
            },
        ]),
        ..every_chunk()
    }
}

/// The `mesh` fixture (12 x 10 quads, 16 bones) lit, with BMOT: in its animation bone 3
/// moves and stretches along X, bone 7 squashes along Y and moves back, and bone 12 grows.
/// The engine's tests draw a posed frame of it and compare it with a golden frame, on the
/// host, under qemu and on both emulated Saturns.
pub fn mesh_motion() -> JomFile {
    let mut file = crate::scenes::mesh(12, 10);
    file.materials[0].flags |= 1 << 6; // JO_3D_MATERIAL_LIGHT
    let key = |offset: [i32; 3], scale: [i32; 3]| MotionKey { offset, scale };
    let rest = key([0; 3], [ONE; 3]);
    file.bone_motion = Some(vec![
        BoneMotion {
            animation: 0,
            bone: 3,
            keys: vec![rest, key([ONE / 4, 0, ONE / 8], [2 * ONE, ONE, ONE])],
        },
        BoneMotion {
            animation: 0,
            bone: 7,
            keys: vec![rest, key([0, -ONE / 8, ONE / 2], [ONE, ONE / 4, ONE])],
        },
        BoneMotion {
            animation: 0,
            bone: 12,
            keys: vec![key([0; 3], [3 * ONE / 2; 3]), rest],
        },
    ]);
    file
}

/// The mesh with its polygons in runs of three materials: the mesh's own and a colour, both
/// plain (culling's common case goes on from one to the other), and one sorted by its
/// nearest corner (which stops it).
pub fn mesh_materials() -> JomFile {
    const SORT_MIN: u32 = 1 << 1; // MaterialFlags::SORT_MIN
    let mut file = crate::scenes::mesh(12, 10);
    file.materials.push(Material {
        name: "green".into(),
        color: [10, 200, 10],
        texture: -1,
        ..Default::default()
    });
    file.materials.push(Material {
        name: "nearest".into(),
        color: [200, 10, 10],
        texture: -1,
        flags: SORT_MIN,
        ..Default::default()
    });
    for (index, material) in file.polygon_materials.iter_mut().enumerate() {
        *material = match index % 9 {
            0..=2 | 6 => 0,
            8 if index % 2 == 0 => 2,
            _ => 1,
        };
    }
    file
}

/// Two boxes side by side, each a group moved by a bone of its own, each side a grid of 2 x 2
/// quads (runs of coplanar polygons, which the culling passes over together when they face
/// away); the second box's +z side has its last two quads in a second material (its run
/// cut in two there).
pub fn boxes() -> JomFile {
    let mut file = JomFile {
        version: 1,
        radius: 3 * ONE,
        materials: vec![
            Material {
                name: "blue".into(),
                color: [20, 20, 200],
                texture: -1,
                ..Default::default()
            },
            Material {
                name: "green".into(),
                color: [20, 200, 20],
                texture: -1,
                ..Default::default()
            },
        ],
        groups: Some(Vec::new()),
        bones: Some(Vec::new()),
        ..Default::default()
    };
    for (index, x) in [-2 * ONE, ONE / 2].into_iter().enumerate() {
        let first_point = file.points.len() as u16;
        let first_polygon = file.polygons.len() as u16;
        grid_box(&mut file, [x, -ONE / 2, -ONE / 2], 3 * ONE / 2);
        if index == 1 {
            let last = file.polygon_materials.len();
            file.polygon_materials[last - 2..].fill(1);
        }
        let name = format!("box{index}");
        let groups = file.groups.get_or_insert_with(Vec::new);
        groups.push(Group {
            name: name.as_str().into(),
            first_point,
            point_count: file.points.len() as u16 - first_point,
            first_polygon,
            polygon_count: file.polygons.len() as u16 - first_polygon,
        });
        file.bones.get_or_insert_with(Vec::new).push(Bone {
            name: name.as_str().into(),
            group: index as u16,
            parent: -1,
            pivot: [x, 0, 0],
        });
    }
    file
}

/// A box from `low`, `size` wide, of 2 x 2 quads a side (the sides in the order -x, +x,
/// -y, +y, -z, +z), its points shared, of material 0.
fn grid_box(file: &mut JomFile, low: [i32; 3], size: i32) {
    let first = file.points.len();
    let half = size / 2;
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [0, 1] {
            let mut normal = [0; 3];
            normal[axis] = if side == 0 { -ONE } else { ONE };
            for (i, j) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                let mut corners = [(0, 0), (1, 0), (1, 1), (0, 1)].map(|(du, dv)| {
                    let mut p = low;
                    p[axis] += side * size;
                    p[u] += (i + du) * half;
                    p[v] += (j + dv) * half;
                    box_point(file, first, p)
                });
                // Counter-clockwise seen from outside.
                if side == 0 {
                    corners.reverse();
                }
                file.polygons.push(Polygon { normal, corners });
                file.polygon_materials.push(0);
            }
        }
    }
}

/// The index of point `p` among the points from `first` on, added when it is not there.
fn box_point(file: &mut JomFile, first: usize, p: [i32; 3]) -> u16 {
    let index = match file.points[first..].iter().position(|&q| q == p) {
        Some(i) => first + i,
        None => {
            file.points.push(p);
            file.points.len() - 1
        }
    };
    index as u16
}
