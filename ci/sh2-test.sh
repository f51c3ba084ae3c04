#!/usr/bin/env bash
# The crate's tests as SH-2 code: builds the engine and sh2-test/ for the SH-2, checks that
# each test ELF holds SH-2 instructions only, reports sizes, and runs it under qemu-sh4eb
# (user mode). Each runner prints a line per test and "N passed, N failed"; the exit
# status is 1 when either program failed.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

sh2_cargo build --lib -p jom
# include_jom! in a crate for the SH-2 (the proc macro and its jom build for the host).
sh2_cargo build --lib --manifest-path macros/sh2-check/Cargo.toml
# The suites as four programs, each a part of them (sh2-test's features part1 to part4, as
# the emulators run them): all of them in one no longer fit high work RAM.
elf=sh2-test/target/sh2-target/release/jom-sh2-test
status=0
for half in part1 part2 part3 part4; do
    sh2_cargo build --manifest-path sh2-test/Cargo.toml --features "$half"
    sh-elf-objcopy -O binary "$elf" "$elf.bin"
    # An SH-3/SH-4-only opcode disassembles as `.word` under `-m sh2`: the listings differ.
    if ! diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") > /dev/null; then
        echo "error: $elf ($half) holds instructions that are not SH-2:" >&2
        diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") | head -20 >&2
        exit 1
    fi
    echo "SH-2 only: every instruction of $elf ($half) decodes as SH-2"
    echo "size of the SH-2 test binary, $half (engine + tests + fixtures + runtime; .lwram is"
    echo "the 1 MiB of low work RAM the link script reserves, counted as bss):"
    sh-elf-size -A "$elf" | grep -E '^\.(text|rodata|data|bss|lwram) '
    qemu-sh4eb "$elf" || status=$?
done
echo "size of the engine (the jom crate's code, SH-2, -O2):"
sh-elf-size -t target/sh2-target/release/libjom.rlib | tail -n 1
exit "$status"
