//! The renderer with a second CPU (here a thread, as the slave SH-2 on a Saturn) gives the
//! same frames as with one: two draws of the mesh fixture static and posed, and models whose
//! materials make the split point move (polygons that take the depth of the one before them,
//! "sort previous", cannot start the second half). The SH-2 tests do the same with
//! `render::InOrder` and, on the emulated Saturns, with the slave. Also: a renderer's clock
//! times each phase of a frame.

use jom::anim::{bone_matrices, bone_matrices_with, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    Camera, Light, Posed, Renderer, RendererArrays, RendererMemory, RendererTables, Worker,
};
use jom::vdp1::{CommandTable, MemoryVram, CTRL_END, VRAM_SIZE};
use jom::Model;
use jom_write::{AlignedBytes, Material};

/// `MaterialFlags::SORT_PREVIOUS` (`SORT_MIN | SORT_MAX`, bits 1 and 2): sorted with the
/// depth of the polygon before it.
const SORT_PREVIOUS: u32 = (1 << 1) | (1 << 2);

/// The second CPU of the tests.
#[derive(Clone, Copy, Debug)]
enum SecondCpu {
    /// A thread, running its share while this one runs the other.
    Thread,
    /// The slave's time-out as the master meets it: the second CPU's share runs (as far as
    /// it got: here all of it), the master runs its own, then runs the second CPU's share
    /// again from the start. A share that is not safe to run twice (counts added to again,
    /// a buffer taken the first time) gives another frame.
    RunAgain,
}

use SecondCpu::{RunAgain, Thread};

/// Every kind of second CPU the frames must not depend on.
const SECOND_CPUS: [SecondCpu; 2] = [Thread, RunAgain];

impl Worker for SecondCpu {
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send)) {
        match self {
            Thread => std::thread::scope(|scope| {
                scope.spawn(there);
                here();
            }),
            RunAgain => {
                there();
                here();
                there();
            }
        }
    }
}

/// A 20 x 10 mesh whose polygons from `previous` on (to the end) sort as "previous".
fn mesh_with_previous(previous: std::ops::Range<usize>) -> AlignedBytes {
    let mut file = jom_write::scenes::mesh(20, 10);
    file.materials.push(Material {
        name: "decal".into(),
        color: [200, 10, 10],
        texture: -1,
        flags: SORT_PREVIOUS,
        ..Default::default()
    });
    for index in previous {
        file.polygon_materials[index] = 1;
    }
    AlignedBytes::new(&file.to_bytes())
}

/// A renderer of the tests' sizes over leaked memory and a zeroed VRAM, with `worker` if any.
fn renderer(worker: Option<&'static mut dyn Worker>) -> Renderer<'static, MemoryVram<'static>> {
    let arrays = Box::leak(Box::new(
        RendererArrays::<512, 1024, 600, 600, 4, 4, 512>::ZERO,
    ));
    let tables = Box::leak(Box::new(RendererTables::<4, 4, 4>::EMPTY));
    let vram = Box::leak(vec![0u8; VRAM_SIZE as usize].into_boxed_slice());
    let memory = RendererMemory::new(arrays, tables);
    Renderer::new(MemoryVram::new(vram), memory, worker).expect("sizes that fit")
}

/// A frame drawing `model` twice (posed by its first animation when `posed`) in `light`,
/// through a renderer with `worker` if any: the list the VDP1 then draws (each command with
/// the colours of its gouraud table) and the frame's stats.
fn frame(
    model: &Model<'_>,
    posed: bool,
    light: Option<&Light>,
    worker: Option<SecondCpu>,
) -> (Vec<(CommandTable, [u16; 4])>, String) {
    frame_of_draws(model, posed, light, worker, 2)
}

/// [`frame`] with `draws` draws of the model (1 or 2).
fn frame_of_draws(
    model: &Model<'_>,
    posed: bool,
    light: Option<&Light>,
    worker: Option<SecondCpu>,
    draws: usize,
) -> (Vec<(CommandTable, [u16; 4])>, String) {
    let renderer = renderer(worker.map(|w| Box::leak(Box::new(w)) as &mut dyn Worker));
    let handle = renderer.load(model).expect("the model's VRAM");
    let camera = Camera {
        position: [ONE / 2, 0, -2 * ONE],
        ..Camera::default()
    };
    let transforms = [
        Matrix::rotation_xyz([Angle::from_degrees(50), Angle::from_degrees(-10), Angle(0)]),
        Matrix::translation([ONE / 4, 0, ONE / 2]).then(&Matrix::rotation_xyz([
            Angle::from_degrees(-40),
            Angle(0),
            Angle(0),
        ])),
    ];
    let mut frame = renderer.begin(&camera, light).expect("a frame");
    for transform in &transforms[..draws] {
        match model.animations().get(0).filter(|_| posed) {
            Some(animation) => {
                let pose = pose_at(&animation, model.bones().len(), 20);
                let mut bones = [Matrix::IDENTITY; MAX_BONES];
                bone_matrices(model, &pose, &mut bones);
                let root = root_matrix(&pose);
                let posed = Posed {
                    transform,
                    root: &root,
                    bones: &bones,
                };
                frame.draw_posed(&handle, &posed)
            }
            None => frame.draw(&handle, transform),
        }
        .expect("room for the draw");
    }
    let stats = frame.finish().expect("the frame");
    drop(handle);
    let vram = renderer.into_vdp1();
    let list = front_list(vram.bytes())
        .into_iter()
        .map(|command| {
            let at = usize::from(command.grda) * 8;
            let colours = match command.grda {
                0 => [0; 4],
                _ => core::array::from_fn(|i| {
                    u16::from_be_bytes([vram.bytes()[at + 2 * i], vram.bytes()[at + 2 * i + 1]])
                }),
            };
            (command, colours)
        })
        .collect();
    (list, format!("{stats:?}"))
}

/// The mesh fixture's scene lit by corner normals (four normals leaning apart, the corners
/// of each polygon one of each), every third polygon of an unlit colour (so that the first
/// CPU's part of the gouraud tables is not all used).
fn lit_mesh() -> AlignedBytes {
    lit_mesh_with(true)
}

/// [`lit_mesh`], with its unlit polygons when `unlit` (else one material, lit).
fn lit_mesh_with(unlit: bool) -> AlignedBytes {
    let mut file = jom_write::scenes::mesh(20, 10);
    file.materials[0].flags |= 1 << 6; // JO_3D_MATERIAL_LIGHT
    if unlit {
        file.materials.push(Material {
            name: "unlit".into(),
            color: [10, 200, 10],
            texture: -1,
            ..Default::default()
        });
        for material in file.polygon_materials.iter_mut().step_by(3) {
            *material = 1;
        }
    }
    let (lean, up) = (ONE / 2, 56_756); // 0.5 and 0.866: unit length
    file.normals = Some(vec![
        [lean, 0, -up],
        [-lean, 0, -up],
        [0, lean, -up],
        [0, -lean, -up],
    ]);
    let corners = 4 * file.polygon_materials.len();
    file.corner_normals = Some((0..corners).map(|i| (i % 4) as u16).collect());
    AlignedBytes::new(&file.to_bytes())
}

/// The list the jump at VRAM 0 points to, up to its end.
fn front_list(vram: &[u8]) -> Vec<CommandTable> {
    let table =
        |at: usize| CommandTable::from_be_bytes(vram[at..at + 32].try_into().expect("32 bytes"));
    let mut at = usize::from(table(0).link) * 8;
    let mut list = Vec::new();
    while table(at).ctrl & CTRL_END == 0 {
        list.push(table(at));
        at += 32;
    }
    list
}

#[test]
fn a_thread_draws_the_same_frames() {
    let bytes = jom::include_aligned!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mesh.jom"
    ));
    let model = Model::from_bytes(bytes).expect("a valid fixture");
    for posed in [false, true] {
        let alone = frame(&model, posed, None, None);
        assert!(alone.0.len() > 3 + 60, "posed {posed}: {}", alone.1);
        for second in SECOND_CPUS {
            let shared = frame(&model, posed, None, Some(second));
            assert_eq!(shared, alone, "posed {posed}, {second:?}");
        }
    }
}

#[test]
fn a_thread_draws_the_same_lit_frames() {
    // Each CPU writes its own part of the frame's gouraud tables (the second CPU's after
    // the first's room, not moved down): the same colours at each command, each lit
    // command with its own table.
    let bytes = lit_mesh();
    let model = Model::from_bytes(bytes.bytes()).expect("a valid scene");
    let light = Light {
        direction: [ONE / 2, -ONE / 2, 46_341],
        ambient: ONE / 4,
    };
    // One draw too: emitted by the frame pass, shared, where two materials and the light
    // would have kept one draw's own runs on the first CPU.
    for (posed, draws) in [(false, 2), (true, 2), (false, 1), (true, 1)] {
        let alone = frame_of_draws(&model, posed, Some(&light), None, draws);
        let lit = alone
            .0
            .iter()
            .filter(|(_, colours)| colours[0] != 0)
            .count();
        let unlit = alone.0.len() - lit;
        assert!(
            lit > 30 * draws && unlit > 15 * draws,
            "posed {posed}, {draws} draws: {lit} lit of {}",
            alone.1
        );
        let resolved = |list: &[(CommandTable, [u16; 4])]| -> Vec<_> {
            list.iter()
                .map(|&(command, colours)| (CommandTable { grda: 0, ..command }, colours))
                .collect()
        };
        for second in SECOND_CPUS {
            let case = format!("posed {posed}, {draws} draws, {second:?}");
            let shared = frame_of_draws(&model, posed, Some(&light), Some(second), draws);
            assert_eq!(resolved(&shared.0), resolved(&alone.0), "{case}");
            assert_eq!(shared.1, alone.1, "{case}");
            let tables: std::collections::HashSet<u16> = shared
                .0
                .iter()
                .filter(|(_, colours)| colours[0] != 0)
                .map(|(command, _)| command.grda)
                .collect();
            assert_eq!(tables.len(), lit, "{case}: tables shared between commands");
        }
    }
}

#[test]
fn a_second_cpu_splits_where_a_polygon_starts_its_own_depth() {
    // 200 polygons: the split looks from 100 for one that is not "previous".
    for previous in [100..101, 90..150, 100..200, 0..200] {
        let bytes = mesh_with_previous(previous.clone());
        let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
        let alone = frame(&model, false, None, None);
        assert!(alone.0.len() > 3 + 40, "{previous:?}: {}", alone.1);
        for second in SECOND_CPUS {
            let shared = frame(&model, false, None, Some(second));
            assert_eq!(shared, alone, "{previous:?}, {second:?}");
        }
    }
}

#[test]
fn a_thread_shares_the_sort_of_a_frame_of_hundreds_of_polygons() {
    // From 256 visible polygons (`render::sort::MIN_SHARED_KEYS`) each pass of the frame's
    // sort is shared: two draws of a 200-quad mesh, the thread scattering its half of the
    // keys into the same array at the same time.
    let bytes = AlignedBytes::new(&jom_write::scenes::mesh(20, 10).to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
    for posed in [false, true] {
        let alone = frame(&model, posed, None, None);
        assert!(alone.0.len() > 3 + 256, "posed {posed}: {}", alone.1);
        for second in SECOND_CPUS {
            let shared = frame(&model, posed, None, Some(second));
            assert_eq!(shared, alone, "posed {posed}, {second:?}");
        }
    }
}

#[test]
fn a_thread_sorts_one_draws_keys_where_the_two_cpus_culled_them() {
    // One draw of 384 quads: each CPU's keys stay where it culled them, and the sort takes
    // them from there (no copy to bring them together).
    let bytes = AlignedBytes::new(&jom_write::scenes::mesh(24, 16).to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
    let draw = |worker: Option<SecondCpu>| {
        let renderer = renderer(worker.map(|w| Box::leak(Box::new(w)) as &mut dyn Worker));
        let handle = renderer.load(&model).expect("the model's VRAM");
        let camera = Camera {
            position: [0, 0, -3 * ONE],
            ..Camera::default()
        };
        let mut frame = renderer.begin(&camera, None).expect("a frame");
        let turned =
            Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-15), Angle(0)]);
        frame.draw(&handle, &turned).expect("room for the draw");
        let stats = frame.finish().expect("the frame");
        drop(handle);
        (
            front_list(renderer.into_vdp1().bytes()),
            format!("{stats:?}"),
        )
    };
    let alone = draw(None);
    assert!(alone.0.len() > 3 + 256, "{}", alone.1);
    for second in SECOND_CPUS {
        assert_eq!(draw(Some(second)), alone, "{second:?}");
    }
}

/// A clock that moves 10 ticks each time it is read.
#[test]
fn a_thread_draws_the_same_frames_with_a_ground() {
    // A ground of 384 quads (each CPU culls half: the halves brought together, in model
    // order, before the sorted draw's keys) under two sorted draws of it, lit and not.
    let bytes = AlignedBytes::new(&jom_write::scenes::mesh(24, 16).to_bytes());
    let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
    let light = Light {
        direction: [ONE / 2, -ONE / 2, 46_341],
        ambient: ONE / 4,
    };
    let draw = |worker: Option<SecondCpu>, light: Option<&Light>| {
        // Three draws of 425 points and 384 polygons.
        let arrays = Box::leak(Box::new(
            RendererArrays::<1536, 2304, 1200, 1200, 4, 4, 1152>::ZERO,
        ));
        let tables = Box::leak(Box::new(RendererTables::<4, 4, 4>::EMPTY));
        let vram = Box::leak(vec![0u8; VRAM_SIZE as usize].into_boxed_slice());
        let memory = RendererMemory::new(arrays, tables);
        let worker = worker.map(|w| Box::leak(Box::new(w)) as &mut dyn Worker);
        let renderer = Renderer::new(MemoryVram::new(vram), memory, worker).expect("sizes");
        let handle = renderer.load(&model).expect("the model's VRAM");
        let camera = Camera {
            position: [0, 0, -3 * ONE],
            ..Camera::default()
        };
        let mut frame = renderer.begin(&camera, light).expect("a frame");
        let turned = |x: i32, y: i32| {
            Matrix::translation([x, y, ONE]).then(&Matrix::rotation_xyz([
                Angle::from_degrees(20),
                Angle(0),
                Angle(0),
            ]))
        };
        // The ground's first rows above the screen: the first CPU's keys end before the
        // second's start.
        let ground = turned(0, -2 * ONE);
        frame
            .draw_ground(&handle, &ground)
            .expect("room for the ground");
        for x in [-ONE / 3, ONE / 3] {
            frame
                .draw(&handle, &turned(x, 0))
                .expect("room for the draw");
        }
        let stats = frame.finish().expect("the frame");
        drop(handle);
        (
            front_list(renderer.into_vdp1().bytes()),
            format!("{stats:?}"),
        )
    };
    for light in [None, Some(&light)] {
        let alone = draw(None, light);
        assert!(
            // The field `culled` (not `billboards_culled`).
            alone.0.len() > 3 + 600 && !alone.1.contains(" culled: 0,"),
            "{}",
            alone.1
        );
        for second in SECOND_CPUS {
            assert_eq!(draw(Some(second), light), alone, "{second:?}");
        }
    }
}

fn ticking_clock() -> u32 {
    static TICKS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    TICKS.fetch_add(10, std::sync::atomic::Ordering::Relaxed)
}

#[test]
fn a_clock_times_each_phase_of_a_frame() {
    let bytes = jom::include_aligned!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mesh.jom"
    ));
    let model = Model::from_bytes(bytes).expect("a valid fixture");
    let renderer = renderer(None);
    let handle = renderer.load(&model).expect("the model's VRAM");
    let camera = Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    };
    let untimed = {
        let mut frame = renderer.begin(&camera, None).expect("a frame");
        frame.draw(&handle, &Matrix::IDENTITY).expect("a draw");
        frame.finish().expect("the frame")
    };
    assert_eq!(untimed.times, Default::default());
    renderer.set_clock(Some(ticking_clock));
    let mut frame = renderer.begin(&camera, None).expect("a frame");
    for _ in 0..2 {
        frame.draw(&handle, &Matrix::IDENTITY).expect("a draw");
    }
    let times = frame.finish().expect("the frame").times;
    // Each draw reads the clock 3 times (start, transformed, culled), the end 5 (start,
    // sorted, emitted, waited, committed): each phase is one step of 10 per reading
    // between, the end's one after the other.
    assert_eq!(
        (times.transform, times.sort, times.emit, times.commit),
        (2 * 10, 2 * 10 + 10, 10, 10)
    );
}

/// Jobs a [`Counting`] worker was given.
static JOINS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Jobs the [`Counting`] worker of `one_lit_draw_shares_its_emission_as_an_unlit_one_does`
/// was given (its own count: tests run at once).
static LIT_JOINS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A second CPU that runs its share first, then this CPU's, and counts the shares.
struct Counting(&'static std::sync::atomic::AtomicUsize);

impl Worker for Counting {
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send)) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        there();
        here();
    }
}

#[test]
fn each_draw_of_a_frame_gives_the_second_cpu_half_its_points_and_polygons() {
    // The showcase's slave sped up neither transform nor culling (`git show d71a443:BENCHMARKS.md`): not for
    // want of work handed to it. Each draw of a frame of several models shares its points
    // and its polygons (the cause was the models' place, low work RAM).
    let bytes = jom::include_aligned!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mesh.jom"
    ));
    let model = Model::from_bytes(bytes).expect("a valid fixture");
    let renderer = renderer(Some(Box::leak(Box::new(Counting(&JOINS)))));
    let handle = renderer.load(&model).expect("the model's VRAM");
    let camera = Camera {
        position: [ONE / 2, 0, -2 * ONE],
        ..Camera::default()
    };
    let joins = || JOINS.load(std::sync::atomic::Ordering::Relaxed);
    let mut frame = renderer.begin(&camera, None).expect("a frame");
    for (draw, transform) in [
        Matrix::rotation_x(Angle::from_degrees(35)),
        Matrix::translation([ONE / 4, 0, ONE / 2]),
    ]
    .iter()
    .enumerate()
    {
        frame.draw(&handle, transform).expect("room for the draw");
        assert_eq!(
            joins(),
            2 * (draw + 1),
            "the transform and the culling of draw {draw}"
        );
    }
    frame.finish().expect("the frame");
}

#[test]
fn one_lit_draw_shares_its_emission_as_an_unlit_one_does() {
    // One draw's own runs share only a plain material's emission (a lit character alone
    // took the showcase's master 148,232 cycles a frame): lit, it goes through the frame
    // pass, which shares it. Its frame's end makes as many joins as the unlit one's.
    let bytes = lit_mesh_with(false);
    let model = Model::from_bytes(bytes.bytes()).expect("a valid scene");
    let renderer = renderer(Some(Box::leak(Box::new(Counting(&LIT_JOINS)))));
    let handle = renderer.load(&model).expect("the model's VRAM");
    let camera = Camera {
        position: [ONE / 2, 0, -2 * ONE],
        ..Camera::default()
    };
    let light = Light {
        direction: [ONE / 2, -ONE / 2, 46_341],
        ambient: ONE / 4,
    };
    let finish_joins = |light: Option<&Light>| {
        let mut frame = renderer.begin(&camera, light).expect("a frame");
        let transform = Matrix::rotation_x(Angle::from_degrees(20));
        frame.draw(&handle, &transform).expect("room for the draw");
        let before = LIT_JOINS.load(std::sync::atomic::Ordering::Relaxed);
        let stats = frame.finish().expect("the frame");
        assert!(stats.drawn >= 64, "{stats:?}");
        LIT_JOINS.load(std::sync::atomic::Ordering::Relaxed) - before
    };
    let unlit = finish_joins(None);
    assert!(unlit >= 1, "the unlit draw's emission is shared");
    assert_eq!(finish_joins(Some(&light)), unlit);
}

/// Jobs the [`Counting`] worker of `bones_made_on_two_cpus_are_the_bones_made_on_one` was
/// given.
static BONE_JOINS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The chain fixture's 32 bones hung as a character's are (the showcase's 16: hips, a spine
/// with a neck and head and two arms, two legs off the hips) and again below its last, or
/// left a chain: the fixture's animation turns every bone.
fn skeleton(branching: bool) -> AlignedBytes {
    let mut file = jom_write::scenes::chain();
    let character = [-1, 0, 1, 2, 1, 4, 5, 1, 7, 8, 0, 10, 11, 0, 13, 14];
    for (index, bone) in file.bones.iter_mut().flatten().enumerate() {
        if branching {
            bone.parent = match index {
                0..16 => character[index],
                _ => 15 + character[index - 16].max(0),
            };
        }
    }
    AlignedBytes::new(&file.to_bytes())
}

#[test]
fn bones_made_on_two_cpus_are_the_bones_made_on_one() {
    // A branching skeleton's bones from a cut on go to the second CPU with the bones they
    // hang from; a chain (every bone hangs from all those before it) stays on one.
    for (branching, joins) in [(true, 3), (false, 0)] {
        let bytes = skeleton(branching);
        let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
        let animation = model.animations().get(0).expect("an animation");
        let before = BONE_JOINS.load(std::sync::atomic::Ordering::Relaxed);
        for tick in [0, 9, 23] {
            let pose = pose_at(&animation, model.bones().len(), tick);
            let mut alone = [Matrix::IDENTITY; MAX_BONES];
            bone_matrices(&model, &pose, &mut alone);
            let mut counting = Counting(&BONE_JOINS);
            let (mut thread, mut again) = (Thread, RunAgain);
            for worker in [&mut thread as &mut dyn Worker, &mut again, &mut counting] {
                let mut shared = [Matrix::translation([7, 7, 7]); MAX_BONES];
                bone_matrices_with(&model, &pose, &mut shared, Some(worker));
                assert_eq!((branching, tick, shared), (branching, tick, alone));
            }
        }
        let after = BONE_JOINS.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!((branching, after - before), (branching, joins));
    }
}
