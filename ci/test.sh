#!/usr/bin/env bash
# Every test of the project, in order: formatting and lints, the host tests, the no_std
# build, the test suites as SH-2 code under qemu, the SH-2 benchmark's build (not its run:
# `make bench`), then the emulator tests. Ends with one line, "N passed, N failed" (and
# ", N skipped" when tests or steps could not run), the sum over every runner.
#
# A test that cannot run here calls test_skip::skip, which appends it to $JOM_SKIP_LOG:
# those are taken out of the passed tests and listed. JOM_SKIP_SH2=1 leaves out the SH-2
# and emulator steps, each counted as skipped.
set -uo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log=$work/all.log
export JOM_SKIP_LOG=$work/skipped
: > "$JOM_SKIP_LOG"
passed=0
failed=0
skipped_steps=()

# Sums the "P passed ... F failed" lines of a step's output (cargo prints
# "test result: ok. P passed; F failed; ..." per test binary, the other runners
# "P passed, F failed" or "P passed, F failed, S skipped"), as "P F". A runner's S
# skipped are added to its passed, as cargo counts its skipped tests among the passed:
# both kinds are in $JOM_SKIP_LOG, which is taken out of the passed at the end.
counts() {
    sed -nE 's/^test result: [a-zA-Z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\1 \2 0/p;
             s/^([0-9]+) passed, ([0-9]+) failed$/\1 \2 0/p;
             s/^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p' "$1" |
        awk '{ p += $1 + $3; f += $2 } END { print p + 0, f + 0 }'
}

step() {
    local name=$1
    shift
    echo "== $name: $*"
    local start=$SECONDS step_log=$work/step.log status
    "$@" 2>&1 | tee "$step_log"
    status=${PIPESTATUS[0]}
    cat "$step_log" >> "$log"
    local p f
    read -r p f < <(counts "$step_log")
    # A step that failed without a failed test (a lint, a build, a crash) counts as one.
    if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$status" -eq 0 ]; then
        echo "== $name: ok ($((SECONDS - start)) s)"
    else
        echo "== $name: FAILED ($((SECONDS - start)) s)"
    fi
}

# The workspace and every crate outside it (the Makefile's OUTSIDE_CRATES): one step.
step fmt make --no-print-directory fmt-check
step clippy cargo clippy --workspace --all-targets --locked -- -D warnings
step docs env RUSTDOCFLAGS="-D warnings" cargo doc -p jom --no-deps --locked
step host-tests cargo test --workspace --locked
step no-std cargo build -p jom --features selftest --target thumbv7em-none-eabihf --locked
step fuzz ci/fuzz.sh "${JOM_FUZZ_SECONDS:-30}"
if [ "${JOM_SKIP_SH2:-0}" != 1 ]; then
    step sh2-tests make --no-print-directory sh2-test
    step capi-sh2 make --no-print-directory capi-test
    step bench-build ci/bench.sh --build
    step emulator-tests make --no-print-directory emu-test
else
    skipped_steps=(sh2-tests capi-sh2 bench-build emulator-tests suites)
    echo "== JOM_SKIP_SH2=1: skipped the steps ${skipped_steps[*]}"
fi

# The SH-2 binary must run every test the host runs from `test_suite!` (a suite missing
# from jom::selftest::SUITES would otherwise go unnoticed).
if [ "${JOM_SKIP_SH2:-0}" != 1 ]; then
    # (`test_suite!` makes a module `host` of each suite: `tests::host`, `tests::levels::host`.)
    host_suite_tests=$(grep -cE '^test [a-z0-9_:]+::host::[a-z0-9_]+ \.\.\. ' "$log" || true)
    # jom::asm_tests compare the SH-2 assembly loops with their Rust references: SH-2 only.
    sh2_suite_tests=$(grep -E '^(ok  |FAIL) jom::' "$log" | grep -cv '^.....jom::asm_tests::' || true)
    if [ "$host_suite_tests" != "$sh2_suite_tests" ]; then
        echo "== suites: FAILED: the host ran $host_suite_tests suite tests, the SH-2 $sh2_suite_tests"
        failed=$((failed + 1))
    else
        echo "== suites: the host and the SH-2 both ran $sh2_suite_tests suite tests"
    fi
fi

skipped_tests=$(wc -l < "$JOM_SKIP_LOG")
if [ "$skipped_tests" -gt 0 ]; then
    echo "== skipped tests (counted as passed by cargo, taken out of the passed ones):"
    sed 's/^/   /' "$JOM_SKIP_LOG"
fi
passed=$((passed - skipped_tests))
skipped=$((skipped_tests + ${#skipped_steps[@]}))
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
