//! The command list a frame is drawn into, a command-table array the caller owns (32-byte
//! VDP1 tables, the layout of libyaul's `vdp1_cmdt_t`), and the camera and light a frame
//! takes (the frames themselves: `frame`).

use jom::math::{isqrt, Angle, Matrix, ONE};
use jom::render::{head_commands, Camera, CommandBuffer, Light, ViewPoint};
use jom::vdp1::{CommandTable, GouraudTable, Vram, VRAM_SIZE};

use crate::player::jom_matrix;
use crate::result::{
    jom_result, to_code, JOM_ERROR_ARGUMENT, JOM_ERROR_GOURAUD_VRAM, JOM_ERROR_LIST_FULL,
};
use crate::state;
use crate::textures::{jom_vram, VramState};

/// A VDP1 command table, as in VRAM (big endian on the SH-2): `jom::vdp1::CommandTable`.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_cmdt {
    /// CMDCTRL, CMDLINK, CMDPMOD, CMDCOLR, CMDSRCA, CMDSIZE.
    pub ctrl: u16,
    pub link: u16,
    pub pmod: u16,
    pub colr: u16,
    pub srca: u16,
    pub size: u16,
    /// CMDXA, CMDYA .. CMDXD, CMDYD.
    pub vertices: [i16; 8],
    /// CMDGRDA, and the unused last word.
    pub grda: u16,
    pub reserved: u16,
}

const _: () = assert!(core::mem::size_of::<jom_cmdt>() == 32);
const _: () = assert!(core::mem::align_of::<jom_cmdt>() == core::mem::align_of::<CommandTable>());
const _: () = assert!(core::mem::offset_of!(jom_cmdt, vertices) == 12);
const _: () = assert!(core::mem::offset_of!(jom_cmdt, grda) == 28);

/// A gouraud table: the RGB555 colours of corners A, B, C, D.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_gouraud_table {
    pub colors: [u16; 4],
}

const _: () = assert!(core::mem::size_of::<jom_gouraud_table>() == 8);

/// A command list in the caller's memory: `count` of `capacity` tables written (one is
/// always kept for `jom_list_end`), and the frame's gouraud tables (lighting), which go to
/// VRAM at `gouraud_vram` (a frame writes their addresses into the tables).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_list {
    pub tables: *mut jom_cmdt,
    pub capacity: u32,
    pub count: u32,
    pub gouraud: *mut jom_gouraud_table,
    pub gouraud_capacity: u32,
    pub gouraud_count: u32,
    /// The VRAM byte address `gouraud[0]` is copied to: a multiple of 8, and the
    /// `gouraud_capacity` tables from it end inside VRAM (the commands hold address / 8 in
    /// 16 bits).
    pub gouraud_vram: u32,
}

/// The camera (`jom::render::Camera`): X right, Y down, Z forward.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct jom_camera {
    /// World units, Q16.16.
    pub position: [i32; 3],
    /// Around X, Y then Z; 0x10000 is a whole turn.
    pub rotation: [i16; 3],
    pub reserved: u16,
    /// Eye to screen in pixels (192 on a 320-pixel screen: about 80 degrees across).
    pub focal_length: i32,
    pub width: u16,
    pub height: u16,
    /// Nearest and farthest depths drawn (Q16.16, 0 < near < far).
    pub near_z: i32,
    pub far_z: i32,
}

/// The light (`jo_3d_light`): the direction it travels (unit length, Q16.16) and the
/// light a face turned away still gets (0 to 0x10000).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct jom_light {
    pub direction: [i32; 3],
    pub ambient: i32,
}

/// A point transformed and projected: one a point of the models of a frame, its work space.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct jom_view_point {
    pub view: [i32; 3],
    pub x: i16,
    pub y: i16,
}

const _: () = assert!(core::mem::size_of::<jom_view_point>() == core::mem::size_of::<ViewPoint>());
const _: () =
    assert!(core::mem::align_of::<jom_view_point>() == core::mem::align_of::<ViewPoint>());

/// What a frame did.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct jom_draw_stats {
    /// Polygons drawn, command tables written for them, polygons culled, and visible
    /// polygons left out because the list was full (the farthest).
    pub drawn: u32,
    pub commands: u32,
    pub culled: u32,
    pub dropped: u32,
    /// Billboards drawn (their commands are counted in `commands`) and not drawn (behind,
    /// past the far plane, below a pixel or off screen).
    pub billboards: u32,
    pub billboards_culled: u32,
}

/// The camera the engine takes, checked: values the projection divides by in range.
pub(crate) fn camera_of(camera: *const jom_camera) -> Result<Camera, jom_result> {
    // SAFETY: the C side gives a `jom_camera` or null.
    let c = unsafe { state::plain(camera)? };
    let valid = (1..=4096).contains(&c.focal_length)
        && (1..=1024).contains(&c.width)
        && (1..=512).contains(&c.height)
        && c.near_z > 0
        && c.far_z > c.near_z;
    if !valid {
        return Err(JOM_ERROR_ARGUMENT);
    }
    Ok(Camera {
        position: c.position,
        rotation: c.rotation.map(Angle),
        focal_length: c.focal_length,
        width: c.width,
        height: c.height,
        near: c.near_z,
        far: c.far_z,
    })
}

/// The light, checked (null: none): each direction component and the ambient within
/// 0..=1.0 in size, as the shading's products expect.
pub(crate) fn light_of(light: *const jom_light) -> Result<Option<Light>, jom_result> {
    if light.is_null() {
        return Ok(None);
    }
    // SAFETY: the C side gives a `jom_light`.
    let l = unsafe { state::plain(light)? };
    let valid = l.direction.iter().all(|d| d.unsigned_abs() <= ONE as u32)
        && (0..=ONE).contains(&l.ambient);
    if !valid {
        return Err(JOM_ERROR_ARGUMENT);
    }
    Ok(Some(Light {
        direction: l.direction,
        ambient: l.ambient,
    }))
}

/// The default camera: at the origin looking along +Z, 320x224, focal length 192.
///
/// # Safety
/// `camera` is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_camera_init(camera: *mut jom_camera) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let out = unsafe { state::plain_mut(camera)? };
        let c = Camera::default();
        *out = jom_camera {
            position: c.position,
            rotation: c.rotation.map(|a| a.0),
            reserved: 0,
            focal_length: c.focal_length,
            width: c.width,
            height: c.height,
            near_z: c.near,
            far_z: c.far,
        };
        Ok(())
    })())
}

/// The light travelling along `direction` (any length but 0, Q16.16; made unit length)
/// with `ambient` (0 to 0x10000).
///
/// # Safety
/// Each pointer is null or valid.
#[no_mangle]
pub unsafe extern "C" fn jom_light_init(
    light: *mut jom_light,
    direction: *const i32,
    ambient: i32,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let out = unsafe { state::plain_mut(light)? };
        // SAFETY: the caller's promise: three values.
        let direction = unsafe { state::plain(direction.cast::<[i32; 3]>())? };
        let squares: u64 = direction
            .iter()
            .map(|&d| i64::from(d).unsigned_abs().pow(2))
            .sum();
        let length = isqrt(squares) as i64;
        if length == 0 || !(0..=ONE).contains(&ambient) {
            return Err(JOM_ERROR_ARGUMENT);
        }
        *out = jom_light {
            direction: direction.map(|d| (i64::from(d) * i64::from(ONE) / length) as i32),
            ambient,
        };
        Ok(())
    })())
}

/// Whether a sphere (world space) may be on screen (`jo_3d_is_sphere_visible`): writes 0
/// to `visible` only when it is wholly behind the near plane, past the far plane or
/// outside a side of the view.
///
/// # Safety
/// Each pointer is null or valid (`center`: three values).
#[no_mangle]
pub unsafe extern "C" fn jom_is_sphere_visible(
    camera: *const jom_camera,
    center: *const i32,
    radius: i32,
    visible: *mut i32,
) -> jom_result {
    to_code((|| {
        let camera = camera_of(camera)?;
        // SAFETY: the caller's promise: three values.
        let center = unsafe { state::plain(center.cast::<[i32; 3]>())? };
        // SAFETY: the caller's promise.
        let visible = unsafe { state::plain_mut(visible)? };
        *visible = i32::from(camera.is_sphere_visible(*center, radius));
        Ok(())
    })())
}

/// The matrix that turns a model by `rotation` (around X, Y then Z; 0x10000 a turn) and
/// puts it at `position` (Q16.16): a model's place in the world.
///
/// # Safety
/// Each pointer is null or valid (three values each).
#[no_mangle]
pub unsafe extern "C" fn jom_matrix_place(
    matrix: *mut jom_matrix,
    position: *const i32,
    rotation: *const i16,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let out = unsafe { state::plain_mut(matrix)? };
        // SAFETY: the caller's promise: three values each.
        let position = unsafe { state::plain(position.cast::<[i32; 3]>())? };
        // SAFETY: as above.
        let rotation = unsafe { state::plain(rotation.cast::<[i16; 3]>())? };
        let placed =
            Matrix::translation(*position).then(&Matrix::rotation_xyz(rotation.map(Angle)));
        *out = jom_matrix { m: placed.0 };
        Ok(())
    })())
}

/// The command tables of `list`, checked.
fn tables_of<'a>(list: &jom_list) -> Result<&'a mut [CommandTable], jom_result> {
    // SAFETY: the caller's promise: `capacity` tables at `tables`; `jom_cmdt` is
    // `CommandTable`'s layout (asserted above).
    unsafe { state::slice_mut(list.tables.cast::<CommandTable>(), list.capacity) }
}

/// Empties `list` and writes its three head commands: system and user clipping to a
/// `width` x `height` screen and the local origin at its centre, where the draws put the
/// camera's axis. (A program that keeps its own clipping and local coordinates sets
/// `count` to 0 instead, its local origin at the screen's centre.)
///
/// # Safety
/// `list` is null or valid, its arrays as it says.
#[no_mangle]
pub unsafe extern "C" fn jom_list_begin(
    list: *mut jom_list,
    width: u16,
    height: u16,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let list = unsafe { state::plain_mut(list)? };
        let head = head_commands(width, height);
        let tables = tables_of(list)?;
        // The head and one table for the end.
        let room = tables
            .get_mut(..head.len() + 1)
            .ok_or(JOM_ERROR_LIST_FULL)?;
        room[..head.len()].copy_from_slice(&head);
        list.count = head.len() as u32;
        list.gouraud_count = 0;
        Ok(())
    })())
}

/// Appends `table` after the `count` tables of `list`.
fn append(list: &mut jom_list, table: CommandTable) -> Result<(), jom_result> {
    let count = list.count as usize;
    let slot = tables_of(list)?.get_mut(count).ok_or(JOM_ERROR_LIST_FULL)?;
    *slot = table;
    list.count += 1;
    Ok(())
}

/// Ends `list`: an end command after its tables (`count` grows by one).
///
/// # Safety
/// `list` is null or valid, its arrays as it says.
#[no_mangle]
pub unsafe extern "C" fn jom_list_end(list: *mut jom_list) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let list = unsafe { state::plain_mut(list)? };
        append(list, CommandTable::end())
    })())
}

/// CMDCTRL of a table that is skipped and jumps (JP = 5: skip, assign).
const SKIP_JUMP: u16 = 0x5000;

/// Links `list` on: a skipped command jumping to the command table at VRAM byte address
/// `next` (a multiple of 32), so that the VDP1 goes on with the caller's own list
/// (`count` grows by one).
///
/// # Safety
/// `list` is null or valid, its arrays as it says.
#[no_mangle]
pub unsafe extern "C" fn jom_list_jump(list: *mut jom_list, next: u32) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let list = unsafe { state::plain_mut(list)? };
        if !next.is_multiple_of(32) || next >= VRAM_SIZE {
            return Err(JOM_ERROR_ARGUMENT);
        }
        let mut jump = CommandTable::end();
        jump.ctrl = SKIP_JUMP;
        jump.link = (next >> 3) as u16;
        append(list, jump)
    })())
}

/// Whether `count` tables of `size` bytes from VRAM byte address `start` end inside VRAM.
fn fits_vram(start: u32, size: u32, count: usize) -> bool {
    u32::try_from(count)
        .ok()
        .and_then(|count| count.checked_mul(size))
        .and_then(|bytes| start.checked_add(bytes))
        .is_some_and(|end| end <= VRAM_SIZE)
}

/// Whether `count` frame gouraud tables from VRAM byte address `start` can be named by
/// command tables: CMDGRDA holds a table's address / 8 in 16 bits, so `start` must be a
/// multiple of 8 and every table must end inside VRAM (a larger address would lose its
/// high bits, and the VDP1 would read another table).
fn gouraud_addressable(start: u32, count: usize) -> bool {
    start.is_multiple_of(8) && fits_vram(start, 8, count)
}

/// Writes the `count` tables of `list` to VRAM at byte address `address` (a multiple of
/// 32), and its frame gouraud tables at `gouraud_vram`, through `vram`'s pointer.
///
/// # Safety
/// Each pointer is null or valid, the list's arrays as it says.
#[no_mangle]
pub unsafe extern "C" fn jom_list_write(
    list: *const jom_list,
    vram: *mut jom_vram,
    address: u32,
) -> jom_result {
    to_code((|| {
        // SAFETY: the caller's promise.
        let list = unsafe { state::plain(list)? };
        // SAFETY: the caller's promise.
        let vram = unsafe { state::get_mut::<VramState>(vram.cast())? };
        let tables = tables_of(list)?;
        let tables = tables
            .get(..list.count as usize)
            .ok_or(JOM_ERROR_ARGUMENT)?;
        // SAFETY: the caller's promise: `gouraud_capacity` tables.
        let gouraud = unsafe {
            state::slice_mut(list.gouraud.cast::<GouraudTable>(), list.gouraud_capacity)?
        };
        let gouraud = gouraud
            .get(..list.gouraud_count as usize)
            .ok_or(JOM_ERROR_ARGUMENT)?;
        if !address.is_multiple_of(32) || !fits_vram(address, 32, tables.len()) {
            return Err(JOM_ERROR_ARGUMENT);
        }
        if !gouraud_addressable(list.gouraud_vram, gouraud.len()) {
            return Err(JOM_ERROR_GOURAUD_VRAM);
        }
        let target = vram.target();
        target.write_commands(address, tables);
        for (i, table) in gouraud.iter().enumerate() {
            target.write_gouraud(list.gouraud_vram + 8 * i as u32, table);
        }
        Ok(())
    })())
}

/// The engine's [`CommandBuffer`] over the arrays of `list`, checked: its counts within its
/// capacities, and every gouraud table a frame may add addressable from `gouraud_vram`
/// (checked here, not truncated silently into the commands).
pub(crate) fn list_buffer<'a>(list: &jom_list) -> Result<CommandBuffer<'a>, jom_result> {
    let tables = tables_of(list)?;
    // SAFETY: the caller's promise: `gouraud_capacity` tables at `gouraud`.
    let gouraud =
        unsafe { state::slice_mut(list.gouraud.cast::<GouraudTable>(), list.gouraud_capacity)? };
    if list.count > list.capacity || list.gouraud_count > list.gouraud_capacity {
        return Err(JOM_ERROR_ARGUMENT);
    }
    if !gouraud_addressable(list.gouraud_vram, gouraud.len()) {
        return Err(JOM_ERROR_GOURAUD_VRAM);
    }
    Ok(CommandBuffer::new(
        tables,
        list.count as usize,
        gouraud,
        list.gouraud_count as usize,
        list.gouraud_vram,
    ))
}
