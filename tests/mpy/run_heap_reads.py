# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The heap's figures read once a pass at most: on CircuitPython 9 each
# gc.mem_free() or gc.mem_alloc() walks the whole allocation table (gc_info),
# 5.2 ms of a stock MacroPad's 6.2 ms pass in attract mode. A board's main
# loop (controller, then link) runs under the real MicroPython through
# attract mode, host commands (SET, EXPLAIN, MEMORY), and the machine's
# searches (first to move, NEW again and again), in a heap as low as a
# board's; per pass, the reads are counted. A pass may read once, and once
# more after each collection (the figures changed), MEMORY's too.
# Prints per phase its passes and the passes that read too often; "ok N" at
# the end (N: reads in all).
# MICROPYPATH=<compiled tree> micropython -X heapsize=H run_heap_reads.py [--reserve N] BOARD PRESET COMMAND...
import sys

from counting_gc import counts, install
from fake_io import FakeIO, FakeWire

install()

from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine.app import make_controller  # noqa: E402

args = sys.argv[1:]
if args[0] == "--reserve":  # the search's reserve (strategy.HEAP_RESERVE): 2 keeps half the heap free,
    from nimatron.games import strategy  # so its heap check runs in every search of a 64-bit heap

    strategy.HEAP_RESERVE = int(args[1])
    args = args[2:]
board, preset = args[0], args[1]
c = make_controller(board, {"preset": preset, "first": "machine", "think_ms": 0, "show_ms": 200}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=lambda settings, own=None: True)
now = 0
total = 0
first = True
bad = 0


def passes(n, what, until=None):
    """n passes of the main loop; the ones that read the heap too often."""
    global now, total, first
    over = []
    for k in range(n):
        now += 20
        counts["collect"] = counts["reads"] = 0
        c.update(now)
        link.poll(now)
        allowed = 1 + counts["collect"] + (1 if first else 0)  # the first reads the total too
        if counts["reads"]:
            first = False
        total += counts["reads"]
        if counts["reads"] > allowed:
            over.append("pass %d: %d reads, %d collections" % (k, counts["reads"], counts["collect"]))
        if until is not None and until():
            break
    print("%-28s %s" % (what, over))
    return len(over)


bad += passes(100, "attract")
for command in args[2:]:
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    bad += passes(400, command, wire.lines)
    print("    -> %s" % (wire.lines()[0].decode()[:60] if wire.lines() else "no reply"))
for game in range(4):  # the machine moves first: its search, its move shown, the visitor's turn
    c.new_game(now)
    bad += passes(400, "game %d: the machine's turn" % game, lambda: c.state == "visitor")
    bad += passes(50, "game %d: the visitor's turn" % game)
if bad:
    sys.exit(3)
print("ok", total)
