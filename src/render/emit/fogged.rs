//! Emission in fog: the frame pass's templates (plain and lit, [`TemplateKind`]), each
//! polygon with a gouraud table of its own, its corners' colours (neutral, or their light)
//! faded by their depths ([`Fog::faded`] at [`Fog::share`]): what the general emission
//! (`emit_fogged`) makes of the same polygon, command and table, without its set-up (its
//! material's flags, shading, mode and sprite worked out again for every polygon: some
//! 8,900 cycles a quad on the SH-2, Mednafen). What the pass does not take (a polygon of
//! neither template, of a stretching matrix, of a draw past the first `FRAME_DRAWS`) it
//! stops at, for the general emission of that one polygon.

use super::frame::{corner_levels, draw_of, shared_pass, FrameDraw, PassOut};
use super::light::{neutral_lit, NEUTRAL};
use super::records::{PassLight, TemplateKind};
use crate::render::fog::{fog_depth, Fog, FogRamp};
use crate::render::shared::SortKey;
use crate::vdp1::{field_halves, field_pair, ColorCalc, Command, CommandTable, GouraudTable};
use crate::worker::Worker;

/// Emits the polygons of `keys` (frame numbers of `draws`' polygons, sorted) from the first
/// into `tables` and `gouraud` (the first gouraud table at VRAM address `first_gouraud` * 8),
/// each from its draw's material's template with its corners (those behind the near plane
/// moved onto it, as the general emission moves them) and a gouraud table of its corners'
/// colours in `fog`, while each is of a template (lit ones: their matrix does not stretch,
/// in `light`) and there is room; gives how many polygons, and how many gouraud tables
/// (as many).
pub(crate) fn emit_fogged_templates(
    draws: &[FrameDraw<'_, '_>],
    (light, fog): (PassLight, &Fog),
    keys: &[SortKey],
    (tables, gouraud, first_gouraud): (&mut [CommandTable], &mut [GouraudTable], u32),
) -> (usize, usize) {
    let ramp = FogRamp::of(fog);
    let mut done = 0;
    for ((&key, table), colors) in keys.iter().zip(tables).zip(gouraud) {
        let grda = first_gouraud + done as u32;
        if !fogged_command(draws, (light, &ramp), key, grda, (table, colors)) {
            break;
        }
        done += 1;
    }
    (done, done)
}

/// [`emit_fogged_templates`] with `worker` taking the second part of `keys` (see
/// `emit_templates_shared`: the same cut and the same use of the free tables).
pub(crate) fn emit_fogged_templates_shared(
    draws: &[FrameDraw<'_, '_>],
    (light, fog): (PassLight, &Fog),
    keys: &[SortKey],
    out: PassOut<'_>,
    worker: &mut dyn Worker,
) -> (usize, usize) {
    let pass =
        |keys: &[SortKey], out: PassOut<'_>| emit_fogged_templates(draws, (light, fog), keys, out);
    shared_pass(draws, keys, out, worker, &pass)
}

/// Writes the command of the polygon of `key` (a frame number of `draws`' polygons) from
/// its draw's material's template, with the gouraud table at VRAM address `grda` * 8, into
/// `table`, and that table into `colors`: its corners' gouraud colours (neutral for a plain
/// template, their light for a lit one) faded in `fog` by their depths, towards the fog's
/// colour from the polygon's own (an untextured polygon's colour, a mid texel's for a
/// texture); `false` (nothing written) when the frame pass would not take it
/// (`template_command`'s cases but a crossing polygon, which is taken: its corners moved
/// onto the near plane). Word by word in place: a command or table assigned whole is a
/// library copy on the SH-2.
#[inline(always)]
fn fogged_command(
    draws: &[FrameDraw<'_, '_>],
    (light, fog): (PassLight, &FogRamp),
    key: SortKey,
    grda: u32,
    (table, colors): (&mut CommandTable, &mut GouraudTable),
) -> bool {
    let Some((draw, index)) = draw_of(draws, key) else {
        return false;
    };
    let frame = draw.frame;
    let material = usize::from(frame.model.polygon_materials()[index].get());
    let (Some(&kind), Some(template)) = (
        draw.templates.kinds.get(material),
        draw.templates.templates.get(material),
    ) else {
        return false;
    };
    // The corners' own colours, and the reserved field beside the gouraud table's address
    // (a plain template's in its last word, a lit one's alone).
    let (own, reserved) = match kind {
        TemplateKind::None => return false,
        TemplateKind::Plain => ([NEUTRAL; 4], field_halves(template.last).1),
        TemplateKind::Lit => {
            let Some(&direction) = draw.templates.light.direction(index) else {
                return false;
            };
            let Some(levels) = corner_levels(frame, index, direction, light.ambient) else {
                return false;
            };
            (levels.map(neutral_lit), template.last as u16)
        }
    };
    // A plain template's command with gouraud shading (a lit one's has it already): its
    // draw mode's colour calculation the gouraud one, half transparency kept.
    let [h0, h1, h2] = template.head;
    let h1 = h1 | field_pair(ColorCalc::Gouraud as u16, 0);
    let base = fog_base(h0, h1);
    let words = table.as_words_mut();
    words[0] = h0;
    words[1] = h1;
    words[2] = h2;
    words[7] = field_pair(grda as u16, reserved);
    // Each corner's point read once: its screen position, and its depth for the near
    // plane's test and the fog.
    let wanted = fog.wanted(base);
    let near = frame.camera.near;
    let mut crossing = false;
    let points = frame.model.polygons()[index].corners();
    for (i, point) in points.into_iter().enumerate() {
        let point = &frame.points[usize::from(point)];
        let depth = point.view[2];
        crossing |= depth < near;
        words[3 + i] = point.screen.word();
        colors.0[i] = fog.faded(own[i], wanted, fog.share(fog_depth(depth, near)));
    }
    if crossing {
        let [a, b, c, d] = frame.corner_words(index);
        (words[3], words[4], words[5], words[6]) = (a, b, c, d);
    }
    true
}

/// The colour a fog moves a template's polygons from (`Fog::faded`'s `base`): an
/// untextured polygon's own (`CMDCOLR`), 16 in each channel for a texture (a mid texel),
/// from the first two words of its command.
#[inline(always)]
fn fog_base(h0: u32, h1: u32) -> u16 {
    let ((ctrl, _), (_, colr)) = (field_halves(h0), field_halves(h1));
    match ctrl & 0xF == Command::Polygon as u16 {
        true => colr,
        false => NEUTRAL,
    }
}
