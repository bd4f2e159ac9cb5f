# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron soak``: a bounded soak in CI (the long one is a documented command)."""

import re

import pytest
from nimatron_host.cli import main as nimatron


def summary(capsys):
    captured = capsys.readouterr()
    out = captured.out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("soak: ")
    counts = {}
    for n, name in re.findall(
        r"(\d+) (games|power cuts|mid-write|stuck buttons|chords|host commands|violations)", out[0]
    ):
        counts.setdefault(name, int(n))  # the first: "audits short ... by N games" comes later
    return captured.err, counts


def test_a_short_soak_with_power_cuts_finds_no_violation(capsys):
    assert nimatron(["soak", "--games", "40", "--board", "pi-leds", "--seed", "3", "--cut-every", "3"]) == 0
    err, counts = summary(capsys)
    assert counts["games"] == 40 and counts["violations"] == 0
    assert counts["power cuts"] >= 5 and counts["mid-write"] >= 1 and counts["host commands"] > 100


@pytest.mark.parametrize(
    "board, games", [("pico-ring", 100), ("macropad", 100), ("pico-grid", 25), ("circuitplayground", 25)]
)
def test_grid_and_cursor_boards_soak_through_chords_and_refusals(capsys, board, games):
    """Seed 3 once left keys selected after a chord, and read the lamps mid-refusal."""
    assert nimatron(["soak", "--games", str(games), "--board", board, "--seed", "3"]) == 0
    err, counts = summary(capsys)
    assert counts["games"] == games and counts["violations"] == 0 and counts["chords"] > 0


def test_a_store_that_forgets_is_caught(capsys, monkeypatch):
    from nimatron.machine.store import Store

    monkeypatch.setattr(Store, "save_audits", lambda self, record, urgent=False: True)  # says saved, writes nothing
    assert nimatron(["soak", "--games", "16", "--seed", "3", "--cut-every", "2"]) == 1
    err, counts = summary(capsys)
    assert counts["violations"] >= 1 and "violation: after a restart the audits hold" in err


@pytest.mark.parametrize(
    "args, message",
    [
        (["--games", "0"], "--games must be at least 1"),
        (["--board", "nosuch"], "unknown board 'nosuch'"),
        (["--cut-every", "0"], "--cut-every must be at least 1"),
    ],
)
def test_bad_soak_options_are_usage_errors(capsys, args, message):
    assert nimatron(["soak"] + args) == 2
    assert message in capsys.readouterr().err


def test_the_soak_plays_the_board_as_shipped_unless_asked(capsys):
    """The default is the nvm alone with NOR flash tears: what a Pico has."""
    assert nimatron(["soak", "--games", "60", "--seed", "5", "--cut-every", "2"]) == 0
    out = capsys.readouterr().out
    assert "(nvm alone, NOR bits)" in out and " 0 violations" in out
    assert (
        nimatron(["soak", "--games", "30", "--seed", "5", "--cut-every", "2", "--state-file", "--tear", "bytes"]) == 0
    )
    assert "(nvm and state file, bytes)" in capsys.readouterr().out


def test_ctrl_c_prints_the_summary_so_far_and_exits_130():
    import os
    import signal
    import subprocess
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    soak = subprocess.Popen(
        [sys.executable, "-m", "nimatron_host.cli", "soak", "--games", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(here),
    )
    try:
        started = soak.stderr.readline()  # said once the soak is under way (its imports done)
        assert started.startswith("soak: 1000000 games on pico-neopixel"), started
        soak.send_signal(signal.SIGINT)
        out, err = soak.communicate(timeout=300)
    finally:
        if soak.poll() is None:
            soak.kill()
    assert soak.returncode == 130, err
    assert out.startswith("soak interrupted: ") and " games (nvm alone, NOR bits)" in out, out
    assert "Traceback" not in err


def test_bad_tear_option_is_a_usage_error(capsys):
    assert nimatron(["soak", "--tear", "pages"]) == 2
    assert "invalid choice: 'pages'" in capsys.readouterr().err
