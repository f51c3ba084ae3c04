#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on an emulated Saturn: the test program (ci/sh2-test-image.sh, in two halves) booted from a CD
# image in Yabause headless; the results come back through backup RAM (saved when the
# emulator quits) and are printed here, a line a suite and each failure, then
# "N passed, N failed". Then the screen: its totals bar green (ci/emu/bar-check.py), and
# red for the program built to fail one test (feature a-test-that-fails).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
# In two programs (the renderer's suites, then the others and the hardware tests): all of
# them in one no longer fit high work RAM.
for part in render-suites other-suites; do
    name=sh2-test-saturn-$part
    ci/sh2-test-image.sh "$name" "$part"
    ci/emu/yabause.sh "build/$name.iso" --seconds 60 --backup-ram "build/$name.bkr" \
        --screenshot "build/$name.png"
    ci/emu/test-report.py yabause "build/$name.bkr" || status=1
    ci/emu/bar-check.py "yabause: the screen of the tests ($part)" "build/$name.png" green || status=1
done

ci/sh2-test-image.sh sh2-test-failing a-test-that-fails
ci/emu/yabause.sh build/sh2-test-failing.iso --seconds 5 --backup-ram build/sh2-test-failing.bkr \
    --screenshot build/sh2-test-failing.png
ci/emu/failure-check.sh yabause build/sh2-test-failing.bkr build/sh2-test-failing.png || status=1
exit $status
