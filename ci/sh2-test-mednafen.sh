#!/usr/bin/env bash
# The crate's tests (the same suites as under qemu, plus tests of the hardware) as SH-2
# code on Mednafen's Saturn, booted by our own boot ROM (tools/saturn-rom, given to
# Mednafen as its BIOS: no Sega code) from the same kind of CD image as
# ci/sh2-test-saturn.sh uses. The results come back through backup RAM (saved when the
# emulator exits on SIGTERM) and are printed here, one line a test prefixed "mednafen: ",
# then "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

sh2_cargo build --manifest-path sh2-test/Cargo.toml --no-default-features --features saturn
elf=sh2-test/target/sh2-target/release/jom-sh2-test
mkdir -p build
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" build/sh2-test-mednafen.bin
# The files the CD tests read, as in ci/sh2-test-saturn.sh: 5,000 bytes of a known
# pattern (byte i is (i * 31) ^ (i >> 8), as in sh2-test/src/saturn.rs) and a JOM fixture.
python3 -c 'import sys; sys.stdout.buffer.write(bytes(((i * 31) ^ (i >> 8)) & 0xFF for i in range(5000)))' \
    >build/testdata.bin
cargo run --release -q -p saturn-iso -- --program build/sh2-test-mednafen.bin \
    --title "JOM SH2 TESTS" -o build/sh2-test-mednafen.iso \
    --file TESTDATA.BIN=build/testdata.bin --file EVERY.JOM=tests/fixtures/every_chunk.jom
# The program is both on the disc (where a BIOS would load it from) and in the ROM (where
# our loader copies it from).
cargo run --release -q -p saturn-rom -- --program build/sh2-test-mednafen.bin \
    -o build/sh2-test-mednafen.rom
ci/emu/mednafen.sh build/sh2-test-mednafen.rom build/sh2-test-mednafen.cue --seconds 6 \
    --backup-ram build/sh2-test-mednafen.bkr

# Mednafen's .bkr file holds the 32 KiB of backup RAM itself: the odd bytes of
# 0x00180000-0x0018FFFF, one after the other (Yabause's file is 64 KiB with 0xFF on the
# even offsets). Address A is at file offset (A - 0x00180001) / 2, so the text at
# 0x00188001 starts at 0x4000, after the marker "JOMT", up to a zero byte.
python3 - build/sh2-test-mednafen.bkr <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
if len(data) != 0x8000:
    print(f"error: the backup RAM file is {len(data)} bytes, expected 32768")
    print("0 passed, 1 failed")
    sys.exit(1)
text = data[0x4000:].split(b"\0", 1)[0]
if not text.startswith(b"JOMT"):
    print("error: no test output in backup RAM (did the program run and finish?)")
    print("0 passed, 1 failed")
    sys.exit(1)
lines = text[4:].decode("ascii", "replace").splitlines()
# Test lines carry a prefix, so that they are not counted with the other runs'; the last
# line is the count.
print("\n".join("mednafen: " + line for line in lines[:-1]))
last = lines[-1] if lines else ""
print(last)
sys.exit(0 if last.endswith(" 0 failed") else 1)
PY
