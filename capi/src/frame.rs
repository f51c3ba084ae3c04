//! Frames drawn into the caller's command list (`jom_frame`): the engine's one pipeline
//! (`jom::render::ListFrame`), every model of a frame sorted together, farthest first, and
//! emitted by its fast paths, in the work space the caller gives (`jom_work`, its
//! billboards' room included). What a frame draws besides models (fog, billboards, levels
//! of detail): `world`.

use core::mem::MaybeUninit;
use core::ptr::addr_of_mut;

use jom::math::Matrix;
use jom::render::{
    DrawError, DrawSlot, FrameMemory, FrameStats, FrameTables, ListFrame, LoadedModel, ModelVram,
    PlacedBillboard, Posed, ViewPoint, MAX_DRAWS,
};
use jom::vdp1::Point;
use jom::Model;

use crate::draw::{
    camera_of, jom_camera, jom_draw_stats, jom_light, jom_list, jom_view_point, light_of,
    list_buffer,
};
use crate::model::{jom_model, model_of};
use crate::player::{as_matrices, jom_matrix, jom_pose};
use crate::result::{
    jom_result, to_code, Code, JOM_ERROR_ARGUMENT, JOM_ERROR_GOURAUD_FULL, JOM_ERROR_NO_FRAME,
};
use crate::state::{self, State};
use crate::textures::{jom_textures, TexturesState};

/// The most models a frame draws (the header's `JOM_MAX_DRAWS`).
pub const JOM_MAX_DRAWS: usize = MAX_DRAWS;
/// The bytes of a `jom_frame`.
pub const JOM_FRAME_SIZE: usize = crate::state_size(4);
/// The bytes of a `jom_draw_slot`: exactly the engine's slot, so that an array of them is
/// an array of slots.
pub const JOM_DRAW_SLOT_SIZE: usize = crate::state_size(5);

const _: () = assert!(core::mem::size_of::<DrawSlot>() == JOM_DRAW_SLOT_SIZE);
const _: () = assert!(core::mem::align_of::<DrawSlot>() <= core::mem::align_of::<usize>());

/// The bytes of a `jom_placed_billboard`: exactly the engine's `PlacedBillboard`, so that
/// an array of them is the engine's array.
pub const JOM_PLACED_BILLBOARD_SIZE: usize = crate::state_size(6);

const _: () = assert!(core::mem::size_of::<PlacedBillboard>() == JOM_PLACED_BILLBOARD_SIZE);
const _: () = assert!(core::mem::align_of::<PlacedBillboard>() <= 4);

/// A screen position (`jom::vdp1::Point`): x right, y down, from the screen's centre.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_point {
    pub x: i16,
    pub y: i16,
}

const _: () = assert!(core::mem::size_of::<jom_point>() == core::mem::size_of::<Point>());
const _: () = assert!(core::mem::align_of::<jom_point>() == core::mem::align_of::<Point>());

/// One model drawn in a frame: its matrices and what emission keeps of it (opaque,
/// `JOM_DRAW_SLOT_SIZE` bytes).
#[repr(C)]
pub struct jom_draw_slot {
    _opaque: [u32; 0],
}

/// A billboard drawn in a frame, as the frame keeps it until its end (opaque,
/// `JOM_PLACED_BILLBOARD_SIZE` bytes).
#[repr(C)]
pub struct jom_placed_billboard {
    _opaque: [u32; 0],
}

/// The work space of a frame, in the caller's arrays: for all the models one frame draws,
/// a view point and a screen point a point and two sort keys a polygon; a slot a model
/// drawn; a placed billboard and two sort keys a billboard (none: null and 0).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_work {
    pub points: *mut jom_view_point,
    pub screens: *mut jom_point,
    pub point_count: u32,
    pub keys: *mut u32,
    pub key_count: u32,
    pub slots: *mut jom_draw_slot,
    pub slot_count: u32,
    /// `billboard_count` of them.
    pub billboards: *mut jom_placed_billboard,
    /// `2 * billboard_count` of them.
    pub billboard_keys: *mut u32,
    pub billboard_count: u32,
}

/// A frame's state (opaque, `JOM_FRAME_SIZE` bytes).
#[repr(C)]
pub struct jom_frame {
    _opaque: [u32; 0],
}

/// A `jom_frame`: the caller's work space, the frame's tables, the frame under way (which
/// borrows the tables and the work space: the state is reached field by field, never as a
/// whole, `state::get_raw`) and the textures of its draws (checked again at its end).
pub(crate) struct FrameState {
    work: jom_work,
    tables: FrameTables<JOM_MAX_DRAWS>,
    frame: Option<ListFrame<'static>>,
    drawn: [*const jom_textures; JOM_MAX_DRAWS],
    /// How many of `drawn` are the frame's.
    draws: usize,
}

impl State for FrameState {
    const TAG: u32 = u32::from_be_bytes(*b"JFRM");
}

const _: () = assert!(crate::state::size_of_state::<FrameState>() <= JOM_FRAME_SIZE);

/// The arrays of a `jom_work`, as the engine takes them.
struct Arrays {
    points: &'static mut [ViewPoint],
    screens: &'static mut [Point],
    keys: &'static mut [u32],
    slots: &'static mut [DrawSlot],
    billboards: &'static mut [PlacedBillboard],
    billboard_keys: &'static mut [u32],
}

/// How many sort keys the billboards of `work` have: two each.
fn billboard_keys(work: &jom_work) -> Result<u32, jom_result> {
    work.billboard_count
        .checked_mul(2)
        .ok_or(JOM_ERROR_ARGUMENT)
}

/// The arrays of `work`, checked.
///
/// # Safety
/// The caller's promise: each array as `work` says, kept while the frame is used.
unsafe fn arrays(work: &jom_work) -> Result<Arrays, jom_result> {
    let billboard_keys = billboard_keys(work)?;
    // SAFETY: the caller's promise; `jom_view_point` and `jom_point` are `ViewPoint`'s and
    // `Point`'s layouts (asserted), a `jom_draw_slot` is a `DrawSlot`'s bytes, a
    // `jom_placed_billboard` a `PlacedBillboard`'s.
    unsafe {
        Ok(Arrays {
            points: state::slice_mut(work.points.cast::<ViewPoint>(), work.point_count)?,
            screens: state::slice_mut(work.screens.cast::<Point>(), work.point_count)?,
            keys: state::slice_mut(work.keys, work.key_count)?,
            slots: state::slice_mut(work.slots.cast::<DrawSlot>(), work.slot_count)?,
            billboards: state::slice_mut(
                work.billboards.cast::<PlacedBillboard>(),
                work.billboard_count,
            )?,
            billboard_keys: state::slice_mut(work.billboard_keys, billboard_keys)?,
        })
    }
}

/// Starts `frame` in the work space `work`: its slots and placed billboards made empty
/// once (keep the arrays while the frame is used). Again on a frame state: started again,
/// any frame under way left.
///
/// # Safety
/// `frame` is null or points to `JOM_FRAME_SIZE` writable bytes; `work` is null or valid,
/// its arrays as it says, for as long as `frame` is used.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_init(
    frame: *mut jom_frame,
    work: *const jom_work,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let work = *unsafe { state::plain(work)? };
        billboard_keys(&work)?;
        // SAFETY: the caller's promise: `billboard_count` of them, any bytes (a `bool`'s
        // may be invalid): written whole as uninitialised memory, never read.
        let placed = unsafe {
            state::slice_mut(
                work.billboards.cast::<MaybeUninit<PlacedBillboard>>(),
                work.billboard_count,
            )?
        };
        for room in placed {
            room.write(PlacedBillboard::EMPTY);
        }
        // SAFETY: the caller's promise.
        let arrays = unsafe { arrays(&work)? };
        for slot in arrays.slots.iter_mut() {
            // SAFETY: a slot of the caller's array (any bytes), written whole in place.
            let room = unsafe { &mut *(slot as *mut DrawSlot).cast::<MaybeUninit<DrawSlot>>() };
            DrawSlot::empty_in(room);
        }
        arrays.billboard_keys.fill(0);
        // SAFETY: the caller's promise; every field written (the tables all zero: empty).
        unsafe {
            state::init_raw::<FrameState>(frame.cast(), |state| {
                addr_of_mut!((*state).work).write(work);
                addr_of_mut!((*state).frame).write(None);
            })
        }
    })())
}

/// The state of `frame`, its tag checked.
pub(crate) fn state_of(frame: *mut jom_frame) -> Result<*mut FrameState, jom_result> {
    // SAFETY: the C side gives a `jom_frame` or null (checked, with the tag).
    unsafe { state::get_raw(frame.cast()) }
}

/// The frame under way in `state`.
///
/// # Safety
/// `state` from [`state_of`]; no other reference to its `frame` alive.
pub(crate) unsafe fn under_way<'a>(state: *mut FrameState) -> &'a mut Option<ListFrame<'static>> {
    // SAFETY: the caller's promise; the field alone is borrowed.
    unsafe { &mut *addr_of_mut!((*state).frame) }
}

/// Ends the frame `under_way`. Written in place, `*under_way = None` had the SH-2 code
/// build the `None` (a frame's size, 404 bytes) on the stack and copy it over: in
/// `jom_frame_finish`'s own frame those bytes were under all of `finish_in_place`'s calls
/// (its stack bound 8,148 bytes of `JOM_STACK_BYTES`' 8,192), in `jom_frame_begin`'s under
/// `ListFrame::begin`. Through this function the code generator copies it from `.data`
/// instead (`sh-elf-objdump -dr`), even though it inlines the call all the same.
#[inline(never)]
fn end(under_way: &mut Option<ListFrame<'static>>) {
    *under_way = None;
}

/// Begins a frame seen by `camera`, lit by `light` (NULL: unlit); a frame under way is
/// left, whether this one begins or is refused.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_begin(
    frame: *mut jom_frame,
    camera: *const jom_camera,
    light: *const jom_light,
) -> jom_result {
    to_code((|| {
        let state = state_of(frame)?;
        // SAFETY: from `state_of`. The frame under way, which borrows the tables and the
        // work space, goes first (before they are borrowed again, and whether or not this
        // one begins).
        unsafe {
            end(under_way(state));
            addr_of_mut!((*state).draws).write(0);
        }
        let camera = camera_of(camera)?;
        let light = light_of(light)?;
        // SAFETY: from `state_of`, no frame under way.
        unsafe {
            let work = arrays(&*addr_of_mut!((*state).work))?;
            let tables = &mut *addr_of_mut!((*state).tables);
            let (points, screens, keys) = (work.points, work.screens, work.keys);
            let memory = FrameMemory::new(points, screens, keys, work.slots, tables)
                .with_billboards(work.billboards, work.billboard_keys);
            let begun = ListFrame::begin(memory, &camera, light.as_ref());
            *under_way(state) = Some(begun.map_err(|e| e.code())?);
        }
        Ok(())
    })())
}

/// The model of `model` and `textures`, checked: both loaded, the textures the model's.
pub(crate) fn loaded_model(
    model: *const jom_model,
    textures: *const jom_textures,
) -> Result<LoadedModel<'static>, jom_result> {
    let model: &'static Model<'static> = model_of(model)?;
    // SAFETY: the C side gives a `jom_textures` or null (checked, with the tag), which
    // stays as it is until the frame's end (the caller's promise).
    let loaded: &'static TexturesState = unsafe { state::get(textures.cast())? };
    if !loaded.belongs_to(model) {
        return Err(JOM_ERROR_ARGUMENT);
    }
    let vram = ModelVram {
        textures: loaded.textures.slots(),
        gouraud: loaded.gouraud(),
    };
    Ok(LoadedModel { model, vram })
}

/// Draws with `draw` the model of `model` and `textures` in the frame under way of
/// `frame` (see [`draw_in`]).
fn draw_with(
    frame: *mut jom_frame,
    model: *const jom_model,
    textures: *const jom_textures,
    draw: impl FnOnce(&mut ListFrame<'static>, LoadedModel<'static>) -> Result<(), DrawError>,
) -> Result<(), jom_result> {
    let state = state_of(frame)?;
    let loaded = loaded_model(model, textures)?;
    draw_in(state, |frame| draw(frame, loaded).map(|()| textures))
}

/// Draws with `draw` in the frame under way of `state`, keeping the textures `draw` says
/// it drew with to check again at the frame's end when the draw took a slot (one dropped
/// whole, wholly outside the view, took none).
pub(crate) fn draw_in(
    state: *mut FrameState,
    draw: impl FnOnce(&mut ListFrame<'static>) -> Result<*const jom_textures, DrawError>,
) -> Result<(), jom_result> {
    // SAFETY: from `state_of`.
    let under_way = unsafe { under_way(state) };
    let frame = under_way.as_mut().ok_or(JOM_ERROR_NO_FRAME)?;
    let before = frame.draws();
    let textures = draw(frame).map_err(|e| e.code())?;
    if frame.draws() > before {
        // SAFETY: from `state_of`; the fields alone are borrowed. Never past the end: at
        // most `JOM_MAX_DRAWS` draws take a slot.
        unsafe {
            let draws = &mut *addr_of_mut!((*state).draws);
            if let Some(slot) = (*addr_of_mut!((*state).drawn)).get_mut(*draws) {
                *slot = textures;
                *draws += 1;
            }
        }
    }
    Ok(())
}

/// Draws `model` (its `textures` from `jom_textures_upload`) placed by `transform` in the
/// frame under way: its points transformed and its polygons culled now, sorted with every
/// other model's at `jom_frame_finish`. The model and its textures stay as they are until
/// then.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_draw(
    frame: *mut jom_frame,
    model: *const jom_model,
    textures: *const jom_textures,
    transform: *const jom_matrix,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let transform = Matrix::from(unsafe { state::plain(transform)? });
        draw_with(frame, model, textures, |frame, loaded| {
            frame.draw(loaded, &transform)
        })
    })())
}

/// `jom_frame_draw` of `model` in `pose` (`jo_3d_model_draw_pose`): each bone's group
/// moved by its matrix.
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_draw_pose(
    frame: *mut jom_frame,
    model: *const jom_model,
    textures: *const jom_textures,
    transform: *const jom_matrix,
    pose: *const jom_pose,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let transform = Matrix::from(unsafe { state::plain(transform)? });
        // SAFETY: the caller's promise.
        let pose = unsafe { state::plain(pose)? };
        if model_of(model)?.bones().len() > pose.bone_count as usize {
            return Err(JOM_ERROR_ARGUMENT);
        }
        let posed = Posed {
            transform: &transform,
            root: &as_matrices(core::slice::from_ref(&pose.root))[0],
            bones: as_matrices(&pose.bones),
        };
        draw_with(frame, model, textures, |frame, loaded| {
            frame.draw_posed(loaded, &posed)
        })
    })())
}

/// Ends the frame under way: the visible polygons of every model it drew sorted together,
/// farthest first, into `list` after its `count` tables (`count` and `gouraud_count` grow);
/// `stats` (may be NULL) says what it did. A full list leaves out the farthest polygons
/// (`dropped`); frame gouraud tables that run out do too, and give
/// `JOM_ERROR_GOURAUD_FULL`. A `list` refused leaves the frame under way; any other end
/// ends it.
///
/// # Safety
/// Each pointer is null or valid, the list's arrays as it says.
#[no_mangle]
pub unsafe extern "C" fn jom_frame_finish(
    frame: *mut jom_frame,
    list: *mut jom_list,
    stats: *mut jom_draw_stats,
) -> jom_result {
    to_code((|| {
        let state = state_of(frame)?;
        // SAFETY: the caller's promise.
        let list = unsafe { state::plain_mut(list)? };
        let mut buffer = list_buffer(list)?;
        // SAFETY: from `state_of`. Finished where it is (moved out, the frame took its
        // size again on the stack), then let go.
        let under_way = unsafe { under_way(state) };
        if under_way.is_none() {
            return Err(JOM_ERROR_NO_FRAME);
        }
        // The textures drawn with are still uploaded (their states still tagged); if not,
        // the frame ends.
        // SAFETY: from `state_of`; the field alone is borrowed.
        let drawn = unsafe { &(&*addr_of_mut!((*state).drawn))[..*addr_of_mut!((*state).draws)] };
        for &textures in drawn {
            // SAFETY: a state the draw checked; its tag read again.
            if let Err(error) = unsafe { state::get::<TexturesState>(textures.cast()) } {
                end(under_way);
                return Err(error);
            }
        }
        let frame = under_way.as_mut().ok_or(JOM_ERROR_NO_FRAME)?;
        let finished = frame.finish_in_place(&mut buffer);
        end(under_way);
        list.count = buffer.len() as u32;
        list.gouraud_count = buffer.gouraud_len() as u32;
        let finished: FrameStats = finished.map_err(|e| e.code())?;
        if !stats.is_null() {
            // SAFETY: the caller's promise.
            *unsafe { state::plain_mut(stats)? } = jom_draw_stats {
                drawn: finished.drawn as u32,
                commands: finished.commands as u32,
                culled: finished.culled as u32,
                dropped: finished.dropped as u32,
                billboards: finished.billboards as u32,
                billboards_culled: finished.billboards_culled as u32,
            };
        }
        // A full command list leaves out the farthest polygons by design (`dropped` says
        // how many); gouraud tables that ran out mostly mean a `gouraud_count` never set
        // back to 0, which would otherwise blank every lit polygon from then on without a
        // word.
        if finished.gouraud_full {
            return Err(JOM_ERROR_GOURAUD_FULL);
        }
        Ok(())
    })())
}
