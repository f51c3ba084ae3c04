//! The errors of `saturn-link`, each shown as one line: what failed, on which device, file
//! or address, and what was expected. The binary prints it after `saturn-link: ` and exits
//! with status 1.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use crate::address::{Address, RangeError, Span};

/// A command sent to the cart, as messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// 0x01: the cart sends the span's bytes.
    Download(Span),
    /// 0x02: the cart writes the span.
    Upload(Span),
    /// 0x03: the cart calls the address.
    Execute(Address),
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Download(span) => {
                write!(f, "download of {} bytes from {}", span.len(), span.start())
            }
            Command::Upload(span) => {
                write!(f, "upload of {} bytes to {}", span.len(), span.start())
            }
            Command::Execute(address) => write!(f, "execute at {address}"),
        }
    }
}

/// What the link was doing when it failed, closed or went quiet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Sending a command with its arguments (and an upload's data and CRC).
    Sending(Command),
    /// Waiting for the byte that answers an upload.
    UploadAnswer(Span),
    /// Receiving a download's bytes, `received` of them so far.
    DownloadData { span: Span, received: u32 },
    /// Waiting for the CRC byte after a download's bytes.
    DownloadCrc(Span),
    /// Reading what the running program prints.
    Console,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Sending(command) => write!(f, "sending the {command}"),
            Step::UploadAnswer(span) => write!(
                f,
                "waiting for the answer to the {} (expected 1 byte: 0x00 good or 0x01 bad CRC)",
                Command::Upload(*span)
            ),
            Step::DownloadData { span, received } => write!(
                f,
                "receiving the {} ({received} of them received)",
                Command::Download(*span)
            ),
            Step::DownloadCrc(span) => write!(
                f,
                "waiting for the CRC byte after the {}",
                Command::Download(*span)
            ),
            Step::Console => write!(f, "reading the program's output"),
        }
    }
}

/// Why `run` ended without a result line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Silence {
    /// Nothing came for the time-out.
    TimedOut(Duration),
    /// The device closed the connection.
    Closed,
}

/// Everything that makes `saturn-link` stop with status 1.
#[derive(Debug)]
pub enum Error {
    /// A file to upload could not be read.
    ReadFile { path: PathBuf, source: io::Error },
    /// A downloaded file could not be written.
    WriteFile { path: PathBuf, source: io::Error },
    /// A file does not fit work RAM from its address (or is empty).
    FileRange { path: PathBuf, source: RangeError },
    /// An address or range outside what the command may touch.
    Range(RangeError),
    /// The device could not be opened: no cart on USB, no such path, a refused connection.
    Open { device: String, reason: String },
    /// The link failed.
    Io {
        device: String,
        step: Step,
        source: io::Error,
    },
    /// The other end closed the link.
    Closed { device: String, step: Step },
    /// Nothing moved on the link for the time-out.
    TimedOut {
        device: String,
        step: Step,
        timeout: Duration,
    },
    /// The cart answered 0x01 to an upload: its CRC of what it received differs.
    BadCrc { device: String, span: Span },
    /// The cart answered an upload with a byte that is neither 0x00 nor 0x01.
    UnexpectedAnswer {
        device: String,
        span: Span,
        byte: u8,
    },
    /// A download's bytes do not match the CRC the cart sent after them.
    DownloadCrc {
        device: String,
        span: Span,
        computed: u8,
        received: u8,
    },
    /// `run`: the program printed no result line.
    NoResult { device: String, why: Silence },
}

/// A duration as messages show it: `5 s`, `0.25 s`.
pub fn seconds(duration: Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ReadFile { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            Error::WriteFile { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
            Error::FileRange { path, source } => write!(f, "{}: {source}", path.display()),
            Error::Range(source) => write!(f, "{source}"),
            Error::Open { device, reason } => write!(f, "cannot open {device}: {reason}"),
            Error::Io {
                device,
                step,
                source,
            } => write!(f, "{device}: {source} while {step}"),
            Error::Closed { device, step } => {
                write!(f, "{device} closed the connection while {step}")
            }
            Error::TimedOut {
                device,
                step,
                timeout,
            } => write!(
                f,
                "time-out: nothing moved on {device} for {} while {step}",
                seconds(*timeout)
            ),
            Error::BadCrc { device, span } => write!(
                f,
                "the cart on {device} answered 0x01 (bad CRC) to the {}; expected 0x00 (good)",
                Command::Upload(*span)
            ),
            Error::UnexpectedAnswer { device, span, byte } => write!(
                f,
                "the cart on {device} answered {byte:#04x} to the {}; expected 0x00 (good) or \
                 0x01 (bad CRC)",
                Command::Upload(*span)
            ),
            Error::DownloadCrc {
                device,
                span,
                computed,
                received,
            } => write!(
                f,
                "the {} on {device} has CRC {computed:#04x}, but the cart sent {received:#04x}",
                Command::Download(*span)
            ),
            Error::NoResult { device, why } => {
                write!(f, "no result line (\"N passed, N failed\") from {device}: ")?;
                match why {
                    Silence::TimedOut(timeout) => {
                        write!(f, "nothing received for {}", seconds(*timeout))
                    }
                    Silence::Closed => write!(f, "it closed the connection"),
                }
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<RangeError> for Error {
    fn from(source: RangeError) -> Self {
        Error::Range(source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::DEFAULT_LOAD_ADDRESS;

    #[test]
    fn one_line_messages() {
        let span = Span::for_upload(DEFAULT_LOAD_ADDRESS, 1234).unwrap();
        let device = "tcp:127.0.0.1:4000".to_string();
        let errors = [
            Error::TimedOut {
                device: device.clone(),
                step: Step::UploadAnswer(span),
                timeout: Duration::from_millis(2500),
            },
            Error::BadCrc {
                device: device.clone(),
                span,
            },
            Error::NoResult {
                device,
                why: Silence::TimedOut(Duration::from_secs(5)),
            },
        ];
        let messages: Vec<String> = errors.iter().map(Error::to_string).collect();
        assert_eq!(
            messages,
            [
                "time-out: nothing moved on tcp:127.0.0.1:4000 for 2.5 s while waiting for the \
                 answer to the upload of 1234 bytes to 0x06004000 (expected 1 byte: 0x00 good or \
                 0x01 bad CRC)",
                "the cart on tcp:127.0.0.1:4000 answered 0x01 (bad CRC) to the upload of 1234 \
                 bytes to 0x06004000; expected 0x00 (good)",
                "no result line (\"N passed, N failed\") from tcp:127.0.0.1:4000: nothing \
                 received for 5 s",
            ]
        );
        assert!(messages.iter().all(|m| !m.contains('\n')));
    }
}
