//! The CD block: its registers (offsets asserted at compile time), the commands that read
//! data sectors, [`SectorSource`] (anything that reads 2048-byte sectors) and `CdSectors`,
//! the disc in the drive as one. The file system over it is `crate::iso9660`, models and
//! textures from it `crate::disc` (this module uses neither).
//!
//! A command is four 16-bit words written to CR1-CR4 (the command code in CR1 bits 15-8);
//! the CD block sets `CMOK` in HIRQ when it has answered in CR1-CR4 (the status byte in
//! CR1 bits 15-8). Data comes through the 32-bit data transfer register. Reading sectors:
//! clear buffer partition 0, connect the drive to filter 0 (whose true output is partition
//! 0 after a selector reset), play from frame address LBA + 150 for N sectors, then
//! repeatedly ask how many sectors partition 0 holds, get-and-delete them, read 512 words
//! each and end the transfer. Every wait is bounded by a poll count and gives a
//! [`CdError::Timeout`] instead of hanging.
//!
//! Errors (facts from Mednafen's CD block emulation, `ss/cdb.cpp`, and Yabause's,
//! `cs2.c`): a status byte with bit 7 set (WAIT) means busy, send the command again (a
//! get-then-delete is answered so while a transfer is open or while the partition does not
//! hold the sectors yet): it is sent again, at most [`BUSY_TRIES`] times ([`CdError::Busy`]);
//! `0xFF` is a refusal ([`CdError::Rejected`]). After a get-then-delete every path ends the
//! transfer (End Data Transfer, whose answer says whether one was open), since an open one
//! makes every later get-then-delete busy; EHST without DRDY is a transfer ended without
//! data ([`CdError::TransferEnded`]), the data port is then not read. A play that ends
//! (PEND, the drive paused) before a sector it was to bring is a read past the end of the
//! disc ([`CdError::PastEndOfDisc`]).
//!
//! The command encodings, the status check and the protocol (every wait, answer and error
//! path of a read) are plain Rust over a [`HostInterface`], tested on the host against a
//! simulated CD block; only the Saturn's registers behind that interface (`CdSectors`)
//! exist in the SH-2 build alone (`jom_sh2`).

use crate::hw::Timeout;
use core::fmt;
use core::mem::{offset_of, size_of};
use volatile_register::RW;

/// The size of a CD-ROM mode 1 sector (and of an ISO 9660 logical block).
pub const SECTOR_SIZE: usize = 2048;

/// What went wrong reading sectors: the CD block's and the drive's errors (the file
/// system's are `crate::iso9660::Iso9660Error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CdError {
    /// The CD block did not answer in time.
    Timeout(Timeout),
    /// The CD block refused a command (status `0xFF`).
    Rejected {
        /// The command code.
        command: u8,
        /// The status byte (CR1 bits 15-8) that came back.
        status: u8,
    },
    /// The CD block answered busy (status bit 7, "send it again") to each of
    /// [`BUSY_TRIES`] tries of a command.
    Busy {
        /// The command code.
        command: u8,
        /// The last status byte that came back.
        status: u8,
    },
    /// The CD block ended the data transfer of a command (HIRQ `EHST`) without making
    /// data ready (`DRDY`).
    TransferEnded {
        /// The command code.
        command: u8,
    },
    /// The drive ended its play before sector `lba`, which the read asked for: the sector
    /// is past the end of the disc.
    PastEndOfDisc {
        /// The first sector that did not come.
        lba: u32,
    },
    /// The drive reports a state in which nothing can be read (tray open, no disc, error,
    /// fatal error): the status byte's low 4 bits.
    Drive {
        /// The status byte.
        status: u8,
    },
    /// `read_sectors` was given a buffer whose length is not a multiple of 2048.
    BadLength {
        /// The buffer's length.
        len: usize,
    },
    /// A sector the source does not have or could not read (a disc image on the host
    /// shorter than the volume says).
    Unreadable {
        /// The first sector of the read.
        lba: u32,
    },
}

impl From<Timeout> for CdError {
    fn from(timeout: Timeout) -> Self {
        Self::Timeout(timeout)
    }
}

impl fmt::Display for CdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Timeout(timeout) => write!(f, "CD block: {timeout}"),
            Self::Rejected { command, status } => write!(
                f,
                "CD block: command {command:#04x} refused (status {status:#04x})"
            ),
            Self::Busy { command, status } => write!(
                f,
                "CD block: command {command:#04x} still busy after {BUSY_TRIES} tries (status {status:#04x})"
            ),
            Self::TransferEnded { command } => write!(
                f,
                "CD block: command {command:#04x} ended its data transfer without data (EHST without DRDY)"
            ),
            Self::PastEndOfDisc { lba } => write!(
                f,
                "sector {lba} is past the end of the disc (the drive ended its play before it)"
            ),
            Self::Drive { status } => {
                let state = match status & 0x0F {
                    state::OPEN => "the tray is open",
                    state::NO_DISC => "no disc",
                    state::ERROR => "a read error",
                    _ => "a fatal error",
                };
                write!(f, "CD drive: {state} (status {status:#04x})")
            }
            Self::BadLength { len } => write!(
                f,
                "a sector read of {len} bytes: expected a multiple of {SECTOR_SIZE}"
            ),
            Self::Unreadable { lba } => write!(f, "sector {lba} could not be read"),
        }
    }
}

impl core::error::Error for CdError {}

/// Something that reads 2048-byte sectors by logical block address (LBA 0 is the first
/// sector of the data track; the CD block's frame address is LBA + 150).
pub trait SectorSource {
    /// Reads `buffer.len() / 2048` consecutive sectors from `lba` into `buffer`, whose
    /// length is a multiple of 2048 ([`CdError::BadLength`] otherwise).
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError>;
}

impl<S: SectorSource + ?Sized> SectorSource for &mut S {
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
        (**self).read_sectors(lba, buffer)
    }
}

/// The CD drive, one in a program, handed out by [`Saturn`](crate::hw::Saturn); SH-2
/// builds read the disc through it (`CdDrive::sectors`).
pub struct CdDrive {
    _private: (),
}

impl CdDrive {
    /// The drive; only [`Saturn::new`](crate::hw::Saturn::new) makes it.
    pub(crate) const fn new() -> Self {
        Self { _private: () }
    }
}

/// The CD block's host interface registers (at [`address::REGISTERS`]), each 16 bits wide
/// on a 32-bit stride.
#[repr(C)]
pub struct CdRegisters {
    _reserved_00: [u16; 4],
    /// Interrupt flags: bits set by the CD block; writing 0 to a bit clears it, 1 keeps it.
    pub hirq: RW<u16>,
    _reserved_0a: u16,
    /// Which HIRQ bits raise an interrupt (none are used here).
    pub hirq_mask: RW<u16>,
    _reserved_0e: [u16; 5],
    /// Command register 1: command code (bits 15-8) and parameter; status on return.
    pub cr1: RW<u16>,
    _reserved_1a: u16,
    /// Command register 2.
    pub cr2: RW<u16>,
    _reserved_1e: u16,
    /// Command register 3.
    pub cr3: RW<u16>,
    _reserved_22: u16,
    /// Command register 4: writing it starts the command.
    pub cr4: RW<u16>,
    _reserved_26: u16,
}

const _: () = assert!(size_of::<CdRegisters>() == 0x28);
const _: () = assert!(offset_of!(CdRegisters, hirq) == 0x08);
const _: () = assert!(offset_of!(CdRegisters, hirq_mask) == 0x0C);
const _: () = assert!(offset_of!(CdRegisters, cr1) == 0x18);
const _: () = assert!(offset_of!(CdRegisters, cr2) == 0x1C);
const _: () = assert!(offset_of!(CdRegisters, cr3) == 0x20);
const _: () = assert!(offset_of!(CdRegisters, cr4) == 0x24);

/// Where the CD block is (A-bus CS2, cache-through).
pub mod address {
    /// The host interface registers.
    pub const REGISTERS: usize = 0x2589_0000;
    /// The data transfer register, read 32 bits at a time.
    pub const DATA_TRANSFER: usize = 0x2581_8000;
}

/// HIRQ bits.
pub mod hirq {
    /// The CD block takes a command (set when it has answered the last one).
    pub const CMOK: u16 = 1 << 0;
    /// Data transfer ready.
    pub const DRDY: u16 = 1 << 1;
    /// A sector was read and stored.
    pub const CSCT: u16 = 1 << 2;
    /// The buffer is full.
    pub const BFUL: u16 = 1 << 3;
    /// Playing ended.
    pub const PEND: u16 = 1 << 4;
    /// Disc changed or tray opened.
    pub const DCHG: u16 = 1 << 5;
    /// Selector (filter, partition) set-up done.
    pub const ESEL: u16 = 1 << 6;
    /// Host I/O (data transfer) done.
    pub const EHST: u16 = 1 << 7;
    /// Copy or move done.
    pub const ECPY: u16 = 1 << 8;
    /// File system operation done.
    pub const EFLS: u16 = 1 << 9;
    /// Subcode Q updated.
    pub const SCDQ: u16 = 1 << 10;
}

/// Command codes (CR1 bits 15-8).
pub mod code {
    /// Get status.
    pub const GET_STATUS: u8 = 0x00;
    /// Initialize the CD system.
    pub const INITIALIZE: u8 = 0x04;
    /// End a data transfer.
    pub const END_TRANSFER: u8 = 0x06;
    /// Play (read) a range of the disc.
    pub const PLAY: u8 = 0x10;
    /// Seek.
    pub const SEEK: u8 = 0x11;
    /// Connect the drive's output to a filter.
    pub const SET_DEVICE_CONNECTION: u8 = 0x30;
    /// Reset selectors (filters, partitions, connections).
    pub const RESET_SELECTOR: u8 = 0x48;
    /// How many sectors a buffer partition holds.
    pub const GET_SECTOR_NUMBER: u8 = 0x51;
    /// Sector length for get and put (2048 bytes: 0).
    pub const SET_SECTOR_LENGTH: u8 = 0x60;
    /// Transfer sectors of a partition.
    pub const GET_SECTOR_DATA: u8 = 0x61;
    /// Delete sectors of a partition.
    pub const DELETE_SECTOR_DATA: u8 = 0x62;
    /// Transfer sectors of a partition, deleting them at the end of the transfer.
    pub const GET_THEN_DELETE_SECTOR_DATA: u8 = 0x63;
    /// Abort a file operation.
    pub const ABORT_FILE: u8 = 0x75;
}

/// Drive states (status byte bits 3-0).
pub mod state {
    /// Busy (changing state).
    pub const BUSY: u8 = 0x0;
    /// Paused.
    pub const PAUSE: u8 = 0x1;
    /// Standby (spindle stopped).
    pub const STANDBY: u8 = 0x2;
    /// Playing (reading).
    pub const PLAY: u8 = 0x3;
    /// Seeking.
    pub const SEEK: u8 = 0x4;
    /// Scanning.
    pub const SCAN: u8 = 0x5;
    /// Tray open.
    pub const OPEN: u8 = 0x6;
    /// No disc.
    pub const NO_DISC: u8 = 0x7;
    /// Retrying a read.
    pub const RETRY: u8 = 0x8;
    /// Read error.
    pub const ERROR: u8 = 0x9;
    /// Fatal error.
    pub const FATAL: u8 = 0xA;
}

/// Status byte 0xFF: command rejected.
pub const STATUS_REJECT: u8 = 0xFF;
/// Status byte bit 7: the CD block is busy, try again.
pub const STATUS_WAIT: u8 = 0x80;
/// The difference between a frame address (FAD) and a logical block address.
pub const FAD_OFFSET: u32 = 150;
/// [`Response::transferred_words`] when End Data Transfer found no transfer open.
pub const NO_TRANSFER: u32 = 0xFF_FFFF;

/// A command: the four words for CR1-CR4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command(pub [u16; 4]);

impl Command {
    /// The command code.
    pub fn code(&self) -> u8 {
        (self.0[0] >> 8) as u8
    }

    /// Get status: the drive state, position and flags in the response.
    pub fn get_status() -> Self {
        Self([(code::GET_STATUS as u16) << 8, 0, 0, 0])
    }

    /// Initialize the CD system with `flags` (bit 0 resets the CD block's software, bit 4
    /// selects single speed), standby time unchanged, ECC and retry count as the BIOS
    /// sets them.
    pub fn initialize(flags: u8) -> Self {
        Self([
            (code::INITIALIZE as u16) << 8 | flags as u16,
            0xFFFF,
            0,
            0x040F,
        ])
    }

    /// End the data transfer (and delete what a get-then-delete transferred).
    pub fn end_transfer() -> Self {
        Self([(code::END_TRANSFER as u16) << 8, 0, 0, 0])
    }

    /// Play (read) `count` sectors from logical block `lba`, frame addresses both (bit 23
    /// of start and range), the pickup moved to the start.
    pub fn play_sectors(lba: u32, count: u32) -> Self {
        let fad = (lba + FAD_OFFSET) & 0x0F_FFFF;
        let count = count & 0x0F_FFFF;
        Self([
            (code::PLAY as u16) << 8 | 0x80 | (fad >> 16) as u16,
            fad as u16,
            0x80 | (count >> 16) as u16,
            count as u16,
        ])
    }

    /// Connect the drive's output to `filter`.
    pub fn set_device_connection(filter: u8) -> Self {
        Self([
            (code::SET_DEVICE_CONNECTION as u16) << 8,
            0,
            (filter as u16) << 8,
            0,
        ])
    }

    /// Reset selectors: `flags` 0 clears buffer partition `partition` only; otherwise bit
    /// 2 clears all partitions, bit 4 the filter conditions, bit 6 the true outputs (filter
    /// n to partition n), bit 7 the false outputs.
    pub fn reset_selector(flags: u8, partition: u8) -> Self {
        Self([
            (code::RESET_SELECTOR as u16) << 8 | flags as u16,
            0,
            (partition as u16) << 8,
            0,
        ])
    }

    /// How many sectors `partition` holds (in CR4 of the response).
    pub fn get_sector_number(partition: u8) -> Self {
        Self([
            (code::GET_SECTOR_NUMBER as u16) << 8,
            0,
            (partition as u16) << 8,
            0,
        ])
    }

    /// Sector length 2048 bytes (user data only) for both get and put.
    pub fn set_sector_length_2048() -> Self {
        Self([(code::SET_SECTOR_LENGTH as u16) << 8, 0, 0, 0])
    }

    /// Transfer `count` sectors of `partition` from sector `offset`, deleting them when the
    /// transfer ends.
    pub fn get_then_delete(offset: u16, partition: u8, count: u16) -> Self {
        Self([
            (code::GET_THEN_DELETE_SECTOR_DATA as u16) << 8,
            offset,
            (partition as u16) << 8,
            count,
        ])
    }

    /// Abort any file operation.
    pub fn abort_file() -> Self {
        Self([(code::ABORT_FILE as u16) << 8, 0, 0, 0])
    }
}

/// The CD block's answer: CR1-CR4 after the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Response(pub [u16; 4]);

impl Response {
    /// The status byte (CR1 bits 15-8).
    pub fn status(&self) -> u8 {
        (self.0[0] >> 8) as u8
    }

    /// The drive state (status bits 3-0, a [`state`] value).
    pub fn state(&self) -> u8 {
        self.status() & 0x0F
    }

    /// The frame address in a status report (CR3 bits 7-0 and CR4).
    pub fn fad(&self) -> u32 {
        ((self.0[2] & 0xFF) as u32) << 16 | self.0[3] as u32
    }

    /// In the answer to End Data Transfer, the 16-bit words transferred (CR1 bits 7-0 and
    /// CR2): [`NO_TRANSFER`] if no transfer was open.
    pub fn transferred_words(&self) -> u32 {
        ((self.0[0] & 0xFF) as u32) << 16 | self.0[1] as u32
    }
}

/// The error a response to `command` means, if any: rejected, busy (to be sent again), or
/// a drive that cannot read (tray open, no disc, error, fatal error).
pub fn check_response(command: u8, response: Response) -> Result<Response, CdError> {
    let status = response.status();
    if status == STATUS_REJECT {
        return Err(CdError::Rejected { command, status });
    }
    if status & STATUS_WAIT != 0 {
        return Err(CdError::Busy { command, status });
    }
    match status & 0x0F {
        state::OPEN | state::NO_DISC | state::ERROR | state::FATAL => {
            Err(CdError::Drive { status })
        }
        _ => Ok(response),
    }
}

/// The CD block's host interface as the driver uses it: HIRQ, the command registers
/// CR1-CR4 and the data transfer register. The Saturn's registers are one (SH-2 builds); a
/// simulated CD block in the tests is another, so that the protocol below (every wait,
/// answer and error path) runs on the host as well as on the SH-2.
pub trait HostInterface {
    /// HIRQ's flags.
    fn hirq(&mut self) -> u16;
    /// Clears the HIRQ flags `flags`, and no others.
    fn clear_hirq(&mut self, flags: u16);
    /// Writes `command` to CR1-CR4, CR4 last: writing it starts the command.
    fn write_command(&mut self, command: Command);
    /// Reads the answer from CR1-CR4, CR4 last: reading it ends the answer (the CD block
    /// reports its status there again afterwards).
    fn read_response(&mut self) -> Response;
    /// Reads one 32-bit word from the data transfer register.
    fn read_data(&mut self) -> u32;
}

/// Polls of HIRQ before a command or a flag is given up (the CD block answers a command
/// within a few hundred microseconds; this is seconds).
const HIRQ_POLLS: u32 = 0x24_0000;
/// "How many sectors?" commands before a sector that does not come is given up (a sector
/// comes every 6.7 ms at double speed; this is several seconds, for a seek across the disc
/// and read retries).
const SECTOR_QUERIES: u32 = 100_000;
/// The most sectors played per play command (the CD block's buffer holds 200).
const SECTORS_PER_PLAY: usize = 32;
/// Tries of a command that the CD block answers busy (status bit 7: "send it again")
/// before it is given up. Each try waits for an answer, so a busy spell may last a
/// thousand answers' time (a fraction of a second at the few hundred microseconds an
/// answer takes, see `HIRQ_POLLS`); the driver asks only for what the CD block holds, so a
/// longer one means it is stuck (Mednafen answers busy for ever to a get-then-delete while
/// a transfer is left open).
pub const BUSY_TRIES: u32 = 1000;

/// Waits until one of `flags` is set in HIRQ: HIRQ then.
fn wait_hirq<H: HostInterface>(
    host: &mut H,
    flags: u16,
    waiting_for: &'static str,
) -> Result<u16, CdError> {
    for _ in 0..HIRQ_POLLS {
        let hirq = host.hirq();
        if hirq & flags != 0 {
            return Ok(hirq);
        }
    }
    Err(CdError::Timeout(Timeout { waiting_for }))
}

/// Sends `command` once the CD block takes one (HIRQ's `CMOK` and `clear` cleared first)
/// and gives its answer, unchecked.
fn exchange<H: HostInterface>(
    host: &mut H,
    command: Command,
    clear: u16,
) -> Result<Response, CdError> {
    wait_hirq(host, hirq::CMOK, "the CD block to take a command")?;
    host.clear_hirq(hirq::CMOK | clear);
    host.write_command(command);
    wait_hirq(host, hirq::CMOK, "the CD block's answer")?;
    Ok(host.read_response())
}

/// Sends `command` and checks its answer, sending it again while the CD block answers busy
/// (its way of saying "again", up to [`BUSY_TRIES`] times); `clear`: HIRQ bits cleared
/// before each try.
fn send<H: HostInterface>(host: &mut H, command: Command, clear: u16) -> Result<Response, CdError> {
    let mut tries = 1;
    loop {
        match check_response(command.code(), exchange(host, command, clear)?) {
            Err(CdError::Busy { .. }) if tries < BUSY_TRIES => tries += 1,
            checked => return checked,
        }
    }
}

/// Sends `command` once the CD block takes one, waits for its answer and checks it (sent
/// again while busy); then, if `done` is not 0, waits for one of the HIRQ bits `done`
/// (cleared before the command was sent).
pub fn execute<H: HostInterface>(
    host: &mut H,
    command: Command,
    done: u16,
) -> Result<Response, CdError> {
    let response = send(host, command, done)?;
    if done != 0 {
        wait_hirq(host, done, "the end of a CD block operation")?;
    }
    Ok(response)
}

/// The drive's status report (state, frame address, ...), unchecked: for diagnostics.
pub fn status_report<H: HostInterface>(host: &mut H) -> Result<Response, CdError> {
    exchange(host, Command::get_status(), 0)
}

/// Sets the CD block up for data reads: aborts what the BIOS left running, initializes
/// it, ends any transfer, resets every filter, partition and connection, sets 2048-byte
/// sectors.
pub fn set_up<H: HostInterface>(host: &mut H) -> Result<(), CdError> {
    execute(host, Command::abort_file(), hirq::EFLS)?;
    execute(host, Command::initialize(0), 0)?;
    execute(host, Command::end_transfer(), 0)?;
    execute(host, Command::reset_selector(0xFC, 0), hirq::ESEL)?;
    execute(host, Command::set_sector_length_2048(), hirq::ESEL)?;
    Ok(())
}

/// Reads `buffer.len() / 2048` sectors from `lba` through the CD block (set up by
/// [`set_up`]), at most 32 per play command (the CD block's buffer holds 200).
pub fn read_sectors<H: HostInterface>(
    host: &mut H,
    lba: u32,
    buffer: &mut [u8],
) -> Result<(), CdError> {
    if !buffer.len().is_multiple_of(SECTOR_SIZE) {
        return Err(CdError::BadLength { len: buffer.len() });
    }
    let mut lba = lba;
    for run in buffer.chunks_mut(SECTORS_PER_PLAY * SECTOR_SIZE) {
        read_run(host, lba, run)?;
        lba += (run.len() / SECTOR_SIZE) as u32;
    }
    Ok(())
}

/// Reads `out.len() / 2048` sectors (at most [`SECTORS_PER_PLAY`]) from `lba`. A run
/// that fails leaves no transfer open, and the next one starts by emptying partition 0 of
/// whatever this one's play left there.
fn read_run<H: HostInterface>(host: &mut H, lba: u32, out: &mut [u8]) -> Result<(), CdError> {
    let count = out.len() / SECTOR_SIZE;
    execute(host, Command::reset_selector(0, 0), hirq::ESEL)?;
    execute(host, Command::set_device_connection(0), hirq::ESEL)?;
    host.clear_hirq(hirq::PEND | hirq::CSCT);
    execute(host, Command::play_sectors(lba, count as u32), 0)?;
    let mut done = 0;
    while done < count {
        let stored = wait_for_sectors(host, lba + done as u32)?;
        let take = stored.min(count - done);
        take_sectors(
            host,
            &mut out[done * SECTOR_SIZE..(done + take) * SECTOR_SIZE],
        )?;
        done += take;
    }
    Ok(())
}

/// How many sectors partition 0 holds, asked until it holds one (bounded), or until the
/// play has ended without sector `next`: past the end of the disc (Mednafen's drive ends a
/// play at the lead-out, raising PEND and pausing).
fn wait_for_sectors<H: HostInterface>(host: &mut H, next: u32) -> Result<usize, CdError> {
    for _ in 0..SECTOR_QUERIES {
        // PEND before the count: if the play had ended then, the count has all it brought.
        let ended = host.hirq() & hirq::PEND != 0;
        let answer = execute(host, Command::get_sector_number(0), 0)?;
        let stored = answer.0[3] as usize;
        if stored > 0 {
            return Ok(stored);
        }
        // The state too: a PEND of an earlier play could come after it was cleared.
        if ended && matches!(answer.state(), state::PAUSE | state::STANDBY) {
            return Err(CdError::PastEndOfDisc { lba: next });
        }
    }
    Err(CdError::Timeout(Timeout {
        waiting_for: "a sector from the drive",
    }))
}

/// Takes `out.len() / 2048` sectors of partition 0 into `out` (get-then-delete), then ends
/// the transfer whatever happened: a transfer left open makes the CD block answer busy to
/// every later get-then-delete, so one failed read would fail every read after it.
fn take_sectors<H: HostInterface>(host: &mut H, out: &mut [u8]) -> Result<(), CdError> {
    let getdel = Command::get_then_delete(0, 0, (out.len() / SECTOR_SIZE) as u16);
    let taken = send(host, getdel, hirq::DRDY | hirq::EHST)
        .and_then(|_| wait_for_data(host))
        .map(|()| read_data(host, out));
    let ended = end_transfer(host);
    taken.and(ended)
}

/// Waits for the data of the transfer a get-then-delete set up: DRDY. EHST alone means the
/// CD block ended the transfer without data, and the data port holds none.
fn wait_for_data<H: HostInterface>(host: &mut H) -> Result<(), CdError> {
    let flags = wait_hirq(host, hirq::DRDY | hirq::EHST, "data from the CD block")?;
    if flags & hirq::DRDY == 0 {
        return Err(CdError::TransferEnded {
            command: code::GET_THEN_DELETE_SECTOR_DATA,
        });
    }
    Ok(())
}

/// Ends the data transfer (deleting what a get-then-delete transferred), waiting for EHST
/// if one was open: the answer counts its words, 0xFFFFFF when none was (and then no EHST
/// comes: Mednafen's CD block). EHST is not cleared first: Yabause's raises it with DRDY.
fn end_transfer<H: HostInterface>(host: &mut H) -> Result<(), CdError> {
    let answer = send(host, Command::end_transfer(), 0)?;
    if answer.transferred_words() != NO_TRANSFER {
        wait_hirq(host, hirq::EHST, "the end of the data transfer")?;
    }
    Ok(())
}

/// Reads `out.len() / 4` words from the data transfer register into `out`.
fn read_data<H: HostInterface>(host: &mut H, out: &mut [u8]) {
    for word in out.chunks_exact_mut(4) {
        word.copy_from_slice(&host.read_data().to_be_bytes());
    }
}

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::*;

    /// The CD block's registers.
    pub fn cd_block() -> &'static CdRegisters {
        // SAFETY: the block is at this address on every Saturn, for the whole program.
        unsafe { &*(address::REGISTERS as *const CdRegisters) }
    }

    /// The Saturn's CD block, as the protocol's [`HostInterface`].
    struct SaturnCdBlock;

    impl HostInterface for SaturnCdBlock {
        fn hirq(&mut self) -> u16 {
            cd_block().hirq.read()
        }

        fn clear_hirq(&mut self, flags: u16) {
            // SAFETY: a 0 bit clears that flag, a 1 keeps it; nothing else changes.
            unsafe { cd_block().hirq.write(!flags) }
        }

        fn write_command(&mut self, command: Command) {
            let registers = cd_block();
            let [cr1, cr2, cr3, cr4] = command.0;
            // SAFETY: documented command words; writing CR4 starts the command.
            unsafe {
                registers.cr1.write(cr1);
                registers.cr2.write(cr2);
                registers.cr3.write(cr3);
                registers.cr4.write(cr4);
            }
        }

        fn read_response(&mut self) -> Response {
            let registers = cd_block();
            Response([
                registers.cr1.read(),
                registers.cr2.read(),
                registers.cr3.read(),
                registers.cr4.read(),
            ])
        }

        fn read_data(&mut self) -> u32 {
            let register = address::DATA_TRANSFER as *const u32;
            // SAFETY: the data transfer register, during a transfer the CD block set up.
            unsafe { core::ptr::read_volatile(register) }
        }
    }

    /// The drive's status report (state, frame address, ...), unchecked: for diagnostics.
    pub fn drive_status() -> Result<Response, CdError> {
        status_report(&mut SaturnCdBlock)
    }

    /// The disc in the drive, read sector by sector through the CD block, for as long as
    /// it borrows the [`CdDrive`].
    pub struct CdSectors<'d> {
        _drive: &'d mut CdDrive,
    }

    impl CdDrive {
        /// Sets the CD block up for data reads ([`set_up`]) and gives the disc as a
        /// [`SectorSource`].
        pub fn sectors(&mut self) -> Result<CdSectors<'_>, CdError> {
            set_up(&mut SaturnCdBlock)?;
            Ok(CdSectors { _drive: self })
        }
    }

    impl SectorSource for CdSectors<'_> {
        fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
            super::read_sectors(&mut SaturnCdBlock, lba, buffer)
        }
    }
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
