#!/usr/bin/env python3
"""The stack each function of a linked SH-2 program can take at most, from its code: the
function's frame (the registers its prologue pushes and what it subtracts from r15), plus
the largest of what it calls, plus the largest of what it hands on, through the call graph.
It calls a function it branches to (bsr, bra, bt/bf) or jumps to (jsr, jmp) through a
register holding that function's address from its literal pool. It hands on a function
whose address it loads and does not only call (an argument, a field: core::fmt's
formatters, a closure), and each function of a vtable whose address it loads (`dyn`
calls): those are called deeper, by what it calls, so their bound is added to the deepest
call's, not compared with it. Calls through pointers that come from elsewhere (the C
callback of jom_textures_upload) are not followed, and functions that call one another
(recursion) count once each, as one function whose frame is all of theirs: the figure is
what the library's own code takes, the same from run to run.

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
    0x00033f18 reads as `bsrf r0; sub r1,r15`, a frame of whatever r1 held). A load that
    is itself a literal's word (a literal that reads as `mov.l`) loads nothing: the set is
    made again from the other loads until it holds, so that such a word does not turn an
    instruction (a call) into data."""
    loads = {}  # the address of a load: the addresses it reads
    for line in lines:
        fields = line.split("\t")
        if len(fields) < 4 or fields[2].strip() not in ("mov.l", "mov.w"):
            continue
        at = re.match(r"([0-9a-f]+) <", fields[3].strip())
        if at:
            address = int(at.group(1), 16)
            read = {address, address + 2} if fields[2].strip() == "mov.l" else {address}
            loads[int(fields[0].strip().rstrip(":"), 16)] = read
    addresses = set()
    for _ in range(8):
        again = set().union(*(read for at, read in loads.items() if at not in addresses))
        if again == addresses:
            break
        addresses = again
    return addresses


def data_words(elf):
    """The words of the program's data sections, by address (where vtables are)."""
    words = {}
    for line in objdump("-s", "-j", ".rodata", "-j", ".data", elf).splitlines():
        fields = line.split()
        if len(fields) < 2 or not re.fullmatch(r"[0-9a-f]+", fields[0]):
            continue
        base = int(fields[0], 16)
        for i, chunk in enumerate(fields[1:5]):
            if re.fullmatch(r"[0-9a-f]{8}", chunk):
                words[base + 4 * i] = int(chunk, 16)
    return words


def vtable_functions(address, words, starts):
    """The functions of the vtable at `address`, when its words are one (a Rust vtable:
    drop, size, align, then the methods); none otherwise."""
    drop, size, align = (words.get(address + 4 * i) for i in range(3))
    if drop is None or (drop and drop not in starts) or size is None or size > 1 << 20:
        return set()
    if align not in (1, 2, 4, 8, 16):
        return set()
    found = {starts[drop]} if drop else set()
    at = address + 12
    while words.get(at) in starts:
        found.add(starts[words[at]])
        at += 4
    return found


def frames_and_callees(elf, starts):
    """Per function: its frame in bytes, the functions it calls, the functions it hands
    on."""
    frame, callees, handed_on = {}, {}, {}
    words = data_words(elf)
    for block in re.split(r"\n(?=[0-9a-f]{8} <)", objdump("-d", elf)):
        head = re.match(r"[0-9a-f]{8} <([^>]+)>:", block)
        if not head:
            continue
        name = head.group(1)
        pushed = subtracted = 0
        constants = {}  # register: value loaded into it (for `sub rN,r15`)
        returned = False
        targets = set()
        loads, calls, handed = {}, {}, set()  # function: loads of its address, jsr to it
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
                address = value & 0xFFFFFFFF
                if address in starts:
                    loads[starts[address]] = loads.get(starts[address], 0) + 1
                else:
                    handed |= vtable_functions(address, words, starts)
            called = re.fullmatch(r"@(r\d+)", operands)
            if op in ("jsr", "jmp") and called and called.group(1) in constants:
                address = constants[called.group(1)] & 0xFFFFFFFF
                if address in starts:
                    calls[starts[address]] = calls.get(starts[address], 0) + 1
            moved = re.fullmatch(r"(r\d+),(r\d+)", operands)
            if op == "mov" and moved and moved.group(1) in constants:
                constants[moved.group(2)] = constants[moved.group(1)]
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
            constant = constant or (op == "mov" and moved and moved.group(1) in constants)
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
        callees[name] = targets | set(calls)
        handed_on[name] = handed | {f for f, n in loads.items() if calls.get(f, 0) < n}
    return frame, callees, handed_on


def components(graph):
    """The call graph's strongly connected components (Tarjan's): each function's, as the
    tuple of its members; a function that is in no cycle is alone in its own."""
    frame, callees, handed_on = graph
    edges = {n: sorted((set(callees.get(n, ())) | set(handed_on.get(n, ()))) & set(frame))
             for n in frame}
    index, low, stack, on_stack, of = {}, {}, [], set(), {}

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for callee in edges[node]:
            if callee not in index:
                visit(callee)
                low[node] = min(low[node], low[callee])
            elif callee in on_stack:
                low[node] = min(low[node], index[callee])
        if low[node] == index[node]:
            members = []
            while not members or members[-1] != node:
                members.append(stack.pop())
                on_stack.discard(members[-1])
            for member in members:
                of[member] = tuple(sorted(members))

    for node in sorted(frame):
        if node not in index:
            visit(node)
    return of


def bound(name, graph, component_of, known):
    """The most stack `name` takes: its frame, the deepest of its calls, and the deepest of
    what it hands on (`graph`: frames, callees, handed on). Functions that call one another
    (a cycle: recursion) count as one whose frame is all of theirs, going round once: an
    upper bound, the same whatever order the graph is walked in (`known`: the bounds of
    the cycles found so far)."""
    frame, callees, handed_on = graph
    members = component_of[name]
    if members not in known:
        deepest = [max((bound(f, graph, component_of, known) for m in members
                        for f in table.get(m, ()) if f in frame and component_of[f] != members),
                       default=0) for table in (callees, handed_on)]
        known[members] = sum(frame.get(m, 0) for m in members) + sum(deepest)
    return known[members]


def frames_over(limit, programs, allowed=(), crate=None):
    """Fails (status 1) when a function's own frame passes `limit`, naming each (but those
    `allowed`, and those not of `crate` when given)."""
    over = []
    for program in programs:
        frame, _, _ = frames_and_callees(program, functions(program))
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
    graph = frames_and_callees(elf, functions(elf))
    sys.setrecursionlimit(20000)
    component_of, known = components(graph), {}
    for name in names:
        symbol = "_" + name
        if symbol not in graph[0]:
            sys.exit(f"stack-bound.py: {name} is not in {elf}")
        print(f"{name}: {bound(symbol, graph, component_of, known)}")


main()
