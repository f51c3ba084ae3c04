#!/usr/bin/env bash
# The C example (examples/c/, issue #16) on the Saturn side.
#   ci/c-example.sh build   build/c/libjom.a (ci/capi.sh), then the example with plain
#                           sh-elf-gcc (examples/c/Makefile) and its CD image
#                           build/c/c-example.iso + .cue, DEMO.JOM (build/DEMO.JOM) on it
#   ci/c-example.sh test    the same with FIXED_FRAME=1: boots it in Yabause headless and
#                           compares the screenshot with the software VDP1's picture of the
#                           demo's fixed frame (the same scene: at least 98% of the
#                           pixels, as ci/demo.sh does); then boots it in Mednafen (our
#                           boot ROM) and reads its report from backup RAM; prints
#                           "N passed, N failed"
#   ci/c-example.sh MODE billboards   the same with the demo's billboards and fog
#                           (BILLBOARDS=1; its reference: demo_frame --billboards, compared
#                           as ci/billboards.sh compares the demo's: a pixel matching one a
#                           pixel away, --edges, for Yabause's scaled sprites)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
mode=${1:-build}
variant=${2:-}
[ -f build/DEMO.JOM ] || make build/DEMO.JOM
[ -f build/c/libjom.a ] || ci/capi.sh
name=c-example
fixed=()
if [ "$mode" = test ]; then
    name=c-example-test
    fixed=(FIXED_FRAME=1)
fi
suffix=
reference_flags=()
compare_flags=()
if [ "$variant" = billboards ]; then
    suffix=-billboards
    fixed+=(BILLBOARDS=1)
    reference_flags=(--billboards)
    compare_flags=(--edges)
fi
name=$name$suffix
make -s -C examples/c CC="$JOM_SH2_CC" "${fixed[@]}"
elf=build/c/$name.elf
if ! diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") > /dev/null; then
    echo "error: $elf holds instructions that are not SH-2" >&2
    exit 1
fi
cargo run --release -q -p saturn-iso -- --program "build/c/$name.bin" --title "JOM C EXAMPLE" \
    --file DEMO.JOM=build/DEMO.JOM -o "build/c/$name.iso"
echo "build/c/$name.iso: $(sh-elf-size -A "$elf" | awk '$1 == ".text" {print $2}') bytes of code"
[ "$mode" = test ] || exit 0

passed=0
failed=0
reference=build/c/reference$suffix.png
cargo run --release -q -p vdp1-soft --example demo_frame -- build/DEMO.JOM "$reference" \
    "${reference_flags[@]}"
ci/emu/yabause.sh "build/c/$name.iso" --seconds 3 --screenshot "build/c/yabause-screenshot$suffix.png"
if cargo run --release -q -p vdp1-soft --example compare -- \
    "build/c/yabause-screenshot$suffix.png" "$reference" 98 "${compare_flags[@]}"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
fi
ci/boot-rom.sh
if ci/emu/mednafen.sh build/saturn-boot.rom "build/c/$name.cue" --seconds 6 \
    --backup-ram build/c/mednafen.bkr --screenshot "build/c/mednafen-screenshot$suffix.png" &&
    ci/emu/test-report.py mednafen build/c/mednafen.bkr &&
    cargo run --release -q -p vdp1-soft --example compare -- \
        "build/c/mednafen-screenshot$suffix.png" "$reference" 98 "${compare_flags[@]}"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
