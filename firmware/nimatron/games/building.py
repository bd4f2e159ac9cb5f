# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Building Nim BN(n, s) (Duchêne, Dufour, Heubach, Larsson 2015).

n stones and s empty heaps. Building: the players take turns placing
exactly one stone on a heap of their choice until every stone is placed.
Then Nim, started by the player who would move next. A position is the
heaps followed by the stones still to place: ``[0, 0, 0, 12]`` is BN(12, 3)
before the first move, ``[5, 4, 3, 0]`` is Nim on 5-4-3. On the lamps the
stones to place are a supply row just below the heaps.

The Nim half is Bouton's (normal and misère). The building half is
searched whole, memoised on the sorted heaps and the stones left: BN(12, 3)
has 91 building positions, BN(8, 7) 165. The paper's two easy results (n
odd: the player who starts Nim wins; n and s both even: the second builder
wins by copying) hold in the search (tests/test_building.py); its general
conjecture is not used.
"""

from .. import const
from .budget import spend
from .nim import Nim, bouton
from .rules import SMALL, Rules, RulesError, SizeError, mex, nim_sum

_MAX_STONES = const(250)  # a memo key holds a heap in a byte
_MEMOS = ({}, {})  # type: tuple[dict, dict]  # normal: key -> nim-value; misère: key -> 1 won / 0 lost


_NIM = Nim()


def split(position):
    """(heaps, stones still to place)."""
    return position[:-1], position[-1]


class Building(Rules):
    name = "building"
    panel = "supply"
    one_row = True
    reasoning = "building"
    about = "place one stone on any heap until all are placed; then take any number from one heap"
    search_states = 20000  # building positions (a PC); a board takes a tenth

    def starts_for(self, layout):
        # BN(n, s): every row but the last an empty heap, the last row's n stones to place
        return [[0] * (len(layout) - 1) + [n] for n in range(layout[-1], 0, -1)] if len(layout) > 1 else []

    def check(self, position, ring=False):
        if not isinstance(position, (list, tuple)) or len(position) < 2:
            raise RulesError(
                "building: the position is the heaps, then the stones still to place "
                "(BN(12, 3) starts as [0, 0, 0, 12])"
            )
        return Rules.check(self, position, ring)

    def moves(self, position, ring=False):
        heaps, stones = split(position)
        if stones:
            for i in range(len(heaps)):
                after = list(position)
                after[i] += 1
                after[-1] = stones - 1
                yield after
            return
        for after in Nim.moves(_NIM, list(heaps)):
            yield after + [0]

    def has_move(self, position, ring=False):
        for h in position:
            if h:
                return True
        return False

    def key(self, position, ring=False):
        heaps, stones = split(position)
        return bytes(sorted(heaps) + [stones])

    def gentle(self, position, ring=False):
        heaps, stones = split(position)
        if stones:  # every placement keeps the same stones: the first heap
            return next(self.moves(position))
        i = heaps.index(max(heaps))
        after = list(position)
        after[i] -= 1
        return after

    def losing_move(self, position, misere, ring=False):
        """A lost building position: the placement that leaves the other
        player the fewest winning replies (the most ways to go wrong); ties
        go round the heaps with the stones left, so the machine does not
        always build on heap A. The Nim half: ``gentle``."""
        heaps, stones = split(position)
        if not stones or not self.searchable(position):
            return self.gentle(position)
        best = None
        fewest = -1
        for j in range(len(heaps)):
            i = (stones + j) % len(heaps)
            after = list(position)
            after[i] += 1
            after[-1] = stones - 1
            wins = 0
            for reply in self.moves(after):
                h, r = split(reply)
                if not _value(sorted(h), r, misere):
                    wins += 1
            if best is None or wins < fewest:
                best, fewest = after, wins
        return best

    def searchable(self, position, ring=False):
        heaps, stones = split(position)
        if not stones:
            return True  # Bouton
        total = sum(heaps) + stones
        limit = self.search_states // 10 if SMALL else self.search_states
        return total <= _MAX_STONES and building_positions(total, len(heaps)) <= limit

    def size_error(self, position, misere):
        heaps, stones = split(position)
        return SizeError(
            "building%s: too many stones to search (%d stones on %d heaps)"
            % (" misere" if misere else "", sum(heaps) + stones, len(heaps))
        )

    def nimber(self, position, ring=False):
        heaps, stones = split(position)
        if not stones:
            return nim_sum(heaps)
        if not self.searchable(position):
            return None
        return _value(sorted(heaps), stones, False)

    def theory(self, position, misere, ring=False):
        heaps, stones = split(position)
        if not stones:
            return [after + [0] for after in bouton(list(heaps), misere)]
        if not self.searchable(position):
            return None
        if not _value(sorted(heaps), stones, misere):
            return []
        wins = []
        for after in self.moves(position):
            h, r = split(after)
            if not _value(sorted(h), r, misere):
                wins.append(after)
        return wins

    def with_stones(self, heaps, stones):
        """The position from its heaps and the stones still to place (0: the
        building is over, plain Nim), as a program or ``solve --stones`` gives them."""
        if isinstance(stones, bool) or not isinstance(stones, int) or stones < 0:
            raise RulesError("stones must be a whole number >= 0, got %r" % (stones,))
        if not isinstance(heaps, list) or not heaps:
            raise RulesError("building: the position is a list of heap sizes")
        return list(heaps) + [stones]

    def position_words(self, position, ring=False):
        heaps, stones = split(position)
        if not stones:
            return "heaps %s, every stone placed" % Rules.position_words(self, heaps)
        return "heaps %s, %d stone%s still to place" % (
            Rules.position_words(self, heaps),
            stones,
            "" if stones == 1 else "s",
        )

    def notes(self, position, misere):
        heaps, stones = split(position)
        if not stones:
            return ["all stones placed: Nim"]
        return [
            "building: %d stone%s still to place, then Nim starts with the player "
            "who would move next" % (stones, "" if stones == 1 else "s")
        ]


def _value(heaps, stones, misere):
    """Normal play: the nim-value. Misère: 1 if the player to move wins.
    ``heaps`` sorted; the memo keeps every building position (few)."""
    if not stones:
        if misere:
            return 1 if not sum(heaps) or bouton(heaps, True) else 0
        return nim_sum(heaps)
    memo = _MEMOS[1 if misere else 0]
    key = _key(heaps, stones)
    got = memo.get(key)
    if got is not None:
        return got
    seen = []
    last = -1
    for i in range(len(heaps)):
        if heaps[i] == last:
            continue  # the same heap size again: the same move
        last = heaps[i]
        after = list(heaps)
        after[i] += 1
        after.sort()
        v = _value(after, stones - 1, misere)
        if v not in seen:
            seen.append(v)
    got = (1 if 0 in seen else 0) if misere else mex(seen)
    if len(memo) > (2000 if SMALL else 200000):
        memo.clear()
    memo[key] = got
    # A tick's share of the search (``budget``), charged once the new position
    # is known and kept, as the other searches do: 3 units a move (it was
    # the one search outside the budget, hidden while the games' check ran it whole).
    spend(3 * len(heaps) + 1)
    return got


def _key(heaps, stones):
    """A memo key: a small int where it fits (stones, then each heap in
    unary), so a board's heap is not strewn with key objects; else bytes."""
    bits = 9 + len(heaps)
    for h in heaps:
        bits += h
    if bits > 29:
        return bytes(heaps + [stones])
    key = 256 | stones
    for h in heaps:
        key = ((key << h) | ((1 << h) - 1)) << 1
    return key


def building_positions(n, s):
    """How many building positions BN(n, s) has: sorted heaps of s parts
    with a sum of at most n (the size of the search)."""
    ways = [1] + [0] * n  # partitions of t into parts of at most s (= at most s parts)
    for part in range(1, s + 1):
        for t in range(part, n + 1):
            ways[t] += ways[t - part]
    total = 0
    for t in ways:
        total += t
    return total
