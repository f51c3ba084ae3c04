//! Subdivision: whether a polygon is drawn in 4 parts (crossing the near plane, or its
//! texture visibly distorted), the parts' corners (midpoints and centre) and their share of
//! the whole polygon's gouraud colours.

use crate::format::{Material, MaterialFlags};
use crate::math::Vec3;
use crate::render::camera::Camera;
use crate::render::project::project;
use crate::render::shared::{ModelFrame, ModelVram};
use crate::vdp1::{GouraudTable, Point};

/// The distortion in pixels over which a `jo_subdivision 1` polygon is drawn in parts
/// when its material says 0 (`jo_3d_set_texture_subdivision_error`'s default here).
pub const DEFAULT_SUBDIVISION_ERROR: i32 = 4;

/// Whether a polygon is drawn in 4 parts: `jo_subdivision 2` when it crosses the near
/// plane, `jo_subdivision 1` also when its texture would be visibly distorted: the 3D
/// centre projects more than the material's `subdivision_error` pixels away from the
/// centre of the projected corners (the VDP1 maps textures without perspective). A
/// textured polygon is split only when its texture has quarters in VRAM.
pub(crate) fn drawn_in_parts(
    material: &Material,
    resources: &ModelVram<'_>,
    corners: &[Vec3; 4],
    screen: &[Point; 4],
    camera: &Camera,
) -> bool {
    let flags = material.flags();
    let near_only = flags.contains(MaterialFlags::SUBDIVISION_NEAR);
    if !near_only && !flags.contains(MaterialFlags::SUBDIVISION) {
        return false;
    }
    if let Some(texture) = material.texture() {
        let sprites = resources.sprites(
            usize::from(texture),
            flags.contains(MaterialFlags::END_CODES),
        );
        if sprites.is_none_or(|s| s.quarters.is_none()) {
            return false;
        }
    }
    if corners.iter().any(|c| c[2] < camera.near) {
        return true;
    }
    if near_only {
        return false;
    }
    let centre = project(average(corners), camera);
    let corners_x = screen.iter().map(|p| i32::from(p.x)).sum::<i32>() / 4;
    let corners_y = screen.iter().map(|p| i32::from(p.y)).sum::<i32>() / 4;
    let error = (i32::from(centre.x) - corners_x)
        .abs()
        .max((i32::from(centre.y) - corners_y).abs());
    let allowed = match material.subdivision_error() {
        0 => DEFAULT_SUBDIVISION_ERROR,
        e => i32::from(e),
    };
    error > allowed
}

pub(crate) fn average(points: &[Vec3; 4]) -> Vec3 {
    core::array::from_fn(|k| points.iter().map(|p| p[k] >> 2).sum())
}

pub(crate) fn midpoint(a: Vec3, b: Vec3) -> Vec3 {
    core::array::from_fn(|k| (a[k] >> 1) + (b[k] >> 1))
}

/// The 4 parts of a quad A, B, C, D, each in the same order (its own A at the top left of
/// its quarter of the texture): the parts at A, B, C and D.
pub(crate) fn parts(corners: &[Vec3; 4]) -> [[Vec3; 4]; 4] {
    quad_parts(*corners, midpoint, average(corners))
}

/// The corners of the 4 parts of a quad (see [`parts`]) from its corners, how to find the
/// middle of an edge, and its centre.
fn quad_parts<T: Copy>(corners: [T; 4], middle: impl Fn(T, T) -> T, centre: T) -> [[T; 4]; 4] {
    let [a, b, c, d] = corners;
    let (ab, bc, cd, da) = (middle(a, b), middle(b, c), middle(c, d), middle(d, a));
    [
        [a, ab, centre, da],
        [ab, b, bc, centre],
        [centre, bc, c, cd],
        [da, centre, cd, d],
    ]
}

/// The gouraud tables of the 4 parts of a quad shaded by `whole`: the colours at each
/// part's corners as the VDP1 shades the whole quad (bilinear from its corners: the
/// middle of an edge is the mean of its ends, the centre the mean of all four), each
/// channel to the nearest.
pub(crate) fn part_gouraud(whole: &GouraudTable) -> [GouraudTable; 4] {
    let channels = whole.0.map(|c| [c & 31, (c >> 5) & 31, (c >> 10) & 31]);
    let mean = |colors: &[[u16; 3]]| -> [u16; 3] {
        let n = colors.len() as u16;
        core::array::from_fn(|k| (colors.iter().map(|c| c[k]).sum::<u16>() + n / 2) / n)
    };
    let centre = mean(&channels);
    let parts = quad_parts(channels, |p, q| mean(&[p, q]), centre);
    parts.map(|part| GouraudTable(part.map(|[r, g, b]| 0x8000 | b << 10 | g << 5 | r)))
}

impl ModelFrame<'_, '_> {
    /// Whether polygon `index` is drawn in 4 parts.
    pub(crate) fn in_parts(&self, index: usize) -> bool {
        self.model.material_of(index).is_some_and(|material| {
            let (view, screen) = self.corners(index);
            drawn_in_parts(material, self.resources, &view, &screen, self.camera)
        })
    }
}
