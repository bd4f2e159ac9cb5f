# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One board's design: what ``circuit.circuit`` derives from a pin map and
every other module of the generator reads.

    design = circuit("pico-grid", boards.board("pico-grid"))
    design.pico, design.jack, design.matrix["pullup_ohms"]   # True, 'J1', 2200

A reference (``"J1"``) is None where the board has no such part: a
Raspberry Pi driving LEDs has no DC jack, a MacroPad nothing to wire.
"""

from dataclasses import dataclass, field
from typing import Optional

from nimatron.config import boards

LAMP_FUSE = "polyfuse-lamp"  # parts.json: the lamps' +5V lead from the Pi's header, fused at the header


def is_pico(spec):
    """A Raspberry Pi Pico: CircuitPython on pins named GPn (a Pi's are GPIOn)."""
    return spec["driver"] == "circuitpython" and any(
        pin.startswith("GP") and not pin.startswith("GPIO") for pin, _ in boards.pins(spec)
    )


class Parts:
    """Numbered parts, grouped for the bill of materials."""

    def __init__(self):
        self.count = {}
        self.lines = []  # [prefix, part, value, [refs]], in the order first added
        self._line = {}

    def add(self, prefix, part, value="", key=None):
        n = self.count.get(prefix, 0) + 1
        self.count[prefix] = n
        ref = "%s%d" % (prefix, n)
        key = key or (prefix, part, value)
        if key not in self._line:
            self._line[key] = [prefix, part, value, []]
            self.lines.append(self._line[key])
        self._line[key][3].append(ref)
        return ref


@dataclass(frozen=True)
class Chain:
    """One line from a controller pin: the parts on it, from the pin outwards, and where it ends."""

    pin: str  # the pin map's name: "GP2"
    role: str  # the pin map's role: "row0", "lamp 1 2", "key column 3", "neopixel data"
    label: str  # the role in words: "row A button"
    header: Optional[int]  # the physical pin a builder solders to; None: built into the board
    items: list  # [(kind, ref, label)]: ("resistor", "R1", "220 Ω"), ("switch", "S1", "row A button")
    end: str  # "gnd", "+5v", "pixels", "row", "column", "onboard"; the controller's own: "vsys", "plus5"
    group: str  # its heading on the wiring diagram: "buttons", "lamps", "key matrix", "power"


@dataclass(frozen=True)
class Design:
    """A board's parts and wires (see ``circuit`` for the electrical choices)."""

    name: str  # the pin map's name: "pico-grid"
    spec: dict  # the pin map, as boards.board(name) gives it
    figures: dict  # power.budget(spec): volts, currents, the LEDs' resistor, the cap
    parts: Parts  # every reference, grouped for the BOM
    controller: str  # the board itself: "A1"
    chains: list = field(default_factory=list)  # [Chain], one per pin of the pin map, in drawing order
    title: Optional[str] = None  # a board with everything built in: its maker's name ("Adafruit MacroPad RP2040")
    supply: Optional[str] = None  # the 5 V supply of the lamps (or the USB one of a built-in board)
    pi_supply: Optional[str] = None  # a Raspberry Pi's own USB-C supply
    jack: Optional[str] = None  # the DC jack of the 5 V supply
    vsys_diode: Optional[str] = None  # a Pico's 1N5817 into VSYS
    dc_input: Optional[dict] = None  # behind the jack: {"fuse": parts.json key, "series": [(what, ohms, volts)]}
    sinks: tuple = ()  # the ULN2803A sink drivers of LEDs on a Raspberry Pi
    pixels: Optional[dict] = None  # NeoPixels: {"ref", "cap", "shifter", "count", "decoupler"}
    matrix: Optional[dict] = None  # a key matrix: {"rows", "columns", "keys", "pullup_ohms"}

    @property
    def onboard(self):
        """Everything built in (MacroPad, Circuit Playground): nothing to wire."""
        return self.spec["driver"] == "onboard"

    @property
    def pico(self):
        return is_pico(self.spec)

    @property
    def neopixel(self):
        """Its lamps are NeoPixels (else LEDs, each on a pin)."""
        return self.spec["lamps"]["kind"] == "neopixel"

    @property
    def lamp_fuse(self):
        """The parts.json key of the fuse in the lamps' +5V lead, or None: LEDs on sink drivers only."""
        return LAMP_FUSE if self.sinks else None
