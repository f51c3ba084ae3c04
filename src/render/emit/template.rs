//! The per-material command templates: what of a material's VDP1 command is the same for
//! all its polygons (the first three words and the last), so that the common case is the
//! template with the corners (`EmitStyle`).

use super::light::rgb555;
use crate::format::MaterialFlags;
use crate::render::draw::Frame;
use crate::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, Point, CTRL_FLIP_H, CTRL_FLIP_V};

/// How the polygons of one material are emitted: from a template command table (all but
/// the corners and the gouraud table) when nothing needs working out per polygon.
pub(crate) struct EmitStyle {
    /// The material's index (`u16::MAX` for none yet).
    pub(super) material: u16,
    /// Neither lit nor mipmapped: the template holds everything.
    pub(super) fast: bool,
    /// Its polygons may be drawn in parts (subdivision).
    pub(super) may_split: bool,
    /// Its polygons use their GOUR tables.
    pub(super) gouraud: bool,
    /// The first three words of the command of a polygon without a gouraud table (see
    /// [`CommandBuffer::push_words`]).
    pub(super) head: [u32; 3],
    /// Its last word.
    pub(super) last: u32,
    /// The first three words of the command of a polygon with one.
    pub(super) gouraud_head: [u32; 3],
    /// The reserved field, beside the gouraud table's address in the last word.
    pub(super) reserved: u16,
}

impl EmitStyle {
    /// Its polygons' commands are the template with their corners: no gouraud tables, no
    /// parts, no light, no mipmaps.
    pub(crate) fn plain(&self) -> bool {
        self.fast && !self.gouraud && !self.may_split
    }

    pub(crate) const NONE: Self = Self {
        material: u16::MAX,
        fast: false,
        may_split: false,
        gouraud: false,
        head: [0; 3],
        last: 0,
        gouraud_head: [0; 3],
        reserved: 0,
    };

    pub(crate) fn of(frame: &Frame<'_, '_>, index: u16, lit_frame: bool) -> Self {
        let Some(material) = frame.model.materials().get(usize::from(index)) else {
            return Self {
                material: index,
                ..Self::NONE
            };
        };
        let flags = material.flags();
        let end_codes = flags.contains(MaterialFlags::END_CODES);
        let half = flags.contains(MaterialFlags::HALF_TRANSPARENT);
        let mesh = flags.contains(MaterialFlags::SCREEN_DOORS);
        let mut flip = 0;
        if flags.contains(MaterialFlags::FLIP_H) {
            flip |= CTRL_FLIP_H;
        }
        if flags.contains(MaterialFlags::FLIP_V) {
            flip |= CTRL_FLIP_V;
        }
        let sprite = material
            .texture()
            .and_then(|t| frame.resources.textures.get(usize::from(t), end_codes))
            .map(|s| s.full);
        let table = |gouraud: bool| {
            let calc = ColorCalc::of(gouraud, half);
            match sprite {
                Some(sprite) => {
                    let color = match sprite.lut {
                        Some(_) => ColorMode::Lut16,
                        None => ColorMode::Rgb,
                    };
                    let mode = DrawMode::new(color, calc, mesh, end_codes);
                    CommandTable::distorted_sprite(&sprite, [Point::default(); 4], mode, flip)
                }
                None => {
                    let mode = DrawMode::new(ColorMode::Rgb, calc, mesh, end_codes);
                    let color = rgb555(material.color(), None);
                    CommandTable::polygon(color, [Point::default(); 4], mode)
                }
            }
        };
        let (plain, gouraud) = (table(false), table(true));
        let head = |table: &CommandTable| {
            let words = table.as_words();
            [words[0], words[1], words[2]]
        };
        Self {
            material: index,
            fast: !(flags.contains(MaterialFlags::MIPMAPS)
                || lit_frame && flags.contains(MaterialFlags::LIGHT)),
            may_split: flags.subdivides(),
            gouraud: flags.contains(MaterialFlags::GOURAUD),
            head: head(&plain),
            last: plain.as_words()[7],
            gouraud_head: head(&gouraud),
            reserved: gouraud.reserved,
        }
    }
}
