# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Adafruit Blinka on a PC, wired to the simulator's bench.

Blinka's OS-agnostic board (``BLINKA_OS_AGNOSTIC=1``, set here before the
first ``import board``) is a fixed test fixture. ``install()`` turns it into
a breadboard:

- its ``Pin`` class reads and writes through the bench that owns the pin id
  (pins the bench does not own keep their canned behaviour);
- NeoPixel frames written through the agnostic ``neopixel_write`` are handed
  to the bench that owns the data pin;
- Blinka's ``keypad`` scanners on bench pins do not start their background
  thread: the bench calls their own scan function every ``interval`` of
  *virtual* time instead. Blinka scans in an endless real-time thread (and
  its ``deinit()`` joins that thread, so it hangs); a thread would make
  press timing depend on the host's scheduler and the simulation could not
  run faster than real time. Everything else (``Keys``/``KeyMatrix`` scan
  logic, ``EventQueue``, ``digitalio``) is Blinka's own code.

- a speaker's ``pwmio.PWMOut`` (the agnostic board's own mock) tells the
  bench each tone it plays (``bench.tones``);
- Blinka has no ``rotaryio``: ``rotaryio.IncrementalEncoder`` here decodes
  the quadrature of its two bench pins, sampled by the bench at every step
  of a turn (as CircuitPython's pin-change interrupt does).

The driver under test (``nimatron.drivers.circuitpython_io``) is unchanged:
it imports ``board``, ``digitalio``, ``keypad`` and ``neopixel`` as on a Pi.
"""

import os
import threading

os.environ.setdefault("BLINKA_OS_AGNOSTIC", "1")

_owners = {}  # type: dict  # pin id -> bench
_state = {"installed": False, "next_id": 1000}


class BlinkaMockError(RuntimeError):
    """Blinka was already set up for real hardware in this process."""


def install():
    """Patch Blinka once per process; returns the ``board`` module."""
    if _state["installed"]:
        import board

        return board
    if os.environ.get("BLINKA_OS_AGNOSTIC") != "1":
        raise BlinkaMockError("the simulator needs BLINKA_OS_AGNOSTIC=1 before `import board`")
    import board
    import keypad
    from adafruit_blinka.agnostic import board_id
    from adafruit_blinka.microcontroller.generic_agnostic_board import (
        neopixel as agnostic_neopixel,
        pin as agnostic_pin,
    )

    if board_id != "OS_AGNOSTIC_BOARD":
        raise BlinkaMockError("Blinka detected a real board (%s): `import board` ran before the simulator" % board_id)

    Pin = agnostic_pin.Pin
    canned_init, canned_read, canned_write = Pin.init, Pin.read, Pin.write

    def init(self, mode=Pin.IN, pull=None):
        canned_init(self, mode, pull)
        bench = _owners.get(self.id)
        if bench is not None:
            bench.configure(self.id, mode, self._pull)

    def read(self):
        bench = _owners.get(self.id)
        if bench is None:
            return canned_read(self)
        return bench.level(self.id)

    def write(self, value):
        canned_write(self, value)
        bench = _owners.get(self.id)
        if bench is not None:
            bench.drive(self.id, value)

    Pin.init, Pin.read, Pin.write = init, read, write

    canned_neopixel_write = agnostic_neopixel.neopixel_write

    def neopixel_write(gpio, buf):
        bench = _owners.get(gpio._pin.id)
        if bench is None:
            return canned_neopixel_write(gpio, buf)
        bench.frame(gpio._pin.id, bytes(buf))

    agnostic_neopixel.neopixel_write = neopixel_write

    threaded_init = keypad._KeysBase.__init__

    def keys_init(self, interval, max_events, scanning_function):
        bench = _scanner_bench(self)
        if bench is None:
            return threaded_init(self, interval, max_events, scanning_function)
        self._interval = interval
        self._last_scan = None
        self._events = keypad.EventQueue(max_events)
        self._scanning_function = scanning_function
        self._scan_thread = threading.Thread(target=_idle, daemon=True)  # never started: deinit() returns
        bench.add_scanner(self)

    keypad._KeysBase.__init__ = keys_init
    _install_rotaryio()
    _patch_pwm()
    _state["installed"] = True
    return board


class IncrementalEncoder:
    """CircuitPython's ``rotaryio.IncrementalEncoder`` on two bench pins:
    ``position`` counts detents (four quadrature steps each, ``divisor=4``)."""

    # (A, B) as a two-bit state -> its place in the clockwise cycle
    _PLACE = {0b01: 0, 0b00: 1, 0b10: 2, 0b11: 3}

    def __init__(self, pin_a, pin_b, divisor=4):
        self._pins = (pin_a, pin_b)
        self._bench = _owners.get(pin_a.id)
        if self._bench is None:
            raise ValueError("rotaryio: pin %s is not on the simulator's bench" % pin_a.id)
        self._divisor = divisor
        self._steps = 0
        self._last = self._read()
        self._bench.add_encoder(self)

    def _read(self):
        a, b = (self._bench.level(pin.id) for pin in self._pins)
        return self._PLACE[(a << 1) | b]

    def sample(self):
        now = self._read()
        delta = (now - self._last) % 4
        if delta == 1:
            self._steps += 1
        elif delta == 3:
            self._steps -= 1
        self._last = now

    @property
    def position(self):
        return int(self._steps / self._divisor)

    def deinit(self):
        if self._bench is not None and self in self._bench._encoders:
            self._bench._encoders.remove(self)


def _patch_pwm():
    """The agnostic board's ``PWMOut`` keeps its frequency and duty cycle;
    here each change also reaches the bench that owns the pin (the speaker)."""
    from adafruit_blinka.microcontroller.generic_agnostic_board import PWMOut as agnostic_pwm

    cls = agnostic_pwm.PWMOut
    duty = cls.duty_cycle

    def set_duty(self, value):
        duty.fset(self, value)
        bench = _owners.get(getattr(self._pin, "id", None))
        if bench is not None:
            bench.tone(self._pin.id, self.frequency, value)

    cls.duty_cycle = property(duty.fget, set_duty)


def _install_rotaryio():
    import sys
    import types

    if "rotaryio" not in sys.modules:
        module = types.ModuleType("rotaryio")
        module.IncrementalEncoder = IncrementalEncoder
        module.__doc__ = "The simulator's rotaryio (Blinka has none): see nimatron_sim.blinka_mock."
        sys.modules["rotaryio"] = module


def _idle():
    pass


def _scanner_bench(keys):
    for name in ("_digitalinouts", "_row_digitalinouts"):
        dios = getattr(keys, name, None)
        if dios:
            return _owners.get(dios[0]._pin.id)
    return None


def new_pin(bench, name):
    """A fresh agnostic ``Pin`` owned by ``bench``, set as ``board.<name>``.

    Every bench gets its own pin ids, so two simulators never share a wire;
    the driver looks its pins up by name when it opens, so replacing the
    attribute later does not disturb an open driver.
    """
    board = install()
    from adafruit_blinka.microcontroller.generic_agnostic_board.pin import Pin

    pin_id = _state["next_id"]
    _state["next_id"] += 1
    _owners[pin_id] = bench
    pin = Pin(pin_id)
    setattr(board, name, pin)
    return pin


def release(pin_ids):
    for pin_id in pin_ids:
        _owners.pop(pin_id, None)
