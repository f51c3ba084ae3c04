//! Golden images: small scenes drawn by the engine (a frame of one draw,
//! `jom::render::ListFrame`) and this software VDP1, compared pixel for pixel with the PNGs
//! in `tests/golden/`. `JOM_BLESS=1 cargo test -p vdp1-soft` rewrites them after a
//! deliberate change (look at them first).

use jom::Model;
use jom_write::{
    AlignedBytes, Animation, Bone, Group, JomFile, Key, Material, Pixels, Polygon, Texture,
};
use std::path::PathBuf;
use vdp1_soft::preview::{self, View};

const ONE: i32 = 0x10000;
const DUAL: u32 = 1;
const SORT_MIN: u32 = 1 << 1;
const SORT_MAX: u32 = 1 << 2;
const GOURAUD: u32 = 1 << 3;
const HALF_TRANSPARENT: u32 = 1 << 4;
const SCREEN_DOORS: u32 = 1 << 5;
const LIGHT: u32 = 1 << 6;
const FLIP_H: u32 = 1 << 7;
const FLIP_V: u32 = 1 << 8;
const MIPMAPS: u32 = 1 << 10;
const SUBDIVISION: u32 = 1 << 11;
const SUBDIVISION_NEAR: u32 = 1 << 12;

fn material(name: &str, color: [u8; 3], texture: i16, flags: u32) -> Material {
    Material {
        name: name.into(),
        color,
        texture,
        flags,
        ..Default::default()
    }
}

/// The face of a unit cube at -Z, as the camera (on -Z, looking along +Z) sees it:
/// A top left, B top right, C bottom right, D bottom left: clockwise on screen.
const FRONT: [[f64; 3]; 4] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
];

fn rotate(p: [f64; 3], axis: usize, quarter_turns: i32) -> [f64; 3] {
    let mut p = p;
    for _ in 0..quarter_turns.rem_euclid(4) {
        p = match axis {
            0 => [p[0], -p[2], p[1]],
            _ => [p[2], p[1], -p[0]],
        };
    }
    p
}

fn fixed(v: f64) -> i32 {
    (v * f64::from(ONE)).round() as i32
}

/// A quad from four points (in order A, B, C, D) with its normal from A-B x A-D... the
/// normal points to the side the corners are clockwise from.
fn quad(file: &mut JomFile, corners: [[f64; 3]; 4], material: u16) {
    let first = file.points.len() as u16;
    file.points.extend(corners.iter().map(|c| c.map(fixed)));
    let [a, b, _, d] = corners;
    let u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let v = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
    let n = [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ];
    let length = n.iter().map(|c| c * c).sum::<f64>().sqrt();
    let normal = n.map(|c| fixed(-c / length));
    file.polygons.push(Polygon {
        normal,
        corners: [first, first + 1, first + 2, first + 3],
    });
    file.polygon_materials.push(material);
}

fn finish(mut file: JomFile) -> JomFile {
    let max = file
        .points
        .iter()
        .flatten()
        .map(|c| c.abs())
        .max()
        .unwrap_or(ONE);
    file.version = 1;
    file.radius = (f64::from(max) * 3f64.sqrt()) as i32;
    file
}

/// A cube whose face i has material `faces[i]`: -Z, +X, +Z, -X (around Y), then -Y, +Y.
fn cube(materials: Vec<Material>, faces: [u16; 6]) -> JomFile {
    let mut file = JomFile {
        materials,
        ..Default::default()
    };
    for (i, &m) in faces.iter().enumerate() {
        let corners = match i {
            0..=3 => FRONT.map(|p| rotate(p, 1, i as i32)),
            4 => FRONT.map(|p| rotate(p, 0, 1)),
            _ => FRONT.map(|p| rotate(p, 0, 3)),
        };
        quad(&mut file, corners, m);
    }
    finish(file)
}

/// A 16x16 texture: a red "L" with a flag at its top right on white, with transparent
/// diagonal dots, so that flips and transparency show.
fn arrow_pixels() -> Vec<u16> {
    (0..256)
        .map(|i| {
            let (x, y) = (i % 16, i / 16);
            let stroke = (y == 3 && x >= 3) || (x == 3 && y >= 3);
            let flag = y <= 5 && x >= 10 && (x - 10) <= y;
            if stroke || flag {
                0x801F
            } else if (x + y) % 8 == 0 {
                0
            } else {
                0xFFFF
            }
        })
        .collect()
}

fn lut_pixels() -> (Pixels, u16) {
    let mut lut = [0u16; 16];
    for (i, c) in lut.iter_mut().enumerate().skip(1) {
        *c = 0x8000 | ((i as u16) << 11) | ((15 - i as u16) << 1);
    }
    let indices = (0..128).map(|i| {
        let (x, y) = ((i % 8) * 2, i / 8);
        let index = |x: usize| (((x / 4) + (y / 4)) * 3 % 16) as u8;
        index(x) << 4 | index(x + 1)
    });
    (
        Pixels::Lut4 {
            lut,
            indices: indices.collect(),
        },
        16,
    )
}

fn textured(mut file: JomFile) -> JomFile {
    let (lut, width) = lut_pixels();
    file.texture_names = vec!["ARROW_01.BIN".into(), "TILES_02.BIN".into()];
    file.textures = Some(vec![
        Texture {
            name: "ARROW_01.BIN".into(),
            width: 16,
            height: 16,
            pixels: Pixels::Rgb555(arrow_pixels()),
        },
        Texture {
            name: "TILES_02.BIN".into(),
            width,
            height: 16,
            pixels: lut,
        },
    ]);
    file
}

fn scene(name: &str) -> (JomFile, View) {
    let turned = View {
        rotate: [25.0, 35.0, 0.0],
        width: 160,
        height: 112,
        ..View::default()
    };
    match name {
        "flat" => {
            let colors = [
                [255, 0, 0],
                [0, 255, 0],
                [0, 0, 255],
                [255, 255, 0],
                [0, 255, 255],
                [255, 0, 255],
            ];
            let materials = colors
                .iter()
                .enumerate()
                .map(|(i, &c)| material(&format!("m{i}"), c, -1, 0))
                .collect();
            (cube(materials, [0, 1, 2, 3, 4, 5]), turned)
        }
        "textured" => {
            let materials = vec![
                material("arrow", [255; 3], 0, 0),
                material("tiles", [255; 3], 1, 0),
            ];
            (textured(cube(materials, [0, 1, 0, 1, 0, 1])), turned)
        }
        "gouraud" => {
            let mut file = cube(
                vec![material("shaded", [200, 200, 200], -1, GOURAUD)],
                [0; 6],
            );
            let n = file.points.len();
            file.vertex_colors = Some(vec![[ONE, ONE, ONE]; n]);
            let channel = |r: u16, g: u16, b: u16| 0x8000 | b << 10 | g << 5 | r;
            let corners = [
                channel(31, 8, 8),
                channel(8, 31, 8),
                channel(8, 8, 31),
                channel(16, 16, 16),
            ];
            file.gouraud = Some((0..6 * 4).map(|i| corners[i % 4]).collect());
            (file, turned)
        }
        "lit" => {
            let materials = vec![
                material("lit", [240, 200, 80], -1, LIGHT),
                material("lit-tex", [255; 3], 0, LIGHT),
            ];
            let file = textured(cube(materials, [0, 1, 0, 1, 0, 1]));
            (
                file,
                View {
                    light: Some([1.0, 1.0, 2.0]),
                    ..turned
                },
            )
        }
        "transparency" => {
            // An opaque back quad, a half-transparent one and a meshed one over it.
            let mut file = JomFile {
                materials: vec![
                    material("back", [255, 255, 255], -1, 0),
                    material("glass", [0, 0, 255], -1, HALF_TRANSPARENT),
                    material("mesh", [255, 0, 0], -1, SCREEN_DOORS),
                ],
                ..Default::default()
            };
            let square = |x: f64, y: f64, z: f64, s: f64| {
                [
                    [x - s, y - s, z],
                    [x + s, y - s, z],
                    [x + s, y + s, z],
                    [x - s, y + s, z],
                ]
            };
            quad(&mut file, square(0.0, 0.0, 1.0, 1.0), 0);
            quad(&mut file, square(-0.5, -0.5, 0.0, 0.6), 1);
            quad(&mut file, square(0.5, 0.5, 0.0, 0.6), 2);
            (
                finish(file),
                View {
                    width: 160,
                    height: 112,
                    distance: Some(2.5),
                    ..View::default()
                },
            )
        }
        "flips" => {
            let mut file = JomFile {
                materials: vec![
                    material("none", [255; 3], 0, 0),
                    material("h", [255; 3], 0, FLIP_H),
                    material("v", [255; 3], 0, FLIP_V),
                    material("hv", [255; 3], 0, FLIP_H | FLIP_V),
                ],
                ..Default::default()
            };
            for (i, x) in [-1.5, -0.5, 0.5, 1.5].into_iter().enumerate() {
                let s = 0.45;
                quad(
                    &mut file,
                    [
                        [x - s, -s, 0.0],
                        [x + s, -s, 0.0],
                        [x + s, s, 0.0],
                        [x - s, s, 0.0],
                    ],
                    i as u16,
                );
            }
            (
                textured(finish(file)),
                View {
                    width: 160,
                    height: 112,
                    distance: Some(2.5),
                    ..View::default()
                },
            )
        }
        "sort" => {
            // A long yellow quad slanting away (near on the left, far on the right) and a
            // small blue one just behind its middle. By centre depth the yellow one is
            // nearer and drawn last (row 1); sorted by its farthest point it is drawn
            // first and the blue one covers it (row 2); the blue one sorted as "previous"
            // takes the yellow one's depth and, coming after it, is drawn over it (row 3).
            let mut file = JomFile {
                materials: vec![
                    material("long", [255, 255, 0], -1, DUAL),
                    material("small", [0, 128, 255], -1, DUAL),
                ],
                ..Default::default()
            };
            quad(
                &mut file,
                [
                    [-2.0, -0.3, -0.6],
                    [2.0, -0.3, 2.0],
                    [2.0, 0.3, 2.0],
                    [-2.0, 0.3, -0.6],
                ],
                0,
            );
            quad(
                &mut file,
                [
                    [-0.4, -0.6, 0.8],
                    [0.4, -0.6, 0.8],
                    [0.4, 0.6, 0.8],
                    [-0.4, 0.6, 0.8],
                ],
                1,
            );
            let mut max = file.clone();
            max.materials[0].flags |= SORT_MAX;
            let mut previous = file.clone();
            previous.materials[1].flags |= SORT_MIN | SORT_MAX;
            let mut all = JomFile {
                materials: Vec::new(),
                ..Default::default()
            };
            for (row, variant) in [file, max, previous].into_iter().enumerate() {
                let base = all.materials.len() as u16;
                let offset = (row as f64 - 1.0) * 1.4;
                all.materials.extend(variant.materials.clone());
                for (polygon, &m) in variant.polygons.iter().zip(&variant.polygon_materials) {
                    let corners: Vec<[f64; 3]> = polygon
                        .corners
                        .iter()
                        .map(|&i| {
                            let p = variant.points[usize::from(i)];
                            [
                                f64::from(p[0]) / f64::from(ONE),
                                f64::from(p[1]) / f64::from(ONE) + offset,
                                f64::from(p[2]) / f64::from(ONE),
                            ]
                        })
                        .collect();
                    quad(
                        &mut all,
                        [corners[0], corners[1], corners[2], corners[3]],
                        base + m,
                    );
                }
            }
            (
                finish(all),
                View {
                    width: 160,
                    height: 112,
                    distance: Some(4.5),
                    ..View::default()
                },
            )
        }
        "near" => {
            // A floor under the camera, running from behind it into the distance: the
            // polygons crossing the near plane are cut at it.
            let mut file = JomFile {
                materials: vec![material("floor", [255; 3], 0, DUAL)],
                ..Default::default()
            };
            for row in 0..6 {
                for column in 0..4 {
                    let (x, z) = (f64::from(column) - 2.0, f64::from(row) * 1.0 - 2.5);
                    quad(
                        &mut file,
                        [
                            [x, 0.5, z + 1.0],
                            [x + 1.0, 0.5, z + 1.0],
                            [x + 1.0, 0.5, z],
                            [x, 0.5, z],
                        ],
                        0,
                    );
                }
            }
            let mut file = textured(finish(file));
            file.groups = Some(vec![Group {
                name: "floor".into(),
                first_point: 0,
                point_count: 0,
                first_polygon: 0,
                polygon_count: 24,
            }]);
            (
                file,
                View {
                    width: 160,
                    height: 112,
                    distance: Some(2.0),
                    ..View::default()
                },
            )
        }
        "subdivision" => {
            // Two long floor quads receding from the camera: the left one drawn whole (the
            // VDP1 has no perspective: its texture slides), the right one in parts
            // (`jo_subdivision 1`, error 1 pixel); a third crossing the near plane in
            // parts (`jo_subdivision 2`).
            let mut whole = material("whole", [255; 3], 0, DUAL);
            whole.subdivision_error = 1;
            let mut parts = material("parts", [255; 3], 0, DUAL | SUBDIVISION);
            parts.subdivision_error = 1;
            let near = material("near", [255; 3], 1, DUAL | SUBDIVISION_NEAR);
            let mut file = JomFile {
                materials: vec![whole, parts, near],
                ..Default::default()
            };
            let floor = |x: f64, z0: f64, z1: f64| {
                [
                    [x, 0.6, z1],
                    [x + 1.2, 0.6, z1],
                    [x + 1.2, 0.6, z0],
                    [x, 0.6, z0],
                ]
            };
            quad(&mut file, floor(-2.0, -0.5, 5.0), 0);
            quad(&mut file, floor(-0.6, -0.5, 5.0), 1);
            quad(&mut file, floor(0.8, -2.5, 5.0), 2);
            (
                textured(finish(file)),
                View {
                    width: 160,
                    height: 112,
                    distance: Some(2.0),
                    ..View::default()
                },
            )
        }
        "mipmaps" => {
            // The same 16x16 texture on quads at growing distances: with `jo_mipmaps` the
            // far ones use the 8x8 copy (the quarter size one would be 4 wide: not made).
            let mut file = JomFile {
                materials: vec![material("mip", [255; 3], 0, MIPMAPS)],
                ..Default::default()
            };
            for (i, z) in [0.0, 6.0, 14.0].into_iter().enumerate() {
                let (x, s) = (i as f64 * 1.6 - 1.6, 0.6);
                quad(
                    &mut file,
                    [[x - s, -s, z], [x + s, -s, z], [x + s, s, z], [x - s, s, z]],
                    0,
                );
            }
            (
                textured(finish(file)),
                View {
                    width: 160,
                    height: 112,
                    distance: Some(4.0),
                    ..View::default()
                },
            )
        }
        "posed" => {
            // A body (a cube) and an arm (a bar from its right side), each a group moved
            // by a bone; the arm's bone turns around the shoulder, in its parent's space.
            // Drawn at tick 10 of 20: halfway between the keys.
            let colors = [
                [200, 200, 220],
                [160, 160, 180],
                [180, 180, 200],
                [140, 140, 160],
                [220, 220, 240],
                [120, 120, 140],
            ];
            let mut materials: Vec<Material> = colors
                .iter()
                .enumerate()
                .map(|(i, &c)| material(&format!("b{i}"), c, -1, 0))
                .collect();
            materials.push(material("arm", [255, 40, 40], -1, DUAL));
            let mut file = cube(materials, [0, 1, 2, 3, 4, 5]);
            let body_points = file.points.len() as u16;
            quad(
                &mut file,
                [
                    [1.0, -0.8, 0.0],
                    [3.0, -0.8, 0.0],
                    [3.0, -0.4, 0.0],
                    [1.0, -0.4, 0.0],
                ],
                6,
            );
            file.groups = Some(vec![
                Group {
                    name: "body".into(),
                    first_point: 0,
                    point_count: body_points,
                    first_polygon: 0,
                    polygon_count: 6,
                },
                Group {
                    name: "arm".into(),
                    first_point: body_points,
                    point_count: 4,
                    first_polygon: 6,
                    polygon_count: 1,
                },
            ]);
            file.bones = Some(vec![
                Bone {
                    name: "body".into(),
                    group: 0,
                    parent: -1,
                    pivot: [0, 0, 0],
                },
                Bone {
                    name: "arm".into(),
                    group: 1,
                    parent: 0,
                    pivot: [ONE, -ONE * 6 / 10, 0],
                },
            ]);
            let key = |body_y: i16, arm_z: i16| Key {
                root: [0, 0, 0],
                angles: vec![[0, body_y, 0], [0, 0, arm_z]],
            };
            file.animations = Some(vec![Animation {
                name: "raise".into(),
                key_ticks: 20,
                looped: false,
                keys: vec![key(0, 0), key(0x1000, -0x4000)],
            }]);
            file.radius = 3 * ONE;
            let view = View {
                animation: Some(("raise".into(), 10)),
                light: None,
                ..turned
            };
            (
                file,
                View {
                    distance: Some(7.0),
                    ..view
                },
            )
        }
        _ => unreachable!("unknown scene {name}"),
    }
}

const SCENES: [&str; 11] = [
    "flat",
    "textured",
    "gouraud",
    "lit",
    "transparency",
    "flips",
    "sort",
    "near",
    "subdivision",
    "mipmaps",
    "posed",
];

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"))
}

fn render(name: &str) -> vdp1_soft::FrameBuffer {
    let (file, view) = scene(name);
    let bytes = AlignedBytes::new(&file.to_bytes());
    let model = Model::from_bytes(bytes.bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (frame, stats) = preview::render(&model, &view).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(stats.drawn > 0, "{name}: nothing drawn");
    frame
}

#[test]
fn scenes_match_their_golden_images() {
    let bless = std::env::var_os("JOM_BLESS").is_some();
    let mut mismatches = Vec::new();
    for name in SCENES {
        let frame = render(name);
        let path = golden_path(name);
        if bless {
            preview::write_png(&frame, &path).unwrap();
            continue;
        }
        let (width, height, expected) =
            preview::read_png(&path).unwrap_or_else(|e| panic!("{e} (JOM_BLESS=1 writes it)"));
        assert_eq!(
            (width as usize, height as usize),
            (frame.width, frame.height),
            "{name}"
        );
        let actual = frame.to_rgb8();
        let differing = actual
            .chunks(3)
            .zip(expected.chunks(3))
            .filter(|(a, b)| a != b)
            .count();
        if differing != 0 {
            mismatches.push(format!("{name}: {differing} pixels differ"));
        }
    }
    assert!(mismatches.is_empty(), "{mismatches:?}");
}

#[test]
fn every_scene_draws_something_different() {
    let frames: Vec<_> = SCENES.iter().map(|name| render(name).pixels).collect();
    for (i, a) in frames.iter().enumerate() {
        assert!(a.iter().any(|&p| p != 0), "{} is empty", SCENES[i]);
        for (j, b) in frames.iter().enumerate().skip(i + 1) {
            assert_ne!(a, b, "{} and {} are the same picture", SCENES[i], SCENES[j]);
        }
    }
}

#[test]
fn sort_modes_decide_which_quad_is_on_top() {
    let frame = render("sort");
    let yellow = 0x8000 | 31 << 5 | 31;
    let blue = 0x8000 | 31 << 10 | 16 << 5;
    // The middle of each row: centre sort (yellow nearer, on top), the yellow quad sorted
    // by its farthest point (blue on top), the blue quad sorted as "previous" (on top).
    assert_eq!([8, 56, 100].map(|y| frame.get(80, y)), [yellow, blue, blue]);
}

#[test]
fn subdivided_polygons_are_drawn_in_parts() {
    let (file, view) = scene("subdivision");
    let bytes = AlignedBytes::new(&file.to_bytes());
    let model = Model::from_bytes(bytes.bytes()).unwrap();
    let (_, stats) = preview::render(&model, &view).unwrap();
    // The whole quad: 1 table; `jo_subdivision 1` (distorted by perspective): 4; the quad
    // crossing the near plane with `jo_subdivision 2`: 4 (each part reaches in front of
    // the plane; the nearest two are cut at it).
    assert_eq!((stats.drawn, stats.commands), (3, 1 + 4 + 4));
}

#[test]
fn the_pose_moves_the_arm_around_its_shoulder() {
    let (file, view) = scene("posed");
    let bytes = AlignedBytes::new(&file.to_bytes());
    let model = Model::from_bytes(bytes.bytes()).unwrap();
    let at = |time| {
        preview::render(
            &model,
            &View {
                animation: Some(("raise".into(), time)),
                ..view.clone()
            },
        )
        .unwrap()
        .0
    };
    let red = |frame: &vdp1_soft::FrameBuffer| {
        let pixels: Vec<(usize, usize)> = (0..frame.height)
            .flat_map(|y| (0..frame.width).map(move |x| (x, y)))
            .filter(|&(x, y)| frame.get(x, y) & 0x1F == 31 && (frame.get(x, y) >> 5) & 0x1F < 8)
            .collect();
        let top = pixels.iter().map(|p| p.1).min().unwrap();
        (pixels.len(), top)
    };
    let (rest, raised) = (red(&at(0)), red(&at(20)));
    // Raised a quarter turn, the arm points up: its top is far higher on screen.
    assert!(raised.1 + 20 < rest.1, "rest {rest:?} raised {raised:?}");
    // The clamped end: tick 100 is the last key.
    assert_eq!(at(100).pixels, at(20).pixels);
}
