//! `jomc convert`'s textures end to end: faces baked from their texture coordinates,
//! corner mappings drawn as the image is, shared textures, 16 colours with end codes, and
//! the VDP1 VRAM budget; the output read back with the engine's reader and drawn with
//! `jomc render`.

mod common;

use common::{model, Case};
use jom::format::{MaterialFlags, TexturePixels};
use jom::vdp1::{ModelTextures, TextureCache, Vram, VramLayout};
use jom::Model;
use jom_write::AlignedBytes;
use std::path::Path;
use std::process::Command;

/// A 48 x 32 atlas of six 16 x 16 cells (3 across, 2 down), each its own colour with a
/// darker marker on its top-left texel, so that a cell turned or mirrored shows.
fn atlas_pixel(x: u32, y: u32) -> [u8; 4] {
    let cell = (y / 16) * 3 + x / 16;
    let base = [
        [230, 40, 40],
        [40, 200, 40],
        [40, 60, 230],
        [230, 220, 40],
        [40, 210, 220],
        [220, 40, 210],
    ][cell as usize];
    let marker = x % 16 < 4 && y % 16 < 4;
    let [r, g, b] = base.map(|c: u8| if marker { c / 4 } else { c });
    [r, g, b, 255]
}

fn atlas_rgb555(x: u32, y: u32) -> u16 {
    let [r, g, b, _] = atlas_pixel(x, y);
    let five = |c: u8| (u16::from(c) * 31 + 127) / 255;
    0x8000 | (five(b) << 10) | (five(g) << 5) | five(r)
}

/// The texture coordinates (OBJ: v up) of cell `cell`'s corners: top left, top right,
/// bottom right, bottom left.
fn cell_uvs(cell: u32) -> [[f64; 2]; 4] {
    let (cx, cy) = (f64::from(cell % 3), f64::from(cell / 3));
    let (u0, u1) = (cx / 3.0, (cx + 1.0) / 3.0);
    let (v0, v1) = (1.0 - cy / 2.0, 1.0 - (cy + 1.0) / 2.0);
    [[u0, v0], [u1, v0], [u1, v1], [u0, v1]]
}

/// A unit cube whose six faces each map one cell of the atlas, as a modeller exports it
/// (counter-clockwise from outside, the cell's top left at the first corner).
fn atlas_box() -> String {
    let mut obj = String::from("mtllib model.mtl\n");
    for [x, y, z] in [
        [-1, -1, 1],
        [1, -1, 1],
        [1, 1, 1],
        [-1, 1, 1],
        [-1, -1, -1],
        [1, -1, -1],
        [1, 1, -1],
        [-1, 1, -1],
    ] {
        obj += &format!("v {x} {y} {z}\n");
    }
    for cell in 0..6 {
        for [u, v] in cell_uvs(cell) {
            obj += &format!("vt {u:.6} {v:.6}\n");
        }
    }
    obj += "usemtl box\n";
    // Each face: its corners from its top left, counter-clockwise seen from outside.
    let faces = [
        [4, 3, 2, 1], // +Z: top left (-1, 1, 1)
        [3, 7, 6, 2], // +X
        [7, 8, 5, 6], // -Z
        [8, 4, 1, 5], // -X
        [8, 7, 3, 4], // +Y
        [1, 2, 6, 5], // -Y
    ];
    // Corners in OBJ order are counter-clockwise: top left, bottom left, bottom right,
    // top right of the cell.
    for (cell, face) in faces.iter().enumerate() {
        let t = cell * 4 + 1;
        let [a, b, c, d] = *face;
        obj += &format!("f {a}/{t} {d}/{} {c}/{} {b}/{}\n", t + 3, t + 2, t + 1);
    }
    obj
}

fn atlas_case(mtl_options: &str) -> Case {
    let case = Case::new();
    case.png("atlas.png", 48, 32, atlas_pixel);
    case.file(
        "model.mtl",
        &format!("newmtl box\nmap_Kd atlas.png\njo_light 1\n{mtl_options}"),
    );
    case.file("model.obj", &atlas_box());
    case
}

/// Each TIMG entry: name, width, height and RGB 555 pixels (16 colours looked up).
fn timg(model: &Model<'_>) -> Vec<(String, u16, u16, Vec<u16>)> {
    model
        .textures()
        .unwrap()
        .iter()
        .map(|t| {
            let pixels = match t.pixels {
                TexturePixels::Rgb555(p) => p.iter().map(|c| c.get().0).collect(),
                TexturePixels::Lut4 { lut, pixels } => pixels
                    .iter()
                    .flat_map(|&b| [b >> 4, b & 15])
                    .map(|i| lut[usize::from(i)].get().0)
                    .collect(),
            };
            let (w, h) = (t.header.width(), t.header.height());
            (t.name().as_str().to_string(), w, h, pixels)
        })
        .collect()
}

#[test]
fn each_face_of_an_atlas_box_gets_its_own_part_of_the_image() {
    let case = atlas_case("");
    let bytes = case.converted(&["--embed-textures"]);
    let model = model(&bytes);
    let textures = timg(&model);
    assert_eq!(textures.len(), 6);
    for (cell, (_, w, h, pixels)) in textures.iter().enumerate() {
        let cell = cell as u32;
        assert_eq!((*w, *h), (16, 16));
        let (x0, y0) = ((cell % 3) * 16, (cell / 3) * 16);
        let expected: Vec<u16> = (0..256)
            .map(|i| atlas_rgb555(x0 + i % 16, y0 + i / 16))
            .collect();
        assert_eq!(pixels, &expected, "cell {cell}");
    }
    // One material per texture: the first keeps its name, flags kept by all.
    let names: Vec<&str> = model
        .materials()
        .iter()
        .map(|m| m.name().as_str())
        .collect();
    assert_eq!(names, ["box", "box~1", "box~2", "box~3", "box~4", "box~5"]);
    for (i, material) in model.materials().iter().enumerate() {
        assert_eq!(material.texture(), Some(i as u16));
        assert_eq!(material.flags(), MaterialFlags::LIGHT);
    }
    let qmat: Vec<u16> = model.polygon_materials().iter().map(|m| m.get()).collect();
    assert_eq!(qmat, [0, 1, 2, 3, 4, 5]);
}

#[test]
fn the_image_corners_mirrored_are_the_image_flipped_and_not_baked() {
    let case = Case::new();
    case.png("atlas.png", 48, 32, atlas_pixel);
    case.file("model.mtl", "newmtl m\nmap_Kd atlas.png\njo_flip v\n");
    // Two quads: one maps the image as drawn, the other mirrored left to right.
    case.file(
        "model.obj",
        "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n\
         vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nusemtl m\nf 1/1 2/2 3/3 4/4\nf 1/2 2/1 3/4 4/3\n",
    );
    let bytes = case.converted(&["--embed-textures"]);
    let model = model(&bytes);
    assert_eq!(model.textures().unwrap().len(), 1, "the image as it is");
    let flags: Vec<MaterialFlags> = model.materials().iter().map(|m| m.flags()).collect();
    // The MTL's flip stays; the mirror adds a horizontal one.
    assert_eq!(
        flags,
        [
            MaterialFlags::FLIP_V,
            MaterialFlags::FLIP_V | MaterialFlags::FLIP_H
        ]
    );
    let textures: Vec<Option<u16>> = model.materials().iter().map(|m| m.texture()).collect();
    assert_eq!(textures, [Some(0), Some(0)]);
}

#[test]
fn identical_baked_pixels_are_one_texture_in_every_model() {
    let obj = |faces: &str| {
        format!(
            "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\n\
             vt 0 0.5\nvt 0.3333333 0.5\nvt 0.3333333 1\nvt 0 1\nusemtl box\n{faces}"
        )
    };
    let case = atlas_case("");
    case.file("model.obj", &obj("f 1/1 2/2 3/3 4/4\nf 2/1 5/2 6/3 3/4\n"));
    // RGB 555 as the .BIN file of the model without TIMG (a 16-colour form has a name of
    // its own).
    let bytes = case.converted(&["--embed-textures", "--palette", "never"]);
    let model = model(&bytes);
    let textures = timg(&model);
    assert_eq!(textures.len(), 1);
    assert_eq!(model.materials().len(), 1);
    assert_eq!((textures[0].1, textures[0].2), (16, 16));

    // Another model with the same cell, also without embedding: the same name.
    let other = atlas_case("");
    other.file("model.obj", &obj("f 1/1 2/2 3/3 4/4\n"));
    let other_bytes = other.converted(&[]);
    let other_model = self::model(&other_bytes);
    assert_eq!(other_model.texture_names()[0].as_str(), textures[0].0);
}

#[test]
fn jo_lut_gives_16_colour_baked_textures_and_end_codes_leave_entry_15_free() {
    for (options, colours) in [("jo_lut 1\n", 15), ("jo_lut 1\njo_end_codes 1\n", 14)] {
        let case = noisy_case(options);
        let bytes = case.converted(&["--embed-textures"]);
        let model = model(&bytes);
        let entry = model.textures().unwrap().iter().next().unwrap();
        let TexturePixels::Lut4 { lut, pixels } = entry.pixels else {
            panic!("16 colours expected")
        };
        let used: std::collections::BTreeSet<u8> =
            pixels.iter().flat_map(|&b| [b >> 4, b & 15]).collect();
        assert_eq!(used.len(), colours, "{options:?}");
        assert_eq!(*used.iter().max().unwrap() as usize, colours);
        assert!(lut[1..=colours].iter().all(|c| c.get().0 & 0x8000 != 0));
    }
}

/// A 64 x 16 image of 40 colours in no order, on a quad facing the camera, its texture
/// coordinates a little inside the image (so it is baked).
fn noisy_case(mtl_options: &str) -> Case {
    let case = Case::new();
    case.png("noise.png", 64, 16, |x, y| {
        let n = (x * 7 + y * 13 + (x * y) % 5) % 40;
        [
            60 + (n * 5) as u8,
            255 - (n * 4) as u8,
            40 + ((n * 37) % 200) as u8,
            255,
        ]
    });
    case.file(
        "model.mtl",
        &format!("newmtl m\nmap_Kd noise.png\n{mtl_options}"),
    );
    case.file(
        "model.obj",
        "mtllib model.mtl\nv -2 -1 0\nv 2 -1 0\nv 2 1 0\nv -2 1 0\n\
         vt 0 0.0625\nvt 1 0.0625\nvt 1 1\nvt 0 1\nusemtl m\nf 1/1 2/2 3/3 4/4\n",
    );
    case
}

/// `jomc render model.jom` in the case's directory: the pixels, RGB 8 bits.
fn render(case: &Case, args: &[&str]) -> Vec<u8> {
    let output = Command::new(env!("CARGO_BIN_EXE_jomc"))
        .current_dir(case.dir.path())
        .args(["render", "model.jom", "-o", "view.png"])
        .args(args)
        .output()
        .expect("jomc runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    vdp1_soft::preview::read_png(&case.path("view.png"))
        .unwrap()
        .2
}

fn drawn(pixels: &[u8]) -> usize {
    pixels.chunks(3).filter(|p| *p != [0, 0, 0]).count()
}

#[test]
fn end_codes_on_16_colours_end_no_line_early() {
    // The same face, with and without end codes: every texel is opaque, so the end codes
    // (after each row's last visible texel) must not take a pixel away.
    let plain = noisy_case("jo_lut 1\n");
    plain.converted(&["--embed-textures"]);
    let ended = noisy_case("jo_lut 1\njo_end_codes 1\n");
    ended.converted(&["--embed-textures"]);
    let (plain, ended) = (render(&plain, &[]), render(&ended, &[]));
    assert!(drawn(&plain) > 3_000, "the face is on screen");
    assert_eq!(drawn(&ended), drawn(&plain), "a line ended early");
}

/// A VRAM whose writes are only measured: where the last one ends.
#[derive(Default)]
struct MeasuredVram {
    end: u32,
}

impl Vram for MeasuredVram {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        self.end = self.end.max(address + bytes.len() as u32);
    }
}

/// The VDP1 VRAM `jomc` says the textures take, and what the engine's texture cache
/// takes loading the model.
fn vram_figures(case: &Case, args: &[&str]) -> (u64, u32) {
    let output = case.convert(args);
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let said: u64 = stdout
        .lines()
        .find_map(|l| l.strip_prefix("textures: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no VRAM line in {stdout:?}"));
    let bytes = AlignedBytes::new(&std::fs::read(case.path("model.jom")).unwrap());
    let model = model(&bytes);
    let region = VramLayout::default().textures;
    let mut cache = TextureCache::<64>::new(region.clone());
    let mut vram = MeasuredVram::default();
    let mut loaded = ModelTextures::<64>::EMPTY;
    cache
        .load_model(&model, &mut vram, |_, _| None, &mut loaded)
        .expect("the engine loads the textures");
    // Each lookup table where the VDP1 reads one: on a 32-byte boundary.
    for i in 0..model.texture_names().len() {
        for end_codes in [false, true] {
            let lut = loaded.get(i, end_codes).and_then(|set| set.full.lut);
            assert!(lut.is_none_or(|address| address % 32 == 0), "{lut:?}");
        }
    }
    (said, vram.end.next_multiple_of(8) - region.start)
}

#[test]
fn the_vram_figure_is_what_the_engine_allocates() {
    let cases = [
        ("", 6 * 512),
        ("jo_mipmaps 1\n", 6 * (512 + 128)),
        ("jo_subdivision 1\n", 6 * (512 + 4 * 128)),
        ("jo_lut 1\njo_end_codes 1\n", 6 * (32 + 128)),
    ];
    let exact = common::EXACT_TEXELS;
    for (options, expected) in cases {
        let case = atlas_case(options);
        let (said, engine) = vram_figures(&case, &exact);
        assert_eq!(said, u64::from(engine), "{options:?}");
        assert_eq!(said, expected, "{options:?}");
        // The default (--palette auto): the 16-colour forms, counted as the engine
        // allocates them, and less.
        let (said, engine) = vram_figures(&case, &["--embed-textures"]);
        assert_eq!(said, u64::from(engine), "{options:?}");
        assert!(
            said < expected || options.contains("jo_lut"),
            "{options:?}: {said}"
        );
        // Halved to fit a budget: still the engine's figure, within the budget.
        let (said, engine) = vram_figures(&case, &["--embed-textures", "--vram-budget", "700"]);
        assert_eq!(said, u64::from(engine), "{options:?}");
        assert!(said <= 700, "{options:?}: {said}");
    }
    // A material with end codes and one without on the same texture: two copies.
    let case = Case::new();
    case.png("t.png", 16, 4, |x, _| [x as u8 * 10, 0, 0, 255]);
    case.file(
        "model.mtl",
        "newmtl a\nmap_Kd t.png\nnewmtl b\nmap_Kd t.png\njo_end_codes 1\n",
    );
    case.file(
        "model.obj",
        "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\nusemtl b\nf 1 3 2\n",
    );
    let (said, engine) = vram_figures(&case, &exact);
    assert_eq!((said, engine), (2 * 128, 2 * 128));
}

#[test]
fn texel_scale_and_max_texture_size_the_baked_textures() {
    let case = atlas_case("");
    let bytes = case.converted(&["--embed-textures", "--texel-scale", "2"]);
    let sizes: Vec<(u16, u16)> = timg(&model(&bytes)).iter().map(|t| (t.1, t.2)).collect();
    assert_eq!(sizes, [(32, 32); 6]);
    let bytes = case.converted(&["--embed-textures", "--max-texture", "8,12"]);
    let sizes: Vec<(u16, u16)> = timg(&model(&bytes)).iter().map(|t| (t.1, t.2)).collect();
    assert_eq!(sizes, [(8, 12); 6]);
    let output = case.convert(&["--max-texture", "12,12"]);
    assert_eq!(output.status.code(), Some(2), "a usage error");
}

#[test]
fn bad_texture_input_is_one_line_naming_the_file_and_line_and_no_output() {
    let cases: [(&str, &[u8], &[&str], &str); 4] = [
        (
            "model.obj",
            b"mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nusemtl box\nf 1/1 2/9 3/1\n",
            &[],
            "model.obj:7: face index 9 is out of range: the file has 1 vt",
        ),
        (
            "atlas.png",
            b"GIF89a not a PNG",
            &[],
            "model.mtl:2: map_Kd atlas.png: not a PNG",
        ),
        (
            "atlas.png",
            b"\x89PNG\r\n\x1a\n cut short",
            &[],
            "model.mtl:2: map_Kd atlas.png: not a PNG",
        ),
        (
            "model.mtl",
            b"newmtl box\nmap_Kd atlas.png\n",
            &["--embed-textures", "--vram-budget", "100"],
            "model.obj: the textures need 192 bytes of VDP1 VRAM even in their smallest form \
             (every texture shared, in 16 colours where allowed, halved down to 8 x 1), 92 \
             bytes more than the budget of 100 bytes (0.0% of the engine's default texture \
             region; --vram-budget sets it)",
        ),
    ];
    for (file, contents, args, expected) in cases {
        let case = atlas_case("");
        std::fs::write(case.path(file), contents).unwrap();
        let error = case.error(args);
        assert!(error.contains(expected), "{error:?} lacks {expected:?}");
        assert!(
            !case.path("model.jom").exists(),
            "no output after {expected}"
        );
    }
}

/// The golden images of baked textures: `tests/golden/NAME.png`, `JOM_BLESS=1` rewrites
/// them after a deliberate change (look at them first).
fn golden(name: &str, obj: &str) {
    let case = Case::new();
    case.png("atlas.png", 48, 32, atlas_pixel);
    case.file("model.mtl", "newmtl m\nmap_Kd atlas.png\njo_dual 1\n");
    case.file("model.obj", &format!("mtllib model.mtl\nusemtl m\n{obj}"));
    case.converted(&["--embed-textures"]);
    let pixels = render(&case, &["--width", "96", "--height", "64"]);
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"));
    if std::env::var_os("JOM_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(case.path("view.png"), &path).unwrap();
        return;
    }
    let (_, _, expected) = vdp1_soft::preview::read_png(&path)
        .unwrap_or_else(|e| panic!("{e} (JOM_BLESS=1 writes it)"));
    let differing = pixels
        .chunks(3)
        .zip(expected.chunks(3))
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(
        differing,
        0,
        "{name}: pixels differ from {}",
        path.display()
    );
    assert!(drawn(&pixels) > 500, "{name}: little drawn");
}

/// A square of four points, then the given `vt` and faces.
const SQUARE: &str = "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\n";

#[test]
fn rotated_texture_coordinates_match_their_golden_image() {
    // The top-left cell turned a quarter: its marker at the square's top right.
    golden(
        "uv-rotated",
        &format!("{SQUARE}vt 0 0.5\nvt 0.3333333 0.5\nvt 0.3333333 1\nvt 0 1\nf 1/2 2/3 3/4 4/1\n"),
    );
}

#[test]
fn mirrored_texture_coordinates_match_their_golden_image() {
    // Left: the top-left cell mirrored left to right (baked); right: the whole atlas
    // mirrored (drawn as it is, flipped).
    golden(
        "uv-mirrored",
        "v -2 -1 0\nv 0 -1 0\nv 0 1 0\nv -2 1 0\nv 2 -1 0\nv 2 1 0\n\
         vt 0 0.5\nvt 0.3333333 0.5\nvt 0.3333333 1\nvt 0 1\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n\
         f 1/2 2/1 3/4 4/3\nf 2/6 5/5 6/8 3/7\n",
    );
}

#[test]
fn triangular_texture_coordinates_match_their_golden_image() {
    // Two triangles of one square, each its half of the whole atlas.
    golden(
        "uv-triangles",
        &format!("{SQUARE}vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nf 1/1 2/2 3/3\nf 1/1 3/3 4/4\n"),
    );
}

#[test]
fn repeating_texture_coordinates_match_their_golden_image() {
    // The atlas twice across and once and a half down, from outside 0 to 1.
    golden(
        "uv-repeating",
        &format!("{SQUARE}vt -1 -0.5\nvt 1 -0.5\nvt 1 1\nvt -1 1\nf 1/1 2/2 3/3 4/4\n"),
    );
}

/// One quad showing `t.png` as it is (its four corners), with `a.png` on a second quad
/// when `second` is set.
fn image_quads(second: bool) -> Case {
    let case = Case::new();
    let mut mtl = "newmtl t\nmap_Kd t.png\n".to_string();
    let mut obj = "mtllib model.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvt 0 0\nvt 1 0\n\
                   vt 1 1\nvt 0 1\nusemtl t\nf 1/1 2/2 3/3 4/4\n"
        .to_string();
    if second {
        mtl += "newmtl a\nmap_Kd a.png\n";
        obj += "usemtl a\nf 1/1 4/4 3/3 2/2\n";
    }
    case.file("model.mtl", &mtl);
    case.file("model.obj", &obj);
    case
}

fn formats(bytes: &AlignedBytes) -> Vec<bool> {
    let model = model(bytes);
    let textures = model.textures().expect("embedded");
    textures
        .iter()
        .map(|t| matches!(t.pixels, TexturePixels::Lut4 { .. }))
        .collect()
}

#[test]
fn palette_modes_store_16_colours_within_the_error_bound() {
    // 256 colours of a smooth gradient: 15 cannot stay within the default bound.
    let case = image_quads(false);
    case.png("t.png", 16, 16, |x, y| {
        [x as u8 * 16, y as u8 * 16, 128, 255]
    });
    assert_eq!(formats(&case.converted(&["--embed-textures"])), [false]);
    let always = ["--embed-textures", "--palette", "always"];
    assert_eq!(formats(&case.converted(&always)), [true]);
    let loose = ["--embed-textures", "--texture-error", "40"];
    assert_eq!(formats(&case.converted(&loose)), [true]);
    // 4 colours and transparent texels: exact in 16 colours, unless never.
    case.png("t.png", 16, 16, |x, y| match (x + y) % 5 {
        0 => [0, 0, 0, 0],
        k => [k as u8 * 50, 0, 255 - k as u8 * 50, 255],
    });
    let bytes = case.converted(&["--embed-textures"]);
    assert_eq!(formats(&bytes), [true]);
    let exact = case.converted(&["--embed-textures", "--palette", "never"]);
    assert_eq!(formats(&exact), [false]);
    assert_eq!(timg(&model(&bytes))[0].3, timg(&model(&exact))[0].3);
    // Bad values: usage errors naming the option.
    for args in [
        ["--palette", "some"],
        ["--texture-error", "256"],
        ["--texture-error", "nan"],
    ] {
        let output = case.convert(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(args[0]), "{stderr}");
    }
}

#[test]
fn near_identical_textures_are_one() {
    // Two images one 5-bit step apart in one texel: one texture by default (error 1/256
    // of a step), two when only identical ones are shared.
    let case = image_quads(true);
    case.png("t.png", 16, 8, |x, y| [x as u8 * 16, y as u8 * 32, 0, 255]);
    case.png("a.png", 16, 8, |x, y| {
        let g = y as u8 * 32 + u8::from(x == 3 && y == 3) * 8;
        [x as u8 * 16, g, 0, 255]
    });
    let never = ["--embed-textures", "--palette", "never"];
    let bytes = case.converted(&never);
    assert_eq!(formats(&bytes).len(), 1);
    let model = model(&bytes);
    let textures: Vec<Option<u16>> = model.materials().iter().map(|m| m.texture()).collect();
    assert_eq!(textures, [Some(0), Some(0)]);
    // jomc info says it from the FITS chunk, as convert did.
    let info = std::process::Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("info")
        .arg(case.path("model.jom"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&info.stdout);
    assert!(
        text.contains("textures before fitting: 512 bytes")
            && text.contains("near-identical textures shared: 1 textures, 256 bytes saved"),
        "{text}"
    );
    // A FITS chunk whose count disagrees with its size: one error naming where.
    let mut bytes = std::fs::read(case.path("model.jom")).unwrap();
    let at = bytes.windows(4).position(|w| w == b"FITS").unwrap();
    bytes[at + 11] = 7;
    std::fs::write(case.path("bad.jom"), &bytes).unwrap();
    let info = std::process::Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("info")
        .arg(case.path("bad.jom"))
        .output()
        .unwrap();
    assert_eq!(info.status.code(), Some(1));
    let expected = format!(
        "bad.jom: FITS chunk at byte offset {at} (0x{at:X}): 24 bytes of data, expected 4 + 20 \
         x 7 (the count at byte 0 of the data)\n"
    );
    let stderr = String::from_utf8_lossy(&info.stderr);
    assert!(stderr.ends_with(&expected), "{stderr}");
    assert!(info.stdout.is_empty());
    let exact = common::EXACT_TEXELS;
    assert_eq!(formats(&case.converted(&exact)).len(), 2);
}
