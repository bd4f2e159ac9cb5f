# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Candy Nim (issue 10): win first, then the most candies; judged by the
exhaustive oracle (plain minimax, no nim-sums) at exhibit size."""

import json
import subprocess
import sys

import pytest
from kit_sim import FAST, events
from nimatron.games import strategy
from nimatron.games.rules import parse_rules
from nimatron_sim.visitor import Visitor
from oracle import Oracle, ordered_positions


@pytest.mark.parametrize("misere", [False, True])
def test_every_exhibit_position_wins_first_then_takes_the_most_candies(misere):
    """All 4,680 positions of 1-4 heaps of 0-7, every one."""
    oracle = Oracle("candy")
    rules = parse_rules("candy")
    for heaps in ordered_positions(4, 7):
        win, most = oracle.candy(heaps, misere)
        result = strategy.solve(rules, heaps, misere)
        if not sum(heaps):
            assert result["after"] is None and result["outcome"] == ("win" if misere else "loss")
            continue
        assert result["outcome"] == ("win" if win else "loss"), heaps
        after = result["after"]
        assert oracle.is_move(heaps, after), (heaps, after)
        their_win, theirs = oracle.candy(after, misere)
        assert (not their_win, sum(heaps) - theirs) == (win, most), (heaps, after)
        assert rules.candies(heaps, misere) == most, heaps


# The seed's table of winning positions (normal and misère alike where both
# hold): the player to move there loses Candy Nim too, whatever the candies.
SEED_LOST = [
    [1, 1],
    [2, 2],
    [7, 7],
    [1, 2, 3],
    [1, 4, 5],
    [2, 4, 6],
    [2, 5, 7],
    [3, 4, 7],
    [3, 5, 6],
    [1, 2, 4, 7],
    [1, 2, 5, 6],
    [1, 3, 4, 6],
    [1, 3, 5, 7],
    [2, 3, 4, 5],
    [2, 3, 6, 7],
    [4, 5, 6, 7],
]


@pytest.mark.parametrize("heaps", SEED_LOST)
def test_the_seeds_winning_positions_leave_the_mover_lost(heaps):
    assert strategy.solve("candy", heaps)["outcome"] == "loss"
    assert strategy.solve("nim", heaps)["outcome"] == "loss"


def test_among_winning_moves_it_takes_the_most_candies():
    # 3 4 5: Nim's only winning move takes 2 from the 3; with 1 1 1 2 three
    # moves win, and the best for candies is not the first Nim finds
    oracle = Oracle("candy")
    for heaps in ([3, 4, 5], [1, 1, 1, 2], [2, 6, 7], [1, 5, 6, 7]):
        after = strategy.solve("candy", heaps)["after"]
        wins = oracle.winning_moves(heaps)
        scores = [sum(heaps) - oracle.candy(a)[1] for a in wins]
        assert sum(heaps) - oracle.candy(after)[1] == max(scores)


def solve_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "nimatron_host", "solve"] + list(args),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_solve_reports_the_candies_the_mover_can_be_sure_of():
    out = solve_cli("--rules", "candy", "--json", "--candies", "4", "2", "3", "4", "5")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["after"] == [1, 4, 5] and answer["candies"] == 4 + Oracle("candy").candy([3, 4, 5])[1]
    text = solve_cli("--rules", "candy", "3", "4", "5").stdout
    assert "candies" in text
    lines = solve_cli(
        "--batch",
        stdin="\n".join(
            [
                json.dumps({"rules": "candy", "position": [1, 2], "candies": [0, 3]}),
                json.dumps({"rules": "candy", "position": [1, 2], "candies": [1]}),
                json.dumps({"rules": "candy", "position": [1, 2], "candies": "many"}),
                json.dumps({"rules": "nim", "position": [1, 2], "candies": [0, 0]}),
            ]
        )
        + "\n",
    ).stdout.splitlines()
    first = json.loads(lines[0])
    assert first["after"] == [1, 1] and first["candies"] == 0 + Oracle("candy").candy([1, 2])[1] == 2
    for line in lines[1:]:
        assert "candies" in json.loads(line)["error"]


def test_bad_candies_on_the_command_line_exit_2():
    out = solve_cli("--rules", "candy", "--candies", "x", "1", "3")
    assert out.returncode == 2 and out.stderr.count("\n") == 1
    out = solve_cli("--rules", "nim", "--candies", "1", "1", "3")
    assert out.returncode == 2 and "candy" in out.stderr


@pytest.mark.parametrize("misere", [False, True])
def test_candy_nim_on_the_grid_shows_each_players_candies(sims, misere):
    sim = sims("pico-grid", dict(FAST, preset="candy", misere=misere, first="alternate"), seed=2)
    robot = Visitor(sim, "random", seed=9, hold_ms=30, gap_ms=30)
    oracle = Oracle("candy")
    for _ in range(4):
        result = robot.play_game()
        assert result["winner"] in ("machine", "visitor")
        taken = {"visitor": 0, "machine": 0}
        for move in result["moves"]:
            assert oracle.is_move(move["before"], move["after"])
            taken[move["by"]] += sum(move["before"]) - sum(move["after"])
            if move["by"] == "machine":
                win, most = oracle.candy(move["before"], misere)
                their_win, theirs = oracle.candy(move["after"], misere)
                assert (not their_win, sum(move["before"]) - theirs) == (win, most)
        lamps = sim.controller.panel.lit
        tally = [sum(1 for x in row if x) for row in lamps]
        assert tally[4] + tally[5] == taken["visitor"] and tally[6] + tally[7] == taken["machine"]
    assert not events(sim, "refused")
