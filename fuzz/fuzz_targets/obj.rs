//! Any bytes as a Wavefront OBJ, its MTL and a PNG texture (the three parts separated by
//! zero bytes, read from memory), converted through the whole pipeline as `jomc convert`
//! does (the MTL is `m.mtl`, named by a `mtllib` line put first; the PNG is `t.png` for any
//! `map_Kd t.png`): one error or a JOM file, never a panic or a hang.
#![no_main]

use jomc::convert::{convert_in_memory, Options, Sources};
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |&b| b == 0);
    let obj = [b"mtllib m.mtl\n", parts.next().unwrap_or_default()].concat();
    let mtl = parts.next().unwrap_or_default().to_vec();
    let png = parts.next().unwrap_or_default().to_vec();
    let sources = Sources::memory([
        (PathBuf::from("fuzz.obj"), obj),
        (PathBuf::from("m.mtl"), mtl),
        (PathBuf::from("t.png"), png),
    ]);
    let options = Options {
        embed_textures: true,
        ..Options::default()
    };
    if let Ok(converted) = convert_in_memory(Path::new("fuzz.obj"), &options, &sources) {
        let file = jom_write::AlignedBytes::new(&converted.bytes);
        assert!(
            jom::Model::from_bytes(file.bytes()).is_ok(),
            "the converter wrote a file the engine refuses"
        );
    }
});
