#!/usr/bin/env bash
# A game of `jomc new`, end to end: written into a temporary folder, built for the SH-2
# with its `still` feature (one fixed frame: the walk at tick 90, turned by 90 x 0x60), its
# CD image booted headless in Yabause by its own `cargo run -- --headless` (the runner of
# its .cargo/config.toml), and the screenshot compared with `jomc render` of the same model
# (the ROBOT.JOM its build.rs wrote), camera (4 units in front of the bounding sphere's
# centre), light and pose through the software VDP1: at least 98% of the pixels must
# match, and the reference must have drawn (vdp1-soft's compare example checks both).
# A missing tool is a skip, printed and counted ($JOM_SKIP_LOG, as ci/test.sh reads it).
# Prints "N passed, N failed" (", N skipped").
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

skip() {
    echo "skipped: ci/newgame.sh: $1"
    [ -z "${JOM_SKIP_LOG:-}" ] || echo "ci/newgame.sh: $1" >> "$JOM_SKIP_LOG"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
}
ci/sh2-toolchain.sh --print-env > /dev/null 2>&1 || skip "no SH-2 toolchain (ci/setup.sh sh2)"
for tool in sh-elf-objcopy genisoimage yabause-qt Xvfb xdotool; do
    command -v "$tool" > /dev/null || skip "$tool is not installed (ci/setup.sh iso yabause)"
done

tmp=$(mktemp -d /tmp/jom-newgame.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "ci/newgame.sh: $*" >&2
    echo "0 passed, 1 failed"
    exit 1
}

cargo run --release -q -p jomc -- new "$tmp/robot-run" || fail "jomc new failed"
game=$tmp/robot-run
shot=$tmp/screenshot.png
# The game's own commands, in its folder: rustup takes its rust-toolchain.toml there. Its
# target folder is kept in build/ from one run to the next (the crates it builds for the
# host and the SH-2 stay built; only the new game itself is compiled again).
target=$root/build/newgame-target
rm -rf "$target"/sh2-target/release/build/robot-run-*
(cd "$game" && env -u RUSTUP_TOOLCHAIN CARGO_TARGET_DIR="$target" cargo run --release \
    --features still -- --headless --seconds 3 --screenshot "$shot") ||
    fail "the game did not build or boot"
model=$(ls "$target"/sh2-target/release/build/robot-run-*/out/ROBOT.JOM 2> /dev/null | head -n 1)
[ -n "$model" ] || fail "build.rs wrote no ROBOT.JOM"
# 90 x 0x60 = 8640 of 65536 turns: 47.4609375 degrees.
cargo run --release -q -p jomc -- render "$model" -o "$tmp/reference.png" --distance 4 \
    --rotate 0,47.4609375,0 --anim walk --time 90 --light 0,0,1 || fail "jomc render failed"
mkdir -p build
cp "$shot" build/newgame-screenshot.png
cp "$tmp/reference.png" build/newgame-reference.png
if cargo run --release -q -p vdp1-soft --example compare -- "$shot" "$tmp/reference.png" 98; then
    echo "1 passed, 0 failed"
else
    echo "ci/newgame.sh: the game's screen (build/newgame-screenshot.png) differs from jomc render's (build/newgame-reference.png)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
