//! Big-endian scalars as stored in a JOM file. Each is the native integer holding the file's
//! bytes: on the big-endian SH-2 `get` is a plain load, on a little-endian host a swap.

use crate::math::{Angle, Fixed};
use core::fmt;

macro_rules! big_endian {
    ($(#[$doc:meta] $name:ident($raw:ty) -> $value:ty, |$v:ident| $convert:expr;)*) => {$(
        #[$doc]
        #[repr(transparent)]
        #[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
        pub struct $name($raw);

        impl $name {
            /// The value, in the machine's byte order.
            #[inline(always)]
            pub fn get(self) -> $value {
                let $v = <$raw>::from_be(self.0);
                $convert
            }

            /// The value stored in big-endian order (for writers and tests).
            pub const fn new(value: $raw) -> Self {
                Self(value.to_be())
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.get(), f)
            }
        }
    )*};
}

big_endian! {
    /// A big-endian `u16` (counts of records, indexes).
    U16Be(u16) -> u16, |v| v;
    /// A big-endian `i16`.
    I16Be(i16) -> i16, |v| v;
    /// A big-endian `u32`.
    U32Be(u32) -> u32, |v| v;
    /// A big-endian Q16.16 fixed-point number.
    FixedBe(i32) -> Fixed, |v| Fixed::from_bits(v);
    /// A big-endian angle (`0x10000` per turn).
    AngleBe(i16) -> Angle, |v| Angle(v);
    /// A big-endian VDP1 colour: bit 15 set, 5 bits per channel, blue in the high bits.
    Rgb555Be(u16) -> Rgb555, |v| Rgb555(v);
}

/// A VDP1 colour: bit 15 set for an opaque colour, then blue, green, red in 5 bits each
/// (blue in the high bits). In GOUR tables, a channel of 16 leaves a texture unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Rgb555(pub u16);

impl Rgb555 {
    /// The red channel, 0 to 31.
    pub const fn r(self) -> u8 {
        (self.0 & 0x1F) as u8
    }

    /// The green channel, 0 to 31.
    pub const fn g(self) -> u8 {
        ((self.0 >> 5) & 0x1F) as u8
    }

    /// The blue channel, 0 to 31.
    pub const fn b(self) -> u8 {
        ((self.0 >> 10) & 0x1F) as u8
    }
}
