//! Compares two pictures of the same size pixel by pixel (a pixel matches when each
//! channel is within 8 of the other's: one step of a 5-bit channel) and prints the share
//! that match; exits 1 under the threshold.
//!
//! `cargo run -p vdp1-soft --example compare -- A.png B.png 98`

use std::path::Path;
use vdp1_soft::preview::read_png;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [a, b, threshold] = args.as_slice() else {
        eprintln!("usage: compare A.png B.png PERCENT");
        std::process::exit(2);
    };
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
    let close = |p: &[u8], q: &[u8]| p.iter().zip(q).all(|(x, y)| x.abs_diff(*y) <= 8);
    let total = picture_a.2.len() / 3;
    let matching = picture_a
        .2
        .chunks(3)
        .zip(picture_b.2.chunks(3))
        .filter(|(p, q)| close(p, q))
        .count();
    let share = 100.0 * matching as f64 / total as f64;
    println!(
        "{a} and {b}: {matching} of {total} pixels match ({share:.2}%, threshold {threshold}%)"
    );
    if share < threshold {
        std::process::exit(1);
    }
}
