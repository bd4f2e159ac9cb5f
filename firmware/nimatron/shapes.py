"""Panels for games whose moves reshape the rows (see ``panel``).

Imported only by boards that play Grundy's game or circular Nim.
"""

from .panel import HeapPanel, PanelError, _count, _same


class SplitPanel(HeapPanel):
    """Grundy's game: a split keeps part of a row and moves the rest down."""

    def __init__(self, layout, start):
        HeapPanel.__init__(self, layout, start)
        self.heaps = len(layout)

    def position(self):
        return [n for n in [_count(row) for row in self.lit] if n], False

    def _free_row(self, need):
        for r in range(len(self.lit)):
            if not _count(self.lit[r]) and len(self.lit[r]) >= need:
                return r
        return -1

    def after_selection(self, selected):
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
                    if free < 0:
                        raise PanelError("no empty row left for the split")
                    out = [(r, i) for i in range(h - a, h)]
                    return out, [(free, i) for i in range(a)]
        raise PanelError("move %s is not a split of %s" % (after, heaps))

    def apply_selection(self, selected):
        """Commit a visitor's split: the selected lamps move to a free row."""
        free = self._free_row(len(selected))
        self.apply(selected, [(free, i) for i in range(len(selected))])


class RingPanel:
    """Circular Nim: the first n lamps of row 0 form the circle."""

    def __init__(self, layout, start):
        n = start[0] if start else 0
        if len(start) != 1 or n > layout[0] or n < 1:
            raise PanelError("circular Nim needs one circle of at most %d lamps" % layout[0])
        self.layout = list(layout)
        self.n = n
        self.lit = [[j < n if r == 0 else False for j in range(layout[r])] for r in range(len(layout))]
        self.ring = True  # unbroken until the first move

    def position(self):
        if self.ring:
            return [self.n], True
        return [len(run) for run in self._runs(self.lit[0][: self.n])], False

    def _runs(self, lamps):
        return lit_runs(lamps)

    def after_selection(self, selected):
        row = self.lit[0]
        idx = []
        for r, i in selected:
            if r != 0 or i >= self.n or not row[i]:
                return None
            idx.append(i)
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
        for run in self._runs(row[: self.n]):
            if idx[0] in run:
                pos = sorted([run.index(i) for i in idx if i in run])
                if len(pos) != len(idx) or pos[-1] - pos[0] != len(pos) - 1:
                    return None
        lamps = list(row[: self.n])
        for i in idx:
            lamps[i] = False
        return [len(run) for run in self._runs(lamps)]

    def lamps_for(self, after):
        if self.ring:
            t = self.n - sum(after)
            return [(0, i) for i in range(t)], []
        row = self.lit[0][: self.n]
        for run in self._runs(row):
            for t in (1, 2, 3):
                for s in range(len(run) - t + 1):
                    take = run[s : s + t]
                    lamps = list(row)
                    for i in take:
                        lamps[i] = False
                    if _same([len(x) for x in self._runs(lamps)], after):
                        return [(0, i) for i in take], []
        raise PanelError("move %s cannot be made on the ring" % (after,))

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
