"""The lamps as the game sees them: which are lit, and what a move looks like.

The engine thinks in heap sizes; the visitor sees lamps. A panel keeps the
truth of which lamps are lit and translates both ways: lamps -> position,
a visitor's selection -> a move, the machine's chosen position -> the lamps
that go out (and, in Grundy's game, the lamps that light in a new row).

- ``HeapPanel``: heap i is row i, lit from the left (Nim and its cousins).
- ``shapes.SplitPanel``: each part of Grundy's game is a row; a split moves
  lamps to the first empty row.
- ``shapes.RingPanel``: circular Nim on row 0 (a NeoPixel ring): objects
  stay in place, neighbours are lamps side by side, wrapping round.
"""


class PanelError(ValueError):
    """A game that does not fit the board's lamps."""


class HeapPanel:
    """Heap i is row i; its lit lamps are the first ``heap`` of the row."""

    def __init__(self, layout, start):
        if len(start) > len(layout):
            raise PanelError("%d heaps but only %d rows of lamps" % (len(start), len(layout)))
        for i in range(len(start)):
            if start[i] > layout[i]:
                raise PanelError("heap %d of %d does not fit row %d of %d lamps" % (i, start[i], i, layout[i]))
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
        lamps = self.lit[row]
        for i in range(len(lamps) - 1, -1, -1):
            if lamps[i]:
                return (row, i)
        return None

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
        """(lamps that go out, lamps that light) for the machine's move."""
        heaps, _ = self.position()
        out = []
        for r in range(self.heaps):
            for i in range(after[r], heaps[r]):
                out.append((r, i))
        return out, []

    def settle(self):
        """Re-pack each row from the left after a move (heaps keep size)."""
        for row in self.lit:
            n = _count(row)
            for i in range(len(row)):
                row[i] = i < n

    def apply(self, out, light):
        for r, i in out:
            self.lit[r][i] = False
        for r, i in light:
            self.lit[r][i] = True
        self.settle()

    def apply_selection(self, selected):
        self.apply(selected, [])


def _count(lamps):
    n = 0
    for on in lamps:
        if on:
            n += 1
    return n


def _same(a, b):
    return sorted([x for x in a if x]) == sorted([x for x in b if x])


def make_panel(rules, layout, start):
    """The panel for a rule set: ring, split or heap rows."""
    if rules.name == "circular":
        from .shapes import RingPanel

        return RingPanel(layout, start)
    if rules.name == "grundy":
        from .shapes import SplitPanel

        return SplitPanel(layout, start)
    return HeapPanel(layout, start)
