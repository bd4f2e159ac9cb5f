# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Bytes a grid board's DONE allocates between the controller reading the
# press and the lamps it puts out being shown, in that very pass: whole games
# with a visitor selecting a legal move's lamps key by key, then DONE.
# Garbage there is what brings an automatic collection between a press and
# its lamp (18-20 ms on an RP2040: press to lamp 36 ms on pico-grid, issue 27).
# usage: MICROPYPATH=<compiled tree with fake_io, controller_kit> micropython -X heapsize=1M run_press_lamp.py BOARD PRESET...
# prints per preset "PRESET DONES MOST_BYTES TURNS" (the most any DONE made
# before its lamps, over every DONE after the first: a role's first edge
# makes its two edge tuples once), or "PRESET error ..." on a failure.
import gc
import sys

from controller_kit import TICK, Rig
from fake_io import FakeIO
from nimatron.machine.controller import Rng

GAMES = 2


class PressIO(FakeIO):
    """The fake driver, noting the heap in use when a pass reads edges and
    at its first frame after them."""

    def __init__(self):
        super().__init__()
        self.mark = None  # gc.mem_alloc() once this pass's edges are read
        self.before = None  # bytes allocated from then to this pass's first frame

    def events(self):
        q = super().events()
        if q:
            self.mark = gc.mem_alloc()
        return q

    def show(self, lamps, status):
        if self.mark is not None and self.before is None:
            self.before = gc.mem_alloc() - self.mark
        super().show(lamps, status)


class Visitor(Rig):
    def edge(self, role, pressed):
        """One pass with one raw edge, the collector off: the bytes before its first frame (None: no frame)."""
        io = self.io
        io.queue.append((role, pressed))
        io.mark = io.before = None
        gc.collect()
        gc.disable()
        try:
            self.t += TICK
            io.t = self.t
            self.c.update(self.t)
        finally:
            gc.enable()
        return io.before

    def tap(self, role):
        before = self.edge(role, True)
        self.run(60)
        self.edge(role, False)
        self.run(60)
        return before

    def wait(self, limit=600000):
        waited = 0
        while self.c.state not in ("visitor", "over") and waited < limit:
            self.run(TICK)
            waited += TICK

    def play(self, rng, most):
        """One game; returns (turns, the most bytes before a DONE's lamps, DONEs measured)."""
        c = self.c
        self.tap("done")  # attract: any press starts a game (and makes DONE's edges)
        turns = dones = 0
        self.wait()
        while c.state == "visitor":
            heaps, ring = c.panel.position()
            if c._building():
                self.tap("key %d 0" % rng.below(len(c.panel.lit)))  # a stone placed: that press is the move
                self.wait()
                turns += 1
                continue
            moves = list(c.rules.moves(heaps, ring))
            after = moves[rng.below(len(moves))]
            for r, i in c.panel.lamps_for(after)[0]:
                self.tap("key %d %d" % (r, i))
            lit_before = [list(row) for row in c.panel.lit]
            before = self.tap("done")
            if c.panel.lit == lit_before and c.state == "visitor":
                raise AssertionError("DONE took no lamps: %r -> %r" % (heaps, after))
            if before is None:
                raise AssertionError("DONE's pass showed no frame")
            most = max(most, before)
            dones += 1
            turns += 1
            self.wait()
        return turns, most, dones


def main():
    board = sys.argv[1]
    for preset in sys.argv[2:]:
        try:
            rng = Rng(1940)
            most = dones = turns = 0
            for g in range(GAMES):
                rig = Visitor(
                    board,
                    io=PressIO(),
                    preset=preset,
                    first="visitor" if g % 2 == 0 else "machine",
                    think_ms=0,
                    show_ms=0,
                    seed=g,
                )
                t, most, d = rig.play(rng, most)
                turns += t
                dones += d
            print(preset, dones, most, turns)
        except Exception as e:
            print(preset, "error", repr(e))


main()
