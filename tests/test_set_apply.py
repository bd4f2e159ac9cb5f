# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The poll of a SET that applies new games does only that, on a board's
interpreter: it loads no module and drops none (issue 27: on the emulated
pico-grid ``SET preset graph`` applied in one pass of 903.6 ms, the games'
check searching; then 133 ms, the checker dropped and the old rules'
modules unloaded, two collections, with ``machine.unload`` loaded, in the
same pass). Under MicroPython, every grid preset in turn and a SET that
leaves the games alone (tests/mpy/run_set_apply.py).
"""

import mpy_runner
import pytest


@pytest.mark.micropython
def test_the_pass_that_applies_a_set_loads_and_drops_no_module(firmware_tree):
    tree = firmware_tree  # compiled once a worker (conftest)
    commands = [
        "SET preset nim2d",
        "SET preset graph",
        "SET preset candy",
        "SET preset grundy",
        "SET preset building",
        "SET preset graph",
        "SET difficulty teach",
    ]
    out = mpy_runner.run("mpy/run_set_apply.py", heap="256K", paths=(tree,), args=["pico-grid", "graph"] + commands)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "ok %d" % len(commands), out.stdout
    assert len([line for line in lines if "applied: loaded [] dropped []" in line]) == len(commands)


def _set_polls(board, preset, command, monkeypatch):
    """A fresh ``board`` on ``preset`` sent ``command``, polled as a board's
    main loop polls it: (poll by poll, the starts the games' check made
    lamps for and asked the engine about; the starts the settings checked a
    game can begin from; the reply; the controller)."""
    from kit_link import Machine
    from nimatron.config import settings
    from nimatron.panels import playable

    checked = [0]
    begun = [0]
    fits, engine = playable.check_fits, playable.check_engine
    all_starts, one_start = settings._check_starts, getattr(settings, "check_start", None)
    inside = [False]

    def check_starts(s):
        begun[0] += len(s["starts"])
        inside[0] = True
        try:
            return all_starts(s)
        finally:
            inside[0] = False

    def check_start(rules, start):
        if not inside[0]:
            begun[0] += 1
        return one_start(rules, start)

    def check_fits(*a, **k):
        checked[0] += 1
        return fits(*a, **k)

    def check_engine(*a, **k):
        checked[0] += 1
        return engine(*a, **k)

    monkeypatch.setattr(playable, "check_fits", check_fits)
    monkeypatch.setattr(playable, "check_engine", check_engine)
    monkeypatch.setattr(settings, "_check_starts", check_starts)
    if one_start is not None:
        monkeypatch.setattr(settings, "check_start", check_start)
    m = Machine(board, preset=preset)
    m.cable.to_machine += command.encode() + b"\n"
    polls = []
    begins = []
    while b"\n" not in m.cable.to_host and len(polls) < 200:
        checked[0] = begun[0] = 0
        m.now += 20
        m.controller.update(m.now)
        m.link.poll(m.now)
        polls.append(checked[0])
        begins.append(begun[0])
    monkeypatch.undo()
    return polls, begins, m.cable.to_host.decode(), m.controller


def _switches():
    """(board, its own preset, another preset it plays on the same lamps):
    every switch a running board accepts (one to another layout is refused:
    it needs a restart)."""
    from nimatron.config import boards
    from nimatron.machine.app import make_controller
    from nimatron_sim.engine import _Unwired, playable_presets

    out = []
    for board in boards.names():
        own = boards.board(board)["preset"]
        layout = make_controller(board, {"preset": own}, io=_Unwired()).layout
        for preset in playable_presets(board):
            if preset != own and make_controller(board, {"preset": preset}, io=_Unwired()).layout == layout:
                out.append((board, own, preset))
    return out


@pytest.mark.parametrize("board, own, preset", _switches())
def test_a_set_that_changes_the_games_checks_one_start_a_poll(board, own, preset, monkeypatch):
    """Each start of the new games is checked (a game can begin there, its
    lamps made, the engine asked) in a poll of its own, and neither the poll
    that works the settings out nor the one that applies them checks any
    (issue 27: ``SET preset graph`` on a fresh pico-grid checked Graph Nim's
    four starts in the pass that applied it, 115.4 ms emulated; nim2d's
    three 89.7 ms, grundy's two 72.4 ms; then the settings worked out with
    the four starts checked, 67 ms). Every start is still checked: the reply
    is OK and the new settings are in play."""
    polls, begins, reply, c = _set_polls(board, own, "SET preset %s" % preset, monkeypatch)
    assert reply.startswith("OK"), reply
    assert c.settings["preset"] == preset
    starts = len(c.settings["starts"])
    # a start is checked in two calls (its lamps, the engine); the rows of a
    # heap board fit any start of their rules and are checked so too
    assert max(polls) <= 2, "%s -> %s: a poll checked %d starts: %s" % (own, preset, max(polls) // 2, polls)
    assert sum(polls) == 2 * starts, (polls, starts)
    assert max(begins) <= 1, "%s -> %s: a poll checked %d starts could begin: %s" % (own, preset, max(begins), begins)
    assert sum(begins) >= starts, (begins, starts)
