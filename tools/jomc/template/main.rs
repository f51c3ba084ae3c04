//! @NAME@: a textured robot walking round, drawn by jom's Renderer (written by `jomc new`).
#![no_std]
#![no_main]

use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
use jom::math::{Angle, Matrix, ONE};
use jom::render::{Camera, Light, Posed, Renderer};

jom::entry!(main);
fn main(saturn: jom::hw::Saturn) -> ! {
    jom::hw::init_display(0x8000); // a black back screen behind the VDP1's picture
    let bytes = jom::include_aligned!(concat!(env!("OUT_DIR"), "/ROBOT.JOM")); // by build.rs
    let model = jom::Model::from_bytes(bytes).unwrap();
    let memory = jom::renderer_memory!(points: 256, polygons: 256, commands: 260, frame_gouraud: 256,
        model_gouraud: 16, textures: 16, model_textures: 16, model_polygons: 256, model_planes: 256, draws: 4);
    let renderer = Renderer::new(saturn.vram, memory.unwrap(), None).unwrap();
    let robot = renderer.load(&model).unwrap();
    let [x, y, z] = model.center().raw();
    let camera = Camera { position: [x, y, z - 4 * ONE], ..Camera::default() };
    let light = Light { direction: [0, 0, ONE], ambient: ONE / 4 };
    let mut player = AnimationPlayer::new(&model);
    for tick in (0u32..).map(|t| if cfg!(feature = "still") { 90 } else { t }) {
        player.seek(tick);
        let (pose, mut bones) = (player.pose(&model), [Matrix::IDENTITY; jom::format::MAX_BONES]);
        bone_matrices(&model, &pose, &mut bones);
        let turn = Matrix::rotation_y(Angle((tick * 0x60) as i16));
        let posed = Posed { transform: &turn, root: &root_matrix(&pose), bones: &bones };
        let mut frame = renderer.begin(&camera, Some(&light)).unwrap();
        frame.draw_posed(&robot, &posed).unwrap();
        frame.finish().unwrap();
    }
    unreachable!()
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    jom::hw::init_display(0x801F); // a red screen: something failed
    loop {}
}
