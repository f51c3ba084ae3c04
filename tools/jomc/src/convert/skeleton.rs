//! `--skeleton FILE.json`: the rigid skeleton (BONE), its animations (ANIM) and the bones'
//! offsets and scales (BMOT). The schema is in docs/convert.md. Positions (pivots, root and
//! bone offsets) are in the OBJ's axes and units and go through the same axes and scale as
//! the points; angles are in degrees. Each key becomes the bones' matrices, which the shared
//! rig conversion ([`rig::convert`]) turns into what the file stores, as for every importer.

use super::geometry::{fixed_vector, Transform};
use super::rig::{self, Affine, RigBone, SampledAnimation};
use super::{check_name, Error, Sources};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// JO_3D_MAX_BONES.
const MAX_BONES: usize = 32;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SkeletonJson {
    bones: Vec<BoneJson>,
    #[serde(default)]
    animations: Vec<AnimationJson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoneJson {
    name: String,
    #[serde(default)]
    group: Option<String>,
    #[serde(default)]
    parent: Option<String>,
    #[serde(default)]
    pivot: [f64; 3],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnimationJson {
    name: String,
    key_ticks: u16,
    #[serde(default, rename = "loop")]
    looped: bool,
    keys: Vec<KeyJson>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KeyJson {
    #[serde(default)]
    root: [f64; 3],
    /// Angles around X, Y, Z in degrees by bone name; a bone not named has 0, 0, 0.
    #[serde(default)]
    angles: BTreeMap<String, [f64; 3]>,
    /// Offsets of the bones (OBJ axes and units) by bone name; a bone not named has none.
    #[serde(default)]
    offsets: BTreeMap<String, [f64; 3]>,
    /// Scales along X, Y, Z (each 0 or more) by bone name; a bone not named has 1, 1, 1.
    #[serde(default)]
    scales: BTreeMap<String, [f64; 3]>,
}

/// Reads `path`; `groups` are the model's group names (GRUP order); `rotations_only` as in
/// [`rig::convert`].
pub fn read(
    path: &Path,
    groups: &[String],
    axes: &Transform,
    rotations_only: bool,
    sources: &Sources,
) -> Result<rig::Rig, Error> {
    let text = sources
        .read_to_string(path)
        .map_err(|e| Error::file(path, e.to_string()))?;
    let json: SkeletonJson = serde_json::from_str(&text).map_err(|e| {
        // serde_json's message ends with " at line L column C": the line goes in front.
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        Error::at(path, e.line(), format!("{message} (column {})", e.column()))
    })?;
    let source = Source { path, text: &text };
    let bones = bones(&json.bones, groups, axes, &source)?;
    let animations: Vec<SampledAnimation> = json
        .animations
        .iter()
        .map(|a| animation(a, &json.bones, &bones, axes, &source))
        .collect::<Result<_, _>>()?;
    rig::convert(&bones, &animations, rotations_only).map_err(|m| Error::file(path, m))
}

/// The JSON file, to put a line on the problems found after parsing.
struct Source<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Source<'_> {
    /// An error at the line of the `nth` (from 0) `"key": value` of the file, where
    /// `value` is as written in JSON (no line when it is not found).
    fn error(&self, key: &str, value: &str, nth: usize, message: String) -> Error {
        match self.line_of(key, value, nth) {
            Some(line) => Error::at(self.path, line, message),
            None => Error::file(self.path, message),
        }
    }

    fn line_of(&self, key: &str, value: &str, nth: usize) -> Option<usize> {
        let quoted = format!("\"{key}\"");
        let starts = self.text.match_indices(&quoted).filter(|(at, _)| {
            let after = self.text[at + quoted.len()..].trim_start();
            after
                .strip_prefix(':')
                .is_some_and(|rest| rest.trim_start().starts_with(value))
        });
        let (at, _) = starts.clone().nth(nth)?;
        Some(self.text[..at].matches('\n').count() + 1)
    }
}

fn quoted(name: &str) -> String {
    serde_json::to_string(name).unwrap_or_default()
}

fn bones(
    json: &[BoneJson],
    groups: &[String],
    axes: &Transform,
    source: &Source<'_>,
) -> Result<Vec<RigBone>, Error> {
    let mut bones: Vec<RigBone> = Vec::with_capacity(json.len());
    for (i, bone) in json.iter().enumerate() {
        let same_name = json[..i].iter().filter(|b| b.name == bone.name).count();
        let at_name =
            |message: String| source.error("name", &quoted(&bone.name), same_name, message);
        if i == MAX_BONES {
            return Err(at_name(format!(
                "more than {MAX_BONES} bones (JO_3D_MAX_BONES)"
            )));
        }
        check_name("bone", &bone.name).map_err(&at_name)?;
        if same_name > 0 {
            return Err(at_name(format!("two bones are named {}", bone.name)));
        }
        let group = match &bone.group {
            None => None,
            Some(name) => match groups.iter().position(|g| g == name) {
                Some(g) => Some(g as u16),
                None => {
                    return Err(source.error(
                        "group",
                        &quoted(name),
                        0,
                        format!(
                            "bone {}: the model has no group (o, g) named {name}",
                            bone.name
                        ),
                    ))
                }
            },
        };
        let parent = match &bone.parent {
            None => None,
            Some(name) => match json[..i].iter().position(|b| &b.name == name) {
                Some(p) => Some(p),
                None => {
                    return Err(source.error(
                        "parent",
                        &quoted(name),
                        0,
                        format!(
                            "bone {}: parent {name} is not a bone listed before it (a parent \
                             comes before its children)",
                            bone.name
                        ),
                    ))
                }
            },
        };
        let pivot = axes.position(bone.pivot);
        fixed_vector(pivot).map_err(|m| at_name(format!("bone {} pivot: {m}", bone.name)))?;
        bones.push(RigBone {
            name: bone.name.clone(),
            group,
            parent,
            pivot,
        });
    }
    Ok(bones)
}

fn animation(
    json: &AnimationJson,
    bones_json: &[BoneJson],
    bones: &[RigBone],
    axes: &Transform,
    source: &Source<'_>,
) -> Result<SampledAnimation, Error> {
    let at_name = |message: String| source.error("name", &quoted(&json.name), 0, message);
    let name = &json.name;
    check_name("animation", name).map_err(&at_name)?;
    if json.key_ticks == 0 {
        return Err(at_name(format!(
            "animation {name}: key_ticks must be 1 or more"
        )));
    }
    if json.keys.is_empty() || json.keys.len() > usize::from(u16::MAX) {
        return Err(at_name(format!(
            "animation {name}: {} keys, expected 1 to 65,535",
            json.keys.len()
        )));
    }
    let mut keys = Vec::with_capacity(json.keys.len());
    for key in &json.keys {
        for names in [&key.angles, &key.offsets, &key.scales] {
            if let Some(unknown) = names
                .keys()
                .find(|n| !bones_json.iter().any(|b| &b.name == *n))
            {
                let message = format!("animation {name}: no bone named {unknown}");
                return Err(source.error(unknown, "[", 0, message));
            }
        }
        if let Some((bone, scale)) = key.scales.iter().find(|(_, s)| s.iter().any(|&v| v < 0.0)) {
            let message = format!(
                "animation {name}: bone {bone} scale {scale:?}: each scale must be 0 or more \
                 (a mirrored bone would be drawn inside out)"
            );
            return Err(source.error(bone, "[", 0, message));
        }
        let root = axes.position(key.root);
        fixed_vector(root).map_err(|m| at_name(format!("animation {name} root: {m}")))?;
        keys.push(key_matrices(key, bones, axes, root));
    }
    Ok(SampledAnimation {
        name: name.clone(),
        key_ticks: json.key_ticks,
        looped: json.looped,
        keys,
    })
}

/// Each bone's model-space matrix at a key: `M_parent * T(pivot + t) * R * S * T(-pivot)`,
/// the parent of a root being `T(root)`, as the engine composes them.
fn key_matrices(key: &KeyJson, bones: &[RigBone], axes: &Transform, root: [f64; 3]) -> Vec<Affine> {
    let mut matrices: Vec<Affine> = Vec::with_capacity(bones.len());
    for bone in bones {
        let parent = match bone.parent {
            Some(p) => matrices[p],
            None => rig::translation(root),
        };
        let of = |map: &BTreeMap<String, [f64; 3]>, default: [f64; 3]| {
            map.get(&bone.name).copied().unwrap_or(default)
        };
        let radians = axes.angles(of(&key.angles, [0.0; 3])).map(f64::to_radians);
        let offset = axes.position(of(&key.offsets, [0.0; 3]));
        // The axes only change sign: a scale along an axis stays along it.
        let scale = of(&key.scales, [1.0; 3]);
        let local = rig::joint(bone.pivot, radians, offset, scale);
        matrices.push(rig::multiply(&parent, &local));
    }
    matrices
}
