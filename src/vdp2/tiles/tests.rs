//! The floor file's reader: a good file's views, and one precise error for each field a bad
//! file breaks.

use super::*;
use crate::{check, check_eq};

/// A file of a picture 2 cells wide and 1 high, 3 colours, 2 cells (cell 1, then cell 0).
pub(crate) const SIZE: usize = HEADER_BYTES + 2 * 3 + 2 * 2 + 2 * CELL_BYTES;

pub(crate) fn good() -> [u8; SIZE] {
    let mut file = [0u8; SIZE];
    file[..4].copy_from_slice(&MAGIC);
    let header: [u16; 6] = [VERSION, 2, 1, 3, 2, 0];
    for (i, value) in header.iter().enumerate() {
        file[4 + 2 * i..6 + 2 * i].copy_from_slice(&value.to_be_bytes());
    }
    for (i, color) in [0x0000u16, 0x7FFF, 0x001F].iter().enumerate() {
        file[16 + 2 * i..18 + 2 * i].copy_from_slice(&color.to_be_bytes());
    }
    // The map: cell 1, then cell 0.
    file[22..24].copy_from_slice(&1u16.to_be_bytes());
    file[24..26].copy_from_slice(&0u16.to_be_bytes());
    // Cell 0 all colour 1, cell 1 colour 2 but its first pixel 0.
    file[26..26 + 64].fill(1);
    file[90..90 + 64].fill(2);
    file[90] = 0;
    file
}

fn error_of(file: &[u8]) -> Option<(usize, &'static str)> {
    FloorTiles::from_bytes(file)
        .err()
        .map(|e| (e.offset, e.expected))
}

crate::test_suite! {
    fn a_good_file_reads() {
        let file = good();
        let tiles = FloorTiles::from_bytes(&file);
        check!(tiles.is_ok());
        let Ok(tiles) = tiles else { return Ok(()) };
        check_eq!((tiles.width_cells(), tiles.height_cells()), (2, 1));
        check_eq!((tiles.colors(), tiles.cells()), (3, 2));
        check_eq!([tiles.color(0), tiles.color(1), tiles.color(2), tiles.color(3)], [0, 0x7FFF, 0x1F, 0]);
        check_eq!(tiles.cell(0), &[1u8; 64][..]);
        check_eq!(tiles.cell(1)[..2], [0, 2]);
        // Bank A1 starts at character 0x1000; a cell is two characters of 32 bytes. The
        // picture repeats across the page: even columns show cell 1, odd ones cell 0.
        check_eq!(tiles.page_name(0, 0), [0, 0x1002]);
        check_eq!(tiles.page_name(1, 0), [0, 0x1000]);
        check_eq!(tiles.page_name(62, 63), [0, 0x1002]);
        check_eq!(tiles.page_name(63, 5), [0, 0x1000]);
    }

    fn each_bad_field_is_named_at_its_offset() {
        check_eq!(error_of(&good()[..10]), Some((10, "a header of 16 bytes")));
        let cases: [(usize, u8, usize); 10] = [
            (0, b'X', 0),
            (5, 2, 4),   // version 2
            (7, 3, 6),   // width 3 cells
            (9, 128, 8), // height 128 cells
            (11, 0, 10), // no colours
            (13, 0, 12), // no cells
            (15, 1, 14), // reserved
            (16, 0x80, 16), // colour 0 with bit 15
            (23, 2, 22),  // map: cell 2 of 2
            (26 + 64 + 7, 3, 26 + 64 + 7), // a pixel of colour 3 of 3
        ];
        for (at, value, offset) in cases {
            let mut file = good();
            file[at] = value;
            let found = error_of(&file);
            check!(found.map(|(o, _)| o) == Some(offset));
        }
        // A byte short, a byte long: where the file should end.
        check_eq!(error_of(&good()[..SIZE - 1]).map(|e| e.0), Some(SIZE - 1));
        let mut long = [0u8; SIZE + 1];
        long[..SIZE].copy_from_slice(&good());
        check_eq!(error_of(&long), Some((SIZE, "the file to end after the cells")));
    }
}
