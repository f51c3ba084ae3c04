//! `jomc new PATH`: a new game crate outside this repository, from the template in
//! `tools/jomc/template/` and the demo's robot (`demo/assets/`), both built into `jomc`.
//! The game depends on `jom` (by path or git) and on `jomc` as a build-dependency (its
//! `build.rs` converts the robot); its `.cargo/config.toml` names the SH-2 target and the
//! runner of a jom checkout's tools (`ci/sh2-rustc`, `ci/sh2-gcc`, `ci/saturn-run`), so
//! `cargo run` builds the program, its CD image, and boots it in Yabause.
//!
//! Everything is written into a temporary folder beside PATH and renamed into place at the
//! end: an error leaves nothing behind.

use std::fmt;
use std::path::{Path, PathBuf};

/// The options of `jomc new`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The new game's folder: must not exist (its parent must), or be an empty folder.
    pub path: PathBuf,
    /// Depend on jom by path: this jom checkout (default: the one jomc was built from). Its
    /// tools (SH-2 target, toolchain wrappers, CD image, emulator) are the game's.
    #[arg(long, value_name = "DIR", conflicts_with = "jom_git")]
    pub jom_path: Option<PathBuf>,
    /// Depend on jom (and jomc) by git URL instead; the tools still come from the jom
    /// checkout jomc was built from.
    #[arg(long, value_name = "URL")]
    pub jom_git: Option<String>,
}

/// Where the game gets jom from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JomSource {
    /// A checkout (absolute path).
    Path(PathBuf),
    /// A git repository.
    Git(String),
}

/// A game to write.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its folder.
    pub path: PathBuf,
    /// Its package name (from the folder's name).
    pub name: String,
    /// The `jom` and `jomc` dependencies.
    pub jom: JomSource,
    /// The jom checkout whose tools the game's cargo configuration names (absolute).
    pub tools: PathBuf,
}

/// Why a game cannot be written.
#[derive(Debug)]
pub struct Error(String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// The jom checkout `jomc` was built from.
pub fn this_checkout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file of the template: its path in the game and its text (placeholders `@NAME@`,
/// `@TOOLS@`, `@JOM_DEPENDENCY@`, `@JOMC_DEPENDENCY@`, `@JOM_LINK@`). The manifest is kept as
/// `Cargo.toml.in`: cargo, looking for jom's packages in a git checkout, reads every
/// `Cargo.toml` in it and reported the template's placeholders as an error.
const TEMPLATE: [(&str, &str); 8] = [
    ("Cargo.toml", include_str!("../../template/Cargo.toml.in")),
    (
        ".cargo/config.toml",
        include_str!("../../template/config.toml"),
    ),
    (
        "rust-toolchain.toml",
        include_str!("../../template/rust-toolchain.toml"),
    ),
    ("rustfmt.toml", include_str!("../../template/rustfmt.toml")),
    (".gitignore", include_str!("../../template/gitignore")),
    ("README.md", include_str!("../../template/README.md")),
    ("build.rs", include_str!("../../template/build.rs")),
    ("src/main.rs", include_str!("../../template/main.rs")),
];

/// The model: the demo's robot, as is.
const ASSETS: [(&str, &[u8]); 5] = [
    (
        "assets/robot.obj",
        include_bytes!("../../../../demo/assets/robot.obj"),
    ),
    (
        "assets/robot.mtl",
        include_bytes!("../../../../demo/assets/robot.mtl"),
    ),
    (
        "assets/robot.json",
        include_bytes!("../../../../demo/assets/robot.json"),
    ),
    (
        "assets/chest.png",
        include_bytes!("../../../../demo/assets/chest.png"),
    ),
    (
        "assets/face.png",
        include_bytes!("../../../../demo/assets/face.png"),
    ),
];

/// The command: writes the game and says where, and how to run it.
pub fn run(args: &Args) -> Result<String, String> {
    let jom = match (&args.jom_path, &args.jom_git) {
        (Some(dir), _) => JomSource::Path(dir.clone()),
        (None, Some(url)) => JomSource::Git(url.clone()),
        (None, None) => JomSource::Path(this_checkout()),
    };
    let game = Game::at(&args.path, jom).map_err(|e| e.to_string())?;
    game.write().map_err(|e| e.to_string())?;
    Ok(format!(
        "{}: a new game \"{}\" (jom {}); `cd {} && cargo run` builds it and boots it in Yabause\n",
        game.path.display(),
        game.name,
        match &game.jom {
            JomSource::Path(dir) => format!("at {}", dir.display()),
            JomSource::Git(url) => format!("from {url}"),
        },
        game.path.display(),
    ))
}

impl Game {
    /// The game at `path` depending on `jom`, checked: PATH free, a package name from its
    /// folder's name, the jom checkout (a path source, else this one) complete.
    pub fn at(path: &Path, jom: JomSource) -> Result<Self, Error> {
        check_free(path)?;
        let name = package_name(path)?;
        let tools = match &jom {
            JomSource::Path(dir) => dir.clone(),
            JomSource::Git(_) => this_checkout(),
        };
        let tools = checkout(&tools)?;
        let jom = match jom {
            JomSource::Path(_) => JomSource::Path(tools.clone()),
            git => git,
        };
        Ok(Self {
            path: path.to_path_buf(),
            name,
            jom,
            tools,
        })
    }

    /// Every file of the game: its path in the game's folder and its content.
    pub fn files(&self) -> Vec<(&'static str, Vec<u8>)> {
        let quoted = toml_string(&self.tools.to_string_lossy());
        let tools = &quoted[1..quoted.len() - 1];
        let (jom, jomc, link) = match &self.jom {
            JomSource::Path(dir) => {
                let dir = toml_string(&dir.to_string_lossy());
                let jomc = toml_string(&self.tools.join("tools/jomc").to_string_lossy());
                (
                    format!("{{ path = {dir} }}"),
                    format!("{{ path = {jomc} }}"),
                    self.tools.to_string_lossy().into_owned(),
                )
            }
            JomSource::Git(url) => {
                let git = toml_string(url);
                (
                    format!("{{ git = {git} }}"),
                    format!("{{ git = {git} }}"),
                    url.clone(),
                )
            }
        };
        let mut files: Vec<(&'static str, Vec<u8>)> = TEMPLATE
            .iter()
            .map(|(path, text)| {
                let text = text
                    .replace("@NAME@", &self.name)
                    .replace("@TOOLS@", tools)
                    .replace("@JOM_DEPENDENCY@", &jom)
                    .replace("@JOMC_DEPENDENCY@", &jomc)
                    .replace("@JOM_LINK@", &link);
                (*path, text.into_bytes())
            })
            .collect();
        files.extend(ASSETS.iter().map(|(path, bytes)| (*path, bytes.to_vec())));
        files
    }

    /// Writes the game: into a temporary folder beside it, renamed into place at the end.
    pub fn write(&self) -> Result<(), Error> {
        let parent = parent_of(&self.path);
        let staging = tempfile::Builder::new()
            .prefix(".jomc-new-")
            .tempdir_in(parent)
            .map_err(|e| Error(format!("{}: {e}", parent.display())))?;
        for (path, bytes) in self.files() {
            let target = staging.path().join(path);
            let written = target
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .and_then(|()| std::fs::write(&target, bytes));
            written.map_err(|e| Error(format!("{}: {e}", self.path.join(path).display())))?;
        }
        // Cargo's lock of the checkout: the game starts from the crate versions jom is
        // tested with (cargo drops what the game does not use).
        if let Ok(lock) = std::fs::read(self.tools.join("Cargo.lock")) {
            std::fs::write(staging.path().join("Cargo.lock"), lock)
                .map_err(|e| Error(format!("{}: {e}", self.path.join("Cargo.lock").display())))?;
        }
        // rename(2) replaces an empty folder; PATH was checked free just before.
        let staged = staging.keep();
        std::fs::rename(&staged, &self.path).map_err(|e| {
            let _ = std::fs::remove_dir_all(&staged);
            Error(format!("{}: {e}", self.path.display()))
        })
    }
}

/// PATH does not exist (its parent does), or is an empty folder.
fn check_free(path: &Path) -> Result<(), Error> {
    match std::fs::read_dir(path) {
        Ok(mut entries) => match entries.next() {
            None => Ok(()),
            Some(_) => Err(Error(format!(
                "{}: the folder is not empty (jomc new writes a new game into a new or empty folder)",
                path.display()
            ))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = parent_of(path);
            match parent.is_dir() {
                true => Ok(()),
                false => Err(Error(format!(
                    "{}: its folder {} does not exist",
                    path.display(),
                    parent.display()
                ))),
            }
        }
        Err(e) if path.exists() && !path.is_dir() => Err(Error(format!(
            "{}: not a folder ({e}); jomc new writes a new game into a new or empty folder",
            path.display()
        ))),
        Err(e) => Err(Error(format!("{}: {e}", path.display()))),
    }
}

fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// The package name of a game in `path`: its folder's name, in lower case, `-` for what a
/// package name cannot hold; an error when nothing of it is left or it starts with a digit.
fn package_name(path: &Path) -> Result<String, Error> {
    let folder = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name: String = folder
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '_' | '-' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect();
    let name = name.trim_matches('-').to_string();
    match name.chars().next() {
        Some(first) if first.is_ascii_alphabetic() || first == '_' => Ok(name),
        _ => Err(Error(format!(
            "{}: the folder's name {folder:?} gives no package name (expected a name starting with a letter)",
            path.display()
        ))),
    }
}

/// The jom checkout at `dir`, absolute, checked to hold the tools a game's build names.
fn checkout(dir: &Path) -> Result<PathBuf, Error> {
    let absolute = dir
        .canonicalize()
        .map_err(|e| Error(format!("{}: {e} (expected a jom checkout)", dir.display())))?;
    for tool in [
        "sh2-target.json",
        "ci/sh2-rustc",
        "ci/sh2-gcc",
        "ci/saturn-run",
        "tools/jomc/Cargo.toml",
    ] {
        if !absolute.join(tool).is_file() {
            return Err(Error(format!(
                "{}: not a jom checkout (no {tool})",
                dir.display()
            )));
        }
    }
    Ok(absolute)
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04X}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted + "\""
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_come_from_the_folder() {
        assert_eq!(package_name(Path::new("/x/My Game")).unwrap(), "my-game");
        assert_eq!(package_name(Path::new("robot_run")).unwrap(), "robot_run");
        let error = package_name(Path::new("/x/2048")).unwrap_err().to_string();
        assert!(error.contains("\"2048\" gives no package name"), "{error}");
    }

    #[test]
    fn toml_strings_are_escaped() {
        assert_eq!(toml_string(r#"a"b\c"#), r#""a\"b\\c""#);
    }
}
