#!/usr/bin/env bash
# Installs what the project's commands need, in one place: the README's commands, .ci/run
# and the emulator scripts all call it. Idempotent: a part already there costs a check and
# prints nothing; each part that installs something prints its time.
#
# Usage: ci/setup.sh PART...
#   host      rust-toolchain.toml's stable with rustfmt, clippy and the no_std target, and
#             the Debian tools the host tests run (genisoimage and xorriso for CD images,
#             binutils-sh-elf for the boot ROM's loader, bc)
#   sh2       the SH-2 toolchain (ci/sh2-toolchain.sh: apt packages, GCC 12 with
#             libgccjit, rustc_codegen_gcc; cached under ~/.cache/jom-sh2)
#   iso       what `make iso` needs: the CD image tools and the SH-2 toolchain
#   yabause   Yabause and the X server it runs under headless (Xvfb, xdotool, ...)
#   mednafen  Mednafen
#   blender   Blender and numpy (its glTF exporter needs numpy)
#   fuzz      cargo-fuzz and the nightly it runs with (the SH-2 toolchain's, pinned)
#   all       every part above (what `make test` needs)
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[setup] %s\n' "$*" >&2; }

# Installs the Debian packages that are not installed yet.
apt_install() {
    local missing=() package
    for package in "$@"; do
        [ "$(dpkg-query -W -f='${Status}' "$package" 2> /dev/null || true)" = "install ok installed" ] ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local start=$SECONDS
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    timeout 300 apt-get update -qq > /dev/null
    timeout 900 apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
    say "installed ${missing[*]} ($((SECONDS - start)) s)"
}

part_host() {
    local start=$SECONDS installed toolchain
    # rust-toolchain.toml's stable (the proxies would install it too, at the first cargo call).
    toolchain="$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)"
    rustup toolchain list | grep -q "^$toolchain-" ||
        rustup toolchain install "$toolchain" --profile minimal
    installed="$(rustup component list --installed)"
    local c
    for c in rustfmt clippy; do
        grep -q "^$c" <<< "$installed" || rustup component add "$c"
    done
    rustup target list --installed | grep -q '^thumbv7em-none-eabihf$' ||
        rustup target add thumbv7em-none-eabihf
    [ $((SECONDS - start)) -lt 2 ] || say "rust components ($((SECONDS - start)) s)"
    apt_install genisoimage xorriso binutils-sh-elf bc
}

part_sh2() {
    if ! ci/sh2-toolchain.sh --print-env > /dev/null 2>&1; then
        local start=$SECONDS
        say "building the SH-2 toolchain (about 8 to 13 minutes on 2 cores, once)"
        ci/sh2-toolchain.sh > /dev/null
        say "SH-2 toolchain built ($((SECONDS - start)) s)"
    fi
}

part_yabause() {
    # imagemagick: /usr/local/bin/convert may be a stand-in on these machines.
    apt_install yabause xvfb xauth x11-utils x11-apps xdotool imagemagick
}

part_mednafen() {
    apt_install mednafen bc
}

part_blender() {
    apt_install blender python3-numpy
}

part_fuzz() {
    local nightly
    nightly="$(ci/sh2-toolchain.sh --nightly)"
    rustup toolchain list | grep -q "^$nightly-" ||
        rustup toolchain install "$nightly" --profile minimal
    command -v cargo-fuzz > /dev/null && return 0
    local start=$SECONDS
    say "installing cargo-fuzz"
    cargo install cargo-fuzz --locked --quiet
    say "installed cargo-fuzz ($((SECONDS - start)) s)"
}

[ $# -gt 0 ] || { sed -n '2,/^set /p' "$0" | sed '$d' >&2; exit 2; }
for part in "$@"; do
    case "$part" in
        host | sh2 | yabause | mednafen | blender | fuzz) "part_$part" ;;
        # One command a line, not an && list: bash ignores errexit inside a function
        # called from one, so a failing part would go on and report nothing.
        iso) part_host; part_sh2 ;;
        all) part_host; part_sh2; part_yabause; part_mednafen; part_blender; part_fuzz ;;
        *) say "unknown part: $part"; exit 2 ;;
    esac
done
