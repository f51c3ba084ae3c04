//! Billboards: a sprite standing at a point of the world, facing the screen, its size
//! shrinking with its distance (trees, particles, a blob shadow). Each is one VDP1 scaled
//! sprite, placed when it is drawn ([`place`]: culled behind the near plane, past the far
//! plane or off screen, its rectangle kept within the vertex range the emission keeps
//! polygons in, its gouraud colour and fog made) and sorted at the frame's end with the
//! frame's polygons by its depth ([`PlacedBillboard`], emitted by [`emit_billboard`]).
//! This module owns a billboard's command; the pipeline keeps and orders them.

/// docs/billboards.md's examples, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../docs/billboards.md")]
struct BillboardsDocs;

use crate::math::{div_64_32, Matrix, Vec3};
use crate::render::camera::Camera;
use crate::render::cull::quantized_depth;
use crate::render::error::DrawError;
use crate::render::fog::{Fog, NEUTRAL_GOURAUD};
use crate::render::list::CommandBuffer;
use crate::render::project::{Projection, SCREEN_LIMIT};
use crate::vdp1::{
    field_pair, ColorCalc, ColorMode, CommandTable, DrawMode, GouraudTable, Point, Sprite,
    ZoomPoint,
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
    /// ([`Renderer::sprite`](crate::render::Renderer::sprite),
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

    /// Whether it has a gouraud colour in `fog` ([`gouraud_in`](Self::gouraud_in) not
    /// `None`), found without the fog's division.
    pub(crate) fn shaded_in(&self, fog: Option<&Fog>) -> bool {
        self.gouraud != 0 || fog.is_some_and(|fog| self.fogged && fog.fades(self.depth))
    }

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

/// `billboard` as `camera` (whose view matrix is `view`) sees it, placed into `slot`: its
/// depth for the sort (16 bits, by the frame's `depth_factor`, as the polygons' are), or
/// why it is not drawn (`slot` then untouched). An error when its point is out of the
/// engine's reach from the camera (its camera-space coordinates past 32 bits). Written in
/// place: a placed billboard returned and stored cost the SH-2 some 400 cycles of copies
/// (Mednafen).
pub(crate) fn place(
    billboard: &Billboard,
    camera: &Camera,
    (view, depth_factor): (&Matrix, u32),
    slot: &mut PlacedBillboard,
) -> Result<Result<u32, Unseen>, DrawError> {
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
    slot.table = CommandTable::scaled_sprite(
        &billboard.sprite,
        Point::new(left as i16, top as i16),
        Point::new((right - left) as i16, (bottom - top) as i16),
        ZoomPoint::UpperLeft,
        mode,
        0,
    );
    slot.depth = z;
    slot.gouraud = look.gouraud.map_or(0, |g| g | 0x8000);
    slot.fogged = look.fog;
    Ok(Ok(quantized_depth(z, depth_factor)))
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
/// colour calculation then gouraud, or gouraud and half transparency). As eight words in
/// place, as the emission writes a polygon's (a table copied whole costs the SH-2 library
/// calls).
pub(crate) fn emit_billboard(
    list: &mut CommandBuffer<'_>,
    placed: &PlacedBillboard,
    fog: Option<&Fog>,
) -> Result<(), DrawError> {
    let table = &placed.table;
    let words = table.as_words();
    let (mut head, mut last) = ([words[0], words[1], words[2]], words[7]);
    if let Some(colour) = placed.gouraud_in(fog) {
        let address = list.push_gouraud(GouraudTable([colour; 4]))?;
        head[1] = field_pair(table.pmod | ColorCalc::Gouraud as u16, table.colr);
        last = field_pair((address >> 3) as u16, table.reserved);
    }
    list.push_words(&head, [words[3], words[4], words[5], words[6]], last)
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    //! Kept small: the SH-2 test program fills high work RAM. The VDP1 rules of these
    //! lists are checked on the host (`host_rules`), and vdp1-soft's tests draw them.
    use super::*;
    use crate::math::ONE;
    use crate::render::fog::FOG_WHOLE;
    use crate::render::{CommandList, FrameArrays, FrameStats, ListFrame, LoadedModel, ModelVram};
    use crate::selftest::Failure;
    use crate::vdp1::{GouraudCache, MemoryVram, ModelTextures, TextureCache, VramLayout};
    use crate::{check, check_eq, test_suite};

    /// The value of `$result`, or the test's failure with its error.
    macro_rules! ok {
        ($result:expr) => {
            match $result {
                Ok(value) => value,
                Err(error) => {
                    return Err(Failure::new(file!(), line!(), format_args!("{:?}", error)))
                }
            }
        };
    }

    /// A 16 x 8 RGB texture somewhere in VRAM.
    const SPRITE: Sprite = Sprite {
        address: 0x20000,
        width: 16,
        height: 8,
        lut: None,
    };

    /// VRAM enough for these tests' lists and the fixture's textures.
    const VRAM_BYTES: usize = 8192;

    const LAYOUT: VramLayout = VramLayout {
        commands: 0..4096,
        frame_gouraud: 4096..4608,
        gouraud: 4608..4640,
        textures: 4640..VRAM_BYTES as u32,
    };

    type List = CommandList<40, 40>;

    /// The fixture's textures and gouraud tables in VRAM.
    struct Fixture {
        model: crate::format::Model<'static>,
        textures: ModelTextures<4>,
        gouraud: [u16; 3],
    }

    impl Fixture {
        fn load() -> Option<Self> {
            let model = crate::render::tests::every_chunk();
            let mut bytes = [0u8; VRAM_BYTES];
            let mut vram = MemoryVram::new(&mut bytes);
            let mut cache = TextureCache::<4>::new(LAYOUT.textures.clone());
            let textures = cache
                .load_model_value::<4>(&model, &mut vram, |_, _| None)
                .ok()?;
            let mut gouraud = [0u16; 3];
            let mut tables = GouraudCache::<4>::new(LAYOUT.gouraud.clone());
            tables.load_model(&model, &mut vram, &mut gouraud).ok()?;
            Some(Self {
                model,
                textures,
                gouraud,
            })
        }

        fn loaded(&self) -> LoadedModel<'_> {
            let vram = ModelVram {
                textures: self.textures.slots(),
                gouraud: &self.gouraud,
            };
            LoadedModel {
                model: &self.model,
                vram,
            }
        }
    }

    /// A frame of `boards` (and of `model`, if any, where it is: as ground when `ground`)
    /// seen by `camera` in `fog`, written into `list`.
    fn frame_of(
        list: &mut List,
        camera: &Camera,
        (model, ground): (Option<LoadedModel<'_>>, bool),
        boards: &[Billboard],
        fog: Option<Fog>,
    ) -> Result<FrameStats, DrawError> {
        let mut arrays = FrameArrays::<8, 8, 1>::EMPTY;
        let (mut placed, mut board_keys) = ([PlacedBillboard::EMPTY; 8], [0; 16]);
        let memory = arrays
            .memory()
            .with_billboards(&mut placed, &mut board_keys);
        let mut frame = ListFrame::begin(memory, camera, None)?;
        frame.set_fog(fog);
        match (model, ground) {
            (Some(model), false) => frame.draw(model, &Matrix::IDENTITY)?,
            (Some(model), true) => frame.draw_ground(model, &Matrix::IDENTITY)?,
            (None, _) => {}
        }
        for board in boards {
            frame.draw_billboard(board)?;
        }
        list.with_buffer(|buffer| frame.finish(buffer))
    }

    /// The list after its three head commands.
    fn drawn(list: &List) -> &[CommandTable] {
        &list.commands()[3..]
    }

    /// Vertices A and B of the first command drawn (a scaled sprite's place and size).
    fn placed_at(list: &List) -> [i16; 4] {
        drawn(list).first().map_or([0; 4], |t| {
            [t.vertices[0], t.vertices[1], t.vertices[2], t.vertices[3]]
        })
    }

    /// Where the scaled sprites are among the commands drawn.
    fn sprites_at(list: &List) -> heapless::Vec<usize, 8> {
        drawn(list)
            .iter()
            .enumerate()
            .filter(|(_, t)| t.ctrl & 0xF == 1)
            .map(|(i, _)| i)
            .collect()
    }

    test_suite! {
        fn a_billboard_is_a_scaled_sprite_of_its_size_at_its_point() {
            // Focal length 192, 4 units away: a unit is 48 pixels. Centred at (48, -24)
            // as the VDP1 centres (the odd pixel right and below): 96 x 48 pixels from
            // (1, -47), the size the VDP1's inclusive corners take (95, 47); the upper
            // left zoom point, a plain RGB sprite.
            let camera = Camera::default();
            let board = Billboard::new([ONE, -ONE / 2, 4 * ONE], [2 * ONE, ONE], SPRITE);
            let mut list = List::new(320, 224, &LAYOUT);
            let stats = ok!(frame_of(&mut list, &camera, (None, false), &[board], None));
            check_eq!([stats.billboards, stats.commands, stats.billboards_culled], [1, 1, 0]);
            check_eq!(placed_at(&list), [1, -47, 95, 47]);
            let table = drawn(&list)[0];
            let plain = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false).0;
            check_eq!([table.ctrl, table.srca, table.size, table.pmod], [0x0501, 0x4000, 2 << 8 | 8, plain]);
            // Standing on its lower edge's middle, twice as far: half the size.
            let mut tree = Billboard::new([0, 0, 8 * ONE], [2 * ONE, 4 * ONE], SPRITE);
            tree.anchor = ZoomPoint::LowerCenter;
            let mut list = List::new(320, 224, &LAYOUT);
            ok!(frame_of(&mut list, &camera, (None, false), &[tree], None));
            check_eq!(placed_at(&list), [-23, -95, 47, 95]);
            // A tenth of a unit past the near plane, ten units wide (some 8,500 pixels):
            // kept within the vertex range the emission keeps polygons in.
            let near = Billboard::new([0, 0, camera.near + ONE / 10], [10 * ONE, 10 * ONE], SPRITE);
            let mut list = List::new(320, 224, &LAYOUT);
            ok!(frame_of(&mut list, &camera, (None, false), &[near], None));
            check_eq!(placed_at(&list), [-2047, -2047, 4094, 4094]);
        }

        fn billboards_out_of_view_are_culled() {
            let camera = Camera { far: 100 * ONE, ..Camera::default() };
            let at = |x, y, z, width| Billboard::new([x, y, z], [width, ONE], SPRITE);
            let cases = [
                at(0, 0, -ONE, ONE),                 // behind the eye
                at(0, 0, ONE / 16, ONE),             // before the near plane
                at(0, 0, 101 * ONE, ONE),            // past the far one
                at(60 * ONE, 0, 4 * ONE, ONE),       // off the right
                at(0, -30 * ONE, 4 * ONE, ONE),      // above
                at(0, 0, 50 * ONE, ONE / 1024),      // under a pixel wide
                // 3 units away (64 pixels a unit): its left column on the screen's
                // last (159) is drawn, one pixel further is not.
                at(190 * 1024, 0, 3 * ONE, ONE),
                at(191 * 1024, 0, 3 * ONE, ONE),
            ];
            let mut list = List::new(320, 224, &LAYOUT);
            let stats = ok!(frame_of(&mut list, &camera, (None, false), &cases, None));
            check_eq!([stats.billboards, stats.billboards_culled, drawn(&list).len()], [1, 7, 1]);
            check_eq!(placed_at(&list)[0], 159);
        }

        fn billboards_sort_with_the_polygons_after_the_ground() {
            // The fixture about the origin, 4 units away; one billboard before it and one
            // behind it, drawn in that order whatever the order they were drawn in; with
            // the fixture as ground, every billboard after it, whatever its depth.
            let fixture = Fixture::load();
            check!(fixture.is_some());
            let Some(fixture) = fixture else { return Ok(()) };
            let sprite = fixture.loaded().vram.sprite(0);
            check!(sprite.is_some());
            let sprite = sprite.unwrap_or(SPRITE);
            let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
            let near = Billboard::new([0, 0, -2 * ONE], [ONE / 4, ONE / 4], sprite);
            let far = Billboard::new([0, 0, 6 * ONE], [ONE, ONE], sprite);
            let mut list = List::new(320, 224, &LAYOUT);
            let stats = ok!(frame_of(&mut list, &camera, (Some(fixture.loaded()), false), &[near, far], None));
            let last = drawn(&list).len() - 1;
            check_eq!([stats.billboards, stats.commands - stats.drawn], [2, 2]);
            check_eq!(sprites_at(&list).as_slice(), &[0, last][..]);
            // The polygons between them are the frame's without them.
            let mut alone = List::new(320, 224, &LAYOUT);
            ok!(frame_of(&mut alone, &camera, (Some(fixture.loaded()), false), &[], None));
            check!(drawn(&list)[1..last] == *drawn(&alone));
            let mut list = List::new(320, 224, &LAYOUT);
            let beyond = Billboard::new([0, 0, 20 * ONE], [ONE, ONE], sprite);
            let stats = ok!(frame_of(&mut list, &camera, (Some(fixture.loaded()), true), &[beyond], None));
            check!(stats.drawn > 0);
            check_eq!(sprites_at(&list).as_slice(), &[stats.drawn][..]);
        }

        fn fog_fades_billboards_and_polygons_with_depth() {
            let camera = Camera::default();
            let fog = Fog { colour: 0x8000 | 20 << 10 | 20 << 5 | 20, near: 4 * ONE, far: 12 * ONE };
            let at = |z: i32, fogged: bool| Billboard {
                look: BillboardLook { fog: fogged, ..BillboardLook::default() },
                ..Billboard::new([0, 0, z], [ONE, ONE], SPRITE)
            };
            // Before the fog: as without it; half way: half; past it: whole; one that
            // opts out: untouched. Farthest first: the two at 20 (in the order drawn), 8,
            // then 2.
            let boards = [at(2 * ONE, true), at(8 * ONE, true), at(20 * ONE, true), at(20 * ONE, false)];
            let mut list = List::new(320, 224, &LAYOUT);
            ok!(frame_of(&mut list, &camera, (None, false), &boards, Some(fog)));
            let calc: [u16; 4] = core::array::from_fn(|i| drawn(&list)[i].pmod & 7);
            check_eq!(calc, [4, 0, 4, 0]);
            let whole = fog.faded(NEUTRAL_GOURAUD, NEUTRAL_GOURAUD, FOG_WHOLE);
            let half = fog.faded(NEUTRAL_GOURAUD, NEUTRAL_GOURAUD, 128);
            check_eq!(whole, fog.colour);
            check!(list.gouraud_tables() == [GouraudTable([whole; 4]), GouraudTable([half; 4])]);
            // Whether each takes a table, as the list's room counts it (no division).
            for board in boards {
                let mut p = PlacedBillboard::EMPTY;
                check!(ok!(place(&board, &camera, (&camera.view(), 1 << 16), &mut p)).is_ok());
                check_eq!(p.shaded_in(Some(&fog)), p.gouraud_in(Some(&fog)).is_some());
            }
            // The fixture past a fog's far depth: every command shaded, each corner's
            // gouraud colour the offset that takes the polygon's colour (a texture's mid
            // texel) to the fog's, whatever its own (vdp1-soft's tests draw it).
            let fixture = Fixture::load();
            check!(fixture.is_some());
            let Some(fixture) = fixture else { return Ok(()) };
            let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
            let fog = Fog { near: ONE, far: 2 * ONE, ..fog };
            let mut list = List::new(320, 224, &LAYOUT);
            let stats = ok!(frame_of(&mut list, &camera, (Some(fixture.loaded()), false), &[], Some(fog)));
            check!(stats.drawn > 0);
            for table in drawn(&list) {
                let at = (u32::from(table.grda) * 8).wrapping_sub(LAYOUT.frame_gouraud.start);
                let corners = list.gouraud_tables().get(at as usize / 8).map_or([0; 4], |t| t.0);
                let base = if table.ctrl & 0xF == 4 { table.colr } else { NEUTRAL_GOURAUD };
                check_eq!(table.pmod & 4, 4);
                check_eq!(corners, [fog.faded(NEUTRAL_GOURAUD, base, FOG_WHOLE); 4]);
            }
        }

        fn billboards_take_their_options_and_the_lists_room() {
            let camera = Camera::default();
            let tint = 0x8000 | 16 << 10 | 16 << 5 | 24;
            let mut looks = [BillboardLook::default(); 3];
            looks[0].half_transparent = true;
            looks[1].mesh = true;
            looks[2] = BillboardLook { gouraud: Some(tint), half_transparent: true, ..BillboardLook::default() };
            let boards = looks.map(|look| Billboard { look, ..Billboard::new([0, 0, 4 * ONE], [ONE, ONE], SPRITE) });
            let mut list = List::new(320, 224, &LAYOUT);
            ok!(frame_of(&mut list, &camera, (None, false), &boards, None));
            let modes: [u16; 3] = core::array::from_fn(|i| drawn(&list)[i].pmod);
            let rgb = |calc, mesh| DrawMode::new(ColorMode::Rgb, calc, mesh, false).0;
            check_eq!(modes, [rgb(ColorCalc::HalfTransparent, false), rgb(ColorCalc::Replace, true), rgb(ColorCalc::GouraudHalfTransparent, false)]);
            // The tint's table: the frame's first, at the frame gouraud region's start.
            check!(list.gouraud_tables() == [GouraudTable([tint; 4])]);
            check_eq!(u32::from(drawn(&list)[2].grda) * 8, LAYOUT.frame_gouraud.start);
            // Past the memory: refused; a list too short: the farthest left out.
            let nine = [Billboard::new([0, 0, 4 * ONE], [ONE, ONE], SPRITE); 9];
            let refused = frame_of(&mut List::new(320, 224, &LAYOUT), &camera, (None, false), &nine, None);
            check!(refused.err() == Some(DrawError::BufferTooSmall { buffer: "billboards", needed: 9 }));
            let mut short = CommandList::<8, 4>::new(320, 224, &LAYOUT);
            let mut arrays = FrameArrays::<1, 1, 1>::EMPTY;
            let (mut placed, mut board_keys) = ([PlacedBillboard::EMPTY; 8], [0; 16]);
            let memory = arrays.memory().with_billboards(&mut placed, &mut board_keys);
            let mut frame = ok!(ListFrame::begin(memory, &camera, None));
            for z in 2..8 {
                ok!(frame.draw_billboard(&Billboard::new([0, 0, z * ONE], [ONE, ONE], SPRITE)));
            }
            let stats = ok!(short.with_buffer(|buffer| frame.finish(buffer)));
            // 8 tables: 3 head, the end, 4 billboards (the nearest).
            check_eq!([stats.billboards, stats.dropped], [4, 2]);
        }
    }

    /// The lists of these frames keep the VDP1 manual's rules (on the host: the SH-2
    /// program has no room for `check_list` over them).
    #[cfg(test)]
    mod host_rules {
        use super::*;
        use crate::vdp1::check_list;

        fn keeps_the_rules(list: &List) -> bool {
            let mut bytes = [0u8; VRAM_BYTES];
            if list
                .commit(&mut MemoryVram::new(&mut bytes), &LAYOUT)
                .is_err()
            {
                return false;
            }
            check_list(
                |a| u16::from_be_bytes([bytes[a as usize], bytes[a as usize + 1]]),
                0,
            )
            .is_ok()
        }

        #[test]
        fn billboard_lists_keep_the_vdp1_rules() {
            let camera = Camera::default();
            let fog = Fog {
                colour: 0x8000,
                near: ONE,
                far: 8 * ONE,
            };
            let mut boards = [Billboard::new([0, 0, 4 * ONE], [ONE, ONE], SPRITE); 4];
            boards[1].look.half_transparent = true;
            boards[2].look.gouraud = Some(0x8000 | 20 << 10);
            boards[3] =
                Billboard::new([0, 0, camera.near + ONE / 10], [10 * ONE, 10 * ONE], SPRITE);
            for fog in [None, Some(fog)] {
                let mut list = List::new(320, 224, &LAYOUT);
                frame_of(&mut list, &camera, (None, false), &boards, fog).expect("a frame");
                assert!(keeps_the_rules(&list));
            }
            let fixture = Fixture::load().expect("the fixture");
            let camera = Camera {
                position: [0, -ONE / 2, -4 * ONE],
                ..Camera::default()
            };
            let mut list = List::new(320, 224, &LAYOUT);
            frame_of(
                &mut list,
                &camera,
                (Some(fixture.loaded()), false),
                &boards[..2],
                Some(fog),
            )
            .expect("a frame");
            assert!(keeps_the_rules(&list));
        }
    }
}
