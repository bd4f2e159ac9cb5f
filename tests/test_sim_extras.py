# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Without the simulator's extras (``nimatron[sim]``) every face says so in one line, exit 2.

`nimatron sim --headless --board macropad` without them ended in a
ModuleNotFoundError traceback (issue 28). The generator: each extra's
modules missing in turn, on a board with a display and on one without.
"""
import sys

import pytest

from nimatron_host.cli import main

EXTRAS = ("busdisplay", "fourwire", "displayio", "adafruit_display_text")


def play(tmp_path, monkeypatch, board, line, missing):
    """``nimatron sim --headless`` on ``board`` with ``missing`` not installed: its exit status."""
    script = tmp_path / "s.txt"
    script.write_text(line + "\n")
    monkeypatch.setitem(sys.modules, missing, None)
    return main(["sim", "--headless", "--board", board, "--script", str(script)])


@pytest.mark.parametrize("missing", EXTRAS)
def test_a_board_with_a_display_says_what_is_missing(tmp_path, capsys, monkeypatch, missing):
    assert play(tmp_path, monkeypatch, "macropad", "press done", missing) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and missing in err, err


@pytest.mark.parametrize("missing", EXTRAS)
def test_a_board_without_one_plays_without_them(tmp_path, capsys, monkeypatch, missing):
    assert play(tmp_path, monkeypatch, "pico-neopixel", "press new", missing) == 0
    assert '"event": "new_game"' in capsys.readouterr().out
