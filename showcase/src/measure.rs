//! The frame rate and where the time goes, written to backup RAM with the `measure`
//! feature (`ci/showcase-report.py` reads it). Shared with the world (`world/src/main.rs`
//! includes this file), whose crate root has the same `clock` module and `slave_state`.

use core::fmt::Write;

use jom::hw::backup_ram::BackupRamText;
use jom::render::FrameStats;

use super::clock::{self, Rates};

/// CPU clocks of a field, measured by the timer at the start (`start`), and the
/// console's video standard: 1 for PAL.
static mut FIELD_CYCLES: u32 = 0;
static mut PAL: u32 = 0;

/// With `measure`, keeps `rates`' standard and `cycles`, a field measured at the start,
/// for the report and the stages: whether the clock is the one its figures are divided
/// by.
pub fn start(rates: Rates, cycles: u32) {
    // SAFETY: the master's only accesses before the stages and the frames' reports,
    // which read them.
    unsafe {
        *core::ptr::addr_of_mut!(FIELD_CYCLES) = cycles;
        *core::ptr::addr_of_mut!(PAL) = u32::from(rates.standard == jom::hw::VideoStandard::Pal);
    }
}

/// `pal N` and `field N` lines (what [`start`] kept).
fn write_start(out: &mut BackupRamText) {
    // SAFETY: written once at the start, on the master, which writes this.
    let (pal, field) = unsafe {
        (
            *core::ptr::addr_of!(PAL),
            *core::ptr::addr_of!(FIELD_CYCLES),
        )
    };
    let _ = writeln!(out, "pal {pal}");
    let _ = writeln!(out, "field {field}");
}

/// Frames left out at the start (loading, the first cross-fade's set-up).
const WARM_UP: u32 = 30;
/// Frames measured: a whole turn of the orbit (the camera turns by itself 0x40 of a
/// turn a frame: 1,024 frames) and more, nine cross-fades.
const FRAMES: u32 = 1_080;

/// One frame's times (timer counts) and what it drew.
pub struct Times {
    /// From the previous frame's start to this one's (both at `begin`'s return).
    pub period: u32,
    /// The CPU's work of the frame: everything but `finish`'s wait for the VDP1.
    pub work: u32,
    /// Of which posing the character.
    pub pose: u32,
    /// `Renderer::begin`, outside the work.
    pub begin: u32,
    pub stats: FrameStats,
}

/// Sums of each probe segment: frames, transform, cull + sort, emit, commit, polygons
/// drawn.
static mut SEGMENTS: [[u64; 6]; 4] = [[0; 6]; 4];

/// With `probe`, adds a frame of `segment` and every 40 frames writes every
/// segment's sums to backup RAM (`seg N frames F transform T cull C emit E commit M drawn D`).
pub fn probe(segment: u32, stats: &FrameStats) {
    if !cfg!(feature = "probe") {
        return;
    }
    // SAFETY: the master's only reference, for this call (no interrupt handler).
    let segments = unsafe { &mut *core::ptr::addr_of_mut!(SEGMENTS) };
    let row = &mut segments[segment as usize % 4];
    let t = &stats.times;
    for (sum, value) in
        row.iter_mut()
            .zip([1, t.transform, t.sort, t.emit, t.commit, stats.drawn as u32])
    {
        *sum += u64::from(value);
    }
    if segments.iter().map(|r| r[0]).sum::<u64>() % 40 != 0 {
        return;
    }
    let mut out = BackupRamText::open(b"JOMP");
    for (i, r) in segments.iter().enumerate() {
        let _ = writeln!(
            out,
            "seg {i} frames {} transform {} cull {} emit {} commit {} drawn {}",
            r[0], r[1], r[2], r[3], r[4], r[5]
        );
    }
    out.close();
}

/// With `measure`, leaves `what` in backup RAM (what a run that stops early got to,
/// with the standard and the field measured at the start; the report overwrites it).
pub fn stage(what: &str) {
    if cfg!(feature = "measure") {
        let mut out = BackupRamText::open(b"JOMS");
        let _ = writeln!(out, "stage {what}");
        write_start(&mut out);
        out.close();
    }
}

/// Sums over the measured frames.
pub struct Report {
    rates: Rates,
    seen: u32,
    frames: u32,
    period: u64,
    longest: u32,
    late: u32,
    /// Frames whose list was ready after the frame change it was meant for
    /// (`FrameStats::late`: the picture before shown a field more).
    missed: u32,
    /// The least wait for that change (timer counts): the margin of the frames on time.
    least_wait: u32,
    /// Frames whose `finish` heard of a list the VDP1 could not draw in its field
    /// (`FrameStats::transfer_over`: the picture shown lacked its last commands), and
    /// the one cut shortest: its commands drawn, of how many.
    transfer_over: u32,
    shortest: Option<(u16, u16)>,
    work: u64,
    most_work: u32,
    pose: u64,
    begin: u64,
    transform: u64,
    cull: u64,
    emit: u64,
    commit: u64,
    drawn: u64,
    least_drawn: usize,
    /// Frames that drew fewer than 1,000 polygons (the showcase is to draw at least that).
    under_1000: u32,
    most_drawn: usize,
    culled: u64,
    /// Timer counts the last write of the sums took: the measure's own, taken out of
    /// the period of the frame it fell in (the next one).
    writing: u32,
}

impl Report {
    pub fn new(rates: Rates) -> Self {
        Self {
            rates,
            seen: 0,
            frames: 0,
            period: 0,
            longest: 0,
            late: 0,
            missed: 0,
            least_wait: u32::MAX,
            transfer_over: 0,
            shortest: None,
            work: 0,
            most_work: 0,
            pose: 0,
            begin: 0,
            transform: 0,
            cull: 0,
            emit: 0,
            commit: 0,
            drawn: 0,
            least_drawn: usize::MAX,
            under_1000: 0,
            most_drawn: 0,
            culled: 0,
            writing: 0,
        }
    }

    pub fn add(&mut self, times: &Times) {
        if !cfg!(feature = "measure") || cfg!(feature = "probe") {
            return;
        }
        self.seen += 1;
        if self.seen <= WARM_UP {
            if self.seen % 10 == 0 {
                stage("warming up");
            }
            return;
        }
        if self.frames >= FRAMES {
            return;
        }
        self.frames += 1;
        let period = times.period - core::mem::take(&mut self.writing).min(times.period);
        self.period += u64::from(period);
        self.longest = self.longest.max(period);
        // A frame later than 1.5 fields missed a VBlank.
        if 2 * period > 3 * self.rates.field {
            self.late += 1;
        }
        match times.stats.late {
            true => self.missed += 1,
            false => self.least_wait = self.least_wait.min(times.stats.times.wait),
        }
        if let Some(over) = times.stats.transfer_over {
            self.transfer_over += 1;
            let share = |(drawn, commands): (u16, u16)| {
                u32::from(drawn) * 65_536 / u32::from(commands.max(1))
            };
            let this = (over.drawn, over.commands);
            if self
                .shortest
                .is_none_or(|shortest| share(this) < share(shortest))
            {
                self.shortest = Some(this);
            }
        }
        self.work += u64::from(times.work);
        self.most_work = self.most_work.max(times.work);
        self.pose += u64::from(times.pose);
        self.begin += u64::from(times.begin);
        let (s, t) = (&times.stats, &times.stats.times);
        self.transform += u64::from(t.transform);
        self.cull += u64::from(t.sort);
        self.emit += u64::from(t.emit);
        self.commit += u64::from(t.commit);
        self.drawn += s.drawn as u64;
        self.least_drawn = self.least_drawn.min(s.drawn);
        self.under_1000 += u32::from(s.drawn < 1000);
        self.most_drawn = self.most_drawn.max(s.drawn);
        self.culled += s.culled as u64;
        // Every 60 frames: a run cut short still says what it measured. (Its time, some
        // 20,000 cycles of formatting and backup RAM writes, is not the showcase's.)
        if self.frames % 60 == 0 {
            let start = clock::now();
            self.write();
            self.writing = clock::now().wrapping_sub(start);
        }
    }

    /// Writes the sums as `key value` lines (timer counts of CPU clock / 128).
    fn write(&self) {
        let mut out = BackupRamText::open(b"JOMS");
        let _ = writeln!(out, "complete {}", u32::from(self.frames == FRAMES));
        let _ = writeln!(out, "frames {}", self.frames);
        let _ = writeln!(out, "wanted {FRAMES}");
        let _ = writeln!(out, "clocks_per_count {}", clock::CLOCKS_PER_COUNT);
        let _ = writeln!(out, "cpu_clock {}", self.rates.cpu_clock);
        let _ = writeln!(out, "field_cycles {}", self.rates.field_cycles);
        let _ = writeln!(out, "period {}", self.period);
        let _ = writeln!(out, "longest {}", self.longest);
        let _ = writeln!(out, "late {}", self.late);
        let _ = writeln!(out, "missed {}", self.missed);
        let _ = writeln!(out, "least_wait {}", self.least_wait);
        let _ = writeln!(out, "transfer_over {}", self.transfer_over);
        let (drawn, commands) = self.shortest.unwrap_or((0, 0));
        let _ = writeln!(out, "transfer_over_drawn {drawn}");
        let _ = writeln!(out, "transfer_over_commands {commands}");
        let _ = writeln!(out, "work {}", self.work);
        let _ = writeln!(out, "most_work {}", self.most_work);
        let _ = writeln!(out, "pose {}", self.pose);
        let _ = writeln!(out, "begin {}", self.begin);
        let _ = writeln!(out, "transform {}", self.transform);
        let _ = writeln!(out, "cull_sort {}", self.cull);
        let _ = writeln!(out, "emit {}", self.emit);
        let _ = writeln!(out, "commit {}", self.commit);
        let _ = writeln!(out, "drawn {}", self.drawn);
        let _ = writeln!(out, "least_drawn {}", self.least_drawn);
        let _ = writeln!(out, "under_1000 {}", self.under_1000);
        let _ = writeln!(out, "most_drawn {}", self.most_drawn);
        let _ = writeln!(out, "culled {}", self.culled);
        let _ = writeln!(out, "slave {}", super::slave_state());
        write_start(&mut out);
        out.close();
    }
}
