//! The work RAM a model keeps when `jom::disc::load_model` streams its embedded textures to
//! VRAM, against the whole file (what `disc::read_model` keeps): each JOM file given is
//! put alone on a CD image (`genisoimage`), loaded from it through the same code as on the
//! Saturn (a file instead of the CD block, memory instead of VDP1 VRAM), and measured.
//! `--with-100k-textures` adds a model of one quad with two 200 x 128 RGB 555 textures
//! (100 KiB of TIMG pixels).
//!
//! ```sh
//! cargo run --release --example streamed_ram -- build/DEMO.JOM --with-100k-textures
//! ```

use jom::iso9660::{CdError, Iso9660, SectorSource, SECTOR_SIZE};
use jom::vdp1::{MemoryVram, ModelTextures, TextureCache, VramLayout, VRAM_SIZE};
use jom::{Aligned, Model};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::process::Command;

/// The largest model file measured.
const MAX_MODEL: usize = 256 * 1024;

/// A CD image file, sector by sector.
struct ImageFile(std::fs::File);

impl SectorSource for ImageFile {
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
        let at = u64::from(lba) * SECTOR_SIZE as u64;
        self.0
            .seek(SeekFrom::Start(at))
            .and_then(|_| self.0.read_exact(buffer))
            .map_err(|_| CdError::Unreadable { lba })
    }
}

/// One quad and two 200 x 128 RGB 555 textures, embedded (TIMG).
fn model_with_100k_textures() -> Vec<u8> {
    use jom_write::{JomFile, Material, Pixels, Polygon, Texture};
    let texture = |name: &str, seed: u16| Texture {
        name: name.into(),
        width: 200,
        height: 128,
        pixels: Pixels::Rgb555((0..200 * 128).map(|i| 0x8000 | (i as u16 ^ seed)).collect()),
    };
    let one = 0x10000;
    JomFile {
        version: 1,
        radius: 2 * one,
        textures: Some(vec![texture("BIG_A.BIN", 0), texture("BIG_B.BIN", 0x1234)]),
        points: vec![
            [-one, -one, 0],
            [one, -one, 0],
            [one, one, 0],
            [-one, one, 0],
        ],
        polygons: vec![Polygon {
            normal: [0, 0, -one],
            corners: [0, 1, 2, 3],
        }],
        polygon_materials: vec![0],
        materials: vec![Material {
            name: "big".into(),
            color: [255, 255, 255],
            texture: 0,
            ..Default::default()
        }],
        texture_names: vec!["BIG_A.BIN".into(), "BIG_B.BIN".into()],
        ..Default::default()
    }
    .to_bytes()
}

/// Loads `bytes` as `MODEL.JOM` of a CD image made in `dir` and prints what stays in RAM.
fn measure(label: &str, bytes: &[u8], dir: &Path) -> Result<(), String> {
    let files = dir.join("files");
    std::fs::create_dir_all(&files).map_err(|e| e.to_string())?;
    std::fs::write(files.join("MODEL.JOM"), bytes).map_err(|e| e.to_string())?;
    let iso = dir.join("model.iso");
    let status = Command::new("genisoimage")
        .args(["-quiet", "-iso-level", "1", "-o"])
        .arg(&iso)
        .arg(&files)
        .status()
        .map_err(|e| format!("genisoimage: {e}"))?;
    if !status.success() {
        return Err("genisoimage failed".into());
    }
    let disc = ImageFile(std::fs::File::open(&iso).map_err(|e| e.to_string())?);
    let mut volume = Iso9660::open(disc).map_err(|e| format!("{e:?}"))?;
    let whole = jom_write::AlignedBytes::new(bytes);
    let whole = Model::from_bytes(whole.bytes()).map_err(|e| e.to_string())?;
    let largest = whole
        .textures()
        .map_or(0, |t| t.iter().map(|t| t.data.len()).max().unwrap_or(0));
    let timg = whole
        .chunks()
        .find(|c| c.tag == jom::format::Tag::TIMG)
        .map_or(0, |c| 8 + c.data.len());
    let mut buffer = Box::new(Aligned([0u8; MAX_MODEL]));
    let mut vram_bytes = vec![0u8; VRAM_SIZE as usize];
    let mut vram = MemoryVram::new(&mut vram_bytes);
    let mut cache = TextureCache::<64>::new(VramLayout::default().textures);
    let mut scratch = vec![0u8; largest];
    let loaded = jom::disc::load_model::<_, 64, 64>(
        &mut volume,
        "MODEL.JOM",
        &mut *buffer,
        &mut cache,
        &mut vram,
        &mut scratch,
    );
    let (model, textures): (Model<'_>, ModelTextures<64>) = loaded.map_err(|e| e.to_string())?;
    println!(
        "{label}: file {} bytes (kept whole by disc::read_model); streamed: {} bytes kept \
         in RAM, TIMG {} bytes sent to VRAM ({} textures), scratch {} bytes (the largest \
         texture, given back after loading)",
        bytes.len(),
        model.bytes().len(),
        timg,
        textures.len(),
        largest
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("jom-streamed-ram-{}", std::process::id()));
    let mut result = Ok(());
    for arg in std::env::args().skip(1) {
        let measured = if arg == "--with-100k-textures" {
            measure(
                "one quad, 2 x 200x128 RGB 555 textures",
                &model_with_100k_textures(),
                &dir,
            )
        } else {
            std::fs::read(&arg)
                .map_err(|e| format!("{arg}: {e}"))
                .and_then(|bytes| measure(&arg, &bytes, &dir))
        };
        if let Err(e) = measured {
            eprintln!("streamed_ram: {e}");
            result = Err("failed".into());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    result
}
