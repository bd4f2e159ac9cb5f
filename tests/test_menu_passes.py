# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu's lists of presets and rule sets, and its save, a step
a main-loop pass.

Opening the preset list checked every preset in the press's pass (each
``settings.changed`` loading a rule set's module and checking its starts,
then ``Controller.check_settings`` checking every start's game): 92-677 ms
under MicroPython on a PC, the lamps frozen while a technician chose. For
every board and the presets and rule sets its menu offers: each poll of the
controller checks at most one start (``check_start``), asks the controller
about at most one value's games (``check_settings``), loads at most one
rule set's module (a rule set with the modules it imports counted as one)
and never checks in the poll that applies; the list worked out over the
passes is the one worked out at once, stepping offers only values checked
so far, and a preset chosen plays from the next game. Under MicroPython
(where a forgotten module loads again), no poll of pico-grid's menu loads
more than one firmware module opening either list or saving.
"""

import sys

import mpy_runner
import pytest
from controller_scenarios import Rig
from nimatron.config import boards, settings
from nimatron.machine.deployed import choices as menu_choices
from nimatron.machine.service import ITEMS


class Counts:
    """Per poll: starts checked, games asked about, applies, modules loaded."""

    def __init__(self, monkeypatch, c):
        self.now = {}
        real_start = settings.check_start
        real_check = c.check_settings
        real_apply = c.apply_settings

        def check_start(rules, start):
            self.count("check_start")
            return real_start(rules, start)

        def check_settings(new, checked=False):
            if not checked:
                self.count("check_settings")
            return real_check(new, checked)

        def apply_settings(new, drop=True, checked=False):
            self.count("apply")
            return real_apply(new, drop, checked)

        monkeypatch.setattr(settings, "check_start", check_start)
        monkeypatch.setattr(c, "check_settings", check_settings)
        monkeypatch.setattr(c, "apply_settings", apply_settings)

    def count(self, what):
        self.now[what] = self.now.get(what, 0) + 1


def poll(rig, counts, polls):
    """One controller pass; what it did is appended to ``polls``."""
    counts.now = {}
    before = {m for m in sys.modules if m.startswith("nimatron.")}
    rig.t += 10
    rig.c.update(rig.t)
    loaded = [m for m in sys.modules if m.startswith("nimatron.") and m not in before]
    counts.now["loads"] = len([m for m in loaded if m.rpartition(".")[2] not in ("grid", "nim")])
    if loaded:
        counts.now["loaded"] = loaded
    polls.append(counts.now)


def tap(rig, counts, polls, role):
    """A press and its release, each seen by the controller's passes."""
    rig.edge(role, True)
    for _ in range(6):
        poll(rig, counts, polls)
    rig.edge(role, False)
    for _ in range(6):
        poll(rig, counts, polls)


def one_at_a_time(polls):
    for k, did in enumerate(polls):
        assert did.get("check_start", 0) <= 1, (k, did)
        assert did.get("check_settings", 0) <= 1, (k, did)
        assert did["loads"] <= 1, (k, did)
        if did.get("apply"):
            assert not did.get("check_start") and not did.get("check_settings"), (k, did)


def open_list(rig, counts, polls, key):
    """The menu opened over the link, then adjustments, ``key``, DONE."""
    rig.c.service(True, rig.t, "link")
    menu = rig.c.menu
    while ITEMS[menu.item] != "adjust":
        tap(rig, counts, polls, "row0")
    tap(rig, counts, polls, "done")
    while menu.adjustable()[menu.index] != key:
        tap(rig, counts, polls, "row0")
    tap(rig, counts, polls, "done")
    assert menu.screen == "adjust_value" and menu.key == key


@pytest.mark.parametrize("key", ("preset", "rules"))
@pytest.mark.parametrize("board", boards.names())
def test_the_menu_checks_a_value_a_pass_and_saves_in_passes(monkeypatch, board, key):
    at_once = Rig(board)
    at_once.c.service(True, at_once.t, "link")
    expected = menu_choices(at_once.c.menu, key)
    assert len(expected) > 1, expected

    rig = Rig(board)
    counts = Counts(monkeypatch, rig.c)
    polls = []
    open_list(rig, counts, polls, key)
    menu = rig.c.menu
    current = rig.c.settings[key]
    offered = []
    for _ in range(2000):
        if getattr(menu, "work", None) is None:  # (the old menu had none: all done in the press's pass)
            break
        offered.append(list(menu.choices))
        poll(rig, counts, polls)
    one_at_a_time(polls)
    assert menu.choices == expected
    for shown in offered:  # each list a part of the whole, in its order, the current value in it
        assert current in shown and [v for v in expected if v in shown] == shown
    assert len(offered) > len(expected)  # worked out over passes, not in the press's

    # a value of another rule set chosen and saved, a step a pass; it plays from the next game
    old_rules = rig.c.rules.spec
    other = None
    for k, value in enumerate(expected):
        rules = settings.changed(rig.c.settings, key, value)["rules"]
        if rules != old_rules:
            other = k
            break
    if other is None:
        pytest.skip("every choice of %s plays %s" % (key, old_rules))
    while menu.choices[menu.index] != expected[other]:
        tap(rig, counts, polls, "row0")
    polls = []
    tap(rig, counts, polls, "done")
    for _ in range(20):
        if menu.screen == "adjust":
            break
        poll(rig, counts, polls)
    assert menu.screen == "adjust" and rig.c.settings[key] == expected[other]
    adjusted = rig.kinds("adjusted")[-1]
    assert adjusted["value"] == expected[other] and "error" not in adjusted
    one_at_a_time(polls)
    assert sum(did.get("apply", 0) for did in polls) == 1
    assert sum(1 for did in polls if did) > 2  # applied, dropped, saved: not all in the press's pass
    rig.c.service(False, rig.t, "test")
    rig.c.new_game(rig.t)
    assert rig.c.rules.spec == settings.changed(rig.c.settings, key, expected[other])["rules"] != old_rules


def test_leaving_a_list_half_checked_leaves_the_settings_and_the_next_list_whole():
    rig = Rig("pico-grid")
    c = rig.c
    c.service(True, rig.t, "link")
    menu = c.menu
    menu.item = ITEMS.index("adjust")
    menu.select(rig.t)
    menu.index = menu.adjustable().index("preset")
    before = c.settings
    menu.select(rig.t)
    rig.run(30)
    assert menu.work is not None
    menu.back(rig.t)
    assert menu.screen == "adjust" and menu.work is None and c.settings is before
    menu.select(rig.t)
    assert menu.choices == [before["preset"]]
    rig.run(5000)
    assert menu.work is None and len(menu.choices) > 1


@pytest.mark.parametrize("key, value", (("preset", "nim2d"), ("rules", "graph:3")))
def test_under_micropython_a_poll_of_the_menu_loads_one_module_at_most(firmware_tree, key, value):
    tree = firmware_tree  # compiled once a worker (conftest)
    out = mpy_runner.run("mpy/bench_menu.py", heap="256K", paths=(tree,), args=("pico-grid", "graph", key, "1", value))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "ok", out.stdout
    most = [int(line.split()[-1]) for line in lines if line.startswith("most modules loaded in a poll")]
    assert len(most) == 2 and max(most) <= 1, out.stdout  # the list opened, then the save
