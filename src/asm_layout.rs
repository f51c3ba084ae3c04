//! The layouts of the engine's types that the SH-2 assembly loops read, checked at compile
//! time (host builds too) against their one description, `rt/layout.inc`, which the
//! assembly includes: build.rs writes the checks (every field's offset, the size, every
//! field named). The jobs' layouts are checked beside them (`render::{cull, emit}::sh2`).

use crate::format::{Polygon, Vector};
use crate::hw::divu::DivuRegisters;
use crate::math::Matrix;
use crate::render::project::Projection;
use crate::render::{SortKey, ViewPoint};
use crate::vdp1::{CommandTable, Point};

include!(concat!(env!("OUT_DIR"), "/layout.rs"));
