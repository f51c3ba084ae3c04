//! Light and gouraud colours: the light level of a face or of each corner (its normals), how
//! a polygon is shaded (`Shading`: flat, its GOUR table, a table of the frame), the frame's
//! gouraud colours and the material colour darkened.

use crate::format::{Material, MaterialFlags, Model, MAX_BONES};
use crate::math::{dot, mul, Matrix, Vec3, ONE};
use crate::render::draw::ModelVram;
use crate::render::transforms::Transforms;
use crate::vdp1::GouraudTable;

/// How the light falls on a polygon: one level (Q16.16, 0 to 1) for the face, or one per
/// corner from the corner normals (NTAB, CNRM).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lighting {
    Flat(i32),
    Corners([i32; 4]),
}

/// The NTAB normals of the corners of polygon `index`, when the model has them.
pub(crate) fn corner_normals(model: &Model<'_>, index: usize) -> Option<[Vec3; 4]> {
    let (normals, corners) = (model.normals()?, model.corner_normals()?);
    let corners = corners.get(4 * index..4 * index + 4)?;
    let mut out = [[0; 3]; 4];
    for (normal, corner) in out.iter_mut().zip(corners) {
        *normal = normals.get(usize::from(corner.get()))?.raw();
    }
    Some(out)
}

/// Where the gouraud colours of a polygon come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Shading {
    /// None: a flat polygon (a colour in flat light is darkened in the colour itself).
    Flat,
    /// Its GOUR table, in VRAM with the model (gouraud, not lit).
    Model,
    /// One colour at every corner, in a table of the frame: a texture in flat light.
    Uniform,
    /// A colour per corner, in a table of the frame: the GOUR colours (`gour`) or neutral
    /// ones, darkened by the light of the face or of each corner's normal.
    Lit {
        /// From the GOUR colours.
        gour: bool,
    },
}

impl Shading {
    /// How polygon `index` of `material` is shaded in a frame with or without light.
    pub(crate) fn of(
        model: &Model<'_>,
        resources: &ModelVram<'_>,
        index: usize,
        material: &Material,
        lit_frame: bool,
    ) -> Self {
        let flags = material.flags();
        let gour = flags.contains(MaterialFlags::GOURAUD)
            && resources.gouraud.get(index).is_some_and(|&t| t != 0);
        let lit = lit_frame && flags.contains(MaterialFlags::LIGHT);
        match (gour, lit) {
            (true, false) => Self::Model,
            (_, true) if gour || corner_normals(model, index).is_some() => Self::Lit { gour },
            (false, true) if material.texture().is_some() => Self::Uniform,
            _ => Self::Flat,
        }
    }

    /// The gouraud tables of the frame a polygon shaded so takes, whole or in 4 parts
    /// (each part its share of the whole polygon's colours).
    pub(crate) fn frame_tables(self, in_parts: bool) -> usize {
        match (self, in_parts) {
            (Self::Flat, _) | (Self::Model, false) => 0,
            (Self::Uniform, _) | (Self::Lit { .. }, false) => 1,
            (Self::Model | Self::Lit { .. }, true) => 4,
        }
    }
}

/// Channel 16 on every channel: a gouraud colour that leaves a pixel as it is.
pub(crate) const NEUTRAL: u16 = 0x8000 | 16 << 10 | 16 << 5 | 16;

/// The gouraud colours of polygon `index` shaded as `shading` says: its GOUR colours (or
/// neutral ones), darkened by the light of each corner (corner normals) or of the face.
pub(crate) fn gouraud_colors(
    model: &Model<'_>,
    index: usize,
    shading: Shading,
    lighting: Option<Lighting>,
) -> GouraudTable {
    let gour = model
        .gouraud()
        .and_then(|g| g.get(4 * index..4 * index + 4))
        .filter(|_| matches!(shading, Shading::Model | Shading::Lit { gour: true }));
    let colors = GouraudTable(core::array::from_fn(|i| {
        gour.map_or(NEUTRAL, |c| c[i].get().0)
    }));
    match lighting {
        Some(Lighting::Corners(levels)) => scale_gouraud(colors, levels),
        Some(Lighting::Flat(level)) if shading == Shading::Uniform => {
            GouraudTable::uniform(((16 * level) >> 16) as u16)
        }
        Some(Lighting::Flat(level)) => scale_gouraud(colors, [level; 4]),
        None => colors,
    }
}

/// The light a face gets: the ambient part plus the rest times the cosine between its
/// normal and the light coming at it (Q16.16, 0 to 1).
pub(crate) fn light_level(normal: Vec3, direction: Vec3, ambient: i32) -> i32 {
    let facing = (-dot(normal, direction)).clamp(0, ONE);
    (ambient + mul(ONE - ambient, facing)).clamp(0, ONE)
}

/// A material colour (8 bits a channel) as RGB555, darkened by a light level.
pub(crate) fn rgb555(color: [u8; 3], level: Option<i32>) -> u16 {
    let [r, g, b] = color.map(|c| {
        let c = u16::from(c >> 3);
        level.map_or(c, |l| ((i32::from(c) * l) >> 16) as u16)
    });
    0x8000 | b << 10 | g << 5 | r
}

/// Gouraud colours darkened by the light level of each corner.
pub(crate) fn scale_gouraud(table: GouraudTable, levels: [i32; 4]) -> GouraudTable {
    GouraudTable(core::array::from_fn(|corner| {
        let (c, level) = (table.0[corner], levels[corner]);
        let channel = |shift: u16| ((((i32::from(c >> shift) & 31) * level) >> 16) as u16) << shift;
        0x8000 | channel(10) | channel(5) | channel(0)
    }))
}

/// The runs of polygons of one matrix a draw can have: one a bone and the gaps between.
const MAX_RUNS: usize = 2 * MAX_BONES + 1;

/// The frame's light as the polygons of one draw see it: its direction brought once into
/// the model space of each of the draw's matrices (`Rᵀ d` for a matrix `R`, since
/// `dot(R n, d) = dot(n, Rᵀ d)`), so that a corner's light is one dot product with its
/// model-space normal, no normal turned into camera space. Matrices that stretch (a BMOT
/// scale) have none: their normals go through their cofactors (`emit`).
pub(crate) struct ModelLight {
    /// The direction in camera space and the ambient part; `None`: the frame has no light.
    pub(crate) view: Option<(Vec3, i32)>,
    /// Where each run of polygons of one matrix ends, in polygon order.
    pub(crate) ends: [u32; MAX_RUNS],
    /// Each run's light in its matrix's model space.
    pub(crate) lights: [RunLight; MAX_RUNS],
    /// How many runs the draw has.
    pub(crate) runs: usize,
}

/// The light of one run of polygons in its matrix's model space, as the assembly reads it
/// (`emit_lit_job.inc`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunLight {
    pub(crate) direction: Vec3,
    /// 1: `direction` holds; 0: the matrix stretches (its normals go through `emit`).
    pub(crate) usable: u32,
}

const _: () = assert!(core::mem::size_of::<RunLight>() == 16);
const _: () = assert!(core::mem::offset_of!(RunLight, direction) == 0);
const _: () = assert!(core::mem::offset_of!(RunLight, usable) == 12);

impl RunLight {
    const NONE: Self = Self {
        direction: [0; 3],
        usable: 0,
    };
}

impl ModelLight {
    /// No light (all zero).
    pub(crate) const NONE: Self = Self {
        view: None,
        ends: [0; MAX_RUNS],
        lights: [RunLight::NONE; MAX_RUNS],
        runs: 0,
    };

    /// The light `view` (camera space, with its ambient part) for the polygons of `model`
    /// drawn with `transforms`.
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn of(
        model: &Model<'_>,
        transforms: &Transforms,
        view: Option<(Vec3, i32)>,
    ) -> Self {
        let mut light = Self::NONE;
        light.set(model, transforms, view);
        light
    }

    /// [`of`](Self::of), in place (a draw's slot).
    pub(crate) fn set(
        &mut self,
        model: &Model<'_>,
        transforms: &Transforms,
        view: Option<(Vec3, i32)>,
    ) {
        self.view = view;
        self.runs = 0;
        let Some((direction, _)) = view else {
            return;
        };
        let runs = transforms.polygon_runs(model.polygons().len());
        for ((range, matrix), (end, out)) in runs.zip(self.ends.iter_mut().zip(&mut self.lights)) {
            *end = range.end as u32;
            *out = match transforms.is_stretched(matrix) {
                true => RunLight::NONE,
                false => RunLight {
                    direction: transposed_rotate(&transforms.matrices[matrix], direction),
                    usable: 1,
                },
            };
            self.runs += 1;
        }
    }

    /// The ambient part of the light, when the frame has one.
    pub(crate) fn ambient(&self) -> Option<i32> {
        self.view.map(|(_, ambient)| ambient)
    }

    /// The light's direction in the model space of polygon `index`'s matrix; `None` when
    /// the frame has no light or that matrix stretches.
    #[inline(always)]
    pub(crate) fn direction(&self, index: usize) -> Option<&Vec3> {
        let ends = &self.ends[..self.runs];
        let run = ends.partition_point(|&end| end as usize <= index);
        let light = self.lights[..self.runs].get(run)?;
        (light.usable != 0).then_some(&light.direction)
    }
}

/// `Rᵀ v` for the linear part `R` of `matrix`.
fn transposed_rotate(matrix: &Matrix, v: Vec3) -> Vec3 {
    let m = &matrix.0;
    core::array::from_fn(|j| dot([m[0][j], m[1][j], m[2][j]], v))
}

/// The gouraud colour of a corner in light `level` (Q16.16, 0 to 1) with no colour of its
/// own: channel 16 (a pixel as it is) times the level on every channel, what
/// [`scale_gouraud`] makes of [`NEUTRAL`] and [`GouraudTable::uniform`] of the level.
#[inline(always)]
pub(crate) fn neutral_lit(level: i32) -> u16 {
    // Unsigned (the level is 0 to 1): a logical shift the SH-2 makes of three (shlr8,
    // shlr2, shlr2); an arithmetic one by 12 is a library call.
    let c = ((level as u32) >> 12) as u16;
    0x8000 | c << 10 | c << 5 | c
}
