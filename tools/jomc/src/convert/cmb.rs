//! The CMB importer: a CMB model (and its CSAB animations) read into the shared scene.
//! The model is made rigid first ([`crate::cmb::rest::make_rigid`]): each vertex follows
//! one bone and is a point of that bone's group, each triangle is a face of the group of
//! the bone most of its weight follows (a triangle over two bones stays joined to its
//! neighbours: its corners are its vertices' bones' points); the bones become the scene's rig with their
//! pivots at their rest positions, and each CSAB is sampled every `key_ticks` into bone
//! matrices. Textures are decoded once and their alpha made what the material's alpha test
//! or blending says (a Saturn texel is opaque or transparent). Everything after (axes,
//! quads, welding, texture baking, the rig's angles) is the pipeline's.

use super::rig::{RigBone, SampledAnimation};
use super::scene::{
    self, Corner, Face, Image, Origin, Place, Scene, SceneAxes, SceneRig, TextureRef, Vertex,
};
use super::{Error, Sources};
use crate::cmb::{csab, model, pica, rest};
use jom::format::MaterialFlags;
use std::path::{Path, PathBuf};

/// The most bones a JOM skeleton has (JO_3D_MAX_BONES).
const MAX_BONES: usize = 32;
/// CSAB frames are 1/30 s, JOM ticks 1/60 s.
const TICKS_PER_FRAME: u64 = 2;

/// Reads `path` and the animations `csabs` (each named after its file), sampled every
/// `key_ticks` ticks (1/60 s).
pub fn read(
    path: &Path,
    csabs: &[PathBuf],
    key_ticks: u16,
    sources: &Sources,
) -> Result<Scene, Error> {
    let bytes = sources
        .read(path)
        .map_err(|e| Error::file(path, e.to_string()))?;
    let cmb = model::parse(&bytes).map_err(|e| format_error(path, &e))?;
    if cmb.bones.len() > MAX_BONES {
        return Err(Error::file(
            path,
            format!(
                "the model has {} bones, more than the {MAX_BONES} of a JOM skeleton",
                cmb.bones.len()
            ),
        ));
    }
    let rigid = rest::make_rigid(&cmb);
    if rigid.smooth_vertices > 0 {
        sources.warn(format!(
            "{}: skinning made rigid: {} vertices weighed between bones follow their heaviest bone",
            path.display(),
            rigid.smooth_vertices,
        ));
    }
    let mut scene = Scene::new(path, SceneAxes::YUpRightHanded);
    let whole = Origin {
        file: 0,
        place: Place::File,
    };
    let materials = add_materials(&mut scene, &cmb, &rigid);
    let (groups, culled) = add_faces(&mut scene, &cmb, &rigid, &materials);
    if culled > 0 {
        sources.warn(format!(
            "{}: {culled} triangles of materials that cull both faces are left out",
            path.display()
        ));
    }
    let animations = csabs
        .iter()
        .map(|csab_path| animation(&cmb, csab_path, key_ticks, sources))
        .collect::<Result<_, _>>()?;
    let rest = rest::rest_matrices(&cmb);
    scene.rig = Some(SceneRig {
        bones: cmb
            .bones
            .iter()
            .enumerate()
            .map(|(b, bone)| RigBone {
                name: format!("bone{}", bone.id),
                parent: bone.parent,
                group: groups[b].map(|g| g as u16),
                pivot: [rest[b][0][3], rest[b][1][3], rest[b][2][3]],
            })
            .collect(),
        animations,
        origin: whole,
    });
    Ok(scene)
}

/// A reader's error as the scene's errors are written: `FILE: byte offset N (0xN): chunk
/// chunk: problem`.
fn format_error(path: &Path, error: &crate::cmb::FormatError) -> Error {
    Error::new(
        path.to_path_buf(),
        Place::Offset(error.offset as u64),
        format!("{} chunk: {}", error.chunk, error.message),
    )
}

/// How a material's texture alpha reaches the Saturn, whose texels are either opaque or
/// transparent.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum AlphaRule {
    /// No alpha test and no blending: the 3DS draws every texel, whatever its alpha.
    Opaque,
    /// The alpha test decides each texel.
    Test(model::AlphaFunction, u8),
    /// Blending: the alpha stays (under 128 is transparent, as for PNG).
    Blend,
}

impl AlphaRule {
    fn of(material: &model::Material) -> Self {
        match (material.alpha_test, material.blending) {
            (Some((function, reference)), _) => Self::Test(function, reference),
            (None, true) => Self::Blend,
            (None, false) => Self::Opaque,
        }
    }

    fn apply(self, texel: [u8; 4]) -> [u8; 4] {
        let [r, g, b, a] = texel;
        let alpha = match self {
            Self::Opaque => 255,
            Self::Test(function, reference) if function.passes(a, reference) => 255,
            Self::Test(..) => 0,
            Self::Blend => a,
        };
        [r, g, b, alpha]
    }
}

/// The scene's images: each texture decoded once, one image per texture and alpha rule.
struct Images {
    decoded: Vec<Vec<[u8; 4]>>,
    made: Vec<((usize, AlphaRule), u32)>,
}

impl Images {
    fn new(cmb: &model::Cmb) -> Self {
        let decoded = cmb
            .textures
            .iter()
            .map(|t| pica::decode(t.format, t.width.into(), t.height.into(), &t.data))
            .collect();
        Self {
            decoded,
            made: Vec::new(),
        }
    }

    /// The image of `texture` under `rule`, added to the scene when new; a texture's later
    /// variants are named `NAME_2`, `NAME_3`, ...
    fn image(
        &mut self,
        scene: &mut Scene,
        cmb: &model::Cmb,
        texture: usize,
        rule: AlphaRule,
    ) -> u32 {
        if let Some(&(_, image)) = self.made.iter().find(|(key, _)| *key == (texture, rule)) {
            return image;
        }
        let source = &cmb.textures[texture];
        let variants = self.made.iter().filter(|((t, _), _)| *t == texture).count();
        let name = match variants {
            0 => source.name.clone(),
            n => format!("{}_{}", source.name, n + 1),
        };
        scene.images.push(Image {
            label: format!("texture {name}"),
            name,
            width: source.width.into(),
            height: source.height.into(),
            rgba: self.decoded[texture]
                .iter()
                .map(|&t| rule.apply(t))
                .collect(),
        });
        let image = scene.images.len() as u32 - 1;
        self.made.push(((texture, rule), image));
        image
    }
}

/// The materials faces use, in file order; `materials[m]` is material m's scene index.
fn add_materials(
    scene: &mut Scene,
    cmb: &model::Cmb,
    rigid: &rest::RigidModel,
) -> Vec<Option<u32>> {
    let used: std::collections::BTreeSet<usize> =
        rigid.triangles.iter().map(|t| t.material).collect();
    let mut images = Images::new(cmb);
    cmb.materials
        .iter()
        .enumerate()
        .map(|(m, material)| {
            if !used.contains(&m) || material.culling == model::Culling::Both {
                return None;
            }
            let origin = Origin {
                file: 0,
                place: Place::File,
            };
            let mut out = scene::Material::plain(format!("material{m}"), origin.clone());
            out.diffuse = [0, 1, 2].map(|c| f64::from(material.diffuse[c]) / 255.0);
            let mut flags = MaterialFlags::default();
            if material.culling == model::Culling::None {
                flags |= MaterialFlags::DUAL_PLANE;
            }
            if material.blending {
                flags |= MaterialFlags::HALF_TRANSPARENT;
            }
            out.flags = flags;
            out.texture = material.texture.map(|t| TextureRef {
                image: images.image(scene, cmb, t, AlphaRule::of(material)),
                origin,
            });
            scene.materials.push(out);
            Some(scene.materials.len() as u32 - 1)
        })
        .collect()
}

/// The rigid triangles as faces, grouped by bone (groups in bone order, only bones that
/// drawn triangles or their corners follow), each corner a vertex of its own bone's
/// group; returns each bone's group and the triangles left out because their material
/// culls both faces. A material that culls front faces shows the back: its triangles are
/// turned round (corners reversed).
fn add_faces(
    scene: &mut Scene,
    cmb: &model::Cmb,
    rigid: &rest::RigidModel,
    materials: &[Option<u32>],
) -> (Vec<Option<u32>>, usize) {
    let drawn = |t: &&rest::Triangle| materials[t.material].is_some();
    let mut groups = vec![None; cmb.bones.len()];
    for (b, bone) in cmb.bones.iter().enumerate() {
        let follows = |t: &rest::Triangle| t.bone == b || t.corners.iter().any(|c| c.bone == b);
        if rigid.triangles.iter().filter(drawn).any(follows) {
            scene.groups.push(format!("bone{}", bone.id));
            groups[b] = Some(scene.groups.len() as u32 - 1);
        }
    }
    let origin = Origin {
        file: 0,
        place: Place::File,
    };
    for (b, &group) in groups.iter().enumerate() {
        for triangle in rigid.triangles.iter().filter(drawn).filter(|t| t.bone == b) {
            let first = scene.corners.len();
            let mut corners = triangle.corners;
            if cmb.materials[triangle.material].culling == model::Culling::Front {
                corners.reverse();
            }
            for corner in &corners {
                scene.vertices.push(Vertex {
                    position: corner.position,
                    group: groups[corner.bone],
                    origin: origin.clone(),
                });
                let uv = corner.uv.map(|[s, t]| {
                    // The scene's v runs down from the first stored row; the 3DS's t up.
                    scene.uvs.push([f64::from(s), 1.0 - f64::from(t)]);
                    scene.uvs.len() as u32 - 1
                });
                let normal = (corner.normal != [0.0; 3]).then(|| {
                    scene.normals.push(corner.normal);
                    scene.normals.len() as u32 - 1
                });
                let color = (corner.color != [1.0; 4]).then(|| {
                    scene
                        .colors
                        .push([0, 1, 2].map(|c| f64::from(corner.color[c])));
                    scene.colors.len() as u32 - 1
                });
                scene.corners.push(Corner {
                    vertex: scene.vertices.len() as u32 - 1,
                    uv,
                    normal,
                    color,
                });
            }
            scene.faces.push(Face {
                corners: first..first + 3,
                group,
                material: materials[triangle.material],
                origin: origin.clone(),
            });
        }
    }
    let culled = rigid.triangles.len() - rigid.triangles.iter().filter(drawn).count();
    (groups, culled)
}

/// A CSAB sampled every `key_ticks` from frame 0 to its last frame (included; a looping
/// animation's keys stop before it, since the engine goes back to the first key).
fn animation(
    cmb: &model::Cmb,
    path: &Path,
    key_ticks: u16,
    sources: &Sources,
) -> Result<SampledAnimation, Error> {
    let bytes = sources
        .read(path)
        .map_err(|e| Error::file(path, e.to_string()))?;
    let animation = csab::parse(&bytes).map_err(|e| format_error(path, &e))?;
    if let Some(node) = animation.nodes.iter().find(|n| n.bone >= cmb.bones.len()) {
        return Err(Error::file(
            path,
            format!(
                "it animates bone {}, the model has {} bones",
                node.bone,
                cmb.bones.len()
            ),
        ));
    }
    let name = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let rest_inverse: Vec<rest::Affine> = rest::rest_matrices(cmb)
        .iter()
        .map(|m| rest::inverse(m).unwrap_or(rest::IDENTITY))
        .collect();
    let last_tick = u64::from(animation.duration) * TICKS_PER_FRAME;
    let step = u64::from(key_ticks);
    let key_count = if animation.looped && last_tick > 0 {
        last_tick.div_ceil(step)
    } else {
        last_tick / step + 1
    };
    if key_count > u64::from(u16::MAX) {
        return Err(Error::file(
            path,
            format!("{key_count} keys every {key_ticks} ticks, more than the 65,535 of an animation (raise --key-ticks)"),
        ));
    }
    let keys = (0..key_count)
        .map(|k| {
            let frame = (k * step) as f64 / TICKS_PER_FRAME as f64;
            let posed = rest::posed_matrices(cmb, &animation, frame);
            posed
                .iter()
                .zip(&rest_inverse)
                .map(|(m, inverse)| rest::compose(m, inverse))
                .collect()
        })
        .collect();
    Ok(SampledAnimation {
        name,
        key_ticks,
        looped: animation.looped,
        keys,
    })
}
