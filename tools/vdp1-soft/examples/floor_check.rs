//! Compares an emulator's screenshot with the host's picture of the same frame on the
//! pixels the VDP2 shows alone: the floor and the sky (`ci/floor.sh`). The pixels where
//! the VDP1 draws are found in the picture of the same frame without the floor (its
//! background colour, its most common, is where the VDP1 drew nothing), and left out with
//! the pixels next to them (an emulator may put a polygon's edge a pixel away). A pixel
//! matches when each channel is within 8 of the other's (one step of a 5-bit channel);
//! exits 1 when fewer than PERCENT match, or when fewer than half the pixels are checked.
//!
//! `cargo run -p vdp1-soft --example floor_check -- SHOT.png WITH-FLOOR.png WITHOUT-FLOOR.png 99.9`

use std::collections::HashMap;
use std::path::Path;
use vdp1_soft::preview::read_png;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [shot, with_floor, without_floor, percent] = args.as_slice() else {
        eprintln!("usage: floor_check SHOT.png WITH-FLOOR.png WITHOUT-FLOOR.png PERCENT");
        std::process::exit(2);
    };
    match check(
        shot,
        with_floor,
        without_floor,
        percent.parse().unwrap_or(100.0),
    ) {
        Ok(message) => println!("{message}"),
        Err(message) => {
            eprintln!("floor_check: {message}");
            std::process::exit(1);
        }
    }
}

fn check(shot: &str, with: &str, without: &str, percent: f64) -> Result<String, String> {
    let read = |path: &str| read_png(Path::new(path)).map_err(|e| e.to_string());
    let (shot_picture, with_picture, without_picture) = (read(shot)?, read(with)?, read(without)?);
    let (width, height) = (shot_picture.0 as usize, shot_picture.1 as usize);
    let pixel = |picture: &(u32, u32, Vec<u8>), x: usize, y: usize| {
        let at = 3 * (y * width + x);
        [picture.2[at], picture.2[at + 1], picture.2[at + 2]]
    };
    let size = (shot_picture.0, shot_picture.1);
    if (with_picture.0, with_picture.1) != size || (without_picture.0, without_picture.1) != size {
        return Err(format!(
            "{shot}, {with} and {without} are not the same size"
        ));
    }
    let mut counts: HashMap<[u8; 3], usize> = HashMap::new();
    for p in without_picture.2.chunks_exact(3) {
        *counts.entry([p[0], p[1], p[2]]).or_default() += 1;
    }
    let background = counts.into_iter().max_by_key(|(_, n)| *n).map(|(c, _)| c);
    let drawn = |x: usize, y: usize| Some(pixel(&without_picture, x, y)) != background;
    let near_drawn = |x: usize, y: usize| {
        (y.saturating_sub(1)..(y + 2).min(height))
            .any(|y| (x.saturating_sub(1)..(x + 2).min(width)).any(|x| drawn(x, y)))
    };
    let (mut checked, mut matched) = (0usize, 0usize);
    for y in 0..height {
        for x in 0..width {
            if near_drawn(x, y) {
                continue;
            }
            let (a, b) = (pixel(&shot_picture, x, y), pixel(&with_picture, x, y));
            checked += 1;
            matched += usize::from(a.iter().zip(&b).all(|(a, b)| a.abs_diff(*b) <= 8));
        }
    }
    let share = 100.0 * matched as f64 / checked.max(1) as f64;
    let message = format!(
        "{shot} and {with}: {matched} of {checked} floor and sky pixels match ({share:.2}%, threshold {percent}%)"
    );
    match 2 * checked >= width * height && share >= percent {
        true => Ok(message),
        false => Err(message),
    }
}
