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

from .budget import spend
from .nim import Nim, bouton
from .rules import SMALL, SizeError, states

_MEMOS = ({}, {})  # type: tuple[dict, dict]  # normal, misère: position key -> candies the mover takes (kept across games)


class Candy(Nim):
    name = "candy"
    panel = "tally"       # each player's candies on the rows below the heaps
    one_row = False       # the candies are counted on lamps a row button cannot reach
    countable = False
    nim_sum = False       # the candies decide a tie: the nim-sum is not the whole story
    about = "take any number from one heap (then most candies)"
    search_states = 20000  # sorted positions below the start; 4 heaps of 7 are 330


    def searchable(self, heaps, ring=False):
        limit = 400 if SMALL else self.search_states
        return max(heaps) <= 250 and states(heaps) <= limit

    def size_error(self, heaps, misere):
        return SizeError("candy: position too large to count candies (%d heaps, largest %d)"
                         % (len(heaps), max(heaps)))

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
        memo = _MEMOS[1 if misere else 0]
        key = _key(heaps)
        got = memo.get(key)
        if got is None:
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


def forget():
    """Drop the positions learnt (``strategy.forget``)."""
    _MEMOS[0].clear()
    _MEMOS[1].clear()
