//! The SH-2's free-running timer (on chip): a 16-bit counter of CPU clocks / 8, 32 or 128,
//! to measure how long the engine's work takes; and the clocks it counts, of both video
//! standards and both screen widths, with the length of a field in them.

use crate::hw::vdp2::{ScreenWidth, VideoStandard};

/// The master SH-2's clock on an NTSC console in the 320-pixel modes (Hz).
pub const NTSC_CPU_CLOCK_320: u32 = 26_874_100;
/// The master SH-2's clock on an NTSC console in the 352-pixel modes (Hz), after the
/// SMPC's clock change (`smpc::change_clock`): both SH-2s, the VDPs and the SCU run 6.6%
/// faster (61 / 65 of the period).
pub const NTSC_CPU_CLOCK_352: u32 = 28_636_360;
/// The master SH-2's clock on a PAL console in the 320-pixel modes (Hz).
pub const PAL_CPU_CLOCK_320: u32 = 26_687_500;
/// The master SH-2's clock on a PAL console in the 352-pixel modes (Hz).
pub const PAL_CPU_CLOCK_352: u32 = 28_437_500;

/// CPU clocks a VDP2 dot lasts, in every mode this engine sets.
const CLOCKS_PER_DOT: u32 = 4;

/// The master SH-2's clock on a console of `standard` in `width`'s modes (Hz).
pub const fn cpu_clock(standard: VideoStandard, width: ScreenWidth) -> u32 {
    match (standard, width) {
        (VideoStandard::Ntsc, ScreenWidth::W320) => NTSC_CPU_CLOCK_320,
        (VideoStandard::Ntsc, ScreenWidth::W352) => NTSC_CPU_CLOCK_352,
        (VideoStandard::Pal, ScreenWidth::W320) => PAL_CPU_CLOCK_320,
        (VideoStandard::Pal, ScreenWidth::W352) => PAL_CPU_CLOCK_352,
    }
}

/// CPU clocks of a field (VBlank to VBlank, not interlaced) on a console of `standard` in
/// `width`'s modes: NTSC 449,204 (320 pixels) and 478,660 (352), PAL 534,604 and 569,660.
pub const fn field_cycles(standard: VideoStandard, width: ScreenWidth) -> u32 {
    width.dots_per_line() as u32 * standard.lines_per_field() as u32 * CLOCKS_PER_DOT
}

/// [`field_cycles`] in counts of the timer at `divider` (rounded).
pub const fn field_counts(standard: VideoStandard, width: ScreenWidth, divider: Divider) -> u32 {
    (field_cycles(standard, width) + divider.clocks() / 2) / divider.clocks()
}

/// Fields a second on a console of `standard`, in thousandths (rounded): NTSC 59,826, PAL
/// 49,920, in either width (whose clock and dots a line change together).
pub const fn fields_per_1000_seconds(standard: VideoStandard) -> u32 {
    let clock = cpu_clock(standard, ScreenWidth::W320) as u64;
    let field = field_cycles(standard, ScreenWidth::W320) as u64;
    ((clock * 1000 + field / 2) / field) as u32
}

// A field lasts as long in both widths (to the thousandth of a field a second).
const _: () = {
    let standards = [VideoStandard::Ntsc, VideoStandard::Pal];
    let mut i = 0;
    while i < standards.len() {
        let s = standards[i];
        let at_352 = cpu_clock(s, ScreenWidth::W352) as u64 * 1000
            / field_cycles(s, ScreenWidth::W352) as u64;
        assert!(at_352.abs_diff(fields_per_1000_seconds(s) as u64) <= 1);
        i += 1;
    }
};

/// The counter's clock: the CPU clock divided by this.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Divider {
    /// CPU clock / 8.
    By8 = 0,
    /// CPU clock / 32.
    By32 = 1,
    /// CPU clock / 128.
    By128 = 2,
}

impl Divider {
    /// CPU clocks per count.
    pub const fn clocks(self) -> u32 {
        match self {
            Divider::By8 => 8,
            Divider::By32 => 32,
            Divider::By128 => 128,
        }
    }
}

/// `FTCSR` bit 7: an input capture happened (how each SH-2 wakes the other: `hw::slave`).
pub const INPUT_CAPTURE: u8 = 1 << 7;
/// `FTCSR` bit 1: the counter went from 0xFFFF to 0 since the flag was cleared.
pub const OVERFLOW: u8 = 1 << 1;
/// `FTCSR`'s flags: input capture, compare matches A and B, overflow (bit 0, CCLRA, is a
/// setting).
const FLAGS: u8 = INPUT_CAPTURE | 1 << 3 | 1 << 2 | OVERFLOW;

/// What to write to `FTCSR`, read as `status`, to clear `flag` and no other: a 1 written to
/// every other flag. A Saturn clears a flag only when a 0 is written to it after it was read
/// as 1, and ignores a 1 (SH7604 manual, FTCSR), as Mednafen does; Yabause clears every flag
/// a 0 is written to, so a flag raised between the read and the write was lost (the other
/// CPU's wake-up, or a turn of the counter: the bench's clock then ran 65,536 counts late).
pub const fn clearing(status: u8, flag: u8) -> u8 {
    (status | FLAGS) & !flag
}

/// The free-running timer's registers (on chip, at `0xFFFFFE10`; bytes).
#[repr(C)]
pub struct FrtRegisters {
    /// Timer interrupt enable.
    pub tier: volatile_register::RW<u8>,
    /// Control and status.
    pub ftcsr: volatile_register::RW<u8>,
    /// The counter, high byte (reading it latches the low byte).
    pub frc_high: volatile_register::RW<u8>,
    /// The counter, low byte.
    pub frc_low: volatile_register::RW<u8>,
    /// Output compare, high byte.
    pub ocr_high: volatile_register::RW<u8>,
    /// Output compare, low byte.
    pub ocr_low: volatile_register::RW<u8>,
    /// Timer control: the clock divider in bits 1-0.
    pub tcr: volatile_register::RW<u8>,
    /// Timer output compare control.
    pub tocr: volatile_register::RW<u8>,
    /// Input capture, high byte.
    pub icr_high: volatile_register::RO<u8>,
    /// Input capture, low byte.
    pub icr_low: volatile_register::RO<u8>,
}

const _: () = assert!(core::mem::size_of::<FrtRegisters>() == 10);
const _: () = assert!(core::mem::offset_of!(FrtRegisters, frc_high) == 0x02);
const _: () = assert!(core::mem::offset_of!(FrtRegisters, tcr) == 0x06);
const _: () = assert!(core::mem::offset_of!(FrtRegisters, icr_low) == 0x09);

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::hw::vdp2::{ScreenWidth::*, VideoStandard::*};
    use crate::{check, check_eq};

    crate::test_suite! {
        fn clocks_of_both_standards_and_widths() {
            check_eq!(cpu_clock(Ntsc, W320), 26_874_100);
            check_eq!(cpu_clock(Ntsc, W352), 28_636_360);
            check_eq!(cpu_clock(Pal, W320), 26_687_500);
            check_eq!(cpu_clock(Pal, W352), 28_437_500);
            // The 320-pixel clock is the 352-pixel one times 61 / 65 (PAL's exactly, NTSC's
            // figures are rounded).
            for standard in [Ntsc, Pal] {
                let (slow, fast) = (cpu_clock(standard, W320), cpu_clock(standard, W352));
                check!((u64::from(fast) * 61 / 65).abs_diff(u64::from(slow)) < 50);
            }
            check_eq!(u64::from(PAL_CPU_CLOCK_352) * 61 % 65, 0);
        }

        fn fields_in_cycles_and_timer_counts() {
            check_eq!(field_cycles(Ntsc, W320), 449_204);
            check_eq!(field_cycles(Ntsc, W352), 478_660);
            check_eq!(field_cycles(Pal, W320), 534_604);
            check_eq!(field_cycles(Pal, W352), 569_660);
            check_eq!(field_counts(Ntsc, W320, Divider::By32), 14_038);
            check_eq!(field_counts(Ntsc, W352, Divider::By128), 3_740);
            check_eq!(field_counts(Pal, W352, Divider::By128), 4_450);
            check_eq!(field_counts(Pal, W320, Divider::By8), 66_826);
            check_eq!(fields_per_1000_seconds(Ntsc), 59_826);
            check_eq!(fields_per_1000_seconds(Pal), 49_920);
        }

        fn clearing_a_flag_leaves_one_raised_after_the_read() {
            // A write to FTCSR (`current` when written, `read` before), by each rule: Yabause
            // clears every flag written 0; a Saturn (and Mednafen) only those also read as 1.
            let yabause = |current: u8, written: u8| current & written & 0xFE | written & 1;
            let saturn = |current: u8, read: u8, written: u8| {
                current & (written | !read) & FLAGS | written & 1
            };
            for (read, flag, raised) in [
                (OVERFLOW, OVERFLOW, INPUT_CAPTURE),
                (INPUT_CAPTURE, INPUT_CAPTURE, OVERFLOW),
                (0, INPUT_CAPTURE, OVERFLOW),
            ] {
                let written = clearing(read, flag);
                check_eq!(yabause(read | raised, written), raised);
                check_eq!(saturn(read | raised, read, written), raised);
            }
            // CCLRA (bit 0), a setting, is written back as it was read.
            check_eq!(clearing(0x03, OVERFLOW) & 1, 1);
            check_eq!(clearing(0x02, OVERFLOW) & 1, 0);
        }

        fn tvstat_says_the_standard() {
            check_eq!(VideoStandard::from_tvstat(0), Ntsc);
            // VBlank and HBlank (bits 3 and 2) and the odd field (bit 1) do not count.
            check_eq!(VideoStandard::from_tvstat(0x000E), Ntsc);
            check_eq!(VideoStandard::from_tvstat(0x0001), Pal);
            check_eq!(VideoStandard::from_tvstat(0x020B), Pal);
            check_eq!(Pal.lines_per_field(), 313);
            check_eq!(Ntsc.name(), "NTSC");
        }
    }
}

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::*;

    const FRT: usize = 0xFFFF_FE10;

    /// The timer's registers.
    pub fn frt() -> &'static FrtRegisters {
        // SAFETY: the on-chip block is at this address for the whole program.
        unsafe { &*(FRT as *const FrtRegisters) }
    }

    /// Starts the counter at 0, counting CPU clocks / `divider`.
    pub fn start(divider: Divider) {
        let frt = frt();
        // SAFETY: the timer's registers, owned by the program; the high byte is written
        // first (it goes to a latch the low byte's write commits).
        unsafe {
            frt.tcr.write(divider as u8);
            frt.frc_high.write(0);
            frt.frc_low.write(0);
        }
    }

    /// Whether the counter wrapped since the last call (or since `start`), clearing the
    /// flag: with [`count`], it measures spans of up to two turns of the counter.
    pub fn wrapped() -> bool {
        let frt = frt();
        let status = frt.ftcsr.read();
        if status & OVERFLOW == 0 {
            return false;
        }
        // SAFETY: the flag is cleared by writing 0 to it after reading it as 1.
        unsafe { frt.ftcsr.write(clearing(status, OVERFLOW)) };
        true
    }

    /// Clears the input capture flag (this CPU's own timer's), leaving the others.
    pub fn clear_input_capture() {
        let frt = frt();
        // SAFETY: this CPU's own timer; only the flag read as 1 is cleared.
        unsafe { frt.ftcsr.write(clearing(frt.ftcsr.read(), INPUT_CAPTURE)) };
    }

    /// Whether an input capture happened since the flag was cleared.
    pub fn input_captured() -> bool {
        frt().ftcsr.read() & INPUT_CAPTURE != 0
    }

    /// The counter (wraps at 65,536).
    pub fn count() -> u16 {
        let frt = frt();
        loop {
            // Reading the high byte latches the low one, read next. An emulator that reads
            // both live may carry into the high byte between the two, giving a count up to
            // 255 too low (in Yabause the bench once read a time 251 counts before the one
            // read before it): then read again.
            let high = frt.frc_high.read();
            let low = frt.frc_low.read();
            if frt.frc_high.read() == high {
                return u16::from(high) << 8 | u16::from(low);
            }
        }
    }
}
