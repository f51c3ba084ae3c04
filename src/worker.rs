//! A second processor that takes a share of the renderer's work: the trait the renderer
//! calls and the hardware implements (the slave SH-2, `hw::slave`), so that neither
//! depends on the other. Re-exported from [`render`](crate::render).

/// A second processor that takes a share of [`draw`](crate::render::draw())'s work.
pub trait Worker {
    /// Runs `there` on the other processor while running `here` on this one, and returns
    /// when both are done, with what the other wrote visible to this one.
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send));
}

/// A [`Worker`] that is this CPU: `there`, then `here` (for tests, or where the second CPU
/// is busy with something else).
pub struct InOrder;

impl Worker for InOrder {
    fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send)) {
        there();
        here();
    }
}
