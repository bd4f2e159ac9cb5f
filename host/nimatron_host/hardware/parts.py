# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The parts catalogue (``parts.json``: datasheet figures) and what a board takes from it.

Every connector, wire, fuse and lamp a board's BOM names comes from the
catalogue, so the ratings the design rules compare with (``rules.ratings``)
are the ones a builder buys. The bottom of the generator: it imports no
other module of it.

The worst case is the firmware's own (``nimatron.config.power``): the
brightness cap is the most the firmware lets an operator set.
"""

import functools
import json
import os

from nimatron.config import power


@functools.cache
def catalogue():
    with open(os.path.join(os.path.dirname(__file__), "parts.json"), encoding="utf-8") as f:
        return json.load(f)


def part(key):
    return catalogue()["parts"][key]


def derate():
    return catalogue()["derate"]


ASSUMED = 0.8  # a figure not read in its maker's document counts for 80 % of itself


def assumed(key):
    """True if ``key``'s figures are marked as not yet checked against its datasheet."""
    return "ASSUMPTION" in part(key).get("source", "")


def trusted(key, figure):
    """A rating as the design rules may count on it: pessimistic where it is assumed."""
    return figure * ASSUMED if assumed(key) else figure


def worst_amps(design):
    """The most the lamps' supply may carry, as the firmware allows it (A)."""
    f = design.figures
    if f["kind"] == "leds":
        return f["worst_ma"] / 1000.0
    return power.worst_ma(f, f["cap"]) / 1000.0


def has_dc_input(design):
    return design.jack is not None


FUSES = ("polyfuse-2.5", "polyfuse-4", "polyfuse-5", "polyfuse-6", "polyfuse-7", "polyfuse-8")


def hold_at_cabinet(key):
    """A polyfuse's hold current in a warm cabinet (50 degC): the datasheet's rerating table."""
    table = part("ptc-rerating-ruef")
    factor = trusted("ptc-rerating-ruef", table["hold_factor"][str(table["cabinet_celsius"])])
    return trusted(key, part(key)["hold_amps"]) * factor


def fuse_r1max(key):
    """A polyfuse's resistance an hour after a trip, the worst it settles at (the RUEF table)."""
    return part("ptc-rerating-ruef")["r1max_ohms"][key]


JACK = "power-din-panel"  # J1: keyed and locking, rated for the adapter's limit (``enclosure.socket_check``)


def contacts(key=None):
    """{"+": [pin, ...], "-": [pin, ...]}: a power connector's contacts by polarity, in its maker's numbers
    (J1's by default). The jack's pairs are joined only after a checkpoint has measured them
    (``enclosure.pairs_check``)."""
    return part(key or JACK)["contacts"]


def pair(sign, key=None):
    """'1+3': the contacts of one polarity, as the drawings and the marking write a joined pair."""
    return "+".join(str(n) for n in sorted(contacts(key)[sign]))


def pins_words(sign, key=None):
    """'pins 1 and 3'."""
    pins = sorted(contacts(key)[sign])
    if len(pins) == 1:
        return "pin %d" % pins[0]
    return "pins " + ", ".join(str(n) for n in pins[:-1]) + " and %d" % pins[-1]


def cutout_words(key=None):
    """'a 14.8 mm square opening, two 2.7 mm holes 19 mm apart': a jack's hole in the panel (parts.json ``cutout``)."""
    cut = part(key or JACK)["cutout"]
    if cut["shape"] == "round":
        return "a %g mm round hole" % cut["diameter_mm"]
    return "a %g mm square opening, two %g mm holes %g mm apart" % (
        cut["side_mm"],
        cut["screw_hole_mm"],
        cut["screw_pitch_mm"],
    )


def signal_looms(design):
    """[(ref, part key, amps)]: the JST-XH looms to the buttons, keys and lamps.

    A loom's ground contact carries every line's current back at once."""
    f = design.figures
    per_line = f.get("led_ma", 1.0) if f["kind"] == "leds" else 1.0  # a button line: 3.3 V over ~50 kOhm
    out = []
    for ref, share in looms(design):
        amps = sum(per_line for _ in share) / 1000.0
        out.append((ref, "jst-xh", amps))
        out.append((ref, "jst-xh-crimp", amps))
    if not out:
        return []
    out.append(("Wsig", "wire-22", max([a for _, _, a in out] or [0])))
    return out


LOOM_LINES = 7  # an 8-way JST-XH: seven lines and their ground
POWER_LOOM = "J2"  # the Mini-Fit Jr. plug of the +5V loom (J1 is the DC jack)
FIRST_SIGNAL_LOOM = 3


DATA_GROUP = "NeoPixel data"
DATA_LOOM_MAX_MM = 300  # the pixels' data and its ground, twisted: the stripboard sits this close to the first pixel


def is_data_loom(chains):
    return any(c.group == DATA_GROUP for c in chains)


def loom_ways(chains):
    """Contacts of a loom's JST-XH plug: 2 for the pixels' data (data, ground), so it
    cannot go into a button header; 8 (seven lines and ground) for the others."""
    return 2 if is_data_loom(chains) else LOOM_LINES + 1


def looms(design):
    """[(ref, [chain, ...])]: which pin-map lines share which JST-XH loom, in
    pin-map order. The one split the design rules, the BOM and the harness
    drawing all use, so a loom's J-number means the same wires everywhere.
    The NeoPixel data never rides a button loom: its 5 V edges would couple
    into the button lines over the loom's length, and the length itself
    degrades them; it gets a short loom of its own (data and ground, twisted),
    numbered last."""
    if design.onboard or not design.chains:
        return []
    lines = [c for c in design.chains if c.group != DATA_GROUP]
    data = [c for c in design.chains if c.group == DATA_GROUP]
    n_lines = (len(lines) + LOOM_LINES - 1) // LOOM_LINES
    out = [("J%d" % (FIRST_SIGNAL_LOOM + n), lines[n * LOOM_LINES : (n + 1) * LOOM_LINES]) for n in range(n_lines)]
    if data:
        out.append(("J%d" % (FIRST_SIGNAL_LOOM + n_lines), data))
    return out


def esd_lines(design):
    """Lines a visitor's hand reaches: every button and key-matrix line."""
    return [c for c in design.chains if c.group in ("buttons", "key matrix")]


def touched_pixels(design):
    """The pixels sit in the panel's holes, their LEDs within a visitor's finger (bullet pixels): a discharge
    reaches the string's data and +5V. A strip behind a diffuser or an LED behind a bezel is not touched."""
    return not design.onboard and design.neopixel and lamp_part(design) == BULLET_PIXEL


def lamp_part(design):
    return spec_lamp_part(design.spec)


def spec_lamp_part(spec):
    lamps = spec["lamps"]
    if lamps["kind"] == "leds":
        return spec["led"].get("part", "led-hlmp4719")
    if lamps.get("shape") == "ring" or lamps.get("fixed"):
        return BULLET_PIXEL
    return "ws2812b-strip"


def lamp_mcd(design):
    """A lit lamp's luminous intensity (mcd, datasheet minimum or typical)."""
    from nimatron.machine.ports import COLOURS, LIT

    key = lamp_part(design)
    p = part(key)
    if p["kind"] == "led":
        # intensity is close to proportional to current at these currents
        return p["mcd"] * design.figures["led_ma"] / p["test_ma"]
    level = design.spec.get("brightness", 1.0)
    r, g, b = COLOURS[LIT]
    m = p["mcd_min"]
    return level * (m["red"] * r + m["green"] * g + m["blue"] * b) / 255.0


BULLET_PIXEL = "bullet-pixel-8mm"  # Adafruit's 12 mm pixel: an 8 mm LED in a 12 mm hole
DIFFUSER = "diffuser-disc-12"  # a 12 mm opal disc, pressed into its hole, a retaining plate behind


# An LED whose beam is narrower than this is seen only from in front: it sits
# behind a 12 mm opal diffuser, which glows for a visitor standing to the side.
NARROW_BEAM_DEG = 30


def lamp_hole(design):
    return spec_lamp_hole(design.spec)


def spec_lamp_hole(spec):
    """(hole diameter, part key that sits in it) for the lamps of the panel."""
    key = spec_lamp_part(spec)
    if part(key)["kind"] == "led" and part(key).get("beam_deg", 60) >= NARROW_BEAM_DEG:
        return part("led-bezel-5")["cutout_mm"], "led-bezel-5"
    if key == BULLET_PIXEL:
        return part(BULLET_PIXEL)["cutout_mm"], BULLET_PIXEL
    return part("diffuser-12")["cutout_mm"], "diffuser-12"  # nominal: the panel cuts it a press fit (DIFFUSER)


# The wiring's own figures, which the design rules, the simulation and the drawings share.
JACK_OHMS = 0.02  # J1's two contacts and 2 x 0.3 m of 18 AWG (21 mOhm/m) to the stripboard
LOOM_OHMS = 2 * 0.8 * 0.021 / 2 + 0.01  # the +5V loom: 0.8 m of 18 AWG, two wires each way; Mini-Fit contacts
OVERLOAD = 1.5  # an adapter's current limit, x its rating
LOOM_MAX_MM = 800  # the largest panel's diagonal: no loom from the stripboard to a lamp needs more
