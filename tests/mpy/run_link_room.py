# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Host commands never meet the collector inside their own pass: a board's
# main loop (controller, then link) polled with commands pending, each
# EXPLAIN from cold searches; per poll, the collections asked for and
# whether the heap collected itself (what it has allocated fell by over a
# KB with no collection asked for: MicroPython frees nothing otherwise).
# Prints per command the polls it took and the polls where the heap
# collected itself while a command was handled; "ok N" at the end (N: such
# polls in all).
# MICROPYPATH=<compiled tree> micropython -X heapsize=H run_link_room.py BOARD PRESET COMMAND...
import gc
import sys

from counting_gc import counts, install
from fake_io import FakeIO, FakeWire

install()

from nimatron.link.hostlink import HostLink, forget_searches  # noqa: E402
from nimatron.machine.app import make_controller  # noqa: E402

board, preset = sys.argv[1], sys.argv[2]
c = make_controller(board, {"preset": preset, "first": "visitor"}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board)
now = 0
total = 0
for command in sys.argv[3:]:
    if command == "EXPLAIN":
        forget_searches()  # a position not seen before: its search from the start
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = 0
    self_collected = []
    while not wire.lines() and polls < 400:
        counts["collect"] = 0
        now += 20
        c.update(now)
        thinking = c.state == "thinking"
        before = gc.mem_alloc()
        link.poll(now)
        after = gc.mem_alloc()
        if not counts["collect"] and not thinking and after < before - 1024:
            self_collected.append(polls)
        polls += 1
    assert wire.lines(), "no reply to %s after %d polls" % (command, polls)
    reply = wire.lines()[0].decode()
    assert reply.startswith("OK"), "%s -> %s" % (command, reply)
    total += len(self_collected)
    print("%-8s %3d polls, the heap collected itself in %s" % (command, polls, self_collected))
print("ok", total)
