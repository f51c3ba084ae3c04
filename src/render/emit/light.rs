//! Light and gouraud colours: the light level of a face or of each corner (its normals), how
//! a polygon is shaded (`Shading`: flat, its GOUR table, a table of the frame), the frame's
//! gouraud colours and the material colour darkened.

#[cfg(jom_asm)]
use super::records::LightRuns;
use super::records::RunLight;
#[cfg(jom_asm)]
use super::sh2;
use crate::format::{Material, MaterialFlags, Model, Vector, MAX_BONES};
use crate::math::{dot, mul, Vec3, ONE};
use crate::render::shared::ModelVram;
use crate::render::transforms::Transforms;
use crate::vdp1::GouraudTable;
use crate::worker::Worker;

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
    /// Each run's matrix.
    matrices: [u8; MAX_RUNS],
    /// What `ends`, `runs`, `groups` and `matrices` were found for: they are kept while a
    /// draw's are the same, frame after frame (the showcase's character: 4,400 cycles a
    /// frame to find again).
    found_for: RunsFoundFor,
}

/// The polygon spans of a draw's matrices ([`Transforms::polygon_spans`]), its polygons and
/// whether it is lit: what a draw's runs are found from.
#[derive(PartialEq)]
struct RunsFoundFor {
    spans: heapless::Vec<u64, MAX_BONES>,
    polygons: usize,
    lit: bool,
}

impl RunsFoundFor {
    /// For nothing: no draw's.
    const NONE: Self = Self {
        spans: heapless::Vec::new(),
        polygons: usize::MAX,
        lit: false,
    };
}

// `emit.S` keeps runs in a byte, a row's start in 16 bits, a table's normals in 15 bits,
// and finds a group by dividing by 32 (its RUN_GROUPS).
const _: () = assert!(MAX_RUNS < 128 && 2 * LIGHT_COLORS < i16::MAX as usize);
const _: () = assert!(RUN_GROUP_POLYGONS == 32 && RUN_GROUPS == 64);

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
        matrices: [0; MAX_RUNS],
        found_for: RunsFoundFor::NONE,
    };

    /// [`NONE`](Self::NONE), written at `light` (its 3 KiB not through the stack).
    ///
    /// # Safety
    /// `light` is valid for writes.
    pub(crate) unsafe fn none_in(light: *mut Self) {
        // SAFETY: the caller's promise. All zero is `NONE` but for the fields written
        // after (an empty `heapless::Vec` is a zero length, the rest numbers).
        unsafe {
            light.write_bytes(0, 1);
            core::ptr::addr_of_mut!((*light).view).write(None);
            core::ptr::addr_of_mut!((*light).found_for.polygons).write(usize::MAX);
            core::ptr::addr_of_mut!((*light).found_for.lit).write(false);
        }
    }

    /// The light `view` (camera space, with its ambient part) for the polygons of `model`
    /// drawn with `transforms`.
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn of(
        model: &Model<'_>,
        transforms: &Transforms,
        view: Option<(Vec3, i32)>,
    ) -> Self {
        let mut light = Self::NONE;
        light.set(model, transforms, view, None);
        light
    }

    /// [`of`](Self::of), in place (a draw's slot); with `worker` and
    /// [enough](MIN_SHARED_RUNS) runs, the other CPU makes the light and colours of the
    /// second half of them (the showcase's character: 16 runs, about 22,000 cycles on one).
    pub(crate) fn set(
        &mut self,
        model: &Model<'_>,
        transforms: &Transforms,
        view: Option<(Vec3, i32)>,
        worker: Option<&mut (dyn Worker + '_)>,
    ) {
        self.view = view;
        let polygons = model.polygons().len();
        self.find_runs(transforms, polygons, view.is_some());
        let normals = model.normals().unwrap_or(&[]);
        let table = self.table_ambient(normals, polygons);
        let runs = self.runs;
        let half = match worker {
            Some(_) if runs >= MIN_SHARED_RUNS => runs / 2,
            _ => runs,
        };
        let light = RunsLight {
            transforms,
            direction: view.map_or([0; 3], |(direction, _)| direction),
            normals,
            table,
        };
        let (here, there) = self.matrices[..runs].split_at(half);
        let (here_lights, there_lights) = self.lights[..runs].split_at_mut(half);
        let (here_rows, there_rows) = self.rows[..runs].split_at_mut(half);
        let colors_len = table.map_or(0, |_| normals.len() * runs);
        let colors = &mut self.colors[..colors_len];
        let (here_colors, there_colors) =
            colors.split_at_mut(colors.len().min(half * normals.len()));
        let mut mine = || light.make(0, here, here_lights, here_rows, here_colors);
        match worker {
            Some(worker) if half < runs => worker.join(&mut mine, &mut || {
                light.make(half, there, there_lights, there_rows, there_colors)
            }),
            _ => mine(),
        }
        self.colors_len = colors_len;
        if table.is_some() {
            self.rows[runs] = -1;
        }
    }

    /// The runs of one matrix of the first `polygons` drawn with `transforms` (none when
    /// not `lit`), and the groups' first runs, unless found for the same before.
    fn find_runs(&mut self, transforms: &Transforms, polygons: usize, lit: bool) {
        let spans = transforms.polygon_spans();
        let found = &self.found_for;
        if found.polygons == polygons && found.lit == lit && found.spans == *spans {
            return;
        }
        self.runs = 0;
        if lit {
            for (range, matrix) in transforms.polygon_runs(polygons) {
                let run = self.runs;
                if run == MAX_RUNS {
                    break;
                }
                self.ends[run] = range.end as u32;
                self.matrices[run] = matrix as u8;
                self.runs += 1;
            }
        }
        self.index_groups(polygons);
        self.found_for = RunsFoundFor {
            spans: spans.clone(),
            polygons,
            lit,
        };
    }

    /// The ambient part when the colour table is made for `normals` and the runs: it fits
    /// ([`LIGHT_COLORS`], at most [`COLORS_PER_POLYGON`] a polygon of `polygons`) and the
    /// ambient part is 0 to 1.
    fn table_ambient(&self, normals: &[Vector], polygons: usize) -> Option<i32> {
        let len = normals.len() * self.runs;
        let fits = !normals.is_empty()
            && len <= LIGHT_COLORS
            && len <= COLORS_PER_POLYGON.saturating_mul(polygons);
        self.ambient()
            .filter(|ambient| fits && (0..=ONE).contains(ambient))
    }

    /// Makes what the assembly finds the runs and the corners' colours by from `ends`,
    /// `lights`, `runs` and `view`, as [`set`](Self::set) does: the run after the last, the
    /// groups' first runs, and the colour table when it pays (for the tests, which set the
    /// runs' lights themselves).
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn index_runs(&mut self, model: &Model<'_>) {
        let polygons = model.polygons().len();
        self.found_for = RunsFoundFor::NONE;
        self.index_groups(polygons);
        self.colors_len = 0;
        let normals = model.normals().unwrap_or(&[]);
        if self.table_ambient(normals, polygons).is_some() {
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

    /// The light table for `normals` (a row of colours a run) from the runs' `lights`, when
    /// they fit ([`LIGHT_COLORS`]) and the ambient part is 0 to 1.
    #[cfg(any(test, feature = "selftest"))]
    pub(crate) fn make_colors(&mut self, normals: &[Vector]) {
        let Some(ambient) = self.table_ambient(normals, usize::MAX) else {
            return;
        };
        let runs = self.runs;
        for run in 0..runs {
            let light = &self.lights[run];
            let row = &mut self.colors[run * normals.len()..(run + 1) * normals.len()];
            self.rows[run] = color_row(light, run, normals, ambient, row);
        }
        self.rows[runs] = -1;
        self.colors_len = normals.len() * runs;
    }

    /// The ambient part of the light, when the frame has one.
    pub(crate) fn ambient(&self) -> Option<i32> {
        self.view.map(|(_, ambient)| ambient)
    }

    /// The colours of the table (`None`: made corner by corner).
    pub(crate) fn colors(&self) -> Option<&[u16]> {
        (self.colors_len > 0).then(|| &self.colors[..self.colors_len])
    }

    /// Its runs, as the assembly reads them.
    #[cfg(jom_asm)]
    pub(crate) fn runs(&self) -> LightRuns<'_> {
        LightRuns {
            groups: &self.groups,
            ends: &self.ends,
            rows: &self.rows,
            colors: self.colors(),
            lights: &self.lights,
        }
    }

    /// Where polygon `index`'s run's row starts in [`colors`](Self::colors) (a colour for
    /// each of the model's normals); `None` when its run has no light (its matrix
    /// stretches). Found as `emit.S`'s lit pass finds it: from its group's first run (the
    /// runs end with one past the last, whose end no polygon reaches and whose row is -1).
    #[inline(always)]
    pub(crate) fn color_row(&self, index: usize) -> Option<usize> {
        let group = (index / RUN_GROUP_POLYGONS).min(RUN_GROUPS - 1);
        let mut run = usize::from(self.groups[group]);
        while self.ends[run] as usize <= index {
            run += 1;
        }
        usize::try_from(self.rows[run] / 2).ok()
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

/// Runs fewer than this make their light on one CPU.
const MIN_SHARED_RUNS: usize = 8;

/// What [`ModelLight::set`] makes each run's light and colours from.
struct RunsLight<'a> {
    transforms: &'a Transforms,
    /// The light's direction in camera space.
    direction: Vec3,
    normals: &'a [Vector],
    /// The ambient part, when the colour table is made.
    table: Option<i32>,
}

impl RunsLight<'_> {
    /// The light of the runs from `first` (of `matrices`) into `lights` and, with the
    /// table, their rows (`rows`, and their colours from run `first`'s row on in
    /// `colors`). Field by field: a `RunLight` written whole was a library copy a run.
    fn make(
        &self,
        first: usize,
        matrices: &[u8],
        lights: &mut [RunLight],
        rows: &mut [i16],
        colors: &mut [u16],
    ) {
        let per_run = self.normals.len();
        for (i, ((&matrix, light), row)) in matrices.iter().zip(lights).zip(rows).enumerate() {
            let matrix = usize::from(matrix);
            let usable = !self.transforms.is_stretched(matrix);
            light.usable = u32::from(usable);
            // `Rᵀ d`: `R`'s columns dotted with `d`.
            let m = &self.transforms.matrices[matrix].0;
            for (j, out) in light.direction.iter_mut().enumerate() {
                *out = match usable {
                    true => dot([m[0][j], m[1][j], m[2][j]], self.direction),
                    false => 0,
                };
            }
            if let (Some(ambient), Some(colors)) =
                (self.table, colors.get_mut(i * per_run..(i + 1) * per_run))
            {
                *row = color_row(light, first + i, self.normals, ambient, colors);
            }
        }
    }
}

/// The colours of `normals` in run `run`'s `light` into `colors` (its row of the table);
/// gives where the row starts in the table, in bytes, or -1 for a run without light.
fn color_row(
    light: &RunLight,
    run: usize,
    normals: &[Vector],
    ambient: i32,
    colors: &mut [u16],
) -> i16 {
    match light.usable != 0 {
        true => {
            light_colors(normals, light.direction, ambient, colors);
            (2 * run * normals.len()) as i16
        }
        false => -1,
    }
}

/// The gouraud colour of each of `normals` in the light coming from `direction` (a run's,
/// in its model space) with the `ambient` part (0 to 1) into `colors`: what
/// [`neutral_lit`] makes of [`light_level`]. On a SH-2 by `jom_light_colors` (`emit.S`).
pub(crate) fn light_colors(normals: &[Vector], direction: Vec3, ambient: i32, colors: &mut [u16]) {
    #[cfg(jom_asm)]
    return sh2::light_colors(normals, direction, ambient, colors);
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
