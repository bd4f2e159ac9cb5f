# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The harness of one board: every loom as a cable between its connector at
the stripboard and the parts it reaches on the panel, contact by contact.

A loom's lines are ``parts.looms(design)``, the same split the design rules
and the bill of materials use, so J3 is the same plug everywhere; each line
is a chain of the circuit, read from the pin map, so a pin name here is the
schematic's and the firmware's. Gauges come from the parts catalogue.

    h = harness(design)
    h["cables"][0]["pins"][0]   # {"pin": "1", "signal": "GP0", "colour": "brown", "awg": 22, ...}
"""

from . import electrical, parts as catalogue
from .circuit import ref_ranges, revision
from .svg import Drawing
from .words import wrap

# Signal wires in the looms: contact n has colour n (red is kept for +5V, black for ground),
# so a wire is known by its colour at both ends.
SIGNAL_COLOURS = (
    ("brown", "#8b4513"),
    ("orange", "#f08000"),
    ("yellow", "#e0b800"),
    ("green", "#2e8b3e"),
    ("blue", "#1f5fbf"),
    ("violet", "#8a2be2"),
    ("grey", "#808080"),
)
GROUND = ("black", "#000000")
PLUS5 = ("red", "#d00000")
GREY = "#555555"


def length_words():
    return "cut to fit, max %d mm" % catalogue.LOOM_MAX_MM


def harness(design):
    """{"cables": [...], "points": [...]}: the looms, power first, and the test points."""
    cables = power_cables(design) + [signal_loom(design, ref, chains) for ref, chains in catalogue.looms(design)]
    return {"cables": cables, "points": test_points(design, cables)}


def power_cables(design):
    """The DC jack's leads and the +5V loom where the lamps have a supply of
    their own; the lamps' +5V lead where sink drivers hang them on the Pi's 5 V."""
    if design.sinks:
        return [lamp_lead(design)]
    if not catalogue.has_dc_input(design):
        return []
    awg = catalogue.part("wire-18")["awg"]
    far = "%s +5V and %s +" % (design.pixels["ref"], design.pixels["cap"])
    gnd = "%s GND and %s −" % (design.pixels["ref"], design.pixels["cap"])
    jack = {
        "ref": design.jack,
        "kind": "power",
        "part": catalogue.JACK,
        "title": "%s DC inlet: 4-pin locking power DIN, pins %s +, %s −"
        % (design.jack, catalogue.pair("+"), catalogue.pair("-")),
        "detail": "in the back (the service face, enclosure.svg); its tails joined in pairs only after the first "
        "checkpoint has measured them apart (commissioning.md), then to the stripboard",
        "near": "jack tags",
        "far": "stripboard",
        "length": "as short as the case allows",
        "pins": [
            _pin(
                catalogue.pair("+"),
                "+5V in",
                "supply +",
                PLUS5,
                catalogue.part(electrical.lead_wire(design))["awg"],
                "F1 polyfuse → Q1 drain",
            ),
            _pin(
                catalogue.pair("-"),
                "GND",
                "supply −",
                GROUND,
                catalogue.part(electrical.lead_wire(design))["awg"],
                "stripboard ground",
            ),
        ],
    }
    loom = {
        "ref": catalogue.POWER_LOOM,
        "kind": "power",
        "part": "minifit-jr",
        "title": "%s +5V loom: Mini-Fit Jr. 4-way" % catalogue.POWER_LOOM,
        "detail": "header 39-28-1043 at the stripboard, receptacle 39-01-2040 on the loom",
        "near": "stripboard",
        "far": "first pixel",
        "length": length_words(),
        "pins": [
            _pin("1", "+5V", "lamp supply", PLUS5, awg, far),
            _pin("2", "+5V", "lamp supply, 2nd contact", PLUS5, awg, far),
            _pin("3", "GND", "ground", GROUND, awg, gnd),
            _pin("4", "GND", "ground, 2nd contact", GROUND, awg, gnd),
        ],
    }
    if group_leads(design):
        for pin in loom["pins"]:
            pin["far"] = "the fuse board's %s bus" % ("+5V" if pin["signal"] == "+5V" else "ground")
        loom["far"] = "fuse board"
    return [jack, loom] + far_feed(design) + group_leads(design)


FAR_FEED = "W+5V far end"  # electrical.power_path's name for it


def far_feed(design):
    """The second pixel feed where one feed is not enough (``electrical.feed_both_ends``): a single pair from the
    stripboard's +5V and ground at J2 to the last pixel, rated for the adapter's limit (``electrical.lead_wire``)."""
    if not design.pixels or not electrical.feed_both_ends(design):
        return []
    wire = catalogue.part(electrical.lead_wire(design))
    return [
        {
            "ref": FAR_FEED,
            "kind": "power",
            "part": electrical.lead_wire(design),
            "title": "%s: the pixels' second feed, %d AWG" % (FAR_FEED, wire["awg"]),
            "detail": "soldered at the stripboard beside J2's header, to the last pixel's flying leads; no fuse: "
            "rated %.1f A for a short at the adapter's limit (%.1f A)"
            % (catalogue.trusted(electrical.lead_wire(design), wire["amps"]), electrical.fault_amps(design)),
            "near": "stripboard",
            "far": "last pixel",
            "length": "%.1f m" % catalogue.part("pixel-conductor")["far_feed_m"],
            "pins": [
                _pin("+", "+5V", "second feed", PLUS5, wire["awg"], "the last pixel's +5V"),
                _pin("−", "GND", "second feed", GROUND, wire["awg"], "the last pixel's GND"),
            ],
        }
    ]


GROUPS = "W pixel groups"  # electrical.power_path's name for the leads from the fuse board


def group_fuse_refs(design):
    """["F2", ...]: one 5 x 20 mm fast fuse per pixel group (F1 is the input's polyfuse)."""
    return ["F%d" % (k + 2) for k in range(len(electrical.pixel_groups(design)))]


def group_leads(design):
    """The pixels fed in groups (``electrical.pixel_groups``): the +5V loom ends on the fuse board beside the first
    pixel; from it each group has a red and black pair, its +5V through its own fuse, to its first pixel, the +5V cut
    between one group's last pixel and the next group's first."""
    groups = electrical.pixel_groups(design)
    if not groups:
        return []
    wire = catalogue.part(electrical.GROUP_LEAD)
    pins = []
    for ref, (first, size) in zip(group_fuse_refs(design), groups):
        label = "group of pixels %d-%d" % (first, first + size - 1)
        pins.append(
            _pin(
                "%s" % ref,
                "+5V",
                label + ", through " + ref,
                PLUS5,
                wire["awg"],
                "pixel %d's +5V (cut from pixel %d's)" % (first, first - 1) if first else "pixel 0's +5V",
            )
        )
        pins[-1].update(fuse=ref, fuse_amps=electrical.group_fuse())
        pins.append(_pin("%s−" % ref, "GND", label, GROUND, wire["awg"], "pixel %d's GND" % first))
    return [
        {
            "ref": GROUPS,
            "kind": "power",
            "part": electrical.GROUP_LEAD,
            "title": "%s: one fused pair per group of pixels, %d AWG" % (GROUPS, wire["awg"]),
            "detail": "from the fuse board where %s's loom ends: each group's +5V through its own %g A fast fuse "
            "(%s): it opens a short behind it within %g s"
            % (
                catalogue.POWER_LOOM,
                electrical.group_fuse(),
                ", ".join(group_fuse_refs(design)),
                electrical.FAULT_SECONDS,
            ),
            "near": "fuse board",
            "far": "groups' first pixels",
            "length": "cut to fit, max %.1f m" % catalogue.part("pixel-conductor")["far_feed_m"],
            "pins": pins,
        }
    ]


def lamp_lead(design):
    """One red wire from the Pi's 5 V pin to the lamps' resistors: their common anode supply."""
    resistors = [c.items[2][1] for c in design.chains if c.items[0][0] == "sink"]
    return {
        "ref": design.controller,
        "kind": "power",
        "part": "wire-22",
        "title": "+5V lamp lead: %s pin 2 (the Pi's 5 V)" % design.controller,
        "detail": "one red wire from the header breakout through the RXEF050 polyfuse to a bus wire on the panel",
        "near": "stripboard",
        "far": "panel",
        "length": length_words(),
        "pins": [
            _pin(
                "2",
                "+5V",
                "lamp anodes",
                PLUS5,
                catalogue.part("wire-22")["awg"],
                "free ends of %s (one bus wire)" % ref_ranges(resistors),
            )
        ],
    }


def _pin(pin, signal, label, colour, awg, far, header=None, kind="supply", role=None):
    return {
        "pin": pin,
        "signal": signal,
        "label": label,
        "colour": colour[0],
        "hex": colour[1],
        "awg": awg,
        "far": far,
        "header": header,
        "kind": kind,
        "role": role,
    }


def signal_loom(design, ref, chains):
    """One JST-XH loom: a contact per pin-map line, the last for their ground."""
    awg = catalogue.part("wire-22")["awg"]
    pins = []
    for n, chain in enumerate(chains):
        pins.append(
            _pin(
                str(n + 1),
                chain.pin,
                line_words(chain),
                SIGNAL_COLOURS[n],
                awg,
                far_end(design, chain),
                header=chain.header,
                kind="line",
                role=chain.role,
            )
        )
    ways = catalogue.loom_ways(chains)
    for n in range(len(chains), ways - 1):
        pins.append(_pin(str(n + 1), "", "empty (no crimp)", ("none", "#cccccc"), awg, "", kind="empty"))
    pins.append(_pin(str(ways), "GND", "ground", GROUND, awg, ground_end(design, chains), kind="ground"))
    data = catalogue.is_data_loom(chains)
    return {
        "ref": ref,
        "kind": "signal",
        "part": "jst-xh",
        "title": "%s %s loom: JST-XH %d-way" % (ref, "NeoPixel data" if data else "signal", ways),
        "detail": "header B%dB-XH-A on the stripboard, housing XHP-%d on the loom" % (ways, ways),
        "near": "stripboard",
        "far": "first pixel" if data else "panel",
        "length": ("twisted pair, max %d mm" % catalogue.DATA_LOOM_MAX_MM) if data else length_words(),
        "pins": pins,
    }


def line_words(chain):
    """A line as the loom carries it: the data leaves the level shifter at 5 V,
    a lamp behind a sink driver is its output."""
    kind, ref, label = chain.items[0] if chain.items else (None, None, None)  # a key row: straight to its pin
    if chain.group == "NeoPixel data":
        return "NeoPixel data: %s 1Y, 5 V" % ref
    if kind == "sink":
        return "%s via %s pin %s" % (chain.label, ref, label.split("→")[-1])
    return chain.label


def far_end(design, chain):
    """What the wire lands on at the panel end (the parts past the loom)."""
    items = chain.items
    group = chain.group
    if group == "buttons":
        return "%s NO contact" % items[-1][1]
    if group in ("lamps", "status lamps") and items[0][0] == "sink":
        return "%s cathode (anode → %s %s → +5V)" % (items[1][1], items[2][1], items[2][2])
    if group in ("lamps", "status lamps"):
        return "%s %s → %s anode" % (items[0][1], items[0][2], items[1][1])
    if group == "NeoPixel data":
        esd = " and SRV05-4 I/O 1" if catalogue.touched_pixels(design) else ""  # visitors touch the pixels
        return "%s %s → %s DIN%s" % (items[1][1], items[1][2], items[2][1], esd)
    keys = design.matrix["keys"]
    n = int(chain.role.split()[-1])
    if chain.end == "column":
        return "column %d: anodes of %s, … (one per key)" % (n + 1, ", ".join(keys[r][n][1] for r in range(2)))
    return "row %d: COM of %s" % (n + 1, ref_ranges([k for k, _ in keys[n]]))


def ground_end(design, chains):
    """Where a loom's ground contact goes: the returns of its own lines."""
    out = []
    switches = [c.items[-1][1] for c in chains if c.group == "buttons"]
    lamps = [c.items[-1][1] for c in chains if c.group in ("lamps", "status lamps") and c.end == "gnd"]
    if switches:
        out.append("COM of " + ref_ranges(switches))
    if lamps:
        out.append("cathodes of " + ref_ranges(lamps))
    if any(c.group == "NeoPixel data" for c in chains):
        out.append("%s GND beside DIN" % design.pixels["ref"])
    return "; ".join(out) if out else "the panel's ground bar (ESD return)"


def controller_points(design):
    """The controller's header pins a checkpoint measures: [(pin, name)]."""
    if design.pico:
        return [("39", "VSYS"), ("38", "GND"), ("36", "3V3 out")]
    return [("2", "5V"), ("6", "GND"), ("1", "3V3")]


def test_points(design, cables):
    """[(ref, pin, name)]: every point a checkpoint may name."""
    if design.onboard:
        return []
    out = [(cable["ref"], p["pin"], p["signal"]) for cable in cables for p in cable["pins"]]
    out += [(design.controller, pin, name) for pin, name in controller_points(design)]
    if catalogue.has_dc_input(design) and not design.sinks:
        for sign in ("+", "-"):
            out += [
                (design.jack, str(n), "tail %d apart, before the pairs are joined (%s)" % (n, sign))
                for n in sorted(catalogue.contacts()[sign])
            ]
    if design.pixels:
        out.append((design.pixels["ref"], "DIN", "first pixel's data in, after the data resistor"))
    return out


def point_words(ref, pin):
    return "%s pin %s" % (ref, pin) if pin[0].isdigit() else "%s %s" % (ref, pin)


# --- the drawing -----------------------------------------------------------

WIDTH = 1160
ROW = 18
COLUMNS = (("pin", 28), ("signal", 78), ("A1 pin", 134), ("line", 186), ("wire", 440), ("AWG", 522))
TABLE_R = 556
WIRE_L, WIRE_R = 556, 806
DETAIL_CHARS = 88  # a table's note, at 10 px, fits its 536 px box
DETAIL_LINE = 12
SLEEVE = (636, 726)
FAR_X = 816


def detail_lines(cable):
    """The table's note, wrapped inside its box (never over the wires)."""
    return [line.strip() for line in wrap([cable["detail"]], DETAIL_CHARS)]


def block_height(cable):
    return 46 + DETAIL_LINE * (len(detail_lines(cable)) - 1) + ROW * (len(cable["pins"]) + 1) + 18


def draw(design):
    """The harness drawing as SVG; every contact is a ``<g class="loom-pin">``
    with its ref, pin, signal, colour and gauge, so the tests read it back."""
    h = harness(design)
    in_tables = {(c["ref"], p["pin"]) for c in h["cables"] for p in c["pins"]}
    points = [p for p in h["points"] if p[:2] not in in_tables]
    height = 96 + 28 + sum(block_height(c) + 20 for c in h["cables"]) + 10 + ROW * (len(points) + 2)
    d = Drawing(WIDTH, height, title="%s harness" % design.name)
    d.text(20, 30, "Nimatron %s: harness" % design.name, size=18, weight="bold")
    d.text(
        20,
        50,
        "Each loom from its plug at the stripboard (left) to what it reaches on the panel (right). Lines "
        "and pins come from firmware/nimatron/config/pinmaps/%s.json." % design.name,
        size=11,
        fill=GREY,
    )
    d.text(
        20,
        68,
        "Signal looms: JST-XH, %d AWG, contact n in colour n, ground black. %s. Lengths: %s%s."
        % (
            catalogue.part("wire-22")["awg"],
            power_words(design),
            length_words(),
            "; the NeoPixel data loom max %d mm" % catalogue.DATA_LOOM_MAX_MM if design.pixels else "",
        ),
        size=11,
        fill=GREY,
    )
    y = 96
    heading = None
    for cable in h["cables"]:
        if cable["kind"] != heading:
            heading = cable["kind"]
            d.text(
                20,
                y,
                "POWER (keep apart from the signal looms)" if heading == "power" else "SIGNAL LOOMS",
                size=12,
                weight="bold",
                fill=GREY,
            )
            y += 14
        y = _cable(d, cable, y) + 20
    _points(d, points, y + 10)
    d.text(WIDTH - 20, height - 8, revision(design.name), size=10, anchor="end", fill=GREY, class_="revision")
    return d.document()


def power_words(design):
    if catalogue.has_dc_input(design):
        return "+5V loom: Mini-Fit Jr., %d AWG, +5V red, ground black" % catalogue.part("wire-18")["awg"]
    if design.sinks:
        return "The lamps' +5V: one red %d AWG lead from the Pi's 5 V" % catalogue.part("wire-22")["awg"]
    return "No +5V loom (the controller's own supply)"


def _cable(d, cable, y):
    """One connector's table, its wires and the far ends; returns the bottom."""
    n = len(cable["pins"])
    top = y
    detail = detail_lines(cable)
    more = DETAIL_LINE * (len(detail) - 1)
    d.rect(20, top, TABLE_R - 20, 46 + more + ROW * (n + 1), stroke_width=1.6, fill="#f7f7f7", data_ref=cable["ref"])
    d.text(28, top + 18, cable["title"], size=12, weight="bold")
    for k, line in enumerate(detail):
        d.text(28, top + 33 + DETAIL_LINE * k, line, size=10, fill=GREY)
    top += 16 + more
    y = top + 30 + ROW - 5
    for name, x in COLUMNS:
        d.text(x, y, name, size=10, weight="bold", fill=GREY)
    d.text(FAR_X, y, "at the %s" % cable["far"], size=10, weight="bold", fill=GREY)
    sleeve_top = top + 30 + ROW
    d.rect(SLEEVE[0], sleeve_top - 4, SLEEVE[1] - SLEEVE[0], ROW * n + 8, fill="#e8e8e8", stroke="#999999")
    d.text((SLEEVE[0] + SLEEVE[1]) / 2.0, sleeve_top - 10, cable["length"], size=10, anchor="middle", fill=GREY)
    for i, p in enumerate(cable["pins"]):
        _contact(d, cable, p, sleeve_top + ROW * i + ROW - 5)
    return top + 30 + ROW * (n + 1) + 18


def _contact(d, cable, p, y):
    d.group(
        class_="loom-pin",
        data_ref=cable["ref"],
        data_pin=p["pin"],
        data_signal=p["signal"],
        data_colour=p["colour"],
        data_awg=p["awg"],
        data_kind=p["kind"],
        data_role=p["role"],
    )
    d.text(COLUMNS[0][1], y, p["pin"], size=11, weight="bold")
    d.text(COLUMNS[1][1], y, p["signal"], size=11, weight="bold" if p["kind"] == "line" else None)
    d.text(COLUMNS[2][1], y, "" if p["header"] is None else p["header"], size=11)
    d.text(COLUMNS[3][1], y, p["label"], size=11, fill=GREY if p["kind"] == "empty" else "#000000")
    if p["kind"] == "empty":
        d.end()
        return
    d.line(COLUMNS[4][1], y - 4, COLUMNS[4][1] + 14, y - 4, stroke=p["hex"], stroke_width=5)
    d.text(COLUMNS[4][1] + 18, y, p["colour"], size=11)
    d.text(COLUMNS[5][1], y, p["awg"], size=11)
    d.line(WIRE_L, y - 4, WIRE_R, y - 4, stroke=p["hex"], stroke_width=3 if cable["kind"] == "power" else 2)
    d.circle(WIRE_R, y - 4, 2.5, fill="#000000")
    if p.get("fuse"):  # a group's fuse on the fuse board, in the wire at its near end
        d.rect(WIRE_L + 22, y - 10, 44, 12, fill="#ffffff", stroke="#000000", class_="fuse", data_ref=p["fuse"])
        d.text(WIRE_L + 44, y - 1, "%s %g A" % (p["fuse"], p["fuse_amps"]), size=8, anchor="middle")
    d.text(FAR_X, y, p["far"], size=11)
    d.end()


def _points(d, points, y):
    """The controller's and the pixels' test points (the loom contacts are in their tables)."""
    d.text(
        20, y, "TEST POINTS the checkpoints also name (README.md, commissioning.md)", size=12, weight="bold", fill=GREY
    )
    y += ROW + 4
    for ref, pin, name in points:
        d.group(class_="test-point", data_ref=ref, data_pin=pin)
        d.circle(30, y - 4, 3, fill="#ffffff")
        d.text(42, y, "%s: %s" % (point_words(ref, pin), name), size=11)
        d.end()
        y += ROW
    return y
