//! What a running program prints: its bytes passed on as they come, split into lines to
//! find its result line, `N passed, N failed` (optionally `, N skipped`), the same line
//! the project's other test runners end with.
//!
//! The bytes come from outside (a console, or anything on the other end of the link):
//! any bytes are taken, lines are bounded ([`MAX_LINE`]) and a number too large for 64
//! bits makes a line no result line.

use std::fmt;
use std::io::{self, Write};
use std::time::Duration;

use crate::transport::{is_closed, Link};

/// The longest line kept whole; the rest of a longer line is dropped (it is passed on,
/// but it is no result line).
pub const MAX_LINE: usize = 4096;

/// A program's result line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Tests that passed.
    pub passed: u64,
    /// Tests that failed.
    pub failed: u64,
    /// Tests that could not run, when the line says.
    pub skipped: Option<u64>,
}

impl Summary {
    /// Whether no test failed.
    pub fn succeeded(&self) -> bool {
        self.failed == 0
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} passed, {} failed", self.passed, self.failed)?;
        if let Some(skipped) = self.skipped {
            write!(f, ", {skipped} skipped")?;
        }
        Ok(())
    }
}

/// Reads a result line: exactly `N passed, N failed` or `N passed, N failed, N skipped`
/// (decimal numbers), spaces and a carriage return around it allowed.
pub fn parse_result_line(line: &[u8]) -> Option<Summary> {
    let line = std::str::from_utf8(line).ok()?.trim();
    let (passed, rest) = line.split_once(" passed, ")?;
    let (failed, rest) = rest.split_once(" failed")?;
    let skipped = match rest {
        "" => None,
        _ => Some(number(rest.strip_prefix(", ")?.strip_suffix(" skipped")?)?),
    };
    Some(Summary {
        passed: number(passed)?,
        failed: number(failed)?,
        skipped,
    })
}

/// Decimal digits only (no sign, no spaces), within 64 bits.
fn number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Splits a byte stream into lines and watches for the first result line.
#[derive(Clone, Debug, Default)]
pub struct LineReader {
    line: Vec<u8>,
    overlong: bool,
}

/// What [`LineReader::feed`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fed {
    /// How many of the bytes fed were taken: all of them, or those up to and including the
    /// end of the result line.
    pub consumed: usize,
    /// The result line, if one ended in them.
    pub summary: Option<Summary>,
}

impl LineReader {
    /// A reader at the start of a line.
    pub fn new() -> LineReader {
        LineReader::default()
    }

    /// Takes `bytes` up to the end of the first result line among them (or all of them).
    pub fn feed(&mut self, bytes: &[u8]) -> Fed {
        let mut consumed = 0;
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            consumed += piece.len();
            let Some(text) = piece.strip_suffix(b"\n") else {
                self.keep(piece);
                break;
            };
            self.keep(text);
            if let Some(summary) = self.end_line() {
                return Fed {
                    consumed,
                    summary: Some(summary),
                };
            }
        }
        Fed {
            consumed,
            summary: None,
        }
    }

    /// The unfinished last line, read as a result line when the stream has ended.
    pub fn finish(&mut self) -> Option<Summary> {
        self.end_line()
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = MAX_LINE - self.line.len();
        self.overlong |= bytes.len() > room;
        self.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn end_line(&mut self) -> Option<Summary> {
        let summary = match self.overlong {
            true => None,
            false => parse_result_line(&self.line),
        };
        self.line.clear();
        self.overlong = false;
        summary
    }
}

/// How the console ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsoleEnd {
    /// The program printed its result line.
    Result(Summary),
    /// Nothing came for the time-out.
    Quiet,
    /// The device closed the connection.
    Closed,
}

/// What stopped the console.
#[derive(Debug)]
pub enum RelayError {
    /// The link failed.
    Link(io::Error),
    /// The program's output could not be written out (stdout closed, say).
    Output(io::Error),
}

/// Passes what arrives on `link` to `out`, as it comes, until the result line (included),
/// `timeout` with nothing received, or the end of the connection.
pub fn relay(
    link: &mut dyn Link,
    timeout: Duration,
    out: &mut dyn Write,
) -> Result<ConsoleEnd, RelayError> {
    let mut lines = LineReader::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = match link.receive(&mut buf, timeout) {
            Ok(0) => return Ok(ended(&mut lines, ConsoleEnd::Quiet)),
            Ok(n) => n,
            Err(e) if is_closed(&e) => return Ok(ended(&mut lines, ConsoleEnd::Closed)),
            Err(e) => return Err(RelayError::Link(e)),
        };
        let fed = lines.feed(&buf[..n]);
        out.write_all(&buf[..fed.consumed])
            .and_then(|()| out.flush())
            .map_err(RelayError::Output)?;
        if let Some(summary) = fed.summary {
            return Ok(ConsoleEnd::Result(summary));
        }
    }
}

/// A result line without its line end still counts once the output has ended.
fn ended(lines: &mut LineReader, end: ConsoleEnd) -> ConsoleEnd {
    lines.finish().map_or(end, ConsoleEnd::Result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::script::{ScriptEnd, ScriptLink};

    fn summary(passed: u64, failed: u64, skipped: Option<u64>) -> Option<Summary> {
        Some(Summary {
            passed,
            failed,
            skipped,
        })
    }

    #[test]
    fn result_lines() {
        assert_eq!(
            parse_result_line(b"12 passed, 0 failed"),
            summary(12, 0, None)
        );
        assert_eq!(
            parse_result_line(b"3 passed, 1 failed\r"),
            summary(3, 1, None)
        );
        assert_eq!(
            parse_result_line(b"  0 passed, 0 failed, 7 skipped "),
            summary(0, 0, Some(7))
        );
        assert_eq!(
            parse_result_line(b"18446744073709551615 passed, 0 failed"),
            summary(u64::MAX, 0, None)
        );
        assert_eq!(
            parse_result_line(b"007 passed, 0 failed"),
            summary(7, 0, None)
        );
    }

    #[test]
    fn lines_that_are_not_result_lines() {
        for line in [
            &b""[..],
            b"passed, failed",
            b"1 passed",
            b"1 passed, 2 failed, ",
            b"1 passed, 2 failed, skipped",
            b"1 passed, 2 failed, 3 skipped, 4 more",
            b"1 passed, 2 failed.",
            b"x passed, 2 failed",
            b"-1 passed, 2 failed",
            b"+1 passed, 2 failed",
            b"1 passed,  2 failed",
            b"1 passed, 2 failures",
            b"test: 1 passed, 2 failed",
            b"1 passed, 2 failed 3 skipped",
            b"18446744073709551616 passed, 0 failed",
            b"1 passed, \xff failed",
            b"\xff",
        ] {
            assert_eq!(
                parse_result_line(line),
                None,
                "{:?}",
                String::from_utf8_lossy(line)
            );
        }
    }

    #[test]
    fn the_reader_stops_after_the_result_line() {
        let mut reader = LineReader::new();
        let text = b"hw::vdp1 ok\n2 passed, 1 failed\nafter\n";
        let fed = reader.feed(text);
        assert_eq!(fed.summary, summary(2, 1, None));
        assert_eq!(&text[..fed.consumed], b"hw::vdp1 ok\n2 passed, 1 failed\n");
    }

    #[test]
    fn the_reader_joins_lines_fed_in_pieces() {
        let text = b"line one\r\n4 passed, 0 failed, 2 skipped\n";
        for piece in 1..text.len() {
            let mut reader = LineReader::new();
            let mut found = None;
            let mut consumed = 0;
            for chunk in text.chunks(piece) {
                let fed = reader.feed(chunk);
                consumed += fed.consumed;
                if fed.summary.is_some() {
                    found = fed.summary;
                    break;
                }
            }
            assert_eq!(found, summary(4, 0, Some(2)), "pieces of {piece}");
            assert_eq!(consumed, text.len());
        }
    }

    #[test]
    fn an_overlong_line_is_no_result_line() {
        let mut reader = LineReader::new();
        let mut text = vec![b' '; MAX_LINE];
        text.extend_from_slice(b"1 passed, 0 failed\n");
        assert_eq!(reader.feed(&text).summary, None);
        // The next line is read afresh.
        assert_eq!(
            reader.feed(b"1 passed, 0 failed\n").summary,
            summary(1, 0, None)
        );
    }

    #[test]
    fn an_unfinished_last_line_counts_at_the_end() {
        let mut reader = LineReader::new();
        assert_eq!(reader.feed(b"5 passed, 0 failed").summary, None);
        assert_eq!(reader.finish(), summary(5, 0, None));
        assert_eq!(reader.finish(), None);
    }

    #[test]
    fn relay_passes_bytes_up_to_the_result_line() {
        let script = b"hello\nworld\n1 passed, 0 failed\nnot shown\n".to_vec();
        let mut link = ScriptLink::new(script, 5, ScriptEnd::Silence);
        let mut out = Vec::new();
        let end = relay(&mut link, Duration::from_secs(1), &mut out).unwrap();
        assert_eq!(
            end,
            ConsoleEnd::Result(Summary {
                passed: 1,
                failed: 0,
                skipped: None
            })
        );
        assert_eq!(out, b"hello\nworld\n1 passed, 0 failed\n");
    }

    #[test]
    fn relay_ends_quiet_or_closed() {
        for (end, expected) in [
            (ScriptEnd::Silence, ConsoleEnd::Quiet),
            (ScriptEnd::Closed, ConsoleEnd::Closed),
        ] {
            let mut link = ScriptLink::new(b"no result\n".to_vec(), 64, end);
            let mut out = Vec::new();
            assert_eq!(
                relay(&mut link, Duration::ZERO, &mut out).unwrap(),
                expected
            );
            assert_eq!(out, b"no result\n");
        }
        let mut link = ScriptLink::new(b"0 passed, 2 failed".to_vec(), 64, ScriptEnd::Closed);
        let end = relay(&mut link, Duration::ZERO, &mut Vec::new()).unwrap();
        assert_eq!(
            end,
            ConsoleEnd::Result(Summary {
                passed: 0,
                failed: 2,
                skipped: None
            })
        );
    }
}
