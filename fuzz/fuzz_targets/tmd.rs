//! `psx_formats::tmd::read` on any input: it must return, never panic or read out of
//! bounds, and every index of a model it accepts must be in range.
#![no_main]

use libfuzzer_sys::fuzz_target;
use psx_formats::tmd::{self, Primitive};

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = tmd::read(data) {
        for object in &model.objects {
            for primitive in &object.primitives {
                if let Primitive::Polygon(p) = primitive {
                    for v in p.outline() {
                        assert!(v < object.vertices.len());
                    }
                    for &n in &p.normals {
                        assert!(usize::from(n) < object.normals.len());
                    }
                }
            }
        }
    }
});
