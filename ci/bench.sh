#!/usr/bin/env bash
# The SH-2 benchmark (bench/): the engine's phases timed with the SH-2's free-running
# timer on an emulated Saturn (Yabause), results through backup RAM, printed as a
# Markdown table. `make bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

cargo run --release -q -p jom-write --example bench_models -- build/bench
for model in GRID500 GRID2000 SKIN CHAIN; do
    export "JOM_BENCH_$model=$PWD/build/bench/$model.JOM"
done
sh2_cargo build --manifest-path bench/Cargo.toml
sh-elf-objcopy -O binary -j .text -j .rodata -j .data bench/target/sh2-target/release/jom-bench build/bench.bin
cargo run --release -q -p saturn-iso -- --program build/bench.bin --title "JOM BENCH" -o build/bench.iso
ci/emu/yabause.sh build/bench.iso --seconds 8 --backup-ram build/bench.bkr >&2

python3 - build/bench.bkr <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
text = bytes(data[0x8001::2]).split(b"\0", 1)[0]
if not text.startswith(b"JOMB"):
    sys.exit("error: no benchmark results in backup RAM")
rows = [line.split("|") for line in text[4:].decode("ascii", "replace").splitlines()]
print("| " + " | ".join(rows[0]) + " |")
print("|" + "---|" * len(rows[0]))
for row in rows[1:]:
    print("| " + " | ".join(row) + " |")
PY
