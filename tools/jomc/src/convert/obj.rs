//! The OBJ importer: a Wavefront OBJ file, its MTL files and their PNG textures read into
//! the shared [`Scene`]. Our own small reader rather than a crate: the errors must name
//! the line, and `v x y z r g b`, `o`/`g` runs and `usemtl` must be kept exactly as
//! written (tobj, the obvious crate, reports errors without lines and regroups the data).
//!
//! Read: `v` (with optional colours), `vt`, `vn`, `f`, `o`, `g`, `usemtl`, `mtllib`.
//! Everything else (`s`, `l`, `p`, curves, ...) has nothing to do on a Saturn and is skipped.

use super::check_name;
use super::mtl::{self, MtlMaterial};
use super::scene::{self, Image, Origin, Place, Scene, SceneAxes, TextureRef};
use super::{Error, Sources};
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Reads the OBJ at `path`, its MTL files and the PNGs of the materials its faces use.
/// `axes`: the axes the file is in (Y up unless the user says otherwise).
pub fn read(path: &Path, axes: SceneAxes, sources: &Sources) -> Result<Scene, Error> {
    let obj = parse(path, sources)?;
    let library = mtl::read_libraries(&obj, path, sources)?;
    into_scene(obj, &library, path, axes, sources)
}

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

/// Reads and checks `path`.
fn parse(path: &Path, sources: &Sources) -> Result<Obj, Error> {
    let text = sources
        .read_to_string(path)
        .map_err(|e| Error::file(path, e.to_string()))?;
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

/// The scene of `obj` and its MTL `library`: the materials the faces use, in library
/// order, and their images, each PNG decoded once.
fn into_scene(
    obj: Obj,
    library: &[MtlMaterial],
    path: &Path,
    axes: SceneAxes,
    sources: &Sources,
) -> Result<Scene, Error> {
    let mut scene = Scene::new(path, axes);
    let at_line = |line| Origin {
        file: 0,
        place: Place::Line(line),
    };
    let scene_material = used_materials(&obj, library, path, &mut scene, sources)?;
    // A `v` with a colour gives every point one: white where a `v` has none.
    if obj.has_colors {
        scene.colors = obj
            .vertices
            .iter()
            .map(|v| v.color.unwrap_or([1.0; 3]))
            .collect();
    }
    scene.vertices = obj
        .vertices
        .into_iter()
        .map(|v| scene::Vertex {
            position: v.position,
            group: None,
            origin: at_line(v.line),
        })
        .collect();
    // OBJ textures have v up; the scene's v is down.
    scene.uvs = obj.uvs.into_iter().map(|[u, v]| [u, 1.0 - v]).collect();
    scene.normals = obj.normals;
    scene.corners = obj
        .corners
        .into_iter()
        .map(|c| scene::Corner {
            vertex: c.vertex,
            uv: c.uv,
            normal: c.normal,
            color: obj.has_colors.then_some(c.vertex),
        })
        .collect();
    scene.faces = obj
        .faces
        .into_iter()
        .map(|f| scene::Face {
            corners: f.corners,
            group: f.group,
            material: f.material.map(|m| scene_material[m as usize]),
            origin: at_line(f.line),
        })
        .collect();
    scene.groups = obj.groups;
    Ok(scene)
}

/// Puts the library's materials that `usemtl` names into the scene (in library order,
/// with their images) and gives the scene index of each `usemtl` name.
fn used_materials(
    obj: &Obj,
    library: &[MtlMaterial],
    path: &Path,
    scene: &mut Scene,
    sources: &Sources,
) -> Result<Vec<u32>, Error> {
    let mut library_of_name = Vec::with_capacity(obj.materials.len());
    for (name, line) in &obj.materials {
        match library.iter().position(|m| &m.name == name) {
            Some(index) => library_of_name.push(index),
            None => {
                return Err(Error::at(
                    path,
                    *line,
                    format!("usemtl {name}: no such material in the mtllib files"),
                ))
            }
        }
    }
    let order: Vec<usize> = (0..library.len())
        .filter(|i| library_of_name.contains(i))
        .collect();
    let mut image_of_png: HashMap<PathBuf, u32> = HashMap::new();
    for &i in &order {
        let material = scene_material(&library[i], scene, &mut image_of_png, sources)?;
        scene.materials.push(material);
    }
    Ok(library_of_name
        .iter()
        .map(|l| order.iter().position(|i| i == l).unwrap_or(0) as u32)
        .collect())
}

/// A material of the MTL as the scene's, its `map_Kd` PNG decoded on its first use.
fn scene_material(
    material: &MtlMaterial,
    scene: &mut Scene,
    image_of_png: &mut HashMap<PathBuf, u32>,
    sources: &Sources,
) -> Result<scene::Material, Error> {
    let file = scene.file_index(&material.file);
    let origin = |line| Origin {
        file,
        place: Place::Line(line),
    };
    let texture = match &material.texture {
        Some((png, line)) => {
            let image = match image_of_png.get(png) {
                Some(&image) => image,
                None => {
                    let label = format!("map_Kd {}", png.display());
                    let at = |e: String| Error::at(&material.file, *line, format!("{label}: {e}"));
                    let bytes = sources.read(png).map_err(|e| at(e.to_string()))?;
                    let name = png.file_stem().unwrap_or_default().to_string_lossy();
                    let image =
                        Image::from_png(&bytes, name.into_owned(), label.clone()).map_err(at)?;
                    scene.images.push(image);
                    let index = scene.images.len() as u32 - 1;
                    image_of_png.insert(png.clone(), index);
                    index
                }
            };
            Some(TextureRef {
                image,
                origin: origin(*line),
            })
        }
        None => None,
    };
    Ok(scene::Material {
        name: material.name.clone(),
        origin: origin(material.line),
        diffuse: material.diffuse,
        shininess: material.shininess,
        flags: material.flags,
        subdivision_error: material.subdivision_error,
        value: material.value,
        lut: material.lut,
        texture,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_obj_reads_into_the_scene_in_its_conventions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.obj");
        std::fs::write(
            &path,
            "v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0\nvt 0.25 0\nvt 1 0.75\nvn 0 0 1\n\
             g side\nf 1/1/1 2/2/1 3/2/1\n",
        )
        .unwrap();
        let scene = read(&path, SceneAxes::YUpRightHanded, &Sources::disk()).unwrap();
        assert_eq!(scene.axes, SceneAxes::YUpRightHanded);
        // v up in the OBJ, down in the scene.
        assert_eq!(scene.uvs, [[0.25, 1.0], [1.0, 0.25]]);
        assert_eq!(scene.vertices[1].position, [1.0, 0.0, 0.0]);
        assert_eq!(scene.vertices[2].origin.place, Place::Line(3));
        // A colour on one v gives every corner one, white where the v has none.
        assert_eq!(scene.colors[..2], [[1.0, 0.0, 0.0], [1.0; 3]]);
        let face = &scene.faces[0];
        assert_eq!((face.group, face.material), (Some(0), None));
        assert_eq!(face.origin.place, Place::Line(8));
        let corner = scene.face_corners(face)[1];
        assert_eq!(
            corner,
            scene::Corner {
                vertex: 1,
                uv: Some(1),
                normal: Some(0),
                color: Some(1)
            }
        );
        assert_eq!(scene.groups, ["side"]);
    }
}
