//! 16-colour lookup tables where the VDP1 reads them: a table on a 32-byte boundary is
//! drawn, a list with one off it is refused (a console would read the table from the
//! boundary below it).

use jom::vdp1::{
    ColorCalc, ColorMode, CommandTable, DrawMode, Point, Rule, RuleBreak, Sprite, VRAM_SIZE,
};
use vdp1_soft::{draw_list, FrameBuffer};

const LIST: u32 = 0;
const TABLES: u32 = 0x1000;
const PIXELS: u32 = 0x2000;
const RED: u16 = 0x801F;
const GREEN: u16 = 0x83E0;

/// An 8x8 texture of colour code 1 drawn over the frame's 8x8 pixels with its lookup table
/// at `lut`; VRAM holds a table whose code 1 is red at `TABLES` and one whose code 1 is
/// green 8 bytes further.
fn drawn_with_table_at(lut: u32) -> Result<FrameBuffer, RuleBreak> {
    let mut vram = vec![0u8; VRAM_SIZE as usize];
    let mut put = |address: u32, word: u16| {
        vram[address as usize..address as usize + 2].copy_from_slice(&word.to_be_bytes());
    };
    put(TABLES + 2, RED);
    put(TABLES + 8 + 2, GREEN);
    for byte in 0..32 {
        vram[(PIXELS + byte) as usize] = 0x11;
    }
    let sprite = Sprite {
        address: PIXELS,
        width: 8,
        height: 8,
        lut: Some(lut),
    };
    let corners = [
        Point::new(0, 0),
        Point::new(7, 0),
        Point::new(7, 7),
        Point::new(0, 7),
    ];
    let mode = DrawMode::new(ColorMode::Lut16, ColorCalc::Replace, false, false);
    let table = CommandTable::distorted_sprite(&sprite, corners, mode, 0);
    vram[LIST as usize..LIST as usize + 32].copy_from_slice(&table.to_be_bytes());
    vram[LIST as usize + 32..LIST as usize + 64]
        .copy_from_slice(&CommandTable::end().to_be_bytes());
    let mut frame = FrameBuffer::new(8, 8);
    draw_list(&vram, LIST, &mut frame)?;
    Ok(frame)
}

#[test]
fn a_table_on_a_32_byte_boundary_is_read_where_it_is() {
    assert_eq!(drawn_with_table_at(TABLES).map(|f| f.get(3, 3)), Ok(RED));
}

#[test]
fn a_list_with_a_table_off_a_32_byte_boundary_is_refused() {
    let off = RuleBreak {
        command: LIST,
        rule: Rule::LookupTableOffBoundary,
    };
    for lut in [TABLES + 8, TABLES + 24] {
        assert_eq!(drawn_with_table_at(lut).err(), Some(off));
    }
}

/// Twelve quads in a row facing the camera, quad `i` with a 16-colour texture 8 pixels
/// wide and `i + 1` high (sizes that are not multiples of 32 bytes), all of colour code 1.
fn twelve_small_lut_textures() -> jom_write::AlignedBytes {
    use jom::math::ONE;
    use jom_write::{JomFile, Material, Pixels, Polygon, Texture};
    let mut file = JomFile {
        version: 1,
        radius: 8 * ONE,
        textures: Some(Vec::new()),
        ..Default::default()
    };
    for i in 0..12u16 {
        let x = (i32::from(i) - 6) * ONE / 2;
        let first = file.points.len() as u16;
        for (dx, y) in [(0, -1), (1, -1), (1, 1), (0, 1)] {
            file.points.push([x + dx * ONE / 2, y * ONE / 2, 0]);
        }
        file.polygons.push(Polygon {
            normal: [0, 0, -ONE],
            corners: [first, first + 1, first + 2, first + 3],
        });
        file.polygon_materials.push(i);
        file.materials.push(Material {
            name: format!("m{i}"),
            texture: i as i16,
            ..Default::default()
        });
        let name = format!("T{i}.BIN");
        file.texture_names.push(name.clone());
        let mut lut = [0u16; 16];
        lut[1] = RED;
        let height = i + 1;
        let pixels = Pixels::Lut4 {
            lut,
            indices: vec![0x11; 4 * usize::from(height)],
        };
        let texture = Texture {
            name,
            width: 8,
            height,
            pixels,
        };
        if let Some(textures) = file.textures.as_mut() {
            textures.push(texture);
        }
    }
    jom_write::AlignedBytes::new(&file.to_bytes())
}

#[test]
fn small_lut_textures_drawn_through_the_engine_keep_the_rules() {
    let bytes = twelve_small_lut_textures();
    let model = jom::Model::from_bytes(bytes.bytes()).expect("a valid model");
    let view = vdp1_soft::preview::View::default();
    let (frame, stats) = vdp1_soft::preview::render(&model, &view).expect("a list the VDP1 draws");
    assert_eq!(stats.drawn, 12);
    assert!(frame.pixels.iter().filter(|&&p| p == RED).count() > 12 * 16);
}
