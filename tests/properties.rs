//! Property tests: no byte string makes validation panic, and every valid file a writer
//! makes reads back field for field.

use jom::format::TexturePixels;
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

/// A point within the engine's limits (each coordinate within `MAX_COORDINATE`).
fn point() -> impl Strategy<Value = [i32; 3]> {
    let limit = jom::format::MAX_COORDINATE;
    [-limit..=limit, -limit..=limit, -limit..=limit]
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
