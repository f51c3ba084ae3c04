//! `saturn_link`'s readers of what a cart sends, on any bytes delivered in any pieces: the
//! console's line reader and result-line parser, `Cart`'s handling of the answers to an
//! upload and a download, and the console relay. Never a panic; a result line only where
//! a whole line says so; a download returned only when its CRC matches.
//!
//! The first byte picks the piece size (its low 6 bits + 1), whether the link closes or
//! goes quiet once the rest has been read (bit 6), and the download's length.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use saturn_link::address::{Address, DEFAULT_LOAD_ADDRESS};
use saturn_link::console::{parse_result_line, LineReader};
use saturn_link::crc::crc8;
use saturn_link::protocol::Cart;
use saturn_link::transport::script::{ScriptEnd, ScriptLink};

fuzz_target!(|data: &[u8]| {
    let Some((&control, replies)) = data.split_first() else {
        return;
    };
    let piece = usize::from(control & 0x3F) + 1;
    let end = if control & 0x40 != 0 {
        ScriptEnd::Closed
    } else {
        ScriptEnd::Silence
    };

    // The line reader, fed in pieces: every result line it reports is one whole line.
    let mut reader = LineReader::new();
    let mut line_start = 0;
    let mut position = 0;
    while position < replies.len() {
        let chunk = &replies[position..(position + piece).min(replies.len())];
        let fed = reader.feed(chunk);
        assert!(fed.consumed >= 1 && fed.consumed <= chunk.len());
        let taken = &replies[position..position + fed.consumed];
        if let Some(summary) = fed.summary {
            // The line ends with the newline that ends `taken`.
            let body = &taken[..taken.len() - 1];
            let start = match body.iter().rposition(|&b| b == b'\n') {
                Some(newline) => position + newline + 1,
                None => line_start,
            };
            let line = &replies[start..position + body.len()];
            assert_eq!(parse_result_line(line), Some(summary));
            assert_eq!(
                parse_result_line(summary.to_string().as_bytes()),
                Some(summary)
            );
        }
        if let Some(newline) = taken.iter().rposition(|&b| b == b'\n') {
            line_start = position + newline + 1;
        }
        position += fed.consumed;
    }
    let _ = reader.finish();

    let cart = || {
        Cart::new(
            ScriptLink::new(replies.to_vec(), piece, end),
            "fuzz",
            Duration::ZERO,
        )
    };
    let _ = cart().upload(DEFAULT_LOAD_ADDRESS, b"fuzz");
    let len = u64::from(control) * 3 + 1;
    if let Ok(bytes) = cart().download(Address(0x0600_0000), len) {
        assert_eq!(bytes.len() as u64, len);
        assert_eq!(crc8(&bytes), replies[bytes.len()]);
    }
    let mut out = Vec::new();
    if cart().console(&mut out).is_ok() {
        assert!(replies.starts_with(&out));
    }
});
