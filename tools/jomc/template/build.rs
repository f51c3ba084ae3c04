//! Converts the model of assets/ when the game is built (jomc as a build-dependency: no
//! tool to install). Writes $OUT_DIR/ROBOT.JOM, which src/main.rs links in; cargo runs
//! this again when any file the conversion read changes.

fn main() {
    let mut options = jomc::build::options(); // jomc convert's options, textures embedded
    options.skeleton = Some("assets/robot.json".into());
    jomc::build::convert_with("assets/robot.obj", &options);
}
