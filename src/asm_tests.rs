//! Tests of the SH-2 assembly loops (the `.S` beside each `sh2.rs` binding) against their
//! Rust references, in every SH-2 build of the suites: under qemu (`make sh2-test`) and on
//! the emulated Saturns (Yabause, Mednafen). Four loops qemu's user-mode SH-4 cannot run
//! (the transform needs the division unit, it, the bones' matrix product and validation's
//! geometry write SR, and the culling's `subv` sets a wrong overflow bit in qemu 7.2):
//! their tests (`saturn`) run on the Saturns only.

use crate::math::{Angle, Matrix, ONE};
use crate::render::emit::EmitStyle;
use crate::render::project::{transform_points_reference, Projection};
use crate::render::shared::ModelFrame;
use crate::render::tests::mesh;
use crate::render::{Camera, CommandList, ModelVram, SortKey, ViewPoint};
use crate::vdp1::{Point, VramLayout};
use crate::{check, check_eq};

crate::test_suite! {
    fn assembly_emit_matches_the_reference() {
        let model = mesh();
        let layout = VramLayout::default();
        // Without its texture in VRAM the material draws flat polygons: plain all the same.
        let textures = crate::vdp1::ModelTextures::<4>::default();
        let resources = ModelVram { textures: textures.slots(), gouraud: &[0; 120] };
        // Close enough that some polygons cross the near plane (the run stops there).
        let camera = Camera { position: [0, ONE / 4, -ONE / 2], ..Camera::default() };
        let matrix = camera.view().then(&Matrix::rotation_x(Angle::from_degrees(-30)));
        let mut points = [ViewPoint::default(); 143];
        transform_points_reference(&matrix, &Projection::of(&camera), model.points(), &mut points);
        let screens: [Point; 143] = core::array::from_fn(|i| points[i].screen);
        let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        let style = EmitStyle::of(&frame, 0, false);
        check!(style.plain());
        // Every polygon, nearest first, and a key of a polygon of another material (none
        // here: index 0's material is 0) would stop it: runs from several starts, into
        // lists with room for all and for 7; tested against the near plane, and in the form
        // without the test (a near of i32::MIN: the crossing polygons emitted too), which
        // reads the compact screen positions (with a frame that has none, the tested form).
        let keys: [SortKey; 120] = core::array::from_fn(|i| (119 - i) as u32);
        for (near, compact) in [(camera.near, true), (i32::MIN, true), (i32::MIN, false)] {
            let frame = ModelFrame { screens: compact.then_some(&screens[..]), ..frame };
            let mut emitted_total = 0;
            for start in [0, 5, 60, 118] {
                let (mut assembly, mut reference) = (CommandList::<128, 1>::new(320, 224, &layout), CommandList::<128, 1>::new(320, 224, &layout));
                let by_assembly = assembly.with_buffer(|list| frame.emit_plain_run(list, &style, &keys[start..], near));
                let by_rust = reference.fill_with(|tables| frame.emit_plain_reference(tables, &style, &keys[start..], near));
                check_eq!((near, start, by_assembly), (near, start, by_rust));
                check!(assembly.commands() == reference.commands());
                emitted_total += by_rust;
                let (mut short, mut short_reference) = (CommandList::<11, 1>::new(320, 224, &layout), CommandList::<11, 1>::new(320, 224, &layout));
                check_eq!(short.with_buffer(|list| frame.emit_plain_run(list, &style, &keys[start..], near)), short_reference.fill_with(|tables| frame.emit_plain_reference(tables, &style, &keys[start..], near)));
                check!(short.commands() == short_reference.commands());
            }
            if near == i32::MIN {
                check_eq!(emitted_total, 120 + 115 + 60 + 2);
            } else {
                check!(emitted_total > 0 && emitted_total < 120 + 115 + 60 + 2);
            }
        }
    }

    fn assembly_lit_emission_matches_the_reference() {
        use crate::format::MaterialFlags;
        use crate::render::emit::{LitTemplate, ModelLight};
        // The fixture's three materials lit by their corner normals, none in parts, none
        // mipmapped, none with GOUR colours: all three have lit templates.
        let fixture = crate::render::tests::every_chunk();
        let clear = MaterialFlags::GOURAUD.bits() | MaterialFlags::MIPMAPS.bits() | MaterialFlags::SUBDIVISION.bits() | MaterialFlags::SUBDIVISION_NEAR.bits();
        let lit = |i: usize| MaterialFlags::from_bits((fixture.materials().get(i).map_or(0, |m| m.flags().bits()) | MaterialFlags::LIGHT.bits()) & !clear);
        let patched = crate::vdp1::tests::PatchedModel::every_chunk().material_flags(0, lit(0)).material_flags(1, lit(1)).material_flags(2, lit(2));
        let model = patched.model()?;
        let layout = VramLayout::default();
        let textures = crate::vdp1::ModelTextures::<4>::default();
        let resources = ModelVram { textures: textures.slots(), gouraud: &[0; 3] };
        let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
        let mut points = [ViewPoint::default(); 6];
        let mut templates = [LitTemplate::NONE; 32];
        let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        for (material, template) in templates.iter_mut().enumerate().take(3) {
            *template = LitTemplate::of(&EmitStyle::of(&frame, material as u16, true));
            check!(template.usable());
        }
        // Runs of one matrix (some empty, some of a matrix that stretches), the polygons in
        // several orders, from every start.
        let runs: [&[u32]; 5] = [&[3], &[1, 3], &[0, 1, 1, 2, 3], &[2, 2, 2, 2, 3, 3, 3, 3, 3], &[1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3]];
        let orders: [[SortKey; 6]; 3] = [[0, 1, 2, 0, 1, 2], [2, 1, 0, 2, 1, 0], [1, 0x0004_0002, 0x0009_0000, 2, 0, 1]];
        let mut compared = 0;
        for (turn, ends) in runs.iter().enumerate() {
            let matrix = camera.view().then(&Matrix::rotation_xyz([Angle::from_degrees(40 * turn as i32 - 90), Angle::from_degrees(70 * turn as i32), Angle(0)]));
            transform_points_reference(&matrix, &Projection::of(&camera), model.points(), &mut points);
            let frame = ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
            let mut light = ModelLight::of(&model, &crate::render::transforms::Transforms::rigid(matrix), Some(([ONE / 2, ONE / 2, ONE * 7 / 10], ONE / 3)));
            light.runs = ends.len();
            for (run, &end) in ends.iter().enumerate() {
                light.ends[run] = end;
                let k = run as i32 + 1;
                light.lights[run].direction = [(k * 9_137) % ONE - ONE / 2, (k * 31_337) % ONE - ONE / 3, ONE - k * 4_096];
                light.lights[run].usable = u32::from(run % 4 != 3);
            }
            for (ambient, tabled) in [0, ONE / 3, ONE].into_iter().flat_map(|a| [(a, false), (a, true)]) {
                // The corners by their normals, or from the light table (the fixture's few
                // polygons would not pay for one: made all the same).
                light.view = Some(([0, 0, ONE], ambient));
                light.index_runs(&model);
                if tabled {
                    light.make_colors(model.normals().unwrap_or(&[]));
                    check!(light.colors().is_some());
                }
                for keys in &orders {
                    for start in 0..keys.len() {
                        let (mut assembly, mut reference) = (CommandList::<16, 4>::new(320, 224, &layout), CommandList::<16, 4>::new(320, 224, &layout));
                        let by_assembly = assembly.with_buffer(|list| frame.emit_lit_run(list, &templates, &light, &keys[start..]));
                        let by_rust = reference.with_buffer(|list| list.fill_lit_with(|t, g, first| frame.emit_lit_reference(&templates, &light, ambient, &keys[start..], (t, g, first))));
                        check_eq!((turn, ambient, start, by_assembly), (turn, ambient, start, by_rust));
                        check!(assembly.commands() == reference.commands());
                        check!(assembly.gouraud_tables() == reference.gouraud_tables());
                        compared += by_rust;
                    }
                }
            }
        }
        check!(compared > 100);
    }

    fn assembly_light_colors_match_the_reference() {
        use crate::format::{FixedBe, Vector};
        use crate::render::emit::{light_colors, light_colors_reference};
        let vector = |[x, y, z]: [i32; 3]| Vector { x: FixedBe::new(x), y: FixedBe::new(y), z: FixedBe::new(z) };
        let mut state = 0x1357_9BDFu32;
        let mut next = move || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            state as i32
        };
        // Normals of about unit length and longer (facings past 1 and below 0 clamped),
        // lights from every side, the ambient part from 0 to 1.
        let normals: [Vector; 61] = core::array::from_fn(|i| vector([next() >> (13 + i % 4), next() >> (13 + i % 3), next() >> 14]));
        let mut compared = 0;
        for turn in 0..12 {
            let direction = [next() >> 15, next() >> 15, next() >> 15];
            for ambient in [0, 1, ONE / 4, ONE / 3, ONE - 1, ONE] {
                for count in [0, 1, 2, 61] {
                    let (mut assembly, mut reference) = ([0xAAAA; 62], [0xAAAA; 62]);
                    light_colors(&normals[..count], direction, ambient, &mut assembly[..count]);
                    light_colors_reference(&normals[..count], direction, ambient, &mut reference[..count]);
                    check_eq!((turn, ambient, count, assembly), (turn, ambient, count, reference));
                    compared += count;
                }
            }
        }
        check!(compared > 4000);
    }

    fn memset_fills_any_alignment_and_length() {
        // rt/mem.c's memset (words from the first aligned byte): every start in a word and
        // lengths around a word and a few, the bytes around left as they were.
        for start in 0..4 {
            for len in 0..48 {
                let mut bytes = [0x5Au8; 56];
                let len = core::hint::black_box(len);
                // SAFETY: start + len <= 51, within the 56 bytes.
                unsafe { core::ptr::write_bytes(bytes.as_mut_ptr().add(start), 0xC3, len) };
                let filled = bytes.iter().enumerate().all(|(i, &b)| b == if (start..start + len).contains(&i) { 0xC3 } else { 0x5A });
                check_eq!((start, len, filled), (start, len, true));
            }
        }
    }

    fn memcpy_copies_any_alignment_and_length() {
        // rt/mem.c's memcpy (words when both ends are aligned, else bytes): every pair of
        // starts in a word and lengths around a word and a few, the bytes around left as
        // they were.
        let source: [u8; 56] = core::array::from_fn(|i| i as u8 ^ 0xA5);
        for from in 0..4 {
            for to in 0..4 {
                for len in 0..48 {
                    let mut bytes = [0x5Au8; 56];
                    let len = core::hint::black_box(len);
                    // SAFETY: both ranges within their 56 bytes (start + len <= 51), apart.
                    unsafe { core::ptr::copy_nonoverlapping(source.as_ptr().add(from), bytes.as_mut_ptr().add(to), len) };
                    let copied = bytes.iter().enumerate().all(|(i, &b)| b == if (to..to + len).contains(&i) { source[i - to + from] } else { 0x5A });
                    check_eq!((from, to, len, copied), (from, to, len, true));
                }
            }
        }
    }

    fn assembly_sort_loops_match_the_reference() {
        // 1,000 keys of pseudo-random depths (both bytes vary) and increasing indexes.
        let mut state = 0x1234_5678u32;
        let keys: [SortKey; 1000] = core::array::from_fn(|i| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state & 0xFFFF_0000) | i as u32
        });
        let (mut by_assembly, mut by_rust) = ([[0u32; 256]; 2], [[0u32; 256]; 2]);
        crate::render::sort::sh2::count_bytes(&keys, &mut by_assembly);
        crate::render::sort::count_bytes_reference(&keys, &mut by_rust);
        check!(by_assembly == by_rust);
        let (mut low_by_assembly, mut low_by_rust) = ([0u32; 256], [0u32; 256]);
        let bits_by_assembly = crate::render::sort::sh2::count_low(&keys[1..], &mut low_by_assembly);
        let bits_by_rust = crate::render::sort::count_low_reference(&keys[1..], &mut low_by_rust);
        check_eq!(bits_by_assembly, bits_by_rust);
        check!(low_by_assembly == low_by_rust && bits_by_rust[0] != bits_by_rust[1]);
        for (byte, shift) in [(0, 16), (1, 24)] {
            // (Slots are in bytes.)
            let mut slots = by_rust[byte];
            let mut next = 0;
            for slot in slots.iter_mut() {
                let here = *slot;
                *slot = next;
                next += 4 * here;
            }
            let (mut assembly_slots, mut rust_slots) = (slots, slots);
            let (mut assembly, mut rust) = ([0; 1000], [0; 1000]);
            crate::render::sort::sh2::scatter(&keys, &mut assembly, &mut assembly_slots, shift);
            crate::render::sort::scatter_reference(&keys, &mut rust, &mut rust_slots, shift);
            check_eq!((shift, assembly_slots == rust_slots), (shift, true));
            check!(assembly == rust);
        }
        // The first pass of a shared sort: the keys scattered by byte 2 from slots 1,000
        // apart (as the other CPU's half would leave them), counting byte 3 by the half of
        // the order each goes to, split at 1,300.
        let mut slots = [0u32; 256];
        let mut next = 0;
        for (slot, &count) in slots.iter_mut().zip(&by_rust[0]) {
            *slot = next;
            next += 4 * 2 * count;
        }
        let (mut assembly_slots, mut rust_slots) = (slots, slots);
        let (mut assembly, mut rust) = ([0; 2000], [0; 2000]);
        let (mut assembly_counts, mut rust_counts) = ([[0u32; 256]; 2], [[0u32; 256]; 2]);
        // SAFETY: the slots are the prefix sums of twice the keys' counts: within the 2,000.
        unsafe { crate::render::sort::sh2::scatter_counting_shared(&keys, assembly.as_mut_ptr(), &mut assembly_slots, &mut assembly_counts, 1300) };
        crate::render::sort::SharedKeys::of(&mut rust).scatter_reference(&keys, &mut rust_slots, 16, Some((&mut rust_counts, 1300)));
        check!(assembly_slots == rust_slots && assembly_counts == rust_counts);
        check!(assembly == rust);
        check!(rust_counts[0].iter().sum::<u32>() > 0 && rust_counts[1].iter().sum::<u32>() > 0);
    }
}

/// The assembly loops that qemu cannot run (see build.rs): on the emulated Saturns only.
#[cfg(jom_saturn)]
pub(crate) mod saturn {
    use crate::math::{Angle, Matrix, ONE};
    use crate::render::cull::{depth_factor, write_plane_runs, PlainCull, PlainMaterials};
    use crate::render::project::{transform_points_reference, Projection};
    use crate::render::shared::ModelFrame;
    use crate::render::sort::KeyCounts;
    use crate::render::tests::{boxes, mesh, mesh_materials, BOXES_POLYGONS};
    use crate::render::transforms::Eye;
    use crate::render::visibility::SidePlanes;
    use crate::render::{Camera, ModelVram, ViewPoint};
    use crate::{check, check_eq};

    crate::test_suite! {
        fn assembly_transform_matches_the_reference() {
            // Points in front, behind the eye (the depth clamped), far to the sides (the screen
            // clamped), through rotations, a mirror and translations.
            let model = mesh();
            let mirror = Matrix([[-ONE, 0, 0, 0], [0, ONE, 0, 0], [0, 0, 2 * ONE, 0]]);
            let turn = Matrix::rotation_xyz([Angle::from_degrees(35), Angle::from_degrees(-120), Angle::from_degrees(8)]);
            let cases = [
                (Matrix::translation([0, 0, 3 * ONE]), Camera::default()),
                (Matrix::translation([ONE, -ONE, ONE]).then(&turn), Camera::default()),
                (Matrix::translation([40 * ONE, 0, ONE / 4]).then(&mirror), Camera { focal_length: 300, near: ONE / 2, ..Camera::default() }),
                (Matrix::translation([0, 0, -2 * ONE]), Camera::default()),
                // Screen positions past -2047 and +2047 on both axes.
                (Matrix::translation([-40 * ONE, 30 * ONE, ONE / 4]), Camera::default()),
                (Matrix::translation([0, -30 * ONE, ONE / 4]), Camera::default()),
            ];
            for (case, (matrix, camera)) in cases.iter().enumerate() {
                let projection = Projection::of(camera);
                // Both forms: with the screen positions' compact copy, and without.
                let (mut assembly, mut reference) = ([ViewPoint::default(); 143], [ViewPoint::default(); 143]);
                let (mut alone, mut screens) = ([ViewPoint::default(); 143], [crate::vdp1::Point::default(); 143]);
                crate::render::project::sh2::transform_points(matrix, &projection, model.points(), &mut assembly, Some(&mut screens));
                crate::render::project::sh2::transform_points(matrix, &projection, model.points(), &mut alone, None);
                transform_points_reference(matrix, &projection, model.points(), &mut reference);
                for (point, (a, r)) in assembly.iter().zip(&reference).enumerate() {
                    check_eq!((case, point, a, alone[point], screens[point]), (case, point, r, *r, r.screen));
                }
            }
        }

        fn assembly_compose_matches_the_reference() {
            let pivots = [[0, 0, 0], [ONE / 2, -ONE, 300], [-5 * ONE, 7 * ONE, ONE / 3]];
            let mut parent = Matrix::translation([ONE, -2 * ONE, 3 * ONE]);
            for step in 0..40i32 {
                let angles = [Angle((step * 1733) as i16), Angle((step * -911) as i16), Angle((step * 4099) as i16)];
                let mut local = Matrix::IDENTITY;
                crate::anim::skeleton::set_joint(&mut local, pivots[step as usize % 3], angles);
                let (mut assembly, mut reference) = (Matrix::IDENTITY, Matrix::IDENTITY);
                crate::anim::skeleton::sh2::compose(&parent, &local, &mut assembly);
                crate::anim::skeleton::compose_reference(&parent, &local, &mut reference);
                check_eq!((step, assembly), (step, reference));
                // Down a chain, as bones are.
                parent = reference;
            }
            // Bones that also move and stretch (BMOT): scales from 0 to 2.
            let mut parent = Matrix::translation([ONE, -2 * ONE, 3 * ONE]);
            for step in 0..40i32 {
                let angles = [Angle((step * 2011) as i16), Angle((step * -577) as i16), Angle((step * 3001) as i16)];
                let offset = [step * 1000 - 20_000, -step * 313, ONE / 2];
                let scale = [(step * 3331) % (2 * ONE), ONE + step * 500, if step % 5 == 0 { 0 } else { ONE / 3 }];
                let mut local = Matrix::IDENTITY;
                crate::anim::skeleton::set_moved_joint(&mut local, pivots[step as usize % 3], angles, (offset, scale));
                let (mut assembly, mut reference) = (Matrix::IDENTITY, Matrix::IDENTITY);
                crate::anim::skeleton::sh2::compose(&parent, &local, &mut assembly);
                crate::anim::skeleton::compose_reference(&parent, &local, &mut reference);
                check_eq!((step, assembly), (step, reference));
                parent = if step % 5 == 0 { Matrix::translation([0, ONE, 0]) } else { reference };
            }
        }

        fn assembly_view_products_match_the_reference() {
            use crate::render::transforms::{rigid_view_reference, sh2, view_product_reference};
            // Each routine beside its reference: a bone's product (the error of b), a rigid
            // draw's (the error of the product).
            type Product = fn(&Matrix, &Matrix, &mut Matrix, &mut Option<Eye>) -> u32;
            let routines: [(Product, Product); 2] = [(sh2::view_product, view_product_reference), (sh2::rigid_view, rigid_view_reference)];
            let mut state = 0x1357_9BDFu32;
            let mut next = move || {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                state
            };
            // Chains of turns (a skeleton's drift) after turned model views, mirrored, with
            // translations of every size; then entries of every size (products that wrap,
            // errors past 32 bits).
            let mut compared = [0; 5];
            for case in 0..300u32 {
                let mut turn = || Matrix::rotation_xyz([0; 3].map(|_: i32| Angle(next() as i16)));
                let mut a = turn();
                let mut b = turn();
                for _ in 0..case % 17 {
                    b = b.then(&turn());
                }
                if case % 4 == 3 {
                    b.0[2] = [-b.0[2][0], -b.0[2][1], -b.0[2][2], 0];
                }
                for row in a.0.iter_mut().chain(b.0.iter_mut()) {
                    row[3] = (next() as i32) >> (1 + case % 31);
                }
                if case >= 200 {
                    for cell in b.0.iter_mut().flatten().chain(a.0.iter_mut().flatten()) {
                        *cell = (next() as i32) >> (next() % 32);
                    }
                }
                for (routine, (by_assembly, by_rust)) in routines.iter().enumerate() {
                    let (mut assembly, mut reference) = (Matrix::IDENTITY, Matrix::IDENTITY);
                    // Eyes that must be overwritten, found or not.
                    let (mut assembly_eye, mut reference_eye) = (Some(Eye { position: [1, 2, 3], mirrored: true }), None);
                    let error = by_assembly(&a, &b, &mut assembly, &mut assembly_eye);
                    let reference_error = by_rust(&a, &b, &mut reference, &mut reference_eye);
                    check_eq!((case, routine, error, assembly_eye, assembly), (case, routine, reference_error, reference_eye, reference));
                    compared[usize::from(reference_eye.is_some())] += 1;
                    compared[2 + routine] += usize::from(reference_error == u32::MAX);
                    compared[4] += usize::from(routine == 1 && reference_error > 0 && reference_error < u32::MAX);
                }
            }
            // Both ways, and errors saturated and not, by either routine.
            check!(compared[0] > 40 && compared[1] > 200 && compared[2] > 20 && compared[3] > 20 && compared[4] > 100);
            // The edges, through the identity (the product is the matrix): eyes at and past
            // ±(2^31 - 1), a column of length 0 (error 2^32), square lengths exactly 1,
            // entries at 2^18 (no rotation's), dot products of -2^32, ties of the largest
            // column-2 entry.
            let edges = [
                Matrix([[ONE, 0, 0, i32::MIN], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[ONE, 0, 0, i32::MAX], [0, ONE, 0, i32::MIN + 1], [0, 0, -ONE, 5]]),
                Matrix([[2 * ONE, 0, 0, 1 << 30], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[2 * ONE, 0, 0, -(1 << 30)], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[2 * ONE, 0, 0, (1 << 30) - 1], [0, 2 * ONE, 0, 1 - (1 << 30)], [0, 0, ONE, 0]]),
                Matrix([[0, 0, 0, ONE], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[1 << 18, 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[-(1 << 18), 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[(1 << 18) - 1, 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE, 0]]),
                Matrix([[ONE, ONE, ONE, 7], [ONE, -ONE, -ONE, 0], [0, 0, ONE, 0]]),
                Matrix([[ONE, 0, -ONE, 3], [0, ONE, ONE, -3], [0, 0, -ONE, 1]]),
                Matrix([[i32::MIN, i32::MIN, i32::MIN, i32::MIN], [i32::MAX; 4], [i32::MIN, 0, i32::MAX, 1]]),
            ];
            for (edge, b) in edges.iter().enumerate() {
                for (routine, (by_assembly, by_rust)) in routines.iter().enumerate() {
                    let (mut assembly, mut reference) = (Matrix::IDENTITY, Matrix::IDENTITY);
                    let (mut assembly_eye, mut reference_eye) = (None, Some(Eye { position: [0; 3], mirrored: false }));
                    let error = by_assembly(&Matrix::IDENTITY, b, &mut assembly, &mut assembly_eye);
                    let reference_error = by_rust(&Matrix::IDENTITY, b, &mut reference, &mut reference_eye);
                    check_eq!((edge, routine, error, assembly_eye, assembly), (edge, routine, reference_error, reference_eye, reference));
                }
            }
        }

        fn assembly_validation_matches_the_reference() {
            use crate::format::validate::{farthest_squared_reference, indexes_below_reference, is_unit, length_squared, sh2};
            use crate::format::{FixedBe, Polygon, U16Be, Vector};
            use crate::Aligned;
            let vector = |[x, y, z]: [i32; 3]| Vector { x: FixedBe::new(x), y: FixedBe::new(y), z: FixedBe::new(z) };
            let mut state = 0x2468_ACE1u32;
            let mut next = move || {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                state
            };
            // Points over the whole range (square lengths past 2^63 too) and small ones.
            let points: [Vector; 201] = core::array::from_fn(|i| {
                let raw = [next() as i32, next() as i32, next() as i32];
                vector(if i % 3 == 0 { raw } else { raw.map(|c| c >> (i % 24)) })
            });
            for range in [0..0, 0..1, 5..7, 5..8, 0..4, 3..10, 10..11, 0..100, 1..201, 0..201] {
                check_eq!((range.clone(), sh2::farthest_squared(&points[range.clone()])), (range.clone(), farthest_squared_reference(&points[range])));
            }
            // Normals about unit length, either side of the tolerance, and those at its ends.
            let edges = [[ONE - ONE / 64, 0, 0], [-64_509, 615, 94], [0, ONE + ONE / 64, 0], [0, ONE + ONE / 64, 1], [0; 3], [i32::MIN; 3]];
            let normals: [Vector; 240] = core::array::from_fn(|i| match edges.get(i / 40) {
                Some(edge) if i % 40 == 39 => vector(*edge),
                _ => vector([ONE - 1000 + (next() % 2000) as i32, (next() % 8000) as i32 - 4000, -((next() % 4000) as i32)]),
            });
            let first_failing = |normals: &[Vector]| normals.iter().position(|n| !is_unit(length_squared(n))).unwrap_or(normals.len());
            let mut failed = 0;
            for start in [0, 1, 38, 39, 40, 79, 119, 159, 199, 239, 240] {
                let rest = &normals[start..];
                check_eq!((start, sh2::normals_passing(rest)), (start, first_failing(rest)));
                failed += usize::from(first_failing(rest) < rest.len());
            }
            check!(failed > 5);
            // Polygons of those normals, corners below 250 and some up to 0xFFFF (past 0x8000: not
            // negative), against limits either side of them, for both loops over QUAD (at most
            // 0x8000 points: without branches, short of the tolerance's longest end, where a
            // normal's square length one more is not unit).
            let polygons: [Polygon; 240] = core::array::from_fn(|i| {
                let beyond = if i % 17 == 5 { [250, 299, 0x8123, 0xFFFF, 0x7FFF, 0x8000][i % 6] } else { 0 };
                let mut corners = [0; 4].map(|_| U16Be::new((next() % 250) as u16));
                corners[i % 4] = U16Be::new(beyond.max(corners[i % 4].get()));
                Polygon { normal: normals[i], corners }
            });
            let mut passed = 0;
            for points in [250, 300, 0x7FFF, 0x8000, 0x8001, 0x8124, 0xFFFF] {
                for start in [0, 1, 5, 22, 39, 40, 120, 239, 240] {
                    let rest = &polygons[start..];
                    let unit = |n: &Vector| is_unit(length_squared(n)) && (points > 0x8000 || is_unit(length_squared(n) + 1));
                    let pass = rest.iter().all(|p| p.corners().iter().all(|&c| usize::from(c) < points) && unit(p.normal()));
                    check_eq!((points, start, sh2::quads_pass(rest, points)), (points, start, pass));
                    passed += usize::from(pass);
                }
            }
            check!(passed > 3 && passed < 40);
            // Indexes eight, two and one at a time, from a 4-byte boundary (else not for it).
            let indexes: Aligned<[U16Be; 203]> = Aligned(core::array::from_fn(|i| {
                U16Be::new(match i % 50 {
                    49 => 0xFFF0,
                    24 if i < 100 => 0x7FFF,
                    24 => 0x8000,
                    _ => (next() % 40) as u16,
                })
            }));
            for limit in [0, 30, 40, 0x7FFF, 0x8000, 0x8001, 0xFFF0, 0xFFF1, 0x10000] {
                for range in [0..0, 0..1, 0..2, 0..3, 2..7, 4..20, 4..21, 4..24, 4..49, 4..50, 0..203, 1..6, 26..74, 126..174] {
                    let slice = &indexes.0[range.clone()];
                    let expected = ((range.start % 2 == 0 && limit <= 0x8000) || limit > 0xFFFF).then(|| indexes_below_reference(slice, limit));
                    check_eq!((limit, range.clone(), sh2::indexes_below(slice, limit)), (limit, range, expected));
                }
            }
        }

        fn assembly_cull_matches_the_reference() {
            // The mesh, and the mesh in runs of two plain materials and one not (the
            // assembly goes on through the plain ones, stops at the other); the boxes with
            // their runs of coplanar polygons, and with a table that puts every polygon in
            // one plane with the next 255 (both pass over as many after a back face).
            let (mut compared, mut across, mut crossing, mut short) = (0, 0, 0, 0);
            let mut box_runs = [0; BOXES_POLYGONS];
            write_plane_runs(&boxes(), &mut box_runs);
            let wrong = [255; BOXES_POLYGONS];
            let models = [(mesh(), &[][..]), (mesh_materials(), &[][..]), (boxes(), &box_runs[..]), (boxes(), &wrong[..])];
            for (model, plane_runs) in models {
                let polygons = model.polygons().len();
                let plain_materials = PlainMaterials::of(&model);
                let empty = crate::vdp1::ModelTextures::<4>::default();
                let resources = ModelVram { textures: empty.slots(), gouraud: &[0; 120] };
                let mirror = Matrix([[-ONE, 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE, 0]]);
                let views = [
                    (Camera { position: [0, 0, -3 * ONE], ..Camera::default() }, Matrix::IDENTITY),
                    (Camera { position: [5 * ONE / 2, 0, -3 * ONE], ..Camera::default() }, Matrix::rotation_y(Angle::from_degrees(30))),
                    (Camera { position: [0, ONE / 3, -ONE / 3], ..Camera::default() }, Matrix::rotation_x(Angle::from_degrees(-20))),
                    (Camera { position: [0, 0, -3 * ONE], far: 3 * ONE, ..Camera::default() }, Matrix::rotation_y(Angle::from_degrees(60))),
                    (Camera { position: [0, 0, -3 * ONE], ..Camera::default() }, mirror),
                    // Partly off the right, the top and the bottom of the screen.
                    (Camera { position: [-5 * ONE / 2, 0, -3 * ONE], ..Camera::default() }, Matrix::IDENTITY),
                    (Camera { position: [0, 2 * ONE, -2 * ONE], ..Camera::default() }, Matrix::IDENTITY),
                    (Camera { position: [0, -2 * ONE, -2 * ONE], ..Camera::default() }, Matrix::IDENTITY),
                    // Across the near plane: polygons crossing it behind, beside and shown.
                    (Camera { position: [0, 0, -ONE / 4], ..Camera::default() }, Matrix::rotation_y(Angle::from_degrees(60))),
                ];
                for (view, (camera, turn)) in views.iter().enumerate() {
                    let matrix = camera.view().then(turn);
                    let mut points = [ViewPoint::default(); 143];
                    let points = &mut points[..model.points().len()];
                    transform_points_reference(&matrix, &Projection::of(camera), model.points(), points);
                    let frame = ModelFrame { model: &model, resources: &resources, camera, points, screens: None };
                    let Some(eye) = Eye::of(&matrix) else { continue };
                    // The matrix moving every point (the forms that do not look corner A up), and the
                    // first 90 of the 143 (the run stops at a polygon whose corner A is not one of them).
                    for owned in [0..u32::MAX, 0..90] {
                        let plain = PlainCull { material: 0, plain_materials: &plain_materials, eye, owned: owned.clone(), depth_factor: depth_factor(camera.far), sides: SidePlanes::of(camera), numbered_from: 1000 * view, plane_runs };
                        // From each start, as the general loop calls it after a stop.
                        for start in [0, 1, 37, polygons - 1] {
                            let (mut assembly, mut reference) = ([0; 120], [0; 120]);
                            // Counts carried on from an earlier run, as the general loop's are.
                            let mut counted_before = KeyCounts::ZERO;
                            counted_before.count(0x1234_0005);
                            let (mut assembly_counts, mut reference_counts) = (counted_before, counted_before);
                            let by_assembly = frame.cull_plain_run(&plain, start..polygons, &mut assembly, &mut assembly_counts);
                            let by_rust = frame.cull_plain_run_reference(&plain, start..polygons, &mut reference, &mut reference_counts);
                            check_eq!((view, start, by_assembly), (view, start, by_rust));
                            check!(assembly[..by_rust.visible] == reference[..by_rust.visible]);
                            check!(assembly_counts == reference_counts);
                            compared += by_rust.done;
                            crossing += by_rust.crossing;
                            short += usize::from(owned.end < u32::MAX && by_rust.done < polygons - start);
                            let materials = &model.polygon_materials()[start..start + by_rust.done];
                            across += usize::from(materials.windows(2).any(|m| m[0] != m[1]));
                        }
                    }
                }
            }
            check!(compared > 500 && across > 0 && crossing > 0 && short > 0);
        }
    }
}

/// The frame-wide emission's assembly against its reference, in every SH-2 build.
#[cfg(jom_asm)]
pub(crate) mod frame_emit {
    use crate::math::{Angle, Matrix, ONE};
    use crate::render::project::{transform_points_reference, Projection};
    use crate::render::shared::ModelFrame;
    use crate::render::tests::mesh;
    use crate::render::{Camera, CommandList, ModelVram, SortKey, ViewPoint};
    use crate::vdp1::{Point, VramLayout};
    use crate::{check, check_eq};

    crate::test_suite! {
        fn assembly_frame_emission_matches_the_reference() {
            use crate::format::MaterialFlags;
            use crate::render::emit::{emit_pass, emit_templates_reference, DrawTemplates, FrameDraw, PassLight};
            use crate::render::list::RAMP_TABLES;
            // Two draws in one pass: the lit fixture (three materials lit by corner normals,
            // frame numbers 0 to 2) and the plain mesh (3 to 122, some crossing the near plane),
            // their polygons interleaved as depth order interleaves them.
            let fixture = crate::render::tests::every_chunk();
            let clear = MaterialFlags::GOURAUD.bits() | MaterialFlags::MIPMAPS.bits() | MaterialFlags::SUBDIVISION.bits() | MaterialFlags::SUBDIVISION_NEAR.bits();
            let lit = |i: usize| MaterialFlags::from_bits((fixture.materials().get(i).map_or(0, |m| m.flags().bits()) | MaterialFlags::LIGHT.bits()) & !clear);
            let patched = crate::vdp1::tests::PatchedModel::every_chunk().material_flags(0, lit(0)).material_flags(1, lit(1)).material_flags(2, lit(2));
            // The third polygon's corners (2, 2, 1, 2), and (2, 1, 2, 1): its corners A and
            // B in one word the same as C and D in the next, still not a flat face.
            let alternating = crate::vdp1::tests::PatchedModel::every_chunk().material_flags(0, lit(0)).material_flags(1, lit(1)).material_flags(2, lit(2)).corner_normals(2, [2, 1, 2, 1]);
            for lit_model in [patched.model()?, alternating.model()?] {
                let (mut compared, mut named_ramp, mut own_tables) = (0, 0, 0);
                let plain_model = mesh();
                let layout = VramLayout::default();
                let textures = crate::vdp1::ModelTextures::<4>::default();
                let lit_resources = ModelVram { textures: textures.slots(), gouraud: &[0; 3] };
                let plain_resources = ModelVram { textures: textures.slots(), gouraud: &[0; 120] };
                let lit_camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
                let plain_camera = Camera { position: [0, ONE / 4, -ONE / 2], ..Camera::default() };
                let plain_matrix = plain_camera.view().then(&Matrix::rotation_x(Angle::from_degrees(-30)));
                let mut plain_points = [ViewPoint::default(); 143];
                transform_points_reference(&plain_matrix, &Projection::of(&plain_camera), plain_model.points(), &mut plain_points);
                let plain_screens: [Point; 143] = core::array::from_fn(|i| plain_points[i].screen);
                let plain = ModelFrame { model: &plain_model, resources: &plain_resources, camera: &plain_camera, points: &plain_points, screens: None };
                let mut plain_templates = DrawTemplates::EMPTY;
                plain_templates.start(&plain, 0, &crate::render::transforms::Transforms::rigid(plain_matrix), Some(([0, 0, ONE], ONE / 3)), None);
                // Frame numbers: the lit draw's 0 to 2 among the mesh's 3 to 122, in two orders.
                let mut state = 0x2545_f491u32;
                let mut shuffled: [SortKey; 123] = core::array::from_fn(|i| i as SortKey);
                for i in (1..shuffled.len()).rev() {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    shuffled.swap(i, (state >> 8) as usize % (i + 1));
                }
                let nearest_first: [SortKey; 123] = core::array::from_fn(|i| match i % 41 { 0 => (i / 41) as SortKey, _ => (123 - i + i / 41) as SortKey });
                let mut lit_points = [ViewPoint::default(); 6];
                for turn in 0..4 {
                    let matrix = lit_camera.view().then(&Matrix::rotation_xyz([Angle::from_degrees(40 * turn - 90), Angle::from_degrees(70 * turn), Angle(0)]));
                    transform_points_reference(&matrix, &Projection::of(&lit_camera), lit_model.points(), &mut lit_points);
                    let lit_screens: [Point; 6] = core::array::from_fn(|i| lit_points[i].screen);
                    let lit_frame = ModelFrame { model: &lit_model, resources: &lit_resources, camera: &lit_camera, points: &lit_points, screens: None };
                    for ambient in [0, ONE / 3, ONE] {
                        let mut lit_templates = DrawTemplates::EMPTY;
                        lit_templates.start(&lit_frame, 0, &crate::render::transforms::Transforms::rigid(matrix), Some(([ONE / 2, ONE / 2, ONE * 7 / 10], ambient)), None);
                        // A stretching matrix's run (turn 3): its lit polygons stop the pass.
                        lit_templates.light.lights[0].usable = u32::from(turn != 3);
                        lit_templates.light.index_runs(&lit_model);
                        // Corner by corner (turns 0 and 2) or from the light table.
                        if turn % 2 == 1 {
                            lit_templates.light.make_colors(lit_model.normals().unwrap_or(&[]));
                            check!(lit_templates.light.colors().is_some());
                        }
                        // Tested against the cameras' near planes, and in the form without
                        // the test (each draw's near i32::MIN: the crossing ones emitted too),
                        // which reads the compact screen positions (when a draw has none,
                        // the tested form).
                        for (near, compact) in [(None, true), (Some(i32::MIN), true), (Some(i32::MIN), false)] {
                            let lit_frame = ModelFrame { screens: compact.then_some(&lit_screens[..]), ..lit_frame };
                            let plain = ModelFrame { screens: Some(&plain_screens[..]), ..plain };
                            let draws = [FrameDraw { first: 0, frame: &lit_frame, templates: &lit_templates, near: near.unwrap_or(lit_camera.near) }, FrameDraw { first: 3, frame: &plain, templates: &plain_templates, near: near.unwrap_or(plain_camera.near) }];
                            // Without the ramp's tables, and with them (the fixture's first two
                            // polygons are flat faces, its third is not).
                            for (keys, ramped) in [&shuffled, &nearest_first].into_iter().flat_map(|k| [(k, false), (k, true)]) {
                                for start in [0, 1, 7, 40, 100, 122] {
                                    let (mut assembly, mut reference) = (CommandList::<128, 19>::new(320, 224, &layout), CommandList::<128, 19>::new(320, 224, &layout));
                                    let pass_light = |list: &mut crate::render::CommandBuffer<'_>| PassLight { ambient, ramp: ramped.then(|| list.push_ramp(2)).flatten() };
                                    let by_assembly = assembly.with_buffer(|list| { let light = pass_light(list); list.fill_frame_with(|t, g, first| emit_pass(&draws, light, &keys[start..], (t, g, first))) });
                                    let mut ramp = None;
                                    let by_rust = reference.with_buffer(|list| { let light = pass_light(list); ramp = light.ramp; list.fill_frame_with(|t, g, first| emit_templates_reference(&draws, light, &keys[start..], (t, g, first))) });
                                    check_eq!((turn, ambient, start, ramped, by_assembly), (turn, ambient, start, ramped, by_rust));
                                    check!(assembly.commands() == reference.commands());
                                    check!(assembly.gouraud_tables() == reference.gouraud_tables());
                                    compared += by_rust;
                                    if let Some(ramp) = ramp {
                                        let flat = |table: &&crate::vdp1::CommandTable| (ramp..ramp + RAMP_TABLES as u32).contains(&u32::from(table.grda));
                                        named_ramp += reference.commands().iter().filter(flat).count();
                                        own_tables += reference.gouraud_tables().len() - RAMP_TABLES;
                                    }
                                }
                            }
                        }
                    }
                }
                check!(compared > 500);
                // Flat faces named the ramp's tables, the other took tables of its own.
                check!(named_ramp >= 20 && own_tables >= 10);
            }
        }
    }
}
