//! The Saturn's hardware, one module a chip as libyaul has one header a chip: [`vdp1`]
//! (registers, VRAM writes by CPU or SCU DMA: `SaturnVram`), [`vdp2`] (registers, the
//! display set-up, the VBlank wait), [`scu`], [`cd`], [`smpc`], [`frt`], [`divu`],
//! [`slave`], `backup_ram`. Every register block has its fields' offsets asserted at
//! compile time. The only module with volatile accesses or fixed addresses; everything
//! else in the crate is plain Rust tested on the host. The functions that touch hardware
//! exist only in the SH-2 build (`jom_sh2`), and nothing here uses the modules above it
//! (drawing, animation, the file format).

#[cfg(jom_sh2)]
pub mod backup_ram;
pub mod cd;
#[cfg(jom_sh2)]
pub(crate) mod cull;
pub mod divu;
#[cfg(jom_sh2)]
pub(crate) mod emit;
pub mod frt;
#[cfg(jom_sh2)]
pub mod matrix;
pub mod scu;
pub mod slave;
pub mod smpc;
#[cfg(jom_sh2)]
pub(crate) mod sort;
#[cfg(jom_sh2)]
pub mod transform;
pub mod vdp1;
pub mod vdp2;

/// Where the blocks and memories are (cache-through addresses).
pub mod address {
    /// VDP1 VRAM (512 KiB).
    pub const VDP1_VRAM: usize = 0x25C0_0000;
    /// VDP1 registers.
    pub const VDP1_REGISTERS: usize = 0x25D0_0000;
    /// VDP2 VRAM (512 KiB).
    pub const VDP2_VRAM: usize = 0x25E0_0000;
    /// VDP2 registers.
    pub const VDP2_REGISTERS: usize = 0x25F8_0000;
    /// The back screen colour's place in VDP2 VRAM (the last word of bank B1).
    pub const BACK_SCREEN: usize = 0x25E7_FFFE;
}

/// A wait on hardware that did not end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeout {
    /// What was waited for.
    pub waiting_for: &'static str,
}

impl core::fmt::Display for Timeout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "timed out waiting for {}", self.waiting_for)
    }
}

impl core::error::Error for Timeout {}

#[cfg(jom_sh2)]
pub use saturn::*;
#[cfg(jom_sh2)]
pub use vdp1::{SaturnVram, DMA_MIN_BYTES};
#[cfg(jom_sh2)]
pub use vdp2::{init_display, wait_vblank};

#[cfg(jom_sh2)]
mod saturn {
    extern "C" {
        fn jom_mask_interrupts();
    }

    /// Masks every interrupt (SR level 15): a program that installs no handler calls it
    /// first, so that nothing the BIOS left enabled jumps into unknown code.
    pub fn mask_interrupts() {
        // SAFETY: writes only SR (rt/crt0.S), which the program owns.
        unsafe { jom_mask_interrupts() }
    }
}
