# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Building Nim's lamps: the heaps in the top rows, the stones still to
place lit in the supply row just below them.

While the supply row has lamps lit the game is building: a press on a
heap's row (its button, or any key of the row on a grid) moves one stone
there at once, no DONE: the supply row's last lamp goes out and the heap
row's next lamp lights. When the supply row is dark the game is Nim on the
heap rows, played as on any other board. The lamps alone tell the whole
position (the heaps, and the stones still to place), so a person can always
see which half of the game is on.
"""

from .panel import HeapPanel, PanelError, _count, _rightmost, row_label as _label


class SupplyPanel(HeapPanel):
    def __init__(self, layout, start):
        heaps, stones = start[:-1], start[-1]
        if len(start) > len(layout):
            raise PanelError(
                "Building Nim on %d heaps needs %d rows (one more for the stones to place); "
                "this board has %d" % (len(heaps), len(start), len(layout))
            )
        for i in range(len(heaps)):
            if layout[i] < heaps[i] + stones:
                raise PanelError(
                    "Building Nim: heap %s may reach %d (every stone may go there), but row %s "
                    "has %d lamps" % (_label(i), heaps[i] + stones, _label(i), layout[i])
                )
        if stones > layout[len(heaps)]:
            raise PanelError(
                "Building Nim: %d stones to place, but the supply row %s has %d lamps"
                % (stones, _label(len(heaps)), layout[len(heaps)])
            )
        HeapPanel.__init__(self, layout, start)
        self.supply = len(heaps)  # the supply row

    def building(self):
        return _count(self.lit[self.supply]) > 0

    def rows_words(self):
        """What the rows that are not heaps show, for a face's legend (English;
        the faces translate it): here the supply row."""
        return [
            "Building Nim: row %s holds the stones still to place; press a heap's row to place one."
            % _label(self.supply)
        ]

    def _next_dark(self, row):
        for i in range(len(self.lit[row])):
            if not self.lit[row][i]:
                return i
        return -1

    def _refusal(self, row):
        """Why a stone cannot go on ``row``, or None."""
        supply = self.supply
        if row >= supply:
            return "the stones wait in row %s: press one of rows A-%s to place one" % (
                _label(supply),
                _label(supply - 1),
            )
        if self._next_dark(row) < 0:
            return "row %s is full" % _label(row)
        return None

    def place(self, row):
        """(lamps that go out, lamps that light, None) for a stone placed on
        ``row``, or (None, None, the reason it cannot go there)."""
        reason = self._refusal(row)
        if reason is not None:
            return None, None, reason
        supply = self.supply
        return [(supply, _rightmost(self.lit[supply], 1)[0])], [(row, self._next_dark(row))], None

    def put(self, row):
        """A visitor's stone placed on ``row`` in the lamps themselves: None,
        or why it cannot go there. No list made before the press's lamp
        (``place`` makes the machine's)."""
        reason = self._refusal(row)
        if reason is None:
            stones = self.lit[self.supply]
            i = len(stones) - 1
            while not stones[i]:
                i -= 1
            stones[i] = False
            self.lit[row][self._next_dark(row)] = True
        return reason

    def lamps_for(self, after):
        if self.building():
            heaps, _ = self.position()
            for row in range(self.supply):
                if after[row] > heaps[row]:
                    out, light, _ = self.place(row)
                    return out, light
            raise PanelError("move %s places no stone" % (after,))
        return HeapPanel.lamps_for(self, after)

    def hint_lamps(self, after):
        """A placement's hint: the stone that moves and where it lands."""
        out, light = self.lamps_for(after)
        return out + light
