//! The jom crate's tests as SH-2 code: every suite of `jom::selftest::SUITES`, then (on a
//! Saturn) the tests of the hardware, in one program; `N passed, N failed` at the end.
//! Two builds:
//! - default: under qemu-sh4eb (`make sh2-test`): standard output, exit status 1 if any
//!   test failed;
//! - feature `saturn`: on a Saturn, booted from a CD image in an emulator or a console, or
//!   sent to a console by a cartridge loader (`make console-tests`, `make console-test`):
//!   the report goes to the screen (a line a suite, the failures, the totals on a green or
//!   red bar), to backup RAM (which an emulator saves when it quits) and to the USB dev
//!   cart when a PC reads it. Some hardware tests cannot show all they test on every
//!   emulator: such a test passes what it can show and [`skip`]s the rest, a `skip` line
//!   after its own, and the last line is then `N passed, N failed, N skipped`.
//!
//! Feature `a-test-that-fails` runs one test that fails instead of the suites: the report
//! of a failure (the red bar) seen in seconds.
#![no_std]
#![no_main]
// Built to fail one test, the program leaves the suites and the hardware tests unused.
#![cfg_attr(feature = "a-test-that-fails", allow(dead_code, unused_imports))]

use jom::selftest::Test;

#[cfg(not(feature = "saturn"))]
mod qemu;
#[cfg(not(feature = "saturn"))]
use qemu as console;

#[cfg(feature = "saturn")]
mod saturn;
#[cfg(feature = "saturn")]
use saturn as console;

/// What a line of the report is, which says where it goes: every output takes the totals
/// and the suites' lines and what failed or was skipped; standard output and the USB dev
/// cart (streams) each test's line too, backup RAM (16 KiB) and the screen (28 lines) not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A test that passed.
    Passed,
    /// A test that failed, or what a test could not show here.
    Failure,
    /// A suite's counts.
    Suite,
    /// The program's counts, its last line.
    Totals,
}

/// Where the report goes: [`qemu::Stdout`] or the Saturn's outputs.
pub trait Report {
    /// Writes one line of the given kind (its text without the newline).
    fn line(&mut self, kind: Line, text: core::fmt::Arguments<'_>);
    /// Ends the report, all the tests run: `all_passed` or not.
    fn finish(self, all_passed: bool) -> !;
}

/// What the test running now could not show here, once it has said so ([`skip`]).
static mut SKIPPED: Option<&'static str> = None;

/// Says that the test running now passes without showing `what` (and why), which this
/// machine cannot show: printed as a skip after the test's own line.
#[cfg_attr(not(feature = "saturn"), allow(dead_code))]
pub fn skip(what: &'static str) {
    // SAFETY: the tests run one by one on this CPU alone; `run` takes it after each.
    unsafe { *core::ptr::addr_of_mut!(SKIPPED) = Some(what) };
}

/// A count of tests.
#[derive(Clone, Copy, Default)]
struct Counts {
    passed: u32,
    failed: u32,
    skipped: u32,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
        self.skipped += other.skipped;
    }
}

/// The suites run: every suite, then the hardware tests (but for the half of the
/// renderer's suites, feature `render-suites`); or (feature `a-test-that-fails`) a test
/// that fails.
#[cfg(not(feature = "a-test-that-fails"))]
fn suites() -> impl Iterator<Item = &'static [Test]> {
    let hardware: &[Test] = match cfg!(feature = "render-suites") {
        true => &[],
        false => console::HARDWARE_TESTS,
    };
    jom::selftest::SUITES.iter().copied().chain([hardware])
}
#[cfg(feature = "a-test-that-fails")]
fn suites() -> impl Iterator<Item = &'static [Test]> {
    [MADE_TO_FAIL].into_iter()
}

/// A test that fails (feature `a-test-that-fails`).
#[cfg(feature = "a-test-that-fails")]
static MADE_TO_FAIL: &[Test] = &[Test {
    name: "made_to_fail::on_purpose",
    run: || {
        Err(jom::selftest::Failure::new(
            file!(),
            line!(),
            format_args!("this test fails on purpose (feature a-test-that-fails)"),
        ))
    },
}];

#[no_mangle]
pub extern "C" fn main() -> ! {
    jom::hw::stack::paint();
    let mut out = console::open();
    let mut all = Counts::default();
    for suite in suites().filter(|suite| !suite.is_empty()) {
        let counts = run(&mut out, suite);
        out.line(
            Line::Suite,
            format_args!(
                "{:<19} {:>3} passed, {} failed",
                suite_name(suite).as_str(),
                counts.passed,
                counts.failed
            ),
        );
        all.add(counts);
    }
    // A run that reached the bottom of the master's stack may have written past it: its
    // results cannot be trusted.
    let untouched = jom::hw::stack::untouched();
    if untouched == 0 {
        all.failed += 1;
        out.line(
            Line::Failure,
            format_args!("FAIL the master stack: the tests reached its bottom"),
        );
    } else {
        all.passed += 1;
        out.line(
            Line::Suite,
            format_args!("ok   the master stack: {untouched} bytes never used"),
        );
    }
    match all.skipped {
        0 => out.line(
            Line::Totals,
            format_args!("{} passed, {} failed", all.passed, all.failed),
        ),
        skipped => out.line(
            Line::Totals,
            format_args!(
                "{} passed, {} failed, {skipped} skipped",
                all.passed, all.failed
            ),
        ),
    }
    out.finish(all.failed == 0)
}

/// Runs a suite's tests, a line each.
fn run(out: &mut impl Report, suite: &[Test]) -> Counts {
    let mut counts = Counts::default();
    for test in suite {
        match (test.run)() {
            Ok(()) => {
                counts.passed += 1;
                out.line(Line::Passed, format_args!("ok   {}", test.name));
            }
            Err(failure) => {
                counts.failed += 1;
                out.line(Line::Failure, format_args!("FAIL {}: {failure}", test.name));
            }
        }
        // SAFETY: as in `skip`.
        if let Some(what) = unsafe { (*core::ptr::addr_of_mut!(SKIPPED)).take() } {
            counts.skipped += 1;
            out.line(Line::Failure, format_args!("skip {}: {what}", test.name));
        }
    }
    counts
}

/// A suite's name: its tests' module less the crate and the `tests` modules
/// (`render::renderer`, `render::renderer::transfer_over`).
fn suite_name(suite: &[Test]) -> heapless::String<64> {
    let name = suite.first().map_or("", |test| test.name);
    let module = name.rsplit_once("::").map_or(name, |(module, _)| module);
    let mut short = heapless::String::new();
    for part in module
        .split("::")
        .filter(|&part| part != "jom" && part != "tests")
    {
        // A name longer than the string is cut: it only labels a line.
        let separator = if short.is_empty() { "" } else { "::" };
        let _ = short.push_str(separator);
        let _ = short.push_str(part);
    }
    short
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let mut out = console::open();
    out.line(Line::Failure, format_args!("panic: {info}"));
    out.finish(false)
}
