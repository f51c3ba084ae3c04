#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on an emulated Saturn: the test program (ci/sh2-test-image.sh) booted from a CD
# image in Yabause headless; the results come back through backup RAM (saved when the
# emulator quits) and are printed here, a line a suite and each failure, then
# "N passed, N failed". Then the screen: its totals bar green (ci/emu/bar-check.py), and
# red for the program built to fail one test (feature a-test-that-fails).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
ci/sh2-test-image.sh sh2-test-saturn
ci/emu/yabause.sh build/sh2-test-saturn.iso --seconds 60 --backup-ram build/sh2-test-saturn.bkr \
    --screenshot build/sh2-test-saturn.png
ci/emu/test-report.py yabause build/sh2-test-saturn.bkr || status=1
ci/emu/bar-check.py "yabause: the screen of the tests" build/sh2-test-saturn.png green || status=1

ci/sh2-test-image.sh sh2-test-failing a-test-that-fails
ci/emu/yabause.sh build/sh2-test-failing.iso --seconds 5 --backup-ram build/sh2-test-failing.bkr \
    --screenshot build/sh2-test-failing.png
ci/emu/failure-check.sh yabause build/sh2-test-failing.bkr build/sh2-test-failing.png || status=1
exit $status
