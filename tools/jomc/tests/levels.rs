//! `jomc convert --cells N`: a level cut into regions (REGN) by group and grid cell, read
//! back with the engine's reader, drawn as without regions.

use jom_write::AlignedBytes;
use std::process::Command;

mod common;

use common::{model, Case};

/// An OBJ ground of two objects (`o`), each `side` x `side` unit quads sharing their
/// points, side by side along X, facing up, in a checkerboard of two materials.
fn ground(side: usize) -> String {
    let mut obj = String::from("mtllib model.mtl\n");
    let mut first = 1;
    for (o, x0) in [("west", -(side as i64)), ("east", 0)] {
        obj += &format!("o {o}\n");
        for z in 0..=side {
            for x in 0..=side {
                obj += &format!("v {} 0 {}\n", x0 + x as i64, z as i64 - side as i64 / 2);
            }
        }
        let at = |x: usize, z: usize| first + z * (side + 1) + x;
        for z in 0..side {
            for x in 0..side {
                obj += ["usemtl red\n", "usemtl blue\n"][(x + z) % 2];
                // Counter-clockwise seen from above (+Y): the front faces up.
                obj += &format!(
                    "f {} {} {} {}\n",
                    at(x, z),
                    at(x, z + 1),
                    at(x + 1, z + 1),
                    at(x + 1, z)
                );
            }
        }
        first += (side + 1) * (side + 1);
    }
    obj
}

#[test]
fn cells_cut_each_group_into_regions_that_cover_every_polygon() {
    let case = Case::new();
    case.file("model.obj", &ground(8));
    case.file("model.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n");
    let bytes = case.converted(&["--cells", "4"]);
    let model = model(&bytes);
    let regions = model.regions();
    // Each object spans the grid's half along X: 2 x 4 cells of 4 quads (2 x 2) each.
    assert_eq!(regions.len(), 16);
    assert_eq!(model.polygons().len(), 128);
    assert!(regions.iter().all(|r| r.polygons().len() == 8));
    // Each region has its own points: the shared ones written once per region.
    assert_eq!(model.points().len(), 16 * 15);
    // The groups follow their regions.
    let groups = model.groups();
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].polygons(), 0..64);
    assert_eq!(groups[1].polygons(), 64..128);
    assert_eq!(groups[1].points(), 120..240);
    // Without --cells: no REGN.
    let plain = case.converted(&[]);
    assert!(model_of(&plain).regions().is_empty());
}

fn model_of(bytes: &AlignedBytes) -> jom::Model<'_> {
    model(bytes)
}

/// `jomc render FILE` from close by, part of the level off the screen: the PNG's bytes.
fn render(case: &Case, file: &str) -> Vec<u8> {
    let png = case.path(&format!("{file}.png"));
    let output = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(case.path(""))
        .args(["render", file, "-o"])
        .arg(&png)
        .args(["--rotate=35,20,0", "--distance", "5", "--light", "0,-1,1"])
        .output()
        .expect("jomc runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::read(png).expect("the PNG")
}

#[test]
fn a_level_in_regions_draws_as_without_them() {
    let case = Case::new();
    case.file("model.obj", &ground(8));
    case.file("model.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n");
    case.converted(&[]);
    std::fs::rename(case.path("model.jom"), case.path("plain.jom")).unwrap();
    case.converted(&["--cells", "4"]);
    let (plain, regions) = (render(&case, "plain.jom"), render(&case, "model.jom"));
    assert_eq!(plain, regions, "the pictures differ");
    // Something is on the picture: not a blank PNG each time.
    assert_ne!(plain, render_blank(&case));
}

/// A picture of a model off the screen: the blank frame.
fn render_blank(case: &Case) -> Vec<u8> {
    case.file("blank.obj", "v 0 0 -100\nv 1 0 -100\nv 0 1 -100\nf 1 2 3\n");
    let output = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(case.path(""))
        .args(["convert", "blank.obj", "-o", "blank.jom"])
        .output()
        .expect("jomc runs");
    assert!(output.status.success());
    let png = case.path("blank.png");
    let output = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(case.path(""))
        .args(["render", "blank.jom", "-o"])
        .arg(&png)
        .args(["--rotate=0,180,0"])
        .output()
        .expect("jomc runs");
    assert!(output.status.success());
    std::fs::read(png).expect("the PNG")
}

#[test]
fn cells_with_a_skeleton_are_refused() {
    let case = Case::new();
    case.file("model.obj", &ground(2));
    case.file("model.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n");
    case.file(
        "rig.json",
        r#"{"bones": [{"name": "root", "group": "west", "parent": null, "pivot": [0, 0, 0]}], "animations": []}"#,
    );
    let error = case.error(&["--cells", "2", "--skeleton", "rig.json"]);
    assert!(
        error.contains("--cells is for models without a skeleton"),
        "{error}"
    );
}

#[test]
fn info_lists_the_regions() {
    let case = Case::new();
    case.file("model.obj", &ground(4));
    case.file("model.mtl", "newmtl red\nKd 1 0 0\nnewmtl blue\nKd 0 0 1\n");
    case.converted(&["--cells", "2"]);
    let output = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(case.path(""))
        .args(["info", "model.jom"])
        .output()
        .expect("jomc runs");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        text.contains("regions (4: culled by their spheres, REGN):"),
        "{text}"
    );
    assert!(text.contains("  3: centre (2, 0, 1) radius "), "{text}");
}

/// An OBJ of a tree (two quads) and its lower level `tree_LOD1` (one quad), and `extra`.
fn tree(extra: &str) -> String {
    "o tree\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\nf 1 2 3 4\nf 2 5 6 3\n\
     o tree_LOD1\nv 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nf 7 8 9 10\n"
        .to_string()
        + extra
}

#[test]
fn groups_named_lod_become_lower_levels() {
    let case = Case::new();
    case.file("model.obj", &tree(""));
    let bytes = case.converted(&[]);
    let model = model(&bytes);
    assert_eq!(model.polygons().len(), 2);
    assert_eq!(model.groups().len(), 1);
    let levels: Vec<u32> = model.levels().map(|(pixels, _)| pixels).collect();
    assert_eq!(levels, [48]);
    let lower = model.level(1).expect("level 1");
    assert_eq!(lower.polygons().len(), 1);
    assert_eq!(lower.points().len(), 4);
    assert_eq!(lower.groups()[0].name().as_str(), "tree_LOD1");
    // Sizes given, with regions in each level.
    let bytes = case.converted(&["--lod-pixels", "30", "--cells", "1"]);
    let model = model_of(&bytes);
    assert_eq!(model.levels().next().map(|(p, _)| p), Some(30));
    assert_eq!(model.regions().len(), 1);
    assert_eq!(model.level(1).map(|l| l.regions().len()), Some(1));
}

#[test]
fn lod_names_and_sizes_that_do_not_agree_are_refused() {
    let case = Case::new();
    case.file("model.obj", &tree("o tree_LOD3\nf 7 8 9 10\n"));
    let error = case.error(&[]);
    assert!(
        error.contains("named for level of detail 3 but none for level 2"),
        "{error}"
    );
    case.file("model.obj", &tree(""));
    let error = case.error(&["--lod-pixels", "30,20"]);
    assert!(
        error.contains("--lod-pixels gives 2 sizes for 1 lower levels"),
        "{error}"
    );
    case.file("model.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    let error = case.error(&["--lod-pixels", "30"]);
    assert!(
        error.contains("no group is named for a lower level"),
        "{error}"
    );
}

#[test]
fn jomc_names_a_refused_levels_own_error() {
    let mut file = jom_write::fixtures::levels();
    let one = jom_write::fixtures::levels_lower().to_bytes();
    let mut cut = one[..one.len() - 8].to_vec();
    cut.extend_from_slice(&[0; 8]);
    file.extra_chunks = vec![jom_write::levels_chunk(&[(40, cut.clone())])];
    let bytes = file.to_bytes();
    let aligned = AlignedBytes::new(&bytes);
    let error = jom::Model::from_bytes(aligned.bytes()).unwrap_err();
    let text = jomc::load_error(std::path::Path::new("tree.jom"), &bytes, &error);
    assert!(
        text.starts_with("tree.jom: LODS chunk, level 1: its JOM file at offset "),
        "{text}"
    );
    let inner = jom::Model::from_bytes(AlignedBytes::new(&cut).bytes()).unwrap_err();
    assert!(
        text.ends_with(&format!(": {inner} (offsets within the level's file)")),
        "{text}"
    );
}

/// A rigid robot of two objects, `body` (a quad) and `arm` (two quads), with the lower
/// level `arm_LOD1` (one quad) and `extra`; `rig.json` moves `arm` by the bone `arm`.
fn robot(case: &Case, extra: &str, arm_group: &str) {
    case.file(
        "model.obj",
        &("o body\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n\
           o arm\nv 1 1 0\nv 2 1 0\nv 2 2 0\nv 1 2 0\nv 3 1 0\nv 3 2 0\nf 5 6 7 8\nf 6 9 10 7\n\
           o arm_LOD1\nv 1 1 0\nv 3 1 0\nv 3 2 0\nv 1 2 0\nf 11 12 13 14\n"
            .to_string()
            + extra),
    );
    case.file(
        "rig.json",
        &format!(
            r#"{{"bones": [{{"name": "body", "group": "body"}},
                {{"name": "arm", "group": "{arm_group}", "parent": "body", "pivot": [1, 1, 0]}}],
              "animations": [{{"name": "lift", "key_ticks": 10, "keys": [{{}},
                {{"angles": {{"arm": [0, 0, 30]}}, "offsets": {{"arm": [0, 0.5, 0]}}}}]}}]}}"#
        ),
    );
}

/// The chunk `tag`'s bytes in a JOM file (its chunk headers: tag, then size, big-endian).
fn chunk<'a>(file: &'a [u8], tag: &[u8; 4]) -> Option<&'a [u8]> {
    let mut at = 24;
    while at + 8 <= file.len() {
        let size = u32::from_be_bytes(file[at + 4..at + 8].try_into().unwrap()) as usize;
        if &file[at..at + 4] == tag {
            return Some(&file[at + 8..at + 8 + size]);
        }
        at += 8 + size.next_multiple_of(4);
    }
    None
}

#[test]
fn a_model_with_a_skeleton_keeps_it_in_every_level() {
    let case = Case::new();
    robot(&case, "", "arm");
    let bytes = case.converted(&["--skeleton", "rig.json"]);
    let model = model_of(&bytes);
    let lower = model.level(1).expect("level 1");
    // The model's groups in every level, in the same order: the bone arm moves group 1
    // in both; the body has no part in level 1 (an empty group).
    let ranges = |m: &jom::Model<'_>| -> Vec<(String, _, _)> {
        m.groups()
            .iter()
            .map(|g| (g.name().as_str().to_string(), g.points(), g.polygons()))
            .collect()
    };
    assert_eq!(
        ranges(&model),
        [("body".into(), 0..4, 0..1), ("arm".into(), 4..10, 1..3)]
    );
    assert_eq!(
        ranges(&lower),
        [("body".into(), 0..0, 0..0), ("arm".into(), 0..4, 0..1)]
    );
    let bone_groups: Vec<Option<u16>> = lower.bones().iter().map(|b| b.group()).collect();
    assert_eq!(bone_groups, [Some(0), Some(1)]);
    // BONE, ANIM and BMOT byte for byte (the engine's reader checks it too).
    for tag in [b"BONE", b"ANIM", b"BMOT"] {
        let whole = chunk(bytes.bytes(), tag).expect("the model's chunk");
        assert_eq!(Some(whole), chunk(lower.bytes(), tag), "{tag:?}");
    }
}

#[test]
fn a_level_that_is_no_part_of_the_skeletons_groups_is_refused() {
    let case = Case::new();
    robot(
        &case,
        "o leg_LOD1\nv 0 0 1\nv 1 0 1\nv 1 1 1\nf 15 16 17\n",
        "arm",
    );
    let error = case.error(&["--skeleton", "rig.json"]);
    assert!(
        error.contains(
            "group leg_LOD1 (level of detail 1) of a model with a skeleton: expected a group \
             of the model itself named leg"
        ),
        "{error}"
    );
    robot(&case, "", "arm_LOD1");
    let error = case.error(&["--skeleton", "rig.json"]);
    assert!(
        error.contains("bone arm moves the group arm_LOD1, of a lower level of detail"),
        "{error}"
    );
}
