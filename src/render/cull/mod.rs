//! Culling and depth: each polygon culled (behind the near plane, past the far plane, back
//! facing, off screen) and given a 16-bit depth by its material's sort mode; the sort keys of
//! the visible ones. This module owns a draw's culling ([`cull_visible`]): its parts, one a
//! CPU with a second CPU, where they are cut ([`CullCut`]), and the general loop over a
//! range; the common case (one plain material through one matrix: `plain`, SH-2 assembly on
//! a Saturn, `cull.S` bound by `sh2`) and the runs of coplanar polygons (`planes`) are its
//! submodules'. It also counts the kept polygons that cross the near plane ([`Kept`]):
//! without any, emission leaves out its test of the plane.

use core::ops::Range;

mod plain;
mod planes;
#[cfg(jom_saturn)]
mod sh2;

#[cfg(any(test, feature = "selftest"))]
pub(crate) use plain::DIVIDED_FAR;
#[cfg(any(test, feature = "selftest"))]
pub(crate) use plain::PLAIN_MATERIALS;
pub(crate) use plain::{
    center_depth, depth_factor, faces, on_screen, quantized_depth, CullStyle, PlainCull,
    PlainMaterials, PlainRun,
};
pub(crate) use planes::write_plane_runs;

use crate::format::{Model, SortMode};
use crate::math::dot;
use crate::render::shared::{
    clip, sort_key, Kept, ModelFrame, RegionRuns, SortKey, MIN_SHARED_POLYGONS,
};
use crate::render::sort::KeyCounts;
use crate::render::transforms::Transforms;
use crate::render::visibility::SidePlanes;
use crate::worker::{Before, Worker};

impl ModelFrame<'_, '_> {
    /// Culls the polygons of `range` from its start while they stay in the common case
    /// (see `cull_plain_run_reference`, the Rust version used off a Saturn), writing the
    /// keys of the visible ones to `keys` from its start and counting them in `counts`; on
    /// a Saturn the SH-2 assembly (`cull.S`).
    pub(crate) fn cull_plain_run(
        &self,
        plain: &PlainCull,
        range: Range<usize>,
        keys: &mut [SortKey],
        counts: &mut KeyCounts,
    ) -> PlainRun {
        #[cfg(jom_saturn)]
        return sh2::cull_plain_run(
            self.model,
            self.points,
            self.camera,
            plain,
            range,
            keys,
            counts,
        );
        #[cfg(not(jom_saturn))]
        self.cull_plain_run_reference(plain, range, keys, counts)
    }
}

/// Writes the sort keys of the visible polygons of `frame`'s model to `keys.0` (at least
/// one per polygon) in model order, counted in `counts[0]`, each key's low 16 bits its
/// polygon's frame number (its index plus `keys.1`, the model's first polygon's: the
/// renderer's frames number the polygons of all their draws); with a `worker`, each CPU
/// culls a part of the polygons, the other CPU's keys written from where its polygons
/// start ([`Culled::second_at`]) and counted in `counts.0[1]`. The parts are halves, or
/// with `balance` cut where its [`CullCut`] says, which the times measured move. With
/// `counts.1`, the counts are cleared first (each CPU its own, beside the other's).
/// `plane_runs`: the model's runs of coplanar polygons ([`write_plane_runs`]), or none.
/// With `regions` (a rigid draw's regions that may show, REGN), only their polygons are
/// culled, the others counted as culled, and the parts are cut where half of theirs are
/// before (`balance` is then not moved: what is on screen moves the cut more than the time
/// does). One function for both, so that a draw's stack frame holds one culling's state
/// (the SH-2's code generator inlines it into the draw).
pub(crate) fn cull_visible(
    frame: &ModelFrame<'_, '_>,
    (transforms, plane_runs): (&Transforms, &[u8]),
    (keys, numbered_from): (&mut [SortKey], usize),
    (counts, fresh): (&mut [KeyCounts; 2], bool),
    worker: Option<&mut (dyn Worker + '_)>,
    (balance, regions): (Option<Balance<'_>>, Option<&RegionRuns>),
) -> Culled {
    let [here, there] = counts;
    let count = frame.model.polygons().len();
    let fresh_counts = |counts: &mut KeyCounts| {
        if fresh {
            counts.clear();
        }
    };
    let balance = balance.filter(|_| regions.is_none());
    let wanted = balance.as_ref().map_or(0, |b| b.cut.at as usize);
    let (split, left_out) = match regions {
        None => (split_point(frame.model, wanted), 0),
        Some(runs) => {
            let total: usize = runs.polygons().map(|r| r.len()).sum();
            let split = (total >= MIN_SHARED_POLYGONS)
                .then(|| polygon_cut(frame.model, runs, total / 2))
                .flatten();
            (split, count - total)
        }
    };
    let cull = |within: Range<usize>, keys: &mut [SortKey], counts: &mut KeyCounts| {
        let keys = (keys, numbered_from);
        cull_within(
            frame,
            (transforms, plane_runs),
            regions,
            within,
            keys,
            counts,
        )
    };
    let mut culled = match (worker, split) {
        (Some(worker), Some(split)) if keys.len() >= count => {
            let (mut first, mut second) = (Culled::default(), Culled::default());
            // At most one key a polygon: the first part's keys stay below `split`.
            let (first_keys, second_keys) = keys.split_at_mut(split);
            let clock = balance
                .as_ref()
                .map_or(no_clock as fn() -> u32, |b| b.clock);
            let (start, mut mine) = (clock(), 0);
            let mut before = Before::new();
            worker.join(
                &mut || {
                    fresh_counts(here);
                    first = cull(0..split, first_keys, here);
                    mine = clock().wrapping_sub(start);
                },
                &mut || {
                    // Earlier draws' counts, added to: as they were, if run again.
                    match fresh {
                        true => there.clear(),
                        false => before.start(there),
                    }
                    second = cull(split..count, second_keys, there)
                },
            );
            if let Some(balance) = balance {
                let both = clock().wrapping_sub(start);
                balance.cut.move_by((split, count), (mine, both));
            }
            Culled {
                visible: first.visible + second.visible,
                kept: Kept {
                    parts: first.kept.parts + second.kept.parts,
                    crossing: first.kept.crossing + second.kept.crossing,
                },
                culled: first.culled + second.culled,
                second_at: Some(split),
                second_len: second.visible,
            }
        }
        _ => {
            fresh_counts(here);
            fresh_counts(there);
            cull(0..count, keys, here)
        }
    };
    culled.culled += left_out;
    culled
}

/// Culls the polygons `within` (of the runs of `regions` when given), their keys from the
/// start of `keys.0`.
fn cull_within(
    frame: &ModelFrame<'_, '_>,
    (transforms, plane_runs): (&Transforms, &[u8]),
    regions: Option<&RegionRuns>,
    within: Range<usize>,
    (keys, numbered_from): (&mut [SortKey], usize),
    counts: &mut KeyCounts,
) -> Culled {
    let Some(runs) = regions else {
        let keys = (keys, numbered_from);
        return cull_range(frame, transforms, within, keys, counts, Some(plane_runs));
    };
    let mut culled = Culled::default();
    for run in runs.polygons() {
        let run = clip(&run, within.clone());
        if run.is_empty() {
            continue;
        }
        let keys = (&mut keys[culled.visible..], numbered_from);
        let part = cull_range(frame, transforms, run, keys, counts, Some(plane_runs));
        culled.visible += part.visible;
        culled.culled += part.culled;
        culled.kept.parts += part.kept.parts;
        culled.kept.crossing += part.kept.crossing;
    }
    culled
}

fn no_clock() -> u32 {
    0
}

/// The first polygon of its own depth (not sort mode previous) at or after the one before
/// which `half` of the runs' polygons are; `None` when there is none inside the runs.
fn polygon_cut(model: &Model<'_>, runs: &RegionRuns, half: usize) -> Option<usize> {
    let mut before = 0;
    for run in runs.polygons() {
        if before + run.len() > half {
            let from = run.start + (half - before);
            return (from..run.end).find(|&index| {
                model
                    .material_of(index)
                    .is_none_or(|m| m.flags().sort_mode() != SortMode::Previous)
            });
        }
        before += run.len();
    }
    None
}

/// What moves a draw's [`CullCut`]: the cut, and the clock its parts are timed by (the
/// renderer's, [`Renderer::set_clock`](crate::render::Renderer::set_clock)).
pub(crate) struct Balance<'c> {
    pub(crate) cut: &'c mut CullCut,
    pub(crate) clock: fn() -> u32,
}

/// Where a draw's culling is cut between the two CPUs, kept from frame to frame (in its
/// draw's slot) and moved towards both parts ending together: the second CPU's part takes
/// more time than the first's where it has more polygons facing the eye, and those move as
/// the model turns (the showcase's character: the master waited 10,000 cycles a frame for
/// the halves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CullCut {
    /// The first polygon of the second CPU's part; 0: half way.
    at: u32,
    /// The loaded model it is of (its handle's serial).
    serial: u32,
}

impl CullCut {
    /// Half way, of no model.
    pub(crate) const HALF: Self = Self { at: 0, serial: 0 };

    /// A cut at polygon `at` of the model loaded as `serial`.
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) const fn at_for_tests(at: usize, serial: u32) -> Self {
        Self {
            at: at as u32,
            serial,
        }
    }

    /// This one for a draw of the model loaded as `serial`, or half way when it was of
    /// another.
    pub(crate) fn of(self, serial: u32) -> Self {
        match self.serial == serial {
            true => self,
            false => Self { at: 0, serial },
        }
    }

    /// Moved after a cut at `split` of `count` polygons, the first CPU's part ending
    /// `mine` after the start and both `both` after it (in the clock's units): by the
    /// polygons that make half the first CPU's wait at its rate, or when it waited less
    /// than a [64th](CUT_SLACK) of its part's time (by how much the second CPU's part took
    /// less, it does not say) a step back of a 128th of the polygons. Within a quarter of
    /// them from either end.
    pub(crate) fn move_by(&mut self, (split, count): (usize, usize), (mine, both): (u32, u32)) {
        let (mine, waited) = (u64::from(mine), u64::from(both.saturating_sub(mine)));
        let at = match waited * CUT_SLACK > mine {
            true => split + (waited * split as u64 / (2 * mine).max(1)).min(count as u64) as usize,
            false => split.saturating_sub(count.div_ceil(128)),
        };
        self.at = at.clamp(count / 4, count - count / 4) as u32;
    }
}

/// The first CPU's wait for the second that leaves a cut where it is but for the step
/// back, as a part of its own part's time: about what a join costs when both end
/// together.
const CUT_SLACK: u64 = 64;

/// Where to cut the polygons in two for two CPUs: at `wanted` (0: half way) or the first
/// polygon after it that does not take the depth of the one before it (so that each part
/// starts on its own).
pub(crate) fn split_point(model: &Model<'_>, wanted: usize) -> Option<usize> {
    let count = model.polygons().len();
    if count < MIN_SHARED_POLYGONS {
        return None;
    }
    let from = match wanted {
        0 => count / 2,
        at => at.min(count - 1),
    };
    (from..count).find(|&index| {
        model
            .material_of(index)
            .is_none_or(|m| m.flags().sort_mode() != SortMode::Previous)
    })
}

/// What culling a range of polygons found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Culled {
    /// Sort keys written.
    pub(crate) visible: usize,
    /// Of them, those drawn in parts and those crossing the near plane.
    pub(crate) kept: Kept,
    /// Polygons culled.
    pub(crate) culled: usize,
    /// Where the last `second_len` of the `visible` keys start, when not right after the
    /// others (the second CPU's, written where its polygons start: see `parts_at`).
    pub(crate) second_at: Option<usize>,
    /// How many keys the second CPU wrote there.
    pub(crate) second_len: usize,
}

impl Culled {
    /// The keys are `keys[..first]` and `keys[second]`: (first, second).
    pub(crate) fn parts_at(&self) -> (usize, Range<usize>) {
        let first = self.visible - self.second_len;
        let start = self.second_at.unwrap_or(first);
        (first, start..start + self.second_len)
    }
}

/// Culls the polygons `range`, writing the sort keys of the visible ones to `keys.0` (each
/// key's low 16 bits its polygon's index plus `keys.1`) and counting them in `counts`; with
/// `plain` (the model's plane runs, or none), the common cases go through
/// [`ModelFrame::cull_plain_run`] (tests compare the two).
pub(crate) fn cull_range(
    frame: &ModelFrame<'_, '_>,
    transforms: &Transforms,
    range: Range<usize>,
    (keys, numbered_from): (&mut [SortKey], usize),
    counts: &mut KeyCounts,
    plain: Option<&[u8]>,
) -> Culled {
    let (model, camera, points) = (frame.model, frame.camera, frame.points);
    let depth_factor = depth_factor(camera.far);
    let (near, far) = (camera.near, camera.far);
    let (half_w, half_h) = (camera.width as i16 / 2, camera.height as i16 / 2);
    let sides = SidePlanes::of(camera);
    let plain_materials = PlainMaterials::of(model);
    let mut culled = Culled::default();
    let mut previous_depth = 0;
    let mut style = CullStyle {
        material: u16::MAX,
        sort_mode: SortMode::Center,
        dual: false,
        may_split: false,
    };
    let (polygons, materials) = (model.polygons(), model.polygon_materials());
    let model_points = model.points();
    // Written out in one loop, tests inline: the SH-2 code generator does not inline
    // helpers reliably, and this runs once per polygon.
    for (run, matrix) in transforms.polygon_runs(range.end) {
        let run = run.start.max(range.start)..run.end;
        let eye = transforms.eyes[matrix];
        let owned = transforms.owned_points[matrix].clone();
        let mut next = run.start;
        while next < run.end {
            let index = next;
            next += 1;
            let polygon = &polygons[index];
            let material = materials[index].get();
            if material != style.material {
                style = CullStyle::of(model, material);
            }
            if let (Some(eye), Some(plane_runs), true) = (eye, plain, style.plain()) {
                let plain = PlainCull {
                    material,
                    plain_materials: &plain_materials,
                    eye,
                    owned: owned.clone(),
                    depth_factor,
                    sides,
                    numbered_from,
                    plane_runs,
                };
                let keys = &mut keys[culled.visible..];
                let done = frame.cull_plain_run(&plain, index..run.end, keys, counts);
                if done.done > 0 {
                    culled.visible += done.visible;
                    culled.culled += done.culled;
                    culled.kept.crossing += done.crossing;
                    previous_depth = done.last_depth;
                    next = index + done.done;
                    continue;
                }
            }
            let [ia, ib, ic, id] = polygon.corners();
            let a = &points[usize::from(ia)];
            let b = &points[usize::from(ib)];
            let c = &points[usize::from(ic)];
            let d = &points[usize::from(id)];
            let (za, zb, zc, zd) = (a.view[2], b.view[2], c.view[2], d.view[2]);
            let depth = match style.sort_mode {
                SortMode::Center => center_depth(polygon, points),
                SortMode::Min => za.min(zb).min(zc.min(zd)),
                SortMode::Max => za.max(zb).max(zc.max(zd)),
                SortMode::Previous => previous_depth,
            };
            previous_depth = depth;
            // Back facing: the normal points away from the eye (see `Eye`).
            let facing = style.dual
                || match eye {
                    Some(eye) if owned.contains(&u32::from(ia)) => faces(
                        polygon.normal().raw(),
                        model_points[usize::from(ia)].raw(),
                        &eye,
                    ),
                    _ => {
                        let normal = transforms.normal(matrix, polygon.normal().raw());
                        dot(normal, a.view) < 0
                    }
                };
            let in_front = za >= near && zb >= near && zc >= near && zd >= near;
            let shown = facing
                && if in_front {
                    (za <= far || zb <= far || zc <= far || zd <= far)
                        && on_screen([a.screen, b.screen, c.screen, d.screen], half_w, half_h)
                } else {
                    // Partly behind the near plane: drawn clipped to it (or in parts),
                    // unless beside the view (then wholly off screen).
                    (za >= near || zb >= near || zc >= near || zd >= near)
                        && !sides.all_beside([&a.view, &b.view, &c.view, &d.view])
                };
            if !shown {
                culled.culled += 1;
                continue;
            }
            if style.may_split && frame.in_parts(index) {
                culled.kept.parts += 1;
            }
            let key = sort_key(quantized_depth(depth, depth_factor), index + numbered_from);
            keys[culled.visible] = key;
            counts.count(key);
            culled.visible += 1;
            culled.kept.crossing += usize::from(!in_front);
        }
    }
    culled
}
