# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Panels for games whose moves reshape the lamps (see ``panel``).

Imported only by boards that play Grundy's game or circular Nim.
"""

from .panel import HeapPanel, PanelError, _count, _rightmost, _same


def most_parts(start):
    """The most heaps Grundy's game can reach from ``start``: a heap h ends
    as at most max(1, h-1) heaps (split off one lamp at a time)."""
    n = 0
    for h in start:
        if h:
            n += h - 1 if h > 2 else 1
    return n


def _grundy_start(start):
    heaps = [h for h in start if h]
    if not heaps:
        raise PanelError("Grundy's game needs at least one heap")
    return heaps


class SplitPanel(HeapPanel):
    """Grundy's game on a grid: each heap is a row; a split keeps part of a
    row and lights the rest in the first empty row."""

    def __init__(self, layout, start):
        heaps = _grundy_start(start)
        HeapPanel.__init__(self, layout, heaps)
        parts = most_parts(heaps)
        if parts > len(layout):
            raise PanelError(
                "Grundy's game from %s can reach %d heaps (a heap of h splits into up to h-1); "
                "this board shows %d, one a row (try starts=[[%d]])"
                % (" ".join([str(h) for h in heaps]), parts, len(layout), min(len(layout) + 1, min(layout))))
        if max(heaps) > min(layout):
            raise PanelError("a heap of %d does not fit a row of %d lamps" % (max(heaps), min(layout)))
        self.heaps = len(layout)

    def position(self):
        return [n for n in [_count(row) for row in self.lit] if n], False

    def _free_row(self, need):
        for r in range(len(self.lit)):
            if not _count(self.lit[r]) and len(self.lit[r]) >= need:
                return r
        return -1

    def after_selection(self, selected):
        """Selected lamps of one row become a new heap in an empty row."""
        rows = []
        for r, i in selected:
            if not self.lit[r][i]:
                return None
            if r not in rows:
                rows.append(r)
        if len(rows) != 1 or self._free_row(len(selected)) < 0:
            return None
        heaps, _ = self.position()
        h = _count(self.lit[rows[0]])
        heaps.remove(h)
        return heaps + [h - len(selected), len(selected)]

    def lamps_for(self, after):
        heaps, _ = self.position()
        for r in range(len(self.lit)):
            h = _count(self.lit[r])
            if h < 3:
                continue
            rest = list(heaps)
            rest.remove(h)
            for a in range(1, (h + 1) // 2):
                if _same(rest + [h - a, a], after):
                    free = self._free_row(a)
                    if free < 0:  # check_fits makes this impossible
                        raise PanelError("no empty row left for the split")
                    out = [(r, i) for i in _rightmost(self.lit[r], a)]
                    return out, [(free, i) for i in range(a)]
        raise PanelError("move %s is not a split of %s" % (after, heaps))

    def apply_selection(self, selected):
        """Commit a visitor's split: the selected lamps move to a free row."""
        free = self._free_row(len(selected))
        self.apply(selected, [(free, i) for i in range(len(selected))])


class ArcPanel:
    """Grundy's game on a ring: heaps are arcs round the ring, in order from
    lamp 0, each followed by one dark lamp. A split opens a dark lamp at the
    split point, and the lamps after it move one place on round the ring.

    The visitor selects the lamps at one end of an arc (one side of the
    split), then DONE; the machine blinks the end it splits off.
    """

    unlettered = "arc"  # its parts carry no row letter: words name them "arc of 5"

    def __init__(self, layout, start):
        heaps = _grundy_start(start)
        n = layout[0]
        need = sum(heaps) + most_parts(heaps)
        if need > n:
            raise PanelError(
                "Grundy's game from %s needs %d lamps on the ring (each heap an arc and a dark gap, "
                "up to %d heaps); the ring has %d (try starts=[[%d]])"
                % (" ".join([str(h) for h in heaps]), need, most_parts(heaps), n, (n + 1) // 2))
        self.layout = list(layout)
        self.parts = list(heaps)  # ring order
        self.ring = False
        self.lit = [[False] * k for k in layout]
        self._draw()

    def _draw(self):
        row = self.lit[0]
        for i in range(len(row)):
            row[i] = False
        i = 0
        for h in self.parts:
            for j in range(h):
                row[i + j] = True
            i += h + 1

    def _arcs(self):
        """(first lamp, size) of each arc, in ring order."""
        out = []
        i = 0
        for h in self.parts:
            out.append((i, h))
            i += h + 1
        return out

    def position(self):
        return list(self.parts), False

    def last_lit(self, row):
        return None

    def _split(self, selected):
        """(arc index, lamps kept before, lamps split off after) or None."""
        idx = []
        for r, i in selected:
            if r != 0 or i >= len(self.lit[0]) or not self.lit[0][i]:
                return None
            idx.append(i)
        if not idx:
            return None
        idx.sort()
        arcs = self._arcs()
        for k in range(len(arcs)):
            first, h = arcs[k]
            if first <= idx[0] < first + h:
                if idx[-1] - idx[0] != len(idx) - 1 or idx[-1] >= first + h or len(idx) >= h:
                    return None  # not one unbroken end of this arc
                if idx[0] == first:
                    return k, len(idx), h - len(idx)
                if idx[-1] == first + h - 1:
                    return k, h - len(idx), len(idx)
                return None
        return None

    def after_selection(self, selected):
        split = self._split(selected)
        if split is None:
            return None
        k, a, b = split
        parts = list(self.parts)
        parts[k:k + 1] = [a, b]
        return parts

    def lamps_for(self, after):
        arcs = self._arcs()
        for k in range(len(arcs)):
            first, h = arcs[k]
            rest = self.parts[:k] + self.parts[k + 1:]
            for a in range(1, (h + 1) // 2):
                if _same(rest + [h - a, a], after):
                    out = [(0, i) for i in range(first + h - a, first + h)]
                    return out, []
        raise PanelError("move %s is not a split of %s" % (after, self.parts))

    def apply(self, out, light):
        split = self._split(out)
        if split is None:
            raise PanelError("lamps %s are not one end of an arc" % (out,))
        k, a, b = split
        self.parts[k:k + 1] = [a, b]
        self._draw()

    def apply_selection(self, selected):
        self.apply(selected, [])


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
                "would join lamps that are not neighbours)" % layout[0])
        return [(0, i) for i in range(n)]
    rows = len(layout)
    cols = min(layout)
    if n <= 2 and n <= cols:
        return [(0, i) for i in range(n)]
    half = n // 2 + 2  # width + height of a rectangle whose border has n lamps
    if n % 2 or n < 4:
        raise PanelError("a circle of %d cannot be drawn on the grid's neighbouring lamps: "
                         "choose an even size from 4 to %d" % (n, 2 * (rows + cols) - 4))
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
        self.apply(selected, [])

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


class CellPanel:
    """Two-dimensional Nim: the lit cells of the board are the position,
    drawn from the top-left lamp; the visitor selects neighbouring lamps of
    one row or one column, then DONE; the machine's lamps go out in place."""

    def __init__(self, rules, layout, start):
        matrix = rules.check(start)
        rows, cols = len(matrix), len(matrix[0])
        if rows > len(layout) or cols > min(layout[:rows]):
            raise PanelError("a board of %d by %d cells does not fit these lamps (%d rows of %d)"
                             % (rows, cols, len(layout), min(layout)))
        self.layout = list(layout)
        self.size = (rows, cols)
        self.lit = [[False] * n for n in layout]
        for r in range(rows):
            for c in range(cols):
                self.lit[r][c] = bool(matrix[r][c])
        self.ring = False

    def position(self):
        rows, cols = self.size
        return [[1 if self.lit[r][c] else 0 for c in range(cols)] for r in range(rows)], False

    def last_lit(self, row):
        return None

    def after_selection(self, selected):
        after, _ = self.position()
        rows, cols = self.size
        for r, c in selected:
            if r >= rows or c >= cols or not after[r][c]:
                return None
            after[r][c] = 0
        return after

    def lamps_for(self, after):
        before, _ = self.position()
        rows, cols = self.size
        return [(r, c) for r in range(rows) for c in range(cols) if before[r][c] and not after[r][c]], []

    def apply(self, out, light):
        for r, c in out:
            self.lit[r][c] = False

    def apply_selection(self, selected):
        self.apply(selected, [])
