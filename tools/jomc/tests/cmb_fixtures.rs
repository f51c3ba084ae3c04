//! The CMB, CSAB and PICA200 readers on files written here from the format's description
//! (the cloudmodding wiki, Grezzo/cmb.bt, csab.bt): every version, vertex data type,
//! constant attributes, u8 and u16 index lists, the three skinning modes, every texture
//! format against hand-computed texels, every track type, and malformed files.

use jomc::cmb::{csab, model, pica, rest};

// ---------------------------------------------------------------- a small CMB writer

/// A vertex attribute: raw values (as the data type stores them) and a scale, or a
/// constant.
#[derive(Clone)]
struct Attr {
    data_type: u16,
    scale: f32,
    raw: Vec<f64>,
    constant: Option<[f32; 4]>,
}

impl Attr {
    fn array(data_type: u16, scale: f32, raw: Vec<f64>) -> Self {
        Self {
            data_type,
            scale,
            raw,
            constant: None,
        }
    }
    fn constant(value: [f32; 4]) -> Self {
        Self {
            data_type: 0x1406,
            scale: 1.0,
            raw: Vec::new(),
            constant: Some(value),
        }
    }
    fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for &v in &self.raw {
            match self.data_type {
                0x1400 => out.push(v as i8 as u8),
                0x1401 => out.push(v as u8),
                0x1402 => out.extend((v as i16).to_le_bytes()),
                0x1403 => out.extend((v as u16).to_le_bytes()),
                0x1404 => out.extend((v as i32).to_le_bytes()),
                0x1405 => out.extend((v as u32).to_le_bytes()),
                _ => out.extend((v as f32).to_le_bytes()),
            }
        }
        while !out.len().is_multiple_of(4) {
            out.push(0);
        }
        out
    }
}

struct Set {
    skinning: u16,
    bone_table: Vec<u16>,
    indices: Vec<u16>,
    /// u8 (0x1401) or u16 (0x1403) indices.
    index_type: u16,
}

/// A bone: parent, scale, rotation, translation.
type BoneRecord = (i16, [f32; 3], [f32; 3], [f32; 3]);

struct Fixture {
    version: u32,
    bones: Vec<BoneRecord>,
    culling: u8,
    /// (function, reference) of the alpha test.
    alpha_test: Option<(u16, u8)>,
    blending: bool,
    texture: Option<(u32, u16, u16, Vec<u8>)>,
    position: Attr,
    color: Option<Attr>,
    uv: Option<Attr>,
    bone_indices: Option<Attr>,
    bone_weights: Option<Attr>,
    bones_per_vertex: u16,
    sets: Vec<Set>,
    /// Index-buffer u16s before the first set's indices (so offsets are not 0).
    index_padding: usize,
}

fn u32s(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend(v.to_le_bytes());
    }
}

fn align4(out: &mut Vec<u8>) {
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

fn patch(out: &mut [u8], at: usize, value: u32) {
    out[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn chunk(magic: &[u8; 4], body: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend([0; 4]);
    body(&mut out);
    align4(&mut out);
    let len = out.len() as u32;
    patch(&mut out, 4, len);
    out
}

impl Fixture {
    fn triangle(version: u32) -> Self {
        Self {
            version,
            bones: vec![
                (-1, [1.0; 3], [0.0; 3], [0.0; 3]),
                (0, [1.0; 3], [0.0; 3], [10.0, 0.0, 0.0]),
            ],
            culling: 1,
            alpha_test: None,
            blending: false,
            texture: None,
            position: Attr::array(
                0x1406,
                1.0,
                vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
            ),
            color: None,
            uv: None,
            bone_indices: None,
            bone_weights: None,
            bones_per_vertex: 1,
            sets: vec![Set {
                skinning: 0,
                bone_table: vec![1],
                indices: vec![0, 1, 2],
                index_type: 0x1403,
            }],
            index_padding: 3,
        }
    }

    fn after_ocarina(&self) -> bool {
        self.version > 6
    }

    fn write(&self) -> Vec<u8> {
        let v = self.version;
        let header_size = if self.after_ocarina() { 0x4C } else { 0x44 };
        let mut file = vec![0; header_size];
        file[..4].copy_from_slice(b"cmb ");
        patch(&mut file, 8, v);
        file[0x10..0x13].copy_from_slice(b"fix");
        let mut offsets = Vec::new();
        // skl
        offsets.push(file.len());
        file.extend(chunk(b"skl ", |o| {
            u32s(o, &[self.bones.len() as u32, 0]);
            for (i, (parent, s, r, t)) in self.bones.iter().enumerate() {
                o.extend((i as u16).to_le_bytes());
                o.extend(parent.to_le_bytes());
                for x in s.iter().chain(r).chain(t) {
                    o.extend(x.to_le_bytes());
                }
                if v > 6 {
                    o.extend([0; 4]);
                }
            }
        }));
        if self.after_ocarina() {
            offsets.push(file.len());
            file.extend(chunk(b"qtrs", |o| u32s(o, &[0])));
        }
        // mats
        offsets.push(file.len());
        file.extend(chunk(b"mats", |o| {
            u32s(o, &[1]);
            let mut m = vec![0u8; if v > 6 { 0x16C } else { 0x15C }];
            m[4] = self.culling;
            let texture: i16 = if self.texture.is_some() { 0 } else { -1 };
            m[0x10..0x12].copy_from_slice(&texture.to_le_bytes());
            m[0x5C..0x60].copy_from_slice(&1.0f32.to_le_bytes());
            m[0x60..0x64].copy_from_slice(&1.0f32.to_le_bytes());
            m[0xA8..0xAC].copy_from_slice(&[255, 128, 0, 255]);
            if let Some((function, reference)) = self.alpha_test {
                m[0x130] = 1;
                m[0x131] = reference;
                m[0x132..0x134].copy_from_slice(&function.to_le_bytes());
            }
            m[0x138] = u8::from(self.blending);
            o.extend(m);
        }));
        // tex
        offsets.push(file.len());
        let texture_data = self.texture.as_ref().map_or(Vec::new(), |t| t.3.clone());
        file.extend(chunk(b"tex ", |o| match &self.texture {
            None => u32s(o, &[0]),
            Some((format, w, h, data)) => {
                u32s(o, &[1, data.len() as u32]);
                o.extend(1u16.to_le_bytes());
                o.extend([0, 0]);
                o.extend(w.to_le_bytes());
                o.extend(h.to_le_bytes());
                u32s(o, &[*format, 0]);
                o.extend(b"skin\0\0\0\0\0\0\0\0\0\0\0\0");
            }
        }));
        // sklm > mshs, shp > sepd > prms > prm
        offsets.push(file.len());
        let attributes = self.attributes();
        let (sepd, index_buffer) = self.sepd(&attributes);
        let mshs = chunk(b"mshs", |o| {
            u32s(o, &[1]);
            o.extend([1, 0, 0, 0]);
            let mut mesh = vec![
                0u8;
                match v {
                    6 => 4,
                    10 => 12,
                    12 => 16,
                    _ => 0x58,
                }
            ];
            mesh[0..4].copy_from_slice(&[0, 0, 0, 0]);
            o.extend(mesh);
        });
        let shp = chunk(b"shp ", |o| {
            u32s(o, &[1, 0]);
            o.extend(0x14u16.to_le_bytes());
            o.extend([0, 0]);
            o.extend(&sepd);
        });
        file.extend(chunk(b"sklm", |o| {
            u32s(o, &[0x10, 0x10 + mshs.len() as u32]);
            o.extend(&mshs);
            o.extend(&shp);
        }));
        // luts
        offsets.push(file.len());
        file.extend(chunk(b"luts", |o| u32s(o, &[0, 0])));
        // vatr: one slice per attribute, in order.
        offsets.push(file.len());
        file.extend(chunk(b"vatr", |o| {
            u32s(o, &[0]);
            let slices_at = o.len();
            o.extend(vec![0; attributes.len() * 8]);
            for (i, attribute) in attributes.iter().enumerate() {
                let data = attribute.as_ref().map_or(Vec::new(), Attr::bytes);
                let at = o.len() as u32;
                o.extend(&data);
                patch(o, slices_at + 8 * i, data.len() as u32);
                patch(o, slices_at + 8 * i + 4, at);
            }
        }));
        offsets.push(file.len());
        patch(&mut file, 0x20, (index_buffer.len() / 2) as u32);
        file.extend(&index_buffer);
        align4(&mut file);
        offsets.push(file.len());
        file.extend(&texture_data);
        for (k, at) in offsets.iter().enumerate() {
            patch(&mut file, 0x24 + 4 * k, *at as u32);
        }
        let len = file.len() as u32;
        patch(&mut file, 4, len);
        file
    }

    /// Position, normal, [tangent], colour, uv0, uv1, uv2, bone indices, weights.
    fn attributes(&self) -> Vec<Option<Attr>> {
        let mut out = vec![Some(self.position.clone()), None];
        if self.after_ocarina() {
            out.push(None);
        }
        out.extend([self.color.clone(), self.uv.clone(), None, None]);
        out.extend([self.bone_indices.clone(), self.bone_weights.clone()]);
        out
    }

    fn sepd(&self, attributes: &[Option<Attr>]) -> (Vec<u8>, Vec<u8>) {
        let mut index_buffer = vec![0u8; self.index_padding * 2];
        let sepd = chunk(b"sepd", |o| {
            o.extend((self.sets.len() as u16).to_le_bytes());
            let flags = attributes
                .iter()
                .enumerate()
                .filter(|(_, a)| a.as_ref().is_some_and(|a| a.constant.is_none()))
                .fold(0u16, |f, (i, _)| f | (1 << i));
            o.extend(flags.to_le_bytes());
            o.extend(vec![0; if self.version == 15 { 0x30 } else { 0x18 }]);
            for attribute in attributes {
                let a = attribute
                    .clone()
                    .unwrap_or(Attr::array(0x1406, 1.0, Vec::new()));
                o.extend(0u32.to_le_bytes());
                o.extend(a.scale.to_le_bytes());
                o.extend(a.data_type.to_le_bytes());
                o.extend(u16::from(a.constant.is_some()).to_le_bytes());
                for c in a.constant.unwrap_or([0.0; 4]) {
                    o.extend(c.to_le_bytes());
                }
            }
            o.extend(self.bones_per_vertex.to_le_bytes());
            o.extend([0, 0]);
            let table_at = o.len();
            o.extend(vec![0; self.sets.len() * 2]);
            align4(o);
            for (i, set) in self.sets.iter().enumerate() {
                let at = o.len() as u16;
                o[table_at + 2 * i..table_at + 2 * i + 2].copy_from_slice(&at.to_le_bytes());
                let first = index_buffer.len() / 2;
                for &index in &set.indices {
                    if set.index_type == 0x1401 {
                        index_buffer.push(index as u8);
                    } else {
                        index_buffer.extend(index.to_le_bytes());
                    }
                }
                if !index_buffer.len().is_multiple_of(2) {
                    index_buffer.push(0);
                }
                o.extend(chunk(b"prms", |p| {
                    u32s(p, &[1]);
                    p.extend(set.skinning.to_le_bytes());
                    p.extend((set.bone_table.len() as u16).to_le_bytes());
                    let table = 0x18u32;
                    let prm = table + ((set.bone_table.len() as u32 * 2 + 3) & !3);
                    u32s(p, &[table, prm]);
                    for b in &set.bone_table {
                        p.extend(b.to_le_bytes());
                    }
                    align4(p);
                    p.extend(chunk(b"prm ", |q| {
                        u32s(q, &[1, 0, u32::from(set.index_type)]);
                        q.extend((set.indices.len() as u16).to_le_bytes());
                        q.extend((first as u16).to_le_bytes());
                    }));
                }));
            }
        });
        while !index_buffer.len().is_multiple_of(4) {
            index_buffer.push(0);
        }
        (sepd, index_buffer)
    }
}

fn rigid_positions(file: &[u8]) -> Vec<[f64; 3]> {
    let cmb = model::parse(file).unwrap();
    rest::make_rigid(&cmb)
        .triangles
        .iter()
        .flat_map(|t| t.corners.map(|c| c.position))
        .collect()
}

fn close(a: [f64; 3], b: [f64; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() < 1e-5)
}

// ---------------------------------------------------------------- the model

#[test]
fn every_version_reads_and_places_single_bone_vertices_by_the_bone() {
    for version in model::VERSIONS {
        let file = Fixture::triangle(version).write();
        let cmb = model::parse(&file).unwrap_or_else(|e| panic!("version {version}: {e}"));
        assert_eq!(
            (cmb.version, cmb.name.as_str(), cmb.bones.len()),
            (version, "fix", 2)
        );
        assert_eq!(cmb.bones[1].parent, Some(0));
        assert_eq!(cmb.materials[0].diffuse, [255, 128, 0, 255]);
        assert_eq!(cmb.materials[0].culling, model::Culling::Back);
        let points = rigid_positions(&file);
        let expected = [[10.0, 0.0, 0.0], [11.0, 0.0, 0.0], [10.0, 1.0, 0.0]];
        assert!(
            points.iter().zip(&expected).all(|(a, b)| close(*a, *b)),
            "version {version}: {points:?}"
        );
    }
}

#[test]
fn every_vertex_data_type_is_read_times_its_scale() {
    let raw: Vec<f64> = vec![-3.0, 2.0, 1.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0];
    for (data_type, signed) in [
        (0x1400, true),
        (0x1401, false),
        (0x1402, true),
        (0x1403, false),
        (0x1404, true),
        (0x1405, false),
        (0x1406, true),
    ] {
        let mut fixture = Fixture::triangle(10);
        let values: Vec<f64> = raw
            .iter()
            .map(|&v| if signed { v } else { v.abs() })
            .collect();
        fixture.position = Attr::array(data_type, 0.5, values.clone());
        let cmb = model::parse(&fixture.write()).unwrap();
        let read: Vec<f64> = cmb.shapes[0]
            .positions
            .iter()
            .flatten()
            .map(|&v| f64::from(v))
            .collect();
        let expected: Vec<f64> = values.iter().map(|v| v * 0.5).collect();
        assert_eq!(read, expected, "data type {data_type:#x}");
    }
}

#[test]
fn constant_attributes_give_every_vertex_their_value_and_uvs_their_transform() {
    let mut fixture = Fixture::triangle(6);
    fixture.color = Some(Attr::constant([0.5, 0.25, 1.0, 1.0]));
    fixture.uv = Some(Attr::array(
        0x1401,
        1.0 / 255.0,
        vec![0.0, 0.0, 255.0, 0.0, 0.0, 255.0],
    ));
    let cmb = model::parse(&fixture.write()).unwrap();
    assert_eq!(
        cmb.shapes[0].colors.as_ref().unwrap(),
        &vec![[0.5, 0.25, 1.0, 1.0]; 3]
    );
    let rigid = rest::make_rigid(&cmb);
    let uvs: Vec<[f32; 2]> = rigid.triangles[0]
        .corners
        .iter()
        .map(|c| c.uv.unwrap())
        .collect();
    // The identity transform (scale 1, no rotation or translation) keeps them.
    assert_eq!(uvs, [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]);
}

#[test]
fn u8_index_lists_count_their_offset_in_u16s() {
    let mut fixture = Fixture::triangle(12);
    fixture.position = Attr::array(
        0x1406,
        1.0,
        vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 5.0, 5.0, 5.0],
    );
    fixture.sets = vec![
        Set {
            skinning: 0,
            bone_table: vec![0],
            indices: vec![0, 1, 2],
            index_type: 0x1401,
        },
        Set {
            skinning: 0,
            bone_table: vec![0],
            indices: vec![3, 2, 1],
            index_type: 0x1401,
        },
    ];
    let cmb = model::parse(&fixture.write()).unwrap();
    let sets = &cmb.shapes[0].primitive_sets;
    assert_eq!(sets[0].triangles, [[0, 1, 2]]);
    assert_eq!(sets[1].triangles, [[3, 2, 1]]);
}

#[test]
fn rigid_skinning_places_each_vertex_by_its_own_bone() {
    let mut fixture = Fixture::triangle(15);
    fixture.bones.push((
        0,
        [1.0; 3],
        [0.0, 0.0, std::f32::consts::FRAC_PI_2],
        [0.0, 20.0, 0.0],
    ));
    fixture.sets = vec![Set {
        skinning: 1,
        bone_table: vec![1, 2],
        indices: vec![0, 1, 2],
        index_type: 0x1403,
    }];
    fixture.bone_indices = Some(Attr::array(0x1401, 1.0, vec![0.0, 1.0, 1.0]));
    let points = rigid_positions(&fixture.write());
    // Vertex 0 by bone 1 (+10 X); 1 and 2 by bone 2 (a quarter turn around Z, then +20 Y).
    let expected = [[10.0, 0.0, 0.0], [0.0, 21.0, 0.0], [-1.0, 20.0, 0.0]];
    assert!(
        points.iter().zip(&expected).all(|(a, b)| close(*a, *b)),
        "{points:?}"
    );
    let cmb = model::parse(&fixture.write()).unwrap();
    let rigid = rest::make_rigid(&cmb);
    assert_eq!((rigid.triangles[0].bone, rigid.split_triangles), (2, 1));
}

#[test]
fn smooth_skinning_keeps_positions_and_takes_the_heaviest_bone() {
    let mut fixture = Fixture::triangle(6);
    fixture
        .bones
        .push((0, [1.0; 3], [0.0; 3], [0.0, 20.0, 0.0]));
    fixture.bones_per_vertex = 2;
    fixture.sets = vec![Set {
        skinning: 2,
        bone_table: vec![1, 2],
        indices: vec![0, 1, 2],
        index_type: 0x1403,
    }];
    fixture.bone_indices = Some(Attr::array(0x1401, 1.0, vec![0.0, 1.0, 0.0, 1.0, 1.0, 0.0]));
    fixture.bone_weights = Some(Attr::array(
        0x1401,
        0.01,
        vec![30.0, 70.0, 60.0, 40.0, 100.0, 0.0],
    ));
    let file = fixture.write();
    let cmb = model::parse(&file).unwrap();
    let rigid = rest::make_rigid(&cmb);
    // Bone 2 carries 0.7 + 0.4 + 1.0 of the triangle, bone 1 0.3 + 0.6.
    assert_eq!(rigid.triangles[0].bone, 2);
    assert_eq!(
        rigid.smooth_vertices, 2,
        "two vertices weighed between two bones"
    );
    let points = rigid_positions(&file);
    assert!(
        close(points[1], [1.0, 0.0, 0.0]),
        "model space kept: {points:?}"
    );
}

#[test]
fn malformed_models_are_one_error_each() {
    let expect = |fixture: &Fixture, edit: &dyn Fn(&mut Vec<u8>), chunk: &str, words: &str| {
        let mut file = fixture.write();
        edit(&mut file);
        let message = model::parse(&file).unwrap_err().to_string();
        assert!(
            message.starts_with(&format!("{chunk} chunk at offset")),
            "{message}"
        );
        assert!(message.contains(words), "{message}");
    };
    let base = Fixture::triangle(6);
    let mut bad_type = Fixture::triangle(6);
    bad_type.position.data_type = 0x1407;
    expect(
        &bad_type,
        &|_| {},
        "sepd",
        "unknown vertex data type 0x1407",
    );
    let mut bad_mode = Fixture::triangle(6);
    bad_mode.sets[0].skinning = 3;
    expect(&bad_mode, &|_| {}, "prms", "skinning mode 3");
    let mut far_index = Fixture::triangle(6);
    far_index.sets[0].indices = vec![0, 1, 9];
    expect(
        &far_index,
        &|_| {},
        "vatr",
        "do not fit in their vatr slice",
    );
    let mut bad_index_type = Fixture::triangle(6);
    bad_index_type.sets[0].index_type = 0x1405;
    expect(&bad_index_type, &|_| {}, "prm", "index type 0x1405");
    let mut bad_texture = Fixture::triangle(6);
    bad_texture.texture = Some((0x1234_5678, 8, 8, vec![0; 64]));
    expect(&bad_texture, &|_| {}, "tex", "unknown format 0x12345678");
    let mut short_texture = Fixture::triangle(6);
    short_texture.texture = Some((pica::TextureFormat::Rgba8.code(), 8, 8, vec![0; 64]));
    expect(
        &short_texture,
        &|f| f.truncate(f.len() - 8),
        "texture data",
        "expected texture 0's 8x8 Rgba8 texels",
    );
    let mut far_bone = Fixture::triangle(6);
    far_bone.sets[0].bone_table = vec![5];
    expect(
        &far_bone,
        &|_| {},
        "prms",
        "bone table entry 0 is bone 5, expected below the 2 bones of skl",
    );
    let mut empty_table = Fixture::triangle(6);
    empty_table.sets[0].bone_table = vec![];
    expect(&empty_table, &|_| {}, "prms", "an empty bone table");
    let mut far_index = Fixture::triangle(6);
    far_index.sets[0].skinning = 1;
    far_index.bone_indices = Some(Attr::array(0x1401, 1.0, vec![0.0, 0.0, 1.0]));
    expect(
        &far_index,
        &|_| {},
        "sepd",
        "vertex 2 of primitive set 0 uses bone index 1, expected below its table's 1",
    );
    let far_material = Fixture::triangle(12);
    expect(
        &far_material,
        &|f| {
            let at = f.windows(4).position(|w| w == b"mshs").unwrap() + 0x12;
            f[at] = 4;
        },
        "mshs",
        "mesh 0 uses material 4, expected below 1",
    );
    let mut bad_parent = Fixture::triangle(6);
    bad_parent.bones[0].0 = 1;
    expect(&bad_parent, &|_| {}, "skl", "bone 0 has parent 1");
    expect(
        &base,
        &|f| patch(f, 0x24, 0xFFFF_FF00),
        "skl",
        "but the file ends",
    );
}

// ---------------------------------------------------------------- textures

/// `format`'s 8x8 image from texels in stored (Morton) order, each `bytes` long.
fn decode_stored(format: pica::TextureFormat, stored: &[u8]) -> Vec<[u8; 4]> {
    let mut data = stored.to_vec();
    data.resize(format.byte_size(8, 8), 0);
    pica::decode(format, 8, 8, &data)
}

/// A format, the bytes of its stored texels 0 and 1, and their RGBA.
type TexelCase = (pica::TextureFormat, &'static [u8], [u8; 4], [u8; 4]);

#[test]
fn tiled_formats_decode_hand_computed_texels_in_morton_order() {
    use pica::TextureFormat::*;
    // (format, bytes of stored texels 0 and 1, their RGBA)
    let cases: [TexelCase; 12] = [
        (
            Rgba8,
            &[0x40, 0x30, 0x20, 0x10, 4, 3, 2, 1],
            [0x10, 0x20, 0x30, 0x40],
            [1, 2, 3, 4],
        ),
        (
            Rgb8,
            &[0x30, 0x20, 0x10, 3, 2, 1],
            [0x10, 0x20, 0x30, 255],
            [1, 2, 3, 255],
        ),
        // 0xF801: R 31, G 0, B 0, A 1; 0x003E: B 31, A 0.
        (
            Rgba5551,
            &[0x01, 0xF8, 0x3E, 0x00],
            [255, 0, 0, 255],
            [0, 0, 255, 0],
        ),
        // 0x07E0: G 63; 0x0821: R 1, G 1, B 1.
        (
            Rgb565,
            &[0xE0, 0x07, 0x21, 0x08],
            [0, 255, 0, 255],
            [8, 4, 8, 255],
        ),
        (
            Rgba4444,
            &[0x34, 0x12, 0x0F, 0xF0],
            [0x11, 0x22, 0x33, 0x44],
            [0xFF, 0, 0, 0xFF],
        ),
        (
            La8,
            &[0x80, 0x10, 0xFF, 0x00],
            [0x10, 0x10, 0x10, 0x80],
            [0, 0, 0, 255],
        ),
        (
            Hilo8,
            &[0x20, 0x10, 0x02, 0x01],
            [0x10, 0x20, 0, 255],
            [1, 2, 0, 255],
        ),
        (L8, &[0x42, 0x07], [0x42, 0x42, 0x42, 255], [7, 7, 7, 255]),
        (A8, &[0x42, 0x07], [255, 255, 255, 0x42], [255, 255, 255, 7]),
        (
            La4,
            &[0x3C, 0xF0],
            [0x33, 0x33, 0x33, 0xCC],
            [255, 255, 255, 0],
        ),
        // Low nibble first.
        (
            L4,
            &[0x5A],
            [0xAA, 0xAA, 0xAA, 255],
            [0x55, 0x55, 0x55, 255],
        ),
        (A4, &[0x5A], [255, 255, 255, 0xAA], [255, 255, 255, 0x55]),
    ];
    for (format, bytes, first, second) in cases {
        let image = decode_stored(format, bytes);
        assert_eq!(image[0], first, "{format:?} texel (0, 0)");
        assert_eq!(image[1], second, "{format:?} texel 1 is (1, 0)");
    }
    // Morton order: stored texel 2 is (0, 1), 3 is (1, 1), 4 is (2, 0), 63 is (7, 7).
    let ramp: Vec<u8> = (0..64).collect();
    let image = decode_stored(L8, &ramp);
    let at = |x: usize, y: usize| image[y * 8 + x][0];
    assert_eq!(
        [at(0, 1), at(1, 1), at(2, 0), at(0, 2), at(7, 7)],
        [2, 3, 4, 8, 63]
    );
    // Tiles follow each other in rows: a 16x8 image's second tile starts at x = 8.
    let mut two: Vec<u8> = vec![0; 128];
    two[64] = 99;
    assert_eq!(pica::decode(L8, 16, 8, &two)[8][0], 99);
}

#[test]
fn etc1_and_etc1a4_decode_hand_computed_blocks() {
    use pica::TextureFormat::*;
    // Individual mode: base 1 (15, 0, 0) x 17, base 2 (0, 15, 0) x 17, table 0 (2, 8), side
    // by side (no flip); every texel index 0: + small (2).
    let control: u64 = 0xF00F_0000;
    let block = (control << 32).to_le_bytes();
    let image = decode_stored(Etc1, &block);
    assert_eq!(image[0], [255, 2, 2, 255]);
    assert_eq!(image[2], [2, 255, 2, 255], "x = 2 is the second half");
    assert_eq!(image[3 * 8 + 1], [255, 2, 2, 255]);
    // Differential: red 16, difference -1 (15): 132 and 123; texel 0 index 3 (- large: 8).
    let control: u64 = (16 << 27) | (0b111 << 24) | 0b10;
    let texels: u64 = 1 | (1 << 16);
    let image = decode_stored(Etc1, &((control << 32) | texels).to_le_bytes());
    assert_eq!(image[0], [124, 0, 0, 255], "132 - 8");
    assert_eq!(
        image[1],
        [134, 2, 2, 255],
        "texel (1, 0) is index 4: 132 + small"
    );
    assert_eq!(image[2], [125, 2, 2, 255], "second half: 123 + 2");
    // Flipped: the halves are top and bottom.
    let image = decode_stored(Etc1, &((0xF00F_0001u64) << 32).to_le_bytes());
    assert_eq!((image[3][0], image[2 * 8][1]), (255, 255));
    // ETC1A4: a u64 of nibbles first, texel (x, y) at nibble x * 4 + y.
    let alphas: u64 = 0xF << (4 * (2 * 4 + 1));
    let mut a4 = alphas.to_le_bytes().to_vec();
    a4.extend((0xF00F_0000u64 << 32).to_le_bytes());
    let image = decode_stored(Etc1A4, &a4);
    assert_eq!((image[8 + 2][3], image[0][3], image[2][3]), (255, 0, 0));
    // The second block of a tile is its top right 4x4.
    let mut two = vec![0u8; 8];
    two.extend((0xF00F_0000u64 << 32).to_le_bytes());
    let image = decode_stored(Etc1, &two);
    // The first block, all zero: bases 0, + small (2).
    assert_eq!((image[4], image[0]), ([255, 2, 2, 255], [2, 2, 2, 255]));
}

#[test]
fn every_format_code_reads_back_and_sizes_its_texels() {
    for format in pica::FORMATS {
        assert_eq!(pica::TextureFormat::from_code(format.code()), Some(format));
        let image = pica::decode(format, 8, 8, &vec![0xA5; format.byte_size(8, 8)]);
        assert_eq!(image.len(), 64, "{format:?}");
    }
    assert_eq!(pica::TextureFormat::Etc1.byte_size(16, 16), 128);
    assert_eq!(pica::TextureFormat::Rgb8.byte_size(8, 8), 192);
}

// ---------------------------------------------------------------- CSAB

/// A CSAB of `version` animating bone 0 of 1 with one track per (slot, bytes).
fn csab_file(version: u32, duration: u32, tracks: &[(usize, Vec<u8>)]) -> Vec<u8> {
    csab_of_bone(version, duration, (0, 1), tracks)
}

/// A CSAB of `version` animating bone `bone.0` of `bone.1` with one track per (slot,
/// bytes).
fn csab_of_bone(
    version: u32,
    duration: u32,
    bone: (u16, u16),
    tracks: &[(usize, Vec<u8>)],
) -> Vec<u8> {
    let mut file = b"csab".to_vec();
    u32s(&mut file, &[0, version, 0]);
    if version > 4 {
        for _ in 0..3 {
            file.extend(10.0f32.to_le_bytes());
        }
    }
    let anim = file.len() as u32 + 8;
    u32s(&mut file, &[1, anim]);
    u32s(&mut file, &[0, 0, 0, 0, duration, 0, 1, u32::from(bone.1)]);
    for b in 0..bone.1 {
        let node: i16 = if b == bone.0 { 0 } else { -1 };
        file.extend(node.to_le_bytes());
    }
    align4(&mut file);
    let anod = file.len() as u32 + 4 - anim;
    u32s(&mut file, &[anod]);
    let anod_at = file.len();
    file.extend(b"anod");
    file.extend(bone.0.to_le_bytes());
    file.extend(if version > 4 { [0, 1] } else { [0, 0] });
    let offsets_at = file.len();
    file.extend([0; 20]);
    for (slot, bytes) in tracks {
        let offset = (file.len() - anod_at) as u16;
        file[offsets_at + 2 * slot..offsets_at + 2 * slot + 2]
            .copy_from_slice(&offset.to_le_bytes());
        file.extend(bytes);
        align4(&mut file);
    }
    let len = file.len() as u32;
    patch(&mut file, 4, len);
    file
}

fn v3_track(kind: u32, keys: &[&[f32]]) -> Vec<u8> {
    let mut out = Vec::new();
    u32s(&mut out, &[kind, keys.len() as u32, 0, 0]);
    for key in keys {
        out.extend((key[0] as u32).to_le_bytes());
        for v in &key[1..] {
            out.extend(v.to_le_bytes());
        }
    }
    out
}

#[test]
fn csab_3_linear_and_hermite_tracks_sample_between_their_keys() {
    let linear = v3_track(1, &[&[0.0, 2.0], &[10.0, 4.0]]);
    let hermite_flat = v3_track(2, &[&[0.0, 0.0, 0.0, 0.0], &[10.0, 1.0, 0.0, 0.0]]);
    // Slope 0.3 a frame at both ends of a straight line from 0 to 3 over 10 frames.
    let hermite_line = v3_track(2, &[&[0.0, 0.0, 0.3, 0.3], &[10.0, 3.0, 0.3, 0.3]]);
    let file = csab_file(3, 10, &[(0, linear), (3, hermite_flat), (6, hermite_line)]);
    let animation = csab::parse(&file).unwrap();
    assert_eq!(
        (animation.version, animation.duration, animation.nodes.len()),
        (3, 10, 1)
    );
    let node = &animation.nodes[0];
    let tx = node.translation[0].as_ref().unwrap();
    assert_eq!(
        [
            tx.sample(-1.0),
            tx.sample(5.0),
            tx.sample(10.0),
            tx.sample(20.0)
        ],
        [2.0, 3.0, 4.0, 4.0]
    );
    let rx = node.rotation[0].as_ref().unwrap();
    assert!(
        (rx.sample(5.0) - 0.5).abs() < 1e-12,
        "flat ends: the midpoint is halfway"
    );
    assert!(
        (rx.sample(2.0) - 0.104).abs() < 1e-12,
        "3 s^2 - 2 s^3 at 0.2"
    );
    let sx = node.scale[0].as_ref().unwrap();
    assert!(
        (sx.sample(7.0) - 2.1).abs() < 1e-6,
        "a Hermite curve with the line's slopes is the line: {}",
        sx.sample(7.0)
    );
    assert!(node.translation[1].is_none() && node.rotation[1].is_none());
}

#[test]
fn csab_3_short_rotations_are_fractions_of_half_a_turn() {
    let mut short = Vec::new();
    u32s(&mut short, &[1, 2, 0, 0]);
    for (frame, value) in [(0u16, 0i16), (4, 16384)] {
        short.extend(frame.to_le_bytes());
        short.extend(value.to_le_bytes());
    }
    let mut file = csab_file(3, 4, &[(4, short)]);
    // The anod's short-rotation flag (after "anod" and the bone index).
    let anod = file.windows(4).position(|w| w == b"anod").unwrap();
    file[anod + 6] = 1;
    let animation = csab::parse(&file).unwrap();
    let ry = animation.nodes[0].rotation[1].as_ref().unwrap();
    let expected = 16384.0 / 32767.0 * std::f64::consts::PI;
    assert!((ry.sample(4.0) - expected).abs() < 1e-12);
}

#[test]
fn csab_5_quantised_and_constant_tracks() {
    let linear = |scale: f32, bias: f32, raw: &[u16]| {
        let mut out = vec![0, 1];
        out.extend((raw.len() as u16).to_le_bytes());
        out.extend(scale.to_le_bytes());
        out.extend(bias.to_le_bytes());
        for r in raw {
            out.extend(r.to_le_bytes());
        }
        out
    };
    // Translation: unsigned, not halved; rotation: signed.
    let tx = linear(0.5, 10.0, &[0, 65535]);
    let rz = linear(0.001, 0.0, &[(-368i16) as u16, 100]);
    let mut constant = vec![1, 1];
    constant.extend(1u16.to_le_bytes());
    for v in [0.25f32, 1.0] {
        constant.extend(v.to_le_bytes());
    }
    constant.extend(8u32.to_le_bytes());
    let file = csab_file(5, 1, &[(0, tx), (5, rz), (7, constant)]);
    let animation = csab::parse(&file).unwrap();
    let node = &animation.nodes[0];
    let tx = node.translation[0].as_ref().unwrap();
    assert_eq!(
        [tx.sample(0.0), tx.sample(1.0)],
        [-10.0, 65535.0 * 0.5 - 10.0]
    );
    let rz = node.rotation[2].as_ref().unwrap();
    assert!(
        (rz.sample(0.0) + 0.368).abs() < 1e-6,
        "signed: {}",
        rz.sample(0.0)
    );
    assert_eq!(
        node.scale[1].as_ref().unwrap().sample(3.0),
        8.0 * 0.25 - 1.0
    );
}

#[test]
fn malformed_animations_are_one_error_each() {
    let err = |file: &[u8]| csab::parse(file).unwrap_err().to_string();
    let unordered = v3_track(1, &[&[5.0, 0.0], &[3.0, 1.0]]);
    let message = err(&csab_file(3, 10, &[(0, unordered)]));
    assert!(
        message.starts_with("track chunk at offset")
            && message.contains("key 1 at frame 3 follows frame 5"),
        "{message}"
    );
    let message = err(&csab_file(3, 10, &[(0, v3_track(7, &[&[0.0, 0.0]]))]));
    assert!(
        message.contains("track type 7, expected 1 (linear) or 2 (Hermite)"),
        "{message}"
    );
    let mut many = v3_track(1, &[&[0.0, 0.0]]);
    patch(&mut many, 4, 1_000_000);
    let message = err(&csab_file(3, 10, &[(0, many)]));
    assert!(
        message.contains("1000000 keys of 8 bytes do not fit"),
        "{message}"
    );
    let mut bone = csab_file(3, 10, &[]);
    let anod = bone.windows(4).position(|w| w == b"anod").unwrap();
    bone[anod + 4] = 3;
    assert!(err(&bone).contains("anod for bone 3, expected below the animation's 1 bones"));
}

// ---------------------------------------------------------------- jomc convert

fn convert(
    dir: &std::path::Path,
    model: &[u8],
    csabs: &[&[u8]],
) -> (std::process::Output, std::path::PathBuf) {
    convert_with(dir, model, csabs, &[])
}

/// `jomc convert` of `model` and `csabs` (written into `dir`) with `options`.
fn convert_with(
    dir: &std::path::Path,
    model: &[u8],
    csabs: &[&[u8]],
    options: &[&str],
) -> (std::process::Output, std::path::PathBuf) {
    let cmb = dir.join("fix.cmb");
    std::fs::write(&cmb, model).unwrap();
    let out = dir.join("FIX.JOM");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_jomc"));
    command
        .arg("convert")
        .arg(&cmb)
        .arg("-o")
        .arg(&out)
        .args(options);
    for (i, csab) in csabs.iter().enumerate() {
        let path = dir.join(format!("anim{i}.csab"));
        std::fs::write(&path, csab).unwrap();
        command.arg("--csab").arg(path);
    }
    (command.output().unwrap(), out)
}

#[test]
fn jomc_converts_a_cmb_and_its_csab_into_bones_groups_and_animations() {
    let dir = tempfile::tempdir().unwrap();
    let animation = csab_file(3, 4, &[(5, v3_track(1, &[&[0.0, 0.0], &[4.0, 1.0]]))]);
    let (run, out) = convert(dir.path(), &Fixture::triangle(15).write(), &[&animation]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = jom_write::AlignedBytes::new(&std::fs::read(&out).unwrap());
    let jom = jom::format::Model::from_bytes(bytes.bytes()).unwrap();
    assert_eq!(
        (jom.bones().len(), jom.groups().len(), jom.polygons().len()),
        (2, 1, 1)
    );
    // The triangle follows bone 1 (its group); bone 0 moves nothing.
    assert_eq!(
        (jom.bones()[0].group(), jom.bones()[1].group()),
        (None, Some(0))
    );
    assert_eq!(jom.groups()[0].name().as_str(), "bone1");
    let animations = jom.animations();
    let anim = animations.get(0).unwrap();
    // Frames 0 to 4 every 2 ticks (one key a frame).
    assert_eq!(
        (
            anim.record.name().as_str(),
            anim.record.key_count(),
            anim.record.key_ticks()
        ),
        ("anim0", 5, 2)
    );
    // Bone 0 turns a radian around Z over 4 frames: at tick 4 (frame 2) half a radian,
    // in the Saturn's axes the other way.
    let pose = jom::anim::pose_at(&anim, 2, 4);
    let expected = -(0.5f64.to_degrees() * 65536.0 / 360.0);
    assert!(
        (f64::from(pose.rotations[0][2].0) - expected).abs() < 2.0,
        "{:?}",
        pose.rotations[0]
    );
}

/// A model, its animations and words of the one error expected.
type BadInput = (Vec<u8>, Vec<Vec<u8>>, &'static str);

#[test]
fn jomc_refuses_bad_cmb_input_with_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut many = Fixture::triangle(6);
    many.bones = (0..33)
        .map(|i| (i - 1, [1.0; 3], [0.0; 3], [0.0; 3]))
        .collect();
    let bad_track = csab_file(3, 4, &[(0, v3_track(9, &[&[0.0, 0.0]]))]);
    let mut truncated = Fixture::triangle(10).write();
    truncated.truncate(0x60);
    let cases: [BadInput; 3] = [
        (
            many.write(),
            vec![],
            "the model has 33 bones, more than the 32 of a JOM skeleton",
        ),
        (
            Fixture::triangle(6).write(),
            vec![bad_track],
            "track type 9, expected 1 (linear) or 2 (Hermite)",
        ),
        (
            truncated,
            vec![],
            "2 bones of 44 bytes do not fit in the file's 96 bytes",
        ),
    ];
    for (model, csabs, words) in cases {
        let csabs: Vec<&[u8]> = csabs.iter().map(Vec::as_slice).collect();
        let (run, out) = convert(dir.path(), &model, &csabs);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("jomc: ") && stderr.contains(words),
            "{stderr}"
        );
        assert!(!out.exists(), "no output file");
    }
}

/// The triangle textured with an 8x8 RGBA8 texture of alpha 50 everywhere, UVs over it.
fn textured(culling: u8, alpha_test: Option<(u16, u8)>, blending: bool) -> Vec<u8> {
    let mut fixture = Fixture::triangle(6);
    fixture.culling = culling;
    fixture.alpha_test = alpha_test;
    fixture.blending = blending;
    let texels: Vec<u8> = (0..64).flat_map(|_| [50, 0x40, 0x80, 0xC0]).collect();
    fixture.texture = Some((pica::TextureFormat::Rgba8.code(), 8, 8, texels));
    fixture.uv = Some(Attr::array(0x1406, 1.0, vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0]));
    fixture.write()
}

/// The converted file's first material flags, polygon normals and transparent texels.
fn converted(
    dir: &std::path::Path,
    model: &[u8],
) -> (jom::format::MaterialFlags, Vec<[i32; 3]>, usize, usize) {
    let (run, out) = convert_embedded(dir, model);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = jom_write::AlignedBytes::new(&std::fs::read(out).unwrap());
    let jom = jom::format::Model::from_bytes(bytes.bytes()).unwrap();
    let flags = jom
        .materials()
        .first()
        .map(|m| m.flags())
        .unwrap_or_default();
    let normals = jom.polygons().iter().map(|p| p.normal().raw()).collect();
    let (mut transparent, mut all) = (0, 0);
    for texture in jom.textures().iter().flat_map(|t| t.iter()) {
        // Either form (--palette auto stores these few colours as 16): pixel 0 and
        // entry 0 are the transparent texel.
        let texels: Vec<u16> = match texture.pixels {
            jom::format::TexturePixels::Rgb555(pixels) => {
                pixels.iter().map(|p| p.get().0).collect()
            }
            jom::format::TexturePixels::Lut4 { lut, pixels } => pixels
                .iter()
                .flat_map(|&byte| [byte >> 4, byte & 15])
                .map(|i| lut[usize::from(i)].get().0)
                .collect(),
        };
        transparent += texels.iter().filter(|&&p| p == 0).count();
        all += texels.len();
    }
    (flags, normals, transparent, all)
}

fn convert_embedded(
    dir: &std::path::Path,
    model: &[u8],
) -> (std::process::Output, std::path::PathBuf) {
    let cmb = dir.join("tex.cmb");
    std::fs::write(&cmb, model).unwrap();
    let out = dir.join("TEX.JOM");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_jomc"))
        .arg("convert")
        .arg(&cmb)
        .arg("-o")
        .arg(&out)
        .arg("--embed-textures")
        .output()
        .unwrap();
    (run, out)
}

#[test]
fn alpha_test_blending_and_culling_become_transparent_texels_flags_and_winding() {
    use jom::format::MaterialFlags;
    let dir = tempfile::tempdir().unwrap();
    // No alpha test, no blending: the 3DS draws every texel whatever its alpha.
    let (flags, back_culled, transparent, all) = converted(dir.path(), &textured(1, None, false));
    assert_eq!(transparent, 0);
    assert!(!flags.contains(MaterialFlags::HALF_TRANSPARENT));
    assert!(all > 0);
    // Alpha test "greater than 40" passes alpha 50; "greater than 60" fails it.
    let (_, _, transparent, _) = converted(dir.path(), &textured(1, Some((0x204, 40)), false));
    assert_eq!(transparent, 0);
    let (_, _, transparent, all) = converted(dir.path(), &textured(1, Some((0x204, 60)), false));
    assert_eq!(transparent, all);
    // Blending keeps alpha (50: transparent) and makes the material half transparent.
    let (flags, _, transparent, all) = converted(dir.path(), &textured(1, None, true));
    assert_eq!(transparent, all);
    assert!(flags.contains(MaterialFlags::HALF_TRANSPARENT));
    // No culling: dual plane. Front faces culled: the triangle turned round.
    let (flags, _, _, _) = converted(dir.path(), &textured(3, None, false));
    assert!(flags.contains(MaterialFlags::DUAL_PLANE));
    let (_, front_culled, _, _) = converted(dir.path(), &textured(2, None, false));
    assert_eq!(front_culled[0], back_culled[0].map(|c| -c));
    // Both faces culled: nothing to draw, said in a warning.
    let (run, _) = convert_embedded(dir.path(), &textured(0, None, false));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("1 triangles of materials that cull both faces are left out"),
        "{stderr}"
    );
}

#[test]
fn keys_are_sampled_every_key_ticks_up_to_the_last_frame_or_before_it_when_looping() {
    let dir = tempfile::tempdir().unwrap();
    let track = v3_track(1, &[&[0.0, 0.0], &[4.0, 1.0]]);
    let once = csab_file(3, 4, &[(5, track.clone())]);
    let mut looping = once.clone();
    // The loop word follows the duration (anim + 0x14; the animation starts at 0x18).
    patch(&mut looping, 0x18 + 0x14, 1);
    let keys = |csab: &[u8], options: &[&str]| {
        let (run, out) = convert_with(dir.path(), &Fixture::triangle(6).write(), &[csab], options);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let bytes = jom_write::AlignedBytes::new(&std::fs::read(out).unwrap());
        let jom = jom::format::Model::from_bytes(bytes.bytes()).unwrap();
        let animation = jom.animations().get(0).unwrap();
        (
            animation.record.key_count(),
            animation.record.key_ticks(),
            animation.record.is_looped(),
        )
    };
    // Frames 0 to 4 are ticks 0 to 8.
    assert_eq!(keys(&once, &[]), (5, 2, false));
    assert_eq!(
        keys(&once, &["--key-ticks", "3"]),
        (3, 3, false),
        "ticks 0, 3, 6"
    );
    assert_eq!(keys(&looping, &[]), (4, 2, true), "tick 8 is tick 0 again");
    let (run, _) = convert_with(
        dir.path(),
        &Fixture::triangle(6).write(),
        &[&once],
        &["--key-ticks", "0"],
    );
    assert_eq!(run.status.code(), Some(2), "a usage error");
}

/// Two triangles sharing an edge, (0 1 2) and (2 1 3), vertices 0 and 1 on bone 1 (at
/// +10 X), 2 and 3 on bone 2 (at +20 Y): rigid (mode 1, bone-local positions) or smooth
/// (mode 2, model space, vertices 1 and 2 weighed between the bones).
fn strip_over_two_bones(skinning: u16) -> Fixture {
    let mut fixture = Fixture::triangle(6);
    fixture
        .bones
        .push((0, [1.0; 3], [0.0; 3], [0.0, 20.0, 0.0]));
    let model_space = [
        [10.0, 0.0, 0.0],
        [10.0, 1.0, 0.0],
        [11.0, 0.0, 0.0],
        [11.0, 1.0, 0.0],
    ];
    let stored: Vec<f64> = model_space
        .iter()
        .enumerate()
        .flat_map(|(v, p)| {
            let bone_origin = match (skinning, v) {
                (2, _) => [0.0; 3],
                (_, 0 | 1) => [10.0, 0.0, 0.0],
                _ => [0.0, 20.0, 0.0],
            };
            [0, 1, 2].map(|k| p[k] - bone_origin[k])
        })
        .collect();
    fixture.position = Attr::array(0x1406, 1.0, stored);
    fixture.sets = vec![Set {
        skinning,
        bone_table: vec![1, 2],
        indices: vec![0, 1, 2, 2, 1, 3],
        index_type: 0x1403,
    }];
    if skinning == 2 {
        fixture.bones_per_vertex = 2;
        fixture.bone_indices = Some(Attr::array(
            0x1401,
            1.0,
            vec![0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0],
        ));
        fixture.bone_weights = Some(Attr::array(
            0x1401,
            0.01,
            vec![100.0, 0.0, 60.0, 40.0, 70.0, 30.0, 100.0, 0.0],
        ));
    } else {
        fixture.bone_indices = Some(Attr::array(0x1401, 1.0, vec![0.0, 0.0, 1.0, 1.0]));
    }
    fixture
}

#[test]
fn triangles_over_two_bones_stay_joined_each_point_moving_with_its_own_bone() {
    let dir = tempfile::tempdir().unwrap();
    // Bone 2 turns half a radian around Z over 4 frames.
    let turn = csab_of_bone(
        3,
        4,
        (2, 3),
        &[(5, v3_track(1, &[&[0.0, 0.0], &[4.0, 0.5]]))],
    );
    for skinning in [1, 2] {
        let file = strip_over_two_bones(skinning).write();
        let (run, out) = convert_with(dir.path(), &file, &[&turn], &["--keep-triangles"]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let bytes = jom_write::AlignedBytes::new(&std::fs::read(&out).unwrap());
        let jom = jom::format::Model::from_bytes(bytes.bytes()).unwrap();
        // Four points, not six: the shared edge's two points are used by both triangles.
        assert_eq!(
            (jom.points().len(), jom.polygons().len()),
            (4, 2),
            "mode {skinning}"
        );
        let corners = |p: usize| {
            let [a, b, c, _] = jom.polygons()[p].corners();
            [a, b, c]
        };
        let shared = corners(0).iter().filter(|c| corners(1).contains(c)).count();
        assert_eq!(shared, 2, "mode {skinning}: the triangles share an edge");
        // Each point is in its vertex's bone's group, which that bone moves.
        let cmb = model::parse(&file).unwrap();
        let cmb_point = |p: usize| {
            let [x, y, z] = jom.points()[p].raw().map(|c| f64::from(c) / 65536.0);
            [x, -y, -z]
        };
        let animation = jom.animations().get(0).unwrap();
        let pose = jom::anim::pose_at(&animation, jom.bones().len(), 8);
        let mut matrices = [jom::math::Matrix::IDENTITY; jom::format::MAX_BONES];
        jom::anim::bone_matrices(&jom, &pose, &mut matrices);
        let csab = csab::parse(&turn).unwrap();
        let posed = rest::posed_matrices(&cmb, &csab, 4.0);
        let rest_matrices = rest::rest_matrices(&cmb);
        for p in 0..4 {
            let rest_point = cmb_point(p);
            let bone = if rest_point[0] < 10.5 { 1 } else { 2 };
            let group = jom.bones()[bone].group().expect("the bone moves a group");
            assert!(
                jom.groups()[usize::from(group)].points().contains(&p),
                "mode {skinning}: point {p} at {rest_point:?} is bone {bone}'s"
            );
            let skinning_matrix =
                rest::compose(&posed[bone], &rest::inverse(&rest_matrices[bone]).unwrap());
            let expected = rest::apply(&skinning_matrix, rest_point);
            if bone == 2 {
                assert!(
                    !close_within(expected, rest_point, 1.0),
                    "the turn moves bone 2's points"
                );
            }
            let raw = matrices[bone].apply(jom.points()[p].raw());
            let [x, y, z] = raw.map(|c| f64::from(c) / 65536.0);
            let ours = [x, -y, -z];
            assert!(
                close_within(ours, expected, 1e-3),
                "mode {skinning}: point {p} posed at {ours:?}, expected {expected:?}"
            );
        }
    }
}

fn close_within(a: [f64; 3], b: [f64; 3], tolerance: f64) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() < tolerance)
}
