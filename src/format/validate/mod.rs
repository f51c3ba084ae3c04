//! The rules a JOM file must follow, checked once, in one pass over each chunk. Every check
//! is a bounds-checked read: no input can make validation panic, loop or allocate.

use super::be::{Rgb555Be, U16Be, U32Be};
use super::chunks::{Chunk, ChunkWalk, HEADER_SIZE};
use super::error::{LevelProblem, LoadError, RegionProblem, Tag};
use super::records::{
    record, records, Animation, Bone, Group, Header, Material, MotionKey, MotionTrack, Name,
    Polygon, Record, Region, TextureHeader, Vector, VertexColor,
};
use super::views::{key_size, Animations, BoneMotion, Texture, Textures};
use super::{Model, MAX_BONES};
use crate::math::{isqrt, ONE};
use core::mem::{offset_of, size_of};

#[cfg(jom_saturn)]
pub(crate) mod sh2;

const MAGIC: [u8; 4] = *b"JOM1";
const VERSION: u16 = 1;
/// Indexes are u16: no chunk that is indexed may hold more records.
const MAX_INDEXED: u32 = 0xFFFF;
const COUNT_SIZE: usize = 4;
const MAX_TEXTURE_WIDTH: u16 = 504;
const MAX_TEXTURE_HEIGHT: u16 = 255;

/// The farthest a point (PNTS) may be from the model's origin, raw Q16.16: 28672 units (a
/// sphere, so that the model turned any way still has every coordinate within Q16.16,
/// with 4096 units to spare for its placement). docs/format.md, "Engine limits", has the
/// whole argument (and `render::limits` the checks of a draw).
pub const MAX_REACH: u32 = 0x7000_0000;

/// How far from 1 (raw Q16.16: 1024 is 1/64) the length of a normal (QUAD, NTAB) may be.
/// Rounding each component of a unit vector to Q16.16 moves the length by less than
/// 2^-15; 1/64 leaves room for other writers' rounding, and keeps every component within
/// 1 + 1/64 (< 2^17 raw), so that a normal times a 32-bit coordinate is below 2^48 and
/// three of them add up in 64 bits without overflow; a light level is at most 1 + 1/64
/// before it is clamped.
pub const NORMAL_TOLERANCE: i32 = ONE / 64;

pub(crate) fn model(bytes: &[u8]) -> Result<Model<'_>, LoadError> {
    // The file, then each lower level's file (LODS) as a model of its own: one validation
    // on the stack at a time, not a level's inside its model's (`jom_model_load` took some
    // 12 KiB of a C caller's 8 so). Through a pointer: called directly, the SH-2's code
    // generator inlined a copy of the validation into this frame.
    let validate: for<'b> fn(&'b [u8]) -> Result<Model<'b>, LoadError> =
        core::hint::black_box(one_model);
    // The result returned as it came, not taken apart and built again: a model is 176
    // bytes on the SH-2, and each copy a call of `memcpy` (with `one_model`'s the same way,
    // validation of MESH4000 took 2,432 cycles less, Mednafen, `make bench`).
    let result = validate(bytes);
    if let Ok(model) = &result {
        levels_valid(bytes, model, validate)?;
    }
    result
}

/// Whether each lower level's file of `model` (read from `bytes`) passes `validate`.
fn levels_valid(
    bytes: &[u8],
    model: &Model<'_>,
    validate: for<'b> fn(&'b [u8]) -> Result<Model<'b>, LoadError>,
) -> Result<(), LoadError> {
    for (index, (_, file)) in model.levels().enumerate() {
        let offset = file.as_ptr() as usize - bytes.as_ptr() as usize;
        let level = index + 1;
        validate(file).map_err(|_| LoadError::LevelRefused { offset, level })?;
    }
    Ok(())
}

/// The checks of one JOM file; its lower levels' files are [`model`]'s. In two halves, each
/// in a frame of its own (through pointers, so that the SH-2's code generator inlines
/// neither): the mesh and its tables, then what the mesh carries. Each `?` leaves a
/// 40-byte result on the SH-2's stack, and in one function they came to over 4 KiB.
fn one_model(bytes: &[u8]) -> Result<Model<'_>, LoadError> {
    let header = header(bytes)?;
    let mut chunks = ChunkSet::new();
    chunks.scan(bytes)?;
    chunks.check_dependencies()?;
    let mesh: for<'a, 's> fn(
        &'a [u8],
        &'a Header,
        &'s ChunkSet<'a>,
    ) -> Result<Model<'a>, LoadError> = core::hint::black_box(mesh);
    let carried: for<'a, 's, 'm> fn(&'s ChunkSet<'a>, &'m mut Model<'a>) -> Result<(), LoadError> =
        core::hint::black_box(carried);
    let mut result = mesh(bytes, header, &chunks);
    if let Ok(model) = &mut result {
        carried(&chunks, model)?;
    }
    result
}

/// The mesh (PNTS, QUAD, QMAT, MATL) and the tables beside it (TEXT, NTAB, CNRM, VCOL,
/// GOUR, GRUP, BONE): a model without animations, textures, regions or levels.
fn mesh<'a>(
    bytes: &'a [u8],
    header: &'a Header,
    chunks: &ChunkSet<'a>,
) -> Result<Model<'a>, LoadError> {
    // One after the other, not an array of results mapped: each result is a 40-byte
    // temporary of its own on the SH-2's stack.
    let pnts = chunks.required(Tag::PNTS)?;
    let quad = chunks.required(Tag::QUAD)?;
    let qmat = chunks.required(Tag::QMAT)?;
    let matl = chunks.required(Tag::MATL)?;

    let points: &[Vector] = counted(&pnts, MAX_INDEXED)?;
    let polygons: &[Polygon] = counted(&quad, MAX_INDEXED)?;
    let polygon_materials: &[U16Be] = counted(&qmat, u32::MAX)?;
    let materials: &[Material] = counted(&matl, MAX_INDEXED)?;
    let texture_names: &[Name] = optional(chunks.get(Tag::TEXT), MAX_INDEXED)?.unwrap_or(&[]);
    let normals: Option<&[Vector]> = optional(chunks.get(Tag::NTAB), MAX_INDEXED)?;
    let corner_normals: Option<&[U16Be]> = optional(chunks.get(Tag::CNRM), u32::MAX)?;
    let vertex_colors: Option<&[VertexColor]> = optional(chunks.get(Tag::VCOL), u32::MAX)?;
    let gouraud: Option<&[Rgb555Be]> = optional(chunks.get(Tag::GOUR), u32::MAX)?;
    let groups: &[Group] = optional(chunks.get(Tag::GRUP), MAX_INDEXED)?.unwrap_or(&[]);
    let bones: &[Bone] = optional(chunks.get(Tag::BONE), MAX_BONES as u32)?.unwrap_or(&[]);

    let polygon_count = polygons.len() as u32;
    let corner_count = polygon_count * 4;
    same_count(&qmat, polygon_count, "one per polygon of QUAD")?;
    let ntab = chunks.get(Tag::NTAB).zip(normals);
    let reach = check_geometry(&quad, polygons, &pnts, points, ntab)?;
    check_indexes(
        &qmat,
        polygon_materials,
        "material",
        materials.len(),
        Tag::MATL,
    )?;
    check_materials(&matl, materials, texture_names.len())?;
    if let Some(chunk) = chunks.get(Tag::TEXT) {
        check_names(&chunk, texture_names)?;
    }
    if let (Some(chunk), Some(normals), Some(corners)) =
        (chunks.get(Tag::CNRM), normals, corner_normals)
    {
        same_count(&chunk, corner_count, "4 per polygon of QUAD")?;
        check_indexes(&chunk, corners, "normal", normals.len(), Tag::NTAB)?;
    }
    if let Some(chunk) = chunks.get(Tag::VCOL) {
        same_count(&chunk, points.len() as u32, "one per point of PNTS")?;
    }
    if let Some(chunk) = chunks.get(Tag::GOUR) {
        same_count(&chunk, corner_count, "4 per polygon of QUAD")?;
    }
    if let Some(chunk) = chunks.get(Tag::GRUP) {
        check_groups(&chunk, groups, points.len(), polygons.len())?;
    }
    if let Some(chunk) = chunks.get(Tag::BONE) {
        check_bones(&chunk, bones, groups.len())?;
    }

    Ok(Model {
        bytes,
        header,
        points,
        polygons,
        polygon_materials,
        materials,
        texture_names,
        textures: None,
        normals,
        corner_normals,
        vertex_colors,
        gouraud,
        groups,
        bones,
        animations: Animations::default(),
        regions: &[],
        levels: &[],
        reach,
    })
}

/// What the mesh carries (ANIM, BMOT, TIMG, REGN, LODS), checked against it and added to
/// the model [`mesh`] made.
fn carried<'a>(chunks: &ChunkSet<'a>, model: &mut Model<'a>) -> Result<(), LoadError> {
    if let Some(chunk) = chunks.get(Tag::ANIM) {
        model.animations = animations(&chunk, model.bones.len())?;
    }
    if let Some(chunk) = chunks.get(Tag::BMOT) {
        let records = model.animations.records;
        model.animations.motion = bone_motion(&chunk, records, model.bones.len())?;
    }
    if let Some(chunk) = chunks.get(Tag::TIMG) {
        model.textures = Some(textures(&chunk, model.texture_names)?);
    }
    if let Some(chunk) = chunks.get(Tag::REGN) {
        let regions: &[Region] = counted(&chunk, MAX_INDEXED)?;
        let mesh = (
            model.points,
            model.polygons,
            model.polygon_materials,
            model.materials,
        );
        check_regions(&chunk, regions, mesh, model.reach)?;
        model.regions = regions;
    }
    if let Some(chunk) = chunks.get(Tag::LODS) {
        model.levels = check_levels(&chunk, chunks)?;
    }
    Ok(())
}

/// REGN: the regions' polygons one after the other and all of QUAD, their points in order
/// inside PNTS, each polygon's corners among its region's points, each point within its
/// region's sphere, each centre within the model's reach, no region starting with a
/// polygon that takes the depth of the one before it. One pass over the regions, the
/// polygons and the points.
fn check_regions(
    chunk: &Chunk<'_>,
    regions: &[Region],
    (points, polygons, polygon_materials, materials): (
        &[Vector],
        &[Polygon],
        &[U16Be],
        &[Material],
    ),
    reach: u32,
) -> Result<(), LoadError> {
    if regions.is_empty() {
        return Ok(());
    }
    let (mut polygons_end, mut points_end) = (0, 0);
    for (i, region) in regions.iter().enumerate() {
        let bad = |problem| LoadError::BadRegion {
            offset: field_offset::<Region>(chunk, i, 0),
            region: i,
            problem,
        };
        let (own_polygons, own_points) = (region.polygons(), region.points());
        if own_polygons.start != polygons_end {
            return Err(bad(RegionProblem::PolygonsNotNext {
                first: own_polygons.start as u32,
                expected: polygons_end as u32,
            }));
        }
        polygons_end = own_polygons.end;
        if own_points.start < points_end || own_points.end > points.len() {
            return Err(bad(RegionProblem::PointsOutOfOrder {
                first: own_points.start as u32,
                end: own_points.end as u32,
                after: points_end as u32,
                points: points.len() as u32,
            }));
        }
        points_end = own_points.end;
        if i + 1 == regions.len() && polygons_end != polygons.len() {
            return Err(bad(RegionProblem::PolygonsNotAll {
                end: polygons_end as u32,
                polygons: polygons.len() as u32,
            }));
        }
        let Some(own) = polygons.get(own_polygons.clone()) else {
            return Err(bad(RegionProblem::PolygonsNotAll {
                end: polygons_end as u32,
                polygons: polygons.len() as u32,
            }));
        };
        let starts_previous = polygon_materials
            .get(own_polygons.start)
            .and_then(|m| materials.get(usize::from(m.get())))
            .is_some_and(|m| m.flags().sort_mode() == super::SortMode::Previous);
        if starts_previous && !own.is_empty() {
            return Err(bad(RegionProblem::StartsWithPrevious {
                polygon: own_polygons.start as u32,
            }));
        }
        for (p, polygon) in own.iter().enumerate() {
            if let Some(corner) = polygon
                .corners()
                .into_iter()
                .find(|&c| !own_points.contains(&usize::from(c)))
            {
                return Err(bad(RegionProblem::CornerOutside {
                    polygon: (own_polygons.start + p) as u32,
                    point: u32::from(corner),
                }));
            }
        }
        check_sphere(region, &points[own_points.clone()], own_points.start, reach).map_err(bad)?;
    }
    Ok(())
}

/// A region's centre within `reach` of the origin, its radius not negative, and every one
/// of its `points` (the first numbered `first`) within it of the centre.
fn check_sphere(
    region: &Region,
    points: &[Vector],
    first: usize,
    reach: u32,
) -> Result<(), RegionProblem> {
    let center = region.center();
    let from_origin = length_squared(center);
    if from_origin > square(reach) {
        return Err(RegionProblem::CenterOutOfReach {
            distance: isqrt(from_origin) as u32,
            reach,
        });
    }
    let radius = region.radius_raw();
    let [cx, cy, cz] = center.raw().map(i64::from);
    let radius_squared = match radius {
        r if r < 0 => None,
        r => Some(square(r as u32)),
    };
    for (i, point) in points.iter().enumerate() {
        // Both within MAX_REACH of the origin: their distance within 2 x MAX_REACH, its
        // square (the sum of the three) below 2^64.
        let [x, y, z] = point.raw().map(i64::from);
        let (dx, dy, dz) = (
            (x - cx).unsigned_abs(),
            (y - cy).unsigned_abs(),
            (z - cz).unsigned_abs(),
        );
        let squared = dx * dx + dy * dy + dz * dz;
        if radius_squared.is_none_or(|r| squared > r) {
            return Err(RegionProblem::PointOutside {
                point: (first + i) as u32,
                distance: isqrt(squared) as u32,
                radius,
            });
        }
    }
    Ok(())
}

/// Bytes of a LODS entry before its JOM file: the size on screen, then the file's size.
const LEVEL_HEADER: usize = 8;

/// One LODS entry at the start of `bytes` (the chunk's entries after its count, from this
/// one): its size on screen, its JOM file and the entries after it; `None` at the end or
/// when it does not fit.
pub(crate) fn level_entry(bytes: &[u8]) -> Option<(u32, &[u8], &[u8])> {
    let pixels = record::<U32Be>(bytes, 0)?.get();
    let size = record::<U32Be>(bytes, 4)?.get() as usize;
    let end = LEVEL_HEADER.checked_add(size)?;
    let file = bytes.get(LEVEL_HEADER..end)?;
    Some((pixels, file, &bytes[end..]))
}

/// LODS: each level's entry inside the chunk, its size on screen decreasing and above 0,
/// its JOM file valid, without LODS itself, and with the file's own skeleton (BONE, ANIM
/// and BMOT byte for byte, or none). Gives the entries (after the count).
fn check_levels<'a>(chunk: &Chunk<'a>, chunks: &ChunkSet<'a>) -> Result<&'a [u8], LoadError> {
    let count = count(chunk)?;
    let entries = &chunk.data[COUNT_SIZE..];
    let (mut position, mut before) = (0usize, u32::MAX);
    for level in 1..=count as usize {
        let offset = chunk.data_offset() + COUNT_SIZE + position;
        let bad = |problem| LoadError::BadLevel {
            offset,
            level,
            problem,
        };
        let rest = &entries[position..];
        let past = |needed: u64| {
            bad(LevelProblem::PastChunk {
                needed,
                available: rest.len() as u64,
            })
        };
        let size = record::<U32Be>(rest, 4)
            .ok_or(past(LEVEL_HEADER as u64))?
            .get();
        let (pixels, file, _) =
            level_entry(rest).ok_or(past(LEVEL_HEADER as u64 + u64::from(size)))?;
        if pixels == 0 || pixels >= before {
            return Err(bad(LevelProblem::NotSmaller { pixels, before }));
        }
        before = pixels;
        let file_offset = offset + LEVEL_HEADER;
        let refused = LoadError::LevelRefused {
            offset: file_offset,
            level,
        };
        // The file itself is validated by `model`, after this one.
        let nested = |tag| chunk_data(file, tag).map_err(|_| refused);
        if nested(Tag::LODS)?.is_some() {
            return Err(bad(LevelProblem::Nested));
        }
        for tag in [Tag::BONE, Tag::ANIM, Tag::BMOT] {
            if chunks.get(tag).map(|c| c.data) != nested(tag)? {
                return Err(bad(LevelProblem::OtherSkeleton { chunk: tag }));
            }
        }
        position += LEVEL_HEADER + file.len();
    }
    if position != entries.len() {
        return Err(LoadError::CountMismatch {
            chunk: chunk.tag,
            offset: chunk.data_offset(),
            count,
            size: chunk.size(),
            expected: (COUNT_SIZE + position) as u64,
        });
    }
    Ok(entries)
}

/// The checks of the geometry, in the order their errors come: the polygons' corners, the
/// points (giving the model's reach, see [`check_points`]), the normals of QUAD, then those
/// of NTAB. On a Saturn the SH-2 assembly (`sh2`) goes through them first, and the Rust
/// checks run only to find the error when it says one fails (or, a model of at most 0x8000
/// points, that a normal of QUAD is at the tolerance's longest end, which the assembly's
/// pass without branches leaves to them).
fn check_geometry(
    quad: &Chunk<'_>,
    polygons: &[Polygon],
    pnts: &Chunk<'_>,
    points: &[Vector],
    ntab: Option<(Chunk<'_>, &[Vector])>,
) -> Result<u32, LoadError> {
    #[cfg(jom_saturn)]
    if let Some(reach) = sh2_geometry(polygons, points, ntab.map_or(&[], |(_, n)| n)) {
        return Ok(reach);
    }
    check_polygons(quad, polygons, points.len())?;
    let reach = check_points(pnts, points)?;
    check_normals(quad, polygons.iter().map(Polygon::normal))?;
    if let Some((chunk, normals)) = ntab {
        check_normals(&chunk, normals.iter())?;
    }
    Ok(reach)
}

/// The model's reach when every check of [`check_geometry`] holds, by the SH-2 assembly.
#[cfg(jom_saturn)]
fn sh2_geometry(polygons: &[Polygon], points: &[Vector], normals: &[Vector]) -> Option<u32> {
    let passing =
        sh2::quads_pass(polygons, points.len()) && sh2::normals_passing(normals) == normals.len();
    if !passing {
        return None;
    }
    reach(sh2::farthest_squared(points))
}

/// The largest square length of `points` (0 for none), raw Q32.32.
pub(crate) fn farthest_squared_reference(points: &[Vector]) -> u64 {
    // One loop with nothing else in it.
    let mut farthest = 0u64;
    for point in points {
        farthest = farthest.max(length_squared(point));
    }
    farthest
}

const REACH_SQUARED: u64 = (MAX_REACH as u64) * (MAX_REACH as u64);

/// The reach of a model whose farthest point has the square length `farthest` (raw
/// Q32.32): its distance rounded up, when within [`MAX_REACH`].
fn reach(farthest: u64) -> Option<u32> {
    if farthest > REACH_SQUARED {
        return None;
    }
    let reach = isqrt(farthest);
    Some((reach + u64::from(reach * reach < farthest)) as u32)
}

/// Checks that every point is within [`MAX_REACH`] of the origin, and gives the model's
/// reach: the largest distance of a point from the origin, raw Q16.16, rounded up.
fn check_points(chunk: &Chunk<'_>, points: &[Vector]) -> Result<u32, LoadError> {
    if let Some(reach) = reach(farthest_squared_reference(points)) {
        return Ok(reach);
    }
    for (i, point) in points.iter().enumerate() {
        let squared = length_squared(point);
        if squared > REACH_SQUARED {
            return Err(LoadError::PointOutOfRange {
                offset: field_offset::<Vector>(chunk, i, 0),
                point: i,
                coordinates: point.raw(),
                distance: isqrt(squared) as u32,
            });
        }
    }
    Ok(0)
}

/// The square of a vector's length, raw Q32.32: each square is at most 2^62, the sum of
/// three fits a u64.
pub(crate) fn length_squared(vector: &Vector) -> u64 {
    let [x, y, z] = vector.raw().map(i32::unsigned_abs);
    square(x) + square(y) + square(z)
}

fn square(value: u32) -> u64 {
    u64::from(value) * u64::from(value)
}

/// The square length of a normal at [`NORMAL_TOLERANCE`] short of unit, raw Q32.32.
const SHORTEST_SQUARED: u64 = ((ONE - NORMAL_TOLERANCE) as u64).pow(2);
/// How much longer the square length of a normal at the tolerance beyond unit is.
const SPAN_SQUARED: u64 = ((ONE + NORMAL_TOLERANCE) as u64).pow(2) - SHORTEST_SQUARED;

/// Whether a vector of square length `length_squared` (raw Q32.32) is of unit length
/// within [`NORMAL_TOLERANCE`].
pub(crate) fn is_unit(length_squared: u64) -> bool {
    (SHORTEST_SQUARED..=SHORTEST_SQUARED + SPAN_SQUARED).contains(&length_squared)
}

/// Checks that each normal of a chunk's records (QUAD: at the start of each record, NTAB:
/// the records) is of unit length within [`NORMAL_TOLERANCE`].
fn check_normals<'a>(
    chunk: &Chunk<'_>,
    normals: impl Iterator<Item = &'a Vector>,
) -> Result<(), LoadError> {
    let record_size = match chunk.tag {
        Tag::QUAD => size_of::<Polygon>(),
        _ => size_of::<Vector>(),
    };
    for (i, normal) in normals.enumerate() {
        let length_squared = length_squared(normal);
        if !is_unit(length_squared) {
            return Err(LoadError::NormalNotUnit {
                chunk: chunk.tag,
                offset: chunk.data_offset() + COUNT_SIZE + i * record_size,
                record: i,
                normal: normal.raw(),
                length: isqrt(length_squared) as u32,
            });
        }
    }
    Ok(())
}

fn header(bytes: &[u8]) -> Result<&Header, LoadError> {
    if bytes.len() < HEADER_SIZE {
        return Err(LoadError::TooShort { len: bytes.len() });
    }
    let address = bytes.as_ptr() as usize;
    let header = record::<Header>(bytes, 0).ok_or(LoadError::Misaligned { address })?;
    if header.magic != MAGIC {
        return Err(LoadError::BadMagic {
            found: header.magic,
        });
    }
    if header.version.get() != VERSION {
        return Err(LoadError::UnsupportedVersion {
            found: header.version.get(),
        });
    }
    Ok(header)
}

/// The data of `file`'s first chunk tagged `tag`, if any: a walk of its chunks (a level's
/// few, without a [`ChunkSet`]'s table on the stack).
fn chunk_data(file: &[u8], tag: Tag) -> Result<Option<&[u8]>, LoadError> {
    for chunk in ChunkWalk::new(file) {
        let chunk = chunk?;
        if chunk.tag == tag {
            return Ok(Some(chunk.data));
        }
    }
    Ok(None)
}

/// The chunks this version knows, each at most once, found by one walk of the file.
struct ChunkSet<'a> {
    found: [Option<Chunk<'a>>; Tag::KNOWN.len()],
}

impl<'a> ChunkSet<'a> {
    fn new() -> Self {
        Self {
            found: [None; Tag::KNOWN.len()],
        }
    }

    /// Adds the chunks of `bytes` to the set, which is empty. In place: a set is 272 bytes
    /// on the SH-2, and returned it was copied (validation of MESH4000 took 1,920 cycles
    /// more, Mednafen, `make bench`).
    fn scan(&mut self, bytes: &'a [u8]) -> Result<(), LoadError> {
        for chunk in ChunkWalk::new(bytes) {
            let chunk = chunk?;
            let Some(slot) = Tag::KNOWN.iter().position(|&t| t == chunk.tag) else {
                continue;
            };
            if let Some(first) = &self.found[slot] {
                return Err(LoadError::DuplicateChunk {
                    chunk: chunk.tag,
                    offset: chunk.offset,
                    first: first.offset,
                });
            }
            self.found[slot] = Some(chunk);
        }
        Ok(())
    }

    fn get(&self, tag: Tag) -> Option<Chunk<'a>> {
        let slot = Tag::KNOWN.iter().position(|&t| t == tag)?;
        self.found[slot]
    }

    fn required(&self, tag: Tag) -> Result<Chunk<'a>, LoadError> {
        self.get(tag).ok_or(LoadError::MissingChunk { chunk: tag })
    }

    fn check_dependencies(&self) -> Result<(), LoadError> {
        for (chunk, needs) in [
            (Tag::CNRM, Tag::NTAB),
            (Tag::GOUR, Tag::VCOL),
            (Tag::ANIM, Tag::BONE),
            (Tag::BMOT, Tag::ANIM),
        ] {
            if let (Some(found), None) = (self.get(chunk), self.get(needs)) {
                return Err(LoadError::MissingDependency {
                    chunk,
                    offset: found.offset,
                    needs,
                });
            }
        }
        Ok(())
    }
}

/// The u32 count at the start of a chunk's data.
fn count(chunk: &Chunk<'_>) -> Result<u32, LoadError> {
    record::<U32Be>(chunk.data, 0)
        .map(|c| c.get())
        .ok_or(LoadError::ChunkTooSmall {
            chunk: chunk.tag,
            offset: chunk.data_offset(),
            size: chunk.size(),
            needed: COUNT_SIZE as u64,
        })
}

/// The records of a chunk made of a count and that many records of `T`, padded to 4 bytes.
fn counted<'a, T: Record>(chunk: &Chunk<'a>, max: u32) -> Result<&'a [T], LoadError> {
    let count = count(chunk)?;
    let (tag, offset, size) = (chunk.tag, chunk.data_offset(), chunk.size());
    if count > max {
        return Err(LoadError::TooMany {
            chunk: tag,
            offset,
            count,
            max,
        });
    }
    let expected =
        (COUNT_SIZE as u64 + u64::from(count) * size_of::<T>() as u64).next_multiple_of(4);
    let mismatch = LoadError::CountMismatch {
        chunk: tag,
        offset,
        count,
        size,
        expected,
    };
    if expected != u64::from(size) {
        return Err(mismatch);
    }
    records(chunk.data, COUNT_SIZE, count as usize).ok_or(mismatch)
}

/// The records of a chunk made of a count, that many records of `T` and then their keys
/// (ANIM, BMOT), and the offset in the chunk's data where the keys start.
fn records_then_keys<'a, T: Record>(chunk: &Chunk<'a>) -> Result<(&'a [T], u64), LoadError> {
    let count = count(chunk)?;
    let keys_start = COUNT_SIZE as u64 + u64::from(count) * size_of::<T>() as u64;
    let too_small = LoadError::ChunkTooSmall {
        chunk: chunk.tag,
        offset: chunk.data_offset(),
        size: chunk.size(),
        needed: keys_start,
    };
    if keys_start > u64::from(chunk.size()) {
        return Err(too_small);
    }
    let records = records(chunk.data, COUNT_SIZE, count as usize).ok_or(too_small)?;
    Ok((records, keys_start))
}

fn optional<'a, T: Record>(
    chunk: Option<Chunk<'a>>,
    max: u32,
) -> Result<Option<&'a [T]>, LoadError> {
    chunk.map(|c| counted(&c, max)).transpose()
}

fn same_count(chunk: &Chunk<'_>, expected: u32, rule: &'static str) -> Result<(), LoadError> {
    let count = count(chunk)?;
    if count != expected {
        return Err(LoadError::CountDisagrees {
            chunk: chunk.tag,
            offset: chunk.data_offset(),
            count,
            expected,
            rule,
        });
    }
    Ok(())
}

/// The file offset of field `field_offset` of record `index` of size `T` in `chunk`.
fn field_offset<T>(chunk: &Chunk<'_>, index: usize, field_offset: usize) -> usize {
    chunk.data_offset() + COUNT_SIZE + index * size_of::<T>() + field_offset
}

fn out_of_range(
    chunk: &Chunk<'_>,
    offset: usize,
    record: usize,
    field: &'static str,
    index: i32,
    limit: usize,
    target: Tag,
) -> LoadError {
    LoadError::IndexOutOfRange {
        chunk: chunk.tag,
        offset,
        record,
        field,
        index,
        limit: limit as u32,
        target,
    }
}

fn check_indexes(
    chunk: &Chunk<'_>,
    indexes: &[U16Be],
    field: &'static str,
    limit: usize,
    target: Tag,
) -> Result<(), LoadError> {
    if indexes_below(indexes, limit) {
        return Ok(());
    }
    match indexes.iter().position(|i| usize::from(i.get()) >= limit) {
        Some(i) => Err(out_of_range(
            chunk,
            field_offset::<U16Be>(chunk, i, 0),
            i,
            field,
            i32::from(indexes[i].get()),
            limit,
            target,
        )),
        None => Ok(()),
    }
}

/// Whether every index is below `limit`: on a Saturn by the SH-2 assembly (`sh2`).
fn indexes_below(indexes: &[U16Be], limit: usize) -> bool {
    #[cfg(jom_saturn)]
    if let Some(below) = sh2::indexes_below(indexes, limit) {
        return below;
    }
    indexes_below_reference(indexes, limit)
}

/// Whether every index is below `limit`, in Rust: a plain loop over the largest (the SH-2
/// code generator leaves the closure of `all` a call per index).
pub(crate) fn indexes_below_reference(indexes: &[U16Be], limit: usize) -> bool {
    let mut largest = 0;
    for index in indexes {
        largest = largest.max(index.get());
    }
    indexes.is_empty() || usize::from(largest) < limit
}

fn check_polygons(chunk: &Chunk<'_>, polygons: &[Polygon], points: usize) -> Result<(), LoadError> {
    const CORNERS: [&str; 4] = ["corner A", "corner B", "corner C", "corner D"];
    // The largest corner first, in a loop with nothing else in it: the common case, a
    // valid file, costs a few instructions a polygon.
    let mut largest = 0;
    for polygon in polygons {
        let [a, b, c, d] = polygon.corners();
        largest = largest.max(a.max(b).max(c.max(d)));
    }
    if usize::from(largest) < points {
        return Ok(());
    }
    for (i, polygon) in polygons.iter().enumerate() {
        for (corner, index) in polygon.corners().into_iter().enumerate() {
            if usize::from(index) >= points {
                let offset = field_offset::<Polygon>(chunk, i, 12 + 2 * corner);
                return Err(out_of_range(
                    chunk,
                    offset,
                    i,
                    CORNERS[corner],
                    index.into(),
                    points,
                    Tag::PNTS,
                ));
            }
        }
    }
    Ok(())
}

fn check_name(chunk: &Chunk<'_>, name: &Name, offset: usize) -> Result<(), LoadError> {
    if name.is_valid() {
        Ok(())
    } else {
        Err(LoadError::BadName {
            chunk: chunk.tag,
            offset,
        })
    }
}

/// Checks the names of a chunk of `T` records whose name is their first field (or a chunk
/// of plain names).
fn check_names<T: Named>(chunk: &Chunk<'_>, items: &[T]) -> Result<(), LoadError> {
    for (i, item) in items.iter().enumerate() {
        check_name(chunk, item.name(), field_offset::<T>(chunk, i, 0))?;
    }
    Ok(())
}

/// A record that starts with its name.
trait Named {
    fn name(&self) -> &Name;
}

macro_rules! named {
    ($($t:ty),*) => {$(
        impl Named for $t {
            fn name(&self) -> &Name {
                <$t>::name(self)
            }
        }
        const _: () = assert!(offset_of!($t, name) == 0);
    )*};
}
named!(Material, Group, Bone, Animation);

impl Named for Name {
    fn name(&self) -> &Name {
        self
    }
}

fn check_materials(
    chunk: &Chunk<'_>,
    materials: &[Material],
    textures: usize,
) -> Result<(), LoadError> {
    check_names(chunk, materials)?;
    for (i, material) in materials.iter().enumerate() {
        let texture = material.texture_raw();
        if texture != -1 && !(0..textures as i32).contains(&i32::from(texture)) {
            let offset = field_offset::<Material>(chunk, i, offset_of!(Material, texture));
            return Err(out_of_range(
                chunk,
                offset,
                i,
                "texture",
                texture.into(),
                textures,
                Tag::TEXT,
            ));
        }
    }
    Ok(())
}

fn check_groups(
    chunk: &Chunk<'_>,
    groups: &[Group],
    points: usize,
    polygons: usize,
) -> Result<(), LoadError> {
    check_names(chunk, groups)?;
    for (i, group) in groups.iter().enumerate() {
        for (what, range, limit, field) in [
            (
                "points",
                group.points(),
                points,
                offset_of!(Group, first_point),
            ),
            (
                "polygons",
                group.polygons(),
                polygons,
                offset_of!(Group, first_polygon),
            ),
        ] {
            if range.end > limit {
                return Err(LoadError::RangeOutOfBounds {
                    offset: field_offset::<Group>(chunk, i, field),
                    group: i,
                    what,
                    first: range.start as u16,
                    count: range.len() as u16,
                    limit: limit as u32,
                });
            }
        }
    }
    Ok(())
}

fn check_bones(chunk: &Chunk<'_>, bones: &[Bone], groups: usize) -> Result<(), LoadError> {
    check_names(chunk, bones)?;
    for (i, bone) in bones.iter().enumerate() {
        if let Some(group) = bone.group().filter(|&g| usize::from(g) >= groups) {
            let offset = field_offset::<Bone>(chunk, i, offset_of!(Bone, group));
            return Err(out_of_range(
                chunk,
                offset,
                i,
                "group",
                group.into(),
                groups,
                Tag::GRUP,
            ));
        }
        let parent = bone.parent_raw();
        if parent != -1 && !(0..i as i32).contains(&i32::from(parent)) {
            let offset = field_offset::<Bone>(chunk, i, offset_of!(Bone, parent));
            return Err(LoadError::BadParent {
                offset,
                bone: i,
                parent,
            });
        }
    }
    Ok(())
}

fn animations<'a>(chunk: &Chunk<'a>, bone_count: usize) -> Result<Animations<'a>, LoadError> {
    let (records, keys_start) = records_then_keys::<Animation>(chunk)?;
    check_names(chunk, records)?;
    let key_size = key_size(bone_count) as u64;
    for (i, animation) in records.iter().enumerate() {
        let offset = field_offset::<Animation>(chunk, i, 0);
        if animation.key_count() == 0 {
            return Err(LoadError::NoKeys {
                offset,
                animation: i,
            });
        }
        if animation.key_ticks() == 0 {
            return Err(LoadError::ZeroKeyTicks {
                offset,
                animation: i,
            });
        }
        let key_offset = animation.key_offset();
        if key_offset % 4 != 0 {
            return Err(LoadError::KeysMisaligned {
                offset,
                animation: i,
                key_offset,
            });
        }
        let start = u64::from(key_offset);
        let end = start + u64::from(animation.key_count()) * key_size;
        if start < keys_start || end > u64::from(chunk.size()) {
            return Err(LoadError::KeysOutOfChunk {
                offset,
                animation: i,
                start,
                end,
                keys_start,
                size: chunk.size(),
            });
        }
    }
    Ok(Animations {
        records,
        data: chunk.data,
        bone_count,
        motion: BoneMotion::default(),
    })
}

/// BMOT: the track table, each track's indexes, order and keys, and every scale.
fn bone_motion<'a>(
    chunk: &Chunk<'a>,
    animations: &'a [Animation],
    bone_count: usize,
) -> Result<BoneMotion<'a>, LoadError> {
    let (tracks, keys_start) = records_then_keys::<MotionTrack>(chunk)?;
    let mut previous = None;
    for (i, track) in tracks.iter().enumerate() {
        let offset = field_offset::<MotionTrack>(chunk, i, 0);
        for (field, index, limit, target, at) in [
            (
                "animation",
                track.animation(),
                animations.len(),
                Tag::ANIM,
                offset_of!(MotionTrack, animation),
            ),
            (
                "bone",
                track.bone(),
                bone_count,
                Tag::BONE,
                offset_of!(MotionTrack, bone),
            ),
        ] {
            if usize::from(index) >= limit {
                let at = field_offset::<MotionTrack>(chunk, i, at);
                return Err(out_of_range(
                    chunk,
                    at,
                    i,
                    field,
                    index.into(),
                    limit,
                    target,
                ));
            }
        }
        if previous.is_some_and(|p| p >= track.order()) {
            return Err(LoadError::TracksOutOfOrder { offset, track: i });
        }
        previous = Some(track.order());
        let key_offset = track.key_offset();
        if key_offset % 4 != 0 {
            return Err(LoadError::MotionKeysMisaligned {
                offset,
                track: i,
                key_offset,
            });
        }
        let key_count = animations[usize::from(track.animation())].key_count();
        let start = u64::from(key_offset);
        let end = start + u64::from(key_count) * size_of::<MotionKey>() as u64;
        let keys = if start < keys_start {
            None
        } else {
            records::<MotionKey>(chunk.data, start as usize, usize::from(key_count))
        };
        let keys = keys.ok_or(LoadError::MotionKeysOutOfChunk {
            offset,
            track: i,
            start,
            end,
            keys_start,
            size: chunk.size(),
        })?;
        check_scales(chunk, i, start, keys)?;
    }
    Ok(BoneMotion {
        tracks,
        data: chunk.data,
        animations,
    })
}

/// No scale of a track's keys is negative (`start`: the keys' offset in the chunk's data).
fn check_scales(
    chunk: &Chunk<'_>,
    track: usize,
    start: u64,
    keys: &[MotionKey],
) -> Result<(), LoadError> {
    for (key, motion) in keys.iter().enumerate() {
        let scale = motion.scale();
        if let Some(axis) = (0..3).find(|&axis| scale[axis] < 0) {
            let within = start as usize
                + key * size_of::<MotionKey>()
                + offset_of!(MotionKey, scale)
                + 4 * axis;
            return Err(LoadError::NegativeScale {
                offset: chunk.data_offset() + within,
                track,
                key,
                axis: axis as u8,
                scale: scale[axis],
            });
        }
    }
    Ok(())
}

fn textures<'a>(chunk: &Chunk<'a>, names: &[Name]) -> Result<Textures<'a>, LoadError> {
    let count = count(chunk)?;
    let text_count = names.len() as u32;
    if count != text_count {
        return Err(LoadError::CountDisagrees {
            chunk: chunk.tag,
            offset: chunk.data_offset(),
            count,
            expected: text_count,
            rule: "one per name of TEXT",
        });
    }
    let entries = &chunk.data[COUNT_SIZE..];
    let mut position = 0;
    for (i, name) in names.iter().enumerate() {
        let offset = chunk.data_offset() + COUNT_SIZE + position;
        let rest = &entries[position..];
        let header = record::<TextureHeader>(rest, 0).ok_or(LoadError::ChunkTooSmall {
            chunk: chunk.tag,
            offset: chunk.data_offset(),
            size: chunk.size(),
            needed: (COUNT_SIZE + position + size_of::<TextureHeader>()) as u64,
        })?;
        check_texture_header(chunk, header, i, offset)?;
        if header.name() != name {
            return Err(LoadError::TextureNameMismatch { offset, texture: i });
        }
        let (_, size) = Texture::parse(rest).ok_or(LoadError::TexturePixelsShort {
            offset: offset + size_of::<TextureHeader>(),
            texture: i,
            needed: Texture::pixel_bytes(header).unwrap_or(0),
            available: rest.len() - size_of::<TextureHeader>(),
        })?;
        position += size.min(rest.len());
    }
    if position != entries.len() {
        return Err(LoadError::CountMismatch {
            chunk: chunk.tag,
            offset: chunk.data_offset(),
            count,
            size: chunk.size(),
            expected: (COUNT_SIZE + position) as u64,
        });
    }
    Ok(Textures {
        entries,
        count: count as usize,
    })
}

/// Checks a TIMG entry read on its own (a loader that reads the entries from CD one by
/// one, see [`crate::disc`]): its 24-byte header in `bytes`, at `offset` in the file, texture
/// `texture` of TEXT, named `name` there. Gives the header and the bytes its pixels take.
pub(crate) fn timg_entry(
    bytes: &[u8],
    offset: usize,
    texture: usize,
    name: &Name,
) -> Result<(TextureHeader, usize), LoadError> {
    let chunk = Chunk {
        tag: Tag::TIMG,
        offset: HEADER_SIZE,
        data: &[],
    };
    let header = *record::<TextureHeader>(bytes, 0).ok_or(LoadError::TruncatedChunkHeader {
        offset,
        available: bytes.len(),
    })?;
    check_texture_header(&chunk, &header, texture, offset)?;
    if header.name() != name {
        return Err(LoadError::TextureNameMismatch { offset, texture });
    }
    let pixels = Texture::pixel_bytes(&header).unwrap_or(0) as usize;
    Ok((header, pixels))
}

fn check_texture_header(
    chunk: &Chunk<'_>,
    header: &TextureHeader,
    texture: usize,
    offset: usize,
) -> Result<(), LoadError> {
    check_name(chunk, header.name(), offset)?;
    let (width, height) = (header.width(), header.height());
    if width % 8 != 0
        || !(8..=MAX_TEXTURE_WIDTH).contains(&width)
        || !(1..=MAX_TEXTURE_HEIGHT).contains(&height)
    {
        return Err(LoadError::TextureSize {
            offset,
            texture,
            width,
            height,
        });
    }
    if Texture::pixel_bytes(header).is_none() {
        return Err(LoadError::TextureFormat {
            offset,
            texture,
            format: header.format_raw(),
        });
    }
    Ok(())
}
