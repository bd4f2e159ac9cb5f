# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A board started with its real driver (nimatron.drivers.circuitpython_io)
# on stand-ins for CircuitPython's board, keypad and neopixel modules: what
# stays resident once the Machine has started, and whether the driver still
# shows lamps and reads keys without the package that opened it.
# usage: MICROPYPATH=<compiled tree> micropython -X heapsize=256K run_driver_heap.py BOARD PRESET
# prints "resident <firmware module> ...", "heap BYTES" (in use, collected), then "shown N" (frames the strip
# showed after a key press and DONE) and "state S" (the game's state then).
import sys

board_name, preset = sys.argv[1], sys.argv[2]


class Pin:
    def __init__(self, name):
        self.name = name


class Board:
    def __getattr__(self, name):
        return Pin(name)


class Event:
    def __init__(self, key_number, pressed):
        self.key_number = key_number
        self.pressed = pressed


class Queue:
    overflowed = False

    def __init__(self):
        self.waiting = []

    def get(self):
        return self.waiting.pop(0) if self.waiting else None

    def clear(self):
        self.waiting = []


SCANNERS = []


class Keys:
    def __init__(self, *args, **kwargs):
        self.events = Queue()
        SCANNERS.append(self)

    def reset(self):
        pass

    def deinit(self):
        pass


class Keypad:
    Keys = Keys
    KeyMatrix = Keys


class NeoPixel:
    shown = 0

    def __init__(self, pin, n, brightness=1.0, auto_write=False, pixel_order="GRB"):
        self.px = [(0, 0, 0)] * n
        self.brightness = brightness

    def __setitem__(self, i, colour):
        self.px[i] = colour

    def fill(self, colour):
        self.px = [colour] * len(self.px)

    def show(self):
        NeoPixel.shown += 1

    def deinit(self):
        pass


class Neopixel:
    pass


Neopixel.NeoPixel = NeoPixel
sys.modules["board"] = Board()
sys.modules["keypad"] = Keypad()
sys.modules["neopixel"] = Neopixel()

from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

machine = Machine(board_name, overrides_source({"preset": preset}), Store(nvm=bytearray(b"\xff" * 4096)),
                  log=lambda line: None)
names = [m[9:] for m in sys.modules if m[:9] == "nimatron."]
names.sort()
print("resident " + " ".join(names))
import gc  # noqa: E402

gc.collect()
print("heap %d" % gc.mem_alloc())  # bytes in use once started (64-bit unix port: about twice a board's)
now = 0
for _ in range(10):
    now += 10
    machine.tick(now)
before = NeoPixel.shown
grid, buttons = SCANNERS[0], SCANNERS[-1]
buttons.events.waiting.append(Event(1, True))  # NEW (the buttons' roles: done, new)
buttons.events.waiting.append(Event(1, False))
for _ in range(200):
    now += 10
    machine.tick(now)
print("shown %d" % (NeoPixel.shown - before))
print("state %s" % machine.controller.state)
