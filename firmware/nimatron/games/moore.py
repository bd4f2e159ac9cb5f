# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Moore's Nim (index-k Nim): take >= 1 from each of 1..k heaps.

A module of its own, handed out by ``heaps`` (the registry's line names that
module): a board playing it keeps neither the subtraction games nor Wythoff's theory.
"""

from .nim import TakeRules, bouton, largest_first
from .rules import nim_sum


class Moore(TakeRules):
    """Index-k Nim (E. H. Moore, 1910): take >= 1 from each of 1..k heaps.

    A position is lost for the player to move exactly when, in every binary
    column, the count of heaps with a 1 there is a multiple of k+1.
    """

    name = "moore"
    teach = "columns"
    reasoning = "moore"

    @property
    def nim_sum(self):  # type: ignore[override]  # a class attribute elsewhere: here it follows K
        return self.k == 1  # moore:1 is Nim

    takes_k = True
    search_states = 400
    about = "take from up to k heaps at once"

    def moves(self, heaps, ring=False):
        live = [i for i in largest_first(heaps) if heaps[i]]
        # Choose a set of 1..k live heaps, then a take >= 1 from each.
        for size in range(1, min(self.k, len(live)) + 1):
            for chosen in _combinations(live, size):
                for after in _takes(heaps, chosen, 0, list(heaps)):
                    yield after

    def is_legal(self, before, after, ring=False):
        # Not every move's list compared: that was a collection's worth of garbage in DONE's pass.
        if len(after) != len(before):
            return False
        fewer = 0
        for i in range(len(before)):
            if not 0 <= after[i] <= before[i]:
                return False
            fewer += after[i] < before[i]
        return 1 <= fewer <= self.k

    def nimber(self, heaps, ring=False):
        return nim_sum(heaps) if self.k == 1 else None

    def table_spec(self, misere):
        # With at most 4 heaps, taking from up to k >= 4 heaps is moore:4.
        return "moore:%d" % min(self.k, 4) if self.k > 1 else None

    def plays_by_theory(self, misere):
        """Normal play's moves come from Moore's theorem, whatever the heaps
        (``machine.turns.plays_by_table``): no table read but for the words."""
        return not misere

    def theory(self, heaps, misere, ring=False):
        if misere:
            return bouton(heaps, True) if self.k == 1 else None
        return moore_move(heaps, self.k)


def _combinations(items, size):
    if size == 0:
        yield []
        return
    for i in range(len(items) - size + 1):
        for rest in _combinations(items[i + 1 :], size - 1):
            yield [items[i]] + rest


def _takes(heaps, chosen, j, after):
    if j == len(chosen):
        yield list(after)
        return
    i = chosen[j]
    for t in range(1, heaps[i] + 1):
        after[i] = heaps[i] - t
        for a in _takes(heaps, chosen, j + 1, after):
            yield a
    after[i] = heaps[i]


def _bits(n):
    count = 0
    while n:
        n >>= 1
        count += 1
    return count


def moore_move(heaps, k):
    """Moore's winning move, or [] if every column count is 0 mod k+1.

    From the highest binary column down, make each column's count of ones a
    multiple of k+1. A heap already lowered in a higher column ("free") may
    take any lower bits; otherwise lower r = count mod (k+1) fresh heaps from
    1 to 0 in this column. Raising free heaps first keeps the number of
    heaps touched at most k (Moore's proof).
    """
    m = k + 1
    top = 0
    for h in heaps:
        b = _bits(h)
        if b > top:
            top = b
    n = len(heaps)
    free = [False] * n
    after = [0] * n
    for col in range(top - 1, -1, -1):
        bit = 1 << col
        ones = 0
        nfree = 0
        for i in range(n):
            if free[i]:
                nfree += 1
            elif heaps[i] & bit:
                ones += 1
        r = ones % m
        add = drop = 0
        if r and nfree >= m - r:
            add = m - r
        elif r:
            drop = r
        for i in range(n):
            if free[i]:
                if add:
                    after[i] |= bit
                    add -= 1
            elif heaps[i] & bit:
                if drop:
                    drop -= 1
                    free[i] = True
                else:
                    after[i] |= bit
    if after == list(heaps):
        return []
    return [after]
