//! `jomc convert`: a Wavefront OBJ (and its MTL materials, PNG textures, and optionally a
//! skeleton in JSON) to a JOM file. The whole model is built in memory and checked first;
//! files are written last, each through a temporary file renamed into place, so a failed
//! conversion leaves no output behind. docs/convert.md is the user documentation.

mod geometry;
mod materials;
mod mtl;
mod obj;
mod output;
pub mod rig;
mod skeleton;
mod sphere;
mod textures;

use jom_write::JomFile;
use std::fmt;
use std::path::{Path, PathBuf};

/// The options of `jomc convert`.
#[derive(clap::Args)]
pub struct Args {
    /// The Wavefront OBJ file (its `mtllib` files are read from its directory).
    obj: PathBuf,
    /// The JOM file to write.
    #[arg(short, long)]
    output: PathBuf,
    /// Multiply every coordinate (points, pivots, root offsets) by S.
    #[arg(long, value_name = "S", default_value_t = 1.0, value_parser = positive_number)]
    scale: f64,
    /// The OBJ is already in the Saturn's axes (X right, Y down, Z forward, clockwise front
    /// faces): no axis conversion, no reversed vertex order.
    #[arg(long)]
    saturn_axes: bool,
    /// Keep the corner order of the OBJ's triangles instead of putting the shortest edge in
    /// A-B.
    #[arg(long)]
    keep_triangles: bool,
    /// Keep every OBJ point, even at the same position as another.
    #[arg(long)]
    no_weld: bool,
    /// Write each texture (map_Kd PNG) into DIR as a jo engine .BIN image named as in TEXT.
    #[arg(long, value_name = "DIR")]
    texture_dir: Option<PathBuf>,
    /// Put the textures' pixels in the JOM file (TIMG chunk).
    #[arg(long)]
    embed_textures: bool,
    /// The rigid skeleton and its animations (JSON, see docs/convert.md).
    #[arg(long, value_name = "FILE.json")]
    skeleton: Option<PathBuf>,
    /// Drop the bones' offsets and scales (no BMOT chunk): the animations as an engine
    /// without BMOT plays them; a warning gives the largest error this makes.
    #[arg(long)]
    rotations_only: bool,
}

fn positive_number(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value),
        _ => Err(format!("{text:?} is not a positive number")),
    }
}

/// A conversion error: the file, the line when one is to blame, and the problem.
#[derive(Debug)]
pub struct Error {
    file: PathBuf,
    line: Option<usize>,
    message: String,
}

impl Error {
    /// A problem at `line` of `file`.
    fn at(file: &Path, line: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// A problem of `file` as a whole.
    fn file(file: &Path, message: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// The most points, polygons, normals, materials or groups a JOM file indexes (u16).
const MAX_INDEXED: usize = 65_535;

/// Converts, writes the files, and returns a one-line summary.
pub fn run(args: &Args) -> Result<String, Error> {
    let obj = obj::read(&args.obj)?;
    let library = mtl::read_libraries(&obj, &args.obj)?;
    let mesh = geometry::build(
        &obj,
        &args.obj,
        &geometry::Settings {
            scale: args.scale,
            saturn_axes: args.saturn_axes,
            keep_triangles: args.keep_triangles,
            weld: !args.no_weld,
        },
    )?;
    let used = materials::resolve(&obj, &library, &mesh, &args.obj, args.embed_textures)?;
    let textures = textures::convert(&used.textures, args.embed_textures)?;
    let rig = match &args.skeleton {
        Some(path) => {
            let axes = geometry::Axes::new(args.scale, args.saturn_axes);
            let rig = skeleton::read(path, &mesh.group_names, &axes, args.rotations_only)?;
            for warning in &rig.warnings {
                eprintln!("jomc: warning: {}: {warning}", path.display());
            }
            Some(rig)
        }
        None => None,
    };
    let file = assemble(&mesh, used, &textures, rig, args.embed_textures);
    let bytes = file.to_bytes();
    if let Some(dir) = &args.texture_dir {
        for texture in &textures {
            output::write_atomically(&dir.join(&texture.name), &texture.jo_image_bin())?;
        }
    }
    output::write_atomically(&args.output, &bytes)?;
    Ok(summary(&args.output, &file))
}

/// The JOM file's chunks from the converted parts.
fn assemble(
    mesh: &geometry::Mesh,
    used: materials::Used,
    textures: &[textures::Converted],
    rig: Option<rig::Rig>,
    embed: bool,
) -> JomFile {
    let (bones, animations, bone_motion) = match rig {
        Some(rig) => (Some(rig.bones), Some(rig.animations), rig.bone_motion),
        None => (None, None, None),
    };
    JomFile {
        version: 1,
        center: mesh.center,
        radius: mesh.radius,
        textures: (embed && !textures.is_empty()).then(|| {
            textures
                .iter()
                .map(textures::Converted::timg_entry)
                .collect()
        }),
        points: mesh.points.clone(),
        polygons: mesh.polygons.clone(),
        polygon_materials: used.polygon_materials,
        materials: used.materials,
        texture_names: textures.iter().map(|t| t.name.clone()).collect(),
        normals: mesh.normals.clone(),
        corner_normals: mesh.corner_normals.clone(),
        vertex_colors: mesh
            .colors
            .as_ref()
            .map(|c| c.iter().map(|&c| c.fixed).collect()),
        gouraud: used.gouraud,
        groups: mesh.groups.clone(),
        bones,
        animations,
        bone_motion,
        extra_chunks: Vec::new(),
    }
}

fn summary(output: &Path, file: &JomFile) -> String {
    format!(
        "{}: {} points, {} polygons, {} materials, {} textures, {} groups, {} bones, {} animations\n",
        output.display(),
        file.points.len(),
        file.polygons.len(),
        file.materials.len(),
        file.texture_names.len(),
        file.groups.as_ref().map_or(0, Vec::len),
        file.bones.as_ref().map_or(0, Vec::len),
        file.animations.as_ref().map_or(0, Vec::len),
    )
}

/// Whether `name` can be stored (the reader takes ASCII names only), else the problem.
fn check_name(kind: &str, name: &str) -> Result<(), String> {
    if name.is_ascii() && !name.contains('\0') {
        Ok(())
    } else {
        Err(format!(
            "{kind} name {name:?} is not ASCII (a JOM name is ASCII, at most 15 characters)"
        ))
    }
}
