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

EXTRAS = ("busdisplay", "fourwire", "displayio", "terminalio")


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


def without_textual(monkeypatch):
    """As if ``nimatron[sim]`` were not installed: no Textual, the terminal app not yet imported."""
    import nimatron_sim

    for name in ["textual"] + [m for m in sys.modules if m.startswith("textual.")]:
        monkeypatch.setitem(sys.modules, name, None)  # an earlier test's textual.app must not answer the import
    monkeypatch.delitem(sys.modules, "nimatron_sim.tui", raising=False)
    monkeypatch.delattr(nimatron_sim, "tui", raising=False)


def test_the_terminal_app_says_it_needs_textual(capsys, monkeypatch):
    without_textual(monkeypatch)
    assert main(["sim", "--board", "pi-leds"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs the simulator's extras (textual" in err, err


def test_the_web_page_needs_no_textual(capsys, monkeypatch):
    """The web page is standard library only: it once started through the
    terminal app's module, so without Textual it said the terminal app's
    sentence, which advised the very --web that had failed."""
    without_textual(monkeypatch)
    assert main(["sim", "--web", "--lang", "xx"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--lang must be one of" in err and "textual" not in err, err
    assert "nimatron_sim.tui" not in sys.modules
