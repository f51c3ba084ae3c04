//! The crate's tests as plain functions, so that one definition runs everywhere: `cargo
//! test` on the host runs each as a `#[test]`, and the SH-2 test binary (feature
//! `selftest`) runs [`SUITES`] one by one and reports each test. Tests return a
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

/// The crate's suites, in the order the SH-2 test program runs them: the renderer's, the
/// draw API's and the assembly comparisons, the readers of volumes and images, the maths'
/// and the hardware layer's, the animation's, the loaders from disc, the CD block's
/// protocol against a simulated CD block, the format's and the VDP1's. A program too large
/// for the Saturn's high work RAM with them all takes half: the renderer's (feature
/// `selftest-render-only`) or the others (`selftest-others-only`).
pub static SUITES: &[&[Test]] = &[
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::renderer::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::emit::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::limits::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::billboard::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::fog::tests::TESTS,
    #[cfg(all(jom_asm, not(feature = "selftest-others-only")))]
    crate::asm_tests::TESTS,
    #[cfg(all(jom_asm, not(feature = "selftest-others-only")))]
    crate::asm_tests::frame_emit::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::iso9660::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::image::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::math::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::visibility::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::tests::regions::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::tests::levels::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::smpc::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::frt::tests::TESTS,
    #[cfg(all(jom_saturn, not(feature = "selftest-render-only")))]
    crate::asm_tests::saturn::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::scu::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::usb_cart::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::anim::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::disc::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::cd::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::format::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::vdp1::tests::TESTS,
    #[cfg(not(feature = "selftest-others-only"))]
    crate::render::renderer::tests::transfer_over::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::hw::text::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::vdp2::floor::tests::TESTS,
    #[cfg(not(feature = "selftest-render-only"))]
    crate::vdp2::tiles::tests::TESTS,
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

/// The checked-in files of `tests/fixtures/` the suites read (on the SH-2 too: linked into
/// the program), each at 4-byte alignment as a model must be: one place for their paths.
pub(crate) mod fixtures {
    macro_rules! fixture {
        ($name:literal) => {
            crate::include_aligned!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fixtures/",
                $name
            ))
        };
    }

    /// `tests/fixtures/every_chunk.jom`.
    pub(crate) const EVERY_CHUNK: &[u8] = fixture!("every_chunk.jom");
    /// `tests/fixtures/minimal.jom`.
    pub(crate) const MINIMAL: &[u8] = fixture!("minimal.jom");
    /// `tests/fixtures/motion.jom`.
    pub(crate) const MOTION: &[u8] = fixture!("motion.jom");
    /// `tests/fixtures/mesh.jom`.
    pub(crate) const MESH: &[u8] = fixture!("mesh.jom");
    /// `tests/fixtures/mesh_motion.jom`.
    pub(crate) const MESH_MOTION: &[u8] = fixture!("mesh_motion.jom");
    /// `tests/fixtures/mesh_materials.jom`.
    pub(crate) const MESH_MATERIALS: &[u8] = fixture!("mesh_materials.jom");
    /// `tests/fixtures/boxes.jom`.
    pub(crate) const BOXES: &[u8] = fixture!("boxes.jom");
    /// `tests/fixtures/level.jom`: 4 x 4 regions (REGN) of 3 x 3 quads.
    pub(crate) const LEVEL: &[u8] = fixture!("level.jom");
    /// `tests/fixtures/levels.jom`: the mesh with a lower level of detail (LODS).
    pub(crate) const LEVELS: &[u8] = fixture!("levels.jom");
    /// `tests/fixtures/texture_files.jom`.
    pub(crate) const TEXTURE_FILES: &[u8] = fixture!("texture_files.jom");
    /// `tests/fixtures/CHECKER.BIN`.
    pub(crate) const CHECKER: &[u8] = fixture!("CHECKER.BIN");
    /// `tests/fixtures/GRADIENT.TGA`.
    pub(crate) const GRADIENT: &[u8] = fixture!("GRADIENT.TGA");
    /// `tests/fixtures/mesh_motion_frame.bin`.
    pub(crate) const MESH_MOTION_FRAME: &[u8] = fixture!("mesh_motion_frame.bin");
}
