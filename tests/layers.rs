//! `src/render` as layers (docs/renderer.md, "Layers"): every file of it has a place in
//! [`LAYERS`], bottom first, and imports only files below its own (its `use` paths and the
//! paths in its code through `crate::render::` and `super::`, and a module's own children):
//! no two files import each other, none imports one above it, none goes through the root's
//! re-exports. Tests (`tests.rs`, `#[cfg(test)]` modules) are left out: they may reach
//! anything. `cargo test --test layers` checks it, and prints every import when it fails.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of `src/render`, bottom first: each imports only files before it.
const LAYERS: &[&str] = &[
    // What every stage shares, and the engine's limits.
    "error.rs",
    "camera.rs",
    "shared.rs",
    "limits.rs",
    "fog.rs",
    // A draw's matrices, then its points onto the screen.
    "transforms/eye.rs",
    "transforms/sh2.rs",
    "transforms/mod.rs",
    "project/projection.rs",
    "project/sh2.rs",
    "project/points.rs",
    "project/mod.rs",
    "visibility.rs",
    // Which level of detail a draw takes.
    "lod.rs",
    // The sort keys' order, then the culling that makes them.
    "sort/sh2.rs",
    "sort/mod.rs",
    "cull/plain.rs",
    "cull/planes.rs",
    "cull/sh2.rs",
    "cull/mod.rs",
    // The command list, then the emission into it.
    "list.rs",
    "billboard.rs",
    "emit/near.rs",
    "emit/template.rs",
    "emit/records.rs",
    "emit/sh2.rs",
    "emit/light.rs",
    "emit/mipmap.rs",
    "emit/subdivide.rs",
    "emit/polygon.rs",
    "emit/frame.rs",
    "emit/fogged.rs",
    "emit/runs.rs",
    "emit/mod.rs",
    // A frame's pipeline, and its front door for a list of one's own.
    "pipeline/stats.rs",
    "pipeline/memory.rs",
    "pipeline/collect.rs",
    "pipeline/finish.rs",
    "pipeline/list_frame.rs",
    "pipeline/mod.rs",
    // The renderer: the front door that owns VRAM.
    "renderer/memory.rs",
    "renderer/layout.rs",
    "renderer/handles.rs",
    "renderer/vram.rs",
    "renderer/commit.rs",
    "renderer/owner.rs",
    "renderer/load.rs",
    "renderer/frame.rs",
    "renderer/mod.rs",
    // The facade.
    "mod.rs",
];

fn render_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/render")
}

/// Every `.rs` file under `dir` but the tests, as paths relative to `src/render`.
fn sources(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/render")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            let relative = path.strip_prefix(render_dir()).expect("under src/render");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The module path of a file (`emit/frame.rs`: `["emit", "frame"]`; `emit/mod.rs`:
/// `["emit"]`; `mod.rs`: `[]`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// `text` without comments and without the modules compiled for tests only.
fn code_of(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        let test_only = line.starts_with("#[cfg(test)]")
            || line.starts_with("#[cfg(any(test, feature = \"selftest\"))]");
        let opens_module = lines.get(i + 1).is_some_and(|next| {
            let next = next.trim_start();
            (next.starts_with("mod ") || next.starts_with("pub(crate) mod "))
                && next.trim_end().ends_with('{')
        });
        if test_only && opens_module {
            let mut depth = 0i32;
            i += 1;
            loop {
                depth += lines[i].matches('{').count() as i32;
                depth -= lines[i].matches('}').count() as i32;
                i += 1;
                if depth <= 0 || i >= lines.len() {
                    break;
                }
            }
            continue;
        }
        let without_comment = lines[i].split("//").next().unwrap_or("");
        out.push_str(without_comment);
        out.push('\n');
        i += 1;
    }
    out
}

/// The paths a `use` tree names (`a::{b, c::d}`: `a::b`, `a::c::d`).
fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let Some(inner) = tree.strip_prefix('{') {
        let inner = &inner[..inner.rfind('}').unwrap_or(inner.len())];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(prefix, &inner[start..], out);
        return;
    }
    match tree.split_once("::") {
        Some((head, rest)) => {
            let mut longer = prefix.to_vec();
            longer.push(head.trim().to_string());
            expand(&longer, rest, out);
        }
        None => {
            let mut path = prefix.to_vec();
            path.push(tree.split(" as ").next().unwrap_or(tree).trim().to_string());
            out.push(path);
        }
    }
}

/// The paths of `code`: those of its `use` items, and every `crate::` or `super::` path in
/// its code, and (for a module with children) every path through a child's name.
fn paths_of(code: &str, children: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest.find(';').unwrap_or(rest.len());
        expand(&[], &rest[..end], &mut paths);
    }
    let words: Vec<&str> = code
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '$'))
        .filter(|w| w.contains("::"))
        .collect();
    for word in words {
        let parts: Vec<String> = word.split("::").map(String::from).collect();
        let first = parts[0].as_str();
        if first == "crate" || first == "super" || children.iter().any(|c| c == first) {
            paths.push(parts);
        }
    }
    paths
}

/// The file a path of `module` names: the deepest module of `files` it goes through.
fn resolve(
    module: &[String],
    path: &[String],
    children: &[String],
    files: &BTreeMap<Vec<String>, String>,
) -> Option<String> {
    let absolute: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => match path.get(1).map(String::as_str) {
            Some("render") => path[2..].to_vec(),
            _ => return None,
        },
        Some("super") => {
            let mut base = module[..module.len().saturating_sub(1)].to_vec();
            let mut rest = &path[1..];
            while rest.first().is_some_and(|p| p == "super") {
                base.pop();
                rest = &rest[1..];
            }
            base.extend(rest.iter().cloned());
            base
        }
        Some(child) if children.iter().any(|c| c == child) => {
            let mut base = module.to_vec();
            base.extend(path.iter().cloned());
            base
        }
        _ => return None,
    };
    (0..=absolute.len())
        .rev()
        .find_map(|n| files.get(&absolute[..n]).cloned())
}

#[test]
fn src_render_is_layers() {
    let mut found = Vec::new();
    sources(&render_dir(), &mut found);
    let mut problems = Vec::new();
    for file in &found {
        if !LAYERS.contains(&file.as_str()) {
            problems.push(format!("{file} has no place in LAYERS"));
        }
    }
    for file in LAYERS {
        if !found.iter().any(|f| f == file) {
            problems.push(format!("{file} of LAYERS is not in src/render"));
        }
    }
    let files: BTreeMap<Vec<String>, String> =
        found.iter().map(|f| (module_of(f), f.clone())).collect();
    let rank = |file: &str| LAYERS.iter().position(|f| *f == file);
    let mut arrows = Vec::new();
    for file in &found {
        let text = std::fs::read_to_string(render_dir().join(file)).expect("a source");
        let code = code_of(&text);
        let module = module_of(file);
        let children: Vec<String> = code
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
                let name = l.strip_prefix("mod ")?.strip_suffix(';')?;
                Some(name.trim().to_string())
            })
            .collect();
        for path in paths_of(&code, &children) {
            let Some(target) = resolve(&module, &path, &children, &files) else {
                continue;
            };
            if &target == file {
                continue;
            }
            let shown = format!("{file} -> {target} ({})", path.join("::"));
            match (rank(file), rank(&target)) {
                (Some(from), Some(to)) if to >= from => {
                    problems.push(format!("an import runs up or across: {shown}"));
                }
                _ => {}
            }
            arrows.push(shown);
        }
    }
    arrows.sort();
    arrows.dedup();
    problems.dedup();
    assert!(
        problems.is_empty(),
        "{}\n\nevery import:\n{}",
        problems.join("\n"),
        arrows.join("\n")
    );
}
