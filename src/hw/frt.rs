//! The SH-2's free-running timer (on chip): a 16-bit counter of CPU clocks / 8, 32 or 128,
//! to measure how long the engine's work takes.

/// The master SH-2's clock in the 320-pixel NTSC modes (Hz).
pub const CPU_CLOCK_320: u32 = 26_874_100;
/// The master SH-2's clock in the 352-pixel NTSC modes (Hz), after the SMPC's clock change
/// (`smpc::change_clock`): both SH-2s, the VDPs and the SCU run 6.6% faster.
pub const CPU_CLOCK_352: u32 = 28_636_360;

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

    /// `FTCSR` bit 1: the counter went from 0xFFFF to 0 since the flag was cleared.
    const OVERFLOW: u8 = 1 << 1;

    /// Whether the counter wrapped since the last call (or since `start`), clearing the
    /// flag: with [`count`], it measures spans of up to two turns of the counter.
    pub fn wrapped() -> bool {
        let frt = frt();
        let status = frt.ftcsr.read();
        if status & OVERFLOW == 0 {
            return false;
        }
        // SAFETY: the flag is cleared by writing 0 to it after reading it as 1.
        unsafe { frt.ftcsr.write(status & !OVERFLOW) };
        true
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
