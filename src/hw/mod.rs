//! The Saturn's hardware: the register blocks of VDP1 and VDP2 (every field's offset
//! asserted at compile time), their fixed addresses, the display set-up, the VBlank wait
//! and [`SaturnVram`], the [`Vram`] of the real VDP1 VRAM. The only module with volatile
//! accesses or fixed addresses; everything else in the crate is plain Rust tested on the
//! host. The functions that touch hardware exist only in the SH-2 build (`jom_sh2`).

#[cfg(jom_sh2)]
pub mod backup_ram;
pub mod cd;
pub mod divu;
pub mod frt;
pub mod scu;
pub mod slave;
pub mod smpc;

use core::mem::{offset_of, size_of};
use volatile_register::{RO, RW};

/// VDP1's registers (at `0x25D00000`).
#[repr(C)]
pub struct Vdp1Registers {
    /// TV mode: 16-bit colour, no rotation (0).
    pub tvmr: RW<u16>,
    /// Frame buffer change mode.
    pub fbcr: RW<u16>,
    /// Plot trigger: 2 draws the command list at every frame change.
    pub ptmr: RW<u16>,
    /// Erase/write colour.
    pub ewdr: RW<u16>,
    /// Erase/write upper left (x / 8 in bits 14-9, y in 8-0).
    pub ewlr: RW<u16>,
    /// Erase/write lower right (x / 8 in bits 15-9, y in 8-0).
    pub ewrr: RW<u16>,
    /// Forced draw end.
    pub endr: RW<u16>,
    _reserved: u16,
    /// Transfer end status.
    pub edsr: RO<u16>,
    /// Last operation command address.
    pub lopr: RO<u16>,
    /// Current operation command address.
    pub copr: RO<u16>,
    /// Mode status.
    pub modr: RO<u16>,
}

const _: () = assert!(size_of::<Vdp1Registers>() == 0x18);
const _: () = assert!(offset_of!(Vdp1Registers, fbcr) == 0x02);
const _: () = assert!(offset_of!(Vdp1Registers, ptmr) == 0x04);
const _: () = assert!(offset_of!(Vdp1Registers, ewdr) == 0x06);
const _: () = assert!(offset_of!(Vdp1Registers, ewlr) == 0x08);
const _: () = assert!(offset_of!(Vdp1Registers, ewrr) == 0x0A);
const _: () = assert!(offset_of!(Vdp1Registers, endr) == 0x0C);
const _: () = assert!(offset_of!(Vdp1Registers, edsr) == 0x10);
const _: () = assert!(offset_of!(Vdp1Registers, modr) == 0x16);

/// The VDP2 registers this engine uses (at `0x25F80000`), with the others as reserved
/// space so that each field sits at its hardware offset.
#[repr(C)]
pub struct Vdp2Registers {
    /// TV screen mode: display on (bit 15), resolution.
    pub tvmd: RW<u16>,
    /// External signal enable.
    pub exten: RW<u16>,
    /// Screen status: VBlank in bit 3.
    pub tvstat: RO<u16>,
    _reserved_06: [u16; (0x020 - 0x006) / 2],
    /// Screen display enable (the background layers).
    pub bgon: RW<u16>,
    _reserved_22: [u16; (0x0AC - 0x022) / 2],
    /// Back screen table address, upper.
    pub bktau: RW<u16>,
    /// Back screen table address, lower.
    pub bktal: RW<u16>,
    _reserved_b0: [u16; (0x0E0 - 0x0B0) / 2],
    /// Sprite control: how the VDP1 frame buffer's pixels are read.
    pub spctl: RW<u16>,
    _reserved_e2: [u16; (0x0F0 - 0x0E2) / 2],
    /// Sprite priorities 0 and 1.
    pub prisa: RW<u16>,
    _reserved_f2: [u16; (0x120 - 0x0F2) / 2],
}

const _: () = assert!(size_of::<Vdp2Registers>() == 0x120);
const _: () = assert!(offset_of!(Vdp2Registers, tvstat) == 0x004);
const _: () = assert!(offset_of!(Vdp2Registers, bgon) == 0x020);
const _: () = assert!(offset_of!(Vdp2Registers, bktau) == 0x0AC);
const _: () = assert!(offset_of!(Vdp2Registers, bktal) == 0x0AE);
const _: () = assert!(offset_of!(Vdp2Registers, spctl) == 0x0E0);
const _: () = assert!(offset_of!(Vdp2Registers, prisa) == 0x0F0);

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

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::*;
    use crate::vdp1::Vram;

    /// `TVSTAT` bit 3: the beam is in the vertical blanking interval.
    const TVSTAT_VBLANK: u16 = 1 << 3;
    /// `TVMD`: display on, 320 x 224, non-interlaced.
    const TVMD_320X224: u16 = 0x8000;
    /// `SPCTL`: frame buffer pixels with bit 15 set are RGB, the others palette codes.
    const SPCTL_MIXED_RGB: u16 = 0x0020;
    /// `EWRR` for a 320 x 224 erase area: x / 8 = 40 in bits 15-9, y = 223.
    const EWRR_320X224: u16 = (320 / 8) << 9 | 223;
    /// How many polls of `TVSTAT` make a missed VBlank (a frame is about 100,000 polls).
    const VBLANK_POLLS: u32 = 2_000_000;

    extern "C" {
        fn jom_mask_interrupts();
    }

    /// Masks every interrupt (SR level 15): a program that installs no handler calls it
    /// first, so that nothing the BIOS left enabled jumps into unknown code.
    pub fn mask_interrupts() {
        // SAFETY: writes only SR (rt/crt0.S), which the program owns.
        unsafe { jom_mask_interrupts() }
    }

    /// VDP1's registers.
    pub fn vdp1() -> &'static Vdp1Registers {
        // SAFETY: the block is at this address on every Saturn, for the whole program.
        unsafe { &*(address::VDP1_REGISTERS as *const Vdp1Registers) }
    }

    /// VDP2's registers.
    pub fn vdp2() -> &'static Vdp2Registers {
        // SAFETY: as for `vdp1`.
        unsafe { &*(address::VDP2_REGISTERS as *const Vdp2Registers) }
    }

    /// Sets a 320 x 224 display showing the VDP1 sprite layer over a back screen of
    /// `back_color` (RGB555), and VDP1 drawing its command list (at VRAM 0) at every
    /// frame change, erasing to transparent first.
    pub fn init_display(back_color: u16) {
        let vdp2 = vdp2();
        // SAFETY (the writes below): documented register values; the back screen word
        // is in VDP2 VRAM, which the program owns.
        unsafe {
            core::ptr::write_volatile(address::BACK_SCREEN as *mut u16, back_color);
            vdp2.bktau
                .write(((address::BACK_SCREEN - address::VDP2_VRAM) >> 17) as u16);
            vdp2.bktal
                .write((((address::BACK_SCREEN - address::VDP2_VRAM) >> 1) & 0xFFFF) as u16);
            vdp2.exten.write(0);
            vdp2.bgon.write(0);
            vdp2.spctl.write(SPCTL_MIXED_RGB);
            vdp2.prisa.write(7);
            let vdp1 = vdp1();
            vdp1.tvmr.write(0);
            vdp1.fbcr.write(0);
            vdp1.ptmr.write(2);
            vdp1.ewdr.write(0);
            vdp1.ewlr.write(0);
            vdp1.ewrr.write(EWRR_320X224);
            // An empty list until the first frame is written.
            SaturnVram.write_command(0, &crate::vdp1::CommandTable::end());
            vdp2.tvmd.write(TVMD_320X224);
        }
    }

    /// Waits for the start of the next vertical blanking interval.
    pub fn wait_vblank() -> Result<(), Timeout> {
        let in_vblank = || vdp2().tvstat.read() & TVSTAT_VBLANK != 0;
        for (waiting_for, wanted) in [("the end of VBlank", false), ("VBlank", true)] {
            let mut polls = 0;
            while in_vblank() != wanted {
                polls += 1;
                if polls == VBLANK_POLLS {
                    return Err(Timeout { waiting_for });
                }
            }
        }
        Ok(())
    }

    /// The real VDP1 VRAM. Writes of [`DMA_MIN_BYTES`] or more from high work RAM (4-byte
    /// aligned, to a 4-byte-aligned address) go by SCU DMA ([`scu::dma_to_vdp1`]); the
    /// others, and any the DMA refuses or does not finish, by the CPU 16 bits at a time.
    pub struct SaturnVram;

    /// The smallest write [`SaturnVram`] sends by SCU DMA (the register set-up and the
    /// wait cost about as much as the CPU writing a few dozen words).
    pub const DMA_MIN_BYTES: usize = 256;

    impl SaturnVram {
        /// Writes `bytes` at `address` by the CPU, 16 bits at a time.
        pub fn write_by_cpu(&mut self, address: u32, bytes: &[u8]) {
            let base = address::VDP1_VRAM + address as usize;
            let mut words = bytes.chunks_exact(2);
            for (i, word) in words.by_ref().enumerate() {
                let value = u16::from_be_bytes([word[0], word[1]]);
                // SAFETY: inside VDP1 VRAM (addresses come from a `VramLayout` within it).
                unsafe { core::ptr::write_volatile((base + 2 * i) as *mut u16, value) };
            }
            if let [last] = words.remainder() {
                // SAFETY: as above; VDP1 VRAM takes byte writes too.
                unsafe { core::ptr::write_volatile((base + bytes.len() - 1) as *mut u8, *last) };
            }
        }

        /// Writes `bytes` at `address` by SCU DMA when it is large enough and the DMA can
        /// read it; gives `false` (nothing written) otherwise.
        fn write_by_dma(&mut self, address: u32, bytes: &[u8]) -> bool {
            bytes.len() >= DMA_MIN_BYTES && scu::dma_to_vdp1(bytes, address).is_ok()
        }
    }

    impl Vram for SaturnVram {
        fn write(&mut self, address: u32, bytes: &[u8]) {
            if !self.write_by_dma(address, bytes) {
                self.write_by_cpu(address, bytes);
            }
        }

        /// The tables as they are in memory: on the big-endian SH-2 a `#[repr(C)]`
        /// [`CommandTable`](crate::vdp1::CommandTable) of 16-bit fields is exactly the 32
        /// bytes the VDP1 reads, so the whole array goes in one DMA when it can.
        fn write_commands(&mut self, address: u32, tables: &[crate::vdp1::CommandTable]) {
            #[cfg(target_endian = "big")]
            {
                // SAFETY: `CommandTable` is `#[repr(C)]`, 32 bytes of 16-bit fields with
                // no padding (asserted in vdp1::command): every byte is initialised.
                let bytes = unsafe {
                    core::slice::from_raw_parts(
                        tables.as_ptr().cast::<u8>(),
                        core::mem::size_of_val(tables),
                    )
                };
                if self.write_by_dma(address, bytes) {
                    return;
                }
            }
            for (i, table) in tables.iter().enumerate() {
                self.write_command(address + 32 * i as u32, table);
            }
        }
    }

    /// The renderer's frame change: the start of the next VBlank, when the VDP1 starts
    /// drawing the list it was given (docs/renderer.md).
    impl crate::vdp1::Vdp1 for SaturnVram {
        fn wait_frame_change(&mut self) -> Result<(), crate::vdp1::FrameTimeout> {
            wait_vblank().map_err(|t| crate::vdp1::FrameTimeout {
                waiting_for: t.waiting_for,
            })
        }
    }
}
