# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Graph Nim on the grid boards (issue 10): lit lamps are vertices, joined
when side by side in a row or column; a move puts out 1..K lamps connected
to each other. Judged by the oracle's plain search (no nim-values)."""

import json
import os
import subprocess
import sys

import oracle
import pytest
from kit_sim import FAST, events
from nimatron.config import settings
from nimatron.games import strategy
from nimatron.games.anygraph import NetGraph
from nimatron.games.graph import connected_sets
from nimatron.games.rules import RulesError, SizeError, parse_rules
from nimatron.panels.panel import PanelError
from nimatron_sim.visitor import Visitor

HERE = os.path.dirname(os.path.abspath(__file__))


def preset_starts():
    out = []
    for name in ("graph", "pad-graph"):
        for start in settings.presets()[name]["starts"]:
            out.append(parse_rules("graph").check(start))
    return out


def lit_cells(matrix):
    return [(r, c) for r in range(len(matrix)) for c in range(len(matrix[r])) if matrix[r][c]]


def subset_matrix(start, cells, subset):
    out = [[0] * len(start[0]) for _ in start]
    for j in range(len(cells)):
        if subset >> j & 1:
            out[cells[j][0]][cells[j][1]] = 1
    return out


def subset_of(cells, matrix):
    return sum(1 << j for j in range(len(cells)) if matrix[cells[j][0]][cells[j][1]])


def legal(before, after, k):
    """The rule itself: 1..k lamps went out, connected to each other, none lit again."""
    gone = [(r, c) for r in range(len(before)) for c in range(len(before[0])) if before[r][c] and not after[r][c]]
    back = [(r, c) for r in range(len(before)) for c in range(len(before[0])) if after[r][c] and not before[r][c]]
    return 1 <= len(gone) <= k and not back and oracle._connected(gone)


@pytest.mark.parametrize("misere", [False, True])
def test_every_position_of_every_preset_start(monkeypatch, misere):
    """Exhaustive at exhibit size, with a board's limits: every subset of
    every preset start's lamps (what a game can reach), each accepted by the
    playable check first; graph:3 on the MacroPad's starts as well."""
    from nimatron.games import graph
    from nimatron.panels.playable import check_engine

    monkeypatch.setattr(graph, "SMALL", True)
    checked = 0
    for k, starts in ((2, preset_starts()), (3, preset_starts()[-3:])):
        rules = parse_rules("graph:%d" % k)
        for start in starts:
            check_engine(rules, misere, start)
            cells = lit_cells(start)
            truth = oracle.graph_wins(cells, k, misere)
            for subset in range(1, 1 << len(cells)):
                position = subset_matrix(start, cells, subset)
                result = strategy.solve(rules, position, misere)
                assert result["outcome"] == ("win" if truth[subset] else "loss"), position
                after = result["after"]
                assert legal(position, after, k), (position, after)
                if truth[subset]:
                    assert not truth[subset_of(cells, after)], (position, after)
                checked += 1
    assert checked == 6134


def test_paths_are_kayles_and_circular_rows():
    """A path of n lamps is Kayles under graph:2 (octal 0.77) and the rows
    of circular Nim under graph:3 (0.777): the known nim-values."""
    kayles = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    rows777 = [0, 1, 2, 3, 4, 1, 6, 3, 2, 1, 6, 7]
    for n in range(1, 9):
        assert strategy.solve("graph:2", [[1] * n])["nimber"] == kayles[n]
        assert strategy.solve("graph:3", [[1] * n])["nimber"] == rows777[n]


def test_groups_add_like_nim_heaps():
    rules = parse_rules("graph")
    assert rules.spec == "graph:2"
    position = rules.check([7, 7, 0, 15])  # a 2 x 3 ladder and a path of 4
    assert [n for n, _ in rules.groups(position)] == [6, 4]
    assert strategy.solve("graph", position)["nimber"] == rules.groups(position)[0][1] ^ 1
    # the same shape anywhere on the board has the same value
    assert rules.groups(rules.check([0, 0, 28, 28]))[0][1] == rules.groups(position)[0][1]


def test_moves_are_every_connected_set_once():
    # an L of three cells: 3 singles, 2 pairs, 1 triple
    mask = 1 | 2 | (1 << 4)  # (0,0), (0,1), (1,0) on a width of 4
    assert sorted(connected_sets(mask, 4, 3)) == sorted([1, 2, 16, 3, 17, 19])
    assert sorted(connected_sets(mask, 4, 1)) == [1, 2, 16]


def test_bad_rules_positions_and_sizes_are_clear_errors():
    for bad in ("graph:0", "graph:5", "graph:x"):
        with pytest.raises(RulesError):
            parse_rules(bad)
    for bad in ([], [[1, 2]], [[1] * 9], "1111"):
        with pytest.raises(RulesError):
            strategy.solve("graph", bad)
    with pytest.raises(SizeError):
        strategy.solve("graph", [[1] * 8] * 8)  # a group of 64 lamps
    with pytest.raises(SizeError):
        strategy.solve("graph", [[1, 0] * 4] * 5, misere=True)  # 20 lamps, searched whole in misère


def solve_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "nimatron_host", "solve"] + list(args),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_solve_takes_rows_of_0s_and_1s():
    out = solve_cli("--rules", "graph:2", "--json", "111", "000", "11")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert answer["nimber"] == 3 ^ 2 and answer["outcome"] == "win"
    assert "put out" in solve_cli("--rules", "graph", "1101").stdout
    lines = solve_cli(
        "--batch",
        stdin=json.dumps({"rules": "graph:3", "position": [[1, 1, 1, 1]]})
        + "\n"
        + json.dumps({"rules": "graph:9", "position": [[1]]})
        + "\n",
    ).stdout.splitlines()
    assert json.loads(lines[0])["nimber"] == 4 and "error" in json.loads(lines[1])
    bad = solve_cli("--rules", "graph", "12")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("board, preset", [("pico-grid", "graph"), ("macropad", "pad-graph")])
@pytest.mark.parametrize("misere", [False, True])
def test_graph_nim_plays_whole_games(sims, board, preset, misere):
    sim = sims(board, dict(FAST, preset=preset, misere=misere, first="alternate"), seed=4)
    robot = Visitor(sim, "random", seed=7, hold_ms=30, gap_ms=30)
    for _ in range(4):
        result = robot.play_game()
        assert result["winner"] in ("machine", "visitor")
        start = result["start"]
        cells = lit_cells(start)
        truth = oracle.graph_wins(cells, 2, misere)
        for move in result["moves"]:
            before, after = move["before"], move["after"]
            assert legal(before, after, 2), move
            if move["by"] == "machine" and truth[subset_of(cells, before)]:
                assert not truth[subset_of(cells, after)], move
    assert not events(sim, "refused")


def test_a_move_of_lamps_that_do_not_touch_is_refused(sims):
    sim = sims("pico-grid", dict(FAST, preset="graph", first="visitor"), seed=1)
    sim.tap("new")
    sim.advance(200)
    before = sim.controller.position()[0]
    sim.tap("key 0 0")
    sim.tap("key 0 2")  # not neighbours
    sim.tap("done")
    assert events(sim, "refused") and sim.controller.position()[0] == before


def test_a_start_too_big_for_the_lamps_is_refused():
    from nimatron.panels import make_panel

    with pytest.raises(PanelError):
        make_panel(parse_rules("graph"), [4, 4, 4], [15, 15, 15, 15])


def test_micropython_in_64k_gives_the_same_moves(tmp_path):
    """Precompiled as a deploy does, in a 64 KB heap: every preset start
    and a few positions below them, normal and misère, as on CPython."""
    import mpy_runner

    board, pc = mpy_runner.board_and_pc(os.path.join(HERE, "mpy", "run_graph.py"), str(tmp_path))
    assert board[:-1] == pc[:-1]
    assert int(board[-1].split()[1]) > 8000  # heap left free


def test_a_start_beyond_the_search_is_refused_when_the_settings_are_applied():
    from nimatron.config.settings import SettingsError
    from nimatron.panels.playable import check_engine

    rules = parse_rules("graph:2")
    with pytest.raises(SettingsError, match="at most 16"):
        check_engine(rules, True, [85, 170, 85, 170, 85])  # 20 lamps, no two touching, misère
    with pytest.raises(SettingsError, match="group of 24"):
        check_engine(rules, False, [255, 255, 255])


# -- any graph, given by nodes and edges (``solve``'s general input) --------------


def random_graph(rng, n, density):
    return [(a, b) for a in range(n) for b in range(a + 1, n) if rng.random() < density]


def as_input(nodes, edges):
    return {"nodes": list(nodes), "edges": [[a, b] for a, b in edges]}


@pytest.mark.parametrize("misere", [False, True])
def test_any_small_graph_against_the_oracle(misere):
    """Random graphs of 1 to 9 nodes, K = 1..4: the outcome of the whole
    graph and of random sub-graphs (nodes left), and the move is the rule's
    and, when the engine says win, leaves the oracle's loss."""
    import random

    rng = random.Random(10)
    for _trial in range(70):
        n = rng.randint(1, 9)
        k = rng.randint(1, 4)
        edges = random_graph(rng, n, rng.choice((0.2, 0.35, 0.6)))
        truth = oracle.net_wins(n, edges, k, misere)
        joined = set(edges) | {(b, a) for a, b in edges}
        for subset in [(1 << n) - 1] + [rng.randrange(1 << n) for _ in range(4)]:
            nodes = [j for j in range(n) if subset >> j & 1]
            graph = as_input(
                ["n%d" % j for j in nodes],
                [("n%d" % a, "n%d" % b) for a, b in edges if subset >> a & 1 and subset >> b & 1],
            )
            result = strategy.solve(NetGraph(k), graph, misere)
            assert result["outcome"] == ("win" if truth[subset] else "loss"), (n, k, edges, subset)
            if not nodes:
                assert result["after"] is None
                continue
            left = [int(name[1:]) for name in result["after"].left()]
            gone = [j for j in nodes if j not in left]
            assert set(left) <= set(nodes) and 1 <= len(gone) <= k and oracle._linked(gone, joined)
            after = sum(1 << j for j in left)
            assert truth[after] == (0 if result["outcome"] == "win" else truth[after])
            if not misere:
                assert (result["nimber"] == 0) == (not truth[subset])


def test_circular_nim_is_graph_3_on_a_cycle():
    """The same game, by circular Nim's rows and by the graph engine on a
    cycle of n nodes; both judged by the oracle's plain search."""
    for n in range(3, 13):
        cycle = [(j, (j + 1) % n) for j in range(n)]
        graph = as_input(range(n), cycle)
        for misere in (False, True):
            truth = oracle.net_wins(n, cycle, 3, misere)[(1 << n) - 1]
            ring = strategy.solve("circular", [n], misere, ring=True)
            net = strategy.solve(NetGraph(3), graph, misere)
            assert ring["outcome"] == net["outcome"] == ("win" if truth else "loss")
            assert ring["nimber"] == net["nimber"]
            assert len(net["after"].left()) == sum(ring["after"])  # the same number of lamps taken


def test_a_long_path_or_cycle_is_valued_by_its_length_and_other_graphs_stop_at_16_nodes():
    path = as_input(range(200), [(j, j + 1) for j in range(199)])
    assert strategy.solve(NetGraph(3), path)["nimber"] == strategy.solve("circular", [200])["nimber"]
    star = as_input(range(17), [(0, j) for j in range(1, 17)])
    with pytest.raises(SizeError, match="a component of 17 nodes is too large"):
        strategy.solve(NetGraph(2), star)
    ladder = as_input(range(16), [(j, j + 1) for j in range(15) if j != 7] + [(j, j + 8) for j in range(8)])
    assert strategy.solve(NetGraph(2), ladder)["outcome"] in ("win", "loss")  # a 2 x 8 ladder: 16 nodes
    with pytest.raises(SizeError, match="misere: 17 nodes"):
        strategy.solve(NetGraph(2), as_input(range(17), []), misere=True)


@pytest.mark.parametrize(
    "graph, words",
    [
        ({"nodes": [1, 2], "edges": [[1, 3]]}, "edge [1, 3] names 3, which is not in 'nodes'"),
        ({"nodes": [1, 2], "edges": [[2, 2]]}, "edge [2, 2] joins a node to itself"),
        ({"nodes": [1, 2, 1], "edges": []}, "node 1 is listed twice"),
        ({"nodes": [1, 2.5], "edges": []}, "a node is a whole number or a string, got 2.5"),
        ({"nodes": [True], "edges": []}, "a node is a whole number or a string, got True"),
        ({"edges": []}, "a graph needs 'nodes'"),
        ({"nodes": [1], "edges": [[1]]}, "an edge is a pair of nodes"),
        ({"nodes": [1], "links": []}, "a graph has 'nodes' and 'edges', not 'links'"),
        ({"nodes": ["x" * 100], "edges": [["y", "x"]]}, "names 'y'"),
    ],
)
def test_bad_graphs_are_refused_in_words(graph, words):
    line = solve_cli("--batch", stdin=json.dumps({"rules": "graph:2", "graph": graph}) + "\n").stdout
    error = json.loads(line)["error"]
    assert words in error and len(error) < 120
    out = solve_cli("--rules", "graph:2", "--graph", json.dumps(graph))
    assert out.returncode == 2 and out.stdout == "" and words in out.stderr and out.stderr.count("\n") == 1


def test_a_graph_through_solve_for_a_person_and_a_program():
    graph = {"nodes": [1, 2, 3, "x"], "edges": [[1, 2], [2, 3], [3, "x"], [2, 1]]}  # an edge twice: one edge
    out = solve_cli("--rules", "graph:2", "--json", "--graph", json.dumps(graph))
    assert json.loads(out.stdout) == {"outcome": "win", "after": [1, "x"], "ring": False, "nimber": 1}
    words = solve_cli("--rules", "graph:2", "--graph", json.dumps(graph)).stdout
    assert "a graph of 4 nodes" in words and 'remove nodes 2 and 3, leaving 1 "x"' in words
    lines = solve_cli(
        "--batch",
        stdin="\n".join(
            json.dumps(r)
            for r in (
                {"rules": "graph:2", "graph": graph, "misere": True},
                {"rules": "nim", "graph": graph},
                {"rules": "graph:2", "graph": graph, "position": [[1]]},
                {"rules": "graph:2", "graph": [1, 2]},
            )
        )
        + "\n",
    ).stdout.splitlines()
    assert json.loads(lines[0])["outcome"] in ("win", "loss") and isinstance(json.loads(lines[0])["after"], list)
    assert [sorted(json.loads(x)) for x in lines[1:]] == [["error"]] * 3
    bad = solve_cli("--rules", "nim", "--graph", json.dumps(graph))
    assert bad.returncode == 2 and "graph:K" in bad.stderr
