//! The readers and the player on Sony's own sample files in ../shared/samples/psx (skipped,
//! with a line saying so, when they are absent).

use psx_formats::player::{self, Affine, Player, Pose};
use psx_formats::tmd::{self, Polygon, Primitive, Tmd};
use psx_formats::vram::{ClutPosition, Depth, FrameBuffer, TexturePage};
use psx_formats::{tim, tod};
use std::path::PathBuf;

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples/psx");
    if dir.is_dir() {
        Some(dir)
    } else {
        test_skip::skip("../shared/samples/psx absent");
        None
    }
}

fn read(dir: &std::path::Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn polygons(model: &Tmd) -> impl Iterator<Item = (usize, &Polygon)> {
    model.objects.iter().enumerate().flat_map(|(o, object)| {
        object.primitives.iter().filter_map(move |p| match p {
            Primitive::Polygon(p) => Some((o, p)),
            _ => None,
        })
    })
}

fn sub(a: [i16; 3], b: [i16; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| f64::from(a[i]) - f64::from(b[i]))
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// How many of the lit polygons have their normal against (v1 - v0) x (v2 - v0) (the
/// engine's front face: clockwise on a Y-down screen), and how many are lit.
fn front_faces(model: &Tmd) -> (usize, usize) {
    let mut against = 0;
    let mut lit = 0;
    for (o, p) in polygons(model).filter(|(_, p)| p.is_lit()) {
        let object = &model.objects[o];
        let v = |i: usize| object.vertices[usize::from(p.vertices[i])];
        // A gouraud polygon's corner normals summed: the side they lean to.
        let normal = p.normals.iter().fold([0.0; 3], |sum, &n| {
            let n = object.normals[usize::from(n)];
            [0, 1, 2].map(|i| sum[i] + f64::from(n[i]))
        });
        lit += 1;
        against += usize::from(dot(cross(sub(v(1), v(0)), sub(v(2), v(0))), normal) < 0.0);
    }
    (against, lit)
}

#[test]
fn sonys_models_read_and_face_the_engines_way() {
    let Some(dir) = samples() else { return };
    let te = tmd::read(&read(&dir, "TE.TMD")).expect("TE.TMD");
    assert_eq!(te.objects.len(), 15);
    let modes: std::collections::BTreeSet<(u8, u8)> =
        polygons(&te).map(|(_, p)| (p.mode, p.flag)).collect();
    // Flat and gouraud lit triangles, double sided.
    assert_eq!(
        modes.into_iter().collect::<Vec<_>>(),
        [(0x20, 2), (0x30, 2)]
    );
    let (against, lit) = front_faces(&te);
    assert!(against * 100 >= lit * 99, "{against} of {lit}");

    for name in ["CUBE4T.TMD", "CUBE3GT.TMD", "CUBE4G.TMD", "MADO.TMD"] {
        let model = tmd::read(&read(&dir, name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (against, lit) = front_faces(&model);
        assert!(lit > 0 && against == lit, "{name}: {against} of {lit}");
    }
    let cube4t = tmd::read(&read(&dir, "CUBE4T.TMD")).expect("reads");
    assert_eq!(
        cube4t.objects.iter().map(|o| o.scale).collect::<Vec<_>>(),
        [0, -1]
    );
}

#[test]
fn sonys_quads_have_the_outline_v0_v1_v3_v2() {
    let Some(dir) = samples() else { return };
    let mut quads = 0;
    for name in ["CUBE4T.TMD", "CUBE4G.TMD"] {
        let model = tmd::read(&read(&dir, name)).expect("reads");
        for (o, p) in polygons(&model) {
            assert!(p.is_quad(), "{name}: quads only");
            let object = &model.objects[o];
            let outline: Vec<[i16; 3]> = p.outline().iter().map(|&v| object.vertices[v]).collect();
            let normal = object.normals[usize::from(p.normals[0])].map(f64::from);
            // Convex and turning one way: every corner's turn against the normal.
            for i in 0..4 {
                let (a, b, c) = (outline[i], outline[(i + 1) % 4], outline[(i + 2) % 4]);
                let turn = cross(sub(b, a), sub(c, b));
                assert!(
                    dot(turn, normal) < 0.0,
                    "{name} at byte {}: corner {i}",
                    p.offset
                );
            }
            quads += 1;
        }
    }
    assert_eq!(quads, 18);
}

#[test]
fn mados_texture_is_in_its_tim() {
    let Some(dir) = samples() else { return };
    let texture = tim::read(&read(&dir, "MADO.TIM")).expect("MADO.TIM");
    assert_eq!(texture.mode, tim::PixelMode::Clut4);
    let clut = texture.clut.as_ref().expect("a lookup table");
    assert_eq!((clut.x, clut.y, clut.width, clut.height), (0, 480, 16, 1));
    let image = &texture.image;
    assert_eq!(
        (image.x, image.y, image.width, image.height),
        (640, 0, 20, 256)
    );
    let mut vram = FrameBuffer::new();
    vram.load(&texture);
    let model = tmd::read(&read(&dir, "MADO.TMD")).expect("MADO.TMD");
    let mut colours = std::collections::BTreeSet::new();
    let mut textured = 0;
    for (_, p) in polygons(&model) {
        let map = p.texture.as_ref().expect("every MADO polygon is textured");
        assert_eq!(
            map.page,
            TexturePage {
                x: 640,
                y: 0,
                depth: Depth::Clut4,
                rate: 0
            }
        );
        assert_eq!(map.clut, ClutPosition { x: 0, y: 480 });
        // Every texel of the corners' bounding box is in the TIM.
        let range = |axis: usize| {
            let values = map.uvs.iter().map(|uv| uv[axis]);
            values.clone().min().unwrap_or(0)..=values.max().unwrap_or(0)
        };
        for u in range(0) {
            for v in range(1) {
                colours.insert(
                    vram.texel(map.page, map.clut, u, v)
                        .expect("inside MADO.TIM"),
                );
            }
        }
        textured += 1;
    }
    assert_eq!(textured, 46);
    assert!(
        colours.len() > 2,
        "the polygons sample several colours: {colours:?}"
    );
}

fn is_rigid(m: &Affine) -> bool {
    (0..3).all(|i| {
        (0..3).all(|j| {
            let d: f64 = (0..3).map(|k| m[k][i] * m[k][j]).sum();
            (d - f64::from(u8::from(i == j))).abs() < 1e-9
        })
    })
}

fn finite(pose: &Pose) -> bool {
    pose.values()
        .all(|o| o.world.iter().flatten().all(|v| v.is_finite()))
}

#[test]
fn the_hand_plays_and_the_transitions_continue_its_objects() {
    let Some(dir) = samples() else { return };
    let jaanken = tod::read(&read(&dir, "JAANKEN.TOD")).expect("JAANKEN.TOD");
    let n_c = tod::read(&read(&dir, "N_C.TOD")).expect("N_C.TOD");
    let c_n = tod::read(&read(&dir, "C_N.TOD")).expect("C_N.TOD");
    assert_eq!(
        (
            jaanken.resolution,
            jaanken.frames.len(),
            n_c.frames.len(),
            c_n.frames.len()
        ),
        (0, 81, 21, 21)
    );

    // Alone, a transition refers to objects no packet created.
    let alone = Player::new().play(&n_c).expect_err("N_C alone");
    assert!(
        alone
            .message
            .contains("no object-control packet has created"),
        "{alone}"
    );

    let mut player = Player::new();
    let mut play = |tod: &tod::Tod| -> Result<Vec<Pose>, psx_formats::Error> {
        let played = player.play(tod)?;
        // Every frame number is there, from 0.
        assert!(played
            .iter()
            .enumerate()
            .all(|(i, (n, _))| *n as usize == i));
        Ok(played.into_iter().map(|(_, pose)| pose).collect())
    };
    let hand = play(&jaanken).expect("JAANKEN plays");
    let after_hand: Vec<u16> = hand.last().expect("frames").keys().copied().collect();
    let transition = play(&n_c).expect("N_C continues JAANKEN");
    let back = play(&c_n).expect("C_N continues N_C");
    assert_eq!((hand.len(), transition.len(), back.len()), (81, 21, 21));
    assert_eq!(after_hand, (5..=34).collect::<Vec<u16>>());
    assert_eq!(player.creation_order().len(), 30);
    assert_eq!(
        player.ignored,
        15 + 15 + 15,
        "one attribute packet per geometry object in each"
    );

    for pose in hand.iter().chain(&transition).chain(&back) {
        assert_eq!(pose.keys().copied().collect::<Vec<_>>(), after_hand);
        assert!(finite(pose) && pose.values().all(|o| is_rigid(&o.world)));
        for (id, object) in pose {
            // Geometry objects 5 to 19 draw TMD objects 0 to 14 and hang from joints 20 to 34;
            // the joints hang from one another up to joint 20, the root (parent 0).
            if *id < 20 {
                assert_eq!(object.tmd.map(|l| l.index), Some(usize::from(id - 5)));
                assert_eq!(object.parent, Some(id + 15));
            } else {
                assert_eq!(object.tmd, None);
                assert_eq!(object.parent.is_none(), *id == 20);
                assert!(
                    object.parent.is_none_or(|p| (20..*id).contains(&p)),
                    "{id}: parent before it"
                );
            }
        }
    }
    // N_C starts from the hand's first pose: its first frame sets the same absolute values.
    for (id, object) in &transition[0] {
        let a = player::transform(&object.world, [100.0, 200.0, 300.0]);
        let b = player::transform(&hand[0][id].world, [100.0, 200.0, 300.0]);
        assert!((0..3).all(|i| (a[i] - b[i]).abs() < 1e-6), "object {id}");
    }
    // The animation moves the fingers: a fingertip object's origin moves between frames.
    let tip = |pose: &Pose| player::transform(&pose[&19].world, [0.0; 3]);
    let moved = hand
        .iter()
        .map(tip)
        .any(|t| (t[1] - tip(&hand[0])[1]).abs() > 10.0);
    assert!(moved);
}
