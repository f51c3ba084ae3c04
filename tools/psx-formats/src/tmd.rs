//! TMD, the PlayStation's 3D model (Sony, File Formats, "TMD: Modeling Data"): a header,
//! a table of objects, and for each object its vertices, normals and primitives (drawing
//! packets). All offsets in the object table are relative to the table's start (byte 12).

use crate::bytes::Bytes;
use crate::vram::{ClutPosition, TexturePage};
use crate::Error;

/// The TMD file's ID word.
pub const ID: u32 = 0x41;

/// A model: its objects, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Tmd {
    pub objects: Vec<Object>,
}

/// One object of a TMD: an independent piece of geometry in its own coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// Byte offset of the object's entry in the object table.
    pub offset: usize,
    /// Positions (x, y, z) in the object's integer units.
    pub vertices: Vec<[i16; 3]>,
    /// Normals in 4.12 fixed point (4096 = 1.0).
    pub normals: Vec<[i16; 3]>,
    pub primitives: Vec<Primitive>,
    /// The object's scale word, which libgs does not use (Sony's own CUBE4T.TMD has -1 in
    /// one object and 0 in the other).
    pub scale: i32,
}

/// A drawing packet of an object.
#[derive(Clone, Debug, PartialEq)]
pub enum Primitive {
    Polygon(Polygon),
    /// A straight line (mode 010xxxxx); `offset` is its header's byte offset.
    Line {
        offset: usize,
    },
    /// A 3D sprite (mode 011xxxxx).
    Sprite {
        offset: usize,
    },
}

/// A triangle or quad primitive.
#[derive(Clone, Debug, PartialEq)]
pub struct Polygon {
    /// Byte offset of the primitive's header (olen, ilen, flag, mode).
    pub offset: usize,
    /// Option bits: bit 0 no light calculation, bit 1 double sided, bit 2 gradation.
    pub flag: u8,
    /// The GPU code: 001, then IIP (gouraud), QUAD, TME (textured), ABE
    /// (semi-transparent), TGE (texture brightness off).
    pub mode: u8,
    /// Vertex indices in the file's order V0 V1 V2 (V3). The GPU draws a quad as the
    /// triangles V0 V1 V2 and V1 V2 V3, so its outline is V0 V1 V3 V2.
    pub vertices: Vec<u16>,
    /// Normal indices: one (flat shading) or one per vertex (gouraud); none without light.
    pub normals: Vec<u16>,
    /// Colours R, G, B: one, or one per vertex (gradation, or gouraud without light); none
    /// for a lit textured polygon (the light gives its colour).
    pub colors: Vec<[u8; 3]>,
    pub texture: Option<TextureMap>,
}

/// Where a textured polygon's texels are: its texture coordinates in the texture page,
/// the page (TSB) and the colour lookup table (CBA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureMap {
    /// (u, v) in texels of the page, one per vertex, in the vertices' order.
    pub uvs: Vec<[u8; 2]>,
    pub page: TexturePage,
    pub clut: ClutPosition,
}

impl Polygon {
    /// Four vertices.
    pub fn is_quad(&self) -> bool {
        self.mode & 0x08 != 0
    }

    /// Gouraud shading (IIP).
    pub fn is_gouraud(&self) -> bool {
        self.mode & 0x10 != 0
    }

    /// Semi-transparent (ABE); the rate is the texture page's, or 50% back + 50% polygon
    /// for an untextured polygon.
    pub fn is_semi_transparent(&self) -> bool {
        self.mode & 0x02 != 0
    }

    /// Light-source calculation (flag bit 0 clear).
    pub fn is_lit(&self) -> bool {
        self.flag & 0x01 == 0
    }

    /// Drawn from both sides (flag bit 1, FCE).
    pub fn is_double_sided(&self) -> bool {
        self.flag & 0x02 != 0
    }

    /// The vertex indices in outline order: V0 V1 V2, or V0 V1 V3 V2 for a quad.
    pub fn outline(&self) -> Vec<usize> {
        let v = |i: usize| usize::from(self.vertices[i]);
        match self.vertices.len() {
            4 => vec![v(0), v(1), v(3), v(2)],
            n => (0..n).map(v).collect(),
        }
    }
}

/// The size of a polygon's packet data: which items it holds, from its mode and flag.
struct Layout {
    corners: usize,
    textured: bool,
    colors: usize,
    normals: usize,
}

impl Layout {
    fn of(mode: u8, flag: u8) -> Self {
        let corners = if mode & 0x08 != 0 { 4 } else { 3 };
        let textured = mode & 0x04 != 0;
        let gouraud = mode & 0x10 != 0;
        let lit = flag & 0x01 == 0;
        let gradation = flag & 0x04 != 0;
        let (colors, normals) = if lit {
            let colors = match (textured, gradation) {
                (true, _) => 0,
                (false, true) => corners,
                (false, false) => 1,
            };
            (colors, if gouraud { corners } else { 1 })
        } else {
            (if gouraud || gradation { corners } else { 1 }, 0)
        };
        Self {
            corners,
            textured,
            colors,
            normals,
        }
    }

    /// Words: one (u, v, CBA/TSB/pad) per corner when textured, one per colour, then the
    /// 16-bit normal and vertex indices two to a word.
    fn words(&self) -> usize {
        let uv_words = if self.textured { self.corners } else { 0 };
        uv_words + self.colors + (self.normals + self.corners).div_ceil(2)
    }

    fn describe(&self, mode: u8, flag: u8) -> String {
        format!(
            "{} {}{}{} {}",
            if flag & 0x01 == 0 { "lit" } else { "unlit" },
            if mode & 0x10 != 0 { "gouraud" } else { "flat" },
            if flag & 0x04 != 0 { " gradation" } else { "" },
            if self.textured { " textured" } else { "" },
            if self.corners == 4 {
                "quad"
            } else {
                "triangle"
            },
        )
    }
}

/// Reads a TMD file.
pub fn read(bytes: &[u8]) -> Result<Tmd, Error> {
    let file = Bytes(bytes);
    let id = file.u32(0, "TMD header")?;
    if id != ID {
        return Err(Error::at(
            0,
            format!("ID 0x{id:x}, expected 0x41 (not a TMD file)"),
        ));
    }
    let flags = file.u32(4, "TMD header")?;
    if flags & 1 != 0 {
        return Err(Error::at(
            4,
            format!(
                "flags 0x{flags:x}: FIXP is set (the object table holds memory addresses of a \
                 loaded file), expected 0 (offsets)"
            ),
        ));
    }
    let count = file.u32(8, "TMD header")? as usize;
    const TABLE: usize = 12;
    const ENTRY: usize = 28;
    let table_fits = count
        .checked_mul(ENTRY)
        .and_then(|n| n.checked_add(TABLE))
        .is_some_and(|end| end <= file.len());
    if !table_fits {
        return Err(Error::at(
            8,
            format!(
                "{count} objects need an object table of {count} x 28 bytes from byte 12, past \
                 the end of the file ({} bytes)",
                file.len()
            ),
        ));
    }
    (0..count)
        .map(|i| object(file, i, TABLE + i * ENTRY))
        .collect::<Result<_, _>>()
        .map(|objects| Tmd { objects })
}

/// An item array of the object table: its start (relative to the table) and count.
fn array(
    file: Bytes<'_>,
    entry: usize,
    field: usize,
    item_size: usize,
    what: &str,
) -> Result<(usize, usize), Error> {
    let top = file.u32(entry + field, what)? as usize;
    let count = file.u32(entry + field + 4, what)? as usize;
    let start = top + 12;
    let fits = count
        .checked_mul(item_size)
        .and_then(|size| start.checked_add(size))
        .is_some_and(|end| end <= file.len());
    if !fits {
        return Err(Error::at(
            entry + field,
            format!(
                "{what}: {count} items of {item_size} bytes from offset {top} (byte {start}) go \
                 past the end of the file ({} bytes)",
                file.len()
            ),
        ));
    }
    Ok((start, count))
}

fn object(file: Bytes<'_>, index: usize, entry: usize) -> Result<Object, Error> {
    let label = |what: &str| format!("object {index} {what}");
    let (vertex_start, vertex_count) = array(file, entry, 0, 8, &label("vertices"))?;
    let (normal_start, normal_count) = array(file, entry, 8, 8, &label("normals"))?;
    let vertices = (0..vertex_count)
        .map(|i| file.i16x3(vertex_start + 8 * i, "vertex"))
        .collect::<Result<Vec<_>, _>>()?;
    let normals = (0..normal_count)
        .map(|i| file.i16x3(normal_start + 8 * i, "normal"))
        .collect::<Result<Vec<_>, _>>()?;
    let primitive_top = file.u32(entry + 16, &label("primitives"))? as usize;
    let primitive_count = file.u32(entry + 20, &label("primitives"))? as usize;
    let scale = file.i32(entry + 24, &label("scale"))?;
    let mut at = primitive_top
        .checked_add(12)
        .ok_or_else(|| Error::at(entry + 16, label("primitives: offset out of range")))?;
    // Each packet is at least a word: a count beyond the file's words cannot be right (and
    // must not make us allocate for it).
    if primitive_count > file.len() / 4 {
        return Err(Error::at(
            entry + 20,
            format!(
                "{}: {primitive_count} primitives cannot fit in a file of {} bytes",
                label("primitives"),
                file.len()
            ),
        ));
    }
    let mut primitives = Vec::with_capacity(primitive_count);
    for p in 0..primitive_count {
        let (primitive, size) = primitive(file, at, index, p, vertex_count, normal_count)?;
        primitives.push(primitive);
        at += size;
    }
    Ok(Object {
        offset: entry,
        vertices,
        normals,
        primitives,
        scale,
    })
}

/// The primitive at `at` and its size in bytes.
fn primitive(
    file: Bytes<'_>,
    at: usize,
    object: usize,
    index: usize,
    vertex_count: usize,
    normal_count: usize,
) -> Result<(Primitive, usize), Error> {
    let what = format!("object {object} primitive {index}");
    let header = file.slice(at, 4, &what)?;
    let (ilen, flag, mode) = (usize::from(header[1]), header[2], header[3]);
    let size = 4 + 4 * ilen;
    let data = file.slice(at + 4, 4 * ilen, &format!("{what} (ilen {ilen} words)"))?;
    let primitive = match mode >> 5 {
        1 => {
            let layout = Layout::of(mode, flag);
            let expected = layout.words();
            if ilen != expected {
                return Err(Error::at(
                    at + 1,
                    format!(
                        "{what} (mode 0x{mode:02x}, flag 0x{flag:02x}: {}): ilen {ilen}, \
                         expected {expected}",
                        layout.describe(mode, flag)
                    ),
                ));
            }
            let polygon = polygon(data, at, flag, mode, &layout);
            check_indices(&polygon, &what, vertex_count, normal_count)?;
            Primitive::Polygon(polygon)
        }
        2 => Primitive::Line { offset: at },
        3 => Primitive::Sprite { offset: at },
        code => {
            return Err(Error::at(
                at + 3,
                format!(
                    "{what}: mode 0x{mode:02x} (code {code:03b}), expected a polygon (001), \
                     line (010) or sprite (011)"
                ),
            ))
        }
    };
    Ok((primitive, size))
}

/// Decodes a polygon's packet data (its length checked against `layout`).
fn polygon(data: &[u8], at: usize, flag: u8, mode: u8, layout: &Layout) -> Polygon {
    let word = |w: usize| &data[4 * w..4 * w + 4];
    let half = |w: usize, h: usize| u16::from_le_bytes([word(w)[2 * h], word(w)[2 * h + 1]]);
    let mut next = 0;
    let texture = layout.textured.then(|| {
        let uvs = (0..layout.corners)
            .map(|c| [word(c)[0], word(c)[1]])
            .collect();
        let map = TextureMap {
            uvs,
            clut: ClutPosition::from_cba(half(0, 1)),
            page: TexturePage::from_tsb(half(1, 1)),
        };
        next = layout.corners;
        map
    });
    let colors = (0..layout.colors)
        .map(|c| {
            let w = word(next + c);
            [w[0], w[1], w[2]]
        })
        .collect();
    next += layout.colors;
    let indices: Vec<u16> = (0..layout.normals + layout.corners)
        .map(|i| half(next + i / 2, i % 2))
        .collect();
    // Gouraud: N0 V0 N1 V1 ...; flat: N0 V0 V1 V2 (V3); without light: V0 V1 V2 (V3).
    let (normals, vertices) = if layout.normals == layout.corners {
        (
            indices.iter().step_by(2).copied().collect(),
            indices.iter().skip(1).step_by(2).copied().collect(),
        )
    } else {
        let (normals, vertices) = indices.split_at(layout.normals);
        (normals.to_vec(), vertices.to_vec())
    };
    Polygon {
        offset: at,
        flag,
        mode,
        vertices,
        normals,
        colors,
        texture,
    }
}

fn check_indices(
    polygon: &Polygon,
    what: &str,
    vertex_count: usize,
    normal_count: usize,
) -> Result<(), Error> {
    let bad = |kind: &str, plural: &str, index: u16, count: usize| {
        Error::at(
            polygon.offset,
            format!(
                "{what}: {kind} index {index} is out of range, expected 0 to {} (the object has \
                 {count} {plural})",
                count as i64 - 1
            ),
        )
    };
    if let Some(&v) = polygon
        .vertices
        .iter()
        .find(|&&v| usize::from(v) >= vertex_count)
    {
        return Err(bad("vertex", "vertices", v, vertex_count));
    }
    if let Some(&n) = polygon
        .normals
        .iter()
        .find(|&&n| usize::from(n) >= normal_count)
    {
        return Err(bad("normal", "normals", n, normal_count));
    }
    Ok(())
}
