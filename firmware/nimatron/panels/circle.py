# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Circular Nim on the lamps: a closed loop of neighbouring lamps (see ``panel``).

Imported only while circular Nim is played (``panels.make_panel``) and by the
simulator's visitor.
"""

from .panel import PanelError, _same


def circle_cells(layout, n, shape):
    """The lamps of a circle of n objects, in order round the circle.

    On a ring the circle is the whole ring. On a grid it is the border of a
    rectangle, so that neighbours in the circle are neighbouring lamps (a
    grid has closed loops of even length only; circles of 1 or 2 are a row).
    """
    if shape == "ring":
        if n != layout[0]:
            raise PanelError(
                "circular Nim on this ring needs a circle of all %d lamps (a smaller circle "
                "would join lamps that are not neighbours)" % layout[0]
            )
        return [(0, i) for i in range(n)]
    rows = len(layout)
    cols = min(layout)
    if n <= 2 and n <= cols:
        return [(0, i) for i in range(n)]
    half = n // 2 + 2  # width + height of a rectangle whose border has n lamps
    if n % 2 or n < 4:
        raise PanelError(
            "a circle of %d cannot be drawn on the grid's neighbouring lamps: "
            "choose an even size from 4 to %d" % (n, 2 * (rows + cols) - 4)
        )
    h = half // 2
    if h > rows:
        h = rows
    w = half - h
    if w > cols or h < 2 or rows < 2:
        raise PanelError("a circle of %d does not fit this board: at most %d" % (n, 2 * (rows + cols) - 4))
    cells = [(0, i) for i in range(w)]
    cells += [(r, w - 1) for r in range(1, h)]
    cells += [(h - 1, i) for i in range(w - 2, -1, -1)]
    cells += [(r, 0) for r in range(h - 2, 0, -1)]
    return cells


class RingPanel:
    """Circular Nim: a closed loop of lamps (``circle_cells``); objects stay
    in place and a move breaks the circle into rows of neighbours."""

    unlettered = "row"  # "row of 5": the runs of the broken circle carry no letter

    def __init__(self, layout, start, shape):
        n = start[0] if start else 0
        if len(start) != 1 or n < 1:
            raise PanelError("circular Nim needs one circle of at least 1 lamp")
        self.cells = circle_cells(layout, n, shape)
        self.where = {}
        for k in range(len(self.cells)):
            self.where[self.cells[k]] = k
        self.layout = list(layout)
        self.n = n
        self.lit = [[False] * k for k in layout]
        for r, i in self.cells:
            self.lit[r][i] = True
        self.ring = True  # unbroken until the first move

    def _circle(self):
        return [self.lit[r][i] for r, i in self.cells]

    def position(self):
        if self.ring:
            return [self.n], True
        return [len(run) for run in lit_runs(self._circle())], False

    def after_selection(self, selected):
        circle = self._circle()
        idx = []
        for lamp in selected:
            k = self.where.get(tuple(lamp))
            if k is None or not circle[k]:
                return None
            idx.append(k)
        if not idx:
            return None
        if self.ring:
            # Neighbours wrap round the unbroken circle.
            k = len(idx)
            for s in range(self.n):
                if sorted([(s + j) % self.n for j in range(k)]) == sorted(idx):
                    return [self.n - k] if k < self.n else []
            return None
        # The selection must be one run of neighbours.
        for run in lit_runs(circle):
            if idx[0] in run:
                pos = sorted([run.index(i) for i in idx if i in run])
                if len(pos) != len(idx) or pos[-1] - pos[0] != len(pos) - 1:
                    return None
        for i in idx:
            circle[i] = False
        return [len(run) for run in lit_runs(circle)]

    def lamps_for(self, after):
        if self.ring:
            t = self.n - sum(after)
            return [self.cells[i] for i in range(t)], []
        circle = self._circle()
        for run in lit_runs(circle):
            for t in (1, 2, 3):
                for s in range(len(run) - t + 1):
                    take = run[s : s + t]
                    lamps = list(circle)
                    for i in take:
                        lamps[i] = False
                    if _same([len(x) for x in lit_runs(lamps)], after):
                        return [self.cells[i] for i in take], []
        raise PanelError("move %s cannot be made on the circle" % (after,))

    def apply(self, out, light):
        for r, i in out:
            self.lit[r][i] = False
        self.ring = False

    def apply_selection(self, selected):
        self.apply(selected, ())  # no list made in DONE's pass before its lamps show

    def last_lit(self, row):
        return None


def lit_runs(lamps):
    """Runs of neighbouring lit lamps round a circle, each a list of indexes.

    A circle with no dark lamp is one run, in index order.
    """
    n = len(lamps)
    dark = [i for i in range(n) if not lamps[i]]
    if not dark:
        return [list(range(n))]
    runs = []
    run = []
    for step in range(1, n + 1):
        i = (dark[0] + step) % n
        if lamps[i]:
            run.append(i)
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs
