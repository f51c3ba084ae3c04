//! # jom: a 3D engine for Sega Saturn homebrew
//!
//! `jom` reads JOM models (the format of `jo_model.py`, specified in the project's shared
//! seeds) in place: a file read from CD into a 4-byte-aligned buffer is validated once by
//! [`Model::from_bytes`], then every chunk is a typed, zero-copy view of that buffer. The
//! file is big endian, the SH-2's own byte order, so on the Saturn an accessor is a plain
//! load; on a little-endian host (where the crate is tested) it swaps.
//!
//! ```
//! let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
//! let model = jom::Model::from_bytes(bytes)?;
//! println!("{} points, {} polygons", model.points().len(), model.polygons().len());
//! for material in model.materials() {
//!     println!("{}: sort {:?}", material.name(), material.flags().sort_mode());
//! }
//! # Ok::<(), jom::LoadError>(())
//! ```
//!
//! The crate is `#![no_std]` and never allocates.
#![no_std]
#![warn(missing_docs)]
#![deny(rustdoc::broken_intra_doc_links)]
// A program of half the suites (`selftest::SUITES`) leaves the other half unused.
#![cfg_attr(
    any(feature = "selftest-render-only", feature = "selftest-others-only"),
    allow(dead_code)
)]

pub mod anim;
mod asm_layout;
#[cfg(all(jom_asm, feature = "selftest"))]
mod asm_tests;
pub mod disc;
pub mod format;
pub mod hw;
pub mod image;
pub mod iso9660;
pub mod math;
pub mod render;
#[cfg(any(test, feature = "selftest"))]
pub mod selftest;
pub mod vdp1;
pub mod vdp2;
pub mod worker;

pub use format::{LoadError, Model};
pub use math::{Angle, Fixed};

/// Embeds a file in the program at 4-byte alignment, as [`Model::from_bytes`] requires, and
/// gives it as `&'static [u8]`. For a model linked into the program (a cartridge demo, a
/// test) instead of read from CD.
///
/// ```
/// let bytes: &'static [u8] =
///     jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
/// assert_eq!(bytes.as_ptr() as usize % 4, 0);
/// ```
#[macro_export]
macro_rules! include_aligned {
    ($path:expr) => {{
        static ALIGNED: &$crate::Aligned<[u8]> = &$crate::Aligned(*include_bytes!($path));
        &ALIGNED.0
    }};
}

/// This crate's version, for `jom-macros`' `include_jom!` (which validates a model with its
/// own build of this crate, and checks that it is the game's).
#[doc(hidden)]
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Whether `version` is this crate's [`VERSION`] (a `const fn`: `include_jom!` asserts it
/// when the game is compiled).
#[doc(hidden)]
pub const fn __same_version(version: &str) -> bool {
    let (a, b) = (version.as_bytes(), VERSION.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A value aligned on 4 bytes, for [`include_aligned!`] and for buffers a file is read into.
#[repr(C, align(4))]
pub struct Aligned<T: ?Sized>(pub T);

/// The bytes of a [`static_buffer!`]: all zero in `.bss`, or whatever RAM held in a section
/// that is not cleared at start.
#[doc(hidden)]
pub struct StaticBuffer<const N: usize>(core::cell::UnsafeCell<Aligned<[u8; N]>>);

// SAFETY: reached only through `get`, whose caller hands the one reference out once.
unsafe impl<const N: usize> Sync for StaticBuffer<N> {}

impl<const N: usize> StaticBuffer<N> {
    #[allow(clippy::new_without_default)] // a `const fn`, for a `static`
    pub const fn new() -> Self {
        Self(core::cell::UnsafeCell::new(Aligned([0; N])))
    }

    /// The bytes.
    ///
    /// # Safety
    /// Called once for this buffer ([`static_buffer!`]'s flag says when).
    #[allow(clippy::mut_from_ref)] // handed out once: not a borrow of `self`
    pub unsafe fn get(&'static self) -> &'static mut Aligned<[u8; N]> {
        // SAFETY: the caller's promise: no other reference to the bytes, ever.
        unsafe { &mut *self.0.get() }
    }
}

/// Declares a buffer of `$bytes` bytes (4-byte aligned) that lives for the program, in a
/// `static`, and takes it: `Some(&'static mut Aligned<[u8; $bytes]>)` the first time this
/// line runs, `None` after (as [`renderer_memory!`] is taken). With `link_section =
/// ".lwram.model"` after the size, the buffer is in low work RAM, not cleared at start
/// (`link.x`: its bytes are then whatever RAM held; the flag that hands it out once is
/// elsewhere, cleared). For a model read from CD and used in place.
///
/// ```
/// let buffer = jom::static_buffer!(4096).unwrap();
/// assert_eq!(buffer.0.len(), 4096);
/// ```
#[macro_export]
macro_rules! static_buffer {
    ($bytes:expr $(, link_section = $section:literal)? $(,)?) => {{
        $(#[link_section = $section])?
        static BUFFER: $crate::StaticBuffer<{ $bytes }> = $crate::StaticBuffer::new();
        static TAKEN: $crate::render::TakeOnce<()> = $crate::render::TakeOnce::new(());
        match TAKEN.take() {
            // SAFETY: `TAKEN` is handed out once, and with it the buffer.
            Some(_) => Some(unsafe { BUFFER.get() }),
            None => None,
        }
    }};
}
