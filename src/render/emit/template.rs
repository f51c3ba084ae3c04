//! The per-material command templates: what of a material's VDP1 command is the same for
//! all its polygons (the first three words and the last), so that the common case is the
//! template with the corners (`EmitStyle`).

use crate::format::MaterialFlags;
use crate::render::shared::ModelFrame;
use crate::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, Point, CTRL_FLIP_H, CTRL_FLIP_V};

/// How the polygons of one material are emitted: from a template command table (all but
/// the corners and the gouraud table) when nothing needs working out per polygon.
pub(crate) struct EmitStyle {
    /// The material's index.
    pub(super) material: u16,
    /// Neither lit nor mipmapped: the template holds everything.
    pub(super) fast: bool,
    /// Lit, and its polygons' commands are the template with their corners and a frame
    /// gouraud table of their light (not mipmapped, no GOUR colours).
    pub(super) lit: LitStyle,
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

/// How a lit material's polygons are lit when their command is the template's (see
/// `light::Shading`): each corner by its normal (`Lit` without GOUR colours), or all four
/// by the face's (`Uniform`: a texture in flat light).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LitStyle {
    /// Not this way.
    None,
    Corners,
    Face,
}

impl EmitStyle {
    /// Its polygons' commands are the template with their corners: no gouraud tables, no
    /// parts, no light, no mipmaps.
    pub(crate) fn plain(&self) -> bool {
        self.fast && !self.gouraud && !self.may_split
    }

    /// No material's: all zero, so that caches of styles start as zeros (no image of them
    /// in the program).
    pub(crate) const NONE: Self = Self {
        material: 0,
        fast: false,
        lit: LitStyle::None,
        may_split: false,
        gouraud: false,
        head: [0; 3],
        last: 0,
        gouraud_head: [0; 3],
        reserved: 0,
    };

    pub(crate) fn of(frame: &ModelFrame<'_, '_>, index: u16, lit_frame: bool) -> Self {
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
            .and_then(|t| frame.resources.sprites(usize::from(t), end_codes))
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
        let lit = flags.contains(MaterialFlags::LIGHT) && lit_frame;
        let lit_style = match (frame.model.corner_normals(), material.texture()) {
            _ if !lit
                || flags.contains(MaterialFlags::MIPMAPS)
                || flags.contains(MaterialFlags::GOURAUD) =>
            {
                LitStyle::None
            }
            (Some(_), _) if frame.model.normals().is_some() => LitStyle::Corners,
            (_, Some(_)) => LitStyle::Face,
            _ => LitStyle::None,
        };
        Self {
            material: index,
            fast: !(flags.contains(MaterialFlags::MIPMAPS) || lit),
            lit: lit_style,
            may_split: flags.subdivides(),
            gouraud: flags.contains(MaterialFlags::GOURAUD),
            head: head(&plain),
            last: plain.as_words()[7],
            gouraud_head: head(&gouraud),
            reserved: gouraud.reserved,
        }
    }
}

/// How many materials' styles a [`StyleCache`] keeps, from the first (the styles of the
/// others are made again when the material changes).
pub(crate) const CACHED_STYLES: usize = 32;

/// The command of a material lit by corner normals, as the lit runs read it by the
/// material's index (`emit_lit.S`, `emit_lit_job.inc`): the first three words of its
/// command with a gouraud table and the reserved field beside the table's address; all
/// zero for a material that is not so (`CMDCTRL` of a polygon or sprite is never 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LitTemplate {
    pub(crate) head: [u32; 3],
    /// The reserved field, in the low 16 bits.
    pub(crate) reserved: u32,
}

const _: () = assert!(core::mem::size_of::<LitTemplate>() == 16);
const _: () = assert!(core::mem::offset_of!(LitTemplate, head) == 0);
const _: () = assert!(core::mem::offset_of!(LitTemplate, reserved) == 12);

impl LitTemplate {
    pub(crate) const NONE: Self = Self {
        head: [0; 3],
        reserved: 0,
    };

    /// The lit template of `style`: its command with a gouraud table when its polygons are
    /// lit by their corner normals and never drawn in parts, else none.
    pub(crate) fn of(style: &EmitStyle) -> Self {
        match style.lit == LitStyle::Corners && !style.may_split {
            true => Self {
                head: style.gouraud_head,
                reserved: u32::from(style.reserved),
            },
            false => Self::NONE,
        }
    }

    pub(crate) fn usable(&self) -> bool {
        self.head[0] != 0
    }
}

/// The styles of a draw's materials in a frame, each made at its first polygon: polygons
/// of alternating materials (depth order) then cost a look-up each, not a set-up.
pub(crate) struct StyleCache {
    styles: [EmitStyle; CACHED_STYLES],
    /// The lit templates of the styles made (by material index; none for the others).
    pub(crate) lit: [LitTemplate; CACHED_STYLES],
    /// Bit i: `styles[i]` is made for this frame.
    made: u32,
    /// The style of the last material past the first `CACHED_STYLES`, once made.
    other: EmitStyle,
    other_made: bool,
}

impl StyleCache {
    /// Nothing made, written at `this` style by style (not through the stack).
    ///
    /// # Safety
    /// `this` is valid for writes.
    pub(crate) unsafe fn empty_in(this: *mut Self) {
        // SAFETY: the caller's promise.
        unsafe {
            let styles = core::ptr::addr_of_mut!((*this).styles).cast::<EmitStyle>();
            let lit = core::ptr::addr_of_mut!((*this).lit).cast::<LitTemplate>();
            for i in 0..CACHED_STYLES {
                styles.add(i).write(EmitStyle::NONE);
                lit.add(i).write(LitTemplate::NONE);
            }
            core::ptr::addr_of_mut!((*this).made).write(0);
            core::ptr::addr_of_mut!((*this).other).write(EmitStyle::NONE);
            core::ptr::addr_of_mut!((*this).other_made).write(false);
        }
    }

    /// Forgets every style (a new frame: the light or the textures may have changed).
    pub(crate) fn clear(&mut self) {
        self.made = 0;
        self.lit = [LitTemplate::NONE; CACHED_STYLES];
        self.other_made = false;
    }

    /// The style of material `index` in `frame` (lit or not).
    #[inline(always)]
    pub(crate) fn get(
        &mut self,
        frame: &ModelFrame<'_, '_>,
        index: u16,
        lit_frame: bool,
    ) -> &EmitStyle {
        let slot = usize::from(index);
        match self.styles.get_mut(slot) {
            Some(style) => {
                if self.made & 1 << slot == 0 {
                    *style = EmitStyle::of(frame, index, lit_frame);
                    self.lit[slot] = LitTemplate::of(style);
                    self.made |= 1 << slot;
                }
                style
            }
            None => {
                if !self.other_made || self.other.material != index {
                    self.other = EmitStyle::of(frame, index, lit_frame);
                    self.other_made = true;
                }
                &self.other
            }
        }
    }
}

/// A material colour (8 bits a channel) as RGB555, darkened by a light level.
pub(crate) fn rgb555(color: [u8; 3], level: Option<i32>) -> u16 {
    let [r, g, b] = color.map(|c| {
        let c = u16::from(c >> 3);
        level.map_or(c, |l| ((i32::from(c) * l) >> 16) as u16)
    });
    0x8000 | b << 10 | g << 5 | r
}
