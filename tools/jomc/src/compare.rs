//! `jomc compare A.JOM B.JOM`: how far model B, as drawn, is from model A, a picture error
//! for each step of the converter that reduces a model (triangles paired into quads, ...).
//!
//! Both models are drawn by the engine's own code and the software VDP1 (`jomc render`'s
//! path, `vdp1_soft::preview`), from the same cameras, framed on A's bounding sphere: from
//! several views (by default six around the model and one from above and one from below)
//! in several poses (the rest pose, and a few times of each animation of A, which B must
//! have too). A view's error is the mean absolute difference of the two pictures' 8-bit
//! channels (R, G, B; 0 to 255) over the pixels either model draws on; the comparison's is
//! the mean of its views', and its worst view is the one of the largest error.

use jom::Model;
use vdp1_soft::preview::{self, View};
use vdp1_soft::FrameBuffer;

/// How to compare.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Screen size in pixels.
    pub width: u16,
    pub height: u16,
    /// The model's rotations (degrees around X, Y, Z), one a view.
    pub views: Vec<[f64; 3]>,
    /// Frames of each animation, equally spaced over it (0: the rest pose only).
    pub frames: u32,
    /// Direction the light travels; `None`: no light.
    pub light: Option<[f64; 3]>,
}

/// Six views around the model (every 60 degrees around Y), one from above and one from
/// below.
pub fn default_views() -> Vec<[f64; 3]> {
    let mut views: Vec<[f64; 3]> = (0..6).map(|i| [0.0, f64::from(i) * 60.0, 0.0]).collect();
    views.push([90.0, 0.0, 0.0]);
    views.push([-90.0, 0.0, 0.0]);
    views
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            width: 320,
            height: 224,
            views: default_views(),
            frames: 3,
            light: Some([-1.0, 2.0, 3.0]),
        }
    }
}

/// One view's error.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ViewError {
    /// The model's rotation, degrees.
    pub rotate: [f64; 3],
    /// The animation and its time in ticks; `None`: the rest pose.
    pub pose: Option<(String, u32)>,
    /// Mean absolute channel difference over the pixels either draws on (0 to 255).
    pub error: f64,
    /// The same over the pictures each blurred by a 3 x 3 box (each pixel the mean of
    /// its neighbourhood): a texel drawn one pixel off costs little there, a wrong colour
    /// over an area as much as unblurred.
    pub blurred_error: f64,
    /// The pixels either draws on, and those of them that differ.
    pub pixels: usize,
    pub differing: usize,
}

impl ViewError {
    /// "rotate 0,60,0, rest" or "rotate 0,60,0, walk at 20".
    pub fn label(&self) -> String {
        let [x, y, z] = self.rotate;
        let pose = match &self.pose {
            None => "rest".to_string(),
            Some((name, time)) => format!("{name} at {time}"),
        };
        format!("rotate {x},{y},{z}, {pose}")
    }
}

/// What [`compare`] found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Comparison {
    /// The mean of the views' errors.
    pub error: f64,
    /// The mean of the views' blurred errors.
    pub blurred_error: f64,
    /// The index in `views` of the largest error.
    pub worst: usize,
    pub views: Vec<ViewError>,
}

impl Comparison {
    /// The worst view.
    pub fn worst_view(&self) -> &ViewError {
        &self.views[self.worst]
    }
}

/// The poses compared: the rest pose, then `frames` times of each animation of `model`
/// from its first key to its end (a looped one's end, its first key again, left out).
pub fn poses(model: &Model<'_>, frames: u32) -> Vec<Option<(String, u32)>> {
    let mut poses = vec![None];
    if frames == 0 {
        return poses;
    }
    for animation in model.animations().records() {
        let keys = u32::from(animation.key_count());
        let ticks = u32::from(animation.key_ticks());
        let name = animation.name().as_str().to_string();
        let end = match animation.is_looped() {
            true => keys * ticks,
            false => (keys - 1) * ticks,
        };
        for i in 0..frames {
            let time = match (animation.is_looped(), frames) {
                (true, _) => i * end / frames,
                (false, 1) => 0,
                (false, _) => i * end / (frames - 1),
            };
            poses.push(Some((name.clone(), time)));
        }
    }
    poses
}

/// A model and the pixels of its texture files (empty when it has TIMG).
pub struct Drawn<'a, 'm> {
    pub model: &'a Model<'m>,
    pub texture_files: &'a [jom::vdp1::TextureSource<'a>],
}

/// Draws `a` and `b` from every view and pose of `settings` and measures their difference.
pub fn compare(
    a: &Drawn<'_, '_>,
    b: &Drawn<'_, '_>,
    settings: &Settings,
) -> Result<Comparison, String> {
    compare_each(a, b, settings, |_, _, _| {})
}

/// [`compare`], handing each view's error and both pictures to `each`.
pub fn compare_each(
    a: &Drawn<'_, '_>,
    b: &Drawn<'_, '_>,
    settings: &Settings,
    mut each: impl FnMut(&ViewError, &FrameBuffer, &FrameBuffer),
) -> Result<Comparison, String> {
    let mut views = Vec::new();
    for pose in poses(a.model, settings.frames) {
        let index_in = |model: &Model<'_>, which: &str| -> Result<Option<(usize, u32)>, String> {
            match &pose {
                None => Ok(None),
                Some((name, time)) => match model.animations().find(name) {
                    Some(found) => Ok(Some((found.index, *time))),
                    None => Err(format!("model {which} has no animation {name:?}")),
                },
            }
        };
        let (pose_a, pose_b) = (index_in(a.model, "A")?, index_in(b.model, "B")?);
        for &rotate in &settings.views {
            let view = View {
                width: settings.width,
                height: settings.height,
                rotate,
                ..View::default()
            };
            // Both from A's framing, so that the same pixel is the same place.
            let camera = preview::frame_camera(a.model, &view);
            let transform = preview::model_transform(a.model, rotate);
            let light = settings.light.map(preview::light_from);
            let draw = |drawn: &Drawn<'_, '_>, pose| {
                preview::render_scene_with(
                    drawn.model,
                    &camera,
                    &transform,
                    light.as_ref(),
                    pose,
                    drawn.texture_files,
                )
                .map(|(frame, _)| frame)
            };
            let frame_a = draw(a, pose_a).map_err(|e| format!("model A: {e}"))?;
            let frame_b = draw(b, pose_b).map_err(|e| format!("model B: {e}"))?;
            let (error, pixels, differing) = difference(&frame_a, &frame_b);
            let view_error = ViewError {
                rotate,
                pose: pose.clone(),
                error,
                blurred_error: blurred_difference(&frame_a, &frame_b),
                pixels,
                differing,
            };
            each(&view_error, &frame_a, &frame_b);
            views.push(view_error);
        }
    }
    let mean =
        |f: fn(&ViewError) -> f64| views.iter().map(f).sum::<f64>() / views.len().max(1) as f64;
    let (error, blurred_error) = (mean(|v| v.error), mean(|v| v.blurred_error));
    let worst = (0..views.len())
        .max_by(|&i, &j| views[i].error.total_cmp(&views[j].error).then(j.cmp(&i)))
        .unwrap_or(0);
    Ok(Comparison {
        error,
        blurred_error,
        worst,
        views,
    })
}

/// A pixel's 8-bit channels (R, G, B; as in the PNG files).
fn channels(p: u16) -> [i32; 3] {
    [0, 5, 10].map(|shift| {
        let c = ((p >> shift) & 31) as i32;
        c << 3 | c >> 2
    })
}

/// The picture's 8-bit channels, each pixel the sum of its 3 x 3 neighbourhood's (what is
/// outside counting as black).
fn box_sums(frame: &FrameBuffer) -> Vec<[i32; 3]> {
    let (w, h) = (frame.width, frame.height);
    let mut out = vec![[0; 3]; w * h];
    for y in 0..h {
        for x in 0..w {
            let mut sum = [0; 3];
            for ny in y.saturating_sub(1)..(y + 2).min(h) {
                for nx in x.saturating_sub(1)..(x + 2).min(w) {
                    let c = channels(frame.get(nx, ny));
                    (0..3).for_each(|i| sum[i] += c[i]);
                }
            }
            out[y * w + x] = sum;
        }
    }
    out
}

/// The mean absolute difference of the 8-bit channels of the two pictures blurred by a
/// 3 x 3 box, over the pixels either frame draws on (0 to 255).
pub fn blurred_difference(a: &FrameBuffer, b: &FrameBuffer) -> f64 {
    let (sums_a, sums_b) = (box_sums(a), box_sums(b));
    let (mut sum, mut pixels) = (0u64, 0usize);
    for i in 0..a.pixels.len().min(b.pixels.len()) {
        if a.pixels[i] == 0 && b.pixels[i] == 0 {
            continue;
        }
        pixels += 1;
        sum += (0..3)
            .map(|k| sums_a[i][k].abs_diff(sums_b[i][k]) as u64)
            .sum::<u64>();
    }
    match pixels {
        0 => 0.0,
        n => sum as f64 / (9 * 3 * n) as f64,
    }
}

/// The mean absolute difference of the 8-bit channels over the pixels either frame draws
/// on (0 to 255), those pixels, and how many of them differ.
pub fn difference(a: &FrameBuffer, b: &FrameBuffer) -> (f64, usize, usize) {
    let (mut sum, mut pixels, mut differing) = (0u64, 0usize, 0usize);
    for (&pa, &pb) in a.pixels.iter().zip(&b.pixels) {
        if pa == 0 && pb == 0 {
            continue;
        }
        pixels += 1;
        if pa != pb {
            differing += 1;
            let (ca, cb) = (channels(pa), channels(pb));
            sum += (0..3).map(|i| ca[i].abs_diff(cb[i]) as u64).sum::<u64>();
        }
    }
    let error = match pixels {
        0 => 0.0,
        n => sum as f64 / (3 * n) as f64,
    };
    (error, pixels, differing)
}

/// The two frames and their difference side by side (A, B, then each pixel's largest
/// channel difference, brightened 4 times, in white).
pub fn side_by_side(a: &FrameBuffer, b: &FrameBuffer) -> FrameBuffer {
    let (width, height) = (a.width, a.height);
    let mut out = FrameBuffer::new(3 * width, height);
    for y in 0..height {
        for x in 0..width {
            let (pa, pb) = (a.get(x, y), b.get(x, y));
            let row = y * out.width;
            out.pixels[row + x] = pa;
            out.pixels[row + width + x] = pb;
            let most = [0, 5, 10]
                .iter()
                .map(|&s| ((pa >> s) & 31).abs_diff((pb >> s) & 31))
                .max()
                .unwrap_or(0);
            let level = (most * 4).min(31);
            out.pixels[row + 2 * width + x] = 0x8000 | level | level << 5 | level << 10;
        }
    }
    out
}
