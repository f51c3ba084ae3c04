//! Billboards and fog as the software VDP1 draws them: a scaled sprite placed by its zoom
//! point where Mednafen places it (`vdp1_sprite.cpp`), its texture scaled over it, its
//! gouraud colour added; and a polygon in a whole fog drawn in the fog's colour.

use jom::math::{Matrix, ONE};
use jom::render::{
    head_commands, Camera, Fog, PlacedBillboard, Renderer, RendererArrays, RendererMemory,
    RendererTables,
};
use jom::vdp1::{
    ColorCalc, ColorMode, CommandTable, DrawMode, MemoryVram, Point, Sprite, ZoomPoint, VRAM_SIZE,
};
use jom::Model;
use jom_write::{AlignedBytes, JomFile, Material, Polygon};
use vdp1_soft::{draw_list, FrameBuffer};

/// An 8 x 8 RGB555 texture at 0x20000: texel (u, v) of red u + 1, green v + 1.
const TEXTURE: Sprite = Sprite {
    address: 0x20000,
    width: 8,
    height: 8,
    lut: None,
};

fn texel(u: usize, v: usize) -> u16 {
    0x8000 | ((v as u16 + 1) << 5) | (u as u16 + 1)
}

/// `tables` after the head commands (origin at the screen's centre, 160, 112), with the
/// texture and `gouraud` at 0x30000, drawn.
fn drawn(tables: &[CommandTable], gouraud: [u16; 4]) -> FrameBuffer {
    let mut vram = vec![0u8; VRAM_SIZE as usize];
    let mut list: Vec<CommandTable> = head_commands(320, 224).to_vec();
    list.extend_from_slice(tables);
    list.push(CommandTable::end());
    for (i, table) in list.iter().enumerate() {
        vram[32 * i..32 * i + 32].copy_from_slice(&table.to_be_bytes());
    }
    for v in 0..8 {
        for u in 0..8 {
            let at = 0x20000 + 2 * (8 * v + u);
            vram[at..at + 2].copy_from_slice(&texel(u, v).to_be_bytes());
        }
    }
    for (i, colour) in gouraud.iter().enumerate() {
        vram[0x30000 + 2 * i..0x30002 + 2 * i].copy_from_slice(&colour.to_be_bytes());
    }
    let mut frame = FrameBuffer::new(320, 224);
    draw_list(&vram, 0, &mut frame).expect("a list that keeps the VDP1's rules");
    frame
}

/// The smallest rectangle holding every pixel drawn: (left, top, right, bottom).
fn drawn_box(frame: &FrameBuffer) -> Option<(usize, usize, usize, usize)> {
    let mut found: Option<(usize, usize, usize, usize)> = None;
    for y in 0..frame.height {
        for x in 0..frame.width {
            if frame.get(x, y) != 0 {
                found = Some(match found {
                    None => (x, y, x, y),
                    Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(x), b.max(y)),
                });
            }
        }
    }
    found
}

const PLAIN: DrawMode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);

#[test]
fn a_scaled_sprite_is_drawn_where_its_zoom_point_places_it() {
    let zoom_points = [
        ZoomPoint::UpperLeft,
        ZoomPoint::UpperCenter,
        ZoomPoint::UpperRight,
        ZoomPoint::CenterLeft,
        ZoomPoint::Center,
        ZoomPoint::CenterRight,
        ZoomPoint::LowerLeft,
        ZoomPoint::LowerCenter,
        ZoomPoint::LowerRight,
    ];
    for zoom in zoom_points {
        // 16 x 16 pixels (a display size of 15) at (10, -20) from the centre.
        let (at, size) = (Point::new(10, -20), Point::new(15, 15));
        let table = CommandTable::scaled_sprite(&TEXTURE, at, size, zoom, PLAIN, 0);
        let frame = drawn(&[table], [0; 4]);
        let [(l, t), _, (r, b), _] = ZoomPoint::corners(zoom as u16, (10, -20), (15, 15), (0, 0));
        let expected = (
            (l + 160) as usize,
            (t + 112) as usize,
            (r + 160) as usize,
            (b + 112) as usize,
        );
        assert_eq!(drawn_box(&frame), Some(expected), "{zoom:?}");
        assert_eq!((r - l, b - t), (15, 15), "{zoom:?}");
        // Each texel 2 x 2 pixels: the corners' texels at the corners, texel (3, 5) at
        // pixels (6..8, 10..12) from the upper left.
        let (x, y) = (expected.0, expected.1);
        assert_eq!(frame.get(x, y), texel(0, 0), "{zoom:?}");
        assert_eq!(frame.get(x + 15, y + 15), texel(7, 7), "{zoom:?}");
        assert_eq!(frame.get(x + 7, y + 11), texel(3, 5), "{zoom:?}");
    }
    // Without a zoom point: the corners A and C, inclusive.
    let table = CommandTable::scaled_sprite_corners(
        &TEXTURE,
        Point::new(-4, -4),
        Point::new(3, 11),
        PLAIN,
        0,
    );
    assert_eq!(
        drawn_box(&drawn(&[table], [0; 4])),
        Some((156, 108, 163, 123))
    );
}

#[test]
fn a_scaled_sprite_takes_its_gouraud_colour() {
    let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Gouraud, false, false);
    let table = CommandTable::scaled_sprite(
        &TEXTURE,
        Point::new(0, 0),
        Point::new(7, 7),
        ZoomPoint::UpperLeft,
        mode,
        0,
    )
    .with_gouraud(0x30000);
    // +4 red, -1 green, +10 blue at every corner.
    let gouraud = 0x8000 | 26 << 10 | 15 << 5 | 20;
    let frame = drawn(&[table], [gouraud; 4]);
    for (u, v) in [(0, 0), (7, 0), (3, 6), (7, 7)] {
        let plain = texel(u, v);
        let shaded = 0x8000 | 10 << 10 | ((plain >> 5 & 31) - 1) << 5 | ((plain & 31) + 4);
        assert_eq!(frame.get(160 + u, 112 + v), shaded, "texel ({u}, {v})");
    }
}

/// A quad facing the camera at depth 0, (-1, -1) to (1, 1), of `colour` (8-bit RGB).
fn quad_model(colour: [u8; 3]) -> AlignedBytes {
    let mut file = JomFile::default();
    for (x, y) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] {
        file.points.push([x * ONE, y * ONE, 0]);
    }
    file.polygons.push(Polygon {
        normal: [0, 0, -ONE],
        corners: [0, 1, 2, 3],
    });
    file.polygon_materials.push(0);
    file.materials.push(Material {
        name: "plain".into(),
        color: colour,
        texture: -1,
        ..Default::default()
    });
    file.version = 1;
    file.radius = 2 * ONE;
    AlignedBytes::new(&file.to_bytes())
}

/// The quad of `colour` 4 units away, in
/// `fog`, through the renderer, drawn by the software VDP1.
fn fog_frame(colour: [u8; 3], fog: Option<Fog>) -> FrameBuffer {
    let arrays = Box::leak(Box::new(RendererArrays::<64, 64, 32, 8, 4, 4, 32>::ZERO));
    let tables = Box::leak(Box::new(RendererTables::<4, 4, 2>::EMPTY));
    let boards = Box::leak(Box::new(([PlacedBillboard::EMPTY; 4], [0u32; 8])));
    let vram = Box::leak(vec![0u8; VRAM_SIZE as usize].into_boxed_slice());
    let memory = RendererMemory::new(arrays, tables).with_billboards(&mut boards.0, &mut boards.1);
    let renderer = Renderer::new(MemoryVram::new(vram), memory, None).expect("sizes that fit");
    let bytes = quad_model(colour);
    let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
    let quad = renderer.load(&model).expect("the quad");
    let camera = Camera {
        position: [0, 0, -4 * ONE],
        ..Camera::default()
    };
    let mut frame = renderer.begin(&camera, None).expect("a frame");
    frame.set_fog(fog);
    frame.draw(&quad, &Matrix::IDENTITY).expect("room");
    let stats = frame.finish().expect("the frame");
    assert_eq!(stats.drawn, 1);
    drop(quad);
    let vram = renderer.into_vdp1();
    let mut pixels = FrameBuffer::new(320, 224);
    draw_list(vram.bytes(), 0, &mut pixels).expect("a list that keeps the VDP1's rules");
    pixels
}

#[test]
fn a_polygon_in_a_whole_fog_is_the_fog_colour() {
    // Red (31, 0, 0) into (20, 10, 5): each channel within what the VDP1 adds.
    let colour = 0x8000 | 5 << 10 | 10 << 5 | 20;
    let fog = Fog {
        colour,
        near: ONE,
        far: 2 * ONE,
    };
    let clear = fog_frame([248, 0, 0], None);
    let fogged = fog_frame([248, 0, 0], Some(fog));
    let red = 0x8000 | 31;
    let lit: Vec<usize> = (0..clear.pixels.len())
        .filter(|&i| clear.pixels[i] != 0)
        .collect();
    assert!(lit.len() > 40 * 40, "the quad covers {} pixels", lit.len());
    assert!(lit.iter().all(|&i| clear.pixels[i] == red));
    assert!(lit.iter().all(|&i| fogged.pixels[i] == colour));
    // Half way (at 4 units, a fog from 2 to 6): half the offset, rounded.
    let half = Fog {
        colour,
        near: 2 * ONE,
        far: 6 * ONE,
    };
    let halfway = fog_frame([248, 0, 0], Some(half));
    let expected = 0x8000 | 3 << 10 | 5 << 5 | 26;
    let (x, y) = (160, 112);
    assert_eq!(halfway.get(x, y), expected);
}

#[test]
fn a_scaled_sprite_steps_its_texels_as_mednafen_does() {
    // Mednafen's `VileTex`: magnified, from the first texel to the last, each pixel the
    // texel of (2 (size - 1) i + n - 2) / 2 (n - 1); shrunk, the texel under each pixel's
    // centre, (2 i + 1) size / 2 n. 8 texels over 12 pixels, and over 4; 8 lines over 1
    // (its middle, texel 4).
    let row = |width: i16| {
        let size = Point::new(width - 1, 0);
        let table = CommandTable::scaled_sprite(
            &TEXTURE,
            Point::new(0, 0),
            size,
            ZoomPoint::UpperLeft,
            PLAIN,
            0,
        );
        let frame = drawn(&[table], [0; 4]);
        (0..width as usize)
            .map(|x| frame.get(160 + x, 112))
            .collect::<Vec<_>>()
    };
    let texels = |us: &[usize]| us.iter().map(|&u| texel(u, 4)).collect::<Vec<_>>();
    assert_eq!(row(12), texels(&[0, 1, 1, 2, 3, 3, 4, 4, 5, 6, 6, 7]));
    assert_eq!(row(4), texels(&[1, 3, 5, 7]));
}
