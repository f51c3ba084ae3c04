//! `jomc convert MODEL.TMD [--tod ANIM.TOD ...] [--tim TEX.TIM ...]`: a PlayStation model,
//! its animations and its textures, read into the shared scene (and, with TODs, the bones'
//! matrices for the shared rig conversion). The files are read by `psx-formats`; this
//! module only maps them:
//!
//! - one group per TMD object that has polygons, in file order, named `objectN` (N its
//!   TMD ID, the first object's 1);
//! - each triangle or quad a face, its corners in outline order (V0 V1 V3 V2 for a quad),
//!   which is already the Saturn's clockwise front: the PlayStation's axes are the
//!   Saturn's (X right, Y down, Z away), so nothing is turned;
//! - colours per corner (an untextured colour's 255 is 1.0, a textured polygon's 128,
//!   which leaves its texture unchanged); a polygon with a colour per corner (gradation,
//!   or gouraud without light) gets `GOURAUD`; light calculation `LIGHT`, double sided
//!   `DUAL_PLANE`, semi-transparency `HALF_TRANSPARENT`;
//! - a textured polygon samples the frame buffer the TIMs are loaded into (each at its
//!   own position, in the order given): its texture page (TSB) and lookup table (CBA)
//!   make one 256 x 256 image, and every texel inside its corners' bounding box must come
//!   from a TIM;
//! - with TODs, every TOD object is a bone (parents first), posed at rest as the first
//!   TOD's first frame places it; each TOD is an animation named after its file, one key
//!   per frame number, the TODs played one after another on the same objects.
//!
//! The TMD objects' scale word is not used, as libgs does not use it (Sony's CUBE4T.TMD has
//! -1 in one object).

use super::rig::{Affine, RigBone, SampledAnimation};
use super::scene::{
    Corner, Face, Image, Material, Origin, Place, Scene, SceneAxes, SceneRig, TextureRef, Vertex,
};
use super::{Error, Sources};
use jom::format::MaterialFlags;
use psx_formats::player::{self, Player, Pose};
use psx_formats::tmd::{self, Polygon, Primitive, Tmd};
use psx_formats::vram::{ClutPosition, Depth, FrameBuffer, Missing, TexturePage};
use psx_formats::{tim, tod};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// JO_3D_MAX_BONES.
const MAX_BONES: usize = 32;
/// The most keys of an animation (ANIM's u16 key count).
const MAX_KEYS: usize = 65_535;
/// A texture page is 256 x 256 texels in every depth.
const PAGE_SIZE: u32 = 256;

/// Whether `path` is a TMD model: by its extension, or by its first word (ID 0x41).
pub fn is_tmd(path: &Path, bytes: &[u8]) -> bool {
    let by_name = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tmd"));
    by_name || bytes.starts_with(&tmd::ID.to_le_bytes())
}

/// What a TMD and its TODs and TIMs give the pipeline.
pub struct Imported {
    /// The model, with its rig when TODs are given.
    pub scene: Scene,
    /// One line each, for the user.
    pub warnings: Vec<String>,
}

/// The files of one conversion.
pub struct Inputs<'a> {
    pub model: &'a Path,
    pub tods: &'a [PathBuf],
    pub tims: &'a [PathBuf],
    pub sources: &'a Sources,
}

fn read_file(sources: &Sources, path: &Path) -> Result<Vec<u8>, Error> {
    sources
        .read(path)
        .map_err(|e| Error::file(path, e.to_string()))
}

/// A reader's error as the converter reports it: the file, the byte offset, the problem.
fn at(path: &Path, offset: usize, message: impl Into<String>) -> Error {
    Error::new(path.to_path_buf(), Place::Offset(offset as u64), message)
}

fn reader_error(path: &Path) -> impl Fn(psx_formats::Error) -> Error + '_ {
    move |e| at(path, e.offset, e.message)
}

/// Reads the model, the TIMs into the frame buffer and plays the TODs.
pub fn read(inputs: &Inputs<'_>) -> Result<Imported, Error> {
    let model_path = inputs.model;
    let model =
        tmd::read(&read_file(inputs.sources, model_path)?).map_err(reader_error(model_path))?;
    let mut vram = FrameBuffer::new();
    for path in inputs.tims {
        vram.load(&tim::read(&read_file(inputs.sources, path)?).map_err(reader_error(path))?);
    }
    let mut warnings = Vec::new();
    let animation = match inputs.tods.is_empty() {
        true => None,
        false => Some(play(inputs, &model, &mut warnings)?),
    };
    let rest = |object: usize| {
        animation
            .as_ref()
            .and_then(|a| a.rest_world.get(&object).copied())
            .unwrap_or(player::IDENTITY)
    };
    let mut builder = Builder::new(model_path, inputs.tims, &vram);
    let mut skipped = 0;
    for (index, object) in model.objects.iter().enumerate() {
        skipped += builder.object(index, object, &rest(index))?;
    }
    if skipped > 0 {
        warnings.push(format!(
            "{}: {skipped} lines and sprites left out (a JOM model has polygons only)",
            model_path.display()
        ));
    }
    let rig = animation.map(|played| {
        let origin = Origin {
            file: builder.scene.file_index(&inputs.tods[0]),
            place: Place::File,
        };
        played.rig(&builder.groups, origin)
    });
    let mut scene = builder.finish();
    scene.rig = rig;
    Ok(Imported { scene, warnings })
}

/// The scene under construction.
struct Builder<'a> {
    scene: Scene,
    vram: &'a FrameBuffer,
    /// Materials by what makes them differ.
    materials: BTreeMap<MaterialKey, u32>,
    /// Page images by texture page and lookup table.
    pages: BTreeMap<(TexturePage, ClutPosition), Page>,
    /// The scene group of each TMD object that has polygons.
    groups: BTreeMap<usize, u32>,
    /// A name for the page images: the first TIM's file name.
    image_stem: String,
}

/// What makes two polygons' materials differ.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct MaterialKey {
    flags: u32,
    /// An untextured polygon's single colour (its MATL colour).
    color: Option<[u8; 3]>,
    page: Option<u32>,
}

impl<'a> Builder<'a> {
    fn new(model: &Path, tims: &[PathBuf], vram: &'a FrameBuffer) -> Self {
        let mut scene = Scene::new(model, SceneAxes::Saturn);
        for tim in tims {
            scene.file_index(tim);
        }
        let image_stem = tims
            .first()
            .and_then(|t| t.file_stem())
            .map_or_else(|| "PAGE".to_string(), |s| s.to_string_lossy().into_owned());
        Self {
            scene,
            vram,
            materials: BTreeMap::new(),
            pages: BTreeMap::new(),
            groups: BTreeMap::new(),
            image_stem,
        }
    }

    fn origin(offset: usize) -> Origin {
        Origin {
            file: 0,
            place: Place::Offset(offset as u64),
        }
    }

    /// Adds TMD object `index` placed by `world`; returns how many lines and sprites it
    /// left out.
    fn object(
        &mut self,
        index: usize,
        object: &tmd::Object,
        world: &Affine,
    ) -> Result<usize, Error> {
        let first_vertex = self.scene.vertices.len() as u32;
        for v in &object.vertices {
            self.scene.vertices.push(Vertex {
                position: player::transform(world, v.map(f64::from)),
                group: None,
                origin: Self::origin(object.offset),
            });
        }
        let normal_matrix = normal_matrix(world);
        let first_normal = self.scene.normals.len() as u32;
        for n in &object.normals {
            self.scene
                .normals
                .push(linear(&normal_matrix, n.map(f64::from)));
        }
        let mut skipped = 0;
        let mut group = None;
        for (number, primitive) in object.primitives.iter().enumerate() {
            let Primitive::Polygon(polygon) = primitive else {
                skipped += 1;
                continue;
            };
            let group = *group.get_or_insert_with(|| {
                self.scene.groups.push(format!("object{}", index + 1));
                let group = (self.scene.groups.len() - 1) as u32;
                self.groups.insert(index, group);
                group
            });
            let what = format!("object {index} primitive {number}");
            self.polygon(polygon, &what, first_vertex, first_normal, group)?;
        }
        Ok(skipped)
    }

    fn polygon(
        &mut self,
        polygon: &Polygon,
        what: &str,
        first_vertex: u32,
        first_normal: u32,
        group: u32,
    ) -> Result<(), Error> {
        let corners = polygon.vertices.len();
        // File order (V0 V1 V2 V3) to outline order (V0 V1 V3 V2).
        let order: &[usize] = if corners == 4 {
            &[0, 1, 3, 2]
        } else {
            &[0, 1, 2]
        };
        let page = match &polygon.texture {
            Some(map) => Some(self.page_image(polygon, what, map)?),
            None => None,
        };
        let textured = page.is_some();
        let per_corner = polygon.colors.len() == corners;
        // 128 leaves a texture as it is; 255 is an untextured polygon's full colour.
        let unit = if textured { 128.0 } else { 255.0 };
        let gouraud = per_corner || (textured && polygon.colors.iter().any(|c| *c != [128; 3]));
        let mut flags = MaterialFlags::default();
        for (set, flag) in [
            (polygon.is_lit(), MaterialFlags::LIGHT),
            (polygon.is_double_sided(), MaterialFlags::DUAL_PLANE),
            (
                polygon.is_semi_transparent(),
                MaterialFlags::HALF_TRANSPARENT,
            ),
            (gouraud, MaterialFlags::GOURAUD),
        ] {
            if set {
                flags |= flag;
            }
        }
        let color =
            (!textured && !gouraud).then(|| polygon.colors.first().copied().unwrap_or([255; 3]));
        let key = MaterialKey {
            flags: flags.bits(),
            color,
            page,
        };
        let material = self.material(key, polygon.offset);
        let start = self.scene.corners.len();
        for &i in order {
            let uv = polygon.texture.as_ref().map(|map| {
                let [u, v] = map.uvs[i];
                self.scene.uvs.push([
                    f64::from(u) / f64::from(PAGE_SIZE),
                    f64::from(v) / f64::from(PAGE_SIZE),
                ]);
                (self.scene.uvs.len() - 1) as u32
            });
            let normal = match polygon.normals.len() {
                0 => None,
                1 => Some(first_normal + u32::from(polygon.normals[0])),
                _ => Some(first_normal + u32::from(polygon.normals[i])),
            };
            let color = gouraud.then(|| {
                let c = match polygon.colors.len() {
                    0 => [unit as u8; 3],
                    1 => polygon.colors[0],
                    _ => polygon.colors[i],
                };
                self.scene.colors.push(c.map(|c| f64::from(c) / unit));
                (self.scene.colors.len() - 1) as u32
            });
            self.scene.corners.push(Corner {
                vertex: first_vertex + u32::from(polygon.vertices[i]),
                uv,
                normal,
                color,
            });
        }
        self.scene.faces.push(Face {
            corners: start..self.scene.corners.len(),
            group: Some(group),
            material: Some(material),
            origin: Self::origin(polygon.offset),
        });
        Ok(())
    }

    /// The material of `key`, made for the polygon at byte `offset` when new.
    fn material(&mut self, key: MaterialKey, offset: usize) -> u32 {
        if let Some(&m) = self.materials.get(&key) {
            return m;
        }
        let index = self.scene.materials.len() as u32;
        let mut material = Material::plain(format!("psx{index}"), Self::origin(offset));
        material.flags = MaterialFlags::from_bits(key.flags);
        if let Some(c) = key.color {
            material.diffuse = c.map(|c| f64::from(c) / 255.0);
        }
        material.texture = key.page.map(|image| TextureRef {
            image,
            origin: Self::origin(offset),
        });
        self.scene.materials.push(material);
        self.materials.insert(key, index);
        index
    }

    /// The image of `map`'s texture page through its lookup table (made once), after
    /// checking that a TIM gives every texel the polygon covers.
    fn page_image(
        &mut self,
        polygon: &Polygon,
        what: &str,
        map: &tmd::TextureMap,
    ) -> Result<u32, Error> {
        let page = self.page(map);
        let (us, vs) = (
            map.uvs.iter().map(|uv| uv[0]),
            map.uvs.iter().map(|uv| uv[1]),
        );
        let u = us.clone().min().unwrap_or(0)..=us.max().unwrap_or(0);
        let v = vs.clone().min().unwrap_or(0)..=vs.max().unwrap_or(0);
        if page.missing_in(&u, &v) == 0 {
            return Ok(page.image);
        }
        // Only on the way to the error: the first texel missing, row by row.
        let (u, v, missing) = v
            .flat_map(|v| u.clone().map(move |u| (u, v)))
            .find_map(|(u, v)| {
                self.vram
                    .texel(map.page, map.clut, u, v)
                    .err()
                    .map(|m| (u, v, m))
            })
            .unwrap_or((0, 0, Missing::ReservedDepth));
        let hint = match missing {
            Missing::ReservedDepth => "",
            _ => " (give the TIM with --tim)",
        };
        Err(self.scene.error(
            &Self::origin(polygon.offset),
            format!(
                "{what}: texel ({u}, {v}) of its texture page at ({}, {}), {}, lookup table at \
                 ({}, {}): {missing}{hint}",
                map.page.x,
                map.page.y,
                depth_name(map.page.depth),
                map.clut.x,
                map.clut.y
            ),
        ))
    }

    /// The page image of `map`'s texture page and lookup table, made the first time.
    fn page(&mut self, map: &tmd::TextureMap) -> &Page {
        let key = (map.page, map.clut);
        if !self.pages.contains_key(&key) {
            let texels: Vec<Result<u16, Missing>> = (0..PAGE_SIZE)
                .flat_map(|v| (0..PAGE_SIZE).map(move |u| (u as u8, v as u8)))
                .map(|(u, v)| self.vram.texel(map.page, map.clut, u, v))
                .collect();
            let index = self.scene.images.len();
            self.scene.images.push(Image {
                label: format!(
                    "texture page ({}, {}) {} with lookup table ({}, {})",
                    map.page.x,
                    map.page.y,
                    depth_name(map.page.depth),
                    map.clut.x,
                    map.clut.y
                ),
                name: match index {
                    0 => self.image_stem.clone(),
                    n => format!("{}{n}", self.image_stem),
                },
                width: PAGE_SIZE,
                height: PAGE_SIZE,
                rgba: texels.iter().map(|t| t.map_or([0; 4], rgba)).collect(),
            });
            let page = Page::new(index as u32, &texels);
            self.pages.insert(key, page);
        }
        &self.pages[&key]
    }

    fn finish(self) -> Scene {
        self.scene
    }
}

/// A texture page's image in the scene and where the TIMs leave it without texels.
struct Page {
    image: u32,
    /// Summed-area table of the missing texels: entry (u, v) of a 257 x 257 grid counts
    /// those above and left of texel (u, v), so that any polygon's box is checked in 4
    /// reads, whatever the number of polygons.
    missing: Vec<u32>,
}

impl Page {
    const SIDE: usize = PAGE_SIZE as usize + 1;

    fn new(image: u32, texels: &[Result<u16, Missing>]) -> Self {
        let side = Self::SIDE;
        let mut missing = vec![0u32; side * side];
        for v in 0..PAGE_SIZE as usize {
            for u in 0..PAGE_SIZE as usize {
                let here = u32::from(texels[v * PAGE_SIZE as usize + u].is_err());
                missing[(v + 1) * side + u + 1] =
                    here + missing[v * side + u + 1] + missing[(v + 1) * side + u]
                        - missing[v * side + u];
            }
        }
        Self { image, missing }
    }

    /// How many texels of the box `u` x `v` (inclusive) no TIM gives.
    fn missing_in(
        &self,
        u: &std::ops::RangeInclusive<u8>,
        v: &std::ops::RangeInclusive<u8>,
    ) -> u32 {
        let side = Self::SIDE;
        let (u0, u1) = (usize::from(*u.start()), usize::from(*u.end()) + 1);
        let (v0, v1) = (usize::from(*v.start()), usize::from(*v.end()) + 1);
        let at = |u: usize, v: usize| self.missing[v * side + u];
        at(u1, v1) + at(u0, v0) - at(u0, v1) - at(u1, v0)
    }
}

fn depth_name(depth: Depth) -> &'static str {
    match depth {
        Depth::Clut4 => "4-bit",
        Depth::Clut8 => "8-bit",
        Depth::Direct15 => "15-bit",
        Depth::Reserved => "TPF 3",
    }
}

/// A PlayStation colour (R bits 0-4, G 5-9, B 10-14; 0 transparent) as RGBA8, each 5-bit
/// channel `round(c * 255 / 31)`, which the pipeline's `(c * 31 + 127) / 255` turns back
/// into the same 5 bits.
fn rgba(color: u16) -> [u8; 4] {
    if color == 0 {
        return [0; 4];
    }
    let channel = |shift: u16| (((color >> shift) & 31) as u32 * 255 + 15) / 31;
    [channel(0) as u8, channel(5) as u8, channel(10) as u8, 255]
}

/// The matrix that turns normals with `world`: the inverse transpose of its linear part.
fn normal_matrix(world: &Affine) -> [[f64; 3]; 3] {
    let inverse = player::invert(world).unwrap_or(player::IDENTITY);
    [0, 1, 2].map(|r| [0, 1, 2].map(|c| inverse[c][r]))
}

fn linear(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2])
}

/// The TODs played: the objects at rest and at every key of every TOD.
pub struct Played {
    /// TOD object IDs in bone order (parents first).
    bones: Vec<u16>,
    /// Parent of each bone (an index in `bones`).
    parents: Vec<Option<usize>>,
    /// The TMD object each bone draws.
    links: Vec<Option<usize>>,
    /// The world matrix at rest of each TMD object a bone draws.
    rest_world: BTreeMap<usize, Affine>,
    /// The world matrix at rest of each bone.
    rest: Vec<Affine>,
    animations: Vec<(String, u16, Vec<Vec<Affine>>)>,
}

fn play(inputs: &Inputs<'_>, model: &Tmd, warnings: &mut Vec<String>) -> Result<Played, Error> {
    let (tods, model_path) = (inputs.tods, inputs.model);
    let mut player = Player::new();
    let mut played: Option<Played> = None;
    for path in tods {
        let animation = tod::read(&read_file(inputs.sources, path)?).map_err(reader_error(path))?;
        let frames = player.play(&animation).map_err(reader_error(path))?;
        let Some(((first_number, rest), first_frame)) =
            frames.first().zip(animation.frames.first())
        else {
            return Err(Error::file(
                path,
                "the TOD has no frames, expected at least 1",
            ));
        };
        let state = match &mut played {
            Some(state) => state,
            None => played.insert(Played::at_rest(
                rest,
                model,
                model_path,
                path,
                first_frame.offset,
            )?),
        };
        let mut keys: Vec<Vec<Affine>> = Vec::new();
        for ((number, pose), frame) in frames.iter().zip(&animation.frames) {
            state.check(pose, path, frame.offset)?;
            let since_first = (number - first_number) as usize;
            if since_first >= MAX_KEYS {
                return Err(at(
                    path,
                    frame.offset + 4,
                    format!(
                        "frame number {number} is {since_first} frames after the first \
                         ({first_number}): an animation has at most {MAX_KEYS} keys"
                    ),
                ));
            }
            // A frame number the file skips changes nothing: the key before it again.
            if let Some(previous) = keys.last().cloned() {
                keys.resize(since_first, previous);
            }
            keys.push(state.bones.iter().map(|id| pose[id].world).collect());
        }
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        state
            .animations
            .push((name, animation.resolution.max(1), keys));
    }
    if player.ignored > 0 {
        let names: Vec<String> = tods.iter().map(|p| p.display().to_string()).collect();
        warnings.push(format!(
            "{}: {} attribute, light, camera and special packets read past (they move no object)",
            names.join(", "),
            player.ignored
        ));
    }
    played.ok_or_else(|| Error::file(model_path, "no TOD"))
}

impl Played {
    /// The bones as the first TOD's first frame leaves them.
    fn at_rest(
        rest: &Pose,
        model: &Tmd,
        model_path: &Path,
        tod_path: &Path,
        frame: usize,
    ) -> Result<Self, Error> {
        if rest.len() > MAX_BONES {
            return Err(at(
                tod_path,
                frame,
                format!(
                    "{} objects in the first frame, more than the {MAX_BONES} bones a JOM model \
                     has (JO_3D_MAX_BONES)",
                    rest.len()
                ),
            ));
        }
        let bones = parents_first(rest);
        let index_of = |id: u16| bones.iter().position(|&b| b == id);
        let mut rest_world = BTreeMap::new();
        let mut links = Vec::new();
        let mut drawn_by: BTreeMap<usize, u16> = BTreeMap::new();
        for &id in &bones {
            let object = &rest[&id];
            let link = match object.tmd {
                None => None,
                Some(link) => {
                    if link.index >= model.objects.len() {
                        return Err(at(
                            tod_path,
                            link.packet,
                            format!(
                                "object {id} draws TMD ID {}, but {} has {} objects (IDs 1 to {})",
                                link.index + 1,
                                model_path.display(),
                                model.objects.len(),
                                model.objects.len()
                            ),
                        ));
                    }
                    if let Some(other) = drawn_by.insert(link.index, id) {
                        return Err(at(
                            tod_path,
                            link.packet,
                            format!(
                                "object {id} draws TMD ID {}, which object {other} draws too: a \
                                 JOM group has one bone",
                                link.index + 1
                            ),
                        ));
                    }
                    if player::invert(&object.world).is_none() {
                        return Err(at(
                            tod_path,
                            frame,
                            format!("object {id} has no size at rest (a scale of 0): its points cannot be placed"),
                        ));
                    }
                    rest_world.insert(link.index, object.world);
                    Some(link.index)
                }
            };
            links.push(link);
        }
        Ok(Self {
            parents: bones
                .iter()
                .map(|id| rest[id].parent.and_then(index_of))
                .collect(),
            rest: bones.iter().map(|id| rest[id].world).collect(),
            bones,
            links,
            rest_world,
            animations: Vec::new(),
        })
    }

    /// A pose has the rest's objects, each drawing the same TMD object.
    fn check(&self, pose: &Pose, path: &Path, frame: usize) -> Result<(), Error> {
        let same_objects =
            pose.len() == self.bones.len() && self.bones.iter().all(|id| pose.contains_key(id));
        if !same_objects {
            let now: Vec<String> = pose.keys().map(u16::to_string).collect();
            let rest: Vec<String> = self.bones.iter().map(u16::to_string).collect();
            return Err(at(
                path,
                frame,
                format!(
                    "after this frame the objects are {}, expected those of the rest pose, {} \
                     (a JOM bone cannot appear or vanish)",
                    now.join(" "),
                    rest.join(" ")
                ),
            ));
        }
        for (id, link) in self.bones.iter().zip(&self.links) {
            let now = pose[id].tmd.map(|l| l.index);
            if now != *link {
                let packet = pose[id].tmd.map_or(frame, |l| l.packet);
                return Err(at(
                    path,
                    packet,
                    format!("object {id} changes the TMD object it draws, expected it fixed from the rest pose"),
                ));
            }
        }
        Ok(())
    }

    /// The rig: each bone's skinning matrix world(key) x world(rest)^-1 at every key, in
    /// the scene's units; `groups` are the scene groups of the TMD objects.
    fn rig(self, groups: &BTreeMap<usize, u32>, origin: Origin) -> SceneRig {
        let inverse_rest: Vec<Affine> = self
            .rest
            .iter()
            .map(|m| player::invert(m).unwrap_or(player::IDENTITY))
            .collect();
        let bones = self
            .bones
            .iter()
            .enumerate()
            .map(|(b, id)| RigBone {
                name: format!("obj{id}"),
                parent: self.parents[b],
                group: self.links[b]
                    .and_then(|l| groups.get(&l))
                    .map(|&g| g as u16),
                pivot: player::transform(&self.rest[b], [0.0; 3]),
            })
            .collect();
        let animations = self
            .animations
            .into_iter()
            .map(|(name, key_ticks, keys)| SampledAnimation {
                name,
                key_ticks,
                looped: false,
                keys: keys
                    .iter()
                    .map(|key| {
                        key.iter()
                            .zip(&inverse_rest)
                            .map(|(world, inverse)| player::multiply(world, inverse))
                            .collect()
                    })
                    .collect(),
            })
            .collect();
        SceneRig {
            bones,
            animations,
            origin,
        }
    }
}

/// The pose's object IDs with every parent before its children: depth first from the
/// roots, in ID order.
fn parents_first(pose: &Pose) -> Vec<u16> {
    let mut order = Vec::with_capacity(pose.len());
    let mut stack: Vec<u16> = pose
        .iter()
        .filter(|(_, o)| o.parent.is_none())
        .map(|(&id, _)| id)
        .rev()
        .collect();
    while let Some(id) = stack.pop() {
        order.push(id);
        let children = pose
            .iter()
            .filter(|(_, o)| o.parent == Some(id))
            .map(|(&c, _)| c);
        stack.extend(children.rev());
    }
    order
}

#[cfg(test)]
mod tests {
    use super::{parents_first, rgba, Page, PAGE_SIZE};
    use psx_formats::player::{Pose, Posed, IDENTITY};
    use psx_formats::vram::Missing;

    #[test]
    fn colours_come_back_to_the_same_5_bits() {
        for c in 0..32u16 {
            let [r, g, b, a] = rgba(0x8000 | c | (c << 5) | (c << 10));
            assert_eq!(a, 255);
            for channel in [r, g, b] {
                assert_eq!((u32::from(channel) * 31 + 127) / 255, u32::from(c));
            }
        }
        assert_eq!(rgba(0), [0; 4]);
        assert_eq!(rgba(0x8000), [0, 0, 0, 255]);
    }

    #[test]
    fn a_pages_missing_texels_are_counted_in_any_box() {
        let size = PAGE_SIZE as usize;
        let missing =
            |u: usize, v: usize| (u * 7 + v * 3).is_multiple_of(5) || (100..140).contains(&u);
        let texels: Vec<Result<u16, Missing>> = (0..size * size)
            .map(|i| match missing(i % size, i / size) {
                true => Err(Missing::Texel { x: 0, y: 0 }),
                false => Ok(1),
            })
            .collect();
        let page = Page::new(0, &texels);
        for (u, v) in [
            (0..=0, 0..=0),
            (0..=255, 0..=255),
            (3..=90, 17..=18),
            (101..=139, 0..=255),
            (255..=255, 9..=200),
        ] {
            let brute = v
                .clone()
                .flat_map(|v| u.clone().map(move |u| (usize::from(u), usize::from(v))))
                .filter(|&(u, v)| missing(u, v))
                .count();
            assert_eq!(page.missing_in(&u, &v) as usize, brute, "{u:?} x {v:?}");
        }
    }

    #[test]
    fn parents_come_first() {
        let mut pose = Pose::new();
        for (id, parent) in [(1, Some(9)), (9, None), (4, Some(1)), (2, None)] {
            pose.insert(
                id,
                Posed {
                    tmd: None,
                    parent,
                    world: IDENTITY,
                },
            );
        }
        assert_eq!(parents_first(&pose), [2, 9, 1, 4]);
    }
}
