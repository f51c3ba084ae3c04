#!/usr/bin/env bash
# The test program for a Saturn (sh2-test with --features saturn: every suite and the
# hardware tests) as a raw binary for cartridge loaders (load and run at 0x06004000) and a
# CD image holding it and the files the CD tests read:
#   ci/sh2-test-image.sh [NAME [FEATURE]]  ->  build/NAME.bin, build/NAME.iso, build/NAME.cue
# NAME: jom-tests by default (`make console-tests`). FEATURE: a-test-that-fails, the
# program with a test that fails on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
name=${1:-jom-tests}
features=saturn${2:+,$2}

sh2_test_build --no-default-features --features "$features"
elf=sh2-test/target/sh2-target/release/jom-sh2-test
mkdir -p build
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" "build/$name.bin"
# What is left of high work RAM from the load address (its statics and stacks are in low
# work RAM: sh2-test/build.rs).
size=$(stat -c %s "build/$name.bin")
echo "sh2-test-image: build/$name.bin is $size bytes, $((0x06100000 - 0x06004000 - size)) left of high work RAM"
# The CD tests read 5,000 bytes of a known pattern (3 sectors; byte i is (i * 31) ^ (i >> 8),
# as in sh2-test/src/saturn.rs), JOM fixtures, and the texture files that one of them
# (texture_files.jom) names in TEXT.
python3 -c 'import sys; sys.stdout.buffer.write(bytes(((i * 31) ^ (i >> 8)) & 0xFF for i in range(5000)))' \
    >build/testdata.bin
# The demo's scene (hw::demo_scene_commits_the_hosts_frame): the robot converted as the
# Makefile converts it, and the bytes the host's renderer commits for the demo's fixed
# frame of it, which the test draws again and compares.
scene=build/sh2-test-scene
mkdir -p "$scene"
cargo run --release -q -p jomc -- convert demo/assets/robot.obj -o "$scene/DEMO.JOM" \
    --embed-textures --skeleton demo/assets/robot.json
cargo run --release -q -p vdp1-soft --example demo_frame -- "$scene/DEMO.JOM" \
    "$scene/reference.png" --commands "$scene/SCENE.BIN" --check-sort
cargo run --release -q -p saturn-iso -- --program "build/$name.bin" \
    --title "JOM SH2 TESTS" -o "build/$name.iso" \
    --file DEMO.JOM="$scene/DEMO.JOM" --file SCENE.BIN="$scene/SCENE.BIN" \
    --file TESTDATA.BIN=build/testdata.bin --file EVERY.JOM=tests/fixtures/every_chunk.jom \
    --file FILES.JOM=tests/fixtures/texture_files.jom \
    --file CHECKER.BIN=tests/fixtures/CHECKER.BIN --file GRADIENT.TGA=tests/fixtures/GRADIENT.TGA
