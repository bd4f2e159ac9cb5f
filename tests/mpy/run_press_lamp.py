# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# Bytes each press allocates between the controller reading it and the
# lamps it changes being shown, in that very pass: whole games with a
# visitor on every kind of board. A grid's visitor selects a legal move's
# lamps key by key, then DONE; a row board's presses a row's button once a
# lamp, then DONE (or none: the game's last lamp ends it); Building Nim's
# places a stone a press. Garbage there is what brings an automatic
# collection between a press and its lamp (18-20 ms on an RP2040: press to
# lamp 36 ms on pico-grid, issue 27; a row's press 28.9 ms on pico-neopixel).
# usage: MICROPYPATH=<compiled tree with fake_io, controller_kit> micropython -X heapsize=1M run_press_lamp.py BOARD PRESET...
# prints per preset "PRESET DONES MOST_DONE PRESSES MOST_PRESS TURNS": the
# most any DONE made before its lamps, and the most any other press did
# (a key, a row, a stone), over every press of a button after its first in
# a game (a role's first edge makes its edge tuples and its debouncer's
# entries once, and a key its lamp); or "PRESET error ..." on a failure.
import gc
import sys

from controller_kit import TICK, Rig
from fake_io import FakeIO
from nimatron.machine.controller import Rng

GAMES = 3


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
        """A press and its release: the bytes before the press's lamps, or
        None for a button's first press in this game."""
        before = self.edge(role, True)
        self.run(60)
        self.edge(role, False)
        self.run(60)
        if before is None:
            raise AssertionError("%s's pass showed no frame" % role)
        if role not in self.seen:
            self.seen[role] = True
            return None
        return before

    def wait(self, limit=600000):
        waited = 0
        while self.c.state not in ("visitor", "over") and waited < limit:
            self.run(TICK)
            waited += TICK

    def press(self, role):
        before = self.tap(role)
        if before is not None:
            self.most[1] = max(self.most[1], before)
            self.counted[1] += 1
        return before

    def done(self):
        before = self.tap("done")
        if before is not None:
            self.most[0] = max(self.most[0], before)
            self.counted[0] += 1

    def move(self, rng):
        """One move of the visitor's, pressed as its board takes it."""
        c = self.c
        heaps, ring = c.panel.position()
        grid = c.input_model == "grid"
        if c._building():  # a stone on a row with room
            rows = [r for r in range(c.panel.supply) if not c.panel.lit[r][-1]]
            r = rows[rng.below(len(rows))]
            self.press("key %d 0" % r if grid else "row%d" % r)
            return
        moves = list(c.rules.moves(heaps, ring))
        if not grid:  # a row's button takes from one row, its rightmost lamp each press
            moves = [m for m in moves if _one_row(heaps, m) is not None]
        after = moves[rng.below(len(moves))]
        lit_before = [list(row) for row in c.panel.lit]
        if grid:
            for r, i in c.panel.lamps_for(after)[0]:
                self.press("key %d %d" % (r, i))
        else:
            r = _one_row(heaps, after)
            for _ in range(heaps[r] - after[r]):
                self.press("row%d" % r)
        if c.state == "visitor" and (c.selected or c.taken):
            self.done()
        if c.panel.lit == lit_before:
            raise AssertionError("the move took no lamps: %r -> %r" % (heaps, after))

    def play(self, rng):
        """One game; returns its turns."""
        self.tap("done")  # attract, or the last game's end: any press starts a game
        turns = 0
        self.wait()
        while self.c.state == "visitor":
            self.move(rng)
            turns += 1
            self.wait()
        return turns


def _one_row(heaps, after):
    """The one row a move takes from (nothing added anywhere), or None."""
    row = None
    for i in range(len(heaps)):
        if after[i] > heaps[i]:
            return None
        if after[i] < heaps[i]:
            if row is not None:
                return None
            row = i
    return row


def main():
    board = sys.argv[1]
    for preset in sys.argv[2:]:
        try:
            rng = Rng(1940)
            rig = Visitor(board, io=PressIO(), preset=preset, first="alternate", think_ms=0, show_ms=0, over_ms=1000)
            rig.most, rig.counted, rig.seen = [0, 0], [0, 0], {}
            turns = 0
            for _ in range(GAMES):
                turns += rig.play(rng)
                rig.run(1500)  # the game-over display, then attract: a press starts the next
            most, counted = rig.most, rig.counted
            print(preset, counted[0], most[0], counted[1], most[1], turns)
        except Exception as e:
            print(preset, "error", repr(e))


main()
