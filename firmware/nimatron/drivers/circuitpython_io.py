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

Written in the subset shared by CPython and CircuitPython.
"""

from ..config.boards import STATUS
from ..machine.ports import COLOURS, OFF, STATUS_COLOUR

# The package's names (DriverError, lamp_pixels, key_lamps) are imported where
# a driver opens, never here: once a board has started, ``nimatron.drivers``
# (what chooses and lays out a driver) leaves its heap (``startup.START_ONLY``)
# and this module keeps only what shows lamps and reads buttons.

# keypad scans this often (seconds). Its default, 0.02, put up to 20 ms
# between a press and the lamp going out (measured in the emulator: max 25 ms);
# 5 ms costs a scan of a few pins, and the controller's debouncer ignores the
# chatter a faster scan sees.
SCAN_S = 0.005


def board_pin(board, name):
    """``board.<name>``; DriverError (not AttributeError) when the board lacks it."""
    pin = getattr(board, name, None)
    if pin is None:
        from . import DriverError

        raise DriverError("this board has no pin %s (board.%s); check its pin map in nimatron/config/boards.py" % (name, name))
    return pin


def load(name):
    """Import a hardware module; DriverError if this machine cannot run it."""
    try:
        return __import__(name)
    except (ImportError, NotImplementedError, RuntimeError) as e:
        from . import DriverError

        raise DriverError("cannot load %s on this machine (%s): is this the right board, with Blinka set up?" % (name, e))


class CircuitPythonIO:
    """The io port on ``neopixel`` or ``digitalio`` lamps and ``keypad`` buttons."""

    def __init__(self, spec, layout, *, brightness=None):
        board = load("board")
        keypad = load("keypad")
        self._pixels = None
        self._leds = None
        self._scanners = []  # (keypad scanner, role of each key number)
        self._shown = None        # discrete LEDs: the values last set
        self._pixel_shown = None  # NeoPixels: the colour each pixel was last given
        self.sound = None
        try:
            self._open_lamps(board, spec, layout, brightness)
            self._open_buttons(board, keypad, spec, layout)
            self._open_sound(board, spec)
        except Exception:
            self.close()
            raise

    def _open_lamps(self, board, spec, layout, brightness):
        from . import DriverError, lamp_pixels

        lamps = spec["lamps"]
        if lamps["kind"] == "neopixel":
            neopixel = load("neopixel")
            self._lamp_pixels = lamp_pixels(lamps, layout)
            self._status_pixels = list(lamps["status"])
            level = spec.get("brightness", 1.0) if brightness is None else brightness  # checked by power.py
            self._pixels = neopixel.NeoPixel(board_pin(board, lamps["pin"]), lamps["pixels"], brightness=level,
                                             auto_write=False, pixel_order=lamps.get("order", "GRB"))
            self._pixels.fill((0, 0, 0))
            self._pixels.show()
            count = len(self._status_pixels)
            for row in self._lamp_pixels:
                count += len(row)
            self._pixel_shown = [None] * count  # the colour each lamp and status pixel was given
        elif lamps["kind"] == "leds":
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
        else:
            raise DriverError("unknown lamp kind %r" % lamps["kind"])

    def _open_sound(self, board, spec):
        """A ``speaker`` (pin + amplifier enable) or a ``buzzer`` pin: ``nimatron.machine.sound``."""
        speaker = spec.get("speaker") or ({"pin": spec["buzzer"]} if spec.get("buzzer") else None)
        if speaker:
            from ..machine.sound import Sound
            from .tone import Tone

            self.sound = Sound(Tone(board, speaker["pin"], speaker.get("enable")))

    def hear(self, event):
        """The controller's events, for the sounds (``app`` passes them on)."""
        if self.sound is not None:
            self.sound.hear(event)

    def watch(self, controller, now):
        """Called by the controller every loop: sounds start and stop here."""
        if self.sound is not None:
            self.sound.watch(controller, now)

    def _open_buttons(self, board, keypad, spec, layout):
        from . import DriverError, key_lamps

        buttons = spec["buttons"]
        if spec["input"] == "rows":
            roles = ["row%d" % r for r in range(len(layout))] + ["done", "new"]
        elif spec["input"] == "grid":
            matrix = spec["matrix"]
            rows = [board_pin(board, name) for name in matrix["rows"]]
            columns = [board_pin(board, name) for name in matrix["columns"]]
            places = key_lamps(spec["lamps"], layout, len(rows) * len(columns))
            keys = keypad.KeyMatrix(rows, columns, interval=SCAN_S)
            self._scanners.append((keys, ["key %d %d" % place if place else None for place in places]))
            roles = ["done", "new"]
        else:
            raise DriverError("unknown input %r" % spec["input"])
        for role in roles:
            if role not in buttons:
                raise DriverError("layout %s needs button %s, which this board does not have" % (list(layout), role))
        keys = keypad.Keys([board_pin(board, buttons[role]) for role in roles], value_when_pressed=False, pull=True,
                           interval=SCAN_S)
        self._scanners.append((keys, roles))

    def set_brightness(self, level):
        """Dim or brighten the strip (a level already checked by ``nimatron.config.power``)."""
        if self._pixels is not None and self._pixels.brightness != level:
            self._pixels.brightness = level
            self._pixels.show()

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
        shown = self._pixel_shown
        dark = COLOURS[OFF]
        changed = False
        k = 0
        for r in range(len(self._lamp_pixels)):
            row = self._lamp_pixels[r]
            states = lamps[r] if r < len(lamps) else ()
            for i in range(len(row)):
                colour = COLOURS.get(states[i], dark) if i < len(states) else dark
                if shown[k] is not colour:
                    pixels[row[i]] = colour
                    shown[k] = colour
                    changed = True
                k += 1
        statuses = self._status_pixels
        for j in range(len(statuses)):
            colour = STATUS_COLOUR if j < len(STATUS) and status.get(STATUS[j]) else dark
            if shown[k] is not colour:
                pixels[statuses[j]] = colour
                shown[k] = colour
                changed = True
            k += 1
        if changed:
            pixels.show()

    def _show_leds(self, lamps, status):
        wanted = []
        for row in lamps:
            for state in row:
                wanted.append(state != OFF)
        for role in STATUS:
            wanted.append(bool(status.get(role)))
        shown = self._shown
        for k, led in enumerate(self._leds):
            value = k < len(wanted) and wanted[k]
            if shown is None or shown[k] != value:
                led.value = value
        self._shown = [k < len(wanted) and wanted[k] for k in range(len(self._leds))]

    def events(self):
        """(role, pressed) edges since the last call; ``()`` when none, so a
        quiet pass makes no garbage (the collector's pause would land in
        some press's tick)."""
        out = None
        for keys, roles in self._scanners:
            queue = keys.events
            if queue.overflowed:
                # Edges were lost (the loop stalled): release every key, then
                # rescan from scratch so keys still held report a fresh press.
                queue.clear()
                _rescan(keys)
                out = out or []
                for role in roles:
                    if role is not None:
                        out.append((role, False))
                continue
            while True:
                event = queue.get()
                if event is None:
                    break
                role = roles[event.key_number] if event.key_number < len(roles) else None
                if role is not None:
                    out = out or []
                    out.append((role, event.pressed))
        return out or ()

    def close(self):
        sound, self.sound = getattr(self, "sound", None), None
        if sound is not None:
            sound.tone.stop()
            sound.tone.deinit()
        scanners, self._scanners = self._scanners, []
        for keys, _ in scanners:
            _stop(keys)
        if self._pixels is not None:
            pixels, self._pixels = self._pixels, None
            pixels.deinit()  # blanks the strip and frees the pin
        if self._leds is not None:
            leds, self._leds = self._leds, None
            for led in leds:
                led.value = False
                led.deinit()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _rescan(keys):
    """``keys.reset()``: forget which keys are down, so held keys report again.

    Blinka's ``reset()`` binds its two key-state lists to one list, after
    which its scanner never reports an edge again; there the lists are
    replaced by two fresh ones instead.
    """
    if hasattr(keys, "_previously_pressed"):
        keys._currently_pressed = [False] * keys.key_count
        keys._previously_pressed = [False] * keys.key_count
    else:
        keys.reset()


def _stop(keys):
    """Stop a keypad scanner and free its pins.

    CircuitPython's ``deinit()`` does this. Blinka's ``keypad`` scans in an
    endless thread that its ``deinit()`` joins, so there it would hang: on
    Blinka the scan is made a no-op (the daemon thread ends with the process)
    and the pins are released directly.
    """
    thread = getattr(keys, "_scan_thread", None)
    if thread is None or not thread.is_alive():
        keys.deinit()
        return
    import time

    keys._scanning_function = _idle
    time.sleep(2 * getattr(keys, "_interval", 0.02))  # let a scan in progress finish
    pins = []
    for name in ("_digitalinouts", "_row_digitalinouts", "_column_digitalinouts"):
        pins.extend(getattr(keys, name, ()))
    for dio in pins:
        dio.deinit()


def _idle():
    pass
