//! The glTF 2.0 importer (`.gltf` with its buffers and images, or `.glb`): the file is read
//! by [`crate::gltf_file`] and put into the shared scene. Geometry: the default scene's mesh
//! nodes at their world transforms (a skinned mesh's points through their heaviest joint's
//! bind), one group per mesh node; a skinned mesh's vertices each in the group of their
//! heaviest joint (one per joint for all skinned meshes of a level of detail: a `_LODk`
//! mesh node's are `JOINT_LODk`, see levels.rs), its faces in that of most of their
//! corners, so that a face may span joints. Materials: base colour
//! (or KHR_materials_pbrSpecularGlossiness's diffuse), its texture (PNG or JPEG, with
//! KHR_texture_transform), alphaMode, doubleSided, and the MTL's `jo_*` options from the
//! material's extras (Blender's custom properties). The rig: the joints that move geometry
//! and their ancestors, and every animation sampled every `--key-ticks` ticks as the
//! joints' skinning matrices (rig.rs turns them into angles, offsets and scales).
//! docs/convert.md ("glTF") is the user documentation.

use super::levels;
use super::mtl;
use super::rig::{RigBone, SampledAnimation};
use super::scene::{
    Corner, Face, Image, Material, Origin, Place, Scene, SceneAxes, SceneRig, TextureRef, Vertex,
};
use super::{Error, Sources};
use crate::gltf_file::affine::{self, Affine};
use crate::gltf_file::{self, Alpha, Files, GltfError, ImageFormat, Model};
use jom::format::MaterialFlags;
use std::collections::HashMap;
use std::path::Path;

/// The options of the glTF importer.
#[derive(clap::Args, Clone, Debug)]
#[group(id = "GltfOptions")]
pub struct Options {
    /// glTF and CMB: ticks (1/60 s) between two keys of the sampled animations.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_KEY_TICKS,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub key_ticks: u16,
    /// glTF: the animation NAME loops (its last key goes back to the first); also any
    /// animation whose name ends in "loop". May be given several times.
    #[arg(long = "loop", value_name = "NAME")]
    pub loops: Vec<String>,
}

/// 2 ticks: 30 keys a second, close to Blender's 24 frames a second, so that no frame's
/// pose falls far from a key; an animation of one second costs 30 keys of 6 bytes a bone.
pub const DEFAULT_KEY_TICKS: u16 = 2;

/// Ticks of one second (jom::anim::TICKS_PER_SECOND).
const TICKS_PER_SECOND: f64 = 60.0;

/// The most keys an animation holds (ANIM key_count is a u16).
const MAX_KEYS: usize = u16::MAX as usize;

/// JO_3D_MAX_BONES.
const MAX_BONES: usize = 32;

/// Whether `bytes` (of a file named `path`) are glTF: by extension, else by the GLB magic
/// or a JSON object naming an `asset`.
pub fn is_gltf(path: &Path, bytes: &[u8]) -> bool {
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if matches!(extension.as_deref(), Some("gltf" | "glb")) {
        return true;
    }
    if bytes.starts_with(gltf_file::GLB_MAGIC) {
        return true;
    }
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    text.trim_start().starts_with('{') && text.contains("\"asset\"")
}

/// Reads `path` (its bytes `bytes`) into a scene with its rig.
pub fn read(
    path: &Path,
    bytes: &[u8],
    options: &Options,
    sources: &Sources,
) -> Result<Scene, Error> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let read = |name: &str| sources.read(&dir.join(name));
    let model = gltf_file::read(bytes, &Files::Read(&read)).map_err(|e| at(path, &e))?;
    let mut builder = Builder::new(path, &model, sources);
    builder.geometry().map_err(|e| at(path, &e))?;
    builder.materials().map_err(|e| at(path, &e))?;
    let rig = builder.rig(options).map_err(|e| at(path, &e))?;
    let mut scene = builder.scene;
    scene.rig = rig;
    Ok(scene)
}

/// A reader's error as the converter's.
fn at(path: &Path, error: &GltfError) -> Error {
    let place = match error.path.is_empty() {
        true => Place::File,
        false => Place::Json(error.path.clone()),
    };
    Error::new(path.to_path_buf(), place, error.message.clone())
}

fn origin(path: &str) -> Origin {
    Origin {
        file: 0,
        place: Place::Json(path.to_string()),
    }
}

struct Builder<'m> {
    model: &'m Model,
    /// Where warnings go.
    sources: &'m Sources,
    scene: Scene,
    /// The rest world matrix of every node.
    world_rest: Vec<Affine>,
    /// Nodes that are joints of a skin or animated: what can move geometry.
    movable: Vec<bool>,
    /// For each scene group, the node that moves it: a joint (or a node animated
    /// itself), or none.
    owners: Vec<Option<usize>>,
    /// For each scene group, the mesh node that made it first (for errors).
    makers: Vec<usize>,
    /// The glTF material of each scene material, in order of first use.
    used_materials: Vec<usize>,
}

impl<'m> Builder<'m> {
    fn new(path: &Path, model: &'m Model, sources: &'m Sources) -> Self {
        let local: Vec<Affine> = model.nodes.iter().map(|n| n.rest_matrix).collect();
        let world_rest = gltf_file::world_matrices(&model.nodes, &model.scene_order, &local);
        let mut movable = vec![false; model.nodes.len()];
        for skin in &model.skins {
            for &joint in &skin.joints {
                movable[joint] = true;
            }
        }
        for animation in &model.animations {
            for channel in &animation.channels {
                movable[channel.node] = true;
            }
        }
        Self {
            model,
            sources,
            scene: Scene::new(path, SceneAxes::YUpRightHanded),
            world_rest,
            movable,
            owners: Vec::new(),
            makers: Vec::new(),
            used_materials: Vec::new(),
        }
    }

    /// The nearest of `node` and its ancestors that can move, if any.
    fn moving_ancestor(&self, node: usize) -> Option<usize> {
        let mut at = Some(node);
        while let Some(n) = at {
            if self.movable[n] {
                return Some(n);
            }
            at = self.model.nodes[n].parent;
        }
        None
    }

    /// The group of `instance` moved by `owner`, made on first use (`groups`: by level of
    /// detail and owner): named after the joint in a skinned mesh (with the node's `_LODk`
    /// in a lower level's, docs/levels.md), after the node otherwise.
    fn group_of(
        &mut self,
        groups: &mut HashMap<(usize, Option<usize>), u32>,
        instance: &gltf_file::Instance,
        skinned: bool,
        owner: Option<usize>,
    ) -> u32 {
        let level = levels::level_of(&instance.name);
        *groups.entry((level, owner)).or_insert_with(|| {
            let name = match (skinned, owner) {
                (true, Some(joint)) if level > 0 => {
                    levels::level_name(&self.model.nodes[joint].name, level)
                }
                (true, Some(joint)) => self.model.nodes[joint].name.clone(),
                _ => instance.name.clone(),
            };
            self.scene.groups.push(name);
            self.owners.push(owner);
            self.makers.push(instance.node);
            self.scene.groups.len() as u32 - 1
        })
    }

    /// The groups of the model itself (level of detail 0): a lower level's are moved by
    /// the bone of the model's group they are part of, which must be moved by the same
    /// node (a skinned level bound to the model's armature); else the error naming the
    /// level's mesh node.
    fn own_groups(&self) -> Result<Vec<bool>, GltfError> {
        let groups = &self.scene.groups;
        let own: Vec<bool> = groups.iter().map(|g| levels::level_of(g) == 0).collect();
        if self.owners.iter().all(Option::is_none) {
            // Nothing moves: no skeleton, the levels are cut by name alone.
            return Ok(own);
        }
        for (g, name) in groups.iter().enumerate().filter(|&(g, _)| !own[g]) {
            let (base, level) = levels::base_and_level(name);
            let model_part = (0..groups.len()).find(|&o| own[o] && groups[o] == base);
            let owner = self.owners[g];
            if model_part.is_some_and(|o| self.owners[o] == owner) {
                continue;
            }
            let node = self.makers[g];
            let mover = |owner: Option<usize>| match owner {
                Some(n) => format!("node {} (nodes[{n}])", self.model.nodes[n].name),
                None => "no node".to_string(),
            };
            let found = match model_part {
                Some(o) => format!(
                    "the model's part {base} moves with {}",
                    mover(self.owners[o])
                ),
                None => format!("the model itself has no part {base}"),
            };
            return Err(GltfError::new(
                &format!("nodes[{node}]"),
                format!(
                    "mesh node {} (level of detail {level}) has a part {name} that moves with \
                     {}, and {found}: a lower level's parts move with the model's (a skinned \
                     level: skinned to the model's own armature, on joints that move the \
                     model's own vertices)",
                    self.model.nodes[node].name,
                    mover(owner)
                ),
            ));
        }
        Ok(own)
    }

    /// The scene material of glTF material `m`.
    fn use_material(&mut self, m: usize) -> u32 {
        let index = match self.used_materials.iter().position(|&u| u == m) {
            Some(index) => index,
            None => {
                self.used_materials.push(m);
                self.used_materials.len() - 1
            }
        };
        index as u32
    }

    /// The scene's materials and images, from the used glTF materials.
    fn materials(&mut self) -> Result<(), GltfError> {
        // The scene image of each (glTF image, alpha mode, colour factor).
        let mut images: Vec<(usize, Alpha, [u64; 3], u32)> = Vec::new();
        for &m in &self.used_materials.clone() {
            let gltf_material = &self.model.materials[m];
            let mut material = material(gltf_material, self.scene.files[0].as_path())?;
            if let Some(texture) = &gltf_material.texture {
                let factor = [0, 1, 2].map(|c| gltf_material.base_color[c]);
                let key = (texture.image, gltf_material.alpha, factor.map(f64::to_bits));
                let image = match images.iter().find(|(i, a, f, _)| (*i, *a, *f) == key) {
                    Some(&(.., index)) => index,
                    None => {
                        let image = decode(
                            &self.model.images[texture.image],
                            gltf_material.alpha,
                            factor,
                        )?;
                        self.scene.images.push(image);
                        let index = self.scene.images.len() as u32 - 1;
                        images.push((key.0, key.1, key.2, index));
                        index
                    }
                };
                material.texture = Some(TextureRef {
                    image,
                    origin: origin(&gltf_material.path),
                });
            }
            self.scene.materials.push(material);
        }
        Ok(())
    }

    /// The bones (the nodes that move geometry and their movable ancestors, parents
    /// first, one more bone for each further group a node moves) and every animation
    /// sampled every `options.key_ticks` ticks.
    fn rig(&self, options: &Options) -> Result<Option<SceneRig>, GltfError> {
        let nodes = &self.model.nodes;
        let own = self.own_groups()?;
        let mut wanted = vec![false; nodes.len()];
        let own_owners = self.owners.iter().zip(&own).filter(|(_, &own)| own);
        for &owner in own_owners.filter_map(|(owner, _)| owner.as_ref()) {
            let mut at = Some(owner);
            while let Some(n) = at {
                wanted[n] |= self.movable[n];
                at = nodes[n].parent;
            }
        }
        let mut bone_nodes: Vec<usize> = Vec::new();
        let mut bone_of_node: HashMap<usize, usize> = HashMap::new();
        let mut bones: Vec<RigBone> = Vec::new();
        for &n in self.model.scene_order.iter().filter(|&&n| wanted[n]) {
            let mut parent = nodes[n].parent;
            while let Some(p) = parent.filter(|p| !bone_of_node.contains_key(p)) {
                parent = nodes[p].parent;
            }
            bone_of_node.insert(n, bones.len());
            bone_nodes.push(n);
            let w = &self.world_rest[n];
            bones.push(RigBone {
                name: nodes[n].name.clone(),
                parent: parent.map(|p| bone_of_node[&p]),
                group: None,
                pivot: [w[0][3], w[1][3], w[2][3]],
            });
        }
        for (group, owner) in self.owners.iter().enumerate() {
            let Some(owner) = owner.filter(|_| own[group]) else {
                continue;
            };
            let Some(&bone) = bone_of_node.get(&owner) else {
                return Err(GltfError::new(
                    &format!("nodes[{owner}]"),
                    format!(
                        "the joint {} moves geometry but is not in the default scene",
                        nodes[owner].name
                    ),
                ));
            };
            if bones[bone].group.is_none() {
                bones[bone].group = Some(group as u16);
            } else {
                // A second part on the same joint: a bone of its own that follows it.
                bones.push(RigBone {
                    name: self.scene.groups[group].clone(),
                    parent: Some(bone),
                    group: Some(group as u16),
                    pivot: bones[bone].pivot,
                });
                bone_nodes.push(owner);
            }
        }
        if bones.is_empty() {
            return Ok(None);
        }
        if bones.len() > MAX_BONES {
            return Err(GltfError::new(
                "",
                format!(
                    "the model needs {} bones (the joints that move geometry, their                      ancestors, and one for each further part on a joint), more than the                      {MAX_BONES} of JO_3D_MAX_BONES",
                    bones.len()
                ),
            ));
        }
        let rest_inverse = bone_nodes
            .iter()
            .map(|&n| {
                affine::inverse(&self.world_rest[n]).ok_or_else(|| {
                    GltfError::new(
                        &format!("nodes[{n}]"),
                        "the joint's rest transform flattens space (a scale of 0)",
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let animations = self
            .model
            .animations
            .iter()
            .map(|a| self.sample(a, options, &bone_nodes, &rest_inverse))
            .collect::<Result<_, _>>()?;
        Ok(Some(SceneRig {
            bones,
            animations,
            origin: Origin {
                file: 0,
                place: Place::File,
            },
        }))
    }

    /// `animation`'s keys: each bone's skinning matrix, rest to posed, every
    /// `options.key_ticks` ticks.
    fn sample(
        &self,
        animation: &gltf_file::Animation,
        options: &Options,
        bone_nodes: &[usize],
        rest_inverse: &[Affine],
    ) -> Result<SampledAnimation, GltfError> {
        let looped = options.loops.iter().any(|l| l == &animation.name)
            || animation.name.to_ascii_lowercase().ends_with("loop");
        let key_seconds = f64::from(options.key_ticks) / TICKS_PER_SECOND;
        let spans = (animation.duration() / key_seconds - 1e-9).ceil().max(0.0) as usize;
        // A looping animation's last key goes back to the first: the key at the end is
        // the first one again.
        let count = if looped { spans.max(1) } else { spans + 1 };
        if count > MAX_KEYS {
            return Err(GltfError::new(
                &animation.path,
                format!(
                    "{count} keys at --key-ticks {}, more than the {MAX_KEYS} an animation                      holds",
                    options.key_ticks
                ),
            ));
        }
        let rest: Vec<_> = self.model.nodes.iter().map(|n| n.rest).collect();
        let mut animated = vec![false; rest.len()];
        for channel in &animation.channels {
            animated[channel.node] = true;
        }
        let keys = (0..count)
            .map(|k| {
                let time = (k as f64 * key_seconds).min(animation.duration());
                let pose = animation.pose(&rest, time);
                let local: Vec<Affine> = (0..rest.len())
                    .map(|n| match animated[n] {
                        true => pose[n].matrix(),
                        false => self.model.nodes[n].rest_matrix,
                    })
                    .collect();
                let world =
                    gltf_file::world_matrices(&self.model.nodes, &self.model.scene_order, &local);
                bone_nodes
                    .iter()
                    .zip(rest_inverse)
                    .map(|(&n, inverse)| affine::mul(&world[n], inverse))
                    .collect()
            })
            .collect();
        Ok(SampledAnimation {
            name: animation.name.clone(),
            key_ticks: options.key_ticks,
            looped,
            keys,
        })
    }

    fn geometry(&mut self) -> Result<(), GltfError> {
        let mut split_vertices = 0usize;
        // The skinned meshes' groups: one per joint, whichever meshes' points follow it.
        let mut joint_groups: HashMap<(usize, Option<usize>), u32> = HashMap::new();
        for instance in &self.model.instances {
            // One group for the node (or per moving ancestor of it).
            let mut node_groups: HashMap<(usize, Option<usize>), u32> = HashMap::new();
            let skin = instance.skin.map(|s| &self.model.skins[s]);
            let groups = match skin {
                Some(_) => &mut joint_groups,
                None => &mut node_groups,
            };
            for primitive in &instance.primitives {
                let count = primitive.positions.len();
                // Each vertex's placing matrix (rest world) and the node that moves it.
                let mut placing: Vec<(Affine, Option<usize>)> = Vec::with_capacity(count);
                match skin {
                    Some(skin) => {
                        let (Some(joints), Some(weights)) = (&primitive.joints, &primitive.weights)
                        else {
                            return Err(GltfError::new(
                                &primitive.path,
                                format!(
                                    "mesh {} is skinned but has no JOINTS_0 and WEIGHTS_0",
                                    instance.mesh_name
                                ),
                            ));
                        };
                        for (j, w) in joints.iter().zip(weights) {
                            let heaviest = (0..4).fold(0, |b, i| if w[i] > w[b] { i } else { b });
                            if w.iter().filter(|&&x| x > 1e-3).count() > 1 {
                                split_vertices += 1;
                            }
                            let index = usize::from(j[heaviest]);
                            let Some(&joint) = skin.joints.get(index) else {
                                return Err(GltfError::new(
                                    &primitive.path,
                                    format!(
                                        "JOINTS_0 names joint {index}, the skin has {}",
                                        skin.joints.len()
                                    ),
                                ));
                            };
                            let bind =
                                affine::mul(&self.world_rest[joint], &skin.inverse_bind[index]);
                            placing.push((bind, Some(joint)));
                        }
                    }
                    None => {
                        let world = self.world_rest[instance.node];
                        placing.resize(count, (world, self.moving_ancestor(instance.node)));
                    }
                }
                let material = primitive.material.map(|m| self.use_material(m));
                // Each primitive vertex's scene corner, made on first use.
                let mut corner_of: Vec<Option<Corner>> = vec![None; count];
                for triangle in &primitive.triangles {
                    let owner = face_owner(triangle.map(|v| placing[v as usize].1));
                    let group = self.group_of(groups, instance, skin.is_some(), owner);
                    // A mirroring transform turns the front face to the back.
                    let mirrored = determinant(&placing[triangle[0] as usize].0) < 0.0;
                    let order = if mirrored { [0, 2, 1] } else { [0, 1, 2] };
                    let start = self.scene.corners.len();
                    for i in order {
                        let v = triangle[i] as usize;
                        let corner = match corner_of[v] {
                            Some(corner) => corner,
                            None => {
                                let (place, owner) = placing[v];
                                // A skinned vertex is its joint's, whatever its faces'
                                // groups: faces may span joints and the mesh stays closed.
                                let vertex_group = skin
                                    .is_some()
                                    .then(|| self.group_of(groups, instance, true, owner));
                                let corner = self.add_vertex(primitive, v, &place, vertex_group);
                                corner_of[v] = Some(corner);
                                corner
                            }
                        };
                        self.scene.corners.push(corner);
                    }
                    self.scene.faces.push(Face {
                        corners: start..self.scene.corners.len(),
                        group: Some(group),
                        material,
                        origin: origin(&primitive.path),
                    });
                }
            }
        }
        if split_vertices > 0 {
            self.sources.warn(format!(
                "{}: {split_vertices} skinned vertices had their weight split between joints; \
                 each follows its heaviest joint only",
                self.scene.files[0].display()
            ));
        }
        Ok(())
    }

    /// A new scene vertex for vertex `v` of `primitive` placed by `placing`, in `group`
    /// when it has one of its own, with its uv, normal and colour: the corner that uses it.
    fn add_vertex(
        &mut self,
        primitive: &gltf_file::Primitive,
        v: usize,
        placing: &Affine,
        group: Option<u32>,
    ) -> Corner {
        let scene = &mut self.scene;
        scene.vertices.push(Vertex {
            position: affine::apply(placing, primitive.positions[v]),
            group,
            origin: origin(&primitive.path),
        });
        let last = |n: usize| n as u32 - 1;
        Corner {
            vertex: last(scene.vertices.len()),
            uv: primitive.uvs.as_ref().map(|uvs| {
                scene.uvs.push(uvs[v]);
                last(scene.uvs.len())
            }),
            normal: primitive.normals.as_ref().map(|normals| {
                scene.normals.push(normal_through(placing, normals[v]));
                last(scene.normals.len())
            }),
            color: primitive.colors.as_ref().map(|colors| {
                let [r, g, b, _] = colors[v];
                scene.colors.push([r, g, b]);
                last(scene.colors.len())
            }),
        }
    }
}

/// A scene material from a glTF one: colour, alphaMode BLEND (half transparent),
/// doubleSided (dual plane), then the `jo_*` options of its extras, read as the MTL's.
fn material(gltf_material: &gltf_file::Material, file: &Path) -> Result<Material, GltfError> {
    let mut options = mtl::new_material(file, 0, &[&ascii(&gltf_material.name)])
        .map_err(|m| GltfError::new(&gltf_material.path, m))?;
    options.diffuse = [0, 1, 2].map(|c| gltf_material.base_color[c]);
    let mut flags = MaterialFlags::default().bits();
    if gltf_material.double_sided {
        flags |= MaterialFlags::DUAL_PLANE.bits();
    }
    if gltf_material.alpha == Alpha::Blend {
        flags |= MaterialFlags::HALF_TRANSPARENT.bits();
    }
    options.flags = MaterialFlags::from_bits(flags);
    for (key, value) in gltf_material
        .extras
        .iter()
        .filter(|(k, _)| k.starts_with("jo_"))
    {
        let words = option_words(value);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        options
            .statement(key, &words, Path::new(""), 0)
            .map_err(|m| GltfError::new(&format!("{}.extras.{key}", gltf_material.path), m))?;
    }
    let mut material = Material::plain(options.name.clone(), origin(&gltf_material.path));
    material.diffuse = options.diffuse;
    material.flags = options.flags;
    material.subdivision_error = options.subdivision_error;
    material.value = options.value;
    material.lut = options.lut;
    Ok(material)
}

/// A custom property's value as the words of an MTL statement: `1`, `"min"`, `"1 3"`,
/// `[1, 3]`, `true`.
fn option_words(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::Bool(b) => vec![u8::from(*b).to_string()],
        serde_json::Value::Number(n) => vec![match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        }],
        serde_json::Value::String(s) => s.split_whitespace().map(str::to_string).collect(),
        serde_json::Value::Array(items) => items.iter().flat_map(option_words).collect(),
        other => vec![other.to_string()],
    }
}

/// `name` with every character that is not printable ASCII as `_` (a JOM name is ASCII).
fn ascii(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// An image decoded, its alpha as the material's mode wants it (OPAQUE: none; MASK:
/// transparent under the cutoff; BLEND: as the texels say) and its colour times the
/// material's factor.
fn decode(
    encoded: &gltf_file::EncodedImage,
    alpha: Alpha,
    factor: [f64; 3],
) -> Result<Image, GltfError> {
    let label = format!("{} ({})", encoded.path, encoded.name);
    let error = |m: String| GltfError::new(&encoded.path, m);
    let mut image = match encoded.format {
        ImageFormat::Png => {
            Image::from_png(&encoded.bytes, ascii(&encoded.name), label).map_err(error)?
        }
        ImageFormat::Jpeg => {
            let options = zune_jpeg::zune_core::options::DecoderOptions::default()
                .jpeg_set_out_colorspace(zune_jpeg::zune_core::colorspace::ColorSpace::RGBA);
            let mut decoder = zune_jpeg::JpegDecoder::new_with_options(
                std::io::Cursor::new(&encoded.bytes),
                options,
            );
            let pixels = decoder
                .decode()
                .map_err(|e| error(format!("bad JPEG: {e:?}")))?;
            let info = decoder
                .info()
                .ok_or_else(|| error("bad JPEG: no size".to_string()))?;
            Image {
                name: ascii(&encoded.name),
                label,
                width: u32::from(info.width),
                height: u32::from(info.height),
                rgba: pixels
                    .chunks_exact(4)
                    .map(|p| [p[0], p[1], p[2], p[3]])
                    .collect(),
            }
        }
    };
    let cutoff = match alpha {
        Alpha::Opaque => None,
        Alpha::Mask(cutoff) => Some((cutoff * 255.0).round()),
        Alpha::Blend => Some(-1.0),
    };
    for pixel in &mut image.rgba {
        for c in 0..3 {
            pixel[c] = (f64::from(pixel[c]) * factor[c]).round().clamp(0.0, 255.0) as u8;
        }
        pixel[3] = match cutoff {
            None => 255,
            Some(c) if c < 0.0 => pixel[3],
            Some(c) if f64::from(pixel[3]) < c => 0,
            Some(_) => 255,
        };
    }
    Ok(image)
}

/// What moves a face: what most of its corners follow (on a tie, the first corner's).
fn face_owner(owners: [Option<usize>; 3]) -> Option<usize> {
    match owners {
        [_, b, c] if b == c => b,
        [a, ..] => a,
    }
}

/// The determinant of `m`'s 3x3 part.
fn determinant(m: &Affine) -> f64 {
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
}

/// A normal through `m`: by the inverse transpose of its 3x3 part (right for scaled
/// nodes), the length left to the pipeline.
fn normal_through(m: &Affine, n: [f64; 3]) -> [f64; 3] {
    match affine::inverse(m) {
        Some(inverse) => [0, 1, 2].map(|c| (0..3).map(|r| inverse[r][c] * n[r]).sum()),
        None => n,
    }
}
