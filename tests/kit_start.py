# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A Pi's start in-process (the kind "a fault at start"): shared by the
start's fault tests and their benchmark (tests/bench_start_faults.py)."""

import io

from controller_scenarios import FakeIO
from nimatron.__main__ import RunMarker, open_state
from nimatron.machine import app
from nimatron.machine.startup import Machine, overrides_source
from nimatron.machine.store import RETRY_MS


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


class Err(io.StringIO):
    """stderr for ``open_state``: its lines kept with the machine's log."""

    def __init__(self, lines):
        super().__init__()
        self.lines = lines

    def write(self, text):
        self.lines.extend(line for line in text.splitlines() if line)
        return len(text)


def pi_start(path):
    """A Pi's start in-process, as ``python -m nimatron --state PATH`` does it:
    the store opened (the lock, the file examined), the run marker, the
    machine; then a game played and a minute and a half of the main loop
    (failed saves are tried again every 30 s), a clean stop. (said lines,
    machine or None if refused)."""
    lines = []
    store = open_state(path, err=Err(lines))
    if store is None:
        return lines, None
    marker = RunMarker(path + ".run")
    reason = marker.start()
    if getattr(marker, "note", None):
        lines.append(marker.note)
    m = Machine(
        "pico-neopixel", overrides_source({}), store, now_ms=0, reset_reason=reason, make=make, log=lines.append
    )
    m.audits.game_started("nimatron")
    m.audits.game_ended("visitor")
    for now in range(0, 3 * RETRY_MS + 1, 1000):
        m.tick(now)
    marker.note = None
    marker.stop()
    if marker.note:
        lines.append(marker.note)
    store.owner.close()
    return lines, m
