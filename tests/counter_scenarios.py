# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game of 21 as a binary counter on the Circuit Playground's ring,
played with the board's cursor (A moves, B selects, A+B is DONE) through
the real ``drivers.presses`` model over the controller: run by pytest
(tests/test_counter.py) AND by MicroPython (test_micropython_controller).

Written in the subset both interpreters share; each ``scenario_*``
raises AssertionError on failure.
"""

from nimatron.config.boards import board
from nimatron.config.settings import resolve
from nimatron.drivers.presses import Presses
from nimatron.games import strategy
from nimatron.games.rules import parse_rules
from nimatron.machine.app import choose_layout
from nimatron.machine.controller import OVER, SHOWING, THINKING, VISITOR, Controller, Rng
from nimatron.machine.ports import CURSOR, LIT, OFF, SELECTED, TAKING
from nimatron.panels.counter import CounterPanel, digits
from nimatron.panels.panel import PanelError

TICK = 10
BITS = [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]  # 16 8 4 2 1: pixels 0-4, down the left side
CHOICES = [(0, 5), (0, 6), (0, 7)]  # add 1, 2, 3: pixels 5-7, up the right side


class CursorIO:
    """The onboard driver's logic without pins: raw button edges go through
    ``Presses`` (chords, the cursor) to the controller; ``shown`` is what
    the ring shows, the cursor drawn in."""

    def __init__(self, spec):
        self.presses = Presses(spec)
        self.queue = []
        self.lamps = None
        self.now = 0

    def show(self, lamps, status):
        self.lamps = lamps

    def watch(self, controller, now):
        self.now = now
        self.presses.watch(controller, now)

    def events(self):
        for role, pressed in self.queue:
            self.presses.feed(role, pressed, self.now)
        self.queue = []
        return self.presses.update(self.now)

    def shown(self):
        return self.presses.overlay(self.lamps, self.now)

    def close(self):
        pass


class CounterRig:
    """A controller on the Circuit Playground's ring with the ``21counter``
    preset, a cursor driver and a virtual clock; ``check`` runs every tick."""

    def __init__(self, **overrides):
        spec = board("circuitplayground")
        settings = resolve(overrides, "21counter")
        self.io = CursorIO(spec)
        self.events = []
        self.t = 0
        self.ticks_checked = 0
        self.c = Controller(self.io, settings, choose_layout(spec, settings), spec["input"], self.events.append, 0)
        self.run(TICK)

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += TICK
            self.c.update(self.t)
            self.check()

    def check(self):
        """In play, the bit lamps are the count in binary at every tick, the
        lamps after the choices dark."""
        c = self.c
        if c.panel is None or c.state not in (VISITOR, THINKING, SHOWING) or c.asking is not None:
            return
        panel = c.panel
        bits = panel.bit_lamps
        lamps = self.io.shown()
        for k in range(len(bits)):
            r, i = bits[k]
            want = LIT if panel.count >> (len(bits) - 1 - k) & 1 else OFF
            assert lamps[r][i] == want, (panel.count, lamps)
        for i in range(len(bits) + len(panel.choice_lamps), len(lamps[0])):
            assert lamps[0][i] == OFF, lamps
        if c.state == SHOWING:
            states = [lamps[r][i] for r, i in panel.choice_lamps]
            assert TAKING in states or OFF in states, states
        self.ticks_checked += 1

    def tap(self, *roles):
        """Press the buttons together, hold, let go, pause: a hand's press."""
        for role in roles:
            self.io.queue.append((role, True))
        self.run(60)
        for role in roles:
            self.io.queue.append((role, False))
        self.run(60)

    def add(self, k):
        """Say ``k`` more: move the cursor onto each of k choice lamps, B, then A+B."""
        for lamp in CHOICES[:k]:
            for _ in range(4):
                if self.io.presses.at == lamp:
                    break
                self.tap("a")
            assert self.io.presses.at == lamp, (self.io.presses.at, lamp)
            self.tap("b")
        self.tap("a", "b")

    def wait_for_visitor(self, limit=20000):
        waited = 0
        while self.c.state not in (VISITOR, OVER) and waited < limit:
            self.run(100)
            waited += 100
        return self.c.state == VISITOR

    def kinds(self, name):
        return [e for e in self.events if e["event"] == name]

    def play(self, choose):
        """A whole game: ``choose(heap)`` says how many the visitor adds."""
        del self.events[:]
        self.tap("b")  # attract: any button starts a game
        for _ in range(30):
            if not self.wait_for_visitor():
                break
            self.add(choose(self.c.position()[0][0]))
        over = self.kinds("game_over")
        return over[-1]["winner"] if over else None


def scenario_counter_layout_on_the_ring():
    rig = CounterRig(think_ms=100, show_ms=200)
    rig.tap("b")
    panel = rig.c.panel
    assert isinstance(panel, CounterPanel)
    assert panel.bit_lamps == BITS and panel.choice_lamps == CHOICES
    assert rig.c.position() == ([21], False)
    assert rig.io.lamps[0] == [OFF] * 5 + [LIT] * 3 + [OFF] * 2  # count 0; three choices


def scenario_counter_cursor_steps_over_the_choice_lamps_only():
    rig = CounterRig(think_ms=100, show_ms=200)
    rig.tap("b")
    seen = []
    for _ in range(4):
        seen.append(rig.io.presses.at)
        rig.tap("a")
    assert seen == CHOICES + [CHOICES[0]], seen
    rig.run(600)  # the cursor blinks on a choice lamp, never on a bit lamp
    marks = [lamp for lamp in BITS + CHOICES if rig.io.shown()[lamp[0]][lamp[1]] == CURSOR]
    assert marks in ([], [CHOICES[1]]), marks


def scenario_counter_b_selects_a_plus_b_says_it():
    rig = CounterRig(think_ms=100, show_ms=200)
    rig.tap("b")
    rig.tap("b")
    rig.tap("a")
    rig.tap("b")
    assert sorted(rig.c.selected) == CHOICES[:2]
    rig.run(120)
    assert rig.io.lamps[0][5] in (SELECTED, OFF)  # selected lamps blink
    rig.tap("a", "b")
    assert rig.kinds("move")[0]["after"] == [19]
    assert rig.c.panel.count == 2 and rig.c.panel.lit[0][:5] == [False, False, False, True, False]
    rig.wait_for_visitor()
    machine = rig.kinds("move")[1]
    assert machine["by"] == "machine" and (machine["before"][0] - machine["after"][0]) in (1, 2, 3)
    assert rig.ticks_checked > 30


def scenario_counter_b_again_deselects_and_done_needs_a_choice():
    rig = CounterRig(think_ms=100, show_ms=200)
    rig.tap("b")
    rig.tap("b")
    rig.tap("b")
    assert rig.c.selected == []
    rig.tap("a", "b")
    assert rig.kinds("refused") and not rig.kinds("move")
    rig.io.queue.append(("slide", True))  # the slide switch flipped: DONE too
    rig.run(120)
    assert len(rig.kinds("refused")) == 2


def scenario_counter_bit_lamps_cannot_be_selected():
    rig = CounterRig(think_ms=100, show_ms=200)
    rig.tap("b")
    rig.c.press("key 0 4", rig.t)  # a lit lamp, but a bit of the count
    assert rig.c.selected == [] and rig.kinds("refused")
    rig.c.press("key 0 8", rig.t)  # dark
    assert rig.c.selected == [] and len(rig.kinds("refused")) == 2


def scenario_counter_whole_games_random_and_perfect():
    rig = CounterRig(think_ms=50, show_ms=100, over_ms=1000)
    rng = Rng(21)
    for _ in range(3):  # a visitor adding 1-3 at random loses to the machine
        winner = rig.play(lambda heap: 1 + rng.below(min(3, heap)))
        assert winner == "machine", rig.events
        assert rig.c.panel.count == 21
        rig.run(1600)

    def best(heap):
        return heap - strategy.solve(rig.c.rules, [heap], True)["after"][0]

    # 21 = 4*5+1: whoever starts loses with the machine's play; it starts here
    rig = CounterRig(think_ms=50, show_ms=100, over_ms=1000, first="machine")
    assert rig.play(best) == "visitor"
    assert rig.ticks_checked > 50
    rig = CounterRig(think_ms=50, show_ms=100, over_ms=1000)
    assert rig.play(best) == "machine"


def scenario_counter_choice_lamps_shrink_at_the_end():
    rig = CounterRig(think_ms=50, show_ms=100, starts=[[6]])  # a counter to 6: three bits
    rig.tap("b")
    assert rig.c.panel.bit_lamps == BITS[:3] and rig.c.panel.choice_lamps == [(0, 3), (0, 4), (0, 5)]
    rig.c.press("key 0 3", rig.t)
    rig.c.press("key 0 4", rig.t)
    rig.c.press("key 0 5", rig.t)
    rig.c.press("done", rig.t)  # 3 said, 3 to go: the machine adds 2 (misere)
    rig.wait_for_visitor()
    assert rig.c.position()[0] == [1]
    assert rig.c.panel.lit[0][:6] == [True, False, True, True, False, False]  # 101 = 5; one choice left


def scenario_counter_teach_hints_with_the_choice_lamps():
    rig = CounterRig(think_ms=50, show_ms=100, difficulty="teach", hint_ms=1000, first="machine")
    rig.tap("b")
    rig.wait_for_visitor()
    rig.run(1200)
    hints = rig.kinds("hint")
    assert hints, rig.events
    k = rig.c.position()[0][0] - hints[0]["after"][0]
    assert rig.c.hint == CHOICES[:k]


def scenario_counter_is_refused_where_it_cannot_be_shown():
    for overrides in (
        {"starts": [[200]]},  # 8 bits + 3 choices > 10 lamps
        {"rules": "nim"},  # one move may add 21: 21 choice lamps
        {"rules": "nim", "starts": [[2, 3]]},
        {"rules": "circular", "misere": False, "starts": [[10]]},
    ):
        try:
            CounterRig(**overrides)
        except PanelError:
            continue
        raise AssertionError("the ring accepted a counter with %r" % (overrides,))
    spec = board("pi-neopixel")  # row buttons: no way to choose lamps
    settings = resolve({}, "21counter")
    try:
        Controller(CursorIO(spec), settings, choose_layout(spec, settings), spec["input"])
    except PanelError:
        pass
    else:
        raise AssertionError("a row board accepted a counter")
    assert CounterRig(starts=[[31]]).c is not None  # 5 bits + 3: fits
    assert [digits(n) for n in (0, 1, 2, 21, 31, 32)] == [1, 1, 2, 5, 5, 6]
    panel = CounterPanel(parse_rules("subtract:2"), [4, 4, 4], [9])  # a MacroPad's keys: 4 bits, 2 choices
    assert panel.bit_lamps == [(0, 0), (0, 1), (0, 2), (0, 3)] and panel.choice_lamps == [(1, 0), (1, 1)]
