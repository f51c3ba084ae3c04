#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on an emulated Saturn: booted from a CD image (ci/sh2-test-image.sh) in Yabause
# headless; the results come back through backup RAM (saved when the emulator quits) and
# are printed here, one line a test, then "N passed, N failed".
#
# Four programs, each a part of the suites, as for Mednafen (ci/sh2-test-mednafen.sh): all of
# them in one program no longer fit high work RAM beside its stacks.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for half in part1 part2 part3 part4; do
    name=sh2-test-saturn-$half
    ci/sh2-test-image.sh "$name" "$half"
    ci/emu/yabause.sh "build/$name.iso" --seconds 10 --backup-ram "build/$name.bkr"
    ci/emu/test-report.py yabause "build/$name.bkr" || status=1
done
exit $status
