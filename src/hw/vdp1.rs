//! VDP1, the sprite and polygon processor: its register block (every field's offset
//! asserted at compile time), its VRAM's place and size, and [`SaturnVram`], byte writes
//! into that VRAM by the CPU or by SCU DMA. The `Vram` trait of the drawing code is
//! implemented for [`SaturnVram`] beside that trait (`crate::vdp1`), so that `hw` needs
//! nothing above it.

use core::mem::{offset_of, size_of};
use volatile_register::{RO, RW};

/// VDP1 VRAM's size in bytes (512 KiB).
pub const VRAM_SIZE: u32 = 512 * 1024;

/// The command table that ends a list: `CMDCTRL` bit 15 (end), the rest 0; 32 bytes, big
/// endian, as the VDP1 reads it.
pub const END_COMMAND: [u8; 32] = {
    let mut table = [0; 32];
    table[0] = 0x80;
    table
};

/// VDP1's registers (at [`address::REGISTERS`](crate::hw::address::VDP1_REGISTERS)).
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
    /// Transfer end status: whether drawing reached the list's end command ([`edsr`] bits:
    /// `CEF` in the field under way, `BEF` in the field before the last frame change).
    pub edsr: RO<u16>,
    /// Last operation command address: the VRAM address / 8 of the command table the VDP1
    /// was at when the frame buffers last changed (the end command when it got there).
    pub lopr: RO<u16>,
    /// Current operation command address: the VRAM address / 8 of the command table the
    /// VDP1 is at now.
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
const _: () = assert!(offset_of!(Vdp1Registers, lopr) == 0x12);
const _: () = assert!(offset_of!(Vdp1Registers, copr) == 0x14);
const _: () = assert!(offset_of!(Vdp1Registers, modr) == 0x16);

/// `EDSR`'s bits (the VDP1 manual, "Transfer end status register"; libyaul's
/// `vdp1_transfer_status_t`).
pub mod edsr {
    /// Before end-bit fetch status: the list's end command was fetched in the field that
    /// ended at the last frame change (`CEF` as it was then). Clear: that drawing was cut
    /// short by the frame change, what the manual calls a "transfer over".
    pub const BEF: u16 = 1 << 0;
    /// Current end-bit fetch status: the list's end command has been fetched since the
    /// last frame change (drawing is over for this field). Cleared at each frame change.
    pub const CEF: u16 = 1 << 1;
}

/// How the VDP1's drawing of the field that ended at its last frame change ended, as its
/// registers tell after that change (they hold it until the next one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameEnd {
    /// It reached the list's end command (`EDSR`'s `BEF` set).
    Finished,
    /// The frame change came first (`BEF` clear: the manual's "transfer over"): the picture
    /// shown since lacks the commands from `stopped_at` on, the VRAM byte address of the
    /// command table the VDP1 was drawing (`LOPR` × 8; those before it were drawn whole).
    TransferOver {
        /// The byte address in VRAM of the command table the frame change stopped.
        stopped_at: u32,
    },
    /// This VDP1 cannot tell (one that draws nothing, or a test's).
    Unknown,
}

impl FrameEnd {
    /// What `EDSR` and `LOPR`, read after a frame change, say of the drawing before it.
    pub const fn from_registers(edsr: u16, lopr: u16) -> Self {
        match edsr & edsr::BEF {
            0 => FrameEnd::TransferOver {
                stopped_at: 8 * lopr as u32,
            },
            _ => FrameEnd::Finished,
        }
    }
}

const _: () = assert!(matches!(
    FrameEnd::from_registers(edsr::BEF | edsr::CEF, 0x0104),
    FrameEnd::Finished
));
const _: () = assert!(matches!(
    FrameEnd::from_registers(edsr::CEF, 0x0104),
    FrameEnd::TransferOver { stopped_at: 0x820 }
));

/// The moment of a list flip (the jump at VRAM 0 pointed at another list), as the fields go:
/// `fields` VBlank-INs had come ([`hw::vblank::fields`](crate::hw::vblank)), and the
/// VDP1's next frame change was the one that ends the VBlank in progress, or the next
/// VBlank's. Recorded by `SaturnVram::prepare_flip` while the VBlank-IN interrupt runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlipMoment {
    /// VBlank-INs before the flip.
    pub fields: u32,
    /// The flip came in a VBlank before the frame change at its end (which then read it).
    pub before_frame_change: bool,
}

impl FlipMoment {
    /// The VBlank-IN (a count of them) after which the flipped list shows: the VDP1 draws
    /// it from its next frame change, at a VBlank's end, and shows it from the one after,
    /// so it shows after the next VBlank-IN when it was flipped in a VBlank before the
    /// change (drawn from that VBlank's end), after the second when flipped later.
    pub const fn shows_after(self) -> u32 {
        self.fields.wrapping_add(match self.before_frame_change {
            true => 1,
            false => 2,
        })
    }
}

/// The real VDP1 VRAM, one in a program, handed out by [`Saturn`](crate::hw::Saturn)
/// (SH-2 builds write it). Writes of [`DMA_MIN_BYTES`] or more from high work RAM (4-byte
/// aligned, to a 4-byte-aligned address) go by SCU DMA (`scu::dma_to_vdp1`); the others,
/// and any the DMA refuses or does not finish, by the CPU 16 bits at a time.
pub struct SaturnVram {
    /// Since the last list flip (the renderer's `Vdp1::list_flipped`): a VBlank's end has
    /// been seen, and the H-Blank-IN flag cleared after it (the VDP1 starts on the new
    /// list at the next HBlank).
    #[cfg_attr(not(jom_sh2), allow(dead_code))]
    vblank_end_seen: bool,
}

impl SaturnVram {
    /// The VRAM; only [`Saturn::new`](crate::hw::Saturn::new) and the display set-up make
    /// it.
    pub(crate) const fn new() -> Self {
        Self {
            vblank_end_seen: false,
        }
    }
}

/// The smallest write [`SaturnVram`] sends by SCU DMA (the register set-up and the wait
/// cost about as much as the CPU writing a few words: in Mednafen the showcase's 17 ramp
/// gouraud tables, 136 bytes a frame, took 8,768 cycles more written by the CPU than by
/// DMA, some 130 cycles a 16-bit write; 256 before).
pub const DMA_MIN_BYTES: usize = 64;

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::{FlipMoment, FrameEnd, SaturnVram, Vdp1Registers, DMA_MIN_BYTES};
    use crate::hw::{address, scu, vblank, vdp2, Timeout};
    use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

    /// The last flip's moment ([`SaturnVram::prepare_flip`]): written and read by the
    /// master only.
    static mut LAST_FLIP: FlipMoment = FlipMoment {
        fields: 0,
        before_frame_change: false,
    };

    /// The moment of the last list flip the renderer made while the VBlank-IN interrupt
    /// ran ([`SaturnVram::prepare_flip`]): `FlipMoment::shows_after` is the field its
    /// frame shows from (the floor's switch, `hw::floor`).
    pub fn last_flip() -> FlipMoment {
        // SAFETY: see `LAST_FLIP`.
        unsafe { read_volatile(addr_of!(LAST_FLIP)) }
    }

    /// VDP1's registers.
    pub fn vdp1() -> &'static Vdp1Registers {
        // SAFETY: the block is at this address on every Saturn, for the whole program.
        unsafe { &*(address::VDP1_REGISTERS as *const Vdp1Registers) }
    }

    impl SaturnVram {
        /// Writes `bytes` at `address` (a byte offset in VRAM): by SCU DMA when it can
        /// ([`write_by_dma`](Self::write_by_dma)), else by the CPU.
        pub fn write_bytes(&mut self, address: u32, bytes: &[u8]) {
            if !self.write_by_dma(address, bytes) {
                self.write_by_cpu(address, bytes);
            }
        }

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

        /// Right before the jump at VRAM 0 is pointed at another list, while the VBlank-IN
        /// interrupt runs ([`hw::vblank`](crate::hw::vblank)): records the moment
        /// ([`last_flip`]), the field count and whether the frame change that ends the
        /// VBlank in progress is still to come, read with no VBlank-IN between them; in a
        /// VBlank's last line it first waits for the display
        /// (`vdp2::frame_change_ends_this_vblank`), so that the jump is read at the change
        /// the moment says. Without the interrupt there is no count: nothing is done.
        pub fn prepare_flip(&mut self) {
            if !vblank::enabled() {
                return;
            }
            let moment = loop {
                let fields = vblank::fields();
                let before_frame_change = vdp2::frame_change_ends_this_vblank();
                if vblank::fields() == fields {
                    break FlipMoment {
                        fields,
                        before_frame_change,
                    };
                }
            };
            // SAFETY: see `LAST_FLIP`.
            unsafe { write_volatile(addr_of_mut!(LAST_FLIP), moment) };
        }

        /// Starts watching for the VDP1's next frame change (after the jump at VRAM 0 was
        /// pointed at another list): see the `Vdp1` impl in `vdp1::vram`.
        pub fn watch_frame_change(&mut self) {
            vdp2::watch_vblank_end();
            self.vblank_end_seen = false;
        }

        /// Whether the VDP1 has changed frame since [`watch_frame_change`](Self::watch_frame_change)
        /// and started on the new list, without waiting: a VBlank's end flagged, then an
        /// HBlank's start flagged since that end was first seen here.
        pub fn frame_changed_since_watch(&mut self) -> bool {
            if !self.vblank_end_seen {
                if !vdp2::vblank_ended() {
                    return false;
                }
                vdp2::watch_hblank_start();
                self.vblank_end_seen = true;
            }
            vdp2::hblank_started()
        }

        /// Waits until [`frame_changed_since_watch`](Self::frame_changed_since_watch),
        /// calling `poll` at each look. Should a game's own interrupt handler take the
        /// SCU's flags, a whole VBlank seen ending in `TVSTAT`, then the next HBlank, end
        /// the wait too.
        pub fn wait_frame_change_with(&mut self, poll: impl FnMut()) -> Result<(), Timeout> {
            if self.frame_changed_since_watch() {
                return Ok(());
            }
            vdp2::wait_vblank_ended(poll)?;
            if !self.frame_changed_since_watch() {
                vdp2::wait_next_hblank();
            }
            Ok(())
        }

        /// How the drawing of the field that ended at the VDP1's last frame change ended
        /// (`EDSR`, `LOPR`): read after [`frame_changed_since_watch`](Self::frame_changed_since_watch)
        /// said yes and before the next frame change, it is the drawing of the list the
        /// jump at VRAM 0 pointed to at the start of that field.
        pub fn last_frame_end(&self) -> FrameEnd {
            let registers = vdp1();
            FrameEnd::from_registers(registers.edsr.read(), registers.lopr.read())
        }

        /// Writes `bytes` at `address` by SCU DMA when it is [`DMA_MIN_BYTES`] or more
        /// and the DMA can read it; gives `false` (nothing written) otherwise.
        pub fn write_by_dma(&mut self, address: u32, bytes: &[u8]) -> bool {
            bytes.len() >= DMA_MIN_BYTES && scu::dma_to_vdp1(bytes, address).is_ok()
        }
    }
}
