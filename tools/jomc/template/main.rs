//! @NAME@: a textured robot walking round, drawn by jom's Renderer (written by `jomc new`).
#![no_std]
#![no_main]
use jom::{anim::*, math::*, render::*};
const ROBOT: &[u8] = jom::include_aligned!(concat!(env!("OUT_DIR"), "/ROBOT.JOM")); // build.rs's
jom::entry!(main);
jom::panic_screen!(0x801F); // a red screen: something failed
fn main(saturn: jom::hw::Saturn) -> ! {
    jom::hw::init_display(0x8000); // a black back screen behind the VDP1's picture
    let model = jom::Model::from_bytes(ROBOT).unwrap();
    let memory = jom::renderer_memory!(models: [ROBOT], draws: 1).unwrap(); // sized from it
    let renderer = Renderer::new(saturn.vram, memory, None).unwrap();
    let robot = renderer.load(&model).unwrap();
    let camera = Camera::facing(model.center().raw(), 4 * ONE);
    let mut player = AnimationPlayer::new(&model);
    for tick in (0u32..).map(|t| if cfg!(feature = "still") { 90 } else { t }) {
        player.seek(tick);
        let turn = Matrix::rotation_y(Angle((tick * 96) as i16));
        let mut frame = renderer.begin(&camera, Some(&Light::default())).unwrap();
        frame.draw_animated(&robot, &player, &turn).unwrap();
        frame.finish().unwrap();
    }
    unreachable!()
}
