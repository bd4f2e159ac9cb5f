# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A controller and its host link in simulated time, spoken to through an
in-memory cable: what the protocol tests and their neighbours share."""

from nimatron.link.hostlink import HostLink
from nimatron.link.protocol import parse_line
from nimatron.machine.app import make_controller

PIN = "4711"


class FakeIO:
    def show(self, lamps, status):
        self.lamps = lamps

    def events(self):
        return []

    def close(self):
        pass


class Cable:
    """The host's end of an in-memory serial cable."""

    def __init__(self, take=None):
        self.to_machine = b""
        self.to_host = b""
        self.connected = True
        self.take = take  # bytes the machine may write per call (None: all)

    def read(self, n):
        data, self.to_machine = self.to_machine[:n], self.to_machine[n:]
        return data

    def write(self, data):
        n = len(data) if self.take is None else min(self.take, len(data))
        self.to_host += data[:n]
        return n

    def lines(self):
        *done, self.to_host = self.to_host.split(b"\n")
        return [parse_line(line) for line in done]


class Machine:
    """A controller and its link, run in simulated time."""

    def __init__(self, board="pico-neopixel", take=None, **overrides):
        self.controller = make_controller(board, overrides, io=FakeIO())
        self.cable = Cable(take)
        self.link = HostLink(self.controller, self.cable, board=board)
        self.now = 0

    def run(self, ms=200, step=10):
        for _ in range(ms // step):
            self.now += step
            self.controller.update(self.now)
            self.link.poll(self.now)

    def send(self, data):
        self.cable.to_machine += data
        self.run()

    def drain(self, limit_ms=120000):
        """Run until the machine has read every byte and written every reply
        (a slow cable writes one byte a poll: a backlog of replies takes
        seconds of simulated time)."""
        for _ in range(limit_ms // 200):
            if not (self.cable.to_machine or self.link.pending or self.link.out_bytes):
                return
            self.run()
        raise AssertionError("the link never caught up")

    def ask(self, line):
        """One command -> (kind, data) of its reply (events are skipped)."""
        self.send(line.encode() + b"\n")
        got = self.cable.lines()
        for _ in range(100):  # a slow cable: wait for the reply
            if [g for g in got if g[0] != "EV"]:
                break
            self.run()
            got += self.cable.lines()
        replies = [g for g in got if g[0] != "EV"]
        assert len(replies) == 1, got
        return replies[0]

    def ok(self, line):
        kind, data = self.ask(line)
        assert kind == "OK", (line, data)
        return data

    def err(self, line):
        kind, data = self.ask(line)
        assert kind == "ERR", (line, data)
        return data[0]
