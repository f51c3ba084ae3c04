//! Reading a Wavefront OBJ file. Our own small reader rather than a crate: the errors must
//! name the line, and `v x y z r g b`, `o`/`g` runs and `usemtl` must be kept exactly as
//! written (tobj, the obvious crate, reports errors without lines and regroups the data).
//!
//! Read: `v` (with optional colours), `vt`, `vn`, `f`, `o`, `g`, `usemtl`, `mtllib`.
//! Everything else (`s`, `l`, `p`, curves, ...) has nothing to do on a Saturn and is skipped.

use super::check_name;
use super::Error;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// An OBJ file's content, indexes resolved to 0-based and checked.
#[derive(Default)]
pub struct Obj {
    pub vertices: Vec<Vertex>,
    /// Whether any `v` has a colour (then every point gets one, white by default).
    pub has_colors: bool,
    pub uvs: Vec<[f64; 2]>,
    pub normals: Vec<[f64; 3]>,
    /// The corners of every face, each face a range of it.
    pub corners: Vec<Corner>,
    pub faces: Vec<Face>,
    /// Group names (`o`/`g`) in order of first face; a name used twice is one group.
    pub groups: Vec<String>,
    /// Material names of `usemtl` in order of first face, with the line of that `usemtl`.
    pub materials: Vec<(String, usize)>,
    /// `mtllib` files (relative to the OBJ's directory) and their lines.
    pub libraries: Vec<(PathBuf, usize)>,
}

/// A `v` statement.
pub struct Vertex {
    pub position: [f64; 3],
    pub color: Option<[f64; 3]>,
    pub line: usize,
}

/// A corner of a face: 0-based indexes into `vertices`, `uvs`, `normals`.
#[derive(Clone, Copy)]
pub struct Corner {
    pub vertex: u32,
    pub uv: Option<u32>,
    pub normal: Option<u32>,
}

/// An `f` statement.
pub struct Face {
    pub corners: Range<usize>,
    pub group: Option<u32>,
    pub material: Option<u32>,
    pub line: usize,
}

impl Obj {
    /// Whether every face gives a normal (`vn`) for every corner.
    pub fn every_face_has_normals(&self) -> bool {
        !self.corners.is_empty() && self.corners.iter().all(|c| c.normal.is_some())
    }
}

/// Reads and checks `path`.
pub fn read(path: &Path) -> Result<Obj, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::file(path, e.to_string()))?;
    let mut reader = Reader::default();
    for (i, line) in text.lines().enumerate() {
        let statement = line.split('#').next().unwrap_or("");
        reader
            .statement(statement, i + 1)
            .map_err(|message| Error::at(path, i + 1, message))?;
    }
    reader
        .obj
        .check_indexes()
        .map_err(|(line, message)| Error::at(path, line, message))?;
    Ok(reader.obj)
}

#[derive(Default)]
struct Reader {
    obj: Obj,
    /// The `o`/`g` name in force, interned when a face uses it (a group without faces,
    /// such as an `o` right before a `g`, is no group).
    group: Option<String>,
    group_ids: HashMap<String, u32>,
    /// The `usemtl` in force and its line.
    material: Option<(String, usize)>,
    material_ids: HashMap<String, u32>,
}

impl Reader {
    fn statement(&mut self, statement: &str, line: usize) -> Result<(), String> {
        let mut words = statement.split_whitespace();
        let Some(keyword) = words.next() else {
            return Ok(());
        };
        let rest: Vec<&str> = words.collect();
        match keyword {
            "v" => self.vertex(&rest, line),
            "vt" => {
                let uv = numbers(&rest, "vt", 1..4)?;
                self.obj
                    .uvs
                    .push([uv[0], uv.get(1).copied().unwrap_or(0.0)]);
                Ok(())
            }
            "vn" => {
                let n = numbers(&rest, "vn", 3..4)?;
                self.obj.normals.push([n[0], n[1], n[2]]);
                Ok(())
            }
            "f" => self.face(&rest, line),
            "o" | "g" => {
                let name = rest.join(" ");
                check_name("group", &name)?;
                self.group = Some(name);
                Ok(())
            }
            "usemtl" => {
                self.material = Some((rest.join(" "), line));
                Ok(())
            }
            "mtllib" => {
                if rest.is_empty() {
                    return Err("mtllib needs a file name".into());
                }
                // Blender writes one file name, which may hold spaces.
                self.obj
                    .libraries
                    .push((PathBuf::from(rest.join(" ")), line));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn vertex(&mut self, words: &[&str], line: usize) -> Result<(), String> {
        let v = numbers(words, "v", 3..7)?;
        let color = match v.len() {
            3 | 4 => None, // x y z [w]: w only matters for rational curves
            6 => Some([v[3], v[4], v[5]]),
            n => {
                return Err(format!(
                    "v has {n} numbers, expected x y z, x y z w or x y z r g b"
                ))
            }
        };
        self.obj.has_colors |= color.is_some();
        self.obj.vertices.push(Vertex {
            position: [v[0], v[1], v[2]],
            color,
            line,
        });
        Ok(())
    }

    fn face(&mut self, words: &[&str], line: usize) -> Result<(), String> {
        if words.len() < 3 {
            return Err(format!(
                "a face needs 3 corners or more, found {}",
                words.len()
            ));
        }
        let start = self.obj.corners.len();
        for word in words {
            let corner = self.corner(word)?;
            self.obj.corners.push(corner);
        }
        let group = self.group.as_ref().map(|name| {
            intern(&mut self.group_ids, name, || {
                self.obj.groups.push(name.clone());
            })
        });
        let material = self.material.as_ref().map(|(name, usemtl_line)| {
            intern(&mut self.material_ids, name, || {
                self.obj.materials.push((name.clone(), *usemtl_line));
            })
        });
        self.obj.faces.push(Face {
            corners: start..self.obj.corners.len(),
            group,
            material,
            line,
        });
        Ok(())
    }

    /// `v`, `v/vt`, `v//vn` or `v/vt/vn`.
    fn corner(&self, word: &str) -> Result<Corner, String> {
        let mut parts = word.split('/');
        let vertex = parts.next().unwrap_or("");
        let uv = parts.next().filter(|s| !s.is_empty());
        let normal = parts.next().filter(|s| !s.is_empty());
        if parts.next().is_some() || vertex.is_empty() {
            return Err(format!(
                "face corner {word:?} is not v, v/vt, v//vn or v/vt/vn"
            ));
        }
        let obj = &self.obj;
        Ok(Corner {
            vertex: index(vertex, obj.vertices.len(), "v")?,
            uv: uv.map(|s| index(s, obj.uvs.len(), "vt")).transpose()?,
            normal: normal
                .map(|s| index(s, obj.normals.len(), "vn"))
                .transpose()?,
        })
    }
}

impl Obj {
    /// Positive indexes may point forward in the file, so they are checked at the end.
    fn check_indexes(&self) -> Result<(), (usize, String)> {
        for face in &self.faces {
            for corner in &self.corners[face.corners.clone()] {
                let checks = [
                    (Some(corner.vertex), self.vertices.len(), "v"),
                    (corner.uv, self.uvs.len(), "vt"),
                    (corner.normal, self.normals.len(), "vn"),
                ];
                for (index, count, kind) in checks {
                    if let Some(index) = index.filter(|&i| i as usize >= count) {
                        return Err((
                            face.line,
                            format!(
                                "face index {} is out of range: the file has {count} {kind}",
                                index + 1
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The id of `name`, made (and announced through `new`) on its first use.
fn intern(ids: &mut HashMap<String, u32>, name: &str, new: impl FnOnce()) -> u32 {
    if let Some(&id) = ids.get(name) {
        return id;
    }
    let id = ids.len() as u32;
    ids.insert(name.to_string(), id);
    new();
    id
}

/// A 1-based OBJ index (negative: counted back from the last one read so far), 0-based.
fn index(word: &str, count_so_far: usize, kind: &str) -> Result<u32, String> {
    let value: i64 = word
        .parse()
        .map_err(|_| format!("face index {word:?} ({kind}) is not an integer"))?;
    let resolved = match value {
        0 => return Err(format!("face index 0 ({kind}): OBJ indexes start at 1")),
        v if v > 0 => v - 1,
        v => count_so_far as i64 + v,
    };
    if resolved < 0 {
        return Err(format!(
            "face index {value} is out of range: {count_so_far} {kind} so far"
        ));
    }
    u32::try_from(resolved).map_err(|_| format!("face index {value} ({kind}) is too large"))
}

/// Between `range.start` and `range.end - 1` finite numbers.
fn numbers(words: &[&str], keyword: &str, range: Range<usize>) -> Result<Vec<f64>, String> {
    if !range.contains(&words.len()) {
        return Err(format!(
            "{keyword} has {} numbers, expected {} to {}",
            words.len(),
            range.start,
            range.end - 1
        ));
    }
    words.iter().map(|w| number(w, keyword)).collect()
}

/// A finite number.
pub fn number(word: &str, keyword: &str) -> Result<f64, String> {
    match word.parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        _ => Err(format!("{keyword}: {word:?} is not a finite number")),
    }
}
