//! Readers of Grezzo's Nintendo 3DS formats: CMB models (Ocarina of Time 3D, Majora's Mask
//! 3D, Ever Oasis, Luigi's Mansion 3D), their PICA200 textures and CSAB skeletal
//! animations. Little endian; every offset and count is checked against the file before it
//! is used, and a bad file is one [`FormatError`] naming the chunk, the byte offset and what
//! was expected. The readers keep the file's own units and axes; the converter's CMB importer
//! (`convert/cmb.rs`) turns them into the shared scene.

mod bytes;
pub mod csab;
pub mod model;
pub mod pica;
pub mod rest;

pub use bytes::FormatError;
