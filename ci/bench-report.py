#!/usr/bin/env python3
"""The SH-2 benchmark's report: reads what bench/ left in each emulator's backup RAM and
prints it as Markdown: the issue's budgets against the Mednafen figures, the slave SH-2's
speed-ups, the frames displayed of the on-screen scene, then every row of every emulator. With --write FILE, the report also replaces
the part of FILE between the lines `<!-- bench:start -->` and `<!-- bench:end -->`, and
says how each row's cycles compare with the figures it replaces there (the previous run).

    ci/bench-report.py [--write BENCHMARKS.md] [--versions TEXT] MEDNAFEN.bkr YABAUSE.bkr

A file that does not exist is left out (one emulator run); a file without the whole
report is an error (exit status 1).
"""
import argparse
import os
import sys

# Where the text starts in each emulator's backup RAM file (as in ci/emu/test-report.py):
# Yabause keeps the bus's 64 KiB (the odd bytes hold the data, from 0x8001), Mednafen the
# 32 KiB of odd bytes one after another.
LAYOUTS = {
    "Mednafen": lambda data: data[0x4000:],
    "Yabause": lambda data: bytes(data[0x8001::2]),
}

# The SH-2 performance issue's budgets, on the master SH-2 in Mednafen:
# (what, phase, scene, budget, unit: "unit" compares cycles per unit, "total" the cycles).
BUDGETS = [
    ("transform + project", "transform + project", "4,000 quads, static", 60, "cycles a point"),
    ("cull + sort + emit", "cull + sort + emit", "4,000 quads, static", 100, "cycles a visible quad"),
    ("pose_at + bone_matrices, 32 bones", "pose_at + bone_matrices", "32-bone chain", 20_000, "cycles"),
    ("the same, BMOT on every bone", "pose_at + bone_matrices", "32-bone chain, BMOT on every bone", 20_000, "cycles"),
    ("validation", "validation (from_bytes)", "MESH4000.JOM", 2, "cycles a byte"),
    ("a frame of 2,000 textured quads", "frame", "2,000 quads, static", 477_000, "cycles (one 60 Hz frame)"),
]


def fail(message):
    print(f"bench-report: {message}", file=sys.stderr)
    sys.exit(1)


def rows(emulator, path):
    data = open(path, "rb").read()
    text = LAYOUTS[emulator](data).split(b"\0", 1)[0]
    if not text.startswith(b"JOMB"):
        fail(f"{path}: no benchmark results in {emulator}'s backup RAM")
    lines = text[4:].decode("ascii", "replace").splitlines()
    if not lines or lines[-1] != "end":
        fail(f"{path}: the benchmark did not finish (last line: {lines[-1:]})")
    table = [line.split("|") for line in lines[:-1]]
    # The CPU finishes frames of the on-screen scene whatever the VDP1 does: none counted
    # means the bench no longer sees the renderer commit them (its VRAM wrapper's watch).
    for row in table[1:]:
        if row[0].strip() == "frames finished (CPU)" and row[2].strip() in ("0", "0 frames"):
            fail(f"{path}: {emulator}: 0 frames finished (CPU) of {row[1]}: the bench saw no frame committed")
    return table


def find(table, phase, scene):
    for row in table[1:]:
        if row[0].strip() == phase and row[1] == scene:
            return row
    return None


def previous_cycles(section):
    """The cycles of each (emulator, phase, scene) row of a report's table in `section`: a
    row a phase and scene, each emulator's cycles in its column "EMULATOR cycles"."""
    cycles = {}
    columns = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[:2] == ["phase", "scene"]:
            columns = {i: cell[: -len(" cycles")] for i, cell in enumerate(cells)
                       if cell.endswith(" cycles")}
            continue
        for i, emulator in columns.items():
            if len(cells) > i and cells[i].isdigit():
                cycles[(emulator, cells[0], cells[1])] = int(cells[i])
    return cycles


def comparison(tables, previous):
    """Each row's change against `previous`: a summary per emulator and the rows that moved
    by more than 1%."""
    out = ["Against the previous figures of this file (the run this one replaced):", ""]
    moved = []
    for emulator, table in tables:
        changes = []
        for row in table[1:]:
            before = previous.get((emulator, row[0].strip(), row[1]))
            if before:
                change = int(row[3]) / before - 1
                changes.append(change)
                if abs(change) > 0.01:
                    moved.append(f"| {emulator} | {row[0].strip()} | {row[1]} | {before} | "
                                 f"{row[3]} | {100 * change:+.1f}% |")
        if changes:
            within = sum(1 for change in changes if abs(change) <= 0.01)
            out.append(f"- {emulator}: {len(changes)} rows compared, {within} within 1%, "
                       f"from {100 * min(changes):+.1f}% to {100 * max(changes):+.1f}%")
    if moved:
        out += ["", "| emulator | phase | scene | cycles before | cycles now | change |",
                "|---|---|---|---|---|---|"] + moved
    return out + [""]


# The scene whose displayed frames bench/src/display.rs counts.
SCREEN = "2,000 quads on screen (1.46x its pixels)"


def frames_displayed(emulator, table):
    """What the player sees of the on-screen scene: frames displayed against frames the CPU
    finished, with the master alone and with the slave, and what the VDP1 alone allows."""
    out = []
    vdp1_scene = f"{SCREEN}, VDP1 alone, the list in VRAM"
    drawn = find(table, "VDP1 draw of the list", vdp1_scene)
    if drawn and drawn[3] == "0":
        # Yabause: a list is drawn at once, and no draw is seen ending at a list's end.
        finished = [find(table, "frames finished (CPU)", f"{SCREEN}, {kind}")
                    for kind in ["master alone", "master + slave"]]
        rates = " and ".join(f"{row[5]}" for row in finished if row)
        return [f"- {emulator}: frames displayed not counted (its VDP1 draws a list in no "
                f"time, and its EDSR, LOPR and COPR never show a draw ended at a list's "
                f"end); the CPU finished {rates} "
                f"frames a second (master alone, master + slave)"]
    for kind in ["master alone", "master + slave"]:
        scene = f"{SCREEN}, {kind}"
        finished = find(table, "frames finished (CPU)", scene)
        shown = find(table, "frames displayed", scene)
        fields = find(table, "frame changes (VBlanks)", scene)
        if not (finished and shown and fields):
            continue
        seconds = int(shown[3]) / 26_874_100
        out.append(f"- {emulator}, {scene}: **{shown[5]} frames displayed a second** "
                   f"({shown[2]} in {seconds:.2f} s, {fields[2]}); the CPU finished "
                   f"{finished[5]} a second ({finished[2]})")
    scene = f"{SCREEN}, VDP1 alone, the list in VRAM"
    field = find(table, "a field", scene)
    for phase in ["VDP1 draw of the list", "VDP1 draw, high-speed shrink",
                  "VDP1 draw, 8 x 8 textures"]:
        row = find(table, phase, scene)
        if row and field and row[3].isdigit():
            fields = int(row[3]) / int(field[3])
            out.append(f"- {emulator}, {phase}: {int(row[3]):,} cycles, {fields:.2f} fields "
                       f"(at most {row[5]} frames a second)")
        elif row:
            out.append(f"- {emulator}, {phase}: did not end")
    redrawn = find(table, "frames displayed, re-drawn", scene)
    if redrawn:
        out.append(f"- {emulator}, the list re-drawn at every frame change with no CPU work: "
                   f"{redrawn[5]} frames displayed a second ({redrawn[2]} whole)")
    return out


def report(tables, versions):
    out = []
    if versions:
        out.append(f"Emulators: {versions}.")
        out.append("")
    mednafen = dict(tables).get("Mednafen")
    if mednafen:
        out.append("Budgets (master SH-2 alone, Mednafen):")
        out.append("")
        out.append("| what | budget | measured | met |")
        out.append("|---|---|---|---|")
        for what, phase, scene, budget, unit in BUDGETS:
            row = find(mednafen, phase, scene)
            if row is None:
                fail(f"no row {phase} / {scene} in Mednafen's results")
            value = float(row[4]) if unit != "cycles" and not unit.startswith("cycles (") else int(row[3])
            met = "yes" if value <= budget else f"no ({value / budget:.1f}x the budget)"
            shown = f"{value:g}" if isinstance(value, float) else f"{value:,}"
            out.append(f"| {what} ({scene}) | {budget:,} {unit} | {shown} | {met} |")
        out.append("")
    for emulator, table in tables:
        for kind in ["2,000 quads, static", "2,000 quads, static, model in low work RAM",
                     "4,000 quads, static", "4,000 quads, animated, 16 bones"]:
            scene = kind
            for phase in ["transform + project", "cull + depth + sort", "emit", "frame"]:
                alone, both = find(table, phase, scene), find(table, phase, scene + ", master + slave")
                if alone and both:
                    speed = int(alone[3]) / int(both[3])
                    out.append(f"- {emulator}, {scene}, {phase}: master + slave "
                               f"{speed:.2f}x as fast as the master alone")
    out.append("")
    displayed = [line for emulator, table in tables for line in frames_displayed(emulator, table)]
    if displayed:
        out += ["Frames displayed (issue 14):", ""] + displayed + [""]
    out += merged_table(tables)
    return "\n".join(out) + "\n"


def merged_table(tables):
    """One row a phase and scene (in the first emulator's order, then what only a later one
    measured), each emulator's cycles, cycles per unit and frames per second side by side."""
    keys, values = [], {}
    for emulator, table in tables:
        for row in table[1:]:
            key = (row[0].strip(), row[1])
            if key not in values:
                keys.append(key)
                values[key] = {"units": row[2]}
            elif row[2] != values[key]["units"].split(" (")[0]:
                values[key]["units"] += f" ({emulator}: {row[2]})"
            values[key][emulator] = row[3:6]
    header = ["phase", "scene", "units"]
    for emulator, _ in tables:
        header += [f"{emulator} cycles", "per unit", "frames per second"]
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for phase, scene in keys:
        cells = [phase, scene, values[(phase, scene)]["units"]]
        for emulator, _ in tables:
            cells += values[(phase, scene)].get(emulator, ["-", "-", "-"])
        out.append("| " + " | ".join(cells) + " |")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--write")
    parser.add_argument("--versions", default="")
    parser.add_argument("mednafen")
    parser.add_argument("yabause")
    args = parser.parse_args()
    tables = [(name, rows(name, path))
              for name, path in [("Mednafen", args.mednafen), ("Yabause", args.yabause)]
              if os.path.exists(path)]
    if not tables:
        fail("no emulator ran")
    start, end = "<!-- bench:start -->\n", "<!-- bench:end -->"
    previous = None
    if args.write:
        document = open(args.write).read()
        if start not in document or end not in document:
            fail(f"{args.write}: no {start.strip()} ... {end} section")
        previous = previous_cycles(document[document.index(start):document.index(end)])
    text = report(tables, args.versions)
    print(text, end="")
    if previous:
        # For the one who ran it (and the commit message), not the document: it holds
        # today's figures only.
        print("\n".join(comparison(tables, previous)))
    if args.write:
        before = document[: document.index(start) + len(start)]
        after = document[document.index(end):]
        temporary = args.write + ".tmp"
        with open(temporary, "w") as f:
            f.write(before + text + after)
        os.replace(temporary, args.write)
        print(f"bench-report: {args.write} updated", file=sys.stderr)


if __name__ == "__main__":
    main()
