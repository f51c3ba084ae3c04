//! `saturn-link`: the host side of the Sega Saturn USB dev cart, Anders Montonen's open
//! "usbcart" (an FTDI FT245 FIFO, USB id 0403:6001, firmware `cartrom/main.c`).
//!
//! The protocol, as the cart's firmware speaks it: the PC sends one command byte, then its
//! arguments as big-endian 32-bit values.
//!
//! | command | the PC sends | the cart answers |
//! |---|---|---|
//! | 0x01 download | address, length | `length` bytes, then their CRC-8 |
//! | 0x02 upload | address, length, the bytes, their CRC-8 | 0x00 (good) or 0x01 (bad CRC) |
//! | 0x03 execute | address | nothing: it calls the address |
//!
//! A program the cart started may then write text to the FIFO, which the PC shows (the
//! "console"); a test program ends with a line `N passed, N failed`.
//!
//! The modules, each the only owner of its concern:
//! - [`crc`]: the CRC-8 both sides compute;
//! - [`address`]: addresses, lengths and the work RAM each command may touch, checked
//!   before anything is sent;
//! - [`protocol`]: the command frames, the cart's answers and [`protocol::Cart`], which
//!   runs a command over a link;
//! - [`console`]: the program's text, split into lines, and its result line;
//! - [`transport`]: the links (USB through the FT245, a serial device or pseudo-terminal,
//!   TCP, an in-memory script) behind one trait, and [`transport::DeviceSpec`], the
//!   `--device` argument;
//! - [`sim`]: a simulated cart that answers as the firmware does, for tests and scripts;
//! - [`error`]: the one-line errors the binaries print;
//! - [`cli`]: the binaries' argument reading and its exit status.
//!
//! The binaries `saturn-link` and `saturn-cart-sim` only read their arguments and call
//! these modules.

pub mod address;
pub mod cli;
pub mod console;
pub mod crc;
pub mod error;
pub mod protocol;
pub mod sim;
pub mod transport;

pub use address::Address;
pub use error::Error;
