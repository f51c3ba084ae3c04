//! A loaded model's handle: what it holds of the renderer's memory (its textures', gouraud
//! tables' and plane runs' slots) and gives back when dropped, to the renderer it came from
//! ([`Owner`]), which holds it until no list on screen uses it.

use core::ops::Range;

use crate::format::Model;

/// A loaded model: drawn by [`Frame::draw`](crate::render::Frame::draw) and [`Frame::draw_posed`](crate::render::Frame::draw_posed). Dropped, it gives
/// its textures and gouraud tables back (those another model uses stay) once a frame
/// finished after the drop is on screen (seen by the next [`Renderer::begin`](crate::render::Renderer::begin) or
/// [`finish`](crate::render::Frame::finish) after the VDP1's frame change): until then the VDP1 may
/// still draw them.
pub struct ModelHandle<'r, 'b> {
    pub(super) owner: &'r dyn Owner,
    pub(super) model: Model<'b>,
    /// This load's number, never 0 (each load a new one): what a draw slot keeps its
    /// emission templates for.
    pub(super) serial: u32,
    pub(super) textures: Range<u32>,
    pub(super) gouraud: Range<u32>,
    /// Its runs of coplanar polygons, in `memory.plane_runs`.
    pub(super) planes: Range<u32>,
    /// Whether its groups hold the corner A of each of their polygons
    /// ([`corners_in_groups`]): its posed draws' culling then looks none up.
    pub(super) corners_in_groups: bool,
}

impl<'b> ModelHandle<'_, 'b> {
    /// The model.
    pub fn model(&self) -> &Model<'b> {
        &self.model
    }
}

impl Drop for ModelHandle<'_, '_> {
    fn drop(&mut self) {
        let (textures, gouraud) = (self.textures.clone(), self.gouraud.clone());
        self.owner.release(textures, gouraud, self.planes.clone());
    }
}

/// What a handle gives its VRAM back to.
pub(super) trait Owner {
    fn release(&self, textures: Range<u32>, gouraud: Range<u32>, planes: Range<u32>);
}
