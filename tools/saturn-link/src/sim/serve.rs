//! Runs a [`SimCart`] on a link until the PC closes it, the program has been relayed (when
//! asked), or the caller says stop.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::SimCart;
use crate::transport::{is_closed, Link};

/// How often the loop looks at its stop flag.
const LOOK_INTERVAL: Duration = Duration::from_millis(20);
/// How long the PC may take nothing before an answer is given up.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// When [`serve`] returns besides the PC closing the link.
#[derive(Clone, Copy, Debug, Default)]
pub struct Serving<'a> {
    /// Right after the program's text has been sent.
    pub exit_after_relay: bool,
    /// As soon as this is set (a test's thread).
    pub stop: Option<&'a AtomicBool>,
}

/// Why [`serve`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The PC closed the link (or took none of an answer for 10 s).
    Closed,
    /// The program's text was sent, with `exit_after_relay`.
    Relayed,
    /// The stop flag was set.
    Stopped,
}

/// Answers the PC on `link` as `cart` does.
pub fn serve(link: &mut dyn Link, cart: &mut SimCart, serving: Serving<'_>) -> io::Result<Ending> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut out = Vec::new();
    loop {
        if serving
            .stop
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Ok(Ending::Stopped);
        }
        let n = match link.receive(&mut buf, LOOK_INTERVAL) {
            Ok(n) => n,
            Err(e) if is_closed(&e) => return Ok(Ending::Closed),
            Err(e) => return Err(e),
        };
        out.clear();
        cart.feed(&buf[..n], &mut out);
        if !out.is_empty() {
            match link.send(&out, SEND_TIMEOUT) {
                Ok(()) => {}
                Err(e) if is_closed(&e) || e.kind() == io::ErrorKind::TimedOut => {
                    return Ok(Ending::Closed)
                }
                Err(e) => return Err(e),
            }
        }
        if serving.exit_after_relay && cart.relayed() {
            return Ok(Ending::Relayed);
        }
    }
}
