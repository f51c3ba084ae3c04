//! Addresses and lengths on the Saturn's bus, and the work RAM each command may touch. The
//! checks here run before anything is sent: a [`Span`] exists only for a range that fits.
//!
//! - Uploads and execution: high work RAM from 0x06004000 (its first 16 KiB belong to the
//!   BIOS and to the cart's own firmware, which runs as an IP at 0x06002000), and low work
//!   RAM.
//! - Downloads: the whole of high and low work RAM.

use std::fmt;
use std::str::FromStr;

/// A 32-bit address on the SH-2's bus (shown as `0x06004000`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Address(pub u32);

/// Where `jom` programs are linked (`link.x`), and what `upload` and `run` take by default.
pub const DEFAULT_LOAD_ADDRESS: Address = Address(0x0600_4000);

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#010x}", self.0)
    }
}

impl FromStr for Address {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        parse_number(text).map(Address)
    }
}

/// A number as the command line gives it: `0x` (or `0X`) then hexadecimal digits, or
/// decimal digits; 32 bits at most. The error says what was expected.
pub fn parse_number(text: &str) -> Result<u32, String> {
    let (digits, radix) = match text.strip_prefix("0x").or(text.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (text, 10),
    };
    let well_formed = !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix));
    if !well_formed {
        return Err(format!(
            "'{text}' is not a number (expected 0x and hexadecimal digits, or decimal digits)"
        ));
    }
    u32::from_str_radix(digits, radix)
        .map_err(|_| format!("'{text}' does not fit in 32 bits (at most 0xffffffff)"))
}

/// A stretch of work RAM, `start` included, `end` excluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// How messages name it.
    pub name: &'static str,
    /// Its first address.
    pub start: u32,
    /// The address after its last byte.
    pub end: u32,
}

impl Region {
    fn contains(&self, address: u32) -> bool {
        (self.start..self.end).contains(&address)
    }

    /// How many bytes fit from `address` (in the region) to the region's end.
    fn room_from(&self, address: u32) -> u32 {
        self.end - address
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:#010x}-{:#010x}",
            self.name,
            self.start,
            self.end - 1
        )
    }
}

/// High work RAM, 1 MiB.
pub const HIGH_WORK_RAM: Region = Region {
    name: "high work RAM",
    start: 0x0600_0000,
    end: 0x0610_0000,
};

/// Low work RAM, 1 MiB.
pub const LOW_WORK_RAM: Region = Region {
    name: "low work RAM",
    start: 0x0020_0000,
    end: 0x0030_0000,
};

/// High work RAM past the BIOS's and the cart firmware's 16 KiB (0x06000000-0x06003FFF).
pub const HIGH_WORK_RAM_FOR_PROGRAMS: Region = Region {
    name: "high work RAM",
    start: 0x0600_4000,
    end: 0x0610_0000,
};

/// Where an upload may write and an execute may jump.
pub const UPLOAD_REGIONS: [Region; 2] = [HIGH_WORK_RAM_FOR_PROGRAMS, LOW_WORK_RAM];

/// Where a download may read.
pub const DOWNLOAD_REGIONS: [Region; 2] = [HIGH_WORK_RAM, LOW_WORK_RAM];

/// What a range is for: each has its own regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Written by an upload.
    Upload,
    /// Read by a download.
    Download,
    /// Jumped to by an execute.
    Execute,
}

impl Access {
    /// The regions this access may touch.
    pub fn regions(self) -> &'static [Region; 2] {
        match self {
            Access::Upload | Access::Execute => &UPLOAD_REGIONS,
            Access::Download => &DOWNLOAD_REGIONS,
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Access::Upload => "upload",
            Access::Download => "download",
            Access::Execute => "execute",
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Access::Upload => "upload to",
            Access::Download => "download from",
            Access::Execute => "execute at",
        }
    }
}

/// Why an address or a range was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RangeError {
    /// The address is in none of the access's regions.
    NotInWorkRam { address: Address, access: Access },
    /// The range starts in `region` but runs past its end.
    DoesNotFit {
        start: Address,
        len: u64,
        region: Region,
    },
    /// Nothing to transfer.
    Empty { access: Access },
    /// SH-2 code sits on 16-bit boundaries: a jump to an odd address is an address error.
    Odd { address: Address },
}

impl fmt::Display for RangeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RangeError::NotInWorkRam { address, access } => {
                let [first, second] = access.regions();
                write!(
                    f,
                    "cannot {} {address}: not in work RAM (expected {first} or {second}",
                    access.verb()
                )?;
                if *access != Access::Download {
                    write!(
                        f,
                        "; 0x06000000-0x06003fff belongs to the BIOS and the cart's firmware"
                    )?;
                }
                write!(f, ")")
            }
            RangeError::DoesNotFit { start, len, region } => {
                let end = u64::from(start.0) + len;
                write!(
                    f,
                    "{len} bytes from {start} would end at {end:#010x}, past the end of {region} \
                     (at most {} bytes fit from {start})",
                    region.room_from(start.0)
                )
            }
            RangeError::Empty { access } => write!(
                f,
                "nothing to {}: 0 bytes (expected at least 1)",
                access.noun()
            ),
            RangeError::Odd { address } => write!(
                f,
                "cannot execute at {address}: odd address (SH-2 code is on 16-bit boundaries)"
            ),
        }
    }
}

impl std::error::Error for RangeError {}

/// A range of work RAM checked for one access: it starts and ends in one region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    start: Address,
    len: u32,
}

impl Span {
    /// A range an upload of `len` bytes may write from `start`.
    pub fn for_upload(start: Address, len: u64) -> Result<Span, RangeError> {
        Span::checked(start, len, Access::Upload)
    }

    /// A range a download of `len` bytes may read from `start`.
    pub fn for_download(start: Address, len: u64) -> Result<Span, RangeError> {
        Span::checked(start, len, Access::Download)
    }

    fn checked(start: Address, len: u64, access: Access) -> Result<Span, RangeError> {
        let region = region_of(start, access)?;
        if len == 0 {
            return Err(RangeError::Empty { access });
        }
        if len > u64::from(region.room_from(start.0)) {
            return Err(RangeError::DoesNotFit { start, len, region });
        }
        // Fits in a 1 MiB region, so in 32 bits.
        let len = len as u32;
        Ok(Span { start, len })
    }

    /// The first address.
    pub fn start(&self) -> Address {
        self.start
    }

    /// The length in bytes (at least 1).
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Never true: a span holds at least one byte.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes at {}", self.len, self.start)
    }
}

/// An address an execute may jump to: in a region uploads may write, and even.
pub fn check_execute(address: Address) -> Result<Address, RangeError> {
    region_of(address, Access::Execute)?;
    if !address.0.is_multiple_of(2) {
        return Err(RangeError::Odd { address });
    }
    Ok(address)
}

fn region_of(address: Address, access: Access) -> Result<Region, RangeError> {
    access
        .regions()
        .iter()
        .find(|region| region.contains(address.0))
        .copied()
        .ok_or(RangeError::NotInWorkRam { address, access })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_hex_or_decimal() {
        assert_eq!(parse_number("0x06004000"), Ok(0x0600_4000));
        assert_eq!(parse_number("0X6004000"), Ok(0x0600_4000));
        assert_eq!(parse_number("0xffffffff"), Ok(u32::MAX));
        assert_eq!(parse_number("100663296"), Ok(0x0600_0000));
        assert_eq!(parse_number("0"), Ok(0));
        for bad in ["", "0x", "-1", "+1", "12a", "0x12g", " 1", "1.5", "0b101"] {
            assert!(parse_number(bad).is_err(), "{bad:?}");
        }
        assert!(parse_number("0x100000000").unwrap_err().contains("32 bits"));
        assert!(parse_number("4294967296").unwrap_err().contains("32 bits"));
        assert_eq!("0x00200000".parse(), Ok(Address(0x0020_0000)));
    }

    #[test]
    fn uploads_fit_work_ram_past_the_firmware() {
        let span = Span::for_upload(DEFAULT_LOAD_ADDRESS, 0xFC000).unwrap();
        assert_eq!((span.start(), span.len()), (Address(0x0600_4000), 0xFC000));
        assert!(Span::for_upload(Address(0x0020_0000), 0x10_0000).is_ok());
        assert_eq!(
            Span::for_upload(DEFAULT_LOAD_ADDRESS, 0xFC001),
            Err(RangeError::DoesNotFit {
                start: DEFAULT_LOAD_ADDRESS,
                len: 0xFC001,
                region: HIGH_WORK_RAM_FOR_PROGRAMS
            })
        );
        for address in [
            0x0600_0000,
            0x0600_3FFF,
            0x0610_0000,
            0x001F_FFFF,
            0x0030_0000,
            0,
        ] {
            assert_eq!(
                Span::for_upload(Address(address), 1),
                Err(RangeError::NotInWorkRam {
                    address: Address(address),
                    access: Access::Upload
                }),
                "{address:#x}"
            );
        }
        assert_eq!(
            Span::for_upload(DEFAULT_LOAD_ADDRESS, 0),
            Err(RangeError::Empty {
                access: Access::Upload
            })
        );
        // Far past 32 bits: refused, not wrapped.
        assert!(Span::for_upload(Address(0x060F_FFFF), u64::MAX).is_err());
    }

    #[test]
    fn downloads_may_read_all_of_work_ram() {
        assert!(Span::for_download(Address(0x0600_0000), 0x10_0000).is_ok());
        assert!(Span::for_download(Address(0x0020_0000), 0x10_0000).is_ok());
        assert!(Span::for_download(Address(0x0600_0000), 0x10_0001).is_err());
        assert!(Span::for_download(Address(0x0500_0000), 4).is_err());
    }

    #[test]
    fn execute_needs_program_ram_and_an_even_address() {
        assert_eq!(
            check_execute(DEFAULT_LOAD_ADDRESS),
            Ok(DEFAULT_LOAD_ADDRESS)
        );
        assert_eq!(
            check_execute(Address(0x0600_4001)),
            Err(RangeError::Odd {
                address: Address(0x0600_4001)
            })
        );
        assert!(check_execute(Address(0x0600_2000)).is_err());
    }

    #[test]
    fn messages_name_the_address_and_what_was_expected() {
        let e = Span::for_upload(Address(0x0500_0000), 4).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot upload to 0x05000000: not in work RAM (expected high work RAM \
             0x06004000-0x060fffff or low work RAM 0x00200000-0x002fffff; 0x06000000-0x06003fff \
             belongs to the BIOS and the cart's firmware)"
        );
        let e = Span::for_upload(DEFAULT_LOAD_ADDRESS, 0xFC001).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1032193 bytes from 0x06004000 would end at 0x06100001, past the end of high work \
             RAM 0x06004000-0x060fffff (at most 1032192 bytes fit from 0x06004000)"
        );
    }
}
