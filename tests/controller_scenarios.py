# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Game-flow scenarios with a fake driver, run by pytest AND by MicroPython.

Written in the subset both interpreters share. Each ``scenario_*`` function
raises AssertionError on failure. ``tests/test_controller.py`` runs them
under CPython; ``tests/mpy/run_controller.py`` under the MicroPython unix
port.
"""

from fake_io import FakeIO
from nimatron.config.boards import board
from nimatron.config.settings import SettingsError, resolve
from nimatron.games import strategy
from nimatron.machine.app import choose_layout
from nimatron.machine.controller import ATTRACT, OVER, THINKING, VISITOR, Controller
from nimatron.machine.ports import OFF, SLOW_MS
from nimatron.panels.panel import PanelError

TICK = 10


class Rig:
    """A controller on a board's layout, a fake driver and a virtual clock."""

    def __init__(self, board_name="pi-neopixel", held=(), **overrides):
        """``held``: buttons already closed when the machine powers up."""
        spec = board(board_name)
        preset = overrides.pop("preset", None) or spec["preset"]
        self.settings = resolve(overrides, preset)
        self.layout = choose_layout(spec, self.settings)
        self.io = FakeIO()
        self.events = []
        self.t = 0
        self.c = Controller(self.io, self.settings, self.layout, spec["input"], self.events.append, 0)
        for role in held:
            self.edge(role, True)
        self.run(TICK)  # powered up before the first visitor: a press now is not "closed at power-up"

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += TICK
            self.c.update(self.t)

    def edge(self, role, pressed):
        self.io.queue.append((role, pressed))

    def press(self, role, hold=60, gap=60):
        self.edge(role, True)
        self.run(hold)
        self.edge(role, False)
        self.run(gap)

    def bouncy_press(self, role):
        """A switch that chatters for ~10 ms on press and on release."""
        for edges in ((True, False, True), (False, True)):
            for pressed in edges:
                self.edge(role, pressed)
            self.run(TICK)
        self.run(60)
        for edges in ((False, True, False), (True, False)):
            for pressed in edges:
                self.edge(role, pressed)
            self.run(TICK)
        self.run(60)

    def kinds(self, name):
        return [e for e in self.events if e["event"] == name]

    def position(self):
        return self.c.position()[0]

    def lit_counts(self):
        """Lamps lit per row as the fake driver last showed them."""
        return [len([x for x in row if x != OFF]) for row in self.io.lamps]

    def wait_for_visitor(self, limit=20000):
        waited = 0
        while self.c.state != VISITOR and waited < limit:
            self.run(100)
            waited += 100
        return self.c.state == VISITOR

    def play_row_move(self, after):
        """Make a move on a row board by pressing the row button, then DONE."""
        before = self.position()
        rows = [i for i in range(len(before)) if before[i] != after[i]]
        assert len(rows) == 1, (before, after)
        for _ in range(before[rows[0]] - after[rows[0]]):
            self.press("row%d" % rows[0])
        if self.c.state == VISITOR:
            self.press("done")

    def play_grid_move(self, after):
        """Select the lamps of a move on a grid board, then DONE."""
        out, _ = self.c.panel.lamps_for(after)
        for r, i in out:
            self.press("key %d %d" % (r, i))
        self.press("done")


def perfect_visitor_game(rig, grid=False, limit=200):
    """The visitor plays perfectly; returns the winner.

    The rig's events start afresh with each game: a long scenario keeping
    every game's events would measure the rig's memory, not the machine's.
    """
    del rig.events[:]
    rig.press("new")
    for _ in range(limit):
        if rig.c.state == OVER:
            break
        if not rig.wait_for_visitor():
            break
        heaps, ring = rig.c.position()
        after = strategy.solve(rig.c.rules, heaps, rig.c.misere, ring)["after"]
        if grid:
            rig.play_grid_move(after)
        else:
            rig.play_row_move(after)
    over = rig.kinds("game_over")
    return over[-1]["winner"] if over else None


def scenario_visitor_can_win_every_nimatron_start():
    rig = Rig("pi-neopixel", preset="nimatron", think_ms=100, show_ms=200, over_ms=1000)
    starts = rig.settings["starts"]
    for n in range(len(starts)):
        assert perfect_visitor_game(rig) == "visitor", starts[n]
        rig.run(1200)
        assert rig.c.state == ATTRACT


def scenario_machine_beats_a_visitor_from_a_lost_start():
    rig = Rig("pi-neopixel", preset="nim", starts=[[1, 2, 3]], think_ms=100, show_ms=200)
    assert perfect_visitor_game(rig) == "machine"


def scenario_lamps_follow_the_position():
    rig = Rig("pi-neopixel", preset="nimatron", think_ms=100, show_ms=200)
    rig.press("new")
    assert rig.lit_counts()[:4] == rig.position()
    rig.press("row3")
    rig.press("row3")
    assert rig.position() == [3, 4, 5, 5]
    assert rig.lit_counts()[:4] == [3, 4, 5, 5]
    rig.press("done")
    rig.wait_for_visitor()
    assert rig.lit_counts()[:4] == rig.position()
    moves = rig.kinds("move")
    assert moves[0]["after"] == [3, 4, 5, 5] and moves[1]["by"] == "machine"


def scenario_one_row_per_turn_and_done_needs_a_take():
    rig = Rig("pi-neopixel", preset="nimatron")
    rig.press("new")
    rig.press("done")
    assert rig.c.state == VISITOR and len(rig.kinds("refused")) == 1
    rig.press("row0")
    rig.press("row1")
    assert rig.position() == [2, 4, 5, 7]
    assert len(rig.kinds("refused")) == 2
    assert rig.kinds("refused")[-1]["reason"] == "one row per turn: keep taking from row A or press DONE"


def scenario_subtract_refuses_a_fourth_lamp():
    rig = Rig("pi-neopixel", preset="subtract")
    rig.press("new")
    for _ in range(4):
        rig.press("row3")
    assert rig.position()[3] == rig.settings["starts"][0][3] - 3
    assert len(rig.kinds("refused")) == 1


def scenario_greedy_takes_only_from_a_largest_row():
    rig = Rig("pi-neopixel", preset="greedy", starts=[[3, 5, 7, 6]])
    rig.press("new")
    rig.press("row0")
    assert rig.position() == [3, 5, 7, 6] and len(rig.kinds("refused")) == 1
    rig.press("row2")
    assert rig.position() == [3, 5, 6, 6]


def scenario_presses_while_thinking_are_ignored():
    rig = Rig("pi-neopixel", preset="nimatron", think_ms=1500, show_ms=1000)
    rig.press("new")
    rig.press("row0")
    rig.press("done")
    assert rig.c.state == THINKING
    rig.press("row1")
    rig.press("row1")
    rig.press("done")
    rig.wait_for_visitor()
    machine = rig.kinds("move")[-1]
    assert machine["by"] == "machine"
    assert rig.position() == machine["after"]  # nothing queued into this turn
    assert not rig.c.taken


def scenario_bounce_never_takes_two_lamps():
    rig = Rig("pi-neopixel", preset="nimatron")
    rig.press("new")
    rig.bouncy_press("row3")
    rig.bouncy_press("row3")
    assert rig.position() == [3, 4, 5, 5]


def scenario_walk_away_resets():
    rig = Rig("pi-neopixel", preset="nimatron", walkaway_ms=60000)
    rig.press("new")
    rig.press("row0")
    rig.run(59000)
    assert rig.c.state == VISITOR
    rig.run(2000)
    assert rig.c.state == ATTRACT
    assert rig.kinds("game_over")[-1]["winner"] == "abandoned"
    rig.press("row0")  # the next visitor: any press starts a game
    assert rig.c.state == VISITOR and rig.position() == rig.settings["starts"][1]


def scenario_still_playing_blinks_from_when_it_was_asked():
    """ "Still playing?" blinks once a second from the moment it is asked
    (``game_lamps.countdown`` is handed that time), whatever the clock's
    phase: on for SLOW_MS, then off for SLOW_MS one lit lamp per second left."""
    rig = Rig("pi-neopixel", preset="nimatron", walkaway_ms=60000)
    rig.press("new")
    rig.press("row0")
    while rig.c.asking is None:
        rig.run(TICK)
    asked = rig.c.asking
    assert asked % (2 * SLOW_MS), "asked on the clock's own phase: a blink from 0 would pass unseen"
    lit = sum(rig.position())
    for half in range(4):
        for into in range(0, SLOW_MS, SLOW_MS // 5):
            now = asked + half * SLOW_MS + into
            lamps, status = rig.c.frame(now)
            on = half % 2 == 0
            assert status["visitor"] == (1 if on else 0), (half, into, status)
            shown = len([x for row in lamps for x in row if x != OFF])
            assert shown == (lit if on else lit - min(lit, rig.c.seconds_left(now))), (half, into, shown)


def scenario_walking_away_from_an_untouched_game_is_no_game():
    """A visitor presses NEW and leaves: as a NEW over it, not a game and not
    an abandoned one (the counter said "abandoned 1" of a game nobody played)."""
    rig = Rig("pi-neopixel", preset="nimatron", walkaway_ms=60000)
    rig.press("new")
    rig.run(61000)
    assert rig.c.state == ATTRACT
    assert rig.kinds("game_over")[-1] == {"event": "game_over", "winner": "abandoned", "counted": False}
    assert rig.c.audits.lifetime["games"] == 0 and rig.c.audits.lifetime["abandoned"] == 0


def scenario_held_button_and_two_at_once():
    rig = Rig("pi-neopixel", preset="nimatron")
    rig.press("new")
    rig.edge("row0", True)
    rig.edge("row1", True)
    rig.run(60000 - 200)
    assert rig.position() == [2, 4, 5, 7]  # one lamp, one row: the second press refused
    rig.edge("row0", False)
    rig.edge("row1", False)
    rig.run(100)
    assert rig.c.state in (VISITOR, ATTRACT)


def scenario_new_game_mid_game_is_abandoned():
    rig = Rig("pi-neopixel", preset="nimatron")
    rig.press("new")
    rig.press("row0")
    rig.press("new")
    assert rig.kinds("game_over")[-1]["winner"] == "abandoned"
    assert rig.position() == rig.settings["starts"][1]


def scenario_game_over_then_attract():
    rig = Rig("pi-neopixel", preset="nim", starts=[[1]], over_ms=5000)
    rig.press("new")
    rig.press("row0")  # the last lamp: the game ends without DONE
    assert rig.c.state == OVER and rig.kinds("game_over")[-1]["winner"] == "visitor"
    assert rig.io.status["champ"] == 1
    rig.press("row0")  # a stray press right away does not wipe NIM CHAMP
    assert rig.c.state == OVER
    rig.run(5000)
    assert rig.c.state == ATTRACT


def scenario_misere_last_lamp_loses():
    rig = Rig("pi-neopixel", preset="nim", starts=[[1]], misere=True)
    rig.press("new")
    rig.press("row0")
    assert rig.kinds("game_over")[-1]["winner"] == "machine"
    assert rig.io.status["machine_wins"] == 1


def scenario_equalizer_lets_a_perfect_visitor_win_drnim():
    rig = Rig("pi-neopixel", preset="drnim", think_ms=100, show_ms=200)
    assert rig.settings["first"] == "machine"
    assert perfect_visitor_game(rig) == "visitor"
    assert rig.kinds("move")[0] == {"event": "move", "by": "machine", "before": [15], "after": [14]}


def scenario_drnim_perfect_machine_wins():
    rig = Rig("pi-neopixel", preset="drnim", difficulty="perfect", think_ms=100, show_ms=200)
    assert perfect_visitor_game(rig) == "machine"


def scenario_fallible_loses_sometimes():
    rig = Rig(
        "pi-neopixel",
        preset="nim",
        starts=[[1, 2, 3]],
        difficulty="fallible",
        error_rate=60,
        think_ms=50,
        show_ms=50,
        over_ms=1000,
    )
    wins = 0
    for _ in range(12):
        if perfect_visitor_game(rig) == "visitor":
            wins += 1
        rig.run(1100)
    assert 0 < wins < 12, wins


def scenario_teach_shows_the_winning_move():
    rig = Rig("pi-neopixel", preset="nimatron", difficulty="teach", hint_ms=8000)
    rig.press("new")
    rig.run(8100)
    hints = rig.kinds("hint")
    assert hints and strategy.solve("nim", hints[0]["after"])["outcome"] == "loss"
    assert rig.c.hint and rig.c.state == VISITOR
    rig.press("row0")  # any press hides the hint
    assert rig.c.hint is None


def scenario_grid_refuses_illegal_and_restores_lamps():
    rig = Rig("pico-grid", preset="allheaps", starts=[[3, 5, 6, 7]])
    rig.press("new")
    rig.press("key 0 2")
    rig.press("key 1 4")
    rig.press("done")  # two rows, different counts: not a legal allheaps move
    assert rig.kinds("refused") and rig.position() == [3, 5, 6, 7]
    assert not rig.c.selected and rig.c.state == VISITOR
    rig.run(1000)
    assert rig.lit_counts()[:4] == [3, 5, 6, 7]
    for r in range(4):
        rig.press("key %d 0" % r)
    rig.press("done")  # the same number from every heap
    assert rig.kinds("move")[-1]["after"] == [2, 4, 5, 6]


def scenario_grid_rule_sets_play_whole_games():
    for preset, starts in (
        ("moore", [[3, 4, 5, 7]]),
        ("allheaps", [[3, 5, 6, 7]]),
        ("grundy", [[8]]),
        ("nim", [[2, 3, 7]]),
    ):
        rig = Rig("pico-grid", preset=preset, starts=starts, think_ms=50, show_ms=50)
        winner = perfect_visitor_game(rig, grid=True)
        expect = (
            "visitor"
            if strategy.solve(preset if preset != "moore" else "moore:2", starts[0])["outcome"] == "win"
            else "machine"
        )
        assert winner == expect, (preset, winner)


def scenario_circular_on_the_ring():
    rig = Rig("pico-ring", preset="circular", think_ms=50, show_ms=50)
    rig.press("new")
    rig.press("key 0 15")
    rig.press("key 0 0")
    rig.press("done")  # neighbours across the join of the circle
    assert rig.kinds("move")[0]["after"] == [14]
    rig.wait_for_visitor()
    assert 11 <= sum(rig.position()) <= 13
    row = rig.c.panel.lit[0]
    a = [i for i in range(14) if row[i] and row[i + 1] and row[i + 2]][0]
    rig.press("key 0 %d" % a)
    rig.press("key 0 %d" % (a + 2))
    lit = [row[:] for row in rig.c.panel.lit]
    rig.press("done")  # not neighbours (or not in play)
    assert rig.kinds("refused") and rig.c.panel.lit == lit
    winner = perfect_visitor_game(Rig("pico-ring", preset="circular", think_ms=50, show_ms=50), grid=True)
    assert winner == "machine"  # a ring of 16 is lost for the first player


def scenario_grundy_on_the_ring_plays_arcs():
    rig = Rig("pico-ring", preset="grundy", think_ms=50, show_ms=50)
    rig.press("new")
    for i in (5, 6, 7):
        rig.press("key 0 %d" % i)
    rig.press("done", hold=20, gap=0)  # one end of the arc of 8: 5 and 3, a dark lamp between
    assert rig.kinds("move")[0]["after"] == [5, 3]
    assert rig.c.panel.lit[0][:10] == [True] * 5 + [False] + [True] * 3 + [False]
    rig.wait_for_visitor()
    assert strategy.solve("grundy", rig.position())["outcome"] == "loss"  # the machine split to win
    assert sum([1 for x in rig.c.panel.lit[0] if x]) == 8
    winner = perfect_visitor_game(
        Rig("pico-ring", preset="grundy", starts=[[5, 2]], think_ms=50, show_ms=50), grid=True
    )
    assert winner == "visitor"  # 5 and 2: nim-value 2, a win for the first player
    for starts in ([[9]], [[5, 5]]):  # 9 lamps and 8 gaps, or 10 and 8: more than 16
        try:
            Rig("pico-ring", preset="grundy", starts=starts)
        except PanelError:
            continue
        raise AssertionError("the ring accepted %r" % (starts,))


def scenario_grid_lamps_stay_out_and_circles_are_loops():
    rig = Rig("pico-grid", preset="allheaps", think_ms=50, show_ms=50)
    rig.press("new")
    rig.press("key 1 1")
    rig.press("done")
    assert rig.c.panel.lit[1][:5] == [True, False, True, True, True]
    rig = Rig("pico-grid", preset="circular", think_ms=50, show_ms=50)  # 16: a 5 by 5 square's border
    rig.press("new")
    lit = rig.c.panel.lit
    assert [sum([1 for x in row if x]) for row in lit][:5] == [5, 2, 2, 2, 5]
    rig.press("key 1 0")
    rig.press("key 0 0")
    rig.press("key 0 1")
    rig.press("done")  # three neighbours round the corner
    assert rig.kinds("move")[0]["after"] == [13]
    try:
        Rig("pico-grid", preset="circular", starts=[[7]])
    except PanelError:
        return
    raise AssertionError("the grid drew a circle of 7")


def scenario_flashes_stay_under_three_per_second():
    rig = Rig("pi-neopixel", preset="nimatron", think_ms=1500, show_ms=1600, over_ms=4000)
    last = {}  # lamp -> on at the previous frame
    onsets = {}  # lamp -> the last four times it lit up
    show = rig.io.show

    def record(lamps, status):
        cells = [("s", k, status[k]) for k in status]
        for r in range(len(lamps)):
            for i in range(len(lamps[r])):
                cells.append((r, i, lamps[r][i]))
        for a, b, v in cells:
            on = v != OFF
            if on and not last.get((a, b), False):
                times = onsets.setdefault((a, b), [])
                times.append(rig.t)
                if len(times) > 4:
                    times.pop(0)
                assert len(times) < 4 or times[3] - times[0] >= 1000, ((a, b), times)
            last[(a, b)] = on
        show(lamps, status)

    rig.io.show = record
    rig.run(3000)  # attract
    perfect_visitor_game(rig)
    rig.run(5000)
    assert len(onsets) > 28


def scenario_bad_settings_are_clear_errors():
    for bad in (
        {"difficulty": "easy"},
        {"think_ms": -1},
        {"rules": "chess"},
        {"starts": [[3, -1]]},
        {"misere": "maybe"},
        {"bogus": 1},
    ):
        try:
            resolve(bad)
        except SettingsError:
            continue
        raise AssertionError("accepted %r" % (bad,))
    for board_name, overrides in (
        ("pi-neopixel", {"preset": "moore"}),
        ("pico-neopixel", {"preset": "100"}),
        ("pi-leds", {"preset": "nimatron"}),
    ):
        try:
            Rig(board_name, **overrides)
        except PanelError:
            continue
        raise AssertionError("%s accepted %r" % (board_name, overrides))
    # the game of 100 would light pixels behind no hole of the 28-hole panel (issue 17), whatever the strip's length
    try:
        Rig("pi-neopixel", preset="100")
    except PanelError as e:
        assert "28 lamp holes" in str(e), e
    else:
        raise AssertionError("pi-neopixel accepted the game of 100 on 28 holes")
    assert Rig("pi-neopixel", preset="21").layout == [21]  # one row runs on through the holes


def scenario_a_refusal_names_the_rule_with_its_number():
    rig = Rig("pi-neopixel", preset="subtract")
    rig.press("new")
    for _ in range(4):
        rig.press("row3")
    assert rig.kinds("refused")[-1]["reason"] == "not a legal move: take 1 to 3 from one heap"
