//! The shared intermediate scene: what every importer (OBJ + MTL today; glTF, CMB, TMD +
//! TOD) reads its format into, and the only thing the stages after it (axes and scale,
//! cutting faces into quads and triangles, welding, groups, normals, colours, materials,
//! texture baking, the VRAM budget, the JOM writer) look at. An importer does nothing but
//! read: it keeps the model as its file says, in the conventions below, and names where
//! each part came from so that a later stage's error can point at it.
//!
//! Conventions every importer follows:
//!
//! - **Positions** are in the axes [`Scene::axes`] names, in the file's units (the pipeline
//!   turns them into the Saturn's axes and multiplies them by `--scale`).
//! - **Faces** have 3 corners or more, in the order the file gives them: counter-clockwise
//!   seen from the front in [`SceneAxes::YUpRightHanded`], clockwise in
//!   [`SceneAxes::Saturn`]. Faces of more than 4 corners are cut by the pipeline (a fan
//!   around the first corner), and faces of zero area are dropped by it.
//! - **Texture coordinates**: u to the right, v **down**, from the top-left corner of the
//!   image: (0, 0) is the top-left corner of the top-left texel, (1, 1) the bottom-right
//!   corner of the bottom-right texel. Values outside 0 to 1 repeat the image. An importer
//!   whose format has v up (OBJ, CMB) stores `1 - v`.
//! - **Normals** are directions in the scene's axes, of any length (the pipeline scales
//!   them to 1).
//! - **Colours** are linear RGB, 1.0 is white and leaves a texture as it is; a gouraud
//!   colour above 1.0 brightens (up to 1.94).
//! - **Images** are decoded RGBA8, any size: the pipeline checks what the VDP1 can draw
//!   (or bakes a drawable texture from them).
//! - **Where things come from** ([`Origin`]): a file of [`Scene::files`] and a [`Place`]
//!   in it, a line for text formats, a byte offset for binary ones, a JSON path for
//!   glTF. Errors of the later stages name it: `model.obj:12: ...`,
//!   `model.cmb: byte offset 4660 (0x1234): ...`, `model.gltf: meshes[0].primitives[1]: ...`.
//!
//! - **A rig** ([`SceneRig`]): bones and animations sampled at their keys as bone matrices,
//!   in the scene's axes and units like the positions (the pipeline turns them into the
//!   Saturn's and scales them, then hands them to the shared rig conversion, `rig.rs`).
//!   The OBJ has none (its skeleton JSON is read by `skeleton.rs`).

use super::rig::{RigBone, SampledAnimation};
use super::Error;
use jom::format::MaterialFlags;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A model read by an importer, before any conversion.
pub struct Scene {
    /// The files the scene was read from: the model's own file first (errors about the
    /// model as a whole name it), then the files it refers to (MTL, images, ...).
    pub files: Vec<PathBuf>,
    /// The axes of the positions and normals.
    pub axes: SceneAxes,
    pub vertices: Vec<Vertex>,
    /// Texture coordinates, (u, v) with v down from the image's top left.
    pub uvs: Vec<[f64; 2]>,
    /// Corner normals, in the scene's axes.
    pub normals: Vec<[f64; 3]>,
    /// Corner colours, linear RGB.
    pub colors: Vec<[f64; 3]>,
    /// The corners of every face, each face a range of it.
    pub corners: Vec<Corner>,
    pub faces: Vec<Face>,
    /// Group names (GRUP), in the order the pipeline writes them; a face's or a vertex's
    /// group indexes it. A group no face or vertex uses is no group: importers leave such
    /// names out.
    pub groups: Vec<String>,
    /// The materials, in MATL order (importers leave out the materials no face uses).
    pub materials: Vec<Material>,
    /// The images materials use as textures.
    pub images: Vec<Image>,
    /// The bones and their animations, when the format has them.
    pub rig: Option<SceneRig>,
}

/// A rigid rig as an importer reads it.
#[allow(dead_code, reason = "made by the glTF, CMB and TMD + TOD importers")]
pub struct SceneRig {
    /// Parents before children; `group` indexes [`Scene::groups`] (the bone moves that
    /// group's faces), `pivot` is in the scene's axes and units.
    pub bones: Vec<RigBone>,
    /// `keys[k][b]`: bone b's skinning matrix at key k (a point of the model at rest to
    /// where it is at that key), in the scene's axes and units.
    pub animations: Vec<SampledAnimation>,
    /// Where the rig is defined, for the errors of its conversion.
    pub origin: Origin,
}

/// The axes positions and normals are given in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneAxes {
    /// Y up, right handed: X right, Y up, Z towards the viewer; front faces
    /// counter-clockwise (OBJ, glTF, Blender's exports). The pipeline turns the model 180
    /// degrees around X and reverses each face's corners, the first corner kept first.
    YUpRightHanded,
    /// Already the Saturn's: X right, Y down, Z away from the viewer; front faces
    /// clockwise (a PlayStation model, or an OBJ converted with `--saturn-axes`).
    Saturn,
}

/// A point of the model.
pub struct Vertex {
    pub position: [f64; 3],
    /// The group whose bone moves it, in [`Scene::groups`], when the format says so per
    /// vertex (a skinned mesh: its heaviest joint's group), whatever the groups of the
    /// faces using it. `None`: the faces decide (a point used by one group's faces only is
    /// that group's, one used by several groups' faces is no group's).
    pub group: Option<u32>,
    /// Where it is defined (a `v` line), for "out of range" and "too many points".
    pub origin: Origin,
}

/// A corner of a face: indexes into [`Scene::vertices`], [`Scene::uvs`],
/// [`Scene::normals`] and [`Scene::colors`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corner {
    pub vertex: u32,
    pub uv: Option<u32>,
    pub normal: Option<u32>,
    /// The corner's colour (white when `None` and other corners have one). GOUR takes it
    /// for the corners of gouraud materials. VCOL has one colour per point: a vertex's is
    /// that of the first corner using it, a welded point's that of its first vertex.
    pub color: Option<u32>,
}

/// A polygon of the model.
pub struct Face {
    /// Its corners in [`Scene::corners`] (3 or more).
    pub corners: Range<usize>,
    /// Its group in [`Scene::groups`]; `None`: no group. GRUP keeps each group's polygons
    /// together, and the polygon's normal turns with that group's bone; its points may
    /// still be other groups' (see [`Vertex::group`]).
    pub group: Option<u32>,
    /// Its material in [`Scene::materials`]; `None`: the pipeline's white `default`.
    pub material: Option<u32>,
    /// Where it is defined (an `f` line), for "too many polygons" and texture baking.
    pub origin: Origin,
}

/// A material, with the engine's options as the importer's format gives them (the MTL's
/// `jo_*` lines; formats without them give the defaults).
pub struct Material {
    /// ASCII (the pipeline truncates it to 15 characters).
    pub name: String,
    /// Where it is defined (a `newmtl` line).
    pub origin: Origin,
    /// Diffuse colour, 0 to 1 per channel (MATL colour).
    pub diffuse: [f64; 3],
    /// Shininess as the file gives it (rounded and clamped to 0-255 for MATL).
    pub shininess: f64,
    /// Engine flags (bits 0-15) and program flags (bits 16-31).
    pub flags: MaterialFlags,
    /// `jo_subdivision_error`.
    pub subdivision_error: u16,
    /// `jo_value`: the program's 32 bits (MATL user).
    pub value: u32,
    /// `jo_lut 1`: its embedded texture has 16 colours and a lookup table.
    pub lut: bool,
    pub texture: Option<TextureRef>,
}

impl Material {
    /// A plain white material named `name`, without texture or flags.
    pub fn plain(name: impl Into<String>, origin: Origin) -> Self {
        Self {
            name: name.into(),
            origin,
            diffuse: [1.0; 3],
            shininess: 0.0,
            flags: MaterialFlags::default(),
            subdivision_error: 0,
            value: 0,
            lut: false,
            texture: None,
        }
    }
}

/// A material's texture: an image of [`Scene::images`].
#[derive(Clone, Debug)]
pub struct TextureRef {
    pub image: u32,
    /// Where the material names it (a `map_Kd` line).
    pub origin: Origin,
}

/// A decoded image.
pub struct Image {
    /// What texture names are made from: the file name without its extension (`brick
    /// wall` for `brick wall.png`), or the format's own name for an embedded image.
    pub name: String,
    /// The image for a person, at the start of its messages (`map_Kd brick wall.png`);
    /// the messages' place is that of the material's [`TextureRef`].
    pub label: String,
    pub width: u32,
    pub height: u32,
    /// Row by row from the top left, `width * height` pixels.
    pub rgba: Vec<[u8; 4]>,
}

impl Image {
    /// Decodes a PNG of any colour type and depth.
    pub fn from_png(bytes: &[u8], name: String, label: String) -> Result<Self, String> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(|e| format!("not a PNG: {e}"))?;
        let size = reader.output_buffer_size().ok_or("the PNG is too large")?;
        if size > MAX_DECODED_PNG_BYTES {
            let (width, height) = reader.info().size();
            return Err(format!(
                "the PNG is {width} x {height}: {size} bytes decoded, more than the {} MiB \
                 jomc reads an image into",
                MAX_DECODED_PNG_BYTES >> 20
            ));
        }
        let mut buffer = vec![0; size];
        let info = reader
            .next_frame(&mut buffer)
            .map_err(|e| format!("bad PNG: {e}"))?;
        let data = &buffer[..info.buffer_size()];
        let rgba: Vec<[u8; 4]> = match info.color_type {
            png::ColorType::Rgba => data
                .chunks_exact(4)
                .map(|p| [p[0], p[1], p[2], p[3]])
                .collect(),
            png::ColorType::Rgb => data
                .chunks_exact(3)
                .map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            png::ColorType::GrayscaleAlpha => data
                .chunks_exact(2)
                .map(|p| [p[0], p[0], p[0], p[1]])
                .collect(),
            png::ColorType::Grayscale => data.iter().map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::Indexed => return Err("indexed PNG left unexpanded".into()),
        };
        Ok(Self {
            name,
            label,
            width: info.width,
            height: info.height,
            rgba,
        })
    }
}

/// Where a part of the scene was read: a file of [`Scene::files`] and a place in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: u32,
    pub place: Place,
}

/// A place in a file, as errors name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The file as a whole: `model.obj: problem`.
    File,
    /// A line of a text file, from 1: `model.obj:12: problem`.
    Line(usize),
    /// A byte offset in a binary file: `model.cmb: byte offset 4660 (0x1234): problem`.
    #[allow(dead_code, reason = "for the binary importers (CMB, TMD + TOD)")]
    Offset(u64),
    /// A path in a JSON document: `model.gltf: meshes[0].primitives[1]: problem`.
    #[allow(dead_code, reason = "for the glTF importer")]
    Json(String),
}

impl fmt::Display for Place {
    /// What comes between the file name and the problem, `:`-separated as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::File => Ok(()),
            Place::Line(line) => write!(f, ":{line}"),
            Place::Offset(offset) => write!(f, ": byte offset {offset} ({offset:#x})"),
            Place::Json(path) => write!(f, ": {path}"),
        }
    }
}

impl Scene {
    /// An empty scene read from `file` (the model's own file, [`Scene::files`]`[0]`).
    pub fn new(file: &Path, axes: SceneAxes) -> Self {
        Self {
            files: vec![file.to_path_buf()],
            axes,
            vertices: Vec::new(),
            uvs: Vec::new(),
            normals: Vec::new(),
            colors: Vec::new(),
            corners: Vec::new(),
            faces: Vec::new(),
            groups: Vec::new(),
            materials: Vec::new(),
            images: Vec::new(),
            rig: None,
        }
    }

    /// The index of `path` in [`Scene::files`], added when new.
    pub fn file_index(&mut self, path: &Path) -> u32 {
        match self.files.iter().position(|f| f == path) {
            Some(index) => index as u32,
            None => {
                self.files.push(path.to_path_buf());
                self.files.len() as u32 - 1
            }
        }
    }

    /// The corners of `face`.
    pub fn face_corners(&self, face: &Face) -> &[Corner] {
        &self.corners[face.corners.clone()]
    }

    /// An error at `origin`.
    pub fn error(&self, origin: &Origin, message: impl Into<String>) -> Error {
        let file = self
            .files
            .get(origin.file as usize)
            .or(self.files.first())
            .map_or_else(PathBuf::new, Clone::clone);
        Error::new(file, origin.place.clone(), message)
    }

    /// An error about the model as a whole (its own file, no place).
    pub fn model_error(&self, message: impl Into<String>) -> Error {
        self.error(
            &Origin {
                file: 0,
                place: Place::File,
            },
            message,
        )
    }

    /// Whether every corner of every face has a normal.
    pub fn every_corner_has_a_normal(&self) -> bool {
        !self.corners.is_empty() && self.corners.iter().all(|c| c.normal.is_some())
    }

    /// Whether some corner has a colour (then every point gets one, white by default).
    pub fn has_colors(&self) -> bool {
        self.corners.iter().any(|c| c.color.is_some())
    }
}

/// The most bytes a PNG decodes to (8-bit channels): 256 MiB, an RGBA image of 8,192 x
/// 8,192, far past any texture a Saturn model bakes from; a PNG header may claim a size its
/// few bytes do not hold.
const MAX_DECODED_PNG_BYTES: usize = 256 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_file_and_the_place_as_each_format_needs() {
        let mut scene = Scene::new(Path::new("model.cmb"), SceneAxes::Saturn);
        let texture = scene.file_index(Path::new("skin.png"));
        assert_eq!(scene.file_index(Path::new("model.cmb")), 0);
        let at = |file, place| Origin { file, place };
        let cases = [
            (at(0, Place::File), "model.cmb: bad"),
            (at(0, Place::Line(12)), "model.cmb:12: bad"),
            (
                at(0, Place::Offset(4660)),
                "model.cmb: byte offset 4660 (0x1234): bad",
            ),
            (
                at(texture, Place::Json("images[2]".into())),
                "skin.png: images[2]: bad",
            ),
        ];
        for (origin, expected) in cases {
            assert_eq!(scene.error(&origin, "bad").to_string(), expected);
        }
        assert_eq!(scene.model_error("big").to_string(), "model.cmb: big");
    }

    #[test]
    fn png_images_decode_to_rgba8_whatever_their_colour_type() {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 2, 1);
        encoder.set_color(png::ColorType::GrayscaleAlpha);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[10, 255, 200, 0]).unwrap();
        writer.finish().unwrap();
        let image = Image::from_png(&bytes, "g".into(), "g.png".into()).unwrap();
        assert_eq!((image.width, image.height), (2, 1));
        assert_eq!(image.rgba, [[10, 10, 10, 255], [200, 200, 200, 0]]);
        let error = Image::from_png(b"GIF89a", "g".into(), "g.png".into()).err();
        assert!(error.unwrap().starts_with("not a PNG"));
    }

    /// CRC-32 of PNG chunks (ISO 3309), bit by bit.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &byte in bytes {
            crc ^= u32::from(byte);
            for _ in 0..8 {
                crc = if crc & 1 != 0 {
                    (crc >> 1) ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
            }
        }
        !crc
    }

    #[test]
    fn a_png_claiming_more_pixels_than_jomc_reads_is_an_error_not_an_allocation() {
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, 1, 1);
        encoder.set_color(png::ColorType::Rgba);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[1, 2, 3, 4]).unwrap();
        writer.finish().unwrap();
        // IHDR's width and height (after the 8-byte signature and the chunk's length and
        // type) claim 20,000 x 20,000; its CRC made again.
        bytes[16..24].copy_from_slice(&[0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20]);
        let crc = crc32(&bytes[12..29]);
        bytes[29..33].copy_from_slice(&crc.to_be_bytes());
        let error = Image::from_png(&bytes, "t".into(), "t.png".into()).err();
        assert_eq!(
            error.as_deref(),
            Some(
                "the PNG is 20000 x 20000: 1600000000 bytes decoded, more than the 256 MiB jomc \
                 reads an image into"
            )
        );
    }
}
