# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The power budget worked out by the deploy (``config/choices.txt``'s
``power`` line) and used by the board: every start loaded ``config.power``
to check the brightness, and its 42 names, which CircuitPython never frees,
put a MacroPad's day of play within 5 names of its pool's next 8.3 KB
(issue 27: five names more and 32.6 KB free instead of 40.1). The line holds
the levels ``power.check`` gives; a pin map edited after the deploy, a value
left out, or no file: checked on the board as before, refusals said why."""

import nimatron
import pytest
from nimatron.config import boards, power
from nimatron.machine.adjust import CHOICES
from nimatron.machine.limit import PowerLimit, deployed_level
from nimatron.machine.store import crc32
from nimatron_host.deploy import choices_file, power_line
from nimatron_host.payload import firmware_files

BOARDS = [name for name in boards.names() if boards.board(name)["driver"] != "gpiozero"]


def line_of(text):
    found = [line for line in text.decode("ascii").splitlines() if line.startswith("power ")]
    assert len(found) == 1
    return found[0].split()


@pytest.mark.parametrize("board", BOARDS)
def test_the_line_is_the_budget_of_the_pin_map_the_deploy_writes(board):
    spec = boards.board(board)
    words = line_of(choices_file(board, {}))
    pinmap = firmware_files(board, spec, None, None)["lib/nimatron/config/pinmaps/%s.json" % board]
    assert words[1] == board and words[2] == "%08x" % crc32(pinmap)
    listed = dict(word.split("=") for word in words[3:])
    for value in set(CHOICES["brightness"]) | {spec.get("brightness", 1.0)}:
        try:
            level = power.check(board, spec, value)
        except power.PowerError:
            assert repr(value) not in listed, value  # refused: the board says why itself
            continue
        assert float(listed[repr(value)]) == level


@pytest.fixture
def drive_file(tmp_path, monkeypatch):
    path = tmp_path / "choices.txt"
    real = nimatron.resource
    monkeypatch.setattr(nimatron, "resource", lambda name: str(path) if name == "config/choices.txt" else real(name))
    return path


def test_the_board_takes_a_listed_level_without_the_power_module(drive_file, monkeypatch):
    drive_file.write_text(power_line("macropad", 0.2) + "\nlayout 4,4,4\n")

    def refuse(*args):
        raise AssertionError("config.power asked for a level the deploy listed")

    monkeypatch.setattr(power, "check", refuse)
    limit = PowerLimit("macropad", boards.board("macropad"))
    assert limit({"brightness": 0.2}) == 0.2
    assert limit({"brightness": 0.05}) == 0.05
    assert limit({"brightness": None}) == 0.2  # the settings' usual value: the pin map's own


@pytest.mark.parametrize(
    "text",
    [
        None,  # no file
        "layout 4,4,4\n",  # no power line
        "power macropad 00000000 0.2=0.2 1.0=1.0\n",  # the pin map edited since
        "power pico-grid %s 1.0=1.0\n",  # another board's line
        "power macropad %s 0.2=zz 1.0=\n",  # damaged
        "\xff\xfe power",
    ],
)
def test_anything_else_is_checked_on_the_board_and_refusals_say_why(drive_file, text):
    spec = boards.board("macropad")
    if text is not None:
        crc = line_of(choices_file("macropad", {}))[2]
        drive_file.write_bytes((text % crc if "%s" in text else text).encode("latin-1"))
    assert deployed_level("macropad", 1.0) is None
    limit = PowerLimit("macropad", spec)
    assert limit({"brightness": 0.2}) == power.check("macropad", spec, 0.2)
    with pytest.raises(power.PowerError, match="brightness 1.00 needs up to"):
        limit({"brightness": 1.0})  # the MacroPad's USB supply cannot light 12 pixels at full


def test_a_brightness_the_deploy_refused_is_refused_with_its_reason(drive_file):
    drive_file.write_text(power_line("macropad", 0.2) + "\n")
    assert deployed_level("macropad", 1.0) is None  # left out of the line
    with pytest.raises(power.PowerError, match="brightness at most"):
        PowerLimit("macropad", boards.board("macropad"))({"brightness": 1.0})
