#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on Mednafen's Saturn, booted by our own boot ROM (tools/saturn-rom, given to
# Mednafen as its BIOS: no Sega code) with the same CD image as ci/sh2-test-saturn.sh uses
# (ci/sh2-test-image.sh). The results come back through backup RAM (saved when the
# emulator exits on SIGTERM) and are printed here, one line a test, then
# "N passed, N failed".
#
#   ci/sh2-test-mednafen.sh [--region R]
#
# --region R: the console Mednafen emulates (ci/emu/mednafen.sh --region: eu for a PAL
# console, jp or na for NTSC ones); each program's report must then name the video
# standard that console has (its first line, `video standard: PAL` or `NTSC`, read from
# the VDP2). Without it, Mednafen's default console (NTSC), unchecked.
set -euo pipefail
cd "$(dirname "$0")/.."
region=""
case "${1:-}" in
"") ;;
--region) [ $# -eq 2 ] || { echo "usage: ci/sh2-test-mednafen.sh [--region R]" >&2; exit 2; }; region=$2 ;;
--region=*) region=${1#*=} ;;
*) echo "usage: ci/sh2-test-mednafen.sh [--region R]" >&2; exit 2 ;;
esac
case "$region" in
"") standard="" ;;
eu | as | la) standard=PAL ;;
jp | na | kr | tw | br) standard=NTSC ;;
*) echo "ci/sh2-test-mednafen.sh: --region $region: expected one of jp, na, eu, kr, tw, as, br, la" >&2; exit 2 ;;
esac
region_options=()
[ -z "$region" ] || region_options=(--region "$region")
# Our ROM holds at most 510 KiB of program: the tests are four programs, each a part of them.
status=0
wrong_standard=0
for half in part1 part2 part3 part4; do
    name=sh2-test-mednafen-$half
    ci/sh2-test-image.sh "$name" "$half"
    # The program is both on the disc (where a BIOS would load it from) and in the ROM
    # (where our loader copies it from).
    cargo run --release -q -p saturn-rom -- --program "build/$name.bin" -o "build/$name.rom"
    bkr="build/$name${region:+-$region}.bkr"
    ci/emu/mednafen.sh "build/$name.rom" "build/$name.cue" --seconds 10 \
        --backup-ram "$bkr" "${region_options[@]}"
    report=$(ci/emu/test-report.py mednafen "$bkr") || status=1
    printf '%s\n' "$report"
    if [ -n "$standard" ] && ! grep -qx "mednafen: video standard: $standard" <<<"$report"; then
        echo "ci/sh2-test-mednafen.sh: $half: expected a $standard console (--region $region), the report says: $(grep -m1 'video standard' <<<"$report" || echo nothing)" >&2
        wrong_standard=1
    fi
done
# The console's standard, as one test over the four programs.
if [ -n "$standard" ]; then
    if [ "$wrong_standard" = 0 ]; then
        echo "mednafen: ok   every program read the video standard $standard (--region $region)"
        echo "1 passed, 0 failed"
    else
        echo "mednafen: FAIL a program did not read the video standard $standard (--region $region)"
        echo "0 passed, 1 failed"
        status=1
    fi
fi
exit $status
