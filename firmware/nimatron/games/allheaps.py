# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Take from one heap, or the same from every heap (Wythoff's game with two heaps).

A module of its own, handed out by ``heaps`` (the registry's line names that module).
"""

from .nim import Nim, TakeRules


class AllHeaps(TakeRules):
    """Take from one heap, or the same k >= 1 from every heap.

    With two heaps this is Wythoff's game.
    """

    name = "allheaps"
    teach = "allheaps"
    about = "take from one heap, or the same from every heap"

    def moves(self, heaps, ring=False):
        for after in Nim.moves(self, heaps):  # type: ignore[arg-type]  # Nim's moves, on any heaps
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
