//! Tests of the CD block's commands, answers and errors, and of the read protocol against
//! a simulated CD block told to fail: part-way through a read, busy, past the end of the
//! disc.

use super::*;
use crate::selftest::Failure;
use crate::{check, check_eq, check_message};
use core::ops::Range;

/// The simulated disc's size in sectors.
const DISC_SECTORS: u32 = 40;
/// What the simulated data port gives when no data is ready.
const NOT_DATA: u32 = 0xDEAD_BEEF;
/// Status byte bit 6: the command set a data transfer up (Mednafen's `STATUS_DTREQ`).
const TRANSFER_SET_UP: u8 = 0x40;

/// Byte `at` of sector `lba` of the simulated disc (31 is odd: sectors less than 256
/// apart differ).
fn disc_byte(lba: u32, at: usize) -> u8 {
    (lba as usize * 31 + at) as u8
}

/// Whether `buffer` holds the disc's sectors from `lba` on.
fn holds(buffer: &[u8], lba: u32) -> bool {
    let right = |(sector, lba): (&[u8], u32)| {
        let byte = |(at, &byte): (usize, &u8)| byte == disc_byte(lba, at);
        sector.iter().enumerate().all(byte)
    };
    buffer.chunks(SECTOR_SIZE).zip(lba..).all(right)
}

fn failed(line: u32, error: impl fmt::Debug) -> Failure {
    Failure::new(file!(), line, format_args!("{error:?}"))
}

/// What the simulated CD block is told to get wrong.
#[derive(Clone, Copy)]
enum Fault {
    None,
    /// Its get-then-delete number `transfer` (from 1) sets its transfer up but raises EHST
    /// instead of DRDY.
    EndWithoutData {
        transfer: u32,
    },
    /// Its get-then-delete number `transfer` sets its transfer up and makes the data
    /// ready, but answers with the drive in the error state (a read error it retried).
    ErrorStatus {
        transfer: u32,
    },
    /// It answers busy to the next `answers` commands `command`.
    Busy {
        command: u8,
        answers: u32,
    },
}

/// A transfer set up by a get-then-delete: its sectors (out of partition 0 already) and
/// the 32-bit words read of them.
struct Transfer {
    sectors: Range<u32>,
    words: usize,
    ready: bool,
}

/// A CD block as its driver sees it, after Mednafen's emulation of it (`ss/cdb.cpp`): each
/// command answered at once, with CMOK; a play brings the sectors of its range into
/// partition 0 while the drive is connected (one each time the driver asks how many there
/// are: time passes while it waits), then ends (PEND, the drive paused) at the end of its
/// range or of the disc; a get-then-delete while a transfer is open, or of more sectors
/// than partition 0 holds, is answered busy; End Data Transfer answers how many 16-bit
/// words were transferred (0xFFFFFF when no transfer was open) and raises EHST when it
/// ended one.
struct SimulatedCdBlock {
    hirq: u16,
    answer: [u16; 4],
    /// The drive state (status bits 3-0).
    state: u8,
    connected: bool,
    /// The sectors the play has still to bring.
    play: Option<Range<u32>>,
    /// The sectors partition 0 holds.
    stored: Range<u32>,
    transfer: Option<Transfer>,
    /// Get-then-delete commands that set a transfer up.
    transfers: u32,
    fault: Fault,
    /// Commands answered busy.
    busy_answers: u32,
}

impl SimulatedCdBlock {
    /// A CD block set up for reads ([`set_up`]).
    #[allow(clippy::result_large_err)]
    fn ready() -> Result<Self, Failure> {
        let mut block = Self {
            hirq: hirq::CMOK,
            answer: [0; 4],
            state: state::PAUSE,
            connected: false,
            play: None,
            stored: 0..0,
            transfer: None,
            transfers: 0,
            fault: Fault::None,
            busy_answers: 0,
        };
        set_up(&mut block).map_err(|e| failed(line!(), e))?;
        Ok(block)
    }

    /// The answer that reports the drive's state with the status flags `flags`.
    fn report(&self, flags: u8) -> [u16; 4] {
        [((flags | self.state) as u16) << 8, 0, 0, 0]
    }

    /// Whether the fault says to answer `command` busy (counting it if so).
    fn busy(&mut self, command: u8) -> bool {
        let Fault::Busy {
            command: busy,
            answers,
        } = &mut self.fault
        else {
            return false;
        };
        if *busy != command || *answers == 0 {
            return false;
        }
        *answers -= 1;
        self.busy_answers += 1;
        true
    }

    fn run(&mut self, command: Command) -> [u16; 4] {
        let [cr1, cr2, cr3, cr4] = command.0.map(u32::from);
        match command.code() {
            code::PLAY => {
                let lba = ((cr1 & 0x7F) << 16 | cr2) - FAD_OFFSET;
                self.play = Some(lba..lba + ((cr3 & 0x7F) << 16 | cr4));
                self.state = state::PLAY;
            }
            code::GET_SECTOR_NUMBER => {
                self.bring_sector();
                return [(self.state as u16) << 8, 0, 0, self.stored.len() as u16];
            }
            code::GET_THEN_DELETE_SECTOR_DATA => return self.get_then_delete(cr4),
            code::END_TRANSFER => return self.end_transfer(),
            code::RESET_SELECTOR => {
                self.stored = 0..0;
                self.hirq |= hirq::ESEL;
            }
            code::SET_DEVICE_CONNECTION => {
                self.connected = cr3 >> 8 != 0xFF;
                self.hirq |= hirq::ESEL;
            }
            code::SET_SECTOR_LENGTH => self.hirq |= hirq::ESEL,
            code::ABORT_FILE => self.hirq |= hirq::EFLS,
            _ => {}
        }
        self.report(0)
    }

    /// A sector's time: the play brings its next sector (into partition 0 if the drive is
    /// connected), or ends at the end of its range or of the disc.
    fn bring_sector(&mut self) {
        let Some(play) = &mut self.play else {
            return;
        };
        if play.start < play.end.min(DISC_SECTORS) {
            if self.connected {
                if self.stored.is_empty() {
                    self.stored = play.start..play.start;
                }
                self.stored.end += 1;
            }
            play.start += 1;
        } else {
            self.play = None;
            self.state = state::PAUSE;
            self.hirq |= hirq::PEND;
        }
    }

    fn get_then_delete(&mut self, count: u32) -> [u16; 4] {
        if self.transfer.is_some() || count == 0 || count > self.stored.len() as u32 {
            return self.report(STATUS_WAIT);
        }
        let sectors = self.stored.start..self.stored.start + count;
        self.stored.start = sectors.end;
        self.transfers += 1;
        let (ready, state) = match self.fault {
            Fault::EndWithoutData { transfer } if transfer == self.transfers => (false, self.state),
            Fault::ErrorStatus { transfer } if transfer == self.transfers => (true, state::ERROR),
            _ => (true, self.state),
        };
        self.hirq |= if ready { hirq::DRDY } else { hirq::EHST };
        self.transfer = Some(Transfer {
            sectors,
            words: 0,
            ready,
        });
        [((TRANSFER_SET_UP | state) as u16) << 8, 0, 0, 0]
    }

    fn end_transfer(&mut self) -> [u16; 4] {
        let status = (self.state as u16) << 8;
        let Some(transfer) = self.transfer.take() else {
            return [status | 0xFF, 0xFFFF, 0, 0];
        };
        self.hirq |= hirq::EHST;
        let words = 2 * transfer.words as u32;
        [status | (words >> 16) as u16, words as u16, 0, 0]
    }
}

impl HostInterface for SimulatedCdBlock {
    fn hirq(&mut self) -> u16 {
        self.hirq
    }

    fn clear_hirq(&mut self, flags: u16) {
        self.hirq &= !flags;
    }

    fn write_command(&mut self, command: Command) {
        self.answer = match self.busy(command.code()) {
            true => self.report(STATUS_WAIT),
            false => self.run(command),
        };
        self.hirq |= hirq::CMOK;
    }

    fn read_response(&mut self) -> Response {
        Response(self.answer)
    }

    fn read_data(&mut self) -> u32 {
        let Some(transfer) = self.transfer.as_mut().filter(|t| t.ready) else {
            return NOT_DATA;
        };
        let sector_words = SECTOR_SIZE / 4;
        let lba = transfer.sectors.start + (transfer.words / sector_words) as u32;
        let at = transfer.words % sector_words * 4;
        transfer.words += 1;
        u32::from_be_bytes(core::array::from_fn(|k| disc_byte(lba, at + k)))
    }
}

crate::test_suite! {
    fn commands_are_encoded_as_documented() {
        check_eq!(Command::play_sectors(0, 1).0, [0x1080, 150, 0x0080, 1]);
        // LBA 0x12345 is frame address 0x123DB.
        check_eq!(
            Command::play_sectors(0x12345, 0x10003).0,
            [0x1081, 0x23DB, 0x0081, 0x0003]
        );
        check_eq!(Command::get_then_delete(0, 2, 3).0, [0x6300, 0, 0x0200, 3]);
        check_eq!(Command::get_sector_number(0).0, [0x5100, 0, 0, 0]);
        check_eq!(Command::reset_selector(0xFC, 0).0, [0x48FC, 0, 0, 0]);
        check_eq!(Command::set_device_connection(1).0, [0x3000, 0, 0x0100, 0]);
        check_eq!(Command::set_sector_length_2048().0, [0x6000, 0, 0, 0]);
        check_eq!(Command::initialize(1).0, [0x0401, 0xFFFF, 0, 0x040F]);
        check_eq!(Command::end_transfer().code(), code::END_TRANSFER);
        check_eq!(Command::abort_file().code(), code::ABORT_FILE);
        check_eq!(Command::get_status().0, [0; 4]);
    }

    fn responses_are_checked() {
        let paused = Response([0x2100, 0x4101, 0x0100, 0x0096]);
        check_eq!(paused.state(), state::PAUSE);
        check_eq!(paused.fad(), 150);
        check_eq!(check_response(0, paused), Ok(paused));
        let rejected = Response([0xFF00, 0, 0, 0]);
        check_eq!(
            check_response(0x63, rejected),
            Err(CdError::Rejected {
                command: 0x63,
                status: 0xFF
            })
        );
        let busy = Response([0x8300, 0, 0, 0]);
        check_eq!(
            check_response(0x51, busy),
            Err(CdError::Busy {
                command: 0x51,
                status: 0x83
            })
        );
        for state in [state::OPEN, state::NO_DISC, state::ERROR, state::FATAL] {
            let response = Response([(0x20 | state as u16) << 8, 0, 0, 0]);
            check_eq!(
                check_response(0, response),
                Err(CdError::Drive {
                    status: 0x20 | state
                })
            );
        }
        let playing = Response([(0x40 | state::PLAY as u16) << 8, 0, 0, 0]);
        check!(check_response(0x51, playing).is_ok());
    }

    fn errors_say_what_the_drive_reported() {
        let timeout = Timeout { waiting_for: "a sector from the drive" };
        check_message!(
            CdError::from(timeout),
            "CD block: timed out waiting for a sector from the drive"
        );
        check_message!(
            CdError::Rejected { command: 0x63, status: 0xFF },
            "CD block: command 0x63 refused (status 0xff)"
        );
        check_message!(
            CdError::Drive { status: 0x26 },
            "CD drive: the tray is open (status 0x26)"
        );
        check_message!(CdError::Drive { status: 0x27 }, "CD drive: no disc (status 0x27)");
        check_message!(
            CdError::BadLength { len: 100 },
            "a sector read of 100 bytes: expected a multiple of 2048"
        );
        check_message!(CdError::Unreadable { lba: 17 }, "sector 17 could not be read");
        check_message!(
            CdError::Busy { command: 0x63, status: 0x83 },
            "CD block: command 0x63 still busy after 1000 tries (status 0x83)"
        );
        check_message!(
            CdError::TransferEnded { command: 0x63 },
            "CD block: command 0x63 ended its data transfer without data (EHST without DRDY)"
        );
        check_message!(
            CdError::PastEndOfDisc { lba: 40 },
            "sector 40 is past the end of the disc (the drive ended its play before it)"
        );
    }

    fn a_read_that_fails_part_way_ends_its_transfer_and_the_next_read_is_whole() {
        let getdel = code::GET_THEN_DELETE_SECTOR_DATA;
        let cases = [
            // The data port is not read: it holds no data.
            (Fault::EndWithoutData { transfer: 2 }, CdError::TransferEnded { command: getdel }),
            // The transfer the answer set up is ended all the same.
            (Fault::ErrorStatus { transfer: 2 }, CdError::Drive { status: TRANSFER_SET_UP | state::ERROR }),
        ];
        for (fault, wanted) in cases {
            let mut block = SimulatedCdBlock::ready()?;
            block.fault = fault;
            let mut buffer = [0u8; 3 * SECTOR_SIZE];
            check_eq!(read_sectors(&mut block, 10, &mut buffer), Err(wanted));
            check!(block.transfer.is_none());
            // A transfer left open would make the CD block answer busy to every later one.
            check_eq!(read_sectors(&mut block, 20, &mut buffer), Ok(()));
            check!(holds(&buffer, 20));
        }
    }

    fn busy_answers_are_asked_again() {
        let mut block = SimulatedCdBlock::ready()?;
        let getdel = code::GET_THEN_DELETE_SECTOR_DATA;
        block.fault = Fault::Busy { command: getdel, answers: 3 };
        let mut buffer = [0u8; 2 * SECTOR_SIZE];
        check_eq!(read_sectors(&mut block, 5, &mut buffer), Ok(()));
        check!(holds(&buffer, 5));
        check_eq!(block.busy_answers, 3);
    }

    fn a_cd_block_busy_for_ever_is_an_error_not_a_hang() {
        let mut block = SimulatedCdBlock::ready()?;
        let getdel = code::GET_THEN_DELETE_SECTOR_DATA;
        block.fault = Fault::Busy { command: getdel, answers: u32::MAX };
        let mut buffer = [0u8; 2 * SECTOR_SIZE];
        let busy = CdError::Busy { command: getdel, status: STATUS_WAIT | state::PLAY };
        check_eq!(read_sectors(&mut block, 5, &mut buffer), Err(busy));
        check_eq!(block.busy_answers, BUSY_TRIES);
        block.fault = Fault::None;
        check_eq!(read_sectors(&mut block, 7, &mut buffer), Ok(()));
        check!(holds(&buffer, 7));
    }

    fn a_read_past_the_end_of_the_disc_is_one_precise_error() {
        let mut block = SimulatedCdBlock::ready()?;
        let mut buffer = [0u8; 4 * SECTOR_SIZE];
        // Across the end (the sectors before it come), and wholly past it.
        for (lba, first_missing) in [(DISC_SECTORS - 2, DISC_SECTORS), (DISC_SECTORS + 5, DISC_SECTORS + 5)] {
            let past = CdError::PastEndOfDisc { lba: first_missing };
            check_eq!(read_sectors(&mut block, lba, &mut buffer), Err(past));
        }
        check_eq!(read_sectors(&mut block, 0, &mut buffer), Ok(()));
        check!(holds(&buffer, 0));
    }
}
