# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A controller on a board's layout with a fake driver and a virtual clock,
shared by the CPython tests and the MicroPython benchmarks (written in the
subset both run; tests/mpy scripts get it in their compiled tree)."""

from fake_io import FakeIO
from nimatron.config.boards import board
from nimatron.config.settings import resolve
from nimatron.machine.app import choose_layout
from nimatron.machine.controller import Controller

TICK = 10  # ms a pass


class Rig:
    """``Rig("pico-grid", preset="graph")``: ``run(ms)``, ``press(role)``,
    ``until(state)``; ``cls`` a Controller subclass, ``io`` a FakeIO one
    (it is told the time, ``io.t``, before each pass)."""

    def __init__(self, board_name="pi-neopixel", cls=Controller, io=None, **overrides):
        spec = board(board_name)
        preset = overrides.pop("preset", None) or spec["preset"]
        settings = resolve(overrides, preset)
        self.spec = spec
        self.io = io if io is not None else FakeIO()
        self.t = 0
        self.c = cls(self.io, settings, choose_layout(spec, settings), spec["input"], None, 0)
        self.run(TICK)

    def run(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += TICK
            self.io.t = self.t
            self.c.update(self.t)

    def press(self, role):
        self.io.queue.append((role, True))
        self.run(60)
        self.io.queue.append((role, False))
        self.run(60)

    def until(self, state, limit=120000):
        waited = 0
        while self.c.state != state and waited < limit:
            self.run(TICK)
            waited += TICK
        assert self.c.state == state, (state, self.c.state)
