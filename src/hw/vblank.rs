//! The master SH-2's VBlank-IN interrupt: one function run at the start of every vertical
//! blanking interval, whatever the CPU is doing (the floor's switch to the tables that go
//! with the picture the next field shows: [`hw::floor`](crate::hw::floor)), and the count
//! of the fields (`fields`: the renderer's commit reads it to say which field its list
//! shows from, `hw::vdp1::last_flip`). The engine's only interrupt; every other stays
//! masked.
//!
//! # What it owns
//!
//! - **VBR** of the master, pointed at a table of the engine's: the vectors of the table
//!   VBR pointed at before (the BIOS's or the boot ROM's), but the VBlank-IN vector (0x40,
//!   which the SCU gives) pointing at `vblank.S`'s handler;
//! - **SR**'s interrupt mask at 14, so that only level 15 (VBlank-IN, the NMI) comes;
//! - **ICR**'s `VECMD` set: the CPU fetches an interrupt's vector from the SCU (the
//!   BIOS's mode; our boot ROM leaves the reset's auto-vectors). The fetch is also the
//!   SCU's acknowledgement: it drops its request and masks every interrupt in `IMS`, which
//!   the handler unmasks again (with auto-vectors the request never drops: Mednafen's
//!   `scu.inc` re-interrupts at every `RTE`);
//! - **IMS**'s VBlank-IN bit (every other SCU interrupt masked, as `hw::mask_interrupts`
//!   leaves them) and **IST**'s VBlank-IN flag, cleared at each interrupt;
//! - **the field count**, one more at each interrupt (`vblank.S`), from the first
//!   `enable` until `hw::mask_interrupts` masks the interrupt again.
//!
//! The handler runs on the interrupted code's stack: its function must be short and must
//! not touch what the interrupted code may be using, the division unit included
//! ([`hw::divu`](crate::hw::divu)): the floor's counts the field, compares two words of
//! its own and, when another floor is due, writes two VDP2 registers.

#[cfg(jom_sh2)]
pub(crate) use saturn::{disabled, swap_sr, SR_MASKED};
#[cfg(jom_sh2)]
pub use saturn::{enable, enabled, fields};

#[cfg(jom_sh2)]
mod saturn {
    use crate::hw::scu::{ims, ist, scu};
    use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

    extern "C" {
        /// `vblank.S`: saves the registers, clears the flag, calls `jom_vblank_in_handler`,
        /// unmasks VBlank-IN again.
        fn jom_vblank_in_interrupt();
        static mut jom_vblank_in_handler: Option<extern "C" fn()>;
        /// The VBlank-INs counted (`vblank.S`, with the flag's clearing).
        static mut jom_vblank_fields: u32;
        fn jom_vbr() -> u32;
        fn jom_swap_vbr(vbr: u32) -> u32;
        fn jom_swap_sr(sr: u32) -> u32;
    }

    /// SR = `sr`; gives the SR before (`vblank.S`).
    ///
    /// # Safety
    ///
    /// `sr` is an SR the caller may run with: S, T, M and Q clear outside the assembly
    /// that sets them, an interrupt mask whose interrupts have their vectors.
    pub(crate) unsafe fn swap_sr(sr: u32) -> u32 {
        // SAFETY: the caller's contract.
        unsafe { jom_swap_sr(sr) }
    }

    /// Vectors of the table copied (the exceptions and every interrupt vector the SCU
    /// gives: 0x40 to 0x5F).
    const VECTORS: usize = 0x60;
    /// The SCU's VBlank-IN vector.
    const VBLANK_IN_VECTOR: usize = 0x40;
    /// The SH-2's interrupt control register (16 bits, on chip).
    const ICR: usize = 0xFFFF_FEE0;
    /// `ICR`'s `VECMD`: interrupt vectors fetched from outside (the SCU).
    const VECMD: u16 = 1 << 0;
    /// SR with every interrupt masked (`rt/interrupts.S`'s value; the NMI still comes).
    pub(crate) const SR_MASKED: u32 = 0xF0;
    /// SR with interrupts up to level 14 masked: level 15 (VBlank-IN) comes.
    const SR_LEVEL_15: u32 = 0xE0;

    /// The engine's vector table (VBR needs no more than a long word's alignment).
    static mut TABLE: [u32; VECTORS] = [0; VECTORS];

    /// Whether the interrupt runs: set by [`enable`], cleared by `hw::mask_interrupts`.
    static mut ENABLED: bool = false;

    /// Whether the VBlank-IN interrupt runs (and so [`fields`] counts).
    pub fn enabled() -> bool {
        // SAFETY: a byte written only by the main program (`enable`, `disabled`).
        unsafe { read_volatile(addr_of!(ENABLED)) }
    }

    /// The interrupt is masked again (`hw::mask_interrupts`).
    pub(crate) fn disabled() {
        // SAFETY: as in `enabled`.
        unsafe { write_volatile(addr_of_mut!(ENABLED), false) }
    }

    /// The VBlank-INs so far (wrapping), while [`enabled`]: those the interrupt has
    /// counted, and one more when the SCU has flagged one whose interrupt has not run yet
    /// (the few cycles between a VBlank-IN and its handler's start, or with SR masking it),
    /// so that a VBlank-IN counts from the moment it comes. The count and the flag are read
    /// with no interrupt between them.
    pub fn fields() -> u32 {
        // SAFETY: a word the interrupt writes whole.
        let counted = || unsafe { read_volatile(addr_of!(jom_vblank_fields)) };
        loop {
            let before = counted();
            let pending = scu().ist.read() & ist::VBLANK_IN != 0;
            if counted() == before {
                return before.wrapping_add(u32::from(pending));
            }
        }
    }

    /// Runs `handler` at every VBlank-IN from now on (on the master; again with another
    /// `handler`, that one instead). Interrupts are masked while the vectors change.
    pub fn enable(handler: extern "C" fn()) {
        // SAFETY: SR, VBR, IMS and IST are this module's (see the module's documentation);
        // the table is written with every interrupt masked, then VBR pointed at it; the
        // handler is set before the interrupt is unmasked.
        unsafe {
            swap_sr(SR_MASKED);
            let table = addr_of_mut!(TABLE) as *mut u32;
            let current = jom_vbr() as *const u32;
            if current != table as *const u32 {
                for i in 0..VECTORS {
                    write_volatile(table.add(i), read_volatile(current.add(i)));
                }
            }
            let interrupt = jom_vblank_in_interrupt as *const () as usize as u32;
            write_volatile(table.add(VBLANK_IN_VECTOR), interrupt);
            write_volatile(addr_of_mut!(jom_vblank_in_handler), Some(handler));
            jom_swap_vbr(addr_of!(TABLE) as u32);
            let icr = ICR as *mut u16;
            write_volatile(icr, read_volatile(icr) | VECMD);
            // A VBlank-IN flagged while masked would come at once, mid-display.
            scu().ist.write(!ist::VBLANK_IN);
            scu().ims.write(ims::MASK_ALL & !ims::VBLANK_IN);
            write_volatile(addr_of_mut!(ENABLED), true);
            swap_sr(SR_LEVEL_15);
        }
    }
}
