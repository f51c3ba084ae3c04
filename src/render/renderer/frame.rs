//! The renderer's frame: [`Renderer::begin`] starts one, its draws go through the
//! pipeline's collection into the renderer's memory, and [`Frame::finish`] sorts and emits
//! them into the back list (the pipeline's end), places the 2D overlays after the 3D, and
//! commits the list (`commit`).

use super::handles::{ModelHandle, Owner};
use super::memory::RendererMemory;
use super::owner::Renderer;
use super::vram::slots;
use core::ptr::NonNull;

use crate::anim::AnimationPlayer;
use crate::math::Matrix;
use crate::render::billboard::Billboard;
use crate::render::camera::Camera;
use crate::render::error::DrawError;
use crate::render::fog::Fog;
use crate::render::list::{head_commands, CommandBuffer, HEAD_COMMANDS};
use crate::render::lod::Lod;
use crate::render::pipeline::{Drawn, FrameState, FrameStats, Placement, Source, Sources};
use crate::render::shared::{Light, ModelVram, PoseMatrices, Posed};
use crate::vdp1::{CommandTable, TextureSlot, Vdp1};

impl<'m, V: Vdp1> Renderer<'m, V> {
    /// Starts a frame seen by `camera`, lit by `light`. Does not wait for the VDP1: the
    /// frame's [`finish`](Frame::finish) does, if the VDP1 is still on the list it will
    /// write.
    pub fn begin(
        &self,
        camera: &Camera,
        light: Option<&Light>,
    ) -> Result<Frame<'_, 'm, V>, DrawError> {
        let mut inner = self.inner()?;
        if inner.in_frame {
            return Err(DrawError::FrameOpen);
        }
        let view = FrameState::view_of(camera)?;
        // The VRAM of models dropped is given back as soon as it is known to be free.
        inner.look_for_frame_change();
        inner.in_frame = true;
        inner.drawn.clear();
        Ok(Frame {
            renderer: self,
            state: FrameState::begin(camera, view, light),
            overlays: 0,
        })
    }
}

/// A frame being drawn: see [`Renderer::begin`]; one at a time. Dropped without
/// [`finish`](Self::finish), it draws nothing (the VDP1 keeps drawing the last list).
pub struct Frame<'f, 'm, V: Vdp1> {
    renderer: &'f Renderer<'m, V>,
    /// What the draws so far left in the renderer's memory (the pipeline's state: small,
    /// so that the frame, moved by value from `begin` into the game's code and into
    /// `finish`, stays small).
    state: FrameState,
    overlays: usize,
}

impl<V: Vdp1> Drop for Frame<'_, '_, V> {
    fn drop(&mut self) {
        // Frames end outside the renderer's other calls, which do not nest: never busy.
        if let Ok(mut inner) = self.renderer.inner.try_borrow_mut() {
            inner.in_frame = false;
        }
    }
}

impl<'f, V: Vdp1> Frame<'f, '_, V> {
    /// Draws the rigid model of `handle`, placed in the world by `transform`: its points
    /// are transformed and its polygons culled now, sorted with every other model's at
    /// [`finish`](Self::finish). When its bounding sphere ([`Model::reach`](crate::Model::reach) about its
    /// origin) is wholly outside the view it is dropped before any point is transformed,
    /// its polygons counted in [`FrameStats::culled`].
    pub fn draw(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let placement = Placement::Rigid {
            transform,
            ground: false,
        };
        self.add(handle, placement)
    }

    /// Draws the rigid model of `handle` as ground, placed by `transform`: as
    /// [`draw`](Self::draw), but its visible polygons are not sorted by depth: they are
    /// drawn before every sorted polygon of the frame, in the model's order. For a floor
    /// that the rest of the scene stands on, seen from above: a plane's polygons never hide
    /// one another, and nothing else is behind it. It saves the sort its polygons (about 36
    /// cycles each on the master with the slave, Mednafen: BENCHMARKS.md, "Showcase"). The
    /// ground draws come before the frame's other draws: one drawn after a sorted one is
    /// sorted with the others. When the list is full, the ground's polygons are the first
    /// left out ([`FrameStats::dropped`]).
    ///
    /// ```
    /// # use jom::math::{Matrix, ONE};
    /// # use jom::render::{Camera, Renderer};
    /// # use jom::vdp1::{MemoryVram, VRAM_SIZE};
    /// # let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
    /// # let model = jom::Model::from_bytes(bytes)?;
    /// # let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
    /// #     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
    /// #     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)?;
    /// # let (floor, figure) = (renderer.load(&model)?, renderer.load(&model)?);
    /// let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
    /// let mut frame = renderer.begin(&camera, None)?;
    /// frame.draw_ground(&floor, &Matrix::translation([0, ONE, 0]))?; // first
    /// frame.draw(&figure, &Matrix::IDENTITY)?; // sorted, drawn over the ground
    /// let stats = frame.finish()?;
    /// assert_eq!(stats.drawn + stats.culled, 2 * model.polygons().len());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn draw_ground(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let placement = Placement::Rigid {
            transform,
            ground: true,
        };
        self.add(handle, placement)
    }

    /// Draws the posed model of `handle` (`jo_3d_model_draw_pose`): each bone's group
    /// moved by the bone's matrix.
    pub fn draw_posed(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        posed: &Posed<'_>,
    ) -> Result<(), DrawError> {
        self.add(handle, Placement::Posed(posed))
    }

    /// Draws the model of `handle` in the pose `player` is at (its animation, any
    /// cross-fade), placed in the world by `transform`: the pose, its bones' matrices
    /// ([`bone_matrices`](crate::anim::bone_matrices)) and [`draw_posed`](Self::draw_posed)
    /// in one call.
    ///
    /// ```
    /// # use jom::math::{Matrix, ONE};
    /// # use jom::render::{Camera, Renderer};
    /// # use jom::vdp1::{MemoryVram, VRAM_SIZE};
    /// const FIGURE: &[u8] = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/mesh_motion.jom"));
    /// let model = jom::Model::from_bytes(FIGURE)?;
    /// let memory = jom::renderer_memory!(models: [FIGURE], draws: 1).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)?;
    /// let figure = renderer.load(&model)?;
    /// let mut player = jom::anim::AnimationPlayer::new(&model);
    /// player.advance(30);
    /// let camera = Camera { position: [0, 0, -8 * ONE], ..Camera::default() };
    /// let mut frame = renderer.begin(&camera, None)?;
    /// frame.draw_animated(&figure, &player, &Matrix::IDENTITY)?;
    /// frame.finish()?;
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn draw_animated(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        player: &AnimationPlayer,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let mut matrices = PoseMatrices::IDENTITY;
        matrices.set(handle.model(), player);
        self.draw_posed(handle, &matrices.placed(transform))
    }

    /// Draws the level of detail of a model that `lod` moves to, placed by `transform`:
    /// `levels[0]` the model itself, `levels[k]` its lower level `k`
    /// ([`Model::level`](crate::Model::level), each loaded), as many as the game loaded.
    /// The level is chosen by the model's size on screen (its reach about its origin, in
    /// pixels, against each level's size in LODS), with hysteresis: `lod` (one per thing
    /// drawn, kept from frame to frame) moves a level down only an eighth below the
    /// level's size, and back up an eighth above it ([`Lod::choose`]). No level: nothing
    /// drawn.
    ///
    /// ```
    /// # use jom::math::{Matrix, ONE};
    /// # use jom::render::{Camera, Lod, Renderer};
    /// # use jom::vdp1::{MemoryVram, VRAM_SIZE};
    /// const TREE: &[u8] = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/levels.jom"));
    /// let model = jom::Model::from_bytes(TREE)?;
    /// let far = model.level(1).expect("the fixture has a lower level");
    /// let memory = jom::renderer_memory!(models: [TREE], draws: 1).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)?;
    /// let levels = [renderer.load(&model)?, renderer.load(&far)?];
    /// let mut lod = Lod::FINEST; // one per tree, kept from frame to frame
    /// let camera = Camera { position: [0, 0, -200 * ONE], ..Camera::default() };
    /// let mut frame = renderer.begin(&camera, None)?;
    /// frame.draw_lod(&[&levels[0], &levels[1]], &mut lod, &Matrix::IDENTITY)?;
    /// frame.finish()?;
    /// assert_eq!(lod.level(), 1); // far away: the lower level
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn draw_lod(
        &mut self,
        levels: &[&'f ModelHandle<'_, '_>],
        lod: &mut Lod,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        match self.level(levels, lod, transform)? {
            Some(handle) => self.draw(handle, transform),
            None => Ok(()),
        }
    }

    /// [`draw_animated`](Self::draw_animated) of the level of detail `lod` moves to (see
    /// [`draw_lod`](Self::draw_lod)): every level has the model's skeleton (LODS's rule),
    /// so `player` poses any of them.
    pub fn draw_animated_lod(
        &mut self,
        levels: &[&'f ModelHandle<'_, '_>],
        lod: &mut Lod,
        player: &AnimationPlayer,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        match self.level(levels, lod, transform)? {
            Some(handle) => self.draw_animated(handle, player, transform),
            None => Ok(()),
        }
    }

    /// [`draw_posed`](Self::draw_posed) of the level of detail `lod` moves to for a draw
    /// placed by `posed.transform` (see [`draw_lod`](Self::draw_lod)): a pose made by the
    /// caller (its bones' matrices made on both CPUs with
    /// [`bone_matrices_with`](crate::anim::bone_matrices_with)) fits every level, which
    /// all have the model's skeleton (LODS's rule).
    ///
    /// ```
    /// # use jom::anim::{bone_matrices, root_matrix, AnimationPlayer};
    /// # use jom::math::{Matrix, ONE};
    /// # use jom::render::{Camera, Lod, Posed, Renderer};
    /// # use jom::vdp1::{MemoryVram, VRAM_SIZE};
    /// const TREE: &[u8] = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/levels.jom"));
    /// let model = jom::Model::from_bytes(TREE)?;
    /// let far = model.level(1).expect("the fixture has a lower level");
    /// let memory = jom::renderer_memory!(models: [TREE], draws: 1).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)?;
    /// let levels = [renderer.load(&model)?, renderer.load(&far)?];
    /// let pose = AnimationPlayer::new(&model).pose(&model);
    /// let mut bones = [Matrix::IDENTITY; jom::format::MAX_BONES];
    /// bone_matrices(&model, &pose, &mut bones);
    /// let posed = Posed { transform: &Matrix::IDENTITY, root: &root_matrix(&pose), bones: &bones };
    /// let mut lod = Lod::FINEST;
    /// let camera = Camera { position: [0, 0, -200 * ONE], ..Camera::default() };
    /// let mut frame = renderer.begin(&camera, None)?;
    /// frame.draw_posed_lod(&[&levels[0], &levels[1]], &mut lod, &posed)?;
    /// frame.finish()?;
    /// assert_eq!(lod.level(), 1); // far away: the lower level
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn draw_posed_lod(
        &mut self,
        levels: &[&'f ModelHandle<'_, '_>],
        lod: &mut Lod,
        posed: &Posed<'_>,
    ) -> Result<(), DrawError> {
        match self.level(levels, lod, posed.transform)? {
            Some(handle) => self.draw_posed(handle, posed),
            None => Ok(()),
        }
    }

    /// The level of `levels` `lod` moves to for a draw placed by `transform`.
    fn level(
        &self,
        levels: &[&'f ModelHandle<'_, '_>],
        lod: &mut Lod,
        transform: &Matrix,
    ) -> Result<Option<&'f ModelHandle<'f, 'f>>, DrawError> {
        let Some(first) = levels.first() else {
            return Ok(None);
        };
        let model = first.model();
        let pixels = self.state.screen_radius(model.reach(), transform)?;
        let level = lod.choose(model.levels(), levels.len() - 1, pixels);
        Ok(levels.get(level).copied())
    }

    /// Adds a 2D command (a HUD's sprite or polygon), drawn after every model, in the
    /// order pushed. Its coordinates are from the screen's centre (the list's local
    /// origin).
    pub fn push_command(&mut self, table: CommandTable) -> Result<(), DrawError> {
        self.push_commands(core::slice::from_ref(&table))
    }

    /// Adds 2D commands as [`push_command`](Self::push_command) adds each, in one call: a
    /// HUD kept from frame to frame costs a copy (30 commands pushed one by one cost the
    /// SH-2 some 13,000 cycles with their making, Mednafen). None is added when they do not
    /// all fit.
    ///
    /// ```
    /// # use jom::render::{Camera, Renderer};
    /// # use jom::vdp1::{ColorCalc, ColorMode, CommandTable, DrawMode, MemoryVram, Point, VRAM_SIZE};
    /// # let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
    /// #     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
    /// #     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None).unwrap();
    /// let mode = DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false);
    /// let square = |x| [Point::new(x, 0), Point::new(x + 8, 0), Point::new(x + 8, 8), Point::new(x, 8)];
    /// // Made once, pushed every frame.
    /// let hud = [CommandTable::polygon(0x801F, square(0), mode), CommandTable::polygon(0x83E0, square(10), mode)];
    /// let mut frame = renderer.begin(&Camera::default(), None)?;
    /// frame.push_commands(&hud)?;
    /// assert_eq!(frame.finish()?.overlays, 2);
    /// # Ok::<(), jom::render::DrawError>(())
    /// ```
    pub fn push_commands(&mut self, tables: &[CommandTable]) -> Result<(), DrawError> {
        let mut inner = self.renderer.inner()?;
        let commands = &mut inner.memory.commands;
        let capacity = commands.len();
        if HEAD_COMMANDS + self.overlays + tables.len() >= capacity {
            return Err(DrawError::CommandListFull { capacity });
        }
        // Overlays are kept at the end of the list's RAM, last pushed lowest, until
        // `finish` moves them after the 3D.
        let end = capacity - self.overlays;
        let kept = &mut commands[end - tables.len()..end];
        for (to, from) in kept.iter_mut().rev().zip(tables) {
            to.copy_words_from(from);
        }
        self.overlays += tables.len();
        Ok(())
    }

    /// Draws `billboard`: a sprite at a point of the world, facing the screen, scaled by
    /// its distance, as one VDP1 scaled sprite sorted with the frame's polygons by its
    /// depth at [`finish`](Self::finish). It is placed now: behind the near plane, past
    /// the far one, smaller than a pixel or wholly off screen, it is not drawn (counted in
    /// [`FrameStats::billboards_culled`]). Its memory is the renderer's
    /// ([`RendererMemory::with_billboards`](crate::render::RendererMemory::with_billboards));
    /// a frame past it is refused (`BufferTooSmall { buffer: "billboards" }`).
    ///
    /// ```
    /// # use jom::math::{Matrix, ONE};
    /// # use jom::render::{Billboard, Camera, PlacedBillboard, Renderer};
    /// # use jom::vdp1::{MemoryVram, ZoomPoint, VRAM_SIZE};
    /// # let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
    /// # let model = jom::Model::from_bytes(bytes)?;
    /// # let memory = jom::renderer_memory!(points: 64, polygons: 64, commands: 80,
    /// #     frame_gouraud: 16, model_gouraud: 16, textures: 8, model_textures: 8,
    /// #     model_polygons: 64, model_planes: 64, draws: 4).unwrap();
    /// // Room for 16 billboards a frame (statics in a game: see docs/billboards.md).
    /// let (mut placed, mut keys) = ([PlacedBillboard::EMPTY; 16], [0; 32]);
    /// let memory = memory.with_billboards(&mut placed, &mut keys);
    /// # let mut vram = vec![0u8; VRAM_SIZE as usize];
    /// # let renderer = Renderer::new(MemoryVram::new(&mut vram), memory, None)?;
    /// let trees = renderer.load(&model)?;
    /// let leaves = renderer.sprite(&trees, 0).expect("the model's first texture");
    /// let camera = Camera { position: [0, -ONE, -8 * ONE], ..Camera::default() };
    /// let mut frame = renderer.begin(&camera, None)?;
    /// frame.draw(&trees, &Matrix::IDENTITY)?;
    /// for x in [-2, 0, 2] {
    ///     // A tree two units high standing at (x, 0, 2).
    ///     let mut tree = Billboard::new([x * ONE, 0, 2 * ONE], [ONE, 2 * ONE], leaves);
    ///     tree.anchor = ZoomPoint::LowerCenter;
    ///     frame.draw_billboard(&tree)?;
    /// }
    /// let stats = frame.finish()?;
    /// assert_eq!(stats.billboards, 3);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub fn draw_billboard(&mut self, billboard: &Billboard) -> Result<(), DrawError> {
        let mut inner = self.renderer.inner()?;
        self.state
            .add_billboard(&mut inner.memory.frame, billboard)?;
        Ok(())
    }

    /// Fades the frame's polygons and billboards into `fog` from its `near` depth to its
    /// `far` one (`None`: none, the default), through each corner's gouraud colour (see
    /// [`Fog`] for what that reaches). In fog every polygon takes a gouraud table of its
    /// own, made in the frame pass for a polygon of a plain or lit template and by the
    /// general emission for the others: a frame in fog costs more (docs/billboards.md,
    /// "Fog"). A frame without fog is emitted as before, command for command.
    pub fn set_fog(&mut self, fog: Option<Fog>) {
        self.state.fog = fog;
    }

    /// Draws `handle` placed by `placement` into the renderer's memory, with its worker
    /// and its clock (see `pipeline::FrameState::add`).
    fn add(
        &mut self,
        handle: &'f ModelHandle<'_, '_>,
        placement: Placement<'_>,
    ) -> Result<(), DrawError> {
        let renderer: *const Renderer<'_, V> = self.renderer;
        if !core::ptr::addr_eq(handle.owner as *const dyn Owner, renderer) {
            return Err(DrawError::OtherRenderer);
        }
        let mut inner = self.renderer.inner()?;
        let inner = &mut *inner;
        if inner.drawn.is_full() {
            let needed = inner.drawn.len() + 1;
            return Err(DrawError::BufferTooSmall {
                buffer: "draws",
                needed,
            });
        }
        let memory = &mut inner.memory;
        let drawn = Drawn {
            model: &handle.model,
            vram: ModelVram {
                textures: &memory.texture_slots[slots(&handle.textures)],
                gouraud: &memory.gouraud_slots[slots(&handle.gouraud)],
            },
            serial: handle.serial,
            planes: &memory.plane_runs[handle.planes.start as usize..handle.planes.end as usize],
            corners_in_groups: handle.corners_in_groups,
        };
        let worker = inner.worker.as_deref_mut();
        if self
            .state
            .add(&mut memory.frame, &drawn, placement, worker, inner.clock)?
        {
            // Not full: checked above. Its lifetimes forgotten: see `Inner::drawn`.
            let handle = NonNull::from(handle).cast::<ModelHandle<'static, 'static>>();
            let _ = inner.drawn.push(handle);
        }
        Ok(())
    }
}

impl<V: Vdp1> Frame<'_, '_, V> {
    /// Ends the frame: sorts the visible polygons of every model drawn together, farthest
    /// first, emits them (the farthest of the frame left out when the list or the frame's
    /// gouraud tables are full), then the 2D commands, writes the list and its gouraud
    /// tables to the VRAM the VDP1 is not reading (first waiting for the VDP1's frame
    /// change after the last frame's `finish`, if it has not come yet: the time is
    /// [`PhaseTimes::wait`](crate::render::PhaseTimes::wait)) and points the jump at VRAM 0 at them: the VDP1 draws them
    /// from its next frame change.
    pub fn finish(self) -> Result<FrameStats, DrawError> {
        let mut inner = self.renderer.inner()?;
        let inner = &mut *inner;
        // The phases one after the other from here to the commit's end: the sort's time
        // counts this one's set-up, the emission's the overlays' placing.
        let time = inner.clock.unwrap_or(|| 0);
        let started = time();
        // Looked at now, a frame change is long past by the time the list is written (the
        // Saturn's VDP1 may need up to a line more to leave the old list: nothing to wait
        // for then).
        inner.look_for_frame_change();
        let back = 1 - inner.front;
        let RendererMemory {
            frame: memory,
            commands,
            frame_gouraud,
            texture_slots,
            gouraud_slots,
            ..
        } = &mut inner.memory;
        let capacity = commands.len();
        let overlays = self.overlays;
        let (list_tables, _) = commands.split_at_mut(capacity - overlays);
        list_tables[..HEAD_COMMANDS].copy_from_slice(&head_commands(
            self.state.camera.width,
            self.state.camera.height,
        ));
        let mut list = CommandBuffer {
            tables: list_tables,
            len: HEAD_COMMANDS,
            gouraud: frame_gouraud,
            gouraud_len: 0,
            gouraud_base: inner.layout.frame_gouraud[back],
        };
        let sources = Handles {
            handles: handles_drawn(&inner.drawn),
            texture_slots,
            gouraud_slots,
        };
        let worker = inner.worker.as_deref_mut();
        let finished = self
            .state
            .finish(memory, &sources, &mut list, worker, inner.clock)?;
        let (len, gouraud_len) = (list.len, list.gouraud_len);
        place_overlays(commands, len, overlays);
        let placed = time();
        let committed = inner.commit(back, len + overlays, gouraud_len, placed)?;
        let mut times = self.state.times;
        times.sort += finished.sorted_at.wrapping_sub(started);
        times.emit = placed.wrapping_sub(finished.sorted_at);
        times.wait = committed.wait;
        times.commit = committed.commit;
        Ok(FrameStats {
            drawn: finished.emitted.drawn,
            commands: finished.emitted.commands,
            culled: self.state.stats.culled,
            dropped: finished.dropped,
            gouraud_full: finished.emitted.gouraud_full,
            billboards: finished.billboards,
            billboards_culled: self.state.billboards_culled,
            overlays,
            times,
            late: committed.late,
            transfer_over: inner.transfer_over.take(),
        })
    }
}

/// The handles of `drawn` (`Inner::drawn`), borrowed for no longer than the frame that drew
/// them, which borrows each for its whole life: valid for as long as that borrow of
/// `drawn` (called in that frame's `finish` only).
fn handles_drawn<'d>(
    drawn: &'d [NonNull<ModelHandle<'static, 'static>>],
) -> &'d [&'d ModelHandle<'d, 'd>] {
    // SAFETY: `NonNull<T>` and `&T` have one layout; each pointer is from a `&'f
    // ModelHandle` of the frame being finished, live for all of its `'f`, which outlasts
    // `'d`; the handles are only read.
    unsafe { core::slice::from_raw_parts(drawn.as_ptr().cast(), drawn.len()) }
}

/// A renderer frame's models: its handles, their VRAM in the renderer's memory.
struct Handles<'h> {
    handles: &'h [&'h ModelHandle<'h, 'h>],
    texture_slots: &'h [TextureSlot],
    gouraud_slots: &'h [u16],
}

impl Sources for Handles<'_> {
    fn source(&self, draw: usize) -> Source<'_> {
        let handle = self.handles[draw];
        Source {
            model: &handle.model,
            vram: ModelVram {
                textures: &self.texture_slots[slots(&handle.textures)],
                gouraud: &self.gouraud_slots[slots(&handle.gouraud)],
            },
            serial: handle.serial,
        }
    }

    fn same_model(&self, a: usize, b: usize) -> bool {
        core::ptr::eq(self.handles[a], self.handles[b])
    }
}

/// Moves the `overlays` kept at the end of `commands` (last pushed lowest) after the `len`
/// commands of the 3D, in push order: one copy each when the two places do not overlap
/// (`reverse` and `copy_within` of 30 overlays cost the SH-2 some 26,000 cycles, Mednafen),
/// word by word (`CommandTable::copy_words_from`: whole, 5,500 cycles for 30).
pub(super) fn place_overlays(commands: &mut [CommandTable], len: usize, overlays: usize) {
    let kept = commands.len() - overlays;
    if len + overlays <= kept {
        let (to, from) = commands.split_at_mut(kept);
        for (table, pushed) in to[len..len + overlays].iter_mut().zip(from.iter().rev()) {
            table.copy_words_from(pushed);
        }
    } else {
        commands[kept..].reverse();
        commands.copy_within(kept.., len);
    }
}
