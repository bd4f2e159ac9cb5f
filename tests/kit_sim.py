# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What the simulator tests share: the ``sims`` fixture (registered in
conftest.py), the no-pause timings and the readers of a simulator's events,
and the oracle's judgement of a played game."""

import oracle
import pytest
from nimatron_sim import Simulator

ORACLES = {}


FAST = {"think_ms": 0, "show_ms": 0}  # for statistics: no deliberate pauses


@pytest.fixture
def sims():
    """make(board, overrides, **kw) -> Simulator collecting ``.log`` of events; all closed after."""
    made = []

    def make(board, overrides=None, **kw):
        sim = Simulator(board, overrides, **kw)
        sim.log = []
        sim.listeners.append(sim.log.append)
        made.append(sim)
        return sim

    yield make
    for sim in made:
        sim.close()


def events(sim, kind):
    return [e for e in sim.log if e["event"] == kind]


def oracle_for(rules):
    """One exhaustive oracle per rule set, made once (setdefault would build one every call)."""
    if rules not in ORACLES:
        ORACLES[rules] = oracle.Oracle(rules)
    return ORACLES[rules]


def judge(rules, misere, start, moves):
    """Every move legal; the machine never lets a won position go."""
    o = oracle_for(rules)
    ring = rules == "circular"
    for k, move in enumerate(moves):
        before, after = move["before"], move["after"]
        assert o.is_move(before, after, ring and k == 0), move
        if move["by"] == "machine" and o.win(before, misere, ring and k == 0):
            assert not o.win(after, misere), move
    assert moves[0]["before"] == start
