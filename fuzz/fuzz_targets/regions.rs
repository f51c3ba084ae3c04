//! The REGN and LODS chunks on any bytes: a valid level (4 x 4 regions, `jom_write::scenes`)
//! whose REGN chunk's data (first byte even) or a LODS chunk's data (odd) is the input. The
//! reader must give the model or one error, never panic; a model it accepts is drawn (its
//! regions culled, each lower level chosen) from several cameras without a panic, and
//! draws the same picture as the model without its regions.
#![no_main]

use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    Camera, CommandBuffer, DrawSlot, FrameMemory, FrameTables, ListFrame, LoadedModel, Lod,
    ModelVram, ViewPoint,
};
use jom::vdp1::{CommandTable, GouraudTable, Point};
use jom::Model;
use jom_write::{AlignedBytes, JomFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, chunk)) = data.split_first() else {
        return;
    };
    let mut file = jom_write::scenes::level(4, 3, 4);
    let tag = match which % 2 {
        0 => *b"REGN",
        _ => *b"LODS",
    };
    file.extra_chunks.retain(|(t, _)| *t != tag);
    let mut padded = chunk.to_vec();
    padded.resize(chunk.len().next_multiple_of(4), 0);
    file.extra_chunks.push((tag, padded));
    let bytes = AlignedBytes::new(&file.to_bytes());
    let Ok(model) = Model::from_bytes(bytes.bytes()) else {
        return;
    };
    let plain = without_regions(&file);
    let plain_bytes = AlignedBytes::new(&plain.to_bytes());
    let Ok(plain) = Model::from_bytes(plain_bytes.bytes()) else {
        return;
    };
    for level in model.levels() {
        std::hint::black_box(level);
    }
    for (k, camera) in cameras().iter().enumerate() {
        let drawn = draw(&model, camera);
        // Regions cull only what the polygon culling would: the same list.
        if model.levels().count() == 0 {
            assert_eq!(drawn, draw(&plain, camera), "camera {k}");
        }
    }
});

fn without_regions(file: &JomFile) -> JomFile {
    let mut plain = file.clone();
    plain.extra_chunks.retain(|(t, _)| *t != *b"REGN");
    plain
}

fn cameras() -> Vec<Camera> {
    let at = |position, rotation: [i32; 3]| Camera {
        position,
        rotation: rotation.map(Angle::from_degrees),
        ..Camera::default()
    };
    vec![
        at([0, -2 * ONE, -40 * ONE], [0, 0, 0]),
        at([0, -3 * ONE, 0], [0, 30, 0]),
        at([20 * ONE, -10 * ONE, 20 * ONE], [-40, 200, 0]),
        at([0, -200 * ONE, 0], [90, 0, 0]),
    ]
}

/// The commands of a frame of `model` (its level chosen by a `Lod`), or its error.
fn draw(model: &Model<'_>, camera: &Camera) -> Result<Vec<CommandTable>, String> {
    let points_len = model.points().len();
    let polygons = model.polygons().len();
    let gouraud = vec![0u16; polygons.max(1)];
    let vram = ModelVram {
        textures: &[],
        gouraud: &gouraud,
    };
    let lower = model.level(1);
    let mut levels = vec![LoadedModel { model, vram }];
    let lower_gouraud = vec![0u16; lower.map_or(0, |l| l.polygons().len()).max(1)];
    if let Some(lower) = &lower {
        let vram = ModelVram {
            textures: &[],
            gouraud: &lower_gouraud,
        };
        levels.push(LoadedModel { model: lower, vram });
    }
    let most_points = points_len.max(lower.map_or(0, |l| l.points().len()));
    let most_polygons = polygons.max(lower.map_or(0, |l| l.polygons().len()));
    let mut points = vec![ViewPoint::default(); most_points];
    let mut screens = vec![Point::default(); most_points];
    let mut keys = vec![0; 2 * most_polygons];
    let (mut slots, mut tables) = ([DrawSlot::EMPTY], FrameTables::<1>::EMPTY);
    let mut memory = FrameMemory::new(
        &mut points,
        &mut screens,
        &mut keys,
        &mut slots,
        &mut tables,
    );
    let mut commands = vec![CommandTable::EMPTY; most_polygons + 8];
    let mut frame_gouraud = vec![GouraudTable::default(); 4];
    let mut list = CommandBuffer::new(&mut commands, 0, &mut frame_gouraud, 0, 0x1000);
    list.start(camera.width, camera.height)
        .map_err(|e| e.to_string())?;
    let mut frame = ListFrame::begin(memory.reborrow(), camera, None).map_err(|e| e.to_string())?;
    let mut lod = Lod::FINEST;
    frame
        .draw_lod(&levels, &mut lod, &Matrix::IDENTITY)
        .map_err(|e| e.to_string())?;
    frame.finish(&mut list).map_err(|e| e.to_string())?;
    Ok(commands)
}
