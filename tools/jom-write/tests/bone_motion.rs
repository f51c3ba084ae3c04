//! The BMOT chunk's bytes, laid out as COMMON/docs/format.md say: count, track table, keys.

use jom_write::{fixtures, BoneMotion, MotionKey};

const ONE: i32 = 0x10000;

fn be32(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The data of the first chunk tagged `tag`.
fn chunk<'a>(file: &'a [u8], tag: &[u8; 4]) -> Option<&'a [u8]> {
    let mut at = 24;
    while at + 8 <= file.len() {
        let size = be32(file, at + 4) as usize;
        if &file[at..at + 4] == tag {
            return Some(&file[at + 8..at + 8 + size]);
        }
        at += 8 + size;
    }
    None
}

#[test]
fn bmot_is_the_track_table_then_the_keys_after_anim() {
    let mut file = fixtures::every_chunk();
    let key = |t: i32, s: i32| MotionKey {
        offset: [t, -t, 2 * t],
        scale: [s, ONE, 0],
    };
    file.bone_motion = Some(vec![
        BoneMotion {
            animation: 0,
            bone: 2,
            keys: vec![key(1, ONE), key(2, ONE / 2), key(3, 2 * ONE)],
        },
        BoneMotion {
            animation: 1,
            bone: 0,
            keys: vec![key(-5, 7)],
        },
    ]);
    let bytes = file.to_bytes();
    let data = chunk(&bytes, b"BMOT").expect("a BMOT chunk");
    assert_eq!(data.len(), 4 + 2 * 8 + 4 * 24);
    assert_eq!(be32(data, 0), 2);
    // Track 0: animation 0, bone 2, keys right after the table.
    assert_eq!(&data[4..8], &[0, 0, 0, 2]);
    assert_eq!(be32(data, 8), 20);
    assert_eq!(&data[12..16], &[0, 1, 0, 0]);
    assert_eq!(be32(data, 16), 20 + 3 * 24);
    // Key 1 of track 0: offset (2, -2, 4), scale (0.5, 1, 0).
    let k = 20 + 24;
    let words: Vec<i32> = (0..6).map(|i| be32(data, k + 4 * i) as i32).collect();
    assert_eq!(words, [2, -2, 4, ONE / 2, ONE, 0]);
    // After ANIM, before the unknown chunk and END.
    let position = |tag: &[u8]| bytes.windows(4).position(|w| w == tag).unwrap();
    assert!(position(b"ANIM") < position(b"BMOT"));
    assert!(position(b"BMOT") < position(b"XTRA"));
    // Without tracks, no chunk.
    assert!(chunk(&fixtures::every_chunk().to_bytes(), b"BMOT").is_none());
}
