# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Greedy Nim: take any number, only from a largest heap.

A module of its own, handed out by ``heaps`` (the registry's line names that module).
"""

from .nim import TakeRules


class Greedy(TakeRules):
    """Take any number >= 1, but only from a largest heap.

    Lost for the player to move exactly when the count of largest heaps is
    even (normal play).
    """

    name = "greedy"
    teach = "greedy"
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
