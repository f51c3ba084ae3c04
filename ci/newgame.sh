#!/usr/bin/env bash
# Games of `jomc new`, end to end, two of them: one depending on this checkout by path (the
# default) and one by git (`--jom-git file://` of this checkout: cargo fetches its HEAD
# commit, so uncommitted changes are not in that game). Each is written into a temporary
# folder, built for the SH-2 with its `still` feature (one fixed frame: the walk at tick 90,
# turned by 90 x 0x60), its CD image booted headless in Yabause by its own `cargo run --
# --headless` (the runner of its .cargo/config.toml; again with `--mednafen`: Mednafen and our
# boot ROM), and each screenshot compared with
# `jomc render` of the same model (the ROBOT.JOM its build.rs wrote), camera (4 units in
# front of the bounding sphere's centre), light and pose through the software VDP1: at
# least 98% of the pixels must match, and the reference must have drawn (vdp1-soft's
# compare example checks both).
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
passed=0
failed=0
skipped=0
fail() {
    echo "ci/newgame.sh: $*" >&2
    failed=$((failed + 1))
}

# The game $1 (a folder name), made by `jomc new` with the options after it, built, booted
# and its screen compared. Its target folder is kept in build/newgame-target from one run
# to the next (the crates it builds for the host and the SH-2 stay built; only the new game
# itself is compiled again). The game's own commands run in its folder: rustup takes its
# rust-toolchain.toml there.
game_boots() {
    local name=$1
    shift
    local game=$tmp/$name shot=$tmp/$name.png reference=$tmp/$name-reference.png
    local target=$root/build/newgame-target
    cargo run --release -q -p jomc -- new "$game" "$@" || { fail "$name: jomc new failed"; return; }
    rm -rf "$target"/sh2-target/release/build/"$name"-*
    # Cargo goes on past a manifest it cannot read in a git dependency's checkout (it did
    # with the template's placeholders), so its log is read for errors too.
    (cd "$game" && env -u RUSTUP_TOOLCHAIN CARGO_TARGET_DIR="$target" cargo run --release \
        --features still -- --headless --seconds 3 --screenshot "$shot") 2>&1 |
        tee "$tmp/$name.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || { fail "$name: the game did not build or boot"; return; }
    if grep -q '^error' "$tmp/$name.log"; then
        fail "$name: cargo reported an error: $(grep -m1 '^error' "$tmp/$name.log")"
        return
    fi
    local model
    model=$(ls "$target"/sh2-target/release/build/"$name"-*/out/ROBOT.JOM 2> /dev/null | head -n 1)
    [ -n "$model" ] || { fail "$name: build.rs wrote no ROBOT.JOM"; return; }
    # 90 x 0x60 = 8640 of 65536 turns: 47.4609375 degrees.
    cargo run --release -q -p jomc -- render "$model" -o "$reference" --distance 4 \
        --rotate 0,47.4609375,0 --anim walk --time 90 --light 0,0,1 ||
        { fail "$name: jomc render failed"; return; }
    mkdir -p build
    cp "$shot" "build/newgame-$name-screenshot.png"
    cp "$reference" "build/newgame-$name-reference.png"
    if cargo run --release -q -p vdp1-soft --example compare -- "$shot" "$reference" 98; then
        passed=$((passed + 1))
    else
        fail "$name: the game's screen (build/newgame-$name-screenshot.png) differs from jomc render's (build/newgame-$name-reference.png)"
    fi
    # The same game in Mednafen (its runner's --mednafen: our boot ROM holds the program).
    local mednafen_shot=build/newgame-$name-mednafen.png
    if ! (cd "$game" && env -u RUSTUP_TOOLCHAIN CARGO_TARGET_DIR="$target" cargo run --release \
        --features still -- --mednafen --headless --screenshot "$root/$mednafen_shot"); then
        fail "$name: the game did not boot in Mednafen"
    elif cargo run --release -q -p vdp1-soft --example compare -- "$mednafen_shot" "$reference" 98; then
        passed=$((passed + 1))
    else
        fail "$name: the game's screen in Mednafen ($mednafen_shot) differs from jomc render's"
    fi
}

game_boots robot-run
if git -C "$root" rev-parse --verify -q HEAD > /dev/null; then
    game_boots robot-git --jom-git "file://$root"
else
    echo "skipped: ci/newgame.sh: the game by git (this checkout is not a git repository)"
    [ -z "${JOM_SKIP_LOG:-}" ] || echo "ci/newgame.sh: robot-git: not a git checkout" >> "$JOM_SKIP_LOG"
    skipped=1
fi
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
