# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The driver port of nimatron.machine.ports with nothing behind it, for the tests
and the MicroPython benchmarks: the test queues presses as raw edges, and
the last frame the controller showed is kept (the lamps, the status lamps).
Written in the subset CPython and MicroPython share."""


class FakeIO:
    def __init__(self):
        self.queue = []  # (role, pressed) edges for the next update
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


class FakeWire:
    """The USB data channel with the host in memory: ``to_machine`` is what
    the host sent and the board has not read, ``written`` each write the
    board made (a ``nimatron.link.transports`` port)."""

    def __init__(self):
        self.to_machine = b""
        self.written = []

    def read(self, n):
        data = self.to_machine[:n]
        self.to_machine = self.to_machine[n:]
        return data

    def write(self, data):
        self.written.append(bytes(data))
        return len(data)

    def lines(self):
        """The board's whole lines so far."""
        return [line for line in b"".join(self.written).split(b"\n") if line]
