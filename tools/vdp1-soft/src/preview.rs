//! A model drawn through the engine's own code (texture upload, a frame of the pipeline
//! written into a command list of its own, `render::ListFrame`, the list in VRAM) and this
//! software VDP1: what `jomc render` shows.

use crate::{draw_list, FrameBuffer};
use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    Camera, CommandBuffer, DrawSlot, FrameMemory, FrameStats, FrameTables, Light, ListFrame,
    LoadedModel, ModelVram, Posed, ViewPoint,
};
use jom::vdp1::{
    CommandTable, GouraudCache, GouraudTable, MemoryVram, ModelTextures, Point, TextureCache,
    TextureSource, VramLayout, VRAM_SIZE,
};
use jom::Model;

/// How to look at a model.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    /// Screen width in pixels.
    pub width: u16,
    /// Screen height in pixels.
    pub height: u16,
    /// Rotation of the model around its bounding-sphere centre, in degrees (X, Y, Z).
    pub rotate: [f64; 3],
    /// Distance from the camera to the bounding-sphere centre, in model units; `None`
    /// frames the whole sphere.
    pub distance: Option<f64>,
    /// Direction the light travels (any length); `None`: no light.
    pub light: Option<[f64; 3]>,
    /// The pose to draw: an animation (by name) at a time in ticks; `None`: the rest pose
    /// (the model as stored, without its skeleton).
    pub animation: Option<(String, u32)>,
}

impl Default for View {
    fn default() -> Self {
        Self {
            width: 320,
            height: 224,
            rotate: [0.0; 3],
            distance: None,
            light: None,
            animation: None,
        }
    }
}

/// Command tables a preview frame may use, and textures: as many as a baked model of the
/// importers has (each polygon may have its own), the VRAM region being the real limit.
const COMMANDS: usize = 4096;
const FRAME_GOURAUD: usize = 2048;
const TEXTURES: usize = 2048;
const GOURAUD_TABLES: usize = 2048;

/// Draws `model` as `view` says and gives the frame and what the frame reported.
pub fn render(model: &Model<'_>, view: &View) -> Result<(FrameBuffer, FrameStats), String> {
    render_with(model, view, &[])
}

/// [`render`] for a model whose textures are files (no TIMG): `texture_files` has the
/// pixels of each TEXT name, in TEXT order (decoded by `jom::image`, as a Saturn program
/// does after reading them from CD).
pub fn render_with(
    model: &Model<'_>,
    view: &View,
    texture_files: &[TextureSource<'_>],
) -> Result<(FrameBuffer, FrameStats), String> {
    let camera = frame_camera(model, view);
    let transform = model_transform(model, view.rotate);
    let light = view.light.map(light_from);
    let pose = match &view.animation {
        None => None,
        Some((name, time)) => {
            let animation = model
                .animations()
                .find(name)
                .ok_or_else(|| unknown_animation(model, name))?;
            Some((animation.index, *time))
        }
    };
    render_scene_with(
        model,
        &camera,
        &transform,
        light.as_ref(),
        pose,
        texture_files,
    )
}

/// Draws `model` placed by `transform` as `camera` sees it, posed by animation `pose.0` at
/// `pose.1` ticks (or as stored), through the same steps as a Saturn program: textures
/// and gouraud tables into VRAM, a frame of one draw (`ListFrame`), the list into VRAM,
/// then the software VDP1.
pub fn render_scene(
    model: &Model<'_>,
    camera: &Camera,
    transform: &Matrix,
    light: Option<&Light>,
    pose: Option<(usize, u32)>,
) -> Result<(FrameBuffer, FrameStats), String> {
    render_scene_with(model, camera, transform, light, pose, &[])
}

/// [`render_scene`] with the pixels of the texture files of a model without TIMG (see
/// [`render_with`]).
pub fn render_scene_with(
    model: &Model<'_>,
    camera: &Camera,
    transform: &Matrix,
    light: Option<&Light>,
    pose: Option<(usize, u32)>,
    texture_files: &[TextureSource<'_>],
) -> Result<(FrameBuffer, FrameStats), String> {
    // The engine's tables live where a Saturn program keeps them, in place (hundreds of
    // KiB at these capacities): on a thread of its own, with room for them.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(PREVIEW_STACK_BYTES)
            .spawn_scoped(scope, || {
                render_in_place(model, camera, transform, light, pose, texture_files)
            })
            .map_err(|e| format!("cannot start the preview's thread: {e}"))?
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The stack of the thread that draws a preview.
const PREVIEW_STACK_BYTES: usize = 64 << 20;

/// [`render_scene_with`] on the current thread's stack.
fn render_in_place(
    model: &Model<'_>,
    camera: &Camera,
    transform: &Matrix,
    light: Option<&Light>,
    pose: Option<(usize, u32)>,
    texture_files: &[TextureSource<'_>],
) -> Result<(FrameBuffer, FrameStats), String> {
    let layout = VramLayout::default();
    let mut vram_bytes = vec![0u8; VRAM_SIZE as usize];
    let mut vram = MemoryVram::new(&mut vram_bytes);
    let mut cache = TextureCache::<TEXTURES>::new(layout.textures.clone());
    let mut textures = ModelTextures::<TEXTURES>::EMPTY;
    cache
        .load_model(
            model,
            &mut vram,
            |index, _| texture_files.get(index).copied(),
            &mut textures,
        )
        .map_err(|e| e.to_string())?;
    let mut gouraud = vec![0u16; model.polygons().len()];
    let mut gouraud_cache = GouraudCache::<GOURAUD_TABLES>::new(layout.gouraud.clone());
    gouraud_cache
        .load_model(model, &mut vram, &mut gouraud)
        .map_err(|e| e.to_string())?;

    let loaded = LoadedModel {
        model,
        vram: ModelVram {
            textures: textures.slots(),
            gouraud: &gouraud,
        },
    };
    let (point_count, polygons) = (model.points().len(), model.polygons().len());
    let mut points = vec![ViewPoint::default(); point_count];
    let mut screens = vec![Point::default(); point_count];
    let mut keys = vec![0; 2 * polygons];
    let mut slots = vec![DrawSlot::EMPTY];
    let mut tables = Box::new(FrameTables::<1>::EMPTY);
    let mut memory = FrameMemory::new(
        &mut points,
        &mut screens,
        &mut keys,
        &mut slots,
        &mut tables,
    );
    let mut commands = vec![CommandTable::EMPTY; COMMANDS];
    let mut frame_gouraud = vec![GouraudTable::default(); FRAME_GOURAUD];
    let gouraud_base = layout.frame_gouraud.start;
    let mut list = CommandBuffer::new(&mut commands, 0, &mut frame_gouraud, 0, gouraud_base);
    let in_list = |e: jom::render::DrawError| e.to_string();
    list.start(camera.width, camera.height).map_err(in_list)?;
    let mut frame = ListFrame::begin(memory.reborrow(), camera, light).map_err(in_list)?;
    match pose {
        None => frame.draw(loaded, transform),
        Some((index, time)) => {
            let animation = model
                .animations()
                .get(index)
                .ok_or_else(|| format!("no animation {index}"))?;
            let pose = pose_at(&animation, model.bones().len(), time);
            let mut bones = [Matrix::IDENTITY; MAX_BONES];
            bone_matrices(model, &pose, &mut bones);
            let root = root_matrix(&pose);
            let posed = Posed {
                transform,
                root: &root,
                bones: &bones,
            };
            frame.draw_posed(loaded, &posed)
        }
    }
    .map_err(in_list)?;
    let stats = frame.finish(&mut list).map_err(in_list)?;
    list.write(&mut vram, layout.commands.start)
        .map_err(in_list)?;

    let mut frame = FrameBuffer::new(usize::from(camera.width), usize::from(camera.height));
    draw_list(vram.bytes(), layout.commands.start, &mut frame).map_err(|e| e.to_string())?;
    Ok((frame, stats))
}

fn unknown_animation(model: &Model<'_>, name: &str) -> String {
    let names: Vec<&str> = model
        .animations()
        .records()
        .iter()
        .map(|a| a.name().as_str())
        .collect();
    match names.is_empty() {
        true => format!("no animation {name:?}: the model has none"),
        false => format!("no animation {name:?}: the model has {}", names.join(", ")),
    }
}

/// `frames` frames of an animation side by side: from its first key to its end (the
/// last key, or back to the first for a looped one, which is left out as it repeats the
/// first frame), equally spaced in time.
pub fn render_strip(
    model: &Model<'_>,
    view: &View,
    name: &str,
    frames: u32,
) -> Result<(FrameBuffer, u32), String> {
    render_strip_with(model, view, name, frames, &[])
}

/// [`render_strip`] with the pixels of the texture files of a model without TIMG (see
/// [`render_with`]).
pub fn render_strip_with(
    model: &Model<'_>,
    view: &View,
    name: &str,
    frames: u32,
    texture_files: &[TextureSource<'_>],
) -> Result<(FrameBuffer, u32), String> {
    let animation = model
        .animations()
        .find(name)
        .ok_or_else(|| unknown_animation(model, name))?;
    let record = animation.record;
    let keys = u32::from(record.key_count());
    let ticks = u32::from(record.key_ticks());
    let frames = frames.max(1);
    let times: Vec<u32> = if record.is_looped() {
        (0..frames).map(|i| i * keys * ticks / frames).collect()
    } else {
        let end = (keys - 1) * ticks;
        (0..frames)
            .map(|i| {
                if frames == 1 {
                    0
                } else {
                    i * end / (frames - 1)
                }
            })
            .collect()
    };
    let (width, height) = (usize::from(view.width), usize::from(view.height));
    let mut strip = FrameBuffer::new(width * times.len(), height);
    for (i, &time) in times.iter().enumerate() {
        let frame_view = View {
            animation: Some((name.to_string(), time)),
            ..view.clone()
        };
        let (frame, _) = render_with(model, &frame_view, texture_files)?;
        for y in 0..height {
            let row = &frame.pixels[y * width..(y + 1) * width];
            strip.pixels[y * strip.width + i * width..y * strip.width + (i + 1) * width]
                .copy_from_slice(row);
        }
    }
    Ok((strip, times.last().copied().unwrap_or(0)))
}

fn fixed(value: f64) -> i32 {
    (value * f64::from(ONE)).round() as i32
}

/// A camera on the -Z side of the bounding sphere, looking at its centre, far enough to
/// see it whole unless a distance is given (public so that two models can be drawn from
/// the same camera: `jomc compare`).
pub fn frame_camera(model: &Model<'_>, view: &View) -> Camera {
    let center = model.center().raw();
    let radius = f64::from(model.radius().to_bits()) / f64::from(ONE);
    let mut camera = Camera {
        width: view.width,
        height: view.height,
        ..Camera::default()
    };
    let half = f64::from(view.width.min(view.height)) / 2.0;
    let distance = view
        .distance
        .unwrap_or(radius.max(1.0 / 64.0) * f64::from(camera.focal_length) / half * 1.15 + radius);
    camera.position = [center[0], center[1], center[2] - fixed(distance)];
    camera.near = fixed((distance / 256.0).max(1.0 / 256.0));
    camera.far = fixed(distance + 4.0 * radius + 1.0);
    camera
}

/// The rotation of the model around its bounding-sphere centre.
pub fn model_transform(model: &Model<'_>, degrees: [f64; 3]) -> Matrix {
    let center = model.center().raw();
    let angles = degrees.map(|d| Angle((d * 65536.0 / 360.0).round() as i64 as i16));
    Matrix::translation(center)
        .then(&Matrix::rotation_xyz(angles))
        .then(&Matrix::translation(center.map(|c| -c)))
}

/// A light travelling along `direction` (any length), with a quarter of ambient light.
pub fn light_from(direction: [f64; 3]) -> Light {
    let length = direction
        .iter()
        .map(|c| c * c)
        .sum::<f64>()
        .sqrt()
        .max(1e-9);
    Light {
        direction: direction.map(|c| fixed(c / length)),
        ambient: ONE / 4,
    }
}

/// Writes a frame as an 8-bit RGB PNG.
pub fn write_png(frame: &FrameBuffer, path: &std::path::Path) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(file),
        frame.width as u32,
        frame.height as u32,
    );
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer
        .write_image_data(&frame.to_rgb8())
        .map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}

/// Reads a PNG's pixels as 8-bit RGB, whatever its colour type (the golden images are
/// RGB, emulator screenshots often use a palette).
pub fn read_png(path: &std::path::Path) -> Result<(u32, u32, Vec<u8>), String> {
    let in_file = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| in_file(&e))?;
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| in_file(&e))?;
    let mut pixels = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader.next_frame(&mut pixels).map_err(|e| in_file(&e))?;
    pixels.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => pixels,
        png::ColorType::Rgba => pixels.chunks(4).flat_map(|p| [p[0], p[1], p[2]]).collect(),
        png::ColorType::Grayscale => pixels.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => {
            pixels.chunks(2).flat_map(|p| [p[0], p[0], p[0]]).collect()
        }
        png::ColorType::Indexed => {
            return Err(in_file(&"a palette PNG the decoder did not expand"))
        }
    };
    Ok((info.width, info.height, rgb))
}
