//! The converter in a game's build script (`jomc` as a build-dependency), so building the
//! game converts its models with no `jomc` installed:
//!
//! ```no_run
//! // In build.rs's main: writes $OUT_DIR/HERO.JOM; the program links it in with
//! // jom::include_aligned!(concat!(env!("OUT_DIR"), "/HERO.JOM")).
//! jomc::build::convert("assets/hero.glb");
//! // With options (those of `jomc convert`):
//! let mut options = jomc::build::options();
//! options.skeleton = Some("assets/robot.json".into());
//! jomc::build::convert_with("assets/robot.obj", &options);
//! ```
//!
//! Each conversion tells cargo to run the build script again when any file it read
//! changes (the model, its MTL, textures, skeleton JSON, animations, buffers), passes the
//! converter's warnings on as cargo warnings, and on error stops the build with the
//! converter's one error (`jomc: FILE:LINE: ...`).

use crate::convert::{self, Error, Options, Report};
use std::path::{Path, PathBuf};

/// The options [`convert()`] uses: the command line's defaults with the textures embedded in
/// the JOM file (TIMG), as a program that links the file in or reads it whole wants.
pub fn options() -> Options {
    Options {
        embed_textures: true,
        ..Options::default()
    }
}

/// Converts `input` (a path relative to the package, as build scripts run there) to
/// `$OUT_DIR/STEM.JOM` (its file stem in capitals) with [`options`], and gives that path.
pub fn convert(input: impl AsRef<Path>) -> PathBuf {
    convert_with(input, &options())
}

/// [`convert()`] with `options`.
pub fn convert_with(input: impl AsRef<Path>, options: &Options) -> PathBuf {
    let input = input.as_ref();
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        fail(format!(
            "{}: jomc::build runs in a build script (OUT_DIR is not set)",
            input.display()
        ));
    };
    println!("cargo::rerun-if-changed={}", input.display());
    match convert_into(input, Path::new(&out_dir), options) {
        Ok((output, report)) => {
            for file in &report.files_read {
                println!("cargo::rerun-if-changed={}", file.display());
            }
            for warning in &report.warnings {
                println!("cargo::warning=jomc: {warning}");
            }
            output
        }
        Err(error) => fail(error.to_string()),
    }
}

/// Converts `input` into `out_dir` as [`output_name`] names it, printing nothing: the
/// JOM file's path and the conversion's report.
pub fn convert_into(
    input: &Path,
    out_dir: &Path,
    options: &Options,
) -> Result<(PathBuf, Report), Error> {
    let output = out_dir.join(output_name(input));
    let report = convert::convert_file(input, &output, options)?;
    Ok((output, report))
}

/// The JOM file's name for `input`: its file stem in capitals (CD file names are), `.JOM`.
pub fn output_name(input: &Path) -> String {
    let stem = input.file_stem().unwrap_or_default().to_string_lossy();
    format!("{}.JOM", stem.to_uppercase())
}

/// Stops the build script with `message` (cargo prints the script's error output when it
/// fails).
fn fail(message: String) -> ! {
    eprintln!("jomc: {message}");
    std::process::exit(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");

    #[test]
    fn the_demo_robot_converts_into_out_dir_with_every_file_it_read() {
        let assets = Path::new(MANIFEST).join("../../demo/assets");
        let out = tempfile::tempdir().unwrap();
        let mut options = options();
        options.skeleton = Some(assets.join("robot.json"));
        let (output, report) = convert_into(&assets.join("robot.obj"), out.path(), &options)
            .expect("the robot converts");
        assert_eq!(output, out.path().join("ROBOT.JOM"));
        let file = jom_write::AlignedBytes::new(&std::fs::read(&output).unwrap());
        let model = jom::Model::from_bytes(file.bytes()).expect("a valid JOM file");
        assert!(model.textures().is_some(), "textures embedded (TIMG)");
        assert!(!model.animations().is_empty());
        let names: Vec<String> = report
            .files_read
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "robot.obj",
                "robot.mtl",
                "chest.png",
                "face.png",
                "robot.json"
            ]
        );
    }

    #[test]
    fn a_bad_model_is_the_converters_error_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("bad.obj");
        std::fs::write(&model, "v 0 0 0\nf 1 2 9\n").unwrap();
        let error = convert_into(&model, dir.path(), &options()).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "{}:2: face index 2 is out of range: the file has 1 v",
                model.display()
            )
        );
        assert!(!dir.path().join("BAD.JOM").exists());
    }
}
