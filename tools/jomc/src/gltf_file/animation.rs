//! glTF animations: channels read and checked, and sampled at any time with the three
//! interpolations glTF defines (STEP, LINEAR with spherical interpolation of rotations,
//! CUBICSPLINE with its tangents).

use super::accessor::{self, Kind};
use super::affine::{normalized, Trs};
use super::GltfError;
use gltf::accessor::Dimensions;
use gltf::animation::{Interpolation, Property};

/// What a channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Translation,
    Rotation,
    Scale,
}

/// One animated property of one node.
#[derive(Clone, Debug)]
pub struct Channel {
    pub node: usize,
    pub target: Target,
    pub interpolation: Interpolation,
    /// Key times in seconds, increasing.
    pub times: Vec<f64>,
    /// Values (3 or 4 components; rotations x, y, z, w). CUBICSPLINE: three per key, the
    /// in-tangent, the value and the out-tangent.
    pub values: Vec<[f64; 4]>,
}

/// An animation of the file.
#[derive(Clone, Debug)]
pub struct Animation {
    /// Its name (`animation N` when it has none).
    pub name: String,
    /// Its JSON path, for the messages.
    pub path: String,
    pub channels: Vec<Channel>,
    /// Morph-target weight channels, which a rigid JOM cannot play.
    pub skipped_weight_channels: usize,
}

impl Animation {
    /// The time of its last key, in seconds.
    pub fn duration(&self) -> f64 {
        self.channels
            .iter()
            .filter_map(|c| c.times.last())
            .fold(0.0, |a, &b| a.max(b))
    }

    /// Each node's local transform at `time` seconds: `rest`, with the animated
    /// properties replaced.
    pub fn pose(&self, rest: &[Trs], time: f64) -> Vec<Trs> {
        let mut pose = rest.to_vec();
        for channel in &self.channels {
            let value = channel.sample(time);
            let trs = &mut pose[channel.node];
            match channel.target {
                Target::Translation => trs.translation = [value[0], value[1], value[2]],
                Target::Rotation => trs.rotation = value,
                Target::Scale => trs.scale = [value[0], value[1], value[2]],
            }
        }
        pose
    }
}

/// Reads animation `animation` of the document.
pub fn read(animation: &gltf::Animation<'_>, buffers: &[Vec<u8>]) -> Result<Animation, GltfError> {
    let path = format!("animations[{}]", animation.index());
    let mut channels = Vec::new();
    let mut skipped_weight_channels = 0;
    for channel in animation.channels() {
        let channel_path = format!("{path}.channels[{}]", channel.index());
        let target = match channel.target().property() {
            Property::Translation => Target::Translation,
            Property::Rotation => Target::Rotation,
            Property::Scale => Target::Scale,
            Property::MorphTargetWeights => {
                skipped_weight_channels += 1;
                continue;
            }
        };
        let sampler = channel.sampler();
        let what = format!("{channel_path} (sampler {})", sampler.index());
        let times: Vec<f64> = accessor::read::<1>(
            &sampler.input(),
            buffers,
            &[Dimensions::Scalar],
            Kind::Float,
            &format!("input of {what}"),
        )?
        .into_iter()
        .map(|[t]| t)
        .collect();
        if times.is_empty() {
            return Err(GltfError::new(&channel_path, "the sampler has no keys"));
        }
        if let Some(k) = times.windows(2).position(|w| w[1] <= w[0]) {
            return Err(GltfError::new(
                &channel_path,
                format!(
                    "key times must increase: key {} at {} s is not after {} s",
                    k + 1,
                    times[k + 1],
                    times[k]
                ),
            ));
        }
        let output_what = format!("output of {what}");
        let values: Vec<[f64; 4]> = match target {
            Target::Rotation => accessor::read::<4>(
                &sampler.output(),
                buffers,
                &[Dimensions::Vec4],
                Kind::FloatOrNormalized,
                &output_what,
            )?,
            _ => accessor::read::<3>(
                &sampler.output(),
                buffers,
                &[Dimensions::Vec3],
                Kind::Float,
                &output_what,
            )?
            .into_iter()
            .map(|[x, y, z]| [x, y, z, 0.0])
            .collect(),
        };
        let per_key = match sampler.interpolation() {
            Interpolation::CubicSpline => 3,
            _ => 1,
        };
        if values.len() != times.len() * per_key {
            return Err(GltfError::new(
                &channel_path,
                format!(
                    "{} output values for {} keys, expected {}",
                    values.len(),
                    times.len(),
                    times.len() * per_key
                ),
            ));
        }
        channels.push(Channel {
            node: channel.target().node().index(),
            target,
            interpolation: sampler.interpolation(),
            times,
            values,
        });
    }
    Ok(Animation {
        name: animation.name().map_or_else(
            || format!("animation {}", animation.index()),
            str::to_string,
        ),
        path,
        channels,
        skipped_weight_channels,
    })
}

impl Channel {
    /// The value at `time` seconds; before the first key the first value, after the last
    /// the last (glTF clamps).
    pub fn sample(&self, time: f64) -> [f64; 4] {
        let last = self.times.len() - 1;
        let key = |k: usize| match self.interpolation {
            Interpolation::CubicSpline => self.values[3 * k + 1],
            _ => self.values[k],
        };
        if time <= self.times[0] {
            return self.finish(key(0));
        }
        if time >= self.times[last] {
            return self.finish(key(last));
        }
        // The key at or before `time`: times[k] <= time < times[k + 1].
        let k = self.times.partition_point(|&t| t <= time) - 1;
        let span = self.times[k + 1] - self.times[k];
        let s = (time - self.times[k]) / span;
        let value = match self.interpolation {
            Interpolation::Step => key(k),
            Interpolation::Linear => match self.target {
                Target::Rotation => slerp(key(k), key(k + 1), s),
                _ => lerp(key(k), key(k + 1), s),
            },
            Interpolation::CubicSpline => {
                let (s2, s3) = (s * s, s * s * s);
                let out_tangent = self.values[3 * k + 2];
                let in_tangent = self.values[3 * (k + 1)];
                let weights = [
                    2.0 * s3 - 3.0 * s2 + 1.0,
                    span * (s3 - 2.0 * s2 + s),
                    -2.0 * s3 + 3.0 * s2,
                    span * (s3 - s2),
                ];
                let terms = [key(k), out_tangent, key(k + 1), in_tangent];
                [0, 1, 2, 3].map(|c| (0..4).map(|i| weights[i] * terms[i][c]).sum())
            }
        };
        self.finish(value)
    }

    /// Rotations are unit quaternions (a cubic spline leaves its curve).
    fn finish(&self, value: [f64; 4]) -> [f64; 4] {
        match self.target {
            Target::Rotation => normalized(value),
            _ => value,
        }
    }
}

fn lerp(a: [f64; 4], b: [f64; 4], s: f64) -> [f64; 4] {
    [0, 1, 2, 3].map(|c| a[c] + (b[c] - a[c]) * s)
}

/// Spherical interpolation along the shorter way.
fn slerp(a: [f64; 4], b: [f64; 4], s: f64) -> [f64; 4] {
    let mut dot: f64 = (0..4).map(|c| a[c] * b[c]).sum();
    let b = if dot < 0.0 {
        dot = -dot;
        b.map(|c| -c)
    } else {
        b
    };
    if dot > 0.9995 {
        return normalized(lerp(a, b, s));
    }
    let angle = dot.clamp(-1.0, 1.0).acos();
    let (wa, wb) = (
        ((1.0 - s) * angle).sin() / angle.sin(),
        (s * angle).sin() / angle.sin(),
    );
    [0, 1, 2, 3].map(|c| a[c] * wa + b[c] * wb)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(target: Target, interpolation: Interpolation, values: Vec<[f64; 4]>) -> Channel {
        Channel {
            node: 0,
            target,
            interpolation,
            times: vec![0.0, 1.0],
            values,
        }
    }

    #[test]
    fn linear_and_step_translations() {
        let values = vec![[0.0, 0.0, 0.0, 0.0], [2.0, 4.0, -2.0, 0.0]];
        let linear = channel(Target::Translation, Interpolation::Linear, values.clone());
        assert_eq!(linear.sample(0.25), [0.5, 1.0, -0.5, 0.0]);
        assert_eq!(linear.sample(-1.0), values[0]);
        assert_eq!(linear.sample(7.0), values[1]);
        let step = channel(Target::Translation, Interpolation::Step, values.clone());
        assert_eq!(step.sample(0.99), values[0]);
        assert_eq!(step.sample(1.0), values[1]);
    }

    #[test]
    fn linear_rotations_turn_at_a_constant_speed() {
        // From no turn to 90 degrees around Z: a quarter of the way is 22.5 degrees.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let values = vec![[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, h, h]];
        let q = channel(Target::Rotation, Interpolation::Linear, values).sample(0.25);
        let half = 22.5f64.to_radians() / 2.0;
        assert!((q[2] - half.sin()).abs() < 1e-12 && (q[3] - half.cos()).abs() < 1e-12);
    }

    #[test]
    fn cubic_splines_follow_their_tangents() {
        // Value 0 to 1 with both tangents 0 (an ease in and out): at the middle, 0.5; at a
        // quarter, 3s^2 - 2s^3 = 0.15625.
        let v = |x: f64| [x, 0.0, 0.0, 0.0];
        let values = vec![v(0.0), v(0.0), v(0.0), v(0.0), v(1.0), v(0.0)];
        let spline = channel(Target::Scale, Interpolation::CubicSpline, values);
        assert!((spline.sample(0.5)[0] - 0.5).abs() < 1e-12);
        assert!((spline.sample(0.25)[0] - 0.15625).abs() < 1e-12);
        // A tangent of 3 at both ends over a span of 1 s: the straight line 0 to 1 plus
        // (s^3 - 2s^2 + s) * 3 + (s^3 - s^2) * 3 - ...: at s = 0.5, 0.5 + 3/8 - 3/8 = 0.5.
        let values = vec![v(0.0), v(0.0), v(3.0), v(3.0), v(1.0), v(0.0)];
        let spline = channel(Target::Scale, Interpolation::CubicSpline, values);
        assert!((spline.sample(0.5)[0] - 0.5).abs() < 1e-12);
        assert!((spline.sample(0.25)[0] - (0.15625 + 3.0 * (0.140625 - 0.046875))).abs() < 1e-12);
    }
}
