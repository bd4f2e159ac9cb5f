# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A grid board's DONE asks whether the lamps put out are a move by one
bitmask compared with each move's (``CellPanel.legal``), not by making every
move's matrix (``Rules.is_legal``: 51 KB of garbage on a 4 x 6 board under
MicroPython, which brought a collection into DONE's pass on the emulated
pico-grid: press to lamp 36-44 ms). The answer must be the one every move
compared gives: for Nim2D and Graph Nim (K 1-4), every way of putting out
lamps of every small board, and bigger random ones. Index-k Nim (Moore's)
made every move's list the same way, 98 KB for 4 heaps of 7: it counts the
heaps taken from now. (The other rule sets' DONE makes 1.6-6 KB.)"""

import random

import pytest
from nimatron.games.rules import Rules, parse_rules
from nimatron.panels.cells import CellPanel

legal = CellPanel.legal


def _boards():
    for rows, cols in ((1, 3), (2, 2), (2, 3), (3, 2)):
        n = rows * cols
        for bits in range(1 << n):
            yield [[(bits >> (r * cols + c)) & 1 for c in range(cols)] for r in range(rows)]
    rng = random.Random(1940)
    for _ in range(40):
        rows, cols = rng.randint(3, 5), rng.randint(3, 5)
        yield [[1 if rng.random() < 0.7 else 0 for _ in range(cols)] for _ in range(rows)]


def _afters(matrix, rng):
    cells = [(r, c) for r, row in enumerate(matrix) for c, x in enumerate(row) if x]
    subsets = range(1 << len(cells)) if len(cells) <= 7 else [rng.randrange(1 << len(cells)) for _ in range(120)]
    for bits in subsets:
        after = [list(row) for row in matrix]
        for i, (r, c) in enumerate(cells):
            if bits >> i & 1:
                after[r][c] = 0
        yield after


@pytest.mark.parametrize("spec", ["nim2d", "graph:1", "graph:2", "graph:3", "graph:4"])
def test_a_grid_move_is_legal_exactly_when_one_of_its_moves_makes_it(spec):
    rules = parse_rules(spec)
    rng = random.Random(spec)
    checked = yes = 0
    for before in _boards():
        for after in _afters(before, rng):
            want = Rules.is_legal(rules, before, after)
            assert legal(None, rules, before, after) == want, (spec, before, after)
            checked += 1
            yes += want
    assert checked > 5000 and yes > 500  # both answers met, many times


@pytest.mark.parametrize("spec", ["nim2d", "graph:2"])
def test_done_makes_no_move_matrix(spec, monkeypatch):
    """The kind: DONE's pass builds no position for each move (the old
    ``is_legal`` made every move's matrix to compare it)."""
    rules = parse_rules(spec)

    def no_matrices(*args, **kw):
        raise AssertionError("is_legal made the moves' matrices")

    monkeypatch.setattr(rules, "moves", no_matrices)
    before = [[1, 1, 1, 0], [0, 1, 1, 1], [1, 1, 0, 1]]
    assert legal(None, rules, before, [[1, 0, 0, 0], [0, 1, 1, 1], [1, 1, 0, 1]])
    assert not legal(None, rules, before, [[0, 1, 1, 0], [0, 1, 1, 1], [1, 1, 0, 0]])


@pytest.mark.parametrize("preset", ["nim2d", "graph"])
def test_a_visitors_done_on_a_grid_board_asks_the_panel(preset, monkeypatch):
    """The controller's DONE on pico-grid: the move is taken, and no move's
    matrix is made for the check (rules.moves untouched until the machine thinks)."""
    from controller_kit import Rig

    rig = Rig("pico-grid", preset=preset, first="visitor")
    rig.press("new")
    rig.until("visitor")
    lit = rig.c.panel.lit
    r = next(r for r in range(len(lit)) if any(lit[r]))
    before = rig.c.panel.position()[0]
    made = []
    monkeypatch.setattr(rig.c.rules, "moves", lambda *a, **k: made.append(a) or iter(()))
    rig.press("key %d %d" % (r, lit[r].index(True)))
    rig.io.queue.append(("done", True))
    rig.run(20)  # DONE's own pass
    assert made == [] and rig.c.panel.position()[0] != before


@pytest.mark.parametrize("spec", ["moore:2", "moore:3"])
def test_moores_legal_move_without_every_moves_list(spec, monkeypatch):
    """Index-k Nim's DONE made every move's list to compare (98 KB of
    garbage for 4 heaps of 7 under MicroPython): now the same answer by
    counting the heaps taken from, for every pair of small positions."""
    import itertools

    rules = parse_rules(spec)
    checked = yes = 0
    for before in itertools.product(range(4), repeat=3):
        for after in itertools.product(range(5), repeat=3):
            want = Rules.is_legal(rules, list(before), list(after))
            assert rules.is_legal(list(before), list(after)) == want, (spec, before, after)
            checked += 1
            yes += want
    assert checked == 64 * 125 and yes > 300
    assert not rules.is_legal([3, 2], [3, 2, 0]) and not rules.is_legal([3, 2, 1], [3, 2])
    monkeypatch.setattr(rules, "moves", lambda *a, **k: (_ for _ in ()).throw(AssertionError("moves made")))
    assert rules.is_legal([7, 7, 7, 7], [7, 5, 7, 3])
