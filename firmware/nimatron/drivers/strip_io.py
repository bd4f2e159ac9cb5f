# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""NeoPixel lamps, ``keypad`` scanners and a speaker: what the wired Pico
boards (``circuitpython_io``) and the boards with everything built in
(``onboard_io``, the MacroPad's) share.

Apart from ``circuitpython_io`` so that a MacroPad keeps none of what only
wired boards do (discrete LEDs, a row of buttons or a key matrix, the
strip's own drawing): the driver it keeps beside its OLED, keys and encoder
is about half the ``.mpy`` it would be, where its heap is tightest
(a wired Pico keeps both modules).

Written in the subset shared by CPython and CircuitPython.
"""

# keypad scans this often (seconds). Its default, 0.02, put up to a whole
# scan between a press and the lamp going out (docs/board.md's press to lamp);
# 5 ms costs a scan of a few pins, and the controller's debouncer ignores the
# chatter a faster scan sees.
from ..machine.debounce import edge

SCAN_S = 0.005


def board_pin(board, name):
    """``board.<name>``; DriverError (not AttributeError) when the board lacks it."""
    pin = getattr(board, name, None)
    if pin is None:
        from ..config.boards import DriverError

        raise DriverError(
            "this board has no pin %s (board.%s); check its pin map in nimatron/config/boards.py" % (name, name)
        )
    return pin


def load(name):
    """Import a hardware module; DriverError if this machine cannot run it."""
    try:
        return __import__(name)
    except (ImportError, NotImplementedError, RuntimeError) as e:
        from ..config.boards import DriverError

        raise DriverError(
            "cannot load %s on this machine (%s): is this the right board, with Blinka set up?" % (name, e)
        )


class StripIO:
    """Lamps on a NeoPixel strip, buttons on ``keypad`` scanners (each a
    (scanner, role of each key number) in ``_scanners``), sounds on a
    speaker; a subclass opens them and draws the lamps."""

    _pixels = None
    _event = None  # a keypad event, filled in by each read (``events``)
    _edges = None  # type: dict | None  # role -> its two edges, made at its first press
    _out = None  # type: list  # type: ignore[assignment]  # the list ``events`` returns, reused: made with ``_edges``
    _scanners = ()  # type: list[tuple]  # type: ignore[assignment]  # a subclass opens its list; () is only iterated
    sound = None

    def _open_lamps(self, board, spec, pixels, brightness):
        """``pixels``: the pixel of every lamp, a row each (``drivers.lamp_pixels``)."""
        lamps = spec["lamps"]
        if lamps["kind"] != "neopixel":
            from ..config.boards import DriverError

            raise DriverError("unknown lamp kind %r" % lamps["kind"])
        neopixel = load("neopixel")
        self._lamp_pixels = pixels
        self._status_pixels = list(lamps["status"])
        level = spec.get("brightness", 1.0) if brightness is None else brightness  # checked by power.py
        self._pixels = neopixel.NeoPixel(
            board_pin(board, lamps["pin"]),
            lamps["pixels"],
            brightness=level,
            auto_write=False,
            pixel_order=lamps.get("order", "GRB"),
        )
        self._pixels.fill((0, 0, 0))
        self._pixels.show()

    def _open_sound(self, board, spec):
        """A ``speaker`` (pin + amplifier enable) or a ``buzzer`` pin: ``nimatron.machine.sound``."""
        speaker = spec.get("speaker") or ({"pin": spec["buzzer"]} if spec.get("buzzer") else None)
        if speaker:
            from ..machine.sound import Sound
            from .tone import Tone

            enable = speaker.get("enable")
            self.sound = Sound(Tone(board_pin(board, speaker["pin"]), enable and board_pin(board, enable), load))

    def hear(self, event):
        """The controller's events, for the sounds (``app`` passes them on)."""
        if self.sound is not None:
            self.sound.hear(event)

    def watch(self, controller, now):
        """Called by the controller every loop: sounds start and stop here."""
        if self.sound is not None:
            self.sound.watch(controller, now)

    def set_brightness(self, level):
        """Dim or brighten the strip (a level already checked by ``nimatron.config.power``)."""
        if self._pixels is not None and self._pixels.brightness != level:
            self._pixels.brightness = level
            self._pixels.show()

    def events(self):
        """(role, pressed) edges since the last call; ``()`` when none, so a
        quiet pass makes no garbage (the collector's pause would land in
        some press's tick). A press makes nothing either: the first event's
        object is filled in again (``get_into``), each role's edges are
        made once, and the list returned is emptied and reused at the next
        call (its reader is done with it by then)."""
        out = None
        if self._edges is None:
            self._edges = {}
            self._out = []
        for keys, roles in self._scanners:
            queue = keys.events
            if queue.overflowed:
                # Edges were lost (the loop stalled): release every key, then
                # rescan from scratch so keys still held report a fresh press.
                queue.clear()
                _rescan(keys)
                if out is None:
                    out = self._out
                    out.clear()
                for role in roles:
                    if role is not None:
                        out.append(edge(self._edges, role, False))
                continue
            while True:
                event = self._event
                if event is None:
                    event = queue.get()  # the first: its object is kept and filled in since
                    if event is None:
                        break
                    self._event = event
                elif not queue.get_into(event):
                    break
                role = roles[event.key_number] if event.key_number < len(roles) else None
                if role is not None:
                    if out is None:
                        out = self._out
                        out.clear()
                    out.append(edge(self._edges, role, event.pressed))
        return out or ()

    def close(self):
        """Every part let go, the pixels first, each even if another fails
        (the first failure raised after): a close that stopped at a part
        (a tone, a scanner) left the strip's pin claimed, and every rebuild
        after a fault failed with ``NEOPIXEL in use``."""
        pixels, self._pixels = self._pixels, None
        sound, self.sound = getattr(self, "sound", None), None
        scanners, self._scanners = self._scanners, []
        calls = [] if pixels is None else [pixels.deinit]  # blanks the strip and frees the pin
        if sound is not None:
            calls += [sound.tone.stop, sound.tone.deinit]
        error = None
        for call in calls:
            try:
                call()
            except Exception as e:  # raised once the rest is let go
                error = error or e
        for keys, _ in scanners:
            try:
                _stop(keys)
            except Exception as e:  # as above
                error = error or e
        if error is not None:
            raise error

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
    thread = keys._scan_thread if hasattr(keys, "_scan_thread") else None  # a name in the code: interned as it compiles
    if thread is None or not thread.is_alive():
        keys.deinit()
        return
    import time

    keys._scanning_function = _idle
    time.sleep(2 * getattr(keys, "_interval", 0.02))  # let a scan in progress finish
    pins = []  # type: list
    for name in ("_digitalinouts", "_row_digitalinouts", "_column_digitalinouts"):
        pins.extend(getattr(keys, name, ()))
    for dio in pins:
        dio.deinit()


def _idle():
    pass
