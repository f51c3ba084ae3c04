#!/usr/bin/env bash
# The demo's figures standing on the VDP2's floor under its sky (the demo's `floor`
# feature: jom::hw::floor following the renderer's camera).
#   ci/floor.sh build   build/floor.iso + .cue: the demo with its floor, the camera turning
#   ci/floor.sh test    the fixed frame with its floor, booted in Yabause and in Mednafen
#                       (our boot ROM); each screenshot compared with the host's picture
#                       of the same frame (vdp1-soft's demo_frame --floor: the software
#                       VDP1's figures over the floor and sky jom::vdp2 computes with the
#                       VDP2's arithmetic) at 98% of the pixels, and on the floor and
#                       sky alone (away from the figures) at 100%. Then the floor's lockstep:
#                       the camera turned between two fixed frames at every frame (feature
#                       floor-latency), each of Mednafen's last 60 fields and of three
#                       Yabause screenshots must be one of the two pictures at 98% (a floor
#                       a frame early or late, under the other frame's figures, matches
#                       neither). Prints "N passed, N failed"
# Run it under the machine's emulator lock: flock /tmp/jom-emu.lock make floor-test
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
mkdir -p build
make -s build/DEMO.JOM build/FLOOR.BIN

# Builds the demo with the cargo features $1 into build/$2.iso (+ .cue).
image() {
    sh2_cargo build --manifest-path demo/Cargo.toml --features "$1"
    local elf=${CARGO_TARGET_DIR:-demo/target}/sh2-target/release/jom-demo
    # The engine's rule in the program it is linked into: none of its frames over 4 KiB.
    ci/stack-bound.py --frames 4096 --crate jom "$elf" >&2
    sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" "build/$2.bin"
    cargo run --release -q -p saturn-iso -- --program "build/$2.bin" --title "JOM FLOOR" \
        --file DEMO.JOM=build/DEMO.JOM -o "build/$2.iso"
}

if [ "$mode" != test ]; then
    image floor floor
    exit 0
fi

image floor,fixed-frame floor-test
image floor-latency floor-latency
frame() {
    cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM "$@"
}
frame build/floor-reference.png --floor build/FLOOR.BIN
frame build/floor-turned.png --floor build/FLOOR.BIN --turned
# The same frame without the floor: where the VDP1 draws, left out of the floor check.
frame build/floor-sprites.png
# The boot ROM script finds its program under the crate's own target directory.
ci/boot-rom.sh

compare() {
    cargo run --release -q -p vdp1-soft --example compare -- "$@"
}
# Boots build/$2.iso in emulator $1 and saves the screenshot $3; further arguments go to
# the emulator's runner (Mednafen's --fields).
run() {
    local emulator=$1 image=$2 shot=$3
    shift 3
    case "$emulator" in
        yabause) ci/emu/yabause.sh "build/$image.iso" --seconds 3 --screenshot "$shot" "$@" ;;
        mednafen) ci/emu/mednafen.sh build/saturn-boot.rom "build/$image.cue" --seconds 5 \
            --screenshot "$shot" "$@" ;;
    esac
}
passed=0
failed=0
for emulator in yabause mednafen; do
    shot=build/floor-$emulator.png
    if run "$emulator" floor-test "$shot" &&
        compare "$shot" build/floor-reference.png 98 &&
        cargo run --release -q -p vdp1-soft --example floor_check -- \
            "$shot" build/floor-reference.png build/floor-sprites.png 100; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
    # The floor's lockstep, the camera turned at every frame (one field or two a frame):
    # each picture must be one frame whole (the floor is switched at the VBlank-IN before
    # the field that shows the frame's polygons: docs/vdp2.md). Mednafen records every
    # field: the last 60 are checked, each one; Yabause gives a screenshot at a moment the
    # wall clock picks: three of them.
    shot=build/floor-latency-$emulator.png
    fields=build/floor-latency-fields
    whole=0
    torn=0
    case "$emulator" in
        mednafen)
            if run mednafen floor-latency "$shot" --fields 60 "$fields"; then
                pictures=("$fields"/*.png)
            else
                pictures=()
                torn=1
            fi
            ;;
        yabause)
            pictures=()
            for try in 1 2 3; do
                if run yabause floor-latency "build/floor-latency-yabause-$try.png"; then
                    pictures+=("build/floor-latency-yabause-$try.png")
                else
                    torn=$((torn + 1))
                fi
            done
            ;;
    esac
    for picture in "${pictures[@]}"; do
        if compare "$picture" build/floor-reference.png 98 >/dev/null ||
            compare "$picture" build/floor-turned.png 98 >/dev/null; then
            whole=$((whole + 1))
        else
            echo "floor.sh: $emulator, $picture torn (the floor a frame off the figures):"
            compare "$picture" build/floor-reference.png 98 || true
            compare "$picture" build/floor-turned.png 98 || true
            torn=$((torn + 1))
        fi
    done
    echo "floor.sh: $emulator, floor-latency: $whole pictures whole, $torn torn or missing"
    if [ "$torn" = 0 ] && [ "$whole" -gt 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
