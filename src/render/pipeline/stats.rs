//! What a frame did, whichever front door drew it.

use crate::render::shared::PhaseTimes;

/// What a frame did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameStats {
    /// Polygons emitted.
    pub drawn: usize,
    /// Command tables emitted for them (more than `drawn` when some are drawn in parts)
    /// and for the billboards (one each).
    pub commands: usize,
    /// Polygons culled (behind, too far, back facing, off screen), those of the models
    /// dropped whole (a rigid draw wholly outside the view) with them.
    pub culled: usize,
    /// Visible polygons and billboards left out because the command list or the frame's
    /// gouraud tables were full: the first the VDP1 would have drawn (the ground draws',
    /// then the farthest of the frame), whichever models they are of; the billboards have
    /// the room first, the polygons what they leave.
    pub dropped: usize,
    /// Whether the frame's gouraud tables were what ran out: the nearest polygon left out
    /// had room in the command list, not in them (a list whose gouraud tables are never
    /// emptied loses every lit polygon: the C interface reports it as an error).
    pub gouraud_full: bool,
    /// Billboards emitted ([`Frame::draw_billboard`](crate::render::Frame::draw_billboard)),
    /// sorted with the polygons; those left out for room are counted in `dropped`.
    pub billboards: usize,
    /// Billboards not drawn: behind the near plane, past the far one, smaller than a pixel
    /// or wholly off screen.
    pub billboards_culled: usize,
    /// 2D commands drawn after the 3D ([`Frame::push_command`](crate::render::Frame::push_command);
    /// 0 for a [`ListFrame`](crate::render::ListFrame), whose caller adds its own).
    pub overlays: usize,
    /// Where the time went, when the frame has a clock
    /// ([`Renderer::set_clock`](crate::render::Renderer::set_clock),
    /// [`ListFrame::with_clock`](crate::render::ListFrame::with_clock)); all 0 otherwise.
    pub times: PhaseTimes,
    /// The VDP1 changed frame after the last list and before this one was ready (its
    /// `finish` had nothing to wait for): the last picture is shown a field more (a frame
    /// dropped at 60 a second). Never for the first list; always with a
    /// [`Vdp1`](crate::vdp1::Vdp1) that has changed frame at once (`MemoryVram`); never for
    /// a [`ListFrame`](crate::render::ListFrame), which does not write VRAM.
    pub late: bool,
    /// The VDP1 could not draw a list of this renderer within a field: the frame change
    /// that this frame's `finish` (or the `begin` before it) saw cut its drawing short, and
    /// the picture shown since lacks the list's last commands (the nearest polygons, then
    /// the overlays: a HUD). The VDP1 manual calls it a "transfer over" (`EDSR`'s `BEF`
    /// clear: [`Vdp1::last_frame_end`](crate::vdp1::Vdp1::last_frame_end)). The list is the
    /// one finished two frames before this one, whose drawing that change ended (or the last
    /// frame's, when the change was seen more than a field after it came); it is drawn again
    /// at every field until the next list replaces it, each time cut short alike. One frame
    /// change is seen a frame, so this says it at most once a frame: a game counts them over
    /// its run. `None` too with a [`Vdp1`](crate::vdp1::Vdp1) that cannot tell, and for a
    /// [`ListFrame`](crate::render::ListFrame).
    pub transfer_over: Option<TransferOver>,
}

/// A list the VDP1 did not finish drawing in its field ([`FrameStats::transfer_over`]):
/// the frame change stopped it at its command `drawn` (those before it drawn whole) of
/// `commands`. The commands of a list, in order: 3 head commands (system and user
/// clipping, local coordinates), the 3D polygons' and billboards' (farthest
/// first; their [`FrameStats::commands`]), then the overlays ([`FrameStats::overlays`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TransferOver {
    /// The list's commands drawn whole before the frame change: the index in the list of
    /// the command table the VDP1 was at (`LOPR`).
    pub drawn: u16,
    /// The list's command tables, its end command left out.
    pub commands: u16,
}
