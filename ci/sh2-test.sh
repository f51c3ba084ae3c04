#!/usr/bin/env bash
# The crate's tests as SH-2 code: builds the engine and sh2-test/ for the SH-2, checks that
# each test ELF holds SH-2 instructions only, reports sizes, and runs it under qemu-sh4eb
# (user mode). It prints a line per test and "N passed, N failed"; the exit status is 1
# when a test failed.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh

sh2_cargo build --lib -p jom
# include_jom! in a crate for the SH-2 (the proc macro and its jom build for the host).
sh2_cargo build --lib --manifest-path macros/sh2-check/Cargo.toml
# The test program, all the suites in one, as the Saturns run it (-Os: sh2_test_build).
elf=sh2-test/target/sh2-target/release/jom-sh2-test
sh2_test_build
# An SH-3/SH-4-only opcode disassembles as `.word` under `-m sh2`: the listings differ.
if ! diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") > /dev/null; then
    echo "error: $elf holds instructions that are not SH-2:" >&2
    diff <(sh-elf-objdump -d "$elf") <(sh-elf-objdump -d -m sh2 "$elf") | head -20 >&2
    exit 1
fi
echo "SH-2 only: every instruction of $elf decodes as SH-2"
echo "size of the SH-2 test program (engine + tests + fixtures + runtime; .bss and the"
echo "stacks in low work RAM, .lwram the rest of it):"
sh-elf-size -A "$elf" | grep -E '^\.(text|rodata|data|bss|stacks|lwram) '
status=0
qemu-sh4eb "$elf" || status=$?
# The same at -O2, as games are built (the program no longer fits a Saturn's high work RAM
# so; qemu gives it more: sh2-test/build.rs).
JOM_SH2_OPT=-O2 sh2_cargo build --manifest-path sh2-test/Cargo.toml
# Its lines get an "O2: " prefix (ci/test.sh matches each suite test's line with the
# host's once), its counts none.
echo "the test program at -O2, under qemu:"
if ! qemu-sh4eb "$elf" | sed -E '/^[0-9]+ passed, [0-9]+ failed/!s/^/O2: /'; then
    status=1
fi
echo "size of the engine (the jom crate's code, SH-2, -O2):"
sh-elf-size -t target/sh2-target/release/libjom.rlib | tail -n 1
exit "$status"
