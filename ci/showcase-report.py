#!/usr/bin/env python3
"""The showcase's measure: reads what `showcase --features measure` left in Mednafen's
backup RAM (`key value` lines after the marker JOMS, sums over its measured frames in
counts of the master SH-2's timer) and prints the frame rate, the frames that missed a
VBlank, the polygons drawn and where a frame's time goes.

    ci/showcase-report.py SHOWCASE.bkr

Exit status 1 when the file holds no measure, or one cut short (printed all the same).
"""
import sys

# Mednafen's file is the 32 KiB of odd bytes of backup RAM one after another: 0x00188001
# (where the text starts) is at offset 0x4000.
TEXT_OFFSET = 0x4000
KEYS = ["complete", "frames", "wanted", "clocks_per_count", "cpu_clock", "period", "longest", "late", "missed", "least_wait",
        "transfer_over", "transfer_over_drawn", "transfer_over_commands", "work",
        "most_work", "pose", "begin", "transform", "cull_sort", "emit", "commit", "drawn", "least_drawn", "under_1000",
        "most_drawn", "culled", "slave", "field"]
SLAVE = {0: "not started", 1: "sharing the work", 2: "lost (a job timed out)"}
SEGMENTS = ["the whole scene", "without light", "the character alone", "the ground alone"]


def fail(message):
    print(f"showcase-report: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2:
        fail("usage: showcase-report.py SHOWCASE.bkr")
    path = sys.argv[1]
    try:
        data = open(path, "rb").read()
    except OSError as error:
        fail(f"{path}: {error}")
    text = data[TEXT_OFFSET:].split(b"\0", 1)[0]
    if text.startswith(b"JOMP"):
        probe(text[4:].decode("ascii", "replace"))
        return
    if not text.startswith(b"JOMS"):
        fail(f"{path}: no showcase measure in the backup RAM ")
    values = {}
    for line in text[4:].decode("ascii", "replace").splitlines():
        key, _, value = line.partition(" ")
        if key == "stage":
            fail(f"{path}: the showcase did not finish its measure; it got to: {value}")
        values[key] = int(value)
    missing = [k for k in KEYS if k not in values]
    if missing:
        fail(f"{path}: the measure lacks {', '.join(missing)}")
    v = values
    if not v["complete"]:
        print(f"showcase-report: {path}: the run was cut short: {v['frames']} of {v['wanted']} frames measured", file=sys.stderr)
    frames = v["frames"]
    cycles = lambda counts: counts * v["clocks_per_count"]  # noqa: E731
    seconds = cycles(v["period"]) / v["cpu_clock"]
    per_frame = lambda key: cycles(v[key]) / frames  # noqa: E731
    print(f"{'' if v['complete'] else 'CUT SHORT: '}frames: {frames} in {seconds:.3f} s of the SH-2's clock: {frames / seconds:.2f} frames per second")
    print(f"frames that missed a VBlank (longer than 1.5 fields): {v['late']}; longest frame {cycles(v['longest']):,} cycles")
    margin = "no frame on time" if v["least_wait"] == 0xFFFF_FFFF else f"{cycles(v['least_wait']):,} cycles"
    print(f"frames whose list came after its frame change (the picture before shown a field more): {v['missed']} of {frames}; "
          f"the least wait for the frame change of those on time (the margin): {margin}")
    cut = (f"; the one cut shortest drew {v['transfer_over_drawn']} of its {v['transfer_over_commands']} commands"
           if v["transfer_over"] else "")
    print(f"frames whose list the VDP1 could not draw in a field (EDSR's BEF clear, a \"transfer over\": "
          f"the nearest polygons and the HUD missing from the picture): {v['transfer_over']} of {frames}{cut}")
    print(f"polygons drawn a frame: {v['drawn'] / frames:.0f} on average, {v['least_drawn']} to {v['most_drawn']}; culled {v['culled'] / frames:.0f}; "
          f"frames drawing fewer than 1,000: {v['under_1000']} of {frames}")
    print(f"slave SH-2: {SLAVE.get(v['slave'], v['slave'])}")
    print(f"master SH-2 work a frame: {per_frame('work'):,.0f} cycles on average, {cycles(v['most_work']):,} at most "
          f"(a field is {v['cpu_clock'] / 59.94:,.0f}; one measured by the timer at the start: {v['field']:,})")
    print(f"outside the work: `Renderer::begin` {per_frame('begin'):,.0f} cycles a frame")
    for key, what in [("pose", "pose + bone matrices"), ("transform", "transform + project"),
                      ("cull_sort", "cull + depth + sort"), ("emit", "emit"), ("commit", "list to VRAM")]:
        print(f"  {what}: {per_frame(key):,.0f} cycles")
    if not v["complete"]:
        sys.exit(1)


def probe(text):
    """`seg N frames F transform T cull C emit E commit M drawn D` lines (sums of timer counts, CPU
    clock / 128): each segment's averages a frame, in cycles."""
    print("| frames of | frames | polygons drawn | transform + project | cull + depth + sort | emit | list to VRAM |")
    print("|---|---|---|---|---|---|---|")
    for line in text.splitlines():
        f = line.split()
        seg, n = int(f[1]), int(f[3])
        v = {f[i]: int(f[i + 1]) for i in range(4, len(f), 2)}
        if n == 0:
            continue
        cyc = lambda key: f"{v[key] * 128 / n:,.0f}"  # noqa: E731
        print(f"| {SEGMENTS[seg]} | {n} | {v['drawn'] / n:.0f} | {cyc('transform')} | {cyc('cull')} | {cyc('emit')} | {cyc('commit')} |")


main()
