# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A client nobody here wrote: pyserial's miniterm, typed into through tmux,
against the simulator's serial port. It must get a HELLO reply like any
terminal program on a board's USB data port would."""

import os
import shutil
import subprocess
import sys
import time

import pytest
from kit_host import Sim

TMUX = shutil.which("tmux")


@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_miniterm_gets_a_hello_reply():
    sim = Sim()
    socket = "nimatron-test-%d" % os.getpid()  # a tmux server of our own
    tmux = [TMUX, "-L", socket]
    try:
        subprocess.run(
            tmux
            + [
                "new-session",
                "-d",
                "-s",
                "miniterm",
                "-x",
                "160",
                "-y",
                "20",
                "%s -m serial.tools.miniterm %s 115200" % (sys.executable, sim.path),
            ],
            check=True,
            env=dict(os.environ, TERM="xterm"),
        )
        screen = ""
        for _attempt in range(100):
            time.sleep(0.1)
            screen = subprocess.run(
                tmux + ["capture-pane", "-p", "-t", "miniterm"], capture_output=True, text=True
            ).stdout
            if "Quit: Ctrl+]" in screen:
                break
        subprocess.run(tmux + ["send-keys", "-t", "miniterm", "HELLO", "Enter"], check=True)
        for _attempt in range(100):
            time.sleep(0.1)
            screen = subprocess.run(
                tmux + ["capture-pane", "-p", "-t", "miniterm"], capture_output=True, text=True
            ).stdout
            if '"protocol": 1' in screen:
                break
        assert 'OK {"name": "nimatron", "version": "0.1.0", "protocol": 1' in screen.replace("\n", ""), screen
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)
        sim.stop()
