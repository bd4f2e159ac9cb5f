# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Candy Nim (Rubinstein-Salzedo, "P Play in Candy Nim", 2018).

Nim in which each player wants, first, to take the last candy and, second,
to end the game with as many candies as possible. Who wins is Bouton's
nim-sum (or his misère rule); among the moves that keep the win (or, in a
lost position, among all moves) the machine takes the one that leaves it
the most candies at the end when both play this way. Candies already taken
do not change the best move, so a position is just the heaps; the candies
still to come are found by exhaustive memoised search.
"""

from array import array

from .budget import spend
from .nim import Nim, bouton
from .rules import SMALL, SizeError, states

# What the search has learnt, kept across games: a table of fixed size,
# taken whole at the first search, that never grows. A dict grew by
# doubling and asked a heap fragmented by the rule sets before it for one
# block as large as all its entries (the 64 KB sweep: MemoryError with 19 KB
# free); this one is cleared in place when three quarters full.
_SLOTS = 512 if SMALL else 65536  # a power of two
_KEYS = [None, 0]  # type: list  # [array of position keys (2 * key + misère; 0 empty), entries used]
_GOT = [None]  # type: list  # [array of the candies the mover takes, by slot]
_MEMOS = ({}, {})  # type: tuple[dict, dict]  # normal, misère: positions of heaps too large for a small key


class Candy(Nim):
    name = "candy"
    panel = "tally"  # each player's candies on the rows below the heaps
    one_row = False  # the candies are counted on lamps a row button cannot reach
    countable = False
    nim_sum = False  # the candies decide a tie: the nim-sum is not the whole story
    about = "take any number from one heap (then most candies)"
    search_states = 20000  # sorted positions below the start; 4 heaps of 7 are 330

    def searchable(self, heaps, ring=False):
        limit = 400 if SMALL else self.search_states
        return max(heaps) <= 250 and states(heaps) <= limit

    def size_error(self, heaps, misere):
        return SizeError("candy: position too large to count candies (%d heaps, largest %d)" % (len(heaps), max(heaps)))

    def _best(self, heaps, misere):
        """(move, candies): the mover's best move and the candies it takes
        from now to the end, under best play by both."""
        wins = bouton(heaps, misere)
        choices = wins if wins else self.moves(heaps)
        best, most = None, -1
        rest = sum(heaps)
        for after in choices:
            got = rest - self.candies(after, misere)  # the rest is zero-sum
            if got > most:
                best, most = after, got
        return best, most

    def candies(self, heaps, misere=False):
        """The most candies the player to move can be sure to take from now on."""
        if not sum(heaps):
            return 0
        key = _key(heaps)
        if isinstance(key, int):
            key = key * 2 + (1 if misere else 0)
            at = _slot(key)
            if _KEYS[0][at] == key:
                return _GOT[0][at]
            got = self._best(heaps, misere)[1]
            if _KEYS[1] >= _SLOTS * 3 // 4:
                forget()
            at = _slot(key)  # the search below may have filled or cleared the table
            _KEYS[0][at] = key
            _GOT[0][at] = got
            _KEYS[1] += 1
        else:
            memo = _MEMOS[1 if misere else 0]
            got = memo.get(key)
            if got is not None:
                return got
            if len(memo) > (500 if SMALL else 50000):
                memo.clear()
            got = self._best(heaps, misere)[1]
            memo[key] = got
        # A tick's share of the search (``budget``), charged once the new
        # position is known and kept: every tick gets somewhere.
        spend(4 * len(heaps))
        return got

    def _search(self, heaps, misere):
        try:
            return self._best(heaps, misere)
        except MemoryError:
            # A small board's heap, fragmented: collect and go on from
            # what the memo has already learned (it makes the search shallower).
            import gc

            gc.collect()
            return self._best(heaps, misere)

    def theory(self, heaps, misere, ring=False):
        if not self.searchable(heaps):
            return None
        if not bouton(heaps, misere):
            return []
        return [self._search(heaps, misere)[0]]

    def losing_move(self, heaps, misere, ring=False):
        if not self.searchable(heaps):
            return self.gentle(heaps, ring)
        return self._search(heaps, misere)[0]

    def notes(self, heaps, misere):
        if not self.searchable(heaps) or not sum(heaps):
            return []
        return ["the player to move can take %d of the %d candies left" % (self.candies(heaps, misere), sum(heaps))]


def _key(heaps):
    """A memo key for the heaps in any order: a small int where the heaps
    allow (a board's heap stays unfragmented), else bytes."""
    parts = sorted([h for h in heaps if h])
    if len(parts) > 7 or parts[-1] > 15:
        return bytes(parts)
    key = 0
    for h in parts:
        key = key * 16 + h
    return key


def _slot(key):
    """The table's slot holding ``key``, or the empty one where it goes
    (taking the table at the first search)."""
    keys = _KEYS[0]
    if keys is None:
        keys = _KEYS[0] = array("I", bytes(4 * _SLOTS))
        _GOT[0] = array("H", bytes(2 * _SLOTS))
    at = (key ^ (key >> 9) ^ (key >> 18)) & (_SLOTS - 1)
    while True:
        found = keys[at]
        if found == key or not found:
            return at
        at = (at + 1) & (_SLOTS - 1)


def forget():
    """Drop the positions learnt (``strategy.forget``): the table is
    emptied in place, the heap's block kept."""
    keys = _KEYS[0]
    if keys is not None:
        for at in range(_SLOTS):
            keys[at] = 0
    _KEYS[1] = 0
    _MEMOS[0].clear()
    _MEMOS[1].clear()
