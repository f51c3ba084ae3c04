//! The jom demo: boots, reads its model from the CD (converted from `assets/` by `jomc`
//! when the CD image is built) and loads it into the renderer (its textures to VRAM); then
//! every frame poses three figures of the robot (`scene.rs`), turns the camera around them
//! and draws them, sorted together, with the frames per second in the corner. The pad:
//! left and right turn the camera (it turns by itself when left alone), A cross-fades the
//! middle figure to the next animation. With the `fixed-frame` feature it draws one fixed
//! frame, the one the emulator test compares with the host's software VDP1. With the
//! `floor` feature the figures stand on the VDP2's floor under a sky (`floor.rs`), which
//! follows the camera; with `billboards`, sprites stand among them in a fog
//! (`billboards.rs`).
#![no_std]
#![no_main]

#[cfg(feature = "billboards")]
mod billboards;
#[cfg(feature = "floor")]
mod floor;
mod hud;
mod scene;

use jom::hw::cd::CdDrive;
use jom::hw::smpc::PadButtons;
use jom::hw::{self, frt, Saturn};
use jom::image::{decode_into, probe, ImageFormat};
use jom::iso9660::Iso9660;
use jom::math::Angle;
use jom::render::{ModelHandle, Renderer};
use jom::vdp1::{TextureSource, Vdp1};
use jom::Model;

/// The model's file on the CD (converted from `assets/` by the Makefile's `iso` target,
/// or any converted model: `ci/models.sh` boots this program with each).
const MODEL_FILE: &str = "DEMO.JOM";

/// The figure the pad's A button cross-fades.
const PLAYER_FIGURE: usize = 1;

/// The bytes of the buffer the model is read from CD into and used in place (the cow of
/// `ci/models.sh` takes 253,368).
const MODEL_BYTES: usize = 256 * 1024;

/// The most texture files (TEXT names of a model without TIMG) the demo reads, and the
/// largest file (the buffer it is read into on its way to being decoded).
const MAX_TEXTURE_FILES: usize = 64;
const TEXTURE_SCRATCH: usize = 32 * 1024;

/// What failed, shown as the back screen's colour (red, then green and blue levels that
/// tell the step apart in a screenshot).
#[derive(Clone, Copy)]
enum Failure {
    /// The model could not be read from CD, or is not a valid JOM file.
    Model = 1,
    /// The renderer's memory or VRAM layout.
    Renderer,
    /// The model's texture files could not be read, or its textures or gouraud tables do
    /// not fit VRAM.
    Textures,
    Draw,
    Panic,
    /// The floor's file or its camera (the `floor` feature).
    #[cfg(feature = "floor")]
    Floor,
}

/// The floor's picture, `jomc plane assets/floor.png` (the Makefile's `build/FLOOR.BIN`).
#[cfg(feature = "floor")]
static FLOOR_FILE: &[u8] =
    jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/../build/FLOOR.BIN"));

jom::entry!(main);

fn main(saturn: Saturn) -> ! {
    let Saturn { vram, mut cd, .. } = saturn;
    hw::init_display(scene::BACKGROUND);
    #[cfg(feature = "floor")]
    let mut floor = {
        let tiles = jom::vdp2::FloorTiles::from_bytes(FLOOR_FILE);
        let floor = floor::floor();
        let (Ok(tiles), Ok(floor)) = (tiles, floor) else {
            fail(Failure::Floor)
        };
        hw::floor::FloorPlane::init(&tiles, floor)
    };
    let Some(memory) = scene::scene_memory!() else {
        fail(Failure::Renderer)
    };
    #[cfg(feature = "billboards")]
    let memory = match jom::billboard_memory!(billboards::COUNT) {
        Some((placed, keys)) => memory.with_billboards(placed, keys),
        None => fail(Failure::Renderer),
    };
    let Ok(renderer) = Renderer::new(vram, memory, None) else {
        fail(Failure::Renderer)
    };
    // In low work RAM, not cleared at start (the CD read fills it).
    let Some(buffer) = jom::static_buffer!(MODEL_BYTES, link_section = ".lwram.model") else {
        fail(Failure::Model)
    };
    let robot = load(&renderer, &mut cd, &mut buffer.0).unwrap_or_else(|failure| fail(failure));
    let model = robot.model();
    let mut players = scene::players(&model);
    let mut yaw = scene::FIXED_YAW;
    let mut previous_buttons = PadButtons::default();
    let mut frame_start = 0u16;
    let mut fps = 0u32;
    frt::start(frt::Divider::By32);
    // The timer's clock on this console (NTSC or PAL), at the 320 pixels of `init_display`.
    let cpu_clock = frt::cpu_clock(hw::video_standard(), hw::ScreenWidth::W320);
    let _ = hw::smpc::start_pad_read();
    loop {
        if cfg!(feature = "fixed-frame") {
            players.iter_mut().for_each(|p| p.seek(scene::FIXED_TICKS));
        }
        #[cfg(feature = "floor-latency")]
        {
            // Two fixed frames in turn: each field must show one of them whole, the floor
            // of the same camera as the figures (ci/floor.sh).
            yaw = Angle(yaw.0 ^ floor::LATENCY_TURN.0);
        }
        let camera = scene::camera(&model, yaw);
        let drawn = renderer
            .begin(&camera, Some(&scene::LIGHT))
            .and_then(|mut frame| {
                scene::draw(&mut frame, &robot, &players)?;
                #[cfg(feature = "billboards")]
                {
                    frame.set_fog(Some(billboards::fog(&model, &camera)));
                    billboards::draw(&mut frame, &renderer, &robot)?;
                }
                if !cfg!(feature = "fixed-frame") {
                    hud::push_number(&mut frame, fps, (8, 8))?;
                }
                frame.finish()
            });
        if drawn.is_err() {
            fail(Failure::Draw);
        }
        #[cfg(feature = "floor")]
        if floor.follow(&camera).is_err() {
            fail(Failure::Floor);
        }
        let now = frt::count();
        fps = hud::frames_per_second(now.wrapping_sub(frame_start), cpu_clock);
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
            let player = &mut players[PLAYER_FIGURE];
            if newly.pressed(PadButtons::A) {
                let next = (player.animation() + 1) % model.animations().len().max(1);
                player.cross_fade(next, 20);
            }
            previous_buttons = buttons;
            players.iter_mut().for_each(|p| p.advance(1));
        }
    }
}

/// Reads the model into `buffer` and loads it into `renderer`: with its embedded textures
/// (TIMG), or with the texture files its TEXT names, read from the disc and decoded into
/// the rest of `buffer`.
fn load<'r, 'b, V: Vdp1>(
    renderer: &'r Renderer<'_, V>,
    cd: &mut CdDrive,
    buffer: &'b mut [u8],
) -> Result<ModelHandle<'r, 'b>, Failure> {
    let sectors = cd.sectors().map_err(|_| Failure::Model)?;
    let mut volume = Iso9660::open(sectors).map_err(|_| Failure::Model)?;
    let size = volume
        .load_file(MODEL_FILE, buffer)
        .map_err(|_| Failure::Model)?
        .len();
    let (file, mut rest) = buffer.split_at_mut(size.next_multiple_of(4));
    let file: &'b [u8] = file;
    let model = Model::from_bytes(&file[..size]).map_err(|_| Failure::Model)?;
    let mut files: [Option<TextureSource<'b>>; MAX_TEXTURE_FILES] = [None; MAX_TEXTURE_FILES];
    if model.textures().is_none() {
        for (source, name) in files.iter_mut().zip(model.texture_names()) {
            let mut scratch = [0u8; TEXTURE_SCRATCH];
            let format = ImageFormat::of_name(name.as_str()).ok_or(Failure::Textures)?;
            let file = volume.load_file(name.as_str(), &mut scratch);
            let file = file.map_err(|_| Failure::Textures)?;
            let bytes = probe(format, file)
                .map_err(|_| Failure::Textures)?
                .pixel_bytes();
            if bytes > rest.len() {
                return Err(Failure::Textures);
            }
            let (pixels, tail) = core::mem::take(&mut rest).split_at_mut(bytes);
            *source = Some(decode_into(format, file, pixels).map_err(|_| Failure::Textures)?);
            rest = tail;
        }
    }
    let file_texture = |index: usize, _: &_| files.get(index).copied().flatten();
    renderer
        .load_with(&model, file_texture)
        .map_err(|_| Failure::Textures)
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
