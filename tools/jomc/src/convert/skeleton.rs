//! `--skeleton FILE.json`: the rigid skeleton (BONE) and its animations (ANIM). The schema
//! is in docs/convert.md. Positions (pivots, root offsets) are in the OBJ's axes and units
//! and go through the same axes and scale as the points; angles are in degrees.

use super::geometry::{fixed_vector, Transform};
use super::{check_name, Error};
use jom_write::{Animation, Bone, Key};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// JO_3D_MAX_BONES.
const MAX_BONES: usize = 32;
/// BONE.group when the bone moves no polygons.
const NO_GROUP: u16 = 0xFFFF;

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
}

/// BONE and ANIM.
pub struct Rig {
    pub bones: Vec<Bone>,
    pub animations: Vec<Animation>,
}

/// Reads `path`; `groups` are the model's group names (GRUP order).
pub fn read(path: &Path, groups: &[String], axes: &Transform) -> Result<Rig, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::file(path, e.to_string()))?;
    let json: SkeletonJson = serde_json::from_str(&text).map_err(|e| {
        // serde_json's message ends with " at line L column C": the line goes in front.
        let message = e.to_string();
        let message = message.split(" at line ").next().unwrap_or(&message);
        Error::at(path, e.line(), format!("{message} (column {})", e.column()))
    })?;
    let source = Source { path, text: &text };
    let bones = bones(&json.bones, groups, axes, &source)?;
    let animations = json
        .animations
        .iter()
        .map(|a| animation(a, &json.bones, axes, &source))
        .collect::<Result<_, _>>()?;
    Ok(Rig { bones, animations })
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
) -> Result<Vec<Bone>, Error> {
    let mut bones: Vec<Bone> = Vec::with_capacity(json.len());
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
            None => NO_GROUP,
            Some(name) => match groups.iter().position(|g| g == name) {
                Some(g) => g as u16,
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
            None => -1,
            Some(name) => match json[..i].iter().position(|b| &b.name == name) {
                Some(p) => p as i16,
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
        let pivot = fixed_vector(axes.position(bone.pivot))
            .map_err(|m| at_name(format!("bone {} pivot: {m}", bone.name)))?;
        bones.push(Bone {
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
    bones: &[BoneJson],
    axes: &Transform,
    source: &Source<'_>,
) -> Result<Animation, Error> {
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
        if let Some(unknown) = key
            .angles
            .keys()
            .find(|n| !bones.iter().any(|b| &b.name == *n))
        {
            let message = format!("animation {name}: no bone named {unknown}");
            return Err(source.error(unknown, "[", 0, message));
        }
        let root = fixed_vector(axes.position(key.root))
            .map_err(|m| at_name(format!("animation {name} root: {m}")))?;
        let angles = bones
            .iter()
            .map(|b| key.angles.get(&b.name).copied().unwrap_or_default())
            .map(|degrees| axes.angles(degrees).map(angle))
            .collect();
        keys.push(Key { root, angles });
    }
    Ok(Animation {
        name: name.clone(),
        key_ticks: json.key_ticks,
        looped: json.looped,
        keys,
    })
}

/// Degrees to a jo_angle (0x10000 = 360 degrees), wrapped into an i16.
fn angle(degrees: f64) -> i16 {
    let turns = (degrees / 360.0 * 65536.0).round() as i64;
    turns.rem_euclid(0x10000) as u16 as i16
}

#[cfg(test)]
mod tests {
    use super::angle;

    #[test]
    fn angles_wrap_into_an_i16() {
        assert_eq!(angle(0.0), 0);
        assert_eq!(angle(90.0), 0x4000);
        assert_eq!(angle(180.0), i16::MIN);
        assert_eq!(angle(-90.0), -0x4000);
        assert_eq!(angle(450.0), 0x4000);
    }
}
