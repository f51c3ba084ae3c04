//! Time from the master SH-2's free-running timer (CPU clock / 128), counted past the
//! timer's 16 bits: read at least once every 65,536 counts (0.29 s), which every frame
//! does many times over; and what the counts are worth on the console it runs on
//! ([`Rates`]: an NTSC or a PAL one, read from the VDP2 at the start).

use jom::hw::frt::{self, Divider};
use jom::hw::VideoStandard;
use jom::math::ONE;

use crate::scene::SCREEN;

const DIVIDER: Divider = Divider::By128;
/// CPU clocks a count of [`now`].
pub const CLOCKS_PER_COUNT: u32 = DIVIDER.clocks();
/// Animation ticks a second (`jom::anim`).
const TICKS_PER_SECOND: u64 = 60;

/// The timer's counts on a console of one video standard, at [`SCREEN`]'s clock.
#[derive(Clone, Copy)]
pub struct Rates {
    pub standard: VideoStandard,
    /// The CPU clock (Hz).
    pub cpu_clock: u32,
    /// CPU clocks of a field.
    pub field_cycles: u32,
    /// Counts a second.
    per_second: u32,
    /// Counts of a field.
    pub field: u32,
    /// Animation ticks a field (Q16.16): the player's speed, so that the animations play
    /// 60 ticks a second at both field rates (1.003 on NTSC, 1.202 on PAL).
    pub ticks_per_field: i32,
}

impl Rates {
    pub const fn of(standard: VideoStandard) -> Self {
        let fields_per_1000_seconds = frt::fields_per_1000_seconds(standard) as u64;
        Self {
            standard,
            cpu_clock: frt::cpu_clock(standard, SCREEN),
            field_cycles: frt::field_cycles(standard, SCREEN),
            per_second: frt::cpu_clock(standard, SCREEN) / CLOCKS_PER_COUNT,
            field: frt::field_counts(standard, SCREEN, DIVIDER),
            ticks_per_field: ((TICKS_PER_SECOND * 1000 * ONE as u64 + fields_per_1000_seconds / 2)
                / fields_per_1000_seconds) as i32,
        }
    }

    /// Whether `cycles` is a field of this standard at [`SCREEN`]'s clock, within 2%: a
    /// field at the other width's is 6.6% away, one of the other standard 19%.
    pub fn is_field(&self, cycles: u32) -> bool {
        cycles.abs_diff(self.field_cycles) < self.field_cycles / 50
    }

    /// Frames a second, rounded, for frames `period` counts apart.
    pub fn per_second(&self, period: u32) -> Option<u32> {
        (self.per_second + period / 2).checked_div(period)
    }

    /// Fields (rounded, at least 1) that `ticks` animation ticks last.
    pub fn fields_of_ticks(&self, ticks: u32) -> u32 {
        let per_field = self.ticks_per_field as u64;
        let fields = (u64::from(ticks) * ONE as u64 + per_field / 2) / per_field;
        (fields as u32).max(1)
    }
}

const NTSC: Rates = Rates::of(VideoStandard::Ntsc);
const PAL: Rates = Rates::of(VideoStandard::Pal);
// A field is one animation tick and a little more on NTSC, 1.2 ticks on PAL; the two
// standards' fields are told apart.
const _: () = assert!(NTSC.ticks_per_field > ONE && NTSC.ticks_per_field < ONE + ONE / 256);
const _: () = assert!(PAL.ticks_per_field.abs_diff(ONE * 6 / 5) < ONE as u32 / 256);
const _: () = assert!(PAL.field_cycles - NTSC.field_cycles > NTSC.field_cycles / 50);

/// The last reading of the timer and the turns it made before it.
static mut LAST: u32 = 0;

/// Starts the timer at 0.
pub fn start() {
    frt::start(DIVIDER);
}

/// Counts since [`start`]: a turn of the timer is seen as a reading below the last one
/// (no flag to clear, no race with the overflow).
pub fn now() -> u32 {
    let count = u32::from(frt::count());
    // SAFETY: read and written by the master SH-2 only (the renderer calls this between
    // its phases, on the master), which runs one thing at a time (no interrupt handler).
    unsafe {
        let last = core::ptr::addr_of_mut!(LAST);
        let mut time = (*last & !0xFFFF) | count;
        if time < *last {
            time = time.wrapping_add(0x1_0000);
        }
        *last = time;
        time
    }
}

/// CPU clocks from the start of a VBlank to the next one's, by the timer: a field at the
/// clock the SMPC set (`None` when no VBlank came).
pub fn measured_field() -> Option<u32> {
    jom::hw::wait_vblank().ok()?;
    let start = now();
    jom::hw::wait_vblank().ok()?;
    Some(now().wrapping_sub(start) * CLOCKS_PER_COUNT)
}
