# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Boards with everything built in: the MacroPad RP2040, the Circuit Playground.

No wiring: the lamps are the board's own NeoPixels (under the MacroPad's
keys, round the Circuit Playground's ring), the buttons its own keys and
switches. What the pin map asks beyond ``strip_io`` (what it shares with the wired boards):

- ``keys``: one pin per key (``keypad.Keys``, active low), key k under
  pixel k, so a key presses the lamp above it;
- ``buttons`` read high or low when pressed (``"pressed": "high"``: the
  Circuit Playground's A and B have pull-downs), ``switches`` read by
  ``digitalio``; chords, holds and the cursor go through ``presses``;
- ``encoder``: turned in attract mode, it chooses among the board's
  ``presets`` (``rotaryio``);
- ``status_led``: the one LED left for "your turn".

The controller calls ``watch(controller, now_ms)`` each loop (the cursor
needs to know whose turn it is and which lamps are in play; holds need the
time). Written in the subset shared by CPython and CircuitPython.
"""

from ..machine.ports import COLOURS, CURSOR, OFF
from ..passes import mark
from .strip_io import SCAN_S, StripIO, board_pin, load
from .presses import CURSOR_COLOUR, Presses

PALETTE = dict(COLOURS)
PALETTE[CURSOR] = CURSOR_COLOUR


def _queue(keys):
    """The events a scanner queues between two reads (``max_events``): a
    press and a release of every key, at least 4. ``keypad``'s default, 64
    events a scanner, took several times the heap the MacroPad's 12 keys
    and the encoder's switch need; ``events()``
    reads the queues every pass, and a queue that overflowed all the same
    releases every key and rescans."""
    return max(4, 2 * keys)


class OnboardIO(StripIO):
    """The io port on a board's own NeoPixels, keys, buttons and switches."""

    def __init__(self, spec, layout, pixels, *, brightness=None):
        """``pixels``: the pixel of every lamp, a row each (``drivers.lamp_pixels``)."""
        board = load("board")
        keypad = load("keypad")
        self.spec = spec
        self._pixels = None
        self._leds = None
        self._scanners = []
        self._shown = None
        self._switches = []  # slide switches: [role, DigitalInOut, level, level at start]
        self._led = None
        self._led_on = False  # as written: an output's read-back is its pad, not a promise (emulators read 0)
        self.oled = None
        self._encoder = None
        self._turned = 0
        self._frame = None
        self._cursor = None  # the cursor lamp as last drawn
        self.now = 0
        self.sound = None
        # Which board this is (``circuitplayground_express`` or ``_bluefruit``...):
        # the Express's speaker pin has no PWM, and tone.py falls back to audioio there.
        self.model = getattr(board, "board_id", None)
        self.presses = Presses(spec)
        try:
            if spec["lamps"]["kind"] != "neopixel":
                from ..config.boards import DriverError

                raise DriverError("the onboard driver drives a board's own NeoPixels")
            self._open_lamps(board, spec, pixels, brightness)
            self._open_inputs(board, keypad, spec)
            self._open_outputs(board, spec)
            self._open_sound(board, spec)
        except Exception:
            self.close()
            raise

    def _open_inputs(self, board, keypad, spec):
        names = spec.get("keys", ())
        if names:
            where = {}
            for r, row in enumerate(self._lamp_pixels):
                for i, p in enumerate(row):
                    where[p] = "key %d %d" % (r, i)
            keys = keypad.Keys(
                [board_pin(board, n) for n in names],
                value_when_pressed=False,
                pull=True,
                interval=SCAN_S,
                max_events=_queue(len(names)),
            )
            self._scanners.append((keys, [where.get(k) for k in range(len(names))]))
        buttons = spec.get("buttons", {})
        roles = sorted(buttons)
        if roles:
            high = spec.get("pressed") == "high"
            keys = keypad.Keys(
                [board_pin(board, buttons[r]) for r in roles],
                value_when_pressed=high,
                pull=True,
                interval=SCAN_S,
                max_events=_queue(len(roles)),
            )
            self._scanners.append((keys, roles))
        switches = spec.get("switches", {})
        if switches:
            digitalio = load("digitalio")
            for role in sorted(switches):
                pin = digitalio.DigitalInOut(board_pin(board, switches[role]))
                pin.switch_to_input(pull=digitalio.Pull.UP)
                self._switches.append([role, pin, pin.value, pin.value])  # role, pin, level, level at start
        encoder = spec.get("encoder")
        if encoder:
            rotaryio = load("rotaryio")
            self._encoder = rotaryio.IncrementalEncoder(board_pin(board, encoder[0]), board_pin(board, encoder[1]))
            self._turned = self._encoder.position

    def _open_outputs(self, board, spec):
        name = spec.get("status_led")
        if name:
            digitalio = load("digitalio")
            self._led = digitalio.DigitalInOut(board_pin(board, name))
            self._led.switch_to_output(value=False)
        name = spec.get("display")
        if name:
            from .oled import Oled

            self.oled = Oled(board_pin(board, name))

    # -- the port -----------------------------------------------------------------
    def show(self, lamps, status):
        self._frame = (lamps, status)
        self._draw()

    def _draw(self):
        lamps, status = self._frame  # type: ignore[misc]  # show sets it before any draw (watch draws only once it is)
        self._cursor = self.presses.shown(self.now)
        lamps = self.presses.overlay(lamps, self.now)
        wanted = []
        for r, row in enumerate(self._lamp_pixels):
            states = lamps[r] if r < len(lamps) else ()
            for i in range(len(row)):
                wanted.append(PALETTE.get(states[i], PALETTE[OFF]) if i < len(states) else PALETTE[OFF])
        if self._led is not None:
            on = bool(status.get("visitor"))
            if self._led_on != on:
                self._led.value = self._led_on = on
        if wanted == self._shown:
            return
        pixels = self._pixels
        k = 0
        for row in self._lamp_pixels:
            for p in row:
                pixels[p] = wanted[k]  # type: ignore[index]  # the onboard driver opens its NeoPixels or fails
                k += 1
        pixels.show()  # type: ignore[union-attr]  # as above
        mark()  # the frame's bits through the PIO: the link's step waits a pass (``passes.busy``)
        self._shown = wanted

    def events(self):
        presses = self.presses
        now = self.now
        for role, pressed in StripIO.events(self):
            presses.feed(role, pressed, now)
        for switch in self._switches:
            level = switch[1].value
            if level != switch[2]:
                switch[2] = level
                presses.feed(switch[0], level != switch[3], now)  # moved from where it started
        return presses.update(now)

    def watch(self, controller, now):
        """Called by the controller every loop, before ``events()``."""
        self.now = now
        self.presses.watch(controller, now)
        if self._encoder is not None:
            position = self._encoder.position
            if position != self._turned:
                steps = position - self._turned
                self._turned = position
                if controller.state == "attract":
                    from .choosing import choose_preset  # rare: it leaves again (``choosing``)

                    choose_preset(controller, self.spec.get("presets") or [], steps)
        if self._frame is not None and self.presses.shown(now) != self._cursor:
            self._draw()  # the cursor's slow blink
        if self.oled is not None:
            self.oled.watch(controller, now)
        StripIO.watch(self, controller, now)

    def close(self):
        """As ``StripIO.close`` (the pixels first), then every other part, each
        even if another fails (the first failure raised after)."""
        error = None
        try:
            StripIO.close(self)
        except Exception as e:  # raised once the rest is let go
            error = e
        parts = [switch[1] for switch in self._switches] + [self._encoder, self._led, self.oled]
        self._switches, self._encoder, self.oled = [], None, None
        if self._led is not None:
            led, self._led = self._led, None
            try:
                led.value = False
            except Exception as e:  # as above
                error = error or e
        for part in parts:
            if part is not None:
                try:
                    part.deinit()
                except Exception as e:  # as above
                    error = error or e
        if error is not None:
            raise error
