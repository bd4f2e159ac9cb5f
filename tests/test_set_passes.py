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
counted as one), each of the SET's own modules after a poll that only
collected, the presets file is read at most once a poll and never in one
that loads a module or saves (the save compared the settings with the
preset resolved again: 27-50 ms of a pass on pico-grid), the reply still
comes, the setting is applied, and what is saved resolves back to it.
"""

import mpy_runner
import pytest
from nimatron.config import boards
from nimatron_sim.engine import playable_presets


@pytest.fixture(scope="module")
def tree(firmware_tree):
    return firmware_tree  # compiled once a worker (conftest)


@pytest.mark.parametrize("board", boards.names())
def test_every_set_a_board_accepts_loads_one_module_a_pass(tree, board):
    own = boards.board(board)["preset"]
    commands = ["SET preset %s" % p for p in playable_presets(board) if p != own] + ["SET preset %s" % own]
    commands += [
        "SET difficulty teach",
        "SET think_ms 500",
        "SET difficulty nosuch",
        "SET rules nosuch",
        "SET difficulty perfect",
    ]
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

    script = r"""
import sys
from nimatron.config import boards
from nimatron.config.settings import resolve
from nimatron.games.rules import parse_rules
from nimatron.machine.app import choose_layout
from nimatron.panels import make_panel, panel
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
        make_panel(rules, choose_layout(spec, s), s["starts"][0], counter=s.get("counter", False))
        named = panel.panel_module(rules, s.get("counter", False))
        loaded = sorted(m[16:] for m in drawings())
        if loaded != ([named] if named else []):
            wrong.append("%s %s: named %s, loaded %s" % (board, preset, named, loaded))
print("\n".join(wrong) or "ok")
"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(os.path.join(root, d) for d in ("firmware", "simulator", "host")))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=root)
    assert out.stdout.strip() == "ok", out.stdout + out.stderr


def _resolved_again(current, key, value):
    """What ``changed`` gave when it resolved every setting again."""
    from nimatron.config.settings import KEEP_ON_PRESET, check_value, resolve

    value = check_value(key, value)
    if key == "preset":
        return resolve({k: current[k] for k in KEEP_ON_PRESET}, value)
    new = dict(current)
    new[key] = value
    return resolve(new, new["preset"])


def _diff_resolved_again(settings):
    """What ``settings_diff`` gave when it resolved the preset again."""
    from nimatron.config.settings import resolve

    base = resolve({}, settings["preset"])
    return {k: v for k, v in settings.items() if k == "preset" or v != base[k]}


@pytest.mark.parametrize("board", ["pico-grid", "pico-ring", "pico-neopixel", "macropad"])
def test_one_value_checked_and_saved_against_the_preset_as_read_as_if_resolved_again(board):
    """``changed`` checks the one value (and the starts, for rules or starts)
    and ``settings_diff`` compares with the preset as read: the same settings
    and the same saved difference as resolving everything again, for every
    preset the board plays and the changes a host or the menu makes."""
    from nimatron.config.settings import SettingsError, changed, load_preset, resolve
    from nimatron.machine.startup import settings_diff

    own = boards.board(board)["preset"]
    played = playable_presets(board)
    for name in played:
        current = _resolved_again(resolve({"remote_play": True, "operator_pin": "1940"}, own), "preset", name)
        changes = [
            ("difficulty", "teach"),
            ("difficulty", current["difficulty"]),
            ("remote_play", "off"),
            ("think_ms", "500"),
            ("misere", not current["misere"]),
            ("explain", "on"),
            ("starts", current["starts"][-1:]),
            ("rules", current["rules"]),
            ("rules", "nosuch"),
            ("starts", [[0]]),
            ("brightness", "0.5"),
            ("preset", own),
            ("preset", played[-1]),
        ]
        for key, value in changes:
            try:
                expected = _resolved_again(current, key, value)
            except SettingsError as e:
                with pytest.raises(SettingsError) as raised:
                    changed(current, key, value)
                assert str(raised.value) == str(e), (name, key, value)
                continue
            preset = load_preset(value if key == "preset" else current["preset"])
            for new in (changed(current, key, value), changed(current, key, value, preset)):
                assert new == expected, (name, key, value)
                assert settings_diff(new) == settings_diff(new, preset) == _diff_resolved_again(new), (name, key)


def test_the_records_crc_does_work_in_python_by_the_record_not_by_the_byte():
    """A settings record's CRC by hand took 10-54 ms of a SET's save pass on
    pico-grid (emulated): binascii's, in C, where the interpreter has it
    (CPython, MicroPython, CircuitPython on an RP2040). Counted in lines of
    Python run: the same for 20 bytes as for 2,000."""
    import sys

    from nimatron.machine import records

    def lines(data):
        count = [0]

        def trace(frame, event, arg):
            if frame.f_code.co_filename == records.__file__:
                if event == "line":
                    count[0] += 1
                return trace
            return None

        sys.settrace(trace)
        try:
            records.crc32(data)
        finally:
            sys.settrace(None)
        return count[0]

    assert lines(bytes(range(20))) == lines(bytes(range(200)) * 10) > 0


@pytest.mark.parametrize(
    ("board", "preset", "new"), [("pico-grid", "allheaps", "graph"), ("macropad", "pad-nim", "pad-graph")]
)
def test_a_new_game_of_new_rules_drops_the_old_ones_and_collects_in_the_next_pass(tree, board, preset, new):
    """A SET preset sent mid-game applies at the next game; after the NEW
    that begins it, the old rules' modules are dropped in a pass of their own
    and their garbage is collected first thing in the next (the drop, its
    load of machine.unload, which collects, and the collection in the NEW's
    pass: 82-98 ms on pico-grid, issue 43)."""
    out = mpy_runner.run("mpy/run_new_rules.py", heap="256K", paths=(tree,), args=(board, preset, new))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "ok", out.stdout
    polls = [line for line in lines if line.startswith("poll ")]
    new_poll = int(lines[-len(polls) - 2].split()[-1])  # the NEW's reply: the poll its press's pass would be
    drops = [i for i, line in enumerate(polls) if "dropped []" not in line]
    assert drops, "the old rules' modules never left: " + out.stdout
    assert min(drops) > new_poll, "dropped in the NEW's own pass (machine.unload's load collects): " + out.stdout
    for i in drops:
        assert polls[i].endswith("collected 0"), "the drop collected in its own poll: " + out.stdout
        assert i + 1 < len(polls) and not polls[i + 1].endswith("collected 0"), "not collected next poll: " + out.stdout
