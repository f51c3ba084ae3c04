//! Tests of emission: the lit template path makes the command and gouraud table the
//! general `emit` makes, polygon by polygon, on the host and on the SH-2.

use super::light::{
    light_level, neutral_lit, scale_gouraud, NEUTRAL, RUN_GROUPS, RUN_GROUP_POLYGONS,
};
use super::records::{PassLight, TemplateKind};
use super::{
    emit, emit_fogged, emit_fogged_templates, emit_templates_reference, DrawTemplates, Emit,
    EmitStyle, FrameDraw, ModelLight,
};
use crate::format::{MaterialFlags, Model};
use crate::math::{Angle, Matrix, Vec3, ONE};
use crate::render::list::{LIGHT_RAMP, RAMP_TABLES};
use crate::render::project::{transform_points_reference, Projection};
use crate::render::shared::{ModelFrame, ModelVram};
use crate::render::transforms::Transforms;
use crate::render::{Camera, CommandList, Fog, SortKey, ViewPoint};
use crate::vdp1::{CommandTable, GouraudCache, GouraudTable, MemoryVram, TextureCache, VramLayout};
use crate::{check, check_eq};

/// Turns, lights (direction, ambient) and places to compare in.
const TURNS: [[i32; 3]; 6] = [
    [0, 0, 0],
    [-90, 0, 0],
    [30, 45, 0],
    [-60, 120, 10],
    [15, -150, 80],
    [170, 200, -35],
];
const LIGHTS: [(Vec3, i32); 3] = [
    ([0, 0, ONE], 0),
    ([ONE / 2, ONE / 2, ONE * 7 / 10], ONE / 3),
    ([-37837, 37837, -37837], ONE / 4),
];

/// Whether lists `a` and `b` draw the same: the same commands but for where their gouraud
/// tables are, each naming (CMDGRDA) a table of its list (`layout`'s frame tables) of the
/// same colours, or none in both.
fn same_shading<const G: usize, const H: usize>(
    a: &CommandList<8, G>,
    b: &CommandList<8, H>,
    layout: &VramLayout,
) -> bool {
    let first = layout.frame_gouraud.start as usize / 8;
    let named = |table: &CommandTable, tables: &[GouraudTable]| {
        tables
            .get(usize::from(table.grda).wrapping_sub(first))
            .copied()
    };
    let (x, y) = (a.commands(), b.commands());
    x.len() == y.len()
        && x.iter().zip(y).all(|(x, y)| {
            let unnamed = |t: &CommandTable| CommandTable { grda: 0, ..*t };
            unnamed(x) == unnamed(y) && named(x, a.gouraud_tables()) == named(y, b.gouraud_tables())
        })
}

/// What [`compare_lit`] compared: polygons, of them those the frame pass took, and of
/// those the ones that took a ramp's table (a flat face).
struct Compared {
    polygons: usize,
    by_pass: usize,
    by_ramp: usize,
}

/// For every turn and light, each polygon of `model` (its textures loaded or not) whose
/// material's style lights it from the template: emitted by `emit_lit` and by `emit`, the
/// two lists compared, and by the frame pass (`emit_templates_reference`) when it takes it,
/// with and without the ramp's tables (a flat face then names the one of its colour).
#[allow(clippy::result_large_err)] // as in `test_suite!`: a test is no hot path
fn compare_lit(
    model: &Model<'_>,
    with_textures: bool,
    camera: &Camera,
    points: &mut [ViewPoint],
) -> Result<Compared, crate::selftest::Failure> {
    let layout = VramLayout::default();
    let mut bytes = [0u8; 4096];
    let mut vram = MemoryVram::new(&mut bytes);
    let window = VramLayout {
        textures: 2048..4096,
        gouraud: 1024..2048,
        ..layout.clone()
    };
    let mut cache = TextureCache::<4>::new(window.textures.clone());
    // The BMOT fixture's 64 x 64 texture does not fit this small VRAM: drawn untextured.
    let textures = match with_textures {
        true => cache.load_model_value::<4>(model, &mut vram, |_, _| None),
        false => Ok(crate::vdp1::ModelTextures::<4>::default()),
    };
    let mut gouraud = [0u16; 128];
    let gouraud = &mut gouraud[..model.polygons().len()];
    let loaded =
        GouraudCache::<4>::new(window.gouraud.clone()).load_model(model, &mut vram, gouraud);
    let (Ok(textures), Ok(())) = (textures, loaded) else {
        return Err(crate::selftest::Failure::new(
            file!(),
            line!(),
            format_args!("set-up"),
        ));
    };
    let resources = ModelVram {
        textures: textures.slots(),
        gouraud,
    };
    let (mut compared, mut by_pass, mut by_ramp) = (0, 0, 0);
    for turn in TURNS {
        let turn = Matrix::rotation_xyz(turn.map(Angle::from_degrees));
        let matrix = camera.view().then(&turn);
        let transforms = Transforms::rigid(matrix);
        transform_points_reference(&matrix, &Projection::of(camera), model.points(), points);
        let frame = ModelFrame {
            model,
            resources: &resources,
            camera,
            points,
            screens: None,
        };
        for light_view in LIGHTS {
            let light = ModelLight::of(model, &transforms, Some(light_view));
            let mut templates = DrawTemplates::EMPTY;
            templates.start(&frame, 0, &transforms, Some(light_view), None);
            let draws = [FrameDraw {
                first: 0,
                frame: &frame,
                templates: &templates,
                near: camera.near,
            }];
            for index in 0..model.polygons().len() {
                let Some(material) = model.polygon_materials().get(index) else {
                    continue;
                };
                let style = EmitStyle::of(&frame, material.get(), true);
                let mut fast = CommandList::<8, 4>::new(320, 224, &layout);
                let made = fast.with_buffer(|list| frame.emit_lit(list, &style, &light, index));
                if made != Ok(true) {
                    continue;
                }
                let mut general = CommandList::<8, 4>::new(320, 224, &layout);
                let polygon = Emit {
                    index,
                    in_parts: false,
                    matrix: &matrix,
                    model_light: light.direction(index).copied(),
                };
                let emitted = general.with_buffer(|list| {
                    emit(
                        list,
                        model,
                        &resources,
                        camera,
                        Some(light_view),
                        points,
                        polygon,
                    )
                });
                check_eq!(emitted, Ok(()));
                check_eq!(fast.commands(), general.commands());
                check_eq!(fast.gouraud_tables(), general.gouraud_tables());
                compared += 1;
                // The frame pass, for a material it has a lit template of (a list each
                // polygon is slow on a SH-2: the flat-light model's thousands have none).
                let kind = templates.kinds.get(usize::from(material.get()));
                if kind != Some(&TemplateKind::Lit) {
                    continue;
                }
                let key = [index as SortKey];
                let pass_light = |ramp| PassLight {
                    ambient: light_view.1,
                    ramp,
                };
                let mut pass = CommandList::<8, 4>::new(320, 224, &layout);
                let taken = pass.with_buffer(|list| {
                    list.fill_frame_with(|tables, gouraud, first| {
                        let light = pass_light(None);
                        emit_templates_reference(&draws, light, &key, (tables, gouraud, first))
                    })
                });
                check_eq!(taken, 1);
                check_eq!(pass.commands(), general.commands());
                check_eq!(pass.gouraud_tables(), general.gouraud_tables());
                by_pass += 1;
                let mut ramped = CommandList::<8, 24>::new(320, 224, &layout);
                let taken = ramped.with_buffer(|list| {
                    let light = pass_light(list.push_ramp(1));
                    list.fill_frame_with(|tables, gouraud, first| {
                        emit_templates_reference(&draws, light, &key, (tables, gouraud, first))
                    })
                });
                check_eq!(taken, 1);
                check!(same_shading(&ramped, &general, &layout));
                by_ramp += usize::from(ramped.gouraud_tables().len() == RAMP_TABLES);
            }
        }
    }
    Ok(Compared {
        polygons: compared,
        by_pass,
        by_ramp,
    })
}

/// What [`compare_fogged`] compared: polygons, of them those lit, and of those the ones
/// whose light came from the light's colour table.
struct Fogged {
    compared: usize,
    lit: usize,
    by_table: usize,
}

/// For every turn, without light and in each light (with the light's colour table and
/// without), each polygon of `model` (its textures loaded) that the frame pass takes, in
/// `fog`: emitted by the fog's pass (`emit_fogged_templates`) and by the general emission
/// in fog (`emit_fogged`), command and gouraud table compared.
#[allow(clippy::result_large_err)] // as in `test_suite!`: a test is no hot path
fn compare_fogged(
    model: &Model<'_>,
    camera: &Camera,
    points: &mut [ViewPoint],
    fog: &Fog,
) -> Result<Fogged, crate::selftest::Failure> {
    let layout = VramLayout::default();
    let mut bytes = [0u8; 4096];
    let mut vram = MemoryVram::new(&mut bytes);
    let mut cache = TextureCache::<4>::new(2048..4096);
    let textures = cache.load_model_value::<4>(model, &mut vram, |_, _| None);
    let mut gouraud = [0u16; 8];
    let gouraud = &mut gouraud[..model.polygons().len()];
    let loaded = GouraudCache::<4>::new(1024..2048).load_model(model, &mut vram, gouraud);
    let (Ok(textures), Ok(())) = (textures, loaded) else {
        return Err(crate::selftest::Failure::new(
            file!(),
            line!(),
            format_args!("set-up"),
        ));
    };
    let resources = ModelVram {
        textures: textures.slots(),
        gouraud,
    };
    let (mut compared, mut lit, mut by_table) = (0, 0, 0);
    for turn in TURNS {
        let turn = Matrix::rotation_xyz(turn.map(Angle::from_degrees));
        let matrix = camera.view().then(&turn);
        let transforms = Transforms::rigid(matrix);
        transform_points_reference(&matrix, &Projection::of(camera), model.points(), points);
        let frame = ModelFrame {
            model,
            resources: &resources,
            camera,
            points,
            screens: None,
        };
        // Each light with the light's colour table (when it makes one) and without (each
        // corner's level worked out).
        let lights = [None, Some(LIGHTS[1]), Some(LIGHTS[2])];
        for (light_view, table) in lights.into_iter().flat_map(|l| [(l, true), (l, false)]) {
            let mut templates = DrawTemplates::EMPTY;
            templates.start(&frame, 0, &transforms, light_view, None);
            if !table {
                templates.light.colors_len = 0;
            }
            let tabled = templates.light.colors().is_some();
            let light = &templates.light;
            let draws = [FrameDraw {
                first: 0,
                frame: &frame,
                templates: &templates,
                near: camera.near,
            }];
            let pass_light = PassLight {
                ambient: light_view.map_or(0, |(_, a)| a),
                ramp: None,
            };
            for index in 0..model.polygons().len() {
                let key = [index as SortKey];
                let mut pass = CommandList::<8, 4>::new(320, 224, &layout);
                let taken = pass.with_buffer(|list| {
                    list.fill_frame_with(|t, g, first| {
                        emit_fogged_templates(&draws, (pass_light, fog), &key, (t, g, first))
                    })
                });
                if taken == 0 {
                    continue;
                }
                let mut general = CommandList::<8, 4>::new(320, 224, &layout);
                let polygon = Emit {
                    index,
                    in_parts: false,
                    matrix: &matrix,
                    model_light: light.direction(index).copied(),
                };
                let emitted = general.with_buffer(|list| {
                    emit_fogged(
                        list, model, &resources, camera, light.view, points, polygon, fog,
                    )
                });
                check_eq!(emitted, Ok(()));
                check_eq!((index, pass.commands()), (index, general.commands()));
                check_eq!(
                    (index, pass.gouraud_tables()),
                    (index, general.gouraud_tables())
                );
                compared += 1;
                lit += usize::from(light_view.is_some());
                by_table += usize::from(tabled);
            }
        }
    }
    Ok(Fogged {
        compared,
        lit,
        by_table,
    })
}

crate::test_suite! {
    fn neutral_light_is_the_scaled_neutral_colour() {
        for level in 0..=ONE {
            let scaled = scale_gouraud(GouraudTable([NEUTRAL; 4]), [level; 4]).0[0];
            check_eq!((level, neutral_lit(level)), (level, scaled));
            check_eq!((level, neutral_lit(level)), (level, GouraudTable::uniform(((16 * level) >> 16) as u16).0[0]));
            // The frame pass's ramp (emit.S) by the level's top bits.
            check_eq!((level, neutral_lit(level)), (level, LIGHT_RAMP[(level >> 12) as usize]));
        }
    }

    fn lit_templates_make_the_general_commands_with_corner_normals() {
        // The fixture's three materials lit (the wall without its mipmaps, the base without
        // its GOUR colours): the base untextured, the wall textured and half transparent,
        // the leaf through its lookup table, each corner by its own normal.
        let model = crate::render::tests::every_chunk();
        let flags = |i: usize, clear: MaterialFlags| {
            let own = model.materials().get(i).map_or(0, |m| m.flags().bits());
            MaterialFlags::from_bits((own | MaterialFlags::LIGHT.bits()) & !clear.bits())
        };
        let patched = crate::vdp1::tests::PatchedModel::every_chunk()
            .material_flags(0, flags(0, MaterialFlags::GOURAUD))
            .material_flags(1, flags(1, MaterialFlags::MIPMAPS))
            .material_flags(2, flags(2, MaterialFlags::from_bits(0)));
        let model = patched.model()?;
        let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
        let mut points = [ViewPoint::default(); 6];
        let compared = compare_lit(&model, true, &camera, &mut points)?;
        // Three polygons, six turns, three lights: most in front of the near plane; the
        // frame pass takes those of a material with a lit template (never drawn in parts:
        // one of the three here).
        check!(compared.polygons >= 40);
        check!(compared.by_pass >= 18);
        // That one a flat face (its four corners of one normal): the ramp's table of its colour.
        check_eq!(compared.by_ramp, compared.by_pass);
    }

    fn lit_templates_make_the_general_commands_in_flat_light() {
        // The BMOT fixture's lit texture without corner normals: one level for the face.
        let model = crate::render::tests::mesh_motion();
        let camera = Camera { position: [0, 0, -3 * ONE], ..Camera::default() };
        let mut points = [ViewPoint::default(); 143];
        let compared = compare_lit(&model, false, &camera, &mut points)?;
        check!(compared.polygons >= 1000);
        // Lit by the face's normal: not a frame template (the general emission's).
        check_eq!(compared.by_pass, 0);
    }

    fn each_groups_first_run_finds_every_polygons_run() {
        // Runs as a posed model has them (one of several groups, several in one group, an
        // empty one), and more polygons than the groups hold: the assembly's look-up
        // (from the group's first run, the first whose end is past the polygon) against
        // the search of `direction`.
        let model = crate::render::tests::mesh();
        let mut light = ModelLight::of(&model, &Transforms::rigid(Matrix::IDENTITY), Some(([0, 0, ONE], ONE / 4)));
        let ends = [5, 40, 41, 41, 100, 101, 102, 700, 2500, 2990];
        light.runs = ends.len();
        for (run, &end) in ends.iter().enumerate() {
            light.ends[run] = end;
            light.lights[run].usable = 1;
            light.lights[run].direction = [run as i32, 0, 0];
        }
        light.index_groups(3000);
        for polygon in 0..3000 {
            let group = (polygon / RUN_GROUP_POLYGONS).min(RUN_GROUPS - 1);
            let mut run = usize::from(light.groups[group]);
            while light.ends[run] as usize <= polygon {
                run += 1;
            }
            let found = light.lights[run].usable != 0;
            check_eq!((polygon, found.then_some(&light.lights[run].direction)), (polygon, light.direction(polygon)));
        }
        check_eq!(light.ends[ends.len()], u32::MAX);
    }

    fn the_light_table_holds_each_normals_light_in_each_run() {
        // A model of few normals: one colour a (run, normal), what a corner of that normal
        // gets; none for a stretching run's, nor with the ambient part out of 0 to 1.
        let model = crate::render::tests::every_chunk();
        let Some(normals) = model.normals().filter(|n| !n.is_empty()) else {
            return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("the fixture has normals")));
        };
        for (direction, ambient) in LIGHTS {
            let mut light = ModelLight::of(&model, &Transforms::rigid(Matrix::IDENTITY), Some((direction, ambient)));
            light.runs = 3;
            light.ends[..3].copy_from_slice(&[1, 2, 3]);
            for (run, stretches) in [false, true, false].into_iter().enumerate() {
                light.lights[run].usable = u32::from(!stretches);
                light.lights[run].direction = [direction[1], direction[2] - run as i32 * 999, direction[0]];
            }
            light.index_runs(&model);
            light.make_colors(normals);
            let Some(colors) = light.colors() else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("a table")));
            };
            check_eq!(colors.len(), 3 * normals.len());
            for run in 0..3 {
                let row = light.rows[run];
                check_eq!(row < 0, run == 1);
                for (n, normal) in normals.iter().enumerate().filter(|_| row >= 0) {
                    let expected = neutral_lit(light_level(normal.raw(), light.lights[run].direction, ambient));
                    check_eq!((run, n, colors[row as usize / 2 + n]), (run, n, expected));
                }
            }
            check_eq!(light.rows[3], -1);
            light.view = Some((direction, ONE + 1));
            light.index_runs(&model);
            light.make_colors(normals);
            check!(light.colors().is_none());
        }
    }

    fn templates_make_the_general_commands_across_the_near_plane() {
        // The mesh close up (some of its polygons cross the near plane): each polygon of a
        // plain material from the template, its corners behind the near plane moved onto
        // it as `emit` moves them.
        let model = crate::render::tests::mesh();
        let layout = VramLayout::default();
        let textures = crate::vdp1::ModelTextures::<4>::default();
        let gouraud = [0; 120];
        let resources = ModelVram { textures: textures.slots(), gouraud: &gouraud };
        let camera = Camera { position: [0, ONE / 4, -ONE / 2], ..Camera::default() };
        let matrix = camera.view().then(&Matrix::rotation_x(Angle::from_degrees(-30)));
        let mut points = [ViewPoint::default(); 143];
        transform_points_reference(&matrix, &Projection::of(&camera), model.points(), &mut points);
        let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        let (mut compared, mut crossing) = (0, 0);
        for (index, material) in model.polygon_materials().iter().enumerate() {
            let style = EmitStyle::of(&frame, material.get(), false);
            if !style.plain() {
                continue;
            }
            let mut fast = CommandList::<8, 4>::new(320, 224, &layout);
            check!(fast.with_buffer(|list| frame.emit_fast(list, &style, index)));
            let mut general = CommandList::<8, 4>::new(320, 224, &layout);
            let polygon = Emit { index, in_parts: false, matrix: &matrix, model_light: None };
            let emitted = general.with_buffer(|list| emit(list, &model, &resources, &camera, None, &points, polygon));
            check_eq!(emitted, Ok(()));
            check_eq!((index, fast.commands()), (index, general.commands()));
            compared += 1;
            crossing += usize::from(frame.corner_words_in_front(index).is_none());
        }
        check!(compared >= 100 && crossing > 0);
    }

    fn the_frame_pass_makes_the_general_commands_across_the_near_plane() {
        // The mesh close up (some of its polygons cross the near plane) through
        // `emit_templates`: the pass stops at each crossing polygon, which is made from
        // its template, and goes on; the list is the general emission's, polygon by
        // polygon, in the keys' order.
        let model = crate::render::tests::mesh();
        let layout = VramLayout::default();
        let textures = crate::vdp1::ModelTextures::<4>::default();
        let gouraud = [0; 120];
        let resources = ModelVram { textures: textures.slots(), gouraud: &gouraud };
        let camera = Camera { position: [0, ONE / 4, -ONE / 2], ..Camera::default() };
        let matrix = camera.view().then(&Matrix::rotation_x(Angle::from_degrees(-30)));
        let mut points = [ViewPoint::default(); 143];
        transform_points_reference(&matrix, &Projection::of(&camera), model.points(), &mut points);
        let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        let mut templates = DrawTemplates::EMPTY;
        templates.start(&frame, 0, &Transforms::rigid(matrix), None, None);
        let draws = [FrameDraw { first: 0, frame: &frame, templates: &templates, near: camera.near }];
        let keys: [SortKey; 120] = core::array::from_fn(|i| ((i * 37) % 120) as SortKey);
        let mut pass = CommandList::<128, 4>::new(320, 224, &layout);
        let light = PassLight { ambient: 0, ramp: None };
        let taken = pass.with_buffer(|list| list.fill_frame_with(|t, g, first| super::emit_templates(&draws, light, &keys, (t, g, first))));
        check_eq!(taken, 120);
        let mut general = CommandList::<128, 4>::new(320, 224, &layout);
        let mut crossing = 0;
        for &key in &keys {
            let index = key as usize;
            let polygon = Emit { index, in_parts: false, matrix: &matrix, model_light: None };
            let emitted = general.with_buffer(|list| emit(list, &model, &resources, &camera, None, &points, polygon));
            check_eq!(emitted, Ok(()));
            crossing += usize::from(frame.corner_words_in_front(index).is_none());
        }
        check_eq!(pass.commands(), general.commands());
        check!(crossing > 0);
    }

    fn a_shared_frame_pass_is_cut_where_half_its_work_is() {
        // Two draws of the mesh, the first's material plain, the second's lit (twice the
        // work): 60 plain keys then 60 lit ones are cut a quarter into the lit ones; all
        // plain, half way.
        let model = crate::render::tests::mesh();
        let textures = crate::vdp1::ModelTextures::<4>::default();
        let gouraud = [0; 120];
        let resources = ModelVram { textures: textures.slots(), gouraud: &gouraud };
        let camera = Camera::default();
        let points = [ViewPoint::default(); 143];
        let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        let material = usize::from(model.polygon_materials()[0].get());
        check!(model.polygon_materials().iter().all(|m| usize::from(m.get()) == material));
        let (mut plain, mut lit) = (DrawTemplates::EMPTY, DrawTemplates::EMPTY);
        plain.kinds[material] = TemplateKind::Plain;
        lit.kinds[material] = TemplateKind::Lit;
        lit.any_lit = true;
        let draws = [
            FrameDraw { first: 0, frame: &frame, templates: &plain, near: camera.near },
            FrameDraw { first: 120, frame: &frame, templates: &lit, near: camera.near },
        ];
        let keys: [SortKey; 120] = core::array::from_fn(|i| match i < 60 {
            true => i as SortKey,
            false => (120 + i) as SortKey,
        });
        let split = super::frame::balanced_split(&draws, &keys);
        check_eq!((split, (74..=76).contains(&split)), (split, true));
        let split = super::frame::balanced_split(&draws[..1], &keys[..60]);
        check_eq!((split, (29..=31).contains(&split)), (split, true));
        check_eq!(super::frame::balanced_split(&draws, &keys[..2]), 1);
    }

    fn a_shared_plain_run_leaves_the_second_cpu_a_128th_less_than_half() {
        // The fewest shared, the bench's 4,000 and the most a frame numbers: the first part
        // is never all of them.
        let parts = [64, 4000, 65_535].map(|count| (super::runs::first_part(count), count));
        check_eq!(parts, [(32, 64), (2031, 4000), (33_278, 65_535)]);
    }

    fn the_fog_pass_makes_the_general_commands() {
        // The fixture's materials plain without light and lit in it (as the lit templates'
        // test patches them: the base untextured, the wall textured and half transparent,
        // the leaf through its lookup table), in a fog whose near and far depths are
        // within the fixture's: each polygon the pass takes is the general emission's in
        // that fog, command and faded gouraud colours.
        let model = crate::render::tests::every_chunk();
        let flags = |i: usize, clear: MaterialFlags| {
            let own = model.materials().get(i).map_or(0, |m| m.flags().bits());
            MaterialFlags::from_bits((own | MaterialFlags::LIGHT.bits()) & !clear.bits())
        };
        let patched = crate::vdp1::tests::PatchedModel::every_chunk()
            .material_flags(0, flags(0, MaterialFlags::GOURAUD))
            .material_flags(1, flags(1, MaterialFlags::MIPMAPS))
            .material_flags(2, flags(2, MaterialFlags::from_bits(0)));
        let model = patched.model()?;
        let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
        let fog = Fog { colour: 0x8000 | 20 << 10 | 9 << 5 | 27, near: 3 * ONE + ONE / 2, far: 4 * ONE + ONE / 2 };
        let mut points = [ViewPoint::default(); 6];
        let fogged = compare_fogged(&model, &camera, &mut points, &fog)?;
        // The pass takes the material never drawn in parts (one of the three here), in
        // each turn, without light (plain) and in both lights (lit), each twice (with the
        // light's table and without); the lit ones with the table from it.
        let Fogged { compared, lit, by_table } = fogged;
        check_eq!((compared, lit, by_table), (36, 24, 12));
    }

    fn the_fog_pass_makes_the_general_commands_across_the_near_plane() {
        // The mesh close up (some of its polygons cross the near plane) in a fog over its
        // depths, its keys out of order: the fog's pass takes every polygon (the crossing
        // ones' corners moved onto the plane) and the list is the general emission's in
        // that fog, polygon by polygon.
        let model = crate::render::tests::mesh();
        let layout = VramLayout::default();
        let textures = crate::vdp1::ModelTextures::<4>::default();
        let gouraud = [0; 120];
        let resources = ModelVram { textures: textures.slots(), gouraud: &gouraud };
        let camera = Camera { position: [0, ONE / 4, -ONE / 2], ..Camera::default() };
        let matrix = camera.view().then(&Matrix::rotation_x(Angle::from_degrees(-30)));
        let mut points = [ViewPoint::default(); 143];
        transform_points_reference(&matrix, &Projection::of(&camera), model.points(), &mut points);
        let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        let mut templates = DrawTemplates::EMPTY;
        templates.start(&frame, 0, &Transforms::rigid(matrix), None, None);
        let draws = [FrameDraw { first: 0, frame: &frame, templates: &templates, near: camera.near }];
        let keys: [SortKey; 120] = core::array::from_fn(|i| ((i * 37) % 120) as SortKey);
        let fog = Fog { colour: 0x8000 | 3 << 10 | 30 << 5 | 12, near: ONE / 4, far: ONE / 2 };
        let light = PassLight { ambient: 0, ramp: None };
        let mut pass = CommandList::<128, 128>::new(320, 224, &layout);
        let taken = pass.with_buffer(|list| list.fill_frame_with(|t, g, first| emit_fogged_templates(&draws, (light, &fog), &keys, (t, g, first))));
        check_eq!(taken, 120);
        let mut general = CommandList::<128, 128>::new(320, 224, &layout);
        let (mut crossing, mut shares) = (0, [false; 3]);
        for &key in &keys {
            let index = key as usize;
            let polygon = Emit { index, in_parts: false, matrix: &matrix, model_light: None };
            let emitted = general.with_buffer(|list| emit_fogged(list, &model, &resources, &camera, None, &points, polygon, &fog));
            check_eq!(emitted, Ok(()));
            crossing += usize::from(frame.corner_words_in_front(index).is_none());
            for corner in model.polygons()[index].corners() {
                let share = fog.share(points[usize::from(corner)].view[2]);
                shares[usize::from(share > 0) + usize::from(share == crate::render::fog::FOG_WHOLE)] = true;
            }
        }
        check!(pass.commands() == general.commands());
        check!(pass.gouraud_tables() == general.gouraud_tables());
        // Corners before the fog, in it and past it; some polygons crossing the plane.
        check!(crossing > 0);
        check_eq!(shares, [true; 3]);
    }
}
