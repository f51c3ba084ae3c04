#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on an emulated Saturn: sh2-test built with --no-default-features --features saturn, put on a CD image,
# booted in Yabause headless; the results come back through backup RAM (saved when the
# emulator quits) and are printed here, one line a test, then "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

sh2_cargo build --manifest-path sh2-test/Cargo.toml --no-default-features --features saturn
elf=sh2-test/target/sh2-target/release/jom-sh2-test
mkdir -p build
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" build/sh2-test-saturn.bin
# Files the CD tests read: 5,000 bytes of a known pattern (3 sectors; byte i is
# (i * 31) ^ (i >> 8), as in sh2-test/src/saturn.rs) and a JOM fixture.
python3 -c 'import sys; sys.stdout.buffer.write(bytes(((i * 31) ^ (i >> 8)) & 0xFF for i in range(5000)))' \
    >build/testdata.bin
cargo run --release -q -p saturn-iso -- --program build/sh2-test-saturn.bin \
    --title "JOM SH2 TESTS" -o build/sh2-test-saturn.iso \
    --file TESTDATA.BIN=build/testdata.bin --file EVERY.JOM=tests/fixtures/every_chunk.jom
ci/emu/yabause.sh build/sh2-test-saturn.iso --seconds 6 --backup-ram build/sh2-test-saturn.bkr

# The text is on the odd bytes from file offset 0x8001 (address 0x00188001), after the
# marker "JOMT", up to a zero byte.
python3 - build/sh2-test-saturn.bkr <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
text = bytes(data[0x8001::2]).split(b"\0", 1)[0]
if not text.startswith(b"JOMT"):
    print("error: no test output in backup RAM (did the program run and finish?)")
    print("0 passed, 1 failed")
    sys.exit(1)
lines = text[4:].decode("ascii", "replace").splitlines()
# Test lines carry a prefix, so that they are not counted with the qemu run's; the last
# line is the count.
print("\n".join("saturn: " + line for line in lines[:-1]))
last = lines[-1] if lines else ""
print(last)
sys.exit(0 if last.endswith(" 0 failed") else 1)
PY
