//! The floor's maths against the renderer's own projection: every pixel the VDP2's
//! arithmetic (`RotationTable::sample`) puts on the floor is projected back by the polygon
//! path (`transform_points_reference`, the reference of the SH-2 transform) onto the same
//! pixel, within one.

use super::*;
use crate::format::{FixedBe, Vector};
use crate::hw::vdp1::FlipMoment;
use crate::math::Angle;
use crate::render::{transform_points_reference, Projection, ViewPoint};
use crate::{check, check_eq};

const BLUE: u16 = 31 << 10;
const WHITE: u16 = 0x7FFF;
const SKY: Sky = Sky {
    zenith: BLUE,
    horizon: WHITE,
};

fn camera(position: [i32; 3], pitch: i32, yaw: i32) -> Camera {
    Camera {
        position,
        rotation: [
            Angle::from_degrees(pitch),
            Angle::from_degrees(yaw),
            Angle(0),
        ],
        ..Camera::default()
    }
}

/// The screen pixel (from the top left) the renderer projects world point `p` to.
fn projected(camera: &Camera, p: [i32; 3]) -> (i32, i32, i32) {
    let point = [Vector {
        x: FixedBe::new(p[0]),
        y: FixedBe::new(p[1]),
        z: FixedBe::new(p[2]),
    }];
    let mut out = [ViewPoint::default()];
    transform_points_reference(&camera.view(), &Projection::of(camera), &point, &mut out);
    let screen = out[0].screen;
    (
        i32::from(screen.x) + i32::from(camera.width / 2),
        i32::from(screen.y) + i32::from(camera.height / 2),
        out[0].view[2],
    )
}

/// The world point the VDP2 shows at pixel `(h, v)` of `frame` (its plane position taken
/// back out of the plane's repetition around the camera), or `None` where it is
/// transparent.
fn shown(floor: &Floor, camera: &Camera, frame: &FloorFrame, h: i32, v: i32) -> Option<[i32; 3]> {
    let [x, y] = frame.table.sample(frame.coefficients[v as usize], h, v)?;
    let period = i64::from(PLANE_TEXELS) << 16;
    let texel = i64::from(floor.texel());
    let world = |plane_q10: i64, eye: i32| {
        let eye_q16 = (i64::from(eye) << 16) / texel;
        let base = eye_q16 - eye_q16.rem_euclid(period);
        // Texels (Q16.16) to world units (Q16.16).
        ((((plane_q10 << 6) + base) * texel) >> 16) as i32
    };
    Some([
        world(x, camera.position[0]),
        floor.height(),
        world(y, camera.position[2]),
    ])
}

/// Checks every 7th pixel of every 5th line of `camera`'s screen: gives how many were on
/// the floor, or the first that missed.
#[allow(clippy::result_large_err)]
fn check_pixels(floor: &Floor, camera: &Camera) -> Result<u32, crate::selftest::Failure> {
    let mut frame = FloorFrame::default();
    check_eq!(floor.frame_into(camera, Buffer(0), &mut frame), Ok(()));
    let mut on_floor = 0;
    for v in (0..i32::from(camera.height)).step_by(5) {
        for h in (0..i32::from(camera.width)).step_by(7) {
            let Some(point) = shown(floor, camera, &frame, h, v) else {
                continue;
            };
            let (x, y, depth) = projected(camera, point);
            check!(depth > 0 && depth <= camera.far);
            if (x - h).abs() > 1 || (y - v).abs() > 1 {
                return Err(crate::selftest::Failure::new(
                    file!(),
                    line!(),
                    format_args!(
                        "pixel ({h}, {v}): the floor point {point:?} projects to ({x}, {y})"
                    ),
                ));
            }
            on_floor += 1;
        }
    }
    Ok(on_floor)
}

crate::test_suite! {
    fn the_plane_lands_where_the_polygons_project() {
        let cameras = [
            // Level, a little above the floor: the horizon at the centre line.
            (camera([0, -2 * ONE, 0], 0, 0), 2 * ONE / 16),
            // Looking down and turned, away from the origin (the plane repeats around it).
            (camera([1234 * ONE, -6 * ONE, -789 * ONE], -20, 30), ONE / 8),
            (camera([-5000 * ONE + 12345, -3 * ONE, 7000 * ONE], -45, -135), ONE / 16),
            (camera([77 * ONE, -40 * ONE, 3 * ONE], -70, 200), ONE / 2),
            // Looking up a little: the horizon above the centre line.
            (camera([0, -ONE, 0], 10, 90), ONE / 32),
        ];
        for (camera, texel) in cameras {
            let floor = check_ok(Floor::new(0, texel, SKY))?;
            let on_floor = check_pixels(&floor, &camera)?;
            // Enough of the screen is floor that the check means something.
            check!(on_floor > 100);
        }
        // A floor above the camera (a ceiling) is seen from below the same way.
        let ceiling = check_ok(Floor::new(-10 * ONE, ONE / 16, SKY))?;
        check!(check_pixels(&ceiling, &camera([0, 0, 0], 20, 45))? > 100);
    }

    fn a_point_ahead_is_on_the_centre_column() {
        // Level camera 2 units up, looking along +Z: the floor point 16 units ahead is at
        // the centre column, f x 2 / 16 = 24 lines below the centre line.
        let floor = check_ok(Floor::new(0, ONE / 16, SKY))?;
        let camera = camera([0, -2 * ONE, 0], 0, 0);
        let (x, y, _) = projected(&camera, [0, 0, 16 * ONE]);
        check_eq!((x, y), (160, 112 + 24));
        let mut frame = FloorFrame::default();
        check_eq!(floor.frame_into(&camera, Buffer(1), &mut frame), Ok(()));
        let [px, pz] = check_some(frame.table.sample(frame.coefficients[136], 160, 136))?;
        // 16 units are 256 texels of 1/16; the plane point within a texel of it.
        check!((px >> 10).abs() <= 1);
        check!(((pz >> 10) - 256).abs() <= 1);
    }

    fn the_sky_and_the_far_edge_are_transparent() {
        let floor = check_ok(Floor::new(0, ONE / 16, SKY))?;
        let camera = Camera {
            far: 64 * ONE,
            ..camera([0, -2 * ONE, 0], 0, 0)
        };
        let mut frame = FloorFrame::default();
        check_eq!(floor.frame_into(&camera, Buffer(0), &mut frame), Ok(()));
        // Above the horizon (line 112) no floor, the sky blending to the zenith.
        for v in 0..=112 {
            check_eq!(frame.coefficients[v], TRANSPARENT);
        }
        // Line 0 is 30 degrees up (112 lines at a focal length of 192): more than halfway
        // to the zenith's blue from the horizon's white, whose red fades line by line.
        check_eq!(frame.sky[112], WHITE);
        let red = |c: u16| c & 31;
        check!(red(frame.sky[0]) < 16);
        check!((0..112).all(|v| red(frame.sky[v]) <= red(frame.sky[v + 1])));
        // Looking 60 degrees up, the top line is past 45 degrees: the zenith's colour.
        let up = Camera { rotation: [Angle::from_degrees(60), Angle(0), Angle(0)], ..camera.clone() };
        check_eq!(floor.frame_into(&up, Buffer(0), &mut frame), Ok(()));
        check_eq!(frame.sky[0], BLUE);
        check_eq!(floor.frame_into(&camera, Buffer(0), &mut frame), Ok(()));
        // The floor is 64 units away at 2 x 192 / 64 = 6 lines below the horizon: nearer
        // lines show it, farther ones the horizon's colour.
        check_eq!(frame.coefficients[117], TRANSPARENT);
        check!(frame.coefficients[119] & TRANSPARENT == 0);
        check_eq!(frame.sky[117], WHITE);
        check_eq!(frame.sky[200], WHITE);
    }

    fn the_table_holds_the_hardware_formats() {
        let floor = check_ok(Floor::new(0, ONE / 16, SKY))?;
        let camera = camera([0, -2 * ONE, 0], 0, 0);
        let mut frame = FloorFrame::default();
        check_eq!(floor.frame_into(&camera, Buffer(1), &mut frame), Ok(()));
        let words = frame.table.words();
        // Zst = 192.0 (bits 28-6), ΔYst = ΔX = 1.0 (bits 18-6), A = 1.0 (bits 19-6).
        check_eq!((words[4], words[5]), (0x00C0, 0x0000));
        check_eq!((words[8], words[9]), (0x0001, 0x0000));
        check_eq!((words[10], words[11]), (0x0001, 0x0000));
        check_eq!((words[14], words[15]), (0x0001, 0x0000));
        // Px, Py, Pz: the screen's centre.
        check_eq!(&words[0x1A..0x1D], &[160, 112, 0][..]);
        // Mx = 0 - 160 (two's complement in 24 bits, moved up 6).
        check_eq!(frame.table.mx, ((-160i32 << 10) as u32 & 0xFF_FFFF) << 6);
        // Each line reads its own coefficient of buffer 1's table.
        let (_, ktaof) = Buffer(1).coefficient_start();
        for v in [0, 1, 100, 255] {
            check_eq!(
                frame.table.coefficient_index(ktaof, v),
                layout::COEFFICIENTS[1] / 4 + v
            );
        }
    }

    fn floors_and_cameras_outside_the_limits_are_refused() {
        check_eq!(Floor::new(0, 0, SKY), Err(FloorError::Texel(0)));
        check_eq!(Floor::new(0, 300 * ONE, SKY), Err(FloorError::Texel(300 * ONE)));
        let floor = check_ok(Floor::new(0, ONE, SKY))?;
        let mut frame = FloorFrame::default();
        let rolled = Camera {
            rotation: [Angle(0), Angle(0), Angle(5)],
            ..Camera::default()
        };
        check_eq!(floor.frame_into(&rolled, Buffer(0), &mut frame), Err(FloorError::Roll(5)));
        let long = Camera {
            focal_length: 5000,
            ..Camera::default()
        };
        check_eq!(floor.frame_into(&long, Buffer(0), &mut frame), Err(FloorError::FocalLength(5000)));
        let flat = Camera {
            height: 0,
            ..Camera::default()
        };
        check!(matches!(
            floor.frame_into(&flat, Buffer(0), &mut frame),
            Err(FloorError::Camera(_))
        ));
    }

    fn each_field_shows_the_floor_of_its_pictures_camera() {
        // Frames of one to three fields, committed in the display or in the VBlank, in an
        // order no period repeats: every field from the first frame's on shows the floor
        // of the camera whose polygons it shows, and no buffer is written while it is on
        // screen or entered.
        for seed in [1, 7, 12345, 99, 2024] {
            check_eq!(simulate_fields(seed, 300), Ok(()));
        }
    }

    fn a_floor_is_due_one_field_after_a_commit_in_vblank_two_in_the_display() {
        check_eq!(due(10, true), 11);
        check_eq!(due(10, false), 12);
        let mut floors = FieldFloors::new(Buffer(0));
        floors.fields = 10;
        // Nothing entered: the VDP2 keeps what it shows.
        check_eq!(next_field(&mut floors), None);
        let slot = floors.slot_for_new();
        floors.entries[slot] = FieldFloor::new(due(11, false), Buffer(1));
        check_eq!(floors.free_buffer(), Buffer(2));
        check_eq!(next_field(&mut floors), None);
        check_eq!(next_field(&mut floors), Some(Buffer(1)));
        check_eq!(floors.shown, Buffer(1));
        check_eq!(next_field(&mut floors), None);
        // The next frame takes the empty entry, the one after replaces the older.
        check_eq!(floors.slot_for_new(), 1 - slot);
        floors.entries[1 - slot] = FieldFloor::new(due(14, true), Buffer(2));
        check_eq!(floors.slot_for_new(), slot);
        check_eq!(floors.free_buffer(), Buffer(0));
        check_eq!(next_field(&mut floors), Some(Buffer(2)));
        check_eq!(floors.slot_for_new(), slot);
    }

    fn field_counts_compare_across_their_wrap() {
        let floor = FieldFloor::new(0xFF_FFFF, Buffer(3));
        check_eq!(floor.age(0xFF_FFFF), Some(0));
        check_eq!(floor.age(0x100_0001), Some(2));
        check_eq!(floor.age(0xFF_FFFE), None);
        check_eq!(floor.buffer(), Buffer(3));
        check_eq!(FieldFloor::NONE.age(5), None);
    }
}

/// The field a frame flipped after `fields` VBlank-INs shows after, flipped in a VBlank
/// before its frame change or not (the moment the renderer's commit records on the SH-2).
fn due(fields: u32, before_frame_change: bool) -> u32 {
    FlipMoment {
        fields,
        before_frame_change,
    }
    .shows_after()
}

/// The next VBlank-IN, as the interrupt gives it.
fn next_field(floors: &mut FieldFloors) -> Option<Buffer> {
    floors.vblank_in(floors.fields.wrapping_add(1))
}

/// `follow` of `frame`, committed in a VBlank or not: its floor written to a free buffer
/// (`buffers` holds each one's frame) and entered.
fn commit(
    floors: &mut FieldFloors,
    buffers: &mut [u32],
    in_vblank: bool,
    frame: u32,
) -> Result<(), FieldError> {
    let due = due(floors.fields, in_vblank);
    let buffer = floors.free_buffer();
    let taken = floors.shown == buffer
        || floors
            .entries
            .iter()
            .any(|e| *e != FieldFloor::NONE && e.buffer() == buffer);
    if taken {
        return Err(FieldError::BufferInUse { frame, buffer });
    }
    buffers[buffer.0] = frame;
    let slot = floors.slot_for_new();
    floors.entries[slot] = FieldFloor::new(due, buffer);
    Ok(())
}

/// Where [`simulate_fields`] found the floor apart from the polygons.
#[derive(Debug, PartialEq)]
enum FieldError {
    /// A field showed the polygons of one camera over the floor of another.
    FloorOfAnotherCamera {
        field: u32,
        polygons: u32,
        floor: u32,
    },
    /// `follow` was given a buffer on screen or entered.
    BufferInUse { frame: u32, buffer: Buffer },
}

/// A game's loop against the VDP1's and VDP2's fields, as `hw::floor` and the renderer
/// drive them. In each field: the VDP1's frame change (it shows what it drew in the field
/// before and draws the list committed last), the display, VBlank-IN (the interrupt:
/// `vblank_in`), the VBlank. A frame's work ends in the display or in the VBlank of its
/// last field (one to three fields a frame, drawn from `seed`); then it is committed (at
/// most once a frame change: the renderer waits for one) and `follow` enters its floor.
fn simulate_fields(mut seed: u32, frames: u32) -> Result<(), FieldError> {
    let mut floors = FieldFloors::new(Buffer(0));
    // The camera each buffer holds; the frame committed last, the one the VDP1 draws, the
    // one on screen (0: none).
    let mut buffers = [0u32; crate::vdp2::layout::BUFFERS];
    let (mut committed, mut drawing, mut on_screen) = (0u32, 0u32, 0u32);
    let (mut frame, mut fields_left, mut ends_in_vblank) = (1u32, 1u32, false);
    // The renderer commits at most once a frame change: a frame takes a field at least.
    let mut field = 0;
    while frame <= frames {
        field += 1;
        // The frame change.
        on_screen = match drawing {
            0 => on_screen,
            drawn => drawn,
        };
        drawing = committed;
        if on_screen != 0 && buffers[floors.shown.0] != on_screen {
            return Err(FieldError::FloorOfAnotherCamera {
                field,
                polygons: on_screen,
                floor: buffers[floors.shown.0],
            });
        }
        fields_left -= 1;
        let ends_here = fields_left == 0;
        if ends_here && !ends_in_vblank {
            commit(&mut floors, &mut buffers, false, frame)?;
            committed = frame;
        }
        next_field(&mut floors);
        if ends_here && ends_in_vblank {
            commit(&mut floors, &mut buffers, true, frame)?;
            committed = frame;
        }
        if ends_here {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            fields_left = 1 + (seed >> 16) % 3;
            ends_in_vblank = (seed >> 20).is_multiple_of(4);
            frame += 1;
        }
    }
    Ok(())
}

#[allow(clippy::result_large_err)]
fn check_ok<T, E: fmt::Debug>(result: Result<T, E>) -> Result<T, crate::selftest::Failure> {
    result.map_err(|e| crate::selftest::Failure::new(file!(), line!(), format_args!("{e:?}")))
}
#[allow(clippy::result_large_err)]
fn check_some<T>(value: Option<T>) -> Result<T, crate::selftest::Failure> {
    value.ok_or_else(|| crate::selftest::Failure::new(file!(), line!(), format_args!("None")))
}
