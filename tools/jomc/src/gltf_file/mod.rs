//! Reading a glTF 2.0 file (`.gltf` with its external or data-URI buffers and images, or
//! `.glb`) into plain data, checked: the default scene's nodes with their rest transforms,
//! its mesh instances (triangles, attributes), the materials they use, skins and
//! animations. The `gltf` crate parses and validates the JSON (every index in range, every
//! required extension known); this module reads the binary data itself, every range
//! checked, so that any input gives either a model or one error naming the JSON path.
//!
//! Everything stays in glTF's axes (Y up, right handed) and units; the converter turns it
//! into the shared scene and the rig.

pub mod accessor;
pub mod affine;
pub mod animation;

use accessor::Kind;
use affine::{Affine, Trs};
use base64::Engine as _;
use gltf::accessor::Dimensions;
use gltf::mesh::Mode;
use std::fmt;
use std::path::Path;

pub use animation::{Animation, Channel, Target};

/// A problem of the file: where (a JSON path such as `meshes[0].primitives[1]`, empty for
/// the file as a whole) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GltfError {
    pub path: String,
    pub message: String,
}

impl GltfError {
    /// A problem at `path`.
    pub fn new(path: &str, message: impl Into<String>) -> Self {
        Self {
            path: path.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for GltfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.is_empty() {
            true => write!(f, "{}", self.message),
            false => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

/// Where the files a `.gltf` refers to (buffers, images) are read from.
pub enum Files<'a> {
    /// Through this function, given the file's name as the glTF gives it (decoded, relative
    /// to the glTF's directory).
    Read(&'a dyn Fn(&str) -> std::io::Result<Vec<u8>>),
    /// Nowhere: a reference to a file is an error (fuzzing, tests).
    None,
}

/// A glTF file, read.
pub struct Model {
    /// Every node of the file; only those of the default scene are placed.
    pub nodes: Vec<Node>,
    /// The default scene's nodes, parents before children.
    pub scene_order: Vec<usize>,
    /// The default scene's nodes that have a mesh, in `scene_order`.
    pub instances: Vec<Instance>,
    /// Every material of the file.
    pub materials: Vec<Material>,
    /// Every image of the file, still encoded.
    pub images: Vec<EncodedImage>,
    pub skins: Vec<Skin>,
    pub animations: Vec<Animation>,
}

/// A node of the file.
pub struct Node {
    /// Its name (`node N` when it has none).
    pub name: String,
    pub parent: Option<usize>,
    /// Its local transform at rest.
    pub rest: Trs,
    /// `rest` as a matrix (exactly the file's when the node gives a matrix).
    pub rest_matrix: Affine,
}

/// A node with a mesh.
pub struct Instance {
    pub node: usize,
    /// The node's name (its mesh's when it has none).
    pub name: String,
    /// The mesh's name (`mesh N` when it has none), for the messages.
    pub mesh_name: String,
    pub skin: Option<usize>,
    pub primitives: Vec<Primitive>,
}

/// A mesh primitive, as triangles.
pub struct Primitive {
    /// `meshes[M].primitives[P]`.
    pub path: String,
    pub material: Option<usize>,
    /// In the mesh's space.
    pub positions: Vec<[f64; 3]>,
    pub normals: Option<Vec<[f64; 3]>>,
    /// The texture coordinates of the material's base colour texture, when it has one.
    pub uvs: Option<Vec<[f64; 2]>>,
    /// COLOR_0, RGBA (alpha 1 when the file gives RGB).
    pub colors: Option<Vec<[f64; 4]>>,
    /// JOINTS_0 and WEIGHTS_0, for skinned meshes.
    pub joints: Option<Vec<[u16; 4]>>,
    pub weights: Option<Vec<[f64; 4]>>,
    /// Corners counter-clockwise seen from the front, as glTF orders them.
    pub triangles: Vec<[u32; 3]>,
}

/// How a material's alpha is used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Alpha {
    Opaque,
    /// Texels whose alpha is under the cutoff are not drawn.
    Mask(f64),
    Blend,
}

/// A material of the file.
pub struct Material {
    /// Its name (`material N` when it has none).
    pub name: String,
    /// `materials[N]`.
    pub path: String,
    /// The base colour factor (or the diffuse factor of KHR_materials_pbrSpecularGlossiness).
    pub base_color: [f64; 4],
    pub texture: Option<TextureUse>,
    pub alpha: Alpha,
    pub double_sided: bool,
    /// The material's extras (Blender's custom properties), when they are a JSON object.
    pub extras: serde_json::Map<String, serde_json::Value>,
}

/// A material's base colour texture.
pub struct TextureUse {
    pub image: usize,
    /// The TEXCOORD set it uses.
    pub tex_coord: u32,
    /// KHR_texture_transform as a 2x3 matrix applied to (u, v, 1); the identity without.
    pub transform: [[f64; 3]; 2],
}

/// An image's bytes and what they are.
pub struct EncodedImage {
    /// Its name, or its file name without extension, or `image N`.
    pub name: String,
    /// `images[N]`.
    pub path: String,
    pub format: ImageFormat,
    pub bytes: Vec<u8>,
}

/// The encodings glTF allows for images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Jpeg,
}

/// A skin: its joints and the inverse bind matrix of each.
pub struct Skin {
    pub joints: Vec<usize>,
    pub inverse_bind: Vec<Affine>,
}

/// The magic of a binary glTF.
pub const GLB_MAGIC: &[u8; 4] = b"glTF";

/// Reads a glTF or GLB file's `bytes`; `files` resolves the files it refers to.
pub fn read(bytes: &[u8], files: &Files<'_>) -> Result<Model, GltfError> {
    check_glb_length(bytes)?;
    let unchecked = gltf::Gltf::from_slice_without_validation(bytes).map_err(parse_error)?;
    check_position_accessors(unchecked.document.as_json())?;
    check_animation_paths(unchecked.document.as_json())?;
    check_image_sources(unchecked.document.as_json())?;
    let gltf = gltf::Gltf {
        document: gltf::Document::from_json(unchecked.document.into_json()).map_err(parse_error)?,
        blob: unchecked.blob,
    };
    let buffers = buffers(&gltf, files)?;
    let document = &gltf.document;
    let nodes = nodes(document);
    let scene_order = scene_order(document, &nodes)?;
    let materials = document
        .materials()
        .map(|m| material(&m))
        .collect::<Result<Vec<_>, _>>()?;
    let mut instances = Vec::new();
    for &index in &scene_order {
        let node = document.nodes().nth(index).expect("scene nodes exist");
        if let Some(mesh) = node.mesh() {
            instances.push(instance(&node, &mesh, &materials, &buffers)?);
        }
    }
    let images = document
        .images()
        .map(|image| encoded_image(&image, &buffers, files))
        .collect::<Result<_, _>>()?;
    let skins = document
        .skins()
        .map(|skin| read_skin(&skin, &buffers))
        .collect::<Result<_, _>>()?;
    let animations = document
        .animations()
        .map(|a| animation::read(&a, &buffers))
        .collect::<Result<_, _>>()?;
    Ok(Model {
        nodes,
        scene_order,
        instances,
        materials,
        images,
        skins,
        animations,
    })
}

/// A GLB's total length must hold its own 12-byte header: the `gltf` crate subtracts the
/// header's size from it unchecked (found by fuzzing).
fn check_glb_length(bytes: &[u8]) -> Result<(), GltfError> {
    if let Some(length) = bytes
        .strip_prefix(GLB_MAGIC)
        .and_then(|rest| rest.get(4..8))
        .map(|l| u32::from_le_bytes([l[0], l[1], l[2], l[3]]))
        .filter(|&length| length < 12)
    {
        return Err(GltfError::new(
            "",
            format!(
                "bad GLB container: a total length of {length} bytes, less than its 12-byte header"
            ),
        ));
    }
    Ok(())
}

/// Every primitive's POSITION accessor is one the file has: the `gltf` crate's validation
/// reads that accessor before it checks the index (gltf-json 1.4.1 panics, found by the
/// fuzz target), so it is checked first.
fn check_position_accessors(root: &gltf::json::Root) -> Result<(), GltfError> {
    let positions = gltf::json::validation::Checked::Valid(gltf::Semantic::Positions);
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            match primitive.attributes.get(&positions) {
                Some(index) if index.value() >= root.accessors.len() => {
                    return Err(GltfError::new(
                        &format!("meshes[{m}].primitives[{p}].attributes.POSITION"),
                        format!(
                            "accessor {} does not exist: the file has {} accessors",
                            index.value(),
                            root.accessors.len()
                        ),
                    ))
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Every animation channel's target path is one glTF names: the `gltf` crate's validation
/// leaves it unchecked and its `Target::property` panics on another (gltf 1.4.1, found by
/// the fuzz target from a rig's GLB).
fn check_animation_paths(root: &gltf::json::Root) -> Result<(), GltfError> {
    for (a, animation) in root.animations.iter().enumerate() {
        for (c, channel) in animation.channels.iter().enumerate() {
            if let gltf::json::validation::Checked::Invalid = channel.target.path {
                return Err(GltfError::new(
                    &format!("animations[{a}].channels[{c}].target.path"),
                    "expected \"translation\", \"rotation\", \"scale\" or \"weights\"",
                ));
            }
        }
    }
    Ok(())
}

/// Every image has a source the `gltf` crate can give: a `uri`, or a `bufferView` with its
/// `mimeType`. Its validation leaves both unchecked and its `Image::source` panics without
/// them (gltf 1.4.1, found by the fuzz target from a rig's GLB).
fn check_image_sources(root: &gltf::json::Root) -> Result<(), GltfError> {
    for (i, image) in root.images.iter().enumerate() {
        match (&image.buffer_view, &image.uri, &image.mime_type) {
            (Some(_), _, None) => {
                return Err(GltfError::new(
                    &format!("images[{i}].mimeType"),
                    "an image in a bufferView needs its mimeType (image/png or image/jpeg)",
                ))
            }
            (None, None, _) => {
                return Err(GltfError::new(
                    &format!("images[{i}]"),
                    "expected a uri or a bufferView",
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The `gltf` crate's error as a path and a message.
fn parse_error(error: gltf::Error) -> GltfError {
    match error {
        gltf::Error::Validation(errors) if !errors.is_empty() => {
            let (path, problem) = &errors[0];
            let more = match errors.len() {
                1 => String::new(),
                n => format!(" (and {} more problems)", n - 1),
            };
            GltfError::new(&path.to_string(), format!("{problem}{more}"))
        }
        gltf::Error::Deserialize(e) => {
            // serde_json's message ends with " at line L column C": it goes in front.
            let message = e.to_string();
            let message = message.split(" at line ").next().unwrap_or(&message);
            GltfError::new(
                "",
                format!(
                    "bad glTF JSON at line {} column {}: {message}",
                    e.line(),
                    e.column()
                ),
            )
        }
        gltf::Error::Binary(e) => GltfError::new("", format!("bad GLB container: {e}")),
        other => GltfError::new("", other.to_string()),
    }
}

/// Every buffer's bytes: the GLB's BIN chunk, a data URI or a file.
fn buffers(gltf: &gltf::Gltf, files: &Files<'_>) -> Result<Vec<Vec<u8>>, GltfError> {
    let mut blob = gltf.blob.clone();
    gltf.document
        .buffers()
        .map(|buffer| {
            let path = format!("buffers[{}]", buffer.index());
            let data = match buffer.source() {
                gltf::buffer::Source::Bin => blob.take().ok_or_else(|| {
                    GltfError::new(&path, "no uri, and the file has no GLB BIN chunk")
                })?,
                gltf::buffer::Source::Uri(uri) => resolve_uri(uri, files, &path)?.0,
            };
            if data.len() < buffer.length() {
                return Err(GltfError::new(
                    &path,
                    format!(
                        "byteLength is {} but the data has {} bytes",
                        buffer.length(),
                        data.len()
                    ),
                ));
            }
            Ok(data)
        })
        .collect()
}

/// The bytes a URI names and its media type when a data URI gives one.
fn resolve_uri(
    uri: &str,
    files: &Files<'_>,
    path: &str,
) -> Result<(Vec<u8>, Option<String>), GltfError> {
    if let Some(data) = uri.strip_prefix("data:") {
        let Some((header, payload)) = data.split_once(',') else {
            return Err(GltfError::new(path, "a data URI without a ','"));
        };
        let Some(media_type) = header.strip_suffix(";base64") else {
            return Err(GltfError::new(path, "a data URI that is not base64"));
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(payload)
            .map_err(|e| GltfError::new(path, format!("bad base64 in the data URI: {e}")))?;
        return Ok((bytes, Some(media_type.to_string())));
    }
    if uri.contains("://") {
        return Err(GltfError::new(
            path,
            format!("uri {uri:?}: only relative file names and data URIs are read"),
        ));
    }
    let name = percent_decoded(uri)
        .ok_or_else(|| GltfError::new(path, format!("uri {uri:?}: bad percent escape")))?;
    match files {
        Files::Read(read) => read(&name)
            .map(|bytes| (bytes, None))
            .map_err(|e| GltfError::new(path, format!("uri {name}: {e}"))),
        Files::None => Err(GltfError::new(
            path,
            format!("uri {name}: files are not read here"),
        )),
    }
}

/// A URI's `%XX` escapes decoded (glTF URIs are percent-encoded: a space is `%20`).
fn percent_decoded(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn nodes(document: &gltf::Document) -> Vec<Node> {
    let mut nodes: Vec<Node> = document
        .nodes()
        .map(|node| {
            let (t, r, s) = node.transform().decomposed();
            let rest = Trs {
                translation: t.map(f64::from),
                rotation: r.map(f64::from),
                scale: s.map(f64::from),
            };
            let rest_matrix = match node.transform() {
                gltf::scene::Transform::Matrix { matrix } => affine::from_columns(&matrix),
                _ => rest.matrix(),
            };
            Node {
                name: node
                    .name()
                    .map_or_else(|| format!("node {}", node.index()), str::to_string),
                parent: None,
                rest,
                rest_matrix,
            }
        })
        .collect();
    for node in document.nodes() {
        for child in node.children() {
            // A second parent is found by `scene_order`; the first one is kept here.
            nodes[child.index()].parent.get_or_insert(node.index());
        }
    }
    nodes
}

/// The default scene's nodes, parents first; a node reached twice (two parents, or a
/// cycle) is an error.
fn scene_order(document: &gltf::Document, nodes: &[Node]) -> Result<Vec<usize>, GltfError> {
    let scene = document
        .default_scene()
        .or_else(|| document.scenes().next())
        .ok_or_else(|| GltfError::new("scenes", "the file has no scene"))?;
    let mut seen = vec![false; nodes.len()];
    let mut order = Vec::new();
    let mut stack: Vec<gltf::Node<'_>> = scene.nodes().collect();
    stack.reverse();
    while let Some(node) = stack.pop() {
        let index = node.index();
        if std::mem::replace(&mut seen[index], true) {
            return Err(GltfError::new(
                &format!("nodes[{index}]"),
                "the node is reached twice from the scene (a node has one parent, and \
                 the hierarchy no cycle)",
            ));
        }
        let is_root = scene.nodes().any(|n| n.index() == index);
        if is_root && nodes[index].parent.is_some() {
            return Err(GltfError::new(
                &format!("scenes[{}].nodes", scene.index()),
                format!("nodes[{index}] is a scene root and the child of another node"),
            ));
        }
        order.push(index);
        let mut children: Vec<gltf::Node<'_>> = node.children().collect();
        children.reverse();
        stack.extend(children);
    }
    Ok(order)
}

/// Each node's world matrix from its local ones (`local[i]`), for the nodes of `order`
/// (parents first); the others stay the identity.
pub fn world_matrices(nodes: &[Node], order: &[usize], local: &[Affine]) -> Vec<Affine> {
    let mut world = vec![affine::IDENTITY; nodes.len()];
    for &index in order {
        world[index] = match nodes[index].parent {
            Some(parent) => affine::mul(&world[parent], &local[index]),
            None => local[index],
        };
    }
    world
}

fn material(material: &gltf::Material<'_>) -> Result<Material, GltfError> {
    let index = material.index().unwrap_or(0);
    let path = format!("materials[{index}]");
    let (base_color, info) = match material.pbr_specular_glossiness() {
        Some(sg) => (sg.diffuse_factor(), sg.diffuse_texture()),
        None => {
            let pbr = material.pbr_metallic_roughness();
            (pbr.base_color_factor(), pbr.base_color_texture())
        }
    };
    let texture = match info {
        None => None,
        Some(info) => {
            let image = info.texture().source().index();
            let transform = info.texture_transform();
            Some(TextureUse {
                image,
                tex_coord: transform
                    .as_ref()
                    .and_then(|t| t.tex_coord())
                    .unwrap_or(info.tex_coord()),
                transform: transform.map_or(IDENTITY_UV, |t| {
                    uv_transform(t.offset(), t.rotation(), t.scale())
                }),
            })
        }
    };
    let extras = match material.extras() {
        None => serde_json::Map::new(),
        Some(raw) => match serde_json::from_str(raw.get()) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        },
    };
    Ok(Material {
        name: material
            .name()
            .map_or_else(|| format!("material {index}"), str::to_string),
        path,
        base_color: base_color.map(f64::from),
        texture,
        alpha: match material.alpha_mode() {
            gltf::material::AlphaMode::Opaque => Alpha::Opaque,
            gltf::material::AlphaMode::Mask => {
                Alpha::Mask(f64::from(material.alpha_cutoff().unwrap_or(0.5)))
            }
            gltf::material::AlphaMode::Blend => Alpha::Blend,
        },
        double_sided: material.double_sided(),
        extras,
    })
}

const IDENTITY_UV: [[f64; 3]; 2] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];

/// KHR_texture_transform's `T * R * S` as a 2x3 matrix.
fn uv_transform(offset: [f32; 2], rotation: f32, scale: [f32; 2]) -> [[f64; 3]; 2] {
    let (sin, cos) = f64::from(rotation).sin_cos();
    let [sx, sy] = scale.map(f64::from);
    let [ox, oy] = offset.map(f64::from);
    [[cos * sx, sin * sy, ox], [-sin * sx, cos * sy, oy]]
}

impl TextureUse {
    /// `uv` through the texture transform.
    pub fn apply(&self, [u, v]: [f64; 2]) -> [f64; 2] {
        let m = &self.transform;
        [
            m[0][0] * u + m[0][1] * v + m[0][2],
            m[1][0] * u + m[1][1] * v + m[1][2],
        ]
    }
}

fn instance(
    node: &gltf::Node<'_>,
    mesh: &gltf::Mesh<'_>,
    materials: &[Material],
    buffers: &[Vec<u8>],
) -> Result<Instance, GltfError> {
    let mesh_name = mesh
        .name()
        .map_or_else(|| format!("mesh {}", mesh.index()), str::to_string);
    let primitives = mesh
        .primitives()
        .map(|p| primitive(mesh, &mesh_name, &p, materials, buffers))
        .collect::<Result<_, _>>()?;
    Ok(Instance {
        node: node.index(),
        name: node.name().unwrap_or(&mesh_name).to_string(),
        mesh_name,
        skin: node.skin().map(|s| s.index()),
        primitives,
    })
}

fn primitive(
    mesh: &gltf::Mesh<'_>,
    mesh_name: &str,
    primitive: &gltf::Primitive<'_>,
    materials: &[Material],
    buffers: &[Vec<u8>],
) -> Result<Primitive, GltfError> {
    let path = format!("meshes[{}].primitives[{}]", mesh.index(), primitive.index());
    let mode = primitive.mode();
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        return Err(GltfError::new(
            &path,
            format!(
                "mesh {mesh_name}: mode {mode:?} is not read, expected TRIANGLES, \
                 TRIANGLE_STRIP or TRIANGLE_FAN"
            ),
        ));
    }
    let attribute = |name: &str| {
        primitive
            .attributes()
            .find(|(semantic, _)| semantic.to_string() == name)
            .map(|(_, accessor)| accessor)
    };
    let what = |name: &str| format!("{name} of {path}");
    let Some(position_accessor) = attribute("POSITION") else {
        return Err(GltfError::new(&path, "no POSITION attribute"));
    };
    let positions = accessor::read::<3>(
        &position_accessor,
        buffers,
        &[Dimensions::Vec3],
        Kind::Float,
        &what("POSITION"),
    )?;
    let count = positions.len();
    let same_count = |name: &str, n: usize| {
        if n == count {
            Ok(())
        } else {
            Err(GltfError::new(
                &path,
                format!("{name} has {n} elements, POSITION {count}"),
            ))
        }
    };
    let normals = match attribute("NORMAL") {
        Some(a) => {
            let n = accessor::read::<3>(
                &a,
                buffers,
                &[Dimensions::Vec3],
                Kind::Float,
                &what("NORMAL"),
            )?;
            same_count("NORMAL", n.len())?;
            Some(n)
        }
        None => None,
    };
    let material = primitive.material().index();
    let texture = material.and_then(|m| materials[m].texture.as_ref());
    let uvs = match texture {
        Some(texture) => {
            let name = format!("TEXCOORD_{}", texture.tex_coord);
            let Some(a) = attribute(&name) else {
                return Err(GltfError::new(
                    &path,
                    format!(
                        "its material {} has a base colour texture on {name}, which the \
                         primitive does not have",
                        materials[material.unwrap_or(0)].name
                    ),
                ));
            };
            let uv = accessor::read::<2>(
                &a,
                buffers,
                &[Dimensions::Vec2],
                Kind::FloatOrNormalized,
                &what(&name),
            )?;
            same_count(&name, uv.len())?;
            Some(uv.into_iter().map(|uv| texture.apply(uv)).collect())
        }
        None => None,
    };
    let colors = match attribute("COLOR_0") {
        Some(a) => {
            let rgba = match a.dimensions() {
                Dimensions::Vec3 => accessor::read::<3>(
                    &a,
                    buffers,
                    &[Dimensions::Vec3],
                    Kind::FloatOrNormalized,
                    &what("COLOR_0"),
                )?
                .into_iter()
                .map(|[r, g, b]| [r, g, b, 1.0])
                .collect(),
                _ => accessor::read::<4>(
                    &a,
                    buffers,
                    &[Dimensions::Vec3, Dimensions::Vec4],
                    Kind::FloatOrNormalized,
                    &what("COLOR_0"),
                )?,
            };
            same_count("COLOR_0", rgba.len())?;
            Some(rgba)
        }
        None => None,
    };
    let joints = match attribute("JOINTS_0") {
        Some(a) => {
            let j = accessor::read::<4>(
                &a,
                buffers,
                &[Dimensions::Vec4],
                Kind::Unsigned,
                &what("JOINTS_0"),
            )?;
            same_count("JOINTS_0", j.len())?;
            Some(
                j.into_iter()
                    .map(|j| j.map(|c| c.min(f64::from(u16::MAX)) as u16))
                    .collect(),
            )
        }
        None => None,
    };
    let weights = match attribute("WEIGHTS_0") {
        Some(a) => {
            let w = accessor::read::<4>(
                &a,
                buffers,
                &[Dimensions::Vec4],
                Kind::FloatOrNormalized,
                &what("WEIGHTS_0"),
            )?;
            same_count("WEIGHTS_0", w.len())?;
            Some(w)
        }
        None => None,
    };
    let indices: Vec<u32> = match primitive.indices() {
        Some(a) => {
            let raw = accessor::read::<1>(
                &a,
                buffers,
                &[Dimensions::Scalar],
                Kind::Unsigned,
                &what("indices"),
            )?;
            if let Some((at, [bad])) = raw.iter().enumerate().find(|(_, [i])| *i as usize >= count)
            {
                return Err(GltfError::new(
                    &format!("accessors[{}]", a.index()),
                    format!(
                        "indices of {path}: index {bad} at element {at} is out of range \
                         (POSITION has {count} elements)"
                    ),
                ));
            }
            raw.into_iter().map(|[i]| i as u32).collect()
        }
        None => (0..count as u32).collect(),
    };
    Ok(Primitive {
        path,
        material,
        positions,
        normals,
        uvs,
        colors,
        joints,
        weights,
        triangles: triangles(&indices, mode),
    })
}

/// Triangle lists, strips and fans as triangles, each counter-clockwise like the file's
/// first triangle (glTF's rules for strips and fans).
fn triangles(indices: &[u32], mode: Mode) -> Vec<[u32; 3]> {
    match mode {
        Mode::TriangleStrip => (0..indices.len().saturating_sub(2))
            .map(|i| match i % 2 {
                0 => [indices[i], indices[i + 1], indices[i + 2]],
                _ => [indices[i + 1], indices[i], indices[i + 2]],
            })
            .collect(),
        Mode::TriangleFan => (1..indices.len().saturating_sub(1))
            .map(|i| [indices[i], indices[i + 1], indices[0]])
            .collect(),
        _ => indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect(),
    }
}

fn encoded_image(
    image: &gltf::Image<'_>,
    buffers: &[Vec<u8>],
    files: &Files<'_>,
) -> Result<EncodedImage, GltfError> {
    let path = format!("images[{}]", image.index());
    let (bytes, media_type, file_name) = match image.source() {
        gltf::image::Source::View { view, mime_type } => {
            let data = &buffers[view.buffer().index()];
            let end = view.offset().checked_add(view.length());
            let bytes = end
                .and_then(|end| data.get(view.offset()..end))
                .ok_or_else(|| {
                    GltfError::new(
                        &format!("bufferViews[{}]", view.index()),
                        "the image's bytes pass the end of its buffer",
                    )
                })?;
            (bytes.to_vec(), Some(mime_type.to_string()), None)
        }
        gltf::image::Source::Uri { uri, mime_type } => {
            let (bytes, data_type) = resolve_uri(uri, files, &path)?;
            let file_name = (!uri.starts_with("data:"))
                .then(|| percent_decoded(uri))
                .flatten()
                .and_then(|name| {
                    Path::new(&name)
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                });
            (
                bytes,
                mime_type.map(str::to_string).or(data_type),
                file_name,
            )
        }
    };
    let format = if bytes.starts_with(b"\x89PNG") {
        ImageFormat::Png
    } else if bytes.starts_with(&[0xFF, 0xD8]) {
        ImageFormat::Jpeg
    } else {
        return Err(GltfError::new(
            &path,
            format!(
                "the image ({}) is neither PNG nor JPEG",
                media_type.as_deref().unwrap_or("no media type")
            ),
        ));
    };
    Ok(EncodedImage {
        name: image
            .name()
            .map(str::to_string)
            .or(file_name)
            .unwrap_or_else(|| format!("image {}", image.index())),
        path,
        format,
        bytes,
    })
}

fn read_skin(skin: &gltf::Skin<'_>, buffers: &[Vec<u8>]) -> Result<Skin, GltfError> {
    let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
    let inverse_bind = match skin.inverse_bind_matrices() {
        Some(a) => {
            let columns = accessor::read::<16>(
                &a,
                buffers,
                &[Dimensions::Mat4],
                Kind::Float,
                &format!("inverseBindMatrices of skins[{}]", skin.index()),
            )?;
            if columns.len() < joints.len() {
                return Err(GltfError::new(
                    &format!("skins[{}]", skin.index()),
                    format!(
                        "{} inverse bind matrices for {} joints",
                        columns.len(),
                        joints.len()
                    ),
                ));
            }
            columns
                .iter()
                .map(|c| {
                    let mut m = [[0.0; 4]; 3];
                    for (r, row) in m.iter_mut().enumerate() {
                        for (col, cell) in row.iter_mut().enumerate() {
                            *cell = c[col * 4 + r];
                        }
                    }
                    m
                })
                .collect()
        }
        None => vec![affine::IDENTITY; joints.len()],
    };
    Ok(Skin {
        joints,
        inverse_bind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glb_shorter_than_its_header_is_an_error_not_a_panic() {
        // The fuzzer's find: a total length of 0 made the `gltf` crate subtract past 0.
        let mut glb = b"glTF\x02\0\0\0\0\0\0\0".to_vec();
        glb.extend_from_slice(&[0; 64]);
        let error = read(&glb, &Files::None).err().expect("an error");
        assert!(
            error.message.contains("less than its 12-byte header"),
            "{error}"
        );
    }

    #[test]
    fn a_position_accessor_the_file_lacks_is_an_error_not_a_panic() {
        // The fuzzer's find: the `gltf` crate's validation read accessor 47 of none.
        let json = br#"{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{"POSITION":47}}]}]}"#;
        let error = read(json, &Files::None).err().expect("an error");
        assert_eq!(error.path, "meshes[0].primitives[0].attributes.POSITION");
        assert_eq!(
            error.message,
            "accessor 47 does not exist: the file has 0 accessors"
        );
    }

    #[test]
    fn an_animation_path_gltf_does_not_name_is_an_error_not_a_panic() {
        // The fuzzer's find: a channel's path mangled in a rig's GLB passed the `gltf`
        // crate's validation, and its `Target::property` panicked on it.
        let json = br#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{}],
            "buffers":[{"byteLength":8,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8="}],
            "bufferViews":[{"buffer":0,"byteLength":8}],
            "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]}],
            "animations":[{"samplers":[{"input":0,"output":0}],
                "channels":[{"sampler":0,"target":{"node":0,"path":"jiggle"}}]}]}"#;
        let error = read(json, &Files::None).err().expect("an error");
        assert_eq!(error.path, "animations[0].channels[0].target.path");
        assert_eq!(
            error.message,
            r#"expected "translation", "rotation", "scale" or "weights""#
        );
    }

    #[test]
    fn an_image_without_a_source_is_an_error_not_a_panic() {
        // The fuzzer's find: an image with neither a uri nor a bufferView (or a bufferView
        // without its mimeType) passed the `gltf` crate's validation, and its
        // `Image::source` panicked on it.
        let no_source = br#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
            "nodes":[{}],"images":[{"name":"skin"}]}"#;
        let error = read(no_source, &Files::None).err().expect("an error");
        assert_eq!(error.path, "images[0]");
        assert_eq!(error.message, "expected a uri or a bufferView");
        let no_type = br#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
            "nodes":[{}],
            "buffers":[{"byteLength":8,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8="}],
            "bufferViews":[{"buffer":0,"byteLength":8}],
            "images":[{"bufferView":0}]}"#;
        let error = read(no_type, &Files::None).err().expect("an error");
        assert_eq!(error.path, "images[0].mimeType");
    }

    #[test]
    fn strips_and_fans_keep_the_first_triangles_winding() {
        assert_eq!(
            triangles(&[0, 1, 2, 3, 4], Mode::TriangleStrip),
            [[0, 1, 2], [2, 1, 3], [2, 3, 4]]
        );
        assert_eq!(
            triangles(&[0, 1, 2, 3], Mode::TriangleFan),
            [[1, 2, 0], [2, 3, 0]]
        );
        assert_eq!(percent_decoded("a%20b.png").as_deref(), Some("a b.png"));
        assert_eq!(percent_decoded("a%2"), None);
    }
}
