//! The REGN and LODS chunks' rules (docs/format.md): each broken rule is its one error,
//! naming the region or level and its offset; a valid file reads its regions and levels.

use jom::format::{LevelProblem, LoadError, RegionProblem, Tag};
use jom::Model;
use jom_write::fixtures;
use jom_write::scenes::level;
use jom_write::{levels_chunk, regions_chunk, AlignedBytes, JomFile, Region};

/// The regions of the level of 2 x 2 regions of 2 x 2 quads, as written.
fn regions_of(file: &JomFile) -> Vec<Region> {
    let (_, data) = file
        .extra_chunks
        .iter()
        .find(|(tag, _)| tag == b"REGN")
        .expect("the level has REGN");
    data[4..]
        .chunks(24)
        .map(|r| {
            let i32_at = |o: usize| i32::from_be_bytes(r[o..o + 4].try_into().unwrap());
            let u16_at = |o: usize| u16::from_be_bytes(r[o..o + 2].try_into().unwrap());
            Region {
                center: [i32_at(0), i32_at(4), i32_at(8)],
                radius: i32_at(12),
                first_point: u16_at(16),
                point_count: u16_at(18),
                first_polygon: u16_at(20),
                polygon_count: u16_at(22),
            }
        })
        .collect()
}

/// The level with its regions changed by `change`: the error reading it.
fn with_regions(change: impl FnOnce(&mut JomFile, &mut Vec<Region>)) -> Result<usize, LoadError> {
    let mut file = level(2, 2, 4);
    let mut regions = regions_of(&file);
    change(&mut file, &mut regions);
    file.extra_chunks = vec![regions_chunk(&regions)];
    let bytes = AlignedBytes::new(&file.to_bytes());
    Model::from_bytes(bytes.bytes()).map(|m| m.regions().len())
}

/// The offset of region `i`'s record in the level's file (REGN is its last chunk).
fn region_offset(i: usize) -> usize {
    let file = level(2, 2, 4);
    let bytes = file.to_bytes();
    let aligned = AlignedBytes::new(&bytes);
    let model = Model::from_bytes(aligned.bytes()).unwrap();
    let regn = model.chunks().find(|c| c.tag == Tag::REGN).unwrap();
    regn.data_offset() + 4 + 24 * i
}

fn bad(region: usize, problem: RegionProblem) -> Result<usize, LoadError> {
    Err(LoadError::BadRegion {
        offset: region_offset(region),
        region,
        problem,
    })
}

#[test]
fn a_level_reads_its_regions() {
    assert_eq!(with_regions(|_, _| {}), Ok(4));
    // None: a model as without the chunk.
    assert_eq!(with_regions(|_, r| r.clear()), Ok(0));
}

#[test]
fn each_broken_region_rule_is_its_error() {
    use RegionProblem::*;
    assert_eq!(
        with_regions(|_, r| r[1].first_polygon += 1),
        bad(
            1,
            PolygonsNotNext {
                first: 5,
                expected: 4
            }
        )
    );
    assert_eq!(
        with_regions(|_, r| r[3].polygon_count -= 1),
        bad(
            3,
            PolygonsNotAll {
                end: 15,
                polygons: 16
            }
        )
    );
    assert_eq!(
        with_regions(|_, r| r[2].first_point = 8),
        bad(
            2,
            PointsOutOfOrder {
                first: 8,
                end: 17,
                after: 18,
                points: 36
            }
        )
    );
    assert_eq!(
        with_regions(|_, r| r[3].point_count = 30),
        bad(
            3,
            PointsOutOfOrder {
                first: 27,
                end: 57,
                after: 27,
                points: 36
            }
        )
    );
    // Region 0's points shrunk: its last polygon's corner 8 is outside.
    assert_eq!(
        with_regions(|_, r| r[0].point_count = 8),
        bad(
            0,
            CornerOutside {
                polygon: 3,
                point: 8
            }
        )
    );
    assert_eq!(
        with_regions(|_, r| r[0].radius = 0x10000),
        bad(
            0,
            PointOutside {
                point: 0,
                distance: 370727,
                radius: 0x10000
            }
        )
    );
    assert_eq!(
        with_regions(|_, r| r[0].radius = -1),
        bad(
            0,
            PointOutside {
                point: 0,
                distance: 370727,
                radius: -1
            }
        )
    );
    assert_eq!(
        with_regions(|_, r| r[1].center = [0x7000_0000, 0, 0]),
        bad(
            1,
            CenterOutOfReach {
                distance: 0x7000_0000,
                reach: 741456
            }
        )
    );
    // A region may not start with a polygon that takes the depth of the one before.
    assert_eq!(
        with_regions(|f, _| {
            f.materials[1].flags |= 0b110;
            f.polygon_materials[4] = 1;
        }),
        bad(1, StartsWithPrevious { polygon: 4 })
    );
}

#[test]
fn each_error_names_its_region_and_offset() {
    let error = with_regions(|_, r| r[1].first_polygon += 1).unwrap_err();
    let offset = region_offset(1);
    assert_eq!(
        error.to_string(),
        format!(
            "REGN chunk, region 1 at offset {offset} ({offset:#x}): its polygons start at 5, \
             expected 4 (right after the region before's)"
        )
    );
}

/// The levels fixture with its lower levels replaced by `levels`.
fn with_levels(levels: &[(u32, Vec<u8>)]) -> Result<usize, LoadError> {
    let mut file = fixtures::levels();
    file.extra_chunks = vec![levels_chunk(levels)];
    let bytes = AlignedBytes::new(&file.to_bytes());
    Model::from_bytes(bytes.bytes()).map(|m| m.levels().count())
}

fn lower() -> JomFile {
    fixtures::levels_lower()
}

#[test]
fn levels_read_in_order_of_size() {
    let one = lower().to_bytes();
    assert_eq!(with_levels(&[(40, one.clone())]), Ok(1));
    assert_eq!(with_levels(&[(40, one.clone()), (10, one.clone())]), Ok(2));
    assert_eq!(with_levels(&[]), Ok(0));
}

#[test]
fn each_broken_level_rule_is_its_error() {
    let one = lower().to_bytes();
    let level_offset = |k: usize| {
        let file = fixtures::levels();
        let bytes = file.to_bytes();
        let aligned = AlignedBytes::new(&bytes);
        let model = Model::from_bytes(aligned.bytes()).unwrap();
        let lods = model.chunks().find(|c| c.tag == Tag::LODS).unwrap();
        lods.data_offset() + 4 + (8 + one.len()) * (k - 1)
    };
    let bad = |level, problem| {
        Err(LoadError::BadLevel {
            offset: level_offset(level),
            level,
            problem,
        })
    };
    assert_eq!(
        with_levels(&[(40, one.clone()), (40, one.clone())]),
        bad(
            2,
            LevelProblem::NotSmaller {
                pixels: 40,
                before: 40
            }
        )
    );
    assert_eq!(
        with_levels(&[(0, one.clone())]),
        bad(
            1,
            LevelProblem::NotSmaller {
                pixels: 0,
                before: u32::MAX
            }
        )
    );
    // Another skeleton: the mesh's own pivots.
    let other = JomFile {
        extra_chunks: Vec::new(),
        ..jom_write::scenes::mesh(4, 4)
    };
    assert_eq!(
        with_levels(&[(40, other.to_bytes())]),
        bad(1, LevelProblem::OtherSkeleton { chunk: Tag::BONE })
    );
    // A level with levels of its own.
    let mut nested = lower();
    nested.extra_chunks = vec![levels_chunk(&[])];
    assert_eq!(
        with_levels(&[(40, nested.to_bytes())]),
        bad(1, LevelProblem::Nested)
    );
    // A level's file refused: cut short.
    let cut = one[..one.len() - 8].to_vec();
    assert_eq!(
        with_levels(&[(40, cut)]),
        Err(LoadError::LevelRefused {
            offset: level_offset(1) + 8,
            level: 1
        })
    );
}
