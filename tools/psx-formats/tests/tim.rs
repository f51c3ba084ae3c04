//! TIM reading and texel sampling through texture pages and lookup tables.

mod writer;

use psx_formats::tim::{self, PixelMode};
use psx_formats::vram::{ClutPosition, Depth, FrameBuffer, Missing, TexturePage};
use writer::Block;

fn page(x: u16, y: u16, depth: Depth) -> TexturePage {
    TexturePage {
        x,
        y,
        depth,
        rate: 0,
    }
}

#[test]
fn a_4_bit_image_samples_its_lookup_table() {
    let clut: Vec<u16> = (0..16).map(|i| 0x8000 | (i * 0x21)).collect();
    // 8 x 2 pixels: 2 words a row, pixel u in bits 4 (u % 4) of word u / 4.
    let image = [0x3210, 0x7654, 0xBA98, 0xFEDC];
    let bytes = writer::tim(
        0,
        Some(&Block {
            x: 0,
            y: 480,
            width: 16,
            height: 1,
            words: &clut,
        }),
        &Block {
            x: 640,
            y: 0,
            width: 2,
            height: 2,
            words: &image,
        },
    );
    let tim = tim::read(&bytes).expect("reads");
    assert_eq!(tim.mode, PixelMode::Clut4);
    assert_eq!(tim.pixel_width(), 8);
    let c = tim.clut.as_ref().expect("a lookup table");
    assert_eq!((c.x, c.y, c.width, c.height, c.offset), (0, 480, 16, 1, 8));
    assert_eq!(
        (tim.image.x, tim.image.y, tim.image.offset),
        (640, 0, 8 + 12 + 32)
    );
    let mut vram = FrameBuffer::new();
    vram.load(&tim);
    let p = TexturePage::from_tsb(10);
    assert_eq!(p, page(640, 0, Depth::Clut4));
    let cba = ClutPosition::from_cba(0x7800);
    assert_eq!(cba, ClutPosition { x: 0, y: 480 });
    for u in 0..8u8 {
        for v in 0..2u8 {
            let index = u16::from(u) + 8 * u16::from(v);
            assert_eq!(
                vram.texel(p, cba, u, v),
                Ok(0x8000 | (index * 0x21)),
                "({u}, {v})"
            );
        }
    }
    assert_eq!(
        vram.texel(p, cba, 8, 0),
        Err(Missing::Texel { x: 642, y: 0 })
    );
    assert_eq!(
        vram.texel(p, ClutPosition { x: 16, y: 480 }, 0, 0),
        Err(Missing::Clut { x: 16, y: 480 })
    );
}

#[test]
fn an_8_bit_image_samples_its_256_colours() {
    let clut: Vec<u16> = (0..256).map(|i| 0x8000 | i).collect();
    let image = [0x0100, 0xFF80];
    let bytes = writer::tim(
        1,
        Some(&Block {
            x: 256,
            y: 500,
            width: 256,
            height: 1,
            words: &clut,
        }),
        &Block {
            x: 128,
            y: 256,
            width: 2,
            height: 1,
            words: &image,
        },
    );
    let tim = tim::read(&bytes).expect("reads");
    assert_eq!((tim.mode, tim.pixel_width()), (PixelMode::Clut8, 4));
    let mut vram = FrameBuffer::new();
    vram.load(&tim);
    let p = TexturePage::from_tsb(2 | 0x10 | 0x80);
    assert_eq!(p, page(128, 256, Depth::Clut8));
    let cba = ClutPosition::from_cba((500 << 6) | 16);
    assert_eq!(cba, ClutPosition { x: 256, y: 500 });
    let texels: Vec<_> = (0..4)
        .map(|u| vram.texel(p, cba, u, 0).expect("loaded"))
        .collect();
    assert_eq!(texels, [0x8000, 0x8001, 0x8080, 0x80FF]);
}

#[test]
fn a_15_bit_image_is_its_own_colours() {
    let image = [0x001F, 0x03E0, 0x7C00, 0x0000];
    let bytes = writer::tim(
        2,
        None,
        &Block {
            x: 960,
            y: 0,
            width: 2,
            height: 2,
            words: &image,
        },
    );
    let tim = tim::read(&bytes).expect("reads");
    assert_eq!((tim.mode, tim.clut.is_none()), (PixelMode::Direct15, true));
    let mut vram = FrameBuffer::new();
    vram.load(&tim);
    let p = TexturePage::from_tsb(15 | 0x100 | 0x60);
    assert_eq!(
        p,
        TexturePage {
            x: 960,
            y: 0,
            depth: Depth::Direct15,
            rate: 3
        }
    );
    let any = ClutPosition { x: 0, y: 0 };
    assert_eq!(vram.texel(p, any, 1, 1), Ok(0));
    assert_eq!(vram.texel(p, any, 0, 1), Ok(0x7C00));
    assert_eq!(
        vram.texel(TexturePage::from_tsb(0x180), any, 0, 0),
        Err(Missing::ReservedDepth)
    );
}

#[test]
fn a_later_image_overwrites_an_earlier_one() {
    let a = tim::read(&writer::tim(
        2,
        None,
        &Block {
            x: 0,
            y: 0,
            width: 2,
            height: 1,
            words: &[1, 2],
        },
    ))
    .unwrap();
    let b = tim::read(&writer::tim(
        2,
        None,
        &Block {
            x: 1,
            y: 0,
            width: 1,
            height: 1,
            words: &[9],
        },
    ))
    .unwrap();
    let mut vram = FrameBuffer::new();
    vram.load(&a);
    vram.load(&b);
    assert_eq!(
        (vram.word(0, 0), vram.word(1, 0), vram.word(2, 0)),
        (Some(1), Some(9), None)
    );
}

fn error(bytes: &[u8]) -> (usize, String) {
    let e = tim::read(bytes).expect_err("must fail");
    (e.offset, e.message)
}

#[test]
fn bad_files_name_the_byte_and_what_was_expected() {
    let clut = [0u16; 16];
    let image = [0u16; 4];
    let good = writer::tim(
        0,
        Some(&Block {
            x: 0,
            y: 480,
            width: 16,
            height: 1,
            words: &clut,
        }),
        &Block {
            x: 640,
            y: 0,
            width: 2,
            height: 2,
            words: &image,
        },
    );
    assert!(tim::read(&good).is_ok());

    let mut id = good.clone();
    id[0] = 0x11;
    assert_eq!(
        error(&id),
        (0, "ID 0x11, expected 0x10 (not a TIM file)".into())
    );

    let mut mode = good.clone();
    mode[4] = 3;
    assert!(error(&mode).1.starts_with("pixel mode 3 (24-bit)"));

    // Without CF the image is read alone: its lookup table comes from another TIM.
    let mut no_clut = writer::tim(
        0,
        None,
        &Block {
            x: 640,
            y: 0,
            width: 2,
            height: 2,
            words: &image,
        },
    );
    no_clut[4] = 0;
    let alone = tim::read(&no_clut).expect("a 4-bit image without its lookup table");
    assert_eq!((alone.mode, alone.clut.is_none()), (PixelMode::Clut4, true));

    let mut length = good.clone();
    length[8] = 40;
    assert_eq!(
        error(&length),
        (
            8,
            "lookup table block length 40, expected 44 (12 + 2 x 16 x 1 words)".into()
        )
    );

    let outside = writer::tim(
        2,
        None,
        &Block {
            x: 1020,
            y: 0,
            width: 8,
            height: 1,
            words: &[0; 8],
        },
    );
    let (at, message) = error(&outside);
    assert_eq!(at, 12);
    assert!(
        message.contains("expected inside the frame buffer (1024 x 512)"),
        "{message}"
    );

    let (at, message) = error(&good[..good.len() - 2]);
    assert_eq!(at, 8 + 44 + 12);
    assert!(message.contains("go past the end of the file"), "{message}");

    let mut longer = good.clone();
    longer.extend([0, 0]);
    assert_eq!(error(&longer).0, good.len());
}
