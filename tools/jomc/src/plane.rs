//! `jomc plane PICTURE.png -o FLOOR.BIN`: a picture to the VDP2 floor's file
//! (`jom::vdp2::tiles`, `docs/vdp2.md`): the picture cut into cells of 8 x 8 pixels
//! (identical cells kept once), each pixel an index into a palette of at most 256 RGB555
//! colours (each channel rounded to 5 bits as the converter rounds textures), as RBG0's
//! 256-colour cells read them. The picture must be opaque (the floor has no holes: the
//! sky is where the floor ends) and 8, 16, 32, 64, 128, 256 or 512 pixels on each side (it
//! repeats across the VDP2's plane of 512).

use crate::convert::{rgb555, Image};
use jom::vdp2::tiles::{FloorTiles, CELL_BYTES, HEADER_BYTES, MAGIC, PAGE_CELLS, VERSION};
use std::collections::HashMap;
use std::path::PathBuf;

/// The most colours of a palette.
const MAX_COLORS: usize = 256;
/// The most distinct cells (what bank A1 holds).
const MAX_CELLS: usize = jom::vdp2::layout::MAX_CELLS;

/// `jomc plane`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The picture: a PNG of any colour type, opaque, 8 to 512 pixels a side (a power of
    /// two), at most 256 colours once rounded to RGB555.
    #[arg(value_name = "PICTURE")]
    pub picture: PathBuf,
    /// The floor file to write.
    #[arg(short, long)]
    pub output: PathBuf,
}

/// Converts `args.picture` and writes `args.output`; says what it wrote.
pub fn run(args: &Args) -> Result<String, String> {
    let path = args.picture.display().to_string();
    let bytes = std::fs::read(&args.picture).map_err(|e| format!("{path}: {e}"))?;
    let image =
        Image::from_png(&bytes, path.clone(), path.clone()).map_err(|e| format!("{path}: {e}"))?;
    let file = plane_file(&image).map_err(|e| format!("{path}: {e}"))?;
    let tiles = FloorTiles::from_bytes(&file).map_err(|e| format!("{path}: wrote {e}"))?;
    std::fs::write(&args.output, &file).map_err(|e| format!("{}: {e}", args.output.display()))?;
    Ok(format!(
        "{}: {} x {} pixels, {} cells ({} distinct), {} colours, {} bytes\n",
        args.output.display(),
        image.width,
        image.height,
        u32::from(tiles.width_cells()) * u32::from(tiles.height_cells()),
        tiles.cells(),
        tiles.colors(),
        file.len()
    ))
}

/// The floor file of `image` (see the module's documentation), or what is wrong with it.
pub fn plane_file(image: &Image) -> Result<Vec<u8>, String> {
    let side = |n: u32| n.is_power_of_two() && (8..=8 * PAGE_CELLS).contains(&n);
    if !side(image.width) || !side(image.height) {
        return Err(format!(
            "{} x {} pixels: a floor's picture is 8, 16, 32, 64, 128, 256 or 512 pixels on \
             each side (it repeats across the VDP2's plane of 512)",
            image.width, image.height
        ));
    }
    let (palette, indexes) = palette(image)?;
    let (columns, rows) = (image.width / 8, image.height / 8);
    let mut cells: Vec<[u8; CELL_BYTES]> = Vec::new();
    let mut seen: HashMap<[u8; CELL_BYTES], u16> = HashMap::new();
    let mut map = Vec::new();
    for row in 0..rows {
        for column in 0..columns {
            let cell: [u8; CELL_BYTES] = std::array::from_fn(|i| {
                let (x, y) = (column * 8 + i as u32 % 8, row * 8 + i as u32 / 8);
                indexes[(y * image.width + x) as usize]
            });
            let next = cells.len() as u16;
            let index = *seen.entry(cell).or_insert(next);
            if index == next {
                cells.push(cell);
            }
            map.push(index);
        }
    }
    if cells.len() > MAX_CELLS {
        return Err(format!(
            "{} distinct cells of 8 x 8 pixels: RBG0's bank holds {MAX_CELLS} (repeat more \
             cells, or use a smaller picture)",
            cells.len()
        ));
    }
    let mut file = Vec::with_capacity(HEADER_BYTES + 2 * (palette.len() + map.len()));
    file.extend_from_slice(&MAGIC);
    let header = [VERSION, columns as u16, rows as u16, palette.len() as u16];
    for word in header.into_iter().chain([cells.len() as u16, 0]) {
        file.extend_from_slice(&word.to_be_bytes());
    }
    for word in palette.into_iter().chain(map) {
        file.extend_from_slice(&word.to_be_bytes());
    }
    for cell in &cells {
        file.extend_from_slice(cell);
    }
    Ok(file)
}

/// The picture's colours in the order they first appear (RGB555, bit 15 clear), and each
/// pixel's index among them.
fn palette(image: &Image) -> Result<(Vec<u16>, Vec<u8>), String> {
    let mut palette: Vec<u16> = Vec::new();
    let mut index_of: HashMap<u16, u8> = HashMap::new();
    let mut indexes = Vec::with_capacity(image.rgba.len());
    for (i, &pixel) in image.rgba.iter().enumerate() {
        if pixel[3] != 255 {
            let (x, y) = (i as u32 % image.width, i as u32 / image.width);
            return Err(format!(
                "pixel ({x}, {y}) has alpha {}: a floor's picture is opaque (the sky shows \
                 where the floor ends, not through it)",
                pixel[3]
            ));
        }
        let color = rgb555(pixel) & 0x7FFF;
        let index = match index_of.get(&color) {
            Some(&index) => index,
            None if palette.len() == MAX_COLORS => {
                let count = image
                    .rgba
                    .iter()
                    .map(|&p| rgb555(p))
                    .collect::<std::collections::HashSet<_>>()
                    .len();
                return Err(format!(
                    "{count} colours once rounded to RGB555: RBG0's 256-colour cells hold at \
                     most {MAX_COLORS} (reduce the picture's colours, e.g. save it as an \
                     indexed PNG)"
                ));
            }
            None => {
                let index = palette.len() as u8;
                palette.push(color);
                index_of.insert(color, index);
                index
            }
        };
        indexes.push(index);
    }
    Ok((palette, indexes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> Image {
        let rgba = (0..width * height)
            .map(|i| pixel(i % width, i / width))
            .collect();
        Image {
            name: "t.png".into(),
            label: "t.png".into(),
            width,
            height,
            rgba,
        }
    }

    #[test]
    fn the_file_holds_the_picture() {
        // A 16 x 8 picture: a checker of 4-pixel squares in red and white, one blue pixel.
        let picture = image(16, 8, |x, y| match (x, y) {
            (13, 6) => [0, 0, 255, 255],
            _ if (x / 4 + y / 4) % 2 == 0 => [255, 0, 0, 255],
            _ => [255, 255, 255, 255],
        });
        let file = plane_file(&picture).unwrap();
        let tiles = FloorTiles::from_bytes(&file).unwrap();
        assert_eq!((tiles.width_cells(), tiles.height_cells()), (2, 1));
        // The two cells differ (the blue pixel): both kept; three colours.
        assert_eq!((tiles.cells(), tiles.colors()), (2, 3));
        for y in 0..8 {
            for x in 0..16 {
                let [_, character] = tiles.page_name(x / 8, 0);
                let cell = ((u32::from(character) * 32 - 0x2_0000) / 64) as u16;
                let index = tiles.cell(cell)[(y * 8 + x % 8) as usize];
                let rgba = picture.rgba[(y * 16 + x) as usize];
                assert_eq!(tiles.color(u16::from(index)), rgb555(rgba) & 0x7FFF);
            }
        }
    }

    #[test]
    fn identical_cells_are_kept_once() {
        let picture = image(64, 64, |x, y| {
            [((x % 8) * 30) as u8, (y % 8 * 30) as u8, 0, 255]
        });
        let tiles_file = plane_file(&picture).unwrap();
        let tiles = FloorTiles::from_bytes(&tiles_file).unwrap();
        assert_eq!((tiles.width_cells(), tiles.cells()), (8, 1));
    }

    #[test]
    fn bad_pictures_say_why() {
        let opaque = |_, _| [1, 2, 3, 255];
        let error = |picture: &Image| plane_file(picture).unwrap_err();
        assert!(error(&image(100, 64, opaque)).starts_with("100 x 64 pixels: a floor's"));
        assert!(error(&image(1024, 8, opaque)).starts_with("1024 x 8 pixels"));
        let holed = image(8, 8, |x, y| {
            [0, 0, 0, if (x, y) == (3, 5) { 0 } else { 255 }]
        });
        assert!(error(&holed).starts_with("pixel (3, 5) has alpha 0"));
        // 1,024 colours, all distinct in RGB555 (32 x 32 greens and blues).
        let colorful = image(32, 32, |x, y| {
            [0, (x * 255 / 31) as u8, (y * 255 / 31) as u8, 255]
        });
        assert!(error(&colorful).starts_with("1024 colours once rounded"));
        // 4,096 cells of 2 colours, each its own pattern (its number in its first bits).
        let noisy = image(512, 512, |x, y| {
            let (cell, bit) = ((y / 8) * 64 + x / 8, (y % 8) * 8 + x % 8);
            let on = bit < 12 && (cell >> bit) & 1 == 1;
            [if on { 255 } else { 0 }, 0, 0, 255]
        });
        let noisy = error(&noisy);
        assert!(noisy.starts_with("4096 distinct cells"), "{noisy}");
    }
}
