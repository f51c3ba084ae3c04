//! The converter (`jomc convert`, and [`convert_file`] for a program or a build script: see
//! [`crate::build`]): a Wavefront OBJ (and its MTL materials, PNG textures, and optionally a
//! skeleton in JSON), a glTF 2.0 file, a PlayStation TMD (and its TOD animations and TIM
//! textures) or a 3DS CMB (and its CSAB animations) to a JOM file. The whole model is built
//! in memory and checked first; files are written last, each through a temporary file
//! renamed into place, so a failed conversion leaves no output behind. docs/convert.md is
//! the user documentation.

mod bake;
mod cmb;
mod fit;
mod geometry;
mod gltf;
mod levels;
mod matching;
mod materials;
mod mtl;
mod obj;
mod output;
mod palette;
mod psx;
mod quads;
mod regions;
pub mod rig;
mod scene;
mod skeleton;
mod sources;
mod sphere;
mod textures;

pub use fit::PaletteMode;
pub use gltf::{Options as GltfOptions, DEFAULT_KEY_TICKS};
pub use quads::Pairing;
pub(crate) use scene::Image;
pub use sources::Sources;
pub(crate) use textures::rgb555;

use crate::fits::{self, FitStep};
use crate::vram;
use jom_write::JomFile;
use scene::{Place, Scene, SceneAxes};
use std::fmt;
use std::path::{Path, PathBuf};

/// The options of a conversion (those of `jomc convert` after the model and `-o`):
/// [`Options::default`] is the command line's defaults.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Multiply every coordinate (points, pivots, root offsets) by S.
    #[arg(long, value_name = "S", default_value_t = 1.0, value_parser = positive_number)]
    pub scale: f64,
    /// The OBJ is already in the Saturn's axes (X right, Y down, Z forward, clockwise front
    /// faces): no axis conversion, no reversed vertex order.
    #[arg(long)]
    pub saturn_axes: bool,
    /// Keep the corner order of the OBJ's triangles instead of putting the shortest edge in
    /// A-B.
    #[arg(long)]
    pub keep_triangles: bool,
    /// Keep every OBJ point, even at the same position as another.
    #[arg(long)]
    pub no_weld: bool,
    /// Write each texture (map_Kd PNG) into DIR as a jo engine .BIN image named as in TEXT.
    #[arg(long, value_name = "DIR")]
    pub texture_dir: Option<PathBuf>,
    /// Put the textures' pixels in the JOM file (TIMG chunk).
    #[arg(long)]
    pub embed_textures: bool,
    /// Texels of a baked texture per texel of its image (a face whose texture coordinates
    /// are not the image's corners gets a texture of its own).
    #[arg(long, value_name = "F", default_value_t = 1.0, value_parser = positive_number)]
    pub texel_scale: f64,
    /// The largest baked texture, W,H: W a multiple of 8 from 8 to 504, H from 1 to 255.
    #[arg(long, value_name = "W,H", default_value = "504,255", value_parser = texture_size)]
    pub max_texture: [u16; 2],
    /// The most VDP1 VRAM the textures may take, in bytes (default: the engine's default
    /// texture region, what its layout leaves after the command lists and gouraud tables);
    /// the largest textures are halved until they fit.
    #[arg(long, value_name = "BYTES", default_value_t = crate::vram::default_texture_region(), value_parser = vram_budget)]
    pub vram_budget: u32,
    /// When embedded textures are stored as 16 colours with a lookup table: when the
    /// texture's error stays within --texture-error (auto), always, or never (only for
    /// jo_lut 1 materials).
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = fit::PaletteMode::Auto)]
    pub palette: fit::PaletteMode,
    /// The largest error a texture may take from its 16-colour form or from sharing a
    /// near-identical texture: the mean difference of its opaque texels' 8-bit channels,
    /// 0 to 255 (0: only identical textures are shared).
    #[arg(long, value_name = "E", default_value_t = fit::DEFAULT_MAX_ERROR, value_parser = texture_error)]
    pub texture_error: f64,
    /// The rigid skeleton and its animations (JSON, see docs/convert.md).
    #[arg(long, value_name = "FILE.json")]
    pub skeleton: Option<PathBuf>,
    /// With a TMD: an animation (TOD), a bone per TOD object; several play one after
    /// another, each continuing the objects of the ones before.
    #[arg(long, value_name = "ANIM.TOD")]
    pub tod: Vec<PathBuf>,
    /// With a TMD: a TIM image its textured polygons sample, loaded at its frame-buffer
    /// position (later ones over earlier ones).
    #[arg(long, value_name = "TEX.TIM")]
    pub tim: Vec<PathBuf>,
    /// A CSAB animation of a CMB model (an ANIM named after the file); repeatable.
    #[arg(long, value_name = "FILE.csab")]
    pub csab: Vec<PathBuf>,
    /// Pair triangles into quads (the default for glTF and CMB; OBJ and TMD: with --quads).
    #[arg(long)]
    pub quads: bool,
    /// The most two triangles may be folded (the angle between their normals, degrees,
    /// 0 to 90) and still pair into one quad.
    #[arg(long, value_name = "DEGREES", default_value_t = quads::DEFAULT_FOLD_DEGREES, value_parser = fold_degrees)]
    pub quad_fold: f64,
    /// How triangles are paired: as many pairs as possible (matching); the greedy pass
    /// alone, or none (for comparison).
    #[arg(long, value_name = "HOW", value_enum, default_value_t = quads::Pairing::Matching)]
    pub quad_pairing: quads::Pairing,
    #[command(flatten)]
    pub gltf: gltf::Options,
    /// Cut the model into regions the engine culls by their bounding spheres before
    /// transforming their points (REGN, docs/levels.md): each group (a glTF node, an OBJ o
    /// or g) cut by an N x N grid over X and Z. For a level larger than the screen.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(regions::MAX_CELLS)))]
    pub cells: Option<u32>,
    /// The size on screen (the model's radius, in pixels) below which each lower level of
    /// detail is drawn, level 1 first (the levels: the groups named _LOD1, _LOD2, ...;
    /// default 48, 24, 12, ...).
    #[arg(long, value_name = "P1,P2,...", value_delimiter = ',')]
    pub lod_pixels: Vec<u32>,
    /// Drop the bones' offsets and scales (no BMOT chunk): the animations as an engine
    /// without BMOT plays them; a warning gives the largest error this makes.
    #[arg(long)]
    pub rotations_only: bool,
}

fn positive_number(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 => Ok(value),
        _ => Err(format!("{text:?} is not a positive number")),
    }
}

fn texture_error(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=255.0).contains(&value) => Ok(value),
        _ => Err(format!("{text:?} is not an error from 0 to 255")),
    }
}

fn vram_budget(text: &str) -> Result<u32, String> {
    let most = jom::vdp1::VRAM_SIZE;
    match text.parse::<u32>() {
        Ok(value) if value <= most => Ok(value),
        _ => Err(format!(
            "{text:?} is not a number of bytes from 0 to {most} (the VDP1's VRAM)"
        )),
    }
}

fn fold_degrees(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=90.0).contains(&value) => Ok(value),
        _ => Err(format!("{text:?} is not an angle from 0 to 90 degrees")),
    }
}

fn texture_size(text: &str) -> Result<[u16; 2], String> {
    let problem = || {
        format!("{text:?}: expected W,H with W a multiple of 8 from 8 to 504 and H from 1 to 255")
    };
    let (w, h) = text.split_once(',').ok_or_else(problem)?;
    let (w, h): (u16, u16) = (
        w.trim().parse().map_err(|_| problem())?,
        h.trim().parse().map_err(|_| problem())?,
    );
    if !w.is_multiple_of(8) || !(8..=504).contains(&w) || !(1..=255).contains(&h) {
        return Err(problem());
    }
    Ok([w, h])
}

/// A conversion error: the file, the place in it to blame (a line, a byte offset, a JSON
/// path, or none), and the problem.
#[derive(Debug)]
pub struct Error {
    file: PathBuf,
    place: Place,
    message: String,
}

impl Error {
    /// A problem at `place` of `file`.
    fn new(file: PathBuf, place: Place, message: impl Into<String>) -> Self {
        Self {
            file,
            place,
            message: message.into(),
        }
    }

    /// A problem at `line` of `file`.
    fn at(file: &Path, line: usize, message: impl Into<String>) -> Self {
        Self::new(file.to_path_buf(), Place::Line(line), message)
    }

    /// A problem of `file` as a whole.
    fn file(file: &Path, message: impl Into<String>) -> Self {
        Self::new(file.to_path_buf(), Place::File, message)
    }
}

impl std::error::Error for Error {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}: {}", self.file.display(), self.place, self.message)
    }
}

/// The most points, polygons, normals, materials or groups a JOM file indexes (u16).
const MAX_INDEXED: usize = 65_535;

/// The model formats `jomc convert` reads, each through its own importer into the scene.
#[derive(Clone, Copy, PartialEq)]
enum Format {
    Obj,
    Gltf,
    Tmd,
    Cmb,
}

impl Format {
    /// The format of `path` (its content `bytes`): by extension, else by content; a binary
    /// file of no format read is an error.
    fn of(path: &Path, bytes: &[u8]) -> Result<Self, Error> {
        let extension = |e: &str| path.extension().is_some_and(|x| x.eq_ignore_ascii_case(e));
        Ok(if extension("obj") {
            Self::Obj
        } else if extension("cmb") {
            Self::Cmb
        } else if psx::is_tmd(path, bytes) {
            Self::Tmd
        } else if gltf::is_gltf(path, bytes) {
            Self::Gltf
        } else if std::str::from_utf8(bytes).is_ok() {
            Self::Obj
        } else {
            return Err(Error::file(
                path,
                "not a model jomc reads: expected Wavefront OBJ (.obj), glTF 2.0 (.gltf, \
                 .glb), PlayStation TMD (.tmd) or 3DS CMB (.cmb)",
            ));
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Obj => "Wavefront OBJ",
            Self::Gltf => "glTF",
            Self::Tmd => "PlayStation TMD",
            Self::Cmb => "3DS CMB",
        }
    }

    /// Whether its triangles are paired into quads unless `--keep-triangles`: formats whose
    /// tools cut every quad in two (Blender's glTF exporter, 3DS models of triangles only).
    fn pairs_by_default(self) -> bool {
        matches!(self, Self::Gltf | Self::Cmb)
    }
}

impl Default for Options {
    /// The command line's defaults, taken from its definition so that the two never differ.
    fn default() -> Self {
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            options: Options,
        }
        <Defaults as clap::Parser>::parse_from(["jomc"]).options
    }
}

/// What a conversion did.
#[derive(Clone, Debug)]
pub struct Report {
    /// The command line's summary: the JOM file's counts, the paired triangles and those
    /// left, the VRAM
    /// the textures take (two lines, each ended by a newline).
    pub summary: String,
    /// Every file the conversion read (the model, its MTL, textures, skeleton, animations,
    /// buffers), in the order first read.
    pub files_read: Vec<PathBuf>,
    /// The warnings, one line each (without "jomc: warning: ").
    pub warnings: Vec<String>,
}

/// Converts the model `input` (its format by extension, else by content) to the JOM file
/// `output` (and the `.BIN` textures of `--texture-dir`), reading from the disk. On error
/// nothing is written.
pub fn convert_file(input: &Path, output: &Path, options: &Options) -> Result<Report, Error> {
    let sources = Sources::disk();
    let summary = convert_with(input, output, options, &sources)?;
    Ok(Report {
        summary,
        files_read: sources.files_read(),
        warnings: sources.warnings(),
    })
}

/// [`convert_file`] reading through `sources` (which keeps the warnings, also those given
/// before an error); returns the summary.
pub fn convert_with(
    input: &Path,
    output: &Path,
    options: &Options,
    sources: &Sources,
) -> Result<String, Error> {
    let converted = convert_in_memory(input, options, sources)?;
    // The importers and the mesh check the engine's limits where they can name the source;
    // this is the last guard: no file the engine refuses is written (the fuzz target obj
    // checks that it is never needed).
    let file = jom_write::AlignedBytes::new(&converted.bytes);
    if let Err(refused) = jom::Model::from_bytes(file.bytes()) {
        return Err(Error::file(
            output,
            format!("the engine would refuse the converted model: {refused}"),
        ));
    }
    if let Some(dir) = &options.texture_dir {
        for texture in &converted.textures {
            output::write_atomically(&dir.join(&texture.name), &texture.jo_image_bin())?;
        }
    }
    output::write_atomically(output, &converted.bytes)?;
    let mut line = summary(output, &converted.file);
    if let Some(pairs) = converted.paired {
        let triangles = converted
            .file
            .polygons
            .iter()
            .filter(|p| p.corners[2] == p.corners[3])
            .count();
        line.insert_str(
            line.len() - 1,
            &format!(
                ", {} triangles paired into {pairs} quads, {triangles} triangles left",
                2 * pairs
            ),
        );
    }
    Ok(line + &step_lines(&converted.steps) + &vram_line(converted.vram))
}

/// A model converted in memory.
pub struct Converted {
    /// The JOM file's bytes.
    pub bytes: Vec<u8>,
    file: JomFile,
    textures: Vec<textures::Converted>,
    paired: Option<usize>,
    vram: u64,
    /// The fitting steps that changed something (also in the file's FITS chunk).
    pub steps: Vec<FitStep>,
}

/// The whole conversion of `input` read through `sources`, nothing written (the fuzz
/// targets run it on bytes in memory).
pub fn convert_in_memory(
    input: &Path,
    options: &Options,
    sources: &Sources,
) -> Result<Converted, Error> {
    let axes = match options.saturn_axes {
        true => SceneAxes::Saturn,
        false => SceneAxes::YUpRightHanded,
    };
    let (mut scene, format) = import(input, options, axes, sources)?;
    let pairing = quads::Settings {
        fold_degrees: options.quad_fold,
        pairing: options.quad_pairing,
    };
    let paired = (options.quads || (format.pairs_by_default() && !options.keep_triangles))
        .then(|| quads::pair(&mut scene, &pairing));
    let mesh = geometry::build(
        &scene,
        &geometry::Settings {
            scale: options.scale,
            keep_triangles: options.keep_triangles,
            weld: !options.no_weld,
        },
    )?;
    let material_options = materials::Options {
        embed: options.embed_textures,
        bake: bake::Settings {
            texel_scale: options.texel_scale,
            max_width: options.max_texture[0],
            max_height: options.max_texture[1],
        },
    };
    let mut used = materials::resolve(&scene, &mesh, &material_options)?;
    let transform = geometry::Transform::new(options.scale, scene.axes);
    let rig = match (&options.skeleton, &scene.rig) {
        (Some(path), _) => {
            let rig = skeleton::read(
                path,
                &mesh.group_names,
                &transform,
                options.rotations_only,
                sources,
            )?;
            for warning in &rig.warnings {
                sources.warn(format!("{}: {warning}", path.display()));
            }
            Some(rig)
        }
        (None, Some(scene_rig)) => {
            let (bones, animations) = transform.rig(scene_rig);
            let rig = rig::convert(&bones, &animations, options.rotations_only)
                .map_err(|m| scene.error(&scene_rig.origin, m))?;
            for warning in &rig.warnings {
                sources.warn(scene.error(&scene_rig.origin, warning).to_string());
            }
            Some(rig)
        }
        (None, None) => None,
    };
    let start = fit::TextureSet {
        textures: std::mem::take(&mut used.textures),
        materials: std::mem::take(&mut used.materials),
    };
    let settings = fit::Settings {
        palette: options.palette,
        max_error: options.texture_error,
        budget: options.vram_budget,
        embed: options.embed_textures,
    };
    let stages = fit::fit(&start, &settings)
        .map_err(|needed| scene.model_error(refusal(needed, options.vram_budget)))?;
    let base = assemble(&mesh, &used, &start, rig, options.embed_textures);
    let steps = measure_steps(&base, &start, &stages).map_err(|e| scene.model_error(e))?;
    let fitted = stages.last().map_or(&start, |stage| &stage.set);
    let mut file = with_textures(&base, fitted, options.embed_textures);
    let mut lower = Vec::new();
    if let Some((first, levels)) = levels::split(&file).map_err(|e| scene.model_error(e))? {
        (file, lower) = (first, levels);
    }
    if let Some(cells) = options.cells {
        for level in std::iter::once(&mut file).chain(&mut lower) {
            let regions = regions::split(level, cells).map_err(|e| scene.model_error(e))?;
            level.extra_chunks.push(jom_write::regions_chunk(&regions));
        }
    }
    if !lower.is_empty() {
        let pixels =
            level_pixels(&options.lod_pixels, lower.len()).map_err(|e| scene.model_error(e))?;
        let levels: Vec<(u32, Vec<u8>)> = pixels
            .into_iter()
            .zip(&lower)
            .map(|(pixels, level)| (pixels, level.to_bytes()))
            .collect();
        file.extra_chunks.push(jom_write::levels_chunk(&levels));
    } else if !options.lod_pixels.is_empty() {
        return Err(scene.model_error(
            "--lod-pixels given, and no group is named for a lower level of detail (_LOD1, ...)",
        ));
    }
    if !steps.is_empty() {
        file.extra_chunks.push((fits::TAG, fits::encode(&steps)));
    }
    Ok(Converted {
        bytes: file.to_bytes(),
        file,
        textures: fitted.textures.clone(),
        paired,
        vram: fitted.total_bytes(),
        steps,
    })
}

/// The sizes on screen of `count` lower levels: `given` (`--lod-pixels`), as many as the
/// levels, each above 0 and below the one before, or the defaults.
fn level_pixels(given: &[u32], count: usize) -> Result<Vec<u32>, String> {
    if given.is_empty() {
        return Ok((1..=count).map(levels::default_pixels).collect());
    }
    if given.len() != count {
        return Err(format!(
            "--lod-pixels gives {} sizes for {count} lower levels of detail: expected one each",
            given.len()
        ));
    }
    if given[0] == 0 || given.windows(2).any(|w| w[1] == 0 || w[1] >= w[0]) {
        return Err(format!(
            "--lod-pixels {given:?}: expected sizes above 0, each below the one before"
        ));
    }
    Ok(given.to_vec())
}

/// The refusal of textures that do not fit even in their smallest form.
fn refusal(needed: u64, budget: u32) -> String {
    format!(
        "the textures need {needed} bytes of VDP1 VRAM even in their smallest form (every \
         texture shared, in 16 colours where allowed, halved down to 8 x 1), {} bytes more \
         than the budget of {budget} bytes ({} of the engine's default texture region; \
         --vram-budget sets it)",
        needed - u64::from(budget),
        vram::share_of_default(u64::from(budget))
    )
}

/// Each step's bytes and picture error: the model drawn after the step against before it.
fn measure_steps(
    base: &JomFile,
    start: &fit::TextureSet,
    stages: &[fit::Stage],
) -> Result<Vec<FitStep>, String> {
    let mut steps = Vec::new();
    let mut before = (start, start.total_bytes());
    for stage in stages {
        let picture_error = picture_error(
            &with_textures(base, before.0, true),
            &with_textures(base, &stage.set, true),
        )?;
        // VRAM figures fit in u32 (the VDP1 has 512 KiB); counts too.
        steps.push(FitStep {
            step: match stage.step {
                fit::Step::Shared => 1,
                fit::Step::Palettes => 2,
                fit::Step::Halved => 3,
            },
            changed: stage.changed as u32,
            bytes_before: before.1 as u32,
            bytes_after: stage.bytes as u32,
            picture_error_milli: (picture_error * 1000.0).round() as u32,
        });
        before = (&stage.set, stage.bytes);
    }
    Ok(steps)
}

/// `jomc compare`'s picture error of `b` against `a` (both with TIMG), default views.
fn picture_error(a: &JomFile, b: &JomFile) -> Result<f64, String> {
    let (a, b) = (a.to_bytes(), b.to_bytes());
    let (a, b) = (
        jom_write::AlignedBytes::new(&a),
        jom_write::AlignedBytes::new(&b),
    );
    let refused = |e| format!("a fitted model: {e}");
    let a = jom::Model::from_bytes(a.bytes()).map_err(refused)?;
    let b = jom::Model::from_bytes(b.bytes()).map_err(refused)?;
    let (a, b) = (
        crate::compare::Drawn {
            model: &a,
            texture_files: &[],
        },
        crate::compare::Drawn {
            model: &b,
            texture_files: &[],
        },
    );
    let settings = crate::compare::Settings::default();
    Ok(crate::compare::compare(&a, &b, &settings)?.error)
}

/// The summary's lines of the steps, before the last line (`jomc info` prints the same).
pub fn step_lines(steps: &[FitStep]) -> String {
    let Some(first) = steps.first() else {
        return String::new();
    };
    let mut text = format!(
        "textures before fitting: {} bytes of VDP1 VRAM, {}\n",
        first.bytes_before,
        vram::share_of_default(u64::from(first.bytes_before))
    );
    for step in steps {
        let unit = match step.step {
            3 => "halvings",
            _ => "textures",
        };
        text += &format!(
            "  {}: {} {unit}, {} bytes saved, picture error {:.2} of 255\n",
            step.describe(),
            step.changed,
            i64::from(step.bytes_before) - i64::from(step.bytes_after),
            f64::from(step.picture_error_milli) / 1000.0
        );
    }
    text
}

/// Reads the model into the scene through the importer of its format.
fn import(
    input: &Path,
    options: &Options,
    axes: SceneAxes,
    sources: &Sources,
) -> Result<(Scene, Format), Error> {
    let bytes = sources
        .read(input)
        .map_err(|e| Error::file(input, e.to_string()))?;
    let format = Format::of(input, &bytes)?;
    check_options(input, options, format)?;
    let scene = match format {
        Format::Obj => obj::read(input, axes, sources)?,
        Format::Gltf => gltf::read(input, &bytes, &options.gltf, sources)?,
        Format::Tmd => {
            let imported = psx::read(&psx::Inputs {
                model: input,
                tods: &options.tod,
                tims: &options.tim,
                sources,
            })?;
            for warning in imported.warnings {
                sources.warn(warning);
            }
            imported.scene
        }
        Format::Cmb => cmb::read(input, &options.csab, options.gltf.key_ticks, sources)?,
    };
    Ok((scene, format))
}

/// An option given for a model of another format is an error naming both.
fn check_options(input: &Path, options: &Options, format: Format) -> Result<(), Error> {
    let given = [
        ("--skeleton", options.skeleton.is_some(), Format::Obj),
        ("--saturn-axes", options.saturn_axes, Format::Obj),
        ("--tod", !options.tod.is_empty(), Format::Tmd),
        ("--tim", !options.tim.is_empty(), Format::Tmd),
        ("--csab", !options.csab.is_empty(), Format::Cmb),
        ("--loop", !options.gltf.loops.is_empty(), Format::Gltf),
    ];
    match given.iter().find(|(_, on, owner)| *on && *owner != format) {
        Some((option, _, owner)) => Err(Error::file(
            input,
            format!(
                "{option} is for {} models, and this is a {} model",
                owner.name(),
                format.name()
            ),
        )),
        None => Ok(()),
    }
}

fn vram_line(bytes: u64) -> String {
    format!(
        "textures: {bytes} bytes of VDP1 VRAM, {} of the engine's default texture region ({} \
         bytes)\n",
        vram::share_of_default(bytes),
        vram::default_texture_region()
    )
}

/// The JOM file's chunks from the converted parts.
fn assemble(
    mesh: &geometry::Mesh,
    used: &materials::Used,
    set: &fit::TextureSet,
    rig: Option<rig::Rig>,
    embed: bool,
) -> JomFile {
    let textures = &set.textures;
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
        polygon_materials: used.polygon_materials.clone(),
        materials: set.materials.clone(),
        texture_names: textures.iter().map(|t| t.name.clone()).collect(),
        normals: mesh.normals.clone(),
        corner_normals: mesh.corner_normals.clone(),
        vertex_colors: mesh.colors.clone(),
        gouraud: used.gouraud.clone(),
        groups: mesh.groups.clone(),
        bones,
        animations,
        bone_motion,
        extra_chunks: Vec::new(),
    }
}

/// `base` with the textures and materials of `set`.
fn with_textures(base: &JomFile, set: &fit::TextureSet, embed: bool) -> JomFile {
    JomFile {
        textures: (embed && !set.textures.is_empty()).then(|| {
            set.textures
                .iter()
                .map(textures::Converted::timg_entry)
                .collect()
        }),
        materials: set.materials.clone(),
        texture_names: set.textures.iter().map(|t| t.name.clone()).collect(),
        ..base.clone()
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
