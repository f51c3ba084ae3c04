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

/// The reader's error for the JOM file `bytes`, as `jomc` prints it: `file: error`, and
/// for a lower level of detail that is refused (LODS), that level's own error after it.
pub fn load_error(file: &std::path::Path, bytes: &[u8], error: &jom::LoadError) -> String {
    let mut text = format!("{}: {error}", file.display());
    if let jom::LoadError::LevelRefused { offset, .. } = *error {
        let size = offset
            .checked_sub(4)
            .and_then(|at| bytes.get(at..offset))
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize);
        let level = size.and_then(|size| bytes.get(offset..offset.checked_add(size)?));
        if let Some(level) = level {
            let level = jom_write::AlignedBytes::new(level);
            if let Err(inner) = jom::Model::from_bytes(level.bytes()) {
                text += &format!(": {inner} (offsets within the level's file)");
            }
        }
    }
    text
}
