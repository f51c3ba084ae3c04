//! Emission: each visible polygon, back to front, as a VDP1 command with its material's
//! colour or texture and flags. One draw's sorted polygons go through `runs` (the farthest
//! left out when the list is short of room, the plain and lit runs, SH-2 assembly on an
//! SH-2, `emit.S` bound by `sh2`; with a second CPU each emits half of a big model), each
//! polygon they stop at through `polygon` (the fast path from its material's template, or
//! the general command, its corners behind the near plane moved onto it). A frame of
//! several draws goes through `frame`: one pass over all the draws' sorted polygons, each
//! its material's template whatever draw or material came before; in fog, through `fogged`:
//! the same pass, each polygon with a gouraud table of its faded colours. Bottom first: `near`
//! (whether the near plane is tested), `template` (per material), `records` (what the
//! assembly reads), `sh2` (the assembly's bindings), `light` (light levels, gouraud
//! colours), `mipmap` (the texture's level), `subdivide` (drawing in parts), `polygon`,
//! `frame`, `fogged`, `runs`; this file only declares them and re-exports what the pipeline uses.

mod fogged;
mod frame;
mod light;
mod mipmap;
mod near;
mod polygon;
mod records;
mod runs;
#[cfg(jom_asm)]
mod sh2;
mod subdivide;
mod template;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;

pub(crate) use fogged::{emit_fogged_templates, emit_fogged_templates_shared};
#[cfg(all(jom_asm, feature = "selftest"))]
pub(crate) use frame::emit_pass;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use frame::emit_templates_reference;
pub(crate) use frame::{emit_templates, emit_templates_shared, DrawTemplates, FrameDraw};
#[cfg(any(test, feature = "selftest"))]
pub(crate) use light::ModelLight;
#[cfg(all(jom_asm, feature = "selftest"))]
pub(crate) use light::{light_colors, light_colors_reference};
pub(crate) use near::tested_near;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use polygon::emit;
pub(crate) use polygon::{emit_fogged, Emit};
pub(crate) use records::{PassLight, FRAME_DRAWS};
pub(crate) use runs::{emit_sorted, EmitCaches};
pub use subdivide::DEFAULT_SUBDIVISION_ERROR;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use template::EmitStyle;
#[cfg(all(jom_asm, feature = "selftest"))]
pub(crate) use template::LitTemplate;
