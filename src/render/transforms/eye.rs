//! One matrix's geometry, below the matrices of a draw: its eye (where the camera is in
//! the model space it maps from), how far it is from a rotation, and its cofactors (how it
//! maps normals).

use crate::math::{div_64_32, isqrt, Matrix, Vec3};
use crate::render::limits::MAX_SCALE;

/// The eye (camera space's origin) seen from a matrix's model space: a polygon there faces
/// the camera when its normal points towards the eye, so back faces are found without
/// turning normals into camera space (`sign(det) * dot(n, p - eye) < 0`, which is
/// `dot(normal in camera space, corner in camera space) < 0` for any invertible matrix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Eye {
    pub(crate) position: Vec3,
    /// The matrix mirrors (negative determinant): front and back swap.
    pub(crate) mirrored: bool,
}

impl Eye {
    /// The eye of `matrix` (`R p + t`): `-R⁻¹ t = -adj(R) t / det(R)`; `None` when `R` is
    /// singular or the eye is not within Q16.16 range.
    pub(crate) fn of(matrix: &Matrix) -> Option<Self> {
        if within_scale(matrix) {
            Self::of_scaled(matrix)
        } else {
            Self::of_any(matrix)
        }
    }

    /// The eye of a matrix `R p + t` within [`TURN_TOLERANCE`] of a rotation (columns
    /// unit and orthogonal within `e`, a [`rotation_error`]): `-Rᵀ t`, no division. The
    /// inverse is then `(I + G)⁻¹ Rᵀ` with `|G| <= 3e`, so this eye is within about
    /// `3e |t|` (and a unit of rounding) of the exact one, and a polygon whose plane passes
    /// further than that from the eye is found facing or not as the exact eye finds it:
    /// those nearer are seen within `3e` radians (0.17°) of edge-on. `None` when the eye
    /// is not within Q16.16 range.
    pub(crate) fn of_turn(matrix: &Matrix) -> Option<Self> {
        let m = &matrix.0;
        // Entries of a rotation (about 2^16) times translations (below 2^31).
        macro_rules! back {
            ($k:expr) => {{
                let back = (i64::from(m[0][$k]) * i64::from(m[0][3]))
                    .wrapping_add(i64::from(m[1][$k]) * i64::from(m[1][3]))
                    .wrapping_add(i64::from(m[2][$k]) * i64::from(m[2][3]))
                    >> 16;
                // Within ±(2^31 - 1), so that its negation is an i32. (Negating the i64 and
                // converting it with `i32::try_from` gave `None` for small values in the
                // qemu run of `make sh2-test`; the cause was not found.)
                if back.unsigned_abs() > i32::MAX as u64 {
                    return None;
                }
                (back as i32).wrapping_neg()
            }};
        }
        // Orthogonal: column 0 x column 1 is det x column 2, so one component of the
        // cross product, where column 2 is largest (at least 1/√3), has the sign of det
        // times that entry's.
        let k = (0..3).max_by_key(|&k| m[k][2].unsigned_abs()).unwrap_or(0);
        let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
        let cross =
            i64::from(m[k1][0]) * i64::from(m[k2][1]) - i64::from(m[k2][0]) * i64::from(m[k1][1]);
        Some(Self {
            position: [back!(0), back!(1), back!(2)],
            mirrored: (cross < 0) != (m[k][2] < 0),
        })
    }

    /// [`of`](Self::of) for a matrix whose linear entries are within [`MAX_SCALE`] (the
    /// draws the limits let through): each cofactor then fits 32 bits, each product of
    /// one and a translation 62, so no sum needs a check (a draw finds one eye a bone:
    /// checked 64-bit products cost the SH-2 a few thousand cycles each eye). The same
    /// results as [`of_any`](Self::of_any).
    pub(crate) fn of_scaled(matrix: &Matrix) -> Option<Self> {
        let m = &matrix.0;
        macro_rules! cofactor {
            ($i:expr, $j:expr) => {{
                let (r0, r1) = (($i + 1) % 3, ($i + 2) % 3);
                let (c0, c1) = (($j + 1) % 3, ($j + 2) % 3);
                ((i64::from(m[r0][c0]) * i64::from(m[r1][c1])
                    - i64::from(m[r0][c1]) * i64::from(m[r1][c0]))
                    >> 16) as i32
            }};
        }
        let adjugate = [
            [cofactor!(0, 0), cofactor!(1, 0), cofactor!(2, 0)],
            [cofactor!(0, 1), cofactor!(1, 1), cofactor!(2, 1)],
            [cofactor!(0, 2), cofactor!(1, 2), cofactor!(2, 2)],
        ];
        // Rows of the adjugate are columns of cofactors: det = row 0 of R . column 0.
        let det = ((i64::from(m[0][0]) * i64::from(adjugate[0][0])) >> 16)
            + ((i64::from(m[0][1]) * i64::from(adjugate[1][0])) >> 16)
            + ((i64::from(m[0][2]) * i64::from(adjugate[2][0])) >> 16);
        let divisor = i32::try_from(det).ok().filter(|&d| d != 0)?;
        let limit = u64::from(divisor.unsigned_abs()) << 31;
        let t = [m[0][3], m[1][3], m[2][3]];
        let mut position = [0; 3];
        for (out, row) in position.iter_mut().zip(&adjugate) {
            let adjugate_t = i64::from(row[0]) * i64::from(t[0])
                + i64::from(row[1]) * i64::from(t[1])
                + i64::from(row[2]) * i64::from(t[2]);
            if adjugate_t.unsigned_abs() >= limit {
                return None;
            }
            *out = -div_64_32(adjugate_t, divisor);
        }
        Some(Self {
            position,
            mirrored: det < 0,
        })
    }

    /// [`of`](Self::of) for any matrix, every sum checked.
    pub(crate) fn of_any(matrix: &Matrix) -> Option<Self> {
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

/// The eye of `matrix`, a product of factors together `turn_error` from a rotation: by the
/// transpose when that is within [`TURN_TOLERANCE`], else by the inverse.
pub(crate) fn eye(matrix: &Matrix, turn_error: u64) -> Option<Eye> {
    if turn_error <= TURN_TOLERANCE {
        Eye::of_turn(matrix)
    } else {
        Eye::of(matrix)
    }
}

/// How far a matrix's linear part is from a rotation: the largest `|cᵢ · cⱼ - δᵢⱼ|` over
/// its columns `c`, in Q32.32 (0 for an exact rotation; products of Q16.16 rotations
/// drift by about 2^-16 each: a chain of 16 bones is within 2^-10).
pub(crate) fn rotation_error(matrix: &Matrix) -> u64 {
    const ONE_SQUARED: i64 = 1 << 32;
    let m = &matrix.0;
    // From 4 on no entry is a rotation's; below it no sum below can overflow (the OR of
    // the sizes is below 2^18 when each is: no branch a cell).
    let sizes = m.iter().fold(0, |or, row| {
        or | row[0].unsigned_abs() | row[1].unsigned_abs() | row[2].unsigned_abs()
    });
    if sizes >= 4 << 16 {
        return u64::MAX;
    }
    // Products of two i32 (`dmuls.l` on the SH-2).
    macro_rules! dot {
        ($a:expr, $b:expr) => {
            (i64::from(m[0][$a]) * i64::from(m[0][$b]))
                .wrapping_add(i64::from(m[1][$a]) * i64::from(m[1][$b]))
                .wrapping_add(i64::from(m[2][$a]) * i64::from(m[2][$b]))
        };
    }
    let unit = |n: i64| n.wrapping_sub(ONE_SQUARED).unsigned_abs();
    unit(dot!(0, 0))
        .max(unit(dot!(1, 1)))
        .max(unit(dot!(2, 2)))
        .max(dot!(0, 1).unsigned_abs())
        .max(dot!(1, 2).unsigned_abs())
        .max(dot!(2, 0).unsigned_abs())
}

/// A bone matrix further than this from a rotation ([`rotation_error`], 2^-8) is scaled:
/// its normals go through its cofactors.
pub(super) const STRETCH_TOLERANCE: u64 = 1 << 24;

/// Matrices whose factors are together within this of a rotation (2^-10) find their eye
/// by the transpose ([`Eye::of_turn`]).
pub(crate) const TURN_TOLERANCE: u64 = 1 << 22;

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

/// Whether every entry of the linear part of `matrix` is within [`MAX_SCALE`].
fn within_scale(matrix: &Matrix) -> bool {
    matrix.0.iter().all(|row| {
        row[..3]
            .iter()
            .all(|m| m.unsigned_abs() <= MAX_SCALE as u32)
    })
}
