# Sourced by the SH-2 scripts: takes the toolchain of ci/sh2-toolchain.sh (building it the
# first time, then from its cache), sets the flags that make rustc emit SH-2 code through
# rustc_codegen_gcc, and defines `sh2_cargo COMMAND ARGS...`, cargo for sh2-target.json.
sh2_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sh2_env_file=$("$sh2_root/ci/sh2-toolchain.sh" | tail -n 1)
# shellcheck source=/dev/null
source "$sh2_env_file"
export JOM_SH2_CC="$JOM_SH2_PREFIX/bin/sh-elf-gcc"
# Given to the SH-2 builds only (host builds in the same script keep their own flags).
sh2_rustflags="-Zcodegen-backend=$JOM_SH2_CODEGEN --sysroot $JOM_SH2_SYSROOT \
-Cllvm-args=-m2 -Cllvm-args=-mb -Cllvm-args=-O2 \
-Clinker=$sh2_root/ci/sh2-ld -Clink-arg=-Tlink.x"

sh2_cargo() {
    local command=$1
    shift
    RUSTFLAGS="$sh2_rustflags" cargo "+$JOM_SH2_NIGHTLY" "$command" --release --locked -Zbuild-std=core -Zjson-target-spec \
        --target "$sh2_root/sh2-target.json" "$@"
}
