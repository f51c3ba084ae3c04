//! Affine transforms as row-major 3x4 matrices (column 3 is the translation), the form the
//! rig conversion takes, and glTF's translation / rotation / scale.

/// A row-major 3x4 affine matrix: column 3 is the translation.
pub type Affine = [[f64; 4]; 3];

/// The transform that changes nothing.
pub const IDENTITY: Affine = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// A node's local transform as glTF splits it: translation, rotation (a unit quaternion
/// x, y, z, w), scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    pub translation: [f64; 3],
    pub rotation: [f64; 4],
    pub scale: [f64; 3],
}

impl Trs {
    /// `T * R * S`, the order glTF composes them.
    pub fn matrix(&self) -> Affine {
        let [x, y, z, w] = normalized(self.rotation);
        let r = [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - z * w),
                2.0 * (x * z + y * w),
            ],
            [
                2.0 * (x * y + z * w),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - x * w),
            ],
            [
                2.0 * (x * z - y * w),
                2.0 * (y * z + x * w),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
        let mut m = IDENTITY;
        for (row, (m_row, r_row)) in m.iter_mut().zip(r).enumerate() {
            for column in 0..3 {
                m_row[column] = r_row[column] * self.scale[column];
            }
            m_row[3] = self.translation[row];
        }
        m
    }
}

/// `q` scaled to length 1 (the identity when it has none).
pub fn normalized(q: [f64; 4]) -> [f64; 4] {
    let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    if length > 0.0 && length.is_finite() {
        q.map(|c| c / length)
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// `a * b`: `b` first, then `a`.
pub fn mul(a: &Affine, b: &Affine) -> Affine {
    let mut m = [[0.0; 4]; 3];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = (0..3).map(|k| a[r][k] * b[k][c]).sum::<f64>();
        }
        row[3] += a[r][3];
    }
    m
}

/// The inverse of `m`, `None` when it flattens space (its 3x3 part has no inverse).
pub fn inverse(m: &Affine) -> Option<Affine> {
    let a = |r: usize, c: usize| m[r][c];
    let cofactor =
        |r0: usize, r1: usize, c0: usize, c1: usize| a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0);
    let det = a(0, 0) * cofactor(1, 2, 1, 2) - a(0, 1) * cofactor(1, 2, 0, 2)
        + a(0, 2) * cofactor(1, 2, 0, 1);
    if det.abs() < 1e-12 || !det.is_finite() {
        return None;
    }
    let mut inv = [[0.0; 4]; 3];
    inv[0][0] = cofactor(1, 2, 1, 2) / det;
    inv[0][1] = -cofactor(0, 2, 1, 2) / det;
    inv[0][2] = cofactor(0, 1, 1, 2) / det;
    inv[1][0] = -cofactor(1, 2, 0, 2) / det;
    inv[1][1] = cofactor(0, 2, 0, 2) / det;
    inv[1][2] = -cofactor(0, 1, 0, 2) / det;
    inv[2][0] = cofactor(1, 2, 0, 1) / det;
    inv[2][1] = -cofactor(0, 2, 0, 1) / det;
    inv[2][2] = cofactor(0, 1, 0, 1) / det;
    for row in &mut inv {
        row[3] = -(0..3).map(|k| row[k] * m[k][3]).sum::<f64>();
    }
    Some(inv)
}

/// `m` applied to the point `p`.
pub fn apply(m: &Affine, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3])
}

/// `m` applied to the direction `d` (no translation).
pub fn rotate(m: &Affine, d: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * d[0] + m[r][1] * d[1] + m[r][2] * d[2])
}

/// A glTF column-major 4x4 matrix as an affine (its last row is taken as 0 0 0 1).
pub fn from_columns(columns: &[[f32; 4]; 4]) -> Affine {
    let mut m = [[0.0; 4]; 3];
    for (r, row) in m.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = f64::from(columns[c][r]);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Affine, b: &Affine) -> bool {
        a.iter()
            .flatten()
            .zip(b.iter().flatten())
            .all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn a_quarter_turn_around_y_takes_x_to_minus_z() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let trs = Trs {
            translation: [1.0, 2.0, 3.0],
            rotation: [0.0, h, 0.0, h],
            scale: [2.0, 1.0, 1.0],
        };
        let p = apply(&trs.matrix(), [1.0, 0.0, 0.0]);
        assert!((p[0] - 1.0).abs() < 1e-12 && (p[1] - 2.0).abs() < 1e-12);
        assert!((p[2] - 1.0).abs() < 1e-12, "{p:?}");
    }

    #[test]
    fn the_inverse_undoes_the_transform() {
        let m = Trs {
            translation: [1.0, -2.0, 0.5],
            rotation: normalized([0.3, -0.2, 0.5, 0.8]),
            scale: [1.5, 0.5, 2.0],
        }
        .matrix();
        let back = mul(&inverse(&m).unwrap(), &m);
        assert!(close(&back, &IDENTITY));
        assert!(inverse(&[[0.0; 4]; 3]).is_none());
    }
}
