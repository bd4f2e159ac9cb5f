# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The firmware's game loop under MicroPython: GAMES games of a preset with a
# random visitor, a fake driver and a 10 ms tick. Prints games, ticks, and the
# worst update() time in microseconds.
# usage: micropython -X heapsize=N bench_firmware.py PRESET BOARD GAMES
import gc
import sys
import time

from fake_io import FakeIO
from nimatron.machine.app import make_controller

preset, board, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
io = FakeIO()
ends = [0]


def listen(event):
    if event["event"] == "game_over":
        ends[0] += 1


c = make_controller(board, {"preset": preset, "think_ms": 300, "show_ms": 400, "over_ms": 1000}, io, listen)
gc.collect()
seed = 12345
now = 0
ticks = 0
worst = 0
while ends[0] < games:
    now += 10
    ticks += 1
    if c.state == "visitor" and ticks % 13 == 0:
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        heaps = c.position()[0]
        live = [i for i in range(len(heaps)) if heaps[i]]
        if c.taken and (seed >> 9) % 3 == 0:
            role = "done"
        elif c.turn_row is not None:
            role = "row%d" % c.turn_row
        else:
            role = "row%d" % live[(seed >> 12) % len(live)]
        io.queue.append((role, True))
        io.queue.append((role, False))
    elif c.state == "attract" and ticks % 50 == 0:
        io.queue.append(("new", True))
        io.queue.append(("new", False))
    t0 = time.ticks_us()
    c.update(now)
    dt = time.ticks_diff(time.ticks_us(), t0)
    if dt > worst:
        worst = dt
print(ends[0], ticks, worst)
