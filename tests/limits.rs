//! The engine's limits (docs/format.md, "Engine limits"): what they let through draws right
//! and, in a debug build (overflow checks on), never panics.

use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    draw, Camera, CommandList, DrawBuffers, DrawError, DrawStats, ModelVram, ViewPoint,
};
use jom::vdp1::{GouraudCache, MemoryVram, Point, TextureCache, VramLayout, VRAM_SIZE};
use jom::Model;
use jom_write::{AlignedBytes, JomFile, Material, Polygon};

/// A floor `half` units each way around the origin, 2 units below the eye (Y down),
/// facing up: the triangle far left, far right, near left (seen from a camera looking
/// along +Z), clockwise seen from above. Its near corner's edge to the far right corner
/// crosses the near plane diagonally (x and z both change by 2 `half`).
fn floor(half: i32) -> JomFile {
    let (h, y) = (half * ONE, 2 * ONE);
    JomFile {
        version: 1,
        radius: i32::MAX,
        points: vec![[-h, y, h], [h, y, h], [-h, y, -h]],
        polygons: vec![Polygon {
            normal: [0, -ONE, 0],
            corners: [0, 1, 2, 2],
        }],
        polygon_materials: vec![0],
        materials: vec![Material {
            name: "floor".into(),
            color: [100, 200, 100],
            texture: -1,
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Draws `model` with no textures or gouraud tables: the stats and the polygons' tables
/// (after the list's head).
fn draw_alone(
    model: &Model<'_>,
    transform: &Matrix,
    camera: &Camera,
) -> Result<(DrawStats, Vec<[Point; 4]>), DrawError> {
    let layout = VramLayout::default();
    let mut bytes = vec![0; VRAM_SIZE as usize];
    let mut vram = MemoryVram::new(&mut bytes);
    let mut textures = TextureCache::<4>::new(layout.textures.clone());
    let model_textures = textures
        .load_model::<4>(model, &mut vram, |_, _| None)
        .expect("no textures");
    let mut gouraud = vec![0u16; model.polygons().len()];
    GouraudCache::<64>::new(layout.gouraud.clone())
        .load_model(model, &mut vram, &mut gouraud)
        .expect("no gouraud tables");
    let mut list = CommandList::<512, 64>::new(camera.width, camera.height, &layout);
    let head = list.commands().len();
    let mut points = vec![ViewPoint::default(); model.points().len()];
    let mut order = vec![0; 2 * model.polygons().len()];
    let mut buffers = DrawBuffers {
        points: &mut points,
        order: &mut order,
        worker: None,
    };
    let resources = ModelVram {
        textures: &model_textures,
        gouraud: &gouraud,
    };
    let stats = draw(
        &mut list,
        model,
        &resources,
        transform,
        camera,
        None,
        &mut buffers,
    )?;
    let corners = list.commands()[head..]
        .iter()
        .map(|t| t.corners())
        .collect();
    Ok((stats, corners))
}

/// Where the renderer must put a camera-space corner (units) on screen, computed in
/// floating point: projected, or, behind the near plane, moved onto it along the edge to
/// the first neighbour in front (next, previous, opposite), then clamped to what VDP1
/// vertex fields hold.
fn expected_corners(view: [[f64; 3]; 4], camera: &Camera) -> [(f64, f64); 4] {
    let near = f64::from(camera.near) / 65536.0;
    let focal = f64::from(camera.focal_length);
    let project = |p: [f64; 3]| {
        let z = p[2].max(near);
        let axis = |v: f64| (v * focal / z).clamp(-2047.0, 2047.0);
        (axis(p[0]), axis(p[1]))
    };
    std::array::from_fn(|i| {
        let p = view[i];
        if p[2] >= near {
            return project(p);
        }
        let q = [(i + 1) % 4, (i + 3) % 4, (i + 2) % 4]
            .map(|j| view[j])
            .into_iter()
            .find(|q| q[2] >= near)
            .expect("a corner in front");
        let t = (near - p[2]) / (q[2] - p[2]);
        project(std::array::from_fn(|k| p[k] + (q[k] - p[k]) * t))
    })
}

fn assert_near(drawn: [Point; 4], expected: [(f64, f64); 4], what: &str) {
    for (corner, (got, (x, y))) in drawn.iter().zip(expected).enumerate() {
        let close = (f64::from(got.x) - x).abs() <= 1.0 && (f64::from(got.y) - y).abs() <= 1.0;
        assert!(
            close,
            "{what}, corner {corner}: drawn at ({}, {}), expected ({x:.2}, {y:.2})",
            got.x, got.y
        );
    }
}

/// The camera-space position (units) of a model-space point (raw) under `matrix`, in
/// floating point.
fn view_of(matrix: &Matrix, point: [i32; 3]) -> [f64; 3] {
    let m = matrix.0.map(|row| row.map(|v| f64::from(v) / 65536.0));
    let p = point.map(|v| f64::from(v) / 65536.0);
    std::array::from_fn(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3])
}

/// Issue #13: a floor of ±20,000 units crossing the near plane wrapped in the clipping's
/// 32-bit differences (a panic in a debug build, garbage on the SH-2). Drawn from its
/// centre turned 10 degrees (so that the clipped edges differ in x and in z) with a near
/// plane of 1 unit (the clipped corners' heights stay on screen), and compared with the
/// exact projection; the same floor at ±10,000 units as well.
#[test]
fn a_floor_of_20000_units_crossing_the_near_plane_draws_where_the_projection_puts_it() {
    let camera = Camera {
        near: ONE,
        rotation: [Angle(0), Angle::from_degrees(10), Angle(0)],
        ..Camera::default()
    };
    for half in [10_000, 20_000] {
        let file = floor(half);
        let bytes = AlignedBytes::new(&file.to_bytes());
        let model = Model::from_bytes(bytes.bytes()).expect("within the limits");
        let (stats, tables) = draw_alone(&model, &Matrix::IDENTITY, &camera).expect("drawn");
        assert_eq!((stats.drawn, tables.len()), (1, 1), "floor ±{half}");
        let corners = file.polygons[0]
            .corners
            .map(|c| file.points[usize::from(c)]);
        let view = corners.map(|p| view_of(&camera.view(), p));
        let expected = expected_corners(view, &camera);
        // The near corner is clipped onto the near plane 2 units below the eye (384
        // pixels down), near the middle of the screen.
        assert!((expected[2].1 - 384.0).abs() < 1e-3, "{:?}", expected[2]);
        assert!(expected[2].0.abs() < 500.0, "{:?}", expected[2]);
        assert_near(tables[0], expected, &format!("floor ±{half}"));
    }
}
