# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron display PORT --web``: the pages follow a real machine over its
host link. Here the machine is ``nimatron sim --serial`` on a pseudo-terminal,
playing a script once the display has turned events on (``wait host``).
"""

import signal
import subprocess
import time

from devtools import call, free_port
from kit_web import NIMATRON


def wait_for(url, ok, limit=60):
    end = time.monotonic() + limit
    while True:
        status, state = call(url)
        if status == 200 and ok(state):
            return state
        assert time.monotonic() < end, state
        time.sleep(0.05)


def test_the_crowd_view_follows_a_game_on_the_link(display):
    url, proc = display
    moves = lambda s: [e for e in s["events"] if e["kind"] == "move"]  # noqa: E731
    # Events come as they happen, STATE every 0.15 s: for a moment the page can hold the
    # two moves beside the STATE from before them (the visitor's turn too). Wait for both.
    state = wait_for(
        url + "/api/crowd",
        lambda s: len(moves(s)) >= 2 and s["state"] == "visitor" and s["counts"] == moves(s)[1]["after"],
    )
    visitor, machine = moves(state)[:2]
    assert visitor["by"] == "visitor" and visitor["words"] == "take 1 from heap D"
    assert machine["by"] == "machine" and machine["before"] == [3, 4, 5, 6]
    assert state["board"] == "pico-neopixel" and state["layout"] == [7, 7, 7, 7] and state["follow"]
    assert state["counts"] == machine["after"]
    assert [lamp[0] for lamp in state["lamps"][3]][:6] == ["lit"] * 6 or state["counts"][3] < 6
    assert state["status"]["visitor"] is True
    panel = state["nimrod"]
    assert panel["kind"] == "nim" and [r["value"] for r in panel["rows"]] == machine["after"]
    # the same state at the play page's address; nothing can be pressed or changed
    status, same = call(url + "/api/machines/link")
    assert status == 200 and same["buttons"] == []
    status, answer = call(url + "/api/machines/link/press", {"press": "new"})
    assert status == 403 and "can watch, not press" in answer["error"]
    status, answer = call(url + "/api/machines", {"board": "pico-grid"})
    assert status == 403
    status, mine = call(url + "/api/machines", {})
    assert status == 201 and mine["machine"] == "link"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and b"Traceback" not in err


def test_display_without_web_or_on_a_missing_port_is_one_line():
    done = subprocess.run(NIMATRON + ["display", "/dev/ttyNOPE"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "nimatron monitor" in done.stderr
    done = subprocess.run(
        NIMATRON + ["display", "/dev/ttyNOPE", "--web", "--port", str(free_port())],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "cannot open /dev/ttyNOPE" in done.stderr
    done = subprocess.run(
        NIMATRON + ["display", "/dev/ttyNOPE", "--web", "--lang", "xx"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "--lang" in done.stderr


class _Link:
    name = "/dev/ttyACM0"


def _reply(state, lamps, position, winner=None):
    return {
        "state": state,
        "lamps": lamps,
        "position": position,
        "rules": "nim",
        "misere": False,
        "ring": False,
        "winner": winner,
        "status": {},
    }


def test_a_win_light_show_keeps_each_lamp_meaning_on_the_crowd_view():
    """After a win the machine's STATE digits are its light show (every lamp
    chasing): the crowd view of a real machine drew them as lamps in play, so
    rows whose count is 0 showed lit lamps and the counts followed the show."""
    from nimatron_sim.web.follow import LinkMachine

    m = LinkMachine(_Link(), {"board": "pico-neopixel", "input": "rows"}, lambda reply: reply)
    m._event({"event": "new_game", "position": [3, 4, 5, 6], "ring": False, "rules": "nim"})
    m._take_state(_reply("visitor", ["1110000", "1111000", "1111100", "1111110"], [3, 4, 5, 6]))
    m._take_state(_reply("showing", ["0000000", "0000000", "0000000", "4000000"], [0, 0, 0, 1]))
    for show in (["1111111"] * 4, ["1010101", "0101010", "1010101", "0101010"]):
        m._take_state(_reply("over", show, [0, 0, 0, 0], "machine"))
        state = m.state()
        assert state["counts"] == [0, 0, 0, 0]
        kinds = {lamp[0] for row in state["lamps"] for lamp in row}
        assert "lit" not in kinds, state["lamps"]
        assert [lamp[1] for lamp in state["lamps"][0]] == [int(d) for d in show[0]]  # the show still glows
    # the machine took its last lamp between two polls: the final position cuts the lamps left
    m._event({"event": "new_game", "position": [1, 1], "ring": False, "rules": "nim"})
    m._take_state(_reply("visitor", ["1000000", "1000000", "0000000", "0000000"], [1, 1, 0, 0]))
    m._take_state(_reply("over", ["1111111"] * 4, [0, 1, 0, 0], "visitor"))
    state = m.state()
    assert state["counts"] == [0, 1, 0, 0] and state["lamps"][1][0][0] == "lit" and state["lamps"][0][0][0] == "taken"
