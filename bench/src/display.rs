//! The frames the player sees (issue 14): a scene drawn every frame through the `Renderer`
//! for some seconds while the VDP1's own registers are read between the renderer's phases
//! and all through the waits for VBlank, which tells which of the frames finished by the
//! CPU the VDP1 drew to the end and showed; then the VDP1 alone (the list already in VRAM)
//! timed drawing that list, as emitted and changed the ways that would make it cheaper.
//!
//! The display runs as `hw::init_display` sets it: the frame buffers change at every field
//! and the VDP1 starts drawing the list at VRAM 0 at each change, giving up (unfinished)
//! at the next change. After each change, `EDSR` bit 0 says whether the draw shown now
//! reached its end command, and `LOPR` where it stopped (the address / 8); bit 1 and `COPR`
//! say the same of the draw under way. Each frame's list ends at its own address (the
//! frame pushes `frame % 4` skipped 2D commands after the quads), so an end address names
//! one of the last four frames finished; the frame whose end a finished draw stopped at
//! was displayed.

use core::cell::Cell;

use jom::hw::vdp1::vdp1;
use jom::hw::vdp2::in_vblank;
use jom::vdp1::CommandTable;

/// `EDSR`: the draw shown since the last frame change reached its end command.
const EDSR_BEF: u16 = 1 << 0;
/// `EDSR`: the draw under way reached its end command.
const EDSR_CEF: u16 = 1 << 1;
/// `FBCR`: frame changes by the program (FCM) and, at the next VBlank, one change (FCT).
const FBCR_MANUAL_CHANGE: u16 = 0b11;
/// `PTMR`: 1 starts a draw now; 2 draws at every frame change (`init_display`'s).
const PTMR_DRAW_NOW: u16 = 1;
const PTMR_AT_FRAME_CHANGE: u16 = 2;
/// `CMDPMOD` bit 12: high-speed shrink.
const PMOD_HIGH_SPEED_SHRINK: u16 = 1 << 12;
/// `CMDSIZE` of an 8 x 8 texture (width / 8 in bits 13-8, height in 7-0).
const SIZE_8X8: u16 = 1 << 8 | 8;
/// `CMDCTRL`: the command (low 4 bits) of a distorted sprite, the end bit.
const DISTORTED_SPRITE: u16 = 2;
const CTRL_END: u16 = 0x8000;
/// VDP1 VRAM through the cache-through region.
const VRAM: usize = 0x25C0_0000;
/// Polls of a register before a wait counts as failed (a field is about 100,000).
const POLLS: u32 = 4_000_000;

/// A 2D command that draws nothing (`CMDCTRL` JP = skip, then the next): the VDP1 only
/// fetches it.
pub const SKIPPED: CommandTable = {
    let mut table = CommandTable::end();
    table.ctrl = 0x4000;
    table
};

/// One of the last frames finished: its list's end address / 8, whether a draw of it
/// reached that end.
#[derive(Clone, Copy, Default)]
struct Finished {
    end: u16,
    shown: bool,
}

/// What the VDP1's registers told while watching.
#[derive(Clone, Copy, Default)]
pub struct Watched {
    /// Frames whose list was pointed at (the jump at VRAM 0 written).
    pub finished: u32,
    /// Of them, frames a draw of which reached its end (shown whole).
    pub displayed: u32,
    /// The longest time between two readings of the registers, in timer counts: under a
    /// field, no frame change goes unseen.
    pub longest_gap: u32,
}

/// The watch, while a scene runs; only the master CPU touches it.
struct Watch {
    /// The end command written last (the list being committed).
    pending_end: u16,
    recent: [Finished; 4],
    watched: Watched,
    last_look: u32,
}

/// The master's only watch (no interrupt handler, the slave never runs this).
struct Shared(Cell<Option<Watch>>);
// SAFETY: only the master CPU reads or writes it (the slave runs the renderer's jobs,
// which never look at the clock or the VRAM wrapper).
unsafe impl Sync for Shared {}
static WATCH: Shared = Shared(Cell::new(None));

fn with_watch(look: impl FnOnce(&mut Watch)) {
    if let Some(mut watch) = WATCH.0.take() {
        look(&mut watch);
        WATCH.0.set(Some(watch));
    }
}

/// Starts watching at `now` (timer counts).
pub fn start(now: u32) {
    WATCH.0.set(Some(Watch {
        pending_end: u16::MAX,
        recent: [Finished::default(); 4],
        watched: Watched::default(),
        last_look: now,
    }));
}

/// Stops watching: what was seen.
pub fn stop() -> Watched {
    WATCH.0.take().map_or(Watched::default(), |w| w.watched)
}

/// Whether a scene is being watched.
pub fn watching() -> bool {
    let watch = WATCH.0.take();
    let on = watch.is_some();
    WATCH.0.set(watch);
    on
}

/// Timer counts (of CPU clock / 128) within which a second look reads nothing: the VDP1's
/// six register reads of a look cost the master some 700 cycles, and the renderer's clock,
/// read between its phases, looks each time (ten times a frame), which the frames of a
/// game that shows every field cannot spare. A field is 3,509 counts.
const LOOK_EVERY: u32 = 32;

/// Reads the VDP1's registers at `now` (timer counts), unless the last look was less than
/// [`LOOK_EVERY`] counts ago: a finished draw's end address marks its frame as displayed.
pub fn look(now: u32) {
    with_watch(|watch| {
        if now.wrapping_sub(watch.last_look) < LOOK_EVERY {
            return;
        }
        watch.watched.longest_gap = watch
            .watched
            .longest_gap
            .max(now.wrapping_sub(watch.last_look));
        watch.last_look = now;
        let registers = vdp1();
        // Read until two readings agree, so that a frame change between the reads does
        // not pair one change's flag with the other's address.
        for _ in 0..4 {
            let (edsr, lopr, copr) = (
                registers.edsr.read(),
                registers.lopr.read(),
                registers.copr.read(),
            );
            if (edsr, lopr, copr)
                != (
                    registers.edsr.read(),
                    registers.lopr.read(),
                    registers.copr.read(),
                )
            {
                continue;
            }
            if edsr & EDSR_BEF != 0 {
                watch.shown_end(lopr);
            }
            if edsr & EDSR_CEF != 0 {
                watch.shown_end(copr);
            }
            break;
        }
    });
}

impl Watch {
    /// A draw stopped at its end command at `end` (an address / 8).
    fn shown_end(&mut self, end: u16) {
        let newest = self.watched.finished as usize;
        // The newest finished frame with that end (the older ones' lists were written over).
        for back in 0..self.recent.len().min(newest) {
            let frame = &mut self.recent[(newest - back) % 4];
            if frame.end == end {
                if !frame.shown {
                    frame.shown = true;
                    self.watched.displayed += 1;
                }
                return;
            }
        }
    }
}

/// The renderer wrote `table` at VRAM `address`: the end of a list is remembered.
pub fn command_written(address: u32, table: &CommandTable) {
    if table.ctrl != CTRL_END {
        return;
    }
    with_watch(|watch| watch.pending_end = (address / 8) as u16);
}

/// The renderer wrote the control word of the jump at VRAM 0 (after its link: the
/// renderer's `point_jump`): the list it points at is finished.
pub fn jump_pointed() {
    with_watch(|watch| {
        watch.watched.finished += 1;
        let index = watch.watched.finished as usize % 4;
        watch.recent[index] = Finished {
            end: watch.pending_end,
            shown: false,
        };
    });
}

/// Waits for the start of the next VBlank as `hw::wait_vblank` does, calling `poll` at
/// each reading; `false` when it did not come.
pub fn wait_vblank_with(mut poll: impl FnMut()) -> bool {
    [false, true].into_iter().all(|wanted| {
        (0..POLLS).any(|_| {
            poll();
            in_vblank() == wanted
        })
    })
}

/// Waits for the end of the next VBlank (where Mednafen changes frame).
fn wait_vblank_end() -> bool {
    wait_vblank_with(|| ()) && (0..POLLS).any(|_| !in_vblank())
}

/// The VDP1's time to draw the list the jump at VRAM 0 points to, in timer counts, started
/// by the program with no frame change to cut it short; `None` if it did not end.
/// Leaves the display as it was (a change and a draw at every field).
pub fn draw_time(clock: fn() -> u32) -> Option<u32> {
    let registers = vdp1();
    // SAFETY (the register writes): documented values; the program owns the VDP1.
    unsafe {
        registers.ptmr.write(0);
        registers.fbcr.write(FBCR_MANUAL_CHANGE);
    }
    // The change asked for happens at the end of this VBlank; none after it.
    let ready = wait_vblank_end() && wait_vblank_end();
    let start = clock();
    // SAFETY: as above.
    unsafe { registers.ptmr.write(PTMR_DRAW_NOW) };
    let ended = ready && (0..POLLS).any(|_| registers.edsr.read() & EDSR_CEF != 0);
    let time = clock().wrapping_sub(start);
    // SAFETY: as above: back to `init_display`'s values.
    unsafe {
        registers.fbcr.write(0);
        registers.ptmr.write(PTMR_AT_FRAME_CHANGE);
    }
    ended.then_some(time)
}

/// Over `fields` frame changes with no CPU work (the list at VRAM 0 drawn again at each):
/// how many showed a draw that reached its end, and the time that took (timer counts;
/// `clock` is read all through, so that none of its turns goes uncounted).
pub fn redrawn_whole(fields: u32, clock: fn() -> u32) -> Option<(u32, u32)> {
    let mut whole = 0;
    wait_vblank_with(|| {
        clock();
    });
    let start = clock();
    for _ in 0..fields {
        // At the start of VBlank the flag is the last change's (at the end of the one
        // before).
        if !wait_vblank_with(|| {
            clock();
        }) {
            return None;
        }
        whole += u32::from(vdp1().edsr.read() & EDSR_BEF != 0);
    }
    Some((whole, clock().wrapping_sub(start)))
}

/// How the list's distorted sprites are changed for a timing.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// High-speed shrink on (fewer texels read where the texture is larger than drawn).
    HighSpeedShrink,
    /// An 8 x 8 texture instead (what a mipmap level of the distance would be: the
    /// picture is wrong, its cost is the question).
    Texture8x8,
}

/// Applies (`on`) or undoes `change` on every distorted sprite of the list at VRAM 0's
/// jump, in VRAM, while the VDP1 does not draw (between [`draw_time`]s). `originals`
/// keeps each sprite's `CMDSIZE` for undoing the texture change.
pub fn change_list(change: Change, on: bool, originals: &mut [u16]) {
    let word = |address: usize| (VRAM + address) as *mut u16;
    // SAFETY: reads and writes within VDP1 VRAM (512 KiB), which the program owns; the
    // walk stops at the list's end or after `originals.len()` commands.
    unsafe {
        let list = usize::from(core::ptr::read_volatile(word(2))) * 8;
        for (i, original) in originals.iter_mut().enumerate() {
            let command = list + 32 * i;
            if command + 32 > 512 * 1024 {
                return;
            }
            let ctrl = core::ptr::read_volatile(word(command));
            if ctrl & CTRL_END != 0 {
                return;
            }
            if ctrl & 0x4000 != 0 || ctrl & 0xF != DISTORTED_SPRITE {
                continue;
            }
            match change {
                Change::HighSpeedShrink => {
                    let pmod = core::ptr::read_volatile(word(command + 4));
                    let pmod = match on {
                        true => pmod | PMOD_HIGH_SPEED_SHRINK,
                        false => pmod & !PMOD_HIGH_SPEED_SHRINK,
                    };
                    core::ptr::write_volatile(word(command + 4), pmod);
                }
                Change::Texture8x8 => {
                    let size = word(command + 10);
                    if on {
                        *original = core::ptr::read_volatile(size);
                        core::ptr::write_volatile(size, SIZE_8X8);
                    } else {
                        core::ptr::write_volatile(size, *original);
                    }
                }
            }
        }
    }
}
