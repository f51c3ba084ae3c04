//! The matrices a model is drawn with: one for a rigid model, or, for a posed skeleton,
//! one per bone (for the points and polygons of its group) and one for the rest. Ranges of
//! points and polygons are kept as sorted integer spans, so that walking the model in
//! order finds each one's matrix without a search.

use crate::format::{Model, MAX_BONES};
use crate::math::Matrix;

/// Camera-space matrices and which points and polygons use which.
pub(crate) struct Transforms {
    /// 0: the whole model (or the points of no bone's group); 1 + b: bone b.
    pub(crate) matrices: [Matrix; MAX_BONES + 1],
    /// Spans of points moved by a bone, sorted: see [`span`].
    points: heapless::Vec<u64, MAX_BONES>,
    /// Spans of polygons moved by a bone, sorted.
    polygons: heapless::Vec<u64, MAX_BONES>,
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
    /// One matrix for the whole model.
    pub(crate) fn rigid(model_view: Matrix) -> Self {
        Self {
            matrices: [model_view; MAX_BONES + 1],
            points: heapless::Vec::new(),
            polygons: heapless::Vec::new(),
        }
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
        let mut transforms = Self::rigid(model_view.then(root));
        for (b, (bone, matrix)) in model.bones().iter().zip(bones).enumerate().take(MAX_BONES) {
            transforms.matrices[b + 1] = model_view.then(matrix);
            let Some(group) = bone
                .group()
                .and_then(|g| model.groups().get(usize::from(g)))
            else {
                continue;
            };
            let (points, polygons) = (group.points(), group.polygons());
            // Both fit: one span per bone at most, and at most MAX_BONES bones.
            let _ = transforms
                .points
                .push(span(points.start, points.end, b + 1));
            let _ = transforms
                .polygons
                .push(span(polygons.start, polygons.end, b + 1));
        }
        transforms.points.sort_unstable();
        transforms.polygons.sort_unstable();
        transforms
    }

    /// The matrix index of each point, in order.
    pub(crate) fn point_matrices(&self) -> SpanWalk<'_> {
        SpanWalk {
            spans: &self.points,
            next: 0,
            index: 0,
        }
    }

    /// The matrix index of each polygon, in order.
    pub(crate) fn polygon_matrices(&self) -> SpanWalk<'_> {
        SpanWalk {
            spans: &self.polygons,
            next: 0,
            index: 0,
        }
    }
}

/// Walks indexes 0, 1, 2, ... giving the matrix of each: the span it is in, or 0.
pub(crate) struct SpanWalk<'s> {
    spans: &'s [u64],
    next: usize,
    index: usize,
}

impl Iterator for SpanWalk<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let index = self.index;
        self.index += 1;
        while let Some(&span) = self.spans.get(self.next) {
            let (start, end, matrix) = span_parts(span);
            if index >= end {
                self.next += 1;
                continue;
            }
            return Some(if index >= start {
                usize::from(matrix)
            } else {
                0
            });
        }
        Some(0)
    }
}
