#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on Mednafen's Saturn, booted by our own boot ROM (tools/saturn-rom, given to
# Mednafen as its BIOS: no Sega code) with the same CD image as ci/sh2-test-saturn.sh uses
# (ci/sh2-test-image.sh). The results come back through backup RAM (saved when the
# emulator exits on SIGTERM) and are printed here, one line a test, then
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
ci/sh2-test-image.sh sh2-test-mednafen
# The program is both on the disc (where a BIOS would load it from) and in the ROM (where
# our loader copies it from).
cargo run --release -q -p saturn-rom -- --program build/sh2-test-mednafen.bin \
    -o build/sh2-test-mednafen.rom
ci/emu/mednafen.sh build/sh2-test-mednafen.rom build/sh2-test-mednafen.cue --seconds 6 \
    --backup-ram build/sh2-test-mednafen.bkr
ci/emu/test-report.py mednafen build/sh2-test-mednafen.bkr
