//! The jom engine for C programs (issue #16): `libjom.a` and `include/jom.h`, for Saturn
//! games written with Jo Engine, libyaul or SGL and built with `sh-elf-gcc -m2 -mb`.
//!
//! Every function is `extern "C"`, returns a [`jom_result`] (0: done) and checks its
//! pointers: a null pointer, a misaligned or never-initialised state, a short buffer or a
//! bad model gives an error code, never a crash ([`jom_error_message`] names it). Nothing
//! is allocated: the caller gives the memory of every state (`jom_model`, `jom_vram`,
//! `jom_textures`, `jom_player`: opaque, of the sizes the header's `JOM_*_SIZE` give,
//! checked against the Rust types below) and of the plain structs (camera, light,
//! matrices, pose, command list, work buffers). The engine does the work: this crate only
//! checks the C side's arguments and calls it (`jom::Model`, `jom::vdp1::TextureCache`,
//! `jom::anim::AnimationPlayer`, `jom::render::draw_into` / `draw_pose_into`).
#![no_std]
#![allow(non_camel_case_types)]

#[cfg(not(target_os = "none"))]
extern crate std;

mod draw;
mod model;
mod player;
mod result;
#[cfg(target_os = "none")]
mod saturn;
mod state;
mod textures;

pub use draw::*;
pub use model::*;
pub use player::*;
pub use result::*;
#[cfg(target_os = "none")]
pub use saturn::*;
pub use textures::*;

/// A panic cannot cross into C: the library stops. None is expected: every argument is
/// checked before the engine sees it.
#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
