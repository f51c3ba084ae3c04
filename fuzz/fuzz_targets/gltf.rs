//! Any bytes as a glTF or GLB file: read into plain data (no external files) and every
//! animation sampled, or one error; never a panic, a hang or an allocation the input does
//! not pay for.
#![no_main]

use jomc::gltf_file::{read, Files};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = read(data, &Files::None) {
        let rest: Vec<_> = model.nodes.iter().map(|n| n.rest).collect();
        for animation in &model.animations {
            let pose = animation.pose(&rest, animation.duration() * 0.4);
            let local: Vec<_> = pose.iter().map(|t| t.matrix()).collect();
            let _ = jomc::gltf_file::world_matrices(&model.nodes, &model.scene_order, &local);
        }
    }
});
