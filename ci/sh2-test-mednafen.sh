#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on Mednafen's Saturn, booted by our own boot ROM (tools/saturn-rom, given to
# Mednafen as its BIOS: no Sega code) with the same CD image as ci/sh2-test-saturn.sh uses
# (ci/sh2-test-image.sh). The results come back through backup RAM (saved when the
# emulator exits on SIGTERM) and are printed here, one line a test, then
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
# Our ROM holds at most 510 KiB of program: the tests are four programs, each a part of them.
status=0
for half in part1 part2 part3 part4; do
    name=sh2-test-mednafen-$half
    ci/sh2-test-image.sh "$name" "$half"
    # The program is both on the disc (where a BIOS would load it from) and in the ROM
    # (where our loader copies it from).
    cargo run --release -q -p saturn-rom -- --program "build/$name.bin" -o "build/$name.rom"
    ci/emu/mednafen.sh "build/$name.rom" "build/$name.cue" --seconds 10 \
        --backup-ram "build/$name.bkr"
    ci/emu/test-report.py mednafen "build/$name.bkr" || status=1
done
exit $status
