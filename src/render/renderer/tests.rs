//! Tests of the renderer, on the host and on the SH-2: a frame of one model is what a
//! [`ListFrame`](crate::render::ListFrame) of it emits; the polygons of several models are
//! sorted together and the farthest of the frame dropped when the list is full; the CPU
//! never writes the list the VDP1 reads; handles give their VRAM back; sizes that do not
//! fit are refused, as are draws whose points would leave Q16.16. (`tests/workers.rs`
//! draws frames with a second CPU.)

use super::super::tests::{draw_one, mesh, sort_visible, Place};
use super::super::transforms::Transforms;
use super::frame::place_overlays;
use super::layout::{Layout, JUMP_CTRL};
use super::vram::Inner;
use super::*;
use crate::format::Model;
use crate::math::{Angle, Matrix, ONE};
use crate::render::camera::Camera;
use crate::render::error::DrawError;
use crate::render::list::HEAD_COMMANDS;
use crate::render::pipeline::{FrameStats, TransferOver};
use crate::render::project::transform_model;
use crate::render::shared::DrawStats;
use crate::render::shared::ModelFrame;
use crate::render::shared::{Light, ModelVram};
use crate::render::{CommandList, LoadedModel, ViewPoint};
use crate::vdp1::{
    ColorCalc, ColorMode, CommandTable, DrawMode, FrameEnd, MemoryVram, Point, Vdp1, Vram,
    VramError, VramLayout, CTRL_END, VRAM_SIZE,
};
use crate::{check, check_eq};
use core::fmt;
use core::ops::Range;

/// The VRAM the scene tests draw into: the jump, the lists and their gouraud tables (a
/// `MemoryVram` drops the writes past its end: the textures, which no test here reads).
const TEST_VRAM: usize = 16 * 1024;

/// The mesh fixture's points and polygons.
const MESH_POINTS: usize = 13 * 11;
const MESH_POLYGONS: usize = 120;

/// The most tables read from a list (one that does not end stops there).
const MAX_READ: usize = 1000;

/// The command list the jump at VRAM 0 points to, up to its end (not included): read in
/// place, since copies of lists this long would take much of the SH-2's stack.
fn front_list(vram: &[u8]) -> impl Iterator<Item = CommandTable> + Clone + '_ {
    let start = usize::from(table_at(vram, 0).link) * 8;
    (0..MAX_READ)
        .map(move |i| table_at(vram, start + 32 * i))
        .take_while(|table| table.ctrl & CTRL_END == 0)
}

fn table_at(vram: &[u8], address: usize) -> CommandTable {
    let mut bytes = [0; 32];
    if let Some(slice) = vram.get(address..address + 32) {
        bytes.copy_from_slice(slice);
    }
    CommandTable::from_be_bytes(&bytes)
}

fn camera() -> Camera {
    Camera {
        position: [0, 0, -3 * ONE],
        ..Camera::default()
    }
}

/// The two placements of the mesh the scene tests draw: tilted opposite ways about X and
/// crossing, so that their polygons' depths interleave.
fn placements() -> [Matrix; 2] {
    [
        Matrix::rotation_x(Angle::from_degrees(35)),
        Matrix::translation([ONE / 8, ONE / 16, ONE / 8])
            .then(&Matrix::rotation_x(Angle::from_degrees(-35))),
    ]
}

/// Commands with their sort keys (high 16 bits the depth, farthest first; low 16 bits the
/// polygon).
type Keyed = heapless::Vec<(u32, CommandTable), MESH_POLYGONS>;

/// Puts in `out` the commands a frame of one draw emits for `model` placed by `transform`, each with
/// its sort key, as one model alone sorts them, its
/// textures where a renderer with lists of `commands` tables (and 4 frame and 4 model
/// gouraud tables) puts them.
fn keyed_commands(
    model: &Model<'_>,
    transform: &Matrix,
    camera: &Camera,
    commands: usize,
    out: &mut Keyed,
) {
    out.clear();
    let Ok((_, _, region)) = Layout::of(commands, 4, 4) else {
        return;
    };
    let mut cache = crate::vdp1::TextureCache::<2>::new(region);
    let mut scratch = [0u8; 64];
    let textures = cache
        .load_model_value::<2>(model, &mut MemoryVram::new(&mut scratch), |_, _| None)
        .unwrap_or_default();
    let resources = ModelVram {
        textures: textures.slots(),
        gouraud: &[],
    };
    let mut points = [ViewPoint::default(); MESH_POINTS];
    let transforms = Transforms::rigid(camera.view().then(transform));
    let count = model.points().len();
    transform_model(
        model,
        &transforms,
        camera,
        (&mut points[..count], None),
        None,
    );
    let frame = ModelFrame {
        model,
        resources: &resources,
        camera,
        points: &points[..count],
        screens: None,
    };
    let mut order = [0; 2 * MESH_POLYGONS];
    let mut stats = DrawStats::default();
    let Ok((keys, _)) = sort_visible(&frame, &transforms, &mut order, &mut stats, None) else {
        return;
    };
    let mut list = CommandList::<{ MESH_POLYGONS + 4 }, 1>::new(320, 224, &VramLayout::default());
    let loaded = LoadedModel {
        model,
        vram: resources,
    };
    let place = Place::Rigid(transform);
    let _ = draw_one(&mut list, loaded, place, (camera, None), &mut points, None);
    for (&key, &table) in keys.iter().zip(&list.commands()[HEAD_COMMANDS..]) {
        let _ = out.push((key, table));
    }
}

/// The commands of `a` and `b` merged farthest first (`a`'s first where depths are equal):
/// what a frame drawing `a`'s model then `b`'s must emit.
fn merge<'k>(a: &'k Keyed, b: &'k Keyed) -> impl Iterator<Item = CommandTable> + Clone + 'k {
    let (mut i, mut j) = (0, 0);
    core::iter::from_fn(move || {
        let from_a = match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) => x.0 >> 16 <= y.0 >> 16,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return None,
        };
        let table = if from_a { a[i].1 } else { b[j].1 };
        (i, j) = if from_a { (i + 1, j) } else { (i, j + 1) };
        Some(table)
    })
}

/// The mesh's commands in both placements (see [`keyed_commands`]).
fn both_placements(commands: usize, a: &mut Keyed, b: &mut Keyed) {
    let (model, camera, [first, second]) = (mesh(), camera(), placements());
    keyed_commands(&model, &first, &camera, commands, a);
    keyed_commands(&model, &second, &camera, commands, b);
}

/// A `Vdp1` that checks the renderer against a simulated VDP1: at each frame change it
/// latches the list the jump at VRAM 0 points to (and that list's frame gouraud region),
/// and counts every write into them until the next frame change. It also changes frame by
/// itself every `every` writes (a real VDP1 changes frame whether the program waits or
/// not), and counts the changes that a wait brought (`waited`). Each write lands a 16-bit
/// word at a time, as the CPU writes it, and after each word the table at VRAM 0 must be an
/// end or a jump to one of the lists (the VDP1 may read it at any time): `bad_jumps`
/// counts the words after which it was not. It draws `per_field` commands a field: at a
/// frame change, a longer list it was drawing is reported cut short there
/// ([`FrameEnd::TransferOver`]) as the Saturn's `EDSR` and `LOPR` tell it.
struct CheckedVdp1<'v> {
    vram: MemoryVram<'v>,
    /// The regions of list A and B and of their frame gouraud tables.
    lists: [Range<u32>; 2],
    gouraud: [Range<u32>; 2],
    /// The list being drawn, once latched.
    drawing: Option<usize>,
    frame_changes: usize,
    /// `frame_changes` at the last flip.
    changes_at_flip: usize,
    waited: usize,
    latched: [usize; 2],
    bad_writes: usize,
    bad_jumps: usize,
    writes: usize,
    every: usize,
    /// The commands of a list the VDP1 draws in a field.
    per_field: usize,
    /// How the drawing of the field that ended at the last frame change ended.
    last_end: FrameEnd,
}

impl<'v> CheckedVdp1<'v> {
    /// Over `bytes`, for lists of `commands` tables and 8 frame gouraud tables each, the
    /// regions as the module's documentation gives them (the jump, lists A and B, 32 bytes
    /// a table, their frame gouraud tables, 8 bytes each); changing frame by itself every
    /// `every` writes.
    fn new(bytes: &'v mut [u8], commands: u32, every: usize) -> Self {
        let list = 32 * commands;
        let gouraud = 32 + 2 * list;
        // An end at VRAM 0 before the renderer starts, as `hw::init_display` leaves it.
        let mut vram = MemoryVram::new(bytes);
        vram.write_command(0, &CommandTable::end());
        Self {
            vram,
            lists: [32..32 + list, 32 + list..32 + 2 * list],
            gouraud: [gouraud..gouraud + 64, gouraud + 64..gouraud + 128],
            drawing: None,
            frame_changes: 0,
            changes_at_flip: 0,
            waited: 0,
            latched: [0; 2],
            bad_writes: 0,
            bad_jumps: 0,
            writes: 0,
            every,
            per_field: usize::MAX,
            last_end: FrameEnd::Finished,
        }
    }

    /// Whether the table at VRAM 0 is one the VDP1 may start a frame with.
    fn jump_is_whole(&self) -> bool {
        let jump = table_at(self.vram.bytes(), 0);
        let link = u32::from(jump.link) * 8;
        jump.ctrl & CTRL_END != 0
            || (jump.ctrl == JUMP_CTRL && self.lists.iter().any(|l| l.start == link))
    }

    fn change_frame(&mut self) {
        // The list drawn in the field that ends: cut short past `per_field` commands.
        self.last_end = match self.drawing {
            Some(list) => {
                let start = self.lists[list].start;
                let commands = (0..MAX_READ)
                    .take_while(|i| {
                        let table = table_at(self.vram.bytes(), (start + 32 * *i as u32) as usize);
                        table.ctrl & CTRL_END == 0
                    })
                    .count();
                match commands > self.per_field {
                    true => FrameEnd::TransferOver {
                        stopped_at: start + 32 * self.per_field as u32,
                    },
                    false => FrameEnd::Finished,
                }
            }
            // The end at VRAM 0, or a jump to it.
            None => FrameEnd::Finished,
        };
        let link = u32::from(table_at(self.vram.bytes(), 0).link) * 8;
        self.drawing = self.lists.iter().position(|l| l.start == link);
        if let Some(list) = self.drawing {
            self.latched[list] += 1;
        }
        self.frame_changes += 1;
    }
}

impl Vram for CheckedVdp1<'_> {
    fn write(&mut self, address: u32, bytes: &[u8]) {
        let written = address..address + bytes.len() as u32;
        let overlaps = |r: &Range<u32>| written.start < r.end && r.start < written.end;
        if let Some(list) = self.drawing {
            if overlaps(&self.lists[list]) || overlaps(&self.gouraud[list]) {
                self.bad_writes += 1;
            }
        }
        for (i, word) in bytes.chunks(2).enumerate() {
            self.vram.write(address + 2 * i as u32, word);
            if !self.jump_is_whole() {
                self.bad_jumps += 1;
            }
        }
        self.writes += 1;
        if self.writes.is_multiple_of(self.every) {
            self.change_frame();
        }
    }
}

impl Vdp1 for CheckedVdp1<'_> {
    fn list_flipped(&mut self) {
        self.changes_at_flip = self.frame_changes;
    }

    fn frame_changed(&mut self) -> bool {
        self.frame_changes > self.changes_at_flip
    }

    fn wait_frame_change(&mut self) -> Result<(), crate::vdp1::FrameTimeout> {
        if !self.frame_changed() {
            self.change_frame();
            self.waited += 1;
        }
        Ok(())
    }

    fn last_frame_end(&mut self) -> FrameEnd {
        self.last_end
    }
}

/// The value of a `Result` (its error `Display`), or the test fails saying what failed.
macro_rules! ok {
    ($e:expr) => {
        match $e {
            Ok(value) => value,
            Err(error) => {
                return Err(crate::selftest::Failure::new(
                    file!(),
                    line!(),
                    format_args!("{}: {}", stringify!($e), error),
                ))
            }
        }
    };
}

/// The VRAM bytes of one test, [`TEST_VRAM`] or `$bytes` of them (a `static`: too large
/// for the SH-2's stack).
macro_rules! test_vram {
    () => {
        test_vram!(TEST_VRAM)
    };
    ($bytes:expr) => {{
        static VRAM: TakeOnce<[u8; $bytes]> = TakeOnce::new([0; $bytes]);
        VRAM.take().map(|bytes| &mut bytes[..])
    }};
}

/// A renderer over a `static` VRAM of [`TEST_VRAM`] bytes and the memory given.
fn renderer(
    memory: Option<RendererMemory<'static>>,
    vram: Option<&'static mut [u8]>,
) -> Result<Renderer<'static, MemoryVram<'static>>, &'static str> {
    let (Some(memory), Some(bytes)) = (memory, vram) else {
        return Err("memory taken twice");
    };
    Renderer::new(MemoryVram::new(bytes), memory, None).map_err(|_| "sizes refused")
}

/// Draws both placements of the mesh (`handle`) in one frame, in `order`, placement
/// `ground` (if any) as ground.
fn scene(
    renderer: &Renderer<'static, MemoryVram<'static>>,
    handle: &ModelHandle<'_, '_>,
    order: [usize; 2],
    ground: Option<usize>,
) -> Result<FrameStats, DrawError> {
    let placements = placements();
    let mut frame = renderer.begin(&camera(), None)?;
    for i in order {
        match ground == Some(i) {
            true => frame.draw_ground(handle, &placements[i])?,
            false => frame.draw(handle, &placements[i])?,
        }
    }
    frame.finish()
}

/// Whether the list the VDP1 draws from VRAM 0 keeps the VDP1 manual's rules (VRAM past
/// the test's bytes read as 0).
fn keeps_the_rules(vram: &[u8]) -> Result<u32, crate::vdp1::RuleBreak> {
    let word = |address: u32| {
        let at = address as usize;
        vram.get(at..at + 2)
            .map_or(0, |pair| u16::from_be_bytes([pair[0], pair[1]]))
    };
    crate::vdp1::check_list(word, 0)
}

/// The polygons of the list the VDP1 draws (without the head commands).
fn drawn_polygons<'v>(
    inner: &'v core::cell::RefMut<'_, Inner<'static, MemoryVram<'static>>>,
) -> impl Iterator<Item = CommandTable> + Clone + 'v {
    front_list(inner.vdp1.bytes()).skip(HEAD_COMMANDS)
}

/// The memory of the scene tests, with lists of `$commands` tables.
macro_rules! scene_memory {
    ($commands:expr) => {
        crate::renderer_memory!(points: 2 * MESH_POINTS, polygons: 2 * MESH_POLYGONS,
            commands: $commands, frame_gouraud: 4, model_gouraud: 4, textures: 2,
            model_textures: 2, model_polygons: 4, model_planes: 2 * MESH_POLYGONS, draws: 2)
    };
}

/// A failure at this line, saying `what`.
macro_rules! fail {
    ($what:expr) => {
        return Err(crate::selftest::Failure::new(
            file!(),
            line!(),
            format_args!("{}", $what),
        ))
    };
}

/// A worker handed to the renderer between frames takes its share of the next frame, which
/// draws the same list (`expected`: both placements sorted together) since the worker here
/// is this CPU (`InOrder`); refused while a frame is open, the worker given back; taken
/// back, the renderer draws alone again. On the renderer of another test.
#[allow(clippy::result_large_err)] // as in `test_suite!`: a test is no hot path
fn a_worker_set_between_frames_draws_the_same(
    renderer: &Renderer<'static, MemoryVram<'static>>,
    handle: &ModelHandle<'_, '_>,
    expected: impl Iterator<Item = CommandTable> + Clone,
) -> Result<(), crate::selftest::Failure> {
    static SECOND: TakeOnce<crate::render::InOrder> = TakeOnce::new(crate::render::InOrder);
    let Some(second) = SECOND.take() else {
        fail!("the worker was taken before")
    };
    let before = ok!(renderer.set_worker(Some(second)).map_err(|r| r.error));
    check!(before.is_none());
    let stats = ok!(scene(renderer, handle, [0, 1], None));
    check_eq!(stats.drawn, expected.clone().count());
    {
        let inner = ok!(renderer.inner());
        check!(drawn_polygons(&inner).eq(expected.clone()));
    }
    let frame = ok!(renderer.begin(&camera(), None));
    let refused = renderer.set_worker(None);
    drop(frame);
    let Err(refused) = refused else {
        fail!("a worker set while a frame is open")
    };
    check!(refused.error == DrawError::FrameOpen && refused.worker.is_none());
    let lent = ok!(renderer.set_worker(None).map_err(|r| r.error));
    check!(lent.is_some());
    ok!(scene(renderer, handle, [0, 1], None));
    let inner = ok!(renderer.inner());
    check!(inner.worker.is_none() && drawn_polygons(&inner).eq(expected));
    Ok(())
}

/// A ground draw's polygons come first, in the model's order, the sorted draw's after them
/// (`a` and `b`: the placements' commands alone); a ground draw after a sorted one is
/// sorted with it. On the renderer of another test (each renderer's memory and VRAM are
/// statics: the SH-2 test program has no room for more).
#[allow(clippy::result_large_err)] // as in `test_suite!`: a test is no hot path
fn ground_draws_come_first(
    renderer: &Renderer<'static, MemoryVram<'static>>,
    handle: &ModelHandle<'_, '_>,
    a: &Keyed,
    b: &Keyed,
) -> Result<(), crate::selftest::Failure> {
    check!(a.len() > 50 && b.len() > 50);
    // The first placement's commands in the order of its polygons (no slice sort: the
    // SH-2's code generator stops on it).
    let in_model_order =
        (0..MESH_POLYGONS as u32).flat_map(|i| a.iter().find(|e| e.0 & 0xFFFF == i));
    let ground: Keyed = in_model_order.copied().collect();
    check!(ground.len() == a.len() && ground != *a);
    let stats = ok!(scene(renderer, handle, [0, 1], Some(0)));
    check_eq!((stats.drawn, stats.dropped), (a.len() + b.len(), 0));
    {
        let inner = ok!(renderer.inner());
        let expected = ground.iter().chain(b).map(|(_, t)| *t);
        check!(drawn_polygons(&inner).eq(expected));
    }
    // A ground draw after a sorted one is sorted with it: as two sorted draws.
    let stats = ok!(scene(renderer, handle, [1, 0], Some(0)));
    check_eq!(stats.drawn, a.len() + b.len());
    let mut sorted: heapless::Vec<CommandTable, { 2 * MESH_POLYGONS }> = heapless::Vec::new();
    {
        let inner = ok!(renderer.inner());
        sorted.extend(drawn_polygons(&inner));
    }
    ok!(scene(renderer, handle, [1, 0], None));
    {
        let inner = ok!(renderer.inner());
        check!(drawn_polygons(&inner).eq(sorted.iter().copied()));
    }
    // Also after a sorted draw all of whose polygons were culled (facing away, its sphere
    // in view): the first placement sorted alone.
    let away = placements()[0].then(&Matrix::rotation_y(Angle::from_degrees(180)));
    let mut frame = ok!(renderer.begin(&camera(), None));
    ok!(frame.draw(handle, &away));
    ok!(frame.draw_ground(handle, &placements()[0]));
    let stats = ok!(frame.finish());
    check_eq!(
        (stats.drawn, stats.culled),
        (a.len(), 2 * MESH_POLYGONS - a.len())
    );
    let inner = ok!(renderer.inner());
    check!(drawn_polygons(&inner).eq(a.iter().map(|(_, t)| *t)));
    Ok(())
}

/// Sixteen models dropped, then the one drawn with them (the fixture): nothing leaves VRAM
/// while their list is on screen, however many were dropped; a handle dropped while the
/// renderer is in another call is given back all the same; at most [`MAX_MODELS`] are
/// loaded at once, counting the dropped ones still held. On the renderer of another test
/// (the SH-2 test program has no room for another renderer), which has nothing loaded.
#[allow(clippy::result_large_err)] // as in `test_suite!`: a test is no hot path
fn dropped_models_keep_their_vram_until_off_screen_however_many_and_whenever(
    renderer: &Renderer<'static, MemoryVram<'static>>,
    fixture: &Model<'static>,
) -> crate::selftest::TestResult {
    let camera = Camera {
        position: [0, -ONE / 2, -4 * ONE],
        ..Camera::default()
    };
    let shown = || -> Result<(), DrawError> {
        renderer.begin(&camera, None)?.finish()?;
        drop(renderer.begin(&camera, None)?);
        Ok(())
    };
    let drawn = ok!(renderer.load(fixture));
    let small = super::super::tests::minimal();
    let mut others: heapless::Vec<ModelHandle<'_, '_>, 16> = heapless::Vec::new();
    for _ in 0..16 {
        let _ = others.push(ok!(renderer.load(&small)));
    }
    let mut frame = ok!(renderer.begin(&camera, None));
    ok!(frame.draw(&drawn, &Matrix::IDENTITY));
    ok!(frame.finish());
    let in_vram = renderer.vram_use();
    check!(in_vram.textures > 0);
    drop(others);
    drop(drawn);
    check_eq!(renderer.vram_use(), in_vram);
    drop(ok!(renderer.begin(&camera, None)));
    check_eq!(renderer.vram_use(), in_vram);
    ok!(shown());
    check_eq!(renderer.vram_use(), VramUse::default());
    // Dropped while the renderer is in another call.
    let busy = ok!(renderer.load(fixture));
    {
        let _call = ok!(renderer.inner());
        drop(busy);
    }
    ok!(shown());
    check_eq!(renderer.vram_use(), VramUse::default());
    // The fixture and MAX_MODELS - 1 others: no more, even once the fixture is dropped,
    // until its list is off screen.
    let held = ok!(renderer.load(fixture));
    let most: heapless::Vec<ModelHandle<'_, '_>, MAX_MODELS> = (1..MAX_MODELS)
        .filter_map(|_| renderer.load(&small).ok())
        .collect();
    check_eq!(most.len(), MAX_MODELS - 1);
    check!(matches!(
        renderer.load(&small),
        Err(VramError::TableFull {
            capacity: MAX_MODELS,
            ..
        })
    ));
    drop(held);
    check!(matches!(
        renderer.load(&small),
        Err(VramError::TableFull { .. })
    ));
    ok!(shown());
    check!(renderer.load(&small).is_ok());
    Ok(())
}

/// The polygons of the list the VDP1 draws, as a count and a sum of their bytes each
/// weighted by its place: two lists are the same when these are.
fn list_digest(renderer: &Renderer<'static, MemoryVram<'static>>) -> Option<(usize, u64)> {
    let inner = renderer.inner().ok()?;
    let mut digest = (0, 0u64);
    for (i, table) in drawn_polygons(&inner).enumerate() {
        let bytes = table.to_be_bytes();
        let sum = bytes.iter().enumerate();
        let sum = sum.fold(0u64, |sum, (b, &byte)| {
            sum + (b as u64 + 1) * u64::from(byte)
        });
        digest = (i + 1, digest.1.wrapping_add(sum.wrapping_mul(i as u64 + 1)));
    }
    Some(digest)
}

crate::test_suite! {
    fn a_renderer_sized_from_its_models_draws_every_polygon_and_an_animated_draw_is_its_pose() {
        // Sized by `renderer_memory!(models: ...)` for the mesh and the animated figure,
        // two draws a frame: none of their polygons is left out. `draw_animated` draws
        // what the four steps it stands for draw (the pose, its bones' matrices, the root's,
        // `draw_posed`).
        const MESH: &[u8] = crate::selftest::fixtures::MESH;
        const FIGURE: &[u8] = crate::selftest::fixtures::MESH_MOTION;
        // And a model of 3 polygons, loaded only: its planes take a block of 8 bytes.
        const SMALL: &[u8] = crate::selftest::fixtures::EVERY_CHUNK;
        let memory = crate::renderer_memory!(models: [SMALL, MESH, FIGURE], draws: 2);
        let renderer = ok!(renderer(memory, test_vram!(32 * 1024)));
        let (mesh, figure) = (ok!(Model::from_bytes(MESH)), ok!(Model::from_bytes(FIGURE)));
        let _small = ok!(renderer.load(&ok!(Model::from_bytes(SMALL))));
        let (mesh_handle, figure_handle) = (ok!(renderer.load(&mesh)), ok!(renderer.load(&figure)));
        let mut player = crate::anim::AnimationPlayer::new(&figure);
        player.advance(20);
        let placements = placements();
        let mut digests = [None; 2];
        for (animated, digest) in [true, false].into_iter().zip(&mut digests) {
            let mut frame = ok!(renderer.begin(&camera(), None));
            ok!(frame.draw(&mesh_handle, &placements[0]));
            let (pose, mut bones) = (player.pose(&figure), [Matrix::IDENTITY; crate::format::MAX_BONES]);
            crate::anim::bone_matrices(&figure, &pose, &mut bones);
            let root = crate::anim::root_matrix(&pose);
            let posed = crate::render::Posed { transform: &Matrix::IDENTITY, root: &root, bones: &bones };
            match animated {
                true => ok!(frame.draw_animated(&figure_handle, &player, &Matrix::IDENTITY)),
                false => ok!(frame.draw_posed(&figure_handle, &posed)),
            }
            let stats = ok!(frame.finish());
            check_eq!(stats.dropped, 0);
            check_eq!(stats.drawn + stats.culled, mesh.polygons().len() + figure.polygons().len());
            check!(stats.drawn > 0);
            *digest = list_digest(&renderer);
        }
        check!(digests[0].is_some());
        check_eq!(digests[0], digests[1]);
    }

    fn a_frame_of_one_model_is_what_a_list_frame_of_it_emits() {
        let renderer = ok!(renderer(scene_memory!(130), test_vram!()));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let (camera, placement) = (camera(), placements()[0]);
        let mut frame = ok!(renderer.begin(&camera, None));
        ok!(frame.draw(&handle, &placement));
        let stats = ok!(frame.finish());
        let mut expected = Keyed::new();
        keyed_commands(&model, &placement, &camera, 130, &mut expected);
        check!(expected.len() > 50);
        check_eq!((stats.drawn, stats.dropped), (expected.len(), 0));
        check_eq!(stats.drawn + stats.culled, MESH_POLYGONS);
        let inner = ok!(renderer.inner());
        check_eq!(drawn_polygons(&inner).count(), expected.len());
        for (i, (t, (_, e))) in drawn_polygons(&inner).zip(&expected).enumerate() {
            check_eq!((i, t), (i, *e));
        }
        check!(keeps_the_rules(inner.vdp1.bytes()).is_ok());
        // The head: system clip, user clip, local coordinates.
        let mut head = front_list(inner.vdp1.bytes()).map(|t| t.ctrl & 0xF);
        check_eq!([head.next(), head.next(), head.next()], [Some(0x9), Some(0x8), Some(0xA)]);
    }

    fn overlays_come_after_the_models_in_the_order_pushed() {
        let renderer = ok!(renderer(scene_memory!(130), test_vram!()));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let hud = |x: i16| CommandTable::polygon(0x801F, [Point::new(x, 0), Point::new(x + 8, 0), Point::new(x + 8, 8), Point::new(x, 8)], DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false));
        let mut frame = ok!(renderer.begin(&camera(), None));
        // One frame at a time.
        check_eq!(renderer.begin(&camera(), None).err(), Some(DrawError::FrameOpen));
        ok!(frame.push_command(hud(1)));
        ok!(frame.draw(&handle, &placements()[0]));
        ok!(frame.push_commands(&[hud(2), hud(3)]));
        // Those that do not all fit: none of them (the list holds 130 commands).
        let too_many = [hud(4); 130];
        check!(matches!(frame.push_commands(&too_many), Err(DrawError::CommandListFull { .. })));
        ok!(frame.push_command(hud(5)));
        let stats = ok!(frame.finish());
        check_eq!(stats.overlays, 4);
        let inner = ok!(renderer.inner());
        check_eq!(drawn_polygons(&inner).count(), stats.drawn + 4);
        let last: heapless::Vec<CommandTable, 4> = drawn_polygons(&inner).skip(stats.drawn).collect();
        check!(last == [hud(1), hud(2), hud(3), hud(5)]);
    }

    fn overlays_are_placed_in_push_order_whether_or_not_the_places_overlap() {
        let numbered = |n: u16| {
            let mut table = CommandTable::end();
            table.colr = n;
            table
        };
        // Ten tables: `len` of 3D (numbered 100 + i), then room, then `overlays` kept last
        // pushed lowest (the first pushed, 1, at the end).
        for (len, overlays) in [(2, 3), (5, 5), (6, 4), (7, 3), (0, 10), (4, 0)] {
            let mut commands = [CommandTable::end(); 10];
            for (i, table) in commands.iter_mut().enumerate().take(len) {
                *table = numbered(100 + i as u16);
            }
            for pushed in 1..=overlays {
                commands[10 - pushed] = numbered(pushed as u16);
            }
            place_overlays(&mut commands, len, overlays);
            let placed: heapless::Vec<u16, 10> =
                commands[..len + overlays].iter().map(|t| t.colr).collect();
            let expected: heapless::Vec<u16, 10> =
                (0..len).map(|i| 100 + i as u16).chain((1..=overlays).map(|n| n as u16)).collect();
            check_eq!((len, overlays, placed), (len, overlays, expected));
        }
    }

    fn the_polygons_of_every_model_are_sorted_together_after_the_ground_draws() {
        let (mut a, mut b) = (Keyed::new(), Keyed::new());
        both_placements(250, &mut a, &mut b);
        let (expected, count) = (merge(&a, &b), a.len() + b.len());
        check!(count > 150);
        let renderer = ok!(renderer(scene_memory!(250), test_vram!()));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let stats = ok!(scene(&renderer, &handle, [0, 1], None));
        check_eq!((stats.drawn, stats.dropped), (count, 0));
        {
            let inner = ok!(renderer.inner());
            check!(drawn_polygons(&inner).eq(expected.clone()));
            check!(keeps_the_rules(inner.vdp1.bytes()).is_ok());
            // Not what drawing them one after the other (each sorted alone) gives.
            let one_after_the_other = a.iter().chain(&b).map(|(_, t)| *t);
            check!(!drawn_polygons(&inner).eq(one_after_the_other));
        }
        // Drawn the other way round, the same polygons come out (only polygons of equal
        // depth may swap: each model's are in its own order).
        let stats = ok!(scene(&renderer, &handle, [1, 0], None));
        check_eq!(stats.drawn, count);
        {
            let inner = ok!(renderer.inner());
            check_eq!(drawn_polygons(&inner).count(), count);
            check!(drawn_polygons(&inner).all(|table| expected.clone().any(|t| t == table)));
        }
        ground_draws_come_first(&renderer, &handle, &a, &b)?;
        a_worker_set_between_frames_draws_the_same(&renderer, &handle, expected)?;
    }

    fn draws_of_a_model_turned_alike_are_sorted_together_sharing_their_templates() {
        // The mesh twice, turned the same and moved apart (tiles of a ground): the pass
        // emits both with the first one's templates, what each draw alone emits, merged.
        let (model, camera, first) = (mesh(), camera(), placements()[0]);
        let second = Matrix::translation([ONE / 2, ONE / 4, ONE]).then(&first);
        let (mut a, mut b) = (Keyed::new(), Keyed::new());
        keyed_commands(&model, &first, &camera, 250, &mut a);
        keyed_commands(&model, &second, &camera, 250, &mut b);
        let count = a.len() + b.len();
        check!(count > 150);
        let renderer = ok!(renderer(scene_memory!(250), test_vram!()));
        let handle = ok!(renderer.load(&model));
        let mut frame = ok!(renderer.begin(&camera, None));
        ok!(frame.draw(&handle, &first));
        ok!(frame.draw(&handle, &second));
        let stats = ok!(frame.finish());
        check_eq!((stats.drawn, stats.dropped), (count, 0));
        let inner = ok!(renderer.inner());
        check!(drawn_polygons(&inner).eq(merge(&a, &b)));
    }

    fn a_full_list_drops_the_farthest_polygons_of_the_frame() {
        let (mut a, mut b) = (Keyed::new(), Keyed::new());
        both_placements(64, &mut a, &mut b);
        let count = a.len() + b.len();
        // Room for 60 polygons: 3 head commands and the end besides.
        let renderer = ok!(renderer(scene_memory!(64), test_vram!()));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let stats = ok!(scene(&renderer, &handle, [0, 1], None));
        check_eq!(stats.drawn, 60);
        check_eq!(stats.dropped, count - 60);
        let inner = ok!(renderer.inner());
        check!(drawn_polygons(&inner).eq(merge(&a, &b).skip(count - 60)));
    }

    fn the_cpu_never_writes_the_list_the_vdp1_reads() {
        let memory = crate::renderer_memory!(points: 2 * MESH_POINTS, polygons: 2 * MESH_POLYGONS,
            commands: 250, frame_gouraud: 8, model_gouraud: 4, textures: 2, model_textures: 2,
            model_polygons: 4, model_planes: 2 * MESH_POLYGONS, draws: 2);
        let (Some(memory), Some(bytes)) = (memory, test_vram!()) else {
            fail!("memory taken twice");
        };
        let vdp1 = CheckedVdp1::new(bytes, 250, 7);
        let renderer = ok!(Renderer::new(vdp1, memory, None));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let light = Light { direction: [0, ONE, 0], ambient: ONE / 4 };
        for step in 0..40 {
            let spin = Matrix::rotation_xyz([Angle::from_degrees(step * 9), Angle::from_degrees(step * 5), Angle(0)]);
            let mut frame = ok!(renderer.begin(&camera(), Some(&light)));
            ok!(frame.draw(&handle, &spin));
            ok!(frame.draw(&handle, &Matrix::translation([ONE / 2, 0, ONE]).then(&spin)));
            ok!(frame.finish());
        }
        let inner = ok!(renderer.inner());
        check_eq!(inner.vdp1.bad_writes, 0);
        check_eq!(inner.vdp1.bad_jumps, 0);
        check!(inner.vdp1.frame_changes >= 40);
        // Both lists were drawn, many times each.
        check!(inner.vdp1.latched.iter().all(|&n| n >= 10));
    }

    fn finish_waits_only_for_a_frame_change_that_has_not_come() {
        // (No plane runs kept: `model_planes: 0` loads and draws as any.)
        let memory = crate::renderer_memory!(points: 64, polygons: 64, commands: 40,
            frame_gouraud: 8, model_gouraud: 8, textures: 4, model_textures: 4,
            model_polygons: 8, model_planes: 0, draws: 2);
        let (Some(memory), Some(bytes)) = (memory, test_vram!(8192)) else {
            fail!("memory taken twice");
        };
        // A VDP1 that changes frame only when waited for or told to.
        let vdp1 = CheckedVdp1::new(bytes, 40, usize::MAX);
        let renderer = ok!(Renderer::new(vdp1, memory, None));
        let model = super::super::tests::every_chunk();
        let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
        // Each frame's `late`: whether the change came before its list was ready.
        let frame = |handle: Option<&ModelHandle<'_, '_>>| -> Result<bool, DrawError> {
            let mut frame = renderer.begin(&camera, None)?;
            if let Some(handle) = handle {
                frame.draw(handle, &Matrix::IDENTITY)?;
            }
            frame.finish().map(|stats| stats.late)
        };
        let waited = || renderer.inner().map(|inner| inner.vdp1.waited);
        let handle = ok!(renderer.load(&model));
        let in_vram = renderer.vram_use();
        // The first frame has no list before it to wait for.
        check!(!ok!(frame(Some(&handle))));
        check_eq!(ok!(waited()), 0);
        // The VDP1 is still on the last list: the second frame's finish waits.
        check!(!ok!(frame(Some(&handle))));
        check_eq!(ok!(waited()), 1);
        // A change that came while the game worked is not waited for again: that frame is
        // late, and the one after (waited for) is not.
        ok!(renderer.inner()).vdp1.change_frame();
        check!(ok!(frame(None)));
        check_eq!(ok!(waited()), 1);
        // Dropped, the model's VRAM stays until the VDP1 has left the last list drawn with
        // it (the list before the last), and `begin` gives it back as soon as it has.
        drop(handle);
        check!(!ok!(frame(None)));
        check_eq!(ok!(waited()), 2);
        check_eq!(renderer.vram_use(), in_vram);
        drop(ok!(renderer.begin(&camera, None)));
        check_eq!(renderer.vram_use(), in_vram);
        ok!(renderer.inner()).vdp1.change_frame();
        drop(ok!(renderer.begin(&camera, None)));
        check_eq!(renderer.vram_use(), VramUse::default());
        check_eq!(ok!(renderer.inner()).vdp1.bad_writes, 0);
    }

    fn dropping_a_handle_gives_its_vram_back() {
        // (Plane runs for 32 one-polygon models, in blocks of 8.)
        let memory = crate::renderer_memory!(points: 64, polygons: 64, commands: 40,
            frame_gouraud: 8, model_gouraud: 8, textures: 4, model_textures: 4,
            model_polygons: 8, model_planes: 256, draws: 2);
        let renderer = ok!(renderer(memory, test_vram!(4096)));
        let model = super::super::tests::every_chunk();
        check!(!model.texture_names().is_empty() && model.gouraud().is_some());
        let drawn = |handle: &ModelHandle<'_, '_>| -> Result<heapless::Vec<CommandTable, 8>, DrawError> {
            let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
            let mut frame = renderer.begin(&camera, None)?;
            frame.draw(handle, &Matrix::IDENTITY)?;
            frame.finish()?;
            Ok(front_list(renderer.inner()?.vdp1.bytes()).take(8).collect())
        };
        // A frame without models, and the start of the next: the last list on screen.
        let shown = || -> Result<(), DrawError> {
            renderer.begin(&camera(), None)?.finish()?;
            drop(renderer.begin(&camera(), None)?);
            Ok(())
        };
        let first = ok!(renderer.load(&model));
        let in_vram = renderer.vram_use();
        check!(in_vram.textures > 0 && in_vram.gouraud_tables > 0);
        let first_list = ok!(drawn(&first));
        // A second model with the same textures shares them.
        let second = ok!(renderer.load(&model));
        check_eq!(renderer.vram_use(), in_vram);
        drop(first);
        ok!(shown());
        check_eq!(renderer.vram_use(), in_vram);
        check!(ok!(drawn(&second)) == first_list);
        // Dropped, the model's VRAM stays while the list drawn with it is on screen.
        drop(second);
        check_eq!(renderer.vram_use(), in_vram);
        ok!(ok!(renderer.begin(&camera(), None)).finish());
        check_eq!(renderer.vram_use(), in_vram);
        drop(ok!(renderer.begin(&camera(), None)));
        check_eq!(renderer.vram_use(), VramUse::default());
        // Loaded again, the model takes the same VRAM (its commands are the same), as often
        // as it is loaded and dropped.
        for _ in 0..8 {
            let again = ok!(renderer.load(&model));
            check!(ok!(drawn(&again)) == first_list);
            drop(again);
            ok!(shown());
        }
        check_eq!(renderer.vram_use(), VramUse::default());
        dropped_models_keep_their_vram_until_off_screen_however_many_and_whenever(&renderer, &model)?;
    }

    fn plane_runs_are_kept_while_they_fit_and_change_no_frame() {
        use super::super::cull::write_plane_runs;
        use super::super::tests::{boxes, BOXES_POLYGONS};
        // Room for one load of the boxes' 48 polygons: a second is refused until the first
        // is dropped (only the CPU reads the runs: given back at once). The boxes seen with
        // their back sides give the list `draw` gives (which keeps no runs). (One small
        // memory: the SH-2 test programs' high work RAM is nearly full.)
        let memory = crate::renderer_memory!(points: 52, polygons: 48, commands: 52,
            frame_gouraud: 2, model_gouraud: 2, textures: 1, model_textures: 1,
            model_polygons: 1, model_planes: 48, draws: 1);
        let renderer = ok!(renderer(memory, test_vram!(4096)));
        let model = boxes();
        let first = ok!(renderer.load(&model));
        let mut expected = [0; BOXES_POLYGONS];
        write_plane_runs(&model, &mut expected);
        check!(ok!(renderer.inner()).memory.plane_runs[..] == expected[..]);
        let refused = renderer.load(&model).map(|_| ());
        check_eq!(refused, Err(VramError::RegionFull { region: "model plane", needed: 48, available: 0 }));
        drop(first);
        let again = ok!(renderer.load(&model));
        check_eq!(again.planes.len(), BOXES_POLYGONS);
        let camera = Camera { position: [ONE, ONE, -6 * ONE], ..Camera::default() };
        let placement = Matrix::rotation_y(Angle::from_degrees(40));
        let mut frame = ok!(renderer.begin(&camera, None));
        ok!(frame.draw(&again, &placement));
        let stats = ok!(frame.finish());
        check_eq!((stats.drawn, stats.culled), (16, 32));
        let inner = ok!(renderer.inner());
        let mut drawn = Keyed::new();
        keyed_commands(&model, &placement, &camera, 52, &mut drawn);
        check_eq!(drawn_polygons(&inner).count(), drawn.len());
        for (i, (t, (_, e))) in drawn_polygons(&inner).zip(&drawn).enumerate() {
            check_eq!((i, t), (i, *e));
        }
    }

    fn sizes_that_do_not_fit_vram_are_refused() {
        // Lists of 8,200 tables: A fits, B does not.
        let refused = Layout::of(8200, 16, 16).map(|_| ());
        check_eq!(refused, Err(RendererError::VramFull { region: "command list B", needed: 262_400, available: VRAM_SIZE - 32 - 262_400 }));
        let mut text = heapless::String::<160>::new();
        if let Err(error) = refused {
            let _ = fmt::Write::write_fmt(&mut text, format_args!("{error}"));
        }
        check_eq!(text.as_str(), "VDP1 VRAM: command list B: 262400 bytes needed, 261856 left after the regions before it");
        check_eq!(Layout::of(100, 60_000, 16).map(|_| ()), Err(RendererError::VramFull { region: "frame gouraud tables B", needed: 480_000, available: VRAM_SIZE - 32 - 6400 - 480_000 }));
        check_eq!(Layout::of(100, 100, 70_000).map(|_| ()), Err(RendererError::VramFull { region: "model gouraud tables", needed: 560_000, available: VRAM_SIZE - 32 - 6400 - 1600 }));
        let (layout, gouraud, textures) = ok!(Layout::of(100, 100, 16));
        check_eq!(layout, Layout { lists: [32, 3232], frame_gouraud: [6432, 7232] });
        check_eq!((gouraud, textures), (8032..8160, 8160..VRAM_SIZE));
        // Through the renderer: a list with no room for a polygon (3 head commands and the
        // end).
        let memory = crate::renderer_memory!(points: 4, polygons: 4, commands: 4,
            frame_gouraud: 1, model_gouraud: 2, textures: 1, model_textures: 1,
            model_polygons: 1, model_planes: 4, draws: 1);
        let (Some(memory), Some(bytes)) = (memory, test_vram!(1024)) else {
            fail!("memory taken twice");
        };
        check_eq!(Renderer::new(MemoryVram::new(bytes), memory, None).err(), Some(RendererError::Size { what: "commands", value: 4, min: 5, max: usize::MAX }));
    }

    fn draws_with_points_past_32767_units_of_the_camera_are_refused() {
        // Past 32,767 units a camera-space coordinate leaves Q16.16: the Rust transform
        // would wrap it and the SH-2's would not give the same, so the draw is refused
        // (on both) before any point is transformed. The mesh is placed along X, 3 units
        // in front of the camera, with its farthest points half its reach past the limit;
        // a unit nearer than the limit it is drawn. (Small memory, one draw a frame: the
        // SH-2 test program has little high work RAM left.)
        let memory = crate::renderer_memory!(points: MESH_POINTS, polygons: MESH_POLYGONS,
            commands: 8, frame_gouraud: 1, model_gouraud: 4, textures: 2, model_textures: 2,
            model_polygons: 4, model_planes: MESH_POLYGONS, draws: 1);
        let renderer = ok!(renderer(memory, test_vram!(1024)));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let reach = model.reach() as i32;
        check!(reach > ONE / 2);
        let past = Matrix::translation([i32::MAX - reach / 2, 0, 0]);
        let within = Matrix::translation([i32::MAX - reach - ONE, 0, 0]);
        let mut frame = ok!(renderer.begin(&camera(), None));
        check_eq!(frame.draw(&handle, &past), Err(DrawError::OutOfReach { matrix: 0 }));
        ok!(frame.draw(&handle, &within));
        // The accepted draw's polygons are drawn, dropped or culled, the refused one's
        // counted nowhere.
        let stats = ok!(frame.finish());
        check_eq!(stats.drawn + stats.dropped + stats.culled, MESH_POLYGONS);
        // Posed: one bone moves its group there, the other matrices stay at the origin.
        let Some(bone) = model.bones().iter().position(|b| b.group().is_some()) else {
            fail!("the mesh has no bone with a group");
        };
        let (mut bones_past, mut bones_within) = ([Matrix::IDENTITY; crate::format::MAX_BONES], [Matrix::IDENTITY; crate::format::MAX_BONES]);
        (bones_past[bone], bones_within[bone]) = (past, within);
        let posed = |bones| crate::render::Posed { transform: &Matrix::IDENTITY, root: &Matrix::IDENTITY, bones };
        let mut frame = ok!(renderer.begin(&camera(), None));
        check_eq!(frame.draw_posed(&handle, &posed(&bones_past)), Err(DrawError::OutOfReach { matrix: 1 + bone }));
        ok!(frame.draw_posed(&handle, &posed(&bones_within)));
        let stats = ok!(frame.finish());
        check_eq!(stats.drawn + stats.dropped + stats.culled, MESH_POLYGONS);
    }

    fn draws_wholly_outside_the_view_are_dropped_before_their_points_are_transformed() {
        // Room for one draw's points: behind the camera, far beside it and past the far
        // plane the mesh is dropped whole (its polygons culled, no room taken), so the
        // draw in view after them still fits; drawn posed, the same placement off screen
        // is not dropped whole (per-bone spheres are not made) and takes the room.
        let memory = crate::renderer_memory!(points: MESH_POINTS, polygons: MESH_POLYGONS,
            commands: 8, frame_gouraud: 1, model_gouraud: 4, textures: 2, model_textures: 2,
            model_polygons: 4, model_planes: MESH_POLYGONS, draws: 1);
        let renderer = ok!(renderer(memory, test_vram!(1024)));
        let model = mesh();
        let handle = ok!(renderer.load(&model));
        let reach = model.reach() as i32;
        let camera = camera();
        let outside = [
            Matrix::translation([0, 0, camera.position[2] - reach - ONE]),
            Matrix::translation([40 * ONE, 0, 0]),
            Matrix::translation([0, -40 * ONE, 0]),
            Matrix::translation([0, 0, camera.far + reach]),
        ];
        let mut frame = ok!(renderer.begin(&camera, None));
        for placement in &outside {
            ok!(frame.draw(&handle, placement));
        }
        ok!(frame.draw(&handle, &placements()[0]));
        let stats = ok!(frame.finish());
        check!(stats.drawn > 0);
        check_eq!(stats.drawn + stats.dropped + stats.culled, 5 * MESH_POLYGONS);
        let posed = crate::render::Posed {
            transform: &outside[1],
            root: &Matrix::IDENTITY,
            bones: &[Matrix::IDENTITY; crate::format::MAX_BONES],
        };
        let mut frame = ok!(renderer.begin(&camera, None));
        ok!(frame.draw_posed(&handle, &posed));
        check_eq!(frame.draw(&handle, &placements()[0]), Err(DrawError::BufferTooSmall { buffer: "draws", needed: 2 }));
        let stats = ok!(frame.finish());
        check_eq!((stats.drawn, stats.culled), (0, MESH_POLYGONS));
    }

    fn kept_templates_follow_the_model_loaded_and_the_kind_of_light() {
        // Templates are kept from frame to frame for one loaded model in one kind of light:
        // the fixture with its leaf lit drawn with light, dropped, and the fixture with its
        // base lit instead loaded into its VRAM, then drawn with light and without, once
        // and twice a frame (each path's templates), must give what a renderer that never
        // drew anything else gives (its frames the other way round: templates made first
        // without light there). A template kept for the wrong model or light draws a lit
        // material plain or a plain one lit.
        let fixture = super::super::tests::every_chunk();
        let flags = |i: usize, set: u32, clear: u32| {
            let own = fixture.materials().get(i).map_or(0, |m| m.flags().bits());
            crate::format::MaterialFlags::from_bits((own | set) & !clear)
        };
        let (light_flag, gouraud) = (crate::format::MaterialFlags::LIGHT.bits(), crate::format::MaterialFlags::GOURAUD.bits());
        let near_parts = crate::format::MaterialFlags::SUBDIVISION_NEAR.bits();
        let leaf_lit = crate::vdp1::tests::PatchedModel::every_chunk()
            .material_flags(0, flags(0, 0, light_flag | gouraud))
            .material_flags(2, flags(2, light_flag, near_parts));
        let base_lit = crate::vdp1::tests::PatchedModel::every_chunk()
            .material_flags(0, flags(0, 0, gouraud))
            .material_flags(2, flags(2, 0, near_parts));
        let (before_model, after_model) = (leaf_lit.model()?, base_lit.model()?);
        let light = Light { direction: [0, 0, ONE], ambient: ONE / 4 };
        let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
        let placements = [Matrix::rotation_x(Angle(-0x3000)), Matrix::translation([ONE, 0, 0]).then(&Matrix::rotation_y(Angle(0x800)))];
        let frames = [(Some(&light), 1), (Some(&light), 2), (None, 2), (None, 1)];
        // Each frame's polygons drawn, a digest of its commands and their gouraud tables,
        // and how many of them are lit.
        let drawn = |renderer: &Renderer<'static, MemoryVram<'static>>,
                     handle: &ModelHandle<'_, '_>,
                     (light, draws): (Option<&Light>, usize)|
         -> Result<(usize, u64, usize), DrawError> {
            let mut frame = renderer.begin(&camera, light)?;
            for placement in &placements[..draws] {
                frame.draw(handle, placement)?;
            }
            let stats = frame.finish()?;
            let inner = renderer.inner()?;
            let bytes = inner.vdp1.bytes();
            let (mut digest, mut lit) = (0xcbf2_9ce4_8422_2325u64, 0);
            for table in front_list(bytes).skip(HEAD_COMMANDS) {
                let at = usize::from(table.grda) * 8;
                let gouraud = bytes.get(at..at + 8).filter(|_| table.grda != 0).unwrap_or(&[]);
                lit += usize::from(!gouraud.is_empty());
                for &byte in table.to_be_bytes().iter().chain(gouraud) {
                    digest = (digest ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                }
            }
            Ok((stats.drawn, digest, lit))
        };
        let memory = crate::renderer_memory!(points: 16, polygons: 8, commands: 16,
            frame_gouraud: 8, model_gouraud: 8, textures: 4, model_textures: 4,
            model_polygons: 8, model_planes: 8, draws: 2);
        let kept = ok!(renderer(memory, test_vram!(4096)));
        let memory = crate::renderer_memory!(points: 16, polygons: 8, commands: 16,
            frame_gouraud: 8, model_gouraud: 8, textures: 4, model_textures: 4,
            model_polygons: 8, model_planes: 8, draws: 2);
        let fresh = ok!(renderer(memory, test_vram!(4096)));
        let before = ok!(kept.load(&before_model));
        for frame in [(Some(&light), 2), (Some(&light), 1)] {
            ok!(drawn(&kept, &before, frame));
        }
        drop(before);
        // Shown without it; then an odd number of frames finished, so that each frame
        // below writes the same list and gouraud tables as its twin in the other renderer
        // (drawn there in the reverse order from none finished).
        for _ in 0..3 {
            ok!(ok!(kept.begin(&camera, None)).finish());
        }
        let after = ok!(kept.load(&after_model));
        let reference = ok!(fresh.load(&after_model));
        let mut expected = [(0, 0, 0); 4];
        for (&frame, want) in frames.iter().zip(&mut expected).rev() {
            *want = ok!(drawn(&fresh, &reference, frame));
        }
        for (&frame, &want) in frames.iter().zip(&expected) {
            let got = ok!(drawn(&kept, &after, frame));
            check_eq!(got, want);
            // Polygons of each draw drawn, the base lit in the frames with light.
            check_eq!((got.0 > frame.1, got.2 > 0), (true, frame.0.is_some()));
        }
    }
}

/// The report of a list the VDP1 could not draw in its field (`FrameStats::transfer_over`):
/// a suite of its own.
pub(crate) mod transfer_over {
    pub(crate) mod tests {
        use super::super::*;

        crate::test_suite! {
            fn a_list_too_heavy_for_a_field_is_reported_cut_short() {
                let memory = crate::renderer_memory!(points: 4, polygons: 4, commands: 40,
                    frame_gouraud: 4, model_gouraud: 4, textures: 1, model_textures: 1,
                    model_polygons: 1, model_planes: 0, draws: 1);
                let (Some(memory), Some(bytes)) = (memory, test_vram!(4096)) else {
                    fail!("memory taken twice");
                };
                // A VDP1 that draws 20 commands a field, and changes frame only when waited for or
                // told to.
                let mut vdp1 = CheckedVdp1::new(bytes, 40, usize::MAX);
                vdp1.per_field = 20;
                let renderer = ok!(Renderer::new(vdp1, memory, None));
                let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
                let square = |x: i16| CommandTable::polygon(0x801F, [Point::new(x, 0), Point::new(x + 8, 0), Point::new(x + 8, 8), Point::new(x, 8)], mode);
                // A frame of `overlays` squares (after the list's 3 head commands): 30 are too many
                // for a field, 2 are not.
                let frame = |overlays: i16| -> Result<FrameStats, DrawError> {
                    let mut frame = renderer.begin(&camera(), None)?;
                    for x in 0..overlays {
                        frame.push_command(square(x))?;
                    }
                    frame.finish()
                };
                let cut = |stats: FrameStats| stats.transfer_over;
                let heavy = Some(TransferOver { drawn: 20, commands: 33 });
                // The change each frame's `finish` waits for ends the drawing of the list finished
                // two frames before: the heavy frame's is reported two frames after it.
                check_eq!(cut(ok!(frame(2))), None);
                check_eq!(cut(ok!(frame(30))), None);
                check_eq!(cut(ok!(frame(2))), None);
                check_eq!(cut(ok!(frame(2))), heavy);
                check_eq!(cut(ok!(frame(2))), None);
                check_eq!(ok!(renderer.inner()).vdp1.waited, 4);
                // Two fields go by while the game works after a heavy frame: the second drew that
                // frame's list itself, which the next `begin` sees cut short.
                check_eq!(cut(ok!(frame(30))), None);
                ok!(renderer.inner()).vdp1.change_frame();
                ok!(renderer.inner()).vdp1.change_frame();
                let late = ok!(frame(2));
                check_eq!((late.late, late.transfer_over), (true, heavy));
                // It was drawn (and cut short) once more, in the field before the late frame's list
                // took over; a list that fits (20 commands) is not cut short.
                check_eq!(cut(ok!(frame(17))), heavy);
                check_eq!(cut(ok!(frame(2))), None);
                check_eq!(cut(ok!(frame(2))), None);
                check_eq!(ok!(renderer.inner()).vdp1.bad_writes, 0);
                // Where a stop falls: in either list, up to its end; outside both (the jump at VRAM
                // 0) it is no list of the renderer's.
                let inner = ok!(renderer.inner());
                let [a, b] = inner.layout.lists;
                let stop = |stopped_at: u32| FrameEnd::TransferOver { stopped_at };
                let over = |end: FrameEnd| inner.layout.transfer_over(end, [5, 33]);
                check_eq!(over(stop(a + 32 * 4)), Some(TransferOver { drawn: 4, commands: 5 }));
                check_eq!(over(stop(a + 32 * 5)), Some(TransferOver { drawn: 5, commands: 5 }));
                check_eq!(over(stop(a + 32 * 6)), None);
                check_eq!(over(stop(b)), Some(TransferOver { drawn: 0, commands: 33 }));
                check_eq!(over(stop(0)), None);
                check_eq!(over(FrameEnd::Finished), None);
                check_eq!(over(FrameEnd::Unknown), None);
            }
        }
    }
}
