//! A small writer of TMD, TOD and TIM files for the tests, laid out as Sony's File Formats
//! manual draws them (item by item, little endian). Shared by the tests of `psx-formats`
//! and of `jomc` (included by path).
#![allow(
    dead_code,
    reason = "shared by the tests of two crates, each using a part of it"
)]

fn words(out: &mut Vec<u8>, values: &[u32]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

fn halves(out: &mut Vec<u8>, values: &[u16]) {
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// A TMD polygon as the manual's packet tables list its items.
#[derive(Clone, Default)]
pub struct Polygon {
    pub mode: u8,
    pub flag: u8,
    /// V0 V1 V2 (V3).
    pub vertices: Vec<u16>,
    /// N0, or N0 N1 N2 (N3) for gouraud; none without light.
    pub normals: Vec<u16>,
    pub colors: Vec<[u8; 3]>,
    /// With `cba` and `tsb`, when textured.
    pub uvs: Vec<[u8; 2]>,
    pub cba: u16,
    pub tsb: u16,
}

impl Polygon {
    /// The packet: header (olen, ilen, flag, mode), then u-v words, colour words, and the
    /// normal and vertex indices (interleaved N V for gouraud, N0 then the vertices for
    /// flat, the vertices alone without light), two to a word, padded with 0.
    pub fn packet(&self) -> Vec<u8> {
        let mut data = Vec::new();
        for (i, uv) in self.uvs.iter().enumerate() {
            let extra = match i {
                0 => self.cba,
                1 => self.tsb,
                _ => 0,
            };
            data.extend_from_slice(&[uv[0], uv[1]]);
            halves(&mut data, &[extra]);
        }
        for (i, c) in self.colors.iter().enumerate() {
            let last = if i == 0 { self.mode } else { 0 };
            data.extend_from_slice(&[c[0], c[1], c[2], last]);
        }
        let mut indices = Vec::new();
        if self.normals.len() == self.vertices.len() {
            for (n, v) in self.normals.iter().zip(&self.vertices) {
                indices.extend([*n, *v]);
            }
        } else {
            indices.extend(&self.normals);
            indices.extend(&self.vertices);
        }
        if indices.len() % 2 == 1 {
            indices.push(0);
        }
        halves(&mut data, &indices);
        let mut out = vec![0x07, (data.len() / 4) as u8, self.flag, self.mode];
        out.extend(data);
        out
    }
}

/// A packet with any header and `ilen` words of data (for lines, sprites, bad lengths).
pub fn raw_primitive(ilen: u8, flag: u8, mode: u8, data: &[u32]) -> Vec<u8> {
    let mut out = vec![0x04, ilen, flag, mode];
    words(&mut out, data);
    out
}

/// A TMD object: vertices, normals, encoded primitives, the scale word.
#[derive(Clone, Default)]
pub struct Object {
    pub vertices: Vec<[i16; 3]>,
    pub normals: Vec<[i16; 3]>,
    pub primitives: Vec<Vec<u8>>,
    pub scale: i32,
}

/// A TMD file: header, object table, then each object's primitives, vertices, normals.
pub fn tmd(objects: &[Object]) -> Vec<u8> {
    let table = 28 * objects.len();
    let mut body = Vec::new();
    let mut entries = Vec::new();
    for object in objects {
        let primitive_top = table + body.len();
        for p in &object.primitives {
            body.extend(p);
        }
        let vertex_top = table + body.len();
        for v in &object.vertices {
            halves(&mut body, &[v[0] as u16, v[1] as u16, v[2] as u16, 0]);
        }
        let normal_top = table + body.len();
        for n in &object.normals {
            halves(&mut body, &[n[0] as u16, n[1] as u16, n[2] as u16, 0]);
        }
        entries.push([
            vertex_top as u32,
            object.vertices.len() as u32,
            normal_top as u32,
            object.normals.len() as u32,
            primitive_top as u32,
            object.primitives.len() as u32,
            object.scale as u32,
        ]);
    }
    let mut out = Vec::new();
    words(&mut out, &[0x41, 0, objects.len() as u32]);
    for e in &entries {
        words(&mut out, e);
    }
    out.extend(body);
    out
}

/// TOD packets.
pub mod packet {
    fn header(object: u16, kind: u32, flag: u32, length: u32) -> Vec<u8> {
        (u32::from(object) | kind << 16 | flag << 20 | length << 24)
            .to_le_bytes()
            .to_vec()
    }

    fn with(mut head: Vec<u8>, data: &[u32]) -> Vec<u8> {
        for d in data {
            head.extend_from_slice(&d.to_le_bytes());
        }
        head
    }

    pub fn create(object: u16) -> Vec<u8> {
        header(object, 8, 0, 1)
    }

    pub fn kill(object: u16) -> Vec<u8> {
        header(object, 8, 1, 1)
    }

    pub fn tmd_id(object: u16, id: u16) -> Vec<u8> {
        with(header(object, 2, 0, 2), &[u32::from(id)])
    }

    pub fn parent(object: u16, parent: u16) -> Vec<u8> {
        with(header(object, 3, 0, 2), &[u32::from(parent)])
    }

    pub fn attribute(object: u16, mask: u32, value: u32) -> Vec<u8> {
        with(header(object, 0, 0, 3), &[mask, value])
    }

    /// A light packet with a direction and a colour (flag 0110).
    pub fn light(object: u16) -> Vec<u8> {
        with(header(object, 6, 6, 5), &[0, 4096, 0, 0x00ff_ffff])
    }

    /// A camera packet of type 1 with rotation and translation (flag 1101).
    pub fn camera(object: u16) -> Vec<u8> {
        with(header(object, 7, 0b1101, 7), &[0, 0, 0, 0, 0, 1000])
    }

    /// Rotation (degrees x 4096), scale (4096 = 1), translation, each optional.
    pub fn rst(
        object: u16,
        differential: bool,
        rotation: Option<[i32; 3]>,
        scale: Option<[i16; 3]>,
        translation: Option<[i32; 3]>,
    ) -> Vec<u8> {
        let mut data = Vec::new();
        let mut flag = u32::from(differential);
        if let Some(r) = rotation {
            flag |= 2;
            data.extend(r.map(|v| v as u32));
        }
        if let Some(s) = scale {
            flag |= 4;
            data.push(u32::from(s[0] as u16) | u32::from(s[1] as u16) << 16);
            data.push(u32::from(s[2] as u16));
        }
        if let Some(t) = translation {
            flag |= 8;
            data.extend(t.map(|v| v as u32));
        }
        with(header(object, 1, flag, 1 + data.len() as u32), &data)
    }

    /// A matrix packet: m (4.12, rows), pad, t.
    pub fn matrix(object: u16, m: [[i16; 3]; 3], t: [i32; 3]) -> Vec<u8> {
        let mut out = header(object, 4, 0, 9);
        for v in m.iter().flatten() {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&[0, 0]);
        for v in t {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }
}

/// A TOD file: header (ID 0x50, version 0, resolution, frame count), then each frame's
/// header (size in words, packet count, number) and packets.
pub fn tod(resolution: u16, frames: &[(u32, Vec<Vec<u8>>)]) -> Vec<u8> {
    let mut out = vec![0x50, 0];
    out.extend_from_slice(&resolution.to_le_bytes());
    out.extend_from_slice(&(frames.len() as u32).to_le_bytes());
    for (number, packets) in frames {
        let size: usize = 8 + packets.iter().map(Vec::len).sum::<usize>();
        halves(&mut out, &[(size / 4) as u16, packets.len() as u16]);
        words(&mut out, &[*number]);
        for p in packets {
            out.extend(p);
        }
    }
    out
}

/// A TIM block: frame-buffer position and size in words, the words.
pub struct Block<'a> {
    pub x: u16,
    pub y: u16,
    pub width: u16,
    pub height: u16,
    pub words: &'a [u16],
}

fn block(out: &mut Vec<u8>, b: &Block<'_>) {
    words(out, &[12 + 2 * b.words.len() as u32]);
    halves(out, &[b.x, b.y, b.width, b.height]);
    halves(out, b.words);
}

/// A TIM file: ID 0x10, flags (pixel mode, CF when a lookup table is given), the blocks.
pub fn tim(pixel_mode: u32, clut: Option<&Block<'_>>, image: &Block<'_>) -> Vec<u8> {
    let mut out = Vec::new();
    words(
        &mut out,
        &[0x10, pixel_mode | if clut.is_some() { 8 } else { 0 }],
    );
    if let Some(c) = clut {
        block(&mut out, c);
    }
    block(&mut out, image);
    out
}
