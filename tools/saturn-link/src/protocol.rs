//! The cart's commands as bytes, its answers, and [`Cart`], which runs a command over a
//! [`Link`] with every wait bounded by one time-out.
//!
//! Frames, 32-bit values big-endian: download `01 AAAAAAAA LLLLLLLL`, upload
//! `02 AAAAAAAA LLLLLLLL data… CRC`, execute `03 AAAAAAAA`. The cart answers a download
//! with the bytes and their CRC, an upload with 0x00 (good) or 0x01 (bad CRC), an execute
//! with nothing (it calls the address).

use std::io::Write;
use std::time::Duration;

use crate::address::{check_execute, Address, Span};
use crate::console::{self, ConsoleEnd, RelayError};
use crate::crc::crc8;
use crate::error::{Command, Error, Step};
use crate::transport::{is_closed, Link};

/// The command byte of a download (console to PC).
pub const DOWNLOAD: u8 = 0x01;
/// The command byte of an upload (PC to console).
pub const UPLOAD: u8 = 0x02;
/// The command byte of an execute.
pub const EXECUTE: u8 = 0x03;
/// The cart's answer to an upload whose CRC matched.
pub const UPLOAD_GOOD: u8 = 0x00;
/// The cart's answer to an upload whose CRC did not match.
pub const UPLOAD_BAD_CRC: u8 = 0x01;

/// A command byte, an address and a length.
pub fn transfer_request(command: u8, span: Span) -> [u8; 9] {
    let mut frame = [0; 9];
    frame[0] = command;
    frame[1..5].copy_from_slice(&span.start().0.to_be_bytes());
    frame[5..9].copy_from_slice(&span.len().to_be_bytes());
    frame
}

/// An execute: the command byte and the address.
pub fn execute_request(address: Address) -> [u8; 5] {
    let mut frame = [0; 5];
    frame[0] = EXECUTE;
    frame[1..5].copy_from_slice(&address.0.to_be_bytes());
    frame
}

/// The whole of an upload: request, data, CRC.
pub fn upload_frame(span: Span, data: &[u8]) -> Vec<u8> {
    let mut frame = Vec::with_capacity(data.len() + 10);
    frame.extend_from_slice(&transfer_request(UPLOAD, span));
    frame.extend_from_slice(data);
    frame.push(crc8(data));
    frame
}

/// The byte that answers an upload, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UploadAnswer {
    /// 0x00: the cart's CRC matched ours.
    Good,
    /// 0x01: it did not.
    BadCrc,
    /// Anything else: not the cart's firmware answering.
    Other(u8),
}

impl UploadAnswer {
    /// Reads the answer byte.
    pub fn from_byte(byte: u8) -> UploadAnswer {
        match byte {
            UPLOAD_GOOD => UploadAnswer::Good,
            UPLOAD_BAD_CRC => UploadAnswer::BadCrc,
            other => UploadAnswer::Other(other),
        }
    }
}

/// Checks a download's bytes against the CRC the cart sent after them; the error is the
/// CRC computed here.
pub fn check_download(data: &[u8], received_crc: u8) -> Result<(), u8> {
    let computed = crc8(data);
    if computed == received_crc {
        Ok(())
    } else {
        Err(computed)
    }
}

/// A cart on the other end of a link.
pub struct Cart<L: Link> {
    link: L,
    device: String,
    timeout: Duration,
}

impl<L: Link> Cart<L> {
    /// A cart on `link`; `device` names it in messages; every wait for the link lasts
    /// `timeout` at most (counted afresh whenever bytes move).
    pub fn new(link: L, device: impl Into<String>, timeout: Duration) -> Cart<L> {
        Cart {
            link,
            device: device.into(),
            timeout,
        }
    }

    /// The link, to look at what a scripted one was sent.
    pub fn link(&self) -> &L {
        &self.link
    }

    /// Writes `data` to work RAM at `address` and checks the cart's answer. The range is
    /// checked before anything is sent.
    pub fn upload(&mut self, address: Address, data: &[u8]) -> Result<(), Error> {
        let span = Span::for_upload(address, data.len() as u64)?;
        let step = Step::Sending(Command::Upload(span));
        self.discard_input(step)?;
        self.send(&upload_frame(span, data), step)?;
        let byte = self.receive_byte(Step::UploadAnswer(span))?;
        let device = self.device.clone();
        match UploadAnswer::from_byte(byte) {
            UploadAnswer::Good => Ok(()),
            UploadAnswer::BadCrc => Err(Error::BadCrc { device, span }),
            UploadAnswer::Other(byte) => Err(Error::UnexpectedAnswer { device, span, byte }),
        }
    }

    /// Reads `len` bytes of work RAM from `address`, checked against the cart's CRC. The
    /// range is checked before anything is sent.
    pub fn download(&mut self, address: Address, len: u64) -> Result<Vec<u8>, Error> {
        let span = Span::for_download(address, len)?;
        let step = Step::Sending(Command::Download(span));
        self.discard_input(step)?;
        self.send(&transfer_request(DOWNLOAD, span), step)?;
        let mut data = vec![0; span.len() as usize];
        let mut received = 0;
        while received < data.len() {
            let step = Step::DownloadData {
                span,
                received: received as u32,
            };
            received += self.receive_some(&mut data[received..], step)?;
        }
        let crc = self.receive_byte(Step::DownloadCrc(span))?;
        check_download(&data, crc).map_err(|computed| Error::DownloadCrc {
            device: self.device.clone(),
            span,
            computed,
            received: crc,
        })?;
        Ok(data)
    }

    /// Has the cart call `address` (checked first); nothing answers.
    pub fn execute(&mut self, address: Address) -> Result<(), Error> {
        let address = check_execute(address)?;
        self.send(
            &execute_request(address),
            Step::Sending(Command::Execute(address)),
        )
    }

    /// Passes what the program prints to `out` until its result line, the time-out with
    /// nothing received, or the end of the connection.
    pub fn console(&mut self, out: &mut dyn Write) -> Result<ConsoleEnd, Error> {
        console::relay(&mut self.link, self.timeout, out).map_err(|e| match e {
            RelayError::Link(source) => self.link_error(source, Step::Console),
            RelayError::Output(source) => Error::WriteFile {
                path: "standard output".into(),
                source,
            },
        })
    }

    /// The device's name in messages.
    pub fn device(&self) -> &str {
        &self.device
    }

    /// The time-out of every wait.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    fn discard_input(&mut self, step: Step) -> Result<(), Error> {
        self.link
            .discard_input()
            .map_err(|e| self.link_error(e, step))
    }

    fn send(&mut self, bytes: &[u8], step: Step) -> Result<(), Error> {
        self.link
            .send(bytes, self.timeout)
            .map_err(|e| self.link_error(e, step))
    }

    /// At least one byte into `buf`, or the time-out's error.
    fn receive_some(&mut self, buf: &mut [u8], step: Step) -> Result<usize, Error> {
        match self.link.receive(buf, self.timeout) {
            Ok(0) => Err(self.link_error(std::io::ErrorKind::TimedOut.into(), step)),
            Ok(n) => Ok(n),
            Err(e) => Err(self.link_error(e, step)),
        }
    }

    fn receive_byte(&mut self, step: Step) -> Result<u8, Error> {
        let mut byte = [0];
        self.receive_some(&mut byte, step)?;
        Ok(byte[0])
    }

    fn link_error(&self, source: std::io::Error, step: Step) -> Error {
        let device = self.device.clone();
        if source.kind() == std::io::ErrorKind::TimedOut {
            Error::TimedOut {
                device,
                step,
                timeout: self.timeout,
            }
        } else if is_closed(&source) {
            Error::Closed { device, step }
        } else {
            Error::Io {
                device,
                step,
                source,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::DEFAULT_LOAD_ADDRESS;
    use crate::transport::script::{ScriptEnd, ScriptLink};

    const TIMEOUT: Duration = Duration::from_secs(1);

    fn cart(script: &[u8]) -> Cart<ScriptLink> {
        Cart::new(
            ScriptLink::new(script.to_vec(), 3, ScriptEnd::Silence),
            "script",
            TIMEOUT,
        )
    }

    #[test]
    fn frames_are_big_endian() {
        let span = Span::for_download(Address(0x0600_4000), 0x0001_0203).unwrap();
        assert_eq!(
            transfer_request(DOWNLOAD, span),
            [0x01, 0x06, 0x00, 0x40, 0x00, 0x00, 0x01, 0x02, 0x03]
        );
        assert_eq!(
            execute_request(Address(0x0020_1234)),
            [0x03, 0x00, 0x20, 0x12, 0x34]
        );
        let span = Span::for_upload(DEFAULT_LOAD_ADDRESS, 9).unwrap();
        let frame = upload_frame(span, b"123456789");
        assert_eq!(&frame[..9], [0x02, 0x06, 0x00, 0x40, 0x00, 0, 0, 0, 9]);
        assert_eq!(&frame[9..18], b"123456789");
        assert_eq!(frame[18], 0xF4);
    }

    #[test]
    fn upload_answers() {
        let mut good = cart(&[UPLOAD_GOOD]);
        good.upload(DEFAULT_LOAD_ADDRESS, b"123456789").unwrap();
        assert_eq!(good.link().sent.len(), 19);

        let error = cart(&[UPLOAD_BAD_CRC])
            .upload(DEFAULT_LOAD_ADDRESS, b"abc")
            .unwrap_err();
        assert!(matches!(error, Error::BadCrc { .. }), "{error}");
        let error = cart(&[0x42])
            .upload(DEFAULT_LOAD_ADDRESS, b"abc")
            .unwrap_err();
        assert!(
            matches!(error, Error::UnexpectedAnswer { byte: 0x42, .. }),
            "{error}"
        );
        let error = cart(&[]).upload(DEFAULT_LOAD_ADDRESS, b"abc").unwrap_err();
        assert!(
            matches!(
                error,
                Error::TimedOut {
                    step: Step::UploadAnswer(_),
                    ..
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn nothing_is_sent_for_a_range_outside_work_ram() {
        let mut c = cart(&[UPLOAD_GOOD]);
        assert!(matches!(
            c.upload(Address(0x0600_0000), b"abc"),
            Err(Error::Range(_))
        ));
        assert!(matches!(
            c.download(Address(0x0700_0000), 4),
            Err(Error::Range(_))
        ));
        assert!(matches!(
            c.execute(Address(0x0600_2000)),
            Err(Error::Range(_))
        ));
        assert!(c.link().sent.is_empty());
    }

    #[test]
    fn downloads_are_checked_against_the_crc() {
        let mut script = b"123456789".to_vec();
        script.push(0xF4);
        let data = cart(&script).download(Address(0x0600_0000), 9).unwrap();
        assert_eq!(data, b"123456789");

        *script.last_mut().unwrap() = 0xF5;
        let error = cart(&script).download(Address(0x0600_0000), 9).unwrap_err();
        assert!(
            matches!(
                error,
                Error::DownloadCrc {
                    computed: 0xF4,
                    received: 0xF5,
                    ..
                }
            ),
            "{error}"
        );

        let error = cart(b"1234").download(Address(0x0600_0000), 9).unwrap_err();
        assert!(
            matches!(
                error,
                Error::TimedOut {
                    step: Step::DownloadData { received: 4, .. },
                    ..
                }
            ),
            "{error}"
        );
        let error = cart(b"123456789")
            .download(Address(0x0600_0000), 9)
            .unwrap_err();
        assert!(
            matches!(
                error,
                Error::TimedOut {
                    step: Step::DownloadCrc(_),
                    ..
                }
            ),
            "{error}"
        );
    }

    #[test]
    fn a_closed_link_is_reported_as_closed() {
        let mut c = Cart::new(
            ScriptLink::new(Vec::new(), 1, ScriptEnd::Closed),
            "script",
            TIMEOUT,
        );
        let error = c.upload(DEFAULT_LOAD_ADDRESS, b"x").unwrap_err();
        assert!(matches!(error, Error::Closed { .. }), "{error}");
    }
}
