//! Output under qemu-sh4eb's user mode: Linux system calls (src/qemu.S).

use core::fmt;

extern "C" {
    fn sys_write(fd: i32, buffer: *const u8, len: usize) -> isize;
    fn sys_exit(status: i32) -> !;
}

/// No hardware under qemu.
pub static HARDWARE_TESTS: &[jom::selftest::Test] = &[];

/// Standard output of the qemu process.
pub struct Stdout;

pub fn open() -> Stdout {
    Stdout
}

impl fmt::Write for Stdout {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let mut rest = text.as_bytes();
        while !rest.is_empty() {
            // SAFETY: the pointer and length describe `rest`, which outlives the call.
            let written = unsafe { sys_write(1, rest.as_ptr(), rest.len()) };
            let Ok(written @ 1..) = usize::try_from(written) else {
                return Err(fmt::Error);
            };
            rest = &rest[written.min(rest.len())..];
        }
        Ok(())
    }
}

impl crate::Report for Stdout {
    fn line(&mut self, _: crate::Line, text: fmt::Arguments<'_>) {
        let _ = fmt::Write::write_fmt(self, format_args!("{text}\n"));
    }

    /// Exits with 0 when every test passed, 1 otherwise.
    fn finish(self, all_passed: bool) -> ! {
        // SAFETY: exit takes no pointer and ends the process.
        unsafe { sys_exit(i32::from(!all_passed)) }
    }
}
