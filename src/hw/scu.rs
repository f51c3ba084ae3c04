//! The SCU (System Control Unit): its register block (every used field's offset asserted at
//! compile time) and `dma_to_vdp1` (SH-2 builds), an upload from high work RAM to VDP1
//! VRAM by SCU DMA level 0 (also started and waited for apart: `start_dma_to_vdp1`,
//! `wait_dma_to_vdp1`).
//!
//! A direct-mode DMA level is six 32-bit registers: read address, write address, byte
//! count, address add values (read: +4 or 0 in bit 8; write: 0, 2, 4, ... 128 bytes in bits
//! 2-0), enable (bit 8 enables the level, bit 0 starts it when the start factor is "by
//! register") and mode (indirect in bit 24, address update in bits 16 and 8, start factor
//! in bits 2-0, 7 = by register). Level 0 moves up to 1 MiB, levels 1 and 2 up to 4 KiB.
//! `DSTA` tells which levels are running; `IST` holds the interrupt flags (a level-0 DMA
//! end sets bit 11), `IMS` masks them.
//!
//! Limits from the SCU manual that this module keeps to: the SCU cannot reach low work RAM
//! (only the 1 MiB of high work RAM, the A-bus and the B-bus), a transfer goes between two
//! different buses (high work RAM -> B-bus here), and the write add value for the B-bus
//! (VDP1, VDP2, SCSP) is 2 bytes: each 32-bit read is written as two 16-bit words.
//!
//! The address checks are plain Rust, tested on the host; the functions that touch the SCU
//! exist only in the SH-2 build (`jom_sh2`).

use super::Timeout;
use core::fmt;
use core::mem::{offset_of, size_of};
use volatile_register::{RO, RW};

/// One DMA level's registers (level 0 at `0x25FE0000`, 1 at `+0x20`, 2 at `+0x40`).
#[repr(C)]
pub struct DmaLevelRegisters {
    /// `DnR`: read (source) address, bits 26-0.
    pub read: RW<u32>,
    /// `DnW`: write (destination) address, bits 26-0.
    pub write: RW<u32>,
    /// `DnC`: byte count (level 0: 20 bits, 0 = 1 MiB; levels 1 and 2: 12 bits).
    pub count: RW<u32>,
    /// `DnAD`: address add values (read in bit 8, write in bits 2-0).
    pub add: RW<u32>,
    /// `DnEN`: enable (bit 8) and start (bit 0).
    pub enable: RW<u32>,
    /// `DnMD`: mode (indirect bit 24, address updates bits 16 and 8, start factor bits 2-0).
    pub mode: RW<u32>,
    _reserved: [u32; 2],
}

const _: () = assert!(size_of::<DmaLevelRegisters>() == 0x20);
const _: () = assert!(offset_of!(DmaLevelRegisters, read) == 0x00);
const _: () = assert!(offset_of!(DmaLevelRegisters, write) == 0x04);
const _: () = assert!(offset_of!(DmaLevelRegisters, count) == 0x08);
const _: () = assert!(offset_of!(DmaLevelRegisters, add) == 0x0C);
const _: () = assert!(offset_of!(DmaLevelRegisters, enable) == 0x10);
const _: () = assert!(offset_of!(DmaLevelRegisters, mode) == 0x14);

/// The SCU registers this engine uses (at [`address::REGISTERS`]), with the others (the
/// DSP, the timers, the A-bus set-up) as reserved space so that each field sits at its
/// hardware offset.
#[repr(C)]
pub struct ScuRegisters {
    /// DMA levels 0, 1 and 2.
    pub dma: [DmaLevelRegisters; 3],
    /// `DSTP`: DMA force-stop (bit 0 stops every level).
    pub dstp: RW<u32>,
    _reserved_64: [u32; (0x7C - 0x64) / 4],
    /// `DSTA`: DMA status ([`dsta`] bits).
    pub dsta: RO<u32>,
    _reserved_80: [u32; (0xA0 - 0x80) / 4],
    /// `IMS`: interrupt mask (a 1 bit masks that interrupt).
    pub ims: RW<u32>,
    /// `IST`: interrupt status ([`ist`] bits; writing 0 to a bit clears it, 1 keeps it).
    pub ist: RW<u32>,
    _reserved_a8: [u32; (0xD0 - 0xA8) / 4],
}

const _: () = assert!(size_of::<ScuRegisters>() == 0xD0);
const _: () = assert!(offset_of!(ScuRegisters, dma) == 0x00);
const _: () = assert!(offset_of!(ScuRegisters, dma) + size_of::<DmaLevelRegisters>() == 0x20);
const _: () = assert!(offset_of!(ScuRegisters, dma) + 2 * size_of::<DmaLevelRegisters>() == 0x40);
const _: () = assert!(offset_of!(ScuRegisters, dstp) == 0x60);
const _: () = assert!(offset_of!(ScuRegisters, dsta) == 0x7C);
const _: () = assert!(offset_of!(ScuRegisters, ims) == 0xA0);
const _: () = assert!(offset_of!(ScuRegisters, ist) == 0xA4);

/// Where the SCU and the memories its DMA reads are.
pub mod address {
    /// The SCU registers (cache-through).
    pub const REGISTERS: usize = 0x25FE_0000;
    /// High work RAM, the only work RAM SCU DMA reaches, through the cache.
    pub const HIGH_WORK_RAM: usize = 0x0600_0000;
    /// High work RAM through the cache-through area.
    pub const HIGH_WORK_RAM_UNCACHED: usize = 0x2600_0000;
    /// High work RAM's size.
    pub const HIGH_WORK_RAM_SIZE: usize = 0x10_0000;
    /// What the SCU takes of an SH-2 address (bits 26-0: no cache area bits).
    pub const SCU_ADDRESS_MASK: usize = 0x07FF_FFFF;
}

/// `DnAD`, `DnEN`, `DnMD` values.
pub mod dma {
    /// `DnAD` bit 8: the read address goes up by 4 after each 32-bit read.
    pub const READ_ADD_4: u32 = 1 << 8;
    /// `DnAD` bits 2-0 = 1: the write address goes up by 2 (the B-bus is 16 bits wide).
    pub const WRITE_ADD_2: u32 = 1;
    /// `DnEN` bit 8: the level is enabled.
    pub const ENABLE: u32 = 1 << 8;
    /// `DnEN` bit 0: start (with the "by register" start factor).
    pub const START: u32 = 1 << 0;
    /// `DnMD` bits 2-0 = 7: started by writing `DnEN`; direct mode, no address update.
    pub const START_BY_REGISTER: u32 = 7;
    /// `DSTP` bit 0: stop every level.
    pub const FORCE_STOP: u32 = 1;
    /// Level 0's largest byte count (the 20-bit count, 0 meaning 1 MiB).
    pub const LEVEL0_MAX_BYTES: usize = 0x10_0000;
}

/// `DSTA` bits.
pub mod dsta {
    /// Level 0 in operation.
    pub const D0MV: u32 = 1 << 4;
    /// Level 0 on standby (started, waiting for the bus).
    pub const D0WT: u32 = 1 << 5;
    /// Level 1 in operation.
    pub const D1MV: u32 = 1 << 8;
    /// Level 1 on standby.
    pub const D1WT: u32 = 1 << 9;
    /// Level 2 in operation.
    pub const D2MV: u32 = 1 << 12;
    /// Level 2 on standby.
    pub const D2WT: u32 = 1 << 13;
    /// Level 0 interrupted by another level.
    pub const D0BK: u32 = 1 << 16;
    /// Level 1 interrupted by another level.
    pub const D1BK: u32 = 1 << 17;
    /// Level 0 busy (in operation or on standby).
    pub const LEVEL0_BUSY: u32 = D0MV | D0WT;
}

/// `IST` / `IMS` bits of the interrupts this engine looks at.
pub mod ist {
    /// The start of a vertical blanking interval (V-Blank-IN): the display's last line
    /// drawn.
    pub const VBLANK_IN: u32 = 1 << 0;
    /// The end of a vertical blanking interval (V-Blank-OUT): set by the SCU at each
    /// one, whether the interrupt is masked or not.
    pub const VBLANK_OUT: u32 = 1 << 1;
    /// The start of a horizontal blanking interval (H-Blank-IN): set at each line's.
    pub const HBLANK_IN: u32 = 1 << 2;
    /// Level 2 DMA end.
    pub const LEVEL2_DMA_END: u32 = 1 << 9;
    /// Level 1 DMA end.
    pub const LEVEL1_DMA_END: u32 = 1 << 10;
    /// Level 0 DMA end.
    pub const LEVEL0_DMA_END: u32 = 1 << 11;
    /// DMA illegal (an address the SCU cannot reach).
    pub const DMA_ILLEGAL: u32 = 1 << 12;
}

/// `IMS` values.
pub mod ims {
    /// Every interrupt masked (the SCU's value at reset).
    pub const MASK_ALL: u32 = 0xBFFF;
    /// VBlank-IN's mask bit (level 15, vector 0x40).
    pub const VBLANK_IN: u32 = 1 << 0;
}

/// Why a DMA upload was not done (the caller can write by CPU instead), or did not end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DmaError {
    /// The source is not in high work RAM (SCU DMA cannot read low work RAM nor ROM).
    NotInHighWorkRam {
        /// The source's address.
        address: usize,
    },
    /// The source address, its length or the VRAM address is not a multiple of 4.
    Unaligned {
        /// The source's address.
        address: usize,
        /// Its length in bytes.
        len: usize,
        /// The VRAM address.
        vram_address: u32,
    },
    /// The transfer would end past the end of VDP1 VRAM.
    OutsideVram {
        /// The VRAM address.
        vram_address: u32,
        /// The length in bytes.
        len: usize,
    },
    /// The DMA did not end (it was force-stopped).
    Timeout(Timeout),
}

impl From<Timeout> for DmaError {
    fn from(timeout: Timeout) -> Self {
        DmaError::Timeout(timeout)
    }
}

impl fmt::Display for DmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DmaError::NotInHighWorkRam { address } => {
                write!(f, "SCU DMA: source {address:#010x} is not in high work RAM")
            }
            DmaError::Unaligned {
                address,
                len,
                vram_address,
            } => write!(
                f,
                "SCU DMA: {len} bytes from {address:#010x} to VRAM {vram_address:#x}: \
                 addresses and length must be multiples of 4"
            ),
            DmaError::OutsideVram { vram_address, len } => {
                write!(
                    f,
                    "SCU DMA: {len} bytes at VRAM {vram_address:#x} pass the end of VDP1 VRAM"
                )
            }
            DmaError::Timeout(timeout) => write!(f, "SCU DMA: {timeout}"),
        }
    }
}

impl core::error::Error for DmaError {}

/// Checks that `len` bytes at SH-2 address `source` can go to VDP1 VRAM at `vram_address`
/// by SCU DMA: the source inside high work RAM (cached or cache-through), source, length
/// and VRAM address multiples of 4, the whole transfer inside VDP1 VRAM.
pub fn check_vdp1_upload(source: usize, len: usize, vram_address: u32) -> Result<(), DmaError> {
    let in_high_ram = |base: usize| {
        source >= base
            && source
                .checked_add(len)
                .is_some_and(|end| end <= base + address::HIGH_WORK_RAM_SIZE)
    };
    if !in_high_ram(address::HIGH_WORK_RAM) && !in_high_ram(address::HIGH_WORK_RAM_UNCACHED) {
        return Err(DmaError::NotInHighWorkRam { address: source });
    }
    if !source.is_multiple_of(4) || !len.is_multiple_of(4) || !vram_address.is_multiple_of(4) {
        return Err(DmaError::Unaligned {
            address: source,
            len,
            vram_address,
        });
    }
    let end = vram_address as usize + len;
    if end > super::vdp1::VRAM_SIZE as usize || len > dma::LEVEL0_MAX_BYTES {
        return Err(DmaError::OutsideVram { vram_address, len });
    }
    Ok(())
}

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::*;

    /// Polls of `DSTA` before a DMA is given up. Level 0 moves 512 KiB (all of VDP1 VRAM)
    /// in well under a frame; a frame is about 100,000 polls, so this is seconds.
    const DSTA_POLLS: u32 = 2_000_000;

    /// The SCU's registers.
    pub fn scu() -> &'static ScuRegisters {
        // SAFETY: the block is at this address on every Saturn, for the whole program.
        unsafe { &*(address::REGISTERS as *const ScuRegisters) }
    }

    /// Waits until DMA level 0 is neither running nor on standby.
    fn wait_level0_idle(waiting_for: &'static str) -> Result<(), Timeout> {
        let scu = scu();
        for _ in 0..DSTA_POLLS {
            if scu.dsta.read() & dsta::LEVEL0_BUSY == 0 {
                return Ok(());
            }
        }
        Err(Timeout { waiting_for })
    }

    /// Copies `source` to VDP1 VRAM at `vram_address` (a byte offset in VRAM) by SCU DMA
    /// level 0 (direct mode, started by register), and waits for the end: [`start_dma_to_vdp1`]
    /// then [`wait_dma_to_vdp1`].
    ///
    /// `source` must be in high work RAM, 4-byte aligned, its length a multiple of 4, and
    /// `vram_address` a multiple of 4 ([`check_vdp1_upload`]); otherwise nothing is done
    /// and the error says why (write by CPU instead). An empty `source` is done at once.
    /// A DMA that does not end within [`DSTA_POLLS`] polls is force-stopped (`DSTP`, which
    /// stops every level) and comes back as [`DmaError::Timeout`].
    pub fn dma_to_vdp1(source: &[u8], vram_address: u32) -> Result<(), DmaError> {
        // SAFETY: `source` stays borrowed (unchanged, alive) until the wait returns.
        unsafe { start_dma_to_vdp1(source, vram_address)? };
        wait_dma_to_vdp1()
    }

    /// Starts copying `source` to VDP1 VRAM at `vram_address` by SCU DMA level 0 (after the
    /// end of the one before) and returns at once, the CPU free to go on while the SCU
    /// moves the bytes; [`wait_dma_to_vdp1`] waits for the end. The checks and errors of
    /// [`dma_to_vdp1`]; an empty `source` starts nothing.
    ///
    /// The SH-2's cache: it is write-through, so whatever the CPU wrote into `source`
    /// (through the cached 0x06000000 area or not) is already in work RAM when the SCU
    /// reads it: no cache purge is needed before the transfer. (A DMA *into* work RAM
    /// would need the lines purged before the CPU reads them; VDP1 VRAM is read through
    /// the cache-through area.) A compiler fence keeps the stores into `source` before
    /// the start of the transfer.
    ///
    /// While level 0 moves data between work RAM and the B-bus the SCU holds the CPU bus,
    /// so a CPU works only from its cache meanwhile. Mednafen goes further: the DMA moves
    /// nothing while a CPU works, its time comes on top (`make bench`'s "SCU DMA" rows).
    ///
    /// # Safety
    ///
    /// `source` must neither be written nor freed until [`wait_dma_to_vdp1`] has returned
    /// (the SCU reads it until then).
    pub unsafe fn start_dma_to_vdp1(source: &[u8], vram_address: u32) -> Result<(), DmaError> {
        let from = source.as_ptr() as usize;
        check_vdp1_upload(from, source.len(), vram_address)?;
        if source.is_empty() {
            return Ok(());
        }
        let scu = scu();
        let level = &scu.dma[0];
        wait_dma_to_vdp1()?;
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        let to = crate::hw::address::VDP1_VRAM + vram_address as usize;
        // SAFETY: documented register values; the source was checked to be in high work
        // RAM, and the caller keeps it unchanged until the end (`wait_dma_to_vdp1`); the
        // destination is inside VDP1 VRAM (checked).
        unsafe {
            level.enable.write(0);
            level.read.write((from & address::SCU_ADDRESS_MASK) as u32);
            level.write.write((to & address::SCU_ADDRESS_MASK) as u32);
            // 0 would mean 1 MiB; the length is 4 to 512 Ki here.
            level.count.write(source.len() as u32);
            level.add.write(dma::READ_ADD_4 | dma::WRITE_ADD_2);
            level.mode.write(dma::START_BY_REGISTER);
            level.enable.write(dma::ENABLE | dma::START);
        }
        Ok(())
    }

    /// Clears the `flag` ([`ist`] bits) of `IST` (writing 0 to a bit clears it, 1 leaves
    /// it; Yabause ignores 16-bit writes there), so that [`flagged`] tells whether its
    /// event came since. A game whose own handler takes that interrupt with the CPU's
    /// interrupts held back could have it cancelled by this, if it was pending then.
    pub fn clear_flag(flag: u32) {
        // SAFETY: a documented register write that changes no other flag.
        unsafe { scu().ist.write(!flag) };
    }

    /// Whether the event of `flag` ([`ist`] bits) came since the last [`clear_flag`] of it.
    pub fn flagged(flag: u32) -> bool {
        scu().ist.read() & flag != 0
    }

    /// Waits until DMA level 0 has ended (at once when none runs) and disables it. One that
    /// does not end within [`DSTA_POLLS`] polls is force-stopped (`DSTP`, which stops every
    /// level) and comes back as [`DmaError::Timeout`]: its destination may then be only
    /// partly written.
    pub fn wait_dma_to_vdp1() -> Result<(), DmaError> {
        let scu = scu();
        let result = wait_level0_idle("the end of an SCU DMA to VDP1 VRAM");
        // SAFETY: disabling the level (and, after a time-out, stopping every level) ends
        // any access to the source before its borrow does.
        unsafe {
            if result.is_err() {
                scu.dstp.write(dma::FORCE_STOP);
            }
            scu.dma[0].enable.write(0);
        }
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
        result.map_err(DmaError::from)
    }
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::{check, check_eq, check_message};

    crate::test_suite! {
        fn vdp1_uploads_are_checked() {
            let high = address::HIGH_WORK_RAM;
            check_eq!(check_vdp1_upload(high + 0x4000, 1024, 0x7_FC00), Ok(()));
            check_eq!(
                check_vdp1_upload(address::HIGH_WORK_RAM_UNCACHED + 0x10, 256, 0),
                Ok(())
            );
            check_eq!(check_vdp1_upload(high, 0, 0), Ok(()));
            // Low work RAM (the stack) and ROM are out of the SCU's reach.
            check_eq!(
                check_vdp1_upload(0x002F_0000, 1024, 0),
                Err(DmaError::NotInHighWorkRam {
                    address: 0x002F_0000
                })
            );
            check!(matches!(
                check_vdp1_upload(0x0000_1000, 4, 0),
                Err(DmaError::NotInHighWorkRam { .. })
            ));
            // Past the end of high work RAM.
            check!(matches!(
                check_vdp1_upload(high + 0xF_FF00, 0x200, 0),
                Err(DmaError::NotInHighWorkRam { .. })
            ));
            for (source, len, vram) in [(high + 2, 256, 0), (high, 258, 0), (high, 256, 2)] {
                check!(matches!(
                    check_vdp1_upload(source, len, vram),
                    Err(DmaError::Unaligned { .. })
                ));
            }
            check_eq!(
                check_vdp1_upload(high, 1024, 0x7_FE00),
                Err(DmaError::OutsideVram {
                    vram_address: 0x7_FE00,
                    len: 1024
                })
            );
            let timeout = Timeout { waiting_for: "x" };
            check_eq!(DmaError::from(timeout), DmaError::Timeout(timeout));
        }

        fn errors_say_why_the_dma_was_not_done() {
            check_message!(
                DmaError::NotInHighWorkRam { address: 0x002F_0000 },
                "SCU DMA: source 0x002f0000 is not in high work RAM"
            );
            check_message!(
                DmaError::OutsideVram { vram_address: 0x7_FE00, len: 1024 },
                "SCU DMA: 1024 bytes at VRAM 0x7fe00 pass the end of VDP1 VRAM"
            );
            let timeout = Timeout { waiting_for: "the end of an SCU DMA to VDP1 VRAM" };
            check_message!(
                DmaError::Timeout(timeout),
                "SCU DMA: timed out waiting for the end of an SCU DMA to VDP1 VRAM"
            );
        }
    }
}
