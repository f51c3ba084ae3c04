//! `jomc new`: the game crate it writes, and its refusals (one error, exit status 1, nothing
//! written). The game's SH-2 build and boot are ci/newgame.sh's (the emulator stage).

use std::path::Path;
use std::process::{Command, Output};

/// `jomc new PATH EXTRA...`.
fn new(path: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("new")
        .arg(path)
        .args(extra)
        .output()
        .expect("jomc runs")
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                found.push(
                    path.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    found.sort();
    found
}

fn checkout() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

#[test]
fn a_new_game_has_its_crate_its_configuration_and_the_robot() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("Robot Run");
    let output = new(&game, &[]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("a new game \"robot-run\""), "{stdout}");
    assert_eq!(
        files(&game),
        [
            ".cargo/config.toml",
            ".gitignore",
            "Cargo.lock",
            "Cargo.toml",
            "README.md",
            "assets/chest.png",
            "assets/face.png",
            "assets/robot.json",
            "assets/robot.mtl",
            "assets/robot.obj",
            "build.rs",
            "rust-toolchain.toml",
            "rustfmt.toml",
            "src/main.rs",
        ]
    );
    let root = checkout();
    let read = |name: &str| std::fs::read_to_string(game.join(name)).unwrap();
    let manifest = read("Cargo.toml");
    assert!(manifest.contains("name = \"robot-run\""), "{manifest}");
    assert!(manifest.contains(&format!("jom = {{ path = \"{}\" }}", root.display())));
    assert!(manifest.contains(&format!(
        "jomc = {{ path = \"{}\" }}",
        root.join("tools/jomc").display()
    )));
    let config = read(".cargo/config.toml");
    for tool in [
        "sh2-target.json",
        "ci/sh2-rustc",
        "ci/sh2-gcc",
        "ci/saturn-run",
    ] {
        let path = root.join(tool);
        assert!(
            config.contains(&format!("\"{}\"", path.display())),
            "{tool}: {config}"
        );
        assert!(path.is_file(), "{}", path.display());
    }
    // The game's nightly is the one the SH-2 code generator is built for.
    let script = std::fs::read_to_string(root.join("ci/sh2-toolchain.sh")).unwrap();
    let nightly = script
        .lines()
        .find_map(|line| line.strip_prefix("readonly NIGHTLY="))
        .expect("ci/sh2-toolchain.sh names its NIGHTLY");
    let toolchain = read("rust-toolchain.toml");
    assert!(
        toolchain.contains(&format!("channel = \"{nightly}\"")),
        "{toolchain}"
    );
    let main = read("src/main.rs");
    // Issue 40: a main a newcomer reads at a glance: under 25 lines, the renderer sized from
    // its model (at most three numbers), the animated model drawn in one call, no `unsafe`.
    assert!(
        main.lines().count() < 25,
        "src/main.rs has {} lines",
        main.lines().count()
    );
    assert!(main.contains("Renderer::new") && main.contains("draw_animated"));
    let sizing = main
        .lines()
        .find(|line| line.contains("renderer_memory!"))
        .expect("the renderer's memory");
    let numbers = sizing
        .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|word| word.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert!(numbers <= 3, "{sizing}");
    assert!(!main.contains("unsafe") && !main.contains("static mut"));
    let robot = std::fs::read(root.join("demo/assets/robot.obj")).unwrap();
    assert_eq!(std::fs::read(game.join("assets/robot.obj")).unwrap(), robot);
    // Nothing left beside the game (the folder it was staged in is renamed into place).
    assert_eq!(
        files(dir.path())
            .iter()
            .filter(|f| !f.starts_with("Robot Run/"))
            .count(),
        0
    );
}

#[test]
fn a_git_dependency_names_the_url_for_jom_and_jomc() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g");
    std::fs::create_dir(&game).unwrap(); // an empty folder is taken
    let url = "https://example.org/jom.git";
    let output = new(&game, &["--jom-git", url]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let manifest = std::fs::read_to_string(game.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!("jom = {{ git = \"{url}\" }}")),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!("jomc = {{ git = \"{url}\" }}")),
        "{manifest}"
    );
}

/// One line on stderr, exit status 1, nothing on stdout.
fn refused(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn a_folder_that_is_not_empty_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game");
    std::fs::create_dir(&game).unwrap();
    std::fs::write(game.join("notes.txt"), "mine").unwrap();
    let stderr = refused(&new(&game, &[]));
    assert_eq!(
        stderr,
        format!(
            "jomc: {}: the folder is not empty (jomc new writes a new game into a new or empty folder)\n",
            game.display()
        )
    );
    assert_eq!(files(dir.path()), ["game/notes.txt"]);
}

#[test]
fn a_file_a_missing_parent_or_a_bad_checkout_is_refused_with_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert!(refused(&new(&file, &[])).contains("not a folder"));
    let orphan = dir.path().join("no/such/game");
    assert!(refused(&new(&orphan, &[])).contains("does not exist"));
    let game = dir.path().join("game");
    let stderr = refused(&new(&game, &["--jom-path", dir.path().to_str().unwrap()]));
    assert!(
        stderr.contains("not a jom checkout (no sh2-target.json)"),
        "{stderr}"
    );
    assert_eq!(files(dir.path()), ["file"]);
}
