//! A software VDP1 (host only). It reads a command list from a VRAM image, as the VDP1
//! does, and draws it into an RGB555 frame buffer following the VDP1's rules: polygons,
//! distorted sprites and scaled sprites (placed by their zoom point as the VDP1 places
//! them) drawn as lines from edge A-D to edge B-C (the texture from edge A-B to edge
//! D-C), transparent pixel 0, end codes, 16-colour lookup tables, flips,
//! gouraud shading (channel - 16 added), half transparency, mesh, and system and user
//! clipping. It lets every frame the engine emits be looked at and tested on the host.
//! As strict as a console: it draws no list that breaks a rule of the VDP1 manual
//! (`jom::vdp1::check_list`), and reads a lookup table where the VDP1 does.

pub mod preview;

use jom::vdp1::{
    check_list, next_command, pixel4, CommandTable, DrawMode, Point, RuleBreak, ZoomPoint,
    CTRL_END, CTRL_FLIP_H, CTRL_FLIP_V,
};

/// The largest number of tables read from one list (a list that loops stops there).
const MAX_COMMANDS: usize = 16_384;
const END_CODE_RGB: u16 = 0x7FFF;
const END_CODE_LUT: u16 = 0xF;
/// The skip bit of the jump mode (`CMDCTRL` bit 14), as the three bits read: the command
/// is not drawn, only its jump followed (`jom::vdp1::next_command`).
const JUMP_SKIP: u16 = 4;

/// An RGB555 frame buffer: 0 is a pixel nothing was drawn on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameBuffer {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixels, row by row.
    pub pixels: Vec<u16>,
}

impl FrameBuffer {
    /// A cleared frame buffer.
    pub fn new(width: usize, height: usize) -> Self {
        Self {
            width,
            height,
            pixels: vec![0; width * height],
        }
    }

    /// The pixel at (x, y).
    pub fn get(&self, x: usize, y: usize) -> u16 {
        self.pixels[y * self.width + x]
    }

    /// The pixels as 8-bit RGB (a channel c becomes c << 3 | c >> 2), for PNG files.
    pub fn to_rgb8(&self) -> Vec<u8> {
        self.pixels
            .iter()
            .flat_map(|&p| {
                let channel = |shift: u16| {
                    let c = ((p >> shift) & 31) as u8;
                    c << 3 | c >> 2
                };
                [channel(0), channel(5), channel(10)]
            })
            .collect()
    }
}

/// Clipping state and the local origin, set by the list's commands.
#[derive(Clone, Copy, Debug)]
struct State {
    system: (i32, i32),
    user: (i32, i32, i32, i32),
    origin: (i32, i32),
}

/// Draws the command list that starts at `list` (a VRAM byte address) into `frame`,
/// following each command's jump mode (`CMDCTRL` bits 12-14) as the VDP1 does: next,
/// assign (jump to `CMDLINK`), call (jump, the next command kept for a return: one level)
/// and return; with bit 14 set the command itself is skipped. Returns the number of
/// commands read, or, drawing nothing, the first rule of the VDP1 manual the list breaks
/// (VRAM past the end of `vram` reads as 0).
pub fn draw_list(vram: &[u8], list: u32, frame: &mut FrameBuffer) -> Result<usize, RuleBreak> {
    let word = |address: u32| {
        let at = address as usize;
        vram.get(at..at + 2)
            .map_or(0, |pair| u16::from_be_bytes([pair[0], pair[1]]))
    };
    check_list(word, list)?;
    Ok(draw_checked(vram, list, frame))
}

/// [`draw_list`] of a list that keeps the rules.
fn draw_checked(vram: &[u8], list: u32, frame: &mut FrameBuffer) -> usize {
    let mut state = State {
        system: (frame.width as i32 - 1, frame.height as i32 - 1),
        user: (0, 0, frame.width as i32 - 1, frame.height as i32 - 1),
        origin: (0, 0),
    };
    let mut address = list as usize;
    let mut returns = None;
    for count in 0..MAX_COMMANDS {
        let Some(bytes) = vram
            .get(address..address + 32)
            .and_then(|b| <&[u8; 32]>::try_from(b).ok())
        else {
            return count;
        };
        let table = CommandTable::from_be_bytes(bytes);
        if table.ctrl & CTRL_END != 0 {
            return count + 1;
        }
        let jump = (table.ctrl >> 12) & 7;
        if jump & JUMP_SKIP == 0 {
            execute(&table, vram, &mut state, frame);
        }
        let link = u32::from(table.link) * 8;
        address = next_command(table.ctrl, (address as u32, link), &mut returns) as usize;
    }
    MAX_COMMANDS
}

fn execute(table: &CommandTable, vram: &[u8], state: &mut State, frame: &mut FrameBuffer) {
    let v = table.vertices.map(i32::from);
    match table.ctrl & 0xF {
        0x1 => {
            let corners = scaled_corners(table);
            let texture = Some(Stepping::Endpoints);
            draw_quad(table, corners, vram, state, frame, texture)
        }
        0x2 => {
            let texture = Some(Stepping::Proportional);
            draw_quad(table, table.corners(), vram, state, frame, texture)
        }
        0x4 => draw_quad(table, table.corners(), vram, state, frame, None),
        0x8 => state.user = (v[0], v[1], v[4], v[5]),
        0x9 => state.system = (v[4], v[5]),
        0xA => state.origin = (v[0], v[1]),
        _ => {}
    }
}

/// A texture in VRAM as a distorted sprite reads it.
struct Texture<'v> {
    stepping: Stepping,
    vram: &'v [u8],
    address: usize,
    width: usize,
    height: usize,
    lut: Option<usize>,
}

impl Texture<'_> {
    fn word(&self, address: usize) -> u16 {
        self.vram
            .get(address..address + 2)
            .map_or(0, |b| u16::from_be_bytes([b[0], b[1]]))
    }

    /// The raw code at (u, v): an RGB555 value or a 4-bit index.
    fn code(&self, u: usize, v: usize) -> u16 {
        match self.lut {
            None => self.word(self.address + 2 * (v * self.width + u)),
            Some(_) => {
                let start = self.address + v * self.width / 2;
                let row = self.vram.get(start..start + self.width / 2).unwrap_or(&[]);
                u16::from(pixel4(row, u))
            }
        }
    }

    fn color(&self, code: u16) -> u16 {
        match self.lut {
            None => code,
            Some(lut) => self.word(lut + 2 * usize::from(code)),
        }
    }

    fn end_code(&self) -> u16 {
        if self.lut.is_some() {
            END_CODE_LUT
        } else {
            END_CODE_RGB
        }
    }
}

/// Where the VDP1 reads a 16-colour lookup table: `CMDCOLR` is the address / 8, but the
/// table comes from a 32-byte boundary (the VDP1 manual's colour table address; Mednafen
/// masks the two low bits, `(CMDCOLR & !3) * 8`), so a table placed off one is read from
/// the boundary below it, as a console reads it.
fn lookup_table_address(colr: u16) -> usize {
    usize::from(colr & !3) * 8
}

/// A scaled sprite's corners A, B, C, D from its zoom point (`CMDCTRL` bits 11-8) and
/// vertices, as the VDP1 places them ([`ZoomPoint::corners`]; each within -8192..8190,
/// two 13-bit fields apart at most).
fn scaled_corners(table: &CommandTable) -> [Point; 4] {
    let [a, b, c, _] = table.corners().map(|p| (i32::from(p.x), i32::from(p.y)));
    ZoomPoint::corners((table.ctrl >> 8) & 0xF, a, b, c)
        .map(|(x, y)| Point::new(x as i16, y as i16))
}

/// How a sprite's texels are spread over the pixels that draw them (across a line, and
/// over the lines).
#[derive(Clone, Copy)]
enum Stepping {
    /// Pixel `i` of `n` shows texel `i * size / n` (distorted sprites: the mapping whose
    /// pictures the golden tests hold).
    Proportional,
    /// As Mednafen steps a texture (`VileTex`: an error term from the first texel to the
    /// last): magnified, pixel `i` of `n` shows about `i * (size - 1) / (n - 1)` (the first
    /// and last pixels the first and last texels); shrunk, the texel under each pixel's
    /// centre. Scaled sprites (billboards, a texel spread over many pixels) are drawn so.
    Endpoints,
}

impl Stepping {
    /// The texel pixel `step` of `steps` shows, of `size` texels.
    fn texel(self, step: i32, steps: i32, size: usize) -> usize {
        let (i, n, size) = (i64::from(step), i64::from(steps.max(1)), size as i64);
        let texel = match self {
            Self::Proportional => i * size / n,
            Self::Endpoints => {
                let last = size - 1;
                match n <= last {
                    true => (2 * i + 1) * size / (2 * n),
                    false if n > 1 => (2 * last * i + n - 2) / (2 * (n - 1)),
                    false => 0,
                }
            }
        };
        texel as usize
    }
}

fn draw_quad(
    table: &CommandTable,
    corners: [Point; 4],
    vram: &[u8],
    state: &State,
    frame: &mut FrameBuffer,
    stepping: Option<Stepping>,
) {
    let mode = DrawMode(table.pmod);
    let texture = stepping.map(|stepping| Texture {
        stepping,
        vram,
        address: usize::from(table.srca) * 8,
        width: usize::from((table.size >> 8) & 0x3F) * 8,
        height: usize::from(table.size & 0xFF),
        lut: (mode.color_mode() == 1).then_some(lookup_table_address(table.colr)),
    });
    if texture
        .as_ref()
        .is_some_and(|t| t.width == 0 || t.height == 0)
    {
        return;
    }
    let corners: [(i32, i32); 4] = corners.map(|p| {
        (
            i32::from(p.x) + state.origin.0,
            i32::from(p.y) + state.origin.1,
        )
    });
    let gouraud = matches!(mode.color_calc(), 4 | 7).then(|| {
        let base = usize::from(table.grda) * 8;
        core::array::from_fn::<[i32; 3], 4, _>(|i| {
            let c = vram
                .get(base + 2 * i..base + 2 * i + 2)
                .map_or(0, |b| u16::from_be_bytes([b[0], b[1]]));
            [0, 5, 10].map(|s| i32::from((c >> s) & 31))
        })
    });
    let [a, b, c, d] = corners;
    // The VDP1 draws as many lines as the longer of the edges A-D and B-C has pixels.
    let lines = chebyshev(a, d).max(chebyshev(b, c)) + 1;
    for line in 0..lines {
        let t = fraction(line, lines);
        let left = lerp_point(a, d, t);
        let right = lerp_point(b, c, t);
        let (g_left, g_right) = match &gouraud {
            Some(g) => (lerp3(g[0], g[3], t), lerp3(g[1], g[2], t)),
            None => ([16; 3], [16; 3]),
        };
        let v = texture.as_ref().map_or(0, |tex| {
            flip_index(
                tex.stepping.texel(line, lines, tex.height),
                tex.height,
                table.ctrl & CTRL_FLIP_V != 0,
            )
        });
        draw_line(
            table,
            mode,
            state,
            frame,
            texture.as_ref(),
            (left, right),
            (g_left, g_right),
            v,
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_line(
    table: &CommandTable,
    mode: DrawMode,
    state: &State,
    frame: &mut FrameBuffer,
    texture: Option<&Texture<'_>>,
    (from, to): ((i32, i32), (i32, i32)),
    (g_from, g_to): ([i32; 3], [i32; 3]),
    v: usize,
) {
    let steps = chebyshev(from, to) + 1;
    let end_codes = mode.0 & DrawMode::END_CODES_DISABLED == 0;
    let transparent = mode.0 & DrawMode::TRANSPARENT_DISABLED == 0;
    let mut previous = from;
    for step in 0..steps {
        let t = fraction(step, steps);
        let (x, y) = lerp_point(from, to, t);
        let color = match texture {
            Some(tex) => {
                let u = flip_index(
                    tex.stepping.texel(step, steps, tex.width),
                    tex.width,
                    table.ctrl & CTRL_FLIP_H != 0,
                );
                let code = tex.code(u, v);
                if end_codes && code == tex.end_code() {
                    return;
                }
                if transparent && code == 0 {
                    previous = (x, y);
                    continue;
                }
                tex.color(code)
            }
            None => table.colr,
        };
        let color = shade(color, lerp3(g_from, g_to, t), mode);
        // The VDP1 fills the gap a diagonal step leaves, so that lines side by side
        // leave no holes.
        if x != previous.0 && y != previous.1 {
            plot(frame, state, mode, (x, previous.1), color);
        }
        plot(frame, state, mode, (x, y), color);
        previous = (x, y);
    }
}

/// Gouraud: each channel plus (gouraud channel - 16), clamped.
fn shade(color: u16, gouraud: [i32; 3], mode: DrawMode) -> u16 {
    if !matches!(mode.color_calc(), 4 | 7) {
        return color;
    }
    let mut out = color & 0x8000;
    for (i, shift) in [0u16, 5, 10].into_iter().enumerate() {
        let channel = (i32::from((color >> shift) & 31) + gouraud[i] - 16).clamp(0, 31) as u16;
        out |= channel << shift;
    }
    out
}

fn plot(frame: &mut FrameBuffer, state: &State, mode: DrawMode, (x, y): (i32, i32), color: u16) {
    let (sx, sy) = state.system;
    if x < 0 || y < 0 || x > sx || y > sy || x >= frame.width as i32 || y >= frame.height as i32 {
        return;
    }
    if mode.0 & DrawMode::USER_CLIP != 0 {
        let (x0, y0, x1, y1) = state.user;
        if x < x0 || y < y0 || x > x1 || y > y1 {
            return;
        }
    }
    if mode.0 & DrawMode::MESH != 0 && (x + y) % 2 != 0 {
        return;
    }
    let pixel = &mut frame.pixels[y as usize * frame.width + x as usize];
    *pixel = match mode.color_calc() {
        // Half transparency mixes only with RGB pixels already drawn (bit 15 set).
        3 | 7 if *pixel & 0x8000 != 0 => {
            0x8000 | (((*pixel & 0x7BDE) >> 1) + ((color & 0x7BDE) >> 1))
        }
        _ => color,
    };
}

fn chebyshev(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// step / (count - 1) in 1/65536, 0 for a single step.
fn fraction(step: i32, count: i32) -> i64 {
    if count <= 1 {
        0
    } else {
        (i64::from(step) << 16) / i64::from(count - 1)
    }
}

fn lerp(a: i32, b: i32, t: i64) -> i32 {
    a + ((i64::from(b - a) * t + (1 << 15)) >> 16) as i32
}

fn lerp_point(a: (i32, i32), b: (i32, i32), t: i64) -> (i32, i32) {
    (lerp(a.0, b.0, t), lerp(a.1, b.1, t))
}

fn lerp3(a: [i32; 3], b: [i32; 3], t: i64) -> [i32; 3] {
    core::array::from_fn(|i| lerp(a[i], b[i], t))
}

fn flip_index(index: usize, size: usize, flip: bool) -> usize {
    let index = index.min(size - 1);
    if flip {
        size - 1 - index
    } else {
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table off a 32-byte boundary (which `draw_list` refuses) is read as the VDP1 reads
    /// it, from the boundary below.
    #[test]
    fn lookup_tables_are_read_from_32_byte_boundaries() {
        assert_eq!(lookup_table_address(0x200), 0x1000);
        assert_eq!(lookup_table_address(0x201), 0x1000);
        assert_eq!(lookup_table_address(0x203), 0x1000);
        assert_eq!(lookup_table_address(0x204), 0x1020);
    }
}
