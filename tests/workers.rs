//! `draw` with a second CPU (here a thread, as the slave SH-2 on a Saturn) gives the same
//! frame as one CPU, for models whose materials make the split point move: polygons that
//! take the depth of the one before them ("sort previous") cannot start the second half.

use jom::math::{Angle, Matrix, ONE};
use jom::render::{draw, Camera, CommandList, DrawBuffers, ModelVram, ViewPoint, Worker};
use jom::vdp1::{ModelTextures, VramLayout};
use jom::Model;
use jom_write::{AlignedBytes, Material};

/// `JO_3D_MATERIAL_SORT_MIN | JO_3D_MATERIAL_SORT_MAX`: sorted with the depth of the polygon
/// before it.
const SORT_PREVIOUS: u32 = 1 | 2;

struct Thread;

impl Worker for Thread {
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send)) {
        std::thread::scope(|scope| {
            scope.spawn(there);
            here();
        });
    }
}

/// A 20 x 10 mesh whose polygons from `previous` on (to the end) sort as "previous".
fn mesh_with_previous(previous: std::ops::Range<usize>) -> AlignedBytes {
    let mut file = jom_write::scenes::mesh(20, 10);
    file.materials.push(Material {
        name: "decal".into(),
        color: [200, 10, 10],
        texture: -1,
        flags: SORT_PREVIOUS,
        ..Default::default()
    });
    for index in previous {
        file.polygon_materials[index] = 1;
    }
    AlignedBytes::new(&file.to_bytes())
}

fn frame(model: &Model<'_>, worker: Option<&mut Thread>) -> (Vec<jom::vdp1::CommandTable>, String) {
    let layout = VramLayout::default();
    let empty = ModelTextures::<4>::default();
    let gouraud = vec![0; model.polygons().len()];
    let resources = ModelVram {
        textures: &empty,
        gouraud: &gouraud,
    };
    let camera = Camera {
        position: [ONE / 2, 0, -2 * ONE],
        ..Camera::default()
    };
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(50), Angle::from_degrees(-10), Angle(0)]);
    let mut points = vec![ViewPoint::default(); model.points().len()];
    let mut order = vec![0; 2 * model.polygons().len()];
    let mut list = Box::new(CommandList::<256, 4>::new(320, 224, &layout));
    let mut buffers = DrawBuffers {
        points: &mut points,
        order: &mut order,
        worker: worker.map(|w| w as &mut dyn Worker),
    };
    let stats = draw(
        &mut list,
        model,
        &resources,
        &transform,
        &camera,
        None,
        &mut buffers,
    );
    (list.commands().to_vec(), format!("{stats:?}"))
}

#[test]
fn a_second_cpu_splits_where_a_polygon_starts_its_own_depth() {
    // 200 polygons: the split looks from 100 for one that is not "previous".
    for previous in [100..101, 90..150, 100..200, 0..200] {
        let bytes = mesh_with_previous(previous.clone());
        let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
        let alone = frame(&model, None);
        let shared = frame(&model, Some(&mut Thread));
        assert!(alone.0.len() > 3 + 20, "{previous:?}: {}", alone.1);
        assert_eq!(shared, alone, "{previous:?}");
    }
}
