#!/usr/bin/env bash
# Runs a Saturn CD image in Mednafen (its "ss" module) headless, with a boot ROM of ours
# (tools/saturn-rom) given as the BIOS, then takes the backup RAM.
#
#   ci/emu/mednafen.sh ROM CUE [--seconds N] [--backup-ram OUT.bkr] [--screenshot OUT.png [--width W]]
#                      [--fields N DIR] [--region R] [--window]
#
# ROM: a 512 KiB boot ROM (saturn-rom; never Sega's BIOS). CUE: the disc's .cue (Mednafen
# does not open a raw .iso; saturn-iso writes the .cue beside the image). --seconds: how
# long the emulator runs (default 10; with -nothrottle 1 it runs faster than real time).
# --backup-ram: the internal backup RAM file Mednafen writes when it exits on SIGTERM
# (<MEDNAFEN_HOME>/sav/*.bkr), copied out as it is. --screenshot: the last frame shown,
# at the Saturn's 320 x 224 pixels: Mednafen records every frame (-qtrecord, PNG frames),
# and tools/vdp1-soft's mednafen_frame example takes the last one back; --width: the
# screen's width in pixels (320, the default, or 352), its height 224. --fields N DIR (with
# --screenshot): also the last N frames recorded, one a field, oldest first, as
# DIR/000.png, 001.png, ... (a check of every field rather than of one moment).
# --region: the console emulated, one of Mednafen's ss.region_default values: jp, na, kr,
# tw, br (NTSC consoles: 59.83 fields a second) or eu, as, la (PAL: 49.92), with region
# autodetection off (-ss.region_autodetect 0 -ss.region_default R). Without it Mednafen
# detects the region from the disc's IP, which needs Sega's area code blocks that our
# discs do not have, so it falls back to its default, jp: an NTSC console.
# --window: opens Mednafen's window (SDL's usual video driver, sound on, real-time speed)
# and runs until it is closed; --seconds, --backup-ram and --screenshot do not apply.
#
# Every run gets a fresh MEDNAFEN_HOME (Mednafen saves command-line options into its
# mednafen.cfg) in a temporary directory; SDL's dummy video driver and the software frame
# buffer need no X server. Waits are bounded; the emulator and the temporary directory are
# always cleaned up. Run one emulator at a time (each uses a full core).
# Exit status: 0 on success, 1 on any failure (the emulator's log is printed), 2 on bad
# arguments.
set -uo pipefail

say() { printf 'mednafen.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }
usage() {
    sed -n '5,6p' "$0" | sed 's/^#  *//' >&2
    exit 2
}

rom=""
cue=""
seconds=10
bkram_out=""
screenshot=""
width=320
fields=""
fields_dir=""
region=""
window=0
while [ $# -gt 0 ]; do
    case "$1" in
    --region) [ $# -ge 2 ] || usage; region="$2"; shift 2 ;;
    --region=*) region="${1#*=}"; shift ;;
    --window) window=1; shift ;;
    --seconds) [ $# -ge 2 ] || usage; seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#*=}"; shift ;;
    --backup-ram) [ $# -ge 2 ] || usage; bkram_out="$2"; shift 2 ;;
    --backup-ram=*) bkram_out="${1#*=}"; shift ;;
    --screenshot) [ $# -ge 2 ] || usage; screenshot="$2"; shift 2 ;;
    --screenshot=*) screenshot="${1#*=}"; shift ;;
    --width) [ $# -ge 2 ] || usage; width="$2"; shift 2 ;;
    --fields) [ $# -ge 3 ] || usage; fields="$2"; fields_dir="$3"; shift 3 ;;
    --width=*) width="${1#*=}"; shift ;;
    -h | --help) usage ;;
    -*) say "unknown option $1"; usage ;;
    *)
        if [ -z "$rom" ]; then rom="$1"
        elif [ -z "$cue" ]; then cue="$1"
        else usage
        fi
        shift ;;
    esac
done
[ -n "$rom" ] && [ -n "$cue" ] || usage
[ -f "$rom" ] || { say "no such file: $rom"; exit 2; }
[ -f "$cue" ] || { say "no such file: $cue"; exit 2; }
[ "$(stat -c %s "$rom")" = 524288 ] || { say "$rom: expected a 524,288-byte ROM (saturn-rom)"; exit 2; }
case "$cue" in *.cue) ;; *) say "$cue: expected a .cue (Mednafen does not open a raw .iso)"; exit 2 ;; esac
[[ "$seconds" =~ ^[0-9]+([.][0-9]+)?$ ]] || { say "--seconds $seconds: expected a number"; exit 2; }
case "$region" in
"" | jp | na | eu | kr | tw | as | br | la) ;;
*) say "--region $region: expected one of jp, na, eu, kr, tw, as, br, la"; exit 2 ;;
esac
region_options=()
[ -z "$region" ] || region_options=(-ss.region_autodetect 0 -ss.region_default "$region")
rom="$(realpath "$rom")"
cue="$(realpath "$cue")"
[ -z "$bkram_out" ] || bkram_out="$(realpath -m "$bkram_out")"
[ -z "$screenshot" ] || screenshot="$(realpath -m "$screenshot")"
[ -z "$fields" ] || [[ "$fields" =~ ^[1-9][0-9]*$ && -n "$screenshot" ]] || {
    say "--fields $fields: expected a number of fields, with --screenshot"; exit 2; }
[ -z "$fields_dir" ] || fields_dir="$(realpath -m "$fields_dir")"

# --- the package (installed only when missing) ----------------------------------------
mednafen=/usr/games/mednafen
"$(dirname "$0")/../setup.sh" mednafen || die "cannot install Mednafen"
[ -x "$mednafen" ] || die "no $mednafen after installing mednafen"

# --- private tree, cleaned up whatever happens ------------------------------------------
tmp="$(mktemp -d /tmp/jom-mednafen.XXXXXX)"
med_pid=""
cleanup() {
    if [ -n "$med_pid" ] && kill -0 "$med_pid" 2>/dev/null; then
        kill -9 "$med_pid" 2>/dev/null
        wait "$med_pid" 2>/dev/null
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

export MEDNAFEN_HOME="$tmp/home"
mkdir -p "$MEDNAFEN_HOME"

bios_options=(-force_module ss -ss.bios_sanity 0 -ss.bios_jp "$rom" -ss.bios_na_eu "$rom" "${region_options[@]}")
if [ "$window" = 1 ]; then
    say "mednafen ${bios_options[*]} $cue (until its window is closed)"
    "$mednafen" "${bios_options[@]}" "$cue"
    exit $?
fi

export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
unset DISPLAY WAYLAND_DISPLAY

t0=$(date +%s.%N)
elapsed() { python3 -c "import time; print('%.2f' % (time.time() - $t0))"; }

fail() {
    say "$*"
    say "--- mednafen output ---"
    sed 's/^/  /' "$tmp/mednafen.log" >&2
    exit 1
}

# --- the emulator ---------------------------------------------------------------------------
record=()
# The screen's 224 lines only (8 to 231), no aspect correction nor doubling, the whole line
# (overscan shown: a 352-pixel screen fills it, a 320-pixel one is centred in it): frames of
# 704 x 448, quick enough to record every one, and a program that changes its width after
# the recording started (the showcase) still fits the frame. A PAL console's lines are
# ss.slstartp and ss.slendp, numbered from 0 to 271: its 224-line picture is lines 16 to
# 239 (seen: the text layer's first row of characters starts on line 16).
[ -z "$screenshot" ] || record=(-ss.correct_aspect 0 -ss.h_overscan 1 -ss.slstart 8 -ss.slend 231
    -ss.slstartp 16 -ss.slendp 239
    -qtrecord "$tmp/frames.mov" -qtrecord.vcodec png -qtrecord.w_double_threshold 0
    -qtrecord.h_double_threshold 0)
"$mednafen" "${bios_options[@]}" -video.driver softfb -sound 0 -nothrottle 1 "${record[@]}" "$cue" \
    >"$tmp/mednafen.log" 2>&1 &
med_pid=$!
say "mednafen -force_module ss -ss.bios_sanity 0 -ss.bios_jp ROM -ss.bios_na_eu ROM ${region_options[*]} -video.driver softfb -sound 0 -nothrottle 1 $cue (pid $med_pid); running ${seconds} s"
# Poll so that an early exit (bad ROM, bad cue) is reported at once.
deadline=$(python3 -c "import time; print(time.time() + $seconds)")
while python3 -c "import sys, time; sys.exit(0 if time.time() < $deadline else 1)"; do
    kill -0 "$med_pid" 2>/dev/null || {
        wait "$med_pid"; status=$?; med_pid=""
        fail "mednafen exited early (status $status)"
    }
    sleep 0.2
done

# --- clean exit on SIGTERM (writes backup RAM), else kill -9 --------------------------------
kill -TERM "$med_pid" 2>/dev/null
quit="clean"
for _ in $(seq 100); do kill -0 "$med_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$med_pid" 2>/dev/null; then
    quit="killed (no exit 10 s after SIGTERM)"
    kill -9 "$med_pid" 2>/dev/null
fi
wait "$med_pid" 2>/dev/null
status=$?
med_pid=""
say "mednafen quit: $quit (status $status) at $(elapsed) s"
[ "$quit" = clean ] || fail "mednafen did not exit on SIGTERM"

if [ -n "$bkram_out" ]; then
    shopt -s nullglob
    files=("$MEDNAFEN_HOME"/sav/*.bkr)
    shopt -u nullglob
    [ ${#files[@]} -eq 1 ] || fail "expected one backup RAM file in $MEDNAFEN_HOME/sav, found ${#files[@]}"
    mkdir -p "$(dirname "$bkram_out")"
    cp "${files[0]}" "$bkram_out"
    say "backup RAM $bkram_out ($(stat -c %s "$bkram_out") bytes, from $(basename "${files[0]}"))"
fi
if [ -n "$screenshot" ]; then
    mkdir -p "$(dirname "$screenshot")"
    (cd "$(dirname "$0")/../.." && cargo run --release -q -p vdp1-soft --example mednafen_frame -- \
        "$tmp/frames.mov" "$screenshot" "$width" 224) || fail "no frame in the recording"
    say "screenshot $screenshot (the last of $(stat -c %s "$tmp/frames.mov") bytes of recording)"
    if [ -n "$fields" ]; then
        rm -rf "$fields_dir"
        (cd "$(dirname "$0")/../.." && cargo run --release -q -p vdp1-soft --example mednafen_frame -- \
            "$tmp/frames.mov" --last "$fields" "$fields_dir" "$width" 224) ||
            fail "fewer than $fields frames in the recording"
        say "fields: the last $fields in $fields_dir"
    fi
fi
say "done in $(elapsed) s"
exit 0
