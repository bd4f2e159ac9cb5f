# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A one-heap game shown as a binary counter: the count said so far, not a
lamp per object (the game of 21 on the Circuit Playground's ring of 10).

The rules stay the heap's (21 is ``subtract:3`` misère from a heap of 21);
only the lamps differ. The count is the start minus the heap. The board's
lamps, taken in order (row by row, each row from its first lamp), are:

- the count's bits, most significant first: as many lamps as the start
  has binary digits (21 = 10101: five; on the ring pixel 0, next to the
  USB socket, is 16, and pixels 1-4 down the left side are 8, 4, 2, 1);
- then one *choice* lamp per object a move may take (``subtract:3``:
  three, pixels 5-7 from the bottom of the right side up): lit while that
  many may still be taken; the visitor selects as many as they add this
  turn (the selected ones blink), the machine's choice blinks the same way
  from the first one on;
- the rest stay dark.

Only the choice lamps can be selected (``selectable``; a cursor steps over
them alone). Imported only when a preset sets ``counter``.
"""

from .panel import PanelError


def digits(n):
    """Binary digits of ``n`` (at least one; no int.bit_length on MicroPython)."""
    d = 1
    while n >> d:
        d += 1
    return d


def most_taken(rules, heap):
    """The most one move takes from ``heap`` (0 if none): for these rules
    it never grows as the heap shrinks, so the start's figure covers the game."""
    most = 0
    for after in rules.moves([heap]):
        if heap - after[0] > most:
            most = heap - after[0]
    return most


def lamps_in_order(layout):
    return [(r, i) for r in range(len(layout)) for i in range(layout[r])]


class CounterPanel:
    """The count in binary, then the lamps that choose how many to add."""

    def __init__(self, rules, layout, start):
        if not rules.countable:
            raise PanelError("a counter shows one heap of nim, subtract:K or greedy, not %s" % rules.spec)
        if len(start) != 1:
            raise PanelError("a counter shows a game of one heap, not %d" % len(start))
        total = start[0]
        take = most_taken(rules, total)
        bits = digits(total)
        cells = lamps_in_order(layout)
        if bits + take > len(cells):
            raise PanelError(
                "a counter to %d needs %d lamps (%d for the count in binary, %d to choose how "
                "many); this board has %d" % (total, bits + take, bits, take, len(cells))
            )
        self.layout = list(layout)
        self.rules = rules
        self.total = total
        self.count = 0
        self.heaps = 1
        self.ring = False
        self.bit_lamps = cells[:bits]  # most significant first
        self.choice_lamps = cells[bits : bits + take]
        self.lit = [[False] * n for n in layout]
        self._most = [most_taken(rules, h) for h in range(total + 1)]  # by what is left: no moves made in DONE's pass
        self._show()

    def _show(self):
        bits = self.bit_lamps
        for k in range(len(bits)):
            r, i = bits[k]
            self.lit[r][i] = bool(self.count >> (len(bits) - 1 - k) & 1)
        can = self._most[self.total - self.count]
        for k in range(len(self.choice_lamps)):
            r, i = self.choice_lamps[k]
            self.lit[r][i] = k < can

    def position(self):
        return [self.total - self.count], False

    def selectable(self):
        """The lamps a visitor may select: the lit choice lamps."""
        return [lamp for lamp in self.choice_lamps if self.lit[lamp[0]][lamp[1]]]

    def last_lit(self, row):
        return None  # no row buttons: a counter needs keys or a cursor

    def after_selection(self, selected):
        pick = self.selectable()
        for lamp in selected:
            if lamp not in pick:
                return None
        return [self.total - self.count - len(selected)]

    def lamps_for(self, after):
        """The machine's choice: the first choice lamps, one per object it adds."""
        return self.choice_lamps[: self.total - self.count - after[0]], []

    def apply(self, out, light):
        for lamp in out:
            if lamp in self.choice_lamps:
                self.count += 1
        self._show()

    def apply_selection(self, selected):
        self.apply(selected, ())  # no list made in DONE's pass before its lamps show
