# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Rule sets whose moves split heaps: Grundy's game and circular Nim.

A position is a multiset of parts (heaps or rows) of size >= 1; order does
not matter, and a move may turn one part into two. Normal play is solved by
a nim-value table per part size (Sprague-Grundy); misère play is searched.
"""

from .rules import SMALL, Rules, RulesError, mex, nim_sum


class SplitRules(Rules):
    """Base for games of parts that split. ``values`` is the nim-value table."""

    ordered = False
    max_part = 2000  # normal play by table: parts up to this size
    search_total = 24  # misère play by search: objects in all

    def __init__(self, k=None):
        Rules.__init__(self, k)
        self.values = [0]

    def position_words(self, position, ring=False):
        """The parts: "4 3" (an empty row is no part); an unbroken circle: "a circle of 12"."""
        if ring:
            return "a circle of %d" % position[0]
        return Rules.position_words(self, [h for h in position if h])

    def check(self, position, ring=False):
        if not ring and isinstance(position, (list, tuple)) and not position:
            return []  # every part gone (circular Nim's last take): the game is over
        heaps = Rules.check(self, position, ring)
        return [h for h in heaps if h] if not ring else heaps

    def value(self, n):
        """Nim-value of one part of size n, extending the table as needed."""
        values = self.values
        while len(values) <= n:
            values.append(self.next_value(len(values)))
        return values[n]

    def next_value(self, n):
        raise NotImplementedError

    def nimber(self, heaps, ring=False):
        if heaps and max(heaps) > self.max_part:
            return None
        return nim_sum([self.value(h) for h in heaps])

    def searchable(self, heaps, ring=False):
        return sum(heaps) <= (self.search_total * 3 // 4 if SMALL else self.search_total)

    def table_spec(self, misere):
        return self.name if misere else None

    def size_error(self, heaps, misere):
        from .rules import SizeError

        if misere:
            return SizeError(
                "%s misere: at most %d objects in all, got %d" % (self.spec, self.search_total, sum(heaps))
            )
        return SizeError("%s: parts up to %d, got %d" % (self.spec, self.max_part, max(heaps)))

    def theory(self, heaps, misere, ring=False):
        if misere or max(heaps) > self.max_part:
            return None
        x = self.nimber(heaps, ring)
        if x == 0:
            return []
        wins = []
        for m in self.moves(heaps, ring):
            if self.nimber(m) == 0:
                wins.append(m)
        return wins


def _distinct_largest_first(heaps):
    seen = []
    for h in sorted(heaps, reverse=True):
        if h not in seen:
            seen.append(h)
    return seen


def _without(heaps, h):
    """The other parts once one part of size h is removed (parts >= 1)."""
    rest = [x for x in heaps if x]
    rest.remove(h)
    return rest


class Grundy(SplitRules):
    """Grundy's game: split one heap into two unequal non-empty heaps."""

    name = "grundy"
    teach = "values"
    panel = "splits"
    reasoning = "values"
    dead_below = 3

    def most_parts(self, heaps):
        return sum(max(1, h - 1) for h in heaps)  # a heap of h ends as at most a 2 and 1s

    about = "split a heap into two unequal heaps"
    last_move = "makes the last split"  # no lamp is ever taken: the one who cannot split loses
    removes = False

    def next_value(self, n):
        return mex([self.value(a) ^ self.value(n - a) for a in range(1, (n + 1) // 2)])

    def moves(self, heaps, ring=False):
        for h in _distinct_largest_first(heaps):
            rest = _without(heaps, h)
            for a in range(1, (h + 1) // 2):
                yield rest + [h - a, a]

    def key(self, heaps, ring=False):
        # Heaps of 1 and 2 can never be split again: they do not matter.
        return bytes(sorted(h for h in heaps if h >= 3))


class Lines(SplitRules):
    """Take 1 to ``most`` neighbouring objects from a row or a circle: Graph
    Nim (``graph:K``, K = most) on paths and cycles. A take from inside a
    row splits it in two; the first take breaks a circle into a row. Rows
    are the octal game 0.77...7 (K sevens; Kayles for K = 2). Graph Nim
    values its path and cycle components here; circular Nim is K = 3.
    """

    name = "lines"
    teach = "values"
    has_ring = True
    search_total = 20
    most = 3

    def check(self, position, ring=False):
        heaps = SplitRules.check(self, position, ring)
        if ring and len(position) != 1:
            raise RulesError("a ring is one circle: give exactly one size")
        return heaps

    def next_value(self, n):
        seen = []
        for t in range(1, min(self.most, n) + 1):
            for a in range((n - t) // 2 + 1):
                seen.append(self.value(a) ^ self.value(n - t - a))
        return mex(seen)

    def moves(self, heaps, ring=False):
        most = self.most
        if ring:
            n = heaps[0]
            for t in range(1, min(most, n) + 1):
                yield [n - t] if n > t else []
            return
        for h in _distinct_largest_first(heaps):
            rest = _without(heaps, h)
            for t in range(1, min(most, h) + 1):
                for a in range((h - t) // 2 + 1):
                    b = h - t - a
                    yield rest + [x for x in (b, a) if x]

    def nimber(self, heaps, ring=False):
        if ring:
            n = heaps[0]
            if n > self.max_part:
                return None
            return mex([self.value(n - t) for t in range(1, min(self.most, n) + 1)])
        return SplitRules.nimber(self, heaps)


class Circular(Lines):
    """Circular Nim: remove 1, 2 or 3 adjacent objects from a circle, which
    is exactly Graph Nim ``graph:3`` on a cycle (``Lines`` with most = 3):
    the first move breaks the circle into a row; taking from inside a row
    splits it in two (the octal game 0.777, a cousin of Kayles).
    """

    name = "circular"
    panel = "ring"
    reasoning = "values"

    def most_parts(self, heaps):
        return sum((h + 1) // 2 for h in heaps)  # a row of h ends as at most (h + 1) // 2 ones

    about = "take 1 to 3 neighbours from a circle or row"
