#!/usr/bin/env bash
# The demo on the Saturn side.
#   ci/demo.sh build   builds the demo for the SH-2, build/demo.bin (raw) and
#                      build/demo.iso + .cue with the model build/DEMO.JOM as DEMO.JOM;
#                      with IP_TEMPLATE=FILE in the environment (make iso IP_TEMPLATE=FILE)
#                      an image for a console, Sega's security code and area codes from
#                      FILE (saturn-iso --ip-template, docs/boot.md)
#   ci/demo.sh test    builds the fixed-frame demo, boots it in Yabause headless, and
#                      compares the screenshot with the software VDP1's picture of the same
#                      scene (three overlapping figures of the robot, sorted together; the
#                      reference fails unless the scene would show a wrong sort) (at least
#                      98% of the pixels); then the same with the robot
#                      converted with --texture-dir, its textures as .BIN files on the CD
#                      beside it, which must also give exactly the first run's picture;
#                      then the fixed frame in Mednafen (our boot ROM), compared the same
#                      way; prints "N passed, N failed"
set -euo pipefail
# The template's path as given, from where the script was started.
[ -z "${IP_TEMPLATE:-}" ] || IP_TEMPLATE=$(realpath -m -- "$IP_TEMPLATE")
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
ip_template=()
if [ "$mode" = build ] && [ -n "${IP_TEMPLATE:-}" ]; then
    ip_template=(--ip-template "$IP_TEMPLATE")
fi
features=()
suffix=""
if [ "$mode" = test ]; then
    features=(--features fixed-frame)
    suffix="-test"
fi

sh2_cargo build --manifest-path demo/Cargo.toml "${features[@]}"
elf=${CARGO_TARGET_DIR:-demo/target}/sh2-target/release/jom-demo
# The engine's rule in the program it is linked into: none of its frames over 4 KiB.
ci/stack-bound.py --frames 4096 --crate jom "$elf" >&2
if ! diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") > /dev/null; then
    echo "error: $elf holds instructions that are not SH-2" >&2
    exit 1
fi
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" "build/demo$suffix.bin"
cargo run --release -q -p saturn-iso -- --program "build/demo$suffix.bin" --title "JOM DEMO" \
    --file DEMO.JOM=build/DEMO.JOM "${ip_template[@]}" -o "build/demo$suffix.iso"

if [ "$mode" = test ]; then
    cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM build/demo-reference.png \
        --check-sort
    # The robot again, its textures as files (CHEST.BIN, FACE.BIN) named by TEXT.
    rm -rf build/demo-files && mkdir -p build/demo-files
    cargo run --release -q -p jomc -- convert demo/assets/robot.obj -o build/demo-files/DEMO.JOM \
        --texture-dir build/demo-files --skeleton demo/assets/robot.json
    files=()
    for texture in build/demo-files/*.BIN; do
        files+=(--file "$(basename "$texture")=$texture")
    done
    cargo run --release -q -p saturn-iso -- --program "build/demo$suffix.bin" --title "JOM DEMO" \
        --file DEMO.JOM=build/demo-files/DEMO.JOM "${files[@]}" -o build/demo-files-test.iso
    # The demo's image with an IP made from a template (saturn-iso --ip-template) whose
    # security code and area code blocks are our own made-up bytes, not Sega's: each block
    # is code that branches to the next, as a real one ends (bra +0x1C; nop), its area's
    # letter at its offset 8. Yabause jumps to IP offset 0xE00, the first block: it must
    # run through them to our stub and boot the demo as without a template.
    python3 - build/made-up-ip.bin <<'PY'
import sys
ip = bytearray(b" " * 0x100) + bytearray((i * 37 + 11) & 0xFF for i in range(0xD00))
ip[0:16] = b"SEGA SEGASATURN "
ip[0x40:0x4A] = b"JTUE      "
for symbol in b"JTUE":
    block = bytearray([0x00, 0x09] * 16)
    block[0:2] = bytes([0xA0, 0x0E])
    block[8] = symbol
    ip += block
open(sys.argv[1], "wb").write(ip)
PY
    cargo run --release -q -p saturn-iso -- --program "build/demo$suffix.bin" --title "JOM DEMO" \
        --file DEMO.JOM=build/DEMO.JOM --ip-template build/made-up-ip.bin -o build/demo-template-test.iso
    passed=0
    failed=0
    for run in "demo$suffix:demo" demo-files-test:demo-files demo-template-test:demo-template; do
        image=${run%%:*}
        screenshot=build/${run#*:}-screenshot.png
        ci/emu/yabause.sh "build/$image.iso" --seconds 3 --screenshot "$screenshot"
        same_as_first=(true)
        if [ "$image" != "demo$suffix" ]; then
            same_as_first=(cargo run --release -q -p vdp1-soft --example compare -- \
                "$screenshot" build/demo-screenshot.png 100)
        fi
        if cargo run --release -q -p vdp1-soft --example compare -- \
            "$screenshot" build/demo-reference.png 98 && "${same_as_first[@]}"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
    # The fixed frame in Mednafen too (booted by our ROM, the disc as in Yabause): its VDP1
    # reads lookup tables as the hardware does and it emulates the data cache.
    ci/boot-rom.sh
    if ci/emu/mednafen.sh build/saturn-boot.rom "build/demo$suffix.cue" --seconds 5 \
        --screenshot build/demo-mednafen.png &&
        cargo run --release -q -p vdp1-soft --example compare -- \
            build/demo-mednafen.png build/demo-reference.png 98; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
fi
