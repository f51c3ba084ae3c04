//! Plays TOD files the way libgs does, into each object's world matrix at every frame.
//!
//! Each object holds a rotation R (in 1/4096 turns: the file's degrees x 4096 divided by
//! 360), a scale S (4096 = 1) and a translation T. Its matrix is RotMatrix(R) = Rx * Ry * Rz
//! (Z applied first) with its columns scaled by S / 4096, translated by T; an absolute
//! coordinate packet sets the values it holds, a differential one adds R and T and
//! multiplies S (S * dS / 4096), and a matrix packet sets the matrix itself (until the next
//! coordinate packet rebuilds it from R, S and T). The world matrix is the parent's world
//! matrix times the object's (parent 0 or 0xFFFF: none). Object-control packets create and
//! kill objects; a TMD-ID packet links an object to TMD object ID - 1. Attribute, light,
//! camera and special packets change no matrix: they are counted in [`Player::ignored`].
//! Several TODs played one after another share the objects: a later TOD continues what the
//! earlier ones made.

use crate::tod::{Body, Coordinate, Frame, Tod};
use crate::Error;
use std::collections::BTreeMap;

/// A 3 x 4 affine matrix, row major, column 3 the translation.
pub type Affine = [[f64; 4]; 3];

/// The identity.
pub const IDENTITY: Affine = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// `a * b`: `b` applied first.
pub fn multiply(a: &Affine, b: &Affine) -> Affine {
    let mut out = [[0.0; 4]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = (0..3).map(|k| a[r][k] * b[k][c]).sum::<f64>();
        }
        row[3] += a[r][3];
    }
    out
}

/// `m` applied to point `p`.
pub fn transform(m: &Affine, p: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3])
}

/// The inverse of an invertible affine matrix (None when singular).
pub fn invert(m: &Affine) -> Option<Affine> {
    let a = |r: usize, c: usize| m[r][c];
    let cofactor =
        |r0: usize, r1: usize, c0: usize, c1: usize| a(r0, c0) * a(r1, c1) - a(r0, c1) * a(r1, c0);
    let det = a(0, 0) * cofactor(1, 2, 1, 2) - a(0, 1) * cofactor(1, 2, 0, 2)
        + a(0, 2) * cofactor(1, 2, 0, 1);
    if det.abs() < 1e-12 || !det.is_finite() {
        return None;
    }
    let inv = [
        [
            cofactor(1, 2, 1, 2),
            -cofactor(0, 2, 1, 2),
            cofactor(0, 1, 1, 2),
        ],
        [
            -cofactor(1, 2, 0, 2),
            cofactor(0, 2, 0, 2),
            -cofactor(0, 1, 0, 2),
        ],
        [
            cofactor(1, 2, 0, 1),
            -cofactor(0, 2, 0, 1),
            cofactor(0, 1, 0, 1),
        ],
    ]
    .map(|row| row.map(|v| v / det));
    let t = [m[0][3], m[1][3], m[2][3]];
    let mut out = [[0.0; 4]; 3];
    for r in 0..3 {
        out[r][..3].copy_from_slice(&inv[r]);
        out[r][3] = -(inv[r][0] * t[0] + inv[r][1] * t[1] + inv[r][2] * t[2]);
    }
    Some(out)
}

/// RotMatrix: Rx * Ry * Rz for angles in 1/4096 turns.
pub fn rot_matrix(rotation: [i32; 3]) -> [[f64; 3]; 3] {
    let [(sx, cx), (sy, cy), (sz, cz)] =
        rotation.map(|a| (f64::from(a) * std::f64::consts::TAU / 4096.0).sin_cos());
    let rx = [[1.0, 0.0, 0.0], [0.0, cx, -sx], [0.0, sx, cx]];
    let ry = [[cy, 0.0, sy], [0.0, 1.0, 0.0], [-sy, 0.0, cy]];
    let rz = [[cz, -sz, 0.0], [sz, cz, 0.0], [0.0, 0.0, 1.0]];
    let mul = |a: [[f64; 3]; 3], b: [[f64; 3]; 3]| {
        [0, 1, 2].map(|r| [0, 1, 2].map(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum::<f64>()))
    };
    mul(mul(rx, ry), rz)
}

/// An object's TMD object: its index (the TMD-ID packet's value - 1) and the byte offset
/// of that packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TmdLink {
    pub index: usize,
    pub packet: usize,
}

/// An object of the animation as the player holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// The TMD object it draws.
    pub tmd: Option<TmdLink>,
    /// The parent object and the parent packet's byte offset.
    pub parent: Option<(u16, usize)>,
    /// 1/4096 turns around X, Y, Z.
    pub rotation: [i32; 3],
    /// 4096 = 1.
    pub scale: [i32; 3],
    pub translation: [i32; 3],
    /// The object's matrix in its parent's space.
    pub local: Affine,
    /// Byte offset of the packet that created it.
    pub created: usize,
}

impl Object {
    fn new(created: usize) -> Self {
        Self {
            tmd: None,
            parent: None,
            rotation: [0; 3],
            scale: [4096; 3],
            translation: [0; 3],
            local: IDENTITY,
            created,
        }
    }

    fn rebuild(&mut self) {
        let r = rot_matrix(self.rotation);
        for (row, r_row) in self.local.iter_mut().zip(r) {
            for c in 0..3 {
                row[c] = r_row[c] * f64::from(self.scale[c]) / 4096.0;
            }
        }
        for (row, t) in self.local.iter_mut().zip(self.translation) {
            row[3] = f64::from(t);
        }
    }

    fn apply(&mut self, c: &Coordinate) {
        if let Some(r) = c.rotation {
            let turns = r.map(|degrees| degrees / 360);
            for (own, add) in self.rotation.iter_mut().zip(turns) {
                *own = if c.differential {
                    own.wrapping_add(add)
                } else {
                    add
                };
            }
        }
        if let Some(s) = c.scale {
            for (own, factor) in self.scale.iter_mut().zip(s) {
                *own = if c.differential {
                    (i64::from(*own) * i64::from(factor) / 4096) as i32
                } else {
                    i32::from(factor)
                };
            }
        }
        if let Some(t) = c.translation {
            for (own, add) in self.translation.iter_mut().zip(t) {
                *own = if c.differential {
                    own.wrapping_add(add)
                } else {
                    add
                };
            }
        }
        self.rebuild();
    }
}

/// An object posed at one frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Posed {
    /// The TMD object it draws.
    pub tmd: Option<TmdLink>,
    pub parent: Option<u16>,
    /// Its world matrix (the parents' matrices applied).
    pub world: Affine,
}

/// Every object at one frame, by object ID.
pub type Pose = BTreeMap<u16, Posed>;

/// The player: the objects made so far, by ID.
#[derive(Default)]
pub struct Player {
    objects: BTreeMap<u16, Object>,
    /// IDs in the order they were first created.
    order: Vec<u16>,
    /// Attribute, light, camera and special packets read past.
    pub ignored: usize,
}

impl Player {
    pub fn new() -> Self {
        Self::default()
    }

    /// The live objects, by ID.
    pub fn objects(&self) -> &BTreeMap<u16, Object> {
        &self.objects
    }

    /// Every ID ever created, in the order of first creation.
    pub fn creation_order(&self) -> &[u16] {
        &self.order
    }

    /// Plays `tod` after what was played before: the pose after each of its frames, with
    /// the frame's number (a number the file skips is a frame where nothing changes).
    pub fn play(&mut self, tod: &Tod) -> Result<Vec<(u32, Pose)>, Error> {
        tod.frames
            .iter()
            .map(|frame| {
                self.apply(frame)?;
                Ok((frame.number, self.pose()?))
            })
            .collect()
    }

    /// Applies a frame's packets in order.
    pub fn apply(&mut self, frame: &Frame) -> Result<(), Error> {
        for packet in &frame.packets {
            let id = packet.object;
            let missing = || {
                Error::at(
                    packet.offset,
                    format!(
                        "a packet for object {id}, which no object-control packet has created \
                         (in this TOD or an earlier one played before it)"
                    ),
                )
            };
            match &packet.body {
                Body::Create => {
                    if self.objects.contains_key(&id) {
                        return Err(Error::at(
                            packet.offset,
                            format!(
                                "object {id} is created while it exists, expected it killed first"
                            ),
                        ));
                    }
                    self.objects.insert(id, Object::new(packet.offset));
                    if !self.order.contains(&id) {
                        self.order.push(id);
                    }
                }
                Body::Kill => {
                    self.objects.remove(&id).ok_or_else(missing)?;
                }
                Body::Attribute { .. } => {
                    self.objects.get(&id).ok_or_else(missing)?;
                    self.ignored += 1;
                }
                // Light and camera IDs are not object IDs.
                Body::Light | Body::Camera | Body::Special => self.ignored += 1,
                Body::Coordinate(c) => self.objects.get_mut(&id).ok_or_else(missing)?.apply(c),
                Body::TmdId(tmd_id) => {
                    let object = self.objects.get_mut(&id).ok_or_else(missing)?;
                    let index = usize::from(*tmd_id).checked_sub(1).ok_or_else(|| {
                        Error::at(
                            packet.offset + 4,
                            format!("object {id}: TMD ID 0, expected 1 or more (1 is the TMD's first object)"),
                        )
                    })?;
                    object.tmd = Some(TmdLink {
                        index,
                        packet: packet.offset,
                    });
                }
                Body::Parent(parent) => {
                    let object = self.objects.get_mut(&id).ok_or_else(missing)?;
                    object.parent = match *parent {
                        0 | 0xFFFF => None,
                        p => Some((p, packet.offset)),
                    };
                }
                Body::Matrix(m) => {
                    let object = self.objects.get_mut(&id).ok_or_else(missing)?;
                    for (r, row) in object.local.iter_mut().enumerate() {
                        for (c, cell) in row.iter_mut().take(3).enumerate() {
                            *cell = f64::from(m.m[r][c]) / 4096.0;
                        }
                        row[3] = f64::from(m.t[r]);
                    }
                }
            }
        }
        Ok(())
    }

    /// Every live object's world matrix, each object's parents computed once.
    pub fn pose(&self) -> Result<Pose, Error> {
        let mut worlds: BTreeMap<u16, Affine> = BTreeMap::new();
        for &id in self.objects.keys() {
            // Up the chain to an object already placed (or a root), then back down.
            let mut chain = vec![id];
            let mut on_chain = std::collections::BTreeSet::from([id]);
            let mut base = IDENTITY;
            loop {
                let current = chain[chain.len() - 1];
                let Some((parent, offset)) = self.objects[&current].parent else {
                    break;
                };
                if let Some(world) = worlds.get(&parent) {
                    base = *world;
                    break;
                }
                if !self.objects.contains_key(&parent) {
                    return Err(Error::at(
                        offset,
                        format!(
                            "object {current}'s parent {parent} does not exist (never created, \
                             or killed)"
                        ),
                    ));
                }
                if !on_chain.insert(parent) {
                    return Err(Error::at(
                        offset,
                        format!(
                            "object {current}'s parents form a cycle through object {parent}, \
                             expected a chain ending at parent 0 or 0xFFFF"
                        ),
                    ));
                }
                chain.push(parent);
            }
            for &object in chain.iter().rev() {
                base = multiply(&base, &self.objects[&object].local);
                worlds.insert(object, base);
            }
        }
        Ok(self
            .objects
            .iter()
            .map(|(&id, object)| {
                let posed = Posed {
                    tmd: object.tmd,
                    parent: object.parent.map(|(p, _)| p),
                    world: worlds[&id],
                };
                (id, posed)
            })
            .collect())
    }
}
