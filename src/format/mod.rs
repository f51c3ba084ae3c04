//! The JOM file, read in place. [`Model::from_bytes`] validates a whole file once (linear in
//! its size, without allocating, without panicking on any input); afterwards every chunk is
//! a typed view of the caller's buffer and no accessor can fail or read out of bounds. This
//! module owns the file's layout: its records, their big-endian fields, the chunk walk and
//! the rules a file must follow.

mod be;
mod chunks;
mod counts;
mod error;
mod flags;
mod records;
#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
pub(crate) mod validate;
mod views;

pub use be::{AngleBe, FixedBe, I16Be, Rgb555, Rgb555Be, U16Be, U32Be};
pub use chunks::{Chunk, Chunks};
pub use counts::ModelCounts;
pub use error::{LevelProblem, LoadError, RegionProblem, Tag};
pub use flags::{MaterialFlags, SortMode};
pub use records::{
    Animation, Bone, BoneRotation, Group, Material, MotionKey, MotionTrack, Name, Polygon, Region,
    TextureHeader, Vector, VertexColor,
};
pub use views::{
    AnimationView, Animations, BoneMotion, Key, MotionTracks, Texture, TexturePixels, Textures,
};

use crate::math::Fixed;
pub(crate) use chunks::HEADER_SIZE;
use records::Header;
pub(crate) use validate::timg_entry;
pub use validate::{MAX_REACH, NORMAL_TOLERANCE};

/// The largest number of bones of a skeleton (`JO_3D_MAX_BONES`).
pub const MAX_BONES: usize = 32;

/// A validated JOM model, borrowing the file's bytes.
#[derive(Clone, Copy, Debug)]
pub struct Model<'a> {
    bytes: &'a [u8],
    header: &'a Header,
    points: &'a [Vector],
    polygons: &'a [Polygon],
    polygon_materials: &'a [U16Be],
    materials: &'a [Material],
    texture_names: &'a [Name],
    textures: Option<Textures<'a>>,
    normals: Option<&'a [Vector]>,
    corner_normals: Option<&'a [U16Be]>,
    vertex_colors: Option<&'a [VertexColor]>,
    gouraud: Option<&'a [Rgb555Be]>,
    groups: &'a [Group],
    bones: &'a [Bone],
    animations: Animations<'a>,
    regions: &'a [Region],
    /// The LODS chunk's entries (after its count), validated; empty without.
    levels: &'a [u8],
    /// The largest distance of a point from the model's origin, raw Q16.16, rounded up.
    reach: u32,
}

impl<'a> Model<'a> {
    /// Validates a whole JOM file and gives views of its chunks. The buffer must start on a
    /// 4-byte boundary (see [`include_aligned!`](crate::include_aligned) and
    /// [`Aligned`](crate::Aligned)).
    ///
    /// Besides the format's rules, a model must stay within what the renderer's integer
    /// arithmetic allows (docs/format.md, "Engine limits"): every point within
    /// [`MAX_REACH`] (28672 units) of the origin, every normal (QUAD, NTAB) of unit length
    /// within [`NORMAL_TOLERANCE`] (1/64). A model that loads can then be drawn by any
    /// camera and transform within the limits [`Camera`](crate::render::Camera) documents
    /// without an overflow.
    ///
    /// ```
    /// use jom::{LoadError, Model};
    /// let bytes = jom::include_aligned!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/every_chunk.jom"));
    /// let model = Model::from_bytes(bytes)?;
    /// assert_eq!(model.polygon_materials().len(), model.polygons().len());
    /// // Four bytes less and the END chunk is cut: a precise error, never a panic.
    /// let err = Model::from_bytes(&bytes[..bytes.len() - 4]).unwrap_err();
    /// assert!(matches!(err, LoadError::TruncatedChunkHeader { .. }));
    /// # Ok::<(), LoadError>(())
    /// ```
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, LoadError> {
        validate::model(bytes)
    }

    /// For `jom_macros::include_jom!` only: a model whose bytes the macro validated when
    /// the program was built, with this same version of the crate (the expansion asserts
    /// it). Validated again (that builds the views the model is read through); the error
    /// path is unreachable by construction, the same bytes going through the same
    /// validation, which is a pure function of them.
    #[doc(hidden)]
    pub fn from_build_checked(bytes: &'static [u8]) -> Model<'static> {
        match validate::model(bytes) {
            Ok(model) => model,
            Err(_) => unreachable!("include_jom! validated these bytes when building"),
        }
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The header's version (1).
    pub fn version(&self) -> u16 {
        self.header.version.get()
    }

    /// The centre of the bounding sphere.
    pub fn center(&self) -> &'a Vector {
        &self.header.center
    }

    /// The largest distance of a point from the model's origin (raw Q16.16, rounded up; at
    /// most [`MAX_REACH`]): what the renderer checks a placement against (see
    /// [`Camera`](crate::render::Camera)).
    pub fn reach(&self) -> u32 {
        self.reach
    }

    /// The radius of the bounding sphere.
    pub fn radius(&self) -> Fixed {
        self.header.radius.get()
    }

    /// The chunks of the file in file order, `END ` included.
    pub fn chunks(&self) -> Chunks<'a> {
        Chunks(chunks::ChunkWalk::new(self.bytes))
    }

    /// The points (PNTS).
    pub fn points(&self) -> &'a [Vector] {
        self.points
    }

    /// The polygons (QUAD); every corner indexes [`points`](Self::points).
    pub fn polygons(&self) -> &'a [Polygon] {
        self.polygons
    }

    /// The material of each polygon (QMAT), an index into [`materials`](Self::materials).
    pub fn polygon_materials(&self) -> &'a [U16Be] {
        self.polygon_materials
    }

    /// The material of polygon `polygon`.
    pub fn material_of(&self, polygon: usize) -> Option<&'a Material> {
        let index = self.polygon_materials.get(polygon)?.get();
        self.materials.get(usize::from(index))
    }

    /// The materials (MATL).
    pub fn materials(&self) -> &'a [Material] {
        self.materials
    }

    /// The names of the textures (TEXT), empty when the model has none.
    pub fn texture_names(&self) -> &'a [Name] {
        self.texture_names
    }

    /// The embedded textures (TIMG), in the order of [`texture_names`](Self::texture_names).
    pub fn textures(&self) -> Option<Textures<'a>> {
        self.textures
    }

    /// The normals of the corners (NTAB).
    pub fn normals(&self) -> Option<&'a [Vector]> {
        self.normals
    }

    /// The index in [`normals`](Self::normals) of corners A, B, C, D of each polygon
    /// (CNRM, 4 per polygon).
    pub fn corner_normals(&self) -> Option<&'a [U16Be]> {
        self.corner_normals
    }

    /// The colour of each point (VCOL).
    pub fn vertex_colors(&self) -> Option<&'a [VertexColor]> {
        self.vertex_colors
    }

    /// The gouraud colours of corners A, B, C, D of each polygon (GOUR, 4 per polygon).
    pub fn gouraud(&self) -> Option<&'a [Rgb555Be]> {
        self.gouraud
    }

    /// The groups (GRUP), empty when the model has none.
    pub fn groups(&self) -> &'a [Group] {
        self.groups
    }

    /// The bones of the skeleton (BONE), parents before children, empty without skeleton.
    pub fn bones(&self) -> &'a [Bone] {
        self.bones
    }

    /// The animations of the skeleton (ANIM), empty without skeleton; each animation's
    /// view carries its BMOT tracks.
    pub fn animations(&self) -> Animations<'a> {
        self.animations
    }

    /// The offsets and scales of the bones in the animations (BMOT), empty without.
    pub fn bone_motion(&self) -> BoneMotion<'a> {
        self.animations.motion
    }

    /// The regions (REGN), empty when the model has none: their polygons follow each
    /// other and are all the model's, each region's corners among its points and its
    /// points within its sphere. A rigid draw culls them by their spheres
    /// (docs/levels.md).
    pub fn regions(&self) -> &'a [Region] {
        self.regions
    }

    /// The lower levels of detail (LODS), level 1 first: each the size on screen (the
    /// radius of the model's bounding sphere, in pixels) below which it is drawn, and its
    /// JOM file (validated with this one, so that [`Model::from_bytes`] of it succeeds).
    /// Empty without LODS.
    pub fn levels(&self) -> Levels<'a> {
        Levels { rest: self.levels }
    }

    /// Lower level `level` (1 the first) as a model, or `None` past the last.
    pub fn level(&self, level: usize) -> Option<Model<'a>> {
        let (_, bytes) = self.levels().nth(level.checked_sub(1)?)?;
        Model::from_bytes(bytes).ok()
    }
}

/// The lower levels of detail of a model (see [`Model::levels`]): each its size on screen
/// in pixels and its JOM file's bytes.
#[derive(Clone, Debug)]
pub struct Levels<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Levels<'a> {
    type Item = (u32, &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let (pixels, bytes, rest) = validate::level_entry(self.rest)?;
        self.rest = rest;
        Some((pixels, bytes))
    }
}
