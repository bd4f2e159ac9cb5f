# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Grid boards show every game they accept, lamp for lamp (issue 10).

Each test plays the firmware on a simulated board (real drivers, mocked
pins) and reads the lamps back from the pins.
"""

import pytest
from fake_io import FakeIO
from kit_sim import FAST, events
from nimatron.games.rules import parse_rules
from nimatron.machine import app
from nimatron.panels import fits_all_reachable
from nimatron.panels.circle import circle_cells
from nimatron.panels.panel import PanelError
from nimatron_host.cli import main as nimatron
from nimatron_sim.visitor import Visitor
from oracle import Oracle


def play(sim, keys, wait=3600):
    for key in keys:
        sim.tap(key)
    sim.advance(wait)


# -- 1. Grundy's game on the ring: heaps are arcs, split by one end --------------------------


def test_grundy_on_the_ring_shows_each_heap_as_an_arc_and_the_machine_splits(sims):
    sim = sims("pico-ring", {"preset": "grundy", "first": "machine"})
    play(sim, ["new"])
    move = events(sim, "move")[0]
    assert move["before"] == [8] and sorted(move["after"]) == [1, 7]
    ring = sim.read_lamps()[0]
    assert ring == [1] * 7 + [0] + [1] + [0] * 7  # 7, a dark gap, 1
    assert not events(sim, "refused")


def test_a_visitor_splits_an_arc_by_selecting_one_end_of_it(sims):
    sim = sims("pico-ring", {"preset": "grundy"})  # visitor first: 8
    play(sim, ["new", "key 0 0", "key 0 1", "key 0 2", "done"], wait=0)
    assert events(sim, "move")[0]["after"] == [3, 5]
    assert sim.read_lamps()[0][:9] == [1, 1, 1, 0, 1, 1, 1, 1, 1]  # the gap opens at the split
    assert not events(sim, "refused")


@pytest.mark.parametrize("keys", [["key 0 2", "key 0 3"], ["key 0 0", "key 0 2"], ["key 0 %d" % i for i in range(8)]])
def test_a_selection_that_is_not_one_end_of_an_arc_is_refused_and_restored(sims, keys):
    sim = sims("pico-ring", {"preset": "grundy"})
    play(sim, ["new"] + keys + ["done"], wait=1000)
    assert events(sim, "refused") and not events(sim, "move")
    assert sim.read_lamps()[0] == [1] * 8 + [0] * 8


def test_the_teaching_hint_on_the_ring_blinks_the_end_to_split_off(sims):
    sim = sims("pico-ring", {"preset": "grundy", "difficulty": "teach"})  # 8: split off 1 to win
    play(sim, ["new"], wait=sim.controller.settings["hint_ms"] + 100)
    hint = events(sim, "hint")
    assert hint and sorted(hint[0]["after"]) == [1, 7]
    assert sim.controller.hint == [(0, 7)]
    play(sim, ["key 0 7", "done"], wait=0)
    assert events(sim, "move")[0]["after"] == [7, 1] and not events(sim, "refused")


def test_grundy_starts_too_big_for_the_ring_are_refused_when_the_settings_are_applied(capsys):
    code = nimatron(
        [
            "sim",
            "--headless",
            "--board",
            "pico-ring",
            "--rules",
            "grundy",
            "--set",
            "starts=[[16]]",
            "--script",
            "/dev/null",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "needs 31 lamps on the ring" in err and "Traceback" not in err
    # the rules alone: the preset's start was for its own rules; the largest that fits is played
    assert nimatron(["sim", "--headless", "--board", "pico-ring", "--rules", "grundy", "--script", "/dev/null"]) == 0
    with pytest.raises(PanelError, match="the ring has 16"):
        app.make_controller("pico-ring", {"preset": "grundy", "starts": [[8], [9]]}, io=FakeIO())


# -- 2. every reachable position must fit the board -------------------------------------------


@pytest.mark.parametrize(
    "start, fits",
    [
        ([8], True),
        ([9], False),
        ([3, 5, 6, 7], False),
        ([4, 4, 2], True),
        ([5, 5], True),
        ([5, 6], False),
        ([1, 2, 1, 2, 1, 2, 1, 2], True),
    ],
)
def test_grundy_on_the_grid_accepts_a_start_only_if_every_split_has_a_row(start, fits):
    # a heap of h can become h-1 heaps (split off one lamp at a time): 8 rows hold 8
    assert fits_all_reachable(parse_rules("grundy"), [8] * 8, start) is fits


def test_a_grid_grundy_start_that_cannot_be_shown_is_refused_on_every_settings_path(capsys):
    with pytest.raises(PanelError, match="can reach 17 heaps"):
        app.make_controller("pico-grid", {"rules": "grundy", "starts": [[3, 5, 6, 7]]}, io=FakeIO())
    controller = app.make_controller("pico-grid", {"preset": "grundy"}, io=FakeIO())
    settings = dict(controller.settings, starts=[[3, 5, 6, 7]])
    with pytest.raises(PanelError):
        controller.apply_settings(settings)  # SET, the settings screen
    assert controller.settings["starts"] == [[8], [7]]  # nothing changed
    code = nimatron(
        [
            "sim",
            "--headless",
            "--board",
            "pico-grid",
            "--rules",
            "grundy",
            "--set",
            "starts=[[3,5,6,7]]",
            "--script",
            "/dev/null",
        ]
    )
    assert code == 2 and "this board shows 8, one a row" in capsys.readouterr().err


# -- 3. a lamp put out stays out -----------------------------------------------------------------


def test_a_lamp_taken_from_the_middle_of_a_row_stays_out_and_the_machine_takes_from_the_end(sims):
    sim = sims("pico-grid", {"rules": "allheaps"})  # 3 5 6 7
    play(sim, ["new", "key 1 1", "done"], wait=300)
    assert sim.read_lamps()[1][:5] == [1, 0, 1, 1, 1]  # not re-packed to 1 1 1 1 0
    sim.advance(4000)
    move = events(sim, "move")[1]
    lamps = sim.read_lamps()
    for r, (_before, after) in enumerate(zip(move["before"], move["after"])):
        lit = [i for i in range(8) if lamps[r][i]]
        assert len(lit) == after
        if r == 1:
            assert lamps[1][1] == 0  # the visitor's gap is still dark
        else:
            assert lit == list(range(after))  # the machine's take came off the end


# -- 4. circles: neighbours are neighbouring lamps ------------------------------------------------


def test_a_circle_smaller_than_the_ring_is_refused_in_words(capsys):
    code = nimatron(["sim", "--headless", "--board", "pico-ring", "--set", "starts=[[12]]", "--script", "/dev/null"])
    err = capsys.readouterr().err
    assert code == 2 and "circle of all 16 lamps" in err


@pytest.mark.parametrize("n", [4, 6, 12, 16, 28])
def test_a_circle_on_the_grid_is_a_loop_of_neighbouring_lamps(n):
    cells = circle_cells([8] * 8, n, "grid")
    assert len(set(cells)) == n
    for k in range(n):
        (r1, c1), (r2, c2) = cells[k], cells[(k + 1) % n]
        assert abs(r1 - r2) + abs(c1 - c2) == 1, (cells[k], cells[(k + 1) % n])


@pytest.mark.parametrize("n", [3, 5, 30])
def test_a_circle_the_grid_cannot_draw_is_refused(n):
    with pytest.raises(PanelError):
        circle_cells([8] * 8, n, "grid")


# -- every rule set on every grid board it accepts, normal and misère ---------------------------

GRID_GAMES = [
    ("pico-grid", {"rules": "nim"}),
    ("pico-grid", {"preset": "subtract"}),
    ("pico-grid", {"preset": "moore"}),
    ("pico-grid", {"preset": "greedy"}),
    ("pico-grid", {"preset": "allheaps"}),
    ("pico-grid", {"preset": "grundy"}),
    ("pico-grid", {"preset": "circular"}),
    ("pico-grid", {"preset": "circular", "starts": [[6], [10]]}),
    ("pico-ring", {"preset": "circular"}),
    ("pico-ring", {"preset": "grundy"}),
    ("pico-ring", {"rules": "nim", "starts": [[9]]}),
    ("pico-ring", {"rules": "grundy", "starts": [[3, 4]]}),
]


@pytest.mark.parametrize("misere", [False, True])
@pytest.mark.parametrize("board, overrides", GRID_GAMES)
def test_whole_games_on_grid_boards_never_crash_or_refuse_a_legal_move(sims, board, overrides, misere):
    """A random robot visitor plays from the lamps; the oracle judges every move."""
    sim = sims(board, dict(FAST, misere=misere, first="alternate", **overrides), seed=3)
    robot = Visitor(sim, "random", seed=5, hold_ms=30, gap_ms=30)
    for _ in range(6):
        result = robot.play_game()
        assert result["winner"] in ("machine", "visitor"), result
        oracle = Oracle(result["game"]["rules"])
        ring = result["game"]["ring"]
        for move in result["moves"]:
            assert oracle.is_move(move["before"], move["after"], ring), move
            ring = False
    assert not events(sim, "refused")
