//! The cart's FTDI FT245 on USB (id 0403:6001), driven from user space with the pure-Rust
//! `nusb` crate (usbfs on Linux).
//!
//! Why `nusb` and not libftdi1: it needs no system library, no `pkg-config` and no C
//! bindings, so the crate builds on a fresh Debian machine with what `ci/setup.sh host`
//! already installs, and in CI with no USB at all; and the cart needs only three of FTDI's
//! vendor requests and two bulk endpoints, written out below. libftdi1 (`libftdi1-dev`,
//! what the cart's own `ftx` uses) would add a system package and a `-sys` crate for that.
//!
//! What the chip needs (FTDI's vendor requests on the control endpoint, `wIndex` 1 for the
//! chip's only channel, as libftdi numbers it):
//! - request 0x00 "reset", values 1 and 2 purge the chip's two buffers;
//! - request 0x0B "bit mode", value 0: the ordinary FIFO mode;
//! - request 0x09 "latency timer", in ms: how long the chip holds a short answer before it
//!   sends it (16 ms by default; 2 ms here, since every command waits for a byte or two).
//!
//! Data goes out on bulk endpoint 0x02 and comes in on 0x81. Every IN packet (64 bytes at
//! full speed) starts with two modem-status bytes, which [`strip_status`] drops; the chip
//! sends a status-only packet each latency period when it has nothing.
//!
//! On Linux the kernel's `ftdi_sio` driver holds the chip as `/dev/ttyUSB0`: opening it
//! here detaches that driver (the device comes back when the cart is plugged in again).
//! The user needs write access to the USB device (root, or a udev rule for 0403:6001).
//! No cart has been tried with this code: it follows FTDI's and libftdi's documented
//! requests; the tests cover [`strip_status`], not the USB calls.

use std::collections::VecDeque;
use std::io;
use std::time::{Duration, Instant};

use nusb::transfer::{Buffer, Bulk, ControlOut, ControlType, In, Out, Recipient, TransferError};
use nusb::{Endpoint, Interface, MaybeFuture};

use super::Link;

/// FTDI's vendor id.
pub const VENDOR_ID: u16 = 0x0403;
/// The FT245R's (and FT232R's) product id.
pub const PRODUCT_ID: u16 = 0x6001;

const INTERFACE: u8 = 0;
const ENDPOINT_IN: u8 = 0x81;
const ENDPOINT_OUT: u8 = 0x02;
/// The modem-status bytes at the start of each IN packet.
const STATUS_BYTES: usize = 2;

const REQUEST_RESET: u8 = 0x00;
const RESET_PURGE_RX: u16 = 1;
const RESET_PURGE_TX: u16 = 2;
const REQUEST_SET_LATENCY_TIMER: u8 = 0x09;
const LATENCY_MS: u16 = 2;
const REQUEST_SET_BIT_MODE: u8 = 0x0B;
const BIT_MODE_RESET: u16 = 0;
/// `wIndex` of the chip's only channel.
const CHANNEL: u16 = 1;
const CONTROL_TIMEOUT: Duration = Duration::from_secs(1);

/// One IN transfer: a multiple of the packet size.
const READ_SIZE: usize = 4096;
/// One OUT transfer.
const WRITE_SIZE: usize = 4096;

/// An open FT245.
pub struct Ft245 {
    interface: Interface,
    input: Endpoint<Bulk, In>,
    output: Endpoint<Bulk, Out>,
    /// Received data not yet handed out (status bytes already dropped).
    received: VecDeque<u8>,
}

impl Ft245 {
    /// Opens the first device with id 0403:6001, claims it and sets it up. The error says
    /// why, for [`crate::Error::Open`].
    pub fn open_first() -> Result<Ft245, String> {
        let info = nusb::list_devices()
            .wait()
            .map_err(|e| format!("no cart on USB (cannot list USB devices: {e})"))?
            .find(|d| d.vendor_id() == VENDOR_ID && d.product_id() == PRODUCT_ID)
            .ok_or_else(|| {
                format!(
                    "no cart on USB (no device {VENDOR_ID:04x}:{PRODUCT_ID:04x}; \
                     expected the cart plugged in, or --device PATH or tcp:HOST:PORT)"
                )
            })?;
        let device = info.open().wait().map_err(|e| {
            format!(
                "USB device {VENDOR_ID:04x}:{PRODUCT_ID:04x}: {e} \
                 (expected write access to it: root, or a udev rule)"
            )
        })?;
        let interface = device
            .detach_and_claim_interface(INTERFACE)
            .wait()
            .map_err(|e| format!("cannot claim the FT245's interface: {e}"))?;
        let input = interface
            .endpoint::<Bulk, In>(ENDPOINT_IN)
            .map_err(|e| format!("no bulk IN endpoint {ENDPOINT_IN:#04x}: {e}"))?;
        let output = interface
            .endpoint::<Bulk, Out>(ENDPOINT_OUT)
            .map_err(|e| format!("no bulk OUT endpoint {ENDPOINT_OUT:#04x}: {e}"))?;
        let ft245 = Ft245 {
            interface,
            input,
            output,
            received: VecDeque::new(),
        };
        ft245
            .set_up()
            .map_err(|e| format!("cannot set up the FT245: {e}"))?;
        Ok(ft245)
    }

    /// FIFO mode and a short latency. The buffers are not purged here: `console` shows
    /// what the program sent before it was started; uploads and downloads purge first
    /// ([`Link::discard_input`]).
    fn set_up(&self) -> io::Result<()> {
        self.vendor_request(REQUEST_SET_BIT_MODE, BIT_MODE_RESET)?;
        self.vendor_request(REQUEST_SET_LATENCY_TIMER, LATENCY_MS)
    }

    fn purge(&self) -> io::Result<()> {
        self.vendor_request(REQUEST_RESET, RESET_PURGE_RX)?;
        self.vendor_request(REQUEST_RESET, RESET_PURGE_TX)
    }

    fn vendor_request(&self, request: u8, value: u16) -> io::Result<()> {
        let setup = ControlOut {
            control_type: ControlType::Vendor,
            recipient: Recipient::Device,
            request,
            value,
            index: CHANNEL,
            data: &[],
        };
        Ok(self.interface.control_out(setup, CONTROL_TIMEOUT).wait()?)
    }

    /// Waits up to `timeout` for IN packets with data, dropping status-only ones.
    fn fill(&mut self, timeout: Duration) -> io::Result<()> {
        let deadline = Instant::now() + timeout;
        let packet_size = self.input.max_packet_size();
        while self.received.is_empty() {
            if self.input.pending() == 0 {
                self.input.submit(Buffer::new(READ_SIZE));
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            let Some(completion) = self.input.wait_next_complete(remaining) else {
                // The transfer stays queued for the next call.
                return Ok(());
            };
            completion.status.map_err(transfer_error)?;
            let data = &completion.buffer[..completion.actual_len.min(completion.buffer.len())];
            self.received.extend(strip_status(data, packet_size));
            if Instant::now() >= deadline {
                break;
            }
        }
        Ok(())
    }
}

/// The data bytes of an IN transfer: each `packet_size` piece starts with the chip's two
/// status bytes.
pub fn strip_status(transfer: &[u8], packet_size: usize) -> impl Iterator<Item = u8> + '_ {
    transfer
        .chunks(packet_size.max(STATUS_BYTES + 1))
        .flat_map(|packet| packet.get(STATUS_BYTES..).unwrap_or_default())
        .copied()
}

fn transfer_error(error: TransferError) -> io::Error {
    match error {
        TransferError::Cancelled => {
            io::Error::new(io::ErrorKind::TimedOut, "the USB transfer timed out")
        }
        TransferError::Disconnected => {
            io::Error::new(io::ErrorKind::NotConnected, "the cart was unplugged")
        }
        other => other.into(),
    }
}

impl Link for Ft245 {
    fn send(&mut self, bytes: &[u8], timeout: Duration) -> io::Result<()> {
        for piece in bytes.chunks(WRITE_SIZE) {
            let completion = self
                .output
                .transfer_blocking(Buffer::from(piece.to_vec()), timeout);
            completion.status.map_err(transfer_error)?;
            if completion.actual_len != piece.len() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the cart took part of the data",
                ));
            }
        }
        Ok(())
    }

    fn receive(&mut self, buf: &mut [u8], timeout: Duration) -> io::Result<usize> {
        if self.received.is_empty() {
            self.fill(timeout)?;
        }
        let n = buf.len().min(self.received.len());
        for (slot, byte) in buf.iter_mut().zip(self.received.drain(..n)) {
            *slot = byte;
        }
        Ok(n)
    }

    fn discard_input(&mut self) -> io::Result<()> {
        self.received.clear();
        if self.input.pending() > 0 {
            self.input.cancel_all();
            while self.input.pending() > 0 {
                if self.input.wait_next_complete(CONTROL_TIMEOUT).is_none() {
                    break;
                }
            }
        }
        self.purge()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_bytes_are_dropped_from_every_packet() {
        let mut transfer = vec![0x31, 0x60];
        transfer.extend(0..62u8);
        transfer.extend([0x31, 0x60, 100, 101]);
        let data: Vec<u8> = strip_status(&transfer, 64).collect();
        let mut expected: Vec<u8> = (0..62).collect();
        expected.extend([100, 101]);
        assert_eq!(data, expected);
        assert_eq!(strip_status(&[0x31, 0x60], 64).count(), 0);
        assert_eq!(strip_status(&[0x31], 64).count(), 0);
        assert_eq!(strip_status(&[], 64).count(), 0);
    }
}
