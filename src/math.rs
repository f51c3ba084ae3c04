//! Numbers of the Saturn's world: Q16.16 fixed point ([`Fixed`], and raw `i32` in the hot
//! paths), binary angles ([`Angle`]), sine and cosine from a table, and the 3x4 matrices
//! that place models and bones. The SH-2 has no FPU; everything the engine computes uses
//! these.

/// A Q16.16 fixed-point number (`jo_fixed`): 1.0 is `0x10000`.
pub type Fixed = fixed::types::I16F16;

/// 1.0 in raw Q16.16.
pub const ONE: i32 = 0x10000;

/// An angle (`jo_angle`): `0x10000` is a full turn, stored as `i16`, so it wraps around
/// naturally (`0x8000` and `-0x8000` are both half a turn).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Angle(pub i16);

impl Angle {
    /// The angle as stored: `0x10000` per turn, wrapping.
    pub const fn raw(self) -> i16 {
        self.0
    }

    /// The angle of `degrees` (wrapping).
    pub const fn from_degrees(degrees: i32) -> Self {
        Self((degrees as i64 * 0x10000 / 360) as i16)
    }

    /// The sine, in raw Q16.16.
    pub fn sin(self) -> i32 {
        sin_raw(self.0 as u16)
    }

    /// The cosine, in raw Q16.16.
    pub fn cos(self) -> i32 {
        sin_raw((self.0 as u16).wrapping_add(0x4000))
    }

    /// The sine and the cosine together, in raw Q16.16 (exactly [`sin`](Self::sin) and
    /// [`cos`](Self::cos)): the quadrant worked out once, each from the table's rising or
    /// falling side.
    pub fn sin_cos(self) -> (i32, i32) {
        let angle = self.0 as u16;
        let within = angle & 0x3FFF;
        let (rising, falling) = (quarter_sine(within), quarter_sine(0x4000 - within));
        match angle >> 14 {
            0 => (rising, falling),
            1 => (falling, -rising),
            2 => (-rising, -falling),
            _ => (-falling, rising),
        }
    }
}

/// `a * b` in raw Q16.16. Written with a 64-bit product so that the SH-2 build compiles it
/// to `dmuls.l` (the `fixed` crate's multiply does not).
#[inline(always)]
pub const fn mul(a: i32, b: i32) -> i32 {
    ((a as i64 * b as i64) >> 16) as i32
}

/// `a / b` in raw Q16.16 (`b` not 0).
#[inline(always)]
pub const fn div(a: i32, b: i32) -> i32 {
    (((a as i64) << 16) / b as i64) as i32
}

/// `dividend / divisor`, truncated toward zero, for a quotient that fits in an `i32`
/// (`divisor` not 0): on a Saturn the SH-2's division unit does it (about 39 cycles),
/// elsewhere a plain 64-bit division. The same results either way (a hardware test
/// checks it on the emulated Saturns).
#[inline]
pub fn div_64_32(dividend: i64, divisor: i32) -> i32 {
    Division::start(dividend, divisor).quotient()
}

/// A [`div_64_32`] started now and read later: on a Saturn the division unit works
/// while the CPU does something else (the projection transforms x and y meanwhile).
/// One division at a time: start the next only after reading this one.
#[must_use]
pub struct Division(#[cfg(not(jom_saturn))] i32);

impl Division {
    /// Starts `dividend / divisor` (`divisor` not 0, the quotient fits in an `i32`).
    #[inline(always)]
    pub fn start(dividend: i64, divisor: i32) -> Self {
        #[cfg(jom_saturn)]
        {
            crate::hw::divu::start(dividend, divisor);
            Self()
        }
        #[cfg(not(jom_saturn))]
        {
            Self((dividend / i64::from(divisor)) as i32)
        }
    }

    /// The quotient, truncated toward zero.
    #[inline(always)]
    pub fn quotient(self) -> i32 {
        #[cfg(jom_saturn)]
        {
            crate::hw::divu::quotient()
        }
        #[cfg(not(jom_saturn))]
        {
            self.0
        }
    }
}

/// Entries of the quarter-wave sine table: one per 64 angle units, both ends included.
const QUARTER: usize = 256;
/// sin(i * 90° / 256) in Q16.16 for i in 0..=256, computed when compiling.
static SINE: [i32; QUARTER + 1] = sine_table();

const fn sine_table() -> [i32; QUARTER + 1] {
    let mut table = [0; QUARTER + 1];
    let mut i = 0;
    while i <= QUARTER {
        table[i] = sine_q16(i as i128);
        i += 1;
    }
    table
}

/// sin(i * pi / 512) in Q16.16 by its Taylor series in 2^-60 fixed point (exact to the
/// last bit for the first quadrant).
const fn sine_q16(i: i128) -> i32 {
    const SHIFT: u32 = 60;
    // pi in 2^-60 fixed point.
    const PI: i128 = 3_622_009_729_038_561_421;
    let x = PI * i / 512;
    let x2 = (x * x) >> SHIFT;
    let mut term = x;
    let mut sum = x;
    let mut n = 1;
    while n < 12 {
        term = -((term * x2) >> SHIFT) / ((2 * n) * (2 * n + 1));
        sum += term;
        n += 1;
    }
    ((sum + (1 << (SHIFT - 17))) >> (SHIFT - 16)) as i32
}

/// The sine of a raw angle (`0x10000` per turn) in Q16.16, interpolated between the
/// table's entries.
fn sin_raw(angle: u16) -> i32 {
    let quadrant = angle >> 14;
    let within = angle & 0x3FFF;
    let within = if quadrant & 1 == 1 {
        0x4000 - within
    } else {
        within
    };
    let value = quarter_sine(within);
    if quadrant >= 2 {
        -value
    } else {
        value
    }
}

/// The sine of `within` (0 to `0x4000`: a quarter turn) from the table, interpolated.
fn quarter_sine(within: u16) -> i32 {
    let index = usize::from(within >> 6);
    let fraction = u32::from(within & 63);
    let low = SINE[index];
    let high = SINE[(index + 1).min(QUARTER)];
    // The sine rises over the quarter: the step is not negative, so the shift is a
    // logical one (the SH-2 shifts arithmetically one bit at a time only).
    let step = ((high - low) as u32 * fraction) >> 6;
    low + step as i32
}

/// A 3-vector in raw Q16.16.
pub type Vec3 = [i32; 3];

/// A 3x4 matrix in raw Q16.16: a rotation (and scale) in the first three columns, a
/// translation in the fourth. Transforms a point `p` to `R p + t`. Row after row in memory
/// (the SH-2 assembly of the transform reads it so).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Matrix(pub [[i32; 4]; 3]);

const _: () = assert!(core::mem::size_of::<Matrix>() == 48);

impl Matrix {
    /// The identity.
    pub const IDENTITY: Matrix = Matrix([[ONE, 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE, 0]]);

    /// A translation.
    pub const fn translation(t: Vec3) -> Self {
        Matrix([[ONE, 0, 0, t[0]], [0, ONE, 0, t[1]], [0, 0, ONE, t[2]]])
    }

    /// A rotation around X.
    pub fn rotation_x(angle: Angle) -> Self {
        let (s, c) = (angle.sin(), angle.cos());
        Matrix([[ONE, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0]])
    }

    /// A rotation around Y.
    pub fn rotation_y(angle: Angle) -> Self {
        let (s, c) = (angle.sin(), angle.cos());
        Matrix([[c, 0, s, 0], [0, ONE, 0, 0], [-s, 0, c, 0]])
    }

    /// A rotation around Z.
    pub fn rotation_z(angle: Angle) -> Self {
        let (s, c) = (angle.sin(), angle.cos());
        Matrix([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, ONE, 0]])
    }

    /// Rotations around X, then Y, then Z (each around the fixed axes): `Rz * Ry * Rx`,
    /// from its closed form (12 products instead of two matrix products).
    pub fn rotation_xyz(angles: [Angle; 3]) -> Self {
        let mut m = Matrix::IDENTITY;
        m.set_rotation_xyz(angles);
        m
    }

    /// Makes the rotation part of `self` [`rotation_xyz`](Self::rotation_xyz)`(angles)` in
    /// place, its translation left as it is. For matrices made every frame (a bone's): the
    /// SH-2 code builds a matrix returned whole on the stack and copies it (`memcpy`).
    pub fn set_rotation_xyz(&mut self, angles: [Angle; 3]) {
        let [x, y, z] = angles;
        let (sx, cx) = x.sin_cos();
        let (sy, cy) = y.sin_cos();
        let (sz, cz) = z.sin_cos();
        let (cz_sy, sz_sy) = (mul(cz, sy), mul(sz, sy));
        let m = &mut self.0;
        m[0][0] = mul(cz, cy);
        m[0][1] = mul(cz_sy, sx) - mul(sz, cx);
        m[0][2] = mul(cz_sy, cx) + mul(sz, sx);
        m[1][0] = mul(sz, cy);
        m[1][1] = mul(sz_sy, sx) + mul(cz, cx);
        m[1][2] = mul(sz_sy, cx) - mul(cz, sx);
        m[2][0] = -sy;
        m[2][1] = mul(cy, sx);
        m[2][2] = mul(cy, cx);
    }

    /// `self * other`: the transform that applies `other` first, then `self`. Written out
    /// by a macro (the SH-2 code generator does not inline closures).
    pub fn then(&self, other: &Matrix) -> Matrix {
        let (a, b) = (&self.0, &other.0);
        macro_rules! cell {
            ($r:expr, $c:expr) => {
                // Wrapping: a stretched bone's entries (BMOT scales) may be large; any
                // input gives a value, never an overflow panic (release code is the same).
                ((i64::from(a[$r][0]) * i64::from(b[0][$c]))
                    .wrapping_add(i64::from(a[$r][1]) * i64::from(b[1][$c]))
                    .wrapping_add(i64::from(a[$r][2]) * i64::from(b[2][$c]))
                    >> 16) as i32
            };
        }
        Matrix([
            [
                cell!(0, 0),
                cell!(0, 1),
                cell!(0, 2),
                cell!(0, 3).wrapping_add(a[0][3]),
            ],
            [
                cell!(1, 0),
                cell!(1, 1),
                cell!(1, 2),
                cell!(1, 3).wrapping_add(a[1][3]),
            ],
            [
                cell!(2, 0),
                cell!(2, 1),
                cell!(2, 2),
                cell!(2, 3).wrapping_add(a[2][3]),
            ],
        ])
    }

    /// The transformed point `R p + t`.
    #[inline]
    pub fn apply(&self, p: Vec3) -> Vec3 {
        let m = &self.0;
        [
            dot([m[0][0], m[0][1], m[0][2]], p).wrapping_add(m[0][3]),
            dot([m[1][0], m[1][1], m[1][2]], p).wrapping_add(m[1][3]),
            dot([m[2][0], m[2][1], m[2][2]], p).wrapping_add(m[2][3]),
        ]
    }

    /// The rotated vector `R v` (no translation), for normals and directions.
    #[inline]
    pub fn rotate(&self, v: Vec3) -> Vec3 {
        let m = &self.0;
        [
            dot([m[0][0], m[0][1], m[0][2]], v),
            dot([m[1][0], m[1][1], m[1][2]], v),
            dot([m[2][0], m[2][1], m[2][2]], v),
        ]
    }

    /// The inverse of a rigid transform (rotation + translation): the transpose of the
    /// rotation and the translation brought back through it.
    pub fn inverse_rigid(&self) -> Matrix {
        let m = &self.0;
        let mut out = [[0; 4]; 3];
        for (row, out_row) in out.iter_mut().enumerate() {
            for (column, cell) in out_row.iter_mut().take(3).enumerate() {
                *cell = m[column][row];
            }
        }
        let t = [m[0][3], m[1][3], m[2][3]];
        let back = Matrix(out).rotate(t);
        for (row, out_row) in out.iter_mut().enumerate() {
            out_row[3] = -back[row];
        }
        Matrix(out)
    }
}

/// An integer square root (rounded down), bit by bit: no division, no floating point.
macro_rules! bitwise_root {
    ($(#[$doc:meta])* $name:ident, $t:ty) => {
        $(#[$doc])*
        pub fn $name(value: $t) -> $t {
            let mut rest = value;
            let mut root: $t = 0;
            let mut bit: $t = 1 << (<$t>::BITS - 2);
            while bit > value {
                bit >>= 2;
            }
            while bit != 0 {
                if rest >= root + bit {
                    rest -= root + bit;
                    root = (root >> 1) + bit;
                } else {
                    root >>= 1;
                }
                bit >>= 2;
            }
            root
        }
    };
}

bitwise_root!(
    /// The integer square root (rounded down), bit by bit: no division, no floating point.
    ///
    /// ```
    /// assert_eq!(jom::math::isqrt(99), 9);
    /// ```
    isqrt,
    u64
);

bitwise_root!(
    /// [`isqrt`] in 32 bits, where the value fits: on the SH-2 each step of the 64-bit one
    /// takes pairs of registers and carries, a root a few hundred cycles more.
    ///
    /// ```
    /// assert_eq!(jom::math::isqrt32(u32::MAX), 65_535);
    /// ```
    isqrt32,
    u32
);

/// The dot product of two Q16.16 vectors, in Q16.16 (wrapping on overflow, as the
/// SH-2's 64-bit accumulator does).
#[inline]
pub fn dot(a: Vec3, b: Vec3) -> i32 {
    ((a[0] as i64 * b[0] as i64)
        .wrapping_add(a[1] as i64 * b[1] as i64)
        .wrapping_add(a[2] as i64 * b[2] as i64)
        >> 16) as i32
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::{check, check_eq};

    const DEGREE: i16 = 182; // 0x10000 / 360, rounded down

    crate::test_suite! {
        fn sine_hits_exact_values() {
            check_eq!(Angle(0).sin(), 0);
            check_eq!(Angle(0x4000).sin(), ONE);
            check_eq!(Angle(-0x8000).sin(), 0);
            check_eq!(Angle(-0x4000).sin(), -ONE);
            check_eq!(Angle(0).cos(), ONE);
            check_eq!(Angle(0x4000).cos(), 0);
            check_eq!(Angle(-0x8000).cos(), -ONE);
        }

        fn sine_is_accurate_everywhere() {
            // sin(30°) = 0.5, sin(45°) = 0.70710678, sin(60°) = 0.8660254, within 6/65536:
            // `from_degrees` rounds to the 1/65536 turn below, which moves the sine by up to 4.
            check!((Angle::from_degrees(30).sin() - 0x8000).abs() <= 6);
            check!((Angle::from_degrees(45).sin() - 46341).abs() <= 6);
            check!((Angle::from_degrees(60).sin() - 56756).abs() <= 6);
            check!((Angle::from_degrees(-150).sin() + 0x8000).abs() <= 6);
            check!((Angle::from_degrees(120).cos() + 0x8000).abs() <= 6);
            // sin² + cos² = 1 every degree.
            let mut a: i32 = -0x8000;
            while a < 0x8000 {
                let angle = Angle(a as i16);
                let norm = mul(angle.sin(), angle.sin()) + mul(angle.cos(), angle.cos());
                check!((norm - ONE).abs() <= 8);
                a += i32::from(DEGREE);
            }
        }

        fn sin_cos_is_sin_and_cos() {
            let mut a: u32 = 0;
            while a < 0x10000 {
                let angle = Angle(a as u16 as i16);
                check_eq!((a, angle.sin_cos()), (a, (angle.sin(), angle.cos())));
                a += 7;
            }
            for edge in [0, 0x3FFF, 0x4000, 0x4001, 0x7FFF, 0x8000, 0xBFFF, 0xC000, 0xFFFF] {
                let angle = Angle(edge as u16 as i16);
                check_eq!((edge, angle.sin_cos()), (edge, (angle.sin(), angle.cos())));
            }
        }

        fn matrices_compose_in_order() {
            let quarter = Angle(0x4000);
            // Around Z by 90°: X goes to Y.
            check_eq!(Matrix::rotation_z(quarter).apply([ONE, 0, 0]), [0, ONE, 0]);
            // Around X by 90°: Y goes to Z.
            check_eq!(Matrix::rotation_x(quarter).apply([0, ONE, 0]), [0, 0, ONE]);
            // Around Y by 90°: Z goes to X.
            check_eq!(Matrix::rotation_y(quarter).apply([0, 0, ONE]), [ONE, 0, 0]);
            // X first then Z: Y -> Z (X) -> Z (Z keeps Z).
            let xyz = Matrix::rotation_xyz([quarter, Angle(0), quarter]);
            check_eq!(xyz.apply([0, ONE, 0]), [0, 0, ONE]);
            check_eq!(xyz.apply([ONE, 0, 0]), [0, ONE, 0]);
            let moved = Matrix::translation([ONE, 2 * ONE, 3 * ONE]).then(&Matrix::rotation_z(quarter));
            check_eq!(moved.apply([ONE, 0, 0]), [ONE, 3 * ONE, 3 * ONE]);
            check_eq!(moved.rotate([ONE, 0, 0]), [0, ONE, 0]);
        }

        fn rigid_inverse_undoes_the_transform() {
            let m = Matrix::translation([5 * ONE, -ONE, 7 * ONE]).then(&Matrix::rotation_xyz([
                Angle::from_degrees(20),
                Angle::from_degrees(-35),
                Angle::from_degrees(110),
            ]));
            let p = [3 * ONE, ONE / 2, -2 * ONE];
            let back = m.inverse_rigid().apply(m.apply(p));
            for i in 0..3 {
                check!((back[i] - p[i]).abs() <= 32);
            }
            check_eq!(dot([ONE, 2 * ONE, 0], [3 * ONE, ONE, 9 * ONE]), 5 * ONE);
            check_eq!(div(ONE, 4 * ONE), ONE / 4);
        }
    }
}
