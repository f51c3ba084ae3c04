//! The file-format readers of `jomc` as a library, so the fuzz targets (fuzz/) reach them
//! without the command-line program. The converter (the `jomc` binary) uses them from here.

pub mod cmb;
pub mod gltf_file;
