#!/usr/bin/env python3
"""Prints the test report a program left in backup RAM (jom::hw::backup_ram: after the
marker "JOMT", up to a zero byte) from an emulator's backup RAM file, each test line
prefixed with the emulator's name (so that it is not counted with another run's), then
the "N passed, N failed" line (", N skipped" when a test could not show all it tests on
this emulator: its "skip" lines are appended to $JOM_SKIP_LOG when that is set, as
ci/test.sh counts skips). Exit status 0 when nothing failed.

    ci/emu/test-report.py yabause|mednafen FILE

Yabause's file is 64 KiB mirroring 0x00180000-0x0018FFFF, the data on the odd offsets
(address 0x00188001 is offset 0x8001); Mednafen's holds the 32 KiB of odd bytes one after
the other (0x00188001 is offset 0x4000)."""
import os
import re
import sys

LAYOUTS = {"yabause": (0x10000, lambda data: bytes(data[0x8001::2])), "mednafen": (0x8000, lambda data: data[0x4000:])}


def fail(message):
    print(f"error: {message}")
    print("0 passed, 1 failed")
    sys.exit(1)


def main():
    emulator, path = sys.argv[1], sys.argv[2]
    size, text_of = LAYOUTS[emulator]
    data = open(path, "rb").read()
    if len(data) != size:
        fail(f"the backup RAM file is {len(data)} bytes, expected {size}")
    text = text_of(data).split(b"\0", 1)[0]
    if not text.startswith(b"JOMT"):
        fail("no test output in backup RAM (did the program run and finish?)")
    lines = text[4:].decode("ascii", "replace").splitlines()
    skips = []
    for line in lines[:-1]:
        print(f"{emulator}: {line}")
        if line.startswith("skip "):
            skips.append(f"{emulator}: {line[5:]}")
    last = lines[-1] if lines else ""
    print(last)
    counts = re.fullmatch(r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?", last)
    if skips and os.environ.get("JOM_SKIP_LOG"):
        with open(os.environ["JOM_SKIP_LOG"], "a") as log:
            log.writelines(f"{skip}\n" for skip in skips)
    sys.exit(0 if counts and counts.group(2) == "0" else 1)


main()
