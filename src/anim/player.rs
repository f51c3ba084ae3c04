//! Playing animations over time: the current one, its time, its speed, and the cross-fade
//! from the previous one.

use super::{blend, pose_at_fixed, Pose};
use crate::format::{Animations, Model};
use crate::math::ONE;

/// An animation and how far into it the player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Track {
    /// The animation's index in ANIM.
    index: usize,
    /// The time in Q16.16 ticks: in `0..period` for a looped animation, in `0..=end` for
    /// another.
    time: u64,
}

/// A cross-fade in progress: the animation faded out and how far the fade is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Fade {
    from: Track,
    /// Ticks of `advance` since the fade started (not scaled by the speed).
    elapsed: u32,
    /// Ticks the fade lasts (at least 1).
    duration: u32,
}

/// The time span of an animation in Q16.16 ticks: where a looped one wraps, or where
/// another stops.
#[derive(Clone, Copy, Debug)]
enum Span {
    /// Wraps at this time (`key_count * key_ticks` ticks, never 0).
    Looped(u64),
    /// Stops at this time (`(key_count - 1) * key_ticks` ticks).
    Clamped(u64),
}

/// Plays the animations of a model: the current animation, its time in ticks (with a
/// precision of 1/65536 tick), its speed, pause and resume, and the cross-fade from one
/// animation to the next.
///
/// [`advance`](Self::advance) is called once a frame with the ticks the frame lasted (1 at
/// 60 Hz, 2 at 30 Hz); the time moves by `ticks * speed`. A looped animation wraps at its
/// end, another stops at its last key ([`is_finished`](Self::is_finished)). An index out of
/// range plays the rest pose. Nothing panics or allocates.
///
/// ```
/// use jom::anim::{bone_matrices, pose_at, AnimationPlayer};
/// use jom::math::{Matrix, ONE};
/// use jom::format::MAX_BONES;
/// let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
/// let model = jom::Model::from_bytes(bytes)?;
/// let mut player = AnimationPlayer::new(&model);
/// player.play(0); // "walk", looped, 3 keys 10 ticks apart
/// player.set_speed(ONE / 2);
/// for _ in 0..30 {
///     player.advance(1); // each frame at 60 Hz
/// }
/// let walk = model.animations().get(0).expect("the fixture has animation 0");
/// assert_eq!(player.pose(&model), pose_at(&walk, model.bones().len(), 15));
///
/// // A second and a half of "walk" again (not looped), faded in over 10 ticks.
/// player.set_speed(ONE);
/// player.cross_fade(2, 10);
/// for _ in 0..90 {
///     player.advance(1);
/// }
/// assert!(player.is_finished());
///
/// // The matrices that place each bone's points for the renderer.
/// let mut matrices = [Matrix::IDENTITY; MAX_BONES];
/// bone_matrices(&model, &player.pose(&model), &mut matrices);
/// # Ok::<(), jom::LoadError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AnimationPlayer<'a> {
    animations: Animations<'a>,
    current: Track,
    fade: Option<Fade>,
    speed: i32,
    paused: bool,
}

impl<'a> AnimationPlayer<'a> {
    /// A player of the animations of `model`, playing animation 0 from its start at speed
    /// 1.0.
    pub fn new(model: &Model<'a>) -> Self {
        Self {
            animations: model.animations(),
            current: Track { index: 0, time: 0 },
            fade: None,
            speed: ONE,
            paused: false,
        }
    }

    /// Plays animation `index` from its start (and resumes a paused player); a cross-fade
    /// in progress is dropped. An index out of range plays the rest pose.
    pub fn play(&mut self, index: usize) {
        self.current = Track { index, time: 0 };
        self.fade = None;
        self.paused = false;
    }

    /// Fades from the current animation (which keeps advancing) to animation `index`,
    /// played from its start, over `duration_ticks` ticks of [`advance`](Self::advance):
    /// during the fade the pose is `blend(old pose, new pose, elapsed / duration)`, then the
    /// new animation alone. A duration of 0 is [`play`](Self::play). A fade in progress is
    /// dropped: the fade starts from the animation that was fading in.
    pub fn cross_fade(&mut self, index: usize, duration_ticks: u32) {
        if duration_ticks == 0 {
            self.play(index);
            return;
        }
        self.fade = Some(Fade {
            from: self.current,
            elapsed: 0,
            duration: duration_ticks,
        });
        self.current = Track { index, time: 0 };
        self.paused = false;
    }

    /// Stops the time (and the fade) until [`resume`](Self::resume).
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Lets the time go on after [`pause`](Self::pause).
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Whether the player is paused.
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Moves the current animation to `ticks` (wrapped for a looped animation, clamped at
    /// the last key for another).
    pub fn seek(&mut self, ticks: u32) {
        self.seek_fixed(u64::from(ticks) << 16);
    }

    /// [`seek`](Self::seek) with the time in Q16.16 ticks.
    pub fn seek_fixed(&mut self, time: u64) {
        self.current.time = match self.span(self.current.index) {
            None => 0,
            Some(Span::Looped(period)) => time % period,
            Some(Span::Clamped(end)) => time.min(end),
        };
    }

    /// The speed in Q16.16: `ONE` plays 60 ticks a second of [`advance`](Self::advance)'s
    /// ticks, `ONE / 2` half as fast, a negative speed backwards.
    pub fn speed(&self) -> i32 {
        self.speed
    }

    /// Sets the speed (see [`speed`](Self::speed)).
    pub fn set_speed(&mut self, speed: i32) {
        self.speed = speed;
    }

    /// The index of the current animation (the one faded in during a cross-fade).
    pub fn animation(&self) -> usize {
        self.current.index
    }

    /// The time of the current animation in Q16.16 ticks.
    pub fn time(&self) -> u64 {
        self.current.time
    }

    /// Whether a cross-fade is in progress.
    pub fn is_fading(&self) -> bool {
        self.fade.is_some()
    }

    /// Whether the current animation is not looped and has reached its end in the way it
    /// plays (its last key, or its start when the speed is negative); always true for an
    /// index out of range.
    pub fn is_finished(&self) -> bool {
        match self.span(self.current.index) {
            None => true,
            Some(Span::Looped(_)) => false,
            Some(Span::Clamped(end)) => {
                if self.speed < 0 {
                    self.current.time == 0
                } else {
                    self.current.time >= end
                }
            }
        }
    }

    /// Moves the time on by `ticks` ticks (1 a frame at 60 Hz) times the speed, for the
    /// current animation, the one fading out and the fade itself (whose ticks are not
    /// scaled by the speed). Does nothing while paused.
    pub fn advance(&mut self, ticks: u32) {
        if self.paused {
            return;
        }
        // At most 2^32 * 2^31: no overflow in 64 bits.
        let step = u64::from(ticks) * u64::from(self.speed.unsigned_abs());
        let forward = self.speed >= 0;
        self.current = self.advanced(self.current, step, forward);
        if let Some(mut fade) = self.fade {
            fade.elapsed = fade.elapsed.saturating_add(ticks);
            if fade.elapsed >= fade.duration {
                self.fade = None;
            } else {
                fade.from = self.advanced(fade.from, step, forward);
                self.fade = Some(fade);
            }
        }
    }

    /// The pose now: the current animation at its time, blended with the one fading out
    /// during a cross-fade. `model` is the model the player was made for (its bones and
    /// its animations' keys).
    pub fn pose(&self, model: &Model<'_>) -> Pose {
        let animations = model.animations();
        let bone_count = model.bones().len();
        let now = track_pose(&animations, bone_count, self.current);
        match self.fade {
            Some(fade) if fade.elapsed < fade.duration => {
                let from = track_pose(&animations, bone_count, fade.from);
                let t = (u64::from(fade.elapsed) << 16) / u64::from(fade.duration.max(1));
                blend(&from, &now, t as i32)
            }
            _ => now,
        }
    }

    /// The span of animation `index`, or `None` when out of range.
    fn span(&self, index: usize) -> Option<Span> {
        let record = self.animations.records().get(index)?;
        let key_count = u64::from(record.key_count().max(1));
        let key_ticks = u64::from(record.key_ticks().max(1));
        Some(if record.is_looped() {
            Span::Looped((key_count * key_ticks) << 16)
        } else {
            Span::Clamped(((key_count - 1) * key_ticks) << 16)
        })
    }

    /// `track` moved by `step` Q16.16 ticks, forward or backward, wrapped or clamped.
    fn advanced(&self, track: Track, step: u64, forward: bool) -> Track {
        let time = match self.span(track.index) {
            None => 0,
            Some(Span::Clamped(end)) => {
                if forward {
                    track.time.saturating_add(step).min(end)
                } else {
                    track.time.saturating_sub(step).min(end)
                }
            }
            Some(Span::Looped(period)) => {
                // The time stays below the period, and a step is mostly shorter than it:
                // no division then.
                let time = below(track.time, period);
                let step = below(step, period);
                if forward {
                    let time = time + step;
                    if time >= period {
                        time - period
                    } else {
                        time
                    }
                } else {
                    let back = step;
                    if back <= time {
                        time - back
                    } else {
                        time + period - back
                    }
                }
            }
        };
        Track {
            index: track.index,
            time,
        }
    }
}

/// `value % period` (`period` not 0), without dividing when `value` is already below it.
fn below(value: u64, period: u64) -> u64 {
    if value >= period {
        value % period
    } else {
        value
    }
}

/// The pose of `track`, or the rest pose when its animation is out of range.
fn track_pose(animations: &Animations<'_>, bone_count: usize, track: Track) -> Pose {
    match animations.get(track.index) {
        Some(animation) => pose_at_fixed(&animation, bone_count, track.time),
        None => Pose::rest(bone_count),
    }
}
