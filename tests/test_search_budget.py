# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""No main-loop tick waits on a long search (issue: Graph Nim and Candy Nim
decisions took 0.4-1.8 s on an RP2040, with the thinking lamp, the host link
and the watchdog unserved).

The machine's turn gives the engine ``SEARCH_UNITS`` of work a tick
(``nimatron.games.budget``); here the work is counted, not timed: no tick
spends more than its budget plus one ``spend`` call's share, a search cut
into ticks resumes (it does not start again), and it chooses the move the
one-shot engine chooses.
"""

import pytest
from kit_sim import FAST, events
from nimatron.games import budget, building, candy, graph, nim2d, strategy
from nimatron.games.rules import parse_rules
from nimatron.machine import turns
from nimatron_sim.visitor import Visitor

# The largest single spend(): a new position's charge, 3 units a move; a
# board's positions have fewer than 40 moves. A tick overruns by at most one.
MOST_A_SPEND = 3 * 40 + 1


def forget_everything():
    candy.forget()  # its table emptied in place
    nim2d._memo.clear()
    graph.forget()  # the misère table and the normal-play walk among the moves too
    building._MEMOS[0].clear()
    building._MEMOS[1].clear()


def by_ticks(rules, position, misere, units):
    """solve() as the machine's turn asks it: ``units`` a call until it answers;
    (the answer, the units each call spent)."""
    ticks = []
    while True:
        budget.start(units)
        try:
            result = strategy.solve(rules, position, misere)
            return result, ticks + [budget.spent()]
        except budget.Later:
            ticks.append(budget.spent())
            assert budget.spent() - budget.most() <= units, "Later came a spend too late"
        finally:
            budget.stop()


POSITIONS = [
    ("graph:2", [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 0, 0, 0]], True),  # 13 lamps, misère
    ("graph:2", [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]], False),  # a group of 12
    ("graph:3", [[1, 1, 1, 0, 1], [1, 0, 1, 1, 1], [1, 1, 1, 0, 1]], False),
    ("candy", [5, 6, 7, 7], False),
    ("candy", [4, 5, 6, 7], True),
    ("building", [0, 0, 0, 0, 0, 8], False),  # its search spent no unit before: all in one tick
    ("building", [0, 0, 0, 0, 0, 8], True),
]


@pytest.mark.parametrize("spec, position, misere", POSITIONS)
def test_a_search_cut_into_ticks_chooses_the_one_shot_move_and_resumes(spec, position, misere):
    rules = parse_rules(spec)
    forget_everything()
    once = strategy.solve(rules, position, misere)
    forget_everything()
    budget.start(10**9)
    strategy.solve(rules, position, misere)
    total = budget.spent()  # the whole search's work, in one go
    budget.stop()
    forget_everything()
    got, ticks = by_ticks(rules, position, misere, turns.SEARCH_UNITS)
    assert got == once
    assert len(ticks) > 2, "the position is too small to need several ticks"
    assert max(ticks) <= turns.SEARCH_UNITS + MOST_A_SPEND
    assert sum(ticks) <= 2 * total, "a resumed search redoes at most what it had done (%d of %d)" % (sum(ticks), total)
    assert len(ticks) <= total // 8 + 2, "every tick finishes something: no tick is spent for nothing"


@pytest.mark.parametrize("preset, misere", [("graph", True), ("graph", False), ("candy", False), ("candy", True)])
def test_no_tick_of_a_whole_game_spends_more_than_its_budget(sims, monkeypatch, preset, misere):
    spent = []
    real_stop = budget.stop
    monkeypatch.setattr(budget, "stop", lambda: (spent.append(budget.spent()), real_stop()))
    forget_everything()
    sim = sims("pico-grid", dict(FAST, preset=preset, misere=misere, first="machine"), seed=3)
    robot = Visitor(sim, "perfect", seed=5, hold_ms=30, gap_ms=30)
    for _ in range(2):
        result = robot.play_game()
        assert result["winner"] in ("machine", "visitor")
    assert spent and max(spent) <= turns.SEARCH_UNITS + MOST_A_SPEND
    if preset == "graph" and misere:
        assert max(spent) > turns.SEARCH_UNITS, "no decision needed a second tick: the test proves nothing"
    assert not events(sim, "fault")


def test_graph_misere_takes_the_lamps_the_docs_promise_on_a_pc():
    """The normal-play group limit (12) no longer refuses a misère board of 13-16 lamps."""
    board = [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    assert strategy.solve("graph:2", board, misere=True)["outcome"] in ("win", "loss")


@pytest.mark.parametrize(
    "preset, module",
    [
        ("nimrod", "nimatron.games.explain"),  # the words of its reasoning
        ("allheaps", "nimatron.games.tables"),  # a game that plays from a table (Moore's Nim no longer: its theorem)
    ],
)
def test_a_game_loads_its_modules_at_set_up_not_in_its_first_turn(preset, module):
    """On CircuitPython a module compiles from source for 0.1-0.15 s: the
    first Nimrod and Moore turns were the main loop's longest ticks (131.6 and
    150.1 ms, emulated Pico, 9.2.8) until the set-up loaded them. A fresh
    interpreter shows what the set-up imports."""
    import subprocess
    import sys

    code = (
        "import sys; from fake_io import FakeIO; from nimatron.machine.app import make_controller; "
        "c = make_controller('pico-grid', {'preset': %r}, FakeIO()); "
        "loaded = %r in sys.modules; from nimatron.games import tables; "
        "print(loaded, tables.name(c.rules, c.misere) in tables._loaded if %r else 'words')"
        % (preset, module, module.endswith("tables"))
    )
    import os

    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(here, "..", "firmware"), here]))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.stdout.split() == ["True", "True" if module.endswith("tables") else "words"], done.stdout + done.stderr
