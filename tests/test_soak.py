"""``nimatron soak``: a bounded soak in CI (the long one is a documented command)."""

import re

import pytest

from nimatron_host.cli import main as nimatron


def summary(capsys):
    captured = capsys.readouterr()
    out = captured.out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("soak: ")
    counts = dict((name, int(n)) for n, name in re.findall(r"(\d+) (games|power cuts|mid-write|stuck buttons|"
                                                           r"chords|host commands|violations)", out[0]))
    return captured.err, counts


def test_a_short_soak_with_power_cuts_finds_no_violation(capsys):
    assert nimatron(["soak", "--games", "40", "--board", "pi-leds", "--seed", "3", "--cut-every", "3"]) == 0
    err, counts = summary(capsys)
    assert counts["games"] == 40 and counts["violations"] == 0
    assert counts["power cuts"] >= 5 and counts["mid-write"] >= 1 and counts["host commands"] > 100


@pytest.mark.parametrize("board, games", [("pico-ring", 100), ("macropad", 100), ("pico-grid", 25),
                                          ("circuitplayground", 25)])
def test_grid_and_cursor_boards_soak_through_chords_and_refusals(capsys, board, games):
    """Seed 3 once left keys selected after a chord, and read the lamps mid-refusal."""
    assert nimatron(["soak", "--games", str(games), "--board", board, "--seed", "3"]) == 0
    err, counts = summary(capsys)
    assert counts["games"] == games and counts["violations"] == 0 and counts["chords"] > 0


def test_a_store_that_forgets_is_caught(capsys, monkeypatch):
    from nimatron.machine.store import Store

    monkeypatch.setattr(Store, "save_audits", lambda self, record: True)  # says saved, writes nothing
    assert nimatron(["soak", "--games", "16", "--seed", "3", "--cut-every", "2"]) == 1
    err, counts = summary(capsys)
    assert counts["violations"] >= 1 and "violation: after a restart the audits hold" in err


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be at least 1"),
    (["--board", "nosuch"], "unknown board 'nosuch'"),
    (["--cut-every", "0"], "--cut-every must be at least 1"),
])
def test_bad_soak_options_are_usage_errors(capsys, args, message):
    assert nimatron(["soak"] + args) == 2
    assert message in capsys.readouterr().err
