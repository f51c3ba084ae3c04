//! What emission's SH-2 assembly (`emit.S`) reads beside the Rust, below both: the light of
//! a run of polygons in its matrix's model space ([`RunLight`]) and a draw's runs
//! ([`LightRuns`]); a material's command in the frame pass ([`FrameTemplate`],
//! [`TemplateKind`]), the frame's light in it ([`PassLight`]) and, on an SH-2, a draw as the
//! pass takes it ([`DrawRecord`]).

use super::template::CACHED_STYLES;
use crate::math::Vec3;
#[cfg(jom_asm)]
use crate::render::shared::ModelFrame;
#[cfg(jom_asm)]
use crate::vdp1::Point;

/// How many draws of a frame the frame pass takes (the first ones; the others' polygons go
/// through the general emission one by one).
pub(crate) const FRAME_DRAWS: usize = 4;

/// What the frame pass does with a material's polygons (`FRAME_KIND_*` in `emit.S`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum TemplateKind {
    /// Not its case: the general emission.
    None = 0,
    /// The template with the corners.
    Plain = 1,
    /// The template with the corners and a gouraud table of the corners' light.
    Lit = 2,
}

/// The words of a material's command that are the same for all its polygons, as the frame
/// pass reads them by the material's index: the first three, and the last (plain) or the
/// reserved field beside the gouraud table's address (lit).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameTemplate {
    pub(crate) head: [u32; 3],
    pub(crate) last: u32,
}

const _: () = assert!(core::mem::size_of::<FrameTemplate>() == 16);
const _: () = assert!(core::mem::offset_of!(FrameTemplate, head) == 0);
const _: () = assert!(core::mem::offset_of!(FrameTemplate, last) == 12);

// emit.S's FRAME_KIND_PLAIN, FRAME_KIND_LIT and FRAME_TEMPLATES.
const _: () = assert!(TemplateKind::Plain as u8 == 1 && TemplateKind::Lit as u8 == 2);
const _: () = assert!(CACHED_STYLES == 32);

impl FrameTemplate {
    pub(crate) const NONE: Self = Self {
        head: [0; 3],
        last: 0,
    };
}

/// The frame's light as the frame pass takes it: the ambient part (0 to 1 for a lit
/// template) and, when the frame's gouraud tables hold the
/// [ramp's](crate::render::list::RAMP_TABLES), the VRAM
/// address / 8 of its first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PassLight {
    pub(crate) ambient: i32,
    pub(crate) ramp: Option<u32>,
}

/// The light of one run of polygons in its matrix's model space, as the assembly reads it
/// (`emit_lit_job.inc`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunLight {
    pub(crate) direction: Vec3,
    /// 1: `direction` holds; 0: the matrix stretches (its normals go through `emit`).
    pub(crate) usable: u32,
}

const _: () = assert!(core::mem::size_of::<RunLight>() == 16);
const _: () = assert!(core::mem::offset_of!(RunLight, direction) == 0);
const _: () = assert!(core::mem::offset_of!(RunLight, usable) == 12);
impl RunLight {
    pub(crate) const NONE: Self = Self {
        direction: [0; 3],
        usable: 0,
    };
}

/// The runs of a draw's polygons as the assembly reads them (a [`ModelLight`]'s:
/// `ModelLight::runs`): the run of each group's first polygon, where each run ends, where
/// each run's colours start in `colors` (when the light has them), each run's light.
///
/// [`ModelLight`]: super::light::ModelLight
#[cfg(jom_asm)]
#[derive(Clone, Copy)]
pub(crate) struct LightRuns<'a> {
    pub(crate) groups: &'a [u8],
    pub(crate) ends: &'a [u32],
    pub(crate) rows: &'a [i16],
    pub(crate) colors: Option<&'a [u16]>,
    pub(crate) lights: &'a [RunLight],
}

/// One draw as the frame pass's assembly takes it (`FrameDraw::record`): its polygons are
/// the frame's `first..`, its materials' kinds and templates, its light's runs, the near
/// plane its corners are tested against, and its screen positions' compact copy when the
/// pass's form without that test may read it.
#[cfg(jom_asm)]
#[derive(Clone, Copy)]
pub(crate) struct DrawRecord<'a> {
    pub(crate) first: usize,
    pub(crate) frame: &'a ModelFrame<'a, 'a>,
    pub(crate) kinds: &'a [TemplateKind; CACHED_STYLES],
    pub(crate) templates: &'a [FrameTemplate; CACHED_STYLES],
    pub(crate) runs: LightRuns<'a>,
    pub(crate) near: i32,
    pub(crate) screens: Option<&'a [Point]>,
}
