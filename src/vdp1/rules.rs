//! The VDP1 manual's rules for a command list, checked on what is in VRAM: what the
//! emulators forgive and a console does not (a lookup table off a 32-byte boundary is read
//! from the boundary below it, an unknown command or a reserved bit set draws garbage or
//! stops the VDP1, a link or an address outside VRAM wraps). The tests run it on every list
//! the renderer commits, on the host and, read back from VDP1 VRAM, on the Saturn; a game
//! may run it on its own lists while it develops.

use core::fmt;

use super::command::{ZoomPoint, CTRL_END};
use super::vram::VRAM_SIZE;

/// A rule of the VDP1 manual that a command breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// `CMDCTRL` bits 3-0 name no command (0-2 sprites, 4-6 polygon and lines, 8-10
    /// clipping and coordinates).
    UnknownCommand,
    /// A bit the manual reserves (to be 0) is set in this field.
    ReservedBits(&'static str),
    /// A jump's `CMDLINK` is not a command table's address (a multiple of 32 bytes).
    LinkOffTable,
    /// `CMDPMOD` bits 5-3 name no colour mode (0-5).
    UnknownColorMode,
    /// A 16-colour lookup table off a 32-byte boundary (`CMDCOLR` bits 1-0 set).
    LookupTableOffBoundary,
    /// A sprite of no width or no height.
    EmptySprite,
    /// A texture (or its lookup table) that runs past the end of VRAM.
    TextureOutsideVram,
    /// A scaled sprite's zoom point (`CMDCTRL` bits 11-8) is none the manual allows (0,
    /// 5-7, 9-11, 13-15).
    UnknownZoomPoint,
    /// A vertex coordinate outside the VDP1's 13-bit signed range.
    VertexOutOfRange,
    /// The list never reaches an end command (it runs in a circle or off VRAM).
    NoEnd,
}

/// Where a list breaks a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleBreak {
    /// The VRAM byte address of the command.
    pub command: u32,
    /// The rule.
    pub rule: Rule,
}

impl fmt::Display for RuleBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the VDP1 command at {:#07x} ", self.command)?;
        match self.rule {
            Rule::UnknownCommand => write!(f, "names no command"),
            Rule::ReservedBits(field) => write!(f, "sets reserved bits of {field}"),
            Rule::LinkOffTable => write!(f, "links to an address that is not a table's"),
            Rule::UnknownColorMode => write!(f, "names no colour mode"),
            Rule::LookupTableOffBoundary => {
                write!(f, "has its lookup table off a 32-byte boundary")
            }
            Rule::EmptySprite => write!(f, "is a sprite of no width or height"),
            Rule::TextureOutsideVram => write!(f, "reads a texture past the end of VRAM"),
            Rule::UnknownZoomPoint => write!(f, "is a scaled sprite of no zoom point"),
            Rule::VertexOutOfRange => write!(f, "has a vertex outside -4096..4095"),
            Rule::NoEnd => write!(f, "starts a list that never ends"),
        }
    }
}

impl core::error::Error for RuleBreak {}

/// `CMDCTRL`'s jump modes (bits 13-12; bit 14 skips the command).
const JUMP_ASSIGN: u16 = 1;
const JUMP_CALL: u16 = 2;
const JUMP_RETURN: u16 = 3;
/// `CMDCTRL` bits 11-8 of any command but a scaled sprite (its zoom point), bits 7-6,
/// `CMDPMOD` bits 14-13 and `CMDSIZE` bits 15-14: reserved.
const ZOOM_POINT_BITS: u16 = 0x0F00;
/// The command code of a scaled sprite.
const SCALED_SPRITE: u16 = 1;
const CTRL_RESERVED: u16 = 0x00C0;
const PMOD_RESERVED: u16 = 0x6000;
const SIZE_RESERVED: u16 = 0xC000;
/// Colour mode 1: 16 colours through a lookup table.
const COLOR_MODE_LUT: u16 = 1;
const LUT_BYTES: u32 = 32;
/// More commands than VRAM holds: the list runs in a circle.
const MAX_COMMANDS: u32 = VRAM_SIZE / 32 + 1;

/// Checks the list the VDP1 would draw from `start` (a VRAM byte address), following its
/// jumps as the VDP1 does, reading VRAM's 16-bit words through `word` (a byte address,
/// even). Returns the number of commands read, the end included.
pub fn check_list(word: impl Fn(u32) -> u16, start: u32) -> Result<u32, RuleBreak> {
    let mut address = start;
    let mut return_to = None;
    for count in 1..=MAX_COMMANDS {
        let at = address;
        let table = |offset: u32| word(at + offset);
        let ctrl = table(0);
        if ctrl & CTRL_END != 0 {
            return Ok(count);
        }
        let broken = |rule| RuleBreak { command: at, rule };
        check_command(&table).map_err(broken)?;
        let link = u32::from(table(2)) * 8;
        let jumps = matches!((ctrl >> 12) & 3, JUMP_ASSIGN | JUMP_CALL);
        if jumps && !link.is_multiple_of(32) {
            return Err(broken(Rule::LinkOffTable));
        }
        address = next_command(ctrl, (at, link), &mut return_to);
        if address + 32 > VRAM_SIZE {
            return Err(broken(Rule::NoEnd));
        }
    }
    Err(RuleBreak {
        command: start,
        rule: Rule::NoEnd,
    })
}

/// Where the VDP1 goes after the command at `at` (its `CMDCTRL` and its link, a byte
/// address), by the command's jump mode (bits 13-12; bit 14 only skips the command):
/// next, assign (to the link), call (to the link, the next command kept in `return_to`:
/// one level) and return (to `return_to`, or the next command without a call).
pub fn next_command(ctrl: u16, (at, link): (u32, u32), return_to: &mut Option<u32>) -> u32 {
    let next = at + 32;
    match (ctrl >> 12) & 3 {
        JUMP_ASSIGN => link,
        JUMP_CALL => {
            *return_to = Some(next);
            link
        }
        JUMP_RETURN => return_to.take().unwrap_or(next),
        _ => next,
    }
}

/// One command's fields against the manual (`table` reads its words by byte offset).
fn check_command(table: &impl Fn(u32) -> u16) -> Result<(), Rule> {
    let ctrl = table(0);
    if ctrl & CTRL_RESERVED != 0 {
        return Err(Rule::ReservedBits("CMDCTRL"));
    }
    let command = ctrl & 0xF;
    if ctrl & (4 << 12) != 0 {
        // Skipped: the VDP1 reads only its jump.
        return Ok(());
    }
    let zoom_point = (ctrl & ZOOM_POINT_BITS) >> 8;
    if command != SCALED_SPRITE && zoom_point != 0 {
        return Err(Rule::ReservedBits("CMDCTRL"));
    }
    let vertices = match command {
        0..=2 => {
            check_sprite(table)?;
            if command == SCALED_SPRITE && !ZoomPoint::is_valid(zoom_point) {
                return Err(Rule::UnknownZoomPoint);
            }
            // A normal sprite is placed by vertex A; a scaled one by A and B (its zoom
            // point and size) or A to C (its corners, with no zoom point).
            match (command, zoom_point) {
                (0, _) => 1,
                (1, 0) => 3,
                (1, _) => 2,
                _ => 4,
            }
        }
        4 | 5 => {
            check_mode(table(4))?;
            4
        }
        6 => {
            check_mode(table(4))?;
            2
        }
        8..=10 => 0,
        _ => return Err(Rule::UnknownCommand),
    };
    check_vertices(table, vertices)?;
    Ok(())
}

fn check_mode(pmod: u16) -> Result<(), Rule> {
    if pmod & PMOD_RESERVED != 0 {
        return Err(Rule::ReservedBits("CMDPMOD"));
    }
    if (pmod >> 3) & 7 > 5 {
        return Err(Rule::UnknownColorMode);
    }
    Ok(())
}

/// A sprite's mode, size, texture and lookup table.
fn check_sprite(table: &impl Fn(u32) -> u16) -> Result<(), Rule> {
    let (pmod, colr, srca, size) = (table(4), table(6), table(8), table(10));
    check_mode(pmod)?;
    if size & SIZE_RESERVED != 0 {
        return Err(Rule::ReservedBits("CMDSIZE"));
    }
    let (width, height) = (u32::from(size >> 8) * 8, u32::from(size & 0xFF));
    if width == 0 || height == 0 {
        return Err(Rule::EmptySprite);
    }
    let color_mode = (pmod >> 3) & 7;
    // 4 bits a pixel in the 16-colour modes (0 and 1), 8 in the banks of 64 to 256, 16 in RGB.
    let bits = match color_mode {
        0 | 1 => 4,
        5 => 16,
        _ => 8,
    };
    if u32::from(srca) * 8 + width * height * bits / 8 > VRAM_SIZE {
        return Err(Rule::TextureOutsideVram);
    }
    if color_mode == COLOR_MODE_LUT {
        if colr & 3 != 0 {
            return Err(Rule::LookupTableOffBoundary);
        }
        if u32::from(colr) * 8 + LUT_BYTES > VRAM_SIZE {
            return Err(Rule::TextureOutsideVram);
        }
    }
    Ok(())
}

/// The first `count` vertices (A, B, ...): the coordinates the command uses.
fn check_vertices(table: &impl Fn(u32) -> u16, count: u32) -> Result<(), Rule> {
    let in_range = |offset: u32| (-4096..=4095).contains(&(table(offset) as i16));
    match (0..2 * count).all(|i| in_range(12 + 2 * i)) {
        true => Ok(()),
        false => Err(Rule::VertexOutOfRange),
    }
}
