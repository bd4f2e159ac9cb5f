# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A simulated machine on a pseudo-terminal and ``nimatron display --web``
following it: the fixtures ``machine_on_a_pty`` and ``display`` (registered
in conftest.py) for the display tests and the browser tests of the crowd view."""

import os
import signal
import subprocess
import sys

import pytest
from devtools import free_port

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
    proc = subprocess.Popen(
        NIMATRON
        + [
            "sim",
            "--headless",
            "--serial",
            "--until-killed",
            "--board",
            "pico-neopixel",
            "--set",
            "think_ms=0",
            "--set",
            "show_ms=200",
            "--script",
            str(script),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
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
    proc = subprocess.Popen(
        NIMATRON + ["display", pty, "--web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        line = proc.stdout.readline().decode()  # printed once the server listens
        assert "http://localhost:%d" % port in line, (line, proc.stderr.read() if proc.poll() is not None else "")
        yield "http://localhost:%d" % port, proc
    finally:
        stop(proc)
