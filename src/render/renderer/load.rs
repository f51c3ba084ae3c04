//! Loading models into the renderer: their textures and gouraud tables into VRAM (from
//! memory, or streamed from a disc), their slots reserved, a [`ModelHandle`] given.

use super::handles::ModelHandle;
use super::owner::Renderer;
use super::vram::{slots, Inner, Reserved, BUSY};
use crate::disc::{load_model_with, DiscError, TextureSink};
use crate::format::{Model, Name};
use crate::iso9660::{Iso9660, SectorSource};
use crate::render::transforms::corners_in_groups;
use crate::vdp1::{SlotSlice, TextureSource, Vdp1, Vram, VramError};
use crate::Aligned;

impl<'m, V: Vdp1> Renderer<'m, V> {
    /// Loads `model`: its embedded textures (TIMG) into VRAM, once per name, and its
    /// gouraud tables (GOUR), once per set of colours.
    pub fn load<'b>(&self, model: &Model<'b>) -> Result<ModelHandle<'_, 'b>, VramError> {
        self.load_with(model, |_, _| None)
    }

    /// Loads `model` as [`load`](Self::load) does, with the pixels `external` gives for
    /// each TEXT name that has no embedded texture (index, name: read from CD, or built).
    pub fn load_with<'b>(
        &self,
        model: &Model<'b>,
        mut external: impl FnMut(usize, &Name) -> Option<TextureSource<'b>>,
    ) -> Result<ModelHandle<'_, 'b>, VramError> {
        let mut inner = self.enter().ok_or(BUSY)?;
        inner.room_for_a_model()?;
        let (textures, gouraud, planes) = inner.reserve(model)?;
        let inner = &mut *inner;
        let memory = &mut inner.memory;
        let mut loaded = SlotSlice {
            slots: &mut memory.texture_slots[slots(&textures)],
            len: 0,
        };
        let vram: &mut dyn Vram = &mut inner.vdp1;
        // A failed load gives back the textures it loaded.
        let loading = memory
            .textures
            .load_model(model, vram, &mut external, &mut loaded);
        if let Err(error) = loading {
            inner.free_slots(textures, gouraud, planes);
            return Err(error);
        }
        let reserved = (textures.clone(), gouraud.clone(), planes.clone());
        inner.load_gouraud(model, reserved)?;
        inner.live += 1;
        Ok(ModelHandle {
            owner: self,
            model: *model,
            serial: inner.next_serial(),
            textures,
            gouraud,
            planes,
            corners_in_groups: corners_in_groups(model),
        })
    }

    /// Reads the model at `path` of `volume` into `buffer` and its textures into VRAM, one
    /// at a time through `scratch` (as large as the largest texture), as
    /// [`disc::load_model_into`](crate::disc::load_model_into) does: with TIMG only the rest
    /// of the file stays in `buffer`; without, the files TEXT names are read and decoded.
    pub fn load_from_disc<'b, S: SectorSource>(
        &self,
        volume: &mut Iso9660<S>,
        path: &str,
        buffer: &'b mut Aligned<[u8]>,
        scratch: &mut [u8],
    ) -> Result<ModelHandle<'_, 'b>, DiscError> {
        let mut inner = self.enter().ok_or(BUSY)?;
        inner.room_for_a_model()?;
        let mut sink = DiscSink {
            inner: &mut inner,
            reserved: None,
            loaded: 0,
        };
        let loading = load_model_with(volume, path, buffer, scratch, &mut sink);
        let (reserved, loaded) = (sink.reserved.take(), sink.loaded);
        let (model, (textures, gouraud, planes)) = match (loading, reserved) {
            (Ok(model), Some(reserved)) => (model, reserved),
            (loading, reserved) => {
                if let Some((textures, gouraud, planes)) = reserved {
                    inner.unload_textures(&textures, loaded);
                    inner.free_slots(textures, gouraud, planes);
                }
                return Err(loading.err().unwrap_or(DiscError::Vram(BUSY)));
            }
        };
        let reserved = (textures.clone(), gouraud.clone(), planes.clone());
        inner.load_gouraud(&model, reserved)?;
        inner.live += 1;
        Ok(ModelHandle {
            owner: self,
            corners_in_groups: corners_in_groups(&model),
            model,
            serial: inner.next_serial(),
            textures,
            gouraud,
            planes,
        })
    }
}
/// The renderer's caches as a disc loader fills them: the model's slots reserved once it
/// is read, then its textures one by one.
struct DiscSink<'s, 'm, V> {
    inner: &'s mut Inner<'m, V>,
    /// The slots of the model's textures, gouraud table addresses and plane runs, once
    /// reserved.
    reserved: Option<Reserved>,
    /// Textures loaded so far.
    loaded: usize,
}

impl<V: Vdp1> TextureSink for DiscSink<'_, '_, V> {
    fn start(&mut self, model: &Model<'_>) -> Result<(), VramError> {
        self.reserved = Some(self.inner.reserve(model)?);
        Ok(())
    }

    fn needs_pixels(&self, model: &Model<'_>, index: usize) -> bool {
        self.inner.memory.textures.needs_pixels(model, index)
    }

    fn load_texture(
        &mut self,
        model: &Model<'_>,
        source: Option<&TextureSource<'_>>,
    ) -> Result<(), VramError> {
        let Some((textures, _, _)) = &self.reserved else {
            return Err(BUSY);
        };
        let inner = &mut *self.inner;
        let mut loaded = SlotSlice {
            slots: &mut inner.memory.texture_slots[slots(textures)],
            len: self.loaded,
        };
        let vram: &mut dyn Vram = &mut inner.vdp1;
        let loading = inner
            .memory
            .textures
            .load_texture(model, &mut loaded, source, vram);
        self.loaded = loaded.len;
        loading
    }
}
