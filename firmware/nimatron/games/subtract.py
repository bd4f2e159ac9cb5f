# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Subtraction games: take 1..k from one heap (Sprague-Grundy: heaps count modulo k+1).

A module of its own, handed out by ``heaps`` (the registry's line names that
module): a board playing it keeps neither Moore's nor Wythoff's theory.
"""

from .nim import TakeRules, bouton, largest_first
from .rules import nim_sum


class Subtract(TakeRules):
    """Take 1..k from one heap. Heaps count modulo k+1 (Sprague-Grundy)."""

    name = "subtract"
    teach = "subtract"
    one_row = True
    countable = True
    reasoning = "values"
    takes_k = True
    about = "take 1 to k from one heap"

    def moves(self, heaps, ring=False):
        for i in largest_first(heaps):
            for t in range(1, min(self.k, heaps[i]) + 1):
                after = list(heaps)
                after[i] -= t
                yield after

    def nimber(self, heaps, ring=False):
        m = self.k + 1
        return nim_sum([h % m for h in heaps])

    def table_spec(self, misere):
        return "subtract:%d" % self.k if misere and self.k < 7 else None

    def working(self, heaps, misere):
        """Normal play: the heaps modulo k+1 and their nim-sum, in binary (``solve``, ``demo``, ``monitor``)."""
        if misere:
            return []
        from .explain import nim_sum_lines

        m = self.k + 1
        return ["  heaps modulo %d, then their nim-sum:" % m] + nim_sum_lines([h % m for h in heaps])

    def theory(self, heaps, misere, ring=False):
        m = self.k + 1
        live = [i for i in range(len(heaps)) if heaps[i]]
        if max(heaps) <= self.k:
            return bouton(heaps, misere)  # no heap feels the limit: plain Nim
        if misere:
            if len(live) != 1:
                return None  # searched: no simple misère rule for many heaps
            # One heap: the player to move loses iff n = 1 (mod k+1).
            i = live[0]
            t = (heaps[i] - 1) % m
            if t == 0:
                return []
            after = list(heaps)
            after[i] -= t
            return [after]
        x = self.nimber(heaps)
        if x == 0:
            return []
        wins = []
        for i in live:
            r = heaps[i] % m
            target = r ^ x
            if target < r:
                after = list(heaps)
                after[i] -= r - target
                wins.append(after)
        return wins
