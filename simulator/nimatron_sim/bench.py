# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The breadboard under the simulated firmware: mocked pins, switches, lamps.

A bench stands in for the wires of one board (``nimatron.config.boards``). It
closes and opens switches (a button to ground, or a matrix key joining a
row wire to a column wire) and reads the lamps back *from the pins*: LED
pin levels, or the bytes of the last NeoPixel frame. The real driver sits on
top, unchanged:

- ``GpiozeroBench``: gpiozero's ``MockFactory``; a press is
  ``pin.drive_low()``, a lamp is ``pin.state``.
- ``BlinkaBench``: Blinka's OS-agnostic board (``blinka_mock``) with a
  small electrical model: an input reads low when a closed switch joins it
  to ground or to an output driven low, else its pull; the keypad scanners
  run on the bench's virtual clock.
"""

from nimatron.drivers import key_lamps, lamp_pixels

GND = "GND"
KEPT_STATES = 64  # a mocked gpiozero pin's history of changes, trimmed beyond this
VCC = "3V3"


def board_roles(spec):
    """Every button role wired on a board: row buttons, done, new, keys;
    switches, chords (``a+b``) and an encoder's turns (``cw``, ``ccw``)."""
    roles = sorted(spec["buttons"])
    matrix = spec.get("matrix")
    if matrix:
        keys = len(matrix["rows"]) * len(matrix["columns"])
        for place in key_lamps(spec["lamps"], spec["lamps"]["layout"], keys):
            if place:
                roles.append("key %d %d" % place)
    where = key_pixels(spec)
    roles.extend(sorted(where, key=lambda role: where[role]))
    roles.extend(sorted(spec.get("switches", {})))
    for table in ("presses", "holds"):
        for name in sorted(spec.get(table, {})):
            if "+" in name and name not in roles:
                roles.append(name)
    if spec.get("encoder"):
        roles.extend(["cw", "ccw"])
    return roles


def key_pixels(spec):
    """``key R I`` -> key number for a board with one pin per key (key k under pixel k)."""
    names = spec.get("keys", ())
    out = {}
    if names:
        lamps = spec["lamps"]
        for r, row in enumerate(lamp_pixels(lamps, lamps["layout"])):
            for i, p in enumerate(row):
                if p < len(names):
                    out["key %d %d" % (r, i)] = p
    return out


def make_bench(spec):
    if spec["driver"] == "gpiozero":
        return GpiozeroBench(spec)
    if spec["driver"] in ("circuitpython", "onboard"):
        return BlinkaBench(spec)
    raise ValueError("no bench for driver %r" % spec["driver"])


class Bench:
    """What both benches share: roles, read-back, change counting."""

    def __init__(self, spec):
        self.spec = spec
        self.roles = board_roles(spec)
        self.version = 0  # bumped on every output change
        self.layout = None  # the game's lamps per row, set once the controller is built

    def next_scan(self):
        """Virtual ms of the next keypad scan (None: inputs need no scanning)."""
        return None

    def scan(self, now):
        pass

    def open(self, make):
        """Call ``make()`` (which opens the driver) with this bench's pins in place."""
        return make()


class GpiozeroBench(Bench):
    def __init__(self, spec):
        Bench.__init__(self, spec)
        from gpiozero.pins.mock import MockFactory, MockPin

        bench = self

        class BenchPin(MockPin):
            def _change_state(self, value):
                changed = MockPin._change_state(self, value)
                if changed:
                    if self._function == "output":  # a lamp, not a button
                        bench.version += 1
                    # MockPin keeps every change of every pin, lamp or button
                    # (bounce makes many): a long run would grow forever
                    if len(self.states) > KEPT_STATES:
                        del self.states[:-8]
                return changed

        self.factory = MockFactory(pin_class=BenchPin)
        lamps = spec["lamps"]
        self._lamp_pins = [[self.factory.pin(name) for name in row] for row in lamps["rows"]]
        self._status_pins = {role: self.factory.pin(name) for role, name in spec["status"].items()}
        self._button_pins = {role: self.factory.pin(name) for role, name in spec["buttons"].items()}

    def open(self, make):
        from gpiozero import Device

        previous = Device.pin_factory
        Device.pin_factory = self.factory
        try:
            return make()
        finally:
            Device.pin_factory = previous

    def set_switch(self, role, closed):
        pin = self._button_pins[role]
        if closed:
            pin.drive_low()  # the button shorts the pulled-up pin to ground
        else:
            pin.drive_high()

    def read_lamps(self):
        return [[1 if pin.state else 0 for pin in row] for row in self._lamp_pins]

    def read_status(self):
        return {role: 1 if self._status_pins[role].state else 0 for role in _status_roles()}

    def read_colours(self):
        """(r, g, b) per lamp: white when lit (discrete LEDs have one colour)."""
        return [[(255, 255, 255) if on else (0, 0, 0) for on in row] for row in self.read_lamps()]

    def close(self):
        self.factory.reset()


def _status_roles():
    from nimatron.config.boards import STATUS

    return STATUS


class BlinkaBench(Bench):
    IN, OUT, PULL_UP, PULL_DOWN = 1, 0, 1, 2  # agnostic Pin's constants
    # an encoder's two contacts through one detent, clockwise (A leads B)
    QUADRATURE = ((0, 1), (0, 0), (1, 0), (1, 1))

    def __init__(self, spec):
        Bench.__init__(self, spec)
        from . import blinka_mock

        self._mock = blinka_mock
        blinka_mock.install()
        self._id = {}  # pin name -> id
        self._mode = {}  # id -> IN / OUT
        self._pull = {}  # id -> pull
        self._out = {}  # id -> level driven
        self._frames = {}  # id -> last NeoPixel frame bytes
        self._links = {}  # id -> other ends of closed switches
        self._scanners = []
        from nimatron.config.boards import pins

        for name, _ in pins(spec):
            pin = blinka_mock.new_pin(self, name)
            self._id[name] = pin.id
            self._mode[pin.id] = self.IN
        lamps = spec["lamps"]
        if lamps["kind"] == "neopixel":
            self._lamp_ids = {self._id[lamps["pin"]]}
            if spec.get("status_led"):
                self._lamp_ids.add(self._id[spec["status_led"]])
        else:
            names = [n for row in lamps["rows"] for n in row] + list(spec["status"].values())
            self._lamp_ids = {self._id[n] for n in names}
        self._switch = {}  # role -> (id, other end)
        to = VCC if spec.get("pressed") == "high" else GND  # pull-down buttons close to 3.3 V
        for role, name in spec["buttons"].items():
            self._switch[role] = (self._id[name], to)
        keys = spec.get("keys", ())
        for role, k in key_pixels(spec).items():
            self._switch[role] = (self._id[keys[k]], GND)
        self._toggles = {}  # slide switch role -> position (closed to ground or not)
        for role, name in spec.get("switches", {}).items():
            self._switch[role] = (self._id[name], GND)
            self._toggles[role] = False
        self._encoders = []
        self._turns = 0  # detents turned, clockwise positive
        encoder = spec.get("encoder")
        self._encoder_ids = [self._id[n] for n in encoder] if encoder else []
        if encoder:
            for role, pin_id in zip(("encoder a", "encoder b"), self._encoder_ids):
                self._switch[role] = (pin_id, GND)
        matrix = spec.get("matrix")
        if matrix:
            rows = [self._id[n] for n in matrix["rows"]]
            columns = [self._id[n] for n in matrix["columns"]]
            places = key_lamps(spec["lamps"], spec["lamps"]["layout"], len(rows) * len(columns))
            for n, place in enumerate(places):
                if place:
                    self._switch["key %d %d" % place] = (rows[n // len(columns)], columns[n % len(columns)])
        self._closed = set()
        self._mapped = None
        self.tones = []
        self.display = None
        if spec.get("display"):
            from . import oled_mock  # displayio: only a board with a built-in display

            self.display = oled_mock.new_display(self, spec["display"])

    def open(self, make):
        # board.<name> may have been rebound by a later bench: point it back here
        import board

        for name, pin_id in self._id.items():
            current = getattr(board, name, None)
            if current is None or current.id != pin_id:
                from adafruit_blinka.microcontroller.generic_agnostic_board.pin import Pin

                setattr(board, name, Pin(pin_id))
        if self.display is not None:
            setattr(board, self.spec["display"], self.display)
        return make()

    # -- called by the patched Blinka pin -----------------------------------
    def configure(self, pin_id, mode, pull):
        self._mode[pin_id] = mode
        self._pull[pin_id] = pull

    def drive(self, pin_id, value):
        if self._out.get(pin_id) != value:
            self._out[pin_id] = value
            if pin_id in self._lamp_ids:  # not a key matrix row being scanned
                self.version += 1

    def level(self, pin_id):
        if self._mode.get(pin_id) == self.OUT:
            return 1 if self._out.get(pin_id) else 0
        high = False
        for other in self._links.get(pin_id, ()):
            if other == GND:
                return 0
            if other == VCC:
                return 1
            if self._mode.get(other) == self.OUT:
                if not self._out.get(other):
                    return 0
                high = True
        if high:
            return 1
        return 0 if self._pull.get(pin_id) == self.PULL_DOWN else 1  # pulled up, or floating high

    def frame(self, pin_id, data):
        if self._frames.get(pin_id) != data:
            self._frames[pin_id] = data
            self.version += 1

    def add_scanner(self, keys):
        self._scanners.append(keys)

    def add_encoder(self, encoder):
        self._encoders.append(encoder)

    def tone(self, pin_id, frequency, duty):
        """A PWM speaker pin changed: (Hz, duty) appended to ``tones`` (0 duty: silent)."""
        self.tones.append((int(frequency), int(duty)))
        if len(self.tones) > 256:  # long runs: keep the recent past
            del self.tones[:-64]

    # -- the simulator's side -------------------------------------------------
    def next_scan(self):
        best = None
        for keys in self._scanners:
            last = keys._last_scan
            due = 0 if last is None else last + _interval_ms(keys)
            if best is None or due < best:
                best = due
        return best

    def scan(self, now):
        for keys in self._scanners:
            last = keys._last_scan
            if last is None or now - last >= _interval_ms(keys):
                keys._last_scan = now
                keys._scanning_function()

    def set_switch(self, role, closed):
        if role in ("cw", "ccw"):
            if closed:
                self.turn(1 if role == "cw" else -1)
            return
        if role in self._toggles:
            if not closed:
                return  # a slide switch stays where it was pushed
            self._toggles[role] = closed = not self._toggles[role]
        if "+" in role:
            for part in role.split("+"):
                self.set_switch(part, closed)
            return
        if closed:
            self._closed.add(role)
        else:
            self._closed.discard(role)
        self._relink()

    def turn(self, detents):
        """Turn the encoder: its contacts step through the quadrature cycle,
        the encoder sampling each step (as its pin-change interrupt would)."""
        steps = self.QUADRATURE if detents > 0 else tuple(reversed(self.QUADRATURE[:-1])) + self.QUADRATURE[-1:]
        for _ in range(abs(detents)):
            for a, b in steps:
                for role, level in (("encoder a", a), ("encoder b", b)):
                    if level:
                        self._closed.discard(role)
                    else:
                        self._closed.add(role)
                self._relink()
                for encoder in self._encoders:
                    encoder.sample()
        self._turns += detents

    def _relink(self):
        links = {}
        for r in self._closed:
            a, b = self._switch[r]
            links.setdefault(a, []).append(b)
            if b not in (GND, VCC):
                links.setdefault(b, []).append(a)
        self._links = links

    def _pixel_bytes(self):
        lamps = self.spec["lamps"]
        data = self._frames.get(self._id[lamps["pin"]], b"")
        bpp = len(data) // lamps["pixels"] if data else 3
        return data, bpp

    def _pixel(self, data, bpp, p):
        """(r, g, b) of pixel ``p`` as sent (brightness-scaled), or dark."""
        chunk = data[p * bpp : p * bpp + bpp]
        if len(chunk) < 3:
            return (0, 0, 0)
        order = self.spec["lamps"].get("order", "GRB")
        return (chunk[order.index("R")], chunk[order.index("G")], chunk[order.index("B")])

    def _lamp_pixels(self):
        if self._mapped is None or self._mapped[0] != self.layout:
            self._mapped = (list(self.layout), lamp_pixels(self.spec["lamps"], self.layout))
        return self._mapped[1]

    def read_colours(self):
        lamps = self.spec["lamps"]
        if lamps["kind"] != "neopixel":
            return [[(255, 255, 255) if on else (0, 0, 0) for on in row] for row in self.read_lamps()]
        data, bpp = self._pixel_bytes()
        return [[self._pixel(data, bpp, p) for p in row] for row in self._lamp_pixels()]

    def read_lamps(self):
        lamps = self.spec["lamps"]
        if lamps["kind"] != "neopixel":
            return [[1 if self._out.get(self._id[n]) else 0 for n in row] for row in lamps["rows"]]
        data, bpp = self._pixel_bytes()
        return [[1 if any(data[p * bpp : p * bpp + bpp]) else 0 for p in row] for row in self._lamp_pixels()]

    def read_display(self):
        """The built-in display's pixels (rows of 0/1) as displayio drew them, or None."""
        if self.display is None:
            return None
        return [list(row) for row in self.display.bus_pixels]

    def read_status(self):
        lamps = self.spec["lamps"]
        roles = _status_roles()
        led = self.spec.get("status_led")
        if led:  # one LED for "your turn"; the other states are not lamps on this board
            status = dict.fromkeys(roles, 0)
            status["visitor"] = 1 if self._out.get(self._id[led]) else 0
            return status
        if lamps["kind"] != "neopixel":
            return {role: 1 if self._out.get(self._id[self.spec["status"][role]]) else 0 for role in roles}
        data, bpp = self._pixel_bytes()
        return {role: 1 if any(data[p * bpp : p * bpp + bpp]) else 0 for role, p in zip(roles, lamps["status"])}

    def close(self):
        self._mock.release(list(self._id.values()))
        self._scanners = []


def _interval_ms(keys):
    return int(round(keys._interval * 1000))
