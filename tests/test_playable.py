# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Finding 1 of issue 13: a start is accepted only if the machine can play
every position reachable from it, and if the engine fails mid-game anyway
the machine still moves, records a fault and never dies.
"""

import json
import subprocess
import sys

import pytest
from controller_scenarios import FakeIO, Rig
from nimatron.config.settings import SettingsError
from nimatron.games import rules as rules_module, splits, strategy
from nimatron.games.rules import SizeError, parse_rules
from nimatron.machine.app import make_controller
from nimatron.panels.playable import check_engine

SPECS = ("nim", "subtract:3", "moore:2", "greedy", "allheaps", "grundy", "circular")
# Around the limits: tables (4 heaps of 7, 24 objects), search, parts.
STARTS = ([7, 7, 7, 7], [8, 7, 7, 7], [3, 5, 7, 9], [4, 4, 4, 4, 4], [13, 12], [16], [17], [25], [9, 9, 9], [3] * 8)


def reachable(rules, start):
    """Every position of a game from ``start`` (the first move may be on a ring)."""
    ring = rules.has_ring
    seen = {}
    todo = [(list(start), ring)]
    while todo:
        heaps, on_ring = todo.pop()
        key = (on_ring, tuple(sorted(heaps)))
        if key in seen:
            continue
        seen[key] = (heaps, on_ring)
        for after in rules.moves(heaps, on_ring):
            todo.append((after, False))
    return list(seen.values())


@pytest.fixture(params=[False, True], ids=["pc", "board"])
def small(request, monkeypatch):
    """Search limits of a PC, or of a board (a MicroPython heap)."""
    monkeypatch.setattr(rules_module, "SMALL", request.param)
    monkeypatch.setattr(splits, "SMALL", request.param)
    strategy.forget()
    yield request.param
    strategy.forget()


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("spec", SPECS)
def test_an_accepted_start_means_every_reachable_position_is_answered(spec, misere, small):
    rules = parse_rules(spec)
    accepted = 0
    for start in STARTS:
        if rules.has_ring and len(start) != 1:
            continue
        try:
            check_engine(rules, misere, start)
        except SettingsError:
            continue
        accepted += 1
        for heaps, ring in reachable(rules, start):
            if rules.has_move(heaps, ring):  # the controller asks only then
                strategy.solve(rules, heaps, misere, ring)  # raises SizeError if the check lied
    assert accepted  # the sweep tried something


@pytest.mark.parametrize("spec", ["subtract:3", "moore:2", "greedy", "grundy", "allheaps"])
def test_starts_the_engine_refuses_are_refused_up_front(spec):
    misere = spec != "allheaps"
    start = [8] * 8
    with pytest.raises(SizeError):
        strategy.solve(spec, start, misere)
    with pytest.raises(SettingsError, match=r"start \[8, 8"):
        check_engine(parse_rules(spec), misere, start)
    with pytest.raises(ValueError, match=r"8, 8|8 8"):  # the engine's check, or the display's first
        make_controller("pico-grid", {"rules": spec, "misere": misere, "starts": [start]}, io=FakeIO())


def test_empty_and_moveless_starts_are_refused():
    for start, spec in (([0, 0, 0, 0], "nim"), ([1, 2], "grundy")):
        with pytest.raises(SettingsError, match="no move"):
            make_controller("pico-grid", {"rules": spec, "starts": [start]}, io=FakeIO())


def test_set_refuses_an_unplayable_start_and_changes_nothing():
    from kit_link import Machine

    m = Machine()
    assert m.err("SET starts [[0,0,0,0]]") == "value"
    assert m.ok("SET first machine")["value"] == "machine"
    state = m.ok("NEW")  # never ERR internal: the start in play is still a game
    assert state["turn"] == "machine" and state["position"] == [3, 4, 5, 7]
    assert m.controller.audits["games"] == 1


@pytest.mark.parametrize("failure", [SizeError("too large"), MemoryError()], ids=["SizeError", "MemoryError"])
def test_an_engine_failure_mid_game_still_gives_a_legal_move(monkeypatch, failure):
    rig = Rig("pico-neopixel", first="machine", think_ms=100, show_ms=100, difficulty="teach")

    def broken(*args, **kwargs):
        raise failure

    monkeypatch.setattr(strategy, "solve", broken)
    rules = rig.c.rules
    rig.press("new")
    for _ in range(30):  # the machine moves (gently), the visitor takes a whole row
        rig.run(400)
        if rig.c.state == "over":
            break
        heaps, _ = rig.c.position()
        row = max(range(len(heaps)), key=lambda i: heaps[i])
        for _ in range(heaps[row]):
            rig.press("row%d" % row)
        if rig.c.state == "visitor":
            rig.press("done")
    kinds = [e["event"] for e in rig.events]
    assert "game_over" in kinds, kinds
    assert rig.c.audits["engine_faults"] >= 1 and rig.c.audits["finished"] >= 1
    faults = [e for e in rig.events if e["event"] == "fault"]
    assert faults and faults[0]["error"].startswith(type(failure).__name__)
    moves = [e for e in rig.events if e["event"] == "move" and e["by"] == "machine"]
    assert moves and all(rules.is_legal(e["before"], e["after"]) for e in moves)


@pytest.mark.parametrize(
    "argv",
    [
        [
            "nimatron_sim",
            "--board",
            "pico-grid",
            "--rules",
            "allheaps",
            "--first",
            "machine",
            "--set",
            "starts=[[8,8,8,8,8,8,8,8]]",
        ],
        ["nimatron_sim", "--set", "starts=[[0,0,0,0]]", "--first", "machine"],
    ],
)
def test_the_simulator_refuses_with_exit_2(argv):
    done = subprocess.run(
        [sys.executable, "-m", "nimatron_host", "sim", "--headless", "--script", "-"] + argv[1:],
        input="press new\nwait 3000\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "start [" in done.stderr
    assert not [json.loads(line) for line in done.stdout.splitlines()]


@pytest.mark.parametrize(
    "board, start", [("pico-ring", [8]), ("pico-grid", [8]), ("macropad", [4]), ("circuitplayground", [5])]
)
def test_rules_chosen_without_a_start_play_the_largest_start_that_fits(board, start):
    """`--rules grundy` on the ring used the preset's start of 16 and was refused;
    it now plays the largest start the lamps can show every position of."""
    from kit_link import FakeIO
    from nimatron.machine.app import make_controller

    controller = make_controller(board, {"rules": "grundy"}, io=FakeIO())
    assert controller.settings["starts"] == [start]


def test_a_start_given_with_the_rules_is_still_refused_in_words():
    from kit_link import FakeIO
    from nimatron.machine.app import make_controller
    from nimatron.panels.panel import PanelError

    with pytest.raises(PanelError, match="try starts"):
        make_controller("pico-grid", {"rules": "grundy", "starts": [[3, 5, 6, 7]]}, io=FakeIO())
