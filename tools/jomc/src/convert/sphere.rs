//! The bounding sphere of the header: the smallest sphere around all the points (Welzl's
//! algorithm, iterative form, in expected linear time over a shuffled copy), then its
//! radius made exact in integers around the rounded centre, so every point is inside.

/// The centre and radius (raw Q16.16) of the smallest sphere holding `points`; `None` when
/// the radius does not fit in Q16.16. No points: a sphere of radius 0 at the origin.
pub fn bounding_sphere(points: &[[i32; 3]]) -> Option<([i32; 3], i32)> {
    if points.is_empty() {
        return Some(([0; 3], 0));
    }
    let mut shuffled: Vec<[f64; 3]> = points.iter().map(|p| p.map(f64::from)).collect();
    shuffle(&mut shuffled);
    let ball = smallest_ball(&shuffled);
    let center = ball.center.map(|c| c.round() as i32);
    Some((center, covering_radius(points, center)?))
}

/// The smallest integer radius around `center` that holds every point.
fn covering_radius(points: &[[i32; 3]], center: [i32; 3]) -> Option<i32> {
    let max2 = points
        .iter()
        .map(|p| {
            (0..3)
                .map(|i| (i128::from(p[i]) - i128::from(center[i])).pow(2))
                .sum()
        })
        .max()
        .unwrap_or(0i128);
    let mut r = (max2 as f64).sqrt().ceil() as i128;
    while r * r < max2 {
        r += 1;
    }
    while r > 0 && (r - 1) * (r - 1) >= max2 {
        r -= 1;
    }
    i32::try_from(r).ok()
}

/// A fixed-seed shuffle (xorshift): the same points give the same sphere, run after run.
fn shuffle(points: &mut [[f64; 3]]) {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in (1..points.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        points.swap(i, (state % (i as u64 + 1)) as usize);
    }
}

#[derive(Clone, Copy)]
struct Ball {
    center: [f64; 3],
    radius2: f64,
}

impl Ball {
    fn contains(&self, p: [f64; 3]) -> bool {
        // A little slack: a point on the boundary must not restart the search.
        distance2(self.center, p) <= self.radius2 * (1.0 + 1e-10) + 1e-6
    }

    fn around(center: [f64; 3], p: [f64; 3]) -> Self {
        Self {
            center,
            radius2: distance2(center, p),
        }
    }
}

fn smallest_ball(points: &[[f64; 3]]) -> Ball {
    let mut ball = Ball::around(points[0], points[0]);
    for (i, &p) in points.iter().enumerate().skip(1) {
        if !ball.contains(p) {
            ball = with_one(&points[..i], p);
        }
    }
    ball
}

/// The smallest ball of `points` with `q` on its boundary.
fn with_one(points: &[[f64; 3]], q: [f64; 3]) -> Ball {
    let mut ball = Ball::around(q, q);
    for (j, &p) in points.iter().enumerate() {
        if !ball.contains(p) {
            ball = with_two(&points[..j], q, p);
        }
    }
    ball
}

fn with_two(points: &[[f64; 3]], q1: [f64; 3], q2: [f64; 3]) -> Ball {
    let mut ball = Ball::around(midpoint(q1, q2), q1);
    for (k, &p) in points.iter().enumerate() {
        if !ball.contains(p) {
            ball = with_three(&points[..k], q1, q2, p);
        }
    }
    ball
}

fn with_three(points: &[[f64; 3]], q1: [f64; 3], q2: [f64; 3], q3: [f64; 3]) -> Ball {
    let mut ball = through_three(q1, q2, q3);
    for &p in points {
        if !ball.contains(p) {
            ball = through_four(q1, q2, q3, p);
        }
    }
    ball
}

/// The smallest ball through three points (their circumcircle's), or around the farthest
/// two when they are in a line.
fn through_three(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Ball {
    let (u, v) = (sub(a, c), sub(b, c));
    let w = cross(u, v);
    let denominator = 2.0 * dot(w, w);
    if denominator <= 1e-12 * dot(u, u) * dot(v, v) {
        return widest_pair(&[a, b, c]);
    }
    let offset = cross(sub(scale(v, dot(u, u)), scale(u, dot(v, v))), w);
    Ball::around(add(c, scale(offset, 1.0 / denominator)), a)
}

/// The ball through four points, or the best ball of three of them when they are flat.
fn through_four(a: [f64; 3], b: [f64; 3], c: [f64; 3], d: [f64; 3]) -> Ball {
    let (u, v, w) = (sub(b, a), sub(c, a), sub(d, a));
    let determinant = 2.0 * dot(u, cross(v, w));
    let size = (dot(u, u) * dot(v, v) * dot(w, w)).sqrt();
    if determinant.abs() <= 1e-12 * size {
        let all = [a, b, c, d];
        return [[a, b, c], [a, b, d], [a, c, d], [b, c, d]]
            .into_iter()
            .map(|[p, q, r]| through_three(p, q, r))
            .filter(|ball| all.iter().all(|&p| ball.contains(p)))
            .min_by(|x, y| x.radius2.total_cmp(&y.radius2))
            .unwrap_or_else(|| widest_pair(&all));
    }
    let offset = add(
        add(scale(cross(v, w), dot(u, u)), scale(cross(w, u), dot(v, v))),
        scale(cross(u, v), dot(w, w)),
    );
    Ball::around(add(a, scale(offset, 1.0 / determinant)), a)
}

fn widest_pair(points: &[[f64; 3]]) -> Ball {
    let mut best = Ball::around(points[0], points[0]);
    for (i, &p) in points.iter().enumerate() {
        for &q in &points[i + 1..] {
            let ball = Ball::around(midpoint(p, q), p);
            if ball.radius2 > best.radius2 {
                best = ball;
            }
        }
    }
    best
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    a.map(|c| c * s)
}

fn midpoint(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    scale(add(a, b), 0.5)
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn distance2(a: [f64; 3], b: [f64; 3]) -> f64 {
    let d = sub(a, b);
    dot(d, d)
}

#[cfg(test)]
mod tests {
    use super::bounding_sphere;

    const ONE: i32 = 0x10000;

    #[test]
    fn right_triangle_sphere_is_on_its_hypotenuse() {
        // The box's centre would be (1, 0.5, 0) with radius 1.118; the smallest is 1.
        let points = [[0, 0, 0], [2 * ONE, 0, 0], [ONE, ONE, 0]];
        assert_eq!(bounding_sphere(&points), Some(([ONE, 0, 0], ONE)));
    }

    #[test]
    fn cube_sphere_is_its_circumsphere() {
        let points: Vec<[i32; 3]> = (0..8)
            .map(|i| [i & 1, (i >> 1) & 1, (i >> 2) & 1].map(|b| b * 2 * ONE))
            .collect();
        let (center, radius) = bounding_sphere(&points).unwrap();
        assert_eq!(center, [ONE; 3]);
        let exact = 3f64.sqrt() * f64::from(ONE);
        assert!(
            (f64::from(radius) - exact).abs() <= 1.0,
            "{radius} vs {exact}"
        );
    }

    #[test]
    fn many_points_on_a_sphere_give_that_sphere() {
        // Points on a sphere of radius 10 around (1, 2, 3), plus points inside it.
        let mut points = Vec::new();
        for i in 0..2000 {
            let (theta, phi) = (f64::from(i) * 0.7, f64::from(i) * 1.3);
            let r = if i % 3 == 0 { 10.0 } else { 5.0 };
            let p = [
                1.0 + r * theta.sin() * phi.cos(),
                2.0 + r * theta.sin() * phi.sin(),
                3.0 + r * theta.cos(),
            ];
            points.push(p.map(|c| (c * f64::from(ONE)).round() as i32));
        }
        let (center, radius) = bounding_sphere(&points).unwrap();
        assert!(f64::from(radius) <= 10.001 * f64::from(ONE), "{radius}");
        for (c, expected) in center.iter().zip([1, 2, 3]) {
            assert!((c - expected * ONE).abs() < ONE / 100, "{center:?}");
        }
    }
}
