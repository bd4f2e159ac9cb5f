# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A board started with its real driver (nimatron.drivers.circuitpython_io)
# on stand-ins for CircuitPython's board, keypad and neopixel modules: what
# stays resident once the Machine has started, and whether the driver still
# shows lamps and reads keys without the package that opened it.
# usage: MICROPYPATH=<compiled tree> micropython -X heapsize=256K run_start_heap.py BOARD PRESET [main FOLDER]
# (main: code.py's main() starts it instead, a few passes: prints "resident ..." and "state S")
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
        """As keypad's: a new event object each time (``get_into`` fills in one)."""
        if not self.waiting:
            return None
        got = self.waiting.pop(0)
        return Event(got.key_number, got.pressed)

    def get_into(self, event):
        """As keypad's: the next event's fields copied into ``event`` (no object made)."""
        if not self.waiting:
            return False
        got = self.waiting.pop(0)
        event.key_number, event.pressed = got.key_number, got.pressed
        return True

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


class Data:
    """usb_cdc.data: what the host sent, what the board wrote."""

    def __init__(self):
        self.to_machine = b""
        self.written = b""

    @property
    def in_waiting(self):
        return len(self.to_machine)

    def read(self, n):
        data, self.to_machine = self.to_machine[:n], self.to_machine[n:]
        return data

    def write(self, data):
        self.written += bytes(data)
        return len(data)


class Stand:
    """A module stand-in: attributes set one by one."""


Neopixel.NeoPixel = NeoPixel
usb_cdc = Stand()
usb_cdc.data = Data()
supervisor = Stand()
supervisor.runtime = Stand()
for name, module in (
    ("board", Board()),
    ("keypad", Keypad()),
    ("neopixel", Neopixel()),
    ("microcontroller", Stand()),
    ("supervisor", supervisor),
    ("usb_cdc", usb_cdc),
):
    sys.modules[name] = module

if sys.argv[3:4] == ["main"]:  # code.py's own start, a few passes of its loop (argv[4]: a folder for its files)
    import code  # code.py, precompiled into the tree

    clock = [0]

    def ticks_ms():
        clock[0] += 10
        return clock[0]

    supervisor.ticks_ms = ticks_ms
    board = sys.modules["microcontroller"]
    board.nvm = bytearray(b"\xff" * 4096)
    code.BOARD = board_name
    code.SETTINGS = sys.argv[4] + "/settings.json"
    machine = code.main(board, supervisor, loops=20, state=sys.argv[4] + "/state.bin", data=usb_cdc.data)
    names = [m[9:] for m in sys.modules if m[:9] == "nimatron."]
    names.sort()
    print("resident " + " ".join(names))
    print("state %s" % machine.controller.state)
    sys.exit(0)

from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

machine = Machine(
    board_name, overrides_source({"preset": preset}), Store(nvm=bytearray(b"\xff" * 4096)), log=lambda line: None
)
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

import code  # noqa: E402 - code.py, precompiled into the tree

step = 0
linked = False
while not linked:
    now += 10
    linked, step = code.load_link(machine, step, now)
names = [m[9:] for m in sys.modules if m[:9] == "nimatron."]
names.sort()
print("linked " + " ".join(names))
gc.collect()
print("linked-heap %d" % gc.mem_alloc())
usb_cdc.data.to_machine = b"HELLO\n"
for _ in range(20):
    now += 10
    machine.tick(now)
print("reply " + usb_cdc.data.written.decode().split("\n")[0][:20])


# A press read through the real driver (stand-in scanners): the bytes its events() make, a key's
# second press on (its first makes the event object it fills in again, and its two edges). Measured
# in a function: a module's new global is a dict entry made.
def made_by(call, *args):
    gc.collect()
    before = gc.mem_alloc()
    call(*args)
    return gc.mem_alloc() - before


io = machine.controller.io
queue = buttons.events
for pressed in (True, False):
    queue.waiting.append(Event(0, pressed))
    io.events()
queue.waiting.append(Event(0, True))
print("events %d" % made_by(io.events))
