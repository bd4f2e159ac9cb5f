# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The driver port of nimatron.machine.ports with nothing behind it, for the tests
and the MicroPython benchmarks: the test queues presses as raw edges, and
the last frame the controller showed is kept (the lamps, the status lamps).
Written in the subset CPython and MicroPython share."""


class FakeIO:
    def __init__(self):
        self.queue = []   # (role, pressed) edges for the next update
        self.lamps = None
        self.status = None
        self.shows = 0

    def show(self, lamps, status):
        self.lamps = lamps
        self.status = status
        self.shows += 1

    def events(self):
        q = self.queue
        if q:  # a new list only when there were edges: an idle pass makes no garbage
            self.queue = []
        return q

    def close(self):
        pass
