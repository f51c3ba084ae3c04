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
/// template, their light for a lit one: [`lit_colors`]) faded in `fog` by their depths,
/// towards the fog's colour from the polygon's own (an untextured polygon's colour, a mid
/// texel's for a texture); `false` (nothing written) when the frame pass would not take it
/// (`template_command`'s cases but a crossing polygon, which is taken: its corners moved
/// onto the near plane). Word by word in place, no call on the way of a polygon wholly in
/// front of the near plane: a command or table assigned whole is a library copy on the
/// SH-2; with the calls (the draw's look-up, the run's direction, each corner's level, a
/// copy of the direction) and each corner faded, the world's fog emission took 1,004,893
/// cycles a frame, 532,005 without (`ci/world.sh bench fog`, Mednafen).
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
    // The corners' own colours, written into the gouraud table (faded there after), and
    // the reserved field beside the table's address (a plain template's in its last word,
    // a lit one's alone).
    let colors = &mut colors.0;
    let reserved = match kind {
        TemplateKind::None => return false,
        TemplateKind::Plain => {
            (colors[0], colors[1], colors[2], colors[3]) = (NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL);
            field_halves(template.last).1
        }
        TemplateKind::Lit => match lit_colors(draw, index, light.ambient, colors) {
            true => template.last as u16,
            false => return false,
        },
    };
    // A plain template's command with gouraud shading (a lit one's has it already): its
    // draw mode's colour calculation the gouraud one, half transparency kept.
    let (h0, h1, h2) = (template.head[0], template.head[1], template.head[2]);
    let h1 = h1 | field_pair(ColorCalc::Gouraud as u16, 0);
    let base = fog_base(h0, h1);
    let words = table.as_words_mut();
    words[0] = h0;
    words[1] = h1;
    words[2] = h2;
    words[7] = field_pair(grda as u16, reserved);
    // Each corner's point read once: its screen position, and its depth for the near
    // plane's test and the fog. A corner before the fog's near depth keeps its own colour
    // (what `faded` makes of it at a share of 0), without the fading's work.
    let wanted = fog.wanted(base);
    let near = frame.camera.near;
    let mut crossing = false;
    let corners = frame.model.polygons()[index].corners();
    for i in 0..4 {
        let point = &frame.points[usize::from(corners[i])];
        let depth = point.view[2];
        crossing |= depth < near;
        words[3 + i] = point.screen.word();
        let share = fog.share(fog_depth(depth, near));
        if share != 0 {
            colors[i] = fog.faded(colors[i], wanted, share);
        }
    }
    if crossing {
        let [a, b, c, d] = frame.corner_words(index);
        (words[3], words[4], words[5], words[6]) = (a, b, c, d);
    }
    true
}

/// The light colours of lit polygon `index`'s corners (what [`neutral_lit`] makes of each
/// corner's level by its normal, in its run's light, with the `ambient` part) into
/// `colors`: from its draw's light table when the light has one (a load a corner: the
/// village's 110 normals in its one run, the character's 6 in each of its bones'), else
/// each corner's level worked out; `false` (nothing written) when its matrix stretches (its
/// run has no light) or it has no corner normals.
#[inline(always)]
fn lit_colors(draw: &FrameDraw<'_, '_>, index: usize, ambient: i32, colors: &mut [u16; 4]) -> bool {
    let light = &draw.templates.light;
    let frame = draw.frame;
    let Some(table) = light.colors() else {
        let levels = light
            .direction(index)
            .and_then(|direction| corner_levels(frame, index, *direction, ambient));
        let Some([a, b, c, d]) = levels else {
            return false;
        };
        (colors[0], colors[1], colors[2]) = (neutral_lit(a), neutral_lit(b), neutral_lit(c));
        colors[3] = neutral_lit(d);
        return true;
    };
    let Some(row) = light.color_row(index) else {
        return false;
    };
    let model = frame.model;
    let (Some(corners), Some(normals)) = (
        model
            .corner_normals()
            .and_then(|c| c.get(4 * index..4 * index + 4)),
        model.normals(),
    ) else {
        return false;
    };
    // Not `map`: on the SH-2 a call.
    let (a, b) = (usize::from(corners[0].get()), usize::from(corners[1].get()));
    let (c, d) = (usize::from(corners[2].get()), usize::from(corners[3].get()));
    // A row holds a colour for each of the model's normals (one past them is none's).
    let normals = normals.len();
    let Some(row) = table.get(row..row + normals) else {
        return false;
    };
    if a.max(b).max(c).max(d) >= normals {
        return false;
    }
    (colors[0], colors[1], colors[2], colors[3]) = (row[a], row[b], row[c], row[d]);
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
