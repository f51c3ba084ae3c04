#!/usr/bin/env bash
# Fuzzes every target of fuzz/ (`cargo fuzz list`) for SECONDS each, one after the other,
# each from a seed corpus of real inputs, and prints "N passed, N failed": a target passes
# when libFuzzer ran it for the whole time without a crash, a hang or a leak (a crash is
# kept in fuzz/artifacts/TARGET/). Needs the nightly toolchain and cargo-fuzz
# (ci/setup.sh fuzz).
#
# Usage: ci/fuzz.sh SECONDS [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:?usage: ci/fuzz.sh SECONDS [TARGET...]}
shift
samples=../shared/samples

# The seed files of a target: the project's fixtures and, where present, the shared
# samples of its format (read in place, never copied into the repository's tree) and the
# models the tests built with Blender (glTF: the rigs, with a skinned level of detail).
seeds() {
    case "$1" in
        from_bytes | streamed_model) ls tests/fixtures/*.jom ;;
        texture_files) ls tests/fixtures/*.BIN tests/fixtures/*.TGA ;;
        iso9660) ls build/iso9660-seed.bin ;;
        tmd*) ls "$samples"/psx/*.TMD ;;
        tod*) ls "$samples"/psx/*.TOD ;;
        tim*) ls "$samples"/psx/*.TIM ;;
        cmb*) ls "$samples"/cmb/*/*.cmb "$samples"/cmb/*/*.csab ;;
        csab*) ls "$samples"/cmb/*/*.csab ;;
        gltf*) ls "$samples"/cmb/*/*.glb build/models/blender/*.glb ;;
        obj) ls build/obj-seed.bin ;;
        ip_template) ls build/ip-template-seed.bin ;;
        saturn_link) ls build/saturn-link-seed.bin ;;
        floor_tiles) ls build/floor-tiles-seed.bin ;;
        *) ls "fuzz/seeds/$1"/* ;;
    esac 2> /dev/null
}

# The ISO reader's seed: the volume descriptors and directories of a small image.
iso_seed() {
    local tree image
    tree=$(mktemp -d)
    mkdir -p "$tree/MODELS"
    cp tests/fixtures/*.jom "$tree/MODELS/"
    printf 'seed' > "$tree/README.TXT"
    image=$(mktemp)
    mkdir -p build
    genisoimage -quiet -iso-level 1 -V SEED -o "$image" "$tree" &&
        tail -c +32769 "$image" | head -c 65536 > build/iso9660-seed.bin
    rm -rf "$tree" "$image"
}

# The OBJ target's seed: the demo robot as the target reads it, OBJ, MTL and one PNG
# separated by zero bytes (the target names the MTL m.mtl and the texture t.png).
obj_seed() {
    mkdir -p build
    {
        grep -v '^mtllib' demo/assets/robot.obj
        printf '\0'
        sed 's/^map_Kd .*/map_Kd t.png/' demo/assets/robot.mtl
        printf '\0'
        cat demo/assets/chest.png
    } > build/obj-seed.bin
}

# The IP template target's seed: an IP's layout with made-up bytes, not Sega's (as
# saturn_iso::made_up_template): the hardware id, the area symbols JTUE at 0x40, a
# security code that is neither all 0x00 nor all 0xFF, four 0x20-byte area blocks from
# 0xE00, each with its symbol at its offset 8.
ip_template_seed() {
    mkdir -p build
    python3 - build/ip-template-seed.bin <<'PY'
import sys
ip = bytearray(b" " * 0x100) + bytearray((i * 37 + 11) & 0xFF for i in range(0xD00))
ip[0:16] = b"SEGA SEGASATURN "
ip[0x40:0x4A] = b"JTUE      "
ip[0xE0:0x100] = bytes(0x20)
for i, symbol in enumerate(b"JTUE"):
    block = bytearray([0xC0 + i] * 0x20)
    block[8] = symbol
    ip += block
ip += bytes([0xA5] * 0x80)
open(sys.argv[1], "wb").write(ip)
PY
}

# The cart readers' seed: the control byte (pieces of 8 bytes, the link quiet at the end,
# a 22-byte download), then a test program's output with its result line.
link_seed() {
    mkdir -p build
    printf '\007boot\r\ntest a: ok\n3 passed, 0 failed, 1 skipped\n' > build/saturn-link-seed.bin
}

# The floor reader's seed: the demo's floor picture as `jomc plane` writes it.
floor_seed() {
    mkdir -p build
    cargo run --release -q -p jomc -- plane demo/assets/floor.png -o build/floor-tiles-seed.bin \
        > /dev/null
}

# cargo-fuzz runs on the SH-2 toolchain's pinned nightly.
nightly=$(ci/sh2-toolchain.sh --nightly)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cd fuzz && cargo "+$nightly" fuzz list)
iso_seed
obj_seed
ip_template_seed
link_seed
floor_seed
passed=0
failed=0
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    mkdir -p "$corpus"
    seeds "$target" | while read -r seed; do cp "$seed" "$corpus/"; done
    echo "== fuzz $target: $seconds s from $(find "$corpus" -type f | wc -l) inputs"
    if (cd fuzz && cargo "+$nightly" fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 2>&1 | grep -E '^(stat::number_of_executed_units|==|SUMMARY|Done)')
    then
        passed=$((passed + 1))
    else
        echo "== fuzz $target: FAILED (artifacts in fuzz/artifacts/$target/)"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
