//! Compares two pictures of the same size pixel by pixel (a pixel matches when each
//! channel is within 8 of the other's: one step of a 5-bit channel) and prints the share
//! that match; exits 1 under the threshold, or when the reference B drew nothing (fewer
//! than 1% of its pixels differ from its background, its most common colour): two empty
//! screens would otherwise match.
//!
//! `cargo run -p vdp1-soft --example compare -- A.png B.png 98 [--edges] [--steps]`
//!
//! `--edges`: a pixel of A also matches when one of the 8 around the same place in B does:
//! for scenes of many small polygons of contrasting colours, whose edges an emulator may
//! put a pixel away from the software VDP1's (the match without it is printed too).
//!
//! `--steps`: a pixel matches when each channel's 5 bits (the VDP's) are within one step
//! of the other's, whatever the low bits: for gouraud-shaded scenes (a fog), whose shades
//! an emulator rounds a step away from the software VDP1's, and whose screenshot widens a
//! 5-bit channel to 8 bits with low bits of its own (Yabause: 14 as 115, the reference 112:
//! a step more is 11 away, past the 8 of the default).

use std::path::Path;
use vdp1_soft::preview::read_png;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: compare A.png B.png PERCENT [--edges] [--steps]");
        std::process::exit(2);
    };
    let [a, b, threshold, flags @ ..] = args.as_slice() else {
        usage()
    };
    if flags.iter().any(|f| f != "--edges" && f != "--steps") {
        usage()
    }
    let (edges, steps) = (
        flags.iter().any(|f| f == "--edges"),
        flags.iter().any(|f| f == "--steps"),
    );
    let threshold: f64 = threshold.parse().unwrap_or(100.0);
    let (picture_a, picture_b) = match (read_png(Path::new(a)), read_png(Path::new(b))) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("compare: {e}");
            std::process::exit(1);
        }
    };
    if (picture_a.0, picture_a.1) != (picture_b.0, picture_b.1) {
        eprintln!(
            "compare: {a} is {}x{}, {b} is {}x{}",
            picture_a.0, picture_a.1, picture_b.0, picture_b.1
        );
        std::process::exit(1);
    }
    let close = |p: &[u8], q: &[u8]| {
        p.iter().zip(q).all(|(x, y)| match steps {
            true => (x >> 3).abs_diff(y >> 3) <= 1,
            false => x.abs_diff(*y) <= 8,
        })
    };
    let total = picture_a.2.len() / 3;
    let exact = picture_a
        .2
        .chunks(3)
        .zip(picture_b.2.chunks(3))
        .filter(|(p, q)| close(p, q))
        .count();
    let (width, height) = (picture_a.0 as usize, picture_a.1 as usize);
    let pixel = |rgb: &'_ [u8], x: usize, y: usize| -> [u8; 3] {
        let i = 3 * (y * width + x);
        [rgb[i], rgb[i + 1], rgb[i + 2]]
    };
    let near = |x: usize, y: usize| {
        let p = pixel(&picture_a.2, x, y);
        (y.saturating_sub(1)..(y + 2).min(height)).any(|ny| {
            (x.saturating_sub(1)..(x + 2).min(width))
                .any(|nx| close(&p, &pixel(&picture_b.2, nx, ny)))
        })
    };
    let matching = if edges {
        let within = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| near(x, y))
            .count();
        say(format_args!(
            "{a} and {b}: {exact} of {total} pixels match exactly ({:.2}%), {within} within a pixel",
            100.0 * exact as f64 / total as f64
        ));
        within
    } else {
        exact
    };
    let share = 100.0 * matching as f64 / total as f64;
    let drawn = 100.0 * drawn_pixels(&picture_b.2) as f64 / total as f64;
    if drawn < MIN_DRAWN_PERCENT {
        eprintln!("compare: {b} drew nothing ({drawn:.2}% of its pixels off its background)");
        std::process::exit(1);
    }
    say(format_args!(
        "{a} and {b}: {matching} of {total} pixels match ({share:.2}%, threshold {threshold}%); \
         {drawn:.2}% of {b} drawn"
    ));
    if share < threshold {
        std::process::exit(1);
    }
}

/// Prints `line` on stdout: a stdout closed by its reader (`| head -0`) is no failure of the
/// comparison, whose result is the exit status (`println!` would panic).
fn say(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{line}");
}

/// The least share of the reference's pixels that must differ from its background.
const MIN_DRAWN_PERCENT: f64 = 1.0;

/// The pixels of an RGB picture that are not its most common colour.
fn drawn_pixels(rgb: &[u8]) -> usize {
    let mut counts = std::collections::HashMap::new();
    for pixel in rgb.chunks(3) {
        *counts.entry(pixel).or_insert(0usize) += 1;
    }
    let background = counts.values().copied().max().unwrap_or(0);
    rgb.len() / 3 - background
}
