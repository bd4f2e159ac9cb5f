# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The wiring diagram of one board as SVG, drawn from its circuit.

One horizontal line per pin of the pin map, from the board's header (left)
through its parts to a ground symbol, the level shifter and the pixels, or
the key matrix. No wire crosses another except column and row lines of a key
matrix, which hop. Every pin wire is a ``<g class="wire" data-pin=...
data-role=...>`` and every part carries ``data-ref``, so the tests compare the
drawing with the pin map and the bill of materials.
"""

from . import electrical, parts as catalogue, supply_sim
from .circuit import fuse_key, ref_ranges, revision
from .design import Chain
from .svg import Drawing
from .words import wrap

PITCH = 30  # px between pin lines
MATRIX_PITCH = 60  # between key-matrix rows (room for a diode and a key)
CELL = 76  # key-matrix column spacing
BOX_X, BOX_W = 20, 230
START = BOX_X + BOX_W
MATRIX_X = START + 170  # the key matrix's left edge
GREY = "#555555"


def _ground(d, x, y):
    d.line(x, y, x, y + 5)
    d.line(x - 8, y + 5, x + 8, y + 5, stroke_width=1.6)
    d.line(x - 5, y + 8.5, x + 5, y + 8.5, stroke_width=1.4)
    d.line(x - 2, y + 12, x + 2, y + 12, stroke_width=1.2)


def _plus5(d, x, y, label="+5V"):
    d.line(x, y, x, y - 10)
    d.line(x - 8, y - 10, x + 8, y - 10, stroke_width=1.6)
    d.text(x, y - 14, label, size=11, anchor="middle", weight="bold")


def _resistor(d, x, y, ref, value):
    d.line(x, y, x + 12, y)
    d.rect(x + 12, y - 6, 36, 12, data_ref=ref)
    d.line(x + 48, y, x + 60, y)
    d.text(x + 30, y - 10, "%s %s" % (ref, value), size=11, anchor="middle")
    return x + 60


def _diode(d, x, y, ref, label, arrows=False, flip=False):
    """Anode left (or right when ``flip``), cathode bar on the other side."""
    d.line(x, y, x + 14, y)
    a, b = (x + 14, x + 30) if not flip else (x + 30, x + 14)
    d.path("M%d %d L%d %d L%d %d Z" % (a, y - 8, a, y + 8, b, y), fill="#ffffff", data_ref=ref)
    d.line(b, y - 8, b, y + 8, stroke_width=1.6)
    if arrows:
        d.path("M%d %d l6 -8 M%d %d l6 -8" % (x + 20, y - 10, x + 26, y - 10), stroke_width=1)
        d.path(
            "M%d %d l-3 0 l3 -3 z M%d %d l-3 0 l3 -3 z" % (x + 27, y - 18, x + 33, y - 18),
            fill="#000000",
            stroke_width=1,
        )
    d.line(x + 30, y, x + 44, y)
    if label:
        d.text(x + 22, y - 12, "%s %s" % (ref, label), size=11, anchor="middle")
    return x + 44


def _switch(d, x, y, ref, small=False):
    """A push button (normally open)."""
    w = 24 if small else 34
    d.line(x, y, x + 6, y)
    d.circle(x + 8, y, 2)
    d.circle(x + w - 2, y, 2)
    d.line(x + 8, y - 7, x + w - 2, y - 7, data_ref=ref)
    d.line(x + 3 + w / 2, y - 7, x + 3 + w / 2, y - 12)
    d.line(x + w, y, x + w + 6, y)
    return x + w + 6


def _buffer(d, x, y, ref):
    d.line(x, y, x + 10, y)
    d.path("M%d %d L%d %d L%d %d Z" % (x + 10, y - 14, x + 10, y + 14, x + 40, y), data_ref=ref)
    d.text(x + 16, y + 4, "1A", size=8)
    d.line(x + 40, y, x + 52, y)
    d.text(x + 26, y - 18, "%s 74AHCT125" % ref, size=11, anchor="middle")
    d.text(x + 26, y + 26, "pin 2 → 3", size=10, anchor="middle", fill=GREY)
    return x + 52


def _decoupler(d, x, y, ref, shifter):
    """The shifter's 100 nF: drawn under it, across its supply pins."""
    cx, cy = x + 26, y + 44
    d.line(cx - 8, cy - 2, cx + 8, cy - 2, stroke_width=2, data_ref=ref)
    d.line(cx - 8, cy + 2, cx + 8, cy + 2, stroke_width=2)
    d.line(cx, cy - 2, cx, cy - 8)
    d.line(cx, cy + 2, cx, cy + 8)
    d.text(cx + 12, cy + 4, "%s 100 nF: %s pin 14 to pin 7" % (ref, shifter), size=10, fill=GREY)


def _sink(d, x, y, ref, label):
    """One channel of a ULN2803A: an inverting driver that sinks its output."""
    d.line(x, y, x + 10, y)
    d.path("M%d %d L%d %d L%d %d Z" % (x + 10, y - 14, x + 10, y + 14, x + 36, y), data_ref=ref)
    d.circle(x + 39, y, 3, fill="#ffffff")
    d.line(x + 42, y, x + 112, y)
    d.text(x + 46, y - 5, "%s %s" % (ref, label), size=10, fill=GREY)
    return x + 112


def rows_of(design):
    """(y, chain) for every pin line, with group headings: [(y, kind, thing)]."""
    out = []
    y = 96
    group = None
    for item in power_rows(design) + design.chains:
        if item.group != group:
            group = item.group
            y += 8
            out.append((y, "heading", group))
            y += 24
        if item.end == "pixels":
            y += 14  # room for the level shifter's and the strip's labels
        if item.end == "row" and out[-1][2].end == "column":
            y += 26  # room for the first row of keys
        out.append((y, "line", item))
        y += MATRIX_PITCH if item.end in ("row", "pixels") else PITCH
    return out, y


def _power(pin, header, label, end):
    return Chain(pin=pin, role="power", label=label, header=header, items=[], end=end, group="power")


def power_rows(design):
    """The controller's own supply and ground pins (not in the pin map)."""
    if design.onboard:
        return []
    if design.pico:
        return [_power("VSYS", 39, "5 V in", "vsys"), _power("GND", 38, "ground", "gnd")]
    rows = [_power("GND", 6, "ground (also 9, 14, 20, 25, 30, 34, 39)", "gnd")]
    if design.sinks:
        rows.append(_power("5V", 2, "+5 V to the lamps (also pin 4)", "plus5"))
    return rows


def draw(design):
    """The wiring diagram: the controller's box, one line per pin with its parts, the key matrix, the notes."""
    lines, bottom = rows_of(design)
    matrix = design.matrix
    width = max(940, MATRIX_X + 30 + len(matrix["columns"]) * CELL + 40) if matrix else 940
    if design.jack:
        width += 120  # room for the input protection beside the supply
    notes = notes_of(design)
    height = bottom + 40 + 16 * len(wrap(notes, 125 if matrix else 108)) + 20
    d = Drawing(width, height, title="%s wiring" % design.name)
    _heading(d, design)
    _controller(d, design, lines, bottom)
    col_x = {}
    row_ys = []
    for y, kind, item in lines:
        if kind == "heading":
            d.text(START + 14, y, item.upper(), size=11, weight="bold", fill=GREY)
            continue
        where = "built in" if item.header is None else "pin %d" % item.header
        d.text(
            START - 10,
            y + 4,
            "%s · %s" % (item.pin, where),
            size=12,
            anchor="end",
            weight="bold" if item.group != "power" else None,
        )
        d.circle(START, y, 3, fill="#000000")
        if item.group == "power":
            d.group(class_="supply", data_pin=item.pin)
            _power_line(d, design, item, y)
            d.end()
            continue
        d.group(class_="wire", data_pin=item.pin, data_role=item.role)
        x = _parts_along(d, design, item, y)
        _line_end(d, design, item, x, y, col_x, row_ys)
        d.end()
    if matrix:
        _matrix(d, design, col_x, row_ys)
    y = bottom + 24
    for text in wrap(notes, 125 if matrix else 108):
        d.text(20, y, text, size=11)
        y += 16
    d.text(width - 20, height - 8, revision(design.name), size=10, anchor="end", fill=GREY, class_="revision")
    return d.document()


def _heading(d, design):
    d.text(20, 30, "Nimatron %s: wiring" % design.name, size=18, weight="bold")
    from .guide import what_words

    about = what_words(design)
    d.text(20, 50, about if len(about) < 110 else about.split(":")[0], size=12, fill=GREY)
    d.text(
        20,
        68,
        "Generated from firmware/nimatron/config/pinmaps/%s.json by `nimatron hardware`: edit the pin "
        "map, not this drawing." % design.name,
        size=11,
        fill=GREY,
    )


def _controller(d, design, lines, bottom):
    """The controller's box from the first line to the last, named, with its supplies."""
    top = lines[0][0] - 26
    d.rect(BOX_X, top, BOX_W, bottom - top - 10, stroke_width=2, fill="#f4f4f4", data_ref=design.controller)
    title = design.title or ("Raspberry Pi Pico" if design.pico else "Raspberry Pi 40-pin header")
    if design.onboard:  # the maker's name is in the subtitle and the BOM: the box is 230 wide
        title = title.replace("Adafruit ", "")
    d.text(BOX_X + 8, top + 16, "%s %s" % (design.controller, title), size=12 if len(title) < 28 else 11, weight="bold")
    if design.pi_supply:
        d.text(
            BOX_X + 8,
            top + 32,
            "USB-C power: %s Raspberry Pi supply" % design.pi_supply,
            size=11,
            data_ref=design.pi_supply,
        )
    if design.onboard:
        d.text(
            BOX_X + 8,
            top + 32,
            "USB power: %s (5 V %g A)" % (design.supply, design.spec["supply"]["amps"]),
            size=11,
            data_ref=design.supply,
        )
    elif design.supply:
        _supply(d, design, lines[1][0])


def _parts_along(d, design, item, y):
    """Draw a pin's parts left to right from the controller; returns the x where the line goes on."""
    x = START
    for kind, ref, label in item.items:
        d.line(x, y, x + 20, y)
        x += 20
        if kind == "resistor":
            x = _resistor(d, x, y, ref, label)
        elif kind == "led":
            x = _diode(d, x, y, ref, "", arrows=True, flip=item.end == "+5v")
        elif kind == "sink":
            x = _sink(d, x, y, ref, label)
        elif kind == "switch":
            x = _switch(d, x, y, ref)
        elif kind == "buffer":
            _decoupler(d, x, y, design.pixels["decoupler"], ref)
            x = _buffer(d, x, y, ref)
        elif kind == "pixels":
            x = _pixels(d, design, x, y)
        elif kind == "onboard":
            d.text(x + 6, y + 4, label, size=12, fill=GREY)
    return x


def _line_end(d, design, item, x, y, col_x, row_ys):
    """Where a pin's line ends: +5V, ground, or a key-matrix column or row (noted in ``col_x``, ``row_ys``)."""
    end = item.end
    if end in ("+5v", "gnd"):
        d.line(x, y, x + 20, y)
        (_plus5 if end == "+5v" else _ground)(d, x + 20, y)
        named = [i for i in item.items if i[0] == "led"][0] if end == "+5v" else item.items[-1]
        d.text(x + 40, y + 4, "%s  %s" % (named[1], named[2]), size=12)
    elif end == "column":
        c = int(item.role.split()[-1])
        cx = MATRIX_X + 30 + c * CELL
        col_x[c] = (cx, y)
        d.line(x, y, cx, y)
        d.text(x + 8, y - 6, "column %d" % (c + 1), size=10, fill=GREY)
        if design.matrix.get("pullup_ohms"):  # to 3.3 V: the loom settles within the scan
            d.circle(x + 72, y, 2, fill="#000000", class_="pullup")
            d.line(x + 72, y, x + 72, y - 8)
            d.line(x + 68, y - 8, x + 76, y - 8)
            d.text(x + 80, y - 5, "%g kΩ to 3V3" % (design.matrix["pullup_ohms"] / 1000.0), size=8, fill=GREY)
    elif end == "row":
        row_ys.append((int(item.role.split()[-1]), y))
        d.line(x, y, MATRIX_X + 30 + len(design.matrix["columns"]) * CELL - 10, y)
        d.text(x + 8, y - 6, "row %d" % (int(item.role.split()[-1]) + 1), size=10, fill=GREY)


def _power_line(d, design, item, y):
    x = START
    if item.end == "gnd":
        d.line(x, y, x + 30, y)
        _ground(d, x + 30, y)
        d.text(x + 50, y + 4, "one ground: join every ground symbol at the supply's − terminal", size=11, fill=GREY)
        return
    if item.end == "plus5":
        d.line(x, y, x + 30, y)
        d.text(x + 34, y + 4, "+5V", size=11, weight="bold")
        d.text(
            x + 66,
            y + 4,
            "the lamps' +5V through an RXEF050 polyfuse: %d mA with every lamp lit, from the Pi's own supply"
            % int(design.figures["leds_ma"] + 0.5),
            size=11,
            fill=GREY,
        )
        return
    d.line(x, y, x + 20, y)
    x = _diode(d, x + 20, y, design.vsys_diode, "1N5817", flip=True)
    d.line(x, y, x + 40, y)
    _plus5(d, x + 40, y)
    d.text(x + 56, y + 4, "so USB and the supply may both be in", size=11, fill=GREY)


def _supply(d, design, y):
    """The 5 V supply of the pixels (and of a Pico) at the top right, and the
    input protection between its jack and the +5V net: a museum's spares
    drawer holds 12 V adapters and plugs wired backwards."""
    x = d.width - 200
    d.rect(x, y - 30, 170, 40, stroke_width=2, data_ref=design.supply, fill="#eef4ff")
    d.text(x + 8, y - 14, "%s 5 V %g A supply" % (design.supply, design.spec["supply"]["amps"]), size=11, weight="bold")
    d.text(x + 8, y + 2, "%s in the back: enclosure.svg" % design.jack, size=10, data_ref=design.jack)
    d.line(x + 150, y + 10, x + 150, y + 16)
    _ground(d, x + 150, y + 16)
    # jack + -> F1 polyfuse -> Q1+Q2 (the MOSFET switch with its over-voltage cut-off) -> +5V; TVS1 drawn to ground
    fuse = catalogue.part(fuse_key(design))["part"].split()[1]
    ly = y - 10
    # TVS1 across the jack (either way round: bidirectional), then F1, then the MOSFET switch to +5V
    d.line(x, ly, x - 40, ly)
    d.circle(x - 20, ly, 2, fill="#000000")
    d.line(x - 20, ly, x - 20, ly + 22)
    d.path(
        "M%d %d L%d %d L%d %d Z M%d %d L%d %d L%d %d Z"
        % (x - 26, ly + 22, x - 14, ly + 22, x - 20, ly + 29, x - 26, ly + 36, x - 14, ly + 36, x - 20, ly + 29),
        fill="#ffffff",
        class_="protection",
        data_part="TVS1",
    )
    d.line(x - 26, ly + 29, x - 14, ly + 29, stroke_width=1.6)
    d.line(x - 20, ly + 36, x - 20, ly + 40)
    _ground(d, x - 20, ly + 40)
    d.text(x - 28, ly + 33, "TVS1 %s" % supply_sim.TVS.upper(), size=9, anchor="end")
    d.rect(x - 76, ly - 5, 36, 10, fill="#ffffff", class_="protection", data_part="F1")
    d.text(x - 58, ly - 9, "F1 %s" % fuse, size=9, anchor="middle")
    d.line(x - 76, ly, x - 90, ly)
    d.rect(x - 150, ly - 9, 60, 18, fill="#ffffff", class_="protection", data_part="Q1+Q2")
    d.text(x - 120, ly + 4, "2 × P-FET", size=9, anchor="middle")
    d.text(x - 120, ly - 13, "Q1+Q2 OVP", size=9, anchor="middle")
    d.text(x - 120, ly + 20, "off > 5.44 V", size=8, anchor="middle", fill=GREY)
    d.line(x - 150, ly, x - 170, ly)
    _plus5(d, x - 170, ly)


def _pixels(d, design, x, y):
    px = design.pixels
    lamps = design.spec["lamps"]
    d.line(x, y, x + 16, y)
    bx, by, bw, bh = x + 16, y - 22, 214, 44
    d.rect(bx, by, bw, bh, stroke_width=2, data_ref=px["ref"], fill="#fff8e8")
    d.text(bx + 6, y + 4, "DIN", size=10, weight="bold")
    d.text(bx + 34, y - 6, "%s NeoPixels × %d (GRB)" % (px["ref"], px["count"]), size=11, weight="bold")
    status = lamps["status"]
    d.text(bx + 34, y + 9, "status %d-%d, lamps from %d" % (status[0], status[-1], lamps["first"]), size=10)
    # supply of the pixels: +5V above, ground below, C1 across
    d.line(bx + bw - 20, by, bx + bw - 20, by - 8)
    _plus5(d, bx + bw - 20, by - 8)
    d.line(bx + bw - 40, by + bh, bx + bw - 40, by + bh + 4)
    _ground(d, bx + bw - 40, by + bh + 4)
    cx = bx + bw + 40
    d.line(bx + bw - 20, by - 8, cx, by - 8)
    d.line(cx, by - 8, cx, y - 4)
    d.line(cx - 10, y - 4, cx + 10, y - 4, stroke_width=2, data_ref=px["cap"])
    d.path("M%d %d q10 6 20 0" % (cx - 10, y + 4), stroke_width=2)
    d.line(cx, y + 5, cx, by + bh + 4)
    _ground(d, cx, by + bh + 4)
    d.text(cx + 14, y - 6, "%s 1000 µF" % px["cap"], size=11)
    d.text(cx + 14, y + 8, "+ to +5V, at the strip", size=10, fill=GREY)
    return bx + bw


def _matrix(d, design, col_x, row_ys):
    matrix = design.matrix
    rows = dict(row_ys)
    last = max(rows.values())
    for c, (cx, y0) in sorted(col_x.items()):
        d.group(class_="column", data_column=c)
        # down the column, hopping over every row line
        path = "M%d %d" % (cx, y0)
        for r in sorted(rows):
            ry = rows[r]
            path += " L%d %d a5 5 0 0 1 0 10" % (cx, ry - 5)
        path += " L%d %d" % (cx, last + 14)
        d.path(path)
        d.end()
    for r, line in enumerate(matrix["keys"]):
        ry = rows[r]
        for c, (key, diode) in enumerate(line):
            cx = col_x[c][0]
            ky = ry - 34
            d.circle(cx, ky, 2.2, fill="#000000")
            d.line(cx, ky, cx + 6, ky)
            d.path(
                "M%d %d L%d %d L%d %d Z" % (cx + 6, ky - 5, cx + 6, ky + 5, cx + 16, ky), fill="#ffffff", data_ref=diode
            )
            d.line(cx + 16, ky - 5, cx + 16, ky + 5, stroke_width=1.4)
            x = _switch(d, cx + 16, ky, key, small=True)
            d.line(x, ky, x + 4, ky)
            d.line(x + 4, ky, x + 4, ry)
            d.circle(x + 4, ry, 2.2, fill="#000000")
            d.text(cx + 26, ky + 14, "%s/%s" % (key, diode), size=8, anchor="middle", fill=GREY)


def notes_of(design):
    out = []
    if design.onboard:
        return [
            "Nothing to wire: every pin above is on the board itself (keys, pixels, speaker). The pin map names "
            "them so the firmware, the simulator and this drawing agree.",
            "Parts: " + ", ".join(ref_ranges(line[3]) for line in design.parts.lines) + " (see bom.csv).",
        ]
    if not design.neopixel:
        out.append(led_words(design))
    else:
        out.append(
            "U1 74AHCT125 (DIP-14): pin 2 1A in, pin 3 1Y out, pin 1 1OE to ground, pin 14 VCC to +5V, pin 7 to ground;"
            " unused 2A/3A/4A (5, 9, 12) to ground, 2OE/3OE/4OE (4, 10, 13) to +5V."
        )
        out.append(
            "Data: keep the wire from U1 to the first pixel short; the 330 Ω resistor sits at the strip's DIN."
            + _pixel_power_words(design)
        )
    out.append(
        "Buttons close to ground; the board's own pull-ups hold them high (no pull-up resistors)."
        " The 220 Ω in each line limits an electrostatic discharge."
    )
    if design.jack:
        out.append(
            "Input protection, between %s and the +5V net: TVS1 %s across the jack (transients only), "
            "F1 %s (holds the worst case, %.2f A, at 50 °C), Q1+Q2 SUP90P06-09L back to back on heat sinks "
            "(sources joined; reverse polarity and the over-voltage cut-off OVP: TL431 + 2N5401 turn both off "
            "above %.2f V); its parts and stripboard layout: input.svg. A 9, 12 or 24 V adapter or a reversed "
            "one leaves +5V at 0 V (simulated: hardware/README.md)."
            % (
                design.jack,
                supply_sim.TVS.upper(),
                catalogue.part(fuse_key(design))["part"].split(",")[0],
                catalogue.worst_amps(design),
                supply_sim.trip_volts(),
            )
        )
    if not design.onboard:
        n = electrical.esd_arrays(design)
        if n:
            pixel = catalogue.touched_pixels(design)
            out.append(
                "ESD: %d SRV05-4 array%s at the button and key looms' connectors, one line per signal wire, "
                "pin 2 to ground, pin 5 to 3.3 V%s."
                % (
                    n - pixel,
                    "s" if n - pixel > 1 else "",
                    "; 1 at the first pixel (visitors touch the pixels): "
                    "I/O 1 on DIN after the 330 Ω, pin 5 on the string's "
                    "+5V, pin 2 to its ground"
                    if pixel
                    else "",
                )
            )
    if design.matrix:
        out.append(
            "Key-matrix columns: a %g kΩ pull-up from 3.3 V on each column's wire, at the loom end of its 220 Ω (the 800 mm loom's "
            "capacitance is too much for the pin's own within the scan's settle time). Rows: no resistor (a row "
            "carries every held key's current)." % (design.matrix["pullup_ohms"] / 1000.0)
        )
        out.append(
            "Key matrix: one BAT85 Schottky per key, anode to the column, cathode towards the key and the row"
            " (keypad.KeyMatrix, columns_to_anodes=True); a whole row held reads %.2f V at worst (VIL 0.8 V)."
            " Key K(n) sits under lamp n, counted row by row." % electrical.pressed_volts(design)[-1][1]
        )
    out.append(
        "All ground symbols are one net; all +5V flags are one net. Parts: "
        + ", ".join(ref_ranges(line[3]) for line in design.parts.lines)
        + " (see bom.csv)."
    )
    return out


def led_words(design):
    """How the LED resistor was chosen, in one sentence (drawing and guide)."""
    spec, f = design.spec, design.figures
    led = spec["led"]
    exact = (f["drive_volts"] - led["vf"]) * 1000 / led["ma"]
    if not led.get("sink"):
        return (
            "LEDs: Vf %.1f V at %g mA from %.1f V pins: R = (%.1f - %.1f) V / %g mA = %d Ω exact, "
            "E24 %d Ω -> %.2f mA each, %.1f mA with every lamp lit (pins may give %d mA)."
            % (
                led["vf"],
                led["ma"],
                f["logic_volts"],
                f["logic_volts"],
                led["vf"],
                led["ma"],
                exact,
                f["ohms"],
                f["led_ma"],
                f["leds_ma"],
                f["total_limit_ma"],
            )
        )
    sink = led["sink"]
    return (
        "LEDs: each lamp hangs from +5V through its resistor, its cathode pulled to ground by a ULN2803A "
        "channel while the GPIO pin is high (pin 9 GND, pin 10 COM unconnected). R = (%g - %.1f Vf - %.1f "
        "Vce(sat)) V / %g mA = %d Ω exact, E24 %d Ω -> %.1f mA each, %d mA from +5V with every lamp lit; "
        "each pin gives only the driver's input, at most %.2f mA (%.0f mA for all %d, pins may give %d mA)."
        % (
            f["volts"],
            led["vf"],
            sink["vce"],
            led["ma"],
            exact,
            f["ohms"],
            f["led_ma"],
            int(f["leds_ma"] + 0.5),
            sink["input_ma"],
            f["pins_ma"],
            f["lamps"],
            f["total_limit_ma"],
        )
    )


def _pixel_power_words(design):
    """How the pixels get +5V: in fused groups where the design has them (``electrical.pixel_groups``)."""
    from . import electrical, harness

    groups = electrical.pixel_groups(design)
    if not groups:
        return " Power the pixels from both ends of a long strip."
    refs = harness.group_fuse_refs(design)
    return (
        " +5V reaches the pixels in %d groups, each from the fuse board through its own %g A fast fuse (%s-%s); "
        "the +5V is cut between groups (harness.svg)." % (len(groups), electrical.group_fuse(), refs[0], refs[-1])
    )
