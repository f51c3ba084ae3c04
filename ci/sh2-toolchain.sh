#!/usr/bin/env bash
# Build (once) and cache the toolchain that turns Rust into SH-2 (Sega Saturn)
# code: a bare-metal sh-elf GCC 12 with libgccjit (patched, see
# ci/patches/libgccjit-sh2.patch), libgcc for -m2 -mb, rustc_codegen_gcc built
# from the nightly toolchain's rustc-dev sources, and a small sysroot that lets
# rustc_codegen_gcc find libgccjit.
#
# Usage:
#   ci/sh2-toolchain.sh              build if needed; last stdout line = env.sh path
#   ci/sh2-toolchain.sh --print-env  print the env.sh path if the cache is complete,
#                                    exit 1 otherwise (never builds)
#   ci/sh2-toolchain.sh --nightly    print the name of the nightly toolchain it uses
#
# Cache: ${JOM_SH2_CACHE:-$HOME/.cache/jom-sh2}/<key>, key = first 16 hex digits
# of the sha256 of this script and every file in ci/patches/. A cache entry is
# used only once <key>/.complete exists; it is built in a separate directory
# and moved into place at the end.
#
# Environment:
#   JOM_SH2_CACHE       cache root (default ~/.cache/jom-sh2)
#   JOM_SH2_JOBS        parallel make jobs (default 2)
#   JOM_SH2_KEEP_BUILD  1 = keep the build directory when a step fails
#
# Progress goes to stderr; stdout carries only the env.sh path.
set -euo pipefail

# The nightly whose rustc-dev sources rustc_codegen_gcc is built from, and that every SH-2
# build runs (a backend loads only into the rustc it was built for). Pinned: a newer
# nightly's rustc_codegen_gcc calls libgccjit functions GCC 12 lacks (on a fresh machine,
# 2026-10-29's: "undefined symbol: gcc_jit_context_new_va_arg"). rustc 1.97.0-nightly
# (e50aa6fba 2026-05-19). The same name is in tools/jomc/template/rust-toolchain.toml.
readonly NIGHTLY=nightly-2026-05-20
readonly GCC_TARBALL=/usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz
readonly GCC_GFDL_DIFF=/usr/src/gcc-12/debian/patches/gcc-gfdl-build.diff
readonly GCC_DIR_NAME=gcc-12.2.0
readonly HOST_TRIPLE=x86_64-unknown-linux-gnu
# llvm-target string of our target spec: rustc_codegen_gcc loads libgccjit from
# <sysroot>/lib/rustlib/<host>/codegen-backends/lib/<llvm-target>/libgccjit.so
readonly SH2_LLVM_TARGET=sh2-unknown-none-elf
readonly JOBS="${JOM_SH2_JOBS:-2}"

SCRIPT_PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")"
CI_DIR="$(dirname "$SCRIPT_PATH")"
PATCH_DIR="$CI_DIR/patches"
JIT_PATCH="$PATCH_DIR/libgccjit-sh2.patch"
CACHE_ROOT="${JOM_SH2_CACHE:-$HOME/.cache/jom-sh2}"

log() { printf '[sh2-toolchain] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

cache_key() {
    {
        cat "$SCRIPT_PATH"
        if [ -d "$PATCH_DIR" ]; then
            find "$PATCH_DIR" -type f -print0 | LC_ALL=C sort -z |
                while IFS= read -r -d '' f; do
                    printf '\n== %s ==\n' "${f#"$PATCH_DIR"/}"
                    cat "$f"
                done
        fi
    } | sha256sum | cut -c1-16
}

KEY="$(cache_key)"
FINAL="$CACHE_ROOT/$KEY"

print_paths() {
    log "cache:   $FINAL"
    log "gcc:     $FINAL/gcc/bin/sh-elf-gcc"
    log "codegen: $FINAL/codegen/librustc_codegen_gcc.so"
    log "sysroot: $FINAL/sysroot"
    printf '%s\n' "$FINAL/env.sh"
}

case "${1:-}" in
    --nightly) printf '%s\n' "$NIGHTLY"; exit 0 ;;
    --print-env)
        if [ -e "$FINAL/.complete" ]; then
            printf '%s\n' "$FINAL/env.sh"
            exit 0
        fi
        exit 1
        ;;
    "") ;;
    -h|--help)
        sed -n '2,24p' "$SCRIPT_PATH" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) die "unknown argument: $1 (only --print-env)" ;;
esac

if [ -e "$FINAL/.complete" ]; then
    print_paths
    exit 0
fi

# ---------------------------------------------------------------- helpers ---

T_TOTAL=$SECONDS
# run_phase NAME FUNCTION: runs FUNCTION in a subshell (errexit on, output to
# a log file), then prints "NAME: N s". On failure shows the end of the log.
# (Not called as an `if` condition: bash would ignore errexit inside it.)
run_phase() {
    local name="$1" fn="$2" t0=$SECONDS logfile rc
    logfile="$STAGE/logs/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_.-' '_').log"
    log "$name ..."
    set +e
    ( set -euo pipefail; "$fn" ) >"$logfile" 2>&1
    rc=$?
    set -e
    if [ "$rc" != 0 ]; then
        log "$name FAILED (exit $rc) after $((SECONDS - t0)) s; last lines of $logfile:"
        tail -n 40 "$logfile" >&2 || true
        exit 1
    fi
    log "$name: $((SECONDS - t0)) s"
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else die "need root for: $*"
    fi
}

# ------------------------------------------------------------------ phases ---

APT_PACKAGES=(binutils-sh-elf gcc-12-source qemu-user libgmp-dev libmpfr-dev
              libmpc-dev flex bison build-essential xz-utils patch make file)

phase_apt() {
    local missing=() p
    for p in "${APT_PACKAGES[@]}"; do
        if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" != "install ok installed" ]; then
            missing+=("$p")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        echo "all Debian packages present"
        return 0
    fi
    echo "installing: ${missing[*]}"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

phase_rust() {
    command -v rustup >/dev/null || { echo "rustup not found"; return 1; }
    if ! rustup toolchain list | grep "^$NIGHTLY-" >/dev/null; then
        rustup toolchain install "$NIGHTLY" --profile minimal
    fi
    local installed c
    installed="$(rustup component list --toolchain "$NIGHTLY" --installed)"
    for c in rustc-dev rust-src; do
        if ! grep "^$c" <<<"$installed" >/dev/null; then
            rustup component add "$c" --toolchain "$NIGHTLY"
        fi
    done
    rustc "+$NIGHTLY" -vV
}

phase_unpack() {
    mkdir -p "$STAGE/src"
    tar -C "$STAGE/src" -xf "$GCC_TARBALL"
    cd "$GCC_SRC"
    # The dfsg tarball lacks the GFDL texinfo sources; Debian's patch makes
    # the build stop needing them (else genhooks fails on TARGET_ASM_OPEN_PAREN).
    patch -p2 --forward --batch < "$GCC_GFDL_DIFF"
    patch -p1 --forward --batch < "$JIT_PATCH"
}

phase_configure() {
    mkdir -p "$STAGE/build-gcc"
    cd "$STAGE/build-gcc"
    CFLAGS="-O2 -g0" CXXFLAGS="-O2 -g0" \
    CFLAGS_FOR_TARGET="-O2 -g0" \
    "$GCC_SRC/configure" \
        --prefix="$FINAL/gcc" \
        --target=sh-elf \
        --with-cpu=m2 \
        --with-endian=big \
        --disable-multilib \
        --enable-languages=c,jit \
        --enable-host-shared \
        --disable-bootstrap \
        --with-newlib \
        --without-headers \
        --with-as=/usr/bin/sh-elf-as \
        --with-ld=/usr/bin/sh-elf-ld \
        --disable-nls \
        --disable-shared \
        --disable-threads \
        --disable-tls \
        --disable-lto \
        --disable-libssp \
        --disable-libquadmath \
        --disable-libgomp \
        --disable-libatomic \
        --disable-libstdcxx \
        --disable-libsanitizer \
        --disable-werror
}

phase_all_gcc() {
    cd "$STAGE/build-gcc"
    nice -n 10 make -j"$JOBS" all-gcc
}

phase_libgcc() {
    cd "$STAGE/build-gcc"
    # --enable-host-shared puts -fPIC into the flags libgcc is built with:
    # GOT relocations in libgcc crash on bare metal (__divdi3). Drop it.
    local mvars=gcc/libgcc.mvars
    [ -f "$mvars" ] || { echo "$mvars missing"; return 1; }
    head -n 1 "$mvars"
    sed -i '1s/ -fPIC / /g' "$mvars"
    if head -n 1 "$mvars" | grep -e '-fPIC' >/dev/null; then
        echo "could not remove -fPIC from $mvars"; return 1
    fi
    head -n 1 "$mvars"
    nice -n 10 make -j"$JOBS" all-target-libgcc
}

phase_install_gcc() {
    cd "$STAGE/build-gcc"
    make DESTDIR="$STAGE/destdir" install-gcc install-target-libgcc
    rm -rf "$STAGE/out/gcc"
    mv "$STAGE/destdir$FINAL/gcc" "$STAGE/out/gcc"
    local g="$STAGE/out/gcc"
    [ -x "$g/bin/sh-elf-gcc" ] || { echo "no sh-elf-gcc installed"; return 1; }
    [ -e "$g/lib/libgccjit.so" ] || { echo "no libgccjit.so installed"; return 1; }
    local libgcc
    libgcc="$("$g/bin/sh-elf-gcc" -m2 -mb -print-libgcc-file-name)"
    [ -f "$libgcc" ] || { echo "no libgcc.a"; return 1; }
    echo "libgcc: $libgcc"
    # libgcc must be position dependent and SH-2 only.
    if sh-elf-objdump -r "$libgcc" | grep 'GOT' >/dev/null; then
        echo "libgcc.a has GOT relocations (-fPIC leaked)"; return 1
    fi
    # An SH-3/4-only opcode decodes under the object's own architecture but
    # prints as ".word" under -m sh2. (The other direction is harmless: data in
    # SH-1-marked objects such as 0x0f0f decodes as mac.l only under -m sh2.)
    local non_sh2
    non_sh2="$(diff <(sh-elf-objdump -d "$libgcc") <(sh-elf-objdump -d -m sh2 "$libgcc") |
               grep -e '^>.*\.word' || true)"
    if [ -n "$non_sh2" ]; then
        echo "libgcc.a contains non-SH-2 instructions:"; echo "$non_sh2" | head -n 20; return 1
    fi
    "$g/bin/sh-elf-gcc" --version | head -n 1
}

phase_codegen() {
    local sysroot src
    sysroot="$(rustc "+$NIGHTLY" --print sysroot)"
    src="$sysroot/lib/rustlib/rustc-src/rust/compiler/rustc_codegen_gcc"
    [ -f "$src/Cargo.toml" ] || { echo "rustc_codegen_gcc source not found at $src"; return 1; }
    # Build from a writable copy (the toolchain directory stays untouched).
    rm -rf "$STAGE/cg"
    cp -r "$src" "$STAGE/cg"
    rm -f "$STAGE/cg/rust-toolchain" "$STAGE/cg/rust-toolchain.toml"
    cd "$STAGE/cg"
    # No default features: the `master` feature needs libgccjit symbols that
    # only the GCC fork has.
    RUSTFLAGS="-L $sysroot/lib" CARGO_TARGET_DIR="$STAGE/cg-target" \
        nice -n 10 cargo "+$NIGHTLY" build --release --no-default-features -j "$JOBS"
    mkdir -p "$STAGE/out/codegen"
    cp "$STAGE/cg-target/release/librustc_codegen_gcc.so" "$STAGE/out/codegen/"
    rustc "+$NIGHTLY" -vV > "$STAGE/out/codegen/rustc-nightly-version.txt"
}

phase_sysroot() {
    local nightly_sysroot out="$STAGE/out"
    nightly_sysroot="$(rustc "+$NIGHTLY" --print sysroot)"
    [ -d "$nightly_sysroot/lib/rustlib/src/rust/library/core" ] ||
        { echo "nightly rust-src missing"; return 1; }
    local backends="$out/sysroot/lib/rustlib/$HOST_TRIPLE/codegen-backends/lib/$SH2_LLVM_TARGET"
    mkdir -p "$backends" "$out/sysroot/lib/rustlib/src"
    # Relative link, so it survives the move of the whole cache entry.
    ln -sfn ../../../../../../../gcc/lib/libgccjit.so "$backends/libgccjit.so"
    ln -sfn "$nightly_sysroot/lib/rustlib/src/rust" "$out/sysroot/lib/rustlib/src/rust"
    (cd "$backends" && test -e libgccjit.so) || { echo "libgccjit.so link is dangling"; return 1; }
    ls -l "$backends" "$out/sysroot/lib/rustlib/src"
}

write_env() {
    cat > "$STAGE/out/env.sh" <<EOF
# Generated by ci/sh2-toolchain.sh (cache key $KEY).
export JOM_SH2_PREFIX='$FINAL/gcc'
export JOM_SH2_CODEGEN='$FINAL/codegen/librustc_codegen_gcc.so'
export JOM_SH2_SYSROOT='$FINAL/sysroot'
export JOM_SH2_NIGHTLY='$NIGHTLY'
export JOM_SH2_LIBGCC='$("$STAGE/out/gcc/bin/sh-elf-gcc" -m2 -mb -print-libgcc-file-name | sed "s|^$STAGE/out/gcc|$FINAL/gcc|")'
EOF
}

# -------------------------------------------------------------------- main ---

[ -f "$JIT_PATCH" ] || die "missing $JIT_PATCH"
mkdir -p "$CACHE_ROOT"

# One builder per key at a time.
exec 9>"$CACHE_ROOT/.lock-$KEY"
if ! flock -n 9; then
    log "another build of $KEY is running; waiting"
    flock 9
fi
if [ -e "$FINAL/.complete" ]; then
    print_paths
    exit 0
fi

STAGE="$CACHE_ROOT/.build-$KEY"
GCC_SRC="$STAGE/src/$GCC_DIR_NAME"
rm -rf "$STAGE"
mkdir -p "$STAGE/logs" "$STAGE/out"

SUCCESS=0
cleanup() {
    if [ "$SUCCESS" != 1 ]; then
        if [ "${JOM_SH2_KEEP_BUILD:-0}" = 1 ]; then
            log "build directory kept: $STAGE"
        else
            rm -rf "$STAGE"
        fi
    fi
}
trap cleanup EXIT

log "building toolchain $KEY into $FINAL (logs in $STAGE/logs)"
run_phase "apt packages" phase_apt
run_phase "rust nightly" phase_rust
log "nightly: $(rustc "+$NIGHTLY" -V)"
run_phase "gcc unpack+patch" phase_unpack
run_phase "gcc configure" phase_configure
run_phase "gcc all-gcc" phase_all_gcc
run_phase "libgcc" phase_libgcc
run_phase "gcc install" phase_install_gcc
# The GCC build tree is no longer needed.
rm -rf "$STAGE/build-gcc" "$STAGE/src" "$STAGE/destdir"
run_phase "rustc_codegen_gcc" phase_codegen
rm -rf "$STAGE/cg" "$STAGE/cg-target"
run_phase "sysroot" phase_sysroot
write_env
mkdir -p "$STAGE/out/logs"
cp "$STAGE"/logs/*.log "$STAGE/out/logs/"
gzip -9 "$STAGE"/out/logs/*.log

# Move into place, then mark complete.
rm -rf "$FINAL"
mv "$STAGE/out" "$FINAL"
touch "$FINAL/.complete"
SUCCESS=1
rm -rf "$STAGE"
log "total: $((SECONDS - T_TOTAL)) s"
print_paths
