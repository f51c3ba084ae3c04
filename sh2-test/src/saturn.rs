//! Output on a Saturn (an emulator): the text into backup RAM, one byte at each odd
//! address from 0x00188001 (backup RAM is on the odd bytes), after the marker "JOMT" and
//! ended by a zero; the emulator writes backup RAM to its file when it quits cleanly.
//! Also the tests of the hardware itself.

use core::fmt;
use jom::hw::{self, SaturnVram};
use jom::selftest::{Failure, Test, TestResult};
use jom::vdp1::{CommandTable, Point, Vram};

const BACKUP_RAM_TEXT: usize = 0x0018_8001;
const BACKUP_RAM_END: usize = 0x0019_0000;
const MARKER: &[u8] = b"JOMT";

/// The back screen at the end: green when every test passed, red otherwise.
const PASSED: u16 = 0x8000 | 24 << 5;
const FAILED: u16 = 0x8000 | 24;

/// The text so far in backup RAM.
pub struct BackupRam {
    next: usize,
}

pub fn open() -> BackupRam {
    hw::mask_interrupts();
    let mut out = BackupRam {
        next: BACKUP_RAM_TEXT,
    };
    out.put(MARKER);
    out
}

impl BackupRam {
    fn put(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.next + 2 >= BACKUP_RAM_END {
                return;
            }
            // SAFETY: an odd address of backup RAM, which the test program owns.
            unsafe { core::ptr::write_volatile(self.next as *mut u8, byte) };
            self.next += 2;
        }
    }
}

impl fmt::Write for BackupRam {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.put(text.as_bytes());
        Ok(())
    }
}

/// Ends the text, shows the result on the back screen and stays there (the emulator is
/// quit from outside).
pub fn finish(mut out: BackupRam, all_passed: bool) -> ! {
    out.put(&[0]);
    hw::init_display(if all_passed { PASSED } else { FAILED });
    loop {}
}

/// Tests that need the Saturn's hardware.
pub static HARDWARE_TESTS: &[Test] = &[
    Test {
        name: "hw::vdp1_vram_holds_a_command_table",
        run: vdp1_vram_holds_a_command_table,
    },
    Test {
        name: "hw::vblank_comes_and_goes",
        run: vblank_comes_and_goes,
    },
    Test {
        name: "hw::smpc_answers_intback",
        run: smpc_answers_intback,
    },
];

fn fail(line: u32, args: fmt::Arguments<'_>) -> Failure {
    Failure::new(file!(), line, args)
}

/// A command table written through `SaturnVram` reads back from VDP1 VRAM, big endian.
#[allow(clippy::result_large_err)]
fn vdp1_vram_holds_a_command_table() -> TestResult {
    let table = CommandTable::local_coordinates(Point::new(160, -112));
    let address = 0x7_FFE0; // the last table of VRAM, away from what the display uses
    SaturnVram.write_command(address, &table);
    let bytes = table.to_be_bytes();
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        let expected = u16::from_be_bytes([pair[0], pair[1]]);
        let at = hw::address::VDP1_VRAM + address as usize + 2 * i;
        // SAFETY: inside VDP1 VRAM.
        let found = unsafe { core::ptr::read_volatile(at as *const u16) };
        if found != expected {
            return Err(fail(
                line!(),
                format_args!("word {i}: {found:#06x}, expected {expected:#06x}"),
            ));
        }
    }
    Ok(())
}

/// `wait_vblank` returns (the VDP2 status is read again and again, not once) for a few
/// frames in a row.
#[allow(clippy::result_large_err)]
fn vblank_comes_and_goes() -> TestResult {
    hw::init_display(0x8000);
    for frame in 0..5 {
        if let Err(timeout) = hw::wait_vblank() {
            return Err(fail(
                line!(),
                format_args!("frame {frame}: no {}", timeout.waiting_for),
            ));
        }
    }
    Ok(())
}

/// INTBACK answers within its time with port 1's status: nothing connected (0xF0, what
/// headless Yabause reports) or a standard pad connected directly with no button pressed.
#[allow(clippy::result_large_err)]
fn smpc_answers_intback() -> TestResult {
    const NOTHING_CONNECTED: u8 = 0xF0;
    match hw::smpc::read_pad() {
        Ok(Some(buttons)) if buttons == jom::hw::smpc::PadButtons::default() => Ok(()),
        Ok(Some(buttons)) => Err(fail(line!(), format_args!("buttons {:#06x} pressed", buttons.0))),
        Ok(None) if hw::smpc::output(0) == NOTHING_CONNECTED => Ok(()),
        Ok(None) => {
            let (status, id) = (hw::smpc::output(0), hw::smpc::output(1));
            Err(fail(line!(), format_args!("port 1: status {status:#04x}, id {id:#04x}")))
        }
        Err(timeout) => Err(fail(line!(), format_args!("no answer from {}", timeout.waiting_for))),
    }
}
