# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A small board keeps only what it plays: the modules needed only to start
(``app.STARTUP_ONLY``) and the settings' checks (``app.PLAY_FREE``) leave
the heap once the controller is built, and a setting's change brings back
only what it needs, for as long as it needs it (MicroPython, precompiled as a board runs
it; the figures: tests/bench_boards.py)."""

import sys

import mpy_runner
import pytest
from nimatron.machine import app


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """The firmware and code.py compiled once for the module's MicroPython
    runs (each test compiled its own: nine compiles of the whole package a run)."""
    return mpy_runner.tree(str(tmp_path_factory.mktemp("board")), modules=("tests/fake_io", "firmware/code"))


def test_start_up_only_modules_leave_a_boards_heap(tree):
    out = mpy_runner.run("mpy/run_forget.py", heap="256K", paths=(tree,))
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stdout + out.stderr


def test_cpython_keeps_them():
    from nimatron.config import boards, power  # noqa: F401 - loaded, as the host tools load them

    app.forget(app.STARTUP_ONLY)
    assert "nimatron.config.boards" in sys.modules and "nimatron.config.power" in sys.modules


@pytest.mark.parametrize("mode", ["machine", "link"])
def test_the_circuit_playground_build_starts_as_code_py_does(tree, mode):
    """The bench's builds play whole games under MicroPython: the settings
    source, the audits and the store on nvm (one record per game at least),
    and the host link answering a host that asks STATE."""
    out = mpy_runner.run("mpy/bench_board.py", heap="320K", paths=(tree,), args=("circle10", "2", mode))
    assert out.returncode == 0, out.stdout + out.stderr
    games, _ticks, _worst, writes = [int(w) for w in out.stdout.split()[:4]]
    assert games == 2 and writes >= 2
    assert "nimatron.machine.store" in out.stdout and ("nimatron.link.hostlink" in out.stdout) == (mode == "link")


@pytest.mark.micropython
@pytest.mark.parametrize("board", ["pico-grid", "pico-ring", "pico-neopixel"])
def test_code_py_drops_what_it_ran_once(tree, tmp_path, board):
    """code.py's own start (its ``main``, a few passes of its loop): the
    heap held, the watchdog armed, the store opened, the settings read are
    ``machine.power_on``'s, which leaves once the machine is built; a
    function of code.py's own would stay in the heap for as long as it runs."""
    out = mpy_runner.run("mpy/run_start_heap.py", heap="256K", paths=(tree,), args=(board, "-", "main", str(tmp_path)))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    resident = [line for line in lines if line.startswith("resident ")][0].split()[1:]
    assert "machine.controller" in resident and "machine.startup" in resident, resident
    assert "machine.power_on" not in resident and "machine.starting" not in resident, resident
    assert lines[-1] == "state attract", lines


@pytest.mark.micropython
@pytest.mark.parametrize(
    "board,preset", [("pico-grid", "graph"), ("pico-ring", "circular"), ("pico-neopixel", "nimatron")]
)
def test_a_started_board_keeps_what_plays_and_links_not_what_opened_them(tree, board, preset):
    """Started as code.py starts it (tests/mpy/run_start_heap.py): ``nimatron.drivers``
    chooses, lays out and opens a driver, a start's work
    (``startup.START_ONLY``; 2.5 KB of a pico-grid's heap on CircuitPython
    9.2.8); ``link.transports`` finds and opens the USB channel, the link's
    start's. The driver module stays and still shows the lamps and reads the
    keys (NEW pressed on stand-in hardware starts a game); the link stays
    and answers HELLO."""
    out = mpy_runner.run("mpy/run_start_heap.py", heap="256K", paths=(tree,), args=(board, preset))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    resident = lines[0].split()[1:]
    assert "drivers.circuitpython_io" in resident and "machine.controller" in resident, lines[0]
    assert "drivers" not in resident, lines[0]
    assert lines[3] == "state visitor" and int(lines[2].split()[1]) >= 1, lines
    linked = lines[4].split()[1:]
    assert "link.hostlink" in linked and "drivers.circuitpython_io" in linked, lines[4]
    assert "link.transports" not in linked, lines[4]
    assert lines[-2].startswith("reply OK {"), lines
    # a key's press read through the driver makes nothing: its lamp would wait for a collection it started
    assert lines[-1] == "events 0", lines
