//! The crate's tests as plain functions, so that one definition runs everywhere: `cargo
//! test` on the host runs each as a `#[test]`, and the SH-2 test binary (feature
//! `selftest`) runs [`FIRST_SUITES`], [`SECOND_SUITES`], [`THIRD_SUITES`] and [`FOURTH_SUITES`] one by one and prints a line per test. Tests return a
//! [`Failure`] instead of panicking, since a panic on the SH-2 aborts the whole run.

use core::fmt::{self, Write};

/// The result of a test.
pub type TestResult = Result<(), Failure>;

/// A failed check: where it was and what was found.
pub struct Failure {
    /// Source file of the check.
    pub file: &'static str,
    /// Line of the check.
    pub line: u32,
    /// What failed, with the values involved (cut at 200 bytes).
    pub message: heapless::String<200>,
}

impl Failure {
    /// A failure at `file:line` described by `args`.
    pub fn new(file: &'static str, line: u32, args: fmt::Arguments<'_>) -> Self {
        let mut message = heapless::String::new();
        // A message longer than the buffer is cut, which is all a test report needs.
        let _ = message.write_fmt(args);
        Self {
            file,
            line,
            message,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

impl fmt::Debug for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A named test.
pub struct Test {
    /// `module::name` of the test.
    pub name: &'static str,
    /// Runs it.
    pub run: fn() -> TestResult,
}

/// The crate's suites, in four lists: a program that must be small (the Saturn tests that
/// Mednafen boots from a 512 KiB ROM) links one of them, and three more programs the others.
/// Each program must fit the ROM's 522,240 bytes of program (`ci/sh2-test-image.sh` prints
/// what is left) and its statics and stacks high work RAM. The renderer's suite (a dozen
/// renderers' memory, each keeping its draws' emission templates and its sort's counts) is
/// here, whose statics take most of high work RAM, with suites small enough to fit beside
/// it. With the screen positions' compact copy (issue 14: 4 bytes a point of every
/// renderer's memory) the lists were balanced again: by `sh-elf-size -A` of each
/// `--features saturn,partN` build and the size of its image, the first program then had
/// 12,864 bytes of high work RAM left, the second 9,408 bytes of ROM and the third 2,112.
/// The next suite to grow needed a fourth program ([`FOURTH_SUITES`]). Balanced again
/// for issue 38 (the VDP1's rules, its end status, the hardware tests of the slave's cache
/// and of the field's length): `ci/sh2-test-image.sh` prints each program's size and what
/// is left of the boot ROM's room.
pub static FIRST_SUITES: &[&[Test]] = &[
    crate::render::renderer::tests::TESTS,
    crate::render::emit::tests::TESTS,
    crate::render::limits::tests::TESTS,
];

/// The second list of the crate's suites (see [`FIRST_SUITES`]): the draw API's, the
/// assembly comparisons and the readers of volumes and images.
pub static SECOND_SUITES: &[&[Test]] = &[
    crate::render::tests::TESTS,
    #[cfg(jom_asm)]
    crate::asm_tests::TESTS,
    #[cfg(jom_asm)]
    crate::asm_tests::frame_emit::TESTS,
    crate::iso9660::tests::TESTS,
    crate::image::tests::TESTS,
];

/// The third list of the crate's suites (see [`FIRST_SUITES`]): the maths', the view
/// volume's, the hardware layer's (whose demo scene test draws through the renderer too)
/// and the animation's (from the first, whose `--features saturn,part1` program no longer
/// fit high work RAM beside its stacks at 8eb327f: 512 bytes over).
pub static THIRD_SUITES: &[&[Test]] = &[
    crate::math::tests::TESTS,
    crate::render::visibility::tests::TESTS,
    crate::hw::smpc::tests::TESTS,
    crate::hw::frt::tests::TESTS,
    #[cfg(jom_saturn)]
    crate::asm_tests::saturn::TESTS,
    crate::hw::tests::TESTS,
    crate::hw::scu::tests::TESTS,
    crate::anim::tests::TESTS,
];

/// The fourth list of the crate's suites (see [`FIRST_SUITES`]): the loaders from disc, the
/// disc's (from the second list) and the CD block's protocol against a simulated CD block
/// (from the third). Made when the CD block's suite grew by about 10 KiB of code and the
/// disc's by 5 (Thumb-2 symbol sizes of a `thumbv7em-none-eabihf` build: no SH-2 figures
/// at hand), more than the second and third programs had left. The format's and the
/// VDP1's suites came from the third when its program (`--features saturn,part3`, with the
/// hardware tests) had grown to 562,848 bytes at 8eb327f, over the boot ROM's 522,240
/// (the fourth's was 313,312). The renderer's report of a list the VDP1 could not draw in
/// its field has its own suite here: the first program had no high work RAM left for its
/// renderer's memory. The text layer's (issue 39) is here too, for now.
pub static FOURTH_SUITES: &[&[Test]] = &[
    crate::disc::tests::TESTS,
    crate::hw::cd::tests::TESTS,
    crate::format::tests::TESTS,
    crate::vdp1::tests::TESTS,
    crate::render::renderer::tests::transfer_over::tests::TESTS,
    crate::hw::text::tests::TESTS,
];

/// Fails the test unless `cond` holds.
#[macro_export]
#[doc(hidden)]
macro_rules! check {
    ($cond:expr) => {
        if !$cond {
            return Err($crate::selftest::Failure::new(
                file!(),
                line!(),
                format_args!("check failed: {}", stringify!($cond)),
            ));
        }
    };
}

/// Fails the test unless `left == right`, showing both.
#[macro_export]
#[doc(hidden)]
macro_rules! check_eq {
    ($left:expr, $right:expr) => {
        match (&$left, &$right) {
            (left, right) => {
                if left != right {
                    return Err($crate::selftest::Failure::new(
                        file!(),
                        line!(),
                        format_args!(
                            "{} == {}: {:?} != {:?}",
                            stringify!($left),
                            stringify!($right),
                            left,
                            right
                        ),
                    ));
                }
            }
        }
    };
}

/// Fails the test unless `value`'s `Display` text is `expected`.
#[macro_export]
#[doc(hidden)]
macro_rules! check_message {
    ($value:expr, $expected:expr) => {{
        use core::fmt::Write as _;
        let mut text = heapless::String::<200>::new();
        $crate::check!(write!(text, "{}", $value).is_ok());
        $crate::check_eq!(text.as_str(), $expected);
    }};
}

/// Defines tests once for both runners: each `fn name() { ... }` becomes a function
/// returning [`TestResult`], an entry of the static slice `TESTS`, and on the host a
/// `#[test]`.
#[macro_export]
#[doc(hidden)]
macro_rules! test_suite {
    ($(fn $name:ident() $body:block)*) => {
        $(
            // A failure carries its message inline (no allocator on the SH-2); a test is no
            // hot path, so the large error type costs nothing that matters.
            #[allow(clippy::result_large_err)]
            fn $name() -> $crate::selftest::TestResult {
                $body
                Ok(())
            }
        )*

        /// The tests of this module.
        pub static TESTS: &[$crate::selftest::Test] = &[$(
            $crate::selftest::Test { name: concat!(module_path!(), "::", stringify!($name)), run: $name },
        )*];

        #[cfg(test)]
        mod host {
            $(
                #[test]
                fn $name() {
                    if let Err(failure) = super::$name() {
                        panic!("{failure}");
                    }
                }
            )*
        }
    };
}
