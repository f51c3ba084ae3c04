//! VDP2, the background processor that also shows VDP1's frame buffer: its register block
//! (the fields this engine uses at their asserted offsets), the video standard (NTSC or
//! PAL), the screen widths, the display set-up and the VBlank wait.

use core::mem::{offset_of, size_of};
use volatile_register::{RO, RW};

/// The VDP2 registers this engine uses (at `0x25F80000`), with the others as reserved
/// space so that each field sits at its hardware offset.
#[repr(C)]
pub struct Vdp2Registers {
    /// TV screen mode: display on (bit 15), resolution.
    pub tvmd: RW<u16>,
    /// External signal enable.
    pub exten: RW<u16>,
    /// Screen status: VBlank in bit 3, HBlank in bit 2, PAL in bit 0.
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
const _: () = assert!(offset_of!(Vdp2Registers, exten) == 0x002);
const _: () = assert!(offset_of!(Vdp2Registers, tvstat) == 0x004);
const _: () = assert!(offset_of!(Vdp2Registers, bgon) == 0x020);
const _: () = assert!(offset_of!(Vdp2Registers, bktau) == 0x0AC);
const _: () = assert!(offset_of!(Vdp2Registers, bktal) == 0x0AE);
const _: () = assert!(offset_of!(Vdp2Registers, spctl) == 0x0E0);
const _: () = assert!(offset_of!(Vdp2Registers, prisa) == 0x0F0);

/// The console's video standard, which the VDP2 reports (`TVSTAT` bit 0, fixed for a
/// console) and which sets the field rate and the system clocks
/// (`frt::cpu_clock`, `frt::field_cycles`): an NTSC console (Japan, North America) shows
/// 59.83 fields a second, a PAL one (Europe: the IP's area `E`) 49.92, its clocks 0.7%
/// slower. Read it once at the start (`video_standard`, SH-2 builds) rather than assume 60
/// fields a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VideoStandard {
    /// 263 lines a field (not interlaced), 59.83 fields a second.
    Ntsc,
    /// 313 lines a field (not interlaced), 49.92 fields a second.
    Pal,
}

/// `TVSTAT` bit 0: the console is PAL.
const TVSTAT_PAL: u16 = 1 << 0;

impl VideoStandard {
    /// The standard a value of `TVSTAT` gives.
    pub const fn from_tvstat(tvstat: u16) -> Self {
        match tvstat & TVSTAT_PAL {
            0 => VideoStandard::Ntsc,
            _ => VideoStandard::Pal,
        }
    }

    /// Lines a field, blanking included, when not interlaced (224 or 240 lines shown, or
    /// PAL's 256).
    pub const fn lines_per_field(self) -> u16 {
        match self {
            VideoStandard::Ntsc => 263,
            VideoStandard::Pal => 313,
        }
    }

    /// "NTSC" or "PAL".
    pub const fn name(self) -> &'static str {
        match self {
            VideoStandard::Ntsc => "NTSC",
            VideoStandard::Pal => "PAL",
        }
    }
}

impl core::fmt::Display for VideoStandard {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The screen's width, 320 or 352 pixels (224 lines, not interlaced), and with it the
/// system clock: in the 352-pixel modes both SH-2s, the VDP1 and the VDP2 run 6.6% faster
/// (NTSC: 28.64 MHz against 26.87, `frt::cpu_clock`), 6.6% more cycles in each field for
/// the same work. The clock is the SMPC's to change (`smpc::change_clock`, before the
/// slave starts); the display is set for it by `init_display_at` (SH-2 builds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenWidth {
    /// 320 pixels, the clock at reset.
    W320,
    /// 352 pixels, the faster clock.
    W352,
}

impl ScreenWidth {
    /// The width in pixels.
    pub const fn pixels(self) -> u16 {
        match self {
            ScreenWidth::W320 => 320,
            ScreenWidth::W352 => 352,
        }
    }

    /// Dots a line, blanking included (a dot every 4 CPU clocks, in both standards): the
    /// line lasts as long in both widths.
    pub const fn dots_per_line(self) -> u16 {
        match self {
            ScreenWidth::W320 => 427,
            ScreenWidth::W352 => 455,
        }
    }

    /// `TVMD`: display on, this width (HRESO, bits 2-0: 0 for 320, 1 for 352), 224 lines,
    /// not interlaced.
    #[cfg_attr(not(jom_sh2), allow(dead_code))]
    const fn tvmd(self) -> u16 {
        match self {
            ScreenWidth::W320 => 0x8000,
            ScreenWidth::W352 => 0x8001,
        }
    }

    /// VDP1's `EWRR` for an erase area of this width and 224 lines: x / 8 in bits 15-9,
    /// the last line in bits 8-0.
    const fn ewrr(self) -> u16 {
        (self.pixels() / 8) << 9 | 223
    }
}

const _: () = assert!(ScreenWidth::W320.ewrr() == (40 << 9 | 223));
const _: () = assert!(ScreenWidth::W352.ewrr() == (44 << 9 | 223));
const _: () = assert!(matches!(
    VideoStandard::from_tvstat(0x0008),
    VideoStandard::Ntsc
));
const _: () = assert!(matches!(
    VideoStandard::from_tvstat(0x0009),
    VideoStandard::Pal
));

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::{ScreenWidth, Vdp2Registers, VideoStandard};
    use crate::hw::vdp1::{vdp1, SaturnVram, END_COMMAND};
    use crate::hw::{address, scu, Timeout};

    /// `TVSTAT` bit 3: the beam is in the vertical blanking interval.
    const TVSTAT_VBLANK: u16 = 1 << 3;
    /// `TVSTAT` bit 2: the beam is in a horizontal blanking interval.
    const TVSTAT_HBLANK: u16 = 1 << 2;
    /// Polls of `TVSTAT` within which a line's HBlank comes and goes (a line is about
    /// 1,700 cycles; a poll takes 10 or more).
    const LINE_POLLS: u32 = 2_000;
    /// `SPCTL`: frame buffer pixels with bit 15 set are RGB, the others palette codes.
    const SPCTL_MIXED_RGB: u16 = 0x0020;
    /// How many polls of `TVSTAT` make a missed VBlank (a frame is about 100,000 polls).
    const VBLANK_POLLS: u32 = 2_000_000;

    /// VDP2's registers.
    pub fn vdp2() -> &'static Vdp2Registers {
        // SAFETY: the block is at this address on every Saturn, for the whole program.
        unsafe { &*(address::VDP2_REGISTERS as *const Vdp2Registers) }
    }

    /// The console's video standard (`TVSTAT`).
    pub fn video_standard() -> VideoStandard {
        VideoStandard::from_tvstat(vdp2().tvstat.read())
    }

    /// Sets a 320 x 224 display showing the VDP1 sprite layer over a back screen of
    /// `back_color` (RGB555), and VDP1 drawing its command list (at VRAM 0) at every
    /// frame change, erasing to transparent first.
    pub fn init_display(back_color: u16) {
        init_display_at(ScreenWidth::W320, back_color);
    }

    /// [`init_display`] `width` pixels wide (352: after `smpc::change_clock` to it, which
    /// resets the VDPs).
    pub fn init_display_at(width: ScreenWidth, back_color: u16) {
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
            // An empty list until the first frame is written: there before drawing is
            // switched on (PTMR), or the VDP1 may start a frame on whatever VRAM 0 holds.
            SaturnVram::new().write_by_cpu(0, &END_COMMAND);
            let vdp1 = vdp1();
            vdp1.tvmr.write(0);
            vdp1.fbcr.write(0);
            vdp1.ptmr.write(2);
            vdp1.ewdr.write(0);
            vdp1.ewlr.write(0);
            vdp1.ewrr.write(width.ewrr());
            vdp2.tvmd.write(width.tvmd());
        }
    }

    /// Waits for the start of the next vertical blanking interval.
    pub fn wait_vblank() -> Result<(), Timeout> {
        wait_for([("the end of VBlank", false), ("VBlank", true)])
    }

    /// Waits for the end of a vertical blanking interval: the current one when called
    /// inside it, else the next.
    pub fn wait_vblank_end() -> Result<(), Timeout> {
        wait_for([("VBlank", true), ("the end of VBlank", false)])
    }

    /// Starts watching for the end of a VBlank (the VDP1's frame change): from here on
    /// [`vblank_ended`] and [`wait_vblank_ended`] tell of the first one after this call.
    pub fn watch_vblank_end() {
        scu::clear_flag(scu::ist::VBLANK_OUT);
    }

    /// Whether a VBlank has ended since [`watch_vblank_end`] (the SCU's V-Blank-OUT flag),
    /// without waiting.
    pub fn vblank_ended() -> bool {
        scu::flagged(scu::ist::VBLANK_OUT)
    }

    /// Starts watching for the start of an HBlank: from here on [`hblank_started`] tells
    /// of the first one after this call.
    pub fn watch_hblank_start() {
        scu::clear_flag(scu::ist::HBLANK_IN);
    }

    /// Whether an HBlank has started since [`watch_hblank_start`] (the SCU's H-Blank-IN
    /// flag), without waiting.
    pub fn hblank_started() -> bool {
        scu::flagged(scu::ist::HBLANK_IN)
    }

    /// Waits until a VBlank has ended since [`watch_vblank_end`] (at once if one has),
    /// calling `poll` at each look: the SCU's V-Blank-OUT flag, or, should something else
    /// have cleared it (a game's interrupt handler), the end of a VBlank seen here.
    pub fn wait_vblank_ended(mut poll: impl FnMut()) -> Result<(), Timeout> {
        let mut vblank_seen = false;
        for _ in 0..2 * VBLANK_POLLS {
            poll();
            if vblank_ended() {
                return Ok(());
            }
            let now_in_vblank = in_vblank();
            if vblank_seen && !now_in_vblank {
                return Ok(());
            }
            vblank_seen |= now_in_vblank;
        }
        Err(Timeout {
            waiting_for: "the end of VBlank",
        })
    }

    /// Waits for the start of the next HBlank: at most a line. Gives up without an error
    /// after [`LINE_POLLS`] polls of each step, so that a display whose HBlank flag does
    /// not move only costs that time.
    pub fn wait_next_hblank() {
        let in_hblank = || vdp2().tvstat.read() & TVSTAT_HBLANK != 0;
        for wanted in [false, true] {
            if !(0..LINE_POLLS).any(|_| in_hblank() == wanted) {
                return;
            }
        }
    }

    /// Whether the beam is in the vertical blanking interval (`TVSTAT`).
    pub fn in_vblank() -> bool {
        vdp2().tvstat.read() & TVSTAT_VBLANK != 0
    }

    /// Polls TVSTAT until its VBlank bit has taken each wanted value in turn.
    fn wait_for(steps: [(&'static str, bool); 2]) -> Result<(), Timeout> {
        for (waiting_for, wanted) in steps {
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
}
