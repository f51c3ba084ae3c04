#!/usr/bin/env bash
# The emulator smoke test: the whole chain from SH-2 code to pixels.
#
#   ci/emu/smoke.sh [--keep DIR]
#
# 1. assembles ci/emu/smoke/smoke.s (sh-elf-as, sh-elf-ld -Ttext=0x06004000,
#    sh-elf-objcopy -O binary): a program that gives every line of the VDP2 back screen its
#    own colour, turns the display on and writes "JOM!" to backup RAM;
# 2. makes a CD image of it with saturn-iso (our IP.BIN, the program as 0PROGRAM.BIN);
# 3. boots it in Yabause headless (ci/emu/yabause.sh), with a screenshot and backup RAM;
# 4. checks every pixel of the 320x224 screenshot (row y: red 8*(y&31), green 8*(y>>5),
#    blue 248) and the four bytes in backup RAM.
# Prints "1 passed, 0 failed" (exit 0) or "0 passed, 1 failed" (exit 1). --keep DIR keeps
# the ELF, binary, ISO, cue, IP.BIN, screenshot and backup RAM there.
set -uo pipefail
cd "$(dirname "$0")/../.."

keep=""
if [ "${1:-}" = "--keep" ] && [ $# -eq 2 ]; then keep="$2"; elif [ $# -ne 0 ]; then
    echo "usage: ci/emu/smoke.sh [--keep DIR]" >&2
    exit 2
fi

now() { date +%s.%N; }
since() { printf '%.2f' "$(echo "$(now) - $1" | bc)"; }
result() {
    if [ "$1" = pass ]; then echo "1 passed, 0 failed"; exit 0; fi
    echo "0 passed, 1 failed"
    exit 1
}
fail() { echo "smoke: FAIL: $*" >&2; result fail; }

"$(dirname "$0")/../setup.sh" host || fail "cannot install bc and binutils-sh-elf"

work="$(mktemp -d /tmp/jom-smoke.XXXXXX)"
trap 'rm -rf "$work"' EXIT

t=$(now)
sh-elf-as -big -o "$work/smoke.o" ci/emu/smoke/smoke.s || fail "sh-elf-as"
sh-elf-ld -Ttext=0x06004000 -e start -o "$work/smoke.elf" "$work/smoke.o" || fail "sh-elf-ld"
sh-elf-objcopy -O binary -j .text "$work/smoke.elf" "$work/smoke.bin" || fail "sh-elf-objcopy"
echo "smoke: assembled smoke.bin ($(stat -c %s "$work/smoke.bin") bytes) in $(since "$t") s"

t=$(now)
cargo build -q -p saturn-iso || fail "cargo build -p saturn-iso"
echo "smoke: built saturn-iso in $(since "$t") s"
saturn_iso="${CARGO_TARGET_DIR:-target}/debug/saturn-iso"

t=$(now)
"$saturn_iso" --program "$work/smoke.bin" --load-address 0x06004000 --title "JOM SMOKE TEST" \
    --ip-out "$work/IP.BIN" -o "$work/smoke.iso" || fail "saturn-iso"
echo "smoke: ISO in $(since "$t") s"

t=$(now)
ci/emu/yabause.sh "$work/smoke.iso" --seconds 2 --screenshot "$work/shot.png" \
    --backup-ram "$work/bkram.bin" || fail "ci/emu/yabause.sh"
echo "smoke: Yabause boot + screenshot + quit in $(since "$t") s"

[ -z "$keep" ] || { mkdir -p "$keep" && cp "$work"/smoke.elf "$work"/smoke.bin "$work"/smoke.iso \
    "$work"/smoke.cue "$work"/IP.BIN "$work"/shot.png "$work"/bkram.bin "$keep"/; }

/usr/bin/convert "$work/shot.png" "ppm:$work/shot.ppm" || fail "convert to PPM"
python3 - "$work/shot.ppm" "$work/bkram.bin" <<'EOF' || fail "pixels or backup RAM differ"
import sys

def read_ppm(path):
    data = open(path, "rb").read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at)
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    at += 1
    magic, w, h, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
    assert magic == b"P6" and maxval == 255, (magic, maxval)
    return w, h, data[at:at + w * h * 3]

w, h, px = read_ppm(sys.argv[1])
errors = []
if (w, h) != (320, 224):
    errors.append(f"screenshot is {w}x{h}, expected 320x224")
else:
    for y in range(h):
        want = ((y & 31) * 8, (y >> 5) * 8, 248)
        for x in range(w):
            i = (y * w + x) * 3
            got = tuple(px[i:i + 3])
            if got != want:
                errors.append(f"pixel ({x}, {y}) is {got}, expected {want}")
                break
print(f"smoke: screenshot {w}x{h}: {h - len(errors) if (w, h) == (320, 224) else 0} of 224 rows as expected")

# The backup RAM file holds the 64 KiB range 0x00180000-0x0018FFFF, a data byte at each odd
# offset: 0x00188001 is file offset 0x8001.
bk = open(sys.argv[2], "rb").read()
mark = bytes(bk[0x8001:0x8009:2])
if mark != b"JOM!":
    errors.append(f"backup RAM at 0x00188001: {mark!r}, expected b'JOM!'")
else:
    print("smoke: backup RAM at 0x00188001: b'JOM!'")
for e in errors[:10]:
    print("smoke:", e, file=sys.stderr)
sys.exit(1 if errors else 0)
EOF
result pass
