#!/usr/bin/env bash
# The C interface's library for the SH-2 (issue #16, capi/): builds the jom-c crate as a
# static library with our toolchain and writes build/c/libjom.a, ready for sh-elf-gcc:
# the Rust code (jom-c, jom, core) without compiler_builtins (GCC's SH code calls
# libgcc's helpers, which the C program's link brings: see ci/sh2-ld), plus the engine's
# SH-2 assembly loops (rt/ of the jom crate's build, without the start-up code and the C
# helpers, which a C program has its own of: examples/c/ builds ours from rt/).
#
# The library is one object: a partial link of all that, kept to what the functions jom.h
# declares reach (--gc-sections from them) and with only those functions global. A C
# program then links it with or without --gc-sections: the members of the crate's own
# archive also hold code no function reaches (the slave CPU's start, which needs our
# crt0.S and link.x; core's 128-bit arithmetic, whose helpers SH libgcc lacks), whose
# references a link without --gc-sections would have to resolve. Then checks that: a C
# program calling every function links without --gc-sections (capi/tests/c/link_test.c,
# no start-up and no linker script of ours).
# Last, the most stack each function's code can take (ci/stack-bound.py on that program):
# the table in build/c/stack-bound.txt (build/c/stack-bound-qemu.txt), the largest printed,
# a failure if one passes jom.h's JOM_STACK_BYTES (ci/capi-test.sh measures the calls
# under qemu; this covers the Saturn's library and the helpers qemu cannot run), or if a
# function's own frame passes 4 KiB.
#   ci/capi.sh          build/c/libjom.a       (the Saturn: SH-2 division unit)
#   ci/capi.sh qemu     build/c/libjom-qemu.a  (qemu-sh4eb's user mode: soft division)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
variant=${1:-saturn}
features=()
name=libjom.a
bounds=build/c/stack-bound.txt
if [ "$variant" = qemu ]; then
    features=(--features qemu)
    name=libjom-qemu.a
    bounds=build/c/stack-bound-qemu.txt
fi
target_dir=${CARGO_TARGET_DIR:-target}
sh2_cargo build -p jom-c --lib "${features[@]}"
mkdir -p build/c
out=build/c/$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$target_dir/sh2-target/release/libjom_c.a" "$work/crate.a"
# compiler_builtins' members: named after the crate by rustc.
mapfile -t builtins < <(sh-elf-ar t "$work/crate.a" | grep '^compiler_builtins-' || true)
if [ "${#builtins[@]}" -gt 0 ]; then
    sh-elf-ar d "$work/crate.a" "${builtins[@]}"
fi
# The engine's assembly loops, from the jom crate's build script's output.
rt=$(realpath "$(ls -t "$target_dir"/sh2-target/release/build/jom-*/out/libjom_rt.a | head -n 1)")
mkdir "$work/rt"
(cd "$work/rt" && sh-elf-ar x "$rt")
loops=()
for object in "$work"/rt/*.o; do
    case "$(basename "$object")" in
        *crt0.o | *mem.o) ;;
        *) loops+=("$object") ;;
    esac
done
# The functions of jom.h (a name followed by its parameters), the roots of the link.
mapfile -t api < <(grep -o '\bjom_[a-z0-9_]*(' capi/include/jom.h | tr -d '(' | sort -u)
roots=()
for function in "${api[@]}"; do
    roots+=(--require-defined "_$function")
    echo "_$function" >> "$work/api.txt"
done
# Each input section stays a section of its own (`--unique`: those the partial link's
# default script leaves to their names; `--unique=.text`: the assembly's, which it would
# merge), so that a program's own --gc-sections still drops what it does not call.
sh-elf-ld -r --unique --unique=.text --gc-sections "${roots[@]}" -o "$work/jom.o" \
    --whole-archive "$work/crate.a" "${loops[@]}" --no-whole-archive
# The partial link keeps in its symbol table the undefined symbols of the code it dropped
# (the slave's start, core's 128-bit helpers), though no relocation names them: they go,
# so that the library's undefined symbols are what it needs (checked below).
sh-elf-objdump -r "$work/jom.o" | awk '$2 ~ /^R_/ {sub(/[-+]0x[0-9a-f]+$/, "", $3); print $3}' |
    LC_ALL=C sort -u > "$work/named.txt"
sh-elf-nm -u "$work/jom.o" | awk '{print $2}' | LC_ALL=C sort -u |
    LC_ALL=C comm -23 - "$work/named.txt" > "$work/unnamed.txt"
sh-elf-objcopy --keep-global-symbols="$work/api.txt" --strip-symbols="$work/unnamed.txt" \
    "$work/jom.o"
rm -f "$out"
sh-elf-ar rcs "$out" "$work/jom.o"
echo "$out: $(sh-elf-size -t "$out" | tail -n 1 | awk '{print $1 " bytes of text, " $2 " data, " $3 " bss"}')"

# What the library leaves to the program: the C library's memcpy & co, and libgcc.
libgcc=$("$JOM_SH2_CC" -m2 -mb -print-libgcc-file-name)
unexpected=$(LC_ALL=C comm -23 \
    <(sh-elf-nm -u "$out" | awk 'NF == 2 {print $2}' | LC_ALL=C sort -u) \
    <({
        printf '%s\n' _memcpy _memmove _memset _memcmp
        sh-elf-nm -g --defined-only "$libgcc" | awk 'NF == 3 {print $3}'
    } | LC_ALL=C sort -u))
if [ -n "$unexpected" ]; then
    echo "error: $out needs symbols neither a C library nor libgcc gives:" >&2
    echo "$unexpected" >&2
    exit 1
fi
# A C program that calls every function, linked as a program with its own start-up and
# linker script would be (the toolchain's default script here): without --gc-sections.
{
    echo '#include "jom.h"'
    echo 'typedef void (*jom_function)(void);'
    echo 'extern const jom_function every_function[];'
    echo 'const jom_function every_function[] = {'
    printf '    (jom_function)%s,\n' "${api[@]}"
    echo '};'
} > "$work/functions.c"
"$JOM_SH2_CC" -m2 -mb -O2 -std=c11 -Wall -Wextra -Werror -ffreestanding -fno-builtin \
    -nostdlib -nostartfiles -Wl,--no-gc-sections -Wl,--no-warn-rwx-segments -Wl,-e,_main \
    -Icapi/include capi/tests/c/link_test.c "$work/functions.c" rt/mem.c "$out" -lgcc \
    -o "$work/link_test.elf"
echo "$out: a program calling its ${#api[@]} functions links without --gc-sections"
ci/stack-bound.py "$work/link_test.elf" "${api[@]}" | LC_ALL=C sort -t: -k2 -n -r > "$bounds"
# The same bounds whatever order Python's sets walk the call graph in (it varies from run to
# run with the hash seed; the bound once did, by up to 372 bytes).
PYTHONHASHSEED=1 ci/stack-bound.py "$work/link_test.elf" "${api[@]}" |
    LC_ALL=C sort -t: -k2 -n -r > "$work/bounds-again.txt"
if ! cmp -s "$bounds" "$work/bounds-again.txt"; then
    echo "error: ci/stack-bound.py's bounds changed with the hash seed:" >&2
    diff "$bounds" "$work/bounds-again.txt" >&2
    exit 1
fi
limit=$(awk '$1 == "#define" && $2 == "JOM_STACK_BYTES" {print $3}' capi/include/jom.h)
echo "$out: the most stack its code takes: $(head -n 1 "$bounds" | sed "s/: /, /") bytes ($bounds)"
over=$(awk -F': ' -v limit="$limit" '$2 > limit' "$bounds")
if [ -n "$over" ]; then
    echo "error: more stack than JOM_STACK_BYTES ($limit) in capi/include/jom.h:" >&2
    echo "$over" >&2
    exit 1
fi
# No frame of the library's own over 4 KiB (the frames the calls above add up).
ci/stack-bound.py --frames 4096 "$work/link_test.elf" > "$work/frames.txt" || {
    cat "$work/frames.txt" >&2
    exit 1
}
echo "$out: $(tail -n 1 "$work/frames.txt" | sed 's/^stack-bound.py: //')"
