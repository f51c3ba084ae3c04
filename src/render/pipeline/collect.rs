//! A frame's start and its draws: the camera checked once, then each draw's whole-model
//! test (a rigid draw wholly outside the view is dropped before any point is transformed),
//! its matrices placed in its slot, its points transformed and projected, its polygons
//! culled into the frame's sort keys (counted for the sort at the frame's end).

use core::ops::Range;

use super::memory::{FrameMemory, Placed};
use crate::format::Model;
use crate::math::{isqrt, Matrix, Vec3};
use crate::render::billboard::{place, Billboard, PlacedBillboard};
use crate::render::camera::Camera;
use crate::render::cull::{cull_visible, depth_factor, Balance};
use crate::render::error::DrawError;
use crate::render::fog::Fog;
use crate::render::limits::{self, ComposeBound};
use crate::render::project::{transform_model, transform_runs};
use crate::render::shared::{sort_key, DrawStats, Light, ModelFrame, ModelVram, PhaseTimes, Posed};
use crate::render::sort::SecondCounts;
use crate::render::transforms::{eye, rigid_view, rotation_error, Eye, TURN_TOLERANCE};
use crate::render::visibility::ViewVolume;
use crate::worker::Worker;

/// A model as a draw of the frame takes it: the model, where its textures and gouraud
/// tables are in VRAM, what its load was numbered (a renderer's handles each a serial,
/// never 0, what a draw slot keeps its templates for; 0: none, the templates made again
/// at each frame), its runs of coplanar polygons (or none) and whether its groups hold the
/// corner A of each of their polygons (`transforms::corners_in_groups`).
#[derive(Clone, Copy)]
pub(crate) struct Drawn<'d> {
    pub(crate) model: &'d Model<'d>,
    pub(crate) vram: ModelVram<'d>,
    pub(crate) serial: u32,
    pub(crate) planes: &'d [u8],
    pub(crate) corners_in_groups: bool,
}

/// How a draw is placed: a rigid model by its matrix (sorted, or as ground: before the
/// sorted ones, in the model's order), or a posed one.
#[derive(Clone, Copy)]
pub(crate) enum Placement<'p> {
    Rigid { transform: &'p Matrix, ground: bool },
    Posed(&'p Posed<'p>),
}

/// A draw's model-view matrix and, for a rigid draw, its [`rotation_error`] (saturated to
/// 32 bits or not: it is only compared with [`TURN_TOLERANCE`]), its eye, and whether
/// composing it showed that it keeps the model's points within 32 bits. Made in place, in
/// the draw's frame (returned in a `Result` and moved through a tuple of `Option`s, it was
/// copied four times: with those copies a draw took some 700 cycles more, Mednafen).
struct View {
    model_view: Matrix,
    turn_error: u64,
    eye: Option<Eye>,
    within_reach: bool,
}

impl View {
    const EMPTY: Self = Self {
        model_view: Matrix::IDENTITY,
        turn_error: 0,
        eye: None,
        within_reach: false,
    };
}

/// A frame under way: what its draws so far left in its [`FrameMemory`] (their points and
/// sort keys, each draw's slot and place), counted. Plain data: the memory is given at
/// each call, by the front door that owns it.
pub(crate) struct FrameState {
    pub(crate) camera: Camera,
    /// The camera's view matrix (`Camera::view`), made once a frame.
    camera_view: Matrix,
    /// What composing after it needs to know of it (most draws' model-view matrices are
    /// then known exact without checked sums).
    view_bound: ComposeBound,
    /// The camera's view for the whole-draw test.
    view: ViewVolume,
    pub(crate) light_view: Option<(Vec3, i32)>,
    /// Draws kept (those not dropped whole), each a slot.
    pub(crate) draws: usize,
    pub(crate) points: usize,
    pub(crate) polygons: usize,
    pub(crate) visible: usize,
    /// The keys of the ground draws, `keys[..ground]`: left out of the sort, emitted
    /// first.
    pub(crate) ground: usize,
    /// Whether a sorted draw came (not dropped whole): the sort's counts were cleared by
    /// its culling (the ground draws' culling counts into them before) and hold the sorted
    /// draws' keys only; a ground draw from then on is sorted too.
    pub(crate) counting: bool,
    /// When the last draw's keys are not together (each CPU's where it culled into): the
    /// frame's keys are `keys[..0]` and `keys[1]`, `visible` in all.
    pub(crate) apart: Option<(usize, Range<usize>)>,
    /// What the second CPU's counts are of: more than the last draw's keys it culled once
    /// an earlier draw's were moved into the first part.
    pub(crate) second_counts: SecondCounts,
    pub(crate) stats: DrawStats,
    pub(crate) times: PhaseTimes,
    /// Billboards placed (`FrameMemory::billboards[..billboards]`).
    pub(crate) billboards: usize,
    /// Billboards not drawn: behind, too far, too small or off screen.
    pub(crate) billboards_culled: usize,
    /// The fog the frame's polygons and billboards fade into, if any.
    pub(crate) fog: Option<Fog>,
    /// What a billboard's depth is brought into the sort's 16 bits by
    /// (`cull::depth_factor` of the far plane, once a frame).
    depth_factor: u32,
}

impl FrameState {
    /// The view matrix of `camera`, checked against the engine's limits: what
    /// [`begin`](Self::begin) takes. Checked once a frame: each draw's matrices then only
    /// need theirs (issue #13).
    pub(crate) fn view_of(camera: &Camera) -> Result<Matrix, DrawError> {
        limits::camera_view(camera)
    }

    /// A frame seen by `camera` (its `view` from [`view_of`](Self::view_of)), lit by
    /// `light`. Not a `Result`: made where its front door's frame is (through a `Result`
    /// the SH-2 copied it more: `Renderer::begin` took 1,280 cycles more, Mednafen), and
    /// inlined there (a call and a copy less: 384 cycles, Mednafen).
    #[inline(always)]
    pub(crate) fn begin(camera: &Camera, view: Matrix, light: Option<&Light>) -> Self {
        let volume = ViewVolume::of(camera);
        let light_view = light.map(|l| (view.rotate(l.direction), l.ambient));
        Self {
            camera: camera.clone(),
            view_bound: ComposeBound::of(&view),
            camera_view: view,
            view: volume,
            light_view,
            draws: 0,
            points: 0,
            polygons: 0,
            visible: 0,
            ground: 0,
            counting: false,
            apart: None,
            second_counts: SecondCounts::OfItsPart,
            stats: DrawStats::default(),
            times: PhaseTimes::default(),
            billboards: 0,
            billboards_culled: 0,
            fog: None,
            depth_factor: depth_factor(camera.far),
        }
    }

    /// Places `billboard` in `memory` (its command made now, sorted with the polygons at
    /// the frame's end); `false` when it is not seen (counted in `billboards_culled`).
    pub(crate) fn add_billboard(
        &mut self,
        memory: &mut FrameMemory<'_>,
        billboard: &Billboard,
    ) -> Result<bool, DrawError> {
        let view = (&self.camera_view, self.depth_factor);
        let index = self.billboards;
        // Placed in its slot of the memory when there is one; else where it shows whether
        // the memory was short for it (a culled one asks for no room).
        let mut past_the_memory = PlacedBillboard::EMPTY;
        let has_room = index < memory.billboards_at_most();
        let slot = match has_room {
            true => &mut memory.billboards[index],
            false => &mut past_the_memory,
        };
        let Ok(depth) = place(billboard, &self.camera, view, slot)? else {
            self.billboards_culled += 1;
            return Ok(false);
        };
        if !has_room {
            return Err(DrawError::BufferTooSmall {
                buffer: "billboards",
                needed: index + 1,
            });
        }
        memory.billboard_keys[index] = sort_key(depth, index);
        self.billboards += 1;
        Ok(true)
    }

    /// A draw's [`View`] into `view`: the model-view matrix `camera_view * transform` when
    /// it is exact, its rotation error, and whether composing it showed that it keeps the
    /// points within `reach` of the model's origin in 32 bits (else that is checked by
    /// `limits::check_rigid`). The product the bound shows exact comes with its rotation
    /// error and its eye by the transpose in one call (assembly on a Saturn: `true`); the
    /// others find the error in Rust and leave the eye to the caller (`false`).
    fn compose_view(
        &self,
        transform: &Matrix,
        reach: u32,
        view: &mut View,
    ) -> Result<bool, DrawError> {
        let mut found = None;
        let composed = self.view_bound.compose(
            &self.camera_view,
            transform,
            &mut view.model_view,
            reach,
            |a, b, out| found = Some(rigid_view(a, b, out, &mut view.eye)),
        );
        if !composed.exact {
            return Err(DrawError::OutOfReach { matrix: 0 });
        }
        view.within_reach = composed.within_reach;
        view.turn_error = match found {
            Some(error) => u64::from(error),
            None => rotation_error(&view.model_view),
        };
        Ok(found.is_some())
    }

    /// The radius on screen, in pixels, of a model of `reach` placed by `transform`: its
    /// reach about its origin, stretched by the matrix's longest row, over the origin's
    /// depth (the most, `u32::MAX`, when the origin is nearer than the near plane). What
    /// [`Lod::choose`](crate::render::Lod::choose) takes.
    pub(crate) fn screen_radius(&self, reach: u32, transform: &Matrix) -> Result<u32, DrawError> {
        let mut view = View::EMPTY;
        self.compose_view(transform, reach, &mut view)?;
        let rows = &view.model_view.0;
        let depth = rows[2][3];
        if depth <= self.camera.near {
            return Ok(u32::MAX);
        }
        // Each row's square length (Q32.32, within 3 x 2^44 under the limits), its root
        // Q16.16.
        let stretch = rows
            .iter()
            .map(|r| {
                let square = r[..3]
                    .iter()
                    .map(|&m| i64::from(m) * i64::from(m))
                    .sum::<i64>();
                isqrt(square as u64)
            })
            .max()
            .unwrap_or(0);
        let radius = (u64::from(reach) * stretch) >> 16;
        let pixels = radius * self.camera.focal_length as u64 / depth as u64;
        Ok(u32::try_from(pixels).unwrap_or(u32::MAX))
    }

    /// Draws `drawn` placed by `placement` into `memory` (its matrices written in place into
    /// the draw's slot: a slot's matrices are about 3 KiB, a copy a draw costs the SH-2 some
    /// 10,000 cycles), with `worker` to share the work with and `clock` to time it by. A
    /// rigid draw whose bounding sphere ([`Model::reach`] about its origin) is wholly
    /// outside the view is dropped first, its polygons counted as culled
    /// (`render::visibility`): it takes no slot and no room, and this gives `false`.
    pub(crate) fn add(
        &mut self,
        memory: &mut FrameMemory<'_>,
        drawn: &Drawn<'_>,
        placement: Placement<'_>,
        worker: Option<&mut (dyn Worker + '_)>,
        clock: Option<fn() -> u32>,
    ) -> Result<bool, DrawError> {
        let mut worker = worker;
        let time = clock.unwrap_or(|| 0);
        let start = time();
        let model = drawn.model;
        let mut view = View::EMPTY;
        let (ground, posed) = match placement {
            Placement::Rigid { transform, ground } => {
                let turned = self.compose_view(transform, model.reach(), &mut view)?;
                if !turned || view.turn_error > TURN_TOLERANCE {
                    view.eye = eye(&view.model_view, view.turn_error);
                }
                (ground, None)
            }
            Placement::Posed(posed) => {
                self.compose_view(posed.transform, 0, &mut view)?;
                (false, Some(posed))
            }
        };
        let index = self.draws;
        // Whether the draw's slot holds the runs of its regions that may show.
        let mut regioned = false;
        if posed.is_none() {
            // Refused as the matrices' check below would refuse it, seen or not.
            if !view.within_reach {
                limits::check_rigid(model, &view.model_view)?;
            }
            let mut shown = self
                .view
                .may_show(&view.model_view, model.reach(), view.turn_error);
            let slots = memory.draws_at_most();
            if let (true, false, Some(slot)) = (
                shown,
                model.regions().is_empty(),
                memory.draws[..slots].get_mut(index),
            ) {
                // A level's regions (REGN), each by its sphere: those wholly off the view
                // have no point transformed and no polygon culled.
                let runs = &mut slot.regions;
                runs.clear();
                self.view
                    .shown_regions(&view.model_view, view.turn_error, model.regions(), runs);
                shown = !runs.is_empty();
                regioned = true;
            }
            if !shown {
                self.stats.culled += model.polygons().len();
                self.times.transform += time().wrapping_sub(start);
                return Ok(false);
            }
        }
        let full = |buffer, needed| DrawError::BufferTooSmall { buffer, needed };
        if index >= memory.draws_at_most() {
            return Err(full("draws", index + 1));
        }
        let points = self.points..self.points + model.points().len();
        if points.end > memory.points.len() {
            return Err(full("points", points.end));
        }
        let polygons = self.polygons..self.polygons + model.polygons().len();
        let half = memory.keys.len() / 2;
        if polygons.end > half {
            return Err(full("polygons", polygons.end));
        }
        let FrameMemory {
            points: all_points,
            screens: all_screens,
            keys,
            draws,
            placed,
            counts,
            ..
        } = memory;
        let keys = &mut keys[..half];
        let slot = &mut draws[index];
        match posed {
            None => {
                slot.transforms.set_rigid(&view.model_view, view.eye);
                slot.transforms.set_reach_checked();
            }
            Some(posed) => {
                let (root, bones) = (posed.root, posed.bones);
                let owned = drawn.corners_in_groups;
                let worker = worker.as_deref_mut();
                let after = (&view.model_view, view.turn_error);
                slot.transforms
                    .set_posed(model, after, root, bones, owned, worker);
            }
        }
        slot.transforms.check_limits(model)?;
        let transforms = &slot.transforms;
        slot.cull_cut = slot.cull_cut.of(drawn.serial);
        let view_points = &mut all_points[points.clone()];
        let screens = Some(&mut all_screens[points.clone()]);
        let regions = regioned.then_some(&slot.regions);
        match regions {
            Some(runs) => transform_runs(
                model,
                transforms,
                &self.camera,
                runs,
                (view_points, screens),
                worker.as_deref_mut(),
            ),
            None => transform_model(
                model,
                transforms,
                &self.camera,
                (view_points, screens),
                worker.as_deref_mut(),
            ),
        }
        let transformed = time();
        let frame = ModelFrame {
            model,
            resources: &drawn.vram,
            camera: &self.camera,
            points: &all_points[points.clone()],
            screens: Some(&all_screens[points.clone()]),
        };
        // After a sorted draw (its counts begun, even if it drew nothing) a ground draw is
        // sorted with the others.
        let ground = ground && !self.counting;
        if let Some((first, second)) = self.apart.take() {
            // Those keys now in the first part, still counted as the other CPU's.
            keys.copy_within(second, first);
            self.second_counts = SecondCounts::WithMoved;
        }
        // Frame numbers: the indexes (low 16 bits) offset by the polygons before.
        let keys_after = (&mut keys[self.visible..], polygons.start);
        // The sort's counts cleared by the first sorted draw's culling (the ground draws'
        // count into them before).
        let fresh = !ground && !self.counting;
        self.counting |= fresh;
        // Measured, the cut moves towards both CPUs ending together.
        let balance = clock.map(|clock| Balance {
            cut: &mut slot.cull_cut,
            clock,
        });
        let culled = cull_visible(
            &frame,
            (transforms, drawn.planes),
            keys_after,
            (counts, fresh),
            worker,
            (balance, regions),
        );
        let (first, second) = culled.parts_at();
        let (first, second) = (
            self.visible + first,
            self.visible + second.start..self.visible + second.end,
        );
        match (ground, culled.second_at) {
            (true, _) => keys.copy_within(second, first),
            (false, Some(_)) => self.apart = Some((first, second)),
            (false, None) => {}
        }
        self.visible += culled.visible;
        if ground {
            self.ground = self.visible;
        }
        self.stats.culled += culled.culled;
        self.points = points.end;
        self.polygons = polygons.end;
        placed[index] = Placed {
            points,
            polygons,
            kept: culled.kept,
        };
        self.draws += 1;
        let culled_at = time();
        self.times.transform += transformed.wrapping_sub(start);
        self.times.sort += culled_at.wrapping_sub(transformed);
        Ok(true)
    }
}
