//! Any bytes as a glTF or GLB file: read into plain data (no external files) and every
//! animation sampled, then converted through the whole pipeline as `jomc convert` does (the
//! importer's groups, its skeleton and the levels of detail cut from them included): one
//! error or a JOM file the engine takes, never a panic, a hang or an allocation the input
//! does not pay for.
#![no_main]

use jomc::convert::{convert_in_memory, Options, Sources};
use jomc::gltf_file::{read, Files};
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};

fuzz_target!(|data: &[u8]| {
    let Ok(model) = read(data, &Files::None) else {
        return;
    };
    let rest: Vec<_> = model.nodes.iter().map(|n| n.rest).collect();
    for animation in &model.animations {
        let pose = animation.pose(&rest, animation.duration() * 0.4);
        let local: Vec<_> = pose.iter().map(|t| t.matrix()).collect();
        let _ = jomc::gltf_file::world_matrices(&model.nodes, &model.scene_order, &local);
    }
    let sources = Sources::memory([(PathBuf::from("fuzz.glb"), data.to_vec())]);
    if let Ok(converted) = convert_in_memory(Path::new("fuzz.glb"), &Options::default(), &sources) {
        let file = jom_write::AlignedBytes::new(&converted.bytes);
        assert!(
            jom::Model::from_bytes(file.bytes()).is_ok(),
            "the converter wrote a file the engine refuses"
        );
    }
});
