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
use jom::render::{draw_pose, CommandList, DrawBuffers, ModelVram, Posed, SortKey, ViewPoint};
use jom::vdp1::{GouraudCache, ModelTextures, TextureCache, VramLayout, VRAM_SIZE};
use jom::Model;

/// The model's file on the CD (converted from `assets/` by the Makefile's `iso` target,
/// or any converted model: `ci/models.sh` boots this program with each).
const MODEL_FILE: &str = "DEMO.JOM";

/// The largest model this demo draws: generous, so that any converted model within the
/// engine's limits plays (the 3DS cow has 447 points and 800 polygons, the PlayStation
/// hand 618 and 873).
const MAX_POINTS: usize = 4096;
const MAX_POLYGONS: usize = 4096;
/// The most textures (TEXT names) a model brings: the cow bakes 722.
const MAX_TEXTURES: usize = 1024;
/// Command tables: one a polygon, the list's three head commands and the frames per
/// second (up to 3 digits of 7 segments).
const COMMANDS: usize = MAX_POLYGONS + 32;
/// Gouraud tables of the frame's lighting (one a lit polygon drawn), and of the model.
const FRAME_GOURAUD: usize = 2048;
const MODEL_GOURAUD: usize = 256;

/// Where the model (without its textures) is read from CD and used in place: low work
/// RAM, not cleared at start (the CD read fills it).
#[link_section = ".lwram.model"]
static mut MODEL_BUFFER: jom::Aligned<[u8; 256 * 1024]> = jom::Aligned([0; 256 * 1024]);

/// The largest texture of the model, in bytes: the buffer each texture goes through on its
/// way to VRAM.
const TEXTURE_SCRATCH: usize = 32 * 1024;

/// The program's tables, in high work RAM (`.bss`): statics, since on the stack (128 KiB)
/// they would not fit (the model's texture table alone is about 240 KiB at these
/// capacities). The command list is where the SCU's DMA reads it.
struct Work {
    model_textures: ModelTextures<MAX_TEXTURES>,
    gouraud: [u16; MAX_POLYGONS],
    points: [ViewPoint; MAX_POINTS],
    order: [SortKey; 2 * MAX_POLYGONS],
    list: CommandList<COMMANDS, FRAME_GOURAUD>,
}

static mut WORK: Work = Work {
    model_textures: ModelTextures::EMPTY,
    gouraud: [0; MAX_POLYGONS],
    points: [ViewPoint {
        view: [0; 3],
        screen: jom::vdp1::Point { x: 0, y: 0 },
    }; MAX_POINTS],
    order: [0; 2 * MAX_POLYGONS],
    list: CommandList::EMPTY,
};

/// The textures in VRAM (about 180 KiB): in `.data`, as its start (its region) is not zero.
static mut TEXTURES: TextureCache<MAX_TEXTURES> = TextureCache::new(LAYOUT.textures);

/// VDP1 VRAM: the command tables, then 16 KiB of frame and 16 KiB of model gouraud tables
/// (2,048 each), then 351 KiB of textures (the cow's take 161 KiB).
const LAYOUT: VramLayout = VramLayout {
    commands: 0..COMMAND_BYTES,
    frame_gouraud: COMMAND_BYTES..COMMAND_BYTES + 0x4000,
    gouraud: COMMAND_BYTES + 0x4000..COMMAND_BYTES + 0x8000,
    textures: COMMAND_BYTES + 0x8000..VRAM_SIZE,
};
const COMMAND_BYTES: u32 = (COMMANDS * 32) as u32;

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

jom::entry!(main);

fn main(saturn: hw::Saturn) -> ! {
    let hw::Saturn {
        mut vram, mut cd, ..
    } = saturn;
    hw::init_display(scene::BACKGROUND);
    // SAFETY: the only references to the buffer and the tables, taken once; the model
    // borrows the buffer for the rest of the program.
    let buffer = unsafe { &mut *core::ptr::addr_of_mut!(MODEL_BUFFER) };
    let work = unsafe { &mut *core::ptr::addr_of_mut!(WORK) };
    let textures = unsafe { &mut *core::ptr::addr_of_mut!(TEXTURES) };
    let layout = LAYOUT;
    let model = match load_model(
        &mut cd,
        buffer,
        textures,
        &mut work.model_textures,
        &mut vram,
    ) {
        Ok(model) => model,
        Err(DiscError::Vram(_)) => fail(Failure::Textures),
        Err(_) => fail(Failure::Model),
    };
    if model.points().len() > MAX_POINTS || model.polygons().len() > MAX_POLYGONS {
        fail(Failure::ModelTooLarge);
    }
    let mut gouraud_cache = GouraudCache::<MODEL_GOURAUD>::new(layout.gouraud.clone());
    if gouraud_cache
        .load_model(&model, &mut vram, &mut work.gouraud)
        .is_err()
    {
        fail(Failure::Gouraud);
    }
    let resources = ModelVram {
        textures: &work.model_textures,
        gouraud: &work.gouraud,
    };
    let mut player = AnimationPlayer::new(&model);
    player.play(scene::ANIMATION);
    let list = &mut work.list;
    list.reset(320, 224, &layout);
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
        list.clear();
        let mut buffers = DrawBuffers {
            points: &mut work.points,
            order: &mut work.order,
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
    cd: &mut hw::cd::CdDrive,
    buffer: &'static mut jom::Aligned<[u8]>,
    cache: &mut TextureCache<MAX_TEXTURES>,
    textures: &mut ModelTextures<MAX_TEXTURES>,
    vram: &mut SaturnVram,
) -> Result<Model<'static>, DiscError> {
    let mut scratch = [0u8; TEXTURE_SCRATCH];
    let mut volume = jom::iso9660::Iso9660::open(cd.sectors()?)?;
    jom::disc::load_model_into(
        &mut volume,
        MODEL_FILE,
        buffer,
        cache,
        vram,
        &mut scratch,
        textures,
    )
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
