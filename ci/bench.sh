#!/usr/bin/env bash
# The SH-2 benchmark (bench/): the engine's phases timed with the master SH-2's
# free-running timer on two emulated Saturns, Mednafen (booted by our own ROM,
# tools/saturn-rom; its SH-2 timing models the caches) and Yabause (BIOS emulation),
# results through backup RAM, printed as one Markdown table. `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

cargo run --release -q -p jom-write --example bench_models -- build/bench
for model in MESH500 MESH2000 MESH4000 CHAIN; do
    export "JOM_BENCH_$model=$PWD/build/bench/$model.JOM"
done
sh2_cargo build --manifest-path bench/Cargo.toml
sh-elf-objcopy -O binary -j .text -j .rodata -j .data bench/target/sh2-target/release/jom-bench build/bench.bin
cargo run --release -q -p saturn-iso -- --program build/bench.bin --title "JOM BENCH" -o build/bench.iso
cargo run --release -q -p saturn-rom -- --program build/bench.bin -o build/bench.rom >&2
# One emulator at a time (each takes a core). JOM_BENCH_EMULATORS=mednafen (or yabause)
# runs one only, for a quick look; its table is the only one printed.
emulators=${JOM_BENCH_EMULATORS:-mednafen yabause}
rm -f build/bench-mednafen.bkr build/bench-yabause.bkr
case " $emulators " in *" mednafen "*)
    ci/emu/mednafen.sh build/bench.rom build/bench.cue --seconds 20 --backup-ram build/bench-mednafen.bkr >&2 ;;
esac
case " $emulators " in *" yabause "*)
    ci/emu/yabause.sh build/bench.iso --seconds 12 --backup-ram build/bench-yabause.bkr >&2 ;;
esac

python3 - build/bench-mednafen.bkr build/bench-yabause.bkr <<'PY'
import sys

# Where the text starts in each emulator's backup RAM file (as in ci/emu/test-report.py):
# Yabause keeps the bus's 64 KiB (the odd bytes hold the data, from 0x8001), Mednafen the
# 32 KiB of odd bytes one after another.
LAYOUTS = {"Mednafen": lambda data: data[0x4000:], "Yabause": lambda data: bytes(data[0x8001::2])}

def rows(emulator, path):
    data = open(path, "rb").read()
    text = LAYOUTS[emulator](data).split(b"\0", 1)[0]
    if not text.startswith(b"JOMB"):
        sys.exit(f"error: no benchmark results in {path}")
    lines = text[4:].decode("ascii", "replace").splitlines()
    if not lines or lines[-1] != "end":
        sys.exit(f"error: {path}: the benchmark did not finish (last line: {lines[-1:]})")
    return [line.split("|") for line in lines[:-1]]

import os
tables = [(name, rows(name, path)) for name, path in zip(["Mednafen", "Yabause"], sys.argv[1:])
          if os.path.exists(path)]
if not tables:
    sys.exit("error: no emulator ran")
header = tables[0][1][0]
print("| emulator | " + " | ".join(header) + " |")
print("|" + "---|" * (len(header) + 1))
for emulator, table in tables:
    for row in table[1:]:
        print(f"| {emulator} | " + " | ".join(row) + " |")

# The slave SH-2's speed-up: each phase of the 4,000-quad frames, master alone against
# master + slave.
print()
for emulator, table in tables:
    cycles = {(row[0].strip(), row[1]): int(row[3]) for row in table[1:] if row[3].isdigit()}
    for kind in ["static", "animated, 16 bones"]:
        scene = f"4,000 quads, {kind}"
        for phase in ["transform + project", "frame"]:
            alone, both = cycles.get((phase, scene)), cycles.get((phase, scene + ", master + slave"))
            if alone and both:
                print(f"{emulator}, {scene}, {phase}: master + slave {alone / both:.2f}x as fast as the master alone")
PY
