#!/usr/bin/env bash
# The demo on the Saturn side.
#   ci/demo.sh build   builds the demo for the SH-2, build/demo.bin (raw) and
#                      build/demo.iso + .cue with the model build/DEMO.JOM as DEMO.JOM
#   ci/demo.sh test    builds the fixed-frame demo, boots it in Yabause headless, and
#                      compares the screenshot with the software VDP1's picture of the same
#                      scene (at least 98% of the pixels); prints "N passed, N failed"
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
features=()
suffix=""
if [ "$mode" = test ]; then
    features=(--features fixed-frame)
    suffix="-test"
fi

sh2_cargo build --manifest-path demo/Cargo.toml "${features[@]}"
elf=demo/target/sh2-target/release/jom-demo
if ! diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") > /dev/null; then
    echo "error: $elf holds instructions that are not SH-2" >&2
    exit 1
fi
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" "build/demo$suffix.bin"
cargo run --release -q -p saturn-iso -- --program "build/demo$suffix.bin" --title "JOM DEMO" \
    --file DEMO.JOM=build/DEMO.JOM -o "build/demo$suffix.iso"

if [ "$mode" = test ]; then
    cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM build/demo-reference.png
    ci/emu/yabause.sh "build/demo$suffix.iso" --seconds 3 --screenshot build/demo-screenshot.png
    if cargo run --release -q -p vdp1-soft --example compare -- \
        build/demo-screenshot.png build/demo-reference.png 98; then
        echo "1 passed, 0 failed"
    else
        echo "0 passed, 1 failed"
        exit 1
    fi
fi
