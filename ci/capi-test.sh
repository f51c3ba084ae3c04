#!/usr/bin/env bash
# The C interface's ABI test as SH-2 code (issue #16): capi/tests/c/abi_test.c built by
# sh-elf-gcc -m2 -mb against build/c/libjom-qemu.a (ci/capi.sh qemu), with our start-up
# (rt/crt0.S, rt/mem.c; .bss and the stacks in low work RAM, as qemu needs: link.x) and
# qemu's system calls (sh2-test/src/qemu.S), run under
# qemu-sh4eb; the same file built by the host's gcc against the host library. Passes when
# the SH-2 run's own checks pass and it prints exactly the host run's lines (structs by
# pointer, 64-bit values, the texture callback, the draws' tables). Then the stack each call
# takes (capi/tests/c/stack_test.c, under qemu-sh4eb too): the table "function: bytes", and
# a failure if a call takes more than jom.h's JOM_STACK_BYTES; then each of those figures
# against ci/stack-bound.py's bound for the same library (build/c/stack-bound-qemu.txt, from
# ci/capi.sh qemu): a figure above its bound is a path the bound misses, a failure.
# "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
out=build/c/abi
mkdir -p "$out"
python3 - "$out/model_data.c" <<'PY'
import sys
lines = ["#include <stdint.h>"]
for name in ["mesh_motion", "texture_files", "every_chunk", "levels"]:
    data = open(f"tests/fixtures/{name}.jom", "rb").read()
    lines.append(f"const uint8_t {name}_jom[] __attribute__((aligned(4))) = {{{','.join(map(str, data))}}};")
    lines.append(f"const uint32_t {name}_jom_size = {len(data)};")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
[ -f build/c/libjom-qemu.a ] && [ -f build/c/stack-bound-qemu.txt ] || ci/capi.sh qemu
"$JOM_SH2_CC" -m2 -mb -O2 -std=c11 -Wall -Wextra -Werror -ffreestanding -fno-builtin \
    -ffunction-sections -fdata-sections -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-z,max-page-size=4096 -T link.x -Wl,--defsym=JOM_RAM_IN_LWRAM=1 \
    -Icapi/include rt/crt0.S rt/mem.c sh2-test/src/qemu.S capi/tests/c/abi_test.c \
    "$out/model_data.c" build/c/libjom-qemu.a -lgcc -o "$out/abi_test.elf"
if ! diff <(sh-elf-objdump -d "$out/abi_test.elf") <(sh-elf-objdump -d -m sh2 "$out/abi_test.elf") > /dev/null; then
    echo "error: $out/abi_test.elf holds instructions that are not SH-2" >&2
    exit 1
fi
"$JOM_SH2_CC" -m2 -mb -O2 -std=c11 -Wall -Wextra -Werror -ffreestanding -fno-builtin \
    -ffunction-sections -fdata-sections -nostdlib -nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments -Wl,-z,max-page-size=4096 -T link.x -Wl,--defsym=JOM_RAM_IN_LWRAM=1 \
    -Icapi/include rt/crt0.S rt/mem.c sh2-test/src/qemu.S capi/tests/c/stack_test.c \
    "$out/model_data.c" build/c/libjom-qemu.a -lgcc -o "$out/stack_test.elf"
cargo build -q -p jom-c
gcc -std=c11 -Wall -Wextra -Werror -Icapi/include capi/tests/c/abi_test.c "$out/model_data.c" \
    "${CARGO_TARGET_DIR:-target}/debug/libjom_c.a" -lpthread -ldl -lm -o "$out/abi_test-host"
"$out/abi_test-host" > "$out/host.txt"
passed=0
failed=0
if qemu-sh4eb "$out/abi_test.elf" > "$out/sh2.txt"; then
    echo "sh2: $(tail -n 1 "$out/sh2.txt")"
    passed=$((passed + 1))
else
    echo "FAILED: the SH-2 run's own checks:" && cat "$out/sh2.txt"
    failed=$((failed + 1))
fi
if diff "$out/host.txt" "$out/sh2.txt"; then
    echo "sh2 = host: $(wc -l < "$out/sh2.txt") lines the same"
    passed=$((passed + 1))
else
    echo "FAILED: the SH-2 run differs from the host's (above)"
    failed=$((failed + 1))
fi
if qemu-sh4eb "$out/stack_test.elf" > "$out/stack.txt"; then
    sed 's/^/sh2: /' "$out/stack.txt"
    passed=$((passed + 1))
else
    echo "FAILED: the stack each call takes:" && cat "$out/stack.txt"
    failed=$((failed + 1))
fi
bounds=build/c/stack-bound-qemu.txt
over=$(awk -F': ' 'NR == FNR {bound[$1] = $2; next}
    ($1 in bound) && $2 + 0 > bound[$1] + 0 {print $1 ": " $2 " bytes measured, bound " bound[$1]}' \
    "$bounds" "$out/stack.txt")
within=$(awk -F': ' 'NR == FNR {bound[$1] = $2; next} ($1 in bound) {n++} END {print n + 0}' \
    "$bounds" "$out/stack.txt")
if [ -z "$over" ] && [ "$within" -gt 0 ]; then
    echo "sh2: each of the $within calls measured is within its bound ($bounds)"
    passed=$((passed + 1))
else
    echo "FAILED: calls measured above their bound ($bounds), or none compared:" && echo "$over"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
