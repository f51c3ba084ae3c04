#!/usr/bin/env bash
# The demo's fixed frame with billboards among its figures, in a fog (the demo's
# `billboards` feature: demo/src/billboards.rs): scaled sprites sorted with the polygons,
# plain, half transparent, meshed and tinted, and every polygon and billboard faded
# through its gouraud colours.
#   ci/billboards.sh build  build/billboards.iso + .cue
#   ci/billboards.sh test   booted in Yabause and in Mednafen (our boot ROM); each
#                           screenshot compared with the host's picture of the same frame
#                           (vdp1-soft's demo_frame --billboards: the renderer's list drawn
#                           by the software VDP1) at 98% of the pixels, a pixel matching
#                           one a pixel away (--edges: Yabause spreads a scaled sprite's
#                           texels over its pixels in proportion, Mednafen from its first
#                           texel to its last, as the software VDP1 does: their texel
#                           boundaries a pixel apart; the exact share is printed too).
#                           Prints "N passed, N failed"
# Run it under the machine's emulator lock: flock /tmp/jom-emu.lock make billboards-test
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
mkdir -p build
make -s build/DEMO.JOM

sh2_cargo build --manifest-path demo/Cargo.toml --features billboards,fixed-frame
elf=${CARGO_TARGET_DIR:-demo/target}/sh2-target/release/jom-demo
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" build/billboards.bin
cargo run --release -q -p saturn-iso -- --program build/billboards.bin --title "JOM BILLBOARDS" \
    --file DEMO.JOM=build/DEMO.JOM -o build/billboards.iso
if [ "$mode" != test ]; then
    exit 0
fi

cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM \
    build/billboards-reference.png --billboards
# The boot ROM script finds its program under the crate's own target directory.
env -u CARGO_TARGET_DIR ci/boot-rom.sh

passed=0
failed=0
for emulator in yabause mednafen; do
    shot=build/billboards-$emulator.png
    case "$emulator" in
        yabause) run=(ci/emu/yabause.sh build/billboards.iso --seconds 3 --screenshot "$shot") ;;
        mednafen) run=(ci/emu/mednafen.sh build/saturn-boot.rom build/billboards.cue --seconds 5
            --screenshot "$shot") ;;
    esac
    if "${run[@]}" && cargo run --release -q -p vdp1-soft --example compare -- \
        "$shot" build/billboards-reference.png 98 --edges; then
        passed=$((passed + 1))
    else
        echo "billboards: $emulator's frame differs from the software VDP1's" >&2
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
