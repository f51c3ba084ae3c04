#!/usr/bin/env bash
# `make console-test` against the simulated USB dev cart (tools/saturn-link's
# saturn-cart-sim) on a pseudo-terminal, as a console with a cart would take it: the test
# program (build/jom-tests.bin, the first of `make console-tests`) must arrive byte for byte at
# 0x06004000 and be executed there (the simulated cart's --expect), and the lines the cart
# then relays must come out of `make console-test` (after what the build prints), which
# fails when they report a failure. Twice: a report of all passed (status 0) and one with a
# failure (make's status for a failed recipe, 2).
# Prints "N passed, N failed" over the two runs.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
sim_pid=""
trap '[ -z "$sim_pid" ] || kill "$sim_pid" 2> /dev/null; rm -rf "$work"' EXIT
make --no-print-directory console-tests > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
cargo build --release -q --locked -p saturn-link

passed=0
failed=0
# One run: the report the simulated cart relays, and the status make must exit with.
run() {
    local name=$1 report=$2 expected=$3
    printf '%s' "$report" > "$work/relay.txt"
    target/release/saturn-cart-sim --expect build/jom-tests.bin@0x06004000 \
        --relay "$work/relay.txt" > "$work/sim.out" 2> "$work/sim.err" &
    sim_pid=$!
    local pty=""
    for _ in $(seq 50); do
        pty=$(head -n 1 "$work/sim.out")
        [ -z "$pty" ] || break
        sleep 0.1
    done
    local status=0
    timeout 120 make -s --no-print-directory console-test DEVICE="$pty" PROGRAMS=jom-tests \
        > "$work/out.txt" 2> "$work/err.txt" ||
        status=$?
    local sim_status=0
    wait "$sim_pid" || sim_status=$?
    sim_pid=""
    local problems=()
    [ -n "$pty" ] || problems+=("the simulated cart gave no pseudo-terminal")
    [ "$status" = "$expected" ] || problems+=("make console-test exited with $status, expected $expected")
    [ "$sim_status" = 0 ] || problems+=("the simulated cart's expectations failed: $(tr '\n' ' ' < "$work/sim.err" || true)")
    tail -c "$(stat -c %s "$work/relay.txt")" "$work/out.txt" > "$work/printed.txt"
    cmp -s "$work/printed.txt" "$work/relay.txt" || problems+=("the last lines printed are not the lines relayed: $(diff "$work/relay.txt" "$work/printed.txt" | head -5 | tr '\n' ' ' || true)")
    if [ ${#problems[@]} = 0 ]; then
        echo "ok   console-test: $name (uploaded byte for byte, executed at 0x06004000, $(wc -l < "$work/relay.txt") lines relayed, status $status)"
        passed=$((passed + 1))
    else
        echo "FAIL console-test: $name: ${problems[*]}"
        sed 's/^/  /' "$work/err.txt"
        failed=$((failed + 1))
    fi
}
run "a report of all passed" $'video standard: NTSC\nok   jom::math::tests::a\nrender                    32 passed, 0 failed\n233 passed, 0 failed\n' 0
run "a report with a failure" $'video standard: PAL\nFAIL jom::math::tests::a: src/math.rs:1: 1 != 2\n232 passed, 1 failed\n' 2
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
