//! Text out of a Saturn program through backup RAM: one byte at each odd address from
//! 0x00188001 (backup RAM is on the odd bytes), after a 4-byte marker and ended by a
//! zero. An emulator writes backup RAM to its file when it quits cleanly, where the host
//! reads it back: the test and benchmark programs report this way.

use core::fmt;

const TEXT_START: usize = 0x0018_8001;
const END: usize = 0x0019_0000;

/// Text being written to backup RAM.
pub struct BackupRamText {
    next: usize,
}

impl BackupRamText {
    /// Starts the text with `marker` (which the host looks for).
    pub fn open(marker: &[u8; 4]) -> Self {
        let mut text = Self { next: TEXT_START };
        text.put(marker);
        text
    }

    fn put(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.next + 2 >= END {
                return;
            }
            // SAFETY: an odd address of backup RAM, which the program owns.
            unsafe { core::ptr::write_volatile(self.next as *mut u8, byte) };
            self.next += 2;
        }
    }

    /// Ends the text.
    pub fn close(mut self) {
        self.put(&[0]);
    }
}

impl fmt::Write for BackupRamText {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.put(text.as_bytes());
        Ok(())
    }
}
