#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on Mednafen's Saturn, booted by our own boot ROM (tools/saturn-rom, given to
# Mednafen as its BIOS: no Sega code) with the same CD image as ci/sh2-test-saturn.sh uses
# (ci/sh2-test-image.sh). The results come back through backup RAM (saved when the
# emulator exits on SIGTERM) and are printed here, a line a suite and each failure, then
# "N passed, N failed"; the screen's totals bar must be green (ci/emu/bar-check.py).
# On an NTSC console (or without --region), also the program built to fail one test: its
# report and its red bar.
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
# The program is loaded from the disc by our boot ROM's disc boot program (ci/boot-rom.sh),
# as a BIOS loads it.
ci/boot-rom.sh
status=0
# In two programs (the renderer's suites, then the others and the hardware tests): all of
# them in one no longer fit high work RAM.
for part in render-suites other-suites; do
    name=sh2-test-mednafen-$part
    ci/sh2-test-image.sh "$name" "$part"
    bkr="build/$name${region:+-$region}.bkr"
    shot="build/$name${region:+-$region}.png"
    ci/emu/mednafen.sh build/saturn-boot.rom "build/$name.cue" --seconds 120 \
        --backup-ram "$bkr" --screenshot "$shot" "${region_options[@]}"
    report=$(ci/emu/test-report.py mednafen "$bkr") || status=1
    printf '%s\n' "$report"
    ci/emu/bar-check.py "mednafen${region:+ ($region)}: the screen of the tests ($part)" "$shot" green ||
        status=1
    # The console's standard, as one more test.
    if [ -n "$standard" ]; then
        if grep -qx "mednafen: video standard: $standard" <<<"$report"; then
            echo "mednafen: ok   the program read the video standard $standard (--region $region, $part)"
            echo "1 passed, 0 failed"
        else
            echo "mednafen: FAIL the program did not read the video standard $standard (--region $region, $part): $(grep -m1 'video standard' <<<"$report" || echo nothing)"
            echo "0 passed, 1 failed"
            status=1
        fi
    fi
done
# The program built to fail one test (feature a-test-that-fails): its report and its red
# bar, on NTSC consoles only (emu-test runs this script for jp and eu).
if [ "$standard" != PAL ]; then
    ci/sh2-test-image.sh sh2-test-failing a-test-that-fails
    ci/emu/mednafen.sh build/saturn-boot.rom build/sh2-test-failing.cue --seconds 10 \
        --backup-ram build/sh2-test-failing.bkr --screenshot build/sh2-test-failing.png
    ci/emu/failure-check.sh mednafen build/sh2-test-failing.bkr build/sh2-test-failing.png || status=1
fi
exit $status
