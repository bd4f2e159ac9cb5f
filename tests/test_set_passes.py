# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""SET over the host link takes one step a main-loop pass on a board.

Loading a module is a tick's work on a board (10-30 ms of .mpy each on an
RP2040, CircuitPython 9.2.8 emulated: docs/board.md); a SET that loaded the
settings' checks, the games' checker, a new rule set and its lamps' drawing
in one pass froze the lamps for 70-300 ms. Under MicroPython, for every
board and every preset it plays, each poll of the link loads at most one
firmware module (a rule set's module with the game modules it imports
counted as one), the reply still comes, and the setting is applied.
"""

import pytest

import mpy_runner
from nimatron.config import boards
from nimatron_sim.engine import playable_presets


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return mpy_runner.tree(str(tmp_path_factory.mktemp("set")))


@pytest.mark.parametrize("board", boards.names())
def test_every_set_a_board_accepts_loads_one_module_a_pass(tree, board):
    own = boards.board(board)["preset"]
    commands = ["SET preset %s" % p for p in playable_presets(board) if p != own] + ["SET preset %s" % own]
    commands += ["SET difficulty teach", "SET think_ms 500", "SET difficulty nosuch", "SET rules nosuch",
                 "SET difficulty perfect"]
    out = mpy_runner.run("mpy/run_set_passes.py", heap="256K", paths=(tree,), args=(board, own) + tuple(commands))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "ok 1", out.stdout
    replies = lines[:-1]
    assert len(replies) == len(commands)
    for line in replies:  # accepted, or refused in words (another layout, a bad value): never busy or internal
        assert "-> OK" in line or "-> ERR value" in line, line
    assert "SET preset %s" % own in replies[len(commands) - 6] and "-> OK" in replies[len(commands) - 6]
    for line in replies:
        if "nosuch" in line:
            assert "-> ERR value" in line, line


def test_a_set_that_leaves_the_games_alone_does_not_check_them_again(monkeypatch):
    """Checking the games is the costly step (0.4 s for Graph Nim's starts on
    a Pico): done when the games change, not for the difficulty."""
    from nimatron.config.settings import changed
    from nimatron.machine.app import make_controller
    from nimatron.panels import playable
    from nimatron_sim.engine import _Unwired

    c = make_controller("pico-grid", {"preset": "graph"}, io=_Unwired())
    checked = []
    real = playable.check_games
    monkeypatch.setattr(playable, "check_games", lambda *a, **k: checked.append(a[3]) or real(*a, **k))
    for key, value in (("difficulty", "teach"), ("think_ms", 500), ("remote_play", True), ("explain", True)):
        c.apply_settings(changed(c.settings, key, value))
    assert checked == [] and c.settings["difficulty"] == "teach"
    c.apply_settings(changed(c.settings, "misere", True))
    c.apply_settings(changed(c.settings, "starts", [[7, 7, 0, 15]]))
    assert len(checked) == 2 and checked[1] == [[7, 7, 0, 15]]


def test_the_panel_module_named_is_the_one_make_panel_loads():
    """A SET loads the new lamps' drawing in a pass of its own by the name
    ``panel_module`` gives: every board and preset, in a fresh interpreter,
    the panels module ``make_panel`` imports is that one (the name went stale
    once when the drawings were split into modules of their own)."""
    import os
    import subprocess
    import sys

    script = r'''
import sys
from nimatron.config import boards
from nimatron.config.settings import resolve
from nimatron.games.rules import parse_rules
from nimatron.machine.app import choose_layout
from nimatron.panels import panel
from nimatron_sim.engine import playable_presets

def drawings():
    return set(m for m in sys.modules if m.startswith("nimatron.panels.") and m != "nimatron.panels.panel")

wrong = []
for board in boards.names():
    spec = boards.board(board)
    for preset in playable_presets(board):
        s = resolve({}, preset)
        rules = parse_rules(s["rules"])
        for name in drawings():
            del sys.modules[name]
        panel.make_panel(rules, choose_layout(spec, s), s["starts"][0], counter=s.get("counter", False))
        named = panel.panel_module(rules, s.get("counter", False))
        loaded = sorted(m[16:] for m in drawings())
        if loaded != ([named] if named else []):
            wrong.append("%s %s: named %s, loaded %s" % (board, preset, named, loaded))
print("\n".join(wrong) or "ok")
'''
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(os.path.join(root, d) for d in ("firmware", "simulator", "host")))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=root)
    assert out.stdout.strip() == "ok", out.stdout + out.stderr
