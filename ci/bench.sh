#!/usr/bin/env bash
# The SH-2 benchmark (bench/): the engine's phases timed with the master SH-2's
# free-running timer on two emulated Saturns, Mednafen (booted by our own ROM,
# tools/saturn-rom; its SH-2 timing models the caches) and Yabause (BIOS emulation),
# results through backup RAM, printed as Markdown (ci/bench-report.py) and written into
# BENCHMARKS.md. `make bench`; `ci/bench.sh --build` only builds it.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

cargo run --release -q -p jom-write --example bench_models -- build/bench
for model in MESH500 MESH2000 CHAIN CHAINMOT LEVEL LEVELPLAIN; do
    export "JOM_BENCH_$model=$PWD/build/bench/$model.JOM"
done
sh2_cargo build --manifest-path bench/Cargo.toml
elf=${CARGO_TARGET_DIR:-bench/target}/sh2-target/release/jom-bench
# No frame of the engine's or the bench's over 4 KiB but the bench's `main` (issue 40).
ci/stack-bound.py --frames 4096 --except jom_bench::main "$elf" >&2
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" build/bench.bin
cargo run --release -q -p saturn-iso -- --program build/bench.bin --title "JOM BENCH" \
    --file MESH4000.JOM=build/bench/MESH4000.JOM --file SCREEN.JOM=build/bench/SCREEN2000.JOM \
    -o build/bench.iso
ci/boot-rom.sh >&2
# `ci/bench.sh --build` stops here (ci/test.sh checks that the benchmark builds).
[ "${1:-}" != --build ] || exit 0
# One emulator at a time (each takes a core). JOM_BENCH_EMULATORS=mednafen (or yabause)
# runs one only, for a quick look; its table is the only one printed.
emulators=${JOM_BENCH_EMULATORS:-mednafen yabause}
rm -f build/bench-mednafen.bkr build/bench-yabause.bkr
case " $emulators " in *" mednafen "*)
    ci/emu/mednafen.sh build/saturn-boot.rom build/bench.cue --seconds 50 --backup-ram build/bench-mednafen.bkr >&2 ;;
esac
case " $emulators " in *" yabause "*)
    ci/emu/yabause.sh build/bench.iso --seconds 45 --backup-ram build/bench-yabause.bkr >&2 ;;
esac

versions="Mednafen $(dpkg-query -W -f '${Version}' mednafen 2>/dev/null || echo '?') (our boot ROM), Yabause $(dpkg-query -W -f '${Version}' yabause-qt 2>/dev/null || echo '?') (BIOS emulation)"
# A full run (both emulators) rewrites the measured part of BENCHMARKS.md.
write=()
[ "$emulators" != "mednafen yabause" ] || write=(--write BENCHMARKS.md)
ci/bench-report.py "${write[@]}" --versions "$versions" build/bench-mednafen.bkr build/bench-yabause.bkr
