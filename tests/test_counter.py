# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The game of 21 as a binary counter (``nimatron.panels.counter``): the scenarios
of counter_scenarios.py under CPython (MicroPython runs them in
test_micropython_controller), and whole games in the headless simulator on
the Circuit Playground's mocked pins."""

import counter_scenarios
import pytest

SCENARIOS = sorted(name for name in dir(counter_scenarios) if name.startswith("scenario_"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(name):
    getattr(counter_scenarios, name)()


# -- on the Circuit Playground's mocked pins -------------------------------------------

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

from nimatron_host.cli import main as nimatron  # noqa: E402
from nimatron_sim.visitor import Visitor  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kit_sim import judge  # noqa: E402

FAST = {"preset": "21counter", "think_ms": 300, "show_ms": 400}


def binary(lamps):
    """The count the five left-hand pixels show (pixel 0 is 16)."""
    n = 0
    for on in lamps[0][:5]:
        n = n * 2 + (1 if on else 0)
    return n


def watch_counter(sim):
    """Check, at every change of the NeoPixel bytes in play, that pixels 0-4
    show the count so far and pixels 8-9 stay dark; returns the frame count."""
    seen = {"count": None, "frames": 0}

    def event(e):
        if e["event"] == "new_game":
            seen["count"] = 21 - e["position"][0]
        elif e["event"] == "move":
            seen["count"] = 21 - e["after"][0]
        elif e["event"] == "game_over":
            seen["count"] = None

    def frame(t, lamps, status):
        if seen["count"] is not None and sim.controller.state in ("visitor", "thinking", "showing"):
            assert binary(lamps) == seen["count"] and lamps[0][8:] == [0, 0], (t, lamps, seen)
            seen["frames"] += 1

    sim.listeners.append(event)
    sim.output_listeners.append(frame)
    return seen


@pytest.mark.parametrize(
    "skill, first, winner",
    [("random", "visitor", "machine"), ("perfect", "visitor", "machine"), ("perfect", "machine", "visitor")],
)
def test_robots_play_21_on_the_ring_read_from_the_pixels(sims, skill, first, winner):
    sim = sims("circuitplayground", dict(FAST, first=first), seed=5)
    seen = watch_counter(sim)
    robot = Visitor(sim, skill, seed=3, hold_ms=40, gap_ms=40)
    for _ in range(2):
        result = robot.play_game()
        assert result["winner"] == winner, result
        judge("subtract:3", True, [21], result["moves"])
        assert result["moves"][-1]["after"] == [0]
    assert seen["frames"] > 20


def test_headless_script_plays_21_to_the_end(capsys, tmp_path):
    """A visitor who always says one more, by the board's own buttons."""
    script = tmp_path / "21.txt"
    script.write_text("press b\n" + "press b\npress a+b\nwait 3000\n" * 11)
    code = nimatron(
        ["sim", "--headless", "--board", "circuitplayground", "--preset", "21counter", "--script", str(script)]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    count, checked = None, 0
    for line in lines:
        if line.get("event") == "new_game":
            count = 0
        elif line.get("event") == "move":
            assert line["before"][0] - line["after"][0] == (1 if line["by"] == "visitor" else 3)
            count = 21 - line["after"][0]
        elif line.get("event") == "game_over":
            assert line["winner"] == "machine" and count == 21
            count = None
        elif "lamps" in line and count is not None and line["status"]["champ"] + line["status"]["machine_wins"] == 0:
            assert binary(line["lamps"]) == count, line
            checked += 1
    assert [x["winner"] for x in lines if x.get("event") == "game_over"] == ["machine"] and checked > 10


def test_a_row_board_refuses_the_counter_in_one_line(capsys, tmp_path):
    script = tmp_path / "x.txt"
    script.write_text("press done\n")
    code = nimatron(["sim", "--headless", "--board", "pico-neopixel", "--preset", "21counter", "--script", str(script)])
    err = capsys.readouterr().err
    assert code == 2 and "counter" in err and "grid board" in err and len(err.strip().splitlines()) == 1


def test_the_simulators_face_reads_the_counter_in_words():
    from nimatron_sim.face import Face

    face = Face("circuitplayground", {"preset": "21counter", "think_ms": 300, "show_ms": 300})
    try:
        assert "16 8 4 2 1" in face.counter_words() and "lamps 6-8" in face.counter_words()
        assert "whoever says 21 loses" in face.rules_line()
        face.tap("b")  # attract: a new game
        face.tap("b")  # one more
        face.tap("done")  # A+B
        face.advance(350)
        assert face.message() == "The machine adds 3 (✕)."
        face.advance(1000)
        lines = [text for _, text in face.log]
        assert "You: 1 more → count 1" in lines and "Machine: 3 more → count 4" in lines
        assert any("a winning count: 17 left" in text for text in lines)
        kinds = [lamp.kind for lamp in face.lamps()[0]]
        assert kinds[:5] == ["dark", "dark", "lit", "dark", "dark"] and "taken" not in kinds  # 4 = 00100
    finally:
        face.close()
