# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Candy Nim's lamps: the heaps in the top rows, each player's candies below.

On an 8x8 grid: heaps in rows A-D, the visitor's candies lit in rows E-F
and the machine's in rows G-H (up to 16 each), so both counts are always
in sight. The controller tells the panel who moved (``moved``).
"""

from .. import const
from .panel import HeapPanel, PanelError, row_label

_TALLY_ROWS = const(2)  # rows of lamps per player's candies


class CandyPanel(HeapPanel):
    def __init__(self, layout, start):
        rows = len(layout) - 2 * _TALLY_ROWS
        if rows < 1:
            raise PanelError("Candy Nim needs a grid: %d rows of candies for each player below the heaps" % _TALLY_ROWS)
        if len(start) > rows:
            raise PanelError("Candy Nim: %d heaps but %d rows above the candy tallies" % (len(start), rows))
        room = 0
        for n in layout[rows : rows + _TALLY_ROWS]:
            room += n
        if sum(start) > room:
            raise PanelError("Candy Nim: %d candies, but a player's tally shows %d" % (sum(start), room))
        HeapPanel.__init__(self, layout[:rows], start)
        self.layout = list(layout)
        for n in layout[rows:]:
            self.lit.append([False] * n)
        self.tally = {"visitor": rows, "machine": rows + _TALLY_ROWS}
        self.candies = {"visitor": 0, "machine": 0}

    def moved(self, by, before, after):
        """Light one tally lamp for each candy ``by`` just took."""
        got = sum(before) - sum(after)
        first = self.tally[by]
        count = self.candies[by]
        for _ in range(got):
            r = first
            i = count
            while i >= len(self.lit[r]):
                i -= len(self.lit[r])
                r += 1
            self.lit[r][i] = True
            count += 1
        self.candies[by] = count

    def rows_words(self):
        """What the rows that are not heaps show, for a face's legend (English;
        the faces translate it): here each player's candies."""
        v, m = self.tally["visitor"], self.tally["machine"]
        return [
            "Candies: rows %s-%s yours, %s-%s the machine's."
            % (row_label(v), row_label(v + _TALLY_ROWS - 1), row_label(m), row_label(m + _TALLY_ROWS - 1))
        ]
