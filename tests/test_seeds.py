# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The seed documents' worked examples and tables, as data-driven tests.

The material lives in tests/data/seed_nim.json (the normal and misère games
from 3, 4, 5, the table of winning positions, the example implementation's
doctests) and tests/data/seed_variants.json (subtraction games, the games of
21 and 100, Wythoff's pairs, Grundy's game values A002188, the circle of ten,
Greedy and index-k Nim). ``oracle.seed_cases`` turns it into cases; the
MicroPython runner (tests/mpy/run_engine.py) reads the same files.

Each case is checked three ways: the data agrees with itself and with the
exhaustive oracle; the oracle, playing as the engine, passes the case (so the
checks are right); and the engine passes it.
"""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
try:
    import nimatron  # noqa: F401
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "firmware"))

import oracle  # noqa: E402
from nimatron.games.strategy import solve  # noqa: E402


def load(name):
    with open(os.path.join(HERE, "data", name)) as f:
        return json.load(f)


NIM = load("seed_nim.json")
VARIANTS = load("seed_variants.json")
CASES = list(oracle.seed_cases(NIM, VARIANTS))
SEARCH_LIMIT = 20000  # oracle positions per case; the rest use the seed data

_ORACLES = {}


def oracle_for(spec):
    if spec not in _ORACLES:
        _ORACLES[spec] = oracle.Oracle(spec)
    return _ORACLES[spec]


def searchable(case):
    o = oracle_for(case["rules"])
    return oracle.search_size(o, case["position"]) <= SEARCH_LIMIT


def oracle_as_engine(case):
    """What a perfect engine could answer, from the oracle (or A002188)."""
    o = oracle_for(case["rules"])
    position, misere, ring = case["position"], case["misere"], case["ring"]
    moves = o.moves(position, ring)
    if not searchable(case):  # Grundy's game, one big heap: by the table
        values = case["grundy_table"]
        value = values[position[0]]
        wins = [m for m in moves if _xor(values, m) == 0]
        after = (wins or moves or [None])[0]
        return {
            "outcome": "win" if value else "loss",
            "after": None if after is None else list(after),
            "ring": False,
            "nimber": value,
        }
    wins = o.winning_moves(position, misere, ring)
    after = (wins or moves or [None])[0]
    return {
        "outcome": "win" if o.win(position, misere, ring) else "loss",
        "after": None if after is None else list(after),
        "ring": False,
        "nimber": None if misere else o.sg(position, ring),
    }


def _xor(values, parts):
    total = 0
    for p in parts:
        total ^= values[p]
    return total


def test_seed_data_is_consistent():
    """Games replay move by move, nim-sums add up, Wythoff's pairs follow
    their construction, A002188 matches the oracle, the circle diagrams take
    adjacent objects."""
    assert oracle.seed_data_problems(NIM, VARIANTS) == []


def test_a002188_against_full_search():
    """The first 25 values also from a search over whole positions."""
    values = VARIANTS["grundy"]["a002188"]
    o = oracle_for("grundy")
    assert [o.sg([n]) for n in range(25)] == values[:25]


def test_wythoff_pairs_are_the_losing_positions():
    """Every losing two-heap position below 50 is one of the 20 pairs."""
    o = oracle_for("allheaps")
    pairs = VARIANTS["wythoff"]["p_positions"]
    losing = [[a, b] for a in range(50) for b in range(a, 50) if not o.win([a, b])]
    assert losing == pairs


def test_circle_of_ten_rows():
    rows = [oracle._circle_rows(d) for d in VARIANTS["circular"]["diagrams"]]
    assert rows == [None, [7], [1, 3], [1, 2]]


def test_case_count():
    """Every part of the seed material produced cases."""
    prefixes = {case["id"].split("/")[0] for case in CASES}
    assert prefixes == {
        "normal_game_345",
        "misere_game_345",
        "normal_game_misere_aside",
        "misere_game_normal_aside",
        "bouton_example_345",
        "doctest",
        "table",
        "subtraction",
        "game21",
        "game34",
        "game100",
        "wythoff",
        "grundy",
        "circular",
        "greedy",
        "moore",
    }


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_oracle_passes_seed_case(case):
    """The seed's claims hold for the oracle (checks the data and checks)."""
    o = oracle_for(case["rules"])
    result = oracle_as_engine(case)
    assert oracle.check_case(o, case, result, searchable(case)) == []


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_engine_passes_seed_case(case):
    o = oracle_for(case["rules"])
    result = solve(case["rules"], list(case["position"]), misere=case["misere"], ring=case["ring"])
    problems = oracle.check_case(o, case, result, searchable(case))
    assert problems == [], "%s -> %r" % (case["id"], result)
