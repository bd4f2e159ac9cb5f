# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The heap-taking variants of Nim that keep heap order.

Each knows its theory where one exists (Bouton, Moore, Greedy Nim's parity,
Wythoff); the strategy searches where none does.
"""

from .nim import Nim, TakeRules, bouton, largest_first
from .rules import nim_sum

class Subtract(TakeRules):
    """Take 1..k from one heap. Heaps count modulo k+1 (Sprague-Grundy)."""

    name = "subtract"
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


class Moore(TakeRules):
    """Index-k Nim (E. H. Moore, 1910): take >= 1 from each of 1..k heaps.

    A position is lost for the player to move exactly when, in every binary
    column, the count of heaps with a 1 there is a multiple of k+1.
    """

    name = "moore"
    reasoning = "moore"

    @property
    def nim_sum(self):
        return self.k == 1   # moore:1 is Nim
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

    def nimber(self, heaps, ring=False):
        return nim_sum(heaps) if self.k == 1 else None

    def table_spec(self, misere):
        # With at most 4 heaps, taking from up to k >= 4 heaps is moore:4.
        return "moore:%d" % min(self.k, 4) if self.k > 1 else None

    def theory(self, heaps, misere, ring=False):
        if misere:
            return bouton(heaps, True) if self.k == 1 else None
        return moore_move(heaps, self.k)


def _combinations(items, size):
    if size == 0:
        yield []
        return
    for i in range(len(items) - size + 1):
        for rest in _combinations(items[i + 1:], size - 1):
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


class Greedy(TakeRules):
    """Take any number >= 1, but only from a largest heap.

    Lost for the player to move exactly when the count of largest heaps is
    even (normal play).
    """

    name = "greedy"
    one_row = True
    countable = True
    about = "take any number, only from a largest heap"

    def moves(self, heaps, ring=False):
        top = max(heaps)
        if top == 0:
            return
        for i in range(len(heaps)):
            if heaps[i] == top:
                for t in range(1, top + 1):
                    after = list(heaps)
                    after[i] -= t
                    yield after

    def table_spec(self, misere):
        return "greedy"

    def theory(self, heaps, misere, ring=False):
        if misere:
            return None
        top = max(heaps)
        largest = [i for i in range(len(heaps)) if heaps[i] == top]
        if top == 0 or len(largest) % 2 == 0:
            return []
        after = list(heaps)
        if len(largest) > 1:
            after[largest[0]] = 0
            return [after]
        second = 0
        for h in heaps:
            if second < h < top:
                second = h
        count2 = 0
        for h in heaps:
            if h == second and h:
                count2 += 1
        after[largest[0]] = second if count2 % 2 == 1 else 0
        return [after]


class AllHeaps(TakeRules):
    """Take from one heap, or the same k >= 1 from every heap.

    With two heaps this is Wythoff's game.
    """

    name = "allheaps"
    about = "take from one heap, or the same from every heap"

    def moves(self, heaps, ring=False):
        for after in Nim.moves(self, heaps):
            yield after
        if len(heaps) > 1:
            for t in range(1, min(heaps) + 1):
                yield [h - t for h in heaps]

    def key(self, heaps, ring=False):
        return bytes(sorted(heaps))  # an empty heap forbids the all-heaps move

    def table_spec(self, misere):
        return "allheaps"

    def theory(self, heaps, misere, ring=False):
        if misere or len(heaps) != 2:
            return None
        a, b = heaps
        small, big = (a, b) if a <= b else (b, a)
        if big > 10000:
            return None
        partner = wythoff_partner(small)
        if partner == big:
            return []
        wins = []
        for m in self.moves(heaps):
            lo, hi = (m[0], m[1]) if m[0] <= m[1] else (m[1], m[0])
            if wythoff_partner(lo) == hi:
                wins.append(m)
        return wins


_partner = [0]  # _partner[x]: the y making (x, y) a Wythoff P-position
_next_k = [1]


def wythoff_partner(n):
    """The heap that makes (n, partner) a Wythoff P-position.

    Built by the mex construction (a_k is the least number in no earlier
    pair, b_k = a_k + k), which needs no floating point.
    """
    p = _partner
    while n >= len(p) or p[n] < 0:
        k = _next_k[0]
        a = 1
        while a < len(p) and p[a] >= 0:
            a += 1
        b = a + k
        while len(p) <= b:
            p.append(-1)
        p[a] = b
        p[b] = a
        _next_k[0] = k + 1
    return p[n]


