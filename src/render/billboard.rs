//! Billboards: a sprite standing at a point of the world, facing the screen, its size
//! shrinking with its distance (trees, particles, a blob shadow). Each is one VDP1 scaled
//! sprite, placed when it is drawn ([`place`]: culled behind the near plane, past the far
//! plane or off screen, its rectangle kept within the vertex range the emission keeps
//! polygons in, its gouraud colour and fog made) and sorted at the frame's end with the
//! frame's polygons by its depth ([`PlacedBillboard`], emitted by [`emit_billboard`]).
//! This module owns a billboard's command; the pipeline keeps and orders them.

use crate::math::{div_64_32, Matrix, Vec3};
use crate::render::camera::Camera;
use crate::render::cull::{depth_factor, quantized_depth};
use crate::render::error::DrawError;
use crate::render::fog::{Fog, NEUTRAL_GOURAUD};
use crate::render::list::CommandBuffer;
use crate::render::project::{Projection, SCREEN_LIMIT};
use crate::vdp1::{
    ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, Point, Sprite, ZoomPoint,
};

/// A sprite at a point of the world, `size` world units wide and high (Q16.16), drawn
/// facing the screen with its `anchor` at the point (the centre, or the middle of its
/// lower edge for a tree standing on the ground), scaled by the distance as the
/// polygons are. See `Frame::draw_billboard` (docs/billboards.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Billboard {
    /// Where it is, in world units (Q16.16).
    pub position: Vec3,
    /// Its width and height in world units (Q16.16).
    pub size: [i32; 2],
    /// The texture in VRAM: one of a loaded model's
    /// ([`ModelHandle::sprite`](crate::render::ModelHandle::sprite),
    /// [`ModelVram::sprite`](crate::render::ModelVram::sprite)).
    pub sprite: Sprite,
    /// Which point of the sprite is at `position` ([`ZoomPoint::TwoCorners`] is taken as
    /// the centre).
    pub anchor: ZoomPoint,
    /// How it is drawn.
    pub look: BillboardLook,
}

impl Billboard {
    /// `sprite` centred at `position`, `size` world units wide and high, drawn plainly
    /// (faded by the frame's fog).
    pub fn new(position: Vec3, size: [i32; 2], sprite: Sprite) -> Self {
        Self {
            position,
            size,
            sprite,
            anchor: ZoomPoint::Center,
            look: BillboardLook::default(),
        }
    }
}

/// The material options that apply to a billboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BillboardLook {
    /// Averaged with what is behind it (the VDP1's half transparency).
    pub half_transparent: bool,
    /// Every other pixel drawn (the VDP1's mesh: the Saturn's cheap transparency).
    pub mesh: bool,
    /// A gouraud colour added to every texel (RGB555, 16 in a channel leaves it as it
    /// is: `0x8000 | 16 << 10 | 16 << 5 | 24` tints it red), or none.
    pub gouraud: Option<u16>,
    /// Faded by the frame's fog, if it has one (the default).
    pub fog: bool,
}

impl Default for BillboardLook {
    fn default() -> Self {
        Self {
            half_transparent: false,
            mesh: false,
            gouraud: None,
            fog: true,
        }
    }
}

/// A billboard placed in a frame: its command, made when it was drawn, and what its
/// gouraud colour is made of when the frame ends (the frame's fog is known then). A
/// frame's memory holds one a billboard it draws
/// ([`FrameMemory::with_billboards`](crate::render::FrameMemory::with_billboards)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedBillboard {
    pub(crate) table: CommandTable,
    /// Its camera depth (Q16.16).
    pub(crate) depth: i32,
    /// Its own gouraud colour (`BillboardLook::gouraud`, bit 15 set), 0 for none.
    pub(crate) gouraud: u16,
    pub(crate) fogged: bool,
}

impl PlacedBillboard {
    /// None yet.
    pub const EMPTY: Self = Self {
        table: CommandTable::EMPTY,
        depth: 0,
        gouraud: 0,
        fogged: false,
    };

    /// Its gouraud colour in `fog`, or none when it is drawn as its texture is.
    pub(crate) fn gouraud_in(&self, fog: Option<&Fog>) -> Option<u16> {
        let own = (self.gouraud != 0).then_some(self.gouraud);
        match fog.filter(|_| self.fogged) {
            Some(fog) => match fog.share(self.depth) {
                0 => own,
                share => Some(fog.faded(own.unwrap_or(NEUTRAL_GOURAUD), NEUTRAL_GOURAUD, share)),
            },
            None => own,
        }
    }
}

/// Why a billboard is not drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unseen {
    /// Behind the near plane or past the far one.
    OutOfDepth,
    /// Smaller than a pixel either way.
    TooSmall,
    /// Wholly off screen.
    OffScreen,
}

/// `billboard` as `camera` (whose view matrix is `view`) sees it: its depth for
/// the sort (16 bits, as the polygons' are) and its command, or why it is not drawn. An
/// error when its point is out of the engine's reach from the camera (its camera-space
/// coordinates past 32 bits).
pub(crate) fn place(
    billboard: &Billboard,
    camera: &Camera,
    view: &Matrix,
) -> Result<Result<(u32, PlacedBillboard), Unseen>, DrawError> {
    let [x, y, z] = view_point(view, billboard.position)?;
    if z < camera.near || z > camera.far {
        return Ok(Err(Unseen::OutOfDepth));
    }
    let scale = div_64_32(
        i64::from(camera.focal_length) << 32,
        z.max(Projection::of(camera).min_depth),
    );
    let on_screen = |v: i32| ((i64::from(v) * i64::from(scale)) >> 32) as i32;
    let [width, height] = billboard.size.map(on_screen);
    if width < 1 || height < 1 {
        return Ok(Err(Unseen::TooSmall));
    }
    let anchor = match billboard.anchor {
        ZoomPoint::TwoCorners => ZoomPoint::Center,
        anchor => anchor,
    };
    // Spanning `width` pixels: a display width of `width - 1` (the VDP1's corners are
    // inclusive).
    let point = (on_screen(x), on_screen(y));
    let [(left, top), _, (right, bottom), _] =
        ZoomPoint::corners(anchor as u16, point, (width - 1, height - 1), (0, 0));
    let (half_w, half_h) = (i32::from(camera.width / 2), i32::from(camera.height / 2));
    let last_x = i32::from(camera.width) - half_w - 1;
    let last_y = i32::from(camera.height) - half_h - 1;
    if right < -half_w || left > last_x || bottom < -half_h || top > last_y {
        return Ok(Err(Unseen::OffScreen));
    }
    // Within the range the emission keeps polygons' corners in: a billboard nearer than
    // that spans more than the screen, and only its squeezed texture shows it.
    let kept = |v: i32| v.clamp(-SCREEN_LIMIT, SCREEN_LIMIT);
    let (left, top, right, bottom) = (kept(left), kept(top), kept(right), kept(bottom));
    let look = &billboard.look;
    let color = match billboard.sprite.lut {
        Some(_) => ColorMode::Lut16,
        None => ColorMode::Rgb,
    };
    let mode = DrawMode::new(
        color,
        ColorCalc::of(false, look.half_transparent),
        look.mesh,
        false,
    );
    let table = CommandTable::scaled_sprite(
        &billboard.sprite,
        Point::new(left as i16, top as i16),
        Point::new((right - left) as i16, (bottom - top) as i16),
        ZoomPoint::UpperLeft,
        mode,
        0,
    );
    let depth = quantized_depth(z, depth_factor(camera.far));
    let placed = PlacedBillboard {
        table,
        depth: z,
        gouraud: look.gouraud.map_or(0, |g| g | 0x8000),
        fogged: look.fog,
    };
    Ok(Ok((depth, placed)))
}

/// `point` (world) in camera space through `view`, or an error when a coordinate is past
/// 32 bits.
fn view_point(view: &Matrix, point: Vec3) -> Result<Vec3, DrawError> {
    let mut out = [0; 3];
    for (o, row) in out.iter_mut().zip(&view.0) {
        let sum = row[..3]
            .iter()
            .zip(point)
            .map(|(&m, p)| i64::from(m) * i64::from(p))
            .sum::<i64>();
        *o = i32::try_from((sum >> 16) + i64::from(row[3]))
            .map_err(|_| DrawError::OutOfReach { matrix: 0 })?;
    }
    Ok(out)
}

/// Writes `placed` into `list` in `fog`: its gouraud table first, when it has one (its
/// colour calculation then gouraud, or gouraud and half transparency).
pub(crate) fn emit_billboard(
    list: &mut CommandBuffer<'_>,
    placed: &PlacedBillboard,
    fog: Option<&Fog>,
) -> Result<(), DrawError> {
    let mut table = placed.table;
    if let Some(colour) = placed.gouraud_in(fog) {
        table = table.with_gouraud(list.push_gouraud(GouraudTable([colour; 4]))?);
        table.pmod |= ColorCalc::Gouraud as u16;
    }
    list.push(table)
}
