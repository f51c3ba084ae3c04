//! The matrices a model is drawn with: one for a rigid model, or, for a posed skeleton,
//! one per bone (for the points and polygons of its group) and one for the rest. Ranges of
//! points and polygons are kept as sorted integer spans, so that walking the model in
//! order finds each one's matrix without a search.

mod eye;
#[cfg(jom_saturn)]
pub(crate) mod sh2;

use eye::STRETCH_TOLERANCE;
pub(crate) use eye::{cofactors, eye, rotation_error, stretched_normal, Eye, TURN_TOLERANCE};

use crate::format::{Model, MAX_BONES};
use crate::render::error::DrawError;
use crate::render::limits::{within_reach, ComposeBound};
use core::ops::Range;

use crate::math::{Matrix, Vec3};
use crate::worker::Worker;

/// Camera-space matrices and which points and polygons use which.
pub(crate) struct Transforms {
    /// 0: the whole model (or the points of no bone's group); 1 + b: bone b.
    pub(crate) matrices: [Matrix; MAX_BONES + 1],
    /// Spans of points moved by a bone, sorted: see [`span`].
    points: heapless::Vec<u64, MAX_BONES>,
    /// Spans of polygons moved by a bone, sorted.
    polygons: heapless::Vec<u64, MAX_BONES>,
    /// For each matrix, the eye in the model space it maps from, when it has one
    /// (an invertible matrix, the eye not too far): see [`Eye`].
    pub(crate) eyes: [Option<Eye>; MAX_BONES + 1],
    /// For each matrix, the points it moves for sure: a span of its bone's group, all of
    /// them for a rigid model, none for the rest of a posed one. A bone's matrix takes all
    /// of them too when the model's groups hold the corner A of each of their polygons
    /// ([`corners_in_groups`]): the culling, which looks a polygon's corner A up here, then
    /// need not (a form of its loop without the lookup).
    pub(crate) owned_points: [Range<u32>; MAX_BONES + 1],
    /// Bit i: matrix i is not a rotation (a bone's BMOT scale): its normals go through its
    /// cofactors and are made unit length again, see [`Transforms::normal`].
    stretched: u64,
    /// Bit 0: the root's matrix left 32 bits when composed, bit 1 + b: bone b's (the
    /// draw is then refused: see `render::limits`).
    inexact: u64,
    /// Bit i: matrix i moves points or polygons (the others are not built: a bone
    /// without a group, or any but the first of a rigid draw).
    used: u64,
    /// Bit i: matrix i is known to keep the model's points within its reach in 32 bits
    /// (from the bound it was composed by: `render::limits` need not check it).
    within_reach: u64,
}

/// What a posed draw's matrices are composed after: its model-view matrix, with its bound
/// and its distance from a rotation, and the model's reach.
struct Composition<'m> {
    model_view: &'m Matrix,
    bound: &'m ComposeBound,
    turn_error: u64,
    reach: u32,
}

/// `a * b` into `out` (each cell's 64-bit sum wrapped: for products known exact) and the
/// product's [`Eye::of_turn`] into `eye`; gives `b`'s [`rotation_error`] saturated to 32
/// bits. On a Saturn by the SH-2 assembly (`view.S`, bound by `sh2`), else by
/// [`view_product_reference`].
fn view_product(a: &Matrix, b: &Matrix, out: &mut Matrix, eye: &mut Option<Eye>) -> u32 {
    #[cfg(jom_saturn)]
    return sh2::view_product(a, b, out, eye);
    #[cfg(not(jom_saturn))]
    view_product_reference(a, b, out, eye)
}

/// [`view_product`] in Rust: the reference of the assembly.
#[cfg_attr(all(jom_saturn, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn view_product_reference(
    a: &Matrix,
    b: &Matrix,
    out: &mut Matrix,
    eye: &mut Option<Eye>,
) -> u32 {
    crate::anim::skeleton::compose_reference(a, b, out);
    *eye = Eye::of_turn(out);
    u32::try_from(rotation_error(b)).unwrap_or(u32::MAX)
}

/// `a * b` into `out` (as [`view_product`]) and its [`Eye::of_turn`] into `eye`; gives the
/// product's [`rotation_error`] saturated to 32 bits (what a rigid draw's model-view matrix
/// is compared with, [`TURN_TOLERANCE`], is below it). On a Saturn by the SH-2 assembly
/// (`view.S`), else by [`rigid_view_reference`].
pub(crate) fn rigid_view(a: &Matrix, b: &Matrix, out: &mut Matrix, eye: &mut Option<Eye>) -> u32 {
    #[cfg(jom_saturn)]
    return sh2::rigid_view(a, b, out, eye);
    #[cfg(not(jom_saturn))]
    rigid_view_reference(a, b, out, eye)
}

/// [`rigid_view`] in Rust, [`view_product_reference`] but for the error: the reference of
/// the assembly.
#[cfg_attr(all(jom_saturn, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn rigid_view_reference(
    a: &Matrix,
    b: &Matrix,
    out: &mut Matrix,
    eye: &mut Option<Eye>,
) -> u32 {
    view_product_reference(a, b, out, eye);
    u32::try_from(rotation_error(out)).unwrap_or(u32::MAX)
}

/// Posed draws of at least this many bones build the second half of their bones' matrices
/// on the worker (the showcase's 16 bones: about 1,260 cycles each on the master alone).
const MIN_SHARED_BONES: usize = 8;

/// What building matrices found, in bits (bit i: matrix i), as [`Transforms`] keeps them.
#[derive(Clone, Copy, Default)]
struct Placed {
    used: u64,
    inexact: u64,
    within_reach: u64,
    stretched: u64,
}

/// What building one matrix found.
struct Found {
    exact: bool,
    within_reach: bool,
    /// The factor's [`rotation_error`], saturated to 32 bits.
    error: u64,
}

impl Placed {
    /// Adds the matrix `bit` that `found` describes.
    fn add(&mut self, bit: u64, found: &Found) {
        self.used |= bit;
        if !found.exact {
            self.inexact |= bit;
        }
        if found.within_reach {
            self.within_reach |= bit;
        }
        if found.error > STRETCH_TOLERANCE {
            self.stretched |= bit;
        }
    }

    fn merge(&mut self, other: &Self) {
        self.used |= other.used;
        self.inexact |= other.inexact;
        self.within_reach |= other.within_reach;
        self.stretched |= other.stretched;
    }
}

/// The spans of points and polygons each of `model`'s first `count` bones moves (through
/// its group), sorted, and the points each bone's matrix owns (the root's none; with
/// `corners_owned`, a bone's all: see `owned_points`).
fn set_spans(
    model: &Model<'_>,
    count: usize,
    corners_owned: bool,
    (points, polygons, owned_points): (
        &mut heapless::Vec<u64, MAX_BONES>,
        &mut heapless::Vec<u64, MAX_BONES>,
        &mut [Range<u32>; MAX_BONES + 1],
    ),
) {
    points.clear();
    polygons.clear();
    owned_points[0] = 0..0;
    let groups = model.groups();
    for (b, bone) in model.bones()[..count].iter().enumerate() {
        let Some(group) = bone.group().and_then(|g| groups.get(usize::from(g))) else {
            continue;
        };
        let index = b + 1;
        let (group_points, group_polygons) = (group.points(), group.polygons());
        owned_points[index] = match corners_owned {
            true => 0..u32::MAX,
            false => group_points.start as u32..group_points.end as u32,
        };
        // Both fit: one span per bone at most, and at most MAX_BONES bones.
        let _ = points.push(span(group_points.start, group_points.end, index));
        let _ = polygons.push(span(group_polygons.start, group_polygons.end, index));
    }
    sort_spans(points);
    sort_spans(polygons);
}

/// Whether each group of `model` holds the corner A of every one of its polygons among its
/// own points, so that its bone's matrix moves that corner (GRUP: a group's points are those
/// only its polygons use; a polygon may also use points it shares with another group,
/// which do not move with it). Once a load: a pass over the polygons (Mednafen: some 20
/// cycles a polygon, their records read from memory; `make bench`'s load of 500 quads).
pub(crate) fn corners_in_groups(model: &Model<'_>) -> bool {
    let polygons = model.polygons();
    model.groups().iter().all(|group| {
        let points = group.points();
        polygons.get(group.polygons()).is_some_and(|polygons| {
            polygons
                .iter()
                .all(|polygon| points.contains(&usize::from(polygon.corners()[0])))
        })
    })
}

/// Builds the matrices of `bones` (bone `first` onwards of `model`) into `matrices` and
/// `eyes` (as long), those of the bones with a group: matrix `first + 1` onwards.
fn place_bones(
    model: &Model<'_>,
    after: &Composition<'_>,
    bones: &[Matrix],
    first: usize,
    matrices: &mut [Matrix],
    eyes: &mut [Option<Eye>],
) -> Placed {
    let groups = model.groups();
    let mut placed = Placed::default();
    // Moved on one bone at a time (the SH-2 shifts by a variable count in a library call).
    let mut bit = 2u64 << first;
    let model_bones = model.bones().get(first..).unwrap_or_default();
    for (((bone, matrix), out), eye) in model_bones.iter().zip(bones).zip(matrices).zip(eyes) {
        if bone
            .group()
            .and_then(|g| groups.get(usize::from(g)))
            .is_some()
        {
            placed.add(bit, &place(out, eye, after, matrix));
        }
        bit <<= 1;
    }
    placed
}

/// Makes `out` `after.model_view * matrix`: composed exactly or found inexact, found
/// within reach when the bound shows it, with its eye (by the transpose when both factors
/// are together within [`TURN_TOLERANCE`] of a rotation, else by the inverse) in `eye`.
fn place(
    out: &mut Matrix,
    eye: &mut Option<Eye>,
    after: &Composition<'_>,
    matrix: &Matrix,
) -> Found {
    // The common case, a product the bound shows exact, with the rotation test and the eye
    // by the transpose in one (assembly on a Saturn), each written in place.
    let mut product_error = None;
    let composed = after
        .bound
        .compose(after.model_view, matrix, out, after.reach, |a, b, out| {
            product_error = Some(view_product(a, b, out, eye));
        });
    let (error, turned) = match product_error {
        Some(error) => (u64::from(error), true),
        None => (rotation_error(matrix), false),
    };
    if after.turn_error.saturating_add(error) > TURN_TOLERANCE {
        *eye = Eye::of(out);
    } else if !turned {
        *eye = Eye::of_turn(out);
    }
    Found {
        exact: composed.exact,
        within_reach: composed.within_reach,
        error,
    }
}

/// A span as one integer, so that sorting spans is sorting integers (the SH-2 code
/// generator cannot sort structs): start in bits 40-63, end in bits 8-39, matrix in 0-7.
fn span(start: usize, end: usize, matrix: usize) -> u64 {
    (start as u64) << 40 | (end as u64) << 8 | matrix as u64
}

/// Sorts a draw's spans by insertion, each moved down past the larger ones by plain moves:
/// one comparison a span already in order, one move more for each pair out of order (the
/// showcase's 16 bones have 44). On the SH-2 `sort_unstable` of them measured about 3,800
/// cycles, and `swap` of two `u64` three library calls.
pub(crate) fn sort_spans(spans: &mut [u64]) {
    for next in 1..spans.len() {
        let span = spans[next];
        let mut at = next;
        while at > 0 && spans[at - 1] > span {
            spans[at] = spans[at - 1];
            at -= 1;
        }
        spans[at] = span;
    }
}

fn span_parts(span: u64) -> (usize, usize, u8) {
    (
        (span >> 40) as usize,
        ((span >> 8) & 0xFFFF_FFFF) as usize,
        span as u8,
    )
}

impl Transforms {
    /// No matrices yet: what a `static` slot starts as.
    pub(crate) const EMPTY: Self = Self {
        matrices: [Matrix([[0; 4]; 3]); MAX_BONES + 1],
        points: heapless::Vec::new(),
        polygons: heapless::Vec::new(),
        eyes: [None; MAX_BONES + 1],
        owned_points: [const { 0..0 }; MAX_BONES + 1],
        stretched: 0,
        inexact: 0,
        used: 0,
        within_reach: 0,
    };

    /// [`EMPTY`](Self::EMPTY), written at `this`, which is all zero already (a frame slot's,
    /// written in place: [`DrawSlot::empty_in`](crate::render::DrawSlot::empty_in)).
    ///
    /// # Safety
    /// `this` is valid for writes and all zero.
    pub(crate) unsafe fn empty_in_zeroed(this: *mut Self) {
        // SAFETY: the caller's promise. All zero is `EMPTY` but for the eyes (an `Option`
        // is not all zero for `None` whatever it holds).
        unsafe {
            let eyes = core::ptr::addr_of_mut!((*this).eyes).cast::<Option<Eye>>();
            for i in 0..MAX_BONES + 1 {
                eyes.add(i).write(None);
            }
        }
    }

    /// One matrix for the whole model (the tests'; a frame's slot is set in place).
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn rigid(model_view: Matrix) -> Self {
        let mut transforms = Self::EMPTY;
        let found = eye(&model_view, rotation_error(&model_view));
        transforms.set_rigid(&model_view, found);
        transforms
    }

    /// One matrix for the whole model, in place (a frame's draw slot: no copy of the
    /// matrices): only the first matrix is written, the only one a rigid draw reads, with
    /// its [`eye`] (found with the matrix: the renderer's whole-draw test needs its
    /// [`rotation_error`] first).
    pub(crate) fn set_rigid(&mut self, model_view: &Matrix, eye: Option<Eye>) {
        self.matrices[0] = *model_view;
        self.eyes[0] = eye;
        self.owned_points[0] = 0..u32::MAX;
        self.points.clear();
        self.polygons.clear();
        self.stretched = 0;
        self.inexact = 0;
        self.used = 1;
        self.within_reach = 0;
    }

    /// A posed model (the tests'; a frame's slot is set in place): see
    /// [`set_posed`](Self::set_posed).
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn posed(
        model: &Model<'_>,
        model_view: &Matrix,
        root: &Matrix,
        bones: &[Matrix],
    ) -> Self {
        let mut transforms = Self::EMPTY;
        let after = (model_view, rotation_error(model_view));
        transforms.set_posed(model, after, root, bones, false, None);
        transforms
    }

    /// A posed model, in place: `root` for the points of no bone's group, `bones[b]`
    /// (model space, from the pose) for the points and polygons of bone b's group, all
    /// after `model_view`, given with its [`rotation_error`] (saturated to 32 bits or not:
    /// it is only compared with [`TURN_TOLERANCE`]); `corners_owned` saying that the model's groups
    /// hold the corner A of each of their polygons ([`corners_in_groups`], worked out once
    /// a load): the matrices of the bones without a group (which move nothing) are not
    /// built. With `worker` (and [`MIN_SHARED_BONES`] bones or more)
    /// the bones' matrices are built on both CPUs, each its own product: this one makes the
    /// root's and the spans beside its part, two bones fewer than half (the showcase's 16
    /// bones, Mednafen, its transform phase a frame: 6 here 108,997 cycles, 7 110,222, 5
    /// 109,870; the root and the spans made before the join, 8 here, 111,354).
    pub(crate) fn set_posed(
        &mut self,
        model: &Model<'_>,
        (model_view, turn_error): (&Matrix, u64),
        root: &Matrix,
        bones: &[Matrix],
        corners_owned: bool,
        worker: Option<&mut (dyn Worker + '_)>,
    ) {
        // Composed exactly or marked inexact (issue #13: `render::limits` refuses those).
        let bound = ComposeBound::of(model_view);
        let after = Composition {
            model_view,
            bound: &bound,
            turn_error,
            reach: model.reach(),
        };
        let count = model.bones().len().min(bones.len()).min(MAX_BONES);
        let Self {
            matrices,
            eyes,
            points,
            polygons,
            owned_points,
            ..
        } = self;
        let (root_matrix, bone_matrices) = matrices.split_at_mut(1);
        let (root_eye, bone_eyes) = eyes.split_at_mut(1);
        let (matrices, eyes) = (&mut bone_matrices[..count], &mut bone_eyes[..count]);
        let bones = &bones[..count];
        let spans = (points, polygons, owned_points);
        // The root, the first `bones` (into `matrices`, `eyes`) and the spans.
        let mut with_root = |bones: &[Matrix], matrices: &mut [Matrix], eyes: &mut [_]| {
            let mut placed = Placed::default();
            placed.add(
                1,
                &place(&mut root_matrix[0], &mut root_eye[0], &after, root),
            );
            // BMOT scales bones only: the root's normals are turned, never taken as stretched.
            placed.stretched = 0;
            placed.merge(&place_bones(model, &after, bones, 0, matrices, eyes));
            let spans = (&mut *spans.0, &mut *spans.1, &mut *spans.2);
            set_spans(model, count, corners_owned, spans);
            placed
        };
        let placed = match worker {
            Some(worker) if count >= MIN_SHARED_BONES => {
                let first = count / 2 - 2;
                let (here_matrices, there_matrices) = matrices.split_at_mut(first);
                let (here_eyes, there_eyes) = eyes.split_at_mut(first);
                let (mut here, mut there) = (Placed::default(), Placed::default());
                worker.join(
                    &mut || here = with_root(&bones[..first], here_matrices, here_eyes),
                    &mut || {
                        let (bones, out) =
                            (&bones[first..], (&mut *there_matrices, &mut *there_eyes));
                        there = place_bones(model, &after, bones, first, out.0, out.1)
                    },
                );
                here.merge(&there);
                here
            }
            _ => with_root(bones, matrices, eyes),
        };
        self.used = placed.used;
        self.inexact = placed.inexact;
        self.within_reach = placed.within_reach;
        self.stretched = placed.stretched;
    }

    /// Checks the matrices of a draw of `model` against its reach (see `render::limits`),
    /// and keeps only the eyes with which the back-face test in model space is exact.
    pub(crate) fn check_limits(&mut self, model: &Model<'_>) -> Result<(), DrawError> {
        let reach = model.reach();
        if let Some(matrix) = self.inexact() {
            return Err(DrawError::OutOfReach { matrix });
        }
        // |eye| + reach within 32 bits on each axis.
        let eye_limit = (i32::MAX as u32).saturating_sub(reach);
        let (mut used, mut known, mut index) = (self.used(), self.within_reach(), 0);
        while used != 0 {
            if used & 1 != 0 {
                if known & 1 == 0 && !within_reach(&self.matrices[index], reach) {
                    return Err(DrawError::OutOfReach { matrix: index });
                }
                // Read in place, written only when dropped (an eye is 16 bytes to copy).
                let eye = &mut self.eyes[index];
                if let Some(found) = eye {
                    if found.position.iter().any(|e| e.unsigned_abs() > eye_limit) {
                        *eye = None;
                    }
                }
            }
            used >>= 1;
            known >>= 1;
            index += 1;
        }
        Ok(())
    }

    /// The matrices the points and polygons take, as a set of bits (bit i: matrix i).
    pub(crate) fn used(&self) -> u64 {
        self.used
    }

    /// Whether both move all their polygons by their first matrix (a rigid draw) and its
    /// linear part is the same (the translations may differ): lit and emitted alike.
    pub(crate) fn turned_alike(&self, other: &Self) -> bool {
        let linear = |m: &Matrix| m.0.map(|row| [row[0], row[1], row[2]]);
        self.polygons.is_empty()
            && other.polygons.is_empty()
            && self.stretched & 1 == other.stretched & 1
            && linear(&self.matrices[0]) == linear(&other.matrices[0])
    }

    /// The matrices known to keep the model within its reach (bit i: matrix i).
    pub(crate) fn within_reach(&self) -> u64 {
        self.within_reach
    }

    /// Marks the first matrix as keeping the model within its reach: a rigid draw's, which
    /// the renderer checks (`limits::check_rigid`) before its whole-draw test, so that
    /// `limits::check_transforms` does not check it again.
    pub(crate) fn set_reach_checked(&mut self) {
        self.within_reach |= 1;
    }

    /// The first matrix that left 32 bits when composed, if one did.
    pub(crate) fn inexact(&self) -> Option<usize> {
        (self.inexact != 0).then(|| self.inexact.trailing_zeros() as usize)
    }

    /// Whether matrix `index` stretches (its normals need [`Transforms::normal`]).
    pub(crate) fn is_stretched(&self, index: usize) -> bool {
        self.stretched & (1 << index) != 0
    }

    /// A model-space normal in camera space through matrix `index`: rotated, or, for a
    /// stretched matrix, through its cofactors (the inverse transpose up to the
    /// determinant, which keeps normals perpendicular to their polygons under any scale)
    /// and made unit length again (lighting takes unit normals).
    pub(crate) fn normal(&self, index: usize, normal: Vec3) -> Vec3 {
        let matrix = &self.matrices[index];
        if self.is_stretched(index) {
            stretched_normal(&cofactors(matrix), normal)
        } else {
            matrix.rotate(normal)
        }
    }

    /// The spans of polygons moved by a bone (what [`polygon_runs`](Self::polygon_runs)
    /// walks).
    pub(crate) fn polygon_spans(&self) -> &heapless::Vec<u64, MAX_BONES> {
        &self.polygons
    }

    /// The points `0..count` in runs of one matrix: (range, matrix index), in order.
    pub(crate) fn point_runs(&self, count: usize) -> Runs<'_> {
        Runs {
            spans: &self.points,
            next: 0,
            position: 0,
            count,
        }
    }

    /// The polygons `0..count` in runs of one matrix, in order.
    pub(crate) fn polygon_runs(&self, count: usize) -> Runs<'_> {
        Runs {
            spans: &self.polygons,
            next: 0,
            position: 0,
            count,
        }
    }

    /// The matrix index of polygon `index`: the first span (in order) that ends after it,
    /// if it starts at or before it, as [`polygon_runs`](Self::polygon_runs) gives it.
    pub(crate) fn polygon_matrix(&self, index: usize) -> usize {
        // A loop, no iterator adapters: through them the SH-2 code made a call a span
        // (`ControlFlow::branch`).
        for &span in &self.polygons {
            let (start, end, matrix) = span_parts(span);
            if index < end {
                return match index >= start {
                    true => usize::from(matrix),
                    false => 0,
                };
            }
        }
        0
    }
}

/// Walks `0..count` in runs of one matrix: a span's indexes take its matrix (from where the
/// runs before it ended), the indexes of no span take matrix 0.
pub(crate) struct Runs<'s> {
    spans: &'s [u64],
    next: usize,
    position: usize,
    count: usize,
}

impl Iterator for Runs<'_> {
    type Item = (Range<usize>, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let position = self.position;
        if position >= self.count {
            return None;
        }
        while let Some(&span) = self.spans.get(self.next) {
            let (start, end, matrix) = span_parts(span);
            let end = end.min(self.count);
            if end <= position {
                self.next += 1;
                continue;
            }
            if start > position {
                self.position = start.min(self.count);
                return Some((position..self.position, 0));
            }
            self.next += 1;
            self.position = end;
            return Some((position..end, usize::from(matrix)));
        }
        self.position = self.count;
        Some((position..self.count, 0))
    }
}
