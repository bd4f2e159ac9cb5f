# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Grundy's game on the lamps: split rows on a grid, arcs on a ring (see ``panel``).

Imported only while Grundy's game is played (``panels.make_panel``); circular
Nim's panel is ``circle``, two-dimensional and Graph Nim's ``cells``, each a
module of its own so that a board keeps only the panel it shows.
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
                % (" ".join([str(h) for h in heaps]), parts, len(layout), min(len(layout) + 1, *layout))
            )
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
        lit = self.lit
        for r, i in selected:  # as apply(selected, the new row's lamps), with no list made before they show
            lit[r][i] = False
        for i in range(len(selected)):
            lit[free][i] = True


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
                % (" ".join([str(h) for h in heaps]), need, most_parts(heaps), n, (n + 1) // 2)
            )
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
        parts[k : k + 1] = [a, b]
        return parts

    def lamps_for(self, after):
        arcs = self._arcs()
        for k in range(len(arcs)):
            first, h = arcs[k]
            rest = self.parts[:k] + self.parts[k + 1 :]
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
        self.parts[k : k + 1] = [a, b]
        self._draw()

    def apply_selection(self, selected):
        self.apply(selected, ())  # no list made in DONE's pass before its lamps show
