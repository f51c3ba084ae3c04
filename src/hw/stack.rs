//! The master SH-2's stack as link.x lays it out (right above the slave's, which it would
//! overwrite past its bottom): painted once, then read for how deep a program went. The
//! test programs and the benchmark fail a run that came too near the bottom.

extern "C" {
    /// The slave's stack top (rt/crt0.S), the bottom of the master's.
    static jom_slave_stack_top: u32;
}

/// What [`paint`] fills the unused stack with.
const PAINT: u32 = 0xA55A_5AA5;

/// The lowest address of the master's stack.
fn bottom() -> usize {
    // SAFETY: a word of rt/crt0.S's read-only data, written by the linker.
    unsafe { jom_slave_stack_top as usize }
}

/// Fills the master's stack with a pattern from its bottom to 1 KiB below this call, so
/// that [`untouched`] can tell how deep the program goes from here on. On the master only.
pub fn paint() {
    let bottom = bottom();
    let here = core::ptr::addr_of!(bottom) as usize;
    for at in (bottom..here.saturating_sub(1024)).step_by(4) {
        // SAFETY: the unused part of this CPU's own stack (link.x), word-aligned (the
        // stacks are 16-aligned and their sizes multiples of 4), below every live frame.
        unsafe { (at as *mut u32).write_volatile(PAINT) };
    }
}

/// The bytes at the bottom of the master's stack still as [`paint`] left them: 0 when the
/// program reached the bottom (and may have gone past it, into the slave's stack).
pub fn untouched() -> usize {
    let bottom = bottom();
    let mut at = bottom;
    // SAFETY: words of this CPU's own stack, read from its bottom up to the first one
    // written since (at the latest the frame of this call).
    while unsafe { (at as *const u32).read_volatile() } == PAINT {
        at += 4;
    }
    at - bottom
}
