# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One board's circuit, derived from its pin map: the parts and every wire.

The wiring diagram draws exactly this, and the bill of materials counts it,
so the two cannot disagree; both follow the pin map the firmware reads.

    design = circuit("pico-neopixel", boards.board("pico-neopixel"))
    design.chains[0]   # Chain(pin="GP0", role="neopixel data", items=[...], ...)

Electrical choices, each with its reason:
- buttons and keys close to ground; the board's internal pull-ups (about
  50 kOhm) hold a button high. A key matrix's columns get 2.2 kOhm pull-ups
  to 3.3 V: an 800 mm loom, a diode per row and the ESD array are too much
  for the pin's own 80 kOhm within the scan's settle time. A 220 Ohm
  resistor in each button and key-column line at the board limits the current
  of an electrostatic discharge from a visitor's hand into the pin's protection
  diodes (small
  enough that a pressed button still reads low, even against the 1.8 kOhm
  pull-ups the Raspberry Pi fits on GPIO2 and GPIO3);
- one BAT85 Schottky per key of a key matrix, anode to the column (``keypad.
  KeyMatrix(columns_to_anodes=True)``, its default), so chords never ghost. A
  held key's column reads its diode's drop above the driven row, and every key
  held in that row adds its current to the row's path: a silicon 1N4148
  (1.0 V max at 10 mA), a 220 Ohm row resistor and 2.2 kOhm pull-ups read
  0.90-1.94 V typical against the RP2040's 0.8 V VIL. So the rows have no
  series resistor (the SRV05-4 at the loom's plug protects them), the
  pull-ups are 4.7 kOhm and the diodes Schottky (``keylevel``: the pressed
  level at the parts' corners, any number of keys held);
- NeoPixels: a 74AHCT125 lifts the 3.3 V data to 5 V logic (WS2812 needs
  0.7 x VDD = 3.5 V), a 330 Ohm resistor at the strip's input damps ringing,
  a 1000 uF capacitor across the strip's supply absorbs the switch-on surge;
- a Pico takes its 5 V through a 1N5817 Schottky diode into VSYS, so USB
  and the supply can both be plugged in (the Pico datasheet's own advice);
- a Raspberry Pi keeps its own USB-C supply; only grounds are joined;
- the DC input: F1 polyfuse (held at 50 degC), two P-MOSFETs back to back on
  heat sinks (reverse polarity and an over-voltage cut-off at 5.30-5.57 V), a
  bi-polar C_IN and a TVS across the jack: a 9, 12 or 24 V adapter, or one wired
  backwards, lights nothing and harms nothing (``supply_sim`` proves each case with
  ngspice at its corners; ``stripboard`` lays it out).
"""

from dataclasses import replace

from nimatron.config import boards, power

from . import parts as catalogue
from .design import Chain, Design, Parts, is_pico

BUTTON_OHMS = 220
KEY_PULLUP_OHMS = 4700  # a key-matrix column's pull-up to 3.3 V (electrical: settles in time, reads low)
KEY_ROW_OHMS = 0  # a key-matrix row carries every held key's current: no series resistor (keylevel)
KEY_DIODE = "bat85"  # parts.json: a Schottky, so a held key reads under VIL (keylevel)
DATA_OHMS = 330

# What a builder's multimeter should read, each figure with its reason (the
# checkpoints of the guide and the commissioning sheet are computed from these
# and from parts.json):
SUPPLY_TOLERANCE = 0.05  # a regulated 5 V supply, USB and the 3.3 V regulator hold +-5 %
RESISTOR_TOLERANCE = 0.05  # 1 % parts, read by a hand-held meter (its own 2-3 % and the leads)
NO_SHORT_OHMS = 1000  # open lines and a supply with no load read far above this; a short far below
CLOSED_OHMS = 1.0  # a closed microswitch and a metre of 22 AWG (0.05 Ohm) read well below this
SILICON_MIN_VF = 0.4  # a silicon diode's drop at a meter's ~1 mA diode test; less is a short
NAMES = {"row": "row", "done": "DONE", "new": "NEW GAME"}
STATUS_WORDS = {
    "visitor": "YOUR TURN",
    "machine": "MACHINE THINKING",
    "champ": "NIM CHAMP",
    "machine_wins": "MACHINE WINS",
}

# Raspberry Pi 40-pin header: BCM GPIO -> physical pin
PI_HEADER = {
    2: 3,
    3: 5,
    4: 7,
    14: 8,
    15: 10,
    17: 11,
    18: 12,
    27: 13,
    22: 15,
    23: 16,
    24: 18,
    10: 19,
    9: 21,
    25: 22,
    11: 23,
    8: 24,
    7: 26,
    0: 27,
    1: 28,
    5: 29,
    6: 31,
    12: 32,
    13: 33,
    19: 35,
    16: 36,
    26: 37,
    20: 38,
    21: 40,
}
# Raspberry Pi Pico: GPn -> physical pin
PICO_HEADER = {
    0: 1,
    1: 2,
    2: 4,
    3: 5,
    4: 6,
    5: 7,
    6: 9,
    7: 10,
    8: 11,
    9: 12,
    10: 14,
    11: 15,
    12: 16,
    13: 17,
    14: 19,
    15: 20,
    16: 21,
    17: 22,
    18: 24,
    19: 25,
    20: 26,
    21: 27,
    22: 29,
    26: 31,
    27: 32,
    28: 34,
}


def pin_number(pin):
    """The number in a pin name: GPIO17 -> 17, D10 -> 10, GP2 -> 2."""
    digits = ""
    for ch in pin:
        if ch.isdigit():
            digits += ch
    return int(digits)


def header_pin(spec, pin):
    """The physical pin a builder solders to."""
    table = PICO_HEADER if is_pico(spec) else PI_HEADER
    return table[pin_number(pin)]


def row_letter(r):
    return "ABCDEFGHIJKLMNOP"[r]


def role_label(role):
    """Words for a pin's role: 'lamp 1 2' -> 'lamp B3', 'row0' -> 'row A button'."""
    words = role.split()
    if words[0] == "lamp":
        return "lamp %s%d" % (row_letter(int(words[1])), int(words[2]) + 1)
    if words[0] == "status":
        return "status: " + STATUS_WORDS[words[1]]
    if role.startswith("row"):
        return "row %s button" % row_letter(int(role[3:]))
    if role in ("done", "new"):
        return NAMES[role] + " button"
    if words[0] == "key":
        return "key matrix %s %d" % (words[1], int(words[2]) + 1)
    return role


def revision(name):
    """The stamp on every drawing: the project's version and the pin map's
    CRC-32, the same two the machine answers HELLO with, so a technician can
    tell whether a drawing belongs to the machine in front of them."""
    from nimatron.machine import identity

    who = identity(name)
    return "rev. Nimatron %s, pin map %s CRC %s" % (who["version"], name, who["pinmap_crc"])


SINK_CHANNELS = 8  # a ULN2803A: inputs on pins 1-8, outputs on 18-11, GND 9, COM 10


def onboard(name, spec):
    """A board with everything built in (MacroPad, Circuit Playground): no
    wiring to do; every pin of the pin map is a part of the board itself."""
    parts = Parts()
    title = spec.get("about", name).split(":")[0]
    controller = parts.add("A", title)
    chains = []
    for pin, role in boards.pins(spec):
        words = role.split()
        label = "key %d" % (int(words[1]) + 1) if words[0] == "key" and len(words) == 2 else role
        chains.append(
            Chain(
                pin=pin,
                role=role,
                label=label,
                header=None,
                end="onboard",
                items=[("onboard", controller, "built in: " + label)],
                group="built in",
            )
        )
    supply = parts.add("PS", "USB supply", "%g A" % spec["supply"]["amps"])
    return Design(
        name=name,
        spec=spec,
        figures=power.budget(spec),
        parts=parts,
        controller=controller,
        chains=chains,
        title=title,
        supply=supply,
    )


def circuit(name, spec):
    """The board's parts and wires (see the module docstring for the why).
    The parts are numbered in this order: controller, lamps, buttons, key
    matrix, supplies."""
    if spec["driver"] == "onboard":
        return onboard(name, spec)
    parts = Parts()
    figures = power.budget(spec)
    controller = parts.add("A", "Raspberry Pi Pico" if is_pico(spec) else "Raspberry Pi (40-pin header)")
    chains, sinks, pixels, matrix = [], (), None, None
    if spec["lamps"]["kind"] == "leds":
        chains, sinks = _led_chains(spec, parts, figures["ohms"])
    else:
        chain, pixels = _pixel_chain(spec, parts)
        chains.append(chain)
    chains += _button_chains(spec, parts)
    if spec.get("matrix"):
        lines, matrix = _matrix(spec, parts)
        chains += lines
    design = Design(
        name=name,
        spec=spec,
        figures=figures,
        parts=parts,
        controller=controller,
        chains=chains,
        sinks=sinks,
        pixels=pixels,
        matrix=matrix,
        **_supplies(spec, parts),
    )
    if design.jack:
        design = replace(design, dc_input=input_section(design))
    return design


def _chain(spec, pin, role, items, end, group):
    """One pin's line: the parts from the pin (``items``, in order) to where it ends."""
    return Chain(
        pin=pin, role=role, label=role_label(role), header=header_pin(spec, pin), items=items, end=end, group=group
    )


def _led_chains(spec, parts, ohms):
    """(chains, sink drivers): each lamp's resistor and LED, from its pin to
    ground, or through a ULN2803A channel that pulls the LED's cathode low."""
    led = spec["led"]
    chains, sinks = [], []
    for pin, role in boards.pins(spec):
        if not (role.startswith("lamp") or role.startswith("status")):
            continue
        group = "status lamps" if role.startswith("status") else "lamps"
        r = parts.add("R", "resistor", "%d ohm" % ohms)
        lamp = parts.add("L", "LED", "Vf %.1f V, %g mA" % (led["vf"], led["ma"]))
        if not led.get("sink"):
            chains.append(
                _chain(spec, pin, role, [("resistor", r, "%d Ω" % ohms), ("led", lamp, role_label(role))], "gnd", group)
            )
            continue
        channel = len(chains) % SINK_CHANNELS  # every lamp before this one hangs on a sink too
        if channel == 0:
            sinks.append(parts.add("U", "ULN2803A"))
        label = "pin %d→%d" % (channel + 1, 18 - channel)
        chains.append(
            _chain(
                spec,
                pin,
                role,
                [("sink", sinks[-1], label), ("led", lamp, role_label(role)), ("resistor", r, "%d Ω" % ohms)],
                "+5v",
                group,
            )
        )
    return chains, tuple(sinks)


def _pixel_chain(spec, parts):
    """(chain, pixels): the NeoPixels' data line through the 74AHCT125 and
    the data resistor, and the strip with its capacitors."""
    lamps = spec["lamps"]
    shifter = parts.add("U", "74AHCT125")
    resistor = parts.add("R", "resistor", "%d ohm" % DATA_OHMS, key=("R", "data"))
    strip = parts.add("PX", "NeoPixels", "%d pixels" % lamps["pixels"])
    chain = _chain(
        spec,
        lamps["pin"],
        "neopixel data",
        [("buffer", shifter, "74AHCT125 1A→1Y"), ("resistor", resistor, "%d Ω" % DATA_OHMS), ("pixels", strip, "DIN")],
        "pixels",
        "NeoPixel data",
    )
    cap = parts.add("C", "capacitor", "1000 uF 10 V")
    decoupler = parts.add("C", "decoupling capacitor", "100 nF")  # at the shifter's supply pins
    return chain, {"ref": strip, "cap": cap, "shifter": shifter, "count": lamps["pixels"], "decoupler": decoupler}


def _button_chains(spec, parts):
    """A resistor and a button to ground on each button's pin: rows, then DONE and NEW GAME."""
    chains = []
    for role in sorted(spec.get("buttons", {}), key=_button_order):
        r = parts.add("R", "resistor", "%d ohm" % BUTTON_OHMS)
        s = parts.add("S", "arcade button")
        chains.append(
            _chain(
                spec,
                spec["buttons"][role],
                role,
                [("resistor", r, "%d Ω" % BUTTON_OHMS), ("switch", s, role_label(role))],
                "gnd",
                "buttons",
            )
        )
    return chains


def _matrix(spec, parts):
    """(chains, grid) of a key matrix: a resistor on each column's pin (a row's
    pin has none: ``KEY_ROW_OHMS``), a key and a BAT85 at every crossing."""
    rows, columns = spec["matrix"]["rows"], spec["matrix"]["columns"]
    grid = {"rows": [], "columns": [], "keys": []}
    chains = []
    for c in range(len(columns) - 1, -1, -1):  # top pin -> rightmost column: no wire crosses
        r = parts.add("R", "resistor", "%d ohm" % BUTTON_OHMS)
        grid["columns"].append((c, columns[c], r))
        chains.append(
            _chain(
                spec, columns[c], "key column %d" % c, [("resistor", r, "%d Ω" % BUTTON_OHMS)], "column", "key matrix"
            )
        )
    for i, pin in enumerate(rows):
        grid["rows"].append((i, pin, None))
        chains.append(_chain(spec, pin, "key row %d" % i, [], "row", "key matrix"))
    for _ in rows:
        grid["keys"].append([(parts.add("K", "key (arcade button)"), parts.add("D", "BAT85")) for _ in columns])
    grid["pullup_ohms"] = KEY_PULLUP_OHMS  # columns: the loom's capacitance against the scan's settle time
    grid["column_ohms"], grid["row_ohms"], grid["diode"] = BUTTON_OHMS, KEY_ROW_OHMS, KEY_DIODE
    return chains, grid


def _supplies(spec, parts):
    """{Design field: reference} of the supplies: a Pico takes the 5 V supply
    through its jack and a 1N5817; a Raspberry Pi keeps its own USB-C supply,
    and NeoPixels get a 5 V supply of their own."""
    amps = "%g A" % spec["supply"]["amps"]
    if is_pico(spec):
        return {
            "supply": parts.add("PS", "5 V supply", amps),
            "jack": parts.add("J", "DC jack"),
            "vsys_diode": parts.add("D", "1N5817"),
        }
    out = {"pi_supply": parts.add("PS", "Raspberry Pi USB-C supply")}
    if spec["lamps"]["kind"] == "neopixel":
        out["supply"] = parts.add("PS", "5 V supply", amps)
        out["jack"] = parts.add("J", "DC jack")
    return out


def input_section(design):
    """The DC input between J1 and the +5V rail (see ``supply_sim`` for the circuit and its proof):
    the series parts the supply current passes, each as (what, ohms, volts dropped regardless of current)."""
    fuse = fuse_key(design)
    return {"fuse": fuse, "series": input_series(fuse)}


def input_series(fuse):
    """[(what, ohms, volts)]: J1 and its leads, the polyfuse after a trip (R1max), both MOSFETs."""
    fet = catalogue.part("sup90p06")
    return [
        ("J1 and its leads", catalogue.JACK_OHMS, 0.0),
        ("F1 %s" % catalogue.part(fuse)["part"].split()[1], catalogue.fuse_r1max(fuse), 0.0),
        ("Q1+Q2 SUP90P06-09L", 2 * fet["rds_on_4v5"], 0.0),
    ]


def _button_order(role):
    return (0, int(role[3:])) if role.startswith("row") else (1, ["done", "new"].index(role))


def ref_key(ref):
    prefix = ref.rstrip("0123456789")
    return (prefix, int(ref[len(prefix) :]))


def ref_ranges(refs):
    """['R1', 'R2', 'R3', 'R7'] -> 'R1-R3, R7' (a BOM's reference column)."""
    refs = sorted(refs, key=ref_key)
    out = []
    i = 0
    while i < len(refs):
        j = i
        while j + 1 < len(refs) and ref_key(refs[j + 1]) == (ref_key(refs[i])[0], ref_key(refs[j])[1] + 1):
            j += 1
        out.append(refs[i] if i == j else "%s-%s" % (refs[i], refs[j]))
        i = j + 1
    return ", ".join(out)


def expand_refs(text):
    """'R1-R3, R7' -> ['R1', 'R2', 'R3', 'R7']."""
    out = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        if "-" in item:
            a, b = item.split("-")
            prefix, lo = ref_key(a)
            out.extend("%s%d" % (prefix, n) for n in range(lo, ref_key(b)[1] + 1))
        else:
            out.append(item)
    return out


def fuse_key(design):
    """The smallest polyfuse that holds the worst case with 20 % to spare, at 50 degC, and whose
    resistance after a trip (R1max) still leaves U1 its 4.5 V (``electrical.u1_volts``)."""
    amps = catalogue.worst_amps(design)
    for key in catalogue.FUSES:
        if catalogue.hold_at_cabinet(key) < amps / catalogue.derate() - 1e-9:
            continue
        if design.pixels and u1_volts_with_fuse(design, key) < u1_needs() - 1e-9:
            continue
        return key
    return catalogue.FUSES[-1]


def supply_low(design):
    return design.figures["volts"] * 0.95


def u1_needs():
    return catalogue.part("ic-supply")["ranges"]["74ahct125"][0]


def u1_volts_with_fuse(design, fuse):
    """U1's supply with a given polyfuse in the input (the J1 and MOSFET drops as ``input_section``)."""
    amps = catalogue.worst_amps(design)
    return supply_low(design) - sum(volts + ohms * amps for _, ohms, volts in input_series(fuse))


def designs():
    """Every board's design, from its pin map."""
    return [circuit(name, boards.board(name)) for name in boards.names()]


def input_designs():
    """The designs with a DC input (the jack, the cut-off, the fuse): what ``supply_sim`` simulates."""
    return [d for d in designs() if catalogue.has_dc_input(d)]


def what_words(design):
    """What a board is, from its design rather than the pin map's ``about`` (which once called pico-grid's
    64 bullet pixels in holes "an 8x8 NeoPixel matrix"): the controller, the lamps as the BOM buys them, the
    controls. A board with everything built in keeps its maker's words."""
    if design.onboard:
        return design.spec["about"]
    layout = boards.layout(design.spec)
    status = len(design.spec["lamps"].get("status", ())) if design.neopixel else len(design.spec.get("status", {}))
    kind = catalogue.lamp_part(design)
    if not design.neopixel:
        lamps = "%d discrete LEDs in rows of %s" % (sum(layout), "-".join(str(n) for n in layout))
    elif kind != catalogue.BULLET_PIXEL:
        lamps = "a NeoPixel strip cut to rows of %s" % "-".join(str(n) for n in layout)
    elif design.spec["lamps"].get("shape") == "ring":
        lamps = "%d NeoPixel bullet pixels (12 mm) in a circle" % sum(layout)
    else:
        lamps = "%d NeoPixel bullet pixels (12 mm) in a grid of %d × %d" % (sum(layout), len(layout), max(layout))
    lamps += ", %d status lamps" % status if status else ""
    m = design.matrix
    controls = (
        "a key under each lamp (key matrix %d × %d)" % (len(m["rows"]), len(m["columns"]))
        if m
        else "one button per row"
    )
    return "%s, %s; %s" % ("Raspberry Pi Pico" if design.pico else "Raspberry Pi", lamps, controls)
