# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Raspberry Pi with discrete LEDs and buttons, through gpiozero.

One ``LED`` per lamp and status lamp, one ``DigitalInputDevice`` per button
(active low: each button closes its pin to ground, the Pi's pull-up holds it
high). Not gpiozero's ``Button``: its hold thread, which the machine never
uses (a hold is timed in the main loop), wakes every 0.1 s and made closing
a machine wait 0.1 s a button. The
button callbacks only record ``(role, pressed)``; they may run in gpiozero's
background thread, so all game logic stays in the main loop that calls
``events()``.

On a PC, ``GPIOZERO_PIN_FACTORY=mock`` or ``pin_factory=MockFactory()`` runs
this driver unchanged: press with ``factory.pin("GPIO2").drive_low()``.
"""

from collections import deque

from ..config.boards import STATUS, DriverError
from ..machine.ports import OFF


class GpiozeroIO:
    """The io port on gpiozero ``LED`` and ``DigitalInputDevice`` devices."""

    def __init__(self, spec, layout, *, pin_factory=None):
        from gpiozero import LED, DigitalInputDevice

        lamps = spec["lamps"]
        if lamps["kind"] != "leds":
            raise DriverError("the gpiozero driver drives discrete LEDs, not %s lamps" % lamps["kind"])
        if spec["input"] != "rows":
            raise DriverError("the gpiozero driver reads one button per row, not %s input" % spec["input"])
        own = [len(row) for row in lamps["rows"]]
        if list(layout) != own:
            raise DriverError("discrete LEDs are wired as %s; cannot show layout %s" % (own, list(layout)))
        self._edges = deque()  # type: deque[tuple[str, bool]]
        self._devices = []
        self._shown = None
        try:
            self._lamps = [[self._add(LED(pin, pin_factory=pin_factory)) for pin in row] for row in lamps["rows"]]
            self._status = {role: self._add(LED(spec["status"][role], pin_factory=pin_factory)) for role in STATUS}
            for role in sorted(spec["buttons"]):
                button = self._add(DigitalInputDevice(spec["buttons"][role], pull_up=True, pin_factory=pin_factory))
                button.when_activated = self._recorder(role, True)
                button.when_deactivated = self._recorder(role, False)
                if button.is_active:  # closed at power-up: report it like a press
                    self._edges.append((role, True))
            self._outputs = [led for row in self._lamps for led in row] + [self._status[role] for role in STATUS]
        except ImportError as e:  # gpiozero's BadPinFactory: no GPIO library, or not a Pi
            self.close()
            raise DriverError("gpiozero cannot drive pins here (%s); on a PC set GPIOZERO_PIN_FACTORY=mock" % e)
        except Exception:
            self.close()
            raise

    def _add(self, device):
        self._devices.append(device)
        return device

    def _recorder(self, role, pressed):
        edge = (role, pressed)

        def record():
            self._edges.append(edge)  # deque.append is atomic: safe from gpiozero's thread

        return record

    def show(self, lamps, status):
        wanted = []
        for r, row in enumerate(self._lamps):
            states = lamps[r] if r < len(lamps) else ()
            for i in range(len(row)):
                wanted.append(i < len(states) and states[i] != OFF)
        for role in STATUS:
            wanted.append(bool(status.get(role)))
        shown = self._shown
        for k, led in enumerate(self._outputs):
            if shown is None or shown[k] != wanted[k]:
                led.value = wanted[k]
        self._shown = wanted

    def events(self):
        out = []
        edges = self._edges
        while edges:
            out.append(edges.popleft())
        return out

    def close(self):
        devices, self._devices = self._devices, []
        for device in reversed(devices):
            device.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
