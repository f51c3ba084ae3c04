#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on an emulated Saturn: booted from a CD image (ci/sh2-test-image.sh) in Yabause
# headless; the results come back through backup RAM (saved when the emulator quits) and
# are printed here, one line a test, then "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
ci/sh2-test-image.sh sh2-test-saturn
ci/emu/yabause.sh build/sh2-test-saturn.iso --seconds 60 --backup-ram build/sh2-test-saturn.bkr
ci/emu/test-report.py yabause build/sh2-test-saturn.bkr
