# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Issue 13's property: random settings, every key and every type (huge,
infinite, NaN, negative, Unicode, nested lists, bools), through every path a
setting arrives by (the settings file as code.py reads it, ``--set`` for the
simulator and for ``python -m nimatron``, ``SET`` over the host link) end in
either a clear refusal or a machine that plays a game to the end.

The game is played by a robot on the buttons (a random legal move each
turn, pressed and released on the controller's own input port), with the
clock stepped in 250 ms ticks so minute-long pauses cost little. Grundy's
game and circular Nim are left to the grid boards' own tests (issue 10).
"""

import argparse
import json
import random

import nimatron.__main__ as machine_cli
from controller_scenarios import FakeIO
from hypothesis import HealthCheck, event, given, settings as hsettings, strategies as st
from kit_link import Machine
from nimatron.config import settings as settings_module
from nimatron.config.settings import DEFAULTS, preset_names
from nimatron.machine.app import make_controller
from nimatron_sim import cli as sim_cli

BOARDS = ("pico-neopixel", "pico-grid", "pi-leds")
RULES = ("nim", "subtract:3", "subtract:1", "moore:2", "greedy", "allheaps", "subtract:٣", "nim:2", "")
TICK = 250


junk = st.one_of(
    st.integers(-10, 300),
    st.integers(min_value=2**31),
    st.integers(max_value=-(2**31)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.booleans(),
    st.none(),
    st.sampled_from(["١٢", "²", "1e999", "Infinity", "NaN", "-0", "0800", "on", "true", "1.5", "  7 "]),
    st.lists(st.integers(-2, 12), max_size=9),
    st.lists(st.lists(st.integers(0, 9), max_size=9), max_size=3),
    st.lists(st.lists(st.lists(st.integers(0, 3), max_size=2), max_size=2), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
good = {
    "preset": st.sampled_from([p for p in preset_names() if p not in ("grundy", "circular")]),
    "rules": st.sampled_from(RULES),
    "difficulty": st.sampled_from(["perfect", "fallible", "equalizer", "teach"]),
    "first": st.sampled_from(["visitor", "machine", "alternate"]),
    "starts": st.lists(st.lists(st.integers(0, 7), min_size=1, max_size=5), min_size=1, max_size=3),
    "layout": st.one_of(st.none(), st.lists(st.integers(1, 9), min_size=1, max_size=8)),
    "operator_pin": st.sampled_from(["", "4711", "0000", "12", "١٢٣٤"]),
    "brightness": st.one_of(st.none(), st.floats(0.01, 1), st.sampled_from(["default", "0.5", "2", "nan"])),
}
for key, (low, high) in settings_module._INT.items():
    good[key] = st.integers(low, high)
for key in settings_module._BOOL:
    good[key] = st.one_of(st.booleans(), st.sampled_from(["on", "off", "true", "0"]))
value_for = lambda key: st.integers(0, 5).flatmap(lambda i: junk if i == 5 else good.get(key, junk))  # noqa: E731 (5 good : 1 junk)
overrides = st.lists(st.sampled_from(sorted(DEFAULTS)), min_size=1, max_size=4, unique=True).flatmap(
    lambda keys: st.fixed_dictionaries({k: value_for(k) for k in keys})
)


def play_to_the_end(c, events, seed):
    """A robot plays one game; True if it ended with a winner."""
    rng = random.Random(seed)
    now = c.now
    c.update(now)  # the power-up pass: a button already down here would be reported stuck
    c.press("new", now)
    plan, held = [], None
    for _ in range(4000):
        now += TICK
        if held:
            c.io.queue.append((held, False))
            held = None
        elif c.state == "visitor":
            if not plan:
                heaps, ring = c.position()
                moves = list(c.rules.moves(heaps, ring))
                lamps, light = c.panel.lamps_for(moves[rng.randrange(len(moves))])
                done = ["done"]
                if c.rules.name == "building" and light:  # a press where the stone lands, no DONE
                    lamps, done = light, []
                if c.input_model == "rows":
                    plan = ["row%d" % r for r, i in lamps] + done
                else:
                    plan = ["key %d %d" % (r, i) for r, i in lamps] + done
            held = plan.pop(0)
            c.io.queue.append((held, True))
        c.update(now)
        over = [e for e in events if e["event"] == "game_over"]
        if over:
            assert over[0]["winner"] in ("visitor", "machine"), over
            assert not [e for e in events if e["event"] in ("fault", "refused")], events
            return True
    return False


def built_or_refused(board, settings, seed):
    events = []
    try:
        c = make_controller(board, settings, io=FakeIO(), listener=events.append)
    except ValueError as e:  # SettingsError, PanelError, BoardError: the CLIs' exit 2
        assert str(e) and "\n" not in str(e) and len(str(e)) < 400, repr(e)
        event("refused: " + str(e)[:25])
        return
    assert play_to_the_end(c, events, seed), (board, c.settings)
    event("played")


def as_text(value):
    return value if isinstance(value, str) else json.dumps(value)


BOUNDED = hsettings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@BOUNDED
@given(overrides, st.sampled_from(BOARDS), st.integers(0, 99))
def test_settings_file_as_code_py_reads_it(settings, board, seed):
    text = json.dumps(settings)  # what an operator might save
    built_or_refused(board, json.loads(text), seed)


@BOUNDED
@given(overrides, st.sampled_from(BOARDS), st.integers(0, 99))
def test_set_on_the_command_lines(settings, board, seed):
    sets = ["%s=%s" % (k, as_text(v)) for k, v in settings.items()]
    sim_args = argparse.Namespace(set=sets, preset=None, rules=None, difficulty=None, first=None, misere=False)
    built_or_refused(board, sim_cli.overrides(sim_args), seed)
    machine_args = machine_cli.parse_args(["--board", board] + [a for s in sets for a in ("--set", s)])
    built_or_refused(board, machine_cli.overrides(machine_args), seed)


@hsettings(max_examples=50, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(overrides, st.sampled_from(BOARDS), st.integers(0, 99))
def test_set_over_the_host_link(settings, board, seed):
    m = Machine(board, remote_play=True)
    for key, value in settings.items():
        text = as_text(value)
        if not text.strip() or not text.isascii() or "\n" in text or "\r" in text or len(text) > 200:
            continue  # the line protocol takes one ASCII line (its own tests refuse the rest)
        kind, data = m.ask("SET %s %s" % (key, text))
        if kind == "ERR":
            assert data[0] in ("value", "syntax", "locked") and data[1], data
    events = []
    c = m.controller
    c.io = FakeIO()
    before = c.listener
    c.listener = lambda e: (events.append(e), before(e))
    c.state = "attract"
    assert play_to_the_end(c, events, seed), c.settings
