//! The SMPC's control pad reading: the INTBACK command returns the peripherals on the two
//! ports; a standard pad on port 1 gives its buttons. Register addresses, the INTBACK
//! protocol and the button bits are here; the wait on the SMPC is bounded.

/// The buttons of a standard Saturn pad, a set bit for a pressed button.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PadButtons(pub u16);

impl PadButtons {
    /// D-pad right.
    pub const RIGHT: u16 = 1 << 15;
    /// D-pad left.
    pub const LEFT: u16 = 1 << 14;
    /// D-pad down.
    pub const DOWN: u16 = 1 << 13;
    /// D-pad up.
    pub const UP: u16 = 1 << 12;
    /// Start.
    pub const START: u16 = 1 << 11;
    /// A.
    pub const A: u16 = 1 << 10;
    /// C.
    pub const C: u16 = 1 << 9;
    /// B.
    pub const B: u16 = 1 << 8;
    /// Right shoulder.
    pub const R: u16 = 1 << 7;
    /// X.
    pub const X: u16 = 1 << 6;
    /// Y.
    pub const Y: u16 = 1 << 5;
    /// Z.
    pub const Z: u16 = 1 << 4;
    /// Left shoulder.
    pub const L: u16 = 1 << 3;

    /// Whether every button of `mask` is pressed.
    pub const fn pressed(self, mask: u16) -> bool {
        self.0 & mask == mask
    }

    /// The buttons from the two data bytes INTBACK returns (a clear bit for a pressed
    /// button; the low 3 bits of the second byte are not buttons).
    pub const fn from_data(high: u8, low: u8) -> Self {
        Self(!((high as u16) << 8 | low as u16) & 0xFFF8)
    }
}

/// An SMPC register: a byte at an odd address (the even byte before it is unused).
#[repr(C)]
pub struct OddByte {
    _even: u8,
    /// The register.
    pub value: volatile_register::RW<u8>,
}

/// The SMPC's registers (at `0x20100000`).
#[repr(C)]
pub struct SmpcRegisters {
    /// Input registers 0 to 6: a command's parameters.
    pub ireg: [OddByte; 7],
    _reserved_0e: [OddByte; 8],
    /// The command register.
    pub comreg: OddByte,
    /// Output registers 0 to 31: a command's results.
    pub oreg: [OddByte; 32],
    /// Status register.
    pub sr: OddByte,
    /// Status flag: 1 while a command runs.
    pub sf: OddByte,
    _reserved_64: [OddByte; 8],
    /// Port 1 data (direct mode).
    pub pdr1: OddByte,
    /// Port 2 data.
    pub pdr2: OddByte,
    /// Port 1 direction.
    pub ddr1: OddByte,
    /// Port 2 direction.
    pub ddr2: OddByte,
    /// Port modes (SMPC control or direct).
    pub iosel: OddByte,
    /// External latch enable.
    pub exle: OddByte,
}

const _: () = assert!(core::mem::size_of::<OddByte>() == 2);
const _: () = assert!(core::mem::size_of::<SmpcRegisters>() == 0x80);
const _: () = assert!(core::mem::offset_of!(SmpcRegisters, comreg) == 0x1E);
const _: () = assert!(core::mem::offset_of!(SmpcRegisters, oreg) == 0x20);
const _: () = assert!(core::mem::offset_of!(SmpcRegisters, sr) == 0x60);
const _: () = assert!(core::mem::offset_of!(SmpcRegisters, sf) == 0x62);
const _: () = assert!(core::mem::offset_of!(SmpcRegisters, pdr1) == 0x74);
const _: () = assert!(core::mem::offset_of!(SmpcRegisters, exle) == 0x7E);

/// A port's status byte for a peripheral connected directly (no multitap).
pub const DIRECT_CONNECTION: u8 = 0xF1;
/// The ID byte of a standard digital pad (type 0, 2 bytes of data).
pub const DIGITAL_PAD: u8 = 0x02;

/// The SMPC command that starts the slave SH-2 from its reset vector (`SSHON`).
pub const SLAVE_ON: u8 = 0x02;
/// The SMPC command that holds the slave SH-2 in reset (`SSHOFF`).
pub const SLAVE_OFF: u8 = 0x03;

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::PadButtons;
    use crate::check_eq;

    crate::test_suite! {
        fn pad_data_bits_become_pressed_buttons() {
            // Nothing pressed: every data bit set.
            check_eq!(PadButtons::from_data(0xFF, 0xFF), PadButtons(0));
            // Right (bit 7 of the first byte) and L (bit 3 of the second) pressed; the
            // second byte's low 3 bits are not buttons.
            let buttons = PadButtons::from_data(0x7F, 0xF0);
            check_eq!(buttons.0, PadButtons::RIGHT | PadButtons::L);
            check_eq!(buttons.pressed(PadButtons::RIGHT), true);
            check_eq!(buttons.pressed(PadButtons::RIGHT | PadButtons::A), false);
            check_eq!(PadButtons::from_data(0xFB, 0xFF).pressed(PadButtons::A), true);
        }
    }
}

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

    use super::*;
    use crate::hw::slave::SlaveCpu;
    use crate::hw::vblank::{swap_sr, SR_MASKED};
    use crate::hw::{ScreenWidth, Timeout};

    const SMPC: usize = 0x2010_0000;
    const INTBACK: u8 = 0x10;
    /// IREG1: peripheral data enabled (bit 3), acquisition time optimised (bit 1).
    const PERIPHERAL_DATA: u8 = 0x0A;
    /// IREG0 after a batch: stop sending data.
    const BREAK: u8 = 0x40;
    /// SR bit 5: more peripheral data remains.
    const MORE_DATA: u8 = 0x20;
    /// About two frames of polls.
    const POLLS: u32 = 400_000;
    /// The clock changes (`CKCHG320`, `CKCHG352`).
    const CLOCK_320: u8 = 0x0F;
    const CLOCK_352: u8 = 0x0E;
    /// Polls of the NMI count for a clock change: some 20 frames (Mednafen's SMPC takes
    /// about four, waiting for VBlanks, before the NMI).
    const CLOCK_CHANGE_POLLS: u32 = 4_000_000;

    extern "C" {
        /// The vectors in place while the clock changes, and the NMIs they counted
        /// (`nmi.S`).
        static jom_clock_change_vectors: [u32; 12];
        static mut jom_clock_change_nmis: u32;
        /// VBR = `vbr`; gives the one before.
        fn jom_swap_vbr(vbr: u32) -> u32;
    }

    /// The SMPC's registers.
    pub fn smpc() -> &'static SmpcRegisters {
        // SAFETY: the block is at this address on every Saturn, for the whole program.
        unsafe { &*(SMPC as *const SmpcRegisters) }
    }

    fn write(register: &OddByte, value: u8) {
        // SAFETY: an SMPC register; the protocol below follows the SMPC's rules.
        unsafe { register.value.write(value) }
    }

    /// Output register `n` (0 to 31) of the last command.
    pub fn output(n: usize) -> u8 {
        smpc().oreg[n.min(31)].value.read()
    }

    fn wait_ready() -> Result<(), Timeout> {
        for _ in 0..POLLS {
            if smpc().sf.value.read() & 1 == 0 {
                return Ok(());
            }
        }
        Err(Timeout {
            waiting_for: "the SMPC",
        })
    }

    /// Asks the SMPC for the peripherals (INTBACK) and returns at once: the SMPC answers
    /// within about a frame, collected by [`finish_pad_read`], so that a game's frame is
    /// not spent waiting.
    pub fn start_pad_read() -> Result<(), Timeout> {
        wait_ready()?;
        let smpc = smpc();
        write(&smpc.sf, 1);
        write(&smpc.ireg[0], 0);
        write(&smpc.ireg[1], PERIPHERAL_DATA);
        write(&smpc.ireg[2], 0xF0);
        write(&smpc.comreg, INTBACK);
        Ok(())
    }

    /// Waits for the answer to [`start_pad_read`] and gives the buttons of the standard
    /// pad on port 1, or `None` when port 1 holds no standard pad.
    pub fn finish_pad_read() -> Result<Option<PadButtons>, Timeout> {
        wait_ready()?;
        let (status, id) = (output(0), output(1));
        let buttons = (status == DIRECT_CONNECTION && id == DIGITAL_PAD)
            .then(|| PadButtons::from_data(output(2), output(3)));
        if smpc().sr.value.read() & MORE_DATA != 0 {
            write(&smpc().ireg[0], BREAK);
        }
        Ok(buttons)
    }

    /// Runs an SMPC command that takes no parameters (such as [`SLAVE_ON`]) and waits
    /// for its end.
    pub fn command(command: u8) -> Result<(), Timeout> {
        issue(command)?;
        wait_ready()
    }

    /// Starts a command that takes no parameters, once the SMPC takes commands.
    fn issue(command: u8) -> Result<(), Timeout> {
        wait_ready()?;
        let smpc = smpc();
        write(&smpc.sf, 1);
        write(&smpc.comreg, command);
        Ok(())
    }

    /// Changes the system clock to `width`'s (SMPC `CKCHG352` or `CKCHG320`) and waits for
    /// the change's end. Taking the `SlaveCpu` proves the slave has not been started: the
    /// change stops it (and the sound CPU) and resets the VDP1, the VDP2 and the SCU, so it
    /// comes first, then [`init_display_at`](crate::hw::init_display_at) the same width,
    /// then everything else. It ends with an NMI to the master, which the vectors of the
    /// BIOS or of our boot ROM would not come back from: VBR points at vectors of our own
    /// for the time of the change (`nmi.S`).
    ///
    /// ```no_run
    /// # fn main(saturn: jom::hw::Saturn) {
    /// use jom::hw::{self, frt, ScreenWidth};
    /// let width = ScreenWidth::W352;
    /// let clock = hw::smpc::change_clock(width, &saturn.slave);
    /// hw::init_display_at(width, 0x8000);
    /// // The frame rate's clock once `clock` is Ok: 28.64 MHz on an NTSC console, 28.44 on
    /// // a PAL one.
    /// let hz = frt::cpu_clock(hw::video_standard(), width);
    /// # let _ = (clock, hz);
    /// # }
    /// ```
    pub fn change_clock(width: ScreenWidth, _not_started: &SlaveCpu) -> Result<(), Timeout> {
        let command = match width {
            ScreenWidth::W320 => CLOCK_320,
            ScreenWidth::W352 => CLOCK_352,
        };
        let nmis = addr_of_mut!(jom_clock_change_nmis);
        // SAFETY: the counter is the NMI handler's and this function's only, on the master;
        // VBR points at a table of 12 vectors (`nmi.S`) until it is put back below, and
        // only exceptions up to the NMI (vector 11) can come: every interrupt is masked
        // (an interrupt a game enabled, `hw::vblank`'s, too) until SR is put back.
        let (sr, before) = unsafe {
            write_volatile(nmis, 0);
            let sr = swap_sr(SR_MASKED);
            (sr, jom_swap_vbr(addr_of!(jom_clock_change_vectors) as u32))
        };
        // SAFETY: as above.
        let changed = issue(command)
            .map(|()| (0..CLOCK_CHANGE_POLLS).any(|_| unsafe { read_volatile(nmis) } != 0));
        // SAFETY: the VBR and SR the program had.
        unsafe {
            jom_swap_vbr(before);
            swap_sr(sr);
        }
        match changed? {
            true => wait_ready(),
            false => Err(Timeout {
                waiting_for: "the SMPC's clock change",
            }),
        }
    }

    /// [`start_pad_read`] then [`finish_pad_read`]: the pad's buttons now.
    pub fn read_pad() -> Result<Option<PadButtons>, Timeout> {
        start_pad_read()?;
        finish_pad_read()
    }
}
