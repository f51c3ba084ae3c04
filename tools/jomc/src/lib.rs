//! `jomc` as a library: the converter ([`convert`]: every importer into one pipeline), its
//! use from a game's build script ([`build`]), the game template of `jomc new` ([`new`]),
//! the VDP2 floor's file of `jomc plane` ([`plane`]),
//! and the file-format readers the fuzz targets (fuzz/) reach without the command line.
//! The `jomc` binary is a thin command line over these.

pub mod build;
pub mod cmb;
pub mod compare;
pub mod convert;
pub mod fits;
pub mod gltf_file;
pub mod new;
pub mod plane;
pub mod texture_files;
pub mod vram;
