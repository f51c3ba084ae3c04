#!/usr/bin/env bash
# Boots one of our CD images in an emulator: `make run` (the showcase) and `make run-demo`
# (the robot demo, the smallest example).
#
#   ci/run.sh NAME WIDTH      build/NAME.iso (+ .cue), a screen WIDTH pixels wide (320, 352)
#
# From the environment (make's variables):
# - EMU: yabause (the default: its BIOS emulation, no BIOS file needed) or mednafen (our
#   boot ROM, which loads the program from the disc as a BIOS does: no BIOS file either);
# - BIOS=FILE: with EMU=mednafen, your own console's BIOS instead of our ROM (the disc then
#   needs the IP of IP_TEMPLATE=FILE: docs/boot.md, "A disc for a console");
# - REGION=R: with EMU=mednafen, the console emulated (eu: PAL; jp, na: NTSC);
# - HEADLESS=1: no window; the picture after a few seconds to build/NAME-screenshot.png.
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
width=$2
shot=build/$name-screenshot.png
if [ "${EMU:-yabause}" = mednafen ]; then
    ci/setup.sh mednafen
    rom=${BIOS:-build/saturn-boot.rom}
    [ -n "${BIOS:-}" ] || ci/boot-rom.sh
    region=()
    [ -z "${REGION:-}" ] || region=(--region "$REGION")
    if [ "${HEADLESS:-}" = 1 ]; then
        exec ci/emu/mednafen.sh "$rom" "build/$name.cue" --seconds 10 --width "$width" \
            --screenshot "$shot" "${region[@]}"
    fi
    exec ci/emu/mednafen.sh "$rom" "build/$name.cue" --window "${region[@]}"
fi
ci/setup.sh yabause
if [ "${HEADLESS:-}" = 1 ]; then
    exec ci/emu/yabause.sh "build/$name.iso" --seconds 6 --width "$width" --screenshot "$shot"
fi
exec yabause-qt -a -nb -i "build/$name.iso"
