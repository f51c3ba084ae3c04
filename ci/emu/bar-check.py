#!/usr/bin/env python3
"""Checks the test program's totals bar in a screenshot (320 x 224, the Saturn's pixels):
its bottom row of 8 x 8 characters (lines 216 to 223) must be mostly the bar's colour,
green when every test passed, red when one failed (jom::hw::text's Green and Red; the
bar's black text covers some pixels). Prints one test line and "N passed, N failed".

    ci/emu/bar-check.py NAME SCREENSHOT.png green|red
"""
import subprocess
import sys

# jom::hw::text::Color as RGB555 components (Green (6, 27, 6), Red (31, 7, 5)), scaled to 8 bits.
COLORS = {"green": (6 * 8, 27 * 8, 6 * 8), "red": (31 * 8, 7 * 8, 5 * 8)}
# Of the bar's pixels, the share that must be its colour (the rest: its black text).
SHARE = 0.6


def pixels(path):
    """The PNG's pixels as (width, height, RGB bytes), through ImageMagick."""
    size = subprocess.run(["identify", "-format", "%w %h", path], check=True, capture_output=True, text=True)
    width, height = map(int, size.stdout.split())
    rgb = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], check=True, capture_output=True).stdout
    return width, height, rgb


def main():
    name, path, wanted = sys.argv[1], sys.argv[2], sys.argv[3]
    target = COLORS[wanted]
    width, height, rgb = pixels(path)
    if (width, height) != (320, 224):
        print(f"FAIL {name}: {path} is {width} x {height}, expected 320 x 224")
        print("0 passed, 1 failed")
        sys.exit(1)
    near = total = 0
    for y in range(216, 224):
        for x in range(width):
            at = 3 * (y * width + x)
            pixel = rgb[at : at + 3]
            total += 1
            near += all(abs(c - t) <= 24 for c, t in zip(pixel, target))
    share = near / total
    if share >= SHARE:
        print(f"ok   {name}: the totals bar is {wanted} ({share:.0%} of its pixels)")
        print("1 passed, 0 failed")
    else:
        print(f"FAIL {name}: {share:.0%} of the bottom row's pixels are the {wanted} bar's colour, expected {SHARE:.0%}")
        print("0 passed, 1 failed")
        sys.exit(1)


main()
