//! `draw` and `draw_pose` with a second CPU (here a thread, as the slave SH-2 on a Saturn)
//! give the same frame as one CPU: the mesh fixture static and posed, and models whose
//! materials make the split point move (polygons that take the depth of the one before them,
//! "sort previous", cannot start the second half). The SH-2 tests do the same with
//! `render::InOrder` and, on the emulated Saturns, with the slave.

use jom::anim::{bone_matrices, pose_at, root_matrix};
use jom::format::MAX_BONES;
use jom::math::{Angle, Matrix, ONE};
use jom::render::{
    draw, draw_pose, Camera, CommandList, DrawBuffers, ModelVram, Posed, ViewPoint, Worker,
};
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

/// A frame of `model` (posed by its first animation when `posed`), with `worker` if any:
/// its commands and its stats.
fn frame(
    model: &Model<'_>,
    posed: bool,
    worker: Option<&mut Thread>,
) -> (Vec<jom::vdp1::CommandTable>, String) {
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
    let stats = match model.animations().get(0).filter(|_| posed) {
        Some(animation) => {
            let pose = pose_at(&animation, model.bones().len(), 20);
            let mut bones = [Matrix::IDENTITY; MAX_BONES];
            bone_matrices(model, &pose, &mut bones);
            let root = root_matrix(&pose);
            let posed = Posed {
                transform: &transform,
                root: &root,
                bones: &bones,
            };
            draw_pose(
                &mut list,
                model,
                &resources,
                &posed,
                &camera,
                None,
                &mut buffers,
            )
        }
        None => draw(
            &mut list,
            model,
            &resources,
            &transform,
            &camera,
            None,
            &mut buffers,
        ),
    };
    (list.commands().to_vec(), format!("{stats:?}"))
}

#[test]
fn a_thread_draws_the_same_frames() {
    let bytes = jom::include_aligned!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/mesh.jom"
    ));
    let model = Model::from_bytes(bytes).expect("a valid fixture");
    for posed in [false, true] {
        let alone = frame(&model, posed, None);
        let shared = frame(&model, posed, Some(&mut Thread));
        assert!(alone.0.len() > 3 + 30, "posed {posed}: {}", alone.1);
        assert_eq!(shared, alone, "posed {posed}");
    }
}

#[test]
fn a_second_cpu_splits_where_a_polygon_starts_its_own_depth() {
    // 200 polygons: the split looks from 100 for one that is not "previous".
    for previous in [100..101, 90..150, 100..200, 0..200] {
        let bytes = mesh_with_previous(previous.clone());
        let model = Model::from_bytes(bytes.bytes()).expect("a valid model");
        let alone = frame(&model, false, None);
        let shared = frame(&model, false, Some(&mut Thread));
        assert!(alone.0.len() > 3 + 20, "{previous:?}: {}", alone.1);
        assert_eq!(shared, alone, "{previous:?}");
    }
}
