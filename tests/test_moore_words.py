# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Moore's Nim plays by its theorem; its table only gives the words' nim-value (issue 27).

On a stock MacroPad the table (``games.tables``, 2.2 KB, and the table read
from flash, 0.7 KB) stayed resident through every game of pad-moore, for
the nim-value of the words alone: 38.4 KB of heap free at least, against
the issue's 40. Now the machine's own search leaves the nim-value out
(``turns.bare_solve``) and the words read it (``Controller.explain``)
when they are made: the same words, the table loaded only for them.
tests/test_resident.py holds ``games.tables`` out of every moment of a
pad-moore game on the MacroPad under MicroPython."""

import itertools

from nimatron.games import strategy
from nimatron.games.rules import parse_rules
from nimatron.machine.turns import bare_solve, plays_by_table
from nimatron_sim.engine import Simulator


def test_the_machines_search_and_the_words_agree_on_every_small_position():
    for spec in ("moore:2", "moore:3"):
        rules = parse_rules(spec)
        assert not plays_by_table(rules, False)
        assert plays_by_table(rules, True)  # misère: its moves read the table
        for heaps in itertools.product(range(5), repeat=3):
            whole = strategy.solve(rules, list(heaps))
            bare = bare_solve(rules, list(heaps), False, False)
            if whole["outcome"] == "win":
                assert bare["nimber"] is None  # only the table knew it: no table read
            assert bare["after"] == whole["after"] and bare["outcome"] == whole["outcome"]
            if any(heaps):
                assert strategy._tables().value(rules, list(heaps), False) == whole["nimber"], heaps


def test_the_machines_moves_in_moore_say_their_column_rule():
    """The words teach Moore's rule (the column counts, issue 44), so no table is read for them."""
    with Simulator("macropad", {"preset": "pad-moore", "explain": True, "first": "machine"}) as sim:
        moves = []
        sim.listeners.append(
            lambda e: moves.append(e) if e.get("event") == "move" and e.get("by") == "machine" else None
        )
        sim.controller.new_game(sim.now)
        sim.advance(5000)
        assert moves, "the machine did not move"
        assert all("count the 1s in each column" in e.get("why", "") for e in moves), moves
        assert all("nim-value" not in e.get("why", "") for e in moves), moves
