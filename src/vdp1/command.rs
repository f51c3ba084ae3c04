//! The VDP1 command table: 32 bytes that tell the VDP1 to draw one polygon or sprite, set a
//! clipping rectangle or the local origin, or end the list. Built here with typed values,
//! written to VRAM big endian by [`Vram`](super::Vram).

use core::mem::{align_of, offset_of, size_of};

/// A screen position in pixels, relative to the local origin. Aligned on 4 bytes, x then
/// y, as a corner is in a command table: [`word`](Self::word) reads both at once.
#[repr(C, align(4))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Point {
    /// Right.
    pub x: i16,
    /// Down.
    pub y: i16,
}

const _: () = assert!(size_of::<Point>() == 4 && align_of::<Point>() == 4);

impl Point {
    /// The origin.
    pub const ZERO: Self = Self { x: 0, y: 0 };

    /// The point (x, y).
    pub const fn new(x: i16, y: i16) -> Self {
        Self { x, y }
    }

    /// The point as the 32-bit word that holds it in memory (and in a command table's
    /// vertex fields): one load instead of two and a merge, in the hot loop of `draw`.
    #[inline(always)]
    pub fn word(&self) -> u32 {
        // SAFETY: `Point` is `#[repr(C, align(4))]`, 4 bytes of integers (asserted above):
        // the address is aligned for a `u32` and every byte is initialised.
        unsafe { *(self as *const Self).cast::<u32>() }
    }
}

/// Two 16-bit fields as the 32-bit word that holds them in memory (`first` at the lower
/// address), in either byte order.
#[inline(always)]
pub(crate) fn field_pair(first: u16, second: u16) -> u32 {
    let ([a, b], [c, d]) = (first.to_ne_bytes(), second.to_ne_bytes());
    u32::from_ne_bytes([a, b, c, d])
}

/// The two 16-bit fields of a word [`field_pair`] made: the first (at the lower address),
/// then the second.
#[inline(always)]
pub(crate) fn field_halves(word: u32) -> (u16, u16) {
    let [a, b, c, d] = word.to_ne_bytes();
    (u16::from_ne_bytes([a, b]), u16::from_ne_bytes([c, d]))
}

/// One VDP1 command table, field for field (`CMDCTRL` ... `CMDGRDA`). Aligned on 4 bytes,
/// so that `draw` writes it as eight 32-bit words.
#[repr(C, align(4))]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CommandTable {
    /// `CMDCTRL`: end bit, jump mode, direction (flip), command.
    pub ctrl: u16,
    /// `CMDLINK`: the jump address / 8.
    pub link: u16,
    /// `CMDPMOD`: the draw mode ([`DrawMode`]).
    pub pmod: u16,
    /// `CMDCOLR`: a colour (polygons, RGB sprites' unused) or a lookup table address / 8.
    pub colr: u16,
    /// `CMDSRCA`: the texture's address / 8.
    pub srca: u16,
    /// `CMDSIZE`: the texture's width / 8 in bits 13-8, its height in bits 7-0.
    pub size: u16,
    /// `CMDXA`..`CMDYD`: the corners A, B, C, D (x then y).
    pub vertices: [i16; 8],
    /// `CMDGRDA`: the gouraud table's address / 8.
    pub grda: u16,
    /// Unused by the VDP1.
    pub reserved: u16,
}

const _: () = assert!(size_of::<CommandTable>() == 32 && align_of::<CommandTable>() == 4);
const _: () = assert!(offset_of!(CommandTable, ctrl) == 0x00);
const _: () = assert!(offset_of!(CommandTable, link) == 0x02);
const _: () = assert!(offset_of!(CommandTable, pmod) == 0x04);
const _: () = assert!(offset_of!(CommandTable, colr) == 0x06);
const _: () = assert!(offset_of!(CommandTable, srca) == 0x08);
const _: () = assert!(offset_of!(CommandTable, size) == 0x0A);
const _: () = assert!(offset_of!(CommandTable, vertices) == 0x0C);
const _: () = assert!(offset_of!(CommandTable, grda) == 0x1C);
const _: () = assert!(offset_of!(CommandTable, reserved) == 0x1E);

/// The command codes of `CMDCTRL` bits 3-0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u16)]
pub enum Command {
    /// A textured rectangle drawn at a size of its own (a billboard): placed by its zoom
    /// point ([`ZoomPoint`], `CMDCTRL` bits 11-8).
    ScaledSprite = 0x1,
    /// A textured quad, any shape (the texture mapped from edge A-B to edge D-C).
    DistortedSprite = 0x2,
    /// A flat or gouraud quad.
    Polygon = 0x4,
    /// Sets the user clipping rectangle.
    UserClip = 0x8,
    /// Sets the system clipping rectangle (the lower right corner).
    SystemClip = 0x9,
    /// Sets the local origin.
    LocalCoordinates = 0xA,
}

/// A scaled sprite's zoom point (`CMDCTRL` bits 11-8, the VDP1 manual's "zoom point"):
/// the point of the sprite that vertex A places, the display width and height in vertex B
/// (`CMDXB`, `CMDYB`); or none (`TwoCorners`): vertices A and C are its upper left and
/// lower right corners. The manual allows only these nine and 0; the rest are refused by
/// [`check_list`](super::check_list). As Mednafen draws them (`vdp1_sprite.cpp`), a width
/// of `w` spans `w + 1` pixels from the zoom point's column, like the corners of the other
/// commands, which are inclusive.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u16)]
pub enum ZoomPoint {
    /// No zoom point: vertex A is the upper left corner, vertex C the lower right.
    TwoCorners = 0x0,
    /// The upper left corner.
    UpperLeft = 0x5,
    /// The middle of the upper edge.
    UpperCenter = 0x6,
    /// The upper right corner.
    UpperRight = 0x7,
    /// The middle of the left edge.
    CenterLeft = 0x9,
    /// The centre.
    Center = 0xA,
    /// The middle of the right edge.
    CenterRight = 0xB,
    /// The lower left corner.
    LowerLeft = 0xD,
    /// The middle of the lower edge (a tree's foot).
    LowerCenter = 0xE,
    /// The lower right corner.
    LowerRight = 0xF,
}

impl ZoomPoint {
    /// Whether `bits` (`CMDCTRL` bits 11-8) name a zoom point the manual allows.
    pub const fn is_valid(bits: u16) -> bool {
        matches!(bits, 0x0 | 0x5..=0x7 | 0x9..=0xB | 0xD..=0xF)
    }

    /// The corners A, B, C, D (clockwise from the upper left) of a scaled sprite whose
    /// vertices A, B and C are `a`, `b` and `c`, with zoom point bits `bits`, as Mednafen
    /// places them (`vdp1_sprite.cpp`: half a width left of a centred point, the odd pixel
    /// right of it).
    pub fn corners(
        bits: u16,
        (x, y): (i32, i32),
        (w, h): (i32, i32),
        c: (i32, i32),
    ) -> [(i32, i32); 4] {
        let (left, right) = match bits & 3 {
            0 => (x, c.0),
            1 => (x, x + w),
            2 => (x - (w >> 1), x + ((w + 1) >> 1)),
            _ => (x - w, x),
        };
        let (top, bottom) = match (bits >> 2) & 3 {
            0 => (y, c.1),
            1 => (y, y + h),
            2 => (y - (h >> 1), y + ((h + 1) >> 1)),
            _ => (y - h, y),
        };
        [(left, top), (right, top), (right, bottom), (left, bottom)]
    }
}

/// `CMDCTRL` bit 15: the end of the command list.
pub const CTRL_END: u16 = 0x8000;
/// `CMDCTRL` bit 4: the texture flipped horizontally.
pub const CTRL_FLIP_H: u16 = 1 << 4;
/// `CMDCTRL` bit 5: the texture flipped vertically.
pub const CTRL_FLIP_V: u16 = 1 << 5;

/// Colour modes of `CMDPMOD` bits 5-3.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u16)]
pub enum ColorMode {
    /// 16 colours through a lookup table in VRAM (`CMDCOLR` = its address / 8).
    Lut16 = 1 << 3,
    /// RGB555 pixels.
    Rgb = 5 << 3,
}

/// Colour calculation of `CMDPMOD` bits 2-0.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u16)]
pub enum ColorCalc {
    /// The pixel replaces what is there.
    Replace = 0,
    /// The average of the pixel and what is there.
    HalfTransparent = 3,
    /// The pixel plus the gouraud colour interpolated from the corners (channel - 16).
    Gouraud = 4,
    /// Gouraud, then half transparent.
    GouraudHalfTransparent = 7,
}

impl ColorCalc {
    /// The calculation for a polygon with or without gouraud and half transparency.
    pub const fn of(gouraud: bool, half_transparent: bool) -> Self {
        match (gouraud, half_transparent) {
            (false, false) => Self::Replace,
            (false, true) => Self::HalfTransparent,
            (true, false) => Self::Gouraud,
            (true, true) => Self::GouraudHalfTransparent,
        }
    }
}

/// `CMDPMOD`: how a polygon or sprite is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawMode(pub u16);

impl DrawMode {
    /// Bit 8: mesh (screen doors), every other pixel.
    pub const MESH: u16 = 1 << 8;
    /// Bit 7: end codes disabled (set unless the material asks for end codes).
    pub const END_CODES_DISABLED: u16 = 1 << 7;
    /// Bit 6: transparent pixels disabled (colour 0 drawn).
    pub const TRANSPARENT_DISABLED: u16 = 1 << 6;
    /// Bit 10: clipped to the user clipping rectangle.
    pub const USER_CLIP: u16 = 1 << 10;

    /// A draw mode: colour mode, colour calculation, mesh and end codes.
    pub const fn new(color: ColorMode, calc: ColorCalc, mesh: bool, end_codes: bool) -> Self {
        let mut bits = color as u16 | calc as u16;
        if mesh {
            bits |= Self::MESH;
        }
        if !end_codes {
            bits |= Self::END_CODES_DISABLED;
        }
        Self(bits)
    }

    /// The colour calculation bits.
    pub const fn color_calc(self) -> u16 {
        self.0 & 7
    }

    /// The colour mode bits (0 to 7).
    pub const fn color_mode(self) -> u16 {
        (self.0 >> 3) & 7
    }
}

/// What a distorted sprite draws: a texture in VRAM.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sprite {
    /// The texture's VRAM address (a multiple of 8).
    pub address: u32,
    /// Width in pixels (a multiple of 8).
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// The lookup table's VRAM address for a 16-colour texture, `None` for RGB555.
    pub lut: Option<u32>,
}

impl CommandTable {
    /// All fields 0 (a normal sprite at the origin, with nothing to draw).
    pub const EMPTY: Self = Self::zero();

    /// The table as eight 32-bit words, as in memory (two fields a word).
    #[inline(always)]
    pub(crate) fn as_words(&self) -> &[u32; 8] {
        // SAFETY: `#[repr(C, align(4))]`, 32 bytes of integer fields with no padding
        // (asserted above): aligned, initialised, and any value is valid either way.
        unsafe { &*(self as *const Self).cast::<[u32; 8]>() }
    }

    /// [`as_words`](Self::as_words), to write.
    #[inline(always)]
    pub(crate) fn as_words_mut(&mut self) -> &mut [u32; 8] {
        // SAFETY: as in `as_words`.
        unsafe { &mut *(self as *mut Self).cast::<[u32; 8]>() }
    }

    /// Becomes a copy of `other`, word by word: a table assigned whole is library calls
    /// on the SH-2 (four a table, Mednafen: some 180 cycles).
    #[inline(always)]
    pub(crate) fn copy_words_from(&mut self, other: &Self) {
        for (word, from) in self.as_words_mut().iter_mut().zip(other.as_words()) {
            *word = *from;
        }
    }

    /// The end of the command list.
    pub const fn end() -> Self {
        let mut table = Self::zero();
        table.ctrl = CTRL_END;
        table
    }

    const fn zero() -> Self {
        Self {
            ctrl: 0,
            link: 0,
            pmod: 0,
            colr: 0,
            srca: 0,
            size: 0,
            vertices: [0; 8],
            grda: 0,
            reserved: 0,
        }
    }

    /// The system clipping rectangle: from (0, 0) to `lower_right` (inclusive).
    pub const fn system_clip(lower_right: Point) -> Self {
        let mut table = Self::zero();
        table.ctrl = Command::SystemClip as u16;
        table.vertices[4] = lower_right.x;
        table.vertices[5] = lower_right.y;
        table
    }

    /// The user clipping rectangle, inclusive.
    pub const fn user_clip(upper_left: Point, lower_right: Point) -> Self {
        let mut table = Self::zero();
        table.ctrl = Command::UserClip as u16;
        table.vertices[0] = upper_left.x;
        table.vertices[1] = upper_left.y;
        table.vertices[4] = lower_right.x;
        table.vertices[5] = lower_right.y;
        table
    }

    /// The local origin: every later vertex is relative to it.
    pub const fn local_coordinates(origin: Point) -> Self {
        let mut table = Self::zero();
        table.ctrl = Command::LocalCoordinates as u16;
        table.vertices[0] = origin.x;
        table.vertices[1] = origin.y;
        table
    }

    /// A flat (or gouraud) polygon of an RGB555 colour.
    pub fn polygon(color: u16, corners: [Point; 4], mode: DrawMode) -> Self {
        let mut table = Self::zero();
        table.ctrl = Command::Polygon as u16;
        table.pmod = mode.0;
        table.colr = color;
        table.set_corners(corners);
        table
    }

    /// A distorted sprite: `sprite` mapped from edge A-B to edge D-C, flipped as `flip`
    /// says ([`CTRL_FLIP_H`], [`CTRL_FLIP_V`]).
    pub fn distorted_sprite(
        sprite: &Sprite,
        corners: [Point; 4],
        mode: DrawMode,
        flip: u16,
    ) -> Self {
        let mut table = Self::zero();
        table.ctrl = Command::DistortedSprite as u16 | (flip & (CTRL_FLIP_H | CTRL_FLIP_V));
        table.pmod = mode.0;
        table.colr = sprite.lut.map_or(0, |lut| (lut >> 3) as u16);
        table.srca = (sprite.address >> 3) as u16;
        table.size = ((sprite.width >> 3) << 8) | (sprite.height & 0xFF);
        table.set_corners(corners);
        table
    }

    /// A scaled sprite: `sprite` drawn as a rectangle `size` (display width and height:
    /// `size.x + 1` by `size.y + 1` pixels) placed so that its `zoom` point is at `at`,
    /// flipped as `flip` says. `zoom` is not [`ZoomPoint::TwoCorners`] (see
    /// [`scaled_sprite_corners`](Self::scaled_sprite_corners) for that form).
    pub fn scaled_sprite(
        sprite: &Sprite,
        at: Point,
        size: Point,
        zoom: ZoomPoint,
        mode: DrawMode,
        flip: u16,
    ) -> Self {
        let mut table = Self::sprite_of(sprite, mode, flip);
        table.ctrl |= Command::ScaledSprite as u16 | (zoom as u16) << 8;
        table.set_corners([at, size, Point::default(), Point::default()]);
        table
    }

    /// A scaled sprite of no zoom point: `sprite` stretched over the rectangle from
    /// `upper_left` to `lower_right` (inclusive), flipped as `flip` says.
    pub fn scaled_sprite_corners(
        sprite: &Sprite,
        upper_left: Point,
        lower_right: Point,
        mode: DrawMode,
        flip: u16,
    ) -> Self {
        let mut table = Self::sprite_of(sprite, mode, flip);
        table.ctrl |= Command::ScaledSprite as u16;
        table.set_corners([upper_left, Point::default(), lower_right, Point::default()]);
        table
    }

    /// A sprite's fields but its command and vertices.
    fn sprite_of(sprite: &Sprite, mode: DrawMode, flip: u16) -> Self {
        let mut table = Self::zero();
        table.ctrl = flip & (CTRL_FLIP_H | CTRL_FLIP_V);
        table.pmod = mode.0;
        table.colr = sprite.lut.map_or(0, |lut| (lut >> 3) as u16);
        table.srca = (sprite.address >> 3) as u16;
        table.size = ((sprite.width >> 3) << 8) | (sprite.height & 0xFF);
        table
    }

    /// Uses the gouraud table at VRAM address `address` (a multiple of 8).
    pub fn with_gouraud(mut self, address: u32) -> Self {
        self.grda = (address >> 3) as u16;
        self
    }

    fn set_corners(&mut self, corners: [Point; 4]) {
        for (i, corner) in corners.iter().enumerate() {
            self.vertices[2 * i] = corner.x;
            self.vertices[2 * i + 1] = corner.y;
        }
    }

    /// The corners A, B, C, D.
    pub fn corners(&self) -> [Point; 4] {
        core::array::from_fn(|i| Point::new(self.vertices[2 * i], self.vertices[2 * i + 1]))
    }

    /// The 32 bytes as the VDP1 reads them (big endian).
    pub fn to_be_bytes(&self) -> [u8; 32] {
        let words = self.words();
        let mut bytes = [0; 32];
        for (chunk, word) in bytes.chunks_exact_mut(2).zip(words) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        bytes
    }

    /// The table from the 32 bytes the VDP1 reads.
    pub fn from_be_bytes(bytes: &[u8; 32]) -> Self {
        let word = |i: usize| u16::from_be_bytes([bytes[2 * i], bytes[2 * i + 1]]);
        Self {
            ctrl: word(0),
            link: word(1),
            pmod: word(2),
            colr: word(3),
            srca: word(4),
            size: word(5),
            vertices: core::array::from_fn(|i| word(6 + i) as i16),
            grda: word(14),
            reserved: word(15),
        }
    }

    fn words(&self) -> [u16; 16] {
        let v = self.vertices.map(|c| c as u16);
        [
            self.ctrl,
            self.link,
            self.pmod,
            self.colr,
            self.srca,
            self.size,
            v[0],
            v[1],
            v[2],
            v[3],
            v[4],
            v[5],
            v[6],
            v[7],
            self.grda,
            self.reserved,
        ]
    }
}

/// A gouraud table: the colours (RGB555, channel 16 = unchanged) of corners A, B, C, D.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct GouraudTable(pub [u16; 4]);

const _: () = assert!(size_of::<GouraudTable>() == 8);

impl GouraudTable {
    /// Every corner at channel 16 times `light` / 16: 16 leaves the texture as it is.
    pub const fn uniform(level: u16) -> Self {
        let c = if level > 31 { 31 } else { level };
        let color = 0x8000 | c << 10 | c << 5 | c;
        Self([color; 4])
    }
}
