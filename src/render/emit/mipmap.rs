//! Mipmaps: which of a texture's levels a polygon is drawn with, by its size on screen.

use crate::vdp1::{Point, Sprite, SpriteSet};

/// The full texture, or a mipmap when the polygon is drawn at half or a quarter of its
/// size or less.
pub(crate) fn choose_level(sprites: &SpriteSet, corners: &[Point; 4], mipmaps: bool) -> Sprite {
    if !mipmaps {
        return sprites.full;
    }
    let extent = |f: fn(&Point) -> i16| {
        let values = corners.map(|p| i32::from(f(&p)));
        values.iter().max().unwrap_or(&0) - values.iter().min().unwrap_or(&0)
    };
    let size = extent(|p| p.x).max(extent(|p| p.y));
    let width = i32::from(sprites.full.width);
    match sprites.mipmaps {
        [_, Some(quarter)] if 4 * size <= width => quarter,
        [Some(half), _] if 2 * size <= width => half,
        _ => sprites.full,
    }
}
