//! The jom engine for C programs (issue #16): `libjom.a` and `include/jom.h`, for Saturn
//! games written with Jo Engine, libyaul or SGL and built with `sh-elf-gcc -m2 -mb`.
//!
//! Every function is `extern "C"`, returns a [`jom_result`] (0: done) and checks its
//! pointers: a null pointer, a misaligned or never-initialised state, a short buffer or a
//! bad model gives an error code, never a crash ([`jom_error_message`] names it). Nothing
//! is allocated: the caller gives the memory of every state (`jom_model`, `jom_vram`,
//! `jom_textures`, `jom_player`, `jom_frame` and its `jom_draw_slot`s and
//! `jom_placed_billboard`s: opaque, of the sizes the header's `JOM_*_SIZE` give, checked
//! against the Rust types below) and of the plain structs (camera, light, matrices, pose,
//! command list, work space, fog, billboards, levels of detail). The engine does the work: this crate only
//! checks the C side's arguments and calls it (`jom::Model`, `jom::vdp1::TextureCache`,
//! `jom::anim::AnimationPlayer`, `jom::render::ListFrame`: a frame of the engine's one
//! pipeline, written into the caller's command list).
#![no_std]
#![allow(non_camel_case_types)]

#[cfg(not(target_os = "none"))]
extern crate std;

mod draw;
mod frame;
mod model;
mod player;
mod result;
/// The Saturn (the SH-2 target: bare metal, big endian).
#[cfg(all(target_os = "none", target_endian = "big"))]
mod saturn;
mod state;
mod textures;
mod world;

pub use draw::*;
pub use frame::*;
pub use model::*;
pub use player::*;
pub use result::*;
#[cfg(all(target_os = "none", target_endian = "big"))]
pub use saturn::*;
pub use textures::*;
pub use world::*;

/// A panic cannot cross into C: the library stops. None is expected: every argument is
/// checked before the engine sees it.
#[cfg(target_os = "none")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// The sizes of the opaque states, in bytes, as the header defines them: on the SH-2
/// (32-bit pointers) and on a 64-bit host (the library's host tests). Each is checked at
/// compile time against the Rust type it holds (in its module).
pub const STATE_SIZES: [StateSize; 7] = [
    StateSize {
        name: "JOM_MODEL_SIZE",
        sh2: 256,
        host: 512,
    },
    StateSize {
        name: "JOM_VRAM_SIZE",
        sh2: 36864,
        host: 36864,
    },
    StateSize {
        name: "JOM_TEXTURES_SIZE",
        sh2: 8192,
        host: 8192,
    },
    StateSize {
        name: "JOM_PLAYER_SIZE",
        sh2: 128,
        host: 192,
    },
    StateSize {
        name: "JOM_FRAME_SIZE",
        sh2: 22528,
        host: 28672,
    },
    StateSize {
        name: "JOM_DRAW_SLOT_SIZE",
        sh2: 5824,
        host: 5864,
    },
    StateSize {
        name: "JOM_PLACED_BILLBOARD_SIZE",
        sh2: 40,
        host: 40,
    },
];

/// One line of [`STATE_SIZES`].
pub struct StateSize {
    /// The header's name.
    pub name: &'static str,
    /// Bytes on the SH-2.
    pub sh2: usize,
    /// Bytes on a 64-bit host.
    pub host: usize,
}

/// The size of state `index` of [`STATE_SIZES`] on this target.
const fn state_size(index: usize) -> usize {
    if cfg!(target_pointer_width = "32") {
        STATE_SIZES[index].sh2
    } else {
        STATE_SIZES[index].host
    }
}
