#!/usr/bin/env bash
# The world, the second showcase (world/, docs/world.md), on the Saturn side. Its models and
# floor (build/world/: HERO.JOM, LEVEL.JOM, FOREST.JOM, GRASS.BIN) are built by
# `make world` with Blender and jomc first.
#   ci/world.sh build   builds the world for the SH-2: build/world.bin (raw) and
#                       build/world.iso + .cue with the models on the CD (IP_TEMPLATE=FILE:
#                       an image for a console, as ci/showcase.sh)
#   ci/world.sh test    builds the fixed-frame world, without and with its fog (feature
#                       fog), boots each in Yabause and in Mednafen (our boot ROM) and
#                       compares each screenshot with the host's picture of the same frame (vdp1-soft's world_frame: the software VDP1's
#                       polygons over the floor and sky jom::vdp2 computes): the whole
#                       picture within a pixel, and the floor and sky alone, away from the
#                       polygons, exactly (floor_check); the reference must have drawn at
#                       least 1,000 polygons. Prints "N passed, N failed"
#   ci/world.sh bench [fog]  builds the measuring world (with fog: in its fog), runs it in Mednafen (our boot ROM) and
#                       prints the frame rate, the polygons drawn and the phase times of
#                       1,080 frames of its walk (ci/showcase-report.py), then the polygons
#                       the host draws on the same walk
#   ci/world.sh probe [fog]  the same with every 30 frames the next of the whole scene, without
#                       light, the character alone, the level alone (where the time goes)
# Run it under the machine's emulator lock: flock /tmp/jom-emu.lock make world-test
set -euo pipefail
[ -z "${IP_TEMPLATE:-}" ] || IP_TEMPLATE=$(realpath -m -- "$IP_TEMPLATE")
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
fog=${2:-}
[ -z "$fog" ] || [ "$fog" = fog ] || { echo "usage: ci/world.sh build|test|bench [fog]|probe [fog]" >&2; exit 2; }
ip_template=()
if [ "$mode" = build ] && [ -n "${IP_TEMPLATE:-}" ]; then
    ip_template=(--ip-template "$IP_TEMPLATE")
fi
features=""
suffix=""
case "$mode" in
build) ;;
test) features=fixed-frame; suffix="-test" ;;
bench) features=measure; suffix="-bench" ;;
probe) features=probe; suffix="-bench" ;;
*) echo "usage: ci/world.sh build|test|bench [fog]|probe [fog]" >&2; exit 2 ;;
esac
[ -z "$fog" ] || features="$features${features:+,}fog"

dir=build/world
models=(HERO.JOM FOREST.JOM LEVEL.JOM)
files=()
for model in "${models[@]}" GRASS.BIN; do
    [ -f "$dir/$model" ] || { echo "ci/world.sh: $dir/$model is missing (make world builds it)" >&2; exit 1; }
done
for model in "${models[@]}"; do
    files+=(--file "$model=$dir/$model")
done

# Builds the world with the cargo features $1 into build/world$2.iso (+ .cue, .bin).
image() {
    sh2_cargo build --manifest-path world/Cargo.toml ${1:+--features "$1"}
    local elf=${CARGO_TARGET_DIR:-world/target}/sh2-target/release/jom-world
    if ! diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") > /dev/null; then
        echo "error: $elf holds instructions that are not SH-2" >&2
        exit 1
    fi
    sh-elf-size "$elf" >&2
    # The engine's rule in the program it is linked into: none of its frames over 4 KiB.
    ci/stack-bound.py --frames 4096 --crate jom "$elf" >&2
    sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" "build/world$2.bin"
    cargo run --release -q -p saturn-iso -- --program "build/world$2.bin" --title "JOM WORLD" \
        "${files[@]}" "${ip_template[@]}" -o "build/world$2.iso"
}
if [ "$mode" = test ]; then
    image fixed-frame -test
    image fixed-frame,fog -fog-test
else
    image "$features" "$suffix"
fi

case "$mode" in
test)
    passed=0
    failed=0
    # The boot ROM script finds its program under the crate's own target directory.
    env -u CARGO_TARGET_DIR ci/boot-rom.sh
    for variant in test fog-test; do
        reference=build/world-$variant-reference.png
        sprites=build/world-$variant-sprites.png
        fog_option=()
        [ "$variant" = test ] || fog_option=(--fog)
        drawn=$(cargo run --release -q -p vdp1-soft --example world_frame -- "$dir" "$reference" "$sprites" "${fog_option[@]}" |
            tee /dev/stderr | sed -n 's/.*frame, \([0-9]*\) polygons drawn.*/\1/p')
        if [ "${drawn:-0}" -ge 1000 ]; then
            passed=$((passed + 1))
        else
            echo "ci/world.sh: the reference drew ${drawn:-no} polygons, expected at least 1,000" >&2
            failed=$((failed + 1))
        fi
        for emulator in yabause mednafen; do
            shot=build/world-$variant-$emulator.png
            # The whole picture within a pixel (--edges) and a step of each 5-bit channel
            # (--steps: the fog's gouraud shades, which the emulators round a step away
            # from the software VDP1's): in fog Yabause 99.44%, Mednafen 97.75% measured
            # (Mednafen's VDP1 steps through a texture otherwise than the software VDP1 on
            # polygons a few pixels across, as in the first showcase); the floor and sky
            # away from the polygons exactly (within a step of a 5-bit channel:
            # floor_check; 56,151 of 56,151 pixels in both).
            case "$emulator" in
            yabause)
                run=(ci/emu/yabause.sh "build/world-$variant.iso" --seconds 4 --width 352 --screenshot "$shot")
                percent=99.2
                ;;
            mednafen)
                run=(ci/emu/mednafen.sh build/saturn-boot.rom "build/world-$variant.cue" --seconds 12 --width 352 --screenshot "$shot")
                percent=97.5
                ;;
            esac
            if "${run[@]}" &&
                cargo run --release -q -p vdp1-soft --example compare -- "$shot" "$reference" "$percent" --edges --steps &&
                cargo run --release -q -p vdp1-soft --example floor_check -- "$shot" "$reference" "$sprites" 100; then
                passed=$((passed + 1))
            else
                failed=$((failed + 1))
            fi
        done
    done
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
    ;;
bench | probe)
    env -u CARGO_TARGET_DIR ci/boot-rom.sh >&2
    rm -f build/world-bench.bkr
    ci/emu/mednafen.sh build/saturn-boot.rom build/world-bench.cue --seconds "${JOM_WORLD_SECONDS:-200}" \
        --backup-ram build/world-bench.bkr >&2
    ci/showcase-report.py build/world-bench.bkr
    [ "$mode" = probe ] || cargo run --release -q -p vdp1-soft --example world_frame -- "$dir" --walk
    ;;
esac
