//! Fog (depth cueing), as Saturn games fade what is far: each corner's gouraud colour
//! moved towards the fog's colour with its depth. The VDP1 adds a gouraud colour's
//! channel - 16 (-16 to +15) to the texel's or polygon's 5-bit channel and clamps it to
//! 0-31; that addition is all fog can do. So a surface of one known colour (an untextured
//! polygon: its colour) reaches the fog's colour exactly when each channel is within
//! -16..+15 of it, and a texture moves as a whole: the offset is the one that takes a
//! texel of mid value (16 in each channel) to the fog's colour, so its light texels stay
//! lighter and its dark ones darker than the fog (a white texture under a black fog ends
//! at half its brightness, not at black). This module owns the fog's figures: its share
//! at a depth and a corner's faded gouraud colour.

use crate::math::{div_64_32, ONE};

/// A fog over the frame: surfaces fade from their own colour at `near` to the fog's
/// `colour` at `far` and beyond (camera depths, Q16.16 world units), linearly, through
/// their gouraud colours (see the module's documentation for what that reaches).
///
/// ```
/// use jom::math::ONE;
/// use jom::render::Fog;
/// // Grey-blue haze from 20 units out, whole from 60.
/// let fog = Fog { colour: 0x8000 | 20 << 10 | 16 << 5 | 14, near: 20 * ONE, far: 60 * ONE };
/// assert_eq!(fog.share(10 * ONE), 0);
/// assert_eq!(fog.share(40 * ONE), 128);
/// assert_eq!(fog.share(90 * ONE), 256);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fog {
    /// The fog's colour, RGB555 (bit 15 ignored).
    pub colour: u16,
    /// The depth where the fading starts (Q16.16).
    pub near: i32,
    /// The depth where surfaces are all fog (Q16.16); at or before `near`: all fog from
    /// `near` on.
    pub far: i32,
}

/// A gouraud colour that leaves the texel as it is (16 in each channel).
pub(crate) const NEUTRAL_GOURAUD: u16 = 0x8000 | 16 << 10 | 16 << 5 | 16;

/// The share of fog, in 256ths, at which a surface is all fog.
pub const FOG_WHOLE: i32 = 256;

impl Fog {
    /// How much of the fog's colour a surface at camera depth `depth` (Q16.16) takes, in
    /// 256ths: 0 up to `near`, [`FOG_WHOLE`] from `far`.
    pub fn share(&self, depth: i32) -> i32 {
        if depth <= self.near {
            return 0;
        }
        if depth >= self.far {
            return FOG_WHOLE;
        }
        let span = i64::from(self.far) - i64::from(self.near);
        let into = i64::from(depth) - i64::from(self.near);
        // 0 < into < span < 2^32: the quotient is below 256. A span that fits an i32 (all
        // but a fog from far behind the eye) divides by the SH-2's division unit: a 64-bit
        // division is a library call of some 2,000 cycles, and fog takes one a corner.
        let dividend = into * i64::from(FOG_WHOLE);
        match i32::try_from(span) {
            Ok(span) => div_64_32(dividend, span),
            Err(_) => (dividend / span) as i32,
        }
    }

    /// Whether a surface at camera depth `depth` takes any of the fog ([`share`] not 0),
    /// found without its division.
    ///
    /// [`share`]: Self::share
    pub fn fades(&self, depth: i32) -> bool {
        if depth <= self.near {
            return false;
        }
        // `share` is (depth - near) * 256 / span, rounded down: 1 or more from a span on.
        let span = i64::from(self.far) - i64::from(self.near);
        depth >= self.far
            || (i64::from(depth) - i64::from(self.near)) * i64::from(FOG_WHOLE) >= span
    }

    /// The gouraud colour (RGB555, channel 16 unchanged) of a corner whose own gouraud
    /// colour is `gouraud`, on a surface of colour `base` (RGB555: an untextured polygon's
    /// colour, or 16 in each channel for a texture), faded by `share` ([`Fog::share`]):
    /// each channel's offset moved from its own towards the one that makes `base` the fog's
    /// colour, clamped to what the VDP1 adds (-16..+15).
    pub fn faded(&self, gouraud: u16, base: u16, share: i32) -> u16 {
        let share = share.clamp(0, FOG_WHOLE);
        // Channel by channel, each shift written out: through a loop or a closure over the
        // shifts, the SH-2's code called a library shift (`__lshrsi3_r0`) for each.
        let fog = self.colour;
        0x8000
            | fade_channel(gouraud >> 10, base >> 10, fog >> 10, share) << 10
            | fade_channel(gouraud >> 5, base >> 5, fog >> 5, share) << 5
            | fade_channel(gouraud, base, fog, share)
    }
}

/// One channel (the low 5 bits of each of `gouraud`, `base` and `fog`) of
/// [`Fog::faded`]: the offset `gouraud - 16` moved by `share` 256ths of the way to
/// `fog - base`, to the nearest (halves up), clamped to -16..+15, plus 16.
#[inline(always)]
fn fade_channel(gouraud: u16, base: u16, fog: u16, share: i32) -> u16 {
    let wanted = i32::from(fog & 31) - i32::from(base & 31);
    fade_offset(gouraud, wanted, share)
}

/// [`fade_channel`] with the offset wanted (`fog - base`, -31..31) made.
#[inline(always)]
fn fade_offset(gouraud: u16, wanted: i32, share: i32) -> u16 {
    let own = i32::from(gouraud & 31) - 16;
    // (moved + 128) / 256 rounded down, for moved from -46 * 256 to 47 * 256: made
    // positive by 64 * 256 and shifted logically (the SH-2 shifts right arithmetically
    // one bit an instruction, logically 8 in one).
    let moved = (wanted - own) * share + FOG_WHOLE / 2 + 64 * FOG_WHOLE;
    let offset = own + (moved as u32 >> 8) as i32 - 64;
    (offset.clamp(-16, 15) + 16) as u16
}

/// A fog as a pass over many corners takes it ([`FogRamp::of`], once a pass): the share
/// at a depth by a multiplication instead of the division of [`Fog::share`] (some 80
/// cycles a corner on the SH-2, Mednafen), and the offsets a surface's colour wants
/// ([`FogRamp::wanted`], once a polygon). The same figures as [`Fog::share`] and
/// [`Fog::faded`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct FogRamp {
    fog: Fog,
    /// `far - near` when it is from [`MIN_RAMP_SPAN`] to `i32::MAX`; else 0 (the share by
    /// [`Fog::share`]).
    span: u32,
    /// 2^40 / `span`, rounded down.
    reciprocal: u32,
}

/// The narrowest span a [`FogRamp`] takes by its reciprocal (which then fits 31 bits).
const MIN_RAMP_SPAN: i64 = 513;

impl FogRamp {
    pub(crate) fn of(fog: &Fog) -> Self {
        let span = i64::from(fog.far) - i64::from(fog.near);
        let (span, reciprocal) = match i32::try_from(span) {
            Ok(span) if i64::from(span) >= MIN_RAMP_SPAN => {
                (span as u32, div_64_32(1 << 40, span) as u32)
            }
            _ => (0, 0),
        };
        Self {
            fog: *fog,
            span,
            reciprocal,
        }
    }

    /// [`Fog::share`] at `depth`.
    #[inline(always)]
    pub(crate) fn share(&self, depth: i32) -> i32 {
        let fog = &self.fog;
        if depth <= fog.near {
            return 0;
        }
        if depth >= fog.far {
            return FOG_WHOLE;
        }
        let span = self.span;
        if span == 0 {
            return fog.share(depth);
        }
        // 0 < into < span < 2^31. The quotient by the reciprocal is the share or one less
        // (into * 2^8 / span less into * (2^40 / span - reciprocal) / 2^32, under 1);
        // the rest, from 0 to 2 span (below 2^32: exact in wrapping 32 bits), says which.
        let into = depth.wrapping_sub(fog.near) as u32;
        let quotient = ((u64::from(into) * u64::from(self.reciprocal)) >> 32) as u32;
        let rest = (into << 8).wrapping_sub(quotient.wrapping_mul(span));
        (quotient + u32::from(rest >= span)) as i32
    }

    /// The offsets that take a surface of colour `base` to the fog's, as
    /// [`faded`](Self::faded) takes them.
    #[inline(always)]
    pub(crate) fn wanted(&self, base: u16) -> FogWanted {
        let channel = |c: u16| i32::from(c & 31);
        let (fog, red, green) = (self.fog.colour, 0, 5);
        FogWanted::of([
            channel(fog >> red) - channel(base >> red),
            channel(fog >> green) - channel(base >> green),
            channel(fog >> 10) - channel(base >> 10),
        ])
    }

    /// [`Fog::faded`] of `gouraud` on a surface whose offsets are `wanted`
    /// ([`wanted`](Self::wanted)) at `share` (0 to [`FOG_WHOLE`]): [`fade_offset`]'s sum for
    /// red and blue at once, each in a half of a 32-bit word (its sum, from 4,736 to 28,544
    /// at any share, stays in its half, so the one multiplication makes both), green alone.
    /// Channel by channel the SH-2 took some 80 instructions a corner.
    #[inline(always)]
    pub(crate) fn faded(&self, gouraud: u16, wanted: FogWanted, share: i32) -> u16 {
        let gouraud = u32::from(gouraud);
        // The own channels, red at bit 0 and blue (bit 10) moved to bit 16.
        let own = gouraud & 31 | (gouraud << 6) & 31 << 16;
        let own_green = gouraud >> 5 & 31;
        // Each half: (wanted + 16 - own) * share + 128 + 64 * 256, as in `fade_offset`.
        let share = share as u32;
        let moved = wanted.red_blue.wrapping_sub(own).wrapping_mul(share);
        let moved = moved.wrapping_add(FADE_BIAS * 0x1_0001);
        let moved_green = wanted.green.wrapping_sub(own_green).wrapping_mul(share);
        let moved_green = moved_green.wrapping_add(FADE_BIAS);
        // own + moved / 256 in each half (18 to 142): the offset plus 16, plus 64.
        let sums = (moved >> 8 & 0x00FF_00FF) + own;
        let green = own_green + (moved_green >> 8);
        0x8000 | fade_clamp(sums >> 16) << 10 | fade_clamp(green) << 5 | fade_clamp(sums & 0xFFFF)
    }
}

/// What [`fade_offset`] adds before its shift: half a 256th, to round, and 64 * 256,
/// which makes every channel's sum positive.
const FADE_BIAS: u32 = FOG_WHOLE as u32 / 2 + 64 * FOG_WHOLE as u32;

/// A faded channel from its own value plus its moved offset plus 64 (18 to 142, in the
/// low 8 bits of `sum`): the offset plus 16 clamped to what the VDP1 adds (0 to 31). A
/// load from [`FADE_CLAMPS`]: the clamp's two comparisons were branches on the SH-2.
#[inline(always)]
fn fade_clamp(sum: u32) -> u16 {
    u16::from(FADE_CLAMPS[(sum & 0xFF) as usize])
}

/// [`fade_clamp`] of each sum (the 113 past 142 for the index's mask). A `static`: a
/// `const` table indexed at run time may be built on the stack.
static FADE_CLAMPS: [u8; 256] = {
    let mut clamps = [0; 256];
    let mut sum = 0;
    while sum < 256 {
        clamps[sum] = match sum {
            ..64 => 0,
            64..95 => (sum - 64) as u8,
            _ => 31,
        };
        sum += 1;
    }
    clamps
};

/// The offsets a surface's colour wants ([`FogRamp::wanted`]), each plus 16 (-15 to 47):
/// red in the low half of a word and blue in the high half (two's complement, wrapping),
/// green alone: [`FogRamp::faded`]'s operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FogWanted {
    red_blue: u32,
    green: u32,
}

impl FogWanted {
    /// The offsets (red, green, blue; each -31 to 31) packed.
    #[inline(always)]
    pub(crate) fn of([red, green, blue]: [i32; 3]) -> Self {
        let plus = |offset: i32| (offset + 16) as u32;
        Self {
            red_blue: plus(red).wrapping_add(plus(blue) << 16),
            green: plus(green),
        }
    }
}

/// The depth of a corner as fog sees it: nearer than the near plane counts as on it.
pub(crate) fn fog_depth(z: i32, near: i32) -> i32 {
    z.max(near).max(ONE / 256)
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::{check_eq, test_suite};

    const BLACK: u16 = 0x8000;
    const MID: u16 = NEUTRAL_GOURAUD;

    fn fog(colour: u16) -> Fog {
        Fog {
            colour,
            near: 10 * ONE,
            far: 20 * ONE,
        }
    }

    test_suite! {
        fn the_share_grows_from_near_to_far() {
            let fog = fog(BLACK);
            let shares = [0, 10, 15, 20].map(|units| fog.share(units * ONE));
            check_eq!(shares, [0, 0, 128, FOG_WHOLE]);
            check_eq!(fog.share(i32::MAX), FOG_WHOLE);
            let mut last = 0;
            for depth in (10 * ONE..=20 * ONE).step_by(ONE as usize / 16) {
                let share = fog.share(depth);
                check_eq!([depth, i32::from(share >= last)], [depth, 1]);
                last = share;
            }
            // A fog of no span is whole from its near depth.
            let wall = Fog { far: 10 * ONE, ..fog };
            check_eq!([wall.share(10 * ONE), wall.share(10 * ONE + 1)], [0, FOG_WHOLE]);
            // Whether a depth takes any fog, without the division: where the share starts
            // (a 256th of the span past near), in a span of 10 units and in one of 11
            // (not a multiple of 256), and in the wall.
            let odd = Fog { far: 21 * ONE, ..fog };
            for fog in [fog, odd, wall] {
                for depth in (10 * ONE - 4..10 * ONE + ONE / 8).chain([-ONE, 15 * ONE, i32::MAX]) {
                    check_eq!((depth, fog.fades(depth)), (depth, fog.share(depth) > 0));
                }
            }
        }

        fn the_faded_colours_are_what_the_vdp1_can_add() {
            // No share: the gouraud colour as it was.
            let pink = fog(0x8000 | 31 << 10 | 3 << 5 | 9);
            for gouraud in [MID, 0x8000 | 4 << 10 | 28 << 5 | 16, BLACK] {
                for base in [MID, 0x801F, 0xFFFF] {
                    check_eq!([base, pink.faded(gouraud, base, 0)], [base, gouraud]);
                }
            }
            // Whole, each channel within -16..+15 of the fog's: reached exactly, whatever
            // the gouraud colour was.
            let colour = 0x8000 | 12 << 10 | 20 << 5 | 25;
            let haze = fog(colour);
            for base in [0x8000 | 2 << 10 | 30 << 5 | 16, MID, 0x8000 | 27 << 10 | 5 << 5 | 10] {
                for gouraud in [MID, BLACK, 0xFFFF] {
                    let drawn = add_gouraud(base, haze.faded(gouraud, base, FOG_WHOLE));
                    check_eq!([base, gouraud, drawn], [base, gouraud, colour]);
                }
            }
            // White towards black: -31 wanted, -16 is all the VDP1 adds; half way: half
            // the offset, rounded.
            let night = fog(BLACK);
            let faded = night.faded(MID, 0xFFFF, FOG_WHOLE);
            let half = 0x8000 | 15 << 10 | 15 << 5 | 15;
            check_eq!([faded, add_gouraud(0xFFFF, faded)], [0x8000, half]);
            check_eq!(night.faded(MID, MID, 128), 0x8000 | 8 << 10 | 8 << 5 | 8);
        }
    }

    /// Every channel's every case of [`Fog::faded`] (own gouraud, base and fog channel,
    /// share) against its formula: the offset moved by the share, to the nearest (halves
    /// up), clamped. On the host only: 8.6 million cases.
    #[test]
    fn each_faded_channel_is_the_formulas() {
        for own in 0..32u16 {
            for base in 0..32u16 {
                for fog in 0..32u16 {
                    for share in 0..=FOG_WHOLE {
                        let (from, to) = (i32::from(own) - 16, i32::from(fog) - i32::from(base));
                        let offset =
                            from + ((to - from) * share + FOG_WHOLE / 2).div_euclid(FOG_WHOLE);
                        let expected = (offset.clamp(-16, 15) + 16) as u16;
                        assert_eq!(
                            fade_channel(own, base, fog, share),
                            expected,
                            "{own} {base} {fog} {share}"
                        );
                    }
                }
            }
        }
        // The channels in their places.
        let fog = Fog {
            colour: 0x8000 | 3 << 10 | 29 << 5 | 14,
            near: 0,
            far: ONE,
        };
        let (gouraud, base) = (
            0x8000 | 20 << 10 | 7 << 5 | 16,
            0x8000 | 9 << 10 | 16 << 5 | 30,
        );
        let each = |shift: u16| {
            fade_channel(gouraud >> shift, base >> shift, fog.colour >> shift, 77) << shift
        };
        assert_eq!(
            fog.faded(gouraud, base, 77),
            0x8000 | each(10) | each(5) | each(0)
        );
    }

    /// A ramp's share and colours are the fog's: every depth of spans narrow and wide
    /// (the narrowest the reciprocal takes, odd ones, ones past 2^24, the widest an i32
    /// holds, and ones it leaves to the division), every 1/64th through them and about
    /// each step of the share. On the host only: some 2 million depths.
    #[test]
    fn a_ramps_figures_are_the_fogs() {
        let spans = [
            1,
            256,
            512,
            513,
            514,
            1000,
            3 * ONE + 7,
            6 * ONE,
            40 * ONE + 12345,
            (1 << 24) + 1,
            i32::MAX - 5,
            i32::MAX,
        ];
        for near in [-3 * ONE, 0, ONE / 3] {
            for span in spans {
                let far = i64::from(near) + i64::from(span);
                let Ok(far) = i32::try_from(far) else {
                    continue;
                };
                let fog = Fog {
                    colour: 0x8000 | 7 << 10 | 25 << 5 | 16,
                    near,
                    far,
                };
                let ramp = FogRamp::of(&fog);
                let step = (span / 64).max(1);
                let check = |depth: i32| {
                    assert_eq!(
                        ramp.share(depth),
                        fog.share(depth),
                        "near {near} span {span} depth {depth}"
                    );
                };
                (0..=64).for_each(|k| check(near.saturating_add(k * step)));
                for k in 0..=FOG_WHOLE {
                    let at = i64::from(near) + (i64::from(k) * i64::from(span) + 255) / 256;
                    for d in -2..=2 {
                        if let Ok(depth) = i32::try_from(at + d) {
                            check(depth);
                        }
                    }
                }
                [
                    i32::MIN,
                    near - 1,
                    near,
                    far,
                    far.saturating_add(1),
                    i32::MAX,
                ]
                .into_iter()
                .for_each(check);
            }
        }
        let fog = Fog {
            colour: 0x8000 | 3 << 10 | 29 << 5 | 14,
            near: 0,
            far: ONE,
        };
        let ramp = FogRamp::of(&fog);
        for base in [
            0x8000,
            0xFFFF,
            0x8000 | 9 << 10 | 16 << 5 | 30,
            NEUTRAL_GOURAUD,
        ] {
            for gouraud in [
                0x8000,
                0xFFFF,
                0x8000 | 20 << 10 | 7 << 5 | 16,
                NEUTRAL_GOURAUD,
            ] {
                for share in 0..=FOG_WHOLE {
                    let faded = ramp.faded(gouraud, ramp.wanted(base), share);
                    assert_eq!(
                        faded,
                        fog.faded(gouraud, base, share),
                        "{base:x} {gouraud:x} {share}"
                    );
                }
            }
        }
    }

    /// A ramp's packed fade is [`fade_offset`] in each channel: every own value, offset
    /// wanted and share of each channel, beside the other two at their extremes (whose
    /// halves a carry or borrow would reach first). On the host only: some 7.8 million
    /// corners.
    #[test]
    fn a_ramps_fade_is_each_channels() {
        let ramp = FogRamp::of(&fog(BLACK));
        let others = [(0, -31), (31, 31), (0, 31), (31, -31), (16, 0)];
        let reference = |gouraud: u16, [red, green, blue]: [i32; 3], share: i32| {
            0x8000
                | fade_offset(gouraud >> 10, blue, share) << 10
                | fade_offset(gouraud >> 5, green, share) << 5
                | fade_offset(gouraud, red, share)
        };
        for place in 0..3 {
            for (other, other_wanted) in others {
                for own in 0..32u16 {
                    for wanted in -31..=31 {
                        let mut offsets = [other_wanted; 3];
                        offsets[place] = wanted;
                        let mut channels = [other; 3];
                        channels[place] = own;
                        let [red, green, blue] = channels;
                        let gouraud = 0x8000 | blue << 10 | green << 5 | red;
                        for share in 0..=FOG_WHOLE {
                            assert_eq!(
                                ramp.faded(gouraud, FogWanted::of(offsets), share),
                                reference(gouraud, offsets, share),
                                "{gouraud:x} {offsets:?} {share}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// What the VDP1 draws: `colour` plus `gouraud`'s channel - 16, clamped.
    fn add_gouraud(colour: u16, gouraud: u16) -> u16 {
        let mut out = 0x8000;
        for shift in [0, 5, 10] {
            let c = i32::from((colour >> shift) & 31) + i32::from((gouraud >> shift) & 31) - 16;
            out |= (c.clamp(0, 31) as u16) << shift;
        }
        out
    }
}
