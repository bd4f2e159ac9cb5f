# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What to measure while building, what to do when it fails, and the sheet a
technician signs: checkpoints, troubleshooting and commissioning, from the design.

Every checkpoint names test points of the harness (``harness.test_points``)
and expects a value computed from the circuit's figures (``circuit.py``) and
the parts catalogue (``parts.json``), so a new supply, resistor or diode
changes the numbers here with the drawings.

    checkpoints(design)[0]  # {"id": "CP1", "stage": "power", "where": "J2 pin 1 to pin 3", "meter": "Ω ...",
                            #  "readings": [("supply unplugged", "> 1 kΩ")], "points": [("J2", "1"), ...]}
"""

from . import parts as catalogue, supply_sim
from .circuit import (
    BUTTON_OHMS,
    CLOSED_OHMS,
    DATA_OHMS,
    NO_SHORT_OHMS,
    RESISTOR_TOLERANCE,
    SILICON_MIN_VF,
    SUPPLY_TOLERANCE,
    role_label,
    u1_needs,
)
from .harness import controller_points, harness, point_words
from .words import md_table, ohms_words

PAIRS_KEY = "jack-pairs"  # the checkpoint that measures J1's tails apart (``inlet_checks``; ``enclosure.pairs_check``)

STAGES = (
    (
        "inlet",
        "The DC jack's tails, before they are joined",
        "J1 screwed into the back, a tail (its lead, cut to length) soldered to each of its four tags and marked with "
        "the tag's number, the tails kept apart (each end insulated except the one being probed), nothing else "
        "connected; the machine's own adapter plugged into J1 and latched",
    ),
    (
        "power",
        "Power input",
        "J1's tails joined in the pairs the first checkpoint found, then the polyfuse, TVS, MOSFETs and over-voltage "
        "cut-off wired to the J2 header; nothing plugged into J2, no controller fitted",
    ),
    (
        "looms",
        "Looms",
        "each loom crimped and landed on the panel, its plug not yet in the stripboard; supply unplugged",
    ),
    ("controller", "Controller", "the controller fitted and every plug in; supply on, USB unplugged"),
    ("lamps", "Lamps lit", "the software installed; NEW GAME pressed, so the game's starting lamps are lit"),
)
METER = {"ohms": "Ω (resistance)", "diode": "diode test", "volts": "V DC"}
OPEN = "OL (open)"


def volts(v):
    return "%.2f V" % v


def ohms(r):
    return "%g kΩ" % (r / 1000.0) if r >= 1000 else "%g Ω" % r


def window(lo, hi):
    return "%.2f–%.2f V" % (lo, hi)


def supply_window(figure):
    """A regulated rail's reading: nominal +- the tolerance."""
    return figure * (1 - SUPPLY_TOLERANCE), figure * (1 + SUPPLY_TOLERANCE)


def lamp_rail(design, loaded=False):
    """+5V after the input's MOSFETs: the supply less its series drops at the worst case
    (``electrical.input_drops``); never below what U1 needs, so a low rail fails the check."""
    from . import electrical

    lo, hi = supply_window(design.figures["volts"])
    if loaded:
        lo = lo - sum(v for _, v in electrical.input_drops(design))
    return max(lo, u1_needs()) if design.pixels else lo, hi


def diode_window(key="1n4148"):
    """A diode on a meter's diode test (about 1 mA): its ``meter_vf`` window in parts.json, or a silicon drop
    up to the datasheet's VF."""
    p = catalogue.part(key)
    return window(*p.get("meter_vf", (SILICON_MIN_VF, p["vf"])))


def _cp(stage, where, points, meter, readings, key, why=""):
    return {
        "stage": stage,
        "where": where,
        "points": points,
        "meter": METER[meter],
        "readings": readings,
        "key": key,
        "why": why,
    }


def checkpoints(design):
    """Every checkpoint of one board in build order, numbered CP1, CP2, ..."""
    if design.onboard:
        return []
    h = harness(design)
    out = (
        inlet_checks(design)
        + power_checks(design)
        + loom_checks(design, h)
        + controller_checks(design)
        + lamp_checks(design)
    )
    for n, cp in enumerate(out):
        cp["id"] = "CP%d" % (n + 1)
    return out


ZERO = "0.00 V (below 0.05 V)"


def inlet_checks(design):
    """J1's four tails apart, the adapter plugged in: which contacts carry +V against which, before any tail is
    joined (``enclosure.pairs_check``). Every + contact reads the supply against every − contact; the two
    contacts of a pair read nothing against each other."""

    if not catalogue.has_dc_input(design):
        return []
    j1 = design.jack
    plus, minus = sorted(catalogue.contacts()["+"]), sorted(catalogue.contacts()["-"])
    supply = window(*supply_window(design.figures["volts"]))
    readings = [("red lead on tail %d, black on tail %d" % (a, b), supply) for a in plus for b in minus]
    readings += [
        ("red lead on tail %d, black on tail %d (one pair)" % tuple(pair), ZERO)
        for pair in (plus, minus)
        if len(pair) == 2
    ]
    return [
        _cp(
            "inlet",
            "%s tails %s, each against each" % (j1, ", ".join(str(n) for n in sorted(plus + minus))),
            [(j1, str(n)) for n in sorted(plus + minus)],
            "volts",
            readings,
            PAIRS_KEY,
            "which contacts the adapter puts +V and −V on: join %s (+) and %s (−) only when every reading "
            "matches. A reading of the supply between two tails of one pair, or 0 V between a + and a −: J1 "
            "numbers its contacts otherwise than this sheet; do not join: find the pairs by measurement (two "
            "tails that read 0 V against each other are a pair; the pair the red lead reads +%g V on is +), "
            "label the tails, write the pairs here and on the harness drawing. A minus sign: the leads are "
            "the other way round. 0 V everywhere: the adapter is off or its plug not latched"
            % (catalogue.pair("+"), catalogue.pair("-"), design.figures["volts"]),
        )
    ]


def power_checks(design):
    if not catalogue.has_dc_input(design):
        return []
    j1, j2 = design.jack, catalogue.POWER_LOOM
    plus, minus = catalogue.pair("+"), catalogue.pair("-")
    return [
        _cp(
            "power",
            "%s pin 1 to pin 3" % j2,
            [(j2, "1"), (j2, "3")],
            "ohms",
            [("supply unplugged", "> %s" % ohms(NO_SHORT_OHMS))],
            "no-short",
            "no short across the lamps' supply",
        ),
        _cp(
            "power",
            "%s pins %s to pins %s" % (j1, plus, minus),
            [(j1, plus), (j1, minus)],
            "volts",
            [
                (
                    "supply plugged in, red lead on the + pair (%s)" % plus,
                    window(*supply_window(design.figures["volts"])),
                )
            ],
            "supply",
            "the adapter gives its 5 V on the joined + pair; 0 V or the adapter's light out: a + and a − "
            "tail joined (a short the adapter cuts off): unplug it and redo the first checkpoint",
        ),
        _cp(
            "power",
            "%s pins %s to %s pin 1" % (j1, plus, j2),
            [(j1, plus), (j2, "1")],
            "diode",
            [("supply unplugged, red lead on %s's + pair" % j1, "OL (open; never below 2 V)"), ("leads swapped", OPEN)],
            "mosfets",
            "Q1 and Q2 sit back to back (their body diodes face each other): without a supply nothing "
            "passes either way; a reading means a MOSFET in backwards or shorted",
        ),
        _cp(
            "power",
            "%s pin 1 to pin 3" % j2,
            [(j2, "1"), (j2, "3")],
            "volts",
            [("supply plugged in, red lead on pin 1, wait 1 s", window(*lamp_rail(design)))],
            "rail",
            "+5V reaches the loom's header through the fuse and the MOSFETs (they turn on in about 0.2 s); "
            "0 V: a MOSFET reversed, R_BE not %s, or the over-voltage cut-off tripped (an adapter above %.2f V): "
            "the bench test above tells which" % (ohms_words(supply_sim.R_BE), supply_sim.trip_window()[0]),
        ),
    ]


def loom_checks(design, h):
    out = []
    signal = [c for c in h["cables"] if c["kind"] == "signal"]
    where = {p["role"]: (c["ref"], p["pin"]) for c in signal for p in c["pins"] if p["kind"] == "line"}
    for cable in signal:
        ground = (cable["ref"], cable["pins"][-1]["pin"])
        for p in cable["pins"]:
            if p["kind"] == "line":
                out += line_checks(design, cable["ref"], p, ground, where)
        out.append(neighbour_check(cable))
    return out


def line_checks(design, ref, p, ground, where):
    """The checkpoints of one loom contact, by what its line drives."""
    role = p["role"]
    if role.startswith("row") or role in ("done", "new"):
        return [button_check(ref, p, ground)]
    if role.startswith("lamp") or role.startswith("status"):
        return [lamp_check(design, ref, p, ground)]
    if role == "neopixel data":
        return data_checks(design, ref, p, ground)
    if role == "key row 0":
        return []  # every column's checkpoint runs through row 1
    return [matrix_check(design, role, (ref, p["pin"]), where, "line:" + p["signal"])]


def button_check(ref, p, ground):
    return _cp(
        "looms",
        "%s pin %s to pin %s" % (ref, p["pin"], ground[1]),
        [(ref, p["pin"]), ground],
        "ohms",
        [
            ("%s released" % role_label(p["role"]), "> %s" % ohms(NO_SHORT_OHMS)),
            ("pressed", "< %s" % ohms(CLOSED_OHMS)),
        ],
        "line:" + p["signal"],
        "the button closes to ground",
    )


LED_TEST_LOW, LED_TEST_HIGH = 0.3, 0.6  # an LED at a meter's ~1 mA: below its rated VF, plus the resistor's drop


def lamp_check(design, ref, p, ground):
    """An LED on the diode test, both ways: forward it reads its drop and glows faintly, reversed it reads OL.
    A reversed LED reads OL forward and a drop backward; an open one OL both ways: the two readings tell
    them apart (one reading of "a drop or OL" could not)."""
    vf = design.spec["led"]["vf"]
    lamp = role_label(p["role"])
    forward = "%s; %s glows faintly" % (window(vf - LED_TEST_LOW, vf + LED_TEST_HIGH), lamp)
    backward = "OL (a reading here: the LED is in backwards; OL both ways: it is open)"
    me = (ref, p["pin"])
    why = "the LED and its resistor are in, the right way round"
    if design.sinks:  # the loom carries the cathode; the anode hangs on the +5V lamp lead
        lead = (design.controller, "2")
        return _cp(
            "looms",
            "%s to %s pin %s" % (point_words(*lead), ref, p["pin"]),
            [lead, me],
            "diode",
            [("red lead on the lamp lead (%s)" % point_words(*lead), forward), ("leads swapped", backward)],
            "line:" + p["signal"],
            why,
        )
    return _cp(
        "looms",
        "%s pin %s to pin %s" % (ref, p["pin"], ground[1]),
        [me, ground],
        "diode",
        [("red lead on pin %s" % p["pin"], forward), ("leads swapped", backward)],
        "line:" + p["signal"],
        why,
    )


def data_checks(design, ref, p, ground):
    px = design.pixels["ref"]
    me = (ref, p["pin"])
    lo, hi = DATA_OHMS * (1 - RESISTOR_TOLERANCE), DATA_OHMS * (1 + RESISTOR_TOLERANCE)
    return [
        _cp(
            "looms",
            "%s pin %s to %s DIN" % (ref, p["pin"], px),
            [me, (px, "DIN")],
            "ohms",
            [("", "%d–%d Ω" % (lo + 0.5, hi + 0.5))],
            "data-r",
            "the %d Ω data resistor, and nothing else" % DATA_OHMS,
        ),
        _cp(
            "looms",
            "%s pin %s to pin %s" % (ref, p["pin"], ground[1]),
            [me, ground],
            "ohms",
            [("", "> %s" % ohms(NO_SHORT_OHMS))],
            "data-short",
            "the data line is not shorted to ground",
        ),
    ]


def matrix_check(design, role, me, where, key):
    """A column wire through its key of row 1, or a row wire through its key of column 1."""
    n = int(role.split()[-1])
    column = role.startswith("key column")
    other = where["key row 0"] if column else where["key column 0"]
    r, c = (0, n) if column else (n, 0)
    k, diode = design.matrix["keys"][r][c]
    lead = point_words(*(me if column else other))
    text = "%s to %s" % (point_words(*me), point_words(*other) if other[0] != me[0] else "pin %s" % other[1])
    return _cp(
        "looms",
        text,
        [me, other],
        "diode",
        [
            (
                "%s (row %d, column %d) pressed, red lead on %s" % (k, r + 1, c + 1, lead),
                diode_window(design.matrix["diode"]),
            ),
            ("released", OPEN),
        ],
        key,
        "the wire reaches its keys, and %s conducts from the column to the row" % diode,
    )


def neighbour_check(cable):
    """Crimp whiskers: no contact touches the next one."""
    pins = [p["pin"] for p in cable["pins"] if p["kind"] != "empty"]
    pairs = ", ".join("%s-%s" % (a, b) for a, b in zip(pins, pins[1:]))
    return _cp(
        "looms",
        "%s pins %s" % (cable["ref"], pairs),
        [(cable["ref"], p) for p in pins],
        "ohms",
        [("every button and key released", "> %s each" % ohms(NO_SHORT_OHMS))],
        "neighbours:" + cable["ref"],
        "no two contacts of the plug touch",
    )


def controller_checks(design):
    a = design.controller
    pins = {name: pin for pin, name in controller_points(design)}
    gnd = pins["GND"]
    logic = window(*supply_window(design.spec["logic"]["volts"]))
    if design.pico:
        lo, hi = lamp_rail(design)
        vsys = window(lo - catalogue.part("1n5817")["vf"], hi)  # the Pico itself: VSYS 1.8-5.5 V
        return [
            _cp(
                "controller",
                "%s pin %s to pin %s" % (a, pins["VSYS"], gnd),
                [(a, pins["VSYS"]), (a, gnd)],
                "volts",
                [("", vsys)],
                "vsys",
                "the Pico takes +5V through the 1N5817 (%s)" % design.vsys_diode,
            ),
            _cp(
                "controller",
                "%s pin %s to pin %s" % (a, pins["3V3 out"], gnd),
                [(a, pins["3V3 out"]), (a, gnd)],
                "volts",
                [("", logic)],
                "logic",
                "the Pico's own 3.3 V regulator runs",
            ),
        ]
    return [
        pi_five_volts(
            design,
            "controller",
            "the Pi's own USB-C supply on",
            "pi5v",
            "the Pi's supply (%s) holds its 5 V" % design.pi_supply,
        ),
        _cp(
            "controller",
            "%s pin %s to pin %s" % (a, pins["3V3"], gnd),
            [(a, pins["3V3"]), (a, gnd)],
            "volts",
            [("", logic)],
            "logic",
            "the Pi's 3.3 V rail, which the buttons' pull-ups hang on",
        ),
    ]


def pi_five_volts(design, stage, condition, key, why):
    a = design.controller
    pins = {name: pin for pin, name in controller_points(design)}
    return _cp(
        stage,
        "%s pin %s to pin %s" % (a, pins["5V"], pins["GND"]),
        [(a, pins["5V"]), (a, pins["GND"])],
        "volts",
        [(condition, window(*supply_window(design.figures["volts"] if design.sinks else 5.0)))],
        key,
        why,
    )


def lamp_checks(design):
    out = []
    if catalogue.has_dc_input(design):
        j2 = catalogue.POWER_LOOM
        out.append(
            _cp(
                "lamps",
                "%s pin 1 to pin 3" % j2,
                [(j2, "1"), (j2, "3")],
                "volts",
                [("back-probe the plugged loom, red lead on pin 1", window(*lamp_rail(design, loaded=True)))],
                "rail-lit",
                "the supply holds up under the lamps' load (at most %.2f A as the firmware allows it)"
                % catalogue.worst_amps(design),
            )
        )
        out += group_checks(design)
    if not design.pico:
        out.append(
            pi_five_volts(
                design,
                "lamps",
                "",
                "pi5v-lit",
                "the Pi's own supply holds up with the game running%s"
                % (" and the lamps on it" if design.sinks else ""),
            )
        )
    return out


def group_checks(design):
    """The pixels fed in fused groups: +5V at each group's first pixel with the lamps lit, from the rail's lowest
    (``lamp_rail``) less the loom, the fuse and the group's pair at the worst case; 0 V: its fuse is open or missing."""
    from . import electrical
    from .harness import GROUPS, group_fuse_refs

    groups = electrical.pixel_groups(design)
    if not groups:
        return []
    lo, hi = lamp_rail(design, loaded=True)
    v = electrical.pixel_ladder(design, False, lo, groups)[0]
    refs = group_fuse_refs(design)
    readings = [
        ("%s's pair at pixel %d, lamps lit" % (ref, first), window(v[first] - 0.02, hi))
        for ref, (first, _) in zip(refs, groups)
    ]
    points = [point for ref in refs for point in ((GROUPS, ref), (GROUPS, ref + "−"))]
    return [
        _cp(
            "lamps",
            "%s: each pair at its group's first pixel, +5V to GND" % GROUPS,
            points,
            "volts",
            readings,
            "groups",
            "each group's %g A fuse is fitted and whole: 0 V means it opened (a short in that group: the "
            "troubleshooting table) or is missing" % electrical.group_fuse(),
        )
    ]


def by_key(cps):
    return {cp["key"]: cp for cp in cps}


def reading_words(cp):
    return "; ".join(("%s: %s" % (cond, exp)) if cond else exp for cond, exp in cp["readings"])


# --- the guide's sections ----------------------------------------------------


def design_figures(design):
    """The figures the expected values come from, in words, for this board only."""
    out = ["the supply %g V ± %d %%" % (design.figures["volts"], int(SUPPLY_TOLERANCE * 100))]
    if catalogue.has_dc_input(design):
        from . import electrical

        out.append(
            "the input's drops at the worst case (%s), never below U1's %.1f V"
            % (", ".join("%s %.2f V" % d for d in electrical.input_drops(design)), u1_needs())
        )
    if design.pixels:
        out.append("the %d Ω data resistor ± %d %%" % (DATA_OHMS, int(RESISTOR_TOLERANCE * 100)))
    if design.matrix:
        out.append("a %s's drop of %s" % (design.matrix["diode"].upper(), diode_window(design.matrix["diode"])))
    out.append("a closed button below %s, an open line above %s" % (ohms(CLOSED_OHMS), ohms(NO_SHORT_OHMS)))
    return ", ".join(out)


def guide_lines(design):
    """The guide's "Checkpoints, stage by stage": after each stage, what to measure and expect."""
    cps = checkpoints(design)
    if not cps:
        return []
    out = [
        "## Checkpoints, stage by stage",
        "",
        "Measure after each stage before going on; write the readings on [commissioning.md](commissioning.md). "
        "Test points are the contacts of [the harness drawing](harness.svg) (J = plug, pin numbers on its "
        "housing) and the controller's header pins (A1). Expected values come from the design: %s."
        % design_figures(design),
        "",
    ]
    for key, title, when in STAGES:
        mine = [cp for cp in cps if cp["stage"] == key]
        if not mine:
            continue
        if key == "looms" and design.sinks:
            when = when + "; the +5V lamp lead soldered to A1 pin 2's breakout, the Pi not fitted"
        if key == "controller" and not design.pico:
            when = when.replace(
                "supply on, USB unplugged",
                "the Pi's own supply on" + (" and the lamps' supply on" if catalogue.has_dc_input(design) else ""),
            )
        out += ["### %s" % title, "", "When: %s." % when, ""]
        out += md_table(
            ["", "test point", "meter", "expected", "shows"],
            [[cp["id"], cp["where"], cp["meter"], reading_words(cp), cp["why"]] for cp in mine],
        ) + [""]
    return out


def _cite(cps, *keys):
    """'CP3, CP4': the checkpoints that test it, where this board has them."""
    return ", ".join(cps[k]["id"] for k in keys if k in cps)


def troubles(design):
    """[(symptom, check, fix)] for this board: only what can happen to it."""
    cps = by_key(checkpoints(design))
    if design.onboard:
        out = onboard_troubles(design)
    elif design.pixels:
        out = pixel_troubles(design, cps)
    else:
        out = led_troubles(design, cps)
    out += input_troubles(design, cps) + supply_troubles(design, cps)
    pi = not (design.pico or design.onboard)
    out.append(
        (
            "An alarm or a lost-audits message at boot (the boot line's `why`, `data_losses`)",
            "The boot line: `nimatron monitor PORT`%s. [docs/store.md](../../docs/store.md) lists every message, "
            "what it lost and why." % (" or `journalctl -u nimatron`" if pi else ""),
            "Once after a power cut during a save: expected, the start says what was lost and the audits go on. "
            "At every start: the store is failing (%s)."
            % (
                "replace the SD card, then restore the settings"
                if pi
                else "a factory reset from the operator menu; if it comes back, replace the board"
            ),
        )
    )
    return out


def pixel_troubles(design, cps):
    data = design.chains[0]
    u = design.pixels["shifter"]
    return [
        (
            "No lamp lights, though the machine answers presses",
            "+5V at J2 (%s); the data resistor (%s); %s's direction: %s to pin 2 (1A), pin 3 (1Y) to the loom, "
            "pin 1 (1OE) to ground; the strip's arrows point away from DIN."
            % (_cite(cps, "rail", "rail-lit"), _cite(cps, "data-r", "data-short"), u, data.pin),
            "Reseat J2; rewire %s as the wiring diagram shows; turn the strip so its first arrow leaves DIN." % u,
        ),
        (
            "The lamps are dark from one pixel on",
            "That pixel's DOUT and the next one's DIN; +5V and ground at it.",
            "Resolder the joint or replace the pixel; feed +5V to both ends of a long strip.",
        ),
    ] + group_troubles(design)


def group_troubles(design):
    """The pixels fed in groups: a group dark from its first pixel to its last is its fuse."""
    from . import electrical, harness

    refs = harness.group_fuse_refs(design)
    if not refs:
        return []
    return [
        (
            "One group of pixels is dark from its first to its last (%s)"
            % ", ".join(
                "%s: %d-%d" % (ref, first, first + size - 1)
                for ref, (first, size) in zip(refs, electrical.pixel_groups(design))
            ),
            "Supply unplugged, the group's fuse on the fuse board: OL means it opened on a short behind it.",
            "Find and clear the short in that group (its pair, its pixels' +5V and ground) before you fit the same "
            "%g A fast fuse from the spares; never a larger one." % electrical.group_fuse(),
        )
    ]


def led_troubles(design, cps):
    first = _cite(cps, "line:" + design.chains[0].pin)
    if design.sinks:
        return [
            (
                "No lamp lights",
                "The game runs (`journalctl -u nimatron`); the +5V lamp lead at A1 pin 2 (%s); pin 9 of every "
                "ULN2803A to ground; every loom plug seated." % _cite(cps, "pi5v-lit"),
                "Start the service; solder the lamp lead or the drivers' ground.",
            ),
            (
                "One lamp never lights",
                "Its line in the harness drawing and its diode test (the lamp's checkpoint, e.g. %s); its ULN2803A "
                "channel (input pins 1-8, output pins 18-11, as the wiring drawing numbers them)." % first,
                "LED in backwards (long leg = anode, to its resistor) or its resistor loose: resolder; re-crimp.",
            ),
        ]
    return [
        (
            "No lamp lights",
            "The game runs (`journalctl -u nimatron`); every loom plug seated; each loom's ground contact (%s)."
            % ", ".join("%s pin %d" % (ref, catalogue.loom_ways(chains)) for ref, chains in catalogue.looms(design)),
            "Start the service; re-crimp the ground contact.",
        ),
        (
            "One lamp never lights",
            "Its line in the harness drawing and its diode test (the lamp's checkpoint, e.g. %s)." % first,
            "LED in backwards (long leg = anode) or its resistor loose: resolder; re-crimp its contact.",
        ),
    ]


def contact(design, pin):
    """'J4 pin 1': the loom contact that carries a pin-map line (empty if none does)."""
    for cable in harness(design)["cables"]:
        for p in cable["pins"]:
            if p["kind"] == "line" and p["signal"] == pin:
                return "%s pin %s" % (cable["ref"], p["pin"])
    return ""


def line_words(chain, cps, design=None):
    """'row 2 GP3 (J4 pin 2, CP14)': a line, its loom contact and its checkpoint. A
    line with no checkpoint of its own (row 1 of a key matrix, measured with every
    column) still names its contact."""
    cp = cps.get("line:" + chain.pin)
    where = cp["where"].split(" to ")[0] if cp else (contact(design, chain.pin) if design else "")
    return "%s %s (%s%s)" % (
        role_label(chain.role).replace("key matrix ", ""),
        chain.pin,
        where,
        ", " + cp["id"] if cp else "; in every column's checkpoint",
    )


def input_troubles(design, cps):
    if design.onboard:
        return []
    out = []
    rows = [c for c in design.chains if c.role.startswith("row")]
    if rows:
        out.append(
            (
                "One row's button does nothing",
                "That row's line, from the pin map: " + "; ".join(line_words(c, cps, design) for c in rows) + ".",
                "The wire on the button's NO contact (not NC), COM to ground; re-crimp; its %s resistor at "
                "the stripboard." % ohms(BUTTON_OHMS),
            )
        )
    if design.matrix:
        out += matrix_troubles(design, cps)
    controls = [c for c in design.chains if c.role in ("done", "new")]
    out.append(
        (
            "DONE or NEW GAME does nothing",
            "; ".join(line_words(c, cps, design) for c in controls) + ".",
            "As a row button: NO contact, COM to ground, re-crimp.",
        )
    )
    return out


def matrix_troubles(design, cps):
    rows = [c for c in design.chains if c.role.startswith("key row")]
    columns = sorted([c for c in design.chains if c.role.startswith("key column")], key=lambda c: c.role)
    return [
        (
            "Every key of one row does nothing",
            "That row's wire: " + "; ".join(line_words(c, cps, design) for c in rows) + ".",
            "Re-crimp; join the COM of every key of the row to its wire.",
        ),
        (
            "Every key of one column does nothing",
            "That column's wire: " + "; ".join(line_words(c, cps, design) for c in columns) + ".",
            "Re-crimp; join the anode of every diode of the column to its wire.",
        ),
        (
            "One key does nothing, or selects the wrong lamp",
            "Its diode's orientation: band (cathode) to the key, anode to the column wire, as the wiring diagram "
            "draws it; its row and column wires (key K(n) sits under lamp n, counted row by row); its diode's type: "
            "a %s reads %s on the diode test, a silicon diode (1N4148) %s, and a held key then reads above the "
            "pin's 0.8 V threshold."
            % (design.matrix["diode"].upper(), diode_window(design.matrix["diode"]), diode_window()),
            "Turn the diode round; fit a %s in place of a silicon one; swap crossed row or column wires at the "
            "plug." % design.matrix["diode"].upper(),
        ),
        (
            "One press changes two lamps, or two keys held select a third",
            "A diode missing or shorted: the diode test across it reads %s forward, OL backward."
            % diode_window(design.matrix["diode"]),
            "Fit or replace the diode.",
        ),
    ]


def supply_troubles(design, cps):
    f = design.figures
    if design.onboard:
        return []
    if not catalogue.has_dc_input(design):
        return [
            (
                "The machine restarts when many lamps light",
                "The Pi's 5 V (%s); the Pi's supply is the official one." % _cite(cps, "pi5v", "pi5v-lit"),
                "Use the Raspberry Pi supply from the parts list: the lamps and the Pi take at most %d mA of it."
                % int(f["worst_ma"] + 0.5),
            )
        ]
    level = design.spec.get("brightness", 1.0)
    out = [
        (
            "The machine restarts or the lamps flicker when many lamps light",
            "+5V at J2 with the lamps lit (%s); the brightness (%.2f here) against this supply's cap %.2f "
            "(`nimatron power --board %s`); both +5V contacts of J2 crimped."
            % (_cite(cps, "rail-lit"), level, f["cap"], design.name),
            "Lower the brightness (`SET brightness`, or the operator menu); a %g A supply; re-crimp J2." % f["amps"],
        ),
        (
            "Nothing at all with the supply plugged in",
            "The adapter (%s: 5 V on J1 %s): above %.2f V or reversed, the input stays off on purpose; Q1 and Q2 "
            "(%s); the input stage's bench test (the commissioning sheet)."
            % (_cite(cps, "supply"), catalogue.pins_words("+"), supply_sim.trip_window()[0], _cite(cps, "mosfets")),
            "The machine's own 5 V adapter (its KPPX-4P plug); Q1/Q2 as the wiring drawing shows them (drains outwards, sources "
            "joined).",
        ),
        (
            "The adapter's light goes out (or it clicks) as soon as it is plugged in, with J1's tails joined",
            "A + tail joined to a − tail: the adapter is short-circuited and cuts itself off. With the adapter "
            "unplugged, part the tails and measure them apart (%s)." % _cite(cps, "jack-pairs"),
            "Join the tails in the pairs that checkpoint finds, not by the numbers on the plug or a datasheet "
            "(Mean Well numbers the plug's contacts otherwise than Kycon numbers the jack's).",
        ),
        (
            "J1's tails read otherwise than the sheet (%s)" % _cite(cps, "jack-pairs"),
            "The supply between two tails the sheet calls one pair, or 0 V between a + and a −: the jack numbers "
            "its contacts otherwise than this sheet.",
            "Do not join by number: pair the tails that read 0 V against each other, + the pair the red lead "
            "reads +5 V on; label them, note it on the sheet and the harness drawing.",
        ),
        (
            "Everything goes dark, and comes back after a minute",
            "A short or an overload: the adapter's own limit or F1 (%s)." % _cite(cps, "no-short"),
            "Find the short with the supply unplugged.",
        ),
    ]
    if design.pico:
        out.append(
            (
                "The machine works on USB, not on the supply",
                "VSYS (%s): the 1N5817's band towards VSYS (pin 39)." % _cite(cps, "vsys"),
                "Turn the 1N5817 round.",
            )
        )
    return out


def onboard_troubles(design):
    return [
        (
            "The board restarts or its USB drops when many lamps light",
            "The USB adapter gives at least %g A (the parts list)." % design.spec["supply"]["amps"],
            "The adapter from the parts list, not a computer's USB port.",
        ),
        (
            "A key does nothing",
            "The operator menu's button test ([docs/operator.md](../../docs/operator.md)).",
            "The board itself is faulty: replace it; its pin map needs no change.",
        ),
    ]


def trouble_lines(design):
    out = [
        "## Troubleshooting",
        "",
        "Symptom first%s." % ("" if design.onboard else "; each check names the checkpoint that measures it"),
        "",
    ]
    return out + md_table(["symptom", "check", "fix"], troubles(design)) + [""]


# --- the commissioning sheet ---------------------------------------------------


def commissioning(design, self_test):
    """``commissioning.md``: the sheet a museum technician fills in and signs."""
    from .safety import commissioning_lines

    return (
        "\n".join(
            sheet_head(design)
            + bench_lines(design)
            + sheet_checkpoints(design)
            + commissioning_lines(design)
            + sheet_tests(design, self_test)
        )
        + "\n"
    )


METER_VOLTS = 0.02  # a hand-held meter's error on a 5 V reading (about 0.3 % + 2 digits), added to each limit


def bench_rows(design):
    """[(step, what to set, measure, expected, accept, what a wrong reading means)] for the first built
    input stage on a bench supply: the expected values are the corner runs' (``supply_sim.bench``)."""
    b = supply_sim.load_bench(design)
    if not b:
        return []
    vbe, idle, full, trip = b["vbe_5v0"], b["rail_5v0_idle"], b["rail_4v75_full"], b["trip"]
    lo, hi = supply_sim.trip_window()
    amps = catalogue.worst_amps(design)
    m = METER_VOLTS
    return [
        (
            "1",
            "5.00 V, only the 1 kΩ on +5V",
            "across R_BE (Q3's base to emitter)",
            window(*vbe),
            window(max(vbe[0] - 0.1, 0.05), vbe[1] + 0.05),
            "below 0.05 V: the TL431 draws nothing: missing, backwards or its cathode not on R_B, so the cut-off "
            "cannot trip: stop. 0.6-0.8 V: Q3 is on: R_BE is not %s (10 kΩ reads about 0.6 V and +5V stays at 0 V), "
            "or the cut-off has tripped at 5 V (R_TOP and R_BOT swapped)" % ohms_words(supply_sim.R_BE),
        ),
        (
            "2",
            "5.00 V, only the 1 kΩ on +5V",
            "+5V to ground, after 1 s",
            window(idle[0] - m, idle[1]),
            window(idle[0] - m - 0.05, idle[1] + m),
            "0 V: the gates are not pulled down (R_G), a MOSFET is in backwards, or Q3 is on (step 1)",
        ),
        (
            "3",
            "4.75 V, %.2f A drawn from +5V (an electronic load, or power resistors)" % amps,
            "+5V to ground",
            window(*full),
            "≥ %s" % volts(max(full[0] - m - 0.05, u1_needs())),
            "low: a poor joint in the current path (strips, F1, Q1/Q2's legs) or Q1/Q2 not fully on (their gates "
            "read within 0.2 V of ground); measure the supply at the jack, not at its own terminals",
        ),
        (
            "4",
            "from 5.00 V up in 10 mV steps, only the 1 kΩ on +5V",
            "the supply's volts where +5V drops to 0 V",
            window(*trip),
            window(min(lo, trip[0]) - m, max(hi, trip[1]) + m),
            "below the window: R_TOP or R_BOT of the wrong value; the machine's own adapter at +5 % would be cut "
            "off. Above it, or +5V still on at 6.0 V: the cut-off does not work (the TL431's REF and cathode "
            "swapped, Q3's emitter and collector swapped): a wrong adapter would reach the pixels; do not fit it",
        ),
    ]


def bench_lines(design):
    """The bench sheet of the first built input stage, before it goes into the machine."""
    rows = bench_rows(design)
    if not rows:
        return []
    out = [
        "## Bench test of the input stage",
        "",
        "Before the stripboard's input stage goes into the machine: feed %s from a bench supply (current limit "
        "100 mA for steps 1, 2 and 4), a 1 kΩ resistor across +5V and ground, nothing else connected. The "
        "expected values are the simulation's at its two corners (hot and cold, every part at its tolerance; "
        "hardware/README.md, 'Supply faults, simulated'); accept adds the meter's error." % design.jack,
        "",
    ]
    return (
        out
        + md_table(
            ["", "supply", "measure", "expected", "accept", "measured", "ok", "a wrong reading means"],
            [[a, b, c, d, e, "", "", f] for a, b, c, d, e, f in rows],
        )
        + [""]
    )


def sheet_head(design):
    from nimatron.machine import identity

    name = design.name
    who = identity(name)
    return [
        "# Commissioning sheet: Nimatron `%s`" % name,
        "",
        "<!-- generated by `nimatron hardware` from firmware/nimatron/config/pinmaps/%s.json: edit that, then "
        "run it -->" % name,
        "",
        "Fill in on site, sign, and keep with the exhibit's file. Expected values come from the design "
        "([README.md](README.md)%s)." % (", [harness.svg](harness.svg)" if not design.onboard else ""),
        "",
        "| | |",
        "|---|---|",
        "| Board | `%s`: %s |" % (name, design.spec["about"].split(":")[0]),
        "| Serial / asset no. | |",
        "| Firmware version (the boot line's `\"version\"`; the drawings': %s) | |" % who["version"],
        "| Pin map CRC (the boot line's `\"pinmap_crc\"`; the drawings': %s) | |" % who["pinmap_crc"],
        "| Site and exhibit | |",
        "",
    ]


def sheet_checkpoints(design):
    cps = checkpoints(design)
    if not cps:
        return []
    rows = []
    for cp in cps:
        for cond, exp in cp["readings"]:
            rows.append([cp["id"], cp["where"], cp["meter"], cond, exp, "", ""])
    return (
        ["## Checkpoints", "", "Meter readings, in build order; tick when within the expected value.", ""]
        + md_table(["", "test point", "meter", "condition", "expected", "measured", "ok"], rows)
        + [""]
    )


def sheet_tests(design, self_test):
    menu = (
        "hold DONE and NEW GAME 5 s, or `SERVICE ON` over the host link"
        if not design.onboard
        else "how to open it on this board"
    )
    return (
        ["## Self-test", ""]
        + md_table(["", "step", "ok"], [[i + 1, s, ""] for i, s in enumerate(self_test)])
        + [
            "",
            "Operator menu (%s; docs/operator.md): lamp test ☐ · button test ☐ · audits read ☐" % menu,
            "",
            "## A full game",
            "",
            "| | |",
            "|---|---|",
            "| Rules (the `%s` preset unless changed) | |" % design.spec["preset"],
            "| Result: NIM CHAMP or MACHINE WINS | |",
            '| Audits "games" before → after (`nimatron audits PORT`, or the operator menu) | → |',
            "",
            "## Power-cut test",
            "",
            "1. Read the audits: games ______.",
            "2. Pull the supply in attract mode; wait 10 s; plug it in again.",
            '3. The boot line says `"restored": "stored"` ☐ and gives no `why` ☐; the audits read games '
            "______ (the same as in 1).",
            "4. Pull the supply during a game, and plug it in again: the audits are kept ☐ (a lost-audits "
            "message, if any, is explained in docs/store.md).",
            "",
            "## Sign-off",
            "",
            "| | |",
            "|---|---|",
            "| Result | accepted ☐ · not accepted ☐ |",
            "| Notes | |",
            "| Name | |",
            "| Date | |",
            "| Signature | |",
        ]
    )
