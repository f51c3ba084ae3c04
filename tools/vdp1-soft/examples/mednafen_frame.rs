//! The last picture of a Mednafen recording (`-qtrecord FILE.mov -qtrecord.vcodec png`: a
//! QuickTime file whose frames are PNG images), brought back to the Saturn's own pixels.
//! ci/emu/mednafen.sh records the screen's lines only (`-ss.slstart`, `-ss.slend`) without
//! aspect correction and with the overscan: each Saturn pixel is then a block of N x N (N =
//! the frame's height over the screen's, 2 in the 224-line modes), and a line of 352
//! pixels holds a 320-pixel screen centred in it.
//!
//! `cargo run -p vdp1-soft --example mednafen_frame -- RECORDING.mov OUT.png [WIDTH HEIGHT]`
//! `cargo run -p vdp1-soft --example mednafen_frame -- RECORDING.mov --last N OUTDIR [WIDTH HEIGHT]`
//!
//! WIDTH x HEIGHT (default 320 x 224) is the Saturn's screen. With `--last N`, the last N
//! frames that decode (a field each), oldest first, as OUTDIR/000.png, 001.png, ... (a
//! check of every field, not one moment). Exits 1 when the file holds no whole PNG frame
//! (or fewer than N) or a frame that cannot hold the screen.

use std::path::Path;
use vdp1_soft::FrameBuffer;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [recording, flag, count, dir, size @ ..] if flag == "--last" => {
            screen_size(size).and_then(|size| {
                let count = count
                    .parse()
                    .map_err(|_| format!("--last {count}: expected a number of frames"))?;
                write_last_frames(Path::new(recording), count, Path::new(dir), size)
            })
        }
        [recording, out, size @ ..] => screen_size(size)
            .and_then(|size| last_frames(Path::new(recording), 1, size))
            .and_then(|frames| vdp1_soft::preview::write_png(&frames[0], Path::new(out))),
        _ => Err(String::new()),
    };
    match result {
        Err(error) if error.is_empty() => {
            eprintln!(
                "usage: mednafen_frame RECORDING.mov OUT.png [WIDTH HEIGHT]\n       \
                 mednafen_frame RECORDING.mov --last N OUTDIR [WIDTH HEIGHT]"
            );
            std::process::exit(2);
        }
        Err(error) => {
            eprintln!("mednafen_frame: {error}");
            std::process::exit(1);
        }
        Ok(()) => {}
    }
}

/// The screen's size from the optional WIDTH HEIGHT arguments (320 x 224 without).
fn screen_size(args: &[String]) -> Result<(usize, usize), String> {
    match args {
        [] => Ok((320, 224)),
        [width, height] => parse_size(width, height),
        _ => Err(String::new()),
    }
}

/// Writes the last `count` frames of `recording` into `dir` as 000.png, 001.png, ...
fn write_last_frames(
    recording: &Path,
    count: usize,
    dir: &Path,
    size: (usize, usize),
) -> Result<(), String> {
    let frames = last_frames(recording, count, size)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (i, frame) in frames.iter().enumerate() {
        vdp1_soft::preview::write_png(frame, &dir.join(format!("{i:03}.png")))?;
    }
    Ok(())
}

fn parse_size(width: &str, height: &str) -> Result<(usize, usize), String> {
    match (width.parse(), height.parse()) {
        (Ok(w), Ok(h)) if w > 0 && h > 0 => Ok((w, h)),
        _ => Err(format!(
            "{width} x {height}: expected a screen size in pixels"
        )),
    }
}

/// The last `count` PNG frames of `recording` that decode, oldest first, at `size`.
fn last_frames(
    recording: &Path,
    count: usize,
    size: (usize, usize),
) -> Result<Vec<FrameBuffer>, String> {
    let bytes = std::fs::read(recording).map_err(|e| format!("{}: {e}", recording.display()))?;
    let starts: Vec<usize> = bytes
        .windows(PNG_SIGNATURE.len())
        .enumerate()
        .filter(|(_, window)| *window == PNG_SIGNATURE)
        .map(|(at, _)| at)
        .collect();
    // The last frame may be cut short by the emulator's exit: those that decode.
    let mut frames: Vec<_> = starts
        .iter()
        .rev()
        .filter_map(|&at| decode(&bytes[at..]).ok())
        .take(count)
        .map(|(width, height, rgb)| shrink((width, height, &rgb), size))
        .collect::<Result<_, _>>()?;
    if frames.len() < count.max(1) {
        return Err(format!(
            "{}: {} whole PNG frames, {count} wanted",
            recording.display(),
            frames.len()
        ));
    }
    frames.reverse();
    Ok(frames)
}

/// A PNG image's width, height and 8-bit RGB pixels.
fn decode(bytes: &[u8]) -> Result<(usize, usize, Vec<u8>), png::DecodingError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info()?;
    let mut pixels = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut pixels)?;
    pixels.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    let rgb = pixels
        .chunks(channels)
        .flat_map(|p| match channels {
            1 | 2 => [p[0], p[0], p[0]],
            _ => [p[0], p[1], p[2]],
        })
        .collect();
    Ok((info.width as usize, info.height as usize, rgb))
}

/// The recorded frame at the screen's `size`: the top-left pixel of each block, from the
/// picture centred in the line.
fn shrink(
    (width, height, rgb): (usize, usize, &[u8]),
    (screen_width, screen_height): (usize, usize),
) -> Result<FrameBuffer, String> {
    let scale = height / screen_height;
    let fits = scale > 0 && height % screen_height == 0 && width / scale >= screen_width;
    if !fits {
        return Err(format!(
            "a {width} x {height} frame does not hold a {screen_width} x {screen_height} screen"
        ));
    }
    let left = (width / scale - screen_width).div_ceil(2);
    let mut frame = FrameBuffer::new(screen_width, screen_height);
    for y in 0..screen_height {
        for x in 0..screen_width {
            let at = 3 * ((y * scale) * width + (left + x) * scale);
            let channel = |c: usize| u16::from(rgb[at + c] >> 3);
            frame.pixels[y * screen_width + x] =
                0x8000 | channel(2) << 10 | channel(1) << 5 | channel(0);
        }
    }
    Ok(frame)
}
