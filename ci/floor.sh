#!/usr/bin/env bash
# The demo's figures standing on the VDP2's floor under its sky (the demo's `floor`
# feature: jom::hw::floor following the renderer's camera).
#   ci/floor.sh build   build/floor.iso + .cue: the demo with its floor, the camera turning
#   ci/floor.sh test    the fixed frame with its floor, booted in Yabause and in Mednafen
#                       (our boot ROM); each screenshot compared with the host's picture
#                       of the same frame (vdp1-soft's demo_frame --floor: the software
#                       VDP1's figures over the floor and sky jom::vdp2 computes with the
#                       VDP2's arithmetic) at 98% of the pixels, and on the floor and
#                       sky alone (away from the figures) at 100%; prints "N passed, N
#                       failed"
# Run the emulators under the machine's lock: flock /tmp/jom-emu.lock ci/floor.sh test
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
features=floor
suffix=""
if [ "$mode" = test ]; then
    features=floor,fixed-frame
    suffix="-test"
fi
mkdir -p build
make -s build/DEMO.JOM build/FLOOR.BIN
sh2_cargo build --manifest-path demo/Cargo.toml --features "$features"
elf=${CARGO_TARGET_DIR:-demo/target}/sh2-target/release/jom-demo
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" "build/floor$suffix.bin"
cargo run --release -q -p saturn-iso -- --program "build/floor$suffix.bin" --title "JOM FLOOR" \
    --file DEMO.JOM=build/DEMO.JOM -o "build/floor$suffix.iso"

if [ "$mode" = test ]; then
    cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM \
        build/floor-reference.png --floor build/FLOOR.BIN
    # The same frame without the floor: where the VDP1 draws, left out of the floor check.
    cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM \
        build/floor-sprites.png
    passed=0
    failed=0
    if ci/emu/yabause.sh build/floor-test.iso --seconds 3 --screenshot build/floor-yabause.png &&
        cargo run --release -q -p vdp1-soft --example compare -- \
            build/floor-yabause.png build/floor-reference.png 98 &&
        cargo run --release -q -p vdp1-soft --example floor_check -- \
            build/floor-yabause.png build/floor-reference.png build/floor-sprites.png 100; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
    # The boot ROM script finds its program under the crate's own target directory.
    env -u CARGO_TARGET_DIR ci/boot-rom.sh
    if ci/emu/mednafen.sh build/saturn-boot.rom build/floor-test.cue --seconds 5 \
        --screenshot build/floor-mednafen.png &&
        cargo run --release -q -p vdp1-soft --example compare -- \
            build/floor-mednafen.png build/floor-reference.png 98 &&
        cargo run --release -q -p vdp1-soft --example floor_check -- \
            build/floor-mednafen.png build/floor-reference.png build/floor-sprites.png 100; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
fi
