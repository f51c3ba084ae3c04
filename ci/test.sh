#!/usr/bin/env bash
# Every test of the project, in order: formatting and lints, the host tests, the no_std
# build, the test suites as SH-2 code under qemu, the SH-2 benchmark's build (not its run:
# `make bench`), then the emulator tests. Ends with one line, "N passed, N failed", the sum
# over every runner.
set -uo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
trap 'rm -f "$log"' EXIT
failed_steps=0

step() {
    local name=$1
    shift
    echo "== $name: $*"
    local start=$SECONDS
    if "$@" 2>&1 | tee -a "$log"; then
        echo "== $name: ok ($((SECONDS - start)) s)"
    else
        echo "== $name: FAILED ($((SECONDS - start)) s)"
        failed_steps=$((failed_steps + 1))
    fi
}

step fmt cargo fmt --all --check
step fmt-sh2-test cargo fmt --manifest-path sh2-test/Cargo.toml --check
step fmt-fuzz cargo fmt --manifest-path fuzz/Cargo.toml --check
step fmt-demo cargo fmt --manifest-path demo/Cargo.toml --check
step fmt-bench cargo fmt --manifest-path bench/Cargo.toml --check
step clippy cargo clippy --workspace --all-targets --locked -- -D warnings
step host-tests cargo test --workspace --locked
step no-std cargo build -p jom --features selftest --target thumbv7em-none-eabihf --locked
if [ "${JOM_SKIP_SH2:-0}" != 1 ]; then
    step sh2-tests make --no-print-directory sh2-test
    step bench-build ci/bench.sh --build
    step emulator-tests make --no-print-directory emu-test
fi

# The SH-2 binary must run every test the host runs from `test_suite!` (a suite missing
# from jom::selftest::SUITES would otherwise go unnoticed).
if [ "${JOM_SKIP_SH2:-0}" != 1 ]; then
    host_suite_tests=$(grep -cE '^test [a-z0-9_:]+::tests::host::[a-z0-9_]+ \.\.\. ' "$log" || true)
    sh2_suite_tests=$(grep -cE '^(ok  |FAIL) jom::' "$log" || true)
    if [ "$host_suite_tests" != "$sh2_suite_tests" ]; then
        echo "== suites: FAILED: the host ran $host_suite_tests suite tests, the SH-2 $sh2_suite_tests"
        failed_steps=$((failed_steps + 1))
    else
        echo "== suites: the host and the SH-2 both ran $sh2_suite_tests suite tests"
    fi
fi

# cargo prints "test result: ok. P passed; F failed; ..." per test binary; the SH-2 runner
# prints "P passed, F failed".
read -r passed failed < <(
    sed -nE 's/^test result: [a-zA-Z]+\. ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p;
             s/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' "$log" |
        awk '{ p += $1; f += $2 } END { print p + 0, f + 0 }'
)
if [ "$failed_steps" -gt 0 ] && [ "$failed" -eq 0 ]; then
    failed=$failed_steps # a step that failed without a test count (a lint, a build) counts as one
fi
echo "$passed passed, $failed failed"
[ "$failed_steps" -eq 0 ] && [ "$failed" -eq 0 ]
