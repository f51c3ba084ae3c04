//! The ISO 9660 reader on any disc image: opening it, finding paths and reading files must
//! return (a value or an error), never panic, loop or read out of bounds.
#![no_main]

use jom::iso9660::{CdError, Iso9660, SectorSource};
use libfuzzer_sys::fuzz_target;

/// A disc image in memory; sectors past its end read as errors.
struct Image<'a>(&'a [u8]);

impl SectorSource for Image<'_> {
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
        let start = lba as usize * 2048;
        let bytes = self
            .0
            .get(start..start + buffer.len())
            .ok_or(CdError::Unreadable { lba })?;
        buffer.copy_from_slice(bytes);
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    // The fuzzer's bytes from sector 16 on (the volume descriptors), so that short inputs
    // reach the reader's checks.
    let mut image = vec![0u8; 16 * 2048];
    image.extend_from_slice(data);
    let Ok(mut volume) = Iso9660::open(Image(&image)) else {
        return;
    };
    let mut buffer = [0u8; 8192];
    for path in ["A.BIN", "DIR/B.BIN", "X/Y/Z/W.JOM", "/", "DEMO.JOM"] {
        if let Ok(entry) = volume.find(path) {
            let _ = volume.read_file(entry, &mut buffer);
        }
    }
});
