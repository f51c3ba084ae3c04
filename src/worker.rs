//! A second processor that takes a share of the renderer's work: the trait the renderer
//! calls and the hardware implements (the slave SH-2, `hw::slave`), so that neither
//! depends on the other. Re-exported from [`render`](crate::render).

/// A second processor that takes a share of a frame's work (its transform, culling, sort
/// and emission: [`Renderer::new`](crate::render::Renderer::new),
/// [`ListFrame::with_worker`](crate::render::ListFrame::with_worker)).
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

/// What the second CPU's share of a job changes in place (counts it adds to), as it was
/// before the share first ran: if the master runs the share again from the start after the
/// second CPU's time-out ([`hw::slave`](crate::hw)), the share starts from it again, not
/// from what the partial run left.
pub(crate) struct Before<T> {
    value: core::mem::MaybeUninit<T>,
    kept: bool,
}

impl<T: Copy> Before<T> {
    /// Nothing kept yet.
    pub(crate) const fn new() -> Self {
        Self {
            value: core::mem::MaybeUninit::uninit(),
            kept: false,
        }
    }

    /// At the start of the share: keeps `state` (its first run) or gives it back (a run
    /// after a partial one).
    pub(crate) fn start(&mut self, state: &mut T) {
        use core::sync::atomic::{compiler_fence, Ordering};
        // Copied from place to place: an assignment of a value went through the stack (its
        // KiB of counts twice, on the SH-2).
        if self.kept {
            // SAFETY: `kept` is set only once `value` is written whole (the fences keep
            // the stores in that order, and the share's changes after them); `T: Copy`.
            unsafe { core::ptr::copy_nonoverlapping(self.value.as_ptr(), state, 1) };
            return;
        }
        // SAFETY: `T: Copy`; `value` is this one's own memory.
        unsafe { core::ptr::copy_nonoverlapping(state, self.value.as_mut_ptr(), 1) };
        compiler_fence(Ordering::SeqCst);
        self.kept = true;
        compiler_fence(Ordering::SeqCst);
    }
}
