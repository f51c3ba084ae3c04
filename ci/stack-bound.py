#!/usr/bin/env python3
"""The stack each function of a linked SH-2 program can take at most, from its code: the
function's frame (the registers its prologue pushes and what it subtracts from r15) plus
the largest of its callees', through the call graph. A callee is any function whose
address the function loads from its literal pool or branches to (bsr, bra, bt/bf): a call
or a tail call, or an address handed on (counted as if called). Calls through pointers that
come from elsewhere (the C callback of jom_textures_upload) are not followed, and a cycle
(recursion) counts once: the figure is what the library's own code takes.

    ci/stack-bound.py PROGRAM.elf FUNCTION...    prints "FUNCTION: bytes" for each
    ci/stack-bound.py --frames LIMIT [--except NAME] [--crate CRATE] PROGRAM...
                                   prints each function whose own frame is over LIMIT bytes,
                                   largest first, and fails if any (but NAME, demangled; with
                                   --crate, only CRATE's functions count: the engine's, `jom`,
                                   in a program of a game's own)

ci/capi.sh runs it on a program linking every function of jom.h against build/c/libjom.a
(the Saturn's library, whose division unit qemu cannot run: ci/capi-test.sh measures
libjom-qemu.a's calls under qemu, and the two agree where both apply; docs/c.md)."""
import re
import subprocess
import sys


def objdump(*args):
    return subprocess.run(["sh-elf-objdump", *args], capture_output=True, text=True,
                          check=True).stdout


def functions(elf):
    """Each function's start address and name."""
    nm = subprocess.run(["sh-elf-nm", "-n", elf], capture_output=True, text=True,
                        check=True).stdout
    found = {}
    for line in nm.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tT":
            found[int(fields[0], 16)] = fields[2]
    return found


def literal_addresses(lines):
    """The addresses of the literal pools' words in a function's disassembly (what its
    `mov.l` / `mov.w` load PC-relative), each halfword: data, not instructions (a literal
    0x00033f18 reads as `bsrf r0; sub r1,r15`, a frame of whatever r1 held)."""
    addresses = set()
    for line in lines:
        fields = line.split("\t")
        if len(fields) < 4 or fields[2].strip() not in ("mov.l", "mov.w"):
            continue
        at = re.match(r"([0-9a-f]+) <", fields[3].strip())
        if at:
            address = int(at.group(1), 16)
            addresses.add(address)
            if fields[2].strip() == "mov.l":
                addresses.add(address + 2)
    return addresses


def frames_and_callees(elf, starts):
    """Per function: its frame in bytes, the functions it may call."""
    frame, callees = {}, {}
    for block in re.split(r"\n(?=[0-9a-f]{8} <)", objdump("-d", elf)):
        head = re.match(r"[0-9a-f]{8} <([^>]+)>:", block)
        if not head:
            continue
        name = head.group(1)
        pushed = subtracted = 0
        constants = {}  # register: value loaded into it (for `sub rN,r15`)
        returned = False
        targets = set()
        lines = block.split("\n")[1:]
        literals = literal_addresses(lines)
        for number, line in enumerate(lines):
            fields = line.split("\t")
            if len(fields) < 3:
                continue
            if int(fields[0].strip().rstrip(":"), 16) in literals:
                continue  # data the code loads, which objdump decodes as instructions
            op = fields[2].strip()
            operands = fields[3].strip() if len(fields) > 3 else ""
            loaded = line.split("!")[1].split() if "!" in line else []
            # A literal: `mov.l 6004570 <f+0x188>,r9 ! fffe4000` (value after the `!`).
            if op in ("mov.w", "mov.l") and loaded and re.fullmatch(r"[0-9a-f]+", loaded[0]):
                register = operands.split(",")[-1]
                value = int(loaded[0], 16)
                bits = 16 if op == "mov.w" else 32
                if value >= 1 << (bits - 1):
                    value -= 1 << bits
                if re.fullmatch(r"r\d+", register):
                    constants[register] = value
                if value & 0xFFFFFFFF in starts:
                    targets.add(starts[value & 0xFFFFFFFF])
            immediate = re.fullmatch(r"#(-?\d+),(r\d+)", operands)
            if op == "mov" and immediate:
                constants[immediate.group(2)] = int(immediate.group(1))
            if op in ("bsr", "bra", "bt", "bf", "bt.s", "bf.s"):
                target = re.search(r"<([^>+]+)>", line)
                if target and target.group(1) != name:
                    targets.add(target.group(1))
            if op == "rts" and pushed + subtracted > 0:
                # The frame is set up before the first return after it: what follows may be
                # code of a function without a symbol of its own (a local one), not this
                # one's. (A return before any push is an early one, the frame after it.)
                returned = True
            destination = re.fullmatch(r".*,(r\d+)", operands)
            constant = (op in ("mov.w", "mov.l") and loaded) or (op == "mov" and immediate)
            if destination and not constant:
                constants.pop(destination.group(1), None)  # no longer the constant loaded
            # The frame: set up by the prologue, before any loop (the first instructions).
            if number < 80 and not returned:
                if op in ("mov.l", "sts.l") and operands.endswith("@-r15"):
                    pushed += 4
                adjust = re.fullmatch(r"#(-?\d+),r15", operands)
                if op == "add" and adjust and int(adjust.group(1)) < 0:
                    subtracted += -int(adjust.group(1))
                by_register = re.fullmatch(r"(r\d+),r15", operands)
                if by_register and by_register.group(1) in constants:
                    value = constants[by_register.group(1)]
                    if op == "sub" and value > 0:
                        subtracted += value
                    if op == "add" and value < 0:
                        subtracted += -value
        frame[name] = pushed + subtracted
        callees[name] = targets
    return frame, callees


def bound(name, frame, callees, known, open_calls):
    if name in known:
        return known[name]
    if name in open_calls:  # recursion: counted once
        return 0
    open_calls.add(name)
    deepest = max((bound(c, frame, callees, known, open_calls)
                   for c in callees.get(name, ()) if c in frame), default=0)
    open_calls.discard(name)
    known[name] = frame.get(name, 0) + deepest
    return known[name]


def frames_over(limit, programs, allowed=(), crate=None):
    """Fails (status 1) when a function's own frame passes `limit`, naming each (but those
    `allowed`, and those not of `crate` when given)."""
    over = []
    for program in programs:
        frame, _ = frames_and_callees(program, functions(program))
        over += [(size, name, program) for name, size in frame.items() if size > limit]
    names = subprocess.run(["c++filt"], input="\n".join(n[1:] for _, n, _ in over),
                           capture_output=True, text=True, check=True).stdout.split("\n")
    failed = 0
    for (size, _, program), name in sorted(zip(over, names), reverse=True):
        name = re.sub(r"\[[0-9a-f]{1,16}\]", "", name)  # the crates' hashes (leading zeros left out)
        theirs = crate is not None and not re.match(rf"<?{re.escape(crate)}::", name)
        note = " (allowed)" if name in allowed else " (not the crate's)" if theirs else ""
        failed += not note
        print(f"{program}: {name}: a frame of {size} bytes (over {limit}){note}")
    print(f"stack-bound.py: {failed} functions with a frame over {limit} bytes")
    if failed:
        sys.exit(1)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    if sys.argv[1] == "--frames":
        limit, rest = int(sys.argv[2]), sys.argv[3:]
        allowed, crate = [], None
        while rest[:1] in (["--except"], ["--crate"]):
            if rest[0] == "--except":
                allowed.append(rest[1])
            else:
                crate = rest[1]
            rest = rest[2:]
        frames_over(limit, rest, allowed, crate)
        return
    elf, names = sys.argv[1], sys.argv[2:]
    frame, callees = frames_and_callees(elf, functions(elf))
    sys.setrecursionlimit(20000)
    known = {}
    for name in names:
        symbol = "_" + name
        if symbol not in frame:
            sys.exit(f"stack-bound.py: {name} is not in {elf}")
        print(f"{name}: {bound(symbol, frame, callees, known, set())}")


main()
