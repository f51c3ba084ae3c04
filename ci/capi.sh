#!/usr/bin/env bash
# The C interface's library for the SH-2 (issue #16, capi/): builds the jom-c crate as a
# static library with our toolchain and writes build/c/libjom.a, ready for sh-elf-gcc:
# the Rust code (jom-c, jom, core) without compiler_builtins (GCC's SH code calls
# libgcc's helpers, which the C program's link brings: see ci/sh2-ld), plus the engine's
# SH-2 assembly loops (rt/ of the jom crate's build, without the start-up code and the C
# helpers, which a C program has its own of: examples/c/ builds ours from rt/).
#   ci/capi.sh          build/c/libjom.a       (the Saturn: SH-2 division unit)
#   ci/capi.sh qemu     build/c/libjom-qemu.a  (qemu-sh4eb's user mode: soft division)
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
variant=${1:-saturn}
features=()
name=libjom.a
if [ "$variant" = qemu ]; then
    features=(--features qemu)
    name=libjom-qemu.a
fi
target_dir=target
sh2_cargo build -p jom-c --lib "${features[@]}"
mkdir -p build/c
out=build/c/$name
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$target_dir/sh2-target/release/libjom_c.a" "$work/libjom.a"
# compiler_builtins' members: named after the crate by rustc.
mapfile -t builtins < <(sh-elf-ar t "$work/libjom.a" | grep '^compiler_builtins-' || true)
if [ "${#builtins[@]}" -gt 0 ]; then
    sh-elf-ar d "$work/libjom.a" "${builtins[@]}"
fi
# The engine's assembly loops, from the jom crate's build script's output.
rt=$(realpath "$(ls -t "$target_dir"/sh2-target/release/build/jom-*/out/libjom_rt.a | head -n 1)")
(cd "$work" && sh-elf-ar x "$rt")
loops=()
for object in "$work"/*.o; do
    case "$(basename "$object")" in
        *crt0.o | *mem.o) ;;
        *) loops+=("$object") ;;
    esac
done
sh-elf-ar rcs "$work/libjom.a" "${loops[@]}"
cp "$work/libjom.a" "$out"
echo "$out: $(sh-elf-size -t "$out" | tail -n 1 | awk '{print $1 " bytes of text, " $2 " data, " $3 " bss"}')"
