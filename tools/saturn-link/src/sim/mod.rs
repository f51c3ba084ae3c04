//! A simulated cart: [`SimCart`] takes the PC's bytes and answers byte for byte as the
//! cart's firmware does, over a simulated work RAM; [`serve`] runs it on a link. Tests and
//! scripts (`saturn-cart-sim`) use it in place of a console.
//!
//! As the firmware: a download is answered with the bytes and their CRC, an upload with
//! 0x00 or 0x01 after its CRC byte, an unknown command byte is skipped; an execute starts
//! "the program", which sends the [`SimOptions::relay`] text and then nothing, and takes
//! no more commands (a program that never returns). Beyond the firmware, for tests: it
//! can answer every upload with a bad CRC, stop answering after a number of bytes, and
//! check at the execute that RAM holds a file at an address ([`Expectation`]).

mod serve;

use std::fmt;

use crate::address::{Address, HIGH_WORK_RAM, LOW_WORK_RAM};
use crate::crc::{crc8, update};
use crate::protocol::{DOWNLOAD, EXECUTE, UPLOAD, UPLOAD_BAD_CRC, UPLOAD_GOOD};

pub use serve::{serve, Ending, Serving};

/// What the simulated cart should do besides the firmware's part.
#[derive(Clone, Debug, Default)]
pub struct SimOptions {
    /// Answer 0x01 (bad CRC) to every upload.
    pub bad_crc: bool,
    /// Take no more than this many bytes from the PC; ignore the rest and answer nothing.
    pub silent_after: Option<u64>,
    /// What the program prints once executed.
    pub relay: Vec<u8>,
    /// What RAM must hold at the execute.
    pub expect: Option<Expectation>,
}

/// A file that must be in RAM at an address when that address is executed.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// How messages name it.
    pub name: String,
    /// Its bytes.
    pub data: Vec<u8>,
    /// Where they must be, and where the execute must jump.
    pub address: Address,
}

/// One command the simulated cart carried out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// An upload, with whether its CRC matched and what was answered.
    Upload {
        address: Address,
        len: u32,
        crc_matched: bool,
        answer: u8,
    },
    /// A download.
    Download { address: Address, len: u32 },
    /// An execute.
    Execute { address: Address },
    /// A byte that is no command, skipped as the firmware skips it.
    Unknown { byte: u8 },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Upload {
                address,
                len,
                crc_matched,
                answer,
            } => write!(
                f,
                "upload of {len} bytes to {address}: CRC {}, answered {answer:#04x}",
                if *crc_matched { "good" } else { "bad" }
            ),
            Event::Download { address, len } => write!(f, "download of {len} bytes from {address}"),
            Event::Execute { address } => write!(f, "execute at {address}"),
            Event::Unknown { byte } => write!(f, "skipped byte {byte:#04x} (no command)"),
        }
    }
}

/// Where the simulated cart is in the PC's byte stream.
#[derive(Clone, Copy, Debug)]
enum State {
    /// Waiting for a command byte.
    Command,
    /// Gathering a command's 32-bit arguments.
    Arguments {
        command: u8,
        bytes: [u8; 8],
        have: usize,
    },
    /// Taking an upload's data.
    UploadData {
        address: Address,
        len: u32,
        taken: u32,
        crc: u8,
    },
    /// Waiting for an upload's CRC byte.
    UploadCrc { address: Address, len: u32, crc: u8 },
    /// The program runs: nothing more is taken or answered.
    Running,
    /// A command reached outside the simulated RAM: the cart stopped.
    Stopped,
}

/// The simulated work RAM: high and low, 1 MiB each, zero at the start.
#[derive(Clone, Debug)]
struct Ram {
    high: Vec<u8>,
    low: Vec<u8>,
}

impl Ram {
    fn new() -> Ram {
        let size = |region: crate::address::Region| (region.end - region.start) as usize;
        Ram {
            high: vec![0; size(HIGH_WORK_RAM)],
            low: vec![0; size(LOW_WORK_RAM)],
        }
    }

    /// Where `len` bytes from `address` sit, if all in one RAM.
    fn locate(&self, address: Address, len: u32) -> Option<(bool, std::ops::Range<usize>)> {
        [(true, HIGH_WORK_RAM), (false, LOW_WORK_RAM)]
            .into_iter()
            .find_map(|(high, region)| {
                let offset = address.0.checked_sub(region.start)?;
                let end = offset.checked_add(len)?;
                (end <= region.end - region.start).then_some((high, offset as usize..end as usize))
            })
    }

    fn get(&self, address: Address, len: u32) -> Option<&[u8]> {
        let (high, range) = self.locate(address, len)?;
        Some(if high {
            &self.high[range]
        } else {
            &self.low[range]
        })
    }

    fn get_mut(&mut self, address: Address, len: u32) -> Option<&mut [u8]> {
        let (high, range) = self.locate(address, len)?;
        Some(if high {
            &mut self.high[range]
        } else {
            &mut self.low[range]
        })
    }
}

/// The simulated cart.
#[derive(Clone, Debug)]
pub struct SimCart {
    options: SimOptions,
    ram: Ram,
    state: State,
    received: u64,
    events: Vec<Event>,
    problems: Vec<String>,
    relayed: bool,
}

impl SimCart {
    /// A cart with zeroed RAM, waiting for a command.
    pub fn new(options: SimOptions) -> SimCart {
        SimCart {
            options,
            ram: Ram::new(),
            state: State::Command,
            received: 0,
            events: Vec::new(),
            problems: Vec::new(),
            relayed: false,
        }
    }

    /// Takes bytes from the PC; what the cart answers is appended to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<u8>) {
        for &byte in bytes {
            self.received += 1;
            let silent = self
                .options
                .silent_after
                .is_some_and(|limit| self.received > limit);
            if !silent {
                self.take(byte, out);
            }
        }
    }

    /// How many bytes the PC has sent (all of them, taken or not).
    pub fn received(&self) -> u64 {
        self.received
    }

    /// The commands carried out, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Whether the program has been started and its text sent.
    pub fn relayed(&self) -> bool {
        self.relayed
    }

    /// `len` bytes of the simulated RAM from `address`, if all of them are simulated.
    pub fn ram(&self, address: Address, len: u32) -> Option<&[u8]> {
        self.ram.get(address, len)
    }

    /// Writes the simulated RAM directly (a test's starting state); false if the range is
    /// not simulated.
    pub fn poke(&mut self, address: Address, data: &[u8]) -> bool {
        let Ok(len) = u32::try_from(data.len()) else {
            return false;
        };
        match self.ram.get_mut(address, len) {
            Some(ram) => {
                ram.copy_from_slice(data);
                true
            }
            None => false,
        }
    }

    /// Every expectation that did not hold, and every command that reached outside the
    /// simulated RAM; an expected execute that never came counts too.
    pub fn problems(&self) -> Vec<String> {
        let mut problems = self.problems.clone();
        if let Some(expect) = &self.options.expect {
            if !self
                .events
                .iter()
                .any(|e| matches!(e, Event::Execute { .. }))
            {
                problems.push(format!(
                    "no execute came (expected one at {} with {} there)",
                    expect.address, expect.name
                ));
            }
        }
        problems
    }

    fn take(&mut self, byte: u8, out: &mut Vec<u8>) {
        self.state = match self.state {
            State::Command => self.command(byte),
            State::Arguments {
                command,
                mut bytes,
                have,
            } => {
                bytes[have] = byte;
                let needed = if command == EXECUTE { 4 } else { 8 };
                if have + 1 < needed {
                    State::Arguments {
                        command,
                        bytes,
                        have: have + 1,
                    }
                } else {
                    self.arguments(command, bytes, out)
                }
            }
            State::UploadData {
                address,
                len,
                taken,
                crc,
            } => {
                let crc = update(crc, &[byte]);
                if let Some(ram) = self.ram.get_mut(Address(address.0 + taken), 1) {
                    ram[0] = byte;
                }
                let taken = taken + 1;
                if taken == len {
                    State::UploadCrc { address, len, crc }
                } else {
                    State::UploadData {
                        address,
                        len,
                        taken,
                        crc,
                    }
                }
            }
            State::UploadCrc { address, len, crc } => {
                self.upload_done(address, len, crc == byte, out);
                State::Command
            }
            State::Running => State::Running,
            State::Stopped => State::Stopped,
        };
    }

    fn command(&mut self, byte: u8) -> State {
        match byte {
            DOWNLOAD | UPLOAD | EXECUTE => State::Arguments {
                command: byte,
                bytes: [0; 8],
                have: 0,
            },
            _ => {
                self.events.push(Event::Unknown { byte });
                State::Command
            }
        }
    }

    fn arguments(&mut self, command: u8, bytes: [u8; 8], out: &mut Vec<u8>) -> State {
        let [a0, a1, a2, a3, l0, l1, l2, l3] = bytes;
        let address = Address(u32::from_be_bytes([a0, a1, a2, a3]));
        let len = u32::from_be_bytes([l0, l1, l2, l3]);
        match command {
            DOWNLOAD => self.download(address, len, out),
            UPLOAD if self.ram.get(address, len).is_none() => {
                self.outside("upload to", address, len)
            }
            UPLOAD if len == 0 => {
                // The firmware reads the CRC byte next, as for any length.
                State::UploadCrc {
                    address,
                    len,
                    crc: 0,
                }
            }
            UPLOAD => State::UploadData {
                address,
                len,
                taken: 0,
                crc: 0,
            },
            _ => self.execute(address, out),
        }
    }

    fn download(&mut self, address: Address, len: u32, out: &mut Vec<u8>) -> State {
        let Some(data) = self.ram.get(address, len) else {
            return self.outside("download from", address, len);
        };
        out.extend_from_slice(data);
        out.push(crc8(data));
        self.events.push(Event::Download { address, len });
        State::Command
    }

    fn upload_done(&mut self, address: Address, len: u32, crc_matched: bool, out: &mut Vec<u8>) {
        let answer = if crc_matched && !self.options.bad_crc {
            UPLOAD_GOOD
        } else {
            UPLOAD_BAD_CRC
        };
        out.push(answer);
        self.events.push(Event::Upload {
            address,
            len,
            crc_matched,
            answer,
        });
    }

    fn execute(&mut self, address: Address, out: &mut Vec<u8>) -> State {
        self.events.push(Event::Execute { address });
        self.check_expectation(address);
        out.extend_from_slice(&self.options.relay);
        self.relayed = true;
        State::Running
    }

    fn check_expectation(&mut self, executed: Address) {
        let Some(expect) = &self.options.expect else {
            return;
        };
        let mut problems = Vec::new();
        if executed != expect.address {
            problems.push(format!(
                "executed {executed}, expected {} (where {} goes)",
                expect.address, expect.name
            ));
        }
        let len = u32::try_from(expect.data.len()).unwrap_or(u32::MAX);
        match self.ram.get(expect.address, len) {
            None => problems.push(format!(
                "{} ({} bytes) at {} is outside the simulated work RAM",
                expect.name,
                expect.data.len(),
                expect.address
            )),
            Some(ram) => {
                if let Some(offset) = ram.iter().zip(&expect.data).position(|(a, b)| a != b) {
                    problems.push(format!(
                        "RAM at {} differs from {} from byte {offset} on ({:#04x}, expected \
                         {:#04x}) at the execute",
                        expect.address, expect.name, ram[offset], expect.data[offset]
                    ));
                }
            }
        }
        self.problems.extend(problems);
    }

    fn outside(&mut self, what: &str, address: Address, len: u32) -> State {
        self.problems.push(format!(
            "{what} {len} bytes at {address}: outside the simulated work RAM \
             (0x06000000-0x060fffff, 0x00200000-0x002fffff); the simulated cart stopped"
        ));
        State::Stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::Span;
    use crate::protocol::{execute_request, transfer_request, upload_frame};

    fn feed(cart: &mut SimCart, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        cart.feed(bytes, &mut out);
        out
    }

    #[test]
    fn upload_then_download_byte_for_byte() {
        let mut cart = SimCart::new(SimOptions::default());
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 13) as u8).collect();
        let span = Span::for_upload(Address(0x0600_4000), 1000).unwrap();
        let frame = upload_frame(span, &data);
        // In pieces, as a link delivers them.
        let mut out = Vec::new();
        for piece in frame.chunks(7) {
            cart.feed(piece, &mut out);
        }
        assert_eq!(out, [UPLOAD_GOOD]);
        assert_eq!(cart.ram(Address(0x0600_4000), 1000), Some(&data[..]));

        let span = Span::for_download(Address(0x0600_4000), 1000).unwrap();
        let answer = feed(&mut cart, &transfer_request(DOWNLOAD, span));
        assert_eq!(&answer[..1000], &data[..]);
        assert_eq!(answer[1000], crc8(&data));
    }

    #[test]
    fn a_wrong_crc_is_answered_0x01() {
        let mut cart = SimCart::new(SimOptions::default());
        let span = Span::for_upload(Address(0x0020_0000), 3).unwrap();
        let mut frame = upload_frame(span, b"abc");
        *frame.last_mut().unwrap() ^= 1;
        assert_eq!(feed(&mut cart, &frame), [UPLOAD_BAD_CRC]);
        // --bad-crc: every upload.
        let mut cart = SimCart::new(SimOptions {
            bad_crc: true,
            ..SimOptions::default()
        });
        assert_eq!(
            feed(&mut cart, &upload_frame(span, b"abc")),
            [UPLOAD_BAD_CRC]
        );
    }

    #[test]
    fn execute_relays_then_stays_quiet() {
        let mut cart = SimCart::new(SimOptions {
            relay: b"1 passed, 0 failed\n".to_vec(),
            ..SimOptions::default()
        });
        let out = feed(&mut cart, &execute_request(Address(0x0600_4000)));
        assert_eq!(out, b"1 passed, 0 failed\n");
        assert!(cart.relayed());
        let span = Span::for_download(Address(0x0600_4000), 4).unwrap();
        assert!(feed(&mut cart, &transfer_request(DOWNLOAD, span)).is_empty());
    }

    #[test]
    fn silent_after_n_bytes() {
        let mut cart = SimCart::new(SimOptions {
            silent_after: Some(9),
            ..SimOptions::default()
        });
        let span = Span::for_upload(Address(0x0600_4000), 4).unwrap();
        assert!(feed(&mut cart, &upload_frame(span, b"abcd")).is_empty());
        assert_eq!(cart.received(), 14);
        assert_eq!(cart.ram(Address(0x0600_4000), 4), Some(&[0u8; 4][..]));
    }

    #[test]
    fn expectations_are_checked_at_the_execute() {
        let expect = |address| {
            Some(Expectation {
                name: "prog.bin".into(),
                data: b"prog".to_vec(),
                address: Address(address),
            })
        };
        let span = Span::for_upload(Address(0x0600_4000), 4).unwrap();
        let mut cart = SimCart::new(SimOptions {
            expect: expect(0x0600_4000),
            ..SimOptions::default()
        });
        assert_eq!(cart.problems().len(), 1, "no execute yet");
        feed(&mut cart, &upload_frame(span, b"prog"));
        feed(&mut cart, &execute_request(Address(0x0600_4000)));
        assert_eq!(cart.problems(), Vec::<String>::new());

        let mut cart = SimCart::new(SimOptions {
            expect: expect(0x0600_4000),
            ..SimOptions::default()
        });
        feed(&mut cart, &upload_frame(span, b"prag"));
        feed(&mut cart, &execute_request(Address(0x0600_4002)));
        let problems = cart.problems();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].starts_with("executed 0x06004002, expected 0x06004000"));
        assert!(problems[1].contains("from byte 2 on (0x61, expected 0x6f)"));
    }

    #[test]
    fn unknown_bytes_are_skipped_and_outside_ram_stops() {
        let mut cart = SimCart::new(SimOptions::default());
        assert!(feed(&mut cart, &[0x00, 0xFF]).is_empty());
        assert_eq!(
            cart.events(),
            [Event::Unknown { byte: 0 }, Event::Unknown { byte: 0xFF }]
        );
        let mut frame = vec![DOWNLOAD];
        frame.extend(0x0500_0000u32.to_be_bytes());
        frame.extend(4u32.to_be_bytes());
        assert!(feed(&mut cart, &frame).is_empty());
        assert_eq!(cart.problems().len(), 1);
        assert!(feed(&mut cart, &execute_request(Address(0x0600_4000))).is_empty());
    }
}
