//! What every stage of a frame reads or writes, below them all: a model as culling and
//! emission see it in a frame ([`ModelFrame`]), its points after the transform
//! ([`ViewPoint`]), where it is in VRAM ([`ModelVram`]), the sort keys, what the culling
//! kept ([`Kept`]), the light, a posed model's matrices, and the stats and phase times a
//! frame gathers.

use core::ops::Range;

use super::camera::Camera;
use crate::anim::{bone_matrices, root_matrix, AnimationPlayer};
use crate::format::{Model, MAX_BONES};
use crate::math::{Matrix, Vec3, ONE};
use crate::vdp1::{Point, Sprite, SpriteSet, TextureSlot};

/// A point after the transform: camera space and screen position (16 bytes: the SH-2
/// assembly of the transform writes this layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ViewPoint {
    /// Camera space (Q16.16).
    pub view: Vec3,
    /// Screen position relative to the centre (valid when in front of the near plane).
    pub screen: Point,
}

impl ViewPoint {
    /// At the eye, on the screen's centre.
    pub const ZERO: Self = Self {
        view: [0; 3],
        screen: Point::ZERO,
    };
}

const _: () = assert!(core::mem::size_of::<ViewPoint>() == 16);
const _: () = assert!(core::mem::offset_of!(ViewPoint, screen) == 12);

/// The engine's light (`jo_3d_light`): materials with the light flag are shaded by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Light {
    /// The direction the light travels, in world space, unit length (Q16.16).
    pub direction: Vec3,
    /// The light a face turned away still gets, 0 to 1 (Q16.16).
    pub ambient: i32,
}

impl Default for Light {
    /// From the camera's side of a [`Camera::facing`](crate::render::Camera::facing) scene
    /// (along +Z), a quarter of it everywhere: a model's front lit, its back not black.
    fn default() -> Self {
        Self {
            direction: [0, 0, ONE],
            ambient: ONE / 4,
        }
    }
}

/// Where a model's textures and gouraud tables are in VRAM (from
/// [`TextureCache`](crate::vdp1::TextureCache) and [`GouraudCache`](crate::vdp1::GouraudCache)).
#[derive(Clone, Copy, Debug)]
pub struct ModelVram<'r> {
    /// The textures, by TEXT index ([`ModelTextures::slots`](crate::vdp1::ModelTextures::slots)).
    pub textures: &'r [TextureSlot],
    /// Each polygon's GOUR table address / 8 (0: none).
    pub gouraud: &'r [u16],
}

impl ModelVram<'_> {
    /// The texture of TEXT index `index`, in the variant a material with `end_codes` uses.
    pub(crate) fn sprites(&self, index: usize, end_codes: bool) -> Option<&SpriteSet> {
        self.textures.get(index)?[usize::from(end_codes)].as_ref()
    }

    /// The texture of TEXT index `index` at its full size, for a
    /// [`Billboard`](crate::render::Billboard) (loaded by a material without end codes, or
    /// else by one with them); `None` when the model has no such texture in VRAM.
    pub fn sprite(&self, index: usize) -> Option<Sprite> {
        let slot = self.textures.get(index)?;
        slot[0].as_ref().or(slot[1].as_ref()).map(|set| set.full)
    }
}

/// A visible polygon's depth and index in one integer, so that sorting them is sorting
/// integers: the depth (complemented: farthest first) in the high 16 bits, the index in
/// the low 16.
pub type SortKey = u32;

/// The sort key of polygon `index` at depth `depth` (at most `0xFFFF`, nearest 0).
pub(crate) fn sort_key(depth: u32, index: usize) -> SortKey {
    (0xFFFF - depth) << 16 | index as u32
}

pub(crate) fn polygon_of(key: SortKey) -> usize {
    (key & 0xFFFF) as usize
}

/// What the emission of polygons did (a frame's
/// [`FrameStats`](super::FrameStats) gathers them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DrawStats {
    /// Polygons emitted.
    pub drawn: usize,
    /// Command tables emitted for them (more than `drawn` when some are drawn in parts).
    pub commands: usize,
    /// Polygons culled (behind, too far, back facing, off screen).
    pub culled: usize,
    /// Visible polygons left out because the command list or the frame's gouraud tables
    /// were full (the farthest ones).
    pub dropped: usize,
    /// Whether the frame's gouraud tables were what ran out: the nearest polygon left out
    /// had room in the command list, not in them. The C interface reports it as an error
    /// (a list whose gouraud tables were never emptied loses every lit polygon).
    pub gouraud_full: bool,
}

/// How long each phase of a frame took, in its clock's units
/// ([`FrameStats::times`](super::FrameStats::times)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseTimes {
    /// Transforming and projecting the points (each draw's set-up with them: its matrices
    /// and the test of its bounding sphere).
    pub transform: u32,
    /// Culling the polygons, giving them depths and sorting them (with the frame end's
    /// set-up: the look for the VDP1's frame change, the list's head).
    pub sort: u32,
    /// Emitting the command tables (a [`Frame`](super::Frame)'s 2D commands placed after
    /// them too).
    pub emit: u32,
    /// Waiting for the VDP1 to leave the list about to be written (a
    /// [`Frame`](super::Frame)'s end, when the last frame's list was not on screen yet; 0
    /// for a [`ListFrame`](super::ListFrame)).
    pub wait: u32,
    /// Writing the list to VRAM and pointing the VDP1 at it (a [`Frame`](super::Frame)'s
    /// end; 0 for a [`ListFrame`](super::ListFrame), whose caller writes its list).
    pub commit: u32,
}

/// Where a posed model is: its place in the world and the matrices of its pose (from
/// [`anim::bone_matrices`](crate::anim) and the pose's root offset), all in model space.
pub struct Posed<'p> {
    /// The model's place in the world.
    pub transform: &'p Matrix,
    /// The matrix of the points and polygons of no bone's group (the root offset).
    pub root: &'p Matrix,
    /// The matrix of each bone, for the points and polygons of its group.
    pub bones: &'p [Matrix],
}

/// The matrices of the pose an [`AnimationPlayer`] is at, for a draw of it
/// (`draw_animated`): made in place, the bones' 1.5 KiB not returned through the stack.
pub(crate) struct PoseMatrices {
    root: Matrix,
    bones: [Matrix; MAX_BONES],
}

impl PoseMatrices {
    pub(crate) const IDENTITY: Self = Self {
        root: Matrix::IDENTITY,
        bones: [Matrix::IDENTITY; MAX_BONES],
    };

    /// The matrices of `player`'s pose of `model` (its animation, any cross-fade).
    pub(crate) fn set(&mut self, model: &Model<'_>, player: &AnimationPlayer) {
        let pose = player.pose(model);
        bone_matrices(model, &pose, &mut self.bones);
        self.root = root_matrix(&pose);
    }

    /// The model posed so and placed in the world by `transform`.
    pub(crate) fn placed<'p>(&'p self, transform: &'p Matrix) -> Posed<'p> {
        Posed {
            transform,
            root: &self.root,
            bones: &self.bones,
        }
    }
}

/// What emission needs to know of the visible polygons a culling kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    /// Drawn in parts (four commands each).
    pub(crate) parts: usize,
    /// Crossing the near plane (clipped to it, or in parts): with none, emission leaves
    /// out its test of every corner against the plane.
    pub(crate) crossing: usize,
}

/// Fewer polygons than this are not worth a second CPU (in culling and emission).
pub(crate) const MIN_SHARED_POLYGONS: usize = 64;

/// One model of a frame as culling, sorting and emission look at it: the model, where it
/// is in VRAM, the camera, and its points of this frame.
pub(crate) struct ModelFrame<'f, 'm> {
    pub(crate) model: &'f Model<'m>,
    pub(crate) resources: &'f ModelVram<'f>,
    pub(crate) camera: &'f Camera,
    /// The transformed and projected points.
    pub(crate) points: &'f [ViewPoint],
    /// Their screen positions again, four a cache line, when the transform wrote them:
    /// what emission's loops without the near plane's test read.
    pub(crate) screens: Option<&'f [Point]>,
}

impl ModelFrame<'_, '_> {
    /// The camera-space and screen corners of polygon `index`.
    pub(crate) fn corners(&self, index: usize) -> ([Vec3; 4], [Point; 4]) {
        let corners = self.model.polygons()[index].corners();
        let points = corners.map(|c| &self.points[usize::from(c)]);
        (points.map(|p| p.view), points.map(|p| p.screen))
    }
}

/// The most runs of regions a draw keeps ([`RegionRuns`]): past it, a region shown extends
/// the last run over the regions between (their polygons then culled one by one, as without
/// regions: more work, the same picture).
pub(crate) const MAX_REGION_RUNS: usize = 24;

/// The regions of a rigid draw (REGN) whose spheres may show, as runs of consecutive
/// regions: each run's points (transformed) and polygons (culled), both ranges of the
/// model's. Kept in the draw's slot (`DrawSlot`), not on the stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RegionRuns {
    len: usize,
    /// Each run's points, then its polygons: `[point start, point end, polygon start,
    /// polygon end]` (u16 indexes: ends included, since a model has at most 65,535 of
    /// each; 8 bytes a run keep a draw's stack frame small).
    runs: [[u16; 4]; MAX_REGION_RUNS],
}

impl RegionRuns {
    /// No run.
    pub(crate) const fn new() -> Self {
        Self {
            len: 0,
            runs: [[0; 4]; MAX_REGION_RUNS],
        }
    }

    /// Adds a region of `points` and `polygons` (after those of the regions added before):
    /// the last run extended when the region follows it or when the runs are full.
    pub(crate) fn push(&mut self, points: Range<usize>, polygons: Range<usize>) {
        let run = [points.start, points.end, polygons.start, polygons.end].map(|v| v as u16);
        match self.len.checked_sub(1).map(|last| &mut self.runs[last]) {
            Some(last) if last[3] == run[2] || self.len == MAX_REGION_RUNS => {
                last[1] = run[1];
                last[3] = run[3];
            }
            _ => {
                self.runs[self.len] = run;
                self.len += 1;
            }
        }
    }

    /// No run again.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    /// Whether no region is shown.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The runs' points.
    pub(crate) fn points(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.runs[..self.len]
            .iter()
            .map(|r| r[0] as usize..r[1] as usize)
    }

    /// The runs' polygons.
    pub(crate) fn polygons(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.runs[..self.len]
            .iter()
            .map(|r| r[2] as usize..r[3] as usize)
    }
}

/// `range` within `within`.
pub(crate) fn clip(range: &Range<usize>, within: Range<usize>) -> Range<usize> {
    let start = range.start.max(within.start);
    start..range.end.min(within.end).max(start)
}
