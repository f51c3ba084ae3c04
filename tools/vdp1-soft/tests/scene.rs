//! A scene of several overlapping models drawn through the renderer and this software VDP1,
//! which starts at VRAM address 0 as the VDP1 does and follows the jump there to the list:
//! a polygon of one model nearer than a polygon of another wins the pixel whichever model
//! is drawn first, rigid or posed.

use jom::math::{Matrix, ONE};
use jom::render::{Camera, Posed, Renderer, RendererArrays, RendererMemory, RendererTables};
use jom::vdp1::{MemoryVram, VRAM_SIZE};
use jom::Model;
use jom_write::{AlignedBytes, Bone, Group, JomFile, Material, Polygon};
use vdp1_soft::{draw_list, FrameBuffer};

const RED: [u8; 3] = [248, 0, 0];
const GREEN: [u8; 3] = [0, 248, 0];
const BLUE: [u8; 3] = [0, 0, 248];

fn rgb555([r, g, b]: [u8; 3]) -> u16 {
    0x8000 | u16::from(b >> 3) << 10 | u16::from(g >> 3) << 5 | u16::from(r >> 3)
}

/// Adds a quad facing the camera (its normal along -Z) at depth `z`, from (x0, y0) at the
/// top left to (x1, y1) at the bottom right (Y down), of a new material of `color`.
fn quad(file: &mut JomFile, [x0, y0, x1, y1]: [f64; 4], z: f64, color: [u8; 3]) {
    let fixed = |v: f64| (v * f64::from(ONE)).round() as i32;
    let first = file.points.len() as u16;
    for (x, y) in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)] {
        file.points.push([fixed(x), fixed(y), fixed(z)]);
    }
    file.polygons.push(Polygon {
        normal: [0, 0, -ONE],
        corners: [first, first + 1, first + 2, first + 3],
    });
    file.polygon_materials.push(file.materials.len() as u16);
    file.materials.push(Material {
        name: format!("m{}", file.materials.len()),
        color,
        texture: -1,
        ..Default::default()
    });
}

fn model_bytes(mut file: JomFile) -> AlignedBytes {
    file.version = 1;
    file.radius = 8 * ONE;
    AlignedBytes::new(&file.to_bytes())
}

/// Model A: a red quad far back and a small blue one near the camera.
fn near_and_far() -> AlignedBytes {
    let mut file = JomFile::default();
    quad(&mut file, [-1.0, -1.0, 1.0, 1.0], 1.0, RED);
    quad(&mut file, [0.0, -0.25, 0.5, 0.25], -2.0, BLUE);
    model_bytes(file)
}

/// Model B: a green quad between A's two, at rest 3 units to the left of where it is
/// drawn when `posed` (its bone moves it back), or in place.
fn middle(posed: bool) -> AlignedBytes {
    let mut file = JomFile::default();
    let left = if posed { -3.0 } else { 0.0 };
    quad(&mut file, [left - 0.5, -0.5, left + 1.0, 0.5], 0.0, GREEN);
    if posed {
        file.groups = Some(vec![Group {
            name: "quad".into(),
            first_point: 0,
            point_count: 4,
            first_polygon: 0,
            polygon_count: 1,
        }]);
        file.bones = Some(vec![Bone {
            name: "mover".into(),
            group: 0,
            parent: -1,
            pivot: [0; 3],
        }]);
    }
    model_bytes(file)
}

/// The frame of A and B drawn in `order` ("A", "B"), B posed or not, as the software VDP1
/// draws it from VRAM address 0.
fn frame(order: [&str; 2], posed: bool) -> FrameBuffer {
    let arrays = Box::leak(Box::new(RendererArrays::<64, 64, 32, 4, 4, 4, 32>::ZERO));
    let tables = Box::leak(Box::new(RendererTables::<4, 4, 2>::EMPTY));
    let vram = Box::leak(vec![0u8; VRAM_SIZE as usize].into_boxed_slice());
    let memory = RendererMemory::new(arrays, tables);
    let renderer = Renderer::new(MemoryVram::new(vram), memory, None).expect("sizes that fit");
    let (a_bytes, b_bytes) = (near_and_far(), middle(posed));
    let a = Model::from_bytes(a_bytes.bytes()).expect("model A is valid");
    let b = Model::from_bytes(b_bytes.bytes()).expect("model B is valid");
    let (a, b) = (renderer.load(&a).expect("A"), renderer.load(&b).expect("B"));
    let camera = Camera {
        position: [0, 0, -4 * ONE],
        ..Camera::default()
    };
    let bones = [Matrix::translation([3 * ONE, 0, 0])];
    let pose = Posed {
        transform: &Matrix::IDENTITY,
        root: &Matrix::IDENTITY,
        bones: &bones,
    };
    let mut frame = renderer.begin(&camera, None).expect("a frame");
    for name in order {
        match (name, posed) {
            ("A", _) => frame.draw(&a, &Matrix::IDENTITY),
            (_, false) => frame.draw(&b, &Matrix::IDENTITY),
            (_, true) => frame.draw_posed(&b, &pose),
        }
        .expect("room for the draw");
    }
    let stats = frame.finish().expect("the frame");
    assert_eq!((stats.drawn, stats.culled, stats.dropped), (3, 0, 0));
    drop((a, b));
    let vram = renderer.into_vdp1();
    let mut pixels = FrameBuffer::new(320, 224);
    // The VDP1 starts every frame at 0: the jump to the list just written.
    draw_list(vram.bytes(), 0, &mut pixels).expect("a list that keeps the VDP1's rules");
    pixels
}

#[test]
fn the_nearest_polygon_of_any_model_wins_the_pixel() {
    for posed in [false, true] {
        for order in [["A", "B"], ["B", "A"]] {
            let frame = frame(order, posed);
            let at = |x, y| frame.get(x, y);
            let case = format!("{order:?}, B posed {posed}");
            // Where all three overlap (A's blue at depth 2, B's green at 4, A's red at 5):
            // blue, though B's green is drawn after A's quads when B comes second.
            assert_eq!(at(184, 112), rgb555(BLUE), "{case}");
            // Where B's green covers A's red only.
            assert_eq!(at(150, 112), rgb555(GREEN), "{case}");
            // A's red alone.
            assert_eq!(at(125, 112), rgb555(RED), "{case}");
            // Nothing.
            assert_eq!(at(20, 20), 0, "{case}");
        }
    }
}
