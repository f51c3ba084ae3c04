//! `jom::disc::load_model` on any file: the model file is the fuzzer's bytes, alone on a
//! small ISO 9660 volume with two texture files its TEXT may name (CHECKER.BIN,
//! GRADIENT.TGA); the streamed TIMG entries, the model left in RAM and the texture files
//! must give a model or an error, never a panic or a read out of bounds.
#![no_main]

use jom::iso9660::{CdError, Iso9660, SectorSource};
use jom::vdp1::{MemoryVram, ModelTextures, TextureCache};
use jom::Aligned;
use libfuzzer_sys::fuzz_target;

const SECTOR: usize = 2048;

/// A volume image: descriptors at 16 and 17, the root directory at 18, the files after.
fn image(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut lbas = Vec::new();
    let mut next = 19;
    for (_, bytes) in files {
        lbas.push(next);
        next += bytes.len().div_ceil(SECTOR).max(1) as u32;
    }
    let mut image = vec![0u8; next as usize * SECTOR];
    let both32 = |out: &mut [u8], v: u32| {
        out[..4].copy_from_slice(&v.to_le_bytes());
        out[4..8].copy_from_slice(&v.to_be_bytes());
    };
    let record = |out: &mut [u8], name: &[u8], lba: u32, size: u32, flags: u8| {
        let len = (33 + name.len()).next_multiple_of(2);
        out[0] = len as u8;
        both32(&mut out[2..], lba);
        both32(&mut out[10..], size);
        out[25] = flags;
        out[32] = name.len() as u8;
        out[33..33 + name.len()].copy_from_slice(name);
        len
    };
    for (lba, kind) in [(16, 1u8), (17, 255)] {
        let d = &mut image[lba * SECTOR..(lba + 1) * SECTOR];
        d[0] = kind;
        d[1..6].copy_from_slice(b"CD001");
        d[6] = 1;
        both32(&mut d[80..], next);
        d[128..130].copy_from_slice(&2048u16.to_le_bytes());
        record(&mut d[156..], &[0], 18, SECTOR as u32, 2);
    }
    let root = &mut image[18 * SECTOR..19 * SECTOR];
    let mut at = record(root, &[0], 18, SECTOR as u32, 2);
    at += record(&mut root[at..], &[1], 18, SECTOR as u32, 2);
    for ((name, bytes), lba) in files.iter().zip(&lbas) {
        let name = format!("{name};1");
        at += record(
            &mut root[at..],
            name.as_bytes(),
            *lba,
            bytes.len() as u32,
            0,
        );
    }
    for ((_, bytes), lba) in files.iter().zip(&lbas) {
        let start = *lba as usize * SECTOR;
        image[start..start + bytes.len()].copy_from_slice(bytes);
    }
    image
}

struct Image(Vec<u8>);

impl SectorSource for &Image {
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
        let start = lba as usize * SECTOR;
        let bytes = self
            .0
            .get(start..start + buffer.len())
            .ok_or(CdError::Unreadable { lba })?;
        buffer.copy_from_slice(bytes);
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let checker = include_bytes!("../../tests/fixtures/CHECKER.BIN");
    let gradient = include_bytes!("../../tests/fixtures/GRADIENT.TGA");
    let disc = Image(image(&[
        ("CHECKER.BIN", checker),
        ("GRADIENT.TGA", gradient),
        ("MODEL.JOM", data),
    ]));
    let Ok(mut volume) = Iso9660::open(&disc) else {
        return;
    };
    let mut vram_bytes = vec![0u8; 64 * 1024];
    let mut vram = MemoryVram::new(&mut vram_bytes);
    let mut cache = TextureCache::<8>::new(0..64 * 1024);
    let mut buffer = Box::new(Aligned([0u8; 8192]));
    let mut scratch = vec![0u8; 4096];
    let _ = jom::disc::load_model::<_, 8, 8>(
        &mut volume,
        "MODEL.JOM",
        &mut *buffer,
        &mut cache,
        &mut vram,
        &mut scratch,
    )
    .map(|(_, textures): (_, ModelTextures<8>)| textures.len());
});
