# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The Circuit Playground build under MicroPython: GAMES games of PRESET with a
# random visitor pressing A, B and A+B through the real cursor model
# (drivers/presses.py) and the real sound scheduler (a silent speaker); the
# pins are the only part left out. Prints games, ticks, worst update() in us,
# records written to the store, then the firmware modules it imported.
# MODE: "game" (the controller alone), "machine" (as code.py starts it: the
# settings source, the audits and the store on an 8 KB nvm, a record per
# game) or "link" (the machine plus the host link on an idle USB channel that
# asks STATE now and then).
# usage: micropython -X heapsize=N -m bench_board PRESET GAMES [MODE]
import gc
import sys
import time

from nimatron.drivers.presses import Presses
from nimatron.machine.app import make_controller
from nimatron.machine.sound import Sound


class Silent:
    def play(self, hz, volume):
        pass

    def stop(self):
        pass


class IO:
    """The onboard driver without its pins: raw edges in, the cursor drawn."""

    def __init__(self, spec):
        self.presses = Presses(spec)
        self.sound = Sound(Silent())
        self.raw = []
        self.now = 0
        self.frame = None

    def show(self, lamps, status):
        self.frame = self.presses.overlay(lamps, self.now)

    def events(self):
        for role, pressed in self.raw:
            self.presses.feed(role, pressed, self.now)
        self.raw = []
        return self.presses.update(self.now)

    def watch(self, controller, now):
        self.now = now
        self.presses.watch(controller, now)
        self.sound.watch(controller, now)

    def hear(self, event):
        self.sound.hear(event)

    def close(self):
        pass


class Wire:
    """An idle USB data channel: a host that asks STATE now and then."""

    def __init__(self):
        self.to_machine = b""

    def read(self, n):
        data = self.to_machine[:n]
        self.to_machine = self.to_machine[n:]
        return data

    def write(self, data):
        return len(data)


preset, games = sys.argv[1], int(sys.argv[2])
mode = sys.argv[3] if len(sys.argv) > 3 else "game"
import nimatron.config.boards  # the pin map, as the driver gets it; app.forget drops the module after

io = IO(nimatron.config.boards.board("circuitplayground"))
ends = [0]
overrides = {"preset": preset, "think_ms": 300, "show_ms": 400, "over_ms": 1000}


def listen(event):
    if event["event"] == "game_over":
        ends[0] += 1


machine = wire = None
if mode == "game":
    c = make_controller("circuitplayground", overrides, io, listen)
else:
    from nimatron.machine.startup import Machine, overrides_source
    from nimatron.machine.store import Store

    def make(board, over, listener, now_ms, audits):
        return make_controller(board, over, io, listener, now_ms, audits)

    machine = Machine(
        "circuitplayground",
        overrides_source(overrides),
        Store(nvm=bytearray(8192)),
        listener=listen,
        make=make,
        log=lambda line: None,
    )
    c = machine.controller
    if mode == "link":
        from nimatron.link.hostlink import HostLink

        wire = Wire()
        machine.attach(HostLink(c, wire, board="circuitplayground"))
del overrides
gc.collect()
seed = 4321
now = 0
ticks = 0
worst = 0
plan = []  # the visitor's next raw presses: (role, down) every few ticks
while ends[0] < games:
    now += 10
    ticks += 1
    if ticks % 8 == 0:
        if plan:
            io.raw.extend(plan.pop(0))
        elif c.state == "visitor":
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            steps = (seed >> 10) % 4
            for _ in range(steps):
                plan.append([("a", True)])
                plan.append([("a", False)])
            plan.append([("b", True)])
            plan.append([("b", False)])
            plan.append([("a", True), ("b", True)])
            plan.append([("a", False), ("b", False)])
        elif c.state == "attract":
            plan.append([("b", True)])
            plan.append([("b", False)])
    if wire is not None and ticks % 200 == 0:
        wire.to_machine += b"STATE\n"
    started = time.ticks_us()
    if machine is None:
        c.update(now)
    else:
        machine.tick(now)
        c = machine.controller
    worst = max(worst, time.ticks_diff(time.ticks_us(), started))
print(ends[0], ticks, worst, machine.store.writes if machine else 0)
print(" ".join(sorted([m for m in sys.modules if m.startswith("nimatron")])))
