# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The DC input's own schematic (``BOARD/input.svg``): every part between the jack and +5V,
as ``supply_sim`` simulates it, so a builder wires the over-voltage cut-off from a drawing.

Every part is a ``<g class="input-part" data-part=...>``; the tests compare the set with the
netlist's parts.
"""

from . import parts as catalogue, stripboard, supply_sim
from .circuit import fuse_key, revision
from .svg import Drawing
from .words import ohms_words, wrap

GREY = "#555555"
RAIL, SBUS, GATE, GROUND = 150, 80, 240, 380


def _ground(d, x, y):
    d.line(x - 8, y, x + 8, y, stroke_width=1.6)
    d.line(x - 5, y + 3.5, x + 5, y + 3.5, stroke_width=1.4)
    d.line(x - 2, y + 7, x + 2, y + 7, stroke_width=1.2)


def _vres(d, x, y1, y2, part, label):
    """A resistor standing between y1 and y2."""
    mid = (y1 + y2) / 2.0
    d.group(class_="input-part", data_part=part)
    d.line(x, y1, x, mid - 16)
    d.rect(x - 5, mid - 16, 10, 32, fill="#ffffff")
    d.line(x, mid + 16, x, y2)
    d.end()
    d.text(x + 9, mid + 4, label, size=10)


def _vcap(d, x, y1, y2, part, label):
    mid = (y1 + y2) / 2.0
    d.group(class_="input-part", data_part=part)
    d.line(x, y1, x, mid - 3)
    d.line(x - 9, mid - 3, x + 9, mid - 3, stroke_width=2)
    d.line(x - 9, mid + 3, x + 9, mid + 3, stroke_width=2)
    d.line(x, mid + 3, x, y2)
    d.end()
    d.text(x + 12, mid + 4, label, size=10)


def _vdiode(d, x, y1, y2, part, label, cathode_up=True, both=False):
    mid = (y1 + y2) / 2.0
    d.group(class_="input-part", data_part=part)
    d.line(x, y1, x, y2)
    tip, base = (mid - 7, mid + 7) if cathode_up else (mid + 7, mid - 7)
    d.path("M%g %g L%g %g L%g %g Z" % (x - 7, base, x + 7, base, x, tip), fill="#ffffff")
    d.line(x - 7, tip, x + 7, tip, stroke_width=1.6)
    if both:
        d.path("M%g %g L%g %g L%g %g Z" % (x - 7, tip - 14, x + 7, tip - 14, x, tip), fill="#ffffff")
    d.end()
    d.text(x + 11, mid + 4, label, size=10)


# (references, package, pins left to right, leads down, printed face towards you): the datasheets' pin-outs
PINOUTS = (
    ("Q1, Q2 SUP90P06-09L", "TO-220", ("G", "D", "S")),
    ("Q3 2N5401", "TO-92", ("E", "B", "C")),
    ("U_OVP TL431ACLP", "TO-92", ("REF", "A", "K")),
)


def _fet(d, x, y, part, drain_left):
    """A P-MOSFET on the rail: a box from x to x+60, drain and source named, the gate below."""
    d.group(class_="input-part", data_part=part)
    d.rect(x, y - 14, 60, 28, fill="#ffffff")
    d.line(x + 30, y + 14, x + 30, GATE)
    d.end()
    d.text(x + 30, y - 18, "%s SUP90P06-09L" % part, size=10, anchor="middle")
    d.text(x + 5, y + 4, "D" if drain_left else "S", size=10)
    d.text(x + 55, y + 4, "S" if drain_left else "D", size=10, anchor="end")
    d.text(x + 34, y + 26, "G", size=9, fill=GREY)


def draw(design):
    """The input protection's schematic, drawn left to right as the current flows."""
    width, height = 1010, 960
    d = Drawing(width, height, title="%s input protection" % design.name)
    lo, hi = supply_sim.trip_window()
    d.text(20, 30, "Nimatron %s: the DC input, jack to +5V" % design.name, size=18, weight="bold")
    d.text(
        20,
        50,
        "All through-hole. A reversed adapter or one above %.2f V (%.2f-%.2f V with tolerances) leaves +5V "
        "at 0 V: hardware/README.md, 'Supply faults, simulated'." % (supply_sim.trip_volts(), lo, hi),
        size=11,
        fill=GREY,
    )
    _jack(d, design.jack)
    _fuse_and_clamps(d, catalogue.part(fuse_key(design))["part"].split()[1])
    _mosfets(d)
    _gate(d)
    _cutoff_transistor(d)
    _cutoff_reference(d)
    tvs = catalogue.part(supply_sim.TVS)
    notes = [
        "Q1 and Q2 face each other: Q1's body diode blocks a reversed adapter, Q2's an over-voltage while both "
        "are off. R_G and C_G turn the gates on in about 0.1 s; a wrong adapter arrives in microseconds and "
        "finds the cut-off (U_OVP, Q3) already holding G at S. Below its trip the TL431 still draws its bias "
        "(about 0.3 mA) through R_BE: %.0f Ω keeps that under 0.4 V, short of Q3's turn-on. Q1 and Q2 each on "
        "a heat sink: a short on the panel holds Q2 at about its threshold at the adapter's current limit."
        % supply_sim.R_BE,
        "TVS1 %s is bidirectional (no band): it only meets transients; an unregulated 24 V wall-wart's %g V "
        "idle is below its %.1f V stand-off. DZ keeps |VGS| under 12 V (the MOSFETs allow 20 V). C_IN (%s) "
        "is bi-polar: a reversed adapter meets it; its ESR damps the adapter lead's ringing."
        % (supply_sim.TVS.upper(), supply_sim.UNREG_IDLE, tvs["standoff_volts"], supply_sim.CIN_PLACE),
        "Pin-outs, leads down, printed face towards you: %s."
        % "; ".join("%s %s %s" % (refs, package, "-".join(pins)) for refs, package, pins in PINOUTS),
    ]
    y = 430
    for line in wrap(notes, 140):
        d.text(20, y, line, size=11)
        y += 16
    used, words = stripboard.draw(d, 20, y + 24)
    y += 24 + used
    for line in wrap(words, 140):
        d.text(20, y, line, size=10)
        y += 15
    d.text(width - 20, height - 8, revision(design.name), size=10, anchor="end", fill=GREY, class_="revision")
    return d.document()


def _jack(d, ref):
    """J1, its + pair to the rail and its − pair to the ground line (parts.json ``contacts``)."""
    d.group(class_="input-part", data_part="J1")
    d.rect(30, RAIL - 20, 70, 60, fill="#eef4ff", stroke_width=2)
    d.end()
    d.text(38, RAIL - 4, "%s inlet" % ref, size=10, weight="bold")
    d.text(38, RAIL + 10, "pins %s +" % catalogue.pair("+"), size=10)
    d.text(38, RAIL + 30, "pins %s −" % catalogue.pair("-"), size=10)
    d.line(100, RAIL, 360, RAIL)
    d.line(100, RAIL + 26, 120, RAIL + 26)
    d.line(120, RAIL + 26, 120, GROUND)
    d.line(120, GROUND, 900, GROUND)
    _ground(d, 500, GROUND + 8)
    d.line(500, GROUND, 500, GROUND + 8)


def _fuse_and_clamps(d, fuse):
    """TVS1 across the jack, F1 in the rail, C_IN across it."""
    d.circle(160, RAIL, 2.5, fill="#000000")
    _vdiode(d, 160, RAIL, GROUND, "TVS1", "TVS1 %s" % supply_sim.TVS.upper(), both=True)
    d.group(class_="input-part", data_part="F1")
    d.rect(200, RAIL - 7, 50, 14, fill="#ffffff")
    d.end()
    d.text(225, RAIL - 12, "F1 %s" % fuse, size=10, anchor="middle")
    d.circle(290, RAIL, 2.5, fill="#000000")
    _vcap(d, 290, RAIL, GROUND, "C_IN", "C_IN 10 µF 50 V bi-polar")


def _mosfets(d):
    """Q1 and Q2 back to back, sources joined at S, Q2's drain to +5V."""
    _fet(d, 360, RAIL, "Q1", drain_left=True)
    d.line(420, RAIL, 480, RAIL)
    d.circle(450, RAIL, 2.5, fill="#000000")
    d.text(450, RAIL - 8, "S", size=10, anchor="middle", weight="bold")
    _fet(d, 480, RAIL, "Q2", drain_left=False)
    d.line(540, RAIL, 640, RAIL)
    d.line(640, RAIL, 640, RAIL - 12)
    d.line(630, RAIL - 12, 650, RAIL - 12, stroke_width=1.6)
    d.text(640, RAIL - 17, "+5V", size=12, anchor="middle", weight="bold")


def _gate(d):
    """The gate node G: R_G to ground, C_G and DZ from S; S up to the sense bus."""
    d.path("M390 %d L694 %d a6 6 0 0 1 12 0 L786 %d" % (GATE, GATE, GATE))  # hops U_OVP's cathode wire
    d.text(395, GATE - 5, "G", size=10, weight="bold")
    d.circle(420, GATE, 2.5, fill="#000000")
    _vres(d, 420, GATE, GROUND, "R_G", "R_G 1 MΩ")
    # S down to G: C_G and the zener
    d.line(450, RAIL, 450, RAIL + 40)
    d.line(440, RAIL + 40, 480, RAIL + 40)
    d.circle(450, RAIL + 40, 2.5, fill="#000000")
    _vcap(d, 440, RAIL + 40, GATE, "C_G", "")
    _vdiode(d, 480, RAIL + 40, GATE, "DZ", "", cathode_up=True)
    d.text(364, RAIL + 62, "C_G 100 nF", size=10)
    d.text(488, RAIL + 62, "DZ 1N4742A 12 V", size=10)
    d.circle(440, GATE, 2.5, fill="#000000")
    d.circle(480, GATE, 2.5, fill="#000000")
    # S up to the sense bus
    d.line(450, RAIL, 450, SBUS)
    d.line(450, SBUS, 860, SBUS)
    d.text(700, SBUS - 6, "S (the joined sources)", size=10, fill=GREY)


def _cutoff_transistor(d):
    """Q3 2N5401: emitter S, collector G, base through R_B to the TL431."""
    qx = 780
    d.group(class_="input-part", data_part="Q3")
    d.circle(qx, 160, 18, fill="#ffffff")
    d.line(qx - 8, 148, qx - 8, 172, stroke_width=2)
    d.line(qx - 8, 154, qx + 6, 142)
    d.line(qx - 8, 166, qx + 6, 178)
    # PNP: the arrow on the emitter points in, towards the base
    d.path("M%g 149.7 L%g 148.1 L%g 143.5 Z" % (qx - 3, qx + 3.5, qx - 0.4), fill="#000000", class_="emitter-arrow")
    d.line(qx + 6, 142, qx + 6, SBUS)
    d.line(qx + 6, 178, qx + 6, GATE)
    d.line(qx - 26, 160, qx - 8, 160)
    d.end()
    d.text(qx + 24, 150, "Q3 2N5401 (PNP)", size=10)
    d.text(qx + 24, 164, "E to S, C to G", size=9, fill=GREY)
    d.circle(qx + 6, SBUS, 2.5, fill="#000000")
    d.circle(qx - 26, 160, 2.5, fill="#000000")
    d.line(qx - 26, 160, qx - 26, 120)
    _vres(d, qx - 26, SBUS, 120, "R_BE", "")
    d.text(qx - 60, 112, "R_BE %s" % ohms_words(supply_sim.R_BE), size=10, anchor="end")
    d.line(qx - 26, 160, 700, 160)
    d.group(class_="input-part", data_part="R_B")
    d.rect(712, 155, 36, 10, fill="#ffffff")
    d.end()
    d.text(712, 150, "R_B %s %g W" % (ohms_words(supply_sim.R_BASE), supply_sim.R_BASE_WATTS), size=10, anchor="middle")


def _cutoff_reference(d):
    """U_OVP TL431 (cathode to R_B, anode to ground, REF to the divider) and the 11.8k over 10k divider on S."""
    ux = 700
    d.line(ux, 160, ux, 290)
    d.group(class_="input-part", data_part="U_OVP")
    d.path("M%g %g L%g %g L%g %g Z" % (ux - 9, 318, ux + 9, 318, ux, 300), fill="#ffffff")
    d.line(ux - 9, 300, ux + 9, 300, stroke_width=1.6)
    d.line(ux - 9, 300, ux - 12, 296)
    d.line(ux, 290, ux, 300)
    d.line(ux, 318, ux, GROUND)
    d.line(ux + 5, 309, 860, 309)
    d.end()
    d.text(ux - 14, 296, "U_OVP TL431A", size=10, anchor="end")
    d.text(ux - 14, 324, "K up, A to ground", size=9, anchor="end", fill=GREY)
    d.text(ux + 40, 304, "REF", size=9, fill=GREY)
    # the divider on S: 11.8k over 10k
    d.circle(860, SBUS, 2.5, fill="#000000")
    tol = "%g %%" % (supply_sim.DIVIDER_TOL * 100)
    _vres(d, 860, SBUS, 309, "R_TOP", "R_TOP %s %s" % (ohms_words(supply_sim.R_TOP), tol))
    d.circle(860, 309, 2.5, fill="#000000")
    _vres(d, 860, 309, GROUND, "R_BOT", "R_BOT %s %s" % (ohms_words(supply_sim.R_BOT), tol))
