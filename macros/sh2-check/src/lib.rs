//! `include_jom!` in a crate built for the SH-2: `ci/sh2-test.sh` builds it with the SH-2
//! toolchain (`sh2-target.json`, `-Zbuild-std=core`), which builds `jom-macros` and its
//! `jom` for the host and this crate and its `jom` for the SH-2.
#![no_std]

/// The fixture with every chunk, linked in and validated when this crate was built.
pub fn every_chunk() -> jom::Model<'static> {
    jom_macros::include_jom!("../../tests/fixtures/every_chunk.jom")
}

/// Its polygon count (something for the SH-2 code generator to compile).
pub fn polygon_count() -> usize {
    every_chunk().polygons().len()
}
