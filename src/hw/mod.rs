//! The Saturn's hardware, one module a chip as libyaul has one header a chip: [`vdp1`]
//! (registers, VRAM writes by CPU or SCU DMA: `SaturnVram`), [`vdp2`] (registers, the
//! video standard, the display set-up, the VBlank wait), [`text`] (a VDP2 layer of debug
//! text), [`floor`] (the VDP2's floor and sky, following the camera), [`scu`], [`cd`], [`smpc`],
//! [`frt`] (the timer, the clocks and fields of both standards), [`divu`], [`vblank`] (the
//! master's VBlank-IN interrupt),
//! [`slave`], `backup_ram`, `stack` (the master's, painted and measured), [`usb_cart`]
//! (text to a PC through the USB dev cart). Every register block has its fields' offsets asserted at
//! compile time. The only module with volatile accesses or fixed addresses; everything
//! else in the crate is plain Rust tested on the host. The functions that touch hardware
//! exist only in the SH-2 build (`jom_sh2`), and nothing here uses the modules above it
//! (drawing, animation, the file format).

#[cfg(jom_sh2)]
pub mod backup_ram;
pub mod cd;
pub mod divu;
pub mod floor;
pub mod frt;
pub mod scu;
pub mod slave;
pub mod smpc;
#[cfg(jom_sh2)]
pub mod stack;
pub mod text;
pub mod usb_cart;
pub mod vblank;
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
    /// VDP2 colour RAM (4 KiB).
    pub const VDP2_CRAM: usize = 0x25F0_0000;
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

pub use vdp1::{SaturnVram, DMA_MIN_BYTES};
pub use vdp2::{ScreenWidth, VideoStandard};

/// The Saturn's hardware that a program owns, handed out once at start-up:
/// [`entry!`](crate::entry) builds it and gives it to the game's `main`, which takes out
/// the parts it uses (each exists once, so nothing else can write VDP1 VRAM, start the
/// slave or read the CD behind its back).
///
/// ```no_run
/// #![no_main]
/// use jom::hw::Saturn;
///
/// jom::entry!(main);
///
/// fn main(saturn: Saturn) -> ! {
///     let Saturn { vram, slave, cd } = saturn;
///     // SH-2 builds: `let worker = slave.start()?;` (a `Worker` for the renderer), the
///     // disc: `Iso9660::open(cd.sectors()?)?`, `vram`: the renderer's target.
///     # let _ = (vram, slave, cd);
///     loop {}
/// }
/// ```
pub struct Saturn {
    /// VDP1 VRAM.
    pub vram: SaturnVram,
    /// The slave SH-2, to start (`SlaveCpu::start`).
    pub slave: slave::SlaveCpu,
    /// The CD drive (`CdDrive::sectors`: the disc as a sector source).
    pub cd: cd::CdDrive,
}

impl Saturn {
    /// The parts of the Saturn.
    ///
    /// # Safety
    ///
    /// No two values made by this are alive at once (each part stands for hardware that
    /// one owner drives at a time): [`entry!`](crate::entry) calls it once; a test runner
    /// may call it again for each test once the previous test's value is gone.
    #[doc(hidden)]
    pub unsafe fn new() -> Self {
        Self {
            vram: SaturnVram::new(),
            slave: slave::SlaveCpu::new(),
            cd: cd::CdDrive::new(),
        }
    }
}

/// What [`entry!`](crate::entry) runs: interrupts masked (SH-2 builds), then `main` with
/// the one [`Saturn`].
///
/// # Safety
///
/// Called once, by the program's entry point, before anything else runs.
#[doc(hidden)]
pub unsafe fn start(main: fn(Saturn) -> !) -> ! {
    #[cfg(jom_sh2)]
    mask_interrupts();
    // SAFETY: this runs once (the caller's contract), so this is the only `Saturn`.
    main(unsafe { Saturn::new() })
}

/// Defines the program's entry point (`main`, which the start-up code `rt/crt0.S` calls)
/// and hands the game's `fn main(saturn: jom::hw::Saturn) -> !` the one
/// [`Saturn`](crate::hw::Saturn), interrupts masked, as `#[agb::entry]` does on the GBA.
/// For a `#![no_main]` program; see [`Saturn`](crate::hw::Saturn) for an example.
#[macro_export]
macro_rules! entry {
    ($main:path) => {
        #[export_name = "main"]
        extern "C" fn __jom_entry() -> ! {
            // SAFETY: the start-up code calls `main` once, before anything else runs.
            unsafe { $crate::hw::start($main) }
        }
    };
}

/// Defines the program's panic handler: the back screen turned to the RGB555 `colour` (a
/// red, `0x801F`, says "something failed" from across the room and in a screenshot), then
/// the CPU stopped there. For a `#![no_std]` program that has no handler of its own.
#[macro_export]
macro_rules! panic_screen {
    ($colour:expr) => {
        #[panic_handler]
        fn __jom_panic(_: &core::panic::PanicInfo<'_>) -> ! {
            $crate::hw::init_display($colour);
            loop {}
        }
    };
}

#[cfg(jom_sh2)]
pub use saturn::*;
#[cfg(jom_sh2)]
pub use vdp2::{
    hblank_started, init_display, init_display_at, vblank_ended, video_standard, wait_next_hblank,
    wait_vblank, wait_vblank_end, wait_vblank_ended, watch_hblank_start, watch_vblank_end,
};

#[cfg(jom_sh2)]
mod saturn {
    extern "C" {
        fn jom_mask_interrupts();
    }

    use super::scu::{ims, scu};

    /// Masks every interrupt (SR level 15, and every SCU interrupt in `IMS`): a program
    /// that installs no handler calls it first, so that nothing the BIOS left enabled jumps
    /// into unknown code. The SCU still flags each interrupt in `IST` (Yabause only flags a
    /// masked one), which is how the renderer knows of a VBlank's end it did not wait for.
    pub fn mask_interrupts() {
        // SAFETY: writes only SR (rt/interrupts.S) and the SCU's mask, which the program owns.
        unsafe {
            jom_mask_interrupts();
            scu().ims.write(ims::MASK_ALL);
        }
        super::vblank::disabled();
    }
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::slave::SlaveError;
    use super::Timeout;
    use crate::check_message;

    crate::test_suite! {
        fn timeouts_say_what_was_waited_for() {
            let timeout = Timeout { waiting_for: "VBlank" };
            check_message!(timeout, "timed out waiting for VBlank");
            let smpc = Timeout { waiting_for: "the SMPC" };
            check_message!(
                SlaveError::Smpc(smpc),
                "slave SH-2: SMPC: timed out waiting for the SMPC"
            );
            check_message!(SlaveError::NoAnswer, "the slave SH-2 did not answer after SSHON");
        }
    }
}
