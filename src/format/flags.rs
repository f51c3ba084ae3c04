//! Material flags (`JO_3D_MATERIAL_*`): bits 0 to 15 belong to the engine, bits 16 to 31 to
//! the program (`jo_user N`).

use core::ops::{BitOr, BitOrAssign};

/// The flags of a material.
///
/// ```
/// use jom::format::{MaterialFlags, SortMode};
/// let flags = MaterialFlags::DUAL_PLANE | MaterialFlags::SORT_MAX | MaterialFlags::user(3);
/// assert!(flags.contains(MaterialFlags::DUAL_PLANE));
/// assert_eq!(flags.sort_mode(), SortMode::Max);
/// assert_eq!(flags.user_bits(), 1 << 3);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct MaterialFlags(u32);

impl MaterialFlags {
    /// Drawn on both sides (`jo_dual 1`).
    pub const DUAL_PLANE: Self = Self(1 << 0);
    /// Painter's sort with the nearest point (`jo_sort min`).
    pub const SORT_MIN: Self = Self(1 << 1);
    /// Painter's sort with the farthest point (`jo_sort max`).
    pub const SORT_MAX: Self = Self(1 << 2);
    /// Sorted with the depth of the polygon before it (`jo_sort previous`): both sort bits.
    pub const SORT_PREVIOUS: Self = Self(Self::SORT_MIN.0 | Self::SORT_MAX.0);
    /// Gouraud shading with the GOUR colours (`jo_gouraud 1`).
    pub const GOURAUD: Self = Self(1 << 3);
    /// Half transparent (`jo_half_transparent 1`, or MTL `d` < 1).
    pub const HALF_TRANSPARENT: Self = Self(1 << 4);
    /// Screen doors, the VDP1 mesh (`jo_screen_doors 1`).
    pub const SCREEN_DOORS: Self = Self(1 << 5);
    /// Lit by the engine's light (`jo_light 1`).
    pub const LIGHT: Self = Self(1 << 6);
    /// Texture flipped horizontally (`jo_flip h`).
    pub const FLIP_H: Self = Self(1 << 7);
    /// Texture flipped vertically (`jo_flip v`).
    pub const FLIP_V: Self = Self(1 << 8);
    /// Each texture line stops after its last visible pixel (`jo_end_codes 1`).
    pub const END_CODES: Self = Self(1 << 9);
    /// Smaller copies of the texture far away (`jo_mipmaps 1`).
    pub const MIPMAPS: Self = Self(1 << 10);
    /// Polygons near the camera drawn in parts (`jo_subdivision 1`).
    pub const SUBDIVISION: Self = Self(1 << 11);
    /// Only polygons crossing the near plane drawn in parts (`jo_subdivision 2`).
    pub const SUBDIVISION_NEAR: Self = Self(1 << 12);

    const SORT_BITS: u32 = Self::SORT_PREVIOUS.0;
    const USER_SHIFT: u32 = 16;

    /// The program's flag `n` (`JO_3D_MATERIAL_USER(n)`, `jo_user n`), `n` from 0 to 15;
    /// higher values wrap into that range.
    pub const fn user(n: u32) -> Self {
        Self(1 << (Self::USER_SHIFT + (n & 15)))
    }

    /// The flags from their stored bits (every bit is kept, including bits 13 to 15 that
    /// no engine flag uses yet).
    pub const fn from_bits(bits: u32) -> Self {
        Self(bits)
    }

    /// The bits as stored.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// The program's flags (bits 16 to 31), bit `n` for `jo_user n`.
    pub const fn user_bits(self) -> u16 {
        (self.0 >> Self::USER_SHIFT) as u16
    }

    /// Whether polygons of the material may be drawn in parts (`jo_subdivision` 1 or 2).
    pub const fn subdivides(self) -> bool {
        self.contains(Self::SUBDIVISION) || self.contains(Self::SUBDIVISION_NEAR)
    }

    /// How polygons of the material are sorted.
    pub const fn sort_mode(self) -> SortMode {
        match self.0 & Self::SORT_BITS {
            b if b == Self::SORT_MIN.0 => SortMode::Min,
            b if b == Self::SORT_MAX.0 => SortMode::Max,
            b if b == Self::SORT_PREVIOUS.0 => SortMode::Previous,
            _ => SortMode::Center,
        }
    }
}

impl BitOr for MaterialFlags {
    type Output = Self;

    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl BitOrAssign for MaterialFlags {
    fn bitor_assign(&mut self, rhs: Self) {
        self.0 |= rhs.0;
    }
}

impl core::fmt::Debug for MaterialFlags {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        const NAMES: [(MaterialFlags, &str); 11] = [
            (MaterialFlags::DUAL_PLANE, "DUAL_PLANE"),
            (MaterialFlags::GOURAUD, "GOURAUD"),
            (MaterialFlags::HALF_TRANSPARENT, "HALF_TRANSPARENT"),
            (MaterialFlags::SCREEN_DOORS, "SCREEN_DOORS"),
            (MaterialFlags::LIGHT, "LIGHT"),
            (MaterialFlags::FLIP_H, "FLIP_H"),
            (MaterialFlags::FLIP_V, "FLIP_V"),
            (MaterialFlags::END_CODES, "END_CODES"),
            (MaterialFlags::MIPMAPS, "MIPMAPS"),
            (MaterialFlags::SUBDIVISION, "SUBDIVISION"),
            (MaterialFlags::SUBDIVISION_NEAR, "SUBDIVISION_NEAR"),
        ];
        write!(f, "MaterialFlags(sort {:?}", self.sort_mode())?;
        for (flag, name) in NAMES {
            if self.contains(flag) {
                write!(f, " | {name}")?;
            }
        }
        if self.user_bits() != 0 {
            write!(f, " | user {:#06x}", self.user_bits())?;
        }
        f.write_str(")")
    }
}

/// The painter's sort of a material's polygons.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum SortMode {
    /// The depth of the polygon's centre (the default, `jo_sort center`).
    #[default]
    Center,
    /// The depth of its nearest point.
    Min,
    /// The depth of its farthest point.
    Max,
    /// The depth of the polygon before it in the model (a decal over that face).
    Previous,
}
