# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""CircuitPython boards, natively or on a Raspberry Pi through Blinka.

Lamps are a NeoPixel strip (one pixel per lamp in the colours of
``ports.COLOURS``, status pixels white, brightness capped by the board's
power budget) or discrete LEDs on ``digitalio`` outputs. Buttons are scanned
by ``keypad``: ``Keys`` for one button per row (active low, internal
pull-ups), or ``KeyMatrix`` for a key under every lamp plus ``Keys`` for
DONE and NEW. ``keypad`` scans in the background and queues edges;
``events()`` drains the queues, so nothing here needs a thread.

Written in the subset shared by CPython and CircuitPython; the strip, the
scanners' queues and the speaker are ``strip_io``'s, which the MacroPad's
driver shares.
"""

from ..config.boards import STATUS
from ..passes import mark
from ..machine.ports import COLOURS, OFF, STATUS_COLOUR
from .strip_io import SCAN_S, StripIO, board_pin, load

# ``DriverError`` (``config.boards``'s) is imported where a driver opens, never
# here: once a board has started, ``config.boards`` leaves its heap
# (``limit.STARTUP_ONLY``) and this module keeps only what shows lamps and
# reads buttons. Where the lamps are is worked out by ``drivers.open_io``.


class CircuitPythonIO(StripIO):
    """The io port on ``neopixel`` or ``digitalio`` lamps and ``keypad`` buttons."""

    def __init__(self, spec, layout, pixels=None, keys=None, *, brightness=None):
        """``pixels``: a NeoPixel strip's pixel of every lamp, a row each;
        ``keys``: a key matrix's lamp over each key number (row, index) or
        None (``drivers.lamp_pixels``, ``key_lamps``)."""
        board = load("board")
        keypad = load("keypad")
        self._pixels = None
        self._leds = None
        self._scanners = []  # (keypad scanner, role of each key number)
        self._shown = None  # discrete LEDs: the values last set
        self._pixel_shown = None  # NeoPixels: the colour each pixel was last given
        self.sound = None
        try:
            if spec["lamps"]["kind"] == "leds":
                self._open_leds(board, spec, layout)
            else:
                self._open_lamps(board, spec, pixels, brightness)
            self._open_buttons(board, keypad, spec, layout, keys)
            self._open_sound(board, spec)
        except Exception:
            self.close()
            raise

    def _open_lamps(self, board, spec, pixels, brightness):
        super()._open_lamps(board, spec, pixels, brightness)  # NeoPixels, or says which kind it cannot show
        count = len(self._status_pixels)
        for row in self._lamp_pixels:
            count += len(row)
        self._pixel_shown = [None] * count  # the colour each lamp and status pixel was given

    def _open_leds(self, board, spec, layout):
        from ..config.boards import DriverError

        lamps = spec["lamps"]
        digitalio = load("digitalio")
        own = [len(row) for row in lamps["rows"]]
        if list(layout) != own:
            raise DriverError("discrete LEDs are wired as %s; cannot show layout %s" % (own, list(layout)))
        pins = [pin for row in lamps["rows"] for pin in row] + [spec["status"][role] for role in STATUS]
        self._leds = []
        for name in pins:
            led = digitalio.DigitalInOut(board_pin(board, name))
            self._leds.append(led)
            led.switch_to_output(value=False)

    def _open_buttons(self, board, keypad, spec, layout, keys):
        from ..config.boards import DriverError

        buttons = spec["buttons"]
        if spec["input"] == "rows":
            roles = ["row%d" % r for r in range(len(layout))] + ["done", "new"]
        elif spec["input"] == "grid":
            matrix = spec["matrix"]
            rows = [board_pin(board, name) for name in matrix["rows"]]
            columns = [board_pin(board, name) for name in matrix["columns"]]
            scanner = keypad.KeyMatrix(rows, columns, interval=SCAN_S)
            self._scanners.append((scanner, ["key %d %d" % place if place else None for place in keys]))
            roles = ["done", "new"]
        else:
            raise DriverError("unknown input %r" % spec["input"])
        for role in roles:
            if role not in buttons:
                raise DriverError("layout %s needs button %s, which this board does not have" % (list(layout), role))
        scanner = keypad.Keys(
            [board_pin(board, buttons[role]) for role in roles], value_when_pressed=False, pull=True, interval=SCAN_S
        )
        self._scanners.append((scanner, roles))

    def show(self, lamps, status):
        if self._pixels is not None:
            self._show_pixels(lamps, status)
        elif self._leds is not None:
            self._show_leds(lamps, status)

    def _show_pixels(self, lamps, status):
        """Only the pixels whose colour changed are set, then one ``show()``;
        nothing is allocated (the colours are ``COLOURS``' own tuples), so a
        frame brings no collection into the pass that drew a press's lamp."""
        pixels = self._pixels
        shown = self._pixel_shown  # type: list  # type: ignore[assignment]  # open with the pixels (show checks them)
        dark = COLOURS[OFF]
        changed = False
        k = 0
        for r in range(len(self._lamp_pixels)):
            row = self._lamp_pixels[r]
            states = lamps[r] if r < len(lamps) else ()
            for i in range(len(row)):
                colour = COLOURS.get(states[i], dark) if i < len(states) else dark
                if shown[k] is not colour:
                    pixels[row[i]] = colour  # type: ignore[index]  # show draws pixels only once they are open
                    shown[k] = colour
                    changed = True
                k += 1
        statuses = self._status_pixels
        for j in range(len(statuses)):
            colour = STATUS_COLOUR if j < len(STATUS) and status.get(STATUS[j]) else dark
            if shown[k] is not colour:
                pixels[statuses[j]] = colour  # type: ignore[index]  # as above
                shown[k] = colour
                changed = True
            k += 1
        if changed:
            pixels.show()  # type: ignore[union-attr]  # as above
            mark()  # a heavy thing in a Pico's pass (the frame's bits through the PIO): the link's step waits a pass

    def _show_leds(self, lamps, status):
        wanted = []
        for row in lamps:
            for state in row:
                wanted.append(state != OFF)
        for role in STATUS:
            wanted.append(bool(status.get(role)))
        shown = self._shown
        for k, led in enumerate(self._leds):  # type: ignore[arg-type]  # show draws LEDs only once they are open
            value = k < len(wanted) and wanted[k]
            if shown is None or shown[k] != value:
                led.value = value
        self._shown = [k < len(wanted) and wanted[k] for k in range(len(self._leds))]  # type: ignore[arg-type]  # as above

    def close(self):
        StripIO.close(self)
        if self._leds is not None:
            leds, self._leds = self._leds, None
            for led in leds:
                led.value = False
                led.deinit()
