//! VDP2, the background processor that also shows VDP1's frame buffer: its register block
//! (the fields this engine uses at their asserted offsets), the video standard (NTSC or
//! PAL), the screen widths, the display set-up and the VBlank wait.

use core::mem::{offset_of, size_of};
use volatile_register::{RO, RW, WO};

/// The VDP2 registers this engine uses (at `0x25F80000`), with the others as reserved
/// space so that each field sits at its hardware offset (the offsets are libyaul's
/// `vdp2/map.h`, the bits the VDP2 User's Manual's). Most VDP2 registers are write-only
/// (the manual: "as a general rule ... a 16-bit write-only register"; Mednafen's VDP2
/// reads 0 from them): those are `WO`, and a value the engine needs again is kept by the
/// engine, not read back. `TVSTAT` and `RAMCTL` (the manual: "readable / writable") read
/// back, and in Mednafen `TVMD` and `EXTEN` too (Yabause's `Vdp2ReadWord` gives 0 for
/// `RAMCTL`). The fields from
/// `ramctl` on (but `bktau`, `bktal`, `spctl`, `prisa` and RBG0's) are the text layer's
/// (`hw::text`: normal scroll screen NBG0); `chctlb`, `pncr`, `mpofr`, `mpra`, `rpmd` to
/// `rptal`, `craofb` and `prir` the floor's (`hw::floor`: rotation scroll screen RBG0).
/// `BGON` is shared: written through `show_layers` (SH-2 builds), which keeps what it
/// last wrote.
#[repr(C)]
pub struct Vdp2Registers {
    /// TV screen mode: display on (bit 15), resolution.
    pub tvmd: RW<u16>,
    /// External signal enable.
    pub exten: RW<u16>,
    /// Screen status: VBlank in bit 3, HBlank in bit 2, PAL in bit 0.
    pub tvstat: RO<u16>,
    /// VRAM size.
    pub vrsize: RO<u16>,
    /// The H counter latched (bits 9-0).
    pub hcnt: RO<u16>,
    /// The V counter latched (bits 9-0), when `EXTEN` is read (its `EXLTEN` clear).
    pub vcnt: RO<u16>,
    _reserved_0c: u16,
    /// RAM control (readable): colour RAM mode in bits 13-12 (0: 1,024 RGB555 colours,
    /// 1: 2,048, 2: 1,024 RGB888), VRAM banks A and B each split in two (bits 8, 9), the
    /// rotation screens' use of each bank (bits 7-0).
    pub ramctl: RW<u16>,
    /// VRAM cycle patterns, two words a bank (`CYCA0L`, `CYCA0U`, `CYCA1L`, ... `CYCB1U`):
    /// which read the VDP2 makes at each of the 8 access times T0-T7 of a cycle, a nibble a
    /// time, T0 in bits 15-12 of the first word.
    pub cyc: [WO<u16>; 8],
    /// Screen display enable (the background layers).
    pub bgon: WO<u16>,
    /// Mosaic control.
    pub mzctl: WO<u16>,
    _reserved_24: [u16; (0x028 - 0x024) / 2],
    /// Character control of NBG0 (bits 6-0: colours, bitmap or cells, cell size) and NBG1.
    pub chctla: WO<u16>,
    /// Character control of NBG2, NBG3 and RBG0 (bits 14-12: RBG0's colours; 9: bitmap;
    /// 8: cell size).
    pub chctlb: WO<u16>,
    _reserved_2c: [u16; (0x030 - 0x02C) / 2],
    /// NBG0's pattern name control: 1-word names (bit 15), the character number's upper
    /// bits (4-0) and the palette number's (7-5) that 1-word names lack.
    pub pncn0: WO<u16>,
    _reserved_32: [u16; (0x038 - 0x032) / 2],
    /// RBG0's pattern name control: bit 15 clear for two-word names.
    pub pncr: WO<u16>,
    /// Plane sizes (NBG0 in bits 1-0; RBG0's in 9-8, its screen-over mode in 11-10).
    pub plsz: WO<u16>,
    /// Map offsets, the upper bits of the map registers (NBG0 in bits 2-0).
    pub mpofn: WO<u16>,
    /// Map offsets of the rotation parameters (A in bits 2-0).
    pub mpofr: WO<u16>,
    /// NBG0's planes A (bits 5-0) and B (13-8).
    pub mpabn0: WO<u16>,
    /// NBG0's planes C and D.
    pub mpcdn0: WO<u16>,
    _reserved_44: [u16; (0x050 - 0x044) / 2],
    /// Rotation parameter A's 16 planes A to P, two a register (`MPABRA` to `MPOPRA`).
    pub mpra: [WO<u16>; 8],
    _reserved_60: [u16; (0x070 - 0x060) / 2],
    /// NBG0's horizontal scroll, integer part.
    pub scxin0: WO<u16>,
    /// NBG0's horizontal scroll, fraction.
    pub scxdn0: WO<u16>,
    /// NBG0's vertical scroll, integer part.
    pub scyin0: WO<u16>,
    /// NBG0's vertical scroll, fraction.
    pub scydn0: WO<u16>,
    /// NBG0's horizontal coordinate increment (its zoom), integer part (bits 2-0).
    pub zmxin0: WO<u16>,
    /// NBG0's horizontal coordinate increment, fraction (bits 15-8).
    pub zmxdn0: WO<u16>,
    /// NBG0's vertical coordinate increment, integer part.
    pub zmyin0: WO<u16>,
    /// NBG0's vertical coordinate increment, fraction.
    pub zmydn0: WO<u16>,
    _reserved_80: [u16; (0x098 - 0x080) / 2],
    /// Reduction enable (NBG0 and NBG1).
    pub zmctl: WO<u16>,
    /// Line and vertical cell scroll control (NBG0 and NBG1).
    pub scrctl: WO<u16>,
    _reserved_9c: [u16; (0x0AC - 0x09C) / 2],
    /// Back screen table address, upper.
    pub bktau: WO<u16>,
    /// Back screen table address, lower.
    pub bktal: WO<u16>,
    /// Rotation parameter mode (0: parameter A only).
    pub rpmd: WO<u16>,
    /// Rotation parameter read control (bits 0-2: Xst, Yst, KAst of A read again).
    pub rprctl: WO<u16>,
    /// Coefficient table control of A (bits 4-0: line colour, mode, one-word data,
    /// enable).
    pub ktctl: WO<u16>,
    /// Coefficient table address offset of A (bits 2-0).
    pub ktaof: WO<u16>,
    /// Screen-over pattern names of A and B.
    pub ovpnr: [WO<u16>; 2],
    /// Rotation parameter table address, upper (bits 2-0: address bits 18-16 in words).
    pub rptau: WO<u16>,
    /// Rotation parameter table address, lower (address bits 15-1 in words).
    pub rptal: WO<u16>,
    _reserved_c0: [u16; (0x0D0 - 0x0C0) / 2],
    /// Window control of NBG0 and NBG1.
    pub wctla: WO<u16>,
    _reserved_d2: [u16; (0x0E0 - 0x0D2) / 2],
    /// Sprite control: how the VDP1 frame buffer's pixels are read.
    pub spctl: WO<u16>,
    _reserved_e2: u16,
    /// Colour RAM address offsets of NBG0 (bits 2-0) to NBG3, in 512-byte steps.
    pub craofa: WO<u16>,
    /// Colour RAM address offsets of RBG0 (bits 2-0) and sprites (6-4).
    pub craofb: WO<u16>,
    _reserved_e8: u16,
    /// Special priority modes (NBG0 in bits 1-0).
    pub sfprmd: WO<u16>,
    /// Colour calculation control (NBG0 in bit 0).
    pub ccctl: WO<u16>,
    _reserved_ee: u16,
    /// Sprite priorities 0 and 1.
    pub prisa: WO<u16>,
    _reserved_f2: [u16; (0x0F8 - 0x0F2) / 2],
    /// Priorities of NBG0 (bits 2-0) and NBG1 (10-8).
    pub prina: WO<u16>,
    _reserved_fa: u16,
    /// RBG0's priority (bits 2-0).
    pub prir: WO<u16>,
    _reserved_fe: [u16; (0x110 - 0x0FE) / 2],
    /// Colour offset enable (NBG0 in bit 0).
    pub clofen: WO<u16>,
    _reserved_112: [u16; (0x120 - 0x112) / 2],
}

const _: () = assert!(size_of::<Vdp2Registers>() == 0x120);
const _: () = assert!(offset_of!(Vdp2Registers, exten) == 0x002);
const _: () = assert!(offset_of!(Vdp2Registers, tvstat) == 0x004);
const _: () = assert!(offset_of!(Vdp2Registers, vcnt) == 0x00A);
const _: () = assert!(offset_of!(Vdp2Registers, ramctl) == 0x00E);
const _: () = assert!(offset_of!(Vdp2Registers, cyc) == 0x010);
const _: () = assert!(size_of::<[WO<u16>; 8]>() == 0x020 - 0x010);
const _: () = assert!(offset_of!(Vdp2Registers, bgon) == 0x020);
const _: () = assert!(offset_of!(Vdp2Registers, mzctl) == 0x022);
const _: () = assert!(offset_of!(Vdp2Registers, chctla) == 0x028);
const _: () = assert!(offset_of!(Vdp2Registers, chctlb) == 0x02A);
const _: () = assert!(offset_of!(Vdp2Registers, pncn0) == 0x030);
const _: () = assert!(offset_of!(Vdp2Registers, pncr) == 0x038);
const _: () = assert!(offset_of!(Vdp2Registers, plsz) == 0x03A);
const _: () = assert!(offset_of!(Vdp2Registers, mpofn) == 0x03C);
const _: () = assert!(offset_of!(Vdp2Registers, mpofr) == 0x03E);
const _: () = assert!(offset_of!(Vdp2Registers, mpabn0) == 0x040);
const _: () = assert!(offset_of!(Vdp2Registers, mpcdn0) == 0x042);
const _: () = assert!(offset_of!(Vdp2Registers, mpra) == 0x050);
const _: () = assert!(size_of::<[WO<u16>; 8]>() == 0x060 - 0x050);
const _: () = assert!(offset_of!(Vdp2Registers, scxin0) == 0x070);
const _: () = assert!(offset_of!(Vdp2Registers, scxdn0) == 0x072);
const _: () = assert!(offset_of!(Vdp2Registers, scyin0) == 0x074);
const _: () = assert!(offset_of!(Vdp2Registers, scydn0) == 0x076);
const _: () = assert!(offset_of!(Vdp2Registers, zmxin0) == 0x078);
const _: () = assert!(offset_of!(Vdp2Registers, zmxdn0) == 0x07A);
const _: () = assert!(offset_of!(Vdp2Registers, zmyin0) == 0x07C);
const _: () = assert!(offset_of!(Vdp2Registers, zmydn0) == 0x07E);
const _: () = assert!(offset_of!(Vdp2Registers, zmctl) == 0x098);
const _: () = assert!(offset_of!(Vdp2Registers, scrctl) == 0x09A);
const _: () = assert!(offset_of!(Vdp2Registers, bktau) == 0x0AC);
const _: () = assert!(offset_of!(Vdp2Registers, bktal) == 0x0AE);
const _: () = assert!(offset_of!(Vdp2Registers, rpmd) == 0x0B0);
const _: () = assert!(offset_of!(Vdp2Registers, rprctl) == 0x0B2);
const _: () = assert!(offset_of!(Vdp2Registers, ktctl) == 0x0B4);
const _: () = assert!(offset_of!(Vdp2Registers, ktaof) == 0x0B6);
const _: () = assert!(offset_of!(Vdp2Registers, ovpnr) == 0x0B8);
const _: () = assert!(offset_of!(Vdp2Registers, rptau) == 0x0BC);
const _: () = assert!(offset_of!(Vdp2Registers, rptal) == 0x0BE);
const _: () = assert!(offset_of!(Vdp2Registers, wctla) == 0x0D0);
const _: () = assert!(offset_of!(Vdp2Registers, spctl) == 0x0E0);
const _: () = assert!(offset_of!(Vdp2Registers, craofa) == 0x0E4);
const _: () = assert!(offset_of!(Vdp2Registers, craofb) == 0x0E6);
const _: () = assert!(offset_of!(Vdp2Registers, sfprmd) == 0x0EA);
const _: () = assert!(offset_of!(Vdp2Registers, ccctl) == 0x0EC);
const _: () = assert!(offset_of!(Vdp2Registers, prisa) == 0x0F0);
const _: () = assert!(offset_of!(Vdp2Registers, prina) == 0x0F8);
const _: () = assert!(offset_of!(Vdp2Registers, prir) == 0x0FC);
const _: () = assert!(offset_of!(Vdp2Registers, clofen) == 0x110);

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

/// The lines the display shows (`init_display_at`, SH-2 builds): 224 in both standards, as
/// `TVMD`'s vertical resolution (bits 5-4) stays 0 (224 lines; 1 is 240, and 2, PAL's
/// 256, is set by nothing in the engine).
pub const DISPLAY_LINES: u16 = 224;

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

/// Every bit of `BGON`.
pub const ALL_LAYERS: u16 = 0xFFFF;

/// `BGON` once the backgrounds of `bits` are shown (`shown`) or hidden, from `written`.
pub const fn layers(written: u16, bits: u16, shown: bool) -> u16 {
    match shown {
        true => written | bits,
        false => written & !bits,
    }
}

const _: () = assert!(layers(0x0001, 0x1010, true) == 0x1011);
const _: () = assert!(layers(0x1011, 0x1010, false) == 0x0001);

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::{ScreenWidth, Vdp2Registers, VideoStandard, ALL_LAYERS};
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
            show_layers(ALL_LAYERS, false);
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

    /// `BGON` as last written by [`show_layers`] (the register is write-only). The
    /// program runs on the master CPU alone: the slave never touches the VDP2.
    static mut BGON_WRITTEN: u16 = 0;

    /// Shows (`shown`) or hides the backgrounds of `bits` in `BGON` (NBG0 in bit 0, RBG0
    /// in bit 4, their transparent-dot bits 8 and 12), the others as they were.
    pub fn show_layers(bits: u16, shown: bool) {
        // SAFETY: one CPU, no interrupt handler touches it; a documented register value.
        unsafe {
            BGON_WRITTEN = super::layers(BGON_WRITTEN, bits, shown);
            vdp2().bgon.write(BGON_WRITTEN);
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

    /// Whether the beam is in a horizontal blanking interval (`TVSTAT`).
    pub fn in_hblank() -> bool {
        vdp2().tvstat.read() & TVSTAT_HBLANK != 0
    }

    /// The beam's line now: `VCNT` latched by a read of `EXTEN` (its `EXLTEN` clear).
    pub fn line() -> u16 {
        let _ = vdp2().exten.read();
        vdp2().vcnt.read() & 0x3FF
    }

    /// `VCNT` in a VBlank's last line, in every standard and height, not interlaced
    /// (Mednafen's `vdp2.c`, `GetNLVCounter`: the lines from the vertical sync on count up
    /// to 0x1FF). The VDP1 changes frame in that line: the VBlank's end reaches the VDP1 and
    /// the SCU (`Out_VB`) at its start, the VDP1 changes at its HBlank, and `TVSTAT`'s VBlank
    /// bit clears only at its end.
    pub const VCNT_LAST_VBLANK_LINE: u16 = 0x1FF;

    /// Whether the VDP1's next frame change is the one that ends the VBlank in progress
    /// (a jump at VRAM 0 pointed now is read there), else the next VBlank's. In a VBlank's
    /// last line, where `TVSTAT` cannot tell the moment of the change, it waits for the
    /// display (a line at most: about 1,800 cycles), so that a jump pointed right after
    /// the answer is read where it says. Yabause counts `VCNT` 0 to 262: it never waits.
    pub fn frame_change_ends_this_vblank() -> bool {
        for _ in 0..LINE_POLLS {
            // The line latched before the VBlank bit is read: a VBlank seen then had begun
            // by the latch, or had just begun (its last line far off).
            let line = line();
            if !in_vblank() {
                return false;
            }
            if line != VCNT_LAST_VBLANK_LINE {
                return true;
            }
        }
        false
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
