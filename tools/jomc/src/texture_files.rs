//! The texture files of a model without TIMG (the .BIN or .TGA files its TEXT names),
//! found in a folder and decoded by the engine's own decoders (`jom::image`), as a Saturn
//! program does after reading them from CD: what `jomc render` and `jomc compare` draw with.

use jom::image::{self, ImageFormat};
use jom::vdp1::TextureSource;
use jom::Model;
use std::path::{Path, PathBuf};

/// A texture file's decoded pixels.
pub struct Decoded {
    pub width: u16,
    pub height: u16,
    pub pixels: Vec<u8>,
}

impl Decoded {
    /// The pixels as the engine's texture loader takes them.
    pub fn source(&self) -> TextureSource<'_> {
        TextureSource {
            width: self.width,
            height: self.height,
            format: 0,
            data: &self.pixels,
        }
    }
}

/// The texture files of `model` in `folder`, decoded in TEXT order (none for a model with
/// TIMG or without textures).
pub fn read(model: &Model<'_>, folder: &Path) -> Result<Vec<Decoded>, String> {
    if model.textures().is_some() {
        return Ok(Vec::new());
    }
    let names = model.texture_names().iter().enumerate();
    names
        .map(|(index, name)| {
            let name = name.as_str();
            let format = ImageFormat::of_name(name).ok_or_else(|| {
                format!("texture {index} {name:?} of TEXT: expected a .BIN or .TGA file name")
            })?;
            let path = find_file(folder, name).ok_or_else(|| {
                format!(
                    "{}: no file {name} (texture {index} of TEXT; --texture-dir says where they are)",
                    folder.display()
                )
            })?;
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let in_file = |e: image::ImageError| format!("{}: {e}", path.display());
            let info = image::probe(format, &bytes).map_err(in_file)?;
            let mut pixels = vec![0; info.pixel_bytes()];
            image::decode_into(format, &bytes, &mut pixels).map_err(in_file)?;
            Ok(Decoded {
                width: info.width,
                height: info.height,
                pixels,
            })
        })
        .collect()
}

/// The folder of a JOM file's texture files: `dir` when given, else the file's own folder.
pub fn folder_of(file: &Path, dir: Option<&Path>) -> PathBuf {
    match (dir, file.parent()) {
        (Some(dir), _) => dir.to_path_buf(),
        (None, Some(parent)) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        (None, _) => PathBuf::from("."),
    }
}

/// `folder/name`, or the file of `folder` whose name is `name` in another case (TEXT names
/// are uppercase, as on a CD).
fn find_file(folder: &Path, name: &str) -> Option<PathBuf> {
    let exact = folder.join(name);
    if exact.is_file() {
        return Some(exact);
    }
    std::fs::read_dir(folder)
        .ok()?
        .filter_map(Result::ok)
        .find(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .eq_ignore_ascii_case(name)
        })
        .map(|entry| entry.path())
}
