//! The report on a Saturn (an emulator or a console): on the screen (`jom::hw::text`: a
//! line a suite and each failure as the tests go, at the end the totals on a bar across
//! the bottom row, green when every test passed, red otherwise, over a back screen of the
//! same colour); to backup RAM after the marker "JOMT" (`jom::hw::backup_ram`), first the
//! console's video standard (`video standard: NTSC` or `PAL`, not a test:
//! `ci/sh2-test-mednafen.sh --region` checks it); to the USB dev cart when a PC reads it
//! (`jom::hw::usb_cart`). Also the tests of the hardware itself.

use core::fmt::{self, Write};
use jom::disc::DiscError;
use jom::hw::backup_ram::BackupRamText;
use jom::hw::cd::CdDrive;
use jom::hw::cd::CdSectors;
use jom::hw::frt::{self, Divider};
use jom::hw::scu::{self, DmaError};
use jom::hw::text::{Color, TextLayer};
use jom::hw::usb_cart::{SaturnCartPort, UsbCart};
use jom::hw::{self, Saturn, SaturnVram, ScreenWidth};
use jom::iso9660::Iso9660;
use jom::selftest::{Failure, Test, TestResult};
use jom::vdp1::{CommandTable, Point, Vram};

use crate::Line;

/// The demo's scene (`demo/src/scene.rs`; its memory macro and back screen colour are the
/// demo's alone).
#[allow(dead_code, unused_macros, unused_imports)]
#[path = "../../demo/src/scene.rs"]
mod scene;

#[path = "frame_bytes.rs"]
mod frame_bytes;

/// The back screen at the end: green when every test passed, red otherwise; black before.
const PASSED: u16 = 0x8000 | 24 << 5;
const FAILED: u16 = 0x8000 | 24;
const RUNNING: u16 = 0x8000;

/// The screen's rows above the totals' bar, which its last row holds.
const ROWS: usize = 27;
/// The screen's columns (320 pixels).
const COLUMNS: usize = 40;

/// The report's outputs.
pub struct Outputs {
    backup_ram: BackupRamText,
    usb_cart: Option<UsbCart<SaturnCartPort>>,
    /// The last lines shown, oldest first.
    screen: heapless::Deque<(heapless::String<COLUMNS>, Color), ROWS>,
    /// The totals, for the bar.
    totals: heapless::String<COLUMNS>,
}

pub fn open() -> Outputs {
    hw::mask_interrupts();
    hw::init_display(RUNNING);
    let mut outputs = Outputs {
        backup_ram: BackupRamText::open(b"JOMT"),
        usb_cart: UsbCart::find(SaturnCartPort),
        screen: heapless::Deque::new(),
        totals: heapless::String::new(),
    };
    let standard = hw::video_standard();
    crate::Report::line(
        &mut outputs,
        Line::Suite,
        format_args!("video standard: {standard}"),
    );
    outputs
}

impl Outputs {
    /// Keeps `text`'s start (what fits a row) as the screen's newest line.
    fn keep(&mut self, text: fmt::Arguments<'_>, color: Color) {
        let line = cut(text);
        if self.screen.is_full() {
            self.screen.pop_front();
        }
        let _ = self.screen.push_back((line, color));
    }

    /// Sets the text layer up again (a test may have set the display up since) and shows
    /// the lines kept.
    fn show(&self) -> TextLayer<jom::hw::text::Vdp2Vram> {
        let mut text = TextLayer::init(ScreenWidth::W320);
        for (row, (line, color)) in self.screen.iter().enumerate() {
            text.write_at(0, row as u8, line, *color);
        }
        text
    }
}

/// What of `text` fits a row: a longer line is cut (the whole is in backup RAM and on the
/// cart).
fn cut(text: fmt::Arguments<'_>) -> heapless::String<COLUMNS> {
    let mut line = heapless::String::new();
    let _ = write!(Cut(&mut line), "{text}");
    line
}

/// A writer that keeps what fits its string and drops the rest.
struct Cut<'s>(&'s mut heapless::String<COLUMNS>);

impl Write for Cut<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        for c in text.chars() {
            if self.0.push(c).is_err() {
                break;
            }
        }
        Ok(())
    }
}

impl crate::Report for Outputs {
    fn line(&mut self, kind: Line, text: fmt::Arguments<'_>) {
        if let Some(cart) = &mut self.usb_cart {
            let _ = writeln!(cart, "{text}");
        }
        if kind == Line::Passed {
            return;
        }
        let _ = writeln!(self.backup_ram, "{text}");
        match kind {
            Line::Failure => self.keep(text, Color::Red),
            Line::Suite => self.keep(text, Color::White),
            // On the bar, at the end.
            Line::Totals => self.totals = cut(text),
            Line::Passed => {}
        }
        self.show();
    }

    /// Ends the text; shows the last lines and the totals on a bar, green when every test
    /// passed, red otherwise, and stays there.
    fn finish(self, all_passed: bool) -> ! {
        hw::init_display(if all_passed { PASSED } else { FAILED });
        let mut text = self.show();
        self.backup_ram.close();
        let color = if all_passed { Color::Green } else { Color::Red };
        text.bar(ROWS as u8, color, &self.totals);
        loop {}
    }
}

/// Tests that need the Saturn's hardware.
pub static HARDWARE_TESTS: &[Test] = &[
    Test {
        name: "hw::cd_reads_past_the_end_of_the_disc_fail_and_the_next_read_works",
        run: cd_reads_past_the_end_of_the_disc_fail_and_the_next_read_works,
    },
    Test {
        name: "hw::looking_for_the_usb_cart_never_hangs",
        run: looking_for_the_usb_cart_never_hangs,
    },
    Test {
        name: "hw::vdp1_vram_holds_a_command_table",
        run: vdp1_vram_holds_a_command_table,
    },
    Test {
        name: "hw::scu_dma_copies_to_vdp1_vram",
        run: scu_dma_copies_to_vdp1_vram,
    },
    Test {
        name: "hw::saturn_vram_sends_command_tables_by_dma",
        run: saturn_vram_sends_command_tables_by_dma,
    },
    Test {
        name: "hw::vblank_comes_and_goes",
        run: vblank_comes_and_goes,
    },
    Test {
        name: "hw::the_scu_flags_each_vblank_end",
        run: the_scu_flags_each_vblank_end,
    },
    Test {
        name: "hw::a_field_lasts_what_the_video_standard_makes_it",
        run: a_field_lasts_what_the_video_standard_makes_it,
    },
    Test {
        name: "hw::smpc_answers_intback",
        run: smpc_answers_intback,
    },
    Test {
        name: "hw::cd_reads_a_known_file",
        run: cd_reads_a_known_file,
    },
    Test {
        name: "hw::cd_loads_a_model",
        run: cd_loads_a_model,
    },
    Test {
        name: "hw::cd_loads_texture_files_into_vram",
        run: cd_loads_texture_files_into_vram,
    },
    Test {
        name: "hw::cd_streams_embedded_textures_to_vram",
        run: cd_streams_embedded_textures_to_vram,
    },
    Test {
        name: "hw::division_unit_matches_software_division",
        run: division_unit_matches_software_division,
    },
    Test {
        name: "hw::slave_draws_half_of_the_same_frame",
        run: slave_draws_half_of_the_same_frame,
    },
    Test {
        name: "hw::slave_shares_the_sort_of_2000_keys",
        run: slave_shares_the_sort_of_2000_keys,
    },
    Test {
        name: "hw::slave_that_times_out_never_writes_afterwards",
        run: slave_that_times_out_never_writes_afterwards,
    },
    Test {
        name: "hw::slave_runs_with_its_cache_on",
        run: slave_runs_with_its_cache_on,
    },
    Test {
        name: "hw::the_text_layer_holds_what_it_was_given",
        run: the_text_layer_holds_what_it_was_given,
    },
    Test {
        name: "hw::demo_scene_commits_the_hosts_frame",
        run: demo_scene_commits_the_hosts_frame,
    },
    Test {
        name: "hw::the_vdp1_reports_a_list_too_heavy_for_a_field",
        run: the_vdp1_reports_a_list_too_heavy_for_a_field,
    },
    Test {
        name: "hw::a_flipped_list_shows_from_the_field_its_moment_says",
        run: a_flipped_list_shows_from_the_field_its_moment_says,
    },
];

fn fail(line: u32, args: fmt::Arguments<'_>) -> Failure {
    Failure::new(file!(), line, args)
}

/// The Saturn's parts, for one test.
fn saturn() -> Saturn {
    // SAFETY: the hardware tests run one after the other, each dropping its `Saturn` (and
    // what it took out of it) before the next.
    unsafe { Saturn::new() }
}

/// A command table written through `SaturnVram` reads back from VDP1 VRAM, big endian.
#[allow(clippy::result_large_err)]
fn vdp1_vram_holds_a_command_table() -> TestResult {
    let mut saturn = saturn();
    let table = CommandTable::local_coordinates(Point::new(160, -112));
    let address = 0x7_FFE0; // the last table of VRAM, away from what the display uses
    saturn.vram.write_command(address, &table);
    let bytes = table.to_be_bytes();
    for (i, pair) in bytes.chunks_exact(2).enumerate() {
        let expected = u16::from_be_bytes([pair[0], pair[1]]);
        let at = hw::address::VDP1_VRAM + address as usize + 2 * i;
        // SAFETY: inside VDP1 VRAM.
        let found = unsafe { core::ptr::read_volatile(at as *const u16) };
        if found != expected {
            return Err(fail(
                line!(),
                format_args!("word {i}: {found:#06x}, expected {expected:#06x}"),
            ));
        }
    }
    Ok(())
}

/// The 16-bit word of VDP1 VRAM at `address`.
fn vdp1_word(address: u32) -> u16 {
    let at = hw::address::VDP1_VRAM + address as usize;
    // SAFETY: inside VDP1 VRAM (every caller's address is below 512 KiB).
    unsafe { core::ptr::read_volatile(at as *const u16) }
}

/// A DMA source in high work RAM, where SCU DMA can read: in .data, since this program's
/// .bss is in low work RAM (sh2-test/build.rs).
#[link_section = ".data.dma_pattern"]
static mut DMA_PATTERN: jom::Aligned<[u8; 1024]> = jom::Aligned([0; 1024]);

/// A buffer in low work RAM, where SCU DMA cannot read.
#[link_section = ".lwram.dma_refused"]
static mut LOW_RAM: jom::Aligned<[u8; 256]> = jom::Aligned([0; 256]);

/// 1 KiB written by the CPU into high work RAM (through the cache: it is write-through),
/// sent by `scu::dma_to_vdp1` to the top of VDP1 VRAM (over CPU-written sentinels) and read
/// back word by word; the word before it untouched. A source in low work RAM is refused,
/// not sent.
#[allow(clippy::result_large_err)]
fn scu_dma_copies_to_vdp1_vram() -> TestResult {
    let mut saturn = saturn();
    const ADDRESS: u32 = 0x7_FC00;
    const BEFORE: u16 = 0x5AA5;
    // SAFETY: the only reference to the static while the test runs (tests run one by one).
    let pattern = unsafe { &mut (*core::ptr::addr_of_mut!(DMA_PATTERN)).0 };
    for (i, byte) in pattern.iter_mut().enumerate() {
        *byte = (i as u8).wrapping_mul(37) ^ (i >> 8) as u8 ^ 0xC3;
    }
    saturn.vram.write_by_cpu(ADDRESS - 2, &BEFORE.to_be_bytes());
    saturn.vram.write_by_cpu(ADDRESS, &[0xEE; 1024]);
    if let Err(error) = scu::dma_to_vdp1(pattern, ADDRESS) {
        return Err(fail(line!(), format_args!("dma_to_vdp1: {error}")));
    }
    for (i, pair) in pattern.chunks_exact(2).enumerate() {
        let expected = u16::from_be_bytes([pair[0], pair[1]]);
        let found = vdp1_word(ADDRESS + 2 * i as u32);
        if found != expected {
            return Err(fail(
                line!(),
                format_args!("word {i}: {found:#06x}, expected {expected:#06x}"),
            ));
        }
    }
    let before = vdp1_word(ADDRESS - 2);
    if before != BEFORE {
        return Err(fail(
            line!(),
            format_args!("the word before the copy: {before:#06x}, expected {BEFORE:#06x}"),
        ));
    }
    // SAFETY: only read, and only here.
    let low = unsafe { &(*core::ptr::addr_of!(LOW_RAM)).0 };
    match scu::dma_to_vdp1(low, 0x7_F000) {
        Err(DmaError::NotInHighWorkRam { .. }) => Ok(()),
        other => Err(fail(
            line!(),
            format_args!("a source in low work RAM: {other:?}, expected NotInHighWorkRam"),
        )),
    }
}

/// Command tables in high work RAM (.data: not zero).
static mut DMA_TABLES: jom::Aligned<[CommandTable; 16]> = jom::Aligned([CommandTable::end(); 16]);

/// `SaturnVram::write_commands` (what `CommandBuffer::write` calls) sends 16 tables (512
/// bytes) from high work RAM in one SCU DMA (the level-0 end flag in IST comes up) and the
/// VRAM holds each table's big-endian bytes, as `to_be_bytes` gives them.
#[allow(clippy::result_large_err)]
fn saturn_vram_sends_command_tables_by_dma() -> TestResult {
    let mut saturn = saturn();
    const ADDRESS: u32 = 0x7_F000;
    // SAFETY: as in `scu_dma_copies_to_vdp1_vram`.
    let tables = unsafe { &mut (*core::ptr::addr_of_mut!(DMA_TABLES)).0 };
    for (i, table) in tables.iter_mut().enumerate() {
        let i = i as i16;
        *table = CommandTable::user_clip(Point::new(i, -i), Point::new(300 + i, 200 - i));
        table.link = 0x1234 + i as u16;
        table.grda = 0xBEEF ^ i as u16;
    }
    let scu = scu::scu();
    // SAFETY: every SCU interrupt masked (the program takes none: SR is at level 15), so
    // that IST keeps the DMA end flag; then that flag cleared (0 clears, 1 keeps).
    unsafe {
        scu.ims.write(0xBFFF);
        scu.ist.write(!scu::ist::LEVEL0_DMA_END);
    }
    saturn.vram.write_by_cpu(ADDRESS, &[0x11; 512]);
    saturn.vram.write_commands(ADDRESS, tables);
    let ist = scu.ist.read();
    if ist & scu::ist::LEVEL0_DMA_END == 0 {
        return Err(fail(
            line!(),
            format_args!("no level-0 DMA end in IST ({ist:#010x}): written by CPU?"),
        ));
    }
    for (t, table) in tables.iter().enumerate() {
        let bytes = table.to_be_bytes();
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let expected = u16::from_be_bytes([pair[0], pair[1]]);
            let found = vdp1_word(ADDRESS + 32 * t as u32 + 2 * i as u32);
            if found != expected {
                return Err(fail(
                    line!(),
                    format_args!("table {t}, word {i}: {found:#06x}, expected {expected:#06x}"),
                ));
            }
        }
    }
    Ok(())
}

/// `wait_vblank` returns (the VDP2 status is read again and again, not once) for a few
/// frames in a row.
#[allow(clippy::result_large_err)]
fn vblank_comes_and_goes() -> TestResult {
    hw::init_display(0x8000);
    for frame in 0..5 {
        if let Err(timeout) = hw::wait_vblank() {
            return Err(fail(
                line!(),
                format_args!("frame {frame}: no {}", timeout.waiting_for),
            ));
        }
    }
    Ok(())
}

/// A read of a sector 1,000 past the end of the disc's volume is an error, not a hang
/// (Mednafen's drive ends its play before the sector: `PastEndOfDisc`; Yabause's never
/// delivers it: a `Timeout` of the bounded wait), and the CD block still reads afterwards:
/// TESTDATA.BIN's first sector comes back as written.
#[allow(clippy::result_large_err)]
fn cd_reads_past_the_end_of_the_disc_fail_and_the_next_read_works() -> TestResult {
    use jom::hw::cd::CdError;
    use jom::iso9660::SectorSource;
    let mut saturn = saturn();
    let mut sector = [0u8; 2048];
    let past_end = cd_volume(&mut saturn.cd).map(|mut cd| {
        let lba = cd.volume_sectors() + 1000;
        (lba, cd.source_mut().read_sectors(lba, &mut sector))
    });
    match past_end {
        Ok((_, Err(CdError::PastEndOfDisc { .. } | CdError::Timeout(_)))) => {}
        other => {
            return Err(fail(
                line!(),
                format_args!(
                    "read past the end: {other:?}; status {:04x?}",
                    cd_status().0
                ),
            ))
        }
    }
    let mut buffer = [0u8; 6144];
    let data = cd_volume(&mut saturn.cd)
        .and_then(|mut cd| cd.load_file("TESTDATA.BIN", &mut buffer))
        .map_err(|e| fail(line!(), format_args!("TESTDATA.BIN after it: {e:?}")))?;
    if let Some(i) = (0..2048).find(|&i| data[i] != test_data_byte(i)) {
        return Err(fail(
            line!(),
            format_args!("TESTDATA.BIN after it: byte {i} differs"),
        ));
    }
    Ok(())
}

/// Looking for the USB dev cart and sending it 256 bytes ends within 0.2 seconds whatever
/// is in the cartridge slot: nothing (the emulators: the bus reads no configured cart, or a
/// cart that never takes a byte), a cart with no PC, or one a PC reads (`UsbCart`'s waits
/// are bounded and the first that runs out ends its output).
#[allow(clippy::result_large_err)]
fn looking_for_the_usb_cart_never_hangs() -> TestResult {
    // CPU clock / 128: a turn of the counter is 8,388,608 cycles, 0.29 s.
    frt::start(Divider::By128);
    let _ = frt::wrapped();
    if let Some(mut cart) = UsbCart::find(SaturnCartPort) {
        cart.send(&[b'.'; 256]);
    }
    let cycles = u32::from(frt::count()) * Divider::By128.clocks();
    let limit = frt::cpu_clock(hw::video_standard(), ScreenWidth::W320) / 5;
    if frt::wrapped() || cycles > limit {
        return Err(fail(
            line!(),
            format_args!("{cycles} cycles (or a turn of the timer), more than {limit}"),
        ));
    }
    Ok(())
}

/// A field (VBlank to VBlank, 320 pixels at the clock at reset), timed by the free-running
/// timer, lasts the CPU clocks of the standard `TVSTAT` reads (NTSC 449,204, PAL 534,604)
/// within 2%: the other standard's field is 19% away.
#[allow(clippy::result_large_err)]
fn a_field_lasts_what_the_video_standard_makes_it() -> TestResult {
    hw::init_display(0x8000);
    let standard = hw::video_standard();
    let expected = frt::field_cycles(standard, ScreenWidth::W320);
    // CPU clock / 32: a field is 14,038 counts (NTSC) or 16,706 (PAL), under a turn of
    // the counter.
    frt::start(Divider::By32);
    hw::wait_vblank().map_err(|t| fail(line!(), format_args!("{t}")))?;
    let start = frt::count();
    hw::wait_vblank().map_err(|t| fail(line!(), format_args!("{t}")))?;
    let cycles = u32::from(frt::count().wrapping_sub(start)) * Divider::By32.clocks();
    if cycles.abs_diff(expected) >= expected / 50 {
        return Err(fail(
            line!(),
            format_args!("{standard}: a field of {cycles} cycles, expected {expected}"),
        ));
    }
    Ok(())
}

/// The SCU flags each VBlank's end and each HBlank's start in `IST` with their interrupts
/// masked (what the renderer reads to know of a VDP1 frame change it did not wait for):
/// cleared at a VBlank's start, the VBlank's flag stays clear through the VBlank, is set
/// once it has ended (polled alone, without `TVSTAT`), and then stays set; the HBlank's
/// comes within a line of being cleared; `SaturnVram` sees the frame change through them.
#[allow(clippy::result_large_err)]
fn the_scu_flags_each_vblank_end() -> TestResult {
    let in_vblank = hw::vdp2::in_vblank;
    hw::init_display(0x8000);
    for line in 0..3 {
        hw::watch_hblank_start();
        if !(0..20_000).any(|_| hw::hblank_started()) {
            return Err(fail(
                line!(),
                format_args!("line {line}: no HBlank flagged"),
            ));
        }
    }
    // TVSTAT's VBlank bit and the SCU's flag need not change on the same line (Mednafen's
    // VDP2 and SCU take them from different counters): the VBlank is only asked to end
    // within a few lines of the flag.
    let vblank_over_soon = || (0..2_000).any(|_| !in_vblank());
    let mut vram = saturn().vram;
    hw::wait_vblank().map_err(|t| fail(line!(), format_args!("{t}")))?;
    vram.watch_frame_change();
    if vram.frame_changed_since_watch() {
        return Err(fail(
            line!(),
            format_args!("a frame change seen inside the VBlank"),
        ));
    }
    if !(0..2_000_000).any(|_| vram.frame_changed_since_watch()) {
        return Err(fail(line!(), format_args!("no frame change seen")));
    }
    if !vblank_over_soon() {
        return Err(fail(
            line!(),
            format_args!("a frame change seen long before the VBlank's end"),
        ));
    }
    for field in 0..3 {
        hw::wait_vblank().map_err(|t| fail(line!(), format_args!("field {field}: {t}")))?;
        hw::watch_vblank_end();
        if hw::vblank_ended() {
            return Err(fail(
                line!(),
                format_args!("field {field}: flagged inside the VBlank"),
            ));
        }
        if !(0..2_000_000).any(|_| hw::vblank_ended()) {
            return Err(fail(
                line!(),
                format_args!("field {field}: the VBlank's end never flagged"),
            ));
        }
        if !vblank_over_soon() {
            return Err(fail(
                line!(),
                format_args!("field {field}: flagged long before the VBlank's end"),
            ));
        }
        hw::wait_vblank_ended(|| ())
            .map_err(|t| fail(line!(), format_args!("field {field}: {t}")))?;
        if in_vblank() || !hw::vblank_ended() {
            return Err(fail(line!(), format_args!("field {field}: the flag went")));
        }
    }
    Ok(())
}

/// INTBACK answers within its time with port 1's status: nothing connected (0xF0, what
/// headless Yabause reports) or a standard pad connected directly with no button pressed.
#[allow(clippy::result_large_err)]
fn smpc_answers_intback() -> TestResult {
    const NOTHING_CONNECTED: u8 = 0xF0;
    match hw::smpc::read_pad() {
        Ok(Some(buttons)) if buttons == jom::hw::smpc::PadButtons::default() => Ok(()),
        Ok(Some(buttons)) => Err(fail(
            line!(),
            format_args!("buttons {:#06x} pressed", buttons.0),
        )),
        Ok(None) if hw::smpc::output(0) == NOTHING_CONNECTED => Ok(()),
        Ok(None) => {
            let (status, id) = (hw::smpc::output(0), hw::smpc::output(1));
            Err(fail(
                line!(),
                format_args!("port 1: status {status:#04x}, id {id:#04x}"),
            ))
        }
        Err(timeout) => Err(fail(
            line!(),
            format_args!("no answer from {}", timeout.waiting_for),
        )),
    }
}

/// Byte `i` of TESTDATA.BIN, the file ci/sh2-test-saturn.sh puts on the CD.
fn test_data_byte(i: usize) -> u8 {
    ((i * 31) ^ (i >> 8)) as u8
}

/// TESTDATA.BIN's size: 3 sectors, the last one partly.
const TEST_DATA_SIZE: usize = 5000;

/// The CD block's status report, for failure messages.
fn cd_status() -> jom::hw::cd::Response {
    jom::hw::cd::drive_status().unwrap_or(jom::hw::cd::Response([0xDEAD; 4]))
}

/// The disc's ISO 9660 volume, read through the CD block.
fn cd_volume(cd: &mut CdDrive) -> Result<Iso9660<CdSectors<'_>>, jom::iso9660::Iso9660Error> {
    Iso9660::open(cd.sectors()?)
}

/// TESTDATA.BIN read through the CD block and the ISO 9660 reader, byte for byte, and
/// nothing written past its end.
#[allow(clippy::result_large_err)]
fn cd_reads_a_known_file() -> TestResult {
    let mut saturn = saturn();
    let mut buffer = [0x55u8; 6144];
    let data = match cd_volume(&mut saturn.cd)
        .and_then(|mut cd| cd.load_file("TESTDATA.BIN", &mut buffer))
    {
        Ok(data) => data,
        Err(error) => {
            let status = cd_status();
            return Err(fail(
                line!(),
                format_args!("load_file: {error:?}; status {:04x?}", status.0),
            ));
        }
    };
    if data.len() != TEST_DATA_SIZE {
        return Err(fail(
            line!(),
            format_args!("{} bytes, expected {TEST_DATA_SIZE}", data.len()),
        ));
    }
    for (i, &byte) in data.iter().enumerate() {
        if byte != test_data_byte(i) {
            return Err(fail(
                line!(),
                format_args!("byte {i}: {byte:#04x}, expected {:#04x}", test_data_byte(i)),
            ));
        }
    }
    if let Some(i) = buffer[TEST_DATA_SIZE..].iter().position(|&b| b != 0x55) {
        return Err(fail(
            line!(),
            format_args!("byte {} past the end written", TEST_DATA_SIZE + i),
        ));
    }
    // A missing file and a buffer too small are errors, not hangs.
    match cd_volume(&mut saturn.cd).and_then(|mut cd| cd.load_file("NOPE.BIN", &mut buffer)) {
        Err(jom::iso9660::Iso9660Error::NotFound) => {}
        other => {
            return Err(fail(
                line!(),
                format_args!("NOPE.BIN: {:?}", other.map(|d| d.len())),
            ))
        }
    }
    match cd_volume(&mut saturn.cd)
        .and_then(|mut cd| cd.load_file("TESTDATA.BIN", &mut buffer[..4096]))
    {
        Err(jom::iso9660::Iso9660Error::BufferTooSmall {
            needed: 5000,
            available: 4096,
        }) => {}
        other => {
            return Err(fail(
                line!(),
                format_args!("small buffer: {:?}", other.map(|d| d.len())),
            ))
        }
    }
    Ok(())
}

/// EVERY.JOM (tests/fixtures/every_chunk.jom) loaded from the CD with `load_model`: the
/// same bytes as the fixture, and its counts.
#[allow(clippy::result_large_err)]
fn cd_loads_a_model() -> TestResult {
    let mut saturn = saturn();
    static FIXTURE: &[u8] = include_bytes!("../../tests/fixtures/every_chunk.jom");
    let mut buffer = jom::Aligned([0u8; 2048]);
    let model = match cd_volume(&mut saturn.cd)
        .map_err(DiscError::from)
        .and_then(|mut cd| jom::disc::read_model(&mut cd, "EVERY.JOM", &mut buffer))
    {
        Ok(model) => model,
        Err(error) => {
            let status = cd_status();
            return Err(fail(
                line!(),
                format_args!("load_model: {error:?}; status {:04x?}", status.0),
            ));
        }
    };
    if model.bytes() != FIXTURE {
        return Err(fail(
            line!(),
            format_args!("EVERY.JOM differs from the fixture"),
        ));
    }
    let counts = (
        model.points().len(),
        model.polygons().len(),
        model.materials().len(),
        model.bones().len(),
    );
    if counts.0 != 6 || counts.1 != 3 || counts.2 != 3 || counts.3 != 3 {
        return Err(fail(
            line!(),
            format_args!("points, polygons, materials, bones: {counts:?}"),
        ));
    }
    // A file that is not a model comes back as DiscError::Model.
    let mut buffer = jom::Aligned([0u8; 6144]);
    let loaded = cd_volume(&mut saturn.cd)
        .map_err(DiscError::from)
        .and_then(|mut cd| jom::disc::read_model(&mut cd, "TESTDATA.BIN", &mut buffer));
    match loaded {
        Err(DiscError::Model(_)) => Ok(()),
        other => Err(fail(
            line!(),
            format_args!("TESTDATA.BIN as a model: {:?}", other.err()),
        )),
    }
}

/// Where the texture tests put textures in VDP1 VRAM (away from what other tests write).
const TEXTURE_REGION: core::ops::Range<u32> = 0x6_0000..0x6_8000;

/// The layout of the texture tests' frame.
fn texture_layout() -> jom::vdp1::VramLayout {
    jom::vdp1::VramLayout {
        commands: 0x5_0000..0x5_1000,
        frame_gouraud: 0x5_1000..0x5_1100,
        gouraud: 0x5_1100..0x5_1200,
        textures: TEXTURE_REGION,
    }
}

/// Draws `model` head on (4 units away), a frame of one draw into a list of 8 tables, and
/// writes the list to VRAM at the layout's command region: the list's command tables.
#[allow(clippy::result_large_err)]
fn draw_and_commit<const M: usize>(
    model: &jom::Model<'_>,
    textures: &jom::vdp1::ModelTextures<M>,
    vram: &mut SaturnVram,
) -> Result<usize, Failure> {
    use jom::math::{Matrix, ONE};
    use jom::render::{Camera, CommandBuffer, FrameArrays, ListFrame, LoadedModel, ModelVram};
    use jom::vdp1::GouraudTable;
    let mut arrays = FrameArrays::<8, 4, 1>::EMPTY;
    let (mut commands, mut frame_gouraud) =
        ([CommandTable::EMPTY; 8], [GouraudTable::default(); 4]);
    let layout = texture_layout();
    let gouraud_base = layout.frame_gouraud.start;
    let mut list = CommandBuffer::new(&mut commands, 0, &mut frame_gouraud, 0, gouraud_base);
    let camera = Camera {
        position: [0, 0, -4 * ONE],
        ..Camera::default()
    };
    let gouraud = [0u16; 4];
    let loaded = LoadedModel {
        model,
        vram: ModelVram {
            textures: textures.slots(),
            gouraud: &gouraud[..model.polygons().len()],
        },
    };
    let drawn = list.start(camera.width, camera.height).and_then(|()| {
        let mut frame = ListFrame::begin(arrays.memory(), &camera, None)?;
        frame.draw(loaded, &Matrix::IDENTITY)?;
        frame.finish(&mut list)
    });
    if let Err(error) = drawn {
        return Err(fail(line!(), format_args!("draw: {error:?}")));
    }
    if let Err(error) = list.write(vram, layout.commands.start) {
        return Err(fail(line!(), format_args!("commit: {error:?}")));
    }
    Ok(list.commands().len())
}

/// FILES.JOM (tests/fixtures/texture_files.jom: no TIMG, TEXT names CHECKER.BIN and
/// GRADIENT.TGA, also on the CD) loaded with `load_textured_model`: each texture file read
/// from CD, decoded and sent to VDP1 VRAM, whose words are the files' pixels (decoded
/// again here from the same files, and a few known pixels), the gradient with the end code
/// its material asks for; the model drawn, and the command tables committed to VRAM take
/// their textures from there.
#[allow(clippy::result_large_err)]
fn cd_loads_texture_files_into_vram() -> TestResult {
    let mut saturn = saturn();
    use jom::image::{decode_into, ImageFormat};
    static CHECKER: &[u8] = include_bytes!("../../tests/fixtures/CHECKER.BIN");
    static GRADIENT: &[u8] = include_bytes!("../../tests/fixtures/GRADIENT.TGA");
    let mut buffer = jom::Aligned([0u8; 1024]);
    let mut cache = jom::vdp1::TextureCache::<4>::new(TEXTURE_REGION);
    let mut scratch = [0u8; 1024];
    let loaded = cd_volume(&mut saturn.cd)
        .map_err(DiscError::from)
        .and_then(|mut cd| {
            jom::disc::load_model::<_, 4, 4>(
                &mut cd,
                "FILES.JOM",
                &mut buffer,
                &mut cache,
                &mut saturn.vram,
                &mut scratch,
            )
        });
    let (model, textures) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => {
            let status = cd_status();
            return Err(fail(
                line!(),
                format_args!("load_textured_model: {error}; status {:04x?}", status.0),
            ));
        }
    };
    let (Some(checker), Some(gradient)) = (textures.get(0, false), textures.get(1, true)) else {
        return Err(fail(line!(), format_args!("a texture is missing")));
    };
    let mut pixels = [0u8; 256];
    let files = [
        (checker, false, CHECKER, ImageFormat::JoBin),
        (gradient, true, GRADIENT, ImageFormat::Tga),
    ];
    for (sprites, end_codes, file, format) in files {
        let expected = match decode_into(format, file, &mut pixels) {
            Ok(source) => source,
            Err(error) => return Err(fail(line!(), format_args!("{error}"))),
        };
        for k in 0..expected.data.len() / 2 {
            let mut wanted = u16::from_be_bytes([expected.data[2 * k], expected.data[2 * k + 1]]);
            if end_codes && k == expected.data.len() / 2 - 1 {
                wanted = 0x7FFF; // the transparent last pixel: an end code
            }
            let found = vdp1_word(sprites.full.address + 2 * k as u32);
            if found != wanted {
                return Err(fail(
                    line!(),
                    format_args!(
                        "texture at {:#x}, pixel {k}: {found:#06x}, expected {wanted:#06x}",
                        sprites.full.address
                    ),
                ));
            }
        }
    }
    // Known pixels: the checker's red and transparent squares, the gradient's second pixel.
    let known = [
        (checker.full.address, 0x801F),
        (checker.full.address + 8, 0),
        (gradient.full.address + 2, 0x8000 | 4 << 10 | 31),
    ];
    for (address, wanted) in known {
        let found = vdp1_word(address);
        if found != wanted {
            return Err(fail(
                line!(),
                format_args!("VRAM {address:#x}: {found:#06x}, expected {wanted:#06x}"),
            ));
        }
    }
    let commands = draw_and_commit(&model, &textures, &mut saturn.vram)?;
    // After the system clip, user clip and local coordinates: the two quads.
    let mut sources = [0u16; 2];
    if commands < 5 {
        return Err(fail(line!(), format_args!("{commands} commands")));
    }
    for (i, source) in sources.iter_mut().enumerate() {
        // SRCA is the table's fifth word.
        *source = vdp1_word(texture_layout().commands.start + 32 * (3 + i as u32) + 8);
    }
    sources.sort_unstable();
    let mut wanted = [
        (checker.full.address / 8) as u16,
        (gradient.full.address / 8) as u16,
    ];
    wanted.sort_unstable();
    if sources != wanted {
        return Err(fail(
            line!(),
            format_args!(
                "texture addresses / 8 in VRAM's tables: {sources:04x?}, expected {wanted:04x?}"
            ),
        ));
    }
    Ok(())
}

/// EVERY.JOM (tests/fixtures/every_chunk.jom, TIMG first) loaded with
/// `load_textured_model`: only the file less its TIMG chunk (8 + 124 bytes) is kept in
/// RAM, and VDP1 VRAM holds what `TextureCache::load_model` of the whole file writes (done
/// here into memory for reference), at the same places in the region.
#[allow(clippy::result_large_err)]
fn cd_streams_embedded_textures_to_vram() -> TestResult {
    let mut saturn = saturn();
    use jom::vdp1::{MemoryVram, TextureCache};
    static FIXTURE: &jom::Aligned<[u8]> =
        &jom::Aligned(*include_bytes!("../../tests/fixtures/every_chunk.jom"));
    let mut buffer = jom::Aligned([0u8; 2048]);
    let mut cache = TextureCache::<4>::new(TEXTURE_REGION);
    let mut scratch = [0u8; 256];
    let loaded = cd_volume(&mut saturn.cd)
        .map_err(DiscError::from)
        .and_then(|mut cd| {
            jom::disc::load_model::<_, 4, 4>(
                &mut cd,
                "EVERY.JOM",
                &mut buffer,
                &mut cache,
                &mut saturn.vram,
                &mut scratch,
            )
        });
    let (model, textures) = match loaded {
        Ok(loaded) => loaded,
        Err(error) => return Err(fail(line!(), format_args!("load_textured_model: {error}"))),
    };
    let kept = model.bytes().len();
    if kept != FIXTURE.0.len() - 8 - 124 || model.textures().is_some() {
        return Err(fail(
            line!(),
            format_args!("{kept} bytes kept of {}", FIXTURE.0.len()),
        ));
    }
    let Ok(whole) = jom::Model::from_bytes(&FIXTURE.0) else {
        return Err(fail(line!(), format_args!("the fixture does not load")));
    };
    let mut memory = [0u8; 1024];
    let mut reference = TextureCache::<4>::new(0..1024);
    let mut expected = jom::vdp1::ModelTextures::<4>::EMPTY;
    let uploaded = reference.load_model(
        &whole,
        &mut MemoryVram::new(&mut memory),
        |_, _| None,
        &mut expected,
    );
    if uploaded.is_err() {
        return Err(fail(line!(), format_args!("reference upload")));
    }
    for index in 0..2 {
        for end_codes in [false, true] {
            let found = textures
                .get(index, end_codes)
                .map(|s| s.full.address - TEXTURE_REGION.start);
            let wanted = expected.get(index, end_codes).map(|s| s.full.address);
            if found != wanted {
                return Err(fail(
                    line!(),
                    format_args!(
                        "texture {index}, end codes {end_codes}: at {found:?}, expected {wanted:?}"
                    ),
                ));
            }
        }
    }
    for i in (0..memory.len()).step_by(2) {
        let wanted = u16::from_be_bytes([memory[i], memory[i + 1]]);
        let found = vdp1_word(TEXTURE_REGION.start + i as u32);
        if found != wanted && wanted != 0 {
            return Err(fail(
                line!(),
                format_args!(
                    "VRAM {:#x}: {found:#06x}, expected {wanted:#06x}",
                    TEXTURE_REGION.start + i as u32
                ),
            ));
        }
    }
    draw_and_commit(&model, &textures, &mut saturn.vram)?;
    Ok(())
}

/// The SH-2's division unit (what `math::div_64_32` uses on a Saturn) gives the same
/// quotients as a software 64-bit division, signs and truncation included.
#[allow(clippy::result_large_err)]
fn division_unit_matches_software_division() -> TestResult {
    let cases: [(i64, i32); 8] = [
        (192 << 32, 3 << 16),
        (192 << 32, 385),
        (-(320 << 32), 7 << 16),
        (1 << 40, -12345),
        (0x7FFF_FFFF, 1),
        (-1, 2),
        (123_456_789_012, 65_536),
        (-987_654_321_000, -999_983),
    ];
    for (dividend, divisor) in cases {
        let hardware = jom::math::div_64_32(dividend, divisor);
        let software = (dividend / i64::from(divisor)) as i32;
        if hardware != software {
            return Err(fail(
                line!(),
                format_args!("{dividend} / {divisor}: unit {hardware}, software {software}"),
            ));
        }
    }
    Ok(())
}

/// The slave SH-2 started (SMPC), then a frame of one draw with it transforming half of the
/// points and culling half of the polygons: the same points, stats and commands as the
/// master alone, static and posed, twice (the slave waits for the next job).
#[allow(clippy::result_large_err)]
fn slave_draws_half_of_the_same_frame() -> TestResult {
    use jom::hw::slave::Slave;
    use jom::math::{Angle, Matrix, ONE};
    use jom::render::{
        Camera, CommandBuffer, FrameArrays, ListFrame, LoadedModel, ModelVram, Posed,
    };
    use jom::vdp1::{GouraudTable, VramLayout};
    let bytes = jom::include_aligned!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/mesh.jom"
    ));
    let model = jom::Model::from_bytes(bytes).map_err(|e| fail(line!(), format_args!("{e}")))?;
    let slave = saturn().slave.start();
    let mut slave = slave.map_err(|e| fail(line!(), format_args!("{e:?}")))?;
    let layout = VramLayout::default();
    let loaded = LoadedModel {
        model: &model,
        vram: ModelVram {
            textures: &[],
            gouraud: &[0; 120],
        },
    };
    let camera = Camera {
        position: [5 * ONE / 2, 0, -3 * ONE],
        ..Camera::default()
    };
    let transform =
        Matrix::rotation_xyz([Angle::from_degrees(40), Angle::from_degrees(-25), Angle(0)]);
    let animation = model
        .animations()
        .get(0)
        .ok_or_else(|| fail(line!(), format_args!("no animation")))?;
    let pose = jom::anim::pose_at(&animation, model.bones().len(), 20);
    let mut bones = [Matrix::IDENTITY; jom::format::MAX_BONES];
    jom::anim::bone_matrices(&model, &pose, &mut bones);
    let root = jom::anim::root_matrix(&pose);
    let posed = Posed {
        transform: &transform,
        root: &root,
        bones: &bones,
    };
    for round in 0..4 {
        let frame = |worker: Option<&mut Slave>| {
            let mut arrays = FrameArrays::<143, 120, 1>::EMPTY;
            let (mut commands, mut gouraud) =
                ([CommandTable::EMPTY; 128], [GouraudTable::default(); 4]);
            let base = layout.frame_gouraud.start;
            let mut list = CommandBuffer::new(&mut commands, 0, &mut gouraud, 0, base);
            let stats = list.start(320, 224).and_then(|()| {
                let mut frame = ListFrame::begin(arrays.memory(), &camera, None)?;
                if let Some(worker) = worker {
                    frame = frame.with_worker(worker);
                }
                match round % 2 {
                    0 => frame.draw(loaded, &transform)?,
                    _ => frame.draw_posed(loaded, &posed)?,
                }
                frame.finish(&mut list)
            });
            let len = list.len();
            (commands, len, stats, *arrays.points())
        };
        let (alone, alone_len, alone_stats, alone_points) = frame(None);
        let (shared, shared_len, shared_stats, shared_points) = frame(Some(&mut slave));
        if !alone_stats.is_ok_and(|s| s.drawn > 30 && s.culled > 0) || shared_stats != alone_stats {
            return Err(fail(
                line!(),
                format_args!(
                    "round {round}: master {alone_stats:?}, with the slave {shared_stats:?}"
                ),
            ));
        }
        if let Some(i) = (0..143).find(|&i| shared_points[i] != alone_points[i]) {
            return Err(fail(
                line!(),
                format_args!(
                    "round {round}, point {i}: master {:?}, with the slave {:?}",
                    alone_points[i], shared_points[i]
                ),
            ));
        }
        if slave.lost() {
            return Err(fail(
                line!(),
                format_args!("round {round}: the slave did not answer"),
            ));
        }
        if shared[..shared_len] != alone[..alone_len] {
            return Err(fail(
                line!(),
                format_args!("round {round}: the command lists differ"),
            ));
        }
    }
    Ok(())
}

/// The sort test's keys and scratch: the master alone's, then the pair's.
static mut SORT_KEYS: [[u32; 2000]; 4] = [[0; 2000]; 4];

/// The slave sharing each pass of the sort of 2,000 keys (as in the bench's frame): the
/// order of the master alone, over several rounds of other keys in the same arrays (the
/// slave's and the master's caches hold lines of the last round's: read, they would give
/// a wrong order).
#[allow(clippy::result_large_err)]
fn slave_shares_the_sort_of_2000_keys() -> TestResult {
    use core::ptr::addr_of_mut;
    use jom::render::{sort_keys, Worker};
    let slave = saturn().slave.start();
    let mut slave = slave.map_err(|e| fail(line!(), format_args!("{e:?}")))?;
    // SAFETY: the hardware tests run one at a time: nothing else uses these arrays.
    let [alone_keys, alone_scratch, shared_keys, shared_scratch] =
        unsafe { &mut *addr_of_mut!(SORT_KEYS) };
    for (round, count) in [2000, 1999, 2000, 600].into_iter().enumerate() {
        let mut state = 0x2545_F491u32.wrapping_mul(round as u32 + 1);
        for (index, key) in alone_keys[..count].iter_mut().enumerate() {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            *key = (state & 0xFFFF_0000) | index as u32;
        }
        shared_keys[..count].copy_from_slice(&alone_keys[..count]);
        let alone = sort_keys(&mut alone_keys[..count], &mut alone_scratch[..count], None);
        let shared = sort_keys(
            &mut shared_keys[..count],
            &mut shared_scratch[..count],
            Some(&mut slave as &mut dyn Worker),
        );
        if slave.lost() {
            return Err(fail(
                line!(),
                format_args!("round {round}: the slave did not answer"),
            ));
        }
        if let Some(i) = (0..count).find(|&i| shared[i] != alone[i]) {
            return Err(fail(
                line!(),
                format_args!(
                    "round {round}, key {i}: master {:#x}, with the slave {:#x}",
                    alone[i], shared[i]
                ),
            ));
        }
        if alone.windows(2).any(|pair| pair[0] >> 16 > pair[1] >> 16) {
            return Err(fail(line!(), format_args!("round {round}: not sorted")));
        }
    }
    Ok(())
}

/// Added to a work RAM address: the same memory, bypassing this CPU's cache (so that the
/// master reads what the slave wrote).
const CACHE_THROUGH: usize = 0x2000_0000;

/// How many runs of the time-out test's job have started.
static mut JOB_RUNS: u32 = 0;
/// Set by a run of that job when it has written its result.
static mut JOB_FINISHED: u32 = 0;

/// The slave runs its jobs with its cache on, whoever booted the console: a job reads the
/// slave's own cache control register (on chip: the same address on each CPU).
#[allow(clippy::result_large_err)]
fn slave_runs_with_its_cache_on() -> TestResult {
    use jom::hw::slave::cache;
    use jom::render::Worker;
    const CCR: usize = 0xFFFF_FE92;
    let slave = saturn().slave.start();
    let mut slave = slave.map_err(|e| fail(line!(), format_args!("{e:?}")))?;
    let mut ccr = 0u8;
    // SAFETY: the cache control register of the CPU running the job.
    slave.join(&mut || {}, &mut || {
        ccr = unsafe { core::ptr::read_volatile(CCR as *const u8) }
    });
    match ccr & cache::ENABLE {
        0 => Err(fail(line!(), format_args!("the slave's CCR is {ccr:#04x}"))),
        _ => Ok(()),
    }
}

/// The text layer (`jom::hw::text`, VDP2's NBG0) after `TextLayer::init` and a line written
/// through its cursor: VDP2 VRAM holds the line's pattern names and an empty cell after it,
/// the font's 'A' as 4-bit pixels (as text and on a bar), a bar's cells; colour RAM every
/// colour's palette; `RAMCTL` (readable, but 0 in Yabause) an RGB555 colour RAM mode. The
/// other registers the layer writes are write-only (the VDP2 manual; both emulators read 0
/// from them): the host checks their values (`hw::text`'s tests), the screen their effect.
#[allow(clippy::result_large_err)]
fn the_text_layer_holds_what_it_was_given() -> TestResult {
    use jom::hw::text::{self, Color, TextLayer};
    const LINE: &str = "jom: text layer";
    hw::init_display(0x8000);
    let mut layer = TextLayer::init(ScreenWidth::W320);
    layer.set_color(Color::Green);
    let _ = writeln!(layer, "{LINE}");
    layer.bar(27, Color::Red, "bar");
    let vram = |offset: u32| {
        let at = hw::address::VDP2_VRAM + offset as usize;
        // SAFETY: inside VDP2 VRAM (the text layer's part).
        unsafe { core::ptr::read_volatile(at as *const u16) }
    };
    let check = |what: &str, found: u16, expected: u16| {
        if found == expected {
            return Ok(());
        }
        Err(fail(
            line!(),
            format_args!("{what}: {found:#06x}, expected {expected:#06x}"),
        ))
    };
    for (i, byte) in LINE.bytes().enumerate() {
        let found = vram(text::cell_offset(i as u8, 0));
        check(
            "a name of the line",
            found,
            text::pattern_name(byte, Color::Green),
        )?;
    }
    let after = vram(text::cell_offset(LINE.len() as u8, 0));
    check("the cell after the line", after, text::BLANK)?;
    if layer.cursor() != (0, 1) {
        return Err(fail(line!(), format_args!("cursor {:?}", layer.cursor())));
    }
    // 'A' (glyph 33), rows `..##....` and `.####...`: as text ink 1 on 0, on a bar black
    // (2) on the bar's colour (1).
    let a = text::FONT_OFFSET + 32 * 33;
    for (i, expected) in [0x0011, 0x0000, 0x0111, 0x1000].into_iter().enumerate() {
        check("'A' as text", vram(a + 2 * i as u32), expected)?;
    }
    let bar_a = text::FONT_OFFSET + 32 * (95 + 33);
    check("'A' on a bar", vram(bar_a), 0x1122)?;
    let on_bar = vram(text::cell_offset(2, 27));
    check(
        "the bar's 'a'",
        on_bar,
        0x3000 | (0x200 + 95 + u16::from(b'a' - b' ')),
    )?;
    for color in Color::ALL {
        for (offset, rgb) in text::palette(color) {
            let at = hw::address::VDP2_CRAM + offset as usize;
            // SAFETY: inside VDP2 colour RAM.
            let found = unsafe { core::ptr::read_volatile(at as *const u16) };
            check("a colour of a palette", found, rgb)?;
        }
    }
    let ramctl = hw::vdp2::vdp2().ramctl.read();
    if ramctl & 0x3000 > 0x1000 {
        return Err(fail(
            line!(),
            format_args!("RAMCTL {ramctl:#06x}: not RGB555"),
        ));
    }
    layer.set_visible(false);
    Ok(())
}

/// A job slower than the slave's time-out (shortened for the test): the master gives up on
/// the slave and does the job itself. The slave's run, which writes its result into the
/// master's stack once its slow part is over, after the time-out, must never write: the
/// result stays the master's however long the master waits.
#[allow(clippy::result_large_err)]
fn slave_that_times_out_never_writes_afterwards() -> TestResult {
    use core::ptr::{addr_of_mut, read_volatile, write_volatile};
    use jom::render::Worker;
    /// Polls of the master's input capture before the master gives up (about 10 ms).
    const TIMEOUT_POLLS: u32 = 20_000;
    /// The slave's run of the job: ten times the time-out.
    const SLOW_READS: u32 = 200_000;
    /// How long the master watches for a late write: five times the slow run.
    const WATCH_POLLS: u32 = 1_000_000;
    let slave = saturn().slave.start();
    let mut slave = slave.map_err(|e| fail(line!(), format_args!("{e:?}")))?;
    slave.set_timeout_polls(TIMEOUT_POLLS);
    let runs = (addr_of_mut!(JOB_RUNS) as usize | CACHE_THROUGH) as *mut u32;
    let finished = (addr_of_mut!(JOB_FINISHED) as usize | CACHE_THROUGH) as *mut u32;
    let mut result = [0u32; 4];
    let result_through = (result.as_mut_ptr() as usize | CACHE_THROUGH) as *mut u32;
    // SAFETY: statics of this test and `result`, through the cache-through region, read
    // and written by one CPU at a time as the test arranges (the job is the only other
    // user).
    unsafe {
        write_volatile(runs, 0);
        write_volatile(finished, 0);
    }
    let (runs_at, finished_at, result_at) =
        (runs as usize, finished as usize, result_through as usize);
    let mut job = move || {
        // SAFETY: as above; `result` outlives every run that is allowed to write it.
        unsafe {
            let run = read_volatile(runs_at as *const u32) + 1;
            write_volatile(runs_at as *mut u32, run);
            if run == 1 {
                for _ in 0..SLOW_READS {
                    read_volatile(runs_at as *const u32);
                }
            }
            for k in 0..4 {
                write_volatile((result_at as *mut u32).add(k), run);
            }
            write_volatile(finished_at as *mut u32, run);
        }
    };
    slave.join(&mut || {}, &mut job);
    let read_result = || {
        // SAFETY: `result`, through the cache-through region.
        core::array::from_fn::<u32, 4, _>(|k| unsafe { read_volatile(result_through.add(k)) })
    };
    // SAFETY: the statics, through the cache-through region.
    let runs_now = unsafe { read_volatile(runs) };
    if !slave.lost() || runs_now != 2 || read_result() != [2; 4] {
        return Err(fail(
            line!(),
            format_args!(
                "after join: lost {}, {runs_now} runs, result {:?} (expected the master's, 2)",
                slave.lost(),
                read_result()
            ),
        ));
    }
    // SAFETY: as above.
    let late = (0..WATCH_POLLS).find(|_| unsafe { read_volatile(finished) } == 1);
    let after = read_result();
    if late.is_some() || after != [2; 4] {
        return Err(fail(
            line!(),
            format_args!(
                "the slave finished its job after the time-out (after {late:?} polls) and \
                 left the result {after:?} (expected the master's, [2; 4])"
            ),
        ));
    }
    Ok(())
}

/// The demo's fixed frame (three figures of the robot, `demo/src/scene.rs`) drawn through
/// the renderer (its memory: `frame_bytes::compared_memory!`) into VDP1 VRAM: the jump at address 0, the list it points to and the
/// gouraud tables that list names are, byte for byte, what the host's renderer committed
/// for the same frame (SCENE.BIN, from `tools/vdp1-soft/examples/demo_frame.rs --commands`,
/// on the CD with the robot as DEMO.JOM: ci/sh2-test-image.sh), and keep the VDP1 manual's
/// rules (`jom::vdp1::check_list` on VRAM read back). The next frame goes to the other
/// list, after the VDP1's frame change.
#[allow(clippy::result_large_err)]
fn demo_scene_commits_the_hosts_frame() -> TestResult {
    use jom::render::Renderer;
    let Saturn { vram, mut cd, .. } = saturn();
    let mut volume = cd_volume(&mut cd).map_err(|e| fail(line!(), format_args!("{e}")))?;
    let mut model_buffer = jom::Aligned([0u8; 16 * 1024]);
    let model = jom::disc::read_model(&mut volume, "DEMO.JOM", &mut model_buffer)
        .map_err(|e| fail(line!(), format_args!("DEMO.JOM: {e}")))?;
    let mut golden = [0u8; 16 * 1024];
    let golden = volume
        .load_file("SCENE.BIN", &mut golden)
        .map_err(|e| fail(line!(), format_args!("SCENE.BIN: {e}")))?;
    let memory =
        frame_bytes::compared_memory!().ok_or_else(|| fail(line!(), format_args!("taken")))?;
    let renderer =
        Renderer::new(vram, memory, None).map_err(|e| fail(line!(), format_args!("{e}")))?;
    let robot = renderer
        .load(&model)
        .map_err(|e| fail(line!(), format_args!("{e}")))?;
    let mut players = scene::players(&model);
    for player in &mut players {
        player.seek(scene::FIXED_TICKS);
    }
    let camera = scene::camera(&model, scene::FIXED_YAW);
    // One frame; the list the jump at VRAM 0 then points to (CMDLINK, its address / 8).
    let draw_frame = || {
        let stats = renderer
            .begin(&camera, Some(&scene::LIGHT))
            .and_then(|mut frame| {
                scene::draw(&mut frame, &robot, &players)?;
                frame.finish()
            })
            .map_err(|e| fail(line!(), format_args!("{e}")))?;
        match stats.drawn {
            0 => Err(fail(line!(), format_args!("nothing drawn"))),
            _ => Ok(vdp1_word(0x02)),
        }
    };
    let first = draw_frame()?;
    // What VDP1 VRAM holds keeps the manual's rules, read back as the VDP1 reads it.
    jom::vdp1::check_list(vdp1_word, 0).map_err(|e| fail(line!(), format_args!("{e}")))?;
    let (mut length, mut first_difference) = (0usize, None);
    frame_bytes::committed_frame(
        |address, bytes| {
            for (i, pair) in bytes.chunks_exact_mut(2).enumerate() {
                pair.copy_from_slice(&vdp1_word(address + 2 * i as u32).to_be_bytes());
            }
        },
        |bytes| {
            for &byte in bytes {
                if first_difference.is_none() && golden.get(length) != Some(&byte) {
                    first_difference = Some(length);
                }
                length += 1;
            }
        },
    )
    .map_err(|e| fail(line!(), format_args!("{e}")))?;
    if length != golden.len() || first_difference.is_some() {
        return Err(fail(
            line!(),
            format_args!(
                "{length} bytes committed, SCENE.BIN has {}; first difference at byte {first_difference:?}",
                golden.len()
            ),
        ));
    }
    let second = draw_frame()?;
    if second == first {
        let list = 8 * u32::from(first);
        return Err(fail(
            line!(),
            format_args!("both frames went to the list at {list:#x}"),
        ));
    }
    Ok(())
}

/// A green square of 8 x 8 pixels at the screen's centre: a light list's one polygon.
fn small_square() -> CommandTable {
    use jom::vdp1::{ColorCalc, ColorMode, DrawMode};
    CommandTable::polygon(
        0x83E0,
        [
            Point::new(0, 0),
            Point::new(8, 0),
            Point::new(8, 8),
            Point::new(0, 8),
        ],
        DrawMode::new(ColorMode::Rgb, ColorCalc::Replace, false, false),
    )
}

/// Full-screen half-transparent polygons in the heavy list of
/// [`the_vdp1_reports_a_list_too_heavy_for_a_field`]: Mednafen charges the VDP1 a cycle a
/// pixel and 5 more to read a half-transparent one's background (`vdp1_common.h`'s
/// `PlotPixel`), some 450,000 cycles a polygon of 320 x 224 drawn as 225 lines, about a
/// field (448,000 cycles at 26.8 MHz): 64 of them take some 60 fields.
const HEAVY_POLYGONS: u32 = 64;

/// Where [`the_vdp1_reports_a_list_too_heavy_for_a_field`] writes its lists: above what the
/// other tests use at the bottom of VRAM (the renderers' lists) and below what they use at
/// its top.
const LIGHT_LIST: u32 = 0x4_0000;
const HEAVY_LIST: u32 = 0x4_0400;

/// The VDP1's registers after its frame changes (`SaturnVram::last_frame_end`: `EDSR`'s
/// `BEF`, `LOPR`), the lists written directly (3 head commands, polygons, an end) and
/// drawn through the jump at VRAM 0, a field or more each: a light list (one small square)
/// is reported finished, on every emulator, before and after a heavy one
/// ([`HEAVY_POLYGONS`] full-screen polygons). Where the VDP1 takes time to draw (Mednafen:
/// its `vdp1.cpp` draws as the system clock runs, aborts a drawing at the frame buffer swap
/// and copies `CEF` into `BEF` and the command address into `LOPR` there), the heavy list
/// is still being drawn just after the frame change that started it (`EDSR`'s `CEF` clear),
/// and the next change reports it cut short (a "transfer over") at a command table of its
/// polygons: past its head, before its end. Yabause (0.9.14) draws a whole list at once at
/// the VBlank's end (`CEF` already set then): it can only show that nothing is reported cut
/// short, and that half is skipped there, and said so. (What the renderer makes of the
/// report, `FrameStats::transfer_over`, is tested on the host and in the renderer's suite
/// with a simulated VDP1 that reports as these registers do.)
#[allow(clippy::result_large_err)]
fn the_vdp1_reports_a_list_too_heavy_for_a_field() -> TestResult {
    use jom::hw::vdp1::{edsr, vdp1, FrameEnd};
    use jom::vdp1::{ColorCalc, ColorMode, DrawMode};
    let mut vram = saturn().vram;
    hw::init_display(0x8000);
    let (w, h) = (160, 112);
    let full = CommandTable::polygon(
        0x801F,
        [
            Point::new(-w, -h),
            Point::new(w - 1, -h),
            Point::new(w - 1, h - 1),
            Point::new(-w, h - 1),
        ],
        DrawMode::new(ColorMode::Rgb, ColorCalc::HalfTransparent, false, false),
    );
    let small = small_square();
    let head = jom::render::head_commands(320, 224);
    for (list, polygon, count) in [(LIGHT_LIST, small, 1), (HEAVY_LIST, full, HEAVY_POLYGONS)] {
        vram.write_commands(list, &head);
        for i in 0..count {
            vram.write_command(list + 32 * (3 + i), &polygon);
        }
        vram.write_command(list + 32 * (3 + count), &CommandTable::end());
    }
    // Waits for the VDP1's next frame change; gives EDSR just after it.
    let next_change = |vram: &mut SaturnVram| -> Result<u16, Failure> {
        vram.watch_frame_change();
        vram.wait_frame_change_with(|| ())
            .map_err(|t| fail(line!(), format_args!("{t}")))?;
        Ok(vdp1().edsr.read())
    };
    // Draws `list` from the next frame change through the one after: EDSR just after the
    // first, and how the field between them ended.
    let draw = |vram: &mut SaturnVram, list: u32| -> Result<(u16, FrameEnd), Failure> {
        point_jump(vram, list);
        let started = next_change(vram)?;
        next_change(vram)?;
        Ok((started, vram.last_frame_end()))
    };
    let light_before = draw(&mut vram, LIGHT_LIST);
    let heavy = draw(&mut vram, HEAVY_LIST);
    let light_after = draw(&mut vram, LIGHT_LIST);
    // VRAM 0 back to an end (the lists stay, unused), for the tests after this one.
    vram.write_by_cpu(0, &hw::vdp1::END_COMMAND);
    for (which, light) in [("before", light_before?), ("after", light_after?)] {
        if light.1 != FrameEnd::Finished {
            return Err(fail(
                line!(),
                format_args!("the light list {which} the heavy one: {:?}", light.1),
            ));
        }
    }
    let (started, end) = heavy?;
    if started & edsr::CEF != 0 {
        crate::skip(
            "the heavy list cut short: this VDP1 had drawn it whole at the frame change that \
             started it (EDSR's CEF set), so it never cuts a list short (Yabause); it was \
             reported finished",
        );
        return match end {
            FrameEnd::Finished => Ok(()),
            other => Err(fail(
                line!(),
                format_args!("a list drawn whole at once reported {other:?}"),
            )),
        };
    }
    let polygons = HEAVY_LIST + 32 * 3..HEAVY_LIST + 32 * (3 + HEAVY_POLYGONS);
    match end {
        FrameEnd::TransferOver { stopped_at }
            if polygons.contains(&stopped_at) && stopped_at % 32 == 0 =>
        {
            Ok(())
        }
        other => Err(fail(
            line!(),
            format_args!(
                "the heavy list (EDSR {started:#x} just after its start; its polygons at \
                 {polygons:#x?}): {other:?} after its field, EDSR {:#x}",
                vdp1().edsr.read()
            ),
        )),
    }
}

/// The two lists of [`a_flipped_list_shows_from_the_field_its_moment_says`]: above the
/// heavy list's 68 tables.
const FLIP_LISTS: [u32; 2] = [0x4_2000, 0x4_2400];

/// Where in a field [`a_flipped_list_shows_from_the_field_its_moment_says`] flips.
#[derive(Clone, Copy, Debug)]
enum FlipAt {
    /// Line 100 of the display.
    Display,
    /// Just after a VBlank-IN.
    VblankStart,
    /// The VBlank's line before its last: the frame change comes a line later.
    LineBeforeLast,
    /// The VBlank's last line before its HBlank, where the VDP1 changes frame (Mednafen:
    /// the HBlank after it, some 100 cycles before the display, is too short to poll for).
    LastLine,
    /// The display's first line.
    FirstLine,
}

/// Polls for a moment in a field: two fields' worth and more.
const MOMENT_POLLS: u32 = 200_000;

/// Waits until `reached` says yes; `false` if it never did.
fn poll_until(mut reached: impl FnMut() -> bool) -> bool {
    (0..MOMENT_POLLS).any(|_| reached())
}

/// Waits for the moment `at` of a field; `false` if this display never comes to it.
fn wait_for_flip_moment(at: FlipAt) -> bool {
    use jom::hw::vdp2::{in_hblank, in_vblank, line, VCNT_LAST_VBLANK_LINE};
    match at {
        FlipAt::Display => poll_until(|| line() == 100 && !in_vblank()),
        FlipAt::VblankStart => {
            let fields = hw::vblank::fields();
            poll_until(|| hw::vblank::fields() != fields)
        }
        FlipAt::LineBeforeLast => poll_until(|| line() == VCNT_LAST_VBLANK_LINE - 1),
        FlipAt::LastLine => poll_until(|| line() == VCNT_LAST_VBLANK_LINE && !in_hblank()),
        FlipAt::FirstLine => poll_until(|| line() == 0 && !in_vblank()),
    }
}

/// The floor's lockstep against the VDP1 itself (`SaturnVram::prepare_flip`, the moment
/// `hw::vdp1::last_flip` records, `FlipMoment::shows_after`), with the VBlank-IN interrupt
/// counting fields: the VDP1 drawing list A, list B is flipped to at five moments of a
/// field (the display, a VBlank's start, its line before last, its last line, where the
/// VDP1 changes frame and the flip waits for the display, the display's first line); at
/// each VBlank-IN after, the
/// command the VDP1 stopped at (`COPR`, the end of the list it drew in the field that
/// VBlank-IN ends, which the next field shows) must be A's until the VBlank-IN the moment
/// says B shows after, and B's from it. Yabause reads `COPR` 0 there: the test is skipped
/// there, and said so; a display whose `VCNT` never
/// reads the VBlank's last two lines (Yabause counts 0 to 262) skips those two moments.
#[allow(clippy::result_large_err)]
fn a_flipped_list_shows_from_the_field_its_moment_says() -> TestResult {
    let mut vram = saturn().vram;
    hw::init_display(0x8000);
    let head = jom::render::head_commands(320, 224);
    let square = small_square();
    for list in FLIP_LISTS {
        vram.write_commands(list, &head);
        vram.write_command(list + 32 * 3, &square);
        vram.write_command(list + 32 * 4, &CommandTable::end());
    }
    extern "C" fn count_only() {}
    hw::vblank::enable(count_only);
    let mut checks = heapless::Vec::<FlipCheck, 5>::new();
    let mut result = Ok(());
    for at in [
        FlipAt::Display,
        FlipAt::VblankStart,
        FlipAt::LineBeforeLast,
        FlipAt::LastLine,
        FlipAt::FirstLine,
    ] {
        match flip_at(&mut vram, at) {
            Ok(check) => {
                let _ = checks.push(check);
            }
            Err(failure) => {
                result = Err(failure);
                break;
            }
        }
    }
    hw::mask_interrupts();
    // VRAM 0 back to an end (the lists stay, unused), for the tests after this one.
    vram.write_by_cpu(0, &hw::vdp1::END_COMMAND);
    if result.is_ok() {
        if checks.contains(&FlipCheck::Unreported) {
            crate::skip(
                "the flips: this VDP1's COPR read 0 at a VBlank-IN, not the end of the list it \
                 drew (Yabause), so which list it drew cannot be told",
            );
        } else if checks.contains(&FlipCheck::Unreached) {
            crate::skip(
                "flips in the VBlank's last two lines: this display's VCNT never read 0x1FE \
                 or 0x1FF (Yabause counts 0 to 262); the other moments were checked",
            );
        }
    }
    result
}

/// Points the jump at VRAM 0 (over the end `init_display` left) at `list`, its link first,
/// so that the table is an end or a whole jump at every write.
fn point_jump(vram: &mut SaturnVram, list: u32) {
    vram.write_by_cpu(2, &((list / 8) as u16).to_be_bytes());
    vram.write_by_cpu(0, &0x5000u16.to_be_bytes());
}

/// What one flip of [`a_flipped_list_shows_from_the_field_its_moment_says`] could check.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FlipCheck {
    /// The VDP1's `COPR` matched at every VBlank-IN.
    Checked,
    /// The display never came to the moment.
    Unreached,
    /// `COPR` read 0 at a VBlank-IN: this VDP1 does not keep the address it stopped at.
    Unreported,
}

/// One flip of [`a_flipped_list_shows_from_the_field_its_moment_says`] at `at`.
#[allow(clippy::result_large_err)]
fn flip_at(vram: &mut SaturnVram, at: FlipAt) -> Result<FlipCheck, Failure> {
    use jom::hw::vdp1::{last_flip, vdp1};
    let [a, b] = FLIP_LISTS;
    point_jump(vram, a);
    for _ in 0..2 {
        vram.watch_frame_change();
        vram.wait_frame_change_with(|| ())
            .map_err(|t| fail(line!(), format_args!("{at:?}: {t}")))?;
    }
    if !wait_for_flip_moment(at) {
        return Ok(FlipCheck::Unreached);
    }
    vram.prepare_flip();
    point_jump(vram, b);
    let moment = last_flip();
    let shows_after = moment.shows_after();
    let mut field = moment.fields;
    while field != shows_after.wrapping_add(1) {
        field = field.wrapping_add(1);
        if !poll_until(|| hw::vblank::fields() == field) {
            return Err(fail(
                line!(),
                format_args!("{at:?}: VBlank-IN {field} never came"),
            ));
        }
        let stopped_at = 8 * u32::from(vdp1().copr.read());
        if stopped_at == 0 {
            return Ok(FlipCheck::Unreported);
        }
        let (expected, list) = match field.wrapping_sub(shows_after) as i32 >= 0 {
            true => (b + 32 * 4, "B"),
            false => (a + 32 * 4, "A"),
        };
        if stopped_at != expected {
            return Err(fail(
                line!(),
                format_args!(
                    "{at:?} (flipped after VBlank-IN {}, {moment:?}, shows after {shows_after}): \
                     at VBlank-IN {field} the VDP1 stopped at {stopped_at:#x}, expected \
                     {list}'s end {expected:#x}",
                    moment.fields
                ),
            ));
        }
    }
    Ok(FlipCheck::Checked)
}
