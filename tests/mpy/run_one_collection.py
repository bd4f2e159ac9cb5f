# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# One collection a pass, and nothing heavy beside it: a board's main loop
# (controller, then link) polled through host commands in a heap as low as a
# board's, counting per pass the collections the controller asked for (its
# search's, between games', a module dropped), the ones the link asked for,
# the modules the link loaded, the replies it sent and the lamp frames shown. A collection is 18-25
# ms of a Pico's pass and a module's load 30-40 ms: the machine's collection
# and the link's load in one pass made a stock MacroPad's SET 50-60 ms.
# Prints per command its polls and the passes that broke the rule; "ok N" at
# the end (N: passes in which the controller collected while a command was
# pending, each of which the link left alone).
# MICROPYPATH=<compiled tree> micropython -X heapsize=H run_one_collection.py BOARD PRESET COMMAND...
import sys

from counting_gc import counts, install
from fake_io import FakeIO, FakeWire

install()

from nimatron import passes  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import turns  # noqa: E402
from nimatron.machine.app import make_controller  # noqa: E402

turns.ROOM_MS = 0  # the machine looks at its heap each pass: as many collections of its own as it can make


frames = [0]


class LampsIO(FakeIO):
    """Marks the pass of each frame it is shown, as the boards' lamp drivers
    do (a NeoPixel frame is 2-3 ms of a Pico's pass: ``passes.mark``)."""

    def show(self, lamps, status):
        passes.mark()
        frames[0] += 1
        FakeIO.show(self, lamps, status)


board, preset = sys.argv[1], sys.argv[2]
c = make_controller(board, {"preset": preset}, LampsIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=lambda settings, own=None: True)
now = 0
bad = 0
left_alone = 0
for command in sys.argv[3:]:
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = 0
    broke = []
    while not wire.lines() and polls < 300:
        now += 20
        counts["collect"] = 0
        frames[0] = 0
        c.update(now)
        by_machine = counts["collect"]
        framed = frames[0]
        counts["collect"] = 0
        before = len(sys.modules)  # no list made: the heap is as low as a board's
        sent = len(wire.written)
        link.poll(now)
        by_link = counts["collect"]
        came = len(sys.modules) > before
        replied = len(wire.written) != sent
        if by_machine + by_link > 1:
            broke.append("poll %d: %d collections" % (polls, by_machine + by_link))
        elif by_machine and (came or replied):
            broke.append(
                "poll %d: the machine collected, the link %s" % (polls, "loaded a module" if came else "replied")
            )
        elif by_link and came:
            broke.append("poll %d: the link collected and loaded a module" % polls)
        elif framed and came:
            broke.append("poll %d: a lamp frame and the link's load of a module" % polls)
        elif by_machine:
            left_alone += 1
        polls += 1
    reply = wire.lines()[0].decode() if wire.lines() else "no reply"
    print("%-24s %3d polls -> %-40s broke: %s" % (command, polls, reply[:40], broke))
    if broke or not (reply.startswith("OK") or reply.startswith("ERR value")):  # refused in words: a layout
        bad += 1
if bad:
    sys.exit(3)
print("ok", left_alone)
