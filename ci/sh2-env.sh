# Sourced by the SH-2 scripts: takes the toolchain of ci/sh2-toolchain.sh (building it the
# first time, then from its cache), sets the flags that make rustc emit SH-2 code through
# rustc_codegen_gcc, and defines `sh2_cargo COMMAND ARGS...`, cargo for sh2-target.json.
sh2_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sh2_env_file=$("$sh2_root/ci/sh2-toolchain.sh" | tail -n 1)
# shellcheck source=/dev/null
source "$sh2_env_file"
export JOM_SH2_CC="$JOM_SH2_PREFIX/bin/sh-elf-gcc"
# Given to the SH-2 builds only (host builds in the same script keep their own flags).
# GCC's optimisation: -O2, or JOM_SH2_OPT's (sh2_test_build's -Os).
sh2_rustflags() {
    echo "-Zcodegen-backend=$JOM_SH2_CODEGEN --sysroot $JOM_SH2_SYSROOT \
-Cllvm-args=-m2 -Cllvm-args=-mb -Cllvm-args=${JOM_SH2_OPT:--O2} \
-Clinker=$sh2_root/ci/sh2-ld -Clink-arg=-Tlink.x"
}

sh2_cargo() {
    local command=$1
    shift
    RUSTFLAGS="$(sh2_rustflags)" cargo "+$JOM_SH2_NIGHTLY" "$command" --release --locked -Zbuild-std=core -Zjson-target-spec \
        --target "$sh2_root/sh2-target.json" "$@"
}

# Builds the SH-2 test program (sh2-test/) with cargo options ARGS...: all the suites in
# one program, for its size (-Os: the program at -O2 no longer fits high work RAM; the
# engine's -O2 code runs in the demo's, the showcase's and the bench's runs).
sh2_test_build() {
    JOM_SH2_OPT=-Os sh2_cargo build --manifest-path "$sh2_root/sh2-test/Cargo.toml" "$@"
}
