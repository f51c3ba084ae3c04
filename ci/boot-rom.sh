#!/usr/bin/env bash
# Our boot ROM for Mednafen that boots any of our CD images as a BIOS does (no Sega code):
# the disc boot program (tools/saturn-rom/disc-boot) built for the SH-2, then given to
# saturn-rom as its payload.
#   ci/boot-rom.sh  ->  build/saturn-boot.rom
# Mednafen then runs a disc with it: ci/emu/mednafen.sh build/saturn-boot.rom IMAGE.cue.
set -euo pipefail
cd "$(dirname "$0")/.."
source ci/sh2-env.sh
sh2_cargo build --manifest-path tools/saturn-rom/disc-boot/Cargo.toml
mkdir -p build
elf=${CARGO_TARGET_DIR:-tools/saturn-rom/disc-boot/target}/sh2-target/release/jom-disc-boot
sh-elf-objcopy -O binary -j .text -j .rodata -j .data "$elf" build/disc-boot.bin
cargo run --release -q -p saturn-rom -- --program build/disc-boot.bin -o build/saturn-boot.rom
