//! The CMB model file: header, `skl` (bones), `mats` (materials), `tex` (textures),
//! `sklm` > `mshs` (meshes) and `shp` > `sepd` (shapes) > `prms` > `prm` (triangle lists),
//! `vatr` (vertex data) and the index buffer. `qtrs` (bounding boxes) and `luts` (lighting
//! tables) are read past. Layouts: the cloudmodding wiki's CMB page, noclip.website's
//! `oot3d/cmb.ts` and M-1's 010 Editor template `Grezzo/cmb.bt`.

use super::bytes::{FormatError, Reader};
use super::pica::TextureFormat;

/// The versions read; the header's version is also the number of chunk offsets' era:
/// 6 Ocarina of Time 3D, 10 Majora's Mask 3D, 12 Ever Oasis, 15 Luigi's Mansion 3D.
pub const VERSIONS: [u32; 4] = [6, 10, 12, 15];

/// A CMB model as stored (the file's units and axes).
#[derive(Debug, Clone)]
pub struct Cmb {
    pub version: u32,
    pub name: String,
    pub bones: Vec<Bone>,
    pub materials: Vec<Material>,
    pub textures: Vec<Texture>,
    pub meshes: Vec<Mesh>,
    pub shapes: Vec<Shape>,
}

/// One bone of `skl`: its transform relative to its parent, `T * Rz * Ry * Rx * S`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// The bone's ID (low 12 bits of the file's field); CSAB tracks name bones by index.
    pub id: u16,
    /// Index of the parent bone, always an earlier bone.
    pub parent: Option<usize>,
    pub scale: [f32; 3],
    /// Radians around X, Y, Z, applied X first.
    pub rotation: [f32; 3],
    pub translation: [f32; 3],
}

/// Which faces the 3DS does not draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Culling {
    /// Both faces culled: nothing drawn.
    Both,
    /// Front faces culled: only the back is drawn.
    Front,
    /// Back faces culled (the usual).
    Back,
    /// Nothing culled: both faces drawn.
    None,
}

/// The parts of a material that a Saturn model can keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    pub culling: Culling,
    /// The first texture unit's texture (index in [`Cmb::textures`]).
    pub texture: Option<usize>,
    /// The first texture coordinate transform: scale (s, t), rotation (in half turns, as
    /// the 3DS takes it), translation (s, t).
    pub uv_scale: [f32; 2],
    pub uv_rotation: f32,
    pub uv_translation: [f32; 2],
    /// RGBA, 0-255.
    pub diffuse: [u8; 4],
    pub ambient: [u8; 4],
    pub emission: [u8; 4],
    /// The alpha test, when enabled: a texel is drawn when its alpha compares with the
    /// reference (0-255) as the function says.
    pub alpha_test: Option<(AlphaFunction, u8)>,
    /// The blending mode is not "none".
    pub blending: bool,
}

/// The alpha test's comparison (GL's functions 0x200 to 0x207).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlphaFunction {
    Never,
    Less,
    Equal,
    LessOrEqual,
    Greater,
    NotEqual,
    GreaterOrEqual,
    Always,
}

impl AlphaFunction {
    fn from_code(code: u16) -> Option<Self> {
        Some(match code {
            0x200 => Self::Never,
            0x201 => Self::Less,
            0x202 => Self::Equal,
            0x203 => Self::LessOrEqual,
            0x204 => Self::Greater,
            0x205 => Self::NotEqual,
            0x206 => Self::GreaterOrEqual,
            0x207 => Self::Always,
            _ => return None,
        })
    }

    /// Whether a texel of `alpha` passes against `reference`.
    pub fn passes(self, alpha: u8, reference: u8) -> bool {
        match self {
            Self::Never => false,
            Self::Less => alpha < reference,
            Self::Equal => alpha == reference,
            Self::LessOrEqual => alpha <= reference,
            Self::Greater => alpha > reference,
            Self::NotEqual => alpha != reference,
            Self::GreaterOrEqual => alpha >= reference,
            Self::Always => true,
        }
    }
}

/// A texture of `tex` with the bytes of its first level.
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    pub name: String,
    pub width: u16,
    pub height: u16,
    pub format: TextureFormat,
    pub data: Vec<u8>,
}

/// A mesh: a shape drawn with a material.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mesh {
    pub shape: usize,
    pub material: usize,
}

/// How the vertices of a primitive set follow the bones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skinning {
    /// Every vertex follows the set's one bone; positions are relative to it.
    Single,
    /// Each vertex follows one bone of its own; positions are relative to it.
    Rigid,
    /// Each vertex is weighed between bones; positions are in model space.
    Smooth,
}

/// A shape (`sepd`): vertex attributes and the primitive sets drawn from them.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    pub positions: Vec<[f32; 3]>,
    pub normals: Option<Vec<[f32; 3]>>,
    /// RGBA, 1.0 = full.
    pub colors: Option<Vec<[f32; 4]>>,
    pub uvs: Option<Vec<[f32; 2]>>,
    /// Per vertex, `bones_per_vertex` indices into the primitive set's bone table.
    pub bone_indices: Option<Vec<Vec<usize>>>,
    /// Per vertex, `bones_per_vertex` weights (1.0 = all).
    pub bone_weights: Option<Vec<Vec<f32>>>,
    pub bones_per_vertex: usize,
    pub primitive_sets: Vec<PrimitiveSet>,
}

/// A `prms` chunk: its skinning, its bone table (indices in [`Cmb::bones`]) and triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct PrimitiveSet {
    pub skinning: Skinning,
    pub bone_table: Vec<usize>,
    /// Vertex indices in the shape, three per triangle.
    pub triangles: Vec<[usize; 3]>,
}

/// The versions' differences in layout.
#[derive(Clone, Copy)]
struct Layout {
    version: u32,
}

impl Layout {
    /// Majora's Mask 3D and later add `qtrs`, tangents, stencil state and bone words.
    fn after_ocarina(self) -> bool {
        self.version > 6
    }
    fn bone_size(self) -> usize {
        if self.after_ocarina() {
            0x2C
        } else {
            0x28
        }
    }
    fn material_size(self) -> usize {
        if self.after_ocarina() {
            0x16C
        } else {
            0x15C
        }
    }
    fn mesh_size(self) -> usize {
        match self.version {
            6 => 0x04,
            10 => 0x0C,
            12 => 0x10,
            _ => 0x58,
        }
    }
}

/// The chunk offsets of the header.
struct Header {
    skl: usize,
    mats: usize,
    tex: usize,
    sklm: usize,
    vatr: usize,
    indices: usize,
    index_count: usize,
    texture_data: usize,
}

/// Reads a CMB file.
pub fn parse(data: &[u8]) -> Result<Cmb, FormatError> {
    let r = Reader::new(data, "header");
    r.magic(0, b"cmb ")?;
    let version = r.u32(0x08, "the version")?;
    if !VERSIONS.contains(&version) {
        return Err(r.error(
            0x08,
            format!("unknown version {version}, expected 6, 10, 12 or 15"),
        ));
    }
    let layout = Layout { version };
    let name = r.name(0x10, 16, "the model name")?;
    let header = header(r, layout)?;
    let bones = bones(r.in_chunk("skl"), header.skl, layout)?;
    let textures = textures(r.in_chunk("tex"), header.tex, header.texture_data)?;
    let materials = materials(r.in_chunk("mats"), header.mats, layout, textures.len())?;
    let vatr = Vatr::read(r.in_chunk("vatr"), header.vatr, layout)?;
    let indices = IndexBuffer {
        start: header.indices,
        count: header.index_count,
    };
    let limits = Limits {
        bones: bones.len(),
        materials: materials.len(),
    };
    let (meshes, shapes) = sklm(r, header.sklm, layout, &vatr, &indices, limits)?;
    Ok(Cmb {
        version,
        name,
        bones,
        materials,
        textures,
        meshes,
        shapes,
    })
}

fn header(r: Reader<'_>, layout: Layout) -> Result<Header, FormatError> {
    // skl, [qtrs], mats, tex, sklm, luts, vatr, indices, texture data.
    let mut at = 0x24;
    let mut next = |what: &str| {
        let value = r.usize(at, what);
        at += 4;
        value
    };
    let skl = next("the skl offset")?;
    if layout.after_ocarina() {
        next("the qtrs offset")?;
    }
    let mats = next("the mats offset")?;
    let tex = next("the tex offset")?;
    let sklm = next("the sklm offset")?;
    next("the luts offset")?;
    let vatr = next("the vatr offset")?;
    let indices = next("the index buffer offset")?;
    let texture_data = next("the texture data offset")?;
    Ok(Header {
        skl,
        mats,
        tex,
        sklm,
        vatr,
        indices,
        index_count: r.usize(0x20, "the index count")?,
        texture_data,
    })
}

/// Refuses a count whose records cannot fit in the file (before allocating for them).
fn check_count(
    r: Reader<'_>,
    at: usize,
    count: usize,
    record: usize,
    what: &str,
) -> Result<(), FormatError> {
    let fits = count
        .checked_mul(record)
        .and_then(|size| size.checked_add(at))
        .is_some_and(|end| end <= r.data.len());
    if fits {
        Ok(())
    } else {
        Err(r.error(
            at,
            format!(
                "{count} {what} of {record} bytes do not fit in the file's {} bytes",
                r.data.len()
            ),
        ))
    }
}

fn bones(r: Reader<'_>, at: usize, layout: Layout) -> Result<Vec<Bone>, FormatError> {
    r.magic(at, b"skl ")?;
    let count = r.usize(at + 8, "the bone count")?;
    let first = at + 0x10;
    check_count(r, first, count, layout.bone_size(), "bones")?;
    (0..count)
        .map(|i| {
            let b = first + i * layout.bone_size();
            let parent = r.i16(b + 2, "the parent bone")?;
            let parent = match parent {
                -1 => None,
                p if p >= 0 && (p as usize) < i => Some(p as usize),
                p => {
                    return Err(r.error(
                        b + 2,
                        format!("bone {i} has parent {p}, expected -1 or a bone before it"),
                    ))
                }
            };
            Ok(Bone {
                id: r.u16(b, "the bone ID")? & 0x0FFF,
                parent,
                scale: r.vec3(b + 0x04, "the bone's scale")?,
                rotation: r.vec3(b + 0x10, "the bone's rotation")?,
                translation: r.vec3(b + 0x1C, "the bone's translation")?,
            })
        })
        .collect()
}

fn rgba(r: Reader<'_>, at: usize, what: &str) -> Result<[u8; 4], FormatError> {
    let bytes = r.bytes(at, 4, what)?;
    Ok([bytes[0], bytes[1], bytes[2], bytes[3]])
}

fn materials(
    r: Reader<'_>,
    at: usize,
    layout: Layout,
    texture_count: usize,
) -> Result<Vec<Material>, FormatError> {
    r.magic(at, b"mats")?;
    let count = r.usize(at + 8, "the material count")?;
    let first = at + 0x0C;
    check_count(r, first, count, layout.material_size(), "materials")?;
    (0..count)
        .map(|i| {
            let m = first + i * layout.material_size();
            let culling = match r.u8(m + 0x04, "the face culling")? {
                0 => Culling::Both,
                1 => Culling::Back,
                2 => Culling::Front,
                3 => Culling::None,
                other => {
                    return Err(r.error(
                        m + 0x04,
                        format!("material {i}: face culling {other}, expected 0 to 3"),
                    ))
                }
            };
            let texture = match r.i16(m + 0x10, "the first texture")? {
                t if t < 0 => None,
                t if (t as usize) < texture_count => Some(t as usize),
                t => {
                    return Err(r.error(
                        m + 0x10,
                        format!("material {i} uses texture {t}, expected below {texture_count}"),
                    ))
                }
            };
            // The first texture coordinate transform (0x58): 4 bytes of modes, then scale,
            // rotation, translation as in Grezzo/cmb.bt.
            let c = m + 0x58;
            Ok(Material {
                culling,
                texture,
                uv_scale: [r.f32(c + 4, "the UV scale")?, r.f32(c + 8, "the UV scale")?],
                uv_rotation: r.f32(c + 0x0C, "the UV rotation")?,
                uv_translation: [
                    r.f32(c + 0x10, "the UV translation")?,
                    r.f32(c + 0x14, "the UV translation")?,
                ],
                emission: rgba(r, m + 0xA0, "the emission colour")?,
                ambient: rgba(r, m + 0xA4, "the ambient colour")?,
                diffuse: rgba(r, m + 0xA8, "the diffuse colour")?,
                alpha_test: alpha_test(r, m, i)?,
                blending: r.u8(m + 0x138, "the blending mode")? != 0,
            })
        })
        .collect()
}

fn alpha_test(
    r: Reader<'_>,
    m: usize,
    material: usize,
) -> Result<Option<(AlphaFunction, u8)>, FormatError> {
    if r.u8(m + 0x130, "the alpha test switch")? == 0 {
        return Ok(None);
    }
    let code = r.u16(m + 0x132, "the alpha test function")?;
    let function = AlphaFunction::from_code(code).ok_or_else(|| {
        r.error(
            m + 0x132,
            format!("material {material}: alpha test function 0x{code:X}, expected 0x200 to 0x207"),
        )
    })?;
    Ok(Some((
        function,
        r.u8(m + 0x131, "the alpha test reference")?,
    )))
}

fn textures(r: Reader<'_>, at: usize, data_start: usize) -> Result<Vec<Texture>, FormatError> {
    r.magic(at, b"tex ")?;
    let count = r.usize(at + 8, "the texture count")?;
    let first = at + 0x0C;
    check_count(r, first, count, 0x24, "textures")?;
    (0..count)
        .map(|i| {
            let t = first + i * 0x24;
            let width = r.u16(t + 0x08, "the width")?;
            let height = r.u16(t + 0x0A, "the height")?;
            let code = r.u32(t + 0x0C, "the format")?;
            let format = TextureFormat::from_code(code).ok_or_else(|| {
                r.error(
                    t + 0x0C,
                    format!("texture {i}: unknown format 0x{code:08X}, expected a PICA200 format"),
                )
            })?;
            let offset = r.usize(t + 0x10, "the data offset")?;
            let size = format.byte_size(width as usize, height as usize);
            if width == 0 || height == 0 || width % 8 != 0 || height % 8 != 0 {
                return Err(r.error(
                    t + 0x08,
                    format!("texture {i} is {width}x{height}, expected multiples of 8 (8x8 tiles)"),
                ));
            }
            let start = data_start
                .checked_add(offset)
                .ok_or_else(|| r.error(t + 0x10, "the texture data offset overflows"))?;
            let data = r
                .in_chunk("texture data")
                .bytes(
                    start,
                    size,
                    &format!("texture {i}'s {width}x{height} {format:?} texels"),
                )?
                .to_vec();
            Ok(Texture {
                name: r.name(t + 0x14, 16, "the texture name")?,
                width,
                height,
                format,
                data,
            })
        })
        .collect()
}

/// The attribute slices of `vatr`: (start, end) in the file for each attribute.
struct Vatr {
    /// Position, normal, [tangent], colour, uv0, uv1, uv2, bone indices, bone weights.
    slices: Vec<(usize, usize)>,
}

impl Vatr {
    fn read(r: Reader<'_>, at: usize, layout: Layout) -> Result<Self, FormatError> {
        r.magic(at, b"vatr")?;
        let count = if layout.after_ocarina() { 9 } else { 8 };
        let slices = (0..count)
            .map(|i| {
                let s = at + 0x0C + i * 8;
                let size = r.usize(s, "an attribute slice's size")?;
                let offset = r.usize(s + 4, "an attribute slice's offset")?;
                let start = at.checked_add(offset);
                match start.and_then(|st| st.checked_add(size).map(|end| (st, end))) {
                    Some((start, end)) if end <= r.data.len() => Ok((start, end)),
                    _ => Err(r.error(
                        s,
                        format!(
                            "attribute slice {i} ({size} bytes at {offset} from vatr) goes past the end of the file ({} bytes)",
                            r.data.len()
                        ),
                    )),
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { slices })
    }
}

/// The counts that meshes and primitive sets index.
#[derive(Clone, Copy)]
struct Limits {
    bones: usize,
    materials: usize,
}

struct IndexBuffer {
    start: usize,
    count: usize,
}

fn sklm(
    r: Reader<'_>,
    at: usize,
    layout: Layout,
    vatr: &Vatr,
    indices: &IndexBuffer,
    limits: Limits,
) -> Result<(Vec<Mesh>, Vec<Shape>), FormatError> {
    let rs = r.in_chunk("sklm");
    rs.magic(at, b"sklm")?;
    let mshs = at + rs.usize(at + 8, "the mshs offset")?;
    let shp = at + rs.usize(at + 0x0C, "the shp offset")?;
    let rp = r.in_chunk("shp");
    rp.magic(shp, b"shp ")?;
    let count = rp.usize(shp + 8, "the shape count")?;
    check_count(rp, shp + 0x10, count, 2, "shape offsets")?;
    let shapes = (0..count)
        .map(|i| {
            let offset = rp.u16(shp + 0x10 + 2 * i, "a sepd offset")? as usize;
            shape(
                r.in_chunk("sepd"),
                shp + offset,
                layout,
                vatr,
                indices,
                limits,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let meshes = meshes(r.in_chunk("mshs"), mshs, layout, shapes.len(), limits)?;
    Ok((meshes, shapes))
}

fn meshes(
    r: Reader<'_>,
    at: usize,
    layout: Layout,
    shape_count: usize,
    limits: Limits,
) -> Result<Vec<Mesh>, FormatError> {
    r.magic(at, b"mshs")?;
    let count = r.usize(at + 8, "the mesh count")?;
    check_count(r, at + 0x10, count, layout.mesh_size(), "meshes")?;
    (0..count)
        .map(|i| {
            let m = at + 0x10 + i * layout.mesh_size();
            let shape = r.u16(m, "the mesh's shape")? as usize;
            if shape >= shape_count {
                return Err(r.error(
                    m,
                    format!("mesh {i} uses shape {shape}, expected below {shape_count}"),
                ));
            }
            let material = r.u8(m + 2, "the mesh's material")? as usize;
            if material >= limits.materials {
                return Err(r.error(
                    m + 2,
                    format!(
                        "mesh {i} uses material {material}, expected below {}",
                        limits.materials
                    ),
                ));
            }
            Ok(Mesh { shape, material })
        })
        .collect()
}

/// PICA200 vertex data types (GL enums).
#[derive(Debug, Clone, Copy)]
enum DataType {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
}

impl DataType {
    fn from_code(code: u16) -> Option<Self> {
        Some(match code {
            0x1400 => Self::I8,
            0x1401 => Self::U8,
            0x1402 => Self::I16,
            0x1403 => Self::U16,
            0x1404 => Self::I32,
            0x1405 => Self::U32,
            0x1406 => Self::F32,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Self::I8 | Self::U8 => 1,
            Self::I16 | Self::U16 => 2,
            _ => 4,
        }
    }

    fn read(self, r: Reader<'_>, at: usize) -> Result<f32, FormatError> {
        const WHAT: &str = "a vertex value";
        Ok(match self {
            Self::I8 => r.u8(at, WHAT)? as i8 as f32,
            Self::U8 => r.u8(at, WHAT)? as f32,
            Self::I16 => r.i16(at, WHAT)? as f32,
            Self::U16 => r.u16(at, WHAT)? as f32,
            Self::I32 => r.i32(at, WHAT)? as f32,
            Self::U32 => r.u32(at, WHAT)? as f32,
            Self::F32 => r.f32(at, WHAT)?,
        })
    }
}

/// One attribute of a `sepd`: an array in a `vatr` slice or one constant value.
struct Attribute {
    /// Where the record is (for errors).
    at: usize,
    start: usize,
    scale: f32,
    data_type: DataType,
    constant: Option<[f32; 4]>,
}

impl Attribute {
    const SIZE: usize = 0x1C;

    fn read(r: Reader<'_>, at: usize) -> Result<Self, FormatError> {
        let code = r.u16(at + 8, "the attribute's data type")?;
        let data_type = DataType::from_code(code).ok_or_else(|| {
            r.error(
                at + 8,
                format!("unknown vertex data type 0x{code:04X}, expected 0x1400 to 0x1406"),
            )
        })?;
        let constant = match r.u16(at + 0x0A, "the attribute's mode")? {
            0 => None,
            1 => Some([
                r.f32(at + 0x0C, "the attribute's constant")?,
                r.f32(at + 0x10, "the attribute's constant")?,
                r.f32(at + 0x14, "the attribute's constant")?,
                r.f32(at + 0x18, "the attribute's constant")?,
            ]),
            other => {
                return Err(r.error(
                    at + 0x0A,
                    format!("attribute mode {other}, expected 0 (array) or 1 (constant)"),
                ))
            }
        };
        Ok(Self {
            at,
            start: r.usize(at, "the attribute's start")?,
            scale: r.f32(at + 4, "the attribute's scale")?,
            data_type,
            constant,
        })
    }

    /// `count` vertices of `N` components from `slice` (start, end), each times the scale; a
    /// constant attribute gives its value (as stored, not scaled) to every vertex.
    fn values<const N: usize>(
        &self,
        r: Reader<'_>,
        slice: (usize, usize),
        count: usize,
    ) -> Result<Vec<[f32; N]>, FormatError> {
        Ok(self
            .values_n(r, slice, count, N)?
            .into_iter()
            .map(|v| {
                let mut value = [0.0; N];
                value.copy_from_slice(&v);
                value
            })
            .collect())
    }

    /// Like [`Self::values`] with `n` (1 to 4) components known at run time.
    fn values_n(
        &self,
        r: Reader<'_>,
        slice: (usize, usize),
        count: usize,
        n: usize,
    ) -> Result<Vec<Vec<f32>>, FormatError> {
        if let Some(constant) = self.constant {
            return Ok(vec![constant[..n].to_vec(); count]);
        }
        let stride = n * self.data_type.size();
        let fits = slice
            .0
            .checked_add(self.start)
            .and_then(|start| Some((start, start.checked_add(count.checked_mul(stride)?)?)))
            .filter(|&(_, end)| end <= slice.1);
        let Some((start, _)) = fits else {
            return Err(r.error(
                self.at,
                format!(
                    "{count} vertices of {stride} bytes from {} do not fit in their vatr slice of {} bytes",
                    self.start,
                    slice.1 - slice.0
                ),
            ));
        };
        (0..count)
            .map(|v| {
                (0..n)
                    .map(|c| {
                        let at = start + v * stride + c * self.data_type.size();
                        Ok(self.data_type.read(r, at)? * self.scale)
                    })
                    .collect()
            })
            .collect()
    }
}

fn shape(
    r: Reader<'_>,
    at: usize,
    layout: Layout,
    vatr: &Vatr,
    indices: &IndexBuffer,
    limits: Limits,
) -> Result<Shape, FormatError> {
    r.magic(at, b"sepd")?;
    let set_count = r.u16(at + 8, "the primitive set count")? as usize;
    let flags = r.u16(at + 0x0A, "the attribute flags")?;
    let first_attribute = if layout.version == 15 { 0x3C } else { 0x24 };
    let attribute_count = vatr.slices.len();
    let attributes = (0..attribute_count)
        .map(|i| Attribute::read(r, at + first_attribute + i * Attribute::SIZE))
        .collect::<Result<Vec<_>, _>>()?;
    let after = at + first_attribute + attribute_count * Attribute::SIZE;
    let bones_per_vertex = r.u16(after, "the bones per vertex")? as usize;
    let primitive_sets = (0..set_count)
        .map(|i| {
            let offset = r.u16(after + 4 + 2 * i, "a prms offset")? as usize;
            primitive_set(r.in_chunk("prms"), at + offset, indices, limits.bones)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let vertex_count = primitive_sets
        .iter()
        .flat_map(|s| s.triangles.iter().flatten())
        .max()
        .map_or(0, |&m| m + 1);
    // Attributes in the order of vatr; a flag bit per attribute says it is present.
    let tangents = usize::from(layout.after_ocarina());
    let (normal, color, uv, indices_at, weights) =
        (1, 2 + tangents, 3 + tangents, 6 + tangents, 7 + tangents);
    let present = |i: usize| flags & (1 << i) != 0;
    let rv = r.in_chunk("vatr");
    let optional = |i: usize| present(i) || attributes[i].constant.is_some();
    let bones_per_vertex_checked = if optional(indices_at) {
        if !(1..=4).contains(&bones_per_vertex) {
            return Err(r.error(
                after,
                format!("{bones_per_vertex} bones per vertex, expected 1 to 4"),
            ));
        }
        bones_per_vertex
    } else {
        bones_per_vertex.clamp(1, 4)
    };
    let shape = Shape {
        positions: attributes[0].values::<3>(rv, vatr.slices[0], vertex_count)?,
        normals: optional(normal)
            .then(|| attributes[normal].values::<3>(rv, vatr.slices[normal], vertex_count))
            .transpose()?,
        colors: optional(color)
            .then(|| attributes[color].values::<4>(rv, vatr.slices[color], vertex_count))
            .transpose()?,
        uvs: optional(uv)
            .then(|| attributes[uv].values::<2>(rv, vatr.slices[uv], vertex_count))
            .transpose()?,
        bone_indices: optional(indices_at)
            .then(|| {
                attributes[indices_at]
                    .values_n(
                        rv,
                        vatr.slices[indices_at],
                        vertex_count,
                        bones_per_vertex_checked,
                    )
                    .map(|all| {
                        all.into_iter()
                            .map(|v| v.into_iter().map(|i| i.max(0.0) as usize).collect())
                            .collect()
                    })
            })
            .transpose()?,
        bone_weights: optional(weights)
            .then(|| {
                attributes[weights].values_n(
                    rv,
                    vatr.slices[weights],
                    vertex_count,
                    bones_per_vertex_checked,
                )
            })
            .transpose()?,
        bones_per_vertex: bones_per_vertex_checked,
        primitive_sets,
    };
    check_bone_indices(r, at, &shape)?;
    Ok(shape)
}

/// Every bone index a rigid or smooth set's vertices use (a rigid vertex's first, a
/// smooth vertex's of weight above 0) is in the set's bone table.
fn check_bone_indices(r: Reader<'_>, at: usize, shape: &Shape) -> Result<(), FormatError> {
    let Some(indices) = &shape.bone_indices else {
        return Ok(());
    };
    for (s, set) in shape.primitive_sets.iter().enumerate() {
        for &v in set.triangles.iter().flatten() {
            let used = indices[v]
                .iter()
                .enumerate()
                .filter(|&(k, _)| match set.skinning {
                    Skinning::Single => false,
                    Skinning::Rigid => k == 0,
                    Skinning::Smooth => shape
                        .bone_weights
                        .as_ref()
                        .is_some_and(|w| w[v].get(k).is_some_and(|&w| w > 0.0)),
                });
            for (_, &index) in used {
                if index >= set.bone_table.len() {
                    return Err(r.error(
                        at,
                        format!(
                            "vertex {v} of primitive set {s} uses bone index {index}, expected below its table's {}",
                            set.bone_table.len()
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn primitive_set(
    r: Reader<'_>,
    at: usize,
    indices: &IndexBuffer,
    bone_count: usize,
) -> Result<PrimitiveSet, FormatError> {
    r.magic(at, b"prms")?;
    let prm_count = r.usize(at + 8, "the prm count")?;
    if prm_count != 1 {
        return Err(r.error(at + 8, format!("{prm_count} prm chunks, expected 1")));
    }
    let skinning = match r.u16(at + 0x0C, "the skinning mode")? {
        0 => Skinning::Single,
        1 => Skinning::Rigid,
        2 => Skinning::Smooth,
        other => {
            return Err(r.error(
                at + 0x0C,
                format!("skinning mode {other}, expected 0 (single), 1 (rigid) or 2 (smooth)"),
            ))
        }
    };
    let table_count = r.u16(at + 0x0E, "the bone table count")? as usize;
    let table = at + r.usize(at + 0x10, "the bone table offset")?;
    if table_count == 0 {
        return Err(r.error(at + 0x0E, "an empty bone table, expected at least 1 bone"));
    }
    let bone_table = (0..table_count)
        .map(|i| {
            let bone = r.u16(table + 2 * i, "a bone table entry")? as usize;
            if bone < bone_count {
                Ok(bone)
            } else {
                Err(r.error(
                    table + 2 * i,
                    format!("bone table entry {i} is bone {bone}, expected below the {bone_count} bones of skl"),
                ))
            }
        })
        .collect::<Result<Vec<_>, FormatError>>()?;
    let prm = at + r.usize(at + 0x14, "the prm offset")?;
    let triangles = triangles(r.in_chunk("prm"), prm, indices)?;
    Ok(PrimitiveSet {
        skinning,
        bone_table,
        triangles,
    })
}

fn triangles(
    r: Reader<'_>,
    at: usize,
    indices: &IndexBuffer,
) -> Result<Vec<[usize; 3]>, FormatError> {
    r.magic(at, b"prm ")?;
    let mode = r.u32(at + 0x0C, "the primitive mode")?;
    if mode != 0 {
        return Err(r.error(
            at + 0x0C,
            format!("primitive mode {mode}, expected 0 (triangles)"),
        ));
    }
    let index_size = match r.u16(at + 0x10, "the index type")? {
        0x1401 => 1,
        0x1403 => 2,
        other => {
            return Err(r.error(
                at + 0x10,
                format!("index type 0x{other:04X}, expected 0x1401 (u8) or 0x1403 (u16)"),
            ))
        }
    };
    let count = r.u16(at + 0x14, "the index count")? as usize;
    if !count.is_multiple_of(3) {
        return Err(r.error(
            at + 0x14,
            format!("{count} indices, expected a multiple of 3"),
        ));
    }
    // The offset counts u16 even in a u8 list.
    let first = r.u16(at + 0x16, "the index offset")? as usize * 2;
    let bytes = first + count * index_size;
    if bytes > indices.count * 2 {
        return Err(r.error(
            at + 0x14,
            format!(
                "{count} indices at {first} go past the index buffer's {} bytes",
                indices.count * 2
            ),
        ));
    }
    let ri = r.in_chunk("index buffer");
    let list = ri.bytes(
        indices.start + first,
        count * index_size,
        "the triangle indices",
    )?;
    let index = |i: usize| match index_size {
        1 => list[i] as usize,
        _ => u16::from_le_bytes([list[2 * i], list[2 * i + 1]]) as usize,
    };
    Ok((0..count / 3)
        .map(|t| [index(3 * t), index(3 * t + 1), index(3 * t + 2)])
        .collect())
}
