//! Bad CMB and CSAB input: one error naming the chunk and the byte offset, never a panic.
//! The real samples cut at every length and with bytes changed (skipped, saying so, where
//! `../shared/samples` is absent), and hand-made headers.

use jomc::cmb::{csab, model, rest};
use std::path::PathBuf;

fn sample(path: &str) -> Option<Vec<u8>> {
    let full = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/samples/cmb")
        .join(path);
    match std::fs::read(&full) {
        Ok(bytes) => Some(bytes),
        Err(_) => {
            test_skip::skip(&format!("{} absent", full.display()));
            None
        }
    }
}

/// Parses `data` as both formats; a CMB that parses is also made rigid.
fn parse_both(data: &[u8]) -> (Result<(), String>, Result<(), String>) {
    let cmb = model::parse(data).map(|c| {
        rest::make_rigid(&c);
    });
    let csab = csab::parse(data).map(|_| ());
    (
        cmb.map_err(|e| e.to_string()),
        csab.map_err(|e| e.to_string()),
    )
}

#[test]
fn every_cut_of_a_real_file_is_one_error() {
    for path in [
        "oot3d_cow/cow.cmb",
        "lm3ds_gel/Luigi_2p_gel.cmb",
        "oot3d_cow/ust_furifuri.csab",
        "lm3ds_gel/reborn.csab",
    ] {
        let Some(bytes) = sample(path) else { return };
        let cmb = path.ends_with(".cmb");
        let mut lengths_read = 0;
        // Every length of a CSAB; every 31st of a CMB (debug builds are slow).
        let step = if cmb { 31 } else { 1 };
        for len in (0..bytes.len()).step_by(step) {
            let (a, b) = parse_both(&bytes[..len]);
            let result = if cmb { a } else { b };
            match result {
                Err(message) => {
                    assert!(!message.contains('\n'), "{message}");
                    assert!(message.contains("chunk at offset"), "{message}");
                }
                // The file's tail past the last thing read (padding, unread chunks).
                Ok(()) => lengths_read += 1,
            }
        }
        eprintln!(
            "{path}: {} of {} cuts read (their tail is unread)",
            lengths_read,
            bytes.len()
        );
        assert!(
            lengths_read < bytes.len() / 2,
            "{path}: most cuts must fail"
        );
    }
}

#[test]
fn changed_bytes_never_panic() {
    for path in [
        "oot3d_cow/cow.cmb",
        "lm3ds_gel/Luigi_2p_gel.cmb",
        "oot3d_cow/usi_mogmog.csab",
        "lm3ds_gel/2pdm_gg_wait.csab",
    ] {
        let Some(bytes) = sample(path) else { return };
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        for _ in 0..150 {
            let mut copy = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let at = next() % copy.len();
                copy[at] = next() as u8;
            }
            let _ = parse_both(&copy);
        }
    }
}

#[test]
fn unknown_versions_and_magics_are_named() {
    let mut cmb = b"cmb \0\0\0\0".to_vec();
    cmb.extend(7u32.to_le_bytes());
    cmb.resize(0x60, 0);
    assert_eq!(
        model::parse(&cmb).unwrap_err().to_string(),
        "header chunk at offset 8 (0x8): unknown version 7, expected 6, 10, 12 or 15"
    );
    cmb[..4].copy_from_slice(b"cmc ");
    assert_eq!(
        model::parse(&cmb).unwrap_err().to_string(),
        "header chunk at offset 0 (0x0): expected the magic \"cmb \", found \"cmc \""
    );
    let mut anim = b"csab\0\0\0\0".to_vec();
    anim.extend(4u32.to_le_bytes());
    anim.resize(0x40, 0);
    assert_eq!(
        csab::parse(&anim).unwrap_err().to_string(),
        "header chunk at offset 8 (0x8): unknown version 4, expected 3 or 5"
    );
}
