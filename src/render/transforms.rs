//! The matrices a model is drawn with: one for a rigid model, or, for a posed skeleton,
//! one per bone (for the points and polygons of its group) and one for the rest. Ranges of
//! points and polygons are kept as sorted integer spans, so that walking the model in
//! order finds each one's matrix without a search.

use super::limits::composed;
use crate::format::{Model, MAX_BONES};
use core::ops::Range;

use crate::math::{div_64_32, isqrt, Matrix, Vec3};

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
    /// them for a rigid model, none for the rest of a posed one.
    pub(crate) owned_points: [Range<u32>; MAX_BONES + 1],
    /// Bit i: matrix i is not a rotation (a bone's BMOT scale): its normals go through its
    /// cofactors and are made unit length again, see [`Transforms::normal`].
    stretched: u64,
    /// Bit 0: the root's matrix left 32 bits when composed, bit 1 + b: bone b's (the
    /// draw is then refused: see `render::limits`).
    inexact: u64,
}

/// The eye (camera space's origin) seen from a matrix's model space: a polygon there faces
/// the camera when its normal points towards the eye, so back faces are found without
/// turning normals into camera space (`sign(det) * dot(n, p - eye) < 0`, which is
/// `dot(normal in camera space, corner in camera space) < 0` for any invertible matrix).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Eye {
    pub(crate) position: Vec3,
    /// The matrix mirrors (negative determinant): front and back swap.
    pub(crate) mirrored: bool,
}

impl Eye {
    /// The eye of `matrix` (`R p + t`): `-R⁻¹ t = -adj(R) t / det(R)`; `None` when `R` is
    /// singular or the eye is not within Q16.16 range.
    pub(crate) fn of(matrix: &Matrix) -> Option<Self> {
        let m = &matrix.0;
        // Cofactor (i, j) in Q16.16 (64 bits).
        let cofactor = |i: usize, j: usize| {
            let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
            let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
            // Wrapping: beyond the engine's limits (a scale of 2^15) the eye is not used.
            (i64::from(m[r0][c0]) * i64::from(m[r1][c1]))
                .wrapping_sub(i64::from(m[r0][c1]) * i64::from(m[r1][c0]))
                >> 16
        };
        let det = (0..3).try_fold(0i64, |sum, j| {
            sum.checked_add(i64::from(m[0][j]).checked_mul(cofactor(0, j))? >> 16)
        })?;
        let mut position = [0; 3];
        for (k, out) in position.iter_mut().enumerate() {
            // (adj(R) t)_k = sum over j of cofactor (j, k) * t_j, in Q32.32.
            let adjugate_t = (0..3).try_fold(0i64, |sum, j| {
                sum.checked_add(cofactor(j, k).checked_mul(i64::from(m[j][3]))?)
            })?;
            let limit = det.unsigned_abs().checked_mul(1 << 31)?;
            if det == 0 || adjugate_t.unsigned_abs() >= limit {
                return None;
            }
            *out = -div_64_32(adjugate_t, i32::try_from(det).ok()?);
        }
        Some(Self {
            position,
            mirrored: det < 0,
        })
    }
}

/// A matrix and whether it is exact.
fn split(composed: Result<Matrix, Matrix>) -> (Matrix, bool) {
    match composed {
        Ok(matrix) => (matrix, true),
        Err(matrix) => (matrix, false),
    }
}

/// A span as one integer, so that sorting spans is sorting integers (the SH-2 code
/// generator cannot sort structs): start in bits 40-63, end in bits 8-39, matrix in 0-7.
fn span(start: usize, end: usize, matrix: usize) -> u64 {
    (start as u64) << 40 | (end as u64) << 8 | matrix as u64
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
    };

    /// One matrix for the whole model.
    pub(crate) fn rigid(model_view: Matrix) -> Self {
        let mut transforms = Self::EMPTY;
        transforms.set_rigid(model_view);
        transforms
    }

    /// [`rigid`](Self::rigid), in place (a frame's draw slot: no copy of the matrices).
    pub(crate) fn set_rigid(&mut self, model_view: Matrix) {
        self.matrices.fill(model_view);
        self.points.clear();
        self.polygons.clear();
        self.eyes.fill(Eye::of(&model_view));
        self.owned_points.fill(0..u32::MAX);
        self.stretched = 0;
        self.inexact = 0;
    }

    /// A posed model: `root` for the points of no bone's group, `bones[b]` (model space,
    /// from the pose) for the points and polygons of bone b's group, all after
    /// `model_view`.
    pub(crate) fn posed(
        model: &Model<'_>,
        model_view: &Matrix,
        root: &Matrix,
        bones: &[Matrix],
    ) -> Self {
        let mut transforms = Self::EMPTY;
        transforms.set_posed(model, model_view, root, bones);
        transforms
    }

    /// [`posed`](Self::posed), in place.
    pub(crate) fn set_posed(
        &mut self,
        model: &Model<'_>,
        model_view: &Matrix,
        root: &Matrix,
        bones: &[Matrix],
    ) {
        // Composed exactly or marked inexact (issue #13: `render::limits` refuses those).
        let compose =
            |matrix: &Matrix| composed(model_view, matrix).ok_or_else(|| model_view.then(matrix));
        let (rooted, exact) = split(compose(root));
        self.set_rigid(rooted);
        self.inexact = u64::from(!exact);
        self.owned_points.fill(0..0);
        for (b, (bone, matrix)) in model.bones().iter().zip(bones).enumerate().take(MAX_BONES) {
            let (bone_view, exact) = split(compose(matrix));
            self.matrices[b + 1] = bone_view;
            self.inexact |= u64::from(!exact) << (b + 1);
            self.eyes[b + 1] = Eye::of(&self.matrices[b + 1]);
            if !is_rotation(matrix) {
                self.stretched |= 1 << (b + 1);
            }
            let Some(group) = bone
                .group()
                .and_then(|g| model.groups().get(usize::from(g)))
            else {
                continue;
            };
            let (points, polygons) = (group.points(), group.polygons());
            self.owned_points[b + 1] = points.start as u32..points.end as u32;
            // Both fit: one span per bone at most, and at most MAX_BONES bones.
            let _ = self.points.push(span(points.start, points.end, b + 1));
            let _ = self
                .polygons
                .push(span(polygons.start, polygons.end, b + 1));
        }
        self.points.sort_unstable();
        self.polygons.sort_unstable();
    }

    /// How many of the matrices, from the first, the points and polygons of `model` take:
    /// only the first when no bone's group has a span (a rigid draw: the others are its
    /// copies), else the first and one per bone.
    pub(crate) fn matrices_in_use(&self, model: &Model<'_>) -> usize {
        if self.points.is_empty() && self.polygons.is_empty() {
            1
        } else {
            1 + model.bones().len().min(MAX_BONES)
        }
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
        self.polygons
            .iter()
            .map(|&s| span_parts(s))
            .find(|&(_, end, _)| index < end)
            .filter(|&(start, _, _)| index >= start)
            .map_or(0, |(_, _, matrix)| usize::from(matrix))
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

/// Whether a model-space bone matrix's linear part is a rotation (unit, orthogonal columns,
/// within the rounding of Q16.16 products): else the bone is scaled.
fn is_rotation(matrix: &Matrix) -> bool {
    const ONE_SQUARED: i64 = 1 << 32;
    const TOLERANCE: i64 = 1 << 24;
    let m = &matrix.0;
    let column = |j: usize| [m[0][j], m[1][j], m[2][j]].map(i64::from);
    let dot = |a: [i64; 3], b: [i64; 3]| {
        (a[0] * b[0])
            .wrapping_add(a[1] * b[1])
            .wrapping_add(a[2] * b[2])
    };
    let (x, y, z) = (column(0), column(1), column(2));
    [dot(x, x), dot(y, y), dot(z, z)]
        .iter()
        .all(|&n| (n - ONE_SQUARED).abs() <= TOLERANCE)
        && [dot(x, y), dot(y, z), dot(z, x)]
            .iter()
            .all(|&d| d.abs() <= TOLERANCE)
}

/// The cofactor matrix of a matrix's linear part (no translation), in Q16.16: it maps
/// normals as the inverse transpose does, times the determinant.
pub(crate) fn cofactors(matrix: &Matrix) -> Matrix {
    let m = &matrix.0;
    let mut out = [[0; 4]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().take(3).enumerate() {
            let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
            let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
            *cell = ((i64::from(m[r0][c0]) * i64::from(m[r1][c1])
                - i64::from(m[r0][c1]) * i64::from(m[r1][c0]))
                >> 16) as i32;
        }
    }
    Matrix(out)
}

/// `normal` through a cofactor matrix, made unit length (Q16.16); 0 for a collapsed one.
pub(crate) fn stretched_normal(cofactors: &Matrix, normal: Vec3) -> Vec3 {
    let n = cofactors.rotate(normal);
    // Each square is below 2^62: their sum fits in a u64.
    let squares = n.map(|c| u64::from(c.unsigned_abs()).pow(2));
    let length = isqrt(squares[0] + squares[1] + squares[2]) as i64;
    if length == 0 {
        return [0; 3];
    }
    n.map(|c| ((i64::from(c) << 16) / length) as i32)
}
