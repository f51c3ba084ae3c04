//! Light and gouraud colours: the light level of a face or of each corner (its normals), how
//! a polygon is shaded (`Shading`: flat, its GOUR table, a table of the frame), the frame's
//! gouraud colours and the material colour darkened.

use crate::format::{Material, MaterialFlags, Model, Vector, MAX_BONES};
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

/// How many polygons a group of the run look-up holds (`emit.S` divides by 32 by shifts).
pub(crate) const RUN_GROUP_POLYGONS: usize = 32;

/// The groups of the run look-up (`RUN_GROUPS` in `emit.S`): the runs of the first
/// `RUN_GROUPS * RUN_GROUP_POLYGONS` polygons are found from their group's first run, those
/// of the polygons beyond from the last group's.
pub(crate) const RUN_GROUPS: usize = 64;

/// How many gouraud colours a light keeps, one a (run, normal), when the model's normals
/// times its runs are no more (and no more than [`COLORS_PER_POLYGON`] a polygon).
pub(crate) const LIGHT_COLORS: usize = 128;

/// The colours of the light table a polygon may cost when they are made (each is about the
/// work of one corner's light): above, the corners' light is made corner by corner.
const COLORS_PER_POLYGON: usize = 2;

/// The frame's light as the polygons of one draw see it: its direction brought once into
/// the model space of each of the draw's matrices (`Rᵀ d` for a matrix `R`, since
/// `dot(R n, d) = dot(n, Rᵀ d)`), so that a corner's light is one dot product with its
/// model-space normal, no normal turned into camera space. Matrices that stretch (a BMOT
/// scale) have none: their normals go through their cofactors (`emit`). For the assembly it
/// also keeps where each group of 32 polygons' runs start (a polygon's run is a step or two
/// from there, not a search) and, for a model of few normals (a box-shaded character's six),
/// the gouraud colour of each normal in each run's light: a corner is then one load.
pub(crate) struct ModelLight {
    /// The direction in camera space and the ambient part; `None`: the frame has no light.
    pub(crate) view: Option<(Vec3, i32)>,
    /// Where each run of polygons of one matrix ends, in polygon order, then `u32::MAX` (a
    /// run without light after the last, where a look-up of any polygon ends).
    pub(crate) ends: [u32; MAX_RUNS + 1],
    /// Each run's light in its matrix's model space (after the last: none).
    pub(crate) lights: [RunLight; MAX_RUNS + 1],
    /// How many runs the draw has.
    pub(crate) runs: usize,
    /// The run of each group's first polygon (group `g`: polygons from `32 g`).
    pub(crate) groups: [u8; RUN_GROUPS],
    /// Where each run's colours start in `colors`, in bytes; -1: none (its matrix
    /// stretches). Only when `colors_len` is not 0.
    pub(crate) rows: [i16; MAX_RUNS + 1],
    /// The gouraud colour of normal `n` in the light of run `r` at `r * normals + n`.
    pub(crate) colors: [u16; LIGHT_COLORS],
    /// How many of `colors` are made: 0 when the light makes its colours corner by corner.
    pub(crate) colors_len: usize,
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
// `emit.S` keeps runs in a byte, a row's start in 16 bits, a table's normals in 15 bits,
// and finds a group by dividing by 32 (its RUN_GROUPS).
const _: () = assert!(MAX_RUNS < 128 && 2 * LIGHT_COLORS < i16::MAX as usize);
const _: () = assert!(RUN_GROUP_POLYGONS == 32 && RUN_GROUPS == 64);

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
        ends: [0; MAX_RUNS + 1],
        lights: [RunLight::NONE; MAX_RUNS + 1],
        runs: 0,
        groups: [0; RUN_GROUPS],
        rows: [0; MAX_RUNS + 1],
        colors: [0; LIGHT_COLORS],
        colors_len: 0,
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
        if let Some((direction, _)) = view {
            let runs = transforms.polygon_runs(model.polygons().len());
            let slots = self.ends.iter_mut().zip(&mut self.lights).take(MAX_RUNS);
            for ((range, matrix), (end, out)) in runs.zip(slots) {
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
        self.index_runs(model);
    }

    /// Makes what the assembly finds the runs and the corners' colours by from `ends`,
    /// `lights`, `runs` and `view`: the run after the last, the groups' first runs, and
    /// the colour table when it pays (the model has few normals and the ambient part is 0
    /// to 1).
    pub(crate) fn index_runs(&mut self, model: &Model<'_>) {
        let runs = self.runs;
        self.index_groups(model.polygons().len());
        self.colors_len = 0;
        let normals = model.normals().unwrap_or(&[]);
        if normals.len() * runs <= COLORS_PER_POLYGON * model.polygons().len() {
            self.make_colors(normals);
        }
    }

    /// The run after the last and the first run of each group of the first `polygons`
    /// (the look-up finds no other), in one walk over the runs.
    pub(crate) fn index_groups(&mut self, polygons: usize) {
        let runs = self.runs;
        self.ends[runs] = u32::MAX;
        self.lights[runs] = RunLight::NONE;
        let groups = polygons.div_ceil(RUN_GROUP_POLYGONS);
        let mut run = 0;
        for (group, first) in self.groups.iter_mut().take(groups).enumerate() {
            let polygon = group * RUN_GROUP_POLYGONS;
            while run < runs && self.ends[run] as usize <= polygon {
                run += 1;
            }
            *first = run as u8;
        }
    }

    /// The light table for `normals` (a row of colours a run), when they fit
    /// ([`LIGHT_COLORS`]) and the ambient part is 0 to 1.
    pub(crate) fn make_colors(&mut self, normals: &[Vector]) {
        let runs = self.runs;
        let len = normals.len() * runs;
        let Some(ambient) = self.ambient().filter(|a| (0..=ONE).contains(a)) else {
            return;
        };
        if normals.is_empty() || len > LIGHT_COLORS {
            return;
        }
        for run in 0..=runs {
            let light = self.lights[run];
            let start = run * normals.len();
            self.rows[run] = match light.usable != 0 && run < runs {
                true => {
                    let row = &mut self.colors[start..start + normals.len()];
                    light_colors(normals, light.direction, ambient, row);
                    (2 * start) as i16
                }
                false => -1,
            };
        }
        self.colors_len = len;
    }

    /// The ambient part of the light, when the frame has one.
    pub(crate) fn ambient(&self) -> Option<i32> {
        self.view.map(|(_, ambient)| ambient)
    }

    /// The colours of the table (`None`: made corner by corner).
    #[cfg(any(jom_asm, test, feature = "selftest"))]
    pub(crate) fn colors(&self) -> Option<&[u16]> {
        (self.colors_len > 0).then(|| &self.colors[..self.colors_len])
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

/// The gouraud colour of each of `normals` in the light coming from `direction` (a run's,
/// in its model space) with the `ambient` part (0 to 1) into `colors`: what
/// [`neutral_lit`] makes of [`light_level`]. On a SH-2 by `jom_light_colors` (`emit.S`).
pub(crate) fn light_colors(normals: &[Vector], direction: Vec3, ambient: i32, colors: &mut [u16]) {
    #[cfg(jom_asm)]
    return super::sh2::light_colors(normals, direction, ambient, colors);
    #[cfg(not(jom_asm))]
    light_colors_reference(normals, direction, ambient, colors)
}

/// The Rust version of [`light_colors`].
#[cfg_attr(all(jom_asm, not(feature = "selftest")), allow(dead_code))]
pub(crate) fn light_colors_reference(
    normals: &[Vector],
    direction: Vec3,
    ambient: i32,
    colors: &mut [u16],
) {
    for (color, normal) in colors.iter_mut().zip(normals) {
        *color = neutral_lit(light_level(normal.raw(), direction, ambient));
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
