# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The games' check answers without searching (issue 27: ``SET preset graph``
took one 903.6 ms pass on the emulated pico-grid, the check running Graph
Nim's theory, a whole search, for each of its four starts).

``panels.playable.covered`` asks whether theory or search answers every
position from a start. Its answer must be the one the engine's own work
gives ("the theory finds the start's moves, or the search reaches it":
``expensive`` in checks_kit, the check as it was), for every registered rule set,
normal and misere, with a PC's and a board's search limits, over every
small start and a seeded spread of larger ones; and it must do no search:
no budget unit spent (every budgeted search charges its new positions), no
moves generated from any position but the start, and a few hundred Python
calls at most where the old check made thousands (counted, not timed).
"""

import random
import sys

import pytest
from checks_kit import answer, expensive
from nimatron.games import (
    budget,
    building,
    candy,
    graph,
    grid,
    nim2d,
    registry,
    rules as rules_module,
    splits,
    strategy,
)
from nimatron.games.rules import parse_rules
from nimatron.panels.playable import covered

SMALL_MODULES = (rules_module, building, candy, graph, grid, nim2d, splits)
# The memoised searches, by their functions' names (grid, building, strategy,
# graph's misere table, Candy Nim, anygraph): a check calls none of them.
SEARCHES = ("_value", "nim_value", "misere_wins", "_misere_table", "candies", "_best", "_net_value")


def specs():
    return registry.menu_specs(rules_module.REGISTRY) + ["graph:4"]


def heap_starts(rules):
    """Every multiset of 1 to 4 heaps of 0-8 (1-8 where parts are never
    empty), both orders, one heap of 1-40, and some exhibit and larger ones."""
    low = 0 if rules.ordered else 1
    out = []

    def more(parts, most):
        if parts:
            out.append(list(parts))
            if rules.ordered and len(parts) > 1:
                out.append(list(reversed(parts)))
        if len(parts) < 4:
            for h in range(most, low - 1, -1):
                more(parts + [h], h)

    more([], 8)
    out += [[n] for n in range(9, 41)] + [[100], [21], [9, 9, 9], [7, 7, 7, 7, 7], [3] * 8, [13, 12], [30, 2]]
    out = [s for s in out if sum(s)]  # a start with no lamp is no game (settings refuse it)
    if rules.has_ring:
        return [s for s in out if len(s) == 1]  # a circle is one size
    if rules.panel == "supply":
        return [s for s in out if len(s) > 1]  # the heaps, then the stones to place
    return out


def grid_starts(large, seed=27):
    """Every lamp pattern of 3 x 3 and 2 x 4, and (``large``) 8 x 8 ones of
    1 to 40 lit lamps (seeded: the same every run), as a settings file writes them."""
    out = []
    for mask in range(1, 1 << 9):
        out.append([(mask >> (3 * r)) & 7 for r in range(3)])
    for mask in range(1, 1 << 8):
        out.append([(mask >> (4 * r)) & 15 for r in range(2)])
    rng = random.Random(seed)
    for lit in [] if not large else list(range(1, 13)) + [14, 17, 20, 24, 30, 40]:
        for _ in range(4):
            cells = rng.sample(range(64), lit)
            out.append([sum(1 << c for c in range(8) if r * 8 + c in cells) for r in range(8)])
    return out


@pytest.fixture(params=[False, True], ids=["pc", "board"])
def small(request, monkeypatch):
    """A PC's search limits, or a board's (SMALL: a MicroPython heap)."""
    for module in SMALL_MODULES:
        monkeypatch.setattr(module, "SMALL", request.param)
    strategy.forget()
    graph.forget()
    candy.forget()
    yield request.param
    strategy.forget()
    graph.forget()
    candy.forget()


class Work:
    """What one check does: budget units, positions whose moves it
    generated, calls into a search, Python calls in all."""

    def __init__(self, rules, monkeypatch):
        self.units = 0
        self.moved = []
        self.calls = 0
        self.searched = 0
        real_moves = rules.moves
        real_spend = budget.spend

        def moves(position, ring=False):
            self.moved.append(position)
            return real_moves(position, ring)

        def spend(units=1):
            self.units += units
            return real_spend(units)

        monkeypatch.setattr(rules, "moves", moves)  # the instance's: its theory and search call self.moves
        for module in (budget, building, candy, graph, grid, nim2d):
            if getattr(module, "spend", None) is real_spend:
                monkeypatch.setattr(module, "spend", spend)

    def run(self, check, rules, start, misere, ring):
        def count(frame, event, arg):
            if event == "call":
                self.calls += 1
                if frame.f_code.co_name in SEARCHES:
                    self.searched += 1

        sys.setprofile(count)
        try:
            return answer(check, rules, start, misere, ring)
        finally:
            sys.setprofile(None)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("spec", specs())
def test_the_cheap_check_answers_as_the_engine_does_without_searching(spec, misere, small, monkeypatch):
    rules = parse_rules(spec)
    ring = rules.has_ring
    # A PC's limits (groups of 12-16 lamps searched whole, seconds each) on the small patterns only
    starts = grid_starts(small) if rules.panel == "cells" else heap_starts(rules)
    differ = []
    heavy = []
    for shown in starts:
        start = rules.check(shown, ring)
        work = Work(rules, monkeypatch)
        cheap = work.run(covered, rules, start, misere, ring)
        monkeypatch.undo()
        if small:  # the fixture's limits again (undo put every patch back)
            for module in SMALL_MODULES:
                monkeypatch.setattr(module, "SMALL", True)
        if cheap != answer(expensive, rules, start, misere, ring):
            differ.append(shown)
        if work.units or [p for p in work.moved if p != start] or work.searched:
            heavy.append((shown, work.units, len(work.moved), work.searched))
    assert not differ, "%s %s: the cheap check differs from the engine at %s" % (spec, misere, differ[:5])
    assert not heavy, "%s %s: the check searched (start, units, positions moved from, search calls): %s" % (
        spec,
        misere,
        heavy[:5],
    )


def test_the_exhibits_graph_starts_cost_a_search_the_old_way(monkeypatch):
    """The kind this closes, seen: the old check spends search units on
    Graph Nim's own preset's starts (a PC's limits), the new one none."""
    rules = parse_rules("graph:2")
    graph.forget()
    starts = [rules.check(s) for s in ([7, 7, 0, 15], [7, 5, 7, 0, 7], [11, 8, 14], [3, 0, 27, 0, 31])]
    new = Work(rules, monkeypatch)
    for start in starts:
        assert new.run(covered, rules, start, False, False) is True
    monkeypatch.undo()
    old = Work(rules, monkeypatch)
    for start in starts:
        assert old.run(expensive, rules, start, False, False) is True
    assert old.units > 1000 and old.searched > 1000
    assert new.units == 0 and new.searched == 0 and new.calls < old.calls // 20


@pytest.mark.micropython
def test_on_micropython_the_cheap_check_answers_as_the_engine_does(tmp_path):
    """The same, on the board's interpreter with its own (SMALL) limits: every
    registered rule set, normal and misere, no search unit spent (tests/mpy/run_checks.py)."""
    import mpy_runner

    tree = mpy_runner.tree(str(tmp_path), ("tests/checks_kit",))
    out = mpy_runner.run("mpy/run_checks.py", heap="2M", paths=(tree,))
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1].startswith("ok ") and int(lines[-1].split()[1]) > 5000, lines[-5:]
    assert not [line for line in lines if line.startswith("differs")]
