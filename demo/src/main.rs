//! The jom demo: boots, reads its model from the CD (converted from `assets/` by `jomc`
//! when the CD image is built): its embedded textures go to VRAM one by one and only the
//! rest of the file stays in low work RAM, validated and used in place; then every frame
//! poses the robot, turns the camera around it and draws it, with the frames per second
//! in the corner. The pad: left and right turn the camera (it turns by itself when left
//! alone), A cross-fades to the next animation. With the `fixed-frame` feature it draws
//! one fixed frame, the one the emulator test compares with the host's software VDP1.
#![no_std]
#![no_main]

mod hud;
mod scene;

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::disc::DiscError;
use jom::format::MAX_BONES;
use jom::hw::smpc::PadButtons;
use jom::hw::{self, frt, SaturnVram};
use jom::math::{Angle, Matrix};
use jom::render::{draw_pose, CommandList, DrawBuffers, ModelVram, Posed, ViewPoint};
use jom::vdp1::{GouraudCache, ModelTextures, TextureCache, VramLayout};
use jom::Model;

/// The model's file on the CD (converted from `assets/` by the Makefile's `iso` target).
const MODEL_FILE: &str = "DEMO.JOM";

/// Where the model (without its textures) is read from CD and used in place: low work
/// RAM, not cleared at start (the CD read fills it).
#[link_section = ".lwram.model"]
static mut MODEL_BUFFER: jom::Aligned<[u8; 128 * 1024]> = jom::Aligned([0; 128 * 1024]);

/// The largest texture of the model, in bytes: the buffer each texture goes through on its
/// way to VRAM.
const TEXTURE_SCRATCH: usize = 8 * 1024;

/// The frame's command list: a `static` in high work RAM, where the SCU's DMA reads it
/// (and too large for the stack).
static mut LIST: Option<CommandList<256, 128>> = None;

/// The largest model this demo draws.
const MAX_POINTS: usize = 512;
const MAX_POLYGONS: usize = 512;

/// What failed, shown as the back screen's colour (red, then green and blue levels that
/// tell the step apart in a screenshot).
#[derive(Clone, Copy)]
enum Failure {
    /// The model could not be read from CD, or is not a valid JOM file.
    Model = 1,
    ModelTooLarge,
    Textures,
    Gouraud,
    Draw,
    VBlank,
    Commit,
    Panic,
}

#[no_mangle]
pub extern "C" fn main() -> ! {
    hw::mask_interrupts();
    hw::init_display(scene::BACKGROUND);
    // SAFETY: the only reference to the buffer, taken once; the model borrows it for the
    // rest of the program.
    let buffer = unsafe { &mut *core::ptr::addr_of_mut!(MODEL_BUFFER) };
    let layout = VramLayout::default();
    let mut vram = SaturnVram;
    let mut textures = TextureCache::<16>::new(layout.textures.clone());
    let (model, model_textures) = match load_model(buffer, &mut textures, &mut vram) {
        Ok(loaded) => loaded,
        Err(DiscError::Vram(_)) => fail(Failure::Textures),
        Err(_) => fail(Failure::Model),
    };
    if model.points().len() > MAX_POINTS || model.polygons().len() > MAX_POLYGONS {
        fail(Failure::ModelTooLarge);
    }
    let mut gouraud = [0u16; MAX_POLYGONS];
    let mut gouraud_cache = GouraudCache::<64>::new(layout.gouraud.clone());
    if gouraud_cache
        .load_model(&model, &mut vram, &mut gouraud)
        .is_err()
    {
        fail(Failure::Gouraud);
    }
    let resources = ModelVram {
        textures: &model_textures,
        gouraud: &gouraud,
    };
    let mut player = AnimationPlayer::new(&model);
    player.play(scene::ANIMATION);
    let mut points = [ViewPoint::default(); MAX_POINTS];
    let mut order = [0u32; 2 * MAX_POLYGONS];
    let mut yaw = scene::FIXED_YAW;
    let mut previous_buttons = PadButtons::default();
    let mut frame_start = 0u16;
    let mut fps = 0u32;
    frt::start(frt::Divider::By32);
    let _ = hw::smpc::start_pad_read();
    loop {
        let frame_scene = scene::at(&model, yaw);
        if cfg!(feature = "fixed-frame") {
            player.seek(scene::FIXED_TICKS);
        }
        let pose = player.pose(&model);
        let mut bones = [Matrix::IDENTITY; MAX_BONES];
        bone_matrices(&model, &pose, &mut bones);
        let root = root_matrix(&pose);
        let posed = Posed {
            transform: &frame_scene.transform,
            root: &root,
            bones: &bones,
        };
        // SAFETY: the only reference to the list, taken here each frame.
        let list = unsafe { &mut *core::ptr::addr_of_mut!(LIST) }
            .get_or_insert_with(|| CommandList::new(320, 224, &layout));
        list.clear();
        let mut buffers = DrawBuffers {
            points: &mut points,
            order: &mut order,
            worker: None,
        };
        let drawn = draw_pose(
            list,
            &model,
            &resources,
            &posed,
            &frame_scene.camera,
            Some(&frame_scene.light),
            &mut buffers,
        );
        if drawn.is_err() {
            fail(Failure::Draw);
        }
        if !cfg!(feature = "fixed-frame") && hud::push_number(list, fps, (8, 8)).is_err() {
            fail(Failure::Draw);
        }
        if hw::wait_vblank().is_err() {
            fail(Failure::VBlank);
        }
        if list.commit(&mut vram, &layout).is_err() {
            fail(Failure::Commit);
        }
        let now = frt::count();
        fps = hud::frames_per_second(now.wrapping_sub(frame_start));
        frame_start = now;
        if !cfg!(feature = "fixed-frame") {
            // The answer to last frame's request, and the request for the next frame.
            let buttons = hw::smpc::finish_pad_read()
                .ok()
                .flatten()
                .unwrap_or_default();
            let _ = hw::smpc::start_pad_read();
            yaw = Angle(yaw.0.wrapping_add(camera_turn(buttons)));
            let newly = PadButtons(buttons.0 & !previous_buttons.0);
            if newly.pressed(PadButtons::A) {
                let next = (player.animation() + 1) % model.animations().len().max(1);
                player.cross_fade(next, 20);
            }
            previous_buttons = buttons;
            player.advance(1);
        }
    }
}

/// Reads the model into `buffer` and its textures into VRAM through a buffer on the stack,
/// which is given back when the loading is over.
#[inline(never)]
fn load_model(
    buffer: &'static mut jom::Aligned<[u8]>,
    cache: &mut TextureCache<16>,
    vram: &mut SaturnVram,
) -> Result<(Model<'static>, ModelTextures<8>), DiscError> {
    let mut scratch = [0u8; TEXTURE_SCRATCH];
    hw::cd::load_textured_model(MODEL_FILE, buffer, cache, vram, &mut scratch)
}

/// How far the camera turns this frame: by itself, or as the pad says.
fn camera_turn(buttons: PadButtons) -> i16 {
    match (
        buttons.pressed(PadButtons::LEFT),
        buttons.pressed(PadButtons::RIGHT),
    ) {
        (true, false) => -0x200,
        (false, true) => 0x200,
        _ => 0x40,
    }
}

/// Shows what failed (the back screen: red 24, green 4 x the step number) and stops.
fn fail(failure: Failure) -> ! {
    hw::init_display(0x8000 | (failure as u16 * 4) << 5 | 24);
    loop {}
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    fail(Failure::Panic)
}
