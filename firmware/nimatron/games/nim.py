# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Nim itself, and the base of every game that takes from heaps.

Kept in a module of its own so a board that only plays Nim loads only this
(the whole engine for Nim fits the smallest heap).
"""

from .rules import Rules, nim_sum


class TakeRules(Rules):
    """Games where a move takes objects from heaps (order kept)."""

    def gentle(self, heaps, ring=False):
        # Smallest take from the largest heap: always legal in these games.
        i = heaps.index(max(heaps))
        after = list(heaps)
        after[i] -= 1
        return after


class Nim(TakeRules):
    """Take any number >= 1 from one heap. Bouton, 1901."""

    name = "nim"
    teach = "nim"
    one_row = True
    countable = True
    nim_sum = True
    reasoning = "nim"
    about = "take any number from one heap"

    def moves(self, heaps, ring=False):
        for i in largest_first(heaps):
            for t in range(1, heaps[i] + 1):
                after = list(heaps)
                after[i] -= t
                yield after

    def nimber(self, heaps, ring=False):
        return nim_sum(heaps)

    def theory(self, heaps, misere, ring=False):
        return bouton(heaps, misere)


def bouton(heaps, misere):
    """Bouton's winning moves for Nim, with his misère endgame rule.

    Normal play: move to nim-sum 0. Misère play: the same, except when the
    move would leave only heaps of size 1: then leave an odd number of them.
    """
    big = 0
    for h in heaps:
        if h > 1:
            big += 1
    if misere and big <= 1:
        ones = 0
        for h in heaps:
            if h == 1:
                ones += 1
        if big == 0:
            # Only ones: the player to move wins if their count is even.
            if ones % 2 == 1:
                return []
            i = heaps.index(1)
            after = list(heaps)
            after[i] = 0
            return [after]
        # One big heap: cut it to 0 or 1 so an odd number of ones remain.
        i = _index_of_big(heaps)
        after = list(heaps)
        after[i] = 1 if ones % 2 == 0 else 0
        return [after]
    x = nim_sum(heaps)
    if x == 0:
        return []
    wins = []
    for i in range(len(heaps)):
        target = heaps[i] ^ x
        if target < heaps[i]:
            after = list(heaps)
            after[i] = target
            wins.append(after)
    return wins


def _index_of_big(heaps):
    for i in range(len(heaps)):
        if heaps[i] > 1:
            return i
    return -1


def largest_first(heaps):
    """Heap indexes, largest heap first, ties by index: generation order.

    The index is part of the key because MicroPython's sort is not stable:
    the board and the PC must choose the same move.
    """
    n = len(heaps)
    order = list(range(n))
    order.sort(key=lambda i: i - heaps[i] * n)
    return order
