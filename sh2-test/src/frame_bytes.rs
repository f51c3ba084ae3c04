//! The bytes of a frame the renderer committed to VDP1 VRAM, as the VDP1 reads them: the
//! jump command at address 0, the list it jumps to through its end command, each command
//! followed by the gouraud table it names (if any). What the SH-2 test of the demo's scene
//! compares with the host's (`tools/vdp1-soft/examples/demo_frame.rs --commands`, which
//! includes this file).

use jom::vdp1::{CommandTable, CTRL_END};

/// The renderer's memory the compared frame is drawn with, on both sides: room for the
/// demo's scene of the robot (three figures of 48 points and 36 polygons), small enough for
/// the SH-2 test program beside its suites (the demo's own memory, sized for any model of
/// `ci/models.sh`, is not). `Some` the first time, `None` after.
macro_rules! compared_memory {
    () => {
        jom::renderer_memory!(points: 256, polygons: 256, commands: 256, frame_gouraud: 256,
            model_gouraud: 16, textures: 16, model_textures: 16, model_polygons: 256, model_planes: 256, draws: 4)
    };
}
pub(crate) use compared_memory;

/// The most commands a list is followed for (the demo's lists hold 3,072).
const MAX_COMMANDS: u32 = 4096;

/// Gives `out` the committed frame's bytes, reading VRAM through `read(address, bytes)`;
/// an error when the list has no end command within [`MAX_COMMANDS`].
pub fn committed_frame(
    mut read: impl FnMut(u32, &mut [u8]),
    mut out: impl FnMut(&[u8]),
) -> Result<(), &'static str> {
    let mut table = [0u8; 32];
    read(0, &mut table);
    out(&table);
    let list = u32::from(CommandTable::from_be_bytes(&table).link) * 8;
    for index in 0..MAX_COMMANDS {
        read(list + 32 * index, &mut table);
        out(&table);
        let command = CommandTable::from_be_bytes(&table);
        if command.ctrl & CTRL_END != 0 {
            return Ok(());
        }
        if command.grda != 0 {
            let mut gouraud = [0u8; 8];
            read(u32::from(command.grda) * 8, &mut gouraud);
            out(&gouraud);
        }
    }
    Err("the list has no end command")
}
