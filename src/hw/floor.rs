//! The floor on the Saturn: the rotating background RBG0 as an endless textured floor and
//! the back screen as the sky, both following the renderer's camera (the maths:
//! [`crate::vdp2::floor`]; the picture: [`crate::vdp2::tiles`], made by `jomc plane`).
//!
//! `FloorPlane::init` (SH-2 builds, after `hw::init_display` and `TextLayer::init` if the
//! game shows text: the text layer sets `RAMCTL` from what it reads, which Yabause reads
//! as 0) loads the picture and sets RBG0 up; then `FloorPlane::follow` each frame, with
//! the frame's camera after `Frame::finish`, writes a free buffer's tables and enters
//! them with the field the frame's polygons show from (the moment of the commit,
//! `hw::vdp1::last_flip`); the VBlank-IN interrupt
//! ([`crate::hw::vblank`]) switches the VDP2 to them for that field. An example:
//! the demo with its `floor` feature (`demo/src/main.rs`), and `docs/vdp2.md`.
//!
//! # What it owns
//!
//! - **VDP2 VRAM** (byte offsets, [`layout`]): bank A1 whole (the cells), bank B0's first
//!   16 KiB (the page of pattern names), bank B1's first 4 KiB (the four coefficient
//!   tables), bank A0 from 0x1A000 to 0x1B380 (the sky's four tables and the four rotation
//!   parameter tables), below the text layer's 0x1C000.
//! - **Colour RAM** bytes 0x400 to 0x5FF (the palette), below the text layer's 0x600.
//! - **The registers of RBG0**: `RAMCTL`'s banks (A and B each split in two; A1 RBG0's
//!   characters, B0 its pattern names, B1 its coefficients), the cycle patterns (the text
//!   layer's: CPU access wherever NBG0 does not read), `CHCTLB`, `PNCR`, `MPOFR`, `MPABRA`
//!   to `MPOPRA`, `RPMD`, `RPRCTL`, `KTCTL`, `KTAOF`, `OVPNRA`, `RPTAU`, `RPTAL` (at each
//!   VBlank-IN, by the interrupt [`crate::hw::vblank`] runs),
//!   `CRAOFB`, `PRIR` (RBG0 at priority 1, behind the sprites and the text), `BGON`'s
//!   RBG0 bits (`vdp2::show_layers`), and the back screen's table (`BKTAU`, `BKTAL`: one
//!   colour a line, the sky) while the floor is shown. `PLSZ` (0: one-page planes that
//!   repeat) is the text layer's value too.
//!
//! The logic (the tables, the register values, the picture's place in VRAM) is plain Rust
//! tested on the host (which buffer shows in which field: `vdp2::floor::FieldFloors`);
//! only `FloorPlane`'s methods and its interrupt's function touch the hardware.

use crate::vdp2::layout;

/// The register values `FloorPlane::init` writes (SH-2 builds), as plain constants that
/// the host tests check.
#[cfg_attr(not(jom_sh2), allow(dead_code))]
pub(crate) mod registers {
    use super::layout;
    use crate::vdp2::floor::Buffer;

    /// `BGON`: RBG0 shown (`R0ON`, bit 4), its dot 0 a colour, not transparent (`R0TPON`,
    /// bit 12): only the coefficients' top bit makes it transparent (the sky).
    pub const BGON_FLOOR: u16 = 1 << 4 | 1 << 12;
    /// `RAMCTL`'s VRAM bits: banks A and B each split in two (`VRAMD`, bit 8; `VRBMD`,
    /// bit 9), and each bank's use by RBG0 (`RDBS`, two bits a bank from A0 in bits 1-0:
    /// 0 none, 1 coefficients, 2 pattern names, 3 characters): A0 none (the text layer's
    /// NBG0 and the tables), A1 characters, B0 pattern names, B1 coefficients.
    pub const RAMCTL_BANKS: u16 = 1 << 9 | 1 << 8 | 1 << 6 | 2 << 4 | 3 << 2;
    /// `RAMCTL` from the value found: the colour RAM mode as the text layer keeps it
    /// (RGB555), the banks as above, no coefficients in colour RAM (`CRKTE`, bit 15).
    pub const fn ramctl(found: u16) -> u16 {
        crate::hw::text::ramctl(found) & 0x3000 | RAMCTL_BANKS
    }
    /// `CHCTLB`: RBG0 in cells (`R0BMEN`, bit 9, clear) of 1 x 1 (`R0CHSZ`, bit 8) and
    /// 256 colours (`R0CHCN`, bits 14-12, 1); NBG2 and NBG3 0.
    pub const CHCTLB: u16 = 1 << 12;
    /// `PNCR`: two-word pattern names (`R0PNB`, bit 15, clear): 15-bit character numbers.
    pub const PNCR: u16 = 0;
    /// The page's map number: its VRAM offset / 16 KiB for two-word names of 1 x 1 cells in
    /// one-page planes (Mednafen's `adj_map_regs`: the number shifted by 13 words).
    const MAP: u16 = (layout::PAGE / layout::PAGE_BYTES) as u16;
    /// `MPOFR`: the map number's bits 8-6 for parameter A (bits 2-0).
    pub const MPOFR: u16 = MAP >> 6;
    /// `MPABRA` to `MPOPRA`: all 16 planes the page, so that the plane repeats every 512
    /// texels whatever the map's 2,048.
    pub const MPRA: u16 = (MAP & 0x3F) << 8 | (MAP & 0x3F);
    /// `RPMD`: rotation parameter A alone.
    pub const RPMD: u16 = 0;
    /// `RPRCTL`: Xst, Yst and KAst of A read again from the table at each frame's start
    /// (bits 0-2).
    pub const RPRCTL: u16 = 0x0007;
    /// `KTCTL`: A's coefficient table on (`RAKTE`, bit 0), two-word coefficients (`RAKDBS`,
    /// bit 1, clear), mode 0 (bits 3-2: the coefficient is kx and ky), no line colour
    /// (bit 4).
    pub const KTCTL: u16 = 1;
    /// `KTAOF`: the coefficient tables' address bits above `KAst` (both buffers').
    pub const KTAOF: u16 = Buffer(0).coefficient_start().1;
    /// `RPTAU`: the upper address bits of the tables (in words; both buffers').
    pub const RPTAU: u16 = ((layout::TABLES[0] / 2) >> 16) as u16;
    /// `RPTAL` of `buffer`'s table.
    pub const fn rptal(buffer: Buffer) -> u16 {
        (layout::TABLES[buffer.0 % layout::BUFFERS] / 2) as u16
    }
    /// `BKTAU`: one colour a line (`BKCLMD`, bit 15), the upper address bits of the sky's
    /// tables (in words).
    pub const BKTAU: u16 = 1 << 15 | ((layout::SKY[0] / 2) >> 16) as u16;
    /// `BKTAL` of `buffer`'s sky.
    pub const fn bktal(buffer: Buffer) -> u16 {
        (layout::SKY[buffer.0 % layout::BUFFERS] / 2) as u16
    }
    /// `CRAOFB`: RBG0's colour RAM offset (bits 2-0, steps of 0x200 bytes); the sprites'
    /// 0.
    pub const CRAOFB: u16 = (layout::PALETTE / 0x200) as u16;
    /// `PRIR`: RBG0 at priority 1 (bits 2-0), behind the sprites (6 or 7) and the text (7).
    pub const PRIR: u16 = 1;

    const _: () = {
        let mut b = 1;
        while b < layout::BUFFERS {
            assert!(Buffer(0).coefficient_start().1 == Buffer(b).coefficient_start().1);
            b += 1;
        }
    };
    // The map number in MPOFR's 3 bits and a map register's 6; the offset in KTAOF's 3.
    const _: () = assert!(MAP < 1 << 9 && KTAOF < 1 << 3);
}

#[cfg(jom_sh2)]
pub use saturn::FloorPlane;

#[cfg(jom_sh2)]
mod saturn {
    use super::registers::*;
    use crate::hw::address;
    use crate::hw::text::CYCLE_PATTERNS;
    use crate::hw::vdp2::{show_layers, vdp2};
    use crate::render::Camera;
    use crate::vdp2::floor::{Buffer, FieldFloor, FieldFloors, Floor, FloorError, FloorFrame};
    use crate::vdp2::{FloorTiles, Vdp2Memory};
    use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

    /// VDP2 VRAM and colour RAM, written by the CPU (16-bit writes).
    struct Vdp2Ram;

    impl Vdp2Memory for Vdp2Ram {
        fn write_vram(&mut self, offset: u32, word: u16) {
            // SAFETY: the floor's part of VDP2 VRAM (`layout`), which it owns.
            unsafe { write_volatile((address::VDP2_VRAM + offset as usize) as *mut u16, word) }
        }

        fn write_cram(&mut self, offset: u32, word: u16) {
            // SAFETY: the floor's part of colour RAM, which it owns.
            unsafe { write_volatile((address::VDP2_CRAM + offset as usize) as *mut u16, word) }
        }
    }

    /// Which floor is due in which field: the entries written by `follow` (one word
    /// each), `fields` and `shown` by the VBlank-IN interrupt only.
    static mut FIELD_FLOORS: FieldFloors = FieldFloors::new(Buffer(0));

    fn field_floors() -> FieldFloors {
        // SAFETY: words the interrupt and `follow` each write whole (see `FIELD_FLOORS`).
        unsafe { read_volatile(addr_of!(FIELD_FLOORS)) }
    }

    /// At each VBlank-IN: one more field counted, and the floor due, if another, shown
    /// from the next field on.
    extern "C" fn switch_at_vblank_in() {
        let mut floors = field_floors();
        let switched = floors.vblank_in(crate::hw::vblank::fields());
        // SAFETY: `fields` and `shown` are written here only, a word each.
        unsafe { write_volatile(addr_of_mut!(FIELD_FLOORS.fields), floors.fields) };
        if let Some(buffer) = switched {
            show(buffer);
            // SAFETY: as above.
            unsafe { write_volatile(addr_of_mut!(FIELD_FLOORS.shown), buffer) };
        }
    }

    /// Points the VDP2 at `buffer`'s tables.
    fn show(buffer: Buffer) {
        // SAFETY: documented register values.
        unsafe {
            vdp2().rptal.write(rptal(buffer));
            vdp2().bktal.write(bktal(buffer));
        }
    }

    /// The floor and the sky on the VDP2, following a camera (see the module's
    /// documentation).
    pub struct FloorPlane {
        floor: Floor,
        frame: FloorFrame,
    }

    impl FloorPlane {
        /// Loads `tiles` and sets RBG0 up for `floor` (after `hw::init_display`, and after
        /// `TextLayer::init` when there is one), shown with no floor and the sky's horizon
        /// colour until the first [`follow`](Self::follow)'s list is shown. Enables the
        /// master's VBlank-IN interrupt ([`hw::vblank`](crate::hw::vblank)), which switches
        /// the floor.
        pub fn init(tiles: &FloorTiles<'_>, floor: Floor) -> Self {
            let vdp2 = vdp2();
            show_layers(BGON_FLOOR, false);
            // SAFETY (the writes below): documented register values.
            unsafe {
                vdp2.ramctl.write(ramctl(vdp2.ramctl.read()));
                for (register, pattern) in vdp2.cyc.iter().zip(CYCLE_PATTERNS) {
                    register.write(pattern);
                }
            }
            tiles.load(&mut Vdp2Ram);
            // Built in its place in the plane (a floor frame is 1.6 KiB: one more copy of
            // it on the stack would be over the engine's 4 KiB frame).
            let mut plane = Self {
                floor,
                frame: FloorFrame::default(),
            };
            plane.frame.sky.fill(floor.sky().horizon);
            plane.frame.write(Buffer(0), &mut Vdp2Ram);
            // SAFETY: as above.
            unsafe {
                vdp2.chctlb.write(CHCTLB);
                vdp2.pncr.write(PNCR);
                vdp2.mpofr.write(MPOFR);
                for register in &vdp2.mpra {
                    register.write(MPRA);
                }
                vdp2.rpmd.write(RPMD);
                vdp2.rprctl.write(RPRCTL);
                vdp2.ktctl.write(KTCTL);
                vdp2.ktaof.write(KTAOF);
                vdp2.ovpnr[0].write(0);
                vdp2.rptau.write(RPTAU);
                vdp2.bktau.write(BKTAU);
                vdp2.craofb.write(CRAOFB);
                vdp2.prir.write(PRIR);
            }
            show(Buffer(0));
            let mut floors = FieldFloors::new(Buffer(0));
            floors.fields = crate::hw::vblank::fields();
            // SAFETY: the handler is not enabled yet (or, from an earlier plane, is made
            // to read this new state whole: one call of `enable` masks it meanwhile).
            unsafe { write_volatile(addr_of_mut!(FIELD_FLOORS), floors) };
            crate::hw::vblank::enable(switch_at_vblank_in);
            show_layers(BGON_FLOOR, true);
            plane
        }

        /// Takes this frame's camera, after the frame's `Frame::finish` and before the next
        /// VBlank-IN: its floor and sky are written to a buffer neither on screen nor due,
        /// and entered with the field the frame's polygons show from (the moment the commit
        /// recorded, `hw::vdp1::last_flip`; `vdp2::floor::FieldFloors`), at whose start the
        /// VBlank-IN interrupt switches the VDP2 to them: the polygons and their floor show
        /// together, however many fields the game's frames take.
        pub fn follow(&mut self, camera: &Camera) -> Result<(), FloorError> {
            let due = crate::hw::vdp1::last_flip().shows_after();
            let buffer = field_floors().free_buffer();
            self.floor.frame_into(camera, buffer, &mut self.frame)?;
            self.frame.write(buffer, &mut Vdp2Ram);
            // Read again: fields counted while the floor was made age the entries, and
            // the one replaced is the older by then.
            let slot = field_floors().slot_for_new();
            // SAFETY: one word, which the interrupt reads whole.
            unsafe {
                write_volatile(
                    addr_of_mut!(FIELD_FLOORS.entries[slot]),
                    FieldFloor::new(due, buffer),
                )
            };
            Ok(())
        }

        /// Shows the floor and the sky or hides them (`BGON`'s RBG0 bits; the back screen
        /// keeps the sky).
        pub fn set_visible(&mut self, visible: bool) {
            show_layers(BGON_FLOOR, visible);
        }

        /// The frame last written (for a test or a picture check).
        pub fn frame(&self) -> &FloorFrame {
            &self.frame
        }
    }
}

#[cfg(test)]
mod tests;
