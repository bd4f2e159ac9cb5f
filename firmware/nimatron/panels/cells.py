# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Two-dimensional and Graph Nim on the lamps: the lit cells are the position (see ``panel``).

Imported only while such a game is played (``panels.make_panel``).
"""

from .panel import PanelError


class CellPanel:
    """Two-dimensional Nim: the lit cells of the board are the position,
    drawn from the top-left lamp; the visitor selects neighbouring lamps of
    one row or one column, then DONE; the machine's lamps go out in place."""

    def __init__(self, rules, layout, start):
        matrix = rules.check(start)
        rows, cols = len(matrix), len(matrix[0])
        if rows > len(layout) or cols > min(layout[:rows]):
            raise PanelError(
                "a board of %d by %d cells does not fit these lamps (%d rows of %d)"
                % (rows, cols, len(layout), min(layout))
            )
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

    def legal(self, rules, before, after):
        """``rules.is_legal`` by the lamps put out (one bitmask against each
        move's), not by making every move's matrix: a collection's worth of
        garbage on a 4 x 6 board, collected in DONE's pass (its lamp late)."""
        from ..games.grid import _mask, _segments

        mask, width = _mask(before)
        left, wide = _mask(after)
        cuts = rules.cuts(mask, width) if hasattr(rules, "cuts") else _segments(mask, width)
        return wide == width and not left & ~mask and mask ^ left in cuts

    def lamps_for(self, after):
        before, _ = self.position()
        rows, cols = self.size
        return [(r, c) for r in range(rows) for c in range(cols) if before[r][c] and not after[r][c]], []

    def apply(self, out, light):
        for r, c in out:
            self.lit[r][c] = False

    def apply_selection(self, selected):
        self.apply(selected, ())  # no list made in DONE's pass before its lamps show
