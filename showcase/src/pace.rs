//! What the showcase's and the world's main loops share (the world includes this file, and
//! its crate root has the same `clock`, `hud`, `measure` and `scene` modules): the console
//! started (the faster clock, the display, the timer and its check), and each frame's
//! pacing: its times, the numbers in the corners and what `measure` records of it.

use jom::hw::slave::SlaveCpu;
use jom::hw::{self, SaturnVram};
use jom::render::{DrawError, Frame, FrameStats};

use crate::clock::{self, Rates};
use crate::{hud, measure, scene};

/// The colours of the numbers in the corners (RGB555).
const WHITE: u16 = 0x8000 | 31 << 10 | 31 << 5 | 31;
const YELLOW: u16 = 0x8000 | 4 << 10 | 31 << 5 | 31;

/// Starts the console: the faster clock first (its change resets the VDPs and the SCU, and
/// would stop a slave already started), the display, the timer. The console's rates, or
/// `None` when the SMPC did not end the clock change or a field did not last what the
/// console's standard and the new clock make it.
pub fn start(slave: &SlaveCpu) -> Option<Rates> {
    let clock_changed = hw::smpc::change_clock(scene::SCREEN, slave);
    hw::init_display_at(scene::SCREEN, scene::BACKGROUND);
    // NTSC or PAL: the clocks and the field's length.
    let rates = Rates::of(hw::video_standard());
    clock::start();
    // The timer says whether the clock changed: a field's cycles at the new one.
    let field = clock::measured_field();
    measure::start(rates, field.unwrap_or(0));
    if clock_changed.is_err() || !field.is_some_and(|cycles| rates.is_field(cycles)) {
        measure::stage("the clock check failed");
        return None;
    }
    Some(rates)
}

/// A frame's times (timer counts) as the loop goes through it, the numbers in the corners,
/// and the report `measure` writes.
pub struct Pace {
    report: measure::Report,
    readout: hud::Readout,
    fps_shown: hud::Number,
    drawn_shown: hud::Number,
    /// When this frame started (before its pose), was posed, and was begun (after
    /// `Renderer::begin`); the last frame's begun.
    started: u32,
    posed: u32,
    begun: u32,
    /// The last frame's figures.
    pub shown: FrameStats,
}

impl Pace {
    pub fn new(rates: Rates) -> Self {
        Self {
            report: measure::Report::new(rates),
            readout: hud::Readout::new(rates),
            fps_shown: hud::Number::new(),
            drawn_shown: hud::Number::new(),
            started: 0,
            posed: 0,
            begun: clock::now(),
            shown: FrameStats::default(),
        }
    }

    /// A frame starts (its pose next).
    pub fn start(&mut self) {
        self.started = clock::now();
    }

    /// The frame is posed (`Renderer::begin` next).
    pub fn posed(&mut self) {
        self.posed = clock::now();
    }

    /// The frame is begun: the timer counts since the last one was (its period).
    pub fn begun(&mut self) -> u32 {
        let last = core::mem::replace(&mut self.begun, clock::now());
        let period = self.begun.wrapping_sub(last);
        self.readout.add(period, self.shown.drawn);
        period
    }

    /// The numbers in the corners, into `frame` (none in the fixed frame): the frames a
    /// second in the top left one, the polygons drawn in the top right one.
    pub fn push_readout(&mut self, frame: &mut Frame<'_, '_, SaturnVram>) -> Result<(), DrawError> {
        if cfg!(feature = "fixed-frame") {
            return Ok(());
        }
        let fps = self.fps_shown.tables(self.readout.fps, 2, (8, 8), WHITE);
        frame.push_commands(fps)?;
        let right = scene::SCREEN.pixels() as i16 - 8 - hud::width(4);
        let drawn = self.readout.drawn;
        frame.push_commands(self.drawn_shown.tables(drawn, 4, (right, 8), YELLOW))
    }

    /// The frame finished (its list committed, and all else the loop does with the frame
    /// done) with `shown`, `period` after the one before; with `probe`, of `segment`.
    pub fn finished(&mut self, shown: FrameStats, period: u32, segment: u32) {
        let finished = clock::now();
        self.shown = shown;
        measure::probe(segment, &shown);
        let pose = self.posed.wrapping_sub(self.started);
        self.report.add(&measure::Times {
            period,
            work: pose
                + finished
                    .wrapping_sub(self.begun)
                    .wrapping_sub(shown.times.wait),
            pose,
            begin: self.begun.wrapping_sub(self.posed),
            stats: shown,
        });
    }
}
