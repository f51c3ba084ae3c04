//! Text to a PC through the USB dev cart (Anders Montonen's open "usbcart": an FTDI FT245
//! FIFO on the cartridge port), which its host tools (`saturn-link console`, `ftx`) print:
//! a game's debug output and the test program's report on a console.
//!
//! The FT245's data FIFO is the byte at 0x22100001 and its status the byte at 0x22200001:
//! bit 1 (TXE) is 0 when the FIFO takes a byte, bit 7 (PWREN) is 0 once a PC has
//! configured the chip over USB. A program cannot wait on these without a bound: with no
//! cart the slot reads whatever the bus holds, and with a cart but no PC reading, the FIFO
//! fills and TXE stays 1. So [`UsbCart::find`] takes the cart only when PWREN says a PC is
//! there, every byte waits at most [`MAX_POLLS`] reads of the status, and the first wait
//! that runs out ends the output for good: later writes return at once.

use core::fmt;

/// How many times a byte waits on TXE before the output is given up: some 30 ms on the
/// master SH-2 (an A-bus read takes about 10 cycles at 28.6 MHz), longer than the FT245
/// takes to hand its FIFO to a PC that reads (its latency timer is 16 ms at most).
pub const MAX_POLLS: u32 = 100_000;

/// TXE: 0 when the FIFO takes a byte.
const TXE: u8 = 1 << 1;
/// PWREN: 0 once a PC has configured the cart.
const PWREN: u8 = 1 << 7;

/// The cart's two registers, behind a trait so that the logic is tested on the host with
/// a simulated FT245.
pub trait CartPort {
    /// Reads the status byte.
    fn status(&mut self) -> u8;
    /// Writes a byte to the FIFO.
    fn write(&mut self, byte: u8);
}

/// The USB dev cart, as a text output ([`fmt::Write`]).
pub struct UsbCart<P: CartPort> {
    port: P,
    /// A byte's wait ran out: nothing more is sent.
    gone: bool,
}

impl<P: CartPort> UsbCart<P> {
    /// The cart on `port`, if a PC has configured it (PWREN 0).
    pub fn find(mut port: P) -> Option<Self> {
        (port.status() & PWREN == 0).then_some(Self { port, gone: false })
    }

    /// Sends `bytes`, each once the FIFO takes it; after a wait that ran out, nothing.
    pub fn send(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.gone || !self.wait_for_room() {
                self.gone = true;
                return;
            }
            self.port.write(byte);
        }
    }

    /// Whether a byte's wait ran out (the PC stopped reading, or left).
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Waits until the FIFO takes a byte, at most [`MAX_POLLS`] status reads.
    fn wait_for_room(&mut self) -> bool {
        (0..MAX_POLLS).any(|_| self.port.status() & TXE == 0)
    }
}

impl<P: CartPort> fmt::Write for UsbCart<P> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.send(text.as_bytes());
        Ok(())
    }
}

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::CartPort;

    /// The FT245's data FIFO (cache-through A-bus CS0).
    const FIFO: usize = 0x2210_0001;
    /// Its status byte.
    const STATUS: usize = 0x2220_0001;

    /// The cartridge port's FT245.
    pub struct SaturnCartPort;

    impl CartPort for SaturnCartPort {
        fn status(&mut self) -> u8 {
            // SAFETY: a byte read of the cartridge area, harmless with any cart or none.
            unsafe { core::ptr::read_volatile(STATUS as *const u8) }
        }

        fn write(&mut self, byte: u8) {
            // SAFETY: a byte write to the FT245's FIFO, only once its status said a PC is
            // there (`UsbCart::find`).
            unsafe { core::ptr::write_volatile(FIFO as *mut u8, byte) }
        }
    }
}

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests {
    use super::*;
    use crate::{check, check_eq};

    /// An FT245 as the program sees it: configured or not, taking `room` bytes before its
    /// FIFO is full (a PC that stopped reading), counting status reads.
    struct Ft245 {
        configured: bool,
        room: usize,
        sent: heapless::Vec<u8, 64>,
        polls: u32,
    }

    impl CartPort for &mut Ft245 {
        fn status(&mut self) -> u8 {
            self.polls += 1;
            let pwren = if self.configured { 0 } else { PWREN };
            let txe = if self.sent.len() < self.room { 0 } else { TXE };
            pwren | txe
        }

        fn write(&mut self, byte: u8) {
            let _ = self.sent.push(byte);
        }
    }

    fn ft245(configured: bool, room: usize) -> Ft245 {
        Ft245 {
            configured,
            room,
            sent: heapless::Vec::new(),
            polls: 0,
        }
    }

    crate::test_suite! {
        fn a_cart_no_pc_has_configured_is_not_taken() {
            let mut chip = ft245(false, 64);
            check!(UsbCart::find(&mut chip).is_none());
            check_eq!(chip.polls, 1);
        }

        fn a_cart_with_a_pc_gets_every_byte_in_order() {
            let mut chip = ft245(true, 64);
            let Some(mut cart) = UsbCart::find(&mut chip) else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("not found")));
            };
            cart.send(b"3 passed, 0 failed\n");
            check!(!cart.is_gone());
            check_eq!(chip.sent.as_slice(), b"3 passed, 0 failed\n".as_slice());
        }

        fn a_full_fifo_ends_the_output_after_one_bounded_wait() {
            let mut chip = ft245(true, 4);
            let Some(mut cart) = UsbCart::find(&mut chip) else {
                return Err(crate::selftest::Failure::new(file!(), line!(), format_args!("not found")));
            };
            cart.send(b"abcdef");
            check!(cart.is_gone());
            cart.send(b"more text, never waited for");
            // The find's read, one a byte taken, then one wait that ran out.
            check_eq!(chip.polls, 1 + 4 + MAX_POLLS);
            check_eq!(chip.sent.as_slice(), b"abcd".as_slice());
        }
    }
}
