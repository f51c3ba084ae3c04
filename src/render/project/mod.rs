//! Transform and projection: each point of a model into camera space by its matrix, then
//! onto the screen (one division a point, by the SH-2's division unit on a Saturn, where the
//! loop itself is SH-2 assembly: `transform.S`, bound by `sh2`). Bottom first: `projection`
//! (one point), `sh2`, `points` (a model's points, shared between two CPUs).

mod points;
mod projection;
#[cfg(jom_saturn)]
pub(crate) mod sh2;

pub use points::transform_points_reference;
pub(crate) use points::{transform_model, transform_runs};
pub use projection::Projection;
pub(crate) use projection::{on_near_plane, project, SCREEN_LIMIT};
