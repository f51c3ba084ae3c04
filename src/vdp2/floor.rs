//! The endless floor and the sky, matched to the polygons' camera: what the VDP2 needs each
//! frame so that the rotating background RBG0 shows a textured plane `y = height` exactly
//! where the renderer's [`Camera`] would project it, and the back screen shows a sky whose
//! horizon is the floor's.
//!
//! # The maths
//!
//! The VDP2 maps screen pixel `(H, V)` to a point `(X, Y)` of its plane by the rotation
//! parameter table (VDP2 User's Manual, chapter 6 "Rotation Scroll Screen"; the same
//! formulas as Mednafen's `vdp2.cpp` computes them):
//!
//! ```text
//! Xs = Xst + ΔXst V + ΔX H     Ys = Yst + ΔYst V + ΔY H     Zs = Zst
//! X  = kx (A (Xs - Px) + B (Ys - Py) + C (Zs - Pz)) + A (Px - Cx) + B (Py - Cy) + C (Pz - Cz) + Cx + Mx
//! Y  = ky (D (Xs - Px) + E (Ys - Py) + F (Zs - Pz)) + D (Px - Cx) + E (Py - Cy) + F (Pz - Cz) + Cy + My
//! ```
//!
//! The renderer's camera sees the pixel `(H, V)` along the camera-space ray
//! `d = (H - cx, V - cy, f)` (`cx`, `cy` the screen's centre, the VDP1's local origin; `f`
//! the focal length), world-space `R d` for `R` the camera's rotation. That ray meets the
//! floor at `E + t R d`, `t = (height - E.y) / (R d).y`, for `E` the camera's position.
//! So, with `Xs = H`, `Ys = V`, `Zs = f`, `P = C = (cx, cy, 0)`:
//!
//! - `A B C` is the first row of `R`, `D E F` its third (world X and Z of the ray);
//! - `Mx`, `My` are the camera's X and Z in texels (minus `cx`, `cy`), modulo the plane's
//!   512 texels (it repeats: the floor is endless);
//! - `kx = ky = t / texel`: the same for a whole line when the camera does not roll
//!   (`(R d).y` then does not depend on `H`), so a per-line coefficient table holds it
//!   (`KAst`, `ΔKAst` one coefficient a line). A line whose ray does not meet the floor
//!   (the sky), or meets it farther than the camera's `far` or at more than the VDP2's
//!   largest coefficient (128), has a coefficient with its top bit set: RBG0 is
//!   transparent there and the back screen shows.
//!
//! The back screen, in its one-colour-a-line mode, is the sky: the horizon's colour where
//! the ray goes down (behind the floor's far edge: a fog line for free), blending to the
//! zenith's as the ray rises. A Saturn developer expects this rather than a second plane:
//! the back screen costs no VRAM access cycles and no layer, and its table is as cheap to
//! recompute as the coefficients; a textured sky (clouds) would be NBG1 or RBG1 and cost
//! the banks RBG0 already uses.
//!
//! The camera must not roll (`rotation[2] == 0`, [`FloorError::Roll`]): with a roll, `t`
//! changes along a line and per-dot coefficients would be needed.
//!
//! # Example
//!
//! What the VDP2 shows for a camera 2 units above the floor, looking ahead: the sky above
//! the centre line, the floor's texel below it. On the Saturn, `hw::floor::FloorPlane`
//! writes the same frame each time the game calls `follow` (`docs/vdp2.md`).
//!
//! ```
//! use jom::math::{Angle, ONE};
//! use jom::render::Camera;
//! use jom::vdp2::floor::{Buffer, TRANSPARENT};
//! use jom::vdp2::{Floor, FloorFrame, FloorTiles, Sky};
//!
//! # let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/floor.bin"));
//! // `jomc plane demo/assets/floor.png -o tests/fixtures/floor.bin` (`make fixtures`)
//! let tiles = FloorTiles::from_bytes(bytes)?;
//! let sky = Sky { zenith: 0x7C00, horizon: 0x7FFF };
//! let floor = Floor::new(0, ONE / 8, sky)?;
//! let camera = Camera { position: [0, -2 * ONE, 0], ..Camera::default() };
//! let mut frame = FloorFrame::default();
//! floor.frame_into(&camera, Buffer(0), &mut frame)?;
//! assert_eq!(frame.coefficients[100], TRANSPARENT); // above the horizon (line 112)
//! assert_eq!(frame.color(&tiles, 160, 100), frame.sky[100]);
//! // 24 lines below the centre the floor is 16 units ahead: 128 texels of 1/8 (in 10
//! // fraction bits; a hair less, the coefficient rounded down: texel 127 shows).
//! let [x, z] = frame.table.sample(frame.coefficients[136], 160, 136).unwrap();
//! assert_eq!(x, 0);
//! assert!((128 << 10) - z < 16);
//! assert_eq!(frame.color(&tiles, 160, 136), tiles.texel(0, 127));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```

use crate::math::{div_64_32, Matrix, ONE};
use crate::render::limits::camera_view;
use crate::render::{Camera, DrawError};
use crate::vdp2::{layout, FloorTiles, Vdp2Memory};
use core::fmt;
use core::mem::{offset_of, size_of};

/// Lines of a frame's per-line tables: the VDP2's tallest screen (PAL's 256 lines).
pub const LINES: usize = 256;
/// Texels across the plane RBG0 shows, in each direction: one page of 64 x 64 cells of 8
/// pixels, which every one of the 16 planes of the map shows, so the floor repeats every
/// 512 texels.
pub const PLANE_TEXELS: u32 = 512;
/// The longest focal length the table holds (`Zst`, 12 integer bits).
pub const MAX_FOCAL_LENGTH: i32 = 4095;
/// The smallest texel, in world units (Q16.16): 1/256 of a unit.
pub const MIN_TEXEL: i32 = ONE / 256;
/// The largest texel: 256 units.
pub const MAX_TEXEL: i32 = 256 * ONE;
/// The largest coefficient the VDP2 takes (signed 7.16 bits), raw.
const MAX_COEFFICIENT: i64 = 0x7F_FFFF;
/// A coefficient's top bit: the pixel is transparent.
pub const TRANSPARENT: u32 = 1 << 31;

/// A rotation parameter table (parameter A) as the VDP2 reads it from VRAM: the fields at
/// the manual's offsets, each in its fixed-point format (the comments: sign, integer and
/// fraction bits, where they sit). Made by [`Floor::frame_into`].
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RotationTable {
    /// Screen start X, Y, Z: 1.12.10 in bits 28-6.
    pub xst: u32,
    /// Screen start Y.
    pub yst: u32,
    /// Screen start Z.
    pub zst: u32,
    /// X, Y increments of the start per line (ΔXst, ΔYst): 1.2.10 in bits 18-6.
    pub dxst: u32,
    /// ΔYst.
    pub dyst: u32,
    /// X, Y increments per pixel (ΔX, ΔY): 1.2.10 in bits 18-6.
    pub dx: u32,
    /// ΔY.
    pub dy: u32,
    /// The matrix A to F: 1.3.10 in bits 19-6.
    pub matrix: [u32; 6],
    /// The viewpoint Px, Py, Pz: 1.13 integers in bits 13-0.
    pub viewpoint: [u16; 3],
    _reserved_3a: u16,
    /// The centre of rotation Cx, Cy, Cz: 1.13 in bits 13-0.
    pub center: [u16; 3],
    _reserved_42: u16,
    /// The moves Mx, My: 1.13.10 in bits 29-6.
    pub mx: u32,
    /// My.
    pub my: u32,
    /// The scaling coefficients kx, ky: 1.7.16 in bits 23-0 (replaced by the coefficient
    /// table's when it is on, as here).
    pub kx: u32,
    /// ky.
    pub ky: u32,
    /// The coefficient table's start (KAst): 16.10 in bits 31-6, in coefficients.
    pub kast: u32,
    /// Its increment per line (ΔKAst): 1.9.10 in bits 25-6.
    pub dkast: u32,
    /// Its increment per pixel (ΔKAx): 1.9.10 in bits 25-6.
    pub dkax: u32,
}

const _: () = assert!(size_of::<RotationTable>() == 0x60);
const _: () = assert!(offset_of!(RotationTable, yst) == 0x04);
const _: () = assert!(offset_of!(RotationTable, zst) == 0x08);
const _: () = assert!(offset_of!(RotationTable, dxst) == 0x0C);
const _: () = assert!(offset_of!(RotationTable, dyst) == 0x10);
const _: () = assert!(offset_of!(RotationTable, dx) == 0x14);
const _: () = assert!(offset_of!(RotationTable, dy) == 0x18);
const _: () = assert!(offset_of!(RotationTable, matrix) == 0x1C);
const _: () = assert!(offset_of!(RotationTable, viewpoint) == 0x34);
const _: () = assert!(offset_of!(RotationTable, center) == 0x3C);
const _: () = assert!(offset_of!(RotationTable, mx) == 0x44);
const _: () = assert!(offset_of!(RotationTable, my) == 0x48);
const _: () = assert!(offset_of!(RotationTable, kx) == 0x4C);
const _: () = assert!(offset_of!(RotationTable, ky) == 0x50);
const _: () = assert!(offset_of!(RotationTable, kast) == 0x54);
const _: () = assert!(offset_of!(RotationTable, dkast) == 0x58);
const _: () = assert!(offset_of!(RotationTable, dkax) == 0x5C);

/// Words of a table.
pub const TABLE_WORDS: usize = size_of::<RotationTable>() / 2;

/// `value` (a signed fixed-point number already in the field's unit) in `bits` bits,
/// two's complement, moved up by `shift`.
const fn field(value: i64, bits: u32, shift: u32) -> u32 {
    ((value as u32) & ((1 << bits) - 1)) << shift
}

/// The signed value of the `bits`-bit field of `word` that starts at bit `shift`.
const fn signed(word: u32, bits: u32, shift: u32) -> i64 {
    let raw = (word >> shift) & ((1 << bits) - 1);
    ((raw << (32 - bits)) as i32 >> (32 - bits)) as i64
}

/// A Q16.16 value in 10 fraction bits, rounded.
const fn q10(q16: i64) -> i64 {
    (q16 + 32) >> 6
}

impl RotationTable {
    /// The table as the 16-bit words the VDP2 reads, each field's at its offset.
    pub fn words(&self) -> [u16; TABLE_WORDS] {
        let mut words = [0; TABLE_WORDS];
        let mut long = |offset: usize, value: u32| {
            words[offset / 2] = (value >> 16) as u16;
            words[offset / 2 + 1] = value as u16;
        };
        long(offset_of!(Self, xst), self.xst);
        long(offset_of!(Self, yst), self.yst);
        long(offset_of!(Self, zst), self.zst);
        long(offset_of!(Self, dxst), self.dxst);
        long(offset_of!(Self, dyst), self.dyst);
        long(offset_of!(Self, dx), self.dx);
        long(offset_of!(Self, dy), self.dy);
        for (i, m) in self.matrix.iter().enumerate() {
            long(offset_of!(Self, matrix) + 4 * i, *m);
        }
        long(offset_of!(Self, mx), self.mx);
        long(offset_of!(Self, my), self.my);
        long(offset_of!(Self, kx), self.kx);
        long(offset_of!(Self, ky), self.ky);
        long(offset_of!(Self, kast), self.kast);
        long(offset_of!(Self, dkast), self.dkast);
        long(offset_of!(Self, dkax), self.dkax);
        for i in 0..3 {
            words[offset_of!(Self, viewpoint) / 2 + i] = self.viewpoint[i];
            words[offset_of!(Self, center) / 2 + i] = self.center[i];
        }
        words
    }

    /// The coefficient the VDP2 reads for line `v` (its index from VRAM's start, in
    /// coefficients of 4 bytes), the table's `KAst` and `ΔKAst` with the coefficient table
    /// address offset `ktaof` (`KTAOF`, its bits 2-0 above `KAst`'s 16 integer bits) and
    /// `ΔKAx` 0.
    pub fn coefficient_index(&self, ktaof: u16, v: u32) -> u32 {
        let start = (u32::from(ktaof & 7) << 26).wrapping_add(self.kast >> 6);
        let step = signed(self.dkast, 20, 6) as u32;
        start.wrapping_add(step.wrapping_mul(v)) >> 10
    }

    /// The plane point the VDP2 shows at pixel `h` of line `v`, as its arithmetic computes
    /// it (the VDP2 User's Manual's formulas in the fields' own precision, as Mednafen's
    /// `vdp2.cpp` and `vdp2_render.cpp` evaluate them), with `coefficient` (the line's, in
    /// coefficient mode 0: kx and ky both) replacing kx and ky: `None` when it is
    /// transparent. The coordinates in texels with 10 fraction bits (the texel shown is
    /// the integer part), before the plane's repetition (the VDP2 takes the texel modulo
    /// [`PLANE_TEXELS`]).
    pub fn sample(&self, coefficient: u32, h: i32, v: i32) -> Option<[i64; 2]> {
        if coefficient & TRANSPARENT != 0 {
            return None;
        }
        let k = signed(coefficient, 24, 0);
        let [h, v] = [i64::from(h), i64::from(v)];
        let xs = signed(self.xst, 23, 6) + v * signed(self.dxst, 13, 6);
        let ys = signed(self.yst, 23, 6) + v * signed(self.dyst, 13, 6);
        let zs = signed(self.zst, 23, 6);
        let p = self.viewpoint.map(|c| signed(u32::from(c), 14, 0));
        let c = self.center.map(|c| signed(u32::from(c), 14, 0));
        let m = self.matrix.map(|m| signed(m, 14, 6));
        let (dx, dy) = (signed(self.dx, 13, 6), signed(self.dy, 13, 6));
        let axis = |row: &[i64], center: i64, moved: i64| {
            let start = (row[0] * (xs - p[0] * 1024)
                + row[1] * (ys - p[1] * 1024)
                + row[2] * (zs - p[2] * 1024))
                >> 10;
            let origin = row[0] * (p[0] - c[0])
                + row[1] * (p[1] - c[1])
                + row[2] * (p[2] - c[2])
                + center * 1024
                + moved;
            let step = (row[0] * dx + row[1] * dy) >> 10;
            origin + ((k * (start + step * h)) >> 16)
        };
        Some([
            axis(&m[0..3], c[0], signed(self.mx, 24, 6)),
            axis(&m[3..6], c[1], signed(self.my, 24, 6)),
        ])
    }
}

/// The sky's two colours (RGB555: red in bits 4-0, green 9-5, blue 14-10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sky {
    /// Overhead, from 45 degrees above the horizon (for a camera that does not look up or
    /// down) up.
    pub zenith: u16,
    /// At the horizon, and below it where the floor ends (past the camera's `far`).
    pub horizon: u16,
}

impl Sky {
    /// The colour a fraction `up` (Q16.16, 0 to [`ONE`]) of the way from the horizon's to
    /// the zenith's, each channel rounded down.
    pub fn at(&self, up: i32) -> u16 {
        let up = up.clamp(0, ONE);
        let mut color = 0;
        for shift in [0, 5, 10] {
            let [from, to] = [self.horizon, self.zenith].map(|c| i32::from((c >> shift) & 31));
            let channel = from + (((to - from) * up) >> 16);
            color |= (channel as u16) << shift;
        }
        color
    }
}

/// A floor: the plane `y = height` (Y is down: a camera above it has a smaller y), a
/// texel's size, the sky's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Floor {
    height: i32,
    texel: i32,
    sky: Sky,
}

/// What a frame shows of the floor and the sky: the rotation parameter table, the
/// coefficient of each line, the back screen's colour of each line ([`Floor::frame_into`]
/// makes the camera's `height` lines; those below, never shown, are left as they were).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorFrame {
    /// The rotation parameter table.
    pub table: RotationTable,
    /// Line `v`'s coefficient (`kx` and `ky`, or [`TRANSPARENT`]).
    pub coefficients: [u32; LINES],
    /// Line `v`'s back screen colour (RGB555).
    pub sky: [u16; LINES],
}

impl Default for FloorFrame {
    fn default() -> Self {
        Self {
            table: RotationTable::default(),
            coefficients: [TRANSPARENT; LINES],
            sky: [0; LINES],
        }
    }
}

impl FloorFrame {
    /// The colour (RGB555) the VDP2 shows at pixel `(h, v)` behind the sprites: the
    /// floor's texel of `tiles` where RBG0 is not transparent, else the line's sky. The
    /// same arithmetic as the VDP2's ([`RotationTable::sample`]): a stand-in for a
    /// picture check of what an emulator shows.
    pub fn color(&self, tiles: &FloorTiles<'_>, h: i32, v: usize) -> u16 {
        let (Some(&coefficient), Some(&sky)) = (self.coefficients.get(v), self.sky.get(v)) else {
            return 0;
        };
        match self.table.sample(coefficient, h, v as i32) {
            Some([x, y]) => {
                let wrap = |q10: i64| ((q10 >> 10) as u32) % PLANE_TEXELS;
                tiles.texel(wrap(x), wrap(y))
            }
            None => sky,
        }
    }

    /// Writes the frame to `buffer`'s tables: the rotation parameter table, the
    /// coefficients, the sky's colours.
    pub fn write(&self, buffer: Buffer, memory: &mut impl Vdp2Memory) {
        let b = buffer.0 % layout::BUFFERS;
        for (i, word) in self.table.words().iter().enumerate() {
            memory.write_vram(layout::TABLES[b] + 2 * i as u32, *word);
        }
        for (i, coefficient) in self.coefficients.iter().enumerate() {
            let at = layout::COEFFICIENTS[b] + 4 * i as u32;
            memory.write_vram(at, (coefficient >> 16) as u16);
            memory.write_vram(at + 2, *coefficient as u16);
        }
        for (i, color) in self.sky.iter().enumerate() {
            memory.write_vram(layout::SKY[b] + 2 * i as u32, *color);
        }
    }
}

/// Why a floor or a frame of it cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloorError {
    /// The camera is outside the renderer's limits (what the renderer refuses too).
    Camera(DrawError),
    /// The camera rolls (`rotation[2]`, raw angle): the floor needs a level camera.
    Roll(i16),
    /// The camera's focal length is longer than [`MAX_FOCAL_LENGTH`] pixels.
    FocalLength(i32),
    /// A texel of this size (Q16.16) is outside [`MIN_TEXEL`]..=[`MAX_TEXEL`].
    Texel(i32),
}

impl fmt::Display for FloorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FloorError::Camera(e) => write!(f, "the floor's camera: {e}"),
            FloorError::Roll(z) => write!(
                f,
                "the floor's camera rolls (rotation[2] = {z}): the VDP2 floor needs 0"
            ),
            FloorError::FocalLength(v) => write!(
                f,
                "the floor's camera has a focal length of {v} pixels: at most {MAX_FOCAL_LENGTH}"
            ),
            FloorError::Texel(v) => write!(
                f,
                "a floor texel of {v}/65536 units: expected {MIN_TEXEL} to {MAX_TEXEL}"
            ),
        }
    }
}

impl core::error::Error for FloorError {}

/// Where a frame's tables go: which of the [`layout::BUFFERS`] buffers of [`layout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer(pub usize);

impl Buffer {
    /// `KAst` (16.10, before it is moved to bits 31-6) and `KTAOF` of this buffer's
    /// coefficient table: its index in coefficients of 4 bytes, bits 15-0 in `KAst`'s
    /// integer part, bits 18-16 in `KTAOF`.
    pub const fn coefficient_start(self) -> (u32, u16) {
        let index = layout::COEFFICIENTS[self.0 % layout::BUFFERS] / 4;
        ((index & 0xFFFF) << 10, (index >> 16) as u16)
    }
}

impl Floor {
    /// A floor at world `height` (Q16.16), `texel` world units a texel (Q16.16), under
    /// `sky`.
    pub fn new(height: i32, texel: i32, sky: Sky) -> Result<Self, FloorError> {
        if !(MIN_TEXEL..=MAX_TEXEL).contains(&texel) {
            return Err(FloorError::Texel(texel));
        }
        Ok(Self { height, texel, sky })
    }

    /// The floor's height.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// A texel's size.
    pub fn texel(&self) -> i32 {
        self.texel
    }

    /// The sky's colours.
    pub fn sky(&self) -> Sky {
        self.sky
    }

    /// The frame that shows the floor and sky as `camera` sees them, its coefficients in
    /// `buffer`'s table, into `out`.
    pub fn frame_into(
        &self,
        camera: &Camera,
        buffer: Buffer,
        out: &mut FloorFrame,
    ) -> Result<(), FloorError> {
        camera_view(camera).map_err(FloorError::Camera)?;
        if camera.rotation[2].0 != 0 {
            return Err(FloorError::Roll(camera.rotation[2].0));
        }
        if camera.focal_length > MAX_FOCAL_LENGTH {
            return Err(FloorError::FocalLength(camera.focal_length));
        }
        let rotation = Matrix::rotation_xyz(camera.rotation).0;
        out.table = self.table(camera, &rotation, buffer);
        self.lines(camera, &rotation, out);
        Ok(())
    }

    /// The rotation parameter table of `camera` (of rotation `r`), see the module's maths.
    fn table(&self, camera: &Camera, r: &[[i32; 4]; 3], buffer: Buffer) -> RotationTable {
        let (cx, cy) = (i64::from(camera.width / 2), i64::from(camera.height / 2));
        let one = 1 << 10;
        let texels = |world: i32| {
            let q16 = (i64::from(world) << 16) / i64::from(self.texel);
            q16.rem_euclid(i64::from(PLANE_TEXELS) << 16) >> 6
        };
        let [x, _, z] = camera.position;
        let entry = |row: usize, column: usize| field(q10(i64::from(r[row][column])), 14, 6);
        let (kast, _) = buffer.coefficient_start();
        RotationTable {
            xst: 0,
            yst: 0,
            zst: field(i64::from(camera.focal_length) * one, 23, 6),
            dxst: 0,
            dyst: field(one, 13, 6),
            dx: field(one, 13, 6),
            dy: 0,
            matrix: [
                entry(0, 0),
                entry(0, 1),
                entry(0, 2),
                entry(2, 0),
                entry(2, 1),
                entry(2, 2),
            ],
            viewpoint: [cx as u16, cy as u16, 0],
            _reserved_3a: 0,
            center: [cx as u16, cy as u16, 0],
            _reserved_42: 0,
            mx: field(texels(x) - cx * one, 24, 6),
            my: field(texels(z) - cy * one, 24, 6),
            kx: field(1 << 16, 24, 0),
            ky: field(1 << 16, 24, 0),
            kast: kast << 6,
            dkast: field(one, 20, 6),
            dkax: 0,
        }
    }

    /// Each line's coefficient and sky colour for `camera` (of rotation `r`).
    fn lines(&self, camera: &Camera, r: &[[i32; 4]; 3], out: &mut FloorFrame) {
        let focal = camera.focal_length;
        let cy = i32::from(camera.height / 2);
        // The floor below (or above) the eye, in texels (Q16.16): within 2^40 for heights
        // within 2^32 raw and texels of at least 2^-8.
        let drop = ((i64::from(self.height) - i64::from(camera.position[1])) << 16)
            / i64::from(self.texel);
        // The camera-space depth of the floor at coefficient k is k x texel x focal: past
        // `far` the floor is not drawn, as the polygons are not. Below 2^23.
        let far = (i64::from(camera.far) << 16) / (i64::from(self.texel) * i64::from(focal));
        let limit = far.min(MAX_COEFFICIENT) as i32;
        let numerator = drop << 16;
        // Per line only 32-bit sums and 32 x 32-bit products (`dmuls.l`) and the division
        // unit: a 64-bit product or division is a library call of hundreds to thousands of
        // cycles on the SH-2, 256 times a frame. Only the lines on screen: the VDP2 reads
        // no others (224 of 256 took 39,168 cycles, not 43,008: `make bench`, Mednafen).
        let shown = usize::from(camera.height);
        let lines = out.coefficients.iter_mut().zip(&mut out.sky).take(shown);
        for (v, (coefficient, sky)) in lines.enumerate() {
            // The ray's world Y per unit of camera depth x focal (Q16.16): |r| <= 2^16,
            // |v - cy| < 2^11, focal < 2^12, so below 2^29.
            let rise = r[1][1] * (v as i32 - cy) + r[1][2] * focal;
            let toward_floor = rise != 0 && drop != 0 && (rise > 0) == (drop > 0);
            let within = numerator.abs() <= i64::from(limit) * i64::from(rise.abs());
            *coefficient = match toward_floor && within {
                // Below 2^23 by the test above: the division unit's quotient fits.
                true => div_64_32(numerator, rise) as u32,
                false => TRANSPARENT,
            };
            *sky = match toward_floor {
                true => self.sky.horizon,
                false => self.sky.at(div_64_32(i64::from(rise.abs()), focal)),
            };
        }
    }
}

/// Which floor the VDP2 shows in which field, so that it shows each camera's floor in the
/// very fields the VDP1's frame buffer shows that camera's polygons.
///
/// The VDP1 (1-cycle mode) changes frame at each VBlank's end: it shows what it drew in
/// the field before and draws the list the renderer committed last. So a list committed
/// during a field's display is drawn in the next field and shown in the one after; one
/// committed during a VBlank, before its frame change, is drawn in the field that VBlank
/// opens and shown in the next. Counting VBlank-INs (`fields`, the interrupt's count,
/// `hw::vblank::fields`), a frame committed when `fields` is `n` is shown from the field
/// that starts after VBlank-IN `n + 2` (committed in the display) or `n + 1` (in the
/// VBlank): the renderer's commit records which (`hw::vdp1::FlipMoment::shows_after`).
/// Its floor is due then, and the interrupt at that VBlank-IN switches the VDP2 to it
/// (register writes in the VBlank take effect from the next field's first line).
/// `follow`, called after the frame's `finish`, writes the camera's floor to a buffer
/// neither on screen nor due, and enters it with its field.
///
/// Two entries are kept: the one shown (or about to be) and the next; at most one frame is
/// waiting at a time (the renderer commits once a frame change). Four buffers make a free
/// one certain: the one on screen, the two entries', one to write. Each entry is one
/// 32-bit word ([`FieldFloor`]) and every word has one writer (the entries `follow`,
/// `fields` and `shown` the interrupt), so that either sees the other's words whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldFloors {
    /// The floors entered ([`FieldFloor::NONE`] until the first `follow`s).
    pub entries: [FieldFloor; 2],
    /// The buffer the VDP2 shows.
    pub shown: Buffer,
    /// VBlank-INs counted.
    pub fields: u32,
}

/// A floor and the field it is due at, as one word: the count of VBlank-INs after which
/// it shows (bits 31-8, modulo 2^24) and its buffer (bits 7-0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldFloor(pub u32);

/// The field counts an entry holds (2^24 fields: 77 hours at 60 a second; older entries
/// compare as the count wraps).
const FIELD_MASK: u32 = 0xFF_FFFF;

impl FieldFloor {
    /// No floor.
    pub const NONE: Self = Self(u32::MAX);

    /// `buffer`, due after VBlank-IN `due`.
    pub const fn new(due: u32, buffer: Buffer) -> Self {
        Self((due & FIELD_MASK) << 8 | buffer.0 as u32)
    }

    /// How many VBlank-INs ago (0: at this one) the floor became due after `fields` of
    /// them, unless it is not yet due or is [`NONE`](Self::NONE).
    pub const fn age(self, fields: u32) -> Option<u32> {
        let age = fields.wrapping_sub(self.0 >> 8) & FIELD_MASK;
        match self.0 != u32::MAX && age <= FIELD_MASK / 2 {
            true => Some(age),
            false => None,
        }
    }

    /// The floor's buffer.
    pub const fn buffer(self) -> Buffer {
        Buffer((self.0 & 0xFF) as usize)
    }
}

impl FieldFloors {
    /// `shown` on screen, no floor entered, no VBlank-IN counted.
    pub const fn new(shown: Buffer) -> Self {
        Self {
            entries: [FieldFloor::NONE; 2],
            shown,
            fields: 0,
        }
    }

    /// A buffer that is neither on screen nor an entry's: `follow` may write it while the
    /// VDP2 shows any of those.
    pub fn free_buffer(&self) -> Buffer {
        let taken = |b: usize| {
            self.shown.0 == b
                || self
                    .entries
                    .iter()
                    .any(|e| *e != FieldFloor::NONE && e.buffer().0 == b)
        };
        // Three buffers are taken at most, of four.
        Buffer((0..layout::BUFFERS).find(|&b| !taken(b)).unwrap_or(0))
    }

    /// The entry a new floor replaces: an empty one, else the one due first (the other is
    /// the newer: the one on screen from its field on, or the one waiting).
    pub fn slot_for_new(&self) -> usize {
        let key = |e: FieldFloor| match e {
            FieldFloor::NONE => None,
            e => Some(e.age(self.fields).map_or(0, |age| age + 1)),
        };
        match (key(self.entries[0]), key(self.entries[1])) {
            (None, _) => 0,
            (_, None) => 1,
            // The older is the one due longer ago (a waiting one, not yet due, is newest).
            (Some(a), Some(b)) => usize::from(b > a),
        }
    }

    /// VBlank-IN number `fields` (`hw::vblank::fields`, one more than the last): the floor
    /// to show from the next field (the entry due most recently), if it is not the one
    /// shown; `shown` follows.
    pub fn vblank_in(&mut self, fields: u32) -> Option<Buffer> {
        self.fields = fields;
        let due = self
            .entries
            .iter()
            .filter_map(|e| Some((e.age(fields)?, e.buffer())))
            .min_by_key(|&(age, _)| age)?;
        (due.1 != self.shown).then(|| {
            self.shown = due.1;
            due.1
        })
    }
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
