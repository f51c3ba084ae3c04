//! `jomc info`: a JOM file's content for a person, or as one JSON object for programs.

use jom::format::{Tag, Vector};
use jom::{Fixed, Model};
use jom_write::AlignedBytes;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// Reads and validates `path`, and describes it as text or JSON. Nothing is printed until
/// the whole description is made, so an invalid file prints only its error.
pub fn run(path: &Path, json: bool) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let buffer = AlignedBytes::new(&bytes);
    let model =
        Model::from_bytes(buffer.bytes()).map_err(|e| jomc::load_error(path, &bytes, &e))?;
    let mut info = Info::of(&model);
    if let Some(chunk) = model.chunks().find(|c| c.tag.0 == jomc::fits::TAG) {
        info.fitting = jomc::fits::decode(chunk.data).map_err(|e| {
            format!(
                "{}: FITS chunk at byte offset {} (0x{:X}): {e}",
                path.display(),
                chunk.offset,
                chunk.offset
            )
        })?;
    }
    Ok(if json {
        serde_json::to_string(&info).map_err(|e| e.to_string())? + "\n"
    } else {
        info.text()
    })
}

/// The keys of `jomc info --json`, in this order.
#[derive(Serialize)]
struct Info {
    version: u16,
    center: [f64; 3],
    radius: f64,
    chunks: Vec<ChunkInfo>,
    points: usize,
    polygons: usize,
    /// The polygons with four corners, and the triangles (corner D = C).
    quads: usize,
    triangles: usize,
    materials: Vec<MaterialInfo>,
    textures: Vec<String>,
    timg: Vec<TimgInfo>,
    /// The VDP1 VRAM bytes the textures take once loaded; `None` when they are files.
    texture_vram: Option<u64>,
    /// The bytes of the engine's default texture region.
    default_texture_region: u32,
    /// FITS: what `jomc convert`'s fitting steps did to the textures.
    fitting: Vec<jomc::fits::FitStep>,
    normals: usize,
    vertex_colors: bool,
    gouraud: bool,
    groups: Vec<GroupInfo>,
    bones: Vec<BoneInfo>,
    animations: Vec<AnimationInfo>,
    /// BMOT: the bones that move or stretch in an animation, and their keys.
    bone_motion: Vec<MotionInfo>,
    /// REGN: the regions a rigid draw culls by their spheres.
    regions: Vec<RegionInfo>,
    /// LODS: the lower levels of detail, level 1 first.
    levels: Vec<LevelInfo>,
}

#[derive(Serialize)]
struct RegionInfo {
    center: [f64; 3],
    radius: f64,
    first_point: usize,
    point_count: usize,
    first_polygon: usize,
    polygon_count: usize,
}

#[derive(Serialize)]
struct LevelInfo {
    /// Drawn when the model's radius on screen is below this many pixels.
    below_pixels: u32,
    bytes: usize,
    points: usize,
    polygons: usize,
}

#[derive(Serialize)]
struct MotionInfo {
    animation: u16,
    bone: u16,
    keys: Vec<MotionKeyInfo>,
}

#[derive(Serialize)]
struct MotionKeyInfo {
    offset: [f64; 3],
    scale: [f64; 3],
}

#[derive(Serialize)]
struct ChunkInfo {
    tag: String,
    offset: usize,
    size: u32,
}

#[derive(Serialize)]
struct MaterialInfo {
    name: String,
    color: [u8; 3],
    shine: u8,
    texture: i16,
    subdivision_error: u16,
    flags: u32,
    user: u32,
}

#[derive(Serialize)]
struct TimgInfo {
    name: String,
    width: u16,
    height: u16,
    format: u16,
}

#[derive(Serialize)]
struct GroupInfo {
    name: String,
    first_point: usize,
    point_count: usize,
    first_polygon: usize,
    polygon_count: usize,
}

#[derive(Serialize)]
struct BoneInfo {
    name: String,
    group: u16,
    parent: i16,
    pivot: [f64; 3],
}

#[derive(Serialize)]
struct AnimationInfo {
    name: String,
    key_count: u16,
    key_ticks: u16,
    #[serde(rename = "loop")]
    looped: bool,
    duplicate: bool,
}

fn fixed(value: Fixed) -> f64 {
    f64::from(value.to_bits()) / 65536.0
}

fn raw(value: i32) -> f64 {
    f64::from(value) / 65536.0
}

fn vector(v: &Vector) -> [f64; 3] {
    v.get().map(fixed)
}

fn tag(tag: Tag) -> String {
    tag.0
        .iter()
        .map(|&b| {
            if b.is_ascii_graphic() || b == b' ' {
                (b as char).to_string()
            } else {
                format!("\\x{b:02X}")
            }
        })
        .collect()
}

/// The VDP1 VRAM the embedded textures take once the engine has loaded them (0 without
/// textures); `None` when they are files on CD (their sizes are not in the model).
fn texture_vram(model: &Model<'_>) -> Option<u64> {
    let names = model.texture_names();
    let shapes: Vec<jomc::vram::TextureShape<'_>> = match model.textures() {
        Some(textures) => textures
            .iter()
            .zip(names)
            .map(|(t, name)| jomc::vram::TextureShape {
                name: name.as_str(),
                width: t.header.width(),
                height: t.header.height(),
                lut: t.header.format_raw() == 1,
            })
            .collect(),
        None if names.is_empty() => Vec::new(),
        None => return None,
    };
    let uses: Vec<_> = model
        .materials()
        .iter()
        .map(|m| (m.texture().map(usize::from), m.flags()))
        .collect();
    let bytes = jomc::vram::texture_bytes(&shapes, &uses);
    Some(bytes.iter().map(|&b| u64::from(b)).sum())
}

impl Info {
    fn of(model: &Model<'_>) -> Self {
        let animations = model.animations();
        Info {
            version: model.version(),
            center: vector(model.center()),
            radius: fixed(model.radius()),
            chunks: model
                .chunks()
                .map(|c| ChunkInfo {
                    tag: tag(c.tag),
                    offset: c.offset,
                    size: c.size(),
                })
                .collect(),
            points: model.points().len(),
            polygons: model.polygons().len(),
            quads: model.polygons().iter().filter(|p| !p.is_triangle()).count(),
            triangles: model.polygons().iter().filter(|p| p.is_triangle()).count(),
            materials: model
                .materials()
                .iter()
                .map(|m| MaterialInfo {
                    name: m.name().to_string(),
                    color: m.color(),
                    shine: m.shine(),
                    texture: m.texture_raw(),
                    subdivision_error: m.subdivision_error(),
                    flags: m.flags().bits(),
                    user: m.user(),
                })
                .collect(),
            textures: model
                .texture_names()
                .iter()
                .map(ToString::to_string)
                .collect(),
            timg: model
                .textures()
                .into_iter()
                .flatten()
                .map(|t| TimgInfo {
                    name: t.name().to_string(),
                    width: t.header.width(),
                    height: t.header.height(),
                    format: t.header.format_raw(),
                })
                .collect(),
            texture_vram: texture_vram(model),
            default_texture_region: jomc::vram::default_texture_region(),
            fitting: Vec::new(),
            normals: model.normals().map_or(0, <[_]>::len),
            vertex_colors: model.vertex_colors().is_some(),
            gouraud: model.gouraud().is_some(),
            groups: model
                .groups()
                .iter()
                .map(|g| GroupInfo {
                    name: g.name().to_string(),
                    first_point: g.points().start,
                    point_count: g.points().len(),
                    first_polygon: g.polygons().start,
                    polygon_count: g.polygons().len(),
                })
                .collect(),
            bones: model
                .bones()
                .iter()
                .map(|b| BoneInfo {
                    name: b.name().to_string(),
                    group: b.group().unwrap_or(jom::format::Bone::NO_GROUP),
                    parent: b.parent_raw(),
                    pivot: vector(b.pivot()),
                })
                .collect(),
            animations: animations
                .iter()
                .map(|a| AnimationInfo {
                    name: a.name().to_string(),
                    key_count: a.record.key_count(),
                    key_ticks: a.record.key_ticks(),
                    looped: a.record.is_looped(),
                    duplicate: animations.is_duplicate(a.index),
                })
                .collect(),
            bone_motion: animations
                .iter()
                .flat_map(|a| {
                    a.motion.iter().map(move |(bone, keys)| MotionInfo {
                        animation: a.index as u16,
                        bone,
                        keys: keys
                            .iter()
                            .map(|k| MotionKeyInfo {
                                offset: k.offset().map(raw),
                                scale: k.scale().map(raw),
                            })
                            .collect(),
                    })
                })
                .collect(),
            regions: model
                .regions()
                .iter()
                .map(|r| RegionInfo {
                    center: vector(r.center()),
                    radius: raw(r.radius_raw()),
                    first_point: r.points().start,
                    point_count: r.points().len(),
                    first_polygon: r.polygons().start,
                    polygon_count: r.polygons().len(),
                })
                .collect(),
            levels: model
                .levels()
                .enumerate()
                .map(|(k, (pixels, bytes))| {
                    let level = model.level(k + 1);
                    LevelInfo {
                        below_pixels: pixels,
                        bytes: bytes.len(),
                        points: level.map_or(0, |l| l.points().len()),
                        polygons: level.map_or(0, |l| l.polygons().len()),
                    }
                })
                .collect(),
        }
    }

    /// The description for a person.
    fn text(&self) -> String {
        let mut out = String::new();
        let w = &mut out;
        let [x, y, z] = self.center;
        let _ = writeln!(
            w,
            "JOM version {}, bounding sphere centre ({x}, {y}, {z}) radius {}",
            self.version, self.radius
        );
        let _ = writeln!(
            w,
            "{} points, {} polygons ({} quads, {} triangles), {} normals",
            self.points, self.polygons, self.quads, self.triangles, self.normals
        );
        let extras: Vec<&str> = [
            (self.vertex_colors, "vertex colours"),
            (self.gouraud, "gouraud colours"),
        ]
        .iter()
        .filter(|e| e.0)
        .map(|e| e.1)
        .collect();
        if !extras.is_empty() {
            let _ = writeln!(w, "with {}", extras.join(" and "));
        }
        let _ = writeln!(w, "\nchunks:");
        for c in &self.chunks {
            let _ = writeln!(
                w,
                "  {:<4} at {:>7} ({:#07x}), {} bytes",
                c.tag, c.offset, c.offset, c.size
            );
        }
        let _ = writeln!(w, "\nmaterials ({}):", self.materials.len());
        for m in &self.materials {
            let texture = match usize::try_from(m.texture)
                .ok()
                .and_then(|i| self.textures.get(i))
            {
                Some(name) => format!("texture {} ({name})", m.texture),
                None => "no texture".to_string(),
            };
            let [r, g, b] = m.color;
            let _ = writeln!(
                w,
                "  {:<16} colour {r},{g},{b} shine {} {texture} flags {:?} user {}{}",
                m.name,
                m.shine,
                jom::format::MaterialFlags::from_bits(m.flags),
                m.user,
                if m.subdivision_error != 0 {
                    format!(" subdivision error {}", m.subdivision_error)
                } else {
                    String::new()
                }
            );
        }
        if !self.textures.is_empty() {
            let _ = writeln!(
                w,
                "\ntextures ({}{}):",
                self.textures.len(),
                if self.timg.is_empty() {
                    ", files on CD"
                } else {
                    ", embedded"
                }
            );
            for (i, name) in self.textures.iter().enumerate() {
                match self.timg.get(i) {
                    Some(t) => {
                        let format = if t.format == 0 {
                            "RGB555"
                        } else {
                            "16 colours + lookup table"
                        };
                        let _ = writeln!(w, "  {i}: {name} {}x{} {format}", t.width, t.height);
                    }
                    None => {
                        let _ = writeln!(w, "  {i}: {name}");
                    }
                }
            }
        }
        if !self.textures.is_empty() {
            let _ = match self.texture_vram {
                Some(bytes) => writeln!(
                    w,
                    "  VDP1 VRAM: {bytes} bytes, {} of the engine's default texture region ({} \
                     bytes); {} of {} textures in 16 colours",
                    jomc::vram::share_of_default(bytes),
                    self.default_texture_region,
                    self.timg.iter().filter(|t| t.format == 1).count(),
                    self.timg.len()
                ),
                None => writeln!(w, "  VDP1 VRAM: not known (the textures are files)"),
            };
            for line in jomc::convert::step_lines(&self.fitting).lines() {
                let _ = writeln!(w, "  {line}");
            }
        }
        if !self.groups.is_empty() {
            let _ = writeln!(w, "\ngroups ({}):", self.groups.len());
            for g in &self.groups {
                let _ = writeln!(
                    w,
                    "  {:<16} points {}..{} polygons {}..{}",
                    g.name,
                    g.first_point,
                    g.first_point + g.point_count,
                    g.first_polygon,
                    g.first_polygon + g.polygon_count
                );
            }
        }
        if !self.bones.is_empty() {
            let _ = writeln!(w, "\nbones ({}):", self.bones.len());
            for (i, b) in self.bones.iter().enumerate() {
                let parent = usize::try_from(b.parent)
                    .ok()
                    .and_then(|p| self.bones.get(p))
                    .map_or("(root)", |p| p.name.as_str());
                let group = self
                    .groups
                    .get(usize::from(b.group))
                    .map_or("(no group)", |g| g.name.as_str());
                let [x, y, z] = b.pivot;
                let _ = writeln!(
                    w,
                    "  {i}: {:<16} parent {parent} group {group} pivot ({x}, {y}, {z})",
                    b.name
                );
            }
        }
        if !self.animations.is_empty() {
            let _ = writeln!(w, "\nanimations ({}):", self.animations.len());
            for a in &self.animations {
                let _ = writeln!(
                    w,
                    "  {:<16} {} keys every {} ticks (1/60 s){}{}",
                    a.name,
                    a.key_count,
                    a.key_ticks,
                    if a.looped { ", looped" } else { "" },
                    if a.duplicate {
                        ", duplicate name (unreachable by name)"
                    } else {
                        ""
                    }
                );
            }
        }
        if !self.bone_motion.is_empty() {
            let _ = writeln!(
                w,
                "\nbone motion ({} tracks: offsets and scales, BMOT):",
                self.bone_motion.len()
            );
            for track in &self.bone_motion {
                let name = |names: Vec<&str>, i: u16| {
                    names
                        .get(usize::from(i))
                        .map_or(String::new(), |n| n.to_string())
                };
                let animation = name(
                    self.animations.iter().map(|a| a.name.as_str()).collect(),
                    track.animation,
                );
                let bone = name(
                    self.bones.iter().map(|b| b.name.as_str()).collect(),
                    track.bone,
                );
                let _ = writeln!(
                    w,
                    "  animation {} ({animation}) bone {} ({bone}):",
                    track.animation, track.bone
                );
                for (k, key) in track.keys.iter().enumerate() {
                    let ([x, y, z], [sx, sy, sz]) = (key.offset, key.scale);
                    let _ = writeln!(
                        w,
                        "    key {k}: offset ({x}, {y}, {z}) scale ({sx}, {sy}, {sz})"
                    );
                }
            }
        }
        if !self.regions.is_empty() {
            let _ = writeln!(
                w,
                "\nregions ({}: culled by their spheres, REGN):",
                self.regions.len()
            );
            for (i, r) in self.regions.iter().enumerate() {
                let [x, y, z] = r.center;
                let _ = writeln!(
                    w,
                    "  {i}: centre ({x}, {y}, {z}) radius {} points {}..{} polygons {}..{}",
                    r.radius,
                    r.first_point,
                    r.first_point + r.point_count,
                    r.first_polygon,
                    r.first_polygon + r.polygon_count
                );
            }
        }
        if !self.levels.is_empty() {
            let _ = writeln!(w, "\nlevels of detail ({} lower, LODS):", self.levels.len());
            for (k, level) in self.levels.iter().enumerate() {
                let _ = writeln!(
                    w,
                    "  {}: below {} pixels: {} points, {} polygons ({} bytes)",
                    k + 1,
                    level.below_pixels,
                    level.points,
                    level.polygons,
                    level.bytes
                );
            }
        }
        out
    }
}
