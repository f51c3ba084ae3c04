//! The C interface on the host, called as C calls it (the `extern "C"` functions through
//! raw pointers): its results against the engine's own API, and bad input giving error
//! codes.

use core::ffi::c_void;
use core::ptr::{null, null_mut};
use std::ffi::CStr;

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    Billboard, BillboardLook, Camera, CommandBuffer, DrawSlot, Fog, FrameMemory, FrameStats,
    FrameTables, Light, ListFrame, LoadedModel, Lod, ModelVram, PlacedBillboard, Posed, ViewPoint,
};
use jom::vdp1::{
    CommandTable, GouraudCache, GouraudTable, MemoryVram, ModelTextures, Point, TextureCache,
    VramLayout, ZoomPoint,
};
use jom_c::*;

/// The largest state on the host (64-bit pointers make them larger than the SH-2's sizes
/// of the header).
const ROOM: usize = {
    let mut largest = 0;
    let mut i = 0;
    while i < STATE_SIZES.len() {
        if STATE_SIZES[i].host > largest {
            largest = STATE_SIZES[i].host;
        }
        i += 1;
    }
    largest
};

/// Room for any state, 8-byte aligned.
#[repr(C, align(8))]
struct Memory([u8; ROOM]);

impl Memory {
    fn new() -> Box<Self> {
        Box::new(Memory([0xA5; ROOM]))
    }
    fn ptr<T>(&mut self) -> *mut T {
        self.0.as_mut_ptr().cast()
    }
}

fn fixture(name: &str) -> jom_write::AlignedBytes {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    jom_write::AlignedBytes::new(&std::fs::read(&path).expect("fixture"))
}

/// A model loaded through the C interface; its bytes stay with it.
struct Loaded {
    _bytes: jom_write::AlignedBytes,
    memory: Box<Memory>,
}

impl Loaded {
    fn new(name: &str) -> Self {
        let bytes = fixture(name);
        let mut memory = Memory::new();
        let data = bytes.bytes();
        let code = unsafe { jom_model_load(memory.ptr(), data.as_ptr(), data.len() as u32) };
        assert_eq!(code, JOM_OK);
        Loaded {
            _bytes: bytes,
            memory,
        }
    }
    fn model(&mut self) -> *mut jom_model {
        self.memory.ptr()
    }
}

fn vram_state(vram: &mut [u8]) -> (Box<Memory>, *mut jom_vram) {
    let mut memory = Memory::new();
    let state: *mut jom_vram = memory.ptr();
    let layout = VramLayout::default();
    let code = unsafe {
        jom_vram_init(
            state,
            vram.as_mut_ptr().cast(),
            layout.textures.start,
            layout.textures.end,
            layout.gouraud.start,
            layout.gouraud.end,
        )
    };
    assert_eq!(code, JOM_OK);
    (memory, state)
}

#[test]
fn every_code_has_a_message() {
    for code in 0..=JOM_ERROR_NO_FRAME {
        let message = unsafe { CStr::from_ptr(jom_error_message(code)) };
        assert_ne!(message.to_str().unwrap(), "unknown error", "code {code}");
    }
    for code in [-1, JOM_ERROR_NO_FRAME + 1, i32::MAX] {
        let message = unsafe { CStr::from_ptr(jom_error_message(code)) };
        assert_eq!(message.to_str().unwrap(), "unknown error");
    }
}

#[test]
fn a_model_loads_and_tells_its_counts() {
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut info = jom_model_info::default();
    assert_eq!(
        unsafe { jom_model_get_info(loaded.model(), &mut info) },
        JOM_OK
    );
    let bytes = fixture("mesh_motion.jom");
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    assert_eq!(info.points as usize, model.points().len());
    assert_eq!(info.polygons as usize, model.polygons().len());
    assert_eq!(info.bones as usize, model.bones().len());
    assert_eq!(info.animations as usize, model.animations().len());
    assert_eq!(info.radius, model.radius().to_bits());
    assert_eq!(info.embedded_textures, 1);
    let name = model
        .animations()
        .get(0)
        .unwrap()
        .name()
        .as_str()
        .to_string();
    let name = std::ffi::CString::new(name).unwrap();
    let mut index = 99;
    let found = unsafe { jom_model_find_animation(loaded.model(), name.as_ptr(), &mut index) };
    assert_eq!((found, index), (JOM_OK, 0));
    let missing = unsafe { jom_model_find_animation(loaded.model(), c"nope".as_ptr(), &mut index) };
    assert_eq!(missing, JOM_ERROR_NOT_FOUND);
    let long = std::ffi::CString::new("x".repeat(100)).unwrap();
    let too_long = unsafe { jom_model_find_animation(loaded.model(), long.as_ptr(), &mut index) };
    assert_eq!(too_long, JOM_ERROR_ARGUMENT);
    let not_utf8 =
        unsafe { jom_model_find_animation(loaded.model(), c"\xff".as_ptr(), &mut index) };
    assert_eq!(not_utf8, JOM_ERROR_ARGUMENT);
    let null_name = unsafe { jom_model_find_animation(loaded.model(), null(), &mut index) };
    assert_eq!(null_name, JOM_ERROR_NULL);
}

#[test]
fn bad_models_and_handles_give_codes() {
    let bytes = fixture("minimal.jom");
    let data = bytes.bytes();
    let mut memory = Memory::new();
    let model: *mut jom_model = memory.ptr();
    unsafe {
        assert_eq!(
            jom_model_load(null_mut(), data.as_ptr(), 64),
            JOM_ERROR_NULL
        );
        assert_eq!(jom_model_load(model, null(), 64), JOM_ERROR_NULL);
        assert_eq!(
            jom_model_load(model, data.as_ptr(), 10),
            JOM_ERROR_BAD_MODEL
        );
        // Never loaded: the memory holds no model.
        let mut info = jom_model_info::default();
        assert_eq!(jom_model_get_info(model, &mut info), JOM_ERROR_HANDLE);
        assert_eq!(jom_model_get_info(null(), &mut info), JOM_ERROR_NULL);
        let misaligned = memory.0.as_mut_ptr().add(1).cast::<jom_model>();
        assert_eq!(
            jom_model_get_info(misaligned, &mut info),
            JOM_ERROR_ALIGNMENT
        );
        let mut copy = data.to_vec();
        copy.insert(0, 0);
        let shifted = jom_write::AlignedBytes::new(&copy);
        let odd = shifted.bytes()[1..].as_ptr();
        assert_eq!(
            jom_model_load(model, odd, data.len() as u32),
            JOM_ERROR_ALIGNMENT
        );
        let mut bad_magic = data.to_vec();
        bad_magic[0] = b'X';
        let bad_magic = jom_write::AlignedBytes::new(&bad_magic);
        let b = bad_magic.bytes();
        assert_eq!(
            jom_model_load(model, b.as_ptr(), b.len() as u32),
            JOM_ERROR_BAD_MODEL
        );
        assert_eq!(
            jom_model_load(model, data.as_ptr(), data.len() as u32),
            JOM_OK
        );
        assert_eq!(jom_model_get_info(model, null_mut()), JOM_ERROR_NULL);
    }
}

#[test]
fn textures_upload_once_per_name_and_release() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut first = Loaded::new("mesh_motion.jom");
    let mut second = Loaded::new("mesh_motion.jom");
    let (mut a, mut b) = (Memory::new(), Memory::new());
    let (ta, tb): (*mut jom_textures, *mut jom_textures) = (a.ptr(), b.ptr());
    let mut count = 0;
    unsafe {
        let none = None;
        assert_eq!(
            jom_textures_upload(state, first.model(), ta, null_mut(), 0, none, null_mut()),
            JOM_OK
        );
        assert_eq!(
            jom_textures_upload(state, second.model(), tb, null_mut(), 0, none, null_mut()),
            JOM_OK
        );
        assert_eq!(jom_vram_texture_count(state, &mut count), JOM_OK);
        assert_eq!(count, 1, "the same texture name is uploaded once");
        assert!(vram[VramLayout::default().textures.start as usize..]
            .iter()
            .any(|&b| b != 0));
        // Textures given back through the other model are refused.
        assert_eq!(
            jom_textures_release(state, second.model(), ta),
            JOM_ERROR_ARGUMENT
        );
        assert_eq!(jom_textures_release(state, first.model(), ta), JOM_OK);
        assert_eq!(
            jom_textures_release(state, first.model(), ta),
            JOM_ERROR_HANDLE
        );
        assert_eq!(jom_textures_release(state, second.model(), tb), JOM_OK);
        assert_eq!(jom_vram_texture_count(state, &mut count), JOM_OK);
        assert_eq!(count, 0);
    }
}

#[test]
fn vram_ranges_are_checked() {
    let mut vram = vec![0u8; 0x80000];
    let mut memory = Memory::new();
    let state: *mut jom_vram = memory.ptr();
    let base: *mut c_void = vram.as_mut_ptr().cast();
    unsafe {
        assert_eq!(
            jom_vram_init(state, null_mut(), 0, 8, 8, 16),
            JOM_ERROR_NULL
        );
        assert_eq!(jom_vram_init(state, base, 0, 4, 8, 16), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_vram_init(state, base, 0, 16, 8, 24), JOM_ERROR_ARGUMENT);
        assert_eq!(
            jom_vram_init(state, base, 0, 0x80008, 0x80008, 0x80010),
            JOM_ERROR_ARGUMENT
        );
        assert_eq!(jom_vram_init(state, base, 0x100, 0x108, 0, 0x100), JOM_OK);
        // A texture of 8x8 RGB (128 bytes) does not fit 8 bytes.
        let mut model = Loaded::new("mesh_motion.jom");
        let mut t = Memory::new();
        let code = jom_textures_upload(
            state,
            model.model(),
            t.ptr(),
            null_mut(),
            0,
            None,
            null_mut(),
        );
        assert_eq!(code, JOM_ERROR_VRAM_FULL);
    }
}

struct Files {
    calls: Vec<(u32, String)>,
    pixels: Vec<u8>,
    answer: jom_result,
}

unsafe extern "C" fn texture_file(
    user: *mut c_void,
    index: u32,
    name: *const core::ffi::c_char,
    source: *mut jom_texture_source,
) -> jom_result {
    let files = unsafe { &mut *user.cast::<Files>() };
    let name = unsafe { CStr::from_ptr(name) }
        .to_str()
        .unwrap()
        .to_string();
    files.calls.push((index, name));
    if files.answer != JOM_OK {
        return files.answer;
    }
    unsafe {
        *source = jom_texture_source {
            width: 8,
            height: 8,
            format: 0,
            reserved: 0,
            data: files.pixels.as_ptr(),
            size: files.pixels.len() as u32,
        };
    }
    JOM_OK
}

#[test]
fn texture_files_come_from_the_callback() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut model = Loaded::new("texture_files.jom");
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    let mut files = Files {
        calls: Vec::new(),
        pixels: vec![0x7C; 128],
        answer: JOM_OK,
    };
    let user: *mut c_void = (&mut files as *mut Files).cast();
    unsafe {
        let missing = jom_textures_upload(
            state,
            model.model(),
            textures,
            null_mut(),
            0,
            None,
            null_mut(),
        );
        assert_eq!(missing, JOM_ERROR_MISSING_TEXTURE);
        files.answer = 77;
        let refused = jom_textures_upload(
            state,
            model.model(),
            textures,
            null_mut(),
            0,
            Some(texture_file),
            user,
        );
        assert_eq!(refused, 77, "the callback's own code comes back");
        files.answer = JOM_OK;
        files.pixels.truncate(100);
        let short = jom_textures_upload(
            state,
            model.model(),
            textures,
            null_mut(),
            0,
            Some(texture_file),
            user,
        );
        assert_eq!(short, JOM_ERROR_BAD_TEXTURE);
        files.pixels = vec![0x7C; 128];
        files.calls.clear();
        let code = jom_textures_upload(
            state,
            model.model(),
            textures,
            null_mut(),
            0,
            Some(texture_file),
            user,
        );
        assert_eq!(code, JOM_OK);
        let mut count = 0;
        assert_eq!(jom_vram_texture_count(state, &mut count), JOM_OK);
        assert_eq!(count, 2);
    }
    let names: Vec<&str> = files.calls.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(names, ["CHECKER.BIN", "GRADIENT.TGA"]);
}

#[test]
fn the_player_poses_as_the_engine_does() {
    let mut loaded = Loaded::new("mesh_motion.jom");
    let bytes = fixture("mesh_motion.jom");
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    let mut memory = Memory::new();
    let player: *mut jom_player = memory.ptr();
    let mut pose = Box::new(unsafe { core::mem::zeroed::<jom_pose>() });
    let mut engine = AnimationPlayer::new(&model);
    unsafe {
        assert_eq!(jom_player_play(player, 0), JOM_ERROR_HANDLE);
        assert_eq!(jom_player_init(player, loaded.model()), JOM_OK);
        assert_eq!(jom_player_play(player, 5), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_player_cross_fade(player, 5, 3), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_player_play(player, 0), JOM_OK);
        let time = (7u64 << 16) | 0x8000;
        assert_eq!(jom_player_seek(player, time), JOM_OK);
        engine.seek_fixed(time);
        assert_eq!(jom_player_set_speed(player, ONE / 2), JOM_OK);
        engine.set_speed(ONE / 2);
        assert_eq!(jom_player_advance(player, 3), JOM_OK);
        engine.advance(3);
        let (mut index, mut now) = (9, 0u64);
        assert_eq!(jom_player_get_time(player, &mut index, &mut now), JOM_OK);
        assert_eq!((index, now), (0, engine.time()));
        assert_eq!(jom_player_get_time(player, null_mut(), null_mut()), JOM_OK);
        assert_eq!(jom_player_get_pose(player, &mut *pose), JOM_OK);
        assert_eq!(jom_player_get_pose(player, null_mut()), JOM_ERROR_NULL);
    }
    let mut bones = [Matrix::IDENTITY; jom::format::MAX_BONES];
    let expected = engine.pose(&model);
    bone_matrices(&model, &expected, &mut bones);
    assert_eq!(pose.root.m, root_matrix(&expected).0);
    assert_eq!(pose.bone_count as usize, model.bones().len());
    for (c, rust) in pose.bones.iter().zip(&bones) {
        assert_eq!(c.m, rust.0);
    }
    let mut rest = Box::new(unsafe { core::mem::zeroed::<jom_pose>() });
    assert_eq!(unsafe { jom_pose_rest(loaded.model(), &mut *rest) }, JOM_OK);
    assert_eq!(rest.bone_count as usize, model.bones().len());
}

fn camera() -> jom_camera {
    let mut camera = unsafe { core::mem::zeroed::<jom_camera>() };
    assert_eq!(unsafe { jom_camera_init(&mut camera) }, JOM_OK);
    camera.position = [0, 0, -6 * ONE];
    camera
}

#[test]
fn visibility_light_and_matrices() {
    let camera = camera();
    let mut visible = -1;
    unsafe {
        assert_eq!(
            jom_is_sphere_visible(&camera, [0, 0, 0].as_ptr(), ONE, &mut visible),
            JOM_OK
        );
        assert_eq!(visible, 1);
        assert_eq!(
            jom_is_sphere_visible(&camera, [0, 0, -20 * ONE].as_ptr(), ONE, &mut visible),
            JOM_OK
        );
        assert_eq!(visible, 0);
        let mut bad = camera;
        bad.near_z = 0;
        assert_eq!(
            jom_is_sphere_visible(&bad, [0; 3].as_ptr(), ONE, &mut visible),
            JOM_ERROR_ARGUMENT
        );
        assert_eq!(
            jom_is_sphere_visible(&camera, null(), ONE, &mut visible),
            JOM_ERROR_NULL
        );
        let mut light = jom_light {
            direction: [0; 3],
            ambient: 0,
        };
        assert_eq!(
            jom_light_init(&mut light, [3 * ONE, 4 * ONE, 0].as_ptr(), ONE / 4),
            JOM_OK
        );
        assert_eq!(light.direction, [ONE * 3 / 5, ONE * 4 / 5, 0]);
        assert_eq!(
            jom_light_init(&mut light, [0; 3].as_ptr(), 0),
            JOM_ERROR_ARGUMENT
        );
        assert_eq!(
            jom_light_init(&mut light, [ONE, 0, 0].as_ptr(), 2 * ONE),
            JOM_ERROR_ARGUMENT
        );
        let mut matrix = jom_matrix { m: [[0; 4]; 3] };
        let rotation = [0x1000i16, -0x2000, 0x300];
        assert_eq!(
            jom_matrix_place(&mut matrix, [1, 2, 3].as_ptr(), rotation.as_ptr()),
            JOM_OK
        );
        let expected =
            Matrix::translation([1, 2, 3]).then(&Matrix::rotation_xyz(rotation.map(Angle)));
        assert_eq!(matrix.m, expected.0);
    }
}

/// The memory of a `jom_draw_slot`, as a C array of them lays it out.
#[repr(C, align(8))]
struct SlotMemory([u8; JOM_DRAW_SLOT_SIZE]);

/// The memory of a `jom_placed_billboard`, as a C array of them lays it out.
#[repr(C, align(4))]
struct PlacedMemory([u8; JOM_PLACED_BILLBOARD_SIZE]);

/// The billboards a `Drawing`'s work space has room for.
const BILLBOARDS: usize = 8;

/// What a C program keeps for drawing: the list's arrays, the work space and the frame.
struct Drawing {
    tables: Vec<jom_cmdt>,
    gouraud: Vec<jom_gouraud_table>,
    points: Vec<jom_view_point>,
    screens: Vec<jom_point>,
    keys: Vec<u32>,
    slots: Vec<SlotMemory>,
    billboards: Vec<PlacedMemory>,
    billboard_keys: Vec<u32>,
    frame: Box<Memory>,
}

impl Drawing {
    /// A list of `tables` tables, a work space for frames of `draws` models of `points`
    /// points and `polygons` polygons, and a frame over it (`jom_frame_init`).
    fn new(tables: usize, points: usize, polygons: usize, draws: usize) -> Self {
        let mut drawing = Drawing {
            tables: vec![jom_cmdt::default(); tables],
            gouraud: vec![jom_gouraud_table::default(); 256],
            points: vec![
                jom_view_point {
                    view: [0; 3],
                    x: 0,
                    y: 0
                };
                draws * points
            ],
            screens: vec![jom_point::default(); draws * points],
            keys: vec![0; 2 * draws * polygons],
            slots: (0..draws)
                .map(|_| SlotMemory([0xA5; JOM_DRAW_SLOT_SIZE]))
                .collect(),
            // Bytes that are no placed billboard (an invalid `bool`): jom_frame_init
            // writes them.
            billboards: (0..BILLBOARDS)
                .map(|_| PlacedMemory([0xA5; JOM_PLACED_BILLBOARD_SIZE]))
                .collect(),
            billboard_keys: vec![0xA5A5_A5A5; 2 * BILLBOARDS],
            frame: Memory::new(),
        };
        let work = drawing.work();
        assert_eq!(unsafe { jom_frame_init(drawing.frame(), &work) }, JOM_OK);
        drawing
    }
    fn list(&mut self) -> jom_list {
        jom_list {
            tables: self.tables.as_mut_ptr(),
            capacity: self.tables.len() as u32,
            count: 0,
            gouraud: self.gouraud.as_mut_ptr(),
            gouraud_capacity: self.gouraud.len() as u32,
            gouraud_count: 0,
            gouraud_vram: VramLayout::default().frame_gouraud.start,
        }
    }
    fn work(&mut self) -> jom_work {
        jom_work {
            points: self.points.as_mut_ptr(),
            screens: self.screens.as_mut_ptr(),
            point_count: self.points.len() as u32,
            keys: self.keys.as_mut_ptr(),
            key_count: self.keys.len() as u32,
            slots: self.slots.as_mut_ptr().cast(),
            slot_count: self.slots.len() as u32,
            billboards: self.billboards.as_mut_ptr().cast(),
            billboard_keys: self.billboard_keys.as_mut_ptr(),
            billboard_count: self.billboards.len() as u32,
        }
    }
    fn frame(&mut self) -> *mut jom_frame {
        self.frame.ptr()
    }
}

#[test]
fn a_posed_draw_is_the_engines() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    let mut p = Memory::new();
    let player: *mut jom_player = p.ptr();
    let mut pose = Box::new(unsafe { core::mem::zeroed::<jom_pose>() });
    let c_camera = camera();
    let mut light = jom_light {
        direction: [0; 3],
        ambient: 0,
    };
    let mut transform = jom_matrix { m: [[0; 4]; 3] };
    let bytes = fixture("mesh_motion.jom");
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    let (points, polygons) = (model.points().len(), model.polygons().len());
    let mut drawing = Drawing::new(512, points, polygons, 1);
    let mut list = drawing.list();
    let frame = drawing.frame();
    let mut stats = jom_draw_stats::default();
    unsafe {
        assert_eq!(
            jom_textures_upload(
                state,
                loaded.model(),
                textures,
                null_mut(),
                0,
                None,
                null_mut()
            ),
            JOM_OK
        );
        assert_eq!(jom_player_init(player, loaded.model()), JOM_OK);
        assert_eq!(jom_player_seek(player, 10 << 16), JOM_OK);
        assert_eq!(jom_player_get_pose(player, &mut *pose), JOM_OK);
        assert_eq!(
            jom_light_init(
                &mut light,
                [ONE / 2, ONE / 2, ONE * 7 / 10].as_ptr(),
                ONE / 3
            ),
            JOM_OK
        );
        assert_eq!(
            jom_matrix_place(
                &mut transform,
                [0; 3].as_ptr(),
                [0x0800, -0x1800, 0].as_ptr()
            ),
            JOM_OK
        );
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &c_camera, &light), JOM_OK);
        let code = jom_frame_draw_pose(frame, loaded.model(), textures, &transform, &*pose);
        assert_eq!(code, JOM_OK);
        assert_eq!(jom_frame_finish(frame, &mut list, &mut stats), JOM_OK);
        assert_eq!(jom_list_end(&mut list), JOM_OK);
    }
    assert!(stats.drawn > 0);
    assert_eq!(list.count as usize, 3 + stats.commands as usize + 1);

    // The same through the engine's Rust API.
    let layout = VramLayout::default();
    let mut vram2 = vec![0u8; 0x80000];
    let mut target = jom::vdp1::MemoryVram::new(&mut vram2);
    let mut cache = TextureCache::<64>::new(layout.textures.clone());
    let mut model_textures = ModelTextures::<8>::EMPTY;
    cache
        .load_model(&model, &mut target, |_, _| None, &mut model_textures)
        .unwrap();
    GouraudCache::<256>::new(layout.gouraud.clone())
        .load_model(&model, &mut target, &mut [])
        .unwrap();
    let mut engine = AnimationPlayer::new(&model);
    engine.seek_fixed(10 << 16);
    let engine_pose = engine.pose(&model);
    let mut bones = [Matrix::IDENTITY; jom::format::MAX_BONES];
    bone_matrices(&model, &engine_pose, &mut bones);
    let root = root_matrix(&engine_pose);
    let place = Matrix(transform.m);
    let posed = Posed {
        transform: &place,
        root: &root,
        bones: &bones,
    };
    let rust_camera = Camera {
        position: c_camera.position,
        ..Camera::default()
    };
    let rust_light = Light {
        direction: light.direction,
        ambient: light.ambient,
    };
    let (mut rust_tables, mut rust_gouraud) = (
        vec![CommandTable::EMPTY; 512],
        vec![GouraudTable::default(); 256],
    );
    let base = layout.frame_gouraud.start;
    let mut rust_list = CommandBuffer::new(&mut rust_tables, 0, &mut rust_gouraud, 0, base);
    rust_list.start(320, 224).unwrap();
    let mut view = vec![ViewPoint::default(); points];
    let mut screens = vec![Point::default(); points];
    let mut keys = vec![0; 2 * polygons];
    let (mut slots, mut tables) = (vec![DrawSlot::EMPTY], Box::new(FrameTables::<1>::EMPTY));
    let mut memory = FrameMemory::new(&mut view, &mut screens, &mut keys, &mut slots, &mut tables);
    let model_vram = ModelVram {
        textures: model_textures.slots(),
        gouraud: &[],
    };
    let mut rust_frame =
        ListFrame::begin(memory.reborrow(), &rust_camera, Some(&rust_light)).unwrap();
    rust_frame
        .draw_posed(
            LoadedModel {
                model: &model,
                vram: model_vram,
            },
            &posed,
        )
        .unwrap();
    rust_frame.finish(&mut rust_list).unwrap();
    let rust_tables = rust_list.commands();
    assert_eq!(rust_tables.len() + 1, list.count as usize);
    for (c, rust) in drawing.tables.iter().zip(rust_tables) {
        assert_eq!(
            (c.ctrl, c.pmod, c.colr, c.srca, c.size),
            (rust.ctrl, rust.pmod, rust.colr, rust.srca, rust.size)
        );
        assert_eq!((c.vertices, c.grda), (rust.vertices, rust.grda));
    }
    assert_eq!(
        list.gouraud_count as usize,
        rust_list.gouraud_tables().len()
    );
    assert_eq!(
        drawing.tables[rust_tables.len()].ctrl,
        0x8000,
        "the end command"
    );
    // The list to VRAM.
    unsafe {
        assert_eq!(jom_list_write(&list, state, 0), JOM_OK);
        assert_eq!(jom_list_write(&list, state, 16), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_list_write(&list, state, 0x7FFE0), JOM_ERROR_ARGUMENT);
    }
    assert_eq!(
        &vram[0..2],
        &0x0009u16.to_be_bytes(),
        "the system clip command"
    );
}

#[test]
fn bad_draws_give_codes() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut other = Loaded::new("mesh.jom");
    let (mut t, mut u) = (Memory::new(), Memory::new());
    let (textures, others): (*mut jom_textures, *mut jom_textures) = (t.ptr(), u.ptr());
    let camera = camera();
    let identity = jom_matrix {
        m: Matrix::IDENTITY.0,
    };
    let mut pose = Box::new(unsafe { core::mem::zeroed::<jom_pose>() });
    unsafe {
        assert_eq!(
            jom_textures_upload(
                state,
                loaded.model(),
                textures,
                null_mut(),
                0,
                None,
                null_mut()
            ),
            JOM_OK
        );
        // A model with GOUR (every_chunk's 3 polygons) needs a table address per polygon.
        let mut lit = Loaded::new("every_chunk.jom");
        let mut l = Memory::new();
        let mut gouraud = [0u16; 3];
        let short = jom_textures_upload(
            state,
            lit.model(),
            l.ptr(),
            gouraud.as_mut_ptr(),
            2,
            None,
            null_mut(),
        );
        assert_eq!(short, JOM_ERROR_BUFFER_TOO_SMALL);
        let code = jom_textures_upload(
            state,
            other.model(),
            others,
            null_mut(),
            0,
            None,
            null_mut(),
        );
        assert_eq!(code, JOM_OK);
        assert_eq!(jom_pose_rest(loaded.model(), &mut *pose), JOM_OK);
    }
    let mut drawing = Drawing::new(512, 143, 120, 1);
    let frame = drawing.frame();
    let mut list = drawing.list();
    unsafe {
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        let model = loaded.model();
        let draw = |textures| jom_frame_draw(frame, model, textures, &identity);
        assert_eq!(draw(textures), JOM_ERROR_NO_FRAME, "no frame begun");
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(draw(others), JOM_ERROR_ARGUMENT, "another model's textures");
        let mut far = camera;
        far.far_z = far.near_z;
        assert_eq!(jom_frame_begin(frame, &far, null()), JOM_ERROR_ARGUMENT);
        assert_eq!(draw(textures), JOM_ERROR_NO_FRAME, "the frame refused");
        // A work space of 3 points, one without keys, one without slots.
        let mut work = drawing.work();
        work.point_count = 3;
        assert_eq!(jom_frame_init(frame, &work), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(draw(textures), JOM_ERROR_BUFFER_TOO_SMALL);
        let mut no_keys = drawing.work();
        no_keys.keys = null_mut();
        assert_eq!(jom_frame_init(frame, &no_keys), JOM_ERROR_NULL);
        let mut no_slots = drawing.work();
        no_slots.slot_count = 0;
        assert_eq!(jom_frame_init(frame, &no_slots), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(draw(textures), JOM_ERROR_BUFFER_TOO_SMALL);
        assert_eq!(jom_frame_init(frame, &drawing.work()), JOM_OK);
        let mut small = Drawing::new(6, 143, 120, 1);
        let mut small_list = small.list();
        assert_eq!(jom_list_begin(&mut small_list, 320, 224), JOM_OK);
        let mut stats = jom_draw_stats::default();
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(draw(textures), JOM_OK);
        let full = jom_frame_finish(frame, &mut small_list, &mut stats);
        assert_eq!(full, JOM_OK, "a full list drops the farthest polygons");
        assert!(stats.dropped > 0 && stats.drawn == 2, "{stats:?}");
        assert_eq!(
            small_list.count, 5,
            "whole tables up to the one kept for the end"
        );
        assert_eq!(jom_list_end(&mut small_list), JOM_OK);
        assert_eq!(jom_list_end(&mut small_list), JOM_ERROR_LIST_FULL);
        let mut tiny = Drawing::new(3, 0, 0, 1);
        let mut tiny_list = tiny.list();
        assert_eq!(
            jom_list_begin(&mut tiny_list, 320, 224),
            JOM_ERROR_LIST_FULL
        );
        assert_eq!(jom_list_jump(&mut list, 33), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_list_jump(&mut list, 0x80000), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_list_jump(&mut list, 0x100), JOM_OK);
        let jump = drawing.tables[list.count as usize - 1];
        assert_eq!((jump.ctrl, jump.link), (0x5000, 0x100 >> 3));
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(draw(textures), JOM_OK);
        let mut lying = list;
        lying.count = lying.capacity + 1;
        assert_eq!(
            jom_frame_finish(frame, &mut lying, null_mut()),
            JOM_ERROR_ARGUMENT,
            "a list refused: the frame stays under way"
        );
        assert_eq!(jom_frame_finish(frame, &mut list, null_mut()), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        pose.bone_count = 0;
        let posed = jom_frame_draw_pose(frame, loaded.model(), textures, &identity, &*pose);
        assert_eq!(
            posed, JOM_ERROR_ARGUMENT,
            "a pose of fewer bones than the model"
        );
        let bad_light = jom_light {
            direction: [2 * ONE, 0, 0],
            ambient: 0,
        };
        assert_eq!(
            jom_frame_begin(frame, &camera, &bad_light),
            JOM_ERROR_ARGUMENT
        );
        assert_eq!(
            jom_frame_draw(null_mut(), loaded.model(), textures, &identity),
            JOM_ERROR_NULL
        );
        assert_eq!(
            jom_frame_finish(frame, null_mut(), null_mut()),
            JOM_ERROR_NULL
        );
        // Textures released between a draw and the frame's end: told, the frame ended.
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(draw(textures), JOM_OK);
        assert_eq!(jom_textures_release(state, model, textures), JOM_OK);
        assert_eq!(
            jom_frame_finish(frame, &mut list, null_mut()),
            JOM_ERROR_HANDLE
        );
        assert_eq!(
            jom_frame_finish(frame, &mut list, null_mut()),
            JOM_ERROR_NO_FRAME
        );
    }
}

/// A lit frame of `model` (its textures uploaded in `textures`) into `list`, in `frame`:
/// the identity transform, the test camera, light from the front.
fn lit_draw(
    list: &mut jom_list,
    frame: *mut jom_frame,
    model: *const jom_model,
    textures: *const jom_textures,
    stats: &mut jom_draw_stats,
) -> jom_result {
    let identity = jom_matrix {
        m: Matrix::IDENTITY.0,
    };
    let light = jom_light {
        direction: [0, 0, ONE],
        ambient: ONE / 4,
    };
    unsafe {
        assert_eq!(jom_frame_begin(frame, &camera(), &light), JOM_OK);
        match jom_frame_draw(frame, model, textures, &identity) {
            JOM_OK => jom_frame_finish(frame, list, stats),
            code => code,
        }
    }
}

/// Uploads the textures of `model` into `textures`, with `gouraud` for its GOUR tables.
fn upload(
    vram: *mut jom_vram,
    model: *const jom_model,
    textures: *mut jom_textures,
    gouraud: &mut [u16],
) -> jom_result {
    unsafe {
        jom_textures_upload(
            vram,
            model,
            textures,
            gouraud.as_mut_ptr(),
            gouraud.len() as u32,
            None,
            null_mut(),
        )
    }
}

fn texture_count(vram: *const jom_vram) -> u32 {
    let mut count = u32::MAX;
    assert_eq!(unsafe { jom_vram_texture_count(vram, &mut count) }, JOM_OK);
    count
}

#[test]
fn a_gouraud_vram_the_commands_cannot_hold_is_refused() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    assert_eq!(upload(state, loaded.model(), textures, &mut []), JOM_OK);
    let mut drawing = Drawing::new(512, 143, 120, 1);
    let frame = drawing.frame();
    let mut stats = jom_draw_stats::default();
    let capacity = drawing.gouraud.len() as u32;
    // The last place the frame's tables fit: their addresses / 8 fill CMDGRDA's 16 bits.
    let last = 0x80000 - 8 * capacity;
    for (gouraud_vram, expected) in [
        (last + 8, JOM_ERROR_GOURAUD_VRAM),
        (0x80000, JOM_ERROR_GOURAUD_VRAM),
        (0x100000, JOM_ERROR_GOURAUD_VRAM),
        (last - 4, JOM_ERROR_GOURAUD_VRAM),
        (last, JOM_OK),
    ] {
        let mut list = drawing.list();
        list.gouraud_vram = gouraud_vram;
        let model = loaded.model();
        assert_eq!(unsafe { jom_list_begin(&mut list, 320, 224) }, JOM_OK);
        let code = lit_draw(&mut list, frame, model, textures, &mut stats);
        assert_eq!(code, expected, "gouraud_vram {gouraud_vram:#x}");
        if code == JOM_OK {
            assert!(list.gouraud_count > 0, "the draw is lit");
            // Every lit command points at a table of the frame's, inside VRAM.
            let frame = last..last + 8 * list.gouraud_count;
            let shaded = drawing.tables[3..list.count as usize]
                .iter()
                .filter(|t| t.pmod & 7 == 4);
            for table in shaded {
                assert!(frame.contains(&(u32::from(table.grda) << 3)), "{table:?}");
            }
            assert_eq!(unsafe { jom_list_write(&list, state, 0) }, JOM_OK);
        }
        // The list as it goes to VRAM: the same check.
        list.gouraud_count = 1;
        let written = unsafe { jom_list_write(&list, state, 0) };
        let for_one = gouraud_vram % 8 == 0 && gouraud_vram + 8 <= 0x80000;
        let expected = if for_one { JOM_OK } else { expected };
        assert_eq!(written, expected, "written at {gouraud_vram:#x}");
    }
}

#[test]
fn a_frame_whose_gouraud_count_is_not_reset_is_told() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    assert_eq!(upload(state, loaded.model(), textures, &mut []), JOM_OK);
    let mut drawing = Drawing::new(512, 143, 120, 1);
    let frame = drawing.frame();
    let mut list = drawing.list();
    let model = loaded.model();
    let mut stats = jom_draw_stats::default();
    // A program that keeps its own head commands: `count = 0` each frame, and (its bug)
    // `gouraud_count` left as the last frame ended.
    let mut frames = Vec::new();
    for _ in 0..4 {
        list.count = 0;
        let code = lit_draw(&mut list, frame, model, textures, &mut stats);
        frames.push((code, stats.drawn, stats.dropped));
    }
    let (first, _, first_dropped) = frames[0];
    assert_eq!((first, first_dropped), (JOM_OK, 0), "{frames:?}");
    // The frame the tables ran out in draws what fits, and says so.
    assert!(
        frames
            .iter()
            .any(|&(code, drawn, dropped)| code == JOM_ERROR_GOURAUD_FULL
                && drawn > 0
                && dropped > 0),
        "{frames:?}"
    );
    let (last, _, dropped) = frames[frames.len() - 1];
    assert_eq!(last, JOM_ERROR_GOURAUD_FULL, "{frames:?}");
    assert!(dropped > 0, "{frames:?}");
    assert_eq!(list.gouraud_count, list.gouraud_capacity);
    // Set back to 0 as a frame starts, the same draw is whole again.
    list.count = 0;
    list.gouraud_count = 0;
    let code = lit_draw(&mut list, frame, model, textures, &mut stats);
    assert_eq!((code, stats.dropped), (JOM_OK, 0));
    // A full command list still leaves out the farthest quietly (`dropped`), as it did.
    let mut small = Drawing::new(8, 143, 120, 1);
    let mut small_list = small.list();
    let code = lit_draw(&mut small_list, frame, model, textures, &mut stats);
    assert_eq!(code, JOM_OK);
    assert!(stats.dropped > 0, "{stats:?}");
}

/// `every_chunk` (its first polygon lit, of a GOUR material) with the GOUR colours of
/// that polygon made from `tint`: models whose gouraud tables differ.
fn gouraud_model(tint: u16) -> jom_write::AlignedBytes {
    let mut file = jom_write::fixtures::every_chunk();
    let colors = file.gouraud.as_mut().expect("every_chunk has GOUR");
    for (corner, color) in colors[..4].iter_mut().enumerate() {
        *color = 0x8000 | tint << 10 | corner as u16;
    }
    jom_write::AlignedBytes::new(&file.to_bytes())
}

/// Loads `bytes` into the `jom_model` at `model`.
fn load(model: *mut jom_model, bytes: &jom_write::AlignedBytes) -> jom_result {
    let data = bytes.bytes();
    unsafe { jom_model_load(model, data.as_ptr(), data.len() as u32) }
}

#[test]
fn uploading_over_live_textures_is_refused_and_leaks_nothing() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let lit = gouraud_model(1);
    let mut m = Memory::new();
    let model: *mut jom_model = m.ptr();
    assert_eq!(load(model, &lit), JOM_OK);
    let mut other = Loaded::new("mesh_motion.jom");
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    let mut gouraud = [0u16; 3];
    assert_eq!(upload(state, model, textures, &mut gouraud), JOM_OK);
    let (first_count, first_gouraud) = (texture_count(state), gouraud);
    assert!(first_count > 0 && first_gouraud[0] != 0);
    // Another model into the same state: its references would be lost with the state.
    assert_eq!(
        upload(state, other.model(), textures, &mut []),
        JOM_ERROR_IN_USE
    );
    assert_eq!(texture_count(state), first_count, "nothing uploaded");
    // A state that cannot be written is refused before anything is uploaded.
    let misaligned = unsafe { t.0.as_mut_ptr().add(4) }.cast::<jom_textures>();
    assert_eq!(
        upload(state, other.model(), misaligned, &mut []),
        JOM_ERROR_ALIGNMENT
    );
    assert_eq!(texture_count(state), first_count, "nothing uploaded");
    // One release gives everything back: the same upload lands where the first did.
    assert_eq!(
        unsafe { jom_textures_release(state, model, textures) },
        JOM_OK
    );
    assert_eq!(texture_count(state), 0);
    let mut again = [0u16; 3];
    assert_eq!(upload(state, model, textures, &mut again), JOM_OK);
    assert_eq!((texture_count(state), again), (first_count, first_gouraud));
}

#[test]
fn a_release_after_another_model_was_loaded_gives_back_what_the_upload_took() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let (first, second, third) = (gouraud_model(1), gouraud_model(2), gouraud_model(3));
    let (mut a, mut b, mut c) = (Memory::new(), Memory::new(), Memory::new());
    let (model_a, model_b, model_c): (*mut jom_model, *mut jom_model, *mut jom_model) =
        (a.ptr(), b.ptr(), c.ptr());
    let (mut ta, mut tb, mut tc) = (Memory::new(), Memory::new(), Memory::new());
    let (textures_a, textures_b, textures_c): (
        *mut jom_textures,
        *mut jom_textures,
        *mut jom_textures,
    ) = (ta.ptr(), tb.ptr(), tc.ptr());
    let (mut gouraud_a, mut gouraud_b, mut gouraud_c) = ([0u16; 3], [0u16; 3], [0u16; 3]);
    assert_eq!(load(model_a, &first), JOM_OK);
    assert_eq!(upload(state, model_a, textures_a, &mut gouraud_a), JOM_OK);
    let start = gouraud_a[0];
    assert_eq!(load(model_b, &second), JOM_OK);
    assert_eq!(upload(state, model_b, textures_b, &mut gouraud_b), JOM_OK);
    assert_ne!(gouraud_a[0], gouraud_b[0], "two tables of colours");
    // The next level's model into the first one's memory (its own copy of the bytes).
    let next = gouraud_model(2);
    assert_eq!(load(model_a, &next), JOM_OK);
    // The first model's textures are not this model's: a draw with them is refused.
    let mut drawing = Drawing::new(512, 6, 3, 1);
    let (mut list, frame) = (drawing.list(), drawing.frame());
    let mut stats = jom_draw_stats::default();
    assert_eq!(unsafe { jom_list_begin(&mut list, 320, 224) }, JOM_OK);
    assert_eq!(
        lit_draw(&mut list, frame, model_a, textures_a, &mut stats),
        JOM_ERROR_ARGUMENT
    );
    // Released through that memory, the first model's tables go; the second model's stay
    // (a third model's table takes the first one's place, not the second one's).
    assert_eq!(
        unsafe { jom_textures_release(state, model_a, textures_a) },
        JOM_OK
    );
    assert_eq!(load(model_c, &third), JOM_OK);
    assert_eq!(upload(state, model_c, textures_c, &mut gouraud_c), JOM_OK);
    assert_eq!(gouraud_c[0], start);
    assert_ne!(gouraud_c[0], gouraud_b[0]);
    // Everything given back: the third model's table goes to the range's start again,
    // and no texture is left.
    unsafe {
        assert_eq!(jom_textures_release(state, model_b, textures_b), JOM_OK);
        assert_eq!(jom_textures_release(state, model_c, textures_c), JOM_OK);
    }
    assert_eq!(texture_count(state), 0);
    assert_eq!(upload(state, model_c, textures_c, &mut gouraud_c), JOM_OK);
    assert_eq!(gouraud_c[0], start);
}

/// The tables of the list the jump at VRAM 0 points to, up to its end (not included).
fn front_list(vram: &[u8]) -> Vec<CommandTable> {
    let table = |at: usize| {
        let bytes: [u8; 32] = vram[at..at + 32].try_into().expect("inside VRAM");
        CommandTable::from_be_bytes(&bytes)
    };
    let start = usize::from(table(0).link) * 8;
    (0..)
        .map(|i| table(start + 32 * i))
        .take_while(|t| t.ctrl & 0x8000 == 0)
        .collect()
}

/// The gouraud table at VRAM `address / 8` of `vram`.
fn gouraud_at(vram: &[u8], grda: u16) -> [u16; 4] {
    let at = usize::from(grda) * 8;
    core::array::from_fn(|c| u16::from_be_bytes([vram[at + 2 * c], vram[at + 2 * c + 1]]))
}

#[test]
fn a_frame_of_three_figures_is_the_renderers() {
    // The C example's scene on a fixture: three figures of a lit model, two posed, one
    // rigid, overlapping in depth; the C frame and a Renderer's frame emit the same
    // commands (their textures and gouraud tables where each puts them) in the same order.
    let bytes = fixture("mesh_motion.jom");
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    assert_eq!(upload(state, loaded.model(), textures, &mut []), JOM_OK);
    let c_camera = camera();
    let light = jom_light {
        direction: [0, 37837, 53510],
        ambient: ONE / 4,
    };
    let places: [jom_matrix; 3] = [
        ([ONE / 2, 0, ONE], [0, 0x2000, 0]),
        ([0, 0, 0], [0x0400, 0, 0]),
        ([-ONE / 2, ONE / 8, -ONE / 2], [0, -0x1800, 0]),
    ]
    .map(|(position, rotation)| {
        let mut place = jom_matrix { m: [[0; 4]; 3] };
        let code = unsafe { jom_matrix_place(&mut place, position.as_ptr(), rotation.as_ptr()) };
        assert_eq!(code, JOM_OK);
        place
    });
    let mut engine = AnimationPlayer::new(&model);
    engine.seek_fixed(10 << 16);
    let mut pose = Box::new(unsafe { core::mem::zeroed::<jom_pose>() });
    let mut p = Memory::new();
    let player: *mut jom_player = p.ptr();
    let mut drawing = Drawing::new(512, 143, 120, 3);
    // Room for every lit polygon's gouraud table.
    drawing.gouraud = vec![jom_gouraud_table::default(); 512];
    let (mut list, frame) = (drawing.list(), drawing.frame());
    let mut stats = jom_draw_stats::default();
    unsafe {
        assert_eq!(jom_player_init(player, loaded.model()), JOM_OK);
        assert_eq!(jom_player_seek(player, 10 << 16), JOM_OK);
        assert_eq!(jom_player_get_pose(player, &mut *pose), JOM_OK);
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &c_camera, &light), JOM_OK);
        for (i, place) in places.iter().enumerate() {
            let code = match i {
                1 => jom_frame_draw(frame, loaded.model(), textures, place),
                _ => jom_frame_draw_pose(frame, loaded.model(), textures, place, &*pose),
            };
            assert_eq!(code, JOM_OK);
        }
        assert_eq!(jom_frame_finish(frame, &mut list, &mut stats), JOM_OK);
    }
    assert!(stats.drawn > 200 && stats.dropped == 0, "{stats:?}");
    // The same scene through the engine's Renderer.
    let mut arrays = Box::new(jom::render::RendererArrays::<512, 1024, 512, 512, 8, 8, 512>::ZERO);
    let mut tables = Box::new(jom::render::RendererTables::<16, 8, 4>::EMPTY);
    let memory = jom::render::RendererMemory::new(&mut arrays, &mut tables);
    let mut renderer_vram = vec![0u8; 0x80000];
    let renderer =
        jom::render::Renderer::new(jom::vdp1::MemoryVram::new(&mut renderer_vram), memory, None)
            .unwrap();
    let handle = renderer.load(&model).unwrap();
    let engine_pose = engine.pose(&model);
    let mut bones = [Matrix::IDENTITY; jom::format::MAX_BONES];
    bone_matrices(&model, &engine_pose, &mut bones);
    let root = root_matrix(&engine_pose);
    let rust_camera = Camera {
        position: c_camera.position,
        ..Camera::default()
    };
    let rust_light = Light {
        direction: light.direction,
        ambient: light.ambient,
    };
    let matrices = places.map(|place| Matrix(place.m));
    let mut rust_frame = renderer.begin(&rust_camera, Some(&rust_light)).unwrap();
    for (i, place) in matrices.iter().enumerate() {
        match i {
            1 => rust_frame.draw(&handle, place).unwrap(),
            _ => {
                let posed = Posed {
                    transform: place,
                    root: &root,
                    bones: &bones,
                };
                rust_frame.draw_posed(&handle, &posed).unwrap();
            }
        }
    }
    let rust_stats = rust_frame.finish().unwrap();
    drop(handle);
    let renderer_vram = renderer.into_vdp1().bytes().to_vec();
    let rust_tables = front_list(&renderer_vram);
    assert_eq!(
        (rust_stats.drawn, rust_stats.culled),
        (stats.drawn as usize, stats.culled as usize)
    );
    assert_eq!(rust_tables.len(), list.count as usize);
    let c_gouraud = |grda: u16| {
        let index = (u32::from(grda) * 8 - list.gouraud_vram) as usize / 8;
        drawing.gouraud[index].colors
    };
    for (i, (c, rust)) in drawing.tables.iter().zip(&rust_tables).enumerate() {
        assert_eq!(
            (i, c.ctrl, c.pmod, c.colr, c.size, c.vertices),
            (i, rust.ctrl, rust.pmod, rust.colr, rust.size, rust.vertices)
        );
        if i >= 3 && c.pmod & 7 == 4 {
            assert_eq!(
                c_gouraud(c.grda),
                gouraud_at(&renderer_vram, rust.grda),
                "{i}"
            );
        }
    }
}

/// The textures of `model` as a fresh `jom_vram` of the default layout places them (the
/// engine's own cache, in VRAM of its own).
fn rust_textures(model: &jom::Model<'_>) -> ModelTextures<8> {
    let layout = VramLayout::default();
    let mut vram = vec![0u8; 0x80000];
    let mut cache = TextureCache::<64>::new(layout.textures.clone());
    let mut textures = ModelTextures::<8>::EMPTY;
    cache
        .load_model(
            model,
            &mut MemoryVram::new(&mut vram),
            |_, _| None,
            &mut textures,
        )
        .unwrap();
    textures
}

/// A `ListFrame`'s memory in the engine's own arrays, with room for `BILLBOARDS`.
struct RustWork {
    view: Vec<ViewPoint>,
    screens: Vec<Point>,
    keys: Vec<u32>,
    slots: Vec<DrawSlot>,
    tables: Box<FrameTables<4>>,
    placed: Vec<PlacedBillboard>,
    board_keys: Vec<u32>,
}

impl RustWork {
    fn new(points: usize, polygons: usize) -> Self {
        RustWork {
            view: vec![ViewPoint::default(); points],
            screens: vec![Point::default(); points],
            keys: vec![0; 2 * polygons],
            slots: vec![DrawSlot::EMPTY, DrawSlot::EMPTY],
            tables: Box::new(FrameTables::EMPTY),
            placed: vec![PlacedBillboard::EMPTY; BILLBOARDS],
            board_keys: vec![0; 2 * BILLBOARDS],
        }
    }

    fn begin(&mut self, camera: &jom_camera) -> ListFrame<'_> {
        let memory = FrameMemory::new(
            &mut self.view,
            &mut self.screens,
            &mut self.keys,
            &mut self.slots,
            &mut self.tables,
        )
        .with_billboards(&mut self.placed, &mut self.board_keys);
        let camera = Camera {
            position: camera.position,
            ..Camera::default()
        };
        ListFrame::begin(memory, &camera, None).unwrap()
    }
}

/// `frame` finished into a list begun as `jom_list_begin` begins one: its tables, its
/// frame gouraud tables and the stats.
fn rust_finish(frame: ListFrame<'_>) -> (Vec<CommandTable>, Vec<GouraudTable>, FrameStats) {
    let mut tables = vec![CommandTable::EMPTY; 512];
    let mut gouraud = vec![GouraudTable::default(); 256];
    let base = VramLayout::default().frame_gouraud.start;
    let mut list = CommandBuffer::new(&mut tables, 0, &mut gouraud, 0, base);
    list.start(320, 224).unwrap();
    let stats = frame.finish(&mut list).unwrap();
    (
        list.commands().to_vec(),
        list.gouraud_tables().to_vec(),
        stats,
    )
}

/// The C list's tables and gouraud tables are `rust`'s, table for table.
fn same_list(
    drawing: &Drawing,
    list: &jom_list,
    rust: &(Vec<CommandTable>, Vec<GouraudTable>, FrameStats),
) {
    let (tables, gouraud, _) = rust;
    assert_eq!(list.count as usize, tables.len());
    for (i, (c, r)) in drawing.tables.iter().zip(tables).enumerate() {
        assert_eq!(
            (i, c.ctrl, c.link, c.pmod, c.colr, c.srca, c.size, c.vertices, c.grda),
            (i, r.ctrl, r.link, r.pmod, r.colr, r.srca, r.size, r.vertices, r.grda)
        );
    }
    assert_eq!(list.gouraud_count as usize, gouraud.len());
    for (c, r) in drawing.gouraud.iter().zip(gouraud) {
        assert_eq!(c.colors, r.0);
    }
}

/// A billboard of texture 0 of `textures`.
fn billboard(textures: *const jom_textures, position: [i32; 3], size: [i32; 2]) -> jom_billboard {
    jom_billboard {
        position,
        size,
        textures,
        texture: 0,
        anchor: 0,
        flags: 0,
        gouraud: 0,
        reserved: 0,
    }
}

#[test]
fn fog_and_billboards_are_the_list_frames() {
    // A model and four billboards of its texture in a fog: a tree standing on its foot,
    // a tinted half-transparent puff the fog leaves alone, a mesh one near the camera, one
    // behind it (culled). The C frame's list is a ListFrame's, table for table.
    let bytes = fixture("mesh_motion.jom");
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    assert_eq!(upload(state, loaded.model(), textures, &mut []), JOM_OK);
    let identity = jom_matrix {
        m: Matrix::IDENTITY.0,
    };
    let fog = jom_fog {
        colour: 0x8000 | 18 << 10 | 18 << 5 | 18,
        reserved: 0,
        near_z: 5 * ONE,
        far_z: 9 * ONE,
    };
    let tint = 0x8000 | 12 << 10 | 12 << 5 | 24;
    let mut boards = [
        billboard(textures, [ONE, 0, 2 * ONE], [ONE, 2 * ONE]),
        billboard(textures, [-ONE, -ONE / 2, 0], [ONE / 2, ONE / 2]),
        billboard(textures, [0, 0, -2 * ONE], [ONE, ONE]),
        billboard(textures, [0, 0, -10 * ONE], [ONE, ONE]),
    ];
    boards[0].anchor = JOM_ANCHOR_LOWER_CENTER;
    boards[1].flags = JOM_BILLBOARD_HALF_TRANSPARENT | JOM_BILLBOARD_NO_FOG;
    boards[1].gouraud = tint;
    boards[2].flags = JOM_BILLBOARD_MESH;
    let (points, polygons) = (model.points().len(), model.polygons().len());
    let mut drawing = Drawing::new(512, points, polygons, 1);
    let (mut list, frame) = (drawing.list(), drawing.frame());
    let c_camera = camera();
    let mut stats = jom_draw_stats::default();
    unsafe {
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &c_camera, null()), JOM_OK);
        assert_eq!(jom_frame_set_fog(frame, &fog), JOM_OK);
        assert_eq!(
            jom_frame_draw(frame, loaded.model(), textures, &identity),
            JOM_OK
        );
        for board in &boards {
            assert_eq!(jom_frame_draw_billboard(frame, board), JOM_OK);
        }
        assert_eq!(jom_frame_finish(frame, &mut list, &mut stats), JOM_OK);
    }
    assert_eq!([stats.billboards, stats.billboards_culled], [3, 1]);
    assert!(list.gouraud_count > 3, "the fog's tables");

    let model_textures = rust_textures(&model);
    let vram = ModelVram {
        textures: model_textures.slots(),
        gouraud: &[],
    };
    let sprite = vram.sprite(0).unwrap();
    let mut work = RustWork::new(points, polygons);
    let mut rust = work.begin(&c_camera);
    rust.set_fog(Some(Fog {
        colour: fog.colour,
        near: fog.near_z,
        far: fog.far_z,
    }));
    rust.draw(
        LoadedModel {
            model: &model,
            vram,
        },
        &Matrix::IDENTITY,
    )
    .unwrap();
    let looks = [
        (ZoomPoint::LowerCenter, BillboardLook::default()),
        (
            ZoomPoint::Center,
            BillboardLook {
                half_transparent: true,
                gouraud: Some(tint),
                fog: false,
                ..BillboardLook::default()
            },
        ),
        (
            ZoomPoint::Center,
            BillboardLook {
                mesh: true,
                ..BillboardLook::default()
            },
        ),
        (ZoomPoint::Center, BillboardLook::default()),
    ];
    for (board, (anchor, look)) in boards.iter().zip(looks) {
        let board = Billboard {
            position: board.position,
            size: board.size,
            sprite,
            anchor,
            look,
        };
        rust.draw_billboard(&board).unwrap();
    }
    let finished = rust_finish(rust);
    assert_eq!(
        [finished.2.billboards, finished.2.billboards_culled],
        [3, 1]
    );
    same_list(&drawing, &list, &finished);

    // No fog (NULL) for the same frame: the list a frame without fog makes.
    unsafe {
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &c_camera, null()), JOM_OK);
        assert_eq!(jom_frame_set_fog(frame, &fog), JOM_OK);
        assert_eq!(jom_frame_set_fog(frame, null()), JOM_OK);
        assert_eq!(
            jom_frame_draw(frame, loaded.model(), textures, &identity),
            JOM_OK
        );
        assert_eq!(jom_frame_finish(frame, &mut list, null_mut()), JOM_OK);
    }
    let mut rust = work.begin(&c_camera);
    rust.draw(
        LoadedModel {
            model: &model,
            vram,
        },
        &Matrix::IDENTITY,
    )
    .unwrap();
    same_list(&drawing, &list, &rust_finish(rust));
}

#[test]
fn levels_of_detail_are_the_list_frames() {
    // levels.jom: 30 quads, its level 1 of 4 drawn below 40 pixels (docs/levels.md). Near,
    // far and near again: the level each distance gives, and the list a ListFrame's.
    let bytes = fixture("levels.jom");
    let model = jom::Model::from_bytes(bytes.bytes()).unwrap();
    let far = model.level(1).unwrap();
    let mut loaded = Loaded::new("levels.jom");
    let mut lower = Memory::new();
    let lower: *mut jom_model = lower.ptr();
    let mut info = jom_model_info::default();
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let (mut t, mut u) = (Memory::new(), Memory::new());
    let (textures, lower_textures): (*mut jom_textures, *mut jom_textures) = (t.ptr(), u.ptr());
    unsafe {
        assert_eq!(jom_model_get_info(loaded.model(), &mut info), JOM_OK);
        assert_eq!((info.levels, info.regions), (1, 0));
        assert_eq!(jom_model_load_level(lower, loaded.model(), 1), JOM_OK);
        assert_eq!(jom_model_get_info(lower, &mut info), JOM_OK);
        assert_eq!((info.polygons, info.levels), (4, 0));
    }
    assert_eq!(upload(state, loaded.model(), textures, &mut []), JOM_OK);
    assert_eq!(upload(state, lower, lower_textures, &mut []), JOM_OK);
    let levels = [
        jom_lod_level {
            model: loaded.model(),
            textures,
        },
        jom_lod_level {
            model: lower,
            textures: lower_textures,
        },
    ];
    let identity = jom_matrix {
        m: Matrix::IDENTITY.0,
    };
    let (points, polygons) = (model.points().len(), model.polygons().len());
    let mut drawing = Drawing::new(512, points, polygons, 1);
    let (mut list, frame) = (drawing.list(), drawing.frame());
    let mut work = RustWork::new(points, polygons);
    let (near_textures, far_textures) = (rust_textures(&model), rust_textures(&far));
    let rust_levels =
        [(&model, &near_textures), (&far, &far_textures)].map(|(model, t)| LoadedModel {
            model,
            vram: ModelVram {
                textures: t.slots(),
                gouraud: &[],
            },
        });
    let (mut lod, mut rust_lod) = (jom_lod::default(), Lod::FINEST);
    let mut c_camera = camera();
    for (distance, level, drawn) in [(4, 0, 30), (30, 1, 4), (4, 0, 30)] {
        c_camera.position = [0, 0, -distance * ONE];
        let mut stats = jom_draw_stats::default();
        unsafe {
            assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
            assert_eq!(jom_frame_begin(frame, &c_camera, null()), JOM_OK);
            let code = jom_frame_draw_lod(frame, levels.as_ptr(), 2, &mut lod, &identity);
            assert_eq!(code, JOM_OK);
            assert_eq!(jom_frame_finish(frame, &mut list, &mut stats), JOM_OK);
        }
        assert_eq!((lod.level, stats.drawn + stats.culled), (level, drawn));
        let mut rust = work.begin(&c_camera);
        rust.draw_lod(&rust_levels, &mut rust_lod, &Matrix::IDENTITY)
            .unwrap();
        same_list(&drawing, &list, &rust_finish(rust));
        assert_eq!(rust_lod.level(), usize::from(level));
    }
    // Posed, far: level 1 drawn in the pose, as a posed draw of level 1 draws it.
    let mut pose = Box::new(unsafe { core::mem::zeroed::<jom_pose>() });
    let mut lod = jom_lod::default();
    c_camera.position = [0, 0, -30 * ONE];
    unsafe {
        assert_eq!(jom_pose_rest(loaded.model(), &mut *pose), JOM_OK);
        pose.root.m[1][3] = ONE / 4;
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &c_camera, null()), JOM_OK);
        let code = jom_frame_draw_pose_lod(frame, levels.as_ptr(), 2, &mut lod, &identity, &*pose);
        assert_eq!(code, JOM_OK);
        assert_eq!(jom_frame_finish(frame, &mut list, null_mut()), JOM_OK);
    }
    assert_eq!(lod.level, 1);
    let bones: Vec<Matrix> = pose.bones.iter().map(|m| Matrix(m.m)).collect();
    let posed = Posed {
        transform: &Matrix::IDENTITY,
        root: &Matrix(pose.root.m),
        bones: &bones,
    };
    let mut rust = work.begin(&c_camera);
    rust.draw_posed(rust_levels[1], &posed).unwrap();
    same_list(&drawing, &list, &rust_finish(rust));
}

#[test]
fn bad_fog_billboards_and_levels_give_codes() {
    let mut vram = vec![0u8; 0x80000];
    let (_memory, state) = vram_state(&mut vram);
    let mut loaded = Loaded::new("mesh_motion.jom");
    let mut levels_model = Loaded::new("levels.jom");
    let mut t = Memory::new();
    let textures: *mut jom_textures = t.ptr();
    let mut never = Memory::new();
    let never: *mut jom_textures = never.ptr();
    assert_eq!(upload(state, loaded.model(), textures, &mut []), JOM_OK);
    let mut drawing = Drawing::new(512, 143, 120, 1);
    let frame = drawing.frame();
    let camera = camera();
    let identity = jom_matrix {
        m: Matrix::IDENTITY.0,
    };
    let fog = jom_fog {
        colour: 0,
        reserved: 0,
        near_z: ONE,
        far_z: 2 * ONE,
    };
    let board = billboard(textures, [0, 0, 0], [ONE, ONE]);
    let mut unused = Memory::new();
    let uninitialised: *mut jom_frame = unused.ptr();
    unsafe {
        // Fog.
        assert_eq!(jom_frame_set_fog(frame, &fog), JOM_ERROR_NO_FRAME);
        assert_eq!(jom_frame_set_fog(null_mut(), &fog), JOM_ERROR_NULL);
        assert_eq!(jom_frame_set_fog(uninitialised, &fog), JOM_ERROR_HANDLE);
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        let behind = jom_fog { near_z: -1, ..fog };
        assert_eq!(jom_frame_set_fog(frame, &behind), JOM_ERROR_ARGUMENT);
        let reversed = jom_fog {
            far_z: ONE - 1,
            ..fog
        };
        assert_eq!(jom_frame_set_fog(frame, &reversed), JOM_ERROR_ARGUMENT);
        let wall = jom_fog { far_z: ONE, ..fog };
        assert_eq!(jom_frame_set_fog(frame, &wall), JOM_OK);
        let mut bytes = [0u32; 5];
        let misaligned = bytes.as_mut_ptr().cast::<u8>().add(2).cast::<jom_fog>();
        assert_eq!(jom_frame_set_fog(frame, misaligned), JOM_ERROR_ALIGNMENT);

        // Billboards.
        assert_eq!(jom_frame_draw_billboard(frame, null()), JOM_ERROR_NULL);
        assert_eq!(jom_frame_draw_billboard(null_mut(), &board), JOM_ERROR_NULL);
        let bad = |change: fn(&mut jom_billboard)| {
            let mut b = board;
            change(&mut b);
            jom_frame_draw_billboard(frame, &b)
        };
        assert_eq!(bad(|b| b.textures = null()), JOM_ERROR_NULL);
        let never_uploaded = {
            let mut b = board;
            b.textures = never;
            jom_frame_draw_billboard(frame, &b)
        };
        assert_eq!(never_uploaded, JOM_ERROR_HANDLE);
        assert_eq!(bad(|b| b.texture = 1), JOM_ERROR_ARGUMENT, "one texture");
        assert_eq!(bad(|b| b.size[0] = 0), JOM_ERROR_ARGUMENT);
        assert_eq!(bad(|b| b.size[1] = -ONE), JOM_ERROR_ARGUMENT);
        assert_eq!(bad(|b| b.anchor = 3), JOM_ERROR_ARGUMENT);
        assert_eq!(bad(|b| b.anchor = 16), JOM_ERROR_ARGUMENT);
        assert_eq!(bad(|b| b.flags = 8), JOM_ERROR_ARGUMENT);
        // Out of the engine's reach from the camera (past 32 bits in camera space).
        assert_eq!(
            bad(|b| b.position = [i32::MAX, 0, i32::MAX]),
            JOM_ERROR_ARGUMENT
        );
        for _ in 0..BILLBOARDS {
            assert_eq!(jom_frame_draw_billboard(frame, &board), JOM_OK);
        }
        assert_eq!(
            jom_frame_draw_billboard(frame, &board),
            JOM_ERROR_BUFFER_TOO_SMALL,
            "past the work space's billboards"
        );
        let mut list = drawing.list();
        assert_eq!(jom_list_begin(&mut list, 320, 224), JOM_OK);
        assert_eq!(jom_frame_finish(frame, &mut list, null_mut()), JOM_OK);
        assert_eq!(jom_frame_draw_billboard(frame, &board), JOM_ERROR_NO_FRAME);

        // The work space's billboard arrays.
        let mut work = drawing.work();
        work.billboards = null_mut();
        assert_eq!(jom_frame_init(frame, &work), JOM_ERROR_NULL);
        let mut work = drawing.work();
        work.billboard_keys = work.billboard_keys.cast::<u8>().add(2).cast();
        assert_eq!(jom_frame_init(frame, &work), JOM_ERROR_ALIGNMENT);
        let mut work = drawing.work();
        work.billboard_count = u32::MAX;
        assert_eq!(jom_frame_init(frame, &work), JOM_ERROR_ARGUMENT);
        let mut none = drawing.work();
        none.billboards = null_mut();
        none.billboard_keys = null_mut();
        none.billboard_count = 0;
        assert_eq!(jom_frame_init(frame, &none), JOM_OK);
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(
            jom_frame_draw_billboard(frame, &board),
            JOM_ERROR_BUFFER_TOO_SMALL,
            "a work space without billboards"
        );
        assert_eq!(jom_frame_init(frame, &drawing.work()), JOM_OK);

        // Levels: loading them.
        let mut lower = Memory::new();
        let lower: *mut jom_model = lower.ptr();
        let model = levels_model.model();
        assert_eq!(jom_model_load_level(lower, model, 0), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_model_load_level(lower, model, 2), JOM_ERROR_ARGUMENT);
        assert_eq!(jom_model_load_level(null_mut(), model, 1), JOM_ERROR_NULL);
        assert_eq!(jom_model_load_level(lower, null(), 1), JOM_ERROR_NULL);
        let never_loaded: *const jom_model = Memory::new().ptr();
        assert_eq!(
            jom_model_load_level(lower, never_loaded, 1),
            JOM_ERROR_HANDLE
        );
        assert_eq!(
            jom_model_load_level(lower, loaded.model(), 1),
            JOM_ERROR_ARGUMENT,
            "a model without levels"
        );
        assert_eq!(jom_model_load_level(lower, model, 1), JOM_OK);
        let (mut a, mut b) = (Memory::new(), Memory::new());
        let (model_textures, lower_textures) = (a.ptr(), b.ptr());
        assert_eq!(upload(state, model, model_textures, &mut []), JOM_OK);
        assert_eq!(upload(state, lower, lower_textures, &mut []), JOM_OK);
        let level = |model, textures| jom_lod_level { model, textures };
        let good = [level(model, model_textures), level(lower, lower_textures)];
        let mut lod = jom_lod::default();
        let draw = |levels: &[jom_lod_level], count: u32, lod: *mut jom_lod| {
            jom_frame_draw_lod(frame, levels.as_ptr(), count, lod, &identity)
        };
        // Drawing them.
        assert_eq!(draw(&good, 2, &mut lod), JOM_ERROR_NO_FRAME);
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(
            jom_frame_draw_lod(frame, null(), 2, &mut lod, &identity),
            JOM_ERROR_NULL
        );
        assert_eq!(draw(&good, 0, &mut lod), JOM_ERROR_ARGUMENT);
        assert_eq!(
            draw(
                &[good[0]; JOM_MAX_LEVELS + 1],
                JOM_MAX_LEVELS as u32 + 1,
                &mut lod
            ),
            JOM_ERROR_ARGUMENT
        );
        assert_eq!(draw(&good, 2, null_mut()), JOM_ERROR_NULL);
        assert_eq!(
            jom_frame_draw_lod(frame, good.as_ptr(), 2, &mut lod, null()),
            JOM_ERROR_NULL
        );
        let three = [good[0], good[1], good[1]];
        assert_eq!(
            draw(&three, 3, &mut lod),
            JOM_ERROR_ARGUMENT,
            "more levels than the file's"
        );
        let swapped = [good[1], good[0]];
        assert_eq!(
            draw(&swapped, 2, &mut lod),
            JOM_ERROR_ARGUMENT,
            "level 1 not the file's first lower level"
        );
        let other = [good[0], level(loaded.model(), textures)];
        assert_eq!(draw(&other, 2, &mut lod), JOM_ERROR_ARGUMENT);
        let crossed = [level(model, lower_textures), good[1]];
        assert_eq!(
            draw(&crossed, 2, &mut lod),
            JOM_ERROR_ARGUMENT,
            "another level's textures"
        );
        let unloaded = [level(never_loaded, model_textures), good[1]];
        assert_eq!(draw(&unloaded, 2, &mut lod), JOM_ERROR_HANDLE);
        // Any byte is a level: the draw brings it within those given.
        lod.level = 200;
        assert_eq!(draw(&good[..1], 1, &mut lod), JOM_OK);
        assert_eq!(lod.level, 0);
        let mut pose = Box::new(core::mem::zeroed::<jom_pose>());
        assert_eq!(jom_pose_rest(model, &mut *pose), JOM_OK);
        let mut posed = |pose: *const jom_pose| {
            jom_frame_draw_pose_lod(frame, good.as_ptr(), 2, &mut lod, &identity, pose)
        };
        assert_eq!(posed(null()), JOM_ERROR_NULL);
        // The one slot taken by the draw above: a new frame.
        assert_eq!(jom_frame_begin(frame, &camera, null()), JOM_OK);
        assert_eq!(posed(&*pose), JOM_OK);
        pose.bone_count -= 1;
        assert_eq!(
            posed(&*pose),
            JOM_ERROR_ARGUMENT,
            "a pose of fewer bones than the model"
        );
        assert_eq!(jom_frame_finish(frame, &mut list, null_mut()), JOM_OK);

        // A texture's index by its name.
        let mut index = 99;
        let names = jom::Model::from_bytes(fixture("mesh_motion.jom").bytes())
            .unwrap()
            .texture_names()[0]
            .as_str()
            .to_string();
        let name = std::ffi::CString::new(names).unwrap();
        let found = jom_model_find_texture(loaded.model(), name.as_ptr(), &mut index);
        assert_eq!((found, index), (JOM_OK, 0));
        let missing = jom_model_find_texture(loaded.model(), c"nope".as_ptr(), &mut index);
        assert_eq!(missing, JOM_ERROR_NOT_FOUND);
        let null_name = jom_model_find_texture(loaded.model(), null(), &mut index);
        assert_eq!(null_name, JOM_ERROR_NULL);
    }
}
