//! The jom crate's tests as SH-2 code: every suite of `jom::selftest`, one line per test on
//! standard output, then `N passed, N failed`; exit status 1 if any test failed. Run under
//! qemu-sh4eb by `make sh2-test`.
#![no_std]
#![no_main]

use core::fmt::Write;

extern "C" {
    fn sys_write(fd: i32, buffer: *const u8, len: usize) -> isize;
    fn sys_exit(status: i32) -> !;
}

/// Standard output of the qemu process.
struct Stdout;

impl Write for Stdout {
    fn write_str(&mut self, text: &str) -> core::fmt::Result {
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            // SAFETY: the pointer and length describe `rest`, which outlives the call.
            let written = unsafe { sys_write(1, rest.as_ptr(), rest.len()) };
            let Ok(written @ 1..) = usize::try_from(written) else {
                return Err(core::fmt::Error);
            };
            rest = &rest[written.min(rest.len())..];
        }
        Ok(())
    }
}

fn exit(status: i32) -> ! {
    // SAFETY: exit takes no pointer and ends the process.
    unsafe { sys_exit(status) }
}

#[no_mangle]
pub extern "C" fn main() -> ! {
    let mut out = Stdout;
    let (mut passed, mut failed) = (0u32, 0u32);
    for test in jom::selftest::SUITES.iter().copied().flatten() {
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
    }
    let _ = writeln!(out, "{passed} passed, {failed} failed");
    exit(i32::from(failed != 0))
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    let _ = writeln!(Stdout, "panic: {info}");
    exit(101)
}
