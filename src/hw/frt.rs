//! The SH-2's free-running timer (on chip): a 16-bit counter of CPU clocks / 8, 32 or 128,
//! to measure how long the engine's work takes.

/// The master SH-2's clock in the 320-pixel NTSC modes (Hz).
pub const CPU_CLOCK_320: u32 = 26_874_100;

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

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::*;

    const TCR: usize = 0xFFFF_FE16;
    const FRC_HIGH: usize = 0xFFFF_FE12;
    const FRC_LOW: usize = 0xFFFF_FE13;

    /// Starts the counter at 0, counting CPU clocks / `divider`.
    pub fn start(divider: Divider) {
        // SAFETY: the on-chip timer's registers, owned by the program; the high byte is
        // written first (it goes to a latch the low byte's write commits).
        unsafe {
            core::ptr::write_volatile(TCR as *mut u8, divider as u8);
            core::ptr::write_volatile(FRC_HIGH as *mut u8, 0);
            core::ptr::write_volatile(FRC_LOW as *mut u8, 0);
        }
    }

    /// The counter (wraps at 65,536).
    pub fn count() -> u16 {
        // SAFETY: reading the high byte latches the low one, read next.
        unsafe {
            let high = core::ptr::read_volatile(FRC_HIGH as *const u8);
            let low = core::ptr::read_volatile(FRC_LOW as *const u8);
            u16::from(high) << 8 | u16::from(low)
        }
    }
}
