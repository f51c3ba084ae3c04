//! Whether emission's fast loops test corners against the near plane: not when the culling
//! kept no polygon crossing it, and then, where a frame has them, they read the compact
//! copy of the screen positions.

use crate::render::camera::Camera;
use crate::render::shared::Kept;
use crate::vdp1::Point;

/// The near plane emission's fast loops test corners against: `camera`'s, or `i32::MIN`
/// when no polygon the culling `kept` crosses it (no corner of them is behind it), which the
/// SH-2 loops take for their form without the test.
pub(crate) fn tested_near(camera: &Camera, kept: Kept) -> i32 {
    match kept.crossing {
        0 => i32::MIN,
        _ => camera.near,
    }
}

/// `screens` (a frame's compact copy of its screen positions) when emission's loops without
/// the near plane's test may read them: `near` is `i32::MIN` (no corner is behind it) and
/// they hold the model's `needed` points.
#[inline(always)]
pub(crate) fn untested_screens(
    near: i32,
    screens: Option<&[Point]>,
    needed: usize,
) -> Option<&[Point]> {
    screens.filter(|s| near == i32::MIN && s.len() >= needed)
}
