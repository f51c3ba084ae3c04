//! An ISO 9660 reader for CD images, over any [`SectorSource`] (the Saturn's CD block in
//! [`crate::hw::cd`], a file or a memory image on the host). No allocation: the reader owns
//! one 2048-byte sector buffer and reads files straight into the caller's buffer.
//!
//! ```
//! use jom::iso9660::{CdError, Iso9660, Iso9660Error, SectorSource, SECTOR_SIZE};
//! # struct Blank;
//! # impl SectorSource for Blank {
//! #     fn read_sectors(&mut self, _lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
//! #         buffer.fill(0);
//! #         Ok(())
//! #     }
//! # }
//! # fn demo(disc: impl SectorSource) -> Result<(), Iso9660Error> {
//! let mut volume = Iso9660::open(disc)?;              // the primary volume descriptor
//! let entry = volume.find("MODELS/ROBOT.JOM")?;       // case-insensitive, ";1" ignored
//! let mut buffer = [0u8; 4096];
//! let size = volume.read_file(entry, &mut buffer)?;   // BufferTooSmall if it does not fit
//! # let _ = size; Ok(()) }
//! # assert_eq!(demo(Blank).err(), Some(Iso9660Error::NotIso9660));
//! ```
//!
//! Every length, offset and extent read from the disc is checked before use (against the
//! sector, the record and the volume size), directories are walked sector by sector with
//! a cap on their size, and paths have at most [`MAX_DEPTH`] components: a malformed
//! image gives an error value, never a panic or an endless walk. Not supported (an
//! error): multi-extent files, logical blocks other than 2048 bytes. Extended attribute
//! records are skipped.

pub use crate::hw::cd::{CdError, SectorSource, SECTOR_SIZE};
use core::fmt;
use core::mem::MaybeUninit;
use core::ptr::addr_of_mut;

/// The sector of the first volume descriptor.
pub const FIRST_DESCRIPTOR: u32 = 16;
/// How many volume descriptors are read, at most, looking for the primary one.
pub const MAX_DESCRIPTORS: u32 = 16;
/// The most sectors a directory may span (1 MiB of records).
pub const MAX_DIRECTORY_SECTORS: u32 = 512;
/// The most components a path may have (ISO 9660 allows 8 directory levels).
pub const MAX_DEPTH: usize = 8;

/// What went wrong reading the volume or a file of it (the sectors' own errors are a
/// [`CdError`] inside [`Iso9660Error::Read`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Iso9660Error {
    /// The sectors could not be read.
    Read(CdError),
    /// No primary volume descriptor in sectors 16 and up: not an ISO 9660 disc.
    NotIso9660,
    /// An inconsistent structure: where it is and what is wrong.
    Malformed {
        /// The sector.
        lba: u32,
        /// The byte offset in the sector (for a directory record: of the record).
        offset: u32,
        /// What is wrong.
        what: &'static str,
    },
    /// An empty path, an empty component, or more than [`MAX_DEPTH`] components.
    BadPath,
    /// No file or directory of that name.
    NotFound,
    /// A directory where the path wants a file.
    NotAFile,
    /// A file where the path wants a directory.
    NotADirectory,
    /// The buffer cannot hold the file.
    BufferTooSmall {
        /// The file's size.
        needed: u32,
        /// The buffer's length.
        available: usize,
    },
    /// A read of part of a file that goes past its end.
    PastEndOfFile {
        /// The file's size.
        size: u32,
        /// Where the read would end.
        end: u64,
    },
}

impl From<CdError> for Iso9660Error {
    fn from(error: CdError) -> Self {
        Self::Read(error)
    }
}

impl fmt::Display for Iso9660Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Read(error) => write!(f, "{error}"),
            Self::NotIso9660 => write!(
                f,
                "not an ISO 9660 volume: no primary volume descriptor in sectors 16 to 31"
            ),
            Self::Malformed { lba, offset, what } => {
                write!(f, "ISO 9660: sector {lba}, byte {offset}: {what}")
            }
            Self::BadPath => write!(
                f,
                "bad path: expected 1 to {MAX_DEPTH} non-empty names separated by '/'"
            ),
            Self::NotFound => write!(f, "no such file or directory"),
            Self::NotAFile => write!(f, "a directory where a file was expected"),
            Self::NotADirectory => write!(f, "a file where a directory was expected"),
            Self::BufferTooSmall { needed, available } => write!(
                f,
                "a buffer of {available} bytes cannot hold {needed} bytes"
            ),
            Self::PastEndOfFile { size, end } => {
                write!(f, "a read up to byte {end} of a file of {size} bytes")
            }
        }
    }
}

impl core::error::Error for Iso9660Error {}

/// A file found by [`Iso9660::find`]: where its data starts and its size in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileEntry {
    /// The first sector of the file's data.
    pub lba: u32,
    /// The size in bytes.
    pub size: u32,
}

impl FileEntry {
    /// How many sectors the file spans.
    pub fn sectors(&self) -> u32 {
        self.size.div_ceil(SECTOR_SIZE as u32)
    }
}

/// A directory record's fields that the reader uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Record {
    lba: u32,
    size: u32,
    flags: u8,
}

const FLAG_DIRECTORY: u8 = 1 << 1;
const FLAG_MULTI_EXTENT: u8 = 1 << 7;
/// The fixed part of a directory record, before the name.
const RECORD_HEADER: usize = 33;
/// The root directory record's place in the primary volume descriptor.
const PVD_ROOT_RECORD: usize = 156;

/// An ISO 9660 volume on a [`SectorSource`].
pub struct Iso9660<S: SectorSource> {
    source: S,
    root: Record,
    volume_sectors: u32,
    sector: [u8; SECTOR_SIZE],
    /// The sector now in `sector`.
    cached: Option<u32>,
}

impl<S: SectorSource> Iso9660<S> {
    /// Reads the volume descriptors from sector 16 on and keeps the primary one's root
    /// directory and volume size.
    pub fn open(source: S) -> Result<Self, Iso9660Error> {
        let mut room = MaybeUninit::uninit();
        Self::open_in(&mut room, source)?;
        // SAFETY: written by `open_in`, which succeeded.
        Ok(unsafe { room.assume_init() })
    }

    /// [`open`](Self::open), the volume written in `room`: its sector is 2 KiB, which each
    /// move through a `Result` copied on the SH-2's stack (a C caller has 8 KiB in all).
    /// On an error `room` is left uninitialised (the source dropped).
    pub fn open_in(room: &mut MaybeUninit<Self>, source: S) -> Result<&mut Self, Iso9660Error> {
        let this = room.as_mut_ptr();
        // SAFETY: every field is written before the reference is made.
        let volume = unsafe {
            addr_of_mut!((*this).source).write(source);
            addr_of_mut!((*this).root).write(Record {
                lba: 0,
                size: 0,
                flags: 0,
            });
            addr_of_mut!((*this).volume_sectors).write(0);
            addr_of_mut!((*this).sector).write_bytes(0, 1);
            addr_of_mut!((*this).cached).write(None);
            room.assume_init_mut()
        };
        if let Err(error) = volume.find_primary() {
            // SAFETY: initialised above; not used again.
            unsafe { room.assume_init_drop() };
            return Err(error);
        }
        // SAFETY: initialised above.
        Ok(unsafe { room.assume_init_mut() })
    }

    /// Reads the volume descriptors until the primary one.
    fn find_primary(&mut self) -> Result<(), Iso9660Error> {
        for lba in FIRST_DESCRIPTOR..FIRST_DESCRIPTOR + MAX_DESCRIPTORS {
            self.load(lba)?;
            let descriptor = &self.sector;
            if &descriptor[1..6] != b"CD001" || descriptor[6] != 1 {
                return Err(Iso9660Error::NotIso9660);
            }
            match descriptor[0] {
                1 => return self.primary(lba),
                255 => return Err(Iso9660Error::NotIso9660),
                _ => {}
            }
        }
        Err(Iso9660Error::NotIso9660)
    }

    /// Takes the root directory and the volume size from the primary volume descriptor
    /// in `self.sector` (read from `lba`).
    fn primary(&mut self, lba: u32) -> Result<(), Iso9660Error> {
        let malformed = |offset: usize, what| Iso9660Error::Malformed {
            lba,
            offset: offset as u32,
            what,
        };
        if le16(&self.sector, 128) != SECTOR_SIZE as u16 {
            return Err(malformed(128, "logical block size is not 2048"));
        }
        self.volume_sectors = le32(&self.sector, 80);
        let (root, _) = parse_record(&self.sector, PVD_ROOT_RECORD, lba)?
            .ok_or(malformed(PVD_ROOT_RECORD, "no root directory record"))?;
        if root.flags & FLAG_DIRECTORY == 0 {
            return Err(malformed(PVD_ROOT_RECORD, "the root is not a directory"));
        }
        self.check_extent(root, lba, PVD_ROOT_RECORD)?;
        self.root = root;
        Ok(())
    }

    /// The volume's size in sectors, as its primary volume descriptor says.
    pub fn volume_sectors(&self) -> u32 {
        self.volume_sectors
    }

    /// The sector source, for other reads.
    pub fn source_mut(&mut self) -> &mut S {
        // The caller may read into its own buffers only; the cache stays valid.
        &mut self.source
    }

    /// Gives the sector source back.
    pub fn into_source(self) -> S {
        self.source
    }

    /// Finds the file at `path`: components separated by `/` (a leading `/` is allowed),
    /// compared without regard to ASCII case, a version suffix (`;1`) and the dot of a
    /// name without extension ignored.
    pub fn find(&mut self, path: &str) -> Result<FileEntry, Iso9660Error> {
        let path = path.strip_prefix('/').unwrap_or(path);
        if path.is_empty() || path.split('/').count() > MAX_DEPTH {
            return Err(Iso9660Error::BadPath);
        }
        let mut directory = self.root;
        let mut components = path.split('/').peekable();
        while let Some(name) = components.next() {
            if name.is_empty() {
                return Err(Iso9660Error::BadPath);
            }
            let record = self.lookup(directory, name.as_bytes())?;
            let is_directory = record.flags & FLAG_DIRECTORY != 0;
            if components.peek().is_none() {
                if is_directory {
                    return Err(Iso9660Error::NotAFile);
                }
                return Ok(FileEntry {
                    lba: record.lba,
                    size: record.size,
                });
            }
            if !is_directory {
                return Err(Iso9660Error::NotADirectory);
            }
            directory = record;
        }
        Err(Iso9660Error::BadPath)
    }

    /// The first file of the root directory in the order recorded (after `.` and `..`,
    /// the names 0x00 and 0x01), the file a Saturn BIOS loads at boot (the "first read"
    /// file: `saturn-iso` names it so that it sorts first).
    pub fn first_file(&mut self) -> Result<FileEntry, Iso9660Error> {
        let special = |name: &[u8]| matches!(name, [0] | [1]);
        let record = self.first_record(self.root, |name, record| {
            record.flags & FLAG_DIRECTORY == 0 && !special(name)
        })?;
        Ok(FileEntry {
            lba: record.lba,
            size: record.size,
        })
    }

    /// Finds the file at `path` ([`find`](Self::find)) and reads it into the start of
    /// `buffer` ([`read_file`](Self::read_file)): those bytes.
    pub fn load_file<'b>(
        &mut self,
        path: &str,
        buffer: &'b mut [u8],
    ) -> Result<&'b [u8], Iso9660Error> {
        let entry = self.find(path)?;
        let size = self.read_file(entry, buffer)?;
        Ok(&buffer[..size])
    }

    /// Reads the file into the start of `buffer` and gives its size.
    pub fn read_file(
        &mut self,
        entry: FileEntry,
        buffer: &mut [u8],
    ) -> Result<usize, Iso9660Error> {
        let size = entry.size as usize;
        if buffer.len() < size {
            return Err(Iso9660Error::BufferTooSmall {
                needed: entry.size,
                available: buffer.len(),
            });
        }
        let record = Record {
            lba: entry.lba,
            size: entry.size,
            flags: 0,
        };
        self.check_extent(record, entry.lba, 0)?;
        let whole = size / SECTOR_SIZE;
        if whole > 0 {
            self.source
                .read_sectors(entry.lba, &mut buffer[..whole * SECTOR_SIZE])?;
        }
        let tail = size % SECTOR_SIZE;
        if tail > 0 {
            self.load(entry.lba + whole as u32)?;
            buffer[whole * SECTOR_SIZE..size].copy_from_slice(&self.sector[..tail]);
        }
        Ok(size)
    }

    /// Reads `buffer.len()` bytes of the file from byte `offset` on: the whole sectors
    /// straight into `buffer`, the partial ones at either end through the reader's sector.
    /// For files read in parts (a model whose embedded textures go to VRAM one by one).
    pub fn read_at(
        &mut self,
        entry: FileEntry,
        offset: u32,
        buffer: &mut [u8],
    ) -> Result<(), Iso9660Error> {
        let end = u64::from(offset) + buffer.len() as u64;
        if end > u64::from(entry.size) {
            return Err(Iso9660Error::PastEndOfFile {
                size: entry.size,
                end,
            });
        }
        let record = Record {
            lba: entry.lba,
            size: entry.size,
            flags: 0,
        };
        self.check_extent(record, entry.lba, 0)?;
        let sector = SECTOR_SIZE as u32;
        let mut lba = entry.lba + offset / sector;
        let mut skip = (offset % sector) as usize;
        let mut rest = buffer;
        while !rest.is_empty() {
            let whole = rest.len() / SECTOR_SIZE;
            if skip == 0 && whole > 0 {
                let (direct, after) = rest.split_at_mut(whole * SECTOR_SIZE);
                self.source.read_sectors(lba, direct)?;
                lba += whole as u32;
                rest = after;
                continue;
            }
            self.load(lba)?;
            let take = rest.len().min(SECTOR_SIZE - skip);
            let (part, after) = rest.split_at_mut(take);
            part.copy_from_slice(&self.sector[skip..skip + take]);
            (lba, skip, rest) = (lba + 1, 0, after);
        }
        Ok(())
    }

    /// Finds `name` in `directory`.
    fn lookup(&mut self, directory: Record, name: &[u8]) -> Result<Record, Iso9660Error> {
        self.first_record(directory, |record_name, _| name_matches(record_name, name))
    }

    /// The first record of `directory`, in the order recorded, whose name and record
    /// `wanted` accepts.
    fn first_record(
        &mut self,
        directory: Record,
        wanted: impl Fn(&[u8], Record) -> bool,
    ) -> Result<Record, Iso9660Error> {
        let sectors = directory.size.div_ceil(SECTOR_SIZE as u32);
        for lba in directory.lba..directory.lba + sectors {
            self.load(lba)?;
            let mut offset = 0;
            while let Some((record, next)) = parse_record(&self.sector, offset, lba)? {
                let name_len = self.sector[offset + 32] as usize;
                let record_name = &self.sector[offset + RECORD_HEADER..][..name_len];
                if wanted(record_name, record) {
                    if record.flags & FLAG_MULTI_EXTENT != 0 {
                        return Err(Iso9660Error::Malformed {
                            lba,
                            offset: offset as u32,
                            what: "multi-extent files are not supported",
                        });
                    }
                    self.check_extent(record, lba, offset)?;
                    return Ok(record);
                }
                offset = next;
            }
        }
        Err(Iso9660Error::NotFound)
    }

    /// Checks that an extent lies inside the volume (and, for a directory, is not larger
    /// than [`MAX_DIRECTORY_SECTORS`]); `lba` and `offset` say where it was read.
    fn check_extent(&self, record: Record, lba: u32, offset: usize) -> Result<(), Iso9660Error> {
        let malformed = |what| Iso9660Error::Malformed {
            lba,
            offset: offset as u32,
            what,
        };
        let sectors = record.size.div_ceil(SECTOR_SIZE as u32);
        if record.flags & FLAG_DIRECTORY != 0 && sectors > MAX_DIRECTORY_SECTORS {
            return Err(malformed("directory larger than MAX_DIRECTORY_SECTORS"));
        }
        match record.lba.checked_add(sectors) {
            Some(end) if record.lba >= FIRST_DESCRIPTOR && end <= self.volume_sectors => Ok(()),
            _ => Err(malformed("extent outside the volume")),
        }
    }

    /// Reads sector `lba` into `self.sector`, unless it is there already.
    fn load(&mut self, lba: u32) -> Result<(), Iso9660Error> {
        if self.cached == Some(lba) {
            return Ok(());
        }
        self.cached = None;
        self.source.read_sectors(lba, &mut self.sector)?;
        self.cached = Some(lba);
        Ok(())
    }
}

/// The directory record at `offset` of `sector` (read from `lba`) and the offset of the
/// next one, or `None` at the end of the sector's records (a zero length byte or the end).
fn parse_record(
    sector: &[u8],
    offset: usize,
    lba: u32,
) -> Result<Option<(Record, usize)>, Iso9660Error> {
    let Some(&len) = sector.get(offset) else {
        return Ok(None);
    };
    let len = len as usize;
    if len == 0 {
        return Ok(None);
    }
    let malformed = |what| Iso9660Error::Malformed {
        lba,
        offset: offset as u32,
        what,
    };
    if len < RECORD_HEADER + 1 {
        return Err(malformed("directory record shorter than 34 bytes"));
    }
    if offset + len > sector.len() {
        return Err(malformed("directory record crosses the end of its sector"));
    }
    let record = &sector[offset..offset + len];
    let name_len = record[32] as usize;
    if name_len == 0 || RECORD_HEADER + name_len > len {
        return Err(malformed("directory record name does not fit the record"));
    }
    let extended = record[1] as u32;
    let lba = le32(record, 2);
    let Some(lba) = lba.checked_add(extended) else {
        return Err(malformed("extent address overflows"));
    };
    Ok(Some((
        Record {
            lba,
            size: le32(record, 10),
            flags: record[25],
        },
        offset + len,
    )))
}

/// Whether a directory record's name is `wanted`: ASCII case ignored, the version suffix
/// (`;1`) and a final dot (a name without extension) ignored on both sides.
fn name_matches(record_name: &[u8], wanted: &[u8]) -> bool {
    fn base(name: &[u8]) -> &[u8] {
        let name = match name.iter().position(|&b| b == b';') {
            Some(semicolon) => &name[..semicolon],
            None => name,
        };
        name.strip_suffix(b".").unwrap_or(name)
    }
    let (found, wanted) = (base(record_name), base(wanted));
    !found.is_empty() && found.eq_ignore_ascii_case(wanted)
}

/// The little-endian half of a both-endian 16-bit field.
fn le16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// The little-endian half of a both-endian 32-bit field.
fn le32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Tests on a synthetic disc made sector by sector as it is read (so they need neither an
/// allocator nor a large buffer, and run on the SH-2 too), plus, on the host, an image made
/// by `genisoimage`.
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::hw::Timeout;
    use crate::selftest::Failure;
    use crate::{check, check_eq, check_message};

    const VOLUME_SECTORS: u32 = 40;
    /// The root directory: two sectors (18 and 19).
    const ROOT: u32 = 18;
    const MODELS: u32 = 20;
    const DEEP: u32 = 21;
    const HELLO: u32 = 24;
    /// 5,000 bytes: sectors 25 to 27.
    const BIG: u32 = 25;
    const BIG_SIZE: u32 = 5000;
    /// Exactly one sector.
    const EXACT: u32 = 28;
    const NOEXT: u32 = 29;
    const FILLER: u32 = 30;
    const LAST: u32 = 31;
    /// Filler files in the root, so that it spans two sectors.
    const FILLERS: usize = 60;

    /// A directory entry of the synthetic disc.
    struct Entry {
        name: [u8; 12],
        name_len: usize,
        lba: u32,
        size: u32,
        flags: u8,
    }

    fn entry(name: &[u8], lba: u32, size: u32, flags: u8) -> Entry {
        let mut bytes = [0; 12];
        bytes[..name.len()].copy_from_slice(name);
        Entry {
            name: bytes,
            name_len: name.len(),
            lba,
            size,
            flags,
        }
    }

    /// The `index`-th entry of the directory at `directory`.
    fn directory_entry(directory: u32, index: usize) -> Option<Entry> {
        let dir = |name: &[u8], lba| entry(name, lba, SECTOR_SIZE as u32, FLAG_DIRECTORY);
        let size = if directory == ROOT {
            2 * SECTOR_SIZE as u32
        } else {
            SECTOR_SIZE as u32
        };
        match (directory, index) {
            (_, 0) => Some(entry(&[0], directory, size, FLAG_DIRECTORY)),
            (_, 1) => Some(entry(&[1], ROOT, 2 * SECTOR_SIZE as u32, FLAG_DIRECTORY)),
            (ROOT, 2) => Some(entry(b"HELLO.TXT;1", HELLO, 14, 0)),
            (ROOT, 3) => Some(dir(b"MODELS", MODELS)),
            (ROOT, i) if i < 4 + FILLERS => {
                let n = (i - 4) as u8;
                Some(entry(
                    &[
                        b'F',
                        b'0' + n / 10,
                        b'0' + n % 10,
                        b'.',
                        b'B',
                        b'I',
                        b'N',
                        b';',
                        b'1',
                    ],
                    FILLER,
                    1,
                    0,
                ))
            }
            (ROOT, i) if i == 4 + FILLERS => Some(entry(b"LAST.DAT;1", LAST, 4, 0)),
            (MODELS, 2) => Some(entry(b"BIG.BIN;1", BIG, BIG_SIZE, 0)),
            (MODELS, 3) => Some(dir(b"DEEP", DEEP)),
            (DEEP, 2) => Some(entry(b"x.jom;1", EXACT, SECTOR_SIZE as u32, 0)),
            (DEEP, 3) => Some(entry(b"NOEXT.;1", NOEXT, 3, 0)),
            _ => None,
        }
    }

    /// Where a directory's `index`-th record is: (sector within the directory, offset).
    fn record_place(directory: u32, index: usize) -> (u32, usize) {
        let (mut sector, mut offset) = (0, 0);
        for i in 0..=index {
            let Some(e) = directory_entry(directory, i) else {
                break;
            };
            let len = record_len(&e);
            if offset + len > SECTOR_SIZE {
                sector += 1;
                offset = 0;
            }
            if i == index {
                break;
            }
            offset += len;
        }
        (sector, offset)
    }

    fn record_len(e: &Entry) -> usize {
        RECORD_HEADER + e.name_len + (e.name_len + 1) % 2
    }

    fn put_both16(out: &mut [u8], at: usize, value: u16) {
        out[at..at + 2].copy_from_slice(&value.to_le_bytes());
        out[at + 2..at + 4].copy_from_slice(&value.to_be_bytes());
    }

    fn put_both32(out: &mut [u8], at: usize, value: u32) {
        out[at..at + 4].copy_from_slice(&value.to_le_bytes());
        out[at + 4..at + 8].copy_from_slice(&value.to_be_bytes());
    }

    fn write_record(out: &mut [u8], e: &Entry) {
        out[0] = record_len(e) as u8;
        put_both32(out, 2, e.lba);
        put_both32(out, 10, e.size);
        out[25] = e.flags;
        put_both16(out, 28, 1);
        out[32] = e.name_len as u8;
        out[33..33 + e.name_len].copy_from_slice(&e.name[..e.name_len]);
    }

    /// Byte `i` of the file that starts at `lba`.
    fn content(lba: u32, i: usize) -> u8 {
        ((i * 31) ^ (i >> 8) ^ lba as usize) as u8
    }

    /// The files: (first sector, size).
    const FILES: [(u32, u32); 6] = [
        (HELLO, 14),
        (BIG, BIG_SIZE),
        (EXACT, 2048),
        (NOEXT, 3),
        (FILLER, 1),
        (LAST, 4),
    ];

    /// Sector `lba` of the synthetic disc.
    fn make_sector(lba: u32, out: &mut [u8]) {
        out.fill(0);
        match lba {
            16 => {
                out[0] = 1;
                out[1..6].copy_from_slice(b"CD001");
                out[6] = 1;
                put_both32(out, 80, VOLUME_SECTORS);
                put_both16(out, 128, SECTOR_SIZE as u16);
                let root = entry(&[0], ROOT, 2 * SECTOR_SIZE as u32, FLAG_DIRECTORY);
                write_record(&mut out[PVD_ROOT_RECORD..], &root);
            }
            17 => {
                out[0] = 255;
                out[1..6].copy_from_slice(b"CD001");
                out[6] = 1;
            }
            ROOT | 19 | MODELS | DEEP => {
                let (directory, sector) = if lba == 19 { (ROOT, 1) } else { (lba, 0) };
                // The records in order, a record that does not fit starting the next sector.
                let (mut index, mut s, mut offset) = (0, 0, 0);
                while let Some(e) = directory_entry(directory, index) {
                    let len = record_len(&e);
                    if offset + len > SECTOR_SIZE {
                        s += 1;
                        offset = 0;
                    }
                    if s == sector {
                        write_record(&mut out[offset..], &e);
                    }
                    offset += len;
                    index += 1;
                }
            }
            _ => {
                for (start, size) in FILES {
                    let sectors = size.div_ceil(SECTOR_SIZE as u32);
                    if (start..start + sectors).contains(&lba) {
                        let base = (lba - start) as usize * SECTOR_SIZE;
                        for (i, byte) in out.iter_mut().enumerate() {
                            let at = base + i;
                            *byte = if at < size as usize {
                                content(start, at)
                            } else {
                                0xEE
                            };
                        }
                    }
                }
            }
        }
    }

    /// The synthetic disc, with up to 8 bytes patched as (sector, offset, value), counting
    /// reads.
    struct TestDisc {
        patches: [(u32, usize, u8); 8],
        patch_count: usize,
        reads: u32,
        fail: Option<CdError>,
    }

    impl SectorSource for TestDisc {
        fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
            if !buffer.len().is_multiple_of(SECTOR_SIZE) {
                return Err(CdError::BadLength { len: buffer.len() });
            }
            if let Some(error) = self.fail {
                return Err(error);
            }
            for (i, sector) in buffer.chunks_exact_mut(SECTOR_SIZE).enumerate() {
                let lba = lba + i as u32;
                self.reads += 1;
                make_sector(lba, sector);
                for &(at, offset, value) in &self.patches[..self.patch_count] {
                    if at == lba {
                        sector[offset] = value;
                    }
                }
            }
            Ok(())
        }
    }

    fn disc(patches: &[(u32, usize, u8)]) -> TestDisc {
        let mut disc = TestDisc {
            patches: [(0, 0, 0); 8],
            patch_count: patches.len(),
            reads: 0,
            fail: None,
        };
        disc.patches[..patches.len()].copy_from_slice(patches);
        disc
    }

    fn failure(line: u32, error: Iso9660Error) -> Failure {
        Failure::new(file!(), line, format_args!("unexpected {error:?}"))
    }

    /// What `find` gives for `path` on the test disc patched so (a call of its own, its
    /// volume's stack slots not kept beside every other check's).
    #[allow(clippy::result_large_err)]
    fn find_in(
        patches: &[(u32, usize, u8)],
        path: &str,
    ) -> Result<Result<FileEntry, Iso9660Error>, Failure> {
        Ok(open(patches)?.find(path))
    }

    #[allow(clippy::result_large_err)]
    fn open(patches: &[(u32, usize, u8)]) -> Result<Iso9660<TestDisc>, Failure> {
        Iso9660::open(disc(patches)).map_err(|e| failure(line!(), e))
    }

    #[allow(clippy::result_large_err)]
    fn found(volume: &mut Iso9660<TestDisc>, path: &str) -> Result<FileEntry, Failure> {
        volume
            .find(path)
            .map_err(|e| Failure::new(file!(), line!(), format_args!("find({path:?}): {e:?}")))
    }

    /// The offset of a directory's `index`-th record in its sector (which must be the first).
    fn first_sector_record(directory: u32, index: usize) -> usize {
        record_place(directory, index).1
    }

    crate::test_suite! {
        fn opens_the_volume() {
            let volume = open(&[])?;
            check_eq!(volume.volume_sectors(), VOLUME_SECTORS);
            check_eq!(volume.root, Record { lba: ROOT, size: 4096, flags: FLAG_DIRECTORY });
        }

        fn finds_files_in_root_and_subdirectories() {
            let mut volume = open(&[])?;
            check_eq!(found(&mut volume, "HELLO.TXT")?, FileEntry { lba: HELLO, size: 14 });
            check_eq!(found(&mut volume, "hello.txt")?, FileEntry { lba: HELLO, size: 14 });
            check_eq!(found(&mut volume, "/HELLO.TXT;1")?, FileEntry { lba: HELLO, size: 14 });
            check_eq!(found(&mut volume, "MODELS/BIG.BIN")?, FileEntry { lba: BIG, size: BIG_SIZE });
            check_eq!(found(&mut volume, "models/deep/X.JOM")?, FileEntry { lba: EXACT, size: 2048 });
            check_eq!(found(&mut volume, "MODELS/DEEP/NOEXT")?, FileEntry { lba: NOEXT, size: 3 });
            check_eq!(found(&mut volume, "MODELS/DEEP/NOEXT.")?, FileEntry { lba: NOEXT, size: 3 });
        }

        fn finds_files_in_a_directory_of_two_sectors() {
            let mut volume = open(&[])?;
            check_eq!(record_place(ROOT, 4 + FILLERS).0, 1);
            check_eq!(found(&mut volume, "LAST.DAT")?, FileEntry { lba: LAST, size: 4 });
            check_eq!(found(&mut volume, "F59.BIN")?, FileEntry { lba: FILLER, size: 1 });
            check_eq!(found(&mut volume, "F00.BIN")?, FileEntry { lba: FILLER, size: 1 });
        }

        fn the_first_file_is_the_first_file_record_of_the_root() {
            let mut volume = open(&[])?;
            check_eq!(volume.first_file(), Ok(FileEntry { lba: HELLO, size: 14 }));
            // HELLO.TXT made a directory: the first file is then past MODELS.
            let flags = first_sector_record(ROOT, 2) + 25;
            let mut volume = open(&[(ROOT, flags, FLAG_DIRECTORY)])?;
            check_eq!(volume.first_file().map(|f| f.lba), Ok(FILLER));
        }

        fn reports_what_is_not_found() {
            let mut volume = open(&[])?;
            check_eq!(volume.find("NOPE.BIN"), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("MODELS/NOPE.BIN"), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("NOPE/BIG.BIN"), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("HELLO.TX"), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("HELLO.TXT2"), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("."), Err(Iso9660Error::NotFound));
            check_eq!(volume.find(".."), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("BIG.BIN"), Err(Iso9660Error::NotFound));
            check_eq!(volume.find("HELLO.TXT/X"), Err(Iso9660Error::NotADirectory));
            check_eq!(volume.find("MODELS"), Err(Iso9660Error::NotAFile));
            check_eq!(volume.find("MODELS/DEEP"), Err(Iso9660Error::NotAFile));
            check_eq!(volume.find(""), Err(Iso9660Error::BadPath));
            check_eq!(volume.find("/"), Err(Iso9660Error::BadPath));
            check_eq!(volume.find("MODELS/"), Err(Iso9660Error::BadPath));
            check_eq!(volume.find("MODELS//BIG.BIN"), Err(Iso9660Error::BadPath));
            check_eq!(volume.find("A/B/C/D/E/F/G/H/I"), Err(Iso9660Error::BadPath));
        }

        fn reads_files_of_one_and_several_sectors() {
            let mut volume = open(&[])?;
            let mut buffer = [0x55u8; 6000];
            for path in ["MODELS/BIG.BIN", "HELLO.TXT", "MODELS/DEEP/X.JOM", "MODELS/DEEP/NOEXT", "LAST.DAT"] {
                buffer.fill(0x55);
                let file = found(&mut volume, path)?;
                let size = volume.read_file(file, &mut buffer).map_err(|e| failure(line!(), e))?;
                check_eq!(size, file.size as usize);
                for (i, &byte) in buffer[..size].iter().enumerate() {
                    if byte != content(file.lba, i) {
                        return Err(Failure::new(file!(), line!(), format_args!(
                            "{path} byte {i}: {byte:#04x}, expected {:#04x}", content(file.lba, i))));
                    }
                }
                // Nothing written past the file.
                check!(buffer[size..].iter().all(|&b| b == 0x55));
            }
            // A buffer of exactly the file's size is enough.
            let big = found(&mut volume, "MODELS/BIG.BIN")?;
            check_eq!(volume.read_file(big, &mut buffer[..BIG_SIZE as usize]), Ok(BIG_SIZE as usize));
            check_eq!(big.sectors(), 3);
        }

        fn reads_parts_of_a_file_at_any_offset() {
            let mut volume = open(&[])?;
            let big = found(&mut volume, "MODELS/BIG.BIN")?;
            let mut buffer = [0u8; 4500];
            // Inside one sector, across one boundary, whole sectors, across two boundaries.
            for (offset, len) in [(0, 5), (2040, 16), (2048, 2048), (100, 4400), (4999, 1), (37, 0)] {
                let part = &mut buffer[..len];
                volume.read_at(big, offset, part).map_err(|e| failure(line!(), e))?;
                for (i, &byte) in part.iter().enumerate() {
                    check_eq!(byte, content(big.lba, offset as usize + i));
                }
            }
            check_eq!(
                volume.read_at(big, 4990, &mut buffer[..11]),
                Err(Iso9660Error::PastEndOfFile { size: BIG_SIZE, end: 5001 })
            );
        }

        fn refuses_a_buffer_too_small() {
            let mut volume = open(&[])?;
            let big = found(&mut volume, "MODELS/BIG.BIN")?;
            let mut buffer = [0u8; 4999];
            check_eq!(volume.read_file(big, &mut buffer), Err(Iso9660Error::BufferTooSmall { needed: 5000, available: 4999 }));
            check_eq!(volume.read_file(big, &mut []), Err(Iso9660Error::BufferTooSmall { needed: 5000, available: 0 }));
            check!(buffer.iter().all(|&b| b == 0));
        }

        fn refuses_what_is_not_iso9660() {
            check_eq!(Iso9660::open(disc(&[(16, 1, b'X')])).err(), Some(Iso9660Error::NotIso9660));
            check_eq!(Iso9660::open(disc(&[(16, 6, 2)])).err(), Some(Iso9660Error::NotIso9660));
            // A terminator before any primary descriptor.
            check_eq!(Iso9660::open(disc(&[(16, 0, 255)])).err(), Some(Iso9660Error::NotIso9660));
            // Other descriptors (boot record, supplementary) are skipped.
            let skipped = [(16, 0, 2), (17, 0, 1), (17, 129, 8)];
            let error = Iso9660::open(disc(&skipped)).err();
            let at = PVD_ROOT_RECORD as u32;
            check_eq!(error, Some(Iso9660Error::Malformed { lba: 17, offset: at, what: "no root directory record" }));
            // 512-byte logical blocks.
            let error = Iso9660::open(disc(&[(16, 129, 2)])).err();
            check_eq!(error, Some(Iso9660Error::Malformed { lba: 16, offset: 128, what: "logical block size is not 2048" }));
            let mut failing = disc(&[]);
            failing.fail = Some(CdError::Drive { status: 6 });
            check_eq!(Iso9660::open(failing).err(), Some(Iso9660Error::Read(CdError::Drive { status: 6 })));
        }

        fn refuses_a_root_outside_the_volume() {
            let at = PVD_ROOT_RECORD as u32;
            let outside = Iso9660Error::Malformed { lba: 16, offset: at, what: "extent outside the volume" };
            // The root's extent at 0x7F000012.
            check_eq!(Iso9660::open(disc(&[(16, PVD_ROOT_RECORD + 5, 0x7F)])).err(), Some(outside));
            // A volume of 19 sectors: the root's second sector is past its end.
            check_eq!(Iso9660::open(disc(&[(16, 80, 19)])).err(), Some(outside));
            // The root in the system area.
            check_eq!(Iso9660::open(disc(&[(16, PVD_ROOT_RECORD + 2, 3)])).err(), Some(outside));
            let huge = Iso9660Error::Malformed { lba: 16, offset: at, what: "directory larger than MAX_DIRECTORY_SECTORS" };
            check_eq!(Iso9660::open(disc(&[(16, PVD_ROOT_RECORD + 13, 0x10)])).err(), Some(huge));
            // A root record of length 0 or one that is not a directory.
            let none = Iso9660Error::Malformed { lba: 16, offset: at, what: "no root directory record" };
            check_eq!(Iso9660::open(disc(&[(16, PVD_ROOT_RECORD, 0)])).err(), Some(none));
            let file = Iso9660Error::Malformed { lba: 16, offset: at, what: "the root is not a directory" };
            check_eq!(Iso9660::open(disc(&[(16, PVD_ROOT_RECORD + 25, 0)])).err(), Some(file));
        }

        fn refuses_malformed_directory_records() {
            let malformed = |lba, offset: usize, what| Err(Iso9660Error::Malformed { lba, offset: offset as u32, what });
            // The first record of the root (".") too short, its name longer than the record, or
            // no name at all.
            check_eq!(find_in(&[(ROOT, 0, 20)], "HELLO.TXT")?, malformed(ROOT, 0, "directory record shorter than 34 bytes"));
            check_eq!(find_in(&[(ROOT, 32, 40)], "HELLO.TXT")?, malformed(ROOT, 0, "directory record name does not fit the record"));
            check_eq!(find_in(&[(ROOT, 32, 0)], "HELLO.TXT")?, malformed(ROOT, 0, "directory record name does not fit the record"));
            // The last record of the root's first sector running past the sector's end.
            let last = (0..4 + FILLERS).rev().find(|&i| record_place(ROOT, i).0 == 0).unwrap_or(0);
            let offset = record_place(ROOT, last).1;
            let len = (SECTOR_SIZE - offset + 2) as u8;
            check_eq!(find_in(&[(ROOT, offset, len)], "LAST.DAT")?, malformed(ROOT, offset, "directory record crosses the end of its sector"));
            // MODELS (the root's 4th record) as a directory of 16 MiB, or past the volume's end.
            let models = first_sector_record(ROOT, 3);
            check_eq!(find_in(&[(ROOT, models + 13, 1)], "MODELS/BIG.BIN")?, malformed(ROOT, models, "directory larger than MAX_DIRECTORY_SECTORS"));
            check_eq!(find_in(&[(ROOT, models + 2, VOLUME_SECTORS as u8)], "MODELS/BIG.BIN")?, malformed(ROOT, models, "extent outside the volume"));
            // BIG.BIN past the volume's end, its address overflowing with an extended
            // attribute record, or in several extents.
            let big = first_sector_record(MODELS, 2);
            check_eq!(find_in(&[(MODELS, big + 10, 0xFF), (MODELS, big + 11, 0xFF)], "MODELS/BIG.BIN")?, malformed(MODELS, big, "extent outside the volume"));
            check_eq!(find_in(&[(MODELS, big + 1, 1), (MODELS, big + 2, 0xFF), (MODELS, big + 3, 0xFF), (MODELS, big + 4, 0xFF), (MODELS, big + 5, 0xFF)], "MODELS/BIG.BIN")?, malformed(MODELS, big, "extent address overflows"));
            check_eq!(find_in(&[(MODELS, big + 25, FLAG_MULTI_EXTENT)], "MODELS/BIG.BIN")?, malformed(MODELS, big, "multi-extent files are not supported"));
            // A file entry made up by the caller, past the volume's end.
            let mut volume = open(&[])?;
            let mut buffer = [0u8; 16];
            let made_up = FileEntry { lba: VOLUME_SECTORS, size: 1 };
            let outside = Iso9660Error::Malformed { lba: VOLUME_SECTORS, offset: 0, what: "extent outside the volume" };
            check_eq!(volume.read_file(made_up, &mut buffer), Err(outside));
        }

        fn walks_are_bounded_whatever_the_records_say() {
            // A directory that is its own subdirectory: each path component is one lookup,
            // and paths are at most MAX_DEPTH components long.
            let models = first_sector_record(ROOT, 3);
            let patches = [(ROOT, models + 2, ROOT as u8), (ROOT, models + 11, 0x10)];
            let mut volume = open(&patches)?;
            check_eq!(found(&mut volume, "MODELS/MODELS/MODELS/HELLO.TXT")?, FileEntry { lba: HELLO, size: 14 });
            check_eq!(volume.find("MODELS/MODELS/MODELS/MODELS/MODELS/MODELS/MODELS/MODELS/HELLO.TXT"), Err(Iso9660Error::BadPath));
            check!(volume.source_mut().reads <= 2 + 2 * 8);
            // Any value of any byte of the root's first records: an answer, and a bounded
            // number of reads.
            // (Few values: the SH-2 runs this too, in an emulator.)
            for offset in 0..70 {
                for value in [0u8, 0x22, 0xFF] {
                    let patches = [(ROOT, offset, value)];
                    let Ok(mut volume) = Iso9660::open(disc(&patches)) else { continue };
                    for path in ["HELLO.TXT", "MODELS/DEEP/X.JOM", "LAST.DAT"] {
                        let _ = volume.find(path);
                    }
                    let reads = volume.source_mut().reads;
                    check!(reads <= 2 + 3 * (MAX_DIRECTORY_SECTORS + 2));
                }
            }
        }

        fn errors_say_where_and_what() {
            check_message!(
                Iso9660Error::Read(CdError::Drive { status: 0x27 }),
                "CD drive: no disc (status 0x27)"
            );
            check_message!(
                Iso9660Error::Malformed { lba: 16, offset: 128, what: "logical block size is not 2048" },
                "ISO 9660: sector 16, byte 128: logical block size is not 2048"
            );
            check_message!(
                Iso9660Error::BufferTooSmall { needed: 5000, available: 4096 },
                "a buffer of 4096 bytes cannot hold 5000 bytes"
            );
            check_message!(
                Iso9660Error::PastEndOfFile { size: 5000, end: 5001 },
                "a read up to byte 5001 of a file of 5000 bytes"
            );
            check_message!(Iso9660Error::NotFound, "no such file or directory");
        }

        fn source_errors_come_back() {
            let mut volume = open(&[])?;
            let big = found(&mut volume, "MODELS/BIG.BIN")?;
            let timeout = CdError::Timeout(Timeout { waiting_for: "a sector" });
            volume.source_mut().fail = Some(timeout);
            let mut buffer = [0u8; 5000];
            check_eq!(volume.read_file(big, &mut buffer), Err(Iso9660Error::Read(timeout)));
            check_eq!(volume.find("HELLO.TXT"), Err(Iso9660Error::Read(timeout)));
            // The failed read left nothing cached.
            volume.source_mut().fail = None;
            check_eq!(volume.find("HELLO.TXT"), Ok(FileEntry { lba: HELLO, size: 14 }));
            let mut source = disc(&[]);
            check_eq!(source.read_sectors(16, &mut buffer[..100]), Err(CdError::BadLength { len: 100 }));
        }
    }

    /// An image made by `genisoimage`, read from its file (skipped, with a note, when the
    /// tool is not installed).
    #[cfg(test)]
    mod genisoimage {
        extern crate std;
        use super::super::*;
        use std::fs;
        use std::io::{Read, Seek, SeekFrom};
        use std::process::Command;
        use std::vec::Vec;

        struct FileDisc(fs::File);

        impl SectorSource for FileDisc {
            fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
                let place = SeekFrom::Start(lba as u64 * SECTOR_SIZE as u64);
                let unreadable = |_| CdError::Unreadable { lba };
                self.0.seek(place).map_err(unreadable)?;
                self.0.read_exact(buffer).map_err(unreadable)
            }
        }

        fn pattern(len: usize, seed: usize) -> Vec<u8> {
            (0..len)
                .map(|i| ((i * 7) ^ (i >> 9) ^ seed) as u8)
                .collect()
        }

        #[test]
        fn reads_an_image_made_by_genisoimage() {
            let dir =
                std::env::temp_dir().join(std::format!("iso9660-test-{}", std::process::id()));
            let tree = dir.join("tree");
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(tree.join("MODELS/DEEP")).unwrap();
            let files: [(&str, Vec<u8>); 4] = [
                ("TESTDATA.BIN", pattern(5000, 1)),
                ("EMPTY.BIN", Vec::new()),
                ("MODELS/ROBOT.JOM", pattern(2048, 2)),
                ("MODELS/DEEP/LEAF.BIN", pattern(70_000, 3)),
            ];
            for (name, bytes) in &files {
                fs::write(tree.join(name), bytes).unwrap();
            }
            for i in 0..60 {
                fs::write(tree.join(std::format!("F{i:02}.BIN")), [i as u8]).unwrap();
            }
            let iso = dir.join("test.iso");
            let status = Command::new("genisoimage")
                .args(["-quiet", "-iso-level", "1", "-V", "TEST", "-o"])
                .arg(&iso)
                .arg(&tree)
                .status();
            match status {
                Ok(status) if status.success() => {}
                Ok(status) => panic!("genisoimage failed: {status}"),
                Err(_) => {
                    test_skip::skip("genisoimage is not installed");
                    return;
                }
            }
            let mut volume = Iso9660::open(FileDisc(fs::File::open(&iso).unwrap())).unwrap();
            let mut buffer = std::vec![0u8; 80_000];
            for (name, bytes) in &files {
                let entry = volume.find(name).unwrap();
                assert_eq!(entry.size as usize, bytes.len(), "{name}");
                let size = volume.read_file(entry, &mut buffer).unwrap();
                assert_eq!(&buffer[..size], &bytes[..], "{name}");
            }
            let lower = volume.find("models/deep/leaf.bin").unwrap();
            assert_eq!(lower.size, 70_000);
            assert_eq!(volume.find("F59.BIN").map(|e| e.size), Ok(1));
            assert_eq!(volume.find("MODELS/NOPE.BIN"), Err(Iso9660Error::NotFound));
            let leaf = volume.find("MODELS/DEEP/LEAF.BIN").unwrap();
            assert_eq!(
                volume.read_file(leaf, &mut buffer[..69_999]),
                Err(Iso9660Error::BufferTooSmall {
                    needed: 70_000,
                    available: 69_999
                })
            );
            let _ = fs::remove_dir_all(&dir);
        }
    }
}
