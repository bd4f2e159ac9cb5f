# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The lamps as the game sees them: which are lit, and what a move looks like.

The engine thinks in heap sizes; the visitor sees lamps. A panel keeps the
truth of which lamps are lit and translates both ways: lamps -> position,
a visitor's selection -> a move, the machine's chosen position -> the lamps
that go out (and, in Grundy's game, the lamps that light for a new heap).

A lamp that went out stays out: a visitor may take lamps from the middle of
a row, and the row keeps its gaps (a heap is the count of its lit lamps);
the machine takes from the right-hand end of a row.

- ``HeapPanel``: heap i is row i (Nim and its cousins).
- ``shapes.SplitPanel``: each part of Grundy's game is a row of a grid; a
  split moves lamps to the first empty row.
- ``shapes.ArcPanel``: Grundy's game on a ring: each part is an arc, arcs
  separated by one dark lamp.
- ``tally.CandyPanel``: Candy Nim: heap rows, then each player's candies
  as a tally.
- ``supply.SupplyPanel``: Building Nim: heap rows, then a row of the
  stones still to place.
- ``cells.CellPanel``: two-dimensional and Graph Nim: the lit cells are the position.
- ``circle.RingPanel``: circular Nim: a closed loop of neighbouring lamps
  (the whole ring, or a rectangle on a grid); objects stay in place.
- ``counter.CounterPanel``: one heap shown as the count said so far, in
  binary (the game of 21 on a ring of ten), when a preset sets ``counter``.

A board accepts a start only if every position reachable from it can be
shown (``check_fits``): a game never stops mid-way for want of lamps.
"""


class PanelError(ValueError):
    """A game that does not fit the board's lamps."""


class HeapPanel:
    """Heap i is row i; its heap is the count of its lit lamps."""

    def __init__(self, layout, start):
        if len(start) > len(layout):
            raise PanelError("%d heaps but only %d rows of lamps" % (len(start), len(layout)))
        for i in range(len(start)):
            if start[i] > layout[i]:
                raise PanelError("heap %d does not fit row %s of %d lamps" % (start[i], row_label(i), layout[i]))
        self.layout = list(layout)
        self.heaps = len(start)
        self.lit = [[j < (start[i] if i < len(start) else 0) for j in range(layout[i])] for i in range(len(layout))]
        self.ring = False

    def position(self):
        return [_count(self.lit[i]) for i in range(self.heaps)], False

    def last_lit(self, row):
        """The lamp a row button puts out next: the rightmost lit one."""
        if row >= self.heaps:
            return None
        ends = _rightmost(self.lit[row], 1)
        return (row, ends[0]) if ends else None

    def after_selection(self, selected):
        """The position a selection of lamps would leave, or None."""
        heaps, _ = self.position()
        after = list(heaps)
        for r, i in selected:
            if r >= self.heaps or not self.lit[r][i]:
                return None
            after[r] -= 1
        return after

    def lamps_for(self, after):
        """(lamps that go out, lamps that light) for the machine's move:
        the rightmost lit lamps of each row it takes from."""
        heaps, _ = self.position()
        out = []
        for r in range(self.heaps):
            for i in _rightmost(self.lit[r], heaps[r] - after[r]):
                out.append((r, i))
        return out, []

    def apply(self, out, light):
        for r, i in out:
            self.lit[r][i] = False
        for r, i in light:
            self.lit[r][i] = True

    def apply_selection(self, selected):
        self.apply(selected, ())  # no list made in DONE's pass before its lamps show


def _count(lamps):
    n = 0
    for on in lamps:
        if on:
            n += 1
    return n


def _rightmost(lamps, n):
    """Indexes of the last ``n`` lit lamps of a row, left to right."""
    out = []  # type: list[int]
    for i in range(len(lamps) - 1, -1, -1):
        if len(out) == n:
            break
        if lamps[i]:
            out.insert(0, i)
    return out


def _same(a, b):
    return sorted([x for x in a if x]) == sorted([x for x in b if x])


def row_label(r):
    """A row (heap) as the faces and the reasoning name it: A, B, ... (27, 28, ... past Z)."""
    return chr(ord("A") + r) if r < 26 else str(r + 1)


SHAPES = {
    "ring": "circle",
    "cells": "cells",
    "splits": "shapes",
    "supply": "supply",
    "tally": "tally",
}  # kind -> module


def panel_module(rules, counter=False):
    """The panels module ``make_panel`` loads for these rules (None: this one)."""
    return "counter" if counter else SHAPES.get(rules.panel)


def check_input(input_model, rules, settings):
    """PanelError unless this board's buttons can make the game's moves."""
    if input_model != "rows":
        return
    if not rules.one_row:
        raise PanelError("%s moves need a key under every lamp: use a grid board" % rules.spec)
    if settings.get("counter"):
        raise PanelError("a counter is played by choosing lamps: use a grid board (keys or a cursor)")
