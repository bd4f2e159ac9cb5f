# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Building Nim BN(n, s) (issue 10): place the stones one at a time, then
Nim. Judged by the oracle's plain search (no nim-sums)."""

import json
import os
import subprocess
import sys

import oracle
import pytest
from kit_sim import FAST, events
from nimatron.games import strategy
from nimatron.games.rules import RulesError, SizeError, parse_rules
from nimatron.panels import make_panel
from nimatron.panels.panel import PanelError
from nimatron_sim.visitor import Visitor

HERE = os.path.dirname(os.path.abspath(__file__))

# Every preset's start, and more: BN(n, s) for n <= 8 and s <= 5.
SIZES = [(n, s) for n in range(1, 9) for s in range(1, 6)]


def legal(before, after):
    """The rule itself: one stone from the supply onto one heap, or (no
    stones left) any number >= 1 taken from one heap."""
    if len(before) != len(after):
        return False
    heaps, stones = before[:-1], before[-1]
    diffs = [after[i] - heaps[i] for i in range(len(heaps))]
    changed = [d for d in diffs if d]
    if stones:
        return after[-1] == stones - 1 and changed == [1]
    return after[-1] == 0 and len(changed) == 1 and changed[0] < 0 and min(after) >= 0


@pytest.mark.parametrize("misere", [False, True])
def test_every_building_position_up_to_8_stones_and_5_heaps(misere):
    """Exhaustive at exhibit size: every position of the building half of
    BN(n, s), n <= 8, s <= 5, in every heap order; the outcome matches the
    oracle and the move is legal (and winning when a win exists)."""
    memo = {}
    checked = 0
    for n, s in SIZES:
        for heaps, stones in oracle.building_positions(n, s):
            position = heaps + [stones]
            result = strategy.solve("building", position, misere)
            win = oracle.building_win(heaps, stones, misere, memo)
            assert result["outcome"] == ("win" if win else "loss"), position
            after = result["after"]
            assert legal(position, after), (position, after)
            if win:
                assert not oracle.building_win(after[:-1], after[-1], misere, memo), (position, after)
            checked += 1
    assert checked == 2994  # every order of the heaps


def winning_replies(heaps, stones, misere, memo):
    """How many of the next player's moves win (the oracle's plain search)."""
    count = 0
    for i in range(len(heaps)):
        if stones:
            options = [(heaps[:i] + [heaps[i] + 1] + heaps[i + 1 :], stones - 1)]
        else:
            options = [(heaps[:i] + [left] + heaps[i + 1 :], 0) for left in range(heaps[i])]
        for after, left in options:
            if not oracle.building_win(after, left, misere, memo):
                count += 1
    return count


@pytest.mark.parametrize("misere", [False, True])
def test_a_lost_building_position_leaves_the_fewest_winning_replies_and_not_always_on_heap_a(misere):
    """In a lost building position the machine places where the other
    player has the fewest winning replies (ties: round the heaps with the
    stones left), so over BN(n, s) it builds on every heap, not only A."""
    memo = {}
    used = set()
    for n, s in [(n, s) for n in range(2, 9) for s in range(2, 5)]:
        for heaps, stones in oracle.building_positions(n, s):
            if oracle.building_win(heaps, stones, misere, memo):
                continue
            after = strategy.solve("building", heaps + [stones], misere)["after"]
            assert legal(heaps + [stones], after)
            fewest = min(
                winning_replies(heaps[:i] + [heaps[i] + 1] + heaps[i + 1 :], stones - 1, misere, memo) for i in range(s)
            )
            assert winning_replies(after[:-1], after[-1], misere, memo) == fewest, (heaps, stones, after)
            used.add([i for i in range(s) if after[i] != heaps[i]][0])
    assert used == {0, 1, 2, 3}


def test_the_nim_value_is_the_searched_mex():
    """Normal play: ``nimber`` is 0 exactly for the oracle's lost positions,
    and after the building it is the nim-sum."""
    memo = {}
    for heaps, stones in oracle.building_positions(7, 3):
        value = strategy.solve("building", heaps + [stones])["nimber"]
        assert (value == 0) == (not oracle.building_win(heaps, stones, False, memo))
    assert strategy.solve("building", [3, 4, 5, 0])["nimber"] == 3 ^ 4 ^ 5


def test_the_papers_easy_cases_hold_in_the_search():
    """Duchêne, Dufour, Heubach, Larsson (2015): n odd, the nim-sum after
    building is odd, so the player who starts Nim (the second builder)
    wins; n and s even, the second builder wins by copying."""
    for n in range(1, 13):
        for s in range(1, 7):
            outcome = strategy.solve("building", [0] * s + [n])["outcome"]
            if n % 2 or s % 2 == 0:
                assert outcome == "loss", (n, s)
            elif s == 1:
                assert outcome == "win", (n, s)  # the first builder starts Nim on one heap


def test_bn_12_3_the_issues_example():
    memo = {}
    result = strategy.solve("building", [0, 0, 0, 12])
    assert result["outcome"] == ("win" if oracle.building_win([0, 0, 0], 12, False, memo) else "loss")
    assert legal([0, 0, 0, 12], result["after"])


def test_bad_positions_and_sizes_are_clear_errors():
    for bad in ([], [5], "0 0 12", [0, -1, 3], [0, 0, 1.5]):
        with pytest.raises(RulesError):
            strategy.solve("building", bad)
    with pytest.raises(SizeError):
        strategy.solve("building", [0] * 20 + [240])


def test_the_lamps_show_every_reachable_position_or_refuse_the_start():
    rules = parse_rules("building")
    make_panel(rules, [8] * 8, [0, 0, 0, 8])
    make_panel(rules, [7] * 4, [0, 0, 0, 7])
    with pytest.raises(PanelError, match="may reach 8"):
        make_panel(rules, [7] * 4, [0, 0, 1, 7])  # heap C can end at 8 lamps
    with pytest.raises(PanelError, match="rows"):
        make_panel(rules, [8] * 3, [0, 0, 0, 3])  # no row left for the stones
    with pytest.raises(PanelError, match="supply row"):
        make_panel(rules, [4, 4, 2], [0, 0, 3])


def solve_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "nimatron_host", "solve"] + list(args),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_solve_takes_the_stones_still_to_place():
    out = solve_cli("--rules", "building", "--stones", "12", "--json", "0", "0", "0")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["outcome"] == strategy.solve("building", [0, 0, 0, 12])["outcome"]
    assert sum(answer["after"]) == 1 and answer["stones"] == 11
    assert "place a stone on heap" in solve_cli("--rules", "building", "--stones", "4", "0", "0", "0").stdout
    requests = [
        {"rules": "building", "position": [0, 0, 0], "stones": 8},
        {"rules": "building", "position": [3, 4, 5], "stones": 0},
        {"rules": "building", "position": [0, 0, 0]},
        {"rules": "building", "position": [0, 0], "stones": "two"},
        {"rules": "nim", "position": [1, 2], "stones": 3},
    ]
    lines = solve_cli("--batch", stdin="".join(json.dumps(r) + "\n" for r in requests)).stdout.splitlines()
    answers = [json.loads(line) for line in lines]
    assert answers[0]["stones"] == 7 and answers[1]["after"] == [1, 4, 5] and answers[1]["stones"] == 0
    assert [("error" in a) for a in answers] == [False, False, True, True, True]
    for bad in (
        ["--rules", "building", "0", "0"],
        ["--rules", "nim", "--stones", "2", "3"],
        ["--rules", "building", "--stones", "x", "0"],
    ):
        out = solve_cli(*bad)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


@pytest.mark.parametrize(
    "board, preset", [("pico-grid", "building"), ("pico-neopixel", "building7"), ("macropad", "pad-building")]
)
@pytest.mark.parametrize("misere", [False, True])
def test_building_nim_plays_whole_games(sims, board, preset, misere):
    """A robot visitor places stones by pressing rows (or a row's keys), then
    plays Nim; the oracle judges every move of the machine."""
    sim = sims(board, dict(FAST, preset=preset, misere=misere, first="alternate"), seed=3)
    robot = Visitor(sim, "random", seed=5, hold_ms=30, gap_ms=30)
    memo = {}
    for _ in range(4):
        result = robot.play_game()
        assert result["winner"] in ("machine", "visitor")
        placed = 0
        for move in result["moves"]:
            before, after = move["before"], move["after"]
            assert legal(before, after), move
            placed += before[-1] - after[-1]
            if move["by"] == "machine" and oracle.building_win(before[:-1], before[-1], misere, memo):
                assert not oracle.building_win(after[:-1], after[-1], misere, memo), move
        assert placed == result["start"][-1]
    assert not events(sim, "refused")


def test_a_press_on_the_supply_row_or_done_is_refused_while_building(sims):
    sim = sims("pico-neopixel", dict(FAST, preset="building7", first="visitor"), seed=1)
    sim.tap("new")
    sim.advance(200)
    sim.tap("row3")  # the supply row itself
    sim.tap("done")
    reasons = [e["reason"] for e in events(sim, "refused")]
    assert "row D" in reasons[0] and "place a stone" in reasons[1]
    assert sim.controller.position()[0] == [0, 0, 0, 6]  # nothing lost


def test_micropython_in_64k_gives_the_same_moves(tmp_path):
    """Precompiled as a deploy does, in a 64 KB heap: every building
    position of the preset starts, the same answers as CPython."""
    import mpy_runner

    board, pc = mpy_runner.board_and_pc(
        os.path.join(HERE, "mpy", "run_building.py"), str(tmp_path), ("tests/bench_engine_positions",)
    )
    assert board[:-1] == pc[:-1]
    assert int(board[-1].split()[1]) > 8000  # heap left free
