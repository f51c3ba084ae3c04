//! The pipeline's front door for a program that owns its VRAM and its command list (the C
//! interface, the tools, the tests): a [`ListFrame`] draws models whose textures and
//! gouraud tables the program put in VRAM ([`LoadedModel`]) and writes the frame into a
//! [`CommandBuffer`] over the program's own arrays.

use super::collect::{Drawn, FrameState, Placement};
use super::finish::{Source, Sources};
use super::memory::{FrameMemory, ModelRecord};
use super::stats::FrameStats;
use crate::anim::AnimationPlayer;
use crate::format::Model;
use crate::math::Matrix;
use crate::render::billboard::Billboard;
use crate::render::camera::Camera;
use crate::render::error::DrawError;
use crate::render::fog::Fog;
use crate::render::list::CommandBuffer;
use crate::render::lod::Lod;
use crate::render::shared::{Light, ModelVram, PoseMatrices, Posed};
use crate::render::transforms::corners_in_groups;
use crate::worker::Worker;

/// A model whose textures and gouraud tables are in VRAM (a
/// [`TextureCache`](crate::vdp1::TextureCache) and a
/// [`GouraudCache`](crate::vdp1::GouraudCache) put them there), as a [`ListFrame`] draws it.
#[derive(Clone, Copy)]
pub struct LoadedModel<'a> {
    /// The model.
    pub model: &'a Model<'a>,
    /// Where its textures and gouraud tables are.
    pub vram: ModelVram<'a>,
}

/// A frame drawn into a command list its caller owns: the same pipeline as a
/// [`Renderer`](crate::render::Renderer)'s [`Frame`](crate::render::Frame) (every model's
/// polygons sorted together, farthest first, and emitted by the same code), for a program
/// that keeps VRAM and the list itself. It borrows its [`FrameMemory`] and the models
/// drawn until [`finish`](Self::finish) writes the list.
///
/// ```
/// use jom::math::{Matrix, ONE};
/// use jom::render::{Camera, CommandBuffer, FrameArrays, LoadedModel, ModelVram};
/// use jom::vdp1::{CommandTable, GouraudCache, GouraudTable, MemoryVram, ModelTextures, TextureCache, VramLayout, VRAM_SIZE};
///
/// let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
/// let model = jom::Model::from_bytes(bytes)?;
///
/// // Once per model: its textures and gouraud tables into VRAM.
/// let layout = VramLayout::default();
/// let mut vram_bytes = vec![0; VRAM_SIZE as usize]; // on the Saturn: the real VRAM
/// let mut vram = MemoryVram::new(&mut vram_bytes);
/// let mut textures = TextureCache::<64>::new(layout.textures.clone());
/// let mut model_textures = ModelTextures::<8>::EMPTY;
/// textures.load_model(&model, &mut vram, |_, _| None, &mut model_textures)?;
/// let mut gouraud = [0u16; 3];
/// GouraudCache::<256>::new(layout.gouraud.clone()).load_model(&model, &mut vram, &mut gouraud)?;
/// let loaded = LoadedModel { model: &model, vram: ModelVram { textures: model_textures.slots(), gouraud: &gouraud } };
///
/// // The frame's memory: room for 6 points and 3 polygons in one draw.
/// let mut arrays = FrameArrays::<6, 3, 1>::EMPTY;
/// // The list: its head commands (clipping, the screen's centre), then the frame.
/// let (mut commands, mut frame_gouraud) = ([CommandTable::EMPTY; 16], [GouraudTable::default(); 4]);
/// let camera = Camera { position: [0, -ONE / 2, -4 * ONE], ..Camera::default() };
/// let mut list = CommandBuffer::new(&mut commands, 0, &mut frame_gouraud, 0, layout.frame_gouraud.start);
/// list.start(camera.width, camera.height)?;
///
/// let mut frame = jom::render::ListFrame::begin(arrays.memory(), &camera, None)?;
/// frame.draw(loaded, &Matrix::IDENTITY)?;
/// let stats = frame.finish(&mut list)?;
/// list.write(&mut vram, layout.commands.start)?;
/// assert_eq!(stats.drawn + stats.culled, model.polygons().len());
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub struct ListFrame<'f> {
    /// Its draws' models too (`FrameMemory::models`).
    memory: FrameMemory<'f>,
    state: FrameState,
    worker: Option<&'f mut dyn Worker>,
    clock: Option<fn() -> u32>,
}

impl<'f> ListFrame<'f> {
    /// Starts a frame in `memory` (a [`FrameMemory::reborrow`] of one kept from frame to
    /// frame), seen by `camera`, lit by `light`.
    pub fn begin(
        memory: FrameMemory<'f>,
        camera: &Camera,
        light: Option<&Light>,
    ) -> Result<Self, DrawError> {
        let view = FrameState::view_of(camera)?;
        Ok(Self {
            memory,
            state: FrameState::begin(camera, view, light),
            worker: None,
            clock: None,
        })
    }

    /// Shares the work with `worker` (a second CPU: on a Saturn the slave SH-2,
    /// [`hw::slave`](crate::hw::slave)) from the next draw on.
    pub fn with_worker(mut self, worker: &'f mut dyn Worker) -> Self {
        self.worker = Some(worker);
        self
    }

    /// Reads `clock` (a free-running counter, wrapping) between the frame's phases: its
    /// [`FrameStats::times`] then says where the time went.
    pub fn with_clock(mut self, clock: fn() -> u32) -> Self {
        self.clock = Some(clock);
        self
    }

    /// The models drawn so far (a rigid one wholly outside the view is dropped: not
    /// counted).
    pub fn draws(&self) -> usize {
        self.state.draws
    }

    /// Draws the rigid `model` placed in the world by `transform` (see
    /// [`Frame::draw`](crate::render::Frame::draw)).
    pub fn draw(&mut self, model: LoadedModel<'f>, transform: &Matrix) -> Result<(), DrawError> {
        let placement = Placement::Rigid {
            transform,
            ground: false,
        };
        self.add(model, placement, false)
    }

    /// Draws the rigid `model` as ground (see
    /// [`Frame::draw_ground`](crate::render::Frame::draw_ground)).
    pub fn draw_ground(
        &mut self,
        model: LoadedModel<'f>,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let placement = Placement::Rigid {
            transform,
            ground: true,
        };
        self.add(model, placement, false)
    }

    /// Draws the posed `model` (see [`Frame::draw_posed`](crate::render::Frame::draw_posed)).
    pub fn draw_posed(
        &mut self,
        model: LoadedModel<'f>,
        posed: &Posed<'_>,
    ) -> Result<(), DrawError> {
        self.add(model, Placement::Posed(posed), true)
    }

    /// Draws `model` in the pose `player` is at (see
    /// [`Frame::draw_animated`](crate::render::Frame::draw_animated)).
    pub fn draw_animated(
        &mut self,
        model: LoadedModel<'f>,
        player: &AnimationPlayer,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        let mut matrices = PoseMatrices::IDENTITY;
        matrices.set(model.model, player);
        self.draw_posed(model, &matrices.placed(transform))
    }

    /// Draws `billboard` (see
    /// [`Frame::draw_billboard`](crate::render::Frame::draw_billboard)): its memory is the
    /// one given by [`FrameMemory::with_billboards`].
    pub fn draw_billboard(&mut self, billboard: &Billboard) -> Result<(), DrawError> {
        self.state.add_billboard(&mut self.memory, billboard)?;
        Ok(())
    }

    /// Fades the frame's polygons and billboards into `fog` (`None`: none, the default);
    /// see [`Frame::set_fog`](crate::render::Frame::set_fog).
    pub fn set_fog(&mut self, fog: Option<Fog>) {
        self.state.fog = fog;
    }

    /// Draws the level of detail of a model that `lod` moves to (see
    /// [`Frame::draw_lod`](crate::render::Frame::draw_lod)): `levels[0]` the model itself,
    /// `levels[k]` its lower level `k` ([`Model::level`](crate::Model::level)) as loaded.
    /// No level: nothing drawn.
    pub fn draw_lod(
        &mut self,
        levels: &[LoadedModel<'f>],
        lod: &mut Lod,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        match self.level(levels, lod, transform)? {
            Some(model) => self.draw(model, transform),
            None => Ok(()),
        }
    }

    /// [`draw_animated`](Self::draw_animated) of the level of detail `lod` moves to (see
    /// [`draw_lod`](Self::draw_lod)): every level has the model's skeleton (LODS's rule),
    /// so `player` poses any of them.
    pub fn draw_animated_lod(
        &mut self,
        levels: &[LoadedModel<'f>],
        lod: &mut Lod,
        player: &AnimationPlayer,
        transform: &Matrix,
    ) -> Result<(), DrawError> {
        match self.level(levels, lod, transform)? {
            Some(model) => self.draw_animated(model, player, transform),
            None => Ok(()),
        }
    }

    /// [`draw_posed`](Self::draw_posed) of the level of detail `lod` moves to for a draw
    /// placed by `posed.transform` (see [`draw_lod`](Self::draw_lod)): a pose made by the
    /// caller (the C interface's `jom_pose`) fits every level, which all have the model's
    /// skeleton (LODS's rule).
    pub fn draw_posed_lod(
        &mut self,
        levels: &[LoadedModel<'f>],
        lod: &mut Lod,
        posed: &Posed<'_>,
    ) -> Result<(), DrawError> {
        match self.level(levels, lod, posed.transform)? {
            Some(model) => self.draw_posed(model, posed),
            None => Ok(()),
        }
    }

    /// The level of `levels` `lod` moves to for a draw placed by `transform`.
    fn level(
        &self,
        levels: &[LoadedModel<'f>],
        lod: &mut Lod,
        transform: &Matrix,
    ) -> Result<Option<LoadedModel<'f>>, DrawError> {
        let Some(first) = levels.first() else {
            return Ok(None);
        };
        let pixels = self.state.screen_radius(first.model.reach(), transform)?;
        let level = lod.choose(first.model.levels(), levels.len() - 1, pixels);
        Ok(levels.get(level).copied())
    }

    fn add(
        &mut self,
        model: LoadedModel<'f>,
        placement: Placement<'_>,
        posed: bool,
    ) -> Result<(), DrawError> {
        let index = self.state.draws;
        if index >= self.memory.models.len() {
            return Err(DrawError::BufferTooSmall {
                buffer: "draws",
                needed: index + 1,
            });
        }
        let drawn = Drawn {
            model: model.model,
            vram: model.vram,
            serial: 0,
            planes: &[],
            // Worked out for a posed draw only (a pass over the polygons).
            corners_in_groups: posed && corners_in_groups(model.model),
        };
        let worker = self.worker.as_deref_mut();
        let added = self
            .state
            .add(&mut self.memory, &drawn, placement, worker, self.clock)?;
        if added {
            // Kept for `'f`, which the frame lives no longer than (`Models`).
            self.memory.models[index] = ModelRecord::new(model.model, model.vram);
        }
        Ok(())
    }

    /// Ends the frame: sorts the visible polygons of every model drawn together, farthest
    /// first, and emits them into `list` after the tables it holds (the farthest of the
    /// frame left out when it or its frame gouraud tables are full: see
    /// [`FrameStats::dropped`] and [`FrameStats::gouraud_full`]). The list is the caller's
    /// to end and write ([`CommandBuffer::write`]).
    pub fn finish(mut self, list: &mut CommandBuffer<'_>) -> Result<FrameStats, DrawError> {
        self.finish_in_place(list)
    }

    /// [`finish`](Self::finish) of a frame kept where it is (the C interface's, in its
    /// state): not moved onto the caller's stack. The frame is not to be used after it
    /// (its models are let go): drop it.
    #[doc(hidden)]
    pub fn finish_in_place(
        &mut self,
        list: &mut CommandBuffer<'_>,
    ) -> Result<FrameStats, DrawError> {
        let time = self.clock.unwrap_or(|| 0);
        let started = time();
        let records = core::mem::take(&mut self.memory.models);
        let sources = Models(&records[..self.state.draws]);
        let worker = self.worker.as_deref_mut();
        let finished = self
            .state
            .finish(&mut self.memory, &sources, list, worker, self.clock)?;
        let emitted_at = time();
        let mut times = self.state.times;
        times.sort += finished.sorted_at.wrapping_sub(started);
        times.emit = emitted_at.wrapping_sub(finished.sorted_at);
        Ok(FrameStats {
            drawn: finished.emitted.drawn,
            commands: finished.emitted.commands,
            culled: self.state.stats.culled,
            dropped: finished.dropped,
            gouraud_full: finished.emitted.gouraud_full,
            billboards: finished.billboards,
            billboards_culled: self.state.billboards_culled,
            times,
            ..FrameStats::default()
        })
    }
}

/// The models of a list frame's draws, as its caller gave them: records its draws wrote,
/// read while the frame, and so the models it was given, lives.
struct Models<'m>(&'m [ModelRecord]);

impl Sources for Models<'_> {
    fn source(&self, draw: usize) -> Source<'_> {
        // SAFETY: written by a draw of this frame, `ListFrame<'f>`, from a `LoadedModel<'f>`;
        // read while the frame lives, so within `'f`.
        let (model, vram) = unsafe { self.0[draw].model() };
        Source {
            model,
            vram,
            serial: 0,
        }
    }

    fn same_model(&self, a: usize, b: usize) -> bool {
        self.0[a].same(&self.0[b])
    }
}
