//! Tests of loading models and textures from a disc, on the host and on the SH-2: a small
//! ISO 9660 volume made sector by sector as it is read (so it needs no allocator) holding
//! the checked-in fixtures, which counts the sectors read of each file.

use super::*;
use crate::math::{Matrix, ONE};
use crate::render::tests::{draw_one, Place};
use crate::render::{Camera, CommandList, LoadedModel, ModelVram, ViewPoint};
use crate::selftest::Failure;
use crate::vdp1::{CommandTable, MemoryVram, VramLayout};
use crate::{check, check_eq, check_message};
use core::cell::Cell;

const SECTOR: usize = 2048;

/// The files of a test disc: name and bytes.
type Files<'a> = [(&'a str, &'a [u8])];
const PVD: u32 = 16;
const TERMINATOR: u32 = 17;
const ROOT: u32 = 18;
const FIRST_FILE: u32 = 19;

fn every_chunk() -> &'static [u8] {
    crate::selftest::fixtures::EVERY_CHUNK
}

fn texture_files() -> &'static [u8] {
    crate::selftest::fixtures::TEXTURE_FILES
}

fn checker() -> &'static [u8] {
    crate::selftest::fixtures::CHECKER
}

fn gradient() -> &'static [u8] {
    crate::selftest::fixtures::GRADIENT
}

/// A volume of the root directory only, holding `files` (name, bytes) one after the other
/// from sector 19, each from the start of a sector.
struct Disc<'a> {
    files: &'a [(&'a str, &'a [u8])],
    /// Sectors read of each file.
    reads: [Cell<u32>; 4],
}

impl<'a> Disc<'a> {
    fn new(files: &'a [(&'a str, &'a [u8])]) -> Self {
        Self {
            files,
            reads: Default::default(),
        }
    }

    /// The first sector of each file, and the sector after the last.
    fn lba(&self, file: usize) -> u32 {
        let sectors = |(_, bytes): &(&str, &[u8])| bytes.len().div_ceil(SECTOR).max(1) as u32;
        FIRST_FILE + self.files[..file].iter().map(sectors).sum::<u32>()
    }

    fn sector(&self, lba: u32, out: &mut [u8]) {
        out.fill(0);
        let both32 = |out: &mut [u8], at: usize, v: u32| {
            out[at..at + 4].copy_from_slice(&v.to_le_bytes());
            out[at + 4..at + 8].copy_from_slice(&v.to_be_bytes());
        };
        let record = |out: &mut [u8], at: usize, name: &[u8], lba: u32, size: u32, flags: u8| {
            let len = (33 + name.len()).next_multiple_of(2);
            out[at] = len as u8;
            both32(out, at + 2, lba);
            both32(out, at + 10, size);
            out[at + 25] = flags;
            out[at + 32] = name.len() as u8;
            out[at + 33..at + 33 + name.len()].copy_from_slice(name);
            at + len
        };
        match lba {
            PVD | TERMINATOR => {
                out[0] = if lba == PVD { 1 } else { 255 };
                out[1..6].copy_from_slice(b"CD001");
                out[6] = 1;
                both32(out, 80, self.lba(self.files.len()));
                out[128..130].copy_from_slice(&(SECTOR as u16).to_le_bytes());
                record(out, 156, &[0], ROOT, SECTOR as u32, 2);
            }
            ROOT => {
                let mut at = record(out, 0, &[0], ROOT, SECTOR as u32, 2);
                at = record(out, at, &[1], ROOT, SECTOR as u32, 2);
                for (i, (name, bytes)) in self.files.iter().enumerate() {
                    let mut full = [0u8; 16];
                    full[..name.len()].copy_from_slice(name.as_bytes());
                    full[name.len()..name.len() + 2].copy_from_slice(b";1");
                    let name = &full[..name.len() + 2];
                    at = record(out, at, name, self.lba(i), bytes.len() as u32, 0);
                }
            }
            _ => {
                let Some(i) =
                    (0..self.files.len()).find(|&i| (self.lba(i)..self.lba(i + 1)).contains(&lba))
                else {
                    return;
                };
                self.reads[i].set(self.reads[i].get() + 1);
                let start = (lba - self.lba(i)) as usize * SECTOR;
                let bytes = self.files[i].1;
                let part = &bytes[start.min(bytes.len())..(start + SECTOR).min(bytes.len())];
                out[..part.len()].copy_from_slice(part);
            }
        }
    }

    fn reads(&self) -> [u32; 4] {
        core::array::from_fn(|i| self.reads[i].get())
    }
}

impl SectorSource for &Disc<'_> {
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
        for (k, sector) in buffer.chunks_exact_mut(SECTOR).enumerate() {
            self.sector(lba + k as u32, sector);
        }
        Ok(())
    }
}

/// `disc` with one sector that cannot be read, `bad` (while it is set).
struct BadSector<'d, 'a> {
    disc: &'d Disc<'a>,
    bad: Option<u32>,
}

impl SectorSource for BadSector<'_, '_> {
    fn read_sectors(&mut self, lba: u32, buffer: &mut [u8]) -> Result<(), CdError> {
        let sectors = lba..lba + (buffer.len() / SECTOR) as u32;
        match self.bad {
            Some(bad) if sectors.contains(&bad) => Err(CdError::Unreadable { lba: bad }),
            _ => {
                let mut disc = self.disc;
                disc.read_sectors(lba, buffer)
            }
        }
    }
}

fn failed(line: u32, error: impl fmt::Debug) -> Failure {
    Failure::new(file!(), line, format_args!("{error:?}"))
}

#[allow(clippy::result_large_err)]
fn volume<'d, 'a>(disc: &'d Disc<'a>) -> Result<Iso9660<&'d Disc<'a>>, Failure> {
    Iso9660::open(disc).map_err(|e| failed(line!(), e))
}

/// The big-endian RGB 555 pixel at `at` of `bytes`.
fn pixel(bytes: &[u8], at: u32) -> u16 {
    u16::from_be_bytes([bytes[at as usize], bytes[at as usize + 1]])
}

#[allow(clippy::result_large_err)]
/// Draws `model` head on, 4 units away: its command tables.
fn drawn<'l, const M: usize>(
    model: &Model<'_>,
    textures: &ModelTextures<M>,
    list: &'l mut CommandList<8, 4>,
) -> Result<&'l [CommandTable], Failure> {
    let mut points = [ViewPoint::default(); 8];
    let camera = Camera {
        position: [0, 0, -4 * ONE],
        ..Camera::default()
    };
    let gouraud = [0u16; 4];
    let vram = ModelVram {
        textures: textures.slots(),
        gouraud: &gouraud[..model.polygons().len()],
    };
    let loaded = LoadedModel { model, vram };
    let place = Place::Rigid(&Matrix::IDENTITY);
    draw_one(list, loaded, place, (&camera, None), &mut points, None)
        .map_err(|e| failed(line!(), e))?;
    Ok(list.commands())
}

/// Where a test's loads go: 4 KiB of VRAM laid out as [`layout`] says, a cache of four
/// textures and 1 KiB of scratch (as much of it as a test gives).
struct Target {
    vram: [u8; 4096],
    cache: TextureCache<4>,
    scratch: [u8; 1024],
}

impl Target {
    fn new() -> Self {
        Self {
            vram: [0; 4096],
            cache: TextureCache::new(layout().textures),
            scratch: [0; 1024],
        }
    }

    /// `load_model` of `path` in `volume` into `buffer`, with `scratch` bytes of scratch.
    fn load<'b, S: SectorSource>(
        &mut self,
        volume: &mut Iso9660<S>,
        path: &str,
        buffer: &'b mut Aligned<[u8]>,
        scratch: usize,
    ) -> Result<(Model<'b>, ModelTextures<4>), DiscError> {
        let mut vram = MemoryVram::new(&mut self.vram);
        load_model(
            volume,
            path,
            buffer,
            &mut self.cache,
            &mut vram,
            &mut self.scratch[..scratch],
        )
    }
}

fn layout() -> VramLayout {
    VramLayout {
        commands: 0..1024,
        frame_gouraud: 1024..1056,
        gouraud: 1056..1088,
        textures: 1088..4096,
    }
}

crate::test_suite! {
    fn texture_files_of_text_are_read_decoded_and_uploaded_once() {
        let files = [("FILES.JOM", texture_files()), ("CHECKER.BIN", checker()), ("GRADIENT.TGA", gradient())];
        let disc = Disc::new(&files);
        let mut volume = volume(&disc)?;
        let mut target = Target::new();
        let mut buffer = Aligned([0u8; 512]);
        let loaded = target.load(&mut volume, "FILES.JOM", &mut buffer, 600);
        let (model, textures) = loaded.map_err(|e| failed(line!(), e))?;
        check_eq!(model.bytes(), texture_files());
        check_eq!(target.cache.len(), 2);
        let (Some(checker), Some(gradient)) = (textures.get(0, false), textures.get(1, true)) else {
            return Err(failed(line!(), "a texture is missing"));
        };
        check_eq!((checker.full.width, checker.full.height, gradient.full.width), (16, 8, 8));
        let vram_bytes = &target.vram;
        for k in 0..16 * 8 {
            let at = checker.full.address + 2 * k as u32;
            check_eq!(pixel(vram_bytes, at), crate::image::tests::fixture_checker(k % 16, k / 16));
        }
        for k in 0..8 * 8 {
            let at = gradient.full.address + 2 * k as u32;
            // The material asks for end codes: the transparent last pixel becomes one.
            let wanted = match k {
                63 => 0x7FFF,
                _ => crate::image::tests::fixture_gradient(k % 8, k / 8),
            };
            check_eq!(pixel(vram_bytes, at), wanted);
        }
        let read = disc.reads();
        check_eq!((read[1], read[2]), (1, 1));
        // A second model with the same names: nothing read, nothing uploaded again.
        let mut again = Aligned([0u8; 512]);
        let second = target.load(&mut volume, "FILES.JOM", &mut again, 600);
        let (_, second) = second.map_err(|e| failed(line!(), e))?;
        check_eq!(target.cache.len(), 2);
        check_eq!(second.get(0, false), textures.get(0, false));
        check_eq!((disc.reads()[1], disc.reads()[2]), (1, 1));
    }

    fn errors_name_the_texture_and_keep_the_cause() {
        let names = Model::from_bytes(texture_files()).map_err(|e| failed(line!(), e))?.texture_names();
        let missing = DiscError::TextureFile { index: 0, name: names[0], error: Iso9660Error::NotFound };
        check_message!(missing, "texture 0 (CHECKER.BIN): no such file or directory");
        check_eq!(DiscError::from(CdError::Unreadable { lba: 3 }), DiscError::Volume(Iso9660Error::Read(CdError::Unreadable { lba: 3 })));
        check_message!(DiscError::from(CdError::Unreadable { lba: 3 }), "sector 3 could not be read");
        check_message!(DiscError::UnknownImageFormat { index: 1, name: names[1] }, "texture 1 (GRADIENT.TGA): expected a .BIN or .TGA file name");
    }

    fn texture_files_that_are_missing_bad_or_too_large_are_errors() {
        let mut short_bin = [0u8; 3];
        short_bin.copy_from_slice(&checker()[..3]);
        let bad = [("FILES.JOM", texture_files()), ("CHECKER.BIN", &short_bin[..]), ("GRADIENT.TGA", gradient())];
        let missing = [("FILES.JOM", texture_files()), ("GRADIENT.TGA", gradient())];
        let good = [("FILES.JOM", texture_files()), ("CHECKER.BIN", checker()), ("GRADIENT.TGA", gradient())];
        let names = Model::from_bytes(texture_files()).map_err(|e| failed(line!(), e))?.texture_names();
        let cases: [(&Files, usize, DiscError); 4] = [
            (&missing, 600, DiscError::TextureFile { index: 0, name: names[0], error: Iso9660Error::NotFound }),
            (&bad, 600, DiscError::Image {
                index: 0,
                name: names[0],
                error: ImageError {
                    format: ImageFormat::JoBin,
                    offset: 0,
                    problem: image::ImageProblem::Truncated { what: "the width and the height", needed: 4 },
                },
            }),
            // The .BIN (260 bytes) is decoded in place; the TGA (276 bytes) needs 128 more.
            (&good, 300, DiscError::Image {
                index: 1,
                name: names[1],
                error: ImageError {
                    format: ImageFormat::Tga,
                    offset: 0,
                    problem: image::ImageProblem::BufferTooSmall { needed: 404, available: 300 },
                },
            }),
            (&good, 200, DiscError::TextureFile { index: 0, name: names[0], error: Iso9660Error::BufferTooSmall { needed: 260, available: 200 } }),
        ];
        for (files, scratch_len, wanted) in cases {
            let disc = Disc::new(files);
            let mut volume = volume(&disc)?;
            let loaded = Target::new().load(&mut volume, "FILES.JOM", &mut Aligned([0u8; 512]), scratch_len).err();
            check_eq!(loaded, Some(wanted));
        }
    }

    fn a_load_that_fails_part_way_gives_back_what_it_loaded() {
        let files = [("FILES.JOM", texture_files()), ("CHECKER.BIN", checker()), ("GRADIENT.TGA", gradient())];
        let disc = Disc::new(&files);
        // The load reads the model, then each texture file: the second's sector is bad.
        let bad = disc.lba(2);
        let mut damaged = Iso9660::open(BadSector { disc: &disc, bad: Some(bad) }).map_err(|e| failed(line!(), e))?;
        let model = Model::from_bytes(texture_files()).map_err(|e| failed(line!(), e))?;
        let unreadable = Iso9660Error::Read(CdError::Unreadable { lba: bad });
        let wanted = DiscError::TextureFile { index: 1, name: model.texture_names()[1], error: unreadable };
        let mut target = Target::new();
        let mut buffer = Aligned([0u8; 512]);
        let loaded = target.load(&mut damaged, "FILES.JOM", &mut buffer, 600);
        check_eq!(loaded.err(), Some(wanted));
        // The first texture was read and uploaded, then given back: no table holds it.
        check_eq!(disc.reads()[1], 1);
        check!(target.cache.is_empty());
        let Target { vram, cache, scratch } = &mut target;
        let loaded = load_texture_files::<_, 4, 4>(&mut damaged, "", &model, cache, &mut MemoryVram::new(vram), &mut scratch[..600]);
        check_eq!(loaded.err(), Some(wanted));
        check!(target.cache.is_empty());
        // The sector readable again: the load is a first load's, and gives all back.
        damaged.source_mut().bad = None;
        let loaded = target.load(&mut damaged, "FILES.JOM", &mut buffer, 600);
        let (_, textures) = loaded.map_err(|e| failed(line!(), e))?;
        let mut first_load = Target::new();
        let first = first_load.load(&mut volume(&disc)?, "FILES.JOM", &mut buffer, 600);
        let (_, first) = first.map_err(|e| failed(line!(), e))?;
        for index in 0..2 {
            for end_codes in [false, true] {
                check_eq!(textures.get(index, end_codes), first.get(index, end_codes));
            }
        }
        check!(target.vram == first_load.vram);
        target.cache.release_model(&textures);
        check!(target.cache.is_empty());
    }

    fn embedded_textures_go_to_vram_and_only_the_rest_stays_in_ram() {
        let files = [("EVERY.JOM", every_chunk())];
        let disc = Disc::new(&files);
        let mut volume = volume(&disc)?;
        let mut target = Target::new();
        let mut buffer = Aligned([0u8; 2048]);
        let loaded = target.load(&mut volume, "EVERY.JOM", &mut buffer, 64);
        let (model, textures) = loaded.map_err(|e| failed(line!(), e))?;
        // The reference: the whole file in RAM, its textures uploaded by `load_model`.
        let whole = Model::from_bytes(every_chunk()).map_err(|e| failed(line!(), e))?;
        let timg = whole.chunks().next().map(|c| (c.tag, c.data.len()));
        let Some((crate::format::Tag::TIMG, timg_size)) = timg else {
            return Err(failed(line!(), "the fixture starts with TIMG"));
        };
        check_eq!(model.bytes().len(), every_chunk().len() - 8 - timg_size);
        check!(model.textures().is_none());
        check_eq!(model.texture_names(), whole.texture_names());
        check_eq!(model.materials(), whole.materials());
        let mut reference_load = Target::new();
        let mut reference_vram = MemoryVram::new(&mut reference_load.vram);
        let reference = reference_load.cache.load_model_value::<4>(&whole, &mut reference_vram, |_, _| None);
        let reference = reference.map_err(|e| failed(line!(), e))?;
        check!(target.vram == reference_load.vram);
        for index in 0..2 {
            for end_codes in [false, true] {
                check_eq!(textures.get(index, end_codes), reference.get(index, end_codes));
            }
        }
        // Both draw the same commands.
        let (mut list, mut reference_list) = (CommandList::new(320, 224, &layout()), CommandList::new(320, 224, &layout()));
        let streamed = drawn(&model, &textures, &mut list)?;
        let in_ram = drawn(&whole, &reference, &mut reference_list)?;
        check!(streamed.len() > 3);
        check!(streamed == in_ram);
        // Loaded again: the textures are in the cache, their pixels not read (no scratch
        // buffer to read them into).
        let mut again = Aligned([0u8; 2048]);
        let second = target.load(&mut volume, "EVERY.JOM", &mut again, 0);
        check!(second.is_ok());
        check_eq!(target.cache.len(), 2);
    }

    fn load_model_into_fills_the_table_it_is_given_as_load_model_returns_one() {
        for (path, file) in [("EVERY.JOM", every_chunk()), ("FILES.JOM", texture_files())] {
            let files = [(path, file), ("CHECKER.BIN", checker()), ("GRADIENT.TGA", gradient())];
            let disc = Disc::new(&files);
            let mut volume = volume(&disc)?;
            let (mut target, mut reference_load) = (Target::new(), Target::new());
            let (mut buffer, mut reference_buffer) = (Aligned([0u8; 2048]), Aligned([0u8; 2048]));
            let reference = reference_load.load(&mut volume, path, &mut reference_buffer, 1024);
            let (_, reference) = reference.map_err(|e| failed(line!(), e))?;
            // A table left from another model is emptied first.
            let mut textures = reference.clone();
            let Target { vram, cache, scratch } = &mut target;
            let model = load_model_into(&mut volume, path, &mut buffer, cache, &mut MemoryVram::new(vram), scratch, &mut textures);
            let model = model.map_err(|e| failed(line!(), e))?;
            check_eq!(textures.len(), model.texture_names().len());
            check!(target.vram == reference_load.vram);
            for index in 0..textures.len() {
                for end_codes in [false, true] {
                    check_eq!(textures.get(index, end_codes), reference.get(index, end_codes));
                }
            }
        }
    }

    fn a_bad_timg_entry_or_a_small_buffer_is_an_error() {
        let mut renamed = [0u8; 1164];
        renamed.copy_from_slice(every_chunk());
        renamed[36] = b'X'; // the first entry's name
        let mut counted = [0u8; 1164];
        counted.copy_from_slice(every_chunk());
        counted[35] = 3; // the TIMG count
        let cases: [(&[u8], usize, DiscError); 3] = [
            (&renamed, 64, DiscError::Model(LoadError::TextureNameMismatch { offset: 36, texture: 0 })),
            (&counted, 64, DiscError::Model(LoadError::CountDisagrees {
                chunk: crate::format::Tag::TIMG,
                offset: 32,
                count: 3,
                expected: 2,
                rule: "one per name of TEXT",
            })),
            (every_chunk(), 16, DiscError::Volume(Iso9660Error::BufferTooSmall { needed: 32, available: 16 })),
        ];
        for (file, scratch_len, wanted) in cases {
            let files = [("EVERY.JOM", file)];
            let disc = Disc::new(&files);
            let mut volume = volume(&disc)?;
            let loaded = Target::new().load(&mut volume, "EVERY.JOM", &mut Aligned([0u8; 2048]), scratch_len).err();
            check_eq!(loaded, Some(wanted));
        }
        // The model buffer holds the rest of the file only, but all of that.
        let files = [("EVERY.JOM", every_chunk())];
        let disc = Disc::new(&files);
        let mut volume = volume(&disc)?;
        let loaded = Target::new().load(&mut volume, "EVERY.JOM", &mut Aligned([0u8; 512]), 64).err();
        check!(matches!(loaded, Some(DiscError::Volume(Iso9660Error::BufferTooSmall { available: 512, .. }))));
    }

    fn the_renderer_loads_from_disc_what_it_loads_from_ram() {
        use crate::render::{Renderer, TakeOnce};
        static VRAM: TakeOnce<[[u8; 8192]; 2]> = TakeOnce::new([[0; 8192]; 2]);
        let from_disc = crate::renderer_memory!(points: 16, polygons: 8, commands: 16,
            frame_gouraud: 4, model_gouraud: 4, textures: 4, model_textures: 4,
            model_polygons: 8, model_planes: 8, draws: 1);
        let from_ram = crate::renderer_memory!(points: 16, polygons: 8, commands: 16,
            frame_gouraud: 4, model_gouraud: 4, textures: 4, model_textures: 4,
            model_polygons: 8, model_planes: 8, draws: 1);
        let (Some(from_disc), Some(from_ram), Some([disc_vram, ram_vram])) = (from_disc, from_ram, VRAM.take()) else {
            return Err(failed(line!(), "memory taken twice"));
        };
        let disc_renderer = Renderer::new(MemoryVram::new(disc_vram), from_disc, None).map_err(|e| failed(line!(), e))?;
        let ram_renderer = Renderer::new(MemoryVram::new(ram_vram), from_ram, None).map_err(|e| failed(line!(), e))?;
        let files = [("EVERY.JOM", every_chunk())];
        let disc = Disc::new(&files);
        let mut volume = volume(&disc)?;
        let (mut buffer, mut scratch) = (Aligned([0u8; 2048]), [0u8; 64]);
        // Without room for the pixels: an error, and nothing left in VRAM.
        let refused = disc_renderer.load_from_disc(&mut volume, "EVERY.JOM", &mut buffer, &mut scratch[..0]);
        check!(matches!(refused.err(), Some(DiscError::Volume(Iso9660Error::BufferTooSmall { available: 0, .. }))));
        check_eq!(disc_renderer.vram_use(), crate::render::VramUse::default());
        let streamed = disc_renderer.load_from_disc(&mut volume, "EVERY.JOM", &mut buffer, &mut scratch).map_err(|e| failed(line!(), e))?;
        let whole = Model::from_bytes(every_chunk()).map_err(|e| failed(line!(), e))?;
        let in_ram = ram_renderer.load(&whole).map_err(|e| failed(line!(), e))?;
        check!(disc_renderer.vram_use().textures > 0);
        check_eq!(disc_renderer.vram_use(), ram_renderer.vram_use());
        let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
        for (renderer, handle) in [(&disc_renderer, &streamed), (&ram_renderer, &in_ram)] {
            let mut frame = renderer.begin(&camera, None).map_err(|e| failed(line!(), e))?;
            frame.draw(handle, &Matrix::IDENTITY).map_err(|e| failed(line!(), e))?;
            let stats = frame.finish().map_err(|e| failed(line!(), e))?;
            check!(stats.drawn > 0);
        }
        drop((streamed, in_ram));
        // The same textures at the same addresses, the same lists.
        check!(disc_renderer.into_vdp1().bytes() == ram_renderer.into_vdp1().bytes());
    }
}
