//! Property tests: no byte string makes validation panic, every valid file a writer makes
//! reads back field for field, and what the engine's limits let through (docs/format.md,
//! "Engine limits") draws right and, in a debug build (overflow checks on), never panics.

use jom::format::TexturePixels;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    Camera, CommandBuffer, DrawError, DrawSlot, FrameMemory, FrameStats, FrameTables, Light,
    ListFrame, LoadedModel, ModelVram, Posed, ViewPoint,
};
use jom::vdp1::{
    CommandTable, GouraudCache, GouraudTable, MemoryVram, Point, TextureCache, VramLayout,
    VRAM_SIZE,
};
use jom::Model;
use jom_write::{
    AlignedBytes, Animation, Bone, Group, JomFile, Key, Material, Pixels, Polygon, Texture,
};
use proptest::prelude::*;

/// Reads everything a model offers, so that a view that could read out of bounds would.
fn touch_everything(model: &Model<'_>) -> usize {
    let mut n = model.chunks().count() + model.points().len() + model.polygons().len();
    n += model
        .materials()
        .iter()
        .map(|m| m.flags().bits() as usize)
        .sum::<usize>();
    if let Some(textures) = model.textures() {
        for texture in textures {
            n += match texture.pixels {
                TexturePixels::Rgb555(p) => p.len(),
                TexturePixels::Lut4 { pixels, .. } => pixels.len(),
            };
        }
    }
    let animations = model.animations();
    for (i, animation) in animations.iter().enumerate() {
        n += usize::from(animations.is_duplicate(i));
        n += animation.keys().map(|k| k.rotations.len()).sum::<usize>();
    }
    n
}

fn every_chunk() -> Vec<u8> {
    jom_write::fixtures::every_chunk().to_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_bytes_are_rejected_or_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let copy = AlignedBytes::new(&bytes);
        if let Ok(model) = Model::from_bytes(copy.bytes()) {
            touch_everything(&model);
        }
    }

    #[test]
    fn any_chunks_after_a_valid_header_are_handled(body in proptest::collection::vec(any::<u8>(), 0..512)) {
        let mut bytes = every_chunk()[..24].to_vec();
        bytes.extend_from_slice(&body);
        let copy = AlignedBytes::new(&bytes);
        if let Ok(model) = Model::from_bytes(copy.bytes()) {
            touch_everything(&model);
        }
    }

    #[test]
    fn corrupted_valid_files_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = every_chunk();
        for (at, value) in edits {
            let at = at.index(bytes.len());
            bytes[at] = value;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        let copy = AlignedBytes::new(&bytes);
        if let Ok(model) = Model::from_bytes(copy.bytes()) {
            touch_everything(&model);
        }
    }

    #[test]
    fn valid_files_round_trip(file in valid_file()) {
        let copy = AlignedBytes::new(&file.to_bytes());
        let model = Model::from_bytes(copy.bytes());
        prop_assert!(model.is_ok(), "{:?}", model.err());
        assert_reads_back(&file, &model.unwrap());
    }
}

fn name() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_.]{0,15}"
}

fn vector() -> impl Strategy<Value = [i32; 3]> {
    any::<[i32; 3]>()
}

/// A point within the engine's limits (`MAX_REACH` from the origin): a point of the cube
/// around that sphere, brought inside it when beyond (scaled down in 64 bits).
fn point() -> impl Strategy<Value = [i32; 3]> {
    let limit = jom::format::MAX_REACH as i32;
    [-limit..=limit, -limit..=limit, -limit..=limit].prop_map(move |p| {
        let length = p.iter().map(|&c| (c as f64).powi(2)).sum::<f64>().sqrt();
        if length <= f64::from(limit) {
            return p;
        }
        p.map(|c| (i64::from(c) * i64::from(limit) / (length.ceil() as i64)) as i32)
    })
}

/// A unit normal in Q16.16: a direction (not 0) scaled to length 1 and rounded.
fn unit_normal() -> impl Strategy<Value = [i32; 3]> {
    [-1000i32..=1000, -1000i32..=1000, -1000i32..=1000]
        .prop_filter("a direction", |v| *v != [0; 3])
        .prop_map(|v| {
            let v = v.map(f64::from);
            let length = v.iter().map(|c| c * c).sum::<f64>().sqrt();
            v.map(|c| (c / length * 65536.0).round() as i32)
        })
}

/// Any valid file: counts from the strategies, indexes folded into their ranges.
fn valid_file() -> impl Strategy<Value = JomFile> {
    (
        1usize..40,
        1usize..40,
        1usize..6,
        0usize..4,
        0usize..5,
        0usize..34,
    )
        .prop_flat_map(|(points, polygons, materials, textures, groups, bones)| {
            let embedded = proptest::option::of(Just(()));
            (
                (
                    vector(),
                    any::<i32>(),
                    prop::collection::vec(point(), points),
                ),
                prop::collection::vec((unit_normal(), any::<[u16; 4]>()), polygons),
                prop::collection::vec(any::<u16>(), polygons),
                prop::collection::vec(
                    (
                        name(),
                        any::<[u8; 5]>(),
                        any::<[u16; 2]>(),
                        any::<[u32; 2]>(),
                    ),
                    materials,
                ),
                prop::collection::vec(
                    (name(), 1u16..4, 1u16..4, any::<bool>(), any::<u64>()),
                    textures,
                ),
                embedded,
                proptest::option::of((prop::collection::vec(unit_normal(), 1..6), any::<u64>())),
                proptest::option::of((
                    prop::collection::vec(vector(), points),
                    any::<bool>(),
                    any::<u64>(),
                )),
                prop::collection::vec((name(), any::<[u16; 4]>()), groups),
                prop::collection::vec((name(), any::<u16>(), any::<u16>(), vector()), bones),
                prop::collection::vec(
                    (name(), 1u16..300, any::<bool>(), 1usize..4, any::<u64>()),
                    0..4,
                ),
            )
        })
        .prop_map(build_file)
}

type Parts = (
    ([i32; 3], i32, Vec<[i32; 3]>),
    Vec<([i32; 3], [u16; 4])>,
    Vec<u16>,
    Vec<(String, [u8; 5], [u16; 2], [u32; 2])>,
    Vec<(String, u16, u16, bool, u64)>,
    Option<()>,
    Option<(Vec<[i32; 3]>, u64)>,
    Option<(Vec<[i32; 3]>, bool, u64)>,
    Vec<(String, [u16; 4])>,
    Vec<(String, u16, u16, [i32; 3])>,
    Vec<(String, u16, bool, usize, u64)>,
);

/// A small deterministic generator for bulk values (pixels, keys) derived from a seed.
fn values(seed: u64, n: usize) -> Vec<u16> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u16
        })
        .collect()
}

fn fold(value: u16, limit: usize) -> u16 {
    (usize::from(value) % limit) as u16
}

fn build_file(parts: Parts) -> JomFile {
    let (
        (center, radius, points),
        polygons,
        qmat,
        materials,
        textures,
        embedded,
        normals,
        colors,
        groups,
        bones,
        animations,
    ) = parts;
    let (n_points, n_polygons, n_materials) = (points.len(), polygons.len(), materials.len());
    let texture_names: Vec<String> = textures
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{i}{}", &t.0[..t.0.len().min(14)]))
        .collect();
    let mut file = JomFile {
        version: 1,
        center,
        radius,
        polygons: polygons
            .into_iter()
            .map(|(normal, corners)| Polygon {
                normal,
                corners: corners.map(|c| fold(c, n_points)),
            })
            .collect(),
        points,
        polygon_materials: qmat.into_iter().map(|m| fold(m, n_materials)).collect(),
        materials: materials
            .into_iter()
            .map(|(name, bytes, shorts, words)| Material {
                name,
                color: [bytes[0], bytes[1], bytes[2]],
                shine: bytes[3],
                texture: if textures.is_empty() || bytes[4] % 2 == 0 {
                    -1
                } else {
                    i16::from(bytes[4]) % textures.len() as i16
                },
                subdivision_error: shorts[0],
                flags: words[0],
                user: words[1],
            })
            .collect(),
        texture_names: texture_names.clone(),
        ..Default::default()
    };
    if embedded.is_some() {
        file.textures = Some(
            textures
                .iter()
                .zip(&texture_names)
                .map(|((_, w, h, lut, seed), name)| {
                    let (width, height) = (w * 8, *h);
                    let count = usize::from(width) * usize::from(height);
                    let pixels = if *lut {
                        let v = values(*seed, 16 + count / 2);
                        Pixels::Lut4 {
                            lut: std::array::from_fn(|i| v[i]),
                            indices: v[16..].iter().map(|&b| b as u8).collect(),
                        }
                    } else {
                        Pixels::Rgb555(values(*seed, count))
                    };
                    Texture {
                        name: name.clone(),
                        width,
                        height,
                        pixels,
                    }
                })
                .collect(),
        );
    }
    if let Some((normals, seed)) = normals {
        file.corner_normals = Some(
            values(seed, 4 * n_polygons)
                .into_iter()
                .map(|v| fold(v, normals.len()))
                .collect(),
        );
        file.normals = Some(normals);
    }
    if let Some((colors, with_gouraud, seed)) = colors {
        file.vertex_colors = Some(colors);
        if with_gouraud {
            file.gouraud = Some(values(seed, 4 * n_polygons));
        }
    }
    if !groups.is_empty() {
        file.groups = Some(
            groups
                .into_iter()
                .map(|(name, [p, pc, q, qc])| {
                    let first_point = fold(p, n_points + 1);
                    let first_polygon = fold(q, n_polygons + 1);
                    Group {
                        name,
                        first_point,
                        point_count: fold(pc, n_points - usize::from(first_point) + 1),
                        first_polygon,
                        polygon_count: fold(qc, n_polygons - usize::from(first_polygon) + 1),
                    }
                })
                .collect(),
        );
    }
    let n_groups = file.groups.as_ref().map_or(0, Vec::len);
    let n_bones = bones.len().min(32);
    if n_bones > 0 {
        file.bones = Some(
            bones
                .into_iter()
                .take(n_bones)
                .enumerate()
                .map(|(i, (name, group, parent, pivot))| Bone {
                    name,
                    group: if n_groups == 0 || group % 3 == 0 {
                        0xFFFF
                    } else {
                        fold(group, n_groups)
                    },
                    parent: if i == 0 || parent % 4 == 0 {
                        -1
                    } else {
                        fold(parent, i) as i16
                    },
                    pivot,
                })
                .collect(),
        );
        file.animations = Some(
            animations
                .into_iter()
                .map(|(name, key_ticks, looped, key_count, seed)| {
                    let v = values(seed, key_count * (6 + 3 * n_bones));
                    let mut v = v.into_iter();
                    let mut next = || v.next().unwrap_or(0);
                    Animation {
                        name,
                        key_ticks,
                        looped,
                        keys: (0..key_count)
                            .map(|_| Key {
                                root: std::array::from_fn(|_| i32::from(next()) << 8),
                                angles: (0..n_bones)
                                    .map(|_| std::array::from_fn(|_| next() as i16))
                                    .collect(),
                            })
                            .collect(),
                    }
                })
                .collect(),
        );
        file.bone_motion = bone_motion(file.animations.as_deref().unwrap_or(&[]), n_bones);
    }
    file
}

/// BMOT tracks for about a third of the (animation, bone) pairs, in order, with offsets of
/// any sign and scales from 0 up, derived from the pairs (the keys' count varies).
fn bone_motion(animations: &[Animation], n_bones: usize) -> Option<Vec<jom_write::BoneMotion>> {
    let mut tracks = Vec::new();
    for (a, animation) in animations.iter().enumerate() {
        for b in 0..n_bones {
            let seed = (a * 64 + b) as u64 * 0x9E37 + animation.keys.len() as u64;
            let v = values(seed, 1 + 6 * animation.keys.len());
            if !v[0].is_multiple_of(3) {
                continue;
            }
            let keys = v[1..]
                .chunks(6)
                .map(|c| jom_write::MotionKey {
                    offset: std::array::from_fn(|i| i32::from(c[i] as i16) << 4),
                    scale: std::array::from_fn(|i| i32::from(c[3 + i]) << 2),
                })
                .collect();
            tracks.push(jom_write::BoneMotion {
                animation: a as u16,
                bone: b as u16,
                keys,
            });
        }
    }
    (!tracks.is_empty()).then_some(tracks)
}

fn assert_reads_back(file: &JomFile, model: &Model<'_>) {
    assert_eq!(model.center().raw(), file.center);
    assert_eq!(model.radius().to_bits(), file.radius);
    assert_eq!(
        model.points().iter().map(|p| p.raw()).collect::<Vec<_>>(),
        file.points
    );
    let polygons: Vec<_> = model
        .polygons()
        .iter()
        .map(|p| Polygon {
            normal: p.normal().raw(),
            corners: p.corners(),
        })
        .collect();
    assert_eq!(polygons, file.polygons);
    assert_eq!(
        model
            .polygon_materials()
            .iter()
            .map(|m| m.get())
            .collect::<Vec<_>>(),
        file.polygon_materials
    );
    let materials: Vec<_> = model
        .materials()
        .iter()
        .map(|m| Material {
            name: m.name().as_str().into(),
            color: m.color(),
            shine: m.shine(),
            texture: m.texture_raw(),
            subdivision_error: m.subdivision_error(),
            flags: m.flags().bits(),
            user: m.user(),
        })
        .collect();
    assert_eq!(materials, file.materials);
    let names: Vec<String> = model
        .texture_names()
        .iter()
        .map(|n| n.as_str().into())
        .collect();
    assert_eq!(names, file.texture_names);
    let textures = model.textures().map(|t| {
        t.iter()
            .map(|t| Texture {
                name: t.name().as_str().into(),
                width: t.header.width(),
                height: t.header.height(),
                pixels: match t.pixels {
                    TexturePixels::Rgb555(p) => {
                        Pixels::Rgb555(p.iter().map(|c| c.get().0).collect())
                    }
                    TexturePixels::Lut4 { lut, pixels } => Pixels::Lut4 {
                        lut: lut.map(|c| c.get().0),
                        indices: pixels.to_vec(),
                    },
                },
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(textures, file.textures);
    assert_eq!(
        model
            .normals()
            .map(|n| n.iter().map(|v| v.raw()).collect::<Vec<_>>()),
        file.normals
    );
    assert_eq!(
        model
            .corner_normals()
            .map(|c| c.iter().map(|i| i.get()).collect::<Vec<_>>()),
        file.corner_normals
    );
    let colors = model.vertex_colors().map(|c| {
        c.iter()
            .map(|c| c.get().map(|v| v.to_bits()))
            .collect::<Vec<_>>()
    });
    assert_eq!(colors, file.vertex_colors);
    assert_eq!(
        model
            .gouraud()
            .map(|g| g.iter().map(|c| c.get().0).collect::<Vec<_>>()),
        file.gouraud
    );
    let groups: Vec<_> = model
        .groups()
        .iter()
        .map(|g| Group {
            name: g.name().as_str().into(),
            first_point: g.points().start as u16,
            point_count: g.points().len() as u16,
            first_polygon: g.polygons().start as u16,
            polygon_count: g.polygons().len() as u16,
        })
        .collect();
    assert_eq!(groups, file.groups.clone().unwrap_or_default());
    let bones: Vec<_> = model
        .bones()
        .iter()
        .map(|b| Bone {
            name: b.name().as_str().into(),
            group: b.group().unwrap_or(0xFFFF),
            parent: b.parent_raw(),
            pivot: b.pivot().raw(),
        })
        .collect();
    assert_eq!(bones, file.bones.clone().unwrap_or_default());
    let animations: Vec<_> = model
        .animations()
        .iter()
        .map(|a| Animation {
            name: a.name().as_str().into(),
            key_ticks: a.record.key_ticks(),
            looped: a.record.is_looped(),
            keys: a
                .keys()
                .map(|k| Key {
                    root: k.root.raw(),
                    angles: k
                        .rotations
                        .iter()
                        .map(|r| r.get().map(|a| a.raw()))
                        .collect(),
                })
                .collect(),
        })
        .collect();
    assert_eq!(animations, file.animations.clone().unwrap_or_default());
    let expected_duplicates: Vec<bool> = animations
        .iter()
        .enumerate()
        .map(|(i, a)| animations[..i].iter().any(|b| b.name == a.name))
        .collect();
    let duplicates: Vec<bool> = (0..animations.len())
        .map(|i| model.animations().is_duplicate(i))
        .collect();
    assert_eq!(duplicates, expected_duplicates);
    let tracks: Vec<_> = model
        .animations()
        .iter()
        .flat_map(|a| {
            a.motion
                .iter()
                .map(move |(bone, keys)| jom_write::BoneMotion {
                    animation: a.index as u16,
                    bone,
                    keys: keys
                        .iter()
                        .map(|k| jom_write::MotionKey {
                            offset: k.offset(),
                            scale: k.scale(),
                        })
                        .collect(),
                })
        })
        .collect();
    assert_eq!(tracks, file.bone_motion.clone().unwrap_or_default());
    assert_eq!(model.bone_motion().tracks().len(), tracks.len());
    // Every animation poses (BMOT included) without panicking.
    for animation in model.animations().iter() {
        let pose = jom::anim::pose_at(&animation, model.bones().len(), 3);
        let mut matrices = [jom::math::Matrix::IDENTITY; jom::format::MAX_BONES];
        jom::anim::bone_matrices(model, &pose, &mut matrices);
    }
}

/// A floor `half` units each way around the origin, 2 units below the eye (Y down),
/// facing up: the triangle far left, far right, near left (seen from a camera looking
/// along +Z), clockwise seen from above. Its near corner's edge to the far right corner
/// crosses the near plane diagonally (x and z both change by 2 `half`).
fn floor(half: i32) -> JomFile {
    let (h, y) = (half * ONE, 2 * ONE);
    JomFile {
        version: 1,
        radius: i32::MAX,
        points: vec![[-h, y, h], [h, y, h], [-h, y, -h]],
        polygons: vec![Polygon {
            normal: [0, -ONE, 0],
            corners: [0, 1, 2, 2],
        }],
        polygon_materials: vec![0],
        materials: vec![Material {
            name: "floor".into(),
            color: [100, 200, 100],
            texture: -1,
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// What a draw did, and the corners of the tables it emitted.
type Drawn = (FrameStats, Vec<[Point; 4]>);

/// How a model is placed for a draw.
enum Placement<'p> {
    Rigid(&'p Matrix),
    Posed(Posed<'p>),
}

/// Draws `model` alone (its embedded textures and gouraud tables loaded): the stats and
/// the polygons' tables (after the list's head); `None` when the model's textures do not
/// load (not what these tests are about).
fn draw_alone(
    model: &Model<'_>,
    placement: &Placement<'_>,
    camera: &Camera,
    light: Option<&Light>,
) -> Option<Result<Drawn, DrawError>> {
    let layout = VramLayout::default();
    let mut bytes = vec![0; VRAM_SIZE as usize];
    let mut vram = MemoryVram::new(&mut bytes);
    let mut textures = TextureCache::<64>::new(layout.textures.clone());
    let mut model_textures = jom::vdp1::ModelTextures::<4>::EMPTY;
    textures
        .load_model(model, &mut vram, |_, _| None, &mut model_textures)
        .ok()?;
    let mut gouraud = vec![0u16; model.polygons().len()];
    GouraudCache::<64>::new(layout.gouraud.clone())
        .load_model(model, &mut vram, &mut gouraud)
        .ok()?;
    let (mut commands, mut frame_gouraud) = (
        vec![CommandTable::EMPTY; 1024],
        vec![GouraudTable::default(); 256],
    );
    let gouraud_base = layout.frame_gouraud.start;
    let mut list = CommandBuffer::new(&mut commands, 0, &mut frame_gouraud, 0, gouraud_base);
    list.start(camera.width, camera.height).ok()?;
    let head = list.len();
    let mut points = vec![ViewPoint::default(); model.points().len()];
    let mut screens = vec![Point::default(); model.points().len()];
    let mut keys = vec![0; 2 * model.polygons().len()];
    let (mut slots, mut tables) = (vec![DrawSlot::EMPTY], Box::new(FrameTables::<1>::EMPTY));
    let mut memory = FrameMemory::new(
        &mut points,
        &mut screens,
        &mut keys,
        &mut slots,
        &mut tables,
    );
    let loaded = LoadedModel {
        model,
        vram: ModelVram {
            textures: model_textures.slots(),
            gouraud: &gouraud,
        },
    };
    let stats = ListFrame::begin(memory.reborrow(), camera, light).and_then(|mut frame| {
        match placement {
            Placement::Rigid(transform) => frame.draw(loaded, transform)?,
            Placement::Posed(posed) => frame.draw_posed(loaded, posed)?,
        }
        frame.finish(&mut list)
    });
    let corners = list.commands()[head..]
        .iter()
        .map(|t| t.corners())
        .collect();
    Some(stats.map(|stats| (stats, corners)))
}

/// Where the renderer must put a camera-space corner (units) on screen, computed in
/// floating point: projected, or, behind the near plane, moved onto it along the edge to
/// the first neighbour in front (next, previous, opposite), then clamped to what VDP1
/// vertex fields hold.
fn expected_corners(view: [[f64; 3]; 4], camera: &Camera) -> [(f64, f64); 4] {
    let near = f64::from(camera.near) / 65536.0;
    let focal = f64::from(camera.focal_length);
    let project = |p: [f64; 3]| {
        let z = p[2].max(near);
        let axis = |v: f64| (v * focal / z).clamp(-2047.0, 2047.0);
        (axis(p[0]), axis(p[1]))
    };
    std::array::from_fn(|i| {
        let p = view[i];
        if p[2] >= near {
            return project(p);
        }
        let q = [(i + 1) % 4, (i + 3) % 4, (i + 2) % 4]
            .map(|j| view[j])
            .into_iter()
            .find(|q| q[2] >= near)
            .expect("a corner in front");
        let t = (near - p[2]) / (q[2] - p[2]);
        project(std::array::from_fn(|k| p[k] + (q[k] - p[k]) * t))
    })
}

fn assert_near(drawn: [Point; 4], expected: [(f64, f64); 4], what: &str) {
    for (corner, (got, (x, y))) in drawn.iter().zip(expected).enumerate() {
        let close = (f64::from(got.x) - x).abs() <= 1.0 && (f64::from(got.y) - y).abs() <= 1.0;
        assert!(
            close,
            "{what}, corner {corner}: drawn at ({}, {}), expected ({x:.2}, {y:.2})",
            got.x, got.y
        );
    }
}

/// The camera-space position (units) of a model-space point (raw) under `matrix`, in
/// floating point.
fn view_of(matrix: &Matrix, point: [i32; 3]) -> [f64; 3] {
    let m = matrix.0.map(|row| row.map(|v| f64::from(v) / 65536.0));
    let p = point.map(|v| f64::from(v) / 65536.0);
    std::array::from_fn(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3])
}

/// Issue #13: a floor of ±20,000 units crossing the near plane wrapped in the clipping's
/// 32-bit differences (a panic in a debug build, garbage on the SH-2). Drawn from its
/// centre turned 10 degrees (so that the clipped edges differ in x and in z) with a near
/// plane of 1 unit (the clipped corners' heights stay on screen), and compared with the
/// exact projection; the same floor at ±10,000 units as well.
#[test]
fn a_floor_of_20000_units_crossing_the_near_plane_draws_where_the_projection_puts_it() {
    let camera = Camera {
        near: ONE,
        rotation: [Angle(0), Angle::from_degrees(10), Angle(0)],
        ..Camera::default()
    };
    for half in [10_000, 20_000] {
        let file = floor(half);
        let bytes = AlignedBytes::new(&file.to_bytes());
        let model = Model::from_bytes(bytes.bytes()).expect("within the limits");
        let drawn = draw_alone(&model, &Placement::Rigid(&Matrix::IDENTITY), &camera, None);
        let (stats, tables) = drawn.expect("no textures").expect("drawn");
        assert_eq!((stats.drawn, tables.len()), (1, 1), "floor ±{half}");
        let corners = file.polygons[0]
            .corners
            .map(|c| file.points[usize::from(c)]);
        let view = corners.map(|p| view_of(&camera.view(), p));
        let expected = expected_corners(view, &camera);
        // The near corner is clipped onto the near plane 2 units below the eye (384
        // pixels down), near the middle of the screen.
        assert!((expected[2].1 - 384.0).abs() < 1e-3, "{:?}", expected[2]);
        assert!(expected[2].0.abs() < 500.0, "{:?}", expected[2]);
        assert_near(tables[0], expected, &format!("floor ±{half}"));
    }
}

/// A rotation by any angles, scaled by `scale` (raw Q16.16) along the axes, moved by
/// `translation`.
fn placed(angles: [i16; 3], scale: [i32; 3], translation: [i32; 3]) -> Matrix {
    let rotation = Matrix::rotation_xyz(angles.map(Angle));
    let mut scaled = Matrix::IDENTITY;
    for (axis, row) in scaled.0.iter_mut().enumerate() {
        row[axis] = scale[axis];
    }
    Matrix::translation(translation).then(&rotation.then(&scaled))
}

/// A valid file made small enough to be drawn: its points shifted right by `shift` bits;
/// without embedded textures, without textures (files on a CD are not what this is about).
fn drawable(mut file: JomFile, shift: u32) -> JomFile {
    for point in &mut file.points {
        *point = point.map(|c| c >> shift);
    }
    if file.textures.is_none() {
        file.texture_names.clear();
        for material in &mut file.materials {
            material.texture = -1;
        }
    }
    file
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Issue #13: any valid model, drawn rigid or posed by any camera and transform within
    /// the documented limits, draws without a panic in a debug build (overflow checks
    /// on), and is not refused: the placement keeps every point within 32000 units of
    /// the camera (the limit is 32767), so the checks of `render::limits` must let it
    /// through.
    #[test]
    fn valid_models_within_the_limits_draw_without_overflow(
        file in valid_file(),
        shift in 0u32..=16,
        camera_at in [-12_000i32..=12_000, -12_000i32..=12_000, -12_000i32..=12_000],
        camera_angles in any::<[i16; 3]>(),
        focal_length in 1i32..=16384,
        size in (2u16..=704, 2u16..=512),
        near_far in (1i32..=64 * ONE, any::<u32>()),
        model_angles in any::<[i16; 3]>(),
        scale in (ONE / 16)..=(4 * ONE),
        offset in [-1.0f64..=1.0, -1.0f64..=1.0, -1.0f64..=1.0],
        light in proptest::option::of((unit_normal(), 0..=ONE)),
        posed in proptest::option::of((
            any::<[i16; 3]>(),
            prop::collection::vec((any::<[i16; 3]>(), [0..=2 * ONE, 0..=2 * ONE, 0..=2 * ONE], [-ONE..=ONE, -ONE..=ONE, -ONE..=ONE]), 0..=32),
        )),
    ) {
        let file = drawable(file, shift);
        let bytes = AlignedBytes::new(&file.to_bytes());
        let model = Model::from_bytes(bytes.bytes());
        prop_assert!(model.is_ok(), "{:?}", model.err());
        let model = model.unwrap();
        // The model's points: within reach (units) of its origin; bones (a BMOT-like scale
        // of up to 2 on each axis) move them to at most twice that plus sqrt(3) units, the
        // transform's scale then multiplies. What is left of 32000 units is the room for
        // the model's offset from the camera (each axis 1/sqrt(3) of it).
        let bone_scale = if posed.is_some() { 2.0 } else { 1.0 };
        let reach = f64::from(model.reach()) / 65536.0 * bone_scale + 2.0;
        let room = 32_000.0 - reach * f64::from(scale) / 65536.0;
        prop_assume!(room > 0.0);
        // Mostly in front of the camera: along its Z axis (the rotation's third column),
        // up to half the room, and anywhere within the other half.
        let view_z = Matrix::rotation_xyz(camera_angles.map(Angle)).0.map(|row| f64::from(row[2]) / 65536.0);
        let half = room / 3f64.sqrt() / 2.0;
        let offset: [i32; 3] = std::array::from_fn(|k| {
            ((view_z[k] * (offset[0] + 1.0) / 2.0 * half + offset[k] * half) * 65536.0) as i32
        });
        let translation = std::array::from_fn(|k| camera_at[k] * ONE + offset[k]);
        let transform = placed(model_angles, [scale; 3], translation);
        let (near, far) = near_far;
        let camera = Camera {
            position: camera_at.map(|c| c * ONE),
            rotation: camera_angles.map(Angle),
            focal_length,
            width: size.0,
            height: size.1,
            near,
            far: near.saturating_add((far >> 1) as i32),
        };
        let light = light.map(|(direction, ambient)| Light { direction, ambient });
        let bones: Vec<Matrix>;
        let root: Matrix;
        let placement = match posed {
            None => Placement::Rigid(&transform),
            Some((root_angles, bone_moves)) => {
                root = placed(root_angles, [ONE; 3], [0; 3]);
                bones = (0..model.bones().len())
                    .map(|b| bone_moves.get(b).map_or(Matrix::IDENTITY, |&(angles, stretch, moved)| placed(angles, stretch, moved)))
                    .collect();
                Placement::Posed(Posed { transform: &transform, root: &root, bones: &bones })
            }
        };
        if let Some(drawn) = draw_alone(&model, &placement, &camera, light.as_ref()) {
            prop_assert!(drawn.is_ok(), "{:?}: reach {reach} scale {scale} room {room} offset {offset:?} camera {camera:?} bones {}", drawn.err(), model.bones().len());
        }
    }
}
