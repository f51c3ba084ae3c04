//! The common case of culling, one polygon at a time: what it needs of a draw
//! ([`PlainCull`]: one plain material through one matrix with an eye), its Rust reference
//! (`ModelFrame::cull_plain_run_reference`; the SH-2 assembly is `sh2`'s), and the tests
//! every polygon goes through (facing, on screen, depth), with what a material asks of
//! them ([`CullStyle`]).

use core::ops::Range;

use crate::format::{Material, MaterialFlags, Model, Polygon, SortMode};
use crate::math::{div_64_32, Vec3};
use crate::render::shared::{sort_key, ModelFrame, SortKey, ViewPoint};
use crate::render::sort::KeyCounts;
use crate::render::transforms::Eye;
use crate::render::visibility::SidePlanes;
use crate::vdp1::Point;

/// What [`ModelFrame::cull_plain_run`] needs: the material and the eye of its polygons.
pub(crate) struct PlainCull<'p> {
    pub(crate) material: u16,
    /// The model's plain materials: the run goes on through any of them.
    pub(crate) plain_materials: &'p PlainMaterials,
    pub(crate) eye: Eye,
    /// The points the eye's matrix moves.
    pub(crate) owned: Range<u32>,
    pub(crate) depth_factor: u32,
    /// The camera's side planes, for the polygons crossing its near plane.
    pub(crate) sides: SidePlanes,
    /// The frame number of the model's first polygon: a key's low 16 bits are its
    /// polygon's index plus this.
    pub(crate) numbered_from: usize,
    /// How many polygons after each of the model's are in its plane (`planes`; empty:
    /// not known, each culled on its own).
    pub(crate) plane_runs: &'p [u8],
}

/// How many of a model's first materials [`PlainMaterials`] knows.
pub(crate) const PLAIN_MATERIALS: usize = 32;

/// Which of a model's first [`PLAIN_MATERIALS`] materials are [plain](CullStyle::plain), a
/// byte each (1: plain), as `cull.S` reads them: a run of [`ModelFrame::cull_plain_run`] goes on
/// from one to another instead of stopping at each change (the showcase's face, a
/// material a quad, stopped the run some 25 times a frame, each stop and new run about
/// 800 cycles).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainMaterials(pub(crate) [u8; PLAIN_MATERIALS]);

impl PlainMaterials {
    /// Those of `model`; none when it has one material (no change to go through: the
    /// table is not made).
    pub(crate) fn of(model: &Model<'_>) -> Self {
        let mut plain = Self([0; PLAIN_MATERIALS]);
        let count = model.materials().len().min(PLAIN_MATERIALS);
        if count > 1 {
            for (index, byte) in plain.0[..count].iter_mut().enumerate() {
                *byte = u8::from(CullStyle::of(model, index as u16).plain());
            }
        }
        plain
    }

    /// Whether `material` is one of them.
    pub(crate) fn contains(&self, material: u16) -> bool {
        self.0
            .get(usize::from(material))
            .is_some_and(|&plain| plain != 0)
    }
}

/// What a run of [`ModelFrame::cull_plain_run`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlainRun {
    /// Polygons gone through from the start of the range.
    pub(crate) done: usize,
    /// Of them, those visible (their keys written) and those culled.
    pub(crate) visible: usize,
    pub(crate) culled: usize,
    /// Of the visible ones, those crossing the near plane.
    pub(crate) crossing: usize,
    /// The depth of the last one gone through.
    pub(crate) last_depth: i32,
}

impl ModelFrame<'_, '_> {
    /// Culls the polygons of `range` from its start while they are of `plain`'s material
    /// or another of its [`PlainMaterials`] and their first corner is moved by the eye's
    /// matrix: the common case, in a loop with nothing else in it (those crossing the near
    /// plane culled as `cull_range` culls them). Writes the keys of the visible ones
    /// to `keys` from its start, each counted in `counts` for the sort; gives how many
    /// polygons it went through and the depth of the last. A polygon's facing test holds
    /// for the rest of its plane run (`plain.plane_runs`): a back face's are passed over,
    /// and those after a face towards the eye are not tested.
    // On a Saturn only the tests run the Rust version (against the assembly).
    #[cfg_attr(all(jom_saturn, not(feature = "selftest")), allow(dead_code))]
    pub(crate) fn cull_plain_run_reference(
        &self,
        plain: &PlainCull,
        range: Range<usize>,
        keys: &mut [SortKey],
        counts: &mut KeyCounts,
    ) -> PlainRun {
        let (polygons, materials) = (self.model.polygons(), self.model.polygon_materials());
        let (points, model_points) = (self.points, self.model.points());
        let (near, far) = (self.camera.near, self.camera.far);
        let (half_w, half_h) = (self.camera.width as i16 / 2, self.camera.height as i16 / 2);
        let mut run = PlainRun::default();
        let (mut passed_over, mut known_facing) = (0, 0);
        for index in range.clone() {
            if passed_over > 0 {
                // Behind a back face of its plane: facing away too.
                passed_over -= 1;
                run.done += 1;
                run.culled += 1;
                run.last_depth = center_depth(&polygons[index], points);
                continue;
            }
            let material = materials[index].get();
            if material != plain.material && !plain.plain_materials.contains(material) {
                break;
            }
            let polygon = &polygons[index];
            let [ia, ib, ic, id] = polygon.corners();
            if !plain.owned.contains(&u32::from(ia)) {
                break;
            }
            let run_after = || plain.plane_runs.get(index).map_or(0, |&n| usize::from(n));
            // In the plane of one that faces the eye: facing it too.
            let facing = known_facing > 0
                || faces(
                    polygon.normal().raw(),
                    model_points[usize::from(ia)].raw(),
                    &plain.eye,
                );
            known_facing = match (known_facing, facing) {
                (0, true) => run_after(),
                (0, false) => 0,
                (known, _) => known - 1,
            };
            let a = &points[usize::from(ia)];
            let b = &points[usize::from(ib)];
            let c = &points[usize::from(ic)];
            let d = &points[usize::from(id)];
            let (za, zb, zc, zd) = (a.view[2], b.view[2], c.view[2], d.view[2]);
            let depth = center_depth(polygon, points);
            let in_front = za >= near && zb >= near && zc >= near && zd >= near;
            let shown = facing
                && if in_front {
                    (za <= far || zb <= far || zc <= far || zd <= far)
                        && on_screen([a.screen, b.screen, c.screen, d.screen], half_w, half_h)
                } else {
                    (za >= near || zb >= near || zc >= near || zd >= near)
                        && !plain.sides.all_beside([&a.view, &b.view, &c.view, &d.view])
                };
            if shown && run.visible == keys.len() {
                break;
            }
            run.done += 1;
            run.last_depth = depth;
            if !shown {
                run.culled += 1;
                if !facing {
                    passed_over = run_after().min(range.end - index - 1);
                }
                continue;
            }
            let number = index + plain.numbered_from;
            let key = sort_key(quantized_depth(depth, plain.depth_factor), number);
            keys[run.visible] = key;
            counts.count(key);
            run.visible += 1;
            run.crossing += usize::from(!in_front);
        }
        run
    }
}

/// Whether a polygon of `normal` with a corner at `corner` (both in model space) faces
/// `eye`: its normal points towards the eye, `n . corner - n . eye < 0` (the other way
/// through a mirroring matrix). The six products are summed in 64 bits, wrapping, as the
/// SH-2 loop sums them with `mac.l` (`cull.S`); no input of the engine's limits wraps.
#[inline(always)]
pub(crate) fn faces(normal: Vec3, corner: Vec3, eye: &Eye) -> bool {
    let product = |a: i32, b: i32| i64::from(a) * i64::from(b);
    let [nx, ny, nz] = normal;
    let [ex, ey, ez] = eye.position;
    let towards = product(nx, corner[0])
        .wrapping_add(product(ny, corner[1]))
        .wrapping_add(product(nz, corner[2]))
        .wrapping_add(product(nx, ex.wrapping_neg()))
        .wrapping_add(product(ny, ey.wrapping_neg()))
        .wrapping_add(product(nz, ez.wrapping_neg()));
    match eye.mirrored {
        false => towards < 0,
        true => towards.wrapping_neg() < 0,
    }
}

/// The depth of a polygon that sorts by its centre: the sum of its corners' z / 4 (each
/// divided first, so that the sum stays within 32 bits).
#[inline(always)]
pub(crate) fn center_depth(polygon: &Polygon, points: &[ViewPoint]) -> i32 {
    polygon
        .corners()
        .iter()
        .fold(0, |sum, &i| sum + (points[usize::from(i)].view[2] >> 2))
}

/// Whether screen corners are not all off the same side of a `2 half_w` x `2 half_h`
/// screen centred on the origin.
#[inline(always)]
pub(crate) fn on_screen(corners: [Point; 4], half_w: i16, half_h: i16) -> bool {
    let all =
        |beyond: fn(&Point, i16, i16) -> bool| corners.iter().all(|p| beyond(p, half_w, half_h));
    !(all(|p, w, _| p.x < -w)
        || all(|p, w, _| p.x > w)
        || all(|p, _, h| p.y < -h)
        || all(|p, _, h| p.y > h))
}

/// A depth brought into 16 bits (see [`depth_factor`]); 0 for those at or behind the eye.
#[inline(always)]
pub(crate) fn quantized_depth(depth: i32, depth_factor: u32) -> u32 {
    match depth {
        ..=0 => 0,
        _ => ((u64::from(depth as u32) * u64::from(depth_factor)) >> 32).min(0xFFFF) as u32,
    }
}

/// What culling and sorting need of a material.
#[derive(Clone, Copy)]
pub(crate) struct CullStyle {
    /// The material's index (`u16::MAX` for none yet).
    pub(crate) material: u16,
    pub(crate) sort_mode: SortMode,
    pub(crate) dual: bool,
    pub(crate) may_split: bool,
}

impl CullStyle {
    /// Its polygons are culled by their normal and sorted by their centre
    /// ([`ModelFrame::cull_plain_run`]).
    pub(crate) fn plain(&self) -> bool {
        self.sort_mode == SortMode::Center && !self.dual && !self.may_split
    }

    pub(crate) fn of(model: &Model<'_>, index: u16) -> Self {
        let flags = model
            .materials()
            .get(usize::from(index))
            .map_or(MaterialFlags::default(), Material::flags);
        Self {
            material: index,
            sort_mode: flags.sort_mode(),
            dual: flags.contains(MaterialFlags::DUAL_PLANE),
            may_split: flags.subdivides(),
        }
    }
}

/// What depths are multiplied by (then divided by 2^32) to bring those up to `far` into
/// 16 bits: a multiplication, since the SH-2 shifts by a variable amount only in a loop.
/// A far plane beyond [`DIVIDED_FAR`] (any camera's but the nearest) by the division unit
/// (`math::div_64_32`, about 39 cycles), not by the 64-bit division in software that the
/// SH-2's code generator calls (once a frame in `begin`, for the billboards, and again in
/// each `cull_range`).
pub(crate) fn depth_factor(far: i32) -> u32 {
    if far > DIVIDED_FAR {
        return div_64_32(DEPTH_SCALE as i64, far) as u32;
    }
    (DEPTH_SCALE / u64::from(far.max(1) as u32)).min(u64::from(u32::MAX)) as u32
}

/// The 16-bit depth range times 2^32: [`depth_factor`]'s dividend.
const DEPTH_SCALE: u64 = 0xFFFF << 32;

/// The nearest far plane (raw Q16.16, about 2 units) past which [`depth_factor`]'s
/// quotient fits an `i32`, as the division unit gives it.
pub(crate) const DIVIDED_FAR: i32 = 2 * 0xFFFF;
