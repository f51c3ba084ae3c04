#!/usr/bin/env python3
"""The showcase's measure: reads what `showcase --features measure` left in Mednafen's
backup RAM (`key value` lines after the marker JOMS, sums over its measured frames in
counts of the master SH-2's timer) and prints the video standard, the frame rate, the
frames that missed a VBlank, the polygons drawn and where a frame's time goes.

    ci/showcase-report.py SHOWCASE.bkr [--expect ntsc|pal --min-frames N]

Exit status 1 when the file holds no measure, or one cut short (printed all the same).
With --expect: a run cut short is enough when it measured at least N frames (default 60),
and it must have read that video standard and shown its frames at that standard's field
rate (within 2%): the check that the showcase runs on that console.
"""
import argparse
import sys

# Mednafen's file is the 32 KiB of odd bytes of backup RAM one after another: 0x00188001
# (where the text starts) is at offset 0x4000.
TEXT_OFFSET = 0x4000
KEYS = ["complete", "frames", "wanted", "clocks_per_count", "cpu_clock", "field_cycles", "period", "longest", "late", "missed",
        "least_wait", "transfer_over", "transfer_over_drawn", "transfer_over_commands", "work", "most_work", "pose", "begin",
        "transform", "cull_sort", "emit", "commit", "drawn", "least_drawn", "under_1000", "most_drawn", "culled", "slave", "pal",
        "field"]
SLAVE = {0: "not started", 1: "sharing the work", 2: "lost (a job timed out)"}
SEGMENTS = ["the whole scene", "without light", "the character alone", "the ground alone"]


def fail(message):
    print(f"showcase-report: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser(description="The showcase's measure from Mednafen's backup RAM.")
    parser.add_argument("path", metavar="SHOWCASE.bkr")
    parser.add_argument("--expect", choices=["ntsc", "pal"], help="the video standard the showcase must have read and run at")
    parser.add_argument("--min-frames", type=int, default=60, help="with --expect: frames the measure must hold")
    args = parser.parse_args()
    path = args.path
    try:
        data = open(path, "rb").read()
    except OSError as error:
        fail(f"{path}: {error}")
    text = data[TEXT_OFFSET:].split(b"\0", 1)[0]
    if text.startswith(b"JOMP"):
        probe(text[4:].decode("ascii", "replace"))
        return
    if not text.startswith(b"JOMS"):
        fail(f"{path}: no showcase measure in the backup RAM (did it stop on a failure screen before it wrote any?)")
    values = {}
    stage = None
    for line in text[4:].decode("ascii", "replace").splitlines():
        key, _, value = line.partition(" ")
        if key == "stage":
            stage = value
        else:
            values[key] = int(value)
    standard = {0: "ntsc", 1: "pal"}.get(values.get("pal"))
    if standard:
        print(f"video standard: {standard.upper()} (read from the VDP2); a field measured at the start: {values.get('field', 0):,} cycles")
    if args.expect and standard != args.expect:
        fail(f"{path}: the showcase read the video standard {standard or 'nowhere'}, expected {args.expect}")
    if stage is not None:
        longer = "" if stage.startswith("the clock check") or not args.expect else " (a longer run: JOM_SHOWCASE_REGION_SECONDS)"
        fail(f"{path}: the showcase did not finish its measure; it got to: {stage}{longer}")
    missing = [k for k in KEYS if k not in values]
    if missing:
        fail(f"{path}: the measure lacks {', '.join(missing)}")
    v = values
    cut_short = not v["complete"]
    if cut_short:
        print(f"showcase-report: {path}: the run was cut short: {v['frames']} of {v['wanted']} frames measured", file=sys.stderr)
    frames = v["frames"]
    if args.expect and frames < args.min_frames:
        fail(f"{path}: {frames} frames measured, expected at least {args.min_frames} (a longer run: JOM_SHOWCASE_REGION_SECONDS)")
    cycles = lambda counts: counts * v["clocks_per_count"]  # noqa: E731
    seconds = cycles(v["period"]) / v["cpu_clock"]
    per_frame = lambda key: cycles(v[key]) / frames  # noqa: E731
    field_rate = v["cpu_clock"] / v["field_cycles"]
    print(f"{'CUT SHORT: ' if cut_short else ''}frames: {frames} in {seconds:.3f} s of the SH-2's clock: {frames / seconds:.2f} frames per second "
          f"({field_rate:.2f} fields a second)")
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
          f"(a field is {v['field_cycles']:,}; one measured by the timer at the start: {v['field']:,})")
    print(f"outside the work: `Renderer::begin` {per_frame('begin'):,.0f} cycles a frame")
    for key, what in [("pose", "pose + bone matrices"), ("transform", "transform + project"),
                      ("cull_sort", "cull + depth + sort"), ("emit", "emit"), ("commit", "list to VRAM")]:
        print(f"  {what}: {per_frame(key):,.0f} cycles")
    if args.expect:
        if abs(frames / seconds - field_rate) >= field_rate / 50:
            fail(f"{path}: {frames / seconds:.2f} frames a second, not the {field_rate:.2f} fields a second of {args.expect.upper()}")
        print(f"showcase-report: {path}: runs on a {args.expect.upper()} console at its field rate ({frames} frames)")
    elif cut_short:
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
