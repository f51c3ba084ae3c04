//! Numbers of the Saturn's world: Q16.16 fixed point ([`Fixed`]) and binary angles
//! ([`Angle`]). The SH-2 has no FPU; everything the engine computes uses these.

/// A Q16.16 fixed-point number (`jo_fixed`): 1.0 is `0x10000`.
pub type Fixed = fixed::types::I16F16;

/// An angle (`jo_angle`): `0x10000` is a full turn, stored as `i16`, so it wraps around
/// naturally (`0x8000` and `-0x8000` are both half a turn).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Angle(pub i16);

impl Angle {
    /// The angle as stored: `0x10000` per turn, wrapping.
    pub const fn raw(self) -> i16 {
        self.0
    }
}
