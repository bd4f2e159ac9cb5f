# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The controller computes the lamps' frame only in a pass where it can have
changed (issue 27: 64 lamps' frame, computed and compared every pass, cost
pico-grid 2-3 ms of every pass, emulated): after a change of the game's
state, or when a blink turns. Counted, never timed: how many frames
``game_lamps.fill`` computes over quiet passes, and that every frame a
controller computing one each pass shows is shown at the same moment by
one that skips (whole random sessions of presses, refusals, hints,
"still playing?", stuck buttons and alarms, on a row, a grid and a ring
board). And the pass that ends the visitor's turn shows it before any
search: on pico-ring the search's first 64 units ran in DONE's pass, 23 KB
allocated before the lamp went out (DONE's tick 61.5 ms, emulated)."""

import random

import controller_kit
import pytest
from fake_io import FakeIO
from nimatron.games import budget
from nimatron.machine import game_lamps
from nimatron.machine.controller import Controller

TICK = controller_kit.TICK
QUIET = 200  # passes: 2 s of 10 ms ticks


class Recorder(FakeIO):
    """Every frame shown, with the time it was shown."""

    def __init__(self):
        super().__init__()
        self.t = 0
        self.frames = []

    def show(self, lamps, status):
        super().show(lamps, status)
        self.frames.append((self.t, [list(row) for row in lamps], dict(status)))


class EveryPass(Controller):
    """The controller as it was: a frame computed on every pass."""

    def update(self, now_ms):
        self.redraw()
        super().update(now_ms)


class Rig(controller_kit.Rig):
    """The kit's rig with the frames recorded (``Recorder``)."""

    def __init__(self, board_name="pi-neopixel", cls=Controller, **overrides):
        super().__init__(board_name, cls, Recorder(), **overrides)


@pytest.fixture
def fills(monkeypatch):
    """How many frames game_lamps.fill has computed."""
    count = [0]
    real = game_lamps.fill

    def fill(c, lamps, status, now):
        count[0] += 1
        return real(c, lamps, status, now)

    monkeypatch.setattr(game_lamps, "fill", fill)
    return count


def quiet(rig, fills):
    """(frames computed, frames shown) over QUIET passes with nothing pressed."""
    rig.run(5 * TICK)
    computed, shown = fills[0], rig.io.shows
    rig.run(QUIET * TICK)
    return fills[0] - computed, rig.io.shows - shown


def test_a_waiting_game_computes_no_frame(fills):
    rig = Rig(first="visitor")
    rig.press("new")
    rig.until("visitor")
    assert quiet(rig, fills) == (0, 0)


def test_a_waiting_grid_game_computes_no_frame(fills):
    rig = Rig("pico-grid", first="visitor")
    rig.press("new")
    rig.until("visitor")
    assert quiet(rig, fills) == (0, 0)


def test_blinks_still_turn_at_their_period(fills):
    # attract's wave steps every SLOW_MS; the thinking lamp turns every QUICK_MS
    rig = Rig()
    computed, shown = quiet(rig, fills)
    assert computed == shown == QUIET * TICK // game_lamps.SLOW_MS
    rig = Rig(first="machine", think_ms=60000)
    rig.press("new")
    while rig.c.machine_after is None:
        rig.run(TICK)
    computed, shown = quiet(rig, fills)
    assert computed == shown == QUIET * TICK // game_lamps._QUICK_MS


def test_a_selection_blinks_on_a_grid(fills):
    rig = Rig("pico-grid", first="visitor")
    rig.press("new")
    rig.until("visitor")
    lit = rig.c.panel.lit
    r = next(r for r in range(len(lit)) if any(lit[r]))
    rig.press("key %d %d" % (r, lit[r].index(True)))
    assert rig.c.selected
    computed, shown = quiet(rig, fills)
    assert computed == shown == QUIET * TICK // game_lamps._QUICK_MS


def session(board_name, cls, seed, ms=90000, **overrides):
    """A random visitor pressing anything, holding some buttons until they
    stick, with an alarm raised and cleared: the frames shown."""
    rng = random.Random(seed)
    rig = Rig(
        board_name,
        cls,
        first="alternate",
        difficulty="teach",
        hint_ms=1000,
        walkaway_ms=8000,
        still_ms=4000,
        stuck_ms=6000,
        refuse_ms=300,
        think_ms=400,
        show_ms=600,
        over_ms=2000,
        **overrides,
    )
    c = rig.c
    if c.input_model == "grid":
        roles = ["key %d %d" % (r, i) for r in range(len(c.layout)) for i in range(c.layout[r])]
    else:
        roles = ["row%d" % r for r in range(len(c.layout))]
    roles += ["done", "done", "done", "new"]
    end = rig.t + ms
    while rig.t < end:
        k = rng.randrange(100)
        if k < 60:
            rig.run(TICK * rng.randrange(1, 40))
        elif k < 98:
            rig.press(rng.choice(roles))
        elif k < 99:
            role = rng.choice(roles[:-1])
            rig.io.queue.append((role, True))
            rig.run(7000)  # stuck
            rig.io.queue.append((role, False))
            rig.run(TICK)
        else:
            c.alarm = "store" if c.alarm is None else None
            rig.run(TICK)
    return rig.io.frames


@pytest.mark.parametrize("board_name", ["pi-neopixel", "pico-grid", "pico-ring"])
@pytest.mark.parametrize("seed", [1, 2])
def test_skipping_shows_every_frame_at_the_same_moment(board_name, seed):
    lazy = session(board_name, Controller, seed)
    every = session(board_name, EveryPass, seed)
    assert len(every) > 100  # the session really blinked and played
    assert lazy == every


@pytest.mark.parametrize("board_name", ["pico-ring", "pico-grid", "pi-neopixel"])
def test_the_pass_that_ends_a_turn_shows_it_and_searches_nothing(monkeypatch, board_name):
    rig = Rig(board_name, first="visitor", think_ms=0)
    rig.press("new")
    rig.until("visitor")
    lit = rig.c.panel.lit
    r = next(r for r in range(len(lit)) if any(lit[r]))
    rig.press("key %d %d" % (r, lit[r].index(True)) if rig.c.input_model == "grid" else "row%d" % r)
    searched = []
    start = budget.start
    monkeypatch.setattr(budget, "start", lambda units, low=False: (searched.append(rig.t), start(units))[1])
    rig.io.queue.append(("done", True))
    shown = rig.io.shows
    while rig.c.state == "visitor":
        rig.run(TICK)
    ended = rig.t
    assert rig.c.state == "thinking"
    assert rig.io.shows > shown and rig.io.frames[-1][0] == ended  # the move's lamps, in the pass that made it
    while rig.c.state == "thinking":
        rig.run(TICK)
    assert searched and min(searched) > ended  # the search began in a later pass


class LowHeap:
    """``gc`` as a board with too little free, its search making 3 KB of
    garbage a pass (read once a pass: ``nimatron.heap``): every collection
    recorded, with the pass's time."""

    def __init__(self, rig):
        self.rig = rig
        self.collections = []
        self.free = 20 * 1024

    def mem_free(self):
        self.free = max(0, self.free - 3 * 1024)
        return self.free

    def mem_alloc(self):
        return 128 * 1024 - self.free

    def collect(self):
        self.collections.append(self.rig.t)
        self.free = 20 * 1024


def test_a_low_heap_is_collected_in_passes_of_its_own(monkeypatch):
    """A collection (18-25 ms on a Pico) never shares a pass with a search, nor
    with the visitor's turn: it falls while the machine thinks or shows its
    move, and a heap that stays low still searches every other pass."""
    from nimatron.machine import turns

    rig = Rig("pico-ring", first="machine", think_ms=0, show_ms=300)
    heap = LowHeap(rig)
    monkeypatch.setattr(turns, "gc", heap)
    searched, states = [], {}
    start = budget.start
    monkeypatch.setattr(budget, "start", lambda units, low=False: (searched.append(rig.t), start(units))[1])
    update = rig.c.update

    def watched(now):
        before = rig.c.state
        update(now)
        states[now] = before

    rig.c.update = watched
    rig.press("new")
    rig.until("visitor")
    assert heap.collections and searched
    assert not set(heap.collections) & set(searched)
    assert all(t - TICK not in heap.collections for t in heap.collections)  # never two passes in a row
    assert {states[t] for t in heap.collections} <= {"thinking", "showing"}


@pytest.mark.parametrize("preset", ["graph", "allheaps"])
def test_the_machines_move_is_worded_from_its_own_search(monkeypatch, preset):
    """The link's words for the machine's move (events on) and its "deliberate"
    check reuse the search that chose the move: no search in the pass that
    plays it (two, 10-33 ms each, made that pass 50-77 ms on pico-grid's Graph
    Nim, emulated)."""
    from nimatron.games import strategy
    from nimatron.link.hostlink import HostLink

    rig = Rig("pico-grid", preset=preset, first="machine", think_ms=0, show_ms=300, explain=True)
    link = HostLink(rig.c, None, board="pico-grid")
    link.events = True
    solves = []
    solve = strategy.solve
    monkeypatch.setattr(strategy, "solve", lambda *a, **k: (solves.append(rig.c.state), solve(*a, **k))[1])
    rig.press("new")
    rig.until("showing")
    solves.clear()
    lines = len(link.out)
    rig.until("visitor")
    assert solves == [] and len(link.out) > lines
    assert b'"why"' in link.out[-1]
