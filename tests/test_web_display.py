"""``nimatron display PORT --web``: the pages follow a real machine over its
host link. Here the machine is ``nimatron sim --serial`` on a pseudo-terminal,
playing a script once the display has turned events on (``wait host``).
"""

import os
import signal
import subprocess
import sys
import time

import pytest

from devtools import call, free_port

NIMATRON = [sys.executable, "-m", "nimatron_host"]
GAME = "wait host\nwait 300\npress new\npress row3\npress done\nwait 2000\n"


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


@pytest.fixture
def machine_on_a_pty(tmp_path):
    """A simulated pico-neopixel on a pseudo-terminal: (path, process)."""
    script = tmp_path / "game.txt"
    script.write_text(GAME)
    proc = subprocess.Popen(NIMATRON + ["sim", "--headless", "--serial", "--until-killed", "--board", "pico-neopixel",
                                        "--set", "think_ms=0", "--set", "show_ms=200", "--script", str(script)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        line = proc.stderr.readline().decode()
        assert line.startswith("serial: "), line
        yield line.split(": ", 1)[1].strip(), proc
    finally:
        stop(proc)


@pytest.fixture
def display(machine_on_a_pty):
    pty, sim = machine_on_a_pty
    port = free_port()
    proc = subprocess.Popen(NIMATRON + ["display", pty, "--web", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        line = proc.stdout.readline().decode()     # printed once the server listens
        assert "http://localhost:%d" % port in line, (line, proc.stderr.read() if proc.poll() is not None else "")
        yield "http://localhost:%d" % port, proc
    finally:
        stop(proc)


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
    moves = lambda s: [e for e in s["events"] if e["kind"] == "move"]   # noqa: E731
    # Events come as they happen, STATE every 0.15 s: for a moment the page can hold the
    # two moves beside the STATE from before them (the visitor's turn too). Wait for both.
    state = wait_for(url + "/api/crowd", lambda s: len(moves(s)) >= 2 and s["state"] == "visitor"
                     and s["counts"] == moves(s)[1]["after"])
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
    done = subprocess.run(NIMATRON + ["display", "/dev/ttyNOPE", "--web", "--port", str(free_port())],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "cannot open /dev/ttyNOPE" in done.stderr
    done = subprocess.run(NIMATRON + ["display", "/dev/ttyNOPE", "--web", "--lang", "xx"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--lang" in done.stderr
