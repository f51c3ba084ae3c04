//! TOD reading and the player, against files made by the test writer from the manual.

mod writer;

use psx_formats::player::{self, Affine, Player};
use psx_formats::tod::{self, Body, Coordinate, Matrix};
use writer::packet::{self, rst};

fn close(a: &Affine, b: &Affine) -> bool {
    a.iter()
        .flatten()
        .zip(b.iter().flatten())
        .all(|(x, y)| (x - y).abs() < 1e-9)
}

#[test]
fn every_packet_type_is_read() {
    let m = [[4096, 0, 0], [0, 0, -4096], [0, 4096, 0]];
    let bytes = writer::tod(
        2,
        &[(
            7,
            vec![
                packet::create(3),
                packet::attribute(3, 0xffbf, 0x40),
                rst(
                    3,
                    false,
                    Some([360, -720, 1080]),
                    Some([4096, 2048, -4096]),
                    Some([1, -2, 70000]),
                ),
                rst(3, true, None, None, Some([5, 6, 7])),
                packet::tmd_id(3, 2),
                packet::parent(3, 0xFFFF),
                packet::matrix(3, m, [10, -20, 30]),
                packet::light(1),
                packet::camera(1),
                packet::kill(3),
            ],
        )],
    );
    let tod = tod::read(&bytes).expect("reads");
    assert_eq!((tod.version, tod.resolution, tod.frames.len()), (0, 2, 1));
    let frame = &tod.frames[0];
    assert_eq!((frame.offset, frame.number), (8, 7));
    let bodies: Vec<&Body> = frame.packets.iter().map(|p| &p.body).collect();
    assert_eq!(
        bodies,
        [
            &Body::Create,
            &Body::Attribute {
                mask: 0xffbf,
                value: 0x40
            },
            &Body::Coordinate(Coordinate {
                differential: false,
                rotation: Some([360, -720, 1080]),
                scale: Some([4096, 2048, -4096]),
                translation: Some([1, -2, 70000]),
            }),
            &Body::Coordinate(Coordinate {
                differential: true,
                rotation: None,
                scale: None,
                translation: Some([5, 6, 7]),
            }),
            &Body::TmdId(2),
            &Body::Parent(0xFFFF),
            &Body::Matrix(Matrix {
                m,
                t: [10, -20, 30]
            }),
            &Body::Light,
            &Body::Camera,
            &Body::Kill,
        ]
    );
    assert!(frame.packets.iter().all(|p| p.object == 3 || p.object == 1));
    assert_eq!(frame.packets[1].offset, 8 + 8 + 4);
}

fn error(bytes: &[u8]) -> (usize, String) {
    let e = tod::read(bytes).expect_err("must fail");
    (e.offset, e.message)
}

#[test]
fn bad_files_name_the_byte_and_what_was_expected() {
    let good = writer::tod(
        0,
        &[(
            0,
            vec![packet::create(1), rst(1, false, Some([0; 3]), None, None)],
        )],
    );
    assert!(tod::read(&good).is_ok());

    let mut id = good.clone();
    id[0] = 0x41;
    assert_eq!(
        error(&id),
        (0, "ID 0x41, expected 0x50 (not a TOD file)".into())
    );

    let mut frames = good.clone();
    frames[4] = 2;
    let (at, message) = error(&frames);
    assert_eq!(at, 8 + 4 * 7);
    assert!(message.contains("frame header"), "{message}");

    let mut extra = good.clone();
    extra.extend([0; 4]);
    assert_eq!(
        error(&extra),
        (
            good.len(),
            "4 bytes after the 1 frames the header announces, expected the end of the file".into()
        )
    );

    // The frame says 8 words, its packets make 7.
    let mut size = good.clone();
    size[8] = 8;
    size.extend([0; 4]);
    let (at, message) = error(&size);
    assert_eq!(at, 8 + 7 * 4);
    assert!(
        message.contains("expected the frame's end at byte 40"),
        "{message}"
    );

    // A coordinate packet with R flagged but 3 words long.
    let mut short = good.clone();
    short[8 + 12 + 3] = 3;
    let (at, message) = error(&short);
    assert_eq!(at, 8 + 12 + 3);
    assert!(message.contains("length 3 words, expected 4"), "{message}");

    let tmd_data = writer::tod(0, &[(0, vec![vec![1, 0, 5, 1]])]);
    assert!(error(&tmd_data).1.contains("TMD data packet"));
    let unknown = writer::tod(0, &[(0, vec![vec![1, 0, 9, 1]])]);
    assert!(error(&unknown)
        .1
        .contains("packet type 9, expected 0 to 8, 14 or 15"));
    let control = writer::tod(0, &[(0, vec![vec![1, 0, 0x28, 1]])]);
    assert!(error(&control).1.contains("object-control flag 2"));
    let zero = writer::tod(0, &[(0, vec![vec![1, 0, 8, 0]])]);
    assert!(error(&zero)
        .1
        .contains("length 0 words, expected at least 1"));

    let backwards = writer::tod(0, &[(3, vec![]), (3, vec![])]);
    let (at, message) = error(&backwards);
    assert_eq!(at, 8 + 8 + 4);
    assert!(
        message.contains("expected more than the previous frame's 3"),
        "{message}"
    );
}

/// Plays `tods` in order on one player.
fn play(tods: &[Vec<u8>]) -> (Player, Vec<Vec<player::Pose>>) {
    let mut player = Player::new();
    let poses = tods
        .iter()
        .map(|bytes| {
            let played = player
                .play(&tod::read(bytes).expect("reads"))
                .expect("plays");
            played.into_iter().map(|(_, pose)| pose).collect()
        })
        .collect();
    (player, poses)
}

#[test]
fn absolute_and_differential_values_give_rotmatrix_scaled_and_translated() {
    let quarter = 90 * 4096; // degrees x 4096: a quarter turn
    let (_, poses) = play(&[writer::tod(
        0,
        &[
            (
                0,
                vec![
                    packet::create(1),
                    rst(
                        1,
                        false,
                        Some([0, 0, quarter]),
                        Some([8192, 4096, 4096]),
                        Some([10, 20, 30]),
                    ),
                ],
            ),
            (
                1,
                vec![rst(
                    1,
                    true,
                    Some([quarter, 0, 0]),
                    Some([2048, 4096, 4096]),
                    Some([1, 1, 1]),
                )],
            ),
            (2, vec![rst(1, false, None, Some([4096; 3]), None)]),
        ],
    )]);
    let frames = &poses[0];
    assert_eq!(frames.len(), 3);
    // Rz(90) with column X scaled by 2.
    let expected0 = [
        [0.0, -1.0, 0.0, 10.0],
        [2.0, 0.0, 0.0, 20.0],
        [0.0, 0.0, 1.0, 30.0],
    ];
    assert!(
        close(&frames[0][&1].world, &expected0),
        "{:?}",
        frames[0][&1].world
    );
    // Rx(90) * Rz(90), scale 2 * 0.5 = 1, translation + 1.
    let rx_rz = [
        [0.0, -1.0, 0.0, 11.0],
        [0.0, 0.0, -1.0, 21.0],
        [1.0, 0.0, 0.0, 31.0],
    ];
    assert!(
        close(&frames[1][&1].world, &rx_rz),
        "{:?}",
        frames[1][&1].world
    );
    // An absolute scale alone keeps R and T.
    assert!(close(&frames[2][&1].world, &rx_rz));
    // Y: RotMatrix is Rx * Ry * Rz.
    let r = player::rot_matrix([1024, 1024, 1024]);
    let (rx, ry, rz) = (
        player::rot_matrix([1024, 0, 0]),
        player::rot_matrix([0, 1024, 0]),
        player::rot_matrix([0, 0, 1024]),
    );
    let mul = |a: [[f64; 3]; 3], b: [[f64; 3]; 3]| {
        [0, 1, 2].map(|i| [0, 1, 2].map(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum::<f64>()))
    };
    let product = mul(mul(rx, ry), rz);
    assert!(r
        .iter()
        .flatten()
        .zip(product.iter().flatten())
        .all(|(a, b)| (a - b).abs() < 1e-12));
    assert!((ry[0][2] - 1.0).abs() < 1e-12, "Ry(90) maps Z to X");
}

#[test]
fn world_is_the_parents_world_times_the_local_matrix() {
    let quarter = 90 * 4096;
    let (_, poses) = play(&[writer::tod(
        0,
        &[(
            0,
            vec![
                packet::create(2),
                packet::create(1),
                packet::create(3),
                packet::parent(2, 1),
                packet::parent(1, 0),
                packet::parent(3, 0xFFFF),
                rst(1, false, Some([0, 0, quarter]), None, Some([100, 0, 0])),
                rst(2, false, None, None, Some([10, 0, 0])),
                rst(3, false, None, None, Some([0, 5, 0])),
            ],
        )],
    )]);
    let pose = &poses[0][0];
    let child = player::transform(&pose[&2].world, [0.0; 3]);
    assert!(
        (child[0] - 100.0).abs() < 1e-9 && (child[1] - 10.0).abs() < 1e-9,
        "{child:?}"
    );
    assert_eq!(pose[&2].parent, Some(1));
    assert_eq!(pose[&1].parent, None);
    assert_eq!(pose[&3].parent, None);
    assert_eq!(
        player::transform(&pose[&3].world, [0.0; 3]),
        [0.0, 5.0, 0.0]
    );
}

#[test]
fn objects_are_created_linked_killed_and_continued_by_later_tods() {
    let first = writer::tod(
        1,
        &[
            (
                0,
                vec![
                    packet::create(5),
                    packet::create(6),
                    packet::tmd_id(5, 1),
                    rst(5, false, None, None, Some([1, 0, 0])),
                ],
            ),
            (
                1,
                vec![
                    packet::kill(6),
                    packet::attribute(5, 0, 0),
                    packet::light(0),
                    packet::camera(0),
                ],
            ),
        ],
    );
    let second = writer::tod(
        1,
        &[
            (0, vec![rst(5, true, None, None, Some([1, 0, 0]))]),
            (3, vec![]),
        ],
    );
    let (player, poses) = play(&[first, second]);
    assert_eq!(poses[0][0].keys().copied().collect::<Vec<_>>(), [5, 6]);
    assert_eq!(poses[0][1].keys().copied().collect::<Vec<_>>(), [5]);
    assert_eq!(
        poses[0][0][&5].tmd.map(|l| (l.index, l.packet)),
        Some((0, 24))
    );
    assert_eq!(poses[1].len(), 2, "one pose per frame");
    assert_eq!(
        player::transform(&poses[1][1][&5].world, [0.0; 3]),
        [2.0, 0.0, 0.0]
    );
    assert_eq!(player.ignored, 3);
    assert_eq!(player.creation_order(), [5, 6]);
}

#[test]
fn a_matrix_packet_sets_the_matrix_until_the_next_coordinate_packet() {
    let (_, poses) = play(&[writer::tod(
        0,
        &[
            (
                0,
                vec![
                    packet::create(1),
                    packet::matrix(1, [[0, -4096, 0], [4096, 0, 0], [0, 0, 2048]], [1, 2, 3]),
                ],
            ),
            (1, vec![rst(1, true, None, None, Some([1, 0, 0]))]),
        ],
    )]);
    let expected = [
        [0.0, -1.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 2.0],
        [0.0, 0.0, 0.5, 3.0],
    ];
    assert!(close(&poses[0][0][&1].world, &expected));
    assert!(close(
        &poses[0][1][&1].world,
        &[
            [1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0]
        ]
    ));
}

#[test]
fn playing_bad_animations_names_the_packet() {
    let fail = |frames: &[(u32, Vec<Vec<u8>>)]| {
        let tod = tod::read(&writer::tod(0, frames)).expect("reads");
        let e = Player::new().play(&tod).expect_err("must fail");
        (e.offset, e.message)
    };
    let (at, message) = fail(&[(0, vec![rst(4, false, None, None, Some([0; 3]))])]);
    assert_eq!(at, 16);
    assert!(
        message.contains("a packet for object 4, which no object-control packet has created"),
        "{message}"
    );

    let (at, message) = fail(&[(0, vec![packet::create(1), packet::parent(1, 9)])]);
    assert_eq!(at, 20);
    assert_eq!(
        message,
        "object 1's parent 9 does not exist (never created, or killed)"
    );

    let (_, message) = fail(&[(
        0,
        vec![
            packet::create(1),
            packet::create(2),
            packet::parent(1, 2),
            packet::parent(2, 1),
        ],
    )]);
    assert!(message.contains("cycle"), "{message}");

    let (at, message) = fail(&[(0, vec![packet::create(1), packet::tmd_id(1, 0)])]);
    assert_eq!(at, 24);
    assert!(
        message.contains("TMD ID 0, expected 1 or more"),
        "{message}"
    );

    let (_, message) = fail(&[(0, vec![packet::create(1), packet::create(1)])]);
    assert!(message.contains("created while it exists"), "{message}");
}
