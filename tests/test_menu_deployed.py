# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator menu's lists, checked at deploy (issue 27).

The finding, on stock CircuitPython 9.2.8 (``tools/emu_board.py
--service``, emulated): the presets' list offered 20 of pico-grid's 25 and
5 of the MacroPad's 9, and said nothing; after it, pico-grid answered
``EXPLAIN`` with ``ERR busy out of memory``. Checking every value on the
board loaded every rule set's module in turn; CircuitPython never frees a
module's names, their pool had to grow by 8.3 KB at once, and no such
block was left (``MemoryError ... allocating 1280``: the pool's 1,280
names). Now ``nimatron deploy`` checks the lists on the host, with the
menu's own code (``deployed.choices``), and writes them to
``config/choices.txt``; the board shows them at once and checks only the
value chosen. Here: the lists agree with what the machine accepts, on
every board; the board's menu reads them, loads no rule set to show
them, saves a value a pass at a time, and says a value it refuses."""

import json
import os

import mpy_runner
import pytest
from nimatron.config import boards
from nimatron.config.settings import PRESETS_FILE, changed
from nimatron.games.registry import menu_specs
from nimatron.games.rules import REGISTRY
from nimatron.machine import app, deployed
from nimatron_host.deploy import choices_file
from nimatron_host.machine import DryIO

BOARDS = [name for name in boards.names() if boards.board(name)["driver"] != "gpiozero"]


def lines(board, overrides=None):
    text = choices_file(board, overrides or {}).decode("ascii")
    assert text.endswith("\n")
    return [
        line for line in text.splitlines() if not line.startswith(("#", "power "))
    ]  # power: tests/test_power_line.py


def presets_file():
    import nimatron

    with open(nimatron.resource(PRESETS_FILE)) as f:
        return list(json.load(f))


def accepted(c, settings):
    try:
        c.apply_settings(settings)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("board", BOARDS)
def test_the_deploys_lists_are_what_the_machine_accepts(board):
    """Each listed preset, and each listed rule set for a line's games, is
    applied by a fresh machine; each one left out is refused by it."""
    found = lines(board)
    c = app.make_controller(board, {}, io=DryIO())
    assert found[0] == "layout " + deployed.numbers(c.layout)
    assert found[1].startswith("preset ")
    listed = found[1].split()[1:]
    base = dict(c.settings)
    for name in presets_file():
        try:
            new = changed(base, "preset", name)
        except ValueError:
            assert name not in listed
            continue
        assert accepted(c, new) == (name in listed), name
    rules_lines = [line for line in found[2:] if line.startswith("rules ")]
    assert rules_lines and len(rules_lines) == len(found) - 2
    keys = []
    for line in rules_lines:
        specs = line.split()[1:]
        # "rules normal 2,3,4/1,3,4 nim ...": the games' key, then the rule sets
        for name in presets_file():
            try:
                games = changed(base, "preset", name)
            except ValueError:
                continue
            for misere in (False, True):
                games["misere"] = misere
                key = deployed.games_key(games)
                if line.startswith("rules " + key + " ") and accepted(c, games):
                    keys.append(key)
                    offered = line[len("rules " + key + " ") :].split()
                    for spec in menu_specs(REGISTRY):
                        try:
                            one = changed(games, "rules", spec)  # the starts read by these rules
                        except ValueError:
                            assert spec not in offered, (key, spec)
                            continue
                        assert accepted(c, one) == (spec in offered), (key, spec)
        assert specs
    assert len(keys) >= len(rules_lines)  # every line's games found among the presets'


def test_a_line_for_other_games_or_layout_is_not_used(tmp_path, monkeypatch):
    """The board uses a line only for its own layout and games; a file it
    cannot read, or one for another layout, leaves it to check every value."""
    import nimatron

    c = app.make_controller("macropad", {"preset": "pad-moore"}, io=DryIO())
    path = tmp_path / "choices.txt"
    real = nimatron.resource
    monkeypatch.setattr(nimatron, "resource", lambda name: str(path) if name == deployed.FILE else real(name))
    assert deployed.listed(c, "preset") is None  # no file
    path.write_bytes(choices_file("macropad", {"preset": "pad-moore"}))
    assert deployed.listed(c, "preset")[-1] == "pad-subtract"
    assert "moore:2" in deployed.listed(c, "rules")
    assert deployed.listed(c, "difficulty") is None  # not a list the deploy writes
    c.settings = dict(c.settings, starts=[[1, 1, 1]])
    assert deployed.listed(c, "rules") is None  # starts of one's own
    path.write_bytes(choices_file("pico-grid", {}))
    assert deployed.listed(c, "preset") is None  # another layout
    path.write_bytes(b"\xff\xfe\x00garbage\nlayout 4,4,4\npreset\n")
    assert deployed.listed(c, "preset") in (None, [])


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    return mpy_runner.tree(str(tmp_path_factory.mktemp("deployed")), ("tests/fake_io", "tests/mpy/counting_gc"))


def run(tree, board, preset, choices, refused=None):
    with open(os.path.join(tree, "nimatron", "config", "choices.txt"), "wb") as f:
        f.write(choices)
    out = mpy_runner.run(
        "mpy/run_menu_deployed.py", heap="256K", paths=(tree,), args=(board, preset) + ((refused,) if refused else ())
    )
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stdout + out.stderr
    return out.stdout


@pytest.mark.micropython
@pytest.mark.parametrize("board", BOARDS)
def test_the_board_shows_the_deploys_list_and_checks_the_one_chosen(tree, board):
    preset = boards.board(board)["preset"]
    found = lines(board, {"preset": preset})
    out = run(tree, board, preset, choices_file(board, {"preset": preset}))
    assert "shown %d\n" % len(found[1].split()[1:]) in out
    assert "saved " in out


@pytest.mark.micropython
@pytest.mark.parametrize("board", BOARDS)
def test_a_listed_value_the_board_refuses_is_said_and_left_out(tree, board):
    """A drive whose settings changed since the deploy (or a hand-edited
    file): the value chosen is checked on the board, refused in words."""
    preset = boards.board(board)["preset"]
    listed = lines(board, {"preset": preset})[1].split()[1:]
    stranger = [name for name in presets_file() if name not in listed][0]
    choices = choices_file(board, {"preset": preset}).replace(b"\npreset ", b"\npreset %s " % stranger.encode(), 1)
    out = run(tree, board, preset, choices, stranger)
    assert "refused %s: " % stranger in out
