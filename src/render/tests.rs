//! Tests of drawing: what a frame of one model emits for the fixture model, table by table,
//! on the host and on the SH-2; and the fixtures and the frame of one draw ([`draw_one`])
//! the other tests of `render` share.

use super::shared::DrawStats;
use super::sort::{KeyCounts, SecondCounts};
use super::*;
use crate::format::{MaterialFlags, Model};
use crate::math::{Angle, Matrix, ONE};
use crate::vdp1::{
    CommandTable, DrawMode, GouraudCache, MemoryVram, Point, TextureCache, VramLayout, CTRL_FLIP_H,
};
use crate::{check, check_eq};

pub(crate) fn every_chunk() -> Model<'static> {
    valid(crate::selftest::fixtures::EVERY_CHUNK)
}

/// A camera 4 units in front of the fixture (on -Z), looking at it.
fn camera() -> Camera {
    Camera {
        position: [0, -ONE / 2, -4 * ONE],
        ..Camera::default()
    }
}

struct Drawn<const G: usize = 4> {
    list: CommandList<16, G>,
    stats: Result<DrawStats, DrawError>,
}

/// The layout of the fixture's drawings: the frame's gouraud tables at 1024.
const FIXTURE_LAYOUT: VramLayout = VramLayout {
    commands: 0..1024,
    frame_gouraud: 1024..1056,
    gouraud: 1056..1088,
    textures: 1088..4096,
};

/// How a test's model is placed.
#[derive(Clone, Copy)]
pub(crate) enum Place<'p> {
    Rigid(&'p Matrix),
    Posed(&'p Posed<'p>),
}

/// The most points and polygons of a model the tests draw alone (the mesh fixtures').
const MOST_POINTS: usize = MESH_POINTS;
const MOST_POLYGONS: usize = MESH_POLYGONS;

/// A frame of one draw: `model` placed by `place`, seen by `camera` and lit by `light`,
/// through a [`ListFrame`] (with `worker`, if any), emitted after the tables of `list`;
/// the frame's points (as many as the model's, at most [`MOST_POINTS`]) in `points`.
pub(crate) fn draw_one<const C: usize, const G: usize>(
    list: &mut CommandList<C, G>,
    model: LoadedModel<'_>,
    place: Place<'_>,
    (camera, light): (&Camera, Option<&Light>),
    points: &mut [ViewPoint],
    worker: Option<&mut dyn Worker>,
) -> Result<DrawStats, DrawError> {
    let mut screens = [Point::default(); MOST_POINTS];
    let mut keys = [0; 2 * MOST_POLYGONS];
    let (mut slots, mut tables) = ([DrawSlot::EMPTY], FrameTables::<1>::EMPTY);
    let count = points.len().min(MOST_POINTS);
    let points = &mut points[..count];
    let mut memory = FrameMemory::new(points, &mut screens, &mut keys, &mut slots, &mut tables);
    let mut frame = ListFrame::begin(memory.reborrow(), camera, light)?;
    if let Some(worker) = worker {
        frame = frame.with_worker(worker);
    }
    match place {
        Place::Rigid(transform) => frame.draw(model, transform)?,
        Place::Posed(posed) => frame.draw_posed(model, posed)?,
    }
    let stats = list.with_buffer(|buffer| frame.finish(buffer))?;
    Ok(DrawStats {
        drawn: stats.drawn,
        commands: stats.commands,
        culled: stats.culled,
        dropped: stats.dropped,
        gouraud_full: stats.gouraud_full,
    })
}

fn draw_fixture(transform: Matrix, camera: &Camera, light: Option<&Light>) -> Drawn {
    draw_model(&every_chunk(), transform, camera, light)
}

/// A model with the fixture's points and polygons (a patched copy), its textures and
/// gouraud tables loaded, drawn into a list with room for `G` frame gouraud tables.
fn draw_model<const G: usize>(
    model: &Model<'_>,
    transform: Matrix,
    camera: &Camera,
    light: Option<&Light>,
) -> Drawn<G> {
    let layout = FIXTURE_LAYOUT;
    let mut bytes = [0u8; 4096];
    let mut vram = MemoryVram::new(&mut bytes);
    let mut cache = TextureCache::<4>::new(layout.textures.clone());
    let textures = cache.load_model_value::<4>(model, &mut vram, |_, _| None);
    let mut gouraud = [0u16; 3];
    let mut gouraud_cache = GouraudCache::<4>::new(layout.gouraud.clone());
    let loaded = gouraud_cache.load_model(model, &mut vram, &mut gouraud);
    let mut list = CommandList::<16, G>::new(320, 224, &layout);
    let (Ok(textures), Ok(())) = (textures, loaded) else {
        return Drawn {
            list,
            stats: Err(DrawError::BufferTooSmall {
                buffer: "setup",
                needed: 0,
            }),
        };
    };
    let vram = ModelVram {
        textures: textures.slots(),
        gouraud: &gouraud,
    };
    let mut points = [ViewPoint::default(); 6];
    let model = LoadedModel { model, vram };
    let place = Place::Rigid(&transform);
    let stats = draw_one(&mut list, model, place, (camera, light), &mut points, None);
    Drawn { list, stats }
}

/// An RGB555 gouraud colour from its channels (16: unchanged).
const fn rgb(r: u16, g: u16, b: u16) -> u16 {
    0x8000 | b << 10 | g << 5 | r
}

/// The base (polygon 0: red, GOUR colours, lit, corner normals) of the fixture emitted in
/// parts, seen from the camera after `transform`: its list, and the frame gouraud tables
/// the dropping of the farthest polygons counts for it.
fn base_in_parts(
    transform: &Matrix,
    light: Option<(crate::math::Vec3, i32)>,
) -> (CommandList<16, 8>, usize) {
    let model = every_chunk();
    let camera = camera();
    let matrix = camera.view().then(transform);
    let mut points = [ViewPoint::default(); 6];
    transform_points_reference(
        &matrix,
        &Projection::of(&camera),
        model.points(),
        &mut points,
    );
    let textures = crate::vdp1::ModelTextures::<4>::default();
    // Its GOUR table's address (what emission reads is the GOUR colours).
    let resources = ModelVram {
        textures: textures.slots(),
        gouraud: &[1056 / 8, 0, 0],
    };
    let mut list = CommandList::<16, 8>::new(320, 224, &FIXTURE_LAYOUT);
    let polygon = super::emit::Emit {
        index: 0,
        in_parts: true,
        matrix: &matrix,
        model_light: super::emit::ModelLight::of(
            &model,
            &super::transforms::Transforms::rigid(matrix),
            light,
        )
        .direction(0)
        .copied(),
    };
    let emitted = list.with_buffer(|list| {
        super::emit::emit(list, &model, &resources, &camera, light, &points, polygon)
    });
    let frame = super::shared::ModelFrame {
        model: &model,
        resources: &resources,
        camera: &camera,
        points: &points,
        screens: None,
    };
    let counted = frame.frame_gouraud_tables(0, light.is_some(), true);
    match emitted {
        Ok(()) => (list, counted),
        Err(_) => (CommandList::new(320, 224, &FIXTURE_LAYOUT), counted),
    }
}

/// Fills the first half of `order` with the sort keys of the visible polygons, farthest
/// first (the second half is the sort's scratch); equal depths (16 bits of depth up to the
/// far plane) keep model order, so a decal follows the face it lies on. Also gives how
/// many of them are drawn in parts and cross the near plane. With a `worker`, each CPU
/// culls half of the polygons and does half of each pass of the sort.
pub(crate) fn sort_visible<'o, 'w>(
    frame: &super::shared::ModelFrame<'_, '_>,
    transforms: &super::transforms::Transforms,
    order: &'o mut [SortKey],
    stats: &mut DrawStats,
    worker: Option<&mut (dyn Worker + 'w)>,
) -> Result<(&'o [SortKey], super::shared::Kept), DrawError> {
    let count = frame.model.polygons().len();
    if order.len() < 2 * count {
        return Err(DrawError::BufferTooSmall {
            buffer: "order",
            needed: 2 * count,
        });
    }
    let (keys, scratch) = order.split_at_mut(count);
    let mut worker = worker;
    let mut counts = [KeyCounts::ZERO; 2];
    let (keys_out, counts_out) = (&mut *keys, &mut counts);
    let culled = super::cull::cull_visible(
        frame,
        (transforms, &[]),
        (keys_out, 0),
        (counts_out, false),
        worker.as_deref_mut(),
        (None, None),
    );
    stats.culled += culled.culled;
    let (first, second) = culled.parts_at();
    let parts = (first, second, SecondCounts::OfItsPart);
    let pass_counts = &mut [const { core::mem::MaybeUninit::uninit() }; 2];
    let sorted =
        super::sort::sort_counted(keys, parts, scratch, (&mut counts, pass_counts), worker);
    Ok((sorted, culled.kept))
}

/// The model turned so that the leaf (polygon 2) faces the camera.
fn quarter_turn() -> Matrix {
    Matrix::rotation_y(Angle(0x4000))
}

/// The polygon commands (after the system clip, user clip and local coordinates).
fn polygons<const G: usize>(drawn: &Drawn<G>) -> &[CommandTable] {
    &drawn.list.commands()[3..]
}

/// The mesh fixture: 12 x 10 textured quads, 16 bones (`jom_write::scenes::mesh`).
pub(crate) fn mesh() -> Model<'static> {
    valid(crate::selftest::fixtures::MESH)
}

/// One polygon, no textures and no gouraud tables: a model with nothing in VRAM.
pub(crate) fn minimal() -> Model<'static> {
    valid(crate::selftest::fixtures::MINIMAL)
}

/// A checked-in fixture as a model.
fn valid(bytes: &'static [u8]) -> Model<'static> {
    match Model::from_bytes(bytes) {
        Ok(model) => model,
        Err(_) => unreachable!("the fixture is valid (format tests check it)"),
    }
}

/// The mesh with runs of two plain materials and one that is not (`jom_write::fixtures`).
pub(crate) fn mesh_materials() -> Model<'static> {
    valid(crate::selftest::fixtures::MESH_MATERIALS)
}

/// Two boxes of coplanar runs (2 x 2 quads a side), each a group with a bone.
pub(crate) fn boxes() -> Model<'static> {
    valid(crate::selftest::fixtures::BOXES)
}

/// The boxes fixture's polygons.
pub(crate) const BOXES_POLYGONS: usize = 48;

/// The BMOT fixture: the mesh fixture's quads lit, bones moved and stretched by BMOT.
pub(crate) fn mesh_motion() -> Model<'static> {
    valid(crate::selftest::fixtures::MESH_MOTION)
}

/// The mesh fixture's points and polygons (12 x 10 quads).
const MESH_POINTS: usize = 13 * 11;
const MESH_POLYGONS: usize = 120;

/// A frame of the mesh fixture (tilted, posed by its animation when `posed`), drawn with
/// `worker`: its command list, stats and points.
fn draw_mesh(
    worker: Option<&mut (dyn Worker + 'static)>,
    posed: bool,
) -> (
    CommandList<128, 4>,
    Result<DrawStats, DrawError>,
    [ViewPoint; MESH_POINTS],
) {
    let model = mesh();
    let layout = VramLayout::default();
    let vram = ModelVram {
        textures: &[],
        gouraud: &[0; MESH_POLYGONS],
    };
    let loaded = LoadedModel {
        model: &model,
        vram,
    };
    let mut list = CommandList::new(320, 224, &layout);
    let mut points = [ViewPoint::default(); MESH_POINTS];
    let worker = worker.map(|w| w as &mut dyn Worker);
    // Seen from the side: part of the mesh is off the left of the screen.
    let camera = Camera {
        position: [5 * ONE / 2, 0, -3 * ONE],
        ..Camera::default()
    };
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(40), Angle::from_degrees(-25), Angle(0)]);
    let seen = (&camera, None);
    let stats = match model.animations().get(0).filter(|_| posed) {
        Some(animation) => {
            let pose = crate::anim::pose_at(&animation, model.bones().len(), 20);
            let mut bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
            crate::anim::bone_matrices(&model, &pose, &mut bones);
            let root = crate::anim::root_matrix(&pose);
            let posed = Posed {
                transform: &transform,
                root: &root,
                bones: &bones,
            };
            let place = Place::Posed(&posed);
            draw_one(&mut list, loaded, place, seen, &mut points, worker)
        }
        None => {
            let place = Place::Rigid(&transform);
            draw_one(&mut list, loaded, place, seen, &mut points, worker)
        }
    };
    (list, stats, points)
}

/// The VRAM layout of the golden BMOT frame: 130 command tables, 130 frame gouraud tables.
const MOTION_FRAME_LAYOUT: VramLayout = VramLayout {
    commands: 0..130 * 32,
    frame_gouraud: 130 * 32..130 * 40,
    gouraud: 130 * 40..130 * 40 + 8,
    textures: 130 * 40 + 8..130 * 40 + 16,
};
/// The bytes of the golden frame: the command and frame gouraud tables as committed.
const MOTION_FRAME_BYTES: usize = 130 * 40;

/// A lit, posed frame of the `mesh_motion` fixture (bones moved and stretched by BMOT, half
/// way between its keys) as committed to VRAM: command tables then gouraud tables.
fn motion_frame(vram_bytes: &mut [u8; MOTION_FRAME_BYTES + 16]) -> Result<DrawStats, DrawError> {
    let model = mesh_motion();
    let Some(animation) = model.animations().get(0) else {
        return Err(DrawError::BufferTooSmall {
            buffer: "animation",
            needed: 0,
        });
    };
    let pose = crate::anim::pose_at(&animation, model.bones().len(), 15);
    let mut bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
    crate::anim::bone_matrices(&model, &pose, &mut bones);
    let root = crate::anim::root_matrix(&pose);
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(20), Angle::from_degrees(-35), Angle(0)]);
    let posed = Posed {
        transform: &transform,
        root: &root,
        bones: &bones,
    };
    let vram = ModelVram {
        textures: &[],
        gouraud: &[0; MESH_POLYGONS],
    };
    let loaded = LoadedModel {
        model: &model,
        vram,
    };
    let mut list = CommandList::<128, 128>::new(320, 224, &MOTION_FRAME_LAYOUT);
    let mut points = [ViewPoint::default(); MESH_POINTS];
    let camera = Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    };
    let light = Light {
        direction: [0, 37837, 53510],
        ambient: ONE / 4,
    };
    let place = Place::Posed(&posed);
    let seen = (&camera, Some(&light));
    let stats = draw_one(&mut list, loaded, place, seen, &mut points, None)?;
    let mut vram = MemoryVram::new(vram_bytes);
    list.commit(&mut vram, &MOTION_FRAME_LAYOUT)?;
    Ok(stats)
}

/// `JOM_BLESS=1 cargo test -p jom --lib motion_frame` rewrites the golden frame.
#[cfg(test)]
mod golden {
    extern crate std;

    #[test]
    fn bless_motion_frame() {
        if std::env::var_os("JOM_BLESS").is_none() {
            return;
        }
        let mut bytes = [0u8; super::MOTION_FRAME_BYTES + 16];
        super::motion_frame(&mut bytes).expect("the frame draws");
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/mesh_motion_frame.bin"
        );
        std::fs::write(path, &bytes[..super::MOTION_FRAME_BYTES]).expect("golden frame written");
    }

    fn ticking_clock() -> u32 {
        static TICKS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        TICKS.fetch_add(10, std::sync::atomic::Ordering::Relaxed)
    }

    /// A list frame with a clock reads it between its phases: each phase timed, none
    /// waited for or committed (its caller writes the list).
    #[test]
    fn a_list_frame_reads_its_clock_between_phases() {
        use super::*;
        let model = every_chunk();
        let loaded = LoadedModel {
            model: &model,
            vram: ModelVram {
                textures: &[],
                gouraud: &[0; 3],
            },
        };
        let mut arrays = FrameArrays::<6, 3, 1>::EMPTY;
        let mut list = CommandList::<16, 4>::new(320, 224, &VramLayout::default());
        let frame = ListFrame::begin(arrays.memory(), &camera(), None).expect("a camera");
        let mut frame = frame.with_clock(ticking_clock);
        frame.draw(loaded, &quarter_turn()).expect("a draw");
        let stats = list
            .with_buffer(|list| frame.finish(list))
            .expect("a frame");
        let times = stats.times;
        assert!(
            times.transform > 0 && times.sort > 0 && times.emit > 0,
            "{times:?}"
        );
        assert_eq!((times.wait, times.commit), (0, 0));
        assert_eq!(stats.drawn, 2);
    }

    /// A renderer frame's end is timed whole: its phases (the sort, the emission, the wait,
    /// the commit) follow one another from the end's first reading of the clock to its
    /// last, so that they add up to all the time it took (the bench's "CPU work a frame"
    /// leaves none of it out: not the look for the frame change, nor the overlays' place).
    #[test]
    fn a_renderer_frames_end_is_timed_whole() {
        use super::*;
        use crate::vdp1::VRAM_SIZE;
        // This test's own clock, each reading 10 after the one before: not
        // `ticking_clock`, which the test above may read meanwhile (tests run in parallel).
        fn clock() -> u32 {
            static TICKS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
            TICKS.fetch_add(10, std::sync::atomic::Ordering::Relaxed)
        }
        let memory = crate::renderer_memory!(points: 64, polygons: 64, commands: 80,
            frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
            model_polygons: 64, model_planes: 64, draws: 4)
        .expect("the memory");
        let mut vram = std::vec![0u8; VRAM_SIZE as usize];
        let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None).expect("sizes");
        renderer.set_clock(Some(clock));
        for _ in 0..2 {
            let mut frame = renderer.begin(&camera(), None).expect("a camera");
            frame
                .push_command(CommandTable::EMPTY)
                .expect("room for an overlay");
            let before = clock();
            let times = frame.finish().expect("a frame").times;
            let after = clock();
            // One reading before the end's first and one after its last.
            let whole = after - before - 20;
            assert_eq!(times.sort + times.emit + times.wait + times.commit, whole);
        }
    }
}

crate::test_suite! {
    fn a_bone_motion_frame_is_the_golden_one() {
        // The same bytes on the host, under qemu and on both emulated Saturns: the engine's
        // BMOT pose, matrices, lighting under scale, culling and emission agree everywhere.
        let golden: &[u8] = crate::selftest::fixtures::MESH_MOTION_FRAME;
        let mut bytes = [0u8; MOTION_FRAME_BYTES + 16];
        let stats = motion_frame(&mut bytes);
        check!(stats.is_ok());
        let Ok(stats) = stats else { return Ok(()) };
        check!(stats.drawn > 60 && stats.culled < 60);
        check_eq!(golden.len(), MOTION_FRAME_BYTES);
        let differing = bytes[..MOTION_FRAME_BYTES].iter().zip(golden).position(|(a, b)| a != b);
        check_eq!(differing, None);
    }

    fn stretched_bones_light_with_unit_normals_perpendicular_to_their_polygons() {
        use super::transforms::Transforms;
        let model = every_chunk();
        // Bone 1 (the spike's group) stretched 3 times along X after a turn, bone 0 turned.
        let turn = Matrix::rotation_xyz([Angle::from_degrees(30), Angle(0), Angle::from_degrees(50)]);
        let stretch = Matrix([[3 * ONE, 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE / 2, 0]]);
        let mut bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
        bones[0] = turn;
        bones[1] = stretch.then(&turn);
        let transforms = Transforms::posed(&model, &Matrix::IDENTITY, &Matrix::IDENTITY, &bones);
        check!(!transforms.is_stretched(1));
        check!(transforms.is_stretched(2));
        // A turned bone's normals are only turned, as before.
        let normal = [0, -46341, -46341];
        check_eq!(transforms.normal(1, normal), turn.rotate(normal));
        // A face with the normal (1, 1, 1) / sqrt(3) and two edges along it: the moved
        // edges are perpendicular to the moved normal, which is unit length.
        let normal = [37837, 37837, 37837];
        let edges = [[ONE, -ONE, 0], [0, ONE, -ONE]].map(|e| bones[1].rotate(e));
        let moved = transforms.normal(2, normal);
        for edge in edges {
            check!(crate::math::dot(moved, edge).abs() <= 16);
        }
        let length = i64::from(moved[0]).pow(2) + i64::from(moved[1]).pow(2) + i64::from(moved[2]).pow(2);
        check!((length - (1 << 32)).abs() < 1 << 20);
        // The stretch alone (without the cofactors) would tilt it off the face.
        let plain = bones[1].rotate(normal);
        check!(edges.iter().any(|&edge| crate::math::dot(plain, edge).abs() > 4096));
    }

    fn list_starts_with_clipping_and_origin() {
        let drawn = draw_fixture(Matrix::IDENTITY, &camera(), None);
        let head: [u16; 3] = core::array::from_fn(|i| drawn.list.commands()[i].ctrl);
        check_eq!(head, [0x9, 0x8, 0xA]);
        check_eq!(drawn.list.commands()[0].corners()[2], crate::vdp1::Point::new(319, 223));
        check_eq!(drawn.list.commands()[2].corners()[0], crate::vdp1::Point::new(160, 112));
    }

    fn back_faces_are_culled_unless_dual() {
        // The base (normal +Y, down) is seen from above: culled. The leaf faces +X and up:
        // culled from the front. The wall is dual plane: drawn.
        let drawn = draw_fixture(Matrix::IDENTITY, &camera(), None);
        check_eq!(drawn.stats, Ok(DrawStats { drawn: 1, commands: 1, culled: 2, dropped: 0, gouraud_full: false }));
        check_eq!(polygons(&drawn)[0].ctrl & CTRL_FLIP_H, CTRL_FLIP_H);
        // A quarter turn around Y brings the leaf's face to the camera.
        let turned = draw_fixture(quarter_turn(), &camera(), None);
        check_eq!(turned.stats, Ok(DrawStats { drawn: 2, commands: 2, culled: 1, dropped: 0, gouraud_full: false }));
        // Half a turn: the leaf faces -X, away again; the dual wall stays.
        let back = draw_fixture(Matrix::rotation_y(Angle(-0x8000)), &camera(), None);
        check_eq!(back.stats.map(|s| s.drawn), Ok(1));
    }

    fn materials_become_draw_modes() {
        let drawn = draw_fixture(quarter_turn(), &camera(), None);
        let tables = polygons(&drawn);
        check_eq!(tables.len(), 2);
        let wall = tables.iter().find(|t| t.ctrl & CTRL_FLIP_H != 0);
        let leaf = tables.iter().find(|t| t.ctrl & CTRL_FLIP_H == 0);
        let (Some(wall), Some(leaf)) = (wall, leaf) else { return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("tables"))) };
        // The wall: distorted sprite flipped H, RGB, half transparent, end codes on
        // (bit 7 clear), its 8x2 texture at the start of the texture region.
        check_eq!(wall.ctrl, 0x0012);
        check_eq!(wall.pmod, (5 << 3) | 3);
        check_eq!((wall.srca, wall.size), (1088 / 8, 0x0102));
        // The leaf: flipped V, 16 colours through its lookup table, mesh, end codes off.
        check_eq!(leaf.ctrl, 0x0022);
        check_eq!(leaf.pmod, DrawMode::MESH | DrawMode::END_CODES_DISABLED | (1 << 3));
        check_eq!(leaf.colr, (1088 + 32) / 8);
        check_eq!(leaf.srca, (1088 + 64) / 8);
    }

    fn polygons_are_sorted_back_to_front() {
        let drawn = draw_fixture(quarter_turn(), &camera(), None);
        let tables = polygons(&drawn);
        // The wall's material sorts as "previous": it takes the depth of the base before
        // it, which sorts by its nearest point (3 units away); the leaf's centre is 3.5
        // units away: the leaf comes first, the wall over it.
        check_eq!(tables.len(), 2);
        check_eq!(tables.iter().map(|t| t.ctrl & CTRL_FLIP_H != 0).collect::<heapless::Vec<bool, 2>>(), [false, true]);
    }

    fn light_darkens_lit_materials_only() {
        let light = Light { direction: [0, 0, ONE], ambient: 0 };
        let drawn = draw_fixture(Matrix::rotation_x(Angle(-0x4000)), &camera(), Some(&light));
        // Turned a quarter turn around X, the base (red, lit, gouraud) faces the camera
        // and the light comes from behind the camera straight at it: its GOUR colours in
        // a frame table.
        let tables = polygons(&drawn);
        let base = tables.iter().find(|t| t.ctrl & 0xF == 0x4);
        check!(base.is_some());
        check!(base.is_some_and(|t| t.pmod & 7 == 4 && t.grda == 1024 / 8));
        let away = Light { direction: [0, 0, -ONE], ambient: ONE / 4 };
        let dark = draw_fixture(Matrix::rotation_x(Angle(-0x4000)), &camera(), Some(&away));
        check!(polygons(&dark).iter().any(|t| t.ctrl & 0xF == 0x4 && t.grda == 1024 / 8));
    }

    fn full_command_list_drops_the_farthest() {
        let model = every_chunk();
        let layout = VramLayout::default();
        let mut bytes = [0u8; 64];
        let mut vram = MemoryVram::new(&mut bytes);
        let _ = &mut vram;
        let textures = TextureCache::<4>::new(0..0).load_model_value::<4>(&model, &mut vram, |_, _| None);
        check!(textures.is_err());
        // Without textures VRAM is not needed: a list with room for one polygon.
        let mut list = CommandList::<5, 1>::new(320, 224, &layout);
        check_eq!(list.room(), 1);
        let loaded = LoadedModel { model: &model, vram: ModelVram { textures: &[], gouraud: &[0; 3] } };
        let mut points = [ViewPoint::default(); 6];
        let stats = draw_one(&mut list, loaded, Place::Rigid(&quarter_turn()), (&camera(), None), &mut points, None);
        check_eq!(stats, Ok(DrawStats { drawn: 1, commands: 1, culled: 1, dropped: 1, gouraud_full: false }));
        let mut small = [ViewPoint::default(); 2];
        let error = draw_one(&mut list, loaded, Place::Rigid(&Matrix::IDENTITY), (&camera(), None), &mut small, None);
        check_eq!(error, Err(DrawError::BufferTooSmall { buffer: "points", needed: 6 }));
    }

    fn posed_groups_move_with_their_bones() {
        let model = every_chunk();
        let layout = VramLayout { commands: 0..1024, frame_gouraud: 1024..1056, gouraud: 1056..1088, textures: 1088..4096 };
        let loaded = LoadedModel { model: &model, vram: ModelVram { textures: &[], gouraud: &[0; 3] } };
        let draw_with = |bones: &[Matrix; crate::format::MAX_BONES], root: &Matrix| {
            let mut list = CommandList::<16, 4>::new(320, 224, &layout);
            let mut points = [ViewPoint::default(); 6];
            let posed = Posed { transform: &quarter_turn(), root, bones };
            let stats = draw_one(&mut list, loaded, Place::Posed(&posed), (&camera(), None), &mut points, None);
            (stats, points)
        };
        let rest = [Matrix::IDENTITY; crate::format::MAX_BONES];
        let (stats, at_rest) = draw_with(&rest, &Matrix::IDENTITY);
        // With every bone at rest the pose is the model as stored: the same as a rigid draw.
        check_eq!(stats.map(|s| s.drawn), Ok(2));
        // Bone 1 moves group 1 (point 5) up by one unit; the root offset moves the points
        // of no bone's group (point 4, shared by two groups) by one unit along X.
        let mut moved = rest;
        moved[1] = Matrix::translation([0, -ONE, 0]);
        let (_, posed) = draw_with(&moved, &Matrix::translation([ONE, 0, 0]));
        check_eq!(posed[0].view, at_rest[0].view);
        check_eq!(posed[5].view[1], at_rest[5].view[1] - ONE);
        // After the quarter turn around Y the model's X is the camera's -Z.
        check_eq!(posed[4].view[2], at_rest[4].view[2] - ONE);
    }

    fn corner_normals_light_each_corner() {
        let light = Light { direction: [0, 0, ONE], ambient: 0 };
        let drawn = draw_fixture(Matrix::rotation_x(Angle(-0x4000)), &camera(), Some(&light));
        // The base's corners all use normal 0 (straight at the light after the turn): its
        // GOUR colours unchanged, one frame table per lit polygon with corner normals.
        check_eq!(drawn.list.gouraud_tables().len(), 1);
        check_eq!(drawn.list.gouraud_tables()[0].0[0], 0x8000 | 16 << 10 | 16 << 5 | 31);
        let away = Light { direction: [0, 0, -ONE], ambient: ONE / 2 };
        let dark = draw_fixture(Matrix::rotation_x(Angle(-0x4000)), &camera(), Some(&away));
        // Turned away: only the ambient half: every channel halved.
        check_eq!(dark.list.gouraud_tables()[0].0[0], 0x8000 | 8 << 10 | 8 << 5 | 15);
    }

    fn a_started_list_holds_its_head_only() {
        let mut drawn = draw_fixture(quarter_turn(), &camera(), None);
        check_eq!(drawn.list.commands().len(), 3 + 2);
        let started = drawn.list.with_buffer(|list| list.start(320, 224).map(|()| (list.len(), list.gouraud_len())));
        check_eq!(started, Ok((3, 0)));
        check_eq!(drawn.list.commands()[2].ctrl, 0xA);
        let (mut tables, mut gouraud) = ([CommandTable::EMPTY; 3], [crate::vdp1::GouraudTable::default(); 1]);
        // No room for the end after the head.
        let mut short = CommandBuffer::new(&mut tables, 0, &mut gouraud, 0, 0);
        check_eq!(short.start(320, 224), Err(DrawError::CommandListFull { capacity: 3 }));
    }

    fn sphere_visibility() {
        let camera = camera();
        check!(camera.is_sphere_visible([0, 0, 0], ONE));
        // Behind the camera, past the far plane, far to the side: not visible.
        check!(!camera.is_sphere_visible([0, 0, -10 * ONE], ONE));
        check!(!camera.is_sphere_visible([0, 0, 2000 * ONE], ONE));
        check!(!camera.is_sphere_visible([100 * ONE, 0, 0], ONE));
        check!(!camera.is_sphere_visible([0, 50 * ONE, 0], ONE));
        // Partly in view at the edge: visible.
        check!(camera.is_sphere_visible([5 * ONE, 0, 0], 2 * ONE));
        check!(!camera.is_sphere_visible([9 * ONE, 0, 0], 2 * ONE));
    }

    fn a_second_cpu_draws_the_same_frame() {
        for posed in [false, true] {
            let (alone, alone_stats, alone_points) = draw_mesh(None, posed);
            let (shared, shared_stats, shared_points) = draw_mesh(Some(&mut InOrder), posed);
            check!(alone_stats.is_ok_and(|s| s.drawn > MESH_POLYGONS / 4 && s.culled > 0));
            check_eq!(shared_stats, alone_stats);
            check!(shared_points == alone_points);
            check!(shared.commands() == alone.commands());
        }
    }

    fn bones_built_on_two_cpus_are_the_bones_built_on_one() {
        // The mesh's 16 bones, each turned and moved its own way: built with a second CPU
        // (half of them there), every matrix, eye, mask and run is as built on one.
        let model = mesh();
        let mut bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
        for (b, bone) in bones.iter_mut().enumerate() {
            let turn = Angle((0x0700 * b as i32) as i16);
            *bone = Matrix::rotation_xyz([turn, Angle(-turn.0 / 2), Angle(0x300)]);
            bone.0[1][3] = b as i32 * ONE / 8;
        }
        let model_view = camera().view().then(&Matrix::rotation_y(Angle(0x1234)));
        let root = Matrix::translation([0, ONE / 4, 0]);
        let alone = super::transforms::Transforms::posed(&model, &model_view, &root, &bones);
        let mut shared = super::transforms::Transforms::EMPTY;
        shared.set_posed(&model, (&model_view, super::transforms::rotation_error(&model_view)), &root, &bones, false, Some(&mut InOrder));
        check!(alone.used() == (1 << (model.bones().len() + 1)) - 1);
        check_eq!(shared.used(), alone.used());
        check_eq!(shared.within_reach(), alone.within_reach());
        check_eq!(shared.inexact(), alone.inexact());
        for i in 0..=model.bones().len() {
            check_eq!((i, shared.matrices[i]), (i, alone.matrices[i]));
            check_eq!((i, shared.eyes[i]), (i, alone.eyes[i]));
            check_eq!((i, shared.is_stretched(i)), (i, alone.is_stretched(i)));
        }
        check!(shared.point_runs(MESH_POINTS).eq(alone.point_runs(MESH_POINTS)));
        check!(shared.polygon_runs(MESH_POLYGONS).eq(alone.polygon_runs(MESH_POLYGONS)));
    }

    fn a_draws_runs_are_found_again_only_when_its_matrices_change() {
        use super::emit::ModelLight;
        use super::transforms::Transforms;
        // One light kept from draw to draw (a slot's): posed, rigid, unlit, posed again;
        // each time the runs a new one finds.
        let model = mesh();
        let bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
        let view = camera().view();
        let posed = Transforms::posed(&model, &view, &Matrix::IDENTITY, &bones);
        let rigid = Transforms::rigid(view);
        let light = Some(([0, 0, ONE], ONE / 4));
        // (What is past the last run and the 120 polygons' 4 groups is not read.)
        let runs_of = |l: &ModelLight| {
            let mut ends = [0; 40];
            ends[..=l.runs].copy_from_slice(&l.ends[..=l.runs]);
            (l.runs, ends, [l.groups[0], l.groups[1], l.groups[2], l.groups[3]])
        };
        let mut kept = ModelLight::NONE;
        for (transforms, view) in [(&posed, light), (&rigid, light), (&posed, None), (&posed, light), (&posed, light)] {
            kept.set(&model, transforms, view, None);
            check_eq!(runs_of(&kept), runs_of(&ModelLight::of(&model, transforms, view)));
        }
        check!(kept.runs > 1);
    }

    fn a_posed_draw_culls_alike_when_its_groups_hold_their_corners() {
        use super::cull::cull_visible;
        use super::transforms::{corners_in_groups, Transforms};
        // The boxes (each box a group) and the mesh (16 groups of rows) hold every
        // polygon's corner A in its own group; the every-chunk fixture has a polygon that
        // starts at a point its group does not hold.
        check!(corners_in_groups(&boxes()) && corners_in_groups(&mesh()));
        check!(!corners_in_groups(&every_chunk()));
        // A posed draw culls the same (keys, counts, stats) whether its bones' matrices
        // take every point (the culling's form without the corner-A lookup) or only their
        // groups' (the form with it), from views all in front, turned and close.
        let mut bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
        for (b, bone) in bones.iter_mut().enumerate() {
            *bone = Matrix::rotation_xyz([Angle((0x0900 * b as i32) as i16), Angle(0x0400), Angle(0)]);
        }
        let empty = crate::vdp1::ModelTextures::<4>::default();
        let resources = ModelVram { textures: empty.slots(), gouraud: &[0; MESH_POLYGONS] };
        let mut kept = 0;
        for model in [boxes(), mesh()] {
            let polygons = model.polygons().len();
            for camera in [Camera { position: [0, 0, -4 * ONE], ..Camera::default() }, Camera { position: [ONE, ONE / 2, -2 * ONE], ..Camera::default() }, Camera { position: [0, 0, -ONE / 2], ..Camera::default() }] {
                let model_view = camera.view().then(&Matrix::rotation_y(Angle(0x1800)));
                let mut culled = [(0, [0; MESH_POLYGONS], [KeyCounts::ZERO; 2]); 2];
                for (owned, (visible, keys, counts)) in [true, false].into_iter().zip(&mut culled) {
                    let mut transforms = Transforms::EMPTY;
                    transforms.set_posed(&model, (&model_view, super::transforms::rotation_error(&model_view)), &Matrix::IDENTITY, &bones, owned, None);
                    let mut points = [ViewPoint::default(); MESH_POINTS];
                    let points = &mut points[..model.points().len()];
                    let projection = Projection::of(&camera);
                    for (run, matrix) in transforms.point_runs(points.len()) {
                        super::project::transform_points_reference(&transforms.matrices[matrix], &projection, &model.points()[run.clone()], &mut points[run]);
                    }
                    let frame = super::shared::ModelFrame { model: &model, resources: &resources, camera: &camera, points, screens: None };
                    let found = cull_visible(&frame, (&transforms, &[]), (&mut keys[..polygons], 0), (counts, true), None, (None, None));
                    *visible = found.visible;
                    check!(found.visible + found.culled == polygons);
                }
                check!(culled[0] == culled[1]);
                kept += culled[0].0;
            }
        }
        check!(kept > 0);
    }

    fn the_common_case_culls_as_the_general_loop() {
        // The mesh's material is plain: `cull_range` takes its fast path (SH-2 assembly on
        // a Saturn) unless told not to; both give the same keys and counts, seen from
        // several places (all visible, some off screen, some behind, some facing away).
        // Also the mesh in runs of two plain materials and one not: the fast path goes on
        // through the plain ones and stops at the other.
        for model in [mesh(), mesh_materials()] {
            let empty = crate::vdp1::ModelTextures::<4>::default();
            let resources = ModelVram { textures: empty.slots(), gouraud: &[0; MESH_POLYGONS] };
            let views = [
                (Camera { position: [0, 0, -3 * ONE], ..Camera::default() }, Angle(0)),
                (Camera { position: [5 * ONE / 2, 0, -3 * ONE], ..Camera::default() }, Angle::from_degrees(30)),
                (Camera { position: [0, ONE / 3, -ONE / 3], ..Camera::default() }, Angle::from_degrees(-20)),
                (Camera { position: [0, 0, 3 * ONE], ..Camera::default() }, Angle(0)),
                (Camera { position: [0, 0, -3 * ONE], far: 3 * ONE, ..Camera::default() }, Angle::from_degrees(60)),
                // Turned across the near plane: facing polygons crossing it wholly behind,
                // beyond a side plane and shown (50, 8 and 2 of them).
                (Camera { position: [0, 0, -ONE / 4], ..Camera::default() }, Angle::from_degrees(60)),
            ];
            for (view, (camera, turn)) in views.iter().enumerate() {
                let transforms = super::transforms::Transforms::rigid(camera.view().then(&Matrix::rotation_y(*turn)));
                let mut points = [ViewPoint::default(); MESH_POINTS];
                let projection = Projection::of(camera);
                for (run, matrix) in transforms.point_runs(MESH_POINTS) {
                    super::project::transform_points_reference(&transforms.matrices[matrix], &projection, &model.points()[run.clone()], &mut points[run]);
                }
                let frame = super::shared::ModelFrame { model: &model, resources: &resources, camera, points: &points, screens: None };
                let (mut fast, mut general) = ([0; MESH_POLYGONS], [0; MESH_POLYGONS]);
                let (mut fast_keys, mut general_keys) = (KeyCounts::ZERO, KeyCounts::ZERO);
                // Numbered as a frame's second draw's: its first polygon the frame's 7th.
                let fast_counts = super::cull::cull_range(&frame, &transforms, 0..MESH_POLYGONS, (&mut fast, 7), &mut fast_keys, Some(&[]));
                let general_counts = super::cull::cull_range(&frame, &transforms, 0..MESH_POLYGONS, (&mut general, 7), &mut general_keys, None);
                check_eq!((view, fast_counts), (view, general_counts));
                check!(fast[..fast_counts.visible] == general[..general_counts.visible]);
                let numbers = fast[..fast_counts.visible].iter().map(|&key| super::shared::polygon_of(key));
                check!(numbers.clone().all(|number| (7..7 + MESH_POLYGONS).contains(&number)));
                // The keys as counted for the sort, by both paths: those of the keys written.
                let mut recounted = KeyCounts::ZERO;
                recounted.count_all(&fast[..fast_counts.visible]);
                check!(fast_keys == recounted && general_keys == recounted);
                // The kept polygons crossing the near plane, counted by both paths: none in
                // the view from afar, some across the plane (what lets emission leave out
                // its test of the plane, or not).
                let behind = |number: usize| model.polygons()[number - 7].corners().iter().any(|&c| points[usize::from(c)].view[2] < camera.near);
                let crossing = numbers.clone().filter(|&number| behind(number)).count();
                check_eq!((view, fast_counts.kept.crossing), (view, crossing));
                check!((view != 0 || crossing == 0) && (view != 5 || crossing > 0));
                // What each view is for: all seen; some off screen; near (some crossing the
                // near plane); all behind; past the far plane; across the near plane.
                let expected = [(MESH_POLYGONS, 0), (1, 1), (1, 1), (0, MESH_POLYGONS), (1, 1), (1, 1)][view];
                let as_expected = fast_counts.visible >= expected.0 && fast_counts.culled >= expected.1;
                check_eq!((view, fast_counts, as_expected), (view, fast_counts, true));
                check!(fast_counts.visible + fast_counts.culled == MESH_POLYGONS);
            }
        }
    }

    fn coplanar_runs_are_a_side_of_one_material_and_group() {
        use super::cull::{faces, write_plane_runs};
        use super::transforms::Eye;
        // Each box's sides are 2 x 2 quads: a run of 4, but the second box's last side,
        // whose last two quads are of another material.
        let model = boxes();
        let mut runs = [0xEE; BOXES_POLYGONS];
        write_plane_runs(&model, &mut runs);
        let expected: [u8; BOXES_POLYGONS] = core::array::from_fn(|i| match i {
            44.. => [1, 0, 1, 0][i - 44],
            _ => 3 - (i % 4) as u8,
        });
        check_eq!(runs, expected);
        // The mesh is one plane cut into 16 groups: no run goes past its group's end.
        let mesh = mesh();
        let mut mesh_runs = [0; MESH_POLYGONS];
        write_plane_runs(&mesh, &mut mesh_runs);
        for group in mesh.groups().iter().filter(|g| !g.polygons().is_empty()) {
            let polygons = group.polygons();
            check_eq!(usize::from(mesh_runs[polygons.start]) + 1, polygons.len());
            check_eq!(mesh_runs[polygons.end - 1], 0);
        }
        // Every polygon of a run faces an eye as its first does, wherever the eye.
        let polygons = model.polygons();
        let facing = |index: usize, eye: &Eye| {
            let corner = model.points()[usize::from(polygons[index].corners()[0])].raw();
            faces(polygons[index].normal().raw(), corner, eye)
        };
        let (mut away, mut towards) = (0, 0);
        for position in [[0, 0, -4 * ONE], [3 * ONE, 2 * ONE, ONE], [-ONE / 3, -5 * ONE, ONE / 2]] {
            for mirrored in [false, true] {
                let eye = Eye { position, mirrored };
                for (index, &run) in runs.iter().enumerate() {
                    for next in index + 1..=index + usize::from(run) {
                        check_eq!((index, next, facing(next, &eye)), (index, next, facing(index, &eye)));
                    }
                    let first = facing(index, &eye);
                    (away, towards) = (away + usize::from(!first), towards + usize::from(first));
                }
            }
        }
        check!(away > 50 && towards > 50);
        // A model that does not fit the table gets the runs of the polygons it holds.
        let mut short = [0xEE; 6];
        write_plane_runs(&model, &mut short);
        check_eq!(short, [3, 2, 1, 0, 1, 0]);
    }

    fn a_facing_test_holds_for_its_coplanar_run() {
        use super::cull::{cull_range, write_plane_runs};
        use super::transforms::Transforms;
        // The boxes seen from around: the common case passing over a back face's run, and
        // taking a face's run as facing the eye with it, gives the keys, counts and
        // numbers of the general loop, polygon by polygon. A table that says every polygon
        // is in one plane with the next 255 does not: the culling reads it both ways (here,
        // then the SH-2's assembly): more drawn when the first faces the eye, fewer when
        // it faces away.
        let model = boxes();
        let mut runs = [0; BOXES_POLYGONS];
        write_plane_runs(&model, &mut runs);
        let wrong = [255; BOXES_POLYGONS];
        let empty = crate::vdp1::ModelTextures::<4>::default();
        let resources = ModelVram { textures: empty.slots(), gouraud: &[0; BOXES_POLYGONS] };
        let (mut more, mut fewer) = (0, 0);
        for (view, yaw) in [0, 30, 100, 180, 250, 330].into_iter().enumerate() {
            let camera = Camera { position: [0, ONE, -6 * ONE], ..Camera::default() };
            let transforms = Transforms::rigid(camera.view().then(&Matrix::rotation_y(Angle::from_degrees(yaw))));
            let mut points = [ViewPoint::default(); 52];
            let projection = Projection::of(&camera);
            super::project::transform_points_reference(&transforms.matrices[0], &projection, model.points(), &mut points);
            let frame = super::shared::ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
            let cull = |table: Option<&[u8]>| {
                let (mut keys, mut counts) = ([0; BOXES_POLYGONS], KeyCounts::ZERO);
                let culled = cull_range(&frame, &transforms, 0..BOXES_POLYGONS, (&mut keys, 3), &mut counts, table);
                (culled, keys, counts)
            };
            let general = cull(None);
            check_eq!((view, cull(Some(&runs))), (view, general));
            check!(general.0.culled >= 20 && general.0.visible >= 8);
            let lied = cull(Some(&wrong)).0.visible;
            more += usize::from(lied > general.0.visible);
            fewer += usize::from(lied < general.0.visible);
        }
        check!(more >= 1 && fewer >= 1);
    }

    fn the_depth_factor_is_the_64_bit_quotient_either_way() {
        use super::cull::{depth_factor, DIVIDED_FAR};
        // On a Saturn the far planes past DIVIDED_FAR go through the division unit, the
        // others through the 64-bit division: both give the 64-bit quotient, clamped.
        let quotient = |far: i32| ((0xFFFF_u64 << 32) / u64::from(far as u32)).min(u64::from(u32::MAX)) as u32;
        let fars = [1, 0xFFFF, DIVIDED_FAR, DIVIDED_FAR + 1, 10 * ONE, 1000 * ONE + 7, i32::MAX];
        check_eq!(fars.map(depth_factor), fars.map(quotient));
        check!(depth_factor(DIVIDED_FAR + 1) > 1 << 30);
    }

    fn a_cull_cut_moves_towards_both_cpus_ending_together() {
        use super::cull::CullCut;
        // 1,000 polygons cut at 500: the first CPU's part took 50,000 cycles (100 a
        // polygon), both 60,000: it waited 10,000, half of which is 50 of its polygons.
        let mut cut = CullCut::HALF.of(7);
        cut.move_by((500, 1000), (50_000, 60_000));
        let moved = cut;
        // Within the slack (a 64th of its time): a step back of a 128th (8 polygons).
        cut.move_by((550, 1000), (55_000, 55_800));
        let stepped = cut;
        // Never past a quarter of the polygons from either end.
        cut.move_by((550, 1000), (1_000, 900_000));
        let far = cut;
        cut.move_by((260, 1000), (26_000, 26_000));
        check_eq!([moved, stepped, far, cut], [550, 542, 750, 252].map(|at| CullCut::at_for_tests(at, 7)));
        // Of another model: half way again.
        check_eq!(cut.of(8), CullCut::HALF.of(8));
    }

    fn a_balanced_cull_gives_the_keys_of_halves() {
        use super::cull::{cull_visible, Balance, CullCut};
        use super::transforms::Transforms;
        // The mesh culled by two CPUs (in order) cut half way and cut at a quarter, seen
        // from the side (part of it off the screen): the same keys once the parts are put
        // together, the same counts.
        let model = mesh();
        let empty = crate::vdp1::ModelTextures::<4>::default();
        let resources = ModelVram { textures: empty.slots(), gouraud: &[0; MESH_POLYGONS] };
        let camera = Camera { position: [5 * ONE / 2, 0, -3 * ONE], ..Camera::default() };
        let turn = Matrix::rotation_xyz([Angle::from_degrees(40), Angle::from_degrees(-25), Angle(0)]);
        let transforms = Transforms::rigid(camera.view().then(&turn));
        let mut points = [ViewPoint::default(); MESH_POINTS];
        let projection = Projection::of(&camera);
        super::project::transform_points_reference(&transforms.matrices[0], &projection, model.points(), &mut points);
        let frame = super::shared::ModelFrame { model: &model, resources: &resources, camera: &camera, points: &points, screens: None };
        let cull = |at: usize| {
            let (mut keys, mut counts) = ([0; MESH_POLYGONS], [KeyCounts::ZERO; 2]);
            let mut cut = CullCut::at_for_tests(at, 1);
            let balance = Balance { cut: &mut cut, clock: || 0 };
            let culled = cull_visible(&frame, (&transforms, &[]), (&mut keys, 3), (&mut counts, true), Some(&mut InOrder), (Some(balance), None));
            let (first, second) = culled.parts_at();
            let mut joined = [0; MESH_POLYGONS];
            joined[..first].copy_from_slice(&keys[..first]);
            joined[first..first + second.len()].copy_from_slice(&keys[second.clone()]);
            let [mut here, there] = counts;
            here.add(&there);
            (culled.visible, joined, here.low, second.start, cut)
        };
        let (half, quarter) = (cull(0), cull(MESH_POLYGONS / 4));
        check_eq!((half.0, half.1, half.2), (quarter.0, quarter.1, quarter.2));
        check!(half.0 >= 40 && half.0 < MESH_POLYGONS);
        check_eq!((half.3, quarter.3), (MESH_POLYGONS / 2, MESH_POLYGONS / 4));
        // A clock that says nothing: no wait, a step back (one polygon), within a quarter.
        check_eq!([half.4, quarter.4], [59, 30].map(|at| CullCut::at_for_tests(at, 1)));
    }

    fn plain_materials_are_those_culled_by_the_common_case() {
        let model = mesh_materials();
        let plain = super::cull::PlainMaterials::of(&model);
        check_eq!(&plain.0[..4], &[1, 1, 0, 0]);
        check!(plain.contains(1) && !plain.contains(2) && !plain.contains(200));
        // One material: no change to go through, no table made.
        check_eq!(super::cull::PlainMaterials::of(&mesh()).0, [0; super::cull::PLAIN_MATERIALS]);
    }

    fn radix_sort_orders_by_depth_and_keeps_ties() {
        // Depth in the high 16 bits (complemented: farthest first), index in the low 16.
        let mut keys = [0x0102_0000, 0x0001_0001, 0x0102_0002, 0xFF00_0003, 0x0001_0004, 0x0100_0005];
        let mut scratch = [0; 6];
        let sorted = super::sort::radix_sort(&mut keys, &mut scratch);
        check_eq!(sorted, [0x0001_0001, 0x0001_0004, 0x0100_0005, 0x0102_0000, 0x0102_0002, 0xFF00_0003]);
        // Keys that share a byte skip its pass; all equal keys keep their order.
        let mut same_high = [0x0005_0000, 0x0003_0001, 0x0004_0002];
        check_eq!(super::sort::radix_sort(&mut same_high, &mut scratch[..3]), [0x0003_0001, 0x0004_0002, 0x0005_0000]);
        let mut same_low = [0x0500_0000, 0x0300_0001, 0x0300_0002];
        check_eq!(super::sort::radix_sort(&mut same_low, &mut scratch[..3]), [0x0300_0001, 0x0300_0002, 0x0500_0000]);
        let mut equal = [0x0700_0003, 0x0700_0001, 0x0700_0002];
        check_eq!(super::sort::radix_sort(&mut equal, &mut scratch[..3]), [0x0700_0003, 0x0700_0001, 0x0700_0002]);
    }

    fn a_shared_radix_sort_is_the_sort_of_one_cpu() {
        use super::sort::{radix_sort, radix_sort_shared, MIN_SHARED_KEYS};
        // An odd count (halves of 150 and 151), the fewest keys shared and one fewer (one
        // CPU); depths pseudo-random in both bytes, in byte 2 only, in byte 3 only, all
        // equal (the passes left out differ), in a few values of each byte (the slots made
        // for those only); increasing indexes.
        const COUNT: usize = 301;
        let sort = |shared: bool, keys: &mut [SortKey], scratch: &mut [SortKey]| {
            let start = keys.as_ptr();
            let sorted = match shared {
                true => radix_sort_shared(keys, scratch, Some(&mut InOrder)),
                false => radix_sort(keys, scratch),
            };
            let mut copy = [0; COUNT];
            copy[..sorted.len()].copy_from_slice(sorted);
            (copy, core::ptr::eq(sorted.as_ptr(), start))
        };
        for (case, (varying, fixed)) in [(0xFFFF_0000u32, 0), (0x00FF_0000, 0x3400_0000), (0xFF00_0000, 0x0056_0000), (0, 0x1234_0000), (0x1F1C_0000, 0xC040_0000)].into_iter().enumerate() {
            for count in [COUNT, MIN_SHARED_KEYS, MIN_SHARED_KEYS - 1] {
                let mut state = 0x9E37_79B9u32 ^ case as u32;
                let mut keys = [0; COUNT];
                for (index, key) in keys[..count].iter_mut().enumerate() {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    *key = (state & varying) | fixed | index as u32;
                }
                let (mut shared_keys, keys_before) = (keys, keys);
                let (mut scratch, mut shared_scratch) = ([0; COUNT], [0; COUNT]);
                let alone = sort(false, &mut keys[..count], &mut scratch[..count]);
                let shared = sort(true, &mut shared_keys[..count], &mut shared_scratch[..count]);
                // Where: as one CPU's sort, but after two passes when only byte 3 varies.
                let two_passes = case == 2 && count >= MIN_SHARED_KEYS;
                check_eq!((case, count, shared.1), (case, count, alone.1 != two_passes));
                check!(shared.0 == alone.0);
                // The same keys in two parts 40 apart (as the two CPUs cull them).
                let first = count / 3;
                let mut apart = [0; COUNT + 40];
                apart[..first].copy_from_slice(&keys_before[..first]);
                apart[first + 40..count + 40].copy_from_slice(&keys_before[first..count]);
                let mut apart_scratch = [0; COUNT + 40];
                let sorted = super::sort::radix_sort_parts(&mut apart, first, first + 40..count + 40, &mut apart_scratch, Some(&mut InOrder));
                check_eq!((case, count, sorted.len()), (case, count, count));
                check!(sorted == &alone.0[..count]);
                // From the culling's counts of each part: parts near halves, far from them
                // either way (their keys counted again), one CPU; and with the second
                // counts holding the first part's last third too (an earlier draw's keys
                // of the second CPU, moved: that part counted again).
                let cases = [(count / 2 + 20, true), (count / 3, true), (count - 10, true), (0, true), (count / 3, false)];
                for ((first, shared), second_counts) in cases.into_iter().flat_map(|c| [(c, SecondCounts::OfItsPart), (c, SecondCounts::WithMoved)]) {
                    let mut apart = [0; COUNT + 40];
                    apart[..first].copy_from_slice(&keys_before[..first]);
                    apart[first + 40..count + 40].copy_from_slice(&keys_before[first..count]);
                    let moved = match second_counts {
                        SecondCounts::OfItsPart => first,
                        SecondCounts::WithMoved => first - first / 3,
                    };
                    let mut counts = [KeyCounts::ZERO; 2];
                    keys_before[..moved].iter().for_each(|&key| counts[0].count(key));
                    keys_before[moved..count].iter().for_each(|&key| counts[1].count(key));
                    let mut apart_scratch = [0; COUNT + 40];
                    let mut in_order = InOrder;
                    let worker = shared.then_some(&mut in_order as &mut dyn crate::worker::Worker);
                    let parts = (first, first + 40..count + 40, second_counts);
                    let pass_counts = &mut [const { core::mem::MaybeUninit::uninit() }; 2];
                    let sorted = super::sort::sort_counted(&mut apart, parts, &mut apart_scratch, (&mut counts, pass_counts), worker);
                    check_eq!((case, count, first, second_counts, sorted.len()), (case, count, first, second_counts, count));
                    check!(sorted == &alone.0[..count]);
                }
            }
        }
    }

    fn spans_are_sorted_as_sort_unstable_sorts_them() {
        // Every order of four spans, and a bone's spans in scrambled orders (multipliers
        // prime to MAX_BONES; the showcase's bones' groups are out of order too).
        let mut order = [1u64, 2, 3, 4];
        for _ in 0..24 {
            let mut spans = order.map(|s| s << 40);
            super::transforms::sort_spans(&mut spans);
            check_eq!((order, spans), (order, [1u64 << 40, 2 << 40, 3 << 40, 4 << 40]));
            // The next permutation (lexicographic), wrapping round to the first.
            let Some(i) = (0..3).rev().find(|&i| order[i] < order[i + 1]) else {
                order.reverse();
                continue;
            };
            let j = (i + 1..4).rev().find(|&j| order[j] > order[i]).unwrap_or(i + 1);
            order.swap(i, j);
            order[i + 1..].reverse();
        }
        const BONES: usize = crate::format::MAX_BONES;
        for multiplier in [1u64, 7, 13, 31] {
            let mut spans = [0u64; BONES];
            for (b, span) in spans.iter_mut().enumerate() {
                let start = (b as u64 * multiplier) % BONES as u64;
                *span = start << 40 | (start + 1) << 8 | b as u64;
            }
            let mut expected = spans;
            expected.sort_unstable();
            super::transforms::sort_spans(&mut spans);
            check_eq!((multiplier, spans), (multiplier, expected));
        }
    }

    fn runs_give_each_point_and_polygon_its_bone() {
        let model = mesh();
        let bones = [Matrix::IDENTITY; crate::format::MAX_BONES];
        let transforms = super::transforms::Transforms::posed(&model, &Matrix::IDENTITY, &Matrix::IDENTITY, &bones);
        // Polygons: runs cover 0..count in order, each with the matrix of its group's bone
        // (group b is bone b's: matrix b + 1), as `polygon_matrix` finds it.
        let mut next = 0;
        for (run, matrix) in transforms.polygon_runs(MESH_POLYGONS) {
            check_eq!(run.start, next);
            next = run.end;
            for index in run {
                check_eq!(transforms.polygon_matrix(index), matrix);
                let group = model.groups().iter().position(|g| g.polygons().contains(&index));
                check_eq!(group.map(|g| g + 1), Some(matrix));
            }
        }
        check_eq!(next, MESH_POLYGONS);
        // Points likewise, and a run asked for a prefix stops at its end.
        let mut covered = 0;
        for (run, matrix) in transforms.point_runs(100) {
            check_eq!(run.start, covered);
            covered = run.end;
            let group = model.groups().iter().position(|g| g.points().contains(&run.start));
            check_eq!(group.map(|g| g + 1), Some(matrix));
        }
        check_eq!(covered, 100);
    }

    fn the_eye_finds_the_faces_camera_space_normals_find() {
        // For rotations with a translation, mirrored or not: a normal n at point p faces
        // the camera when the camera-space normal (the cofactor matrix times n, here
        // det(R) R n for these orthogonal R) points against the camera-space point R p + t.
        let mirror = Matrix([[-ONE, 0, 0, 0], [0, ONE, 0, 0], [0, 0, ONE, 0]]);
        let cases = [(0, 0, 0), (30, 45, 10), (-70, 120, 200), (90, 0, -45), (170, -80, 33)];
        let normals = [[0, 0, -ONE], [ONE, 0, 0], [0, -46341, 46341], [37837, 37837, -37837]];
        let point = [ONE / 2, -ONE / 4, ONE / 3];
        let mut compared = 0;
        for (x, y, z) in cases {
            let rotation = Matrix::rotation_xyz([Angle::from_degrees(x), Angle::from_degrees(y), Angle::from_degrees(z)]);
            for (matrix, det) in [(rotation, 1), (rotation.then(&mirror), -1)] {
                let matrix = Matrix::translation([ONE, -2 * ONE, 5 * ONE]).then(&matrix);
                let Some(eye) = super::transforms::Eye::of(&matrix) else {
                    return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("no eye for {x} {y} {z}")));
                };
                check_eq!(eye.mirrored, det < 0);
                for normal in normals {
                    let camera_normal = matrix.rotate(normal).map(|c| c * det);
                    let camera_space = i64::from(crate::math::dot(camera_normal, matrix.apply(point)));
                    let towards = (0..3).map(|k| i64::from(normal[k]) * i64::from(point[k] - eye.position[k])).sum::<i64>();
                    // Near edge-on both round differently: only clear cases count.
                    if camera_space.abs() < 64 {
                        continue;
                    }
                    check_eq!((towards < 0) != eye.mirrored, camera_space < 0);
                    compared += 1;
                }
            }
        }
        check!(compared > 30);
        // A singular matrix has no eye: such polygons are tested in camera space.
        check!(super::transforms::Eye::of(&Matrix([[ONE, 0, 0, 0], [ONE, 0, 0, 0], [0, 0, ONE, 0]])).is_none());
    }

    fn words_make_the_same_table() {
        let layout = VramLayout::default();
        let mut list = CommandList::<8, 1>::new(320, 224, &layout);
        let corners = [Point::new(-5, 7), Point::new(100, -2047), Point::new(2047, 3), Point::new(0, -1)];
        let sprite = crate::vdp1::Sprite { address: 0x2_8000, width: 64, height: 48, lut: Some(0x2_7FE0) };
        let table = CommandTable::distorted_sprite(&sprite, corners, DrawMode(0x00C3), CTRL_FLIP_H).with_gouraud(0x2_0010);
        let words = table.as_words();
        check!(list.push_words(&[words[0], words[1], words[2]], corners.map(|p| p.word()), words[7]).is_ok());
        check!(list.push(table).is_ok());
        check_eq!(list.commands()[3], table);
        check_eq!(list.commands()[4], table);
        check_eq!(crate::vdp1::field_pair(table.grda, table.reserved), words[7]);
    }

    fn parts_are_shaded_at_their_own_corners() {
        // The base's GOUR colours at A, B, C, D: red, green, blue raised, and neutral.
        let (a, b, c, d) = (rgb(31, 16, 16), rgb(16, 31, 16), rgb(16, 16, 31), rgb(16, 16, 16));
        // Between them, as the VDP1 shades the whole quad (bilinear, to the nearest).
        let (ab, bc, cd, da, centre) = (rgb(24, 24, 16), rgb(16, 24, 24), rgb(16, 16, 24), rgb(24, 16, 16), rgb(20, 20, 20));
        let expected = [[a, ab, centre, da], [ab, b, bc, centre], [centre, bc, c, cd], [da, centre, cd, d]];
        let turned = Matrix::rotation_x(Angle(-0x4000));
        // Unlit: the GOUR colours, a table of this frame for each part.
        let (list, counted) = base_in_parts(&turned, None);
        check_eq!(list.commands().len(), 3 + 4);
        check_eq!(counted, 4);
        check_eq!(list.gouraud_tables().iter().map(|t| t.0).collect::<heapless::Vec<[u16; 4], 8>>(), expected);
        for (part, table) in list.commands()[3..].iter().enumerate() {
            check_eq!((part, u32::from(table.grda) << 3), (part, 1024 + 8 * part as u32));
            check_eq!(table.pmod & 7, 4);
        }
        // Lit from behind with half ambient light: every colour halved (as the whole
        // polygon's table), then shared out the same way.
        let (a, b, c, d) = (rgb(15, 8, 8), rgb(8, 15, 8), rgb(8, 8, 15), rgb(8, 8, 8));
        let (ab, bc, cd, da, centre) = (rgb(12, 12, 8), rgb(8, 12, 12), rgb(8, 8, 12), rgb(12, 8, 8), rgb(10, 10, 10));
        let expected = [[a, ab, centre, da], [ab, b, bc, centre], [centre, bc, c, cd], [da, centre, cd, d]];
        let (list, counted) = base_in_parts(&turned, Some(([0, 0, -ONE], ONE / 2)));
        check_eq!(counted, 4);
        check_eq!(list.gouraud_tables().iter().map(|t| t.0).collect::<heapless::Vec<[u16; 4], 8>>(), expected);
        check!(list.commands()[3..].iter().enumerate().all(|(part, t)| u32::from(t.grda) << 3 == 1024 + 8 * part as u32));
    }

    fn a_full_gouraud_list_drops_the_farthest() {
        // The wall and the leaf lit too: each needs a gouraud table of the frame (their
        // corner normals). With room for one, the farther (the leaf) is left out.
        let model = every_chunk();
        let lit = |i: usize| model.materials().get(i).map_or(MaterialFlags::LIGHT, |m| m.flags() | MaterialFlags::LIGHT);
        let patched = crate::vdp1::tests::PatchedModel::every_chunk().material_flags(1, lit(1)).material_flags(2, lit(2));
        let model = patched.model()?;
        let light = Light { direction: [0, 0, ONE], ambient: ONE / 4 };
        let one: Drawn<1> = draw_model(&model, quarter_turn(), &camera(), Some(&light));
        check_eq!(one.stats, Ok(DrawStats { drawn: 1, commands: 1, culled: 1, dropped: 1, gouraud_full: true }));
        check_eq!(polygons(&one).len(), 1);
        check!(polygons(&one).iter().all(|t| t.ctrl & CTRL_FLIP_H != 0 && u32::from(t.grda) << 3 == 1024));
        check_eq!(one.list.gouraud_tables().len(), 1);
        // With room for both, both are drawn.
        let two: Drawn<2> = draw_model(&model, quarter_turn(), &camera(), Some(&light));
        check_eq!(two.stats, Ok(DrawStats { drawn: 2, commands: 2, culled: 1, dropped: 0, gouraud_full: false }));
        check_eq!(two.list.gouraud_tables().len(), 2);
    }

    fn parts_count_four_gouraud_tables_when_dropping() {
        // The base (lit, GOUR) drawn in parts where it crosses the near plane: its parts
        // take four frame gouraud tables. With room for three it is left out; with four
        // it is drawn in parts, each part with its table.
        let model = every_chunk();
        let near = model.materials().first().map_or(MaterialFlags::SUBDIVISION_NEAR, |m| m.flags() | MaterialFlags::SUBDIVISION_NEAR);
        let patched = crate::vdp1::tests::PatchedModel::every_chunk().material_flags(0, near);
        let model = patched.model()?;
        let light = Light { direction: [0, 0, ONE], ambient: ONE / 4 };
        let close = Camera { position: [0, -ONE / 2, -ONE / 2 - ONE / 16], ..Camera::default() };
        let tilted = Matrix::rotation_x(Angle::from_degrees(-60));
        let three: Drawn<3> = draw_model(&model, tilted, &close, Some(&light));
        let four: Drawn<4> = draw_model(&model, tilted, &close, Some(&light));
        check_eq!(three.stats.map(|s| (s.dropped, s.gouraud_full)), Ok((1, true)));
        check_eq!(four.stats.map(|s| s.dropped), Ok(0));
        check_eq!(four.list.gouraud_tables().len(), 4);
        check_eq!(three.list.gouraud_tables().len(), 0);
        let shaded = |drawn: &Drawn<4>| polygons(drawn).iter().filter(|t| t.pmod & 7 == 4).count();
        check_eq!(shaded(&four), 4);
    }
}

/// Levels culled by region (REGN): a draw with regions emits what the same model without
/// them emits, and leaves the points of the regions off the view untransformed.
pub(crate) mod regions {
    use super::*;
    use crate::format::Tag;
    use crate::worker::InOrder;

    /// The level fixture's points and polygons (4 x 4 regions of 2 x 2 quads).
    const LEVEL_POINTS: usize = 16 * 9;
    const LEVEL_POLYGONS: usize = 16 * 4;
    const LEVEL_BYTES: usize = 3676;
    /// A point the transform never writes (no projection gives it).
    const UNTOUCHED: ViewPoint = ViewPoint {
        view: [i32::MIN; 3],
        screen: Point { x: 0, y: 0 },
    };

    pub(crate) fn level() -> Model<'static> {
        valid(crate::selftest::fixtures::LEVEL)
    }

    /// A frame of `model` seen by `camera` (with a second CPU or not): its list, stats and
    /// how many of its points the frame left untouched.
    fn draw_level(
        model: &Model<'_>,
        camera: &Camera,
        shared: bool,
    ) -> (CommandList<160, 4>, Result<DrawStats, DrawError>, usize) {
        let layout = VramLayout::default();
        let gouraud = [0u16; LEVEL_POLYGONS];
        let vram = ModelVram {
            textures: &[],
            gouraud: &gouraud,
        };
        let loaded = LoadedModel { model, vram };
        let mut list = CommandList::new(320, 224, &layout);
        let mut points = [UNTOUCHED; LEVEL_POINTS];
        let mut screens = [Point::default(); LEVEL_POINTS];
        let mut keys = [0; 2 * LEVEL_POLYGONS];
        let (mut slots, mut tables) = ([DrawSlot::EMPTY], FrameTables::<1>::EMPTY);
        let mut memory = FrameMemory::new(
            &mut points,
            &mut screens,
            &mut keys,
            &mut slots,
            &mut tables,
        );
        let mut worker = InOrder;
        let stats = (|| {
            let mut frame = ListFrame::begin(memory.reborrow(), camera, None)?;
            if shared {
                frame = frame.with_worker(&mut worker);
            }
            frame.draw(loaded, &Matrix::IDENTITY)?;
            list.with_buffer(|buffer| frame.finish(buffer))
        })()
        .map(|stats| DrawStats {
            drawn: stats.drawn,
            commands: stats.commands,
            culled: stats.culled,
            dropped: stats.dropped,
            gouraud_full: stats.gouraud_full,
        });
        let untouched = points.iter().filter(|p| **p == UNTOUCHED).count();
        (list, stats, untouched)
    }

    /// Cameras over the level: outside looking in, at its centre looking to a side, above
    /// looking down at a corner, and looking away from it.
    fn cameras() -> [Camera; 4] {
        let at = |position, rotation: [i32; 3]| Camera {
            position,
            rotation: rotation.map(Angle::from_degrees),
            ..Camera::default()
        };
        [
            at([0, -2 * ONE, -40 * ONE], [0, 0, 0]),
            at([0, -3 * ONE, 0], [0, 30, 0]),
            at([20 * ONE, -10 * ONE, 20 * ONE], [-40, 200, 0]),
            at([0, -2 * ONE, -40 * ONE], [0, 180, 0]),
        ]
    }

    crate::test_suite! {
        fn the_level_fixture_has_its_regions() {
            let model = level();
            check_eq!(model.regions().len(), 16);
            check_eq!(model.points().len(), LEVEL_POINTS);
            check_eq!(model.polygons().len(), LEVEL_POLYGONS);
            check_eq!(model.bytes().len(), LEVEL_BYTES);
        }

        fn a_level_draws_with_its_regions_what_it_draws_without() {
            // The same file with REGN's tag changed: a chunk this engine does not know.
            let mut copy = crate::Aligned([0u8; LEVEL_BYTES]);
            copy.0.copy_from_slice(crate::selftest::fixtures::LEVEL);
            let regn = level().chunks().find(|c| c.tag == Tag::REGN).map(|c| c.offset);
            check!(regn.is_some());
            let regn = regn.unwrap_or(0);
            copy.0[regn..regn + 4].copy_from_slice(b"XEGN");
            let plain = Model::from_bytes(&copy.0);
            check!(plain.as_ref().is_ok_and(|m| m.regions().is_empty()));
            let (Ok(plain), with) = (plain, level()) else {
                return Ok(());
            };
            let mut skipped = [0; 4];
            for (c, camera) in cameras().iter().enumerate() {
                for shared in [false, true] {
                    let (list, stats, untouched) = draw_level(&with, camera, shared);
                    let (plain_list, plain_stats, plain_untouched) =
                        draw_level(&plain, camera, shared);
                    check!(stats.is_ok());
                    check_eq!(stats, plain_stats);
                    check!(list.commands() == plain_list.commands());
                    // Without regions every point is transformed (or none: the whole
                    // draw off the view).
                    check!(plain_untouched == 0 || plain_untouched == LEVEL_POINTS);
                    check!(untouched >= plain_untouched);
                    skipped[c] = untouched;
                }
            }
            // Outside looking in: something drawn; inside and above: regions behind or
            // beside left out; looking away: nothing.
            let drawn = |c: usize| draw_level(&with, &cameras()[c], false).1.map(|s| s.drawn);
            check!(drawn(0).is_ok_and(|d| d > 0));
            check!(drawn(1).is_ok_and(|d| d > 0) && skipped[1] > 0 && skipped[1] < LEVEL_POINTS);
            check!(drawn(2).is_ok_and(|d| d > 0) && skipped[2] > 0 && skipped[2] < LEVEL_POINTS);
            check_eq!(drawn(3), Ok(0));
            check_eq!(skipped[3], LEVEL_POINTS);
        }
    }
}

/// Detail by distance (LODS): a draw site's level chosen by the model's size on screen,
/// with hysteresis, through [`ListFrame::draw_lod`] and [`ListFrame::draw_animated_lod`].
pub(crate) mod levels {
    use super::*;
    use crate::anim::AnimationPlayer;

    pub(crate) fn levels() -> Model<'static> {
        valid(crate::selftest::fixtures::LEVELS)
    }

    /// The polygons drawn and culled by a frame of `levels` (the model and its level 1)
    /// placed `distance` units in front of the camera, posed by `player` when given.
    fn draw_at(
        lod: &mut Lod,
        distance: i32,
        player: Option<&AnimationPlayer>,
    ) -> Result<usize, DrawError> {
        let model = levels();
        let lower = model.level(1);
        let Some(lower) = lower.as_ref() else {
            return Err(DrawError::BufferTooSmall {
                buffer: "level 1",
                needed: 1,
            });
        };
        let gouraud = [0u16; MESH_POLYGONS];
        let vram = ModelVram {
            textures: &[],
            gouraud: &gouraud,
        };
        let loaded = [
            LoadedModel {
                model: &model,
                vram,
            },
            LoadedModel { model: lower, vram },
        ];
        let layout = VramLayout::default();
        let mut list = CommandList::<128, 4>::new(320, 224, &layout);
        let mut arrays = FrameArrays::<MESH_POINTS, MESH_POLYGONS, 1>::EMPTY;
        let camera = Camera::default();
        let mut frame = ListFrame::begin(arrays.memory(), &camera, None)?;
        let transform = Matrix::translation([0, 0, distance * ONE]);
        match player {
            Some(player) => frame.draw_animated_lod(&loaded, lod, player, &transform)?,
            None => frame.draw_lod(&loaded, lod, &transform)?,
        }
        let stats = list.with_buffer(|buffer| frame.finish(buffer))?;
        Ok(stats.drawn + stats.culled)
    }

    crate::test_suite! {
        fn a_lower_level_is_a_model_with_the_same_skeleton() {
            let model = levels();
            check_eq!(model.levels().count(), 1);
            check_eq!(model.levels().next().map(|(pixels, _)| pixels), Some(40));
            let lower = model.level(1);
            check!(lower.is_some_and(|l| l.polygons().len() == 4
                && l.bones().len() == model.bones().len()
                && l.animations().len() == model.animations().len()));
            check!(model.level(2).is_none() && model.level(0).is_none());
        }

        fn a_level_changes_an_eighth_past_its_edge() {
            let model = levels();
            let mut lod = Lod::FINEST;
            // Level 1 below 40 pixels: down under 35, back up from 45.
            for (pixels, level) in [(100, 0), (40, 0), (36, 0), (34, 1), (39, 1), (44, 1),
                (45, 0), (36, 0), (10, 1), (1000, 0)] {
                check_eq!((pixels, lod.choose(model.levels(), 1, pixels)), (pixels, level));
                check_eq!(lod.level(), level);
            }
            // No lower level loaded: always the model.
            let mut lod = Lod::FINEST;
            check_eq!(lod.choose(model.levels(), 0, 1), 0);
            // A model without LODS: level 0 whatever the size.
            check_eq!(lod.choose(mesh().levels(), 1, 1), 0);
        }

        fn a_draw_takes_the_level_its_size_on_screen_chooses() {
            // The mesh's reach is about 1.3 units: 192 x 1.3 / 4 = 62 pixels at 4 units,
            // 10 pixels at 25.
            let (near, far) = (30, 4);
            let mut lod = Lod::FINEST;
            check_eq!(draw_at(&mut lod, 4, None), Ok(near));
            check_eq!(draw_at(&mut lod, 25, None), Ok(far));
            check_eq!(lod.level(), 1);
            check_eq!(draw_at(&mut lod, 4, None), Ok(near));
            let model = levels();
            let mut player = AnimationPlayer::new(&model);
            player.advance(20);
            let mut lod = Lod::FINEST;
            check_eq!(draw_at(&mut lod, 25, Some(&player)), Ok(far));
            check_eq!(draw_at(&mut lod, 4, Some(&player)), Ok(near));
            check_eq!(lod.level(), 0);
        }
    }
}
