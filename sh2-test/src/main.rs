//! The jom crate's tests as SH-2 code: every suite of `jom::selftest`, one line per test,
//! then `N passed, N failed`. Two ways out:
//! - default: under qemu-sh4eb (`make sh2-test`): standard output, exit status 1 if any
//!   test failed;
//! - feature `saturn`: booted from a CD image in an emulator (`ci/sh2-test-saturn.sh`):
//!   the text goes to backup RAM, which the emulator saves when it quits, and the back
//!   screen turns green (all passed) or red. This run adds tests of the hardware itself,
//!   some of which cannot show all they test on every emulator: such a test passes what
//!   it can show and [`skip`]s the rest, a `skip` line after its own, and the last line
//!   is then `N passed, N failed, N skipped`.
#![no_std]
#![no_main]

use core::fmt::Write;
use jom::selftest::Test;

#[cfg(not(feature = "saturn"))]
mod qemu;
#[cfg(not(feature = "saturn"))]
use qemu as console;

#[cfg(feature = "saturn")]
mod saturn;
#[cfg(feature = "saturn")]
use saturn as console;

/// The suites this program runs: all of them, or one of four parts (features `part1` to
/// `part4`: each small enough for Mednafen's 512 KiB boot ROM; the hardware tests go with
/// the third).
#[cfg(not(any(
    feature = "part1",
    feature = "part2",
    feature = "part3",
    feature = "part4"
)))]
const SUITES: &[&[&[Test]]] = &[
    jom::selftest::FIRST_SUITES,
    jom::selftest::SECOND_SUITES,
    jom::selftest::THIRD_SUITES,
    jom::selftest::FOURTH_SUITES,
];
#[cfg(feature = "part1")]
const SUITES: &[&[&[Test]]] = &[jom::selftest::FIRST_SUITES];
#[cfg(feature = "part2")]
const SUITES: &[&[&[Test]]] = &[jom::selftest::SECOND_SUITES];
#[cfg(feature = "part3")]
const SUITES: &[&[&[Test]]] = &[jom::selftest::THIRD_SUITES];
#[cfg(feature = "part4")]
const SUITES: &[&[&[Test]]] = &[jom::selftest::FOURTH_SUITES];

const HARDWARE_TESTS: &[Test] =
    if cfg!(any(feature = "part1", feature = "part2", feature = "part4")) {
        &[]
    } else {
        console::HARDWARE_TESTS
    };

/// What the test running now could not show here, once it has said so ([`skip`]).
static mut SKIPPED: Option<&'static str> = None;

/// Says that the test running now passes without showing `what` (and why), which this
/// machine cannot show: printed as a skip after the test's own line.
#[cfg_attr(not(feature = "saturn"), allow(dead_code))]
pub fn skip(what: &'static str) {
    // SAFETY: the tests run one by one on this CPU alone; `main` takes it after each.
    unsafe { *core::ptr::addr_of_mut!(SKIPPED) = Some(what) };
}

#[no_mangle]
pub extern "C" fn main() -> ! {
    jom::hw::stack::paint();
    let mut out = console::open();
    let (mut passed, mut failed, mut skipped) = (0u32, 0u32, 0u32);
    let tests = SUITES
        .iter()
        .copied()
        .flatten()
        .copied()
        .flatten()
        .chain(HARDWARE_TESTS);
    for test in tests {
        match (test.run)() {
            Ok(()) => {
                passed += 1;
                let _ = writeln!(out, "ok   {}", test.name);
            }
            Err(failure) => {
                failed += 1;
                let _ = writeln!(out, "FAIL {}: {failure}", test.name);
            }
        }
        // SAFETY: as in `skip`.
        if let Some(what) = unsafe { (*core::ptr::addr_of_mut!(SKIPPED)).take() } {
            skipped += 1;
            let _ = writeln!(out, "skip {}: {what}", test.name);
        }
    }
    // A run that reached the bottom of the master's stack may have written past it (the
    // slave's stack, then .bss): its results cannot be trusted.
    let untouched = jom::hw::stack::untouched();
    match untouched {
        0 => {
            failed += 1;
            let _ = writeln!(out, "FAIL the master stack: the tests reached its bottom");
        }
        _ => {
            passed += 1;
            let _ = writeln!(out, "ok   the master stack: {untouched} bytes never used");
        }
    }
    let _ = match skipped {
        0 => writeln!(out, "{passed} passed, {failed} failed"),
        _ => writeln!(out, "{passed} passed, {failed} failed, {skipped} skipped"),
    };
    console::finish(out, failed == 0)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let mut out = console::open();
    let _ = writeln!(out, "panic: {info}");
    console::finish(out, false)
}
