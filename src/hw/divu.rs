//! The SH-2's division unit (on chip): a 64 / 32-bit signed division in about 39 cycles,
//! in place of libgcc's software 64-bit division. `math::div_64_32` uses it in SH-2
//! builds that run on a Saturn (not under qemu, which has no such unit: the `soft-divide`
//! feature keeps the software division there). The transform keeps a division in the
//! unit from one point to the next: an interrupt handler that divides with it while the
//! engine runs replaces the result the engine reads next, and cannot restore it (writing
//! the dividend starts a division; reading the quotient waits for it). Handlers must not
//! use the unit while the engine runs (docs/c.md says so to C hosts).

use volatile_register::RW;

/// The division unit's registers (at `0xFFFFFF00`).
#[repr(C)]
pub struct DivuRegisters {
    /// The divisor.
    pub dvsr: RW<u32>,
    /// A 32-bit dividend (writing it starts a 32 / 32 division).
    pub dvdnt: RW<u32>,
    /// Control: the overflow flag in bit 0.
    pub dvcr: RW<u32>,
    /// The interrupt vector number.
    pub vcrdiv: RW<u32>,
    /// The 64-bit dividend's high word; the remainder after a division.
    pub dvdnth: RW<u32>,
    /// The 64-bit dividend's low word (writing it starts the division); the quotient.
    pub dvdntl: RW<u32>,
}

const _: () = assert!(core::mem::size_of::<DivuRegisters>() == 0x18);
const _: () = assert!(core::mem::offset_of!(DivuRegisters, dvcr) == 0x08);
const _: () = assert!(core::mem::offset_of!(DivuRegisters, dvdnth) == 0x10);
const _: () = assert!(core::mem::offset_of!(DivuRegisters, dvdntl) == 0x14);

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::DivuRegisters;

    const DIVU: usize = 0xFFFF_FF00;

    /// The division unit's registers.
    pub fn divu() -> &'static DivuRegisters {
        // SAFETY: the on-chip unit is at this address for the whole program.
        unsafe { &*(DIVU as *const DivuRegisters) }
    }

    /// Starts `dividend / divisor` (see [`quotient`]): the unit divides while the CPU goes
    /// on with other work.
    #[inline(always)]
    pub fn start(dividend: i64, divisor: i32) {
        let divu = divu();
        // SAFETY: the unit's registers, used by this module only (no interrupt handler
        // divides: the engine installs none).
        unsafe {
            divu.dvsr.write(divisor as u32);
            divu.dvdnth.write((dividend >> 32) as u32);
            divu.dvdntl.write(dividend as u32);
        }
    }

    /// The quotient of the division [`start`]ed last, truncated toward zero; it must fit
    /// in an `i32` (divisor not 0). Reading it waits for the unit (the CPU stalls).
    #[inline(always)]
    pub fn quotient() -> i32 {
        divu().dvdntl.read() as i32
    }
}
