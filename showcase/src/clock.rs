//! Time from the master SH-2's free-running timer (CPU clock / 128), counted past the
//! timer's 16 bits: read at least once every 65,536 counts (0.31 s), which every frame
//! does many times over.

use jom::hw::frt::{self, Divider};

use crate::scene::SCREEN;

const DIVIDER: Divider = Divider::By128;
/// CPU clocks a count of [`now`].
pub const CLOCKS_PER_COUNT: u32 = 128;
/// Counts a second.
const PER_SECOND: u32 = SCREEN.cpu_clock() / CLOCKS_PER_COUNT;
/// Counts of one NTSC field (59.94 a second).
pub const FIELD: u32 = PER_SECOND * 1000 / 59_940;

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

/// Whether `cycles` is a field at the clock of [`SCREEN`]'s modes, within 2%: a field at
/// the other clock is 6.6% away.
pub fn is_field(cycles: u32) -> bool {
    let field = FIELD * CLOCKS_PER_COUNT;
    cycles.abs_diff(field) < field / 50
}

/// Frames a second, rounded, for frames `period` counts apart.
pub fn per_second(period: u32) -> Option<u32> {
    (PER_SECOND + period / 2).checked_div(period)
}
