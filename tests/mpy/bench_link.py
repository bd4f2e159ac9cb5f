# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The game loop with a busy host link under MicroPython: GAMES games on a
# board's own preset, a random visitor on the buttons, and a host asking
# STATE/EXPLAIN/AUDITS/CONFIG/... on every other poll with events on.
# Prints games finished, replies, "ERR busy" replies, other ERR replies.
# usage: micropython -X heapsize=N bench_link.py BOARD GAMES
import gc
import sys

from fake_io import FakeIO as IO
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller


class Wire:
    """A host that reads everything at once and counts the replies."""

    def __init__(self):
        self.to_machine = b""
        self.replies = 0
        self.busy = 0
        self.errors = 0

    def read(self, n):
        data = self.to_machine[:n]
        self.to_machine = self.to_machine[n:]
        return data

    def write(self, data):
        for line in bytes(data).split(b"\n"):
            if line[:2] == b"OK":
                self.replies += 1
            elif line[:8] == b"ERR busy":
                self.busy += 1
            elif line[:3] == b"ERR":
                self.errors += 1
        return len(data)


board, games = sys.argv[1], int(sys.argv[2])
io = IO()
ends = [0]


def listen(event):
    if event["event"] == "game_over":
        ends[0] += 1


c = make_controller(board, {"think_ms": 300, "show_ms": 400, "over_ms": 1000}, io, listen)
wire = Wire()
link = HostLink(c, wire, board=board)
wire.to_machine = b"EVENTS ON\n"
gc.collect()
ASK = (b"STATE\n", b"EXPLAIN\n", b"AUDITS\n", b"CONFIG\n", b"HELLO\n", b"CONFIG starts\n", b"HELP\n")
seed = 12345
now = 0
ticks = 0
plan = []
while ends[0] < games and ticks < 200000:
    now += 10
    ticks += 1
    if ticks % 2 == 0:
        wire.to_machine += ASK[(ticks // 2) % len(ASK)]
    if c.state == "visitor" and ticks % 13 == 0:
        if not plan:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            heaps, ring = c.position()
            moves = list(c.rules.moves(heaps, ring))
            lamps = c.panel.lamps_for(moves[(seed >> 8) % len(moves)])[0]
            if c.input_model == "rows":
                plan = ["row%d" % r for r, i in lamps] + ["done"]
            else:
                plan = ["key %d %d" % (r, i) for r, i in lamps] + ["done"]
            moves = None
        role = plan.pop(0)
        io.queue.append((role, True))
        io.queue.append((role, False))
    elif c.state == "attract" and ticks % 50 == 0:
        plan = []
        io.queue.append(("new", True))
        io.queue.append(("new", False))
    c.update(now)
    link.poll(now)
print(ends[0], wire.replies, wire.busy, wire.errors)
