#!/usr/bin/env bash
# The run of the test program built to fail one test (sh2-test's feature
# a-test-that-fails): its report must end "1 passed, 1 failed" (its failing test; the
# stack's line) and its screen show the red bar (ci/emu/bar-check.py). Prints a line a
# check and "N passed, N failed"; exit status 1 when either check fails.
#
#   ci/emu/failure-check.sh yabause|mednafen BACKUP-RAM SCREENSHOT
set -uo pipefail
cd "$(dirname "$0")/../.."
emulator=$1
last=$(ci/emu/test-report.py "$emulator" "$2" | tail -n 1)
status=0
if [ "$last" = "1 passed, 1 failed" ]; then
    echo "ok   $emulator: the program made to fail reports 1 passed, 1 failed (its failing test; the stack)"
    echo "1 passed, 0 failed"
else
    echo "FAIL $emulator: the program made to fail reports: $last"
    echo "0 passed, 1 failed"
    status=1
fi
ci/emu/bar-check.py "$emulator: the screen of a failure" "$3" red || status=1
exit $status
