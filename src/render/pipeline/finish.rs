//! A frame's end: the visible polygons of all its draws sorted together, farthest first
//! (the ground draws' before them, unsorted), the farthest left out when the list or its
//! gouraud tables are short of room, and the rest emitted into the list: one draw's by its
//! own runs, several draws' in passes over the frame (`emit::frame`), each polygon such a
//! pass stops at on its own.

use super::collect::FrameState;
use super::memory::{FrameMemory, Placed};
use crate::format::{MaterialFlags, Model};
use crate::math::Vec3;
use crate::render::billboard::{emit_billboard, PlacedBillboard};
use crate::render::camera::Camera;
use crate::render::emit::{
    emit_fogged, emit_fogged_templates, emit_fogged_templates_shared, emit_sorted, emit_templates,
    emit_templates_shared, tested_near, Emit, EmitCaches, FrameDraw, PassLight, FRAME_DRAWS,
};
use crate::render::error::DrawError;
use crate::render::fog::Fog;
use crate::render::list::CommandBuffer;
use crate::render::shared::{
    polygon_of, DrawStats, Kept, ModelFrame, ModelVram, SortKey, ViewPoint,
};
use crate::render::sort::{radix_sort_lent, sort_counted, KeyCounts};
use crate::vdp1::Point;
use crate::worker::Worker;

/// The model of a frame's draw as its end sees it: the model, where it is in VRAM, and its
/// load's serial (0: none, its templates made again).
#[derive(Clone, Copy)]
pub(crate) struct Source<'s> {
    pub(crate) model: &'s Model<'s>,
    pub(crate) vram: ModelVram<'s>,
    pub(crate) serial: u32,
}

/// Where a front door keeps the models of its frame's draws (a renderer: in its handles;
/// a list frame: given by its caller).
pub(crate) trait Sources {
    /// The model of draw `draw`.
    fn source(&self, draw: usize) -> Source<'_>;
    /// Whether draws `a` and `b` are of one loaded model (turned alike, they share their
    /// templates).
    fn same_model(&self, a: usize, b: usize) -> bool;
}

/// What a frame's end did: polygons and commands emitted (and whether the gouraud tables
/// were what ran out), polygons left out, the time of the sort and of the emission.
pub(crate) struct Finished {
    pub(crate) emitted: DrawStats,
    pub(crate) dropped: usize,
    /// Billboards emitted.
    pub(crate) billboards: usize,
    /// The clock's reading when the sort ended (0 without a clock): the front door times
    /// the sort from its own start and the emission to its own end by it.
    pub(crate) sorted_at: u32,
}

/// A frame's billboards at its end: their sort keys, sorted (farthest first), the
/// billboards they index, and the frame's fog.
#[derive(Clone, Copy)]
struct Boards<'b> {
    keys: &'b [SortKey],
    placed: &'b [PlacedBillboard],
    fog: Option<&'b Fog>,
    /// The keys at the start of the order drawn before any billboard: the ground draws'
    /// (not sorted: drawn first, under everything).
    ground: usize,
}

/// A run of a frame's order: polygons (their keys), or a billboard.
enum Segment<'o> {
    Polygons(&'o [SortKey]),
    Billboard(&'o PlacedBillboard),
}

/// `order` (polygons' keys, farthest first) and `boards` merged by depth, as runs: a
/// billboard after the polygons as far as it or farther (the ground's first, whatever
/// their depths); all of `order` in one run when there are no billboards. An iterator,
/// not a function taking the emission as a closure: the C interface's calls keep within
/// their stack.
struct Segments<'o> {
    order: &'o [SortKey],
    boards: &'o Boards<'o>,
    /// The polygons before it are in the runs given.
    next: usize,
    /// The billboards before it are given.
    board: usize,
    /// Whether the one run of a frame without billboards is given.
    given: bool,
}

impl<'o> Segments<'o> {
    fn new(order: &'o [SortKey], boards: &'o Boards<'o>) -> Self {
        Self {
            order,
            boards,
            next: 0,
            board: 0,
            given: false,
        }
    }
}

impl<'o> Iterator for Segments<'o> {
    type Item = Segment<'o>;

    // Inlined: called, its code was cold at each run after an emission (1,000 billboards:
    // the frame's sort and emission 535,680 cycles, inlined 480,000, Mednafen, `make
    // bench`).
    #[inline(always)]
    fn next(&mut self) -> Option<Segment<'o>> {
        let order = self.order;
        if self.boards.keys.is_empty() {
            let first = !core::mem::replace(&mut self.given, true);
            return first.then_some(Segment::Polygons(order));
        }
        if let Some(&key) = self.boards.keys.get(self.board) {
            // The high half is 0xFFFF - depth: a key's high half at most the billboard's
            // is as far or farther.
            let from = self.next.max(self.boards.ground.min(order.len()));
            let end = from + order[from..].partition_point(|&k| k >> 16 <= key >> 16);
            if end > self.next {
                let run = &order[self.next..end];
                self.next = end;
                return Some(Segment::Polygons(run));
            }
            self.board += 1;
            return Some(Segment::Billboard(&self.boards.placed[polygon_of(key)]));
        }
        if self.next < order.len() {
            let run = &order[self.next..];
            self.next = order.len();
            return Some(Segment::Polygons(run));
        }
        None
    }
}

impl FrameState {
    /// Sorts the visible polygons of every draw together (keys in `memory`), farthest
    /// first, and emits them into `list` after what it holds, the farthest left out when it
    /// is short of room; `sources` are the draws' models. Reads `clock` when the sort
    /// ends.
    pub(crate) fn finish(
        &self,
        memory: &mut FrameMemory<'_>,
        sources: &dyn Sources,
        list: &mut CommandBuffer<'_>,
        worker: Option<&mut (dyn Worker + '_)>,
        clock: Option<fn() -> u32>,
    ) -> Result<Finished, DrawError> {
        let mut worker = worker;
        let time = clock.unwrap_or(|| 0);
        let FrameMemory {
            points,
            screens,
            keys,
            draws: slots,
            placed,
            counts,
            pass_counts,
            emission,
            billboards,
            billboard_keys,
            ..
        } = memory;
        let half = keys.len() / 2;
        let (keys, scratch) = keys.split_at_mut(half);
        let (visible, ground) = (self.visible, self.ground);
        // The last draw's keys as the two CPUs left them (no copy to bring them together),
        // sorted from the counts their culling made; the ground's before them, unsorted.
        let (first, second) = self.apart.clone().unwrap_or((visible, visible..visible));
        let second = second.start - ground..second.end - ground;
        let parts = (first - ground, second, self.second_counts);
        let (sorted, sorted_scratch) = (&mut keys[ground..], &mut scratch[ground..]);
        if !self.counting {
            counts.iter_mut().for_each(KeyCounts::clear);
        }
        let sorted_at = sort_counted(
            sorted,
            parts,
            sorted_scratch,
            (counts, pass_counts),
            worker.as_deref_mut(),
        );
        let order = match core::ptr::eq(sorted_at.as_ptr(), keys[ground..].as_ptr()) {
            true => &mut keys[..visible],
            false => {
                scratch[..ground].copy_from_slice(&keys[..ground]);
                &mut scratch[..visible]
            }
        };
        // The billboards by depth, farthest first (as the polygons; equal depths in the
        // order drawn), between their keys' halves, counted in the shared sort's counts
        // (free now: `sort_counted` is done).
        let (board_keys, board_scratch) = billboard_keys.split_at_mut(billboard_keys.len() / 2);
        let count = self.billboards;
        let board_order = radix_sort_lent(
            &mut board_keys[..count],
            &mut board_scratch[..count],
            pass_counts,
        );
        let sorted_at = time();
        let draws = Draws {
            sources,
            placed: &placed[..self.draws],
        };
        let views = Views {
            points,
            screens,
            camera: &self.camera,
        };
        let fog = self.fog.as_ref();
        let board_skip = match board_order.is_empty() {
            true => BoardsLeftOut {
                left_out: 0,
                room: (list.room(), list.gouraud_room()),
                gouraud_full: false,
            },
            false => boards_left_out(board_order, billboards, fog, list),
        };
        let (skip, gouraud_full) = self.farthest_left_out(&views, draws, order, board_skip.room);
        let boards = Boards {
            keys: &board_order[board_skip.left_out..],
            placed: billboards,
            fog,
            ground: ground.saturating_sub(skip),
        };
        let mut emitted = views.emit_all(
            draws,
            (self.light_view, fog),
            (&mut slots[..self.draws], emission),
            list,
            (&order[skip..], boards),
            worker,
        )?;
        emitted.gouraud_full |= gouraud_full || board_skip.gouraud_full;
        emitted.commands += boards.keys.len();
        Ok(Finished {
            emitted,
            dropped: skip + board_skip.left_out,
            billboards: boards.keys.len(),
            sorted_at,
        })
    }

    /// How many of the farthest of `order` are left out so that the others fit the list's
    /// room and its frame gouraud tables: each polygon takes at most one command and one
    /// gouraud table, four of each in parts; without light only parts take gouraud tables.
    /// Also whether the gouraud tables were what ran out (the nearest polygon left out had
    /// room in the list, not in them).
    fn farthest_left_out(
        &self,
        views: &Views<'_>,
        draws: Draws<'_>,
        order: &[SortKey],
        (room, gouraud_room): (usize, usize),
    ) -> (usize, bool) {
        let fogged = self.fog.is_some();
        let parts = draws.parts();
        let lit_frame = self.light_view.is_some();
        let at_most = order.len() + 3 * parts;
        let gouraud_at_most = if lit_frame || parts > 0 || fogged {
            at_most
        } else {
            0
        };
        if at_most <= room && gouraud_at_most <= gouraud_room {
            return (0, false);
        }
        let (mut room, mut gouraud_room) = (room, gouraud_room);
        let mut gouraud_full = false;
        let kept = order
            .iter()
            .rev()
            .take_while(|&&key| {
                let draw = draws.at(draws.of_polygon(polygon_of(key)));
                let index = polygon_of(key) - draw.placed.polygons.start;
                let (tables, gouraud) = views.with_frame(draw, |frame| {
                    let in_parts = frame.in_parts(index);
                    let tables = if in_parts { 4 } else { 1 };
                    // In fog every polygon (or part) has a table of its own.
                    let gouraud = match fogged {
                        true => tables,
                        false => frame.frame_gouraud_tables(index, lit_frame, in_parts),
                    };
                    (tables, gouraud)
                });
                match (room.checked_sub(tables), gouraud_room.checked_sub(gouraud)) {
                    (Some(left), Some(gouraud_left)) => {
                        (room, gouraud_room) = (left, gouraud_left);
                        true
                    }
                    (left, _) => {
                        gouraud_full = left.is_some();
                        false
                    }
                }
            })
            .count();
        (order.len() - kept, gouraud_full)
    }
}

/// What a frame's billboards take of its list: the farthest left out when the list or its
/// gouraud tables cannot hold them all (each takes a command, and a gouraud table when it
/// is shaded), the room they leave the polygons, and whether the gouraud tables were what
/// ran out. Billboards come first: a frame's polygons are left out before any of them.
struct BoardsLeftOut {
    left_out: usize,
    room: (usize, usize),
    gouraud_full: bool,
}

#[inline(never)]
fn boards_left_out(
    order: &[SortKey],
    placed: &[PlacedBillboard],
    fog: Option<&Fog>,
    list: &CommandBuffer<'_>,
) -> BoardsLeftOut {
    let (mut room, mut gouraud_room) = (list.room(), list.gouraud_room());
    let mut gouraud_full = false;
    let kept = order
        .iter()
        .rev()
        .take_while(|&&key| {
            let shaded = placed[polygon_of(key)].shaded_in(fog);
            match (
                room.checked_sub(1),
                gouraud_room.checked_sub(usize::from(shaded)),
            ) {
                (Some(left), Some(gouraud_left)) => {
                    (room, gouraud_room) = (left, gouraud_left);
                    true
                }
                (left, _) => {
                    gouraud_full = left.is_some();
                    false
                }
            }
        })
        .count();
    BoardsLeftOut {
        left_out: order.len() - kept,
        room: (room, gouraud_room),
        gouraud_full,
    }
}

/// One model drawn in a frame.
#[derive(Clone, Copy)]
struct Draw<'d> {
    source: Source<'d>,
    placed: &'d Placed,
}

/// A frame's draws at its end, seen in place: their models where the front door keeps them
/// and their placements in the frame's memory (nothing copied: a list of 64 draws made at
/// each `finish` cost the SH-2 some 5,000 cycles). The front door's models through a
/// `dyn Sources`: one copy of the frame's end for both front doors (the SH-2 test program
/// fills high work RAM), a look-up a draw or a polygon the frame pass stops at.
#[derive(Clone, Copy)]
struct Draws<'d> {
    sources: &'d dyn Sources,
    placed: &'d [Placed],
}

impl<'d> Draws<'d> {
    fn len(&self) -> usize {
        self.placed.len()
    }

    fn at(&self, index: usize) -> Draw<'d> {
        Draw {
            source: self.sources.source(index),
            placed: &self.placed[index],
        }
    }

    /// The draw of frame polygon `polygon` (draws are in polygon order).
    fn of_polygon(&self, polygon: usize) -> usize {
        self.placed.partition_point(|p| p.polygons.end <= polygon)
    }

    /// Visible polygons drawn in parts, in all the draws.
    fn parts(&self) -> usize {
        self.placed.iter().map(|p| p.kept.parts).sum()
    }
}

/// Whether `model` is of one material (or none), not lit in `light_view`: a draw alone in
/// its frame that its own runs (`emit_sorted`) emit, sharing a plain material's polygons
/// with a second CPU (`emit_shared`). Any other goes faster through the frame pass, which
/// shares every template's polygons: a lit character of 16 materials drawn alone took the
/// master 148,232 cycles a frame to emit on its own (the showcase's probe, Mednafen).
fn one_plain(model: &Model<'_>, light_view: Option<(Vec3, i32)>) -> bool {
    match model.materials() {
        [] => true,
        [only] => light_view.is_none() || !only.flags().contains(MaterialFlags::LIGHT),
        _ => false,
    }
}

/// What a frame's draws are seen through at its end.
struct Views<'v> {
    points: &'v [ViewPoint],
    screens: &'v [Point],
    camera: &'v Camera,
}

impl Views<'_> {
    /// Emits `order` (frame numbers, sorted, farthest first) of `draws` in `light_view`
    /// into `list`: one draw's by `emit_sorted` when there is no worker or it is
    /// [`one_plain`] (its styles kept in `emission` from the frames before); else the
    /// polygons of the first [`FRAME_DRAWS`] draws that have their material's template in
    /// passes over the frame (`emit_templates`: a change of draw or material costs a
    /// look-up; the part of each after half its work on `worker`; each draw's templates
    /// kept in its slot from frame to frame, draws of a model turned alike sharing the
    /// first one's), each polygon one stops at through `emit_sorted` on its own.
    #[allow(clippy::too_many_arguments)]
    fn emit_all(
        &self,
        draws: Draws<'_>,
        (light_view, fog): (Option<(Vec3, i32)>, Option<&Fog>),
        (slots_of_draws, caches): (&mut [super::memory::DrawSlot], &mut EmitCaches),
        list: &mut CommandBuffer<'_>,
        (order, boards): (&[SortKey], Boards<'_>),
        mut worker: Option<&mut (dyn Worker + '_)>,
    ) -> Result<DrawStats, DrawError> {
        if let Some(fog) = fog {
            let slots = (slots_of_draws, worker);
            return self.emit_fogged(draws, (light_view, fog), slots, list, (order, boards));
        }
        let one_draw = match &*slots_of_draws {
            [slot] => Some((slot, draws.at(0)))
                .filter(|(_, draw)| worker.is_none() || one_plain(draw.source.model, light_view)),
            _ => None,
        };
        if let Some((slot, draw)) = one_draw {
            // One draw: its own runs (a plain run's loop is tighter than the frame pass's,
            // which looks up each polygon's draw and material), the styles kept from the
            // frames before.
            let transforms = &slot.transforms;
            let source = draw.source;
            let emission = caches.one_draw();
            emission.start_keyed(source.model, source.serial, transforms, light_view);
            let mut stats = DrawStats::default();
            // Between billboards, each run's room was made sure of (`farthest_left_out`):
            // its own check need not count the draw's parts again.
            let kept = match boards.keys.is_empty() {
                true => draw.placed.kept,
                false => Kept {
                    parts: 0,
                    ..draw.placed.kept
                },
            };
            for segment in Segments::new(order, &boards) {
                let keys = match segment {
                    Segment::Polygons(keys) => keys,
                    Segment::Billboard(board) => {
                        emit_billboard(list, board, boards.fog)?;
                        continue;
                    }
                };
                self.with_frame(draw, |frame| {
                    emit_sorted(
                        frame,
                        list,
                        transforms,
                        emission,
                        keys,
                        kept,
                        worker.as_deref_mut(),
                        &mut stats,
                    )
                })?;
            }
            return Ok(stats);
        }
        let fast: heapless::Vec<Draw<'_>, FRAME_DRAWS> = (0..draws.len().min(FRAME_DRAWS))
            .map(|i| draws.at(i))
            .collect();
        let frames: heapless::Vec<ModelFrame<'_, '_>, FRAME_DRAWS> =
            fast.iter().map(|draw| self.frame(draw)).collect();
        // Draws of one model turned alike (a ground's tiles) share their templates (and
        // the cache of the polygons the pass stops at): made once, for the first of them.
        let owners: [usize; FRAME_DRAWS] = core::array::from_fn(|i| {
            if i >= fast.len() {
                return i;
            }
            let alike = |j: &usize| {
                draws.sources.same_model(*j, i)
                    && slots_of_draws[*j]
                        .transforms
                        .turned_alike(&slots_of_draws[i].transforms)
            };
            (0..i).find(alike).unwrap_or(i)
        });
        // Each set in its draw's slot, kept from the frames before while the slot draws the
        // same loaded model in the same kind of light (only the light made again).
        for ((i, frame), (slot, draw)) in frames
            .iter()
            .enumerate()
            .zip(slots_of_draws.iter_mut().zip(&fast))
        {
            if owners[i] == i {
                let super::memory::DrawSlot {
                    transforms,
                    templates,
                    ..
                } = slot;
                let worker = worker.as_deref_mut();
                templates.start(frame, draw.source.serial, transforms, light_view, worker);
            }
        }
        let slots_of_draws = &*slots_of_draws;
        let passed: heapless::Vec<FrameDraw<'_, '_>, FRAME_DRAWS> = frames
            .iter()
            .zip(owners)
            .zip(&fast)
            .map(|((frame, owner), draw)| FrameDraw {
                first: draw.placed.polygons.start,
                frame,
                templates: &slots_of_draws[owner].templates,
                near: tested_near(frame.camera, draw.placed.kept),
            })
            .collect();
        // The ramp's tables for the flat faces of lit templates, when the most the
        // polygons may take leaves room for them.
        let lit = passed.iter().any(|draw| draw.templates.any_lit);
        let still = order.len() + 3 * draws.parts();
        let light = PassLight {
            ambient: light_view.map_or(0, |(_, ambient)| ambient),
            ramp: lit.then(|| list.push_ramp(still)).flatten(),
        };
        let caches = caches.pass();
        let mut emitted = DrawStats::default();
        for segment in Segments::new(order, &boards) {
            let order = match segment {
                Segment::Polygons(keys) => keys,
                Segment::Billboard(board) => {
                    emit_billboard(list, board, boards.fog)?;
                    continue;
                }
            };
            let mut next = 0;
            while next < order.len() {
                let done = list.fill_frame_with(|tables, gouraud, first_gouraud| {
                    let (keys, out) = (&order[next..], (tables, gouraud, first_gouraud));
                    match worker.as_deref_mut() {
                        Some(worker) => emit_templates_shared(&passed, light, keys, out, worker),
                        None => emit_templates(&passed, light, keys, out),
                    }
                });
                next += done;
                emitted.drawn += done;
                emitted.commands += done;
                let Some(&key) = order.get(next) else {
                    break;
                };
                // The polygon it stopped at, the long way (by its model's own index).
                let at = draws.of_polygon(polygon_of(key));
                let draw = draws.at(at);
                let own = [key - draw.placed.polygons.start as SortKey];
                let transforms = &slots_of_draws[at].transforms;
                let owner = owners.get(at).map_or(at, |&owner| owner);
                let emission = caches.of(owner, draw.source.model, transforms, light_view);
                let mut stats = DrawStats::default();
                self.with_frame(draw, |frame| {
                    emit_sorted(
                        frame,
                        list,
                        transforms,
                        emission,
                        &own,
                        draw.placed.kept,
                        None,
                        &mut stats,
                    )
                })?;
                emitted.drawn += stats.drawn;
                emitted.commands += stats.commands;
                next += 1;
            }
        }
        Ok(emitted)
    }

    /// Emits `order` and `boards` in `fog`: the polygons of the first [`FRAME_DRAWS`]
    /// draws that have their material's template (plain or lit) in passes over the frame
    /// (`emit_fogged_templates`: the template, and a gouraud table of the corners' colours
    /// faded; the part of each after half its work on `worker`), each polygon a pass stops
    /// at through the general emission (`emit_fogged`), lit by its draw's light as the
    /// frame pass lights it (each draw's `ModelLight`, made in its slot for this frame).
    /// Not inlined: the frame's end keeps its stack as it was without fog.
    #[inline(never)]
    fn emit_fogged(
        &self,
        draws: Draws<'_>,
        (light_view, fog): (Option<(Vec3, i32)>, &Fog),
        (slots_of_draws, mut worker): (
            &mut [super::memory::DrawSlot],
            Option<&mut (dyn Worker + '_)>,
        ),
        list: &mut CommandBuffer<'_>,
        (order, boards): (&[SortKey], Boards<'_>),
    ) -> Result<DrawStats, DrawError> {
        for (i, slot) in slots_of_draws.iter_mut().enumerate() {
            let draw = draws.at(i);
            let super::memory::DrawSlot {
                transforms,
                templates,
                ..
            } = slot;
            let frame = self.frame(&draw);
            let worker = worker.as_deref_mut();
            templates.start(&frame, draw.source.serial, transforms, light_view, worker);
        }
        let slots_of_draws = &*slots_of_draws;
        let fast: heapless::Vec<Draw<'_>, FRAME_DRAWS> = (0..draws.len().min(FRAME_DRAWS))
            .map(|i| draws.at(i))
            .collect();
        let frames: heapless::Vec<ModelFrame<'_, '_>, FRAME_DRAWS> =
            fast.iter().map(|draw| self.frame(draw)).collect();
        let passed: heapless::Vec<FrameDraw<'_, '_>, FRAME_DRAWS> = frames
            .iter()
            .zip(slots_of_draws)
            .zip(&fast)
            .map(|((frame, slot), draw)| FrameDraw {
                first: draw.placed.polygons.start,
                frame,
                templates: &slot.templates,
                near: tested_near(frame.camera, draw.placed.kept),
            })
            .collect();
        let light = PassLight {
            ambient: light_view.map_or(0, |(_, ambient)| ambient),
            ramp: None,
        };
        let mut emitted = DrawStats::default();
        for segment in Segments::new(order, &boards) {
            let keys = match segment {
                Segment::Polygons(keys) => keys,
                Segment::Billboard(board) => {
                    emit_billboard(list, board, boards.fog)?;
                    continue;
                }
            };
            let mut next = 0;
            while next < keys.len() {
                let done = list.fill_frame_with(|tables, gouraud, first_gouraud| {
                    let (keys, out) = (&keys[next..], (tables, gouraud, first_gouraud));
                    match worker.as_deref_mut() {
                        Some(worker) => {
                            emit_fogged_templates_shared(&passed, (light, fog), keys, out, worker)
                        }
                        None => emit_fogged_templates(&passed, (light, fog), keys, out),
                    }
                });
                next += done;
                emitted.drawn += done;
                emitted.commands += done;
                let Some(&key) = keys.get(next) else {
                    break;
                };
                // The polygon it stopped at, the long way.
                let before = list.len();
                self.emit_one_fogged(draws, slots_of_draws, list, key, fog)?;
                emitted.drawn += 1;
                emitted.commands += list.len() - before;
                next += 1;
            }
        }
        Ok(emitted)
    }

    /// Emits the polygon of `key` (a frame number of `draws`' polygons) in `fog` through
    /// the general emission, lit by its draw's light (made in its slot of
    /// `slots_of_draws`).
    fn emit_one_fogged(
        &self,
        draws: Draws<'_>,
        slots_of_draws: &[super::memory::DrawSlot],
        list: &mut CommandBuffer<'_>,
        key: SortKey,
        fog: &Fog,
    ) -> Result<(), DrawError> {
        let at = draws.of_polygon(polygon_of(key));
        let draw = draws.at(at);
        let index = polygon_of(key) - draw.placed.polygons.start;
        let slot = &slots_of_draws[at];
        let (transforms, light) = (&slot.transforms, &slot.templates.light);
        self.with_frame(draw, |frame| {
            let polygon = Emit {
                index,
                in_parts: frame.in_parts(index),
                matrix: &transforms.matrices[transforms.polygon_matrix(index)],
                model_light: light.direction(index).copied(),
            };
            let (model, vram) = (frame.model, frame.resources);
            let points = frame.points;
            emit_fogged(
                list,
                model,
                vram,
                self.camera,
                light.view,
                points,
                polygon,
                fog,
            )
        })
    }

    /// Runs `look` on the model of `draw` as culling and emission see it.
    fn with_frame<R>(&self, draw: Draw<'_>, look: impl FnOnce(&ModelFrame<'_, '_>) -> R) -> R {
        look(&self.frame(&draw))
    }

    /// The model of `draw` with its points of this frame (and their screen positions'
    /// compact copy).
    fn frame<'a>(&'a self, draw: &'a Draw<'a>) -> ModelFrame<'a, 'a> {
        ModelFrame {
            model: draw.source.model,
            resources: &draw.source.vram,
            camera: self.camera,
            points: &self.points[draw.placed.points.clone()],
            screens: Some(&self.screens[draw.placed.points.clone()]),
        }
    }
}
