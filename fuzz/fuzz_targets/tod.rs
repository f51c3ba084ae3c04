//! `psx_formats::tod::read` and the player on any input: they must return, never panic,
//! read out of bounds or hang; played twice (a TOD continuing itself), every pose has a
//! matrix for each live object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use psx_formats::player::Player;
use psx_formats::tod;

fuzz_target!(|data: &[u8]| {
    if let Ok(animation) = tod::read(data) {
        let mut player = Player::new();
        for _ in 0..2 {
            match player.play(&animation) {
                Ok(poses) => {
                    for (_, pose) in poses {
                        std::hint::black_box(pose.len());
                    }
                }
                Err(_) => break,
            }
        }
    }
});
