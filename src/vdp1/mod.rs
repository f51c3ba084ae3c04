//! The VDP1, the Saturn's sprite and polygon processor, as data: its 32-byte command
//! tables with typed builders, gouraud tables, and VRAM (a trait with a memory-backed
//! implementation, its layout in regions, and the caches that upload textures and gouraud
//! tables once), and the manual's rules for a list checked on what VRAM holds (`rules`).
//! Nothing here touches hardware: the Saturn's `Vram` lives in `hw`.

mod command;
mod rules;
mod texture;
mod vram;

pub(crate) use command::{field_halves, field_pair};
pub use command::{
    ColorCalc, ColorMode, Command, CommandTable, DrawMode, GouraudTable, Point, Sprite, ZoomPoint,
    CTRL_END, CTRL_FLIP_H, CTRL_FLIP_V,
};
pub use rules::{check_list, next_command, Rule, RuleBreak};
pub use texture::{
    pixel4, GouraudCache, ModelTextures, SpriteSet, TextureCache, TextureSlot, TextureSource,
};
pub(crate) use texture::{GouraudStore, SlotSlice, TextureStore};
pub(crate) use vram::RegionAllocator;
pub use vram::{
    FrameEnd, FrameTimeout, MemoryVram, Vdp1, Vram, VramError, VramLayout, TEXTURE_BLOCK_BYTES,
    VRAM_SIZE,
};

#[cfg(any(test, feature = "selftest"))]
pub(crate) mod tests;
