//! A model's points transformed and projected: a range of them by their matrices (on a
//! SH-2 by its assembly, `sh2`), the Rust reference of that loop, and a model's points
//! shared between two CPUs.

use core::ops::Range;

use super::projection::{row_apply, screen_axis, Projection};
#[cfg(jom_saturn)]
use super::sh2;
use crate::format::Model;
use crate::math::{Division, Matrix};
use crate::render::camera::Camera;
use crate::render::shared::{clip, RegionRuns, ViewPoint};
use crate::render::transforms::Transforms;
use crate::vdp1::Point;
use crate::worker::Worker;

/// Transforms and projects the points `range` of `model` into `out` (as long), each by
/// its matrix, their screen positions also into `screens` when given (as long).
pub(crate) fn transform_range(
    model: &Model<'_>,
    transforms: &Transforms,
    projection: &Projection,
    range: Range<usize>,
    out: &mut [ViewPoint],
    mut screens: Option<&mut [Point]>,
) {
    for (run, matrix) in transforms.point_runs(range.end) {
        let run = run.start.max(range.start)..run.end;
        if run.is_empty() {
            continue;
        }
        let within = run.start - range.start..run.end - range.start;
        transform_points(
            &transforms.matrices[matrix],
            projection,
            &model.points()[run],
            &mut out[within.clone()],
            screens.as_deref_mut().map(|screens| &mut screens[within]),
        );
    }
}

/// Transforms `points` by `matrix` into camera space and projects them, into `out` (the
/// same length) and their screen positions into `screens` when given (the same length
/// too: emission's compact copy, four points a cache line): on a Saturn by the SH-2
/// assembly (`transform.S`), else by [`transform_points_reference`].
pub(crate) fn transform_points(
    matrix: &Matrix,
    projection: &Projection,
    points: &[crate::format::Vector],
    out: &mut [ViewPoint],
    screens: Option<&mut [Point]>,
) {
    #[cfg(jom_saturn)]
    sh2::transform_points(matrix, projection, points, out, screens);
    #[cfg(not(jom_saturn))]
    {
        transform_points_reference(matrix, projection, points, out);
        for (screen, point) in screens.into_iter().flatten().zip(out) {
            *screen = point.screen;
        }
    }
}

/// The transform in Rust: each point by `matrix` into camera space, then projected; depth
/// first, so that the division runs while x and y are transformed.
pub fn transform_points_reference(
    matrix: &Matrix,
    projection: &Projection,
    points: &[crate::format::Vector],
    out: &mut [ViewPoint],
) {
    let [row_x, row_y, row_z] = &matrix.0;
    let dividend = i64::from(projection.focal_length) << 32;
    for (out, point) in out.iter_mut().zip(points) {
        let [x, y, z] = point.raw();
        let depth = row_apply(row_z, x, y, z);
        let scale = Division::start(dividend, depth.max(projection.min_depth));
        let view_x = row_apply(row_x, x, y, z);
        let view_y = row_apply(row_y, x, y, z);
        let scale = scale.quotient();
        *out = ViewPoint {
            view: [view_x, view_y, depth],
            screen: Point::new(screen_axis(view_x, scale), screen_axis(view_y, scale)),
        };
    }
}

/// Fewer points than this are not worth a second CPU (waking it costs more).
const MIN_SHARED_POINTS: usize = 64;

/// Transforms and projects the points of `model` into `points` (one per point), and
/// their screen positions into `screens` when given (as long), half of them on `worker`
/// when there are enough.
pub(crate) fn transform_model(
    model: &Model<'_>,
    transforms: &Transforms,
    camera: &Camera,
    (points, screens): (&mut [ViewPoint], Option<&mut [Point]>),
    worker: Option<&mut (dyn Worker + '_)>,
) {
    let needed = points.len();
    let projection = Projection::of(camera);
    let transform = |range: Range<usize>, out: &mut [ViewPoint], screens: Option<&mut [Point]>| {
        transform_range(model, transforms, &projection, range, out, screens);
    };
    match worker {
        Some(worker) if needed >= MIN_SHARED_POINTS => {
            let half = needed / 2;
            let (first, second) = points.split_at_mut(half);
            let (mut first_screens, mut second_screens) = match screens {
                Some(screens) => {
                    let (first, second) = screens.split_at_mut(half);
                    (Some(first), Some(second))
                }
                None => (None, None),
            };
            // Each share borrows its screens again at every run (the master runs the
            // second CPU's share again after a time-out: taken, they would be gone).
            worker.join(
                &mut || transform(0..half, first, first_screens.as_deref_mut()),
                &mut || transform(half..needed, second, second_screens.as_deref_mut()),
            );
        }
        _ => transform(0..needed, points, screens),
    }
}

/// [`transform_model`] of the points of `runs` only (a draw's regions that may show):
/// each into its place in `points` and `screens` (one per point of the model), the others
/// left as they were (no polygon culled reads them). With `worker`, cut where half the
/// runs' points are before.
// Not inlined: its closures would add to the draw's stack frame (issue 40's 4 KiB).
#[inline(never)]
pub(crate) fn transform_runs(
    model: &Model<'_>,
    transforms: &Transforms,
    camera: &Camera,
    runs: &RegionRuns,
    (points, screens): (&mut [ViewPoint], Option<&mut [Point]>),
    worker: Option<&mut (dyn Worker + '_)>,
) {
    let projection = Projection::of(camera);
    let count = points.len();
    // The runs' points within `within`, into `out` and `screens` (which start there).
    let transform =
        |within: Range<usize>, out: &mut [ViewPoint], mut screens: Option<&mut [Point]>| {
            for run in runs.points() {
                let run = clip(&run, within.clone());
                if run.is_empty() {
                    continue;
                }
                let place = run.start - within.start..run.end - within.start;
                let screens = screens.as_deref_mut().map(|s| &mut s[place.clone()]);
                transform_range(
                    model,
                    transforms,
                    &projection,
                    run,
                    &mut out[place],
                    screens,
                );
            }
        };
    let total: usize = runs.points().map(|r| r.len()).sum();
    match worker {
        Some(worker) if total >= MIN_SHARED_POINTS => {
            let cut = point_cut(runs, total / 2).min(count);
            let (first, second) = points.split_at_mut(cut);
            let (mut first_screens, mut second_screens) = match screens {
                Some(screens) => {
                    let (first, second) = screens.split_at_mut(cut);
                    (Some(first), Some(second))
                }
                None => (None, None),
            };
            worker.join(
                &mut || transform(0..cut, first, first_screens.as_deref_mut()),
                &mut || transform(cut..count, second, second_screens.as_deref_mut()),
            );
        }
        _ => transform(0..count, points, screens),
    }
}

/// The point before which `half` of the runs' points are.
fn point_cut(runs: &RegionRuns, half: usize) -> usize {
    let mut before = 0;
    for run in runs.points() {
        if before + run.len() >= half {
            return run.start + (half - before);
        }
        before += run.len();
    }
    0
}
