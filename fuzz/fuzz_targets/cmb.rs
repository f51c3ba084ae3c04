//! The CMB, CSAB and PICA200 readers of jomc on any bytes: an error or a model, never a
//! panic. A parsed model is also made rigid and its textures decoded, since those steps
//! trust what the reader checked.
#![no_main]

use jomc::cmb::{csab, model, pica, rest};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(cmb) = model::parse(data) {
        let _ = rest::make_rigid(&cmb);
        for texture in &cmb.textures {
            let _ = pica::decode(
                texture.format,
                texture.width.into(),
                texture.height.into(),
                &texture.data,
            );
        }
    }
    if let Ok(animation) = csab::parse(data) {
        for node in &animation.nodes {
            for track in node.rotation.iter().flatten() {
                let _ = track.sample(f64::from(animation.duration) / 2.0);
            }
        }
    }
});
