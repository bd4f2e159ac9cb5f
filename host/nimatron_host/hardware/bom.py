# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The bill of materials of one board, as CSV rows, from its circuit.

Every part the wiring diagram draws is a row (its references from the
circuit), then what holds it together: wire, connectors, board, enclosure.
Prices are rough single-unit figures in US dollars (2025), to budget a
build, not quotes; part numbers are examples of a part that fits.
"""

import csv
import io

from . import panel, parts as catalogue_parts, supply_sim
from .circuit import fuse_key, ref_ranges
from .electrical import esd_arrays, lead_wire
from .enclosure import supply_part
from .harness import GROUND, PLUS5, SIGNAL_COLOURS

WIRE_COLOURS = [name for name, _ in SIGNAL_COLOURS] + [GROUND[0]]  # the looms' colour code (harness.svg)

# Snap-in buttons are made for thin (metal) panels, and no maker's figure for a 4 mm sheet was found
# (parts.json obsf-30 marks it an assumption): the builder tries one first.
BUTTON_FIT = (
    "30 mm hole; snap-in buttons are made for thin panels: press one into an off-cut of the 4 mm sheet "
    "first; if its clips do not catch, counterbore the hole from behind to about 2 mm or buy the "
    "screw-in (nut) version; press force: measure it, at most 22.2 N (ADA 309.4)"
)
HEADER = ["reference", "part", "quantity", "example part number", "approx unit price (USD)", "notes"]


def _catalogue(design):
    """(prefix, part) -> (description, example, price, notes)."""
    out = _wired_parts(design)
    if design.onboard:
        out.update(_onboard_parts(design))
    elif design.neopixel:
        out[("PX", "NeoPixels")] = _pixels_row(design.spec)
    return out


def _wired_parts(design):
    """The parts a wired board may have, each with its row."""
    f = design.figures
    return {
        ("A", "Raspberry Pi Pico"): (
            "Raspberry Pi Pico (RP2040) with headers, CircuitPython 9 or 10",
            "Raspberry Pi Pico H",
            5.00,
            "any RP2040 board with the same GP pins",
        ),
        ("A", "Raspberry Pi (40-pin header)"): (
            "Raspberry Pi 4 Model B (2 GB) or Raspberry Pi 5",
            "Raspberry Pi 4 Model B 2GB",
            45.00,
            "any 40-pin model; a 16 GB A1 microSD card with Raspberry Pi OS Lite",
        ),
        ("R", "resistor"): None,  # by value below
        ("L", "LED"): _led_row(design.spec),
        ("U", "ULN2803A"): (
            "8-channel Darlington sink driver (DIP-18) and socket, one per 8 lamps",
            "TI ULN2803AN",
            0.90,
            catalogue_parts.part("uln2803")["datasheet"],
        ),
        ("S", "arcade button"): (
            "30 mm arcade push button, microswitch with two 2.8 mm tabs, snap-in",
            "Sanwa OBSF-30",
            2.50,
            BUTTON_FIT,
        ),
        ("K", "key (arcade button)"): (
            "30 mm arcade push button, microswitch with two 2.8 mm tabs, snap-in",
            "Sanwa OBSF-30",
            2.50,
            "one under every lamp; " + BUTTON_FIT,
        ),
        ("D", "BAT85"): (
            "Schottky diode BAT85 30 V 200 mA, glass axial, one per key (no ghosting on chords)",
            "Vishay BAT85 or Nexperia BAT85",
            0.10,
            "anode to the column wire; a Schottky so a held key reads low (a 1N4148 does not: "
            "keylevel.py); handle the glass body gently, no bending at the seal",
        ),
        ("D", "1N5817"): ("Schottky diode 1 A, supply to VSYS", "onsemi 1N5817", 0.20, "band (cathode) towards VSYS"),
        ("U", "74AHCT125"): (
            "quad buffer, 3.3 V to 5 V level shifter (DIP-14) and socket",
            "TI SN74AHCT125N",
            0.80,
            "data to the NeoPixels at 5 V logic",
        ),
        ("C", "capacitor"): (
            "1000 uF 10 V electrolytic capacitor",
            "Panasonic EEU-FR1A102",
            0.50,
            "across the pixels' supply at the strip, + to +5V",
        ),
        ("C", "decoupling capacitor"): (
            "100 nF 50 V ceramic capacitor (X7R), 2.54 mm pitch",
            "KEMET C320C104K5R5TA",
            0.15,
            "across the 74AHCT125's pins 14 (VCC) and 7 (GND), legs short, at the chip",
        ),
        ("PS", "Raspberry Pi USB-C supply"): (
            "Raspberry Pi official 27 W USB-C power supply, 5.1 V 5 A (a Pi 5 needs "
            "it; a Pi 4 alone may use the 15 W, 5.1 V 3 A one)",
            "Raspberry Pi 27W USB-C Power Supply",
            12.00,
            "the Pi's own supply; its ground joins the lamps' only through the header; "
            "on a 3 A supply a Pi 5 limits its USB ports to 600 mA",
        ),
        ("PS", "5 V supply"): (
            supply_words(design),
            supply_part(design),
            12.00 if f["amps"] >= 4 else 10.00,
            "power budget: %s%s" % (budget_words(design), forbidden_words(design)),
        ),
        ("J", "DC jack"): (
            catalogue_parts.part(catalogue_parts.JACK)["part"],
            "Kycon KPJX-PM-4S",
            6.00,
            catalogue_parts.part(catalogue_parts.JACK)["datasheet"] + "; keyed and locking: takes only "
            "the adapter's KPPX-4P plug, which latches in; on the service face (the removable back), never "
            "the panel: enclosure.svg (%s); its pairs %s (+) and %s (−) are joined only after the "
            "commissioning sheet's first checkpoint has measured the tails apart, the adapter plugged in "
            "(Mean Well numbers the plug's contacts otherwise)"
            % (catalogue_parts.cutout_words(), catalogue_parts.pair("+"), catalogue_parts.pair("-")),
        ),
    }


def supply_words(design):
    """The 5 V adapter as the supply rules need it: regulated and fixed, limited power, its overload point."""
    words = (
        "5 V %g A regulated supply, 4-pin locking power DIN plug (Kycon KPPX-4P or its equivalent, Mean Well's plug code R7B: check the example is sold with it; Mean Well's own pin numbers: %s +V, %s −V)"
        % (
            design.figures["amps"],
            catalogue_parts.pins_words("+", "r7b-plug"),
            catalogue_parts.pins_words("-", "r7b-plug"),
        )
    )
    if catalogue_parts.has_dc_input(design):
        words += (
            ", fixed 5.0 V (not adjustable); a limited power source (LPS, IEC 62368-1 Annex Q, or NEC Class 2) "
            "whose overload protection acts by %d %% of its rating" % int(supply_sim.OVERLOAD * 100 + 0.5)
        )
    return words


def forbidden_words(design):
    """The supplies the cut-off cannot keep from the pixels, named and forbidden (``supply_sim.FORBIDDEN``)."""
    if not catalogue_parts.has_dc_input(design) or not design.pixels:
        return ""
    lo, hi = supply_sim.trip_window()
    return "; FORBIDDEN: %s: between 5.3 V and the cut-off's trip (%.2f-%.2f V) the pixels pass their 5.3 V" % (
        "; ".join(supply_sim.FORBIDDEN_WORDS[k] for k in supply_sim.FORBIDDEN),
        lo,
        hi,
    )


def _onboard_parts(design):
    """A board with everything built in, and its USB supply."""
    macropad = "MacroPad" in design.title
    if macropad:  # the bare board has hot-swap sockets, not keys
        board = (
            "Adafruit MacroPad RP2040 Starter Kit: the board, 12 MX-compatible key switches, 12 clear keycaps, "
            "plates; CircuitPython 9 or 10",
            "Adafruit MacroPad RP2040 Starter Kit",
            50.00,
            "the bare-bones board has only the hot-swap sockets: then add 12 MX-compatible switches and 12 "
            "clear (translucent) keycaps, so the keys' pixels shine through",
        )
    else:
        board = (
            design.title + " (keys, pixels and speaker built in), CircuitPython 9 or 10",
            design.title,
            25.00,
            "nothing to wire",
        )
    supply = (
        "USB power adapter 5 V, at least %g A, and a USB data cable" % design.figures["amps"],
        "any 5 V 1 A USB-C charger" if macropad else "Raspberry Pi 12.5W micro-USB supply",
        8.00,
        "power budget: %s" % budget_words(design),
    )
    return {("A", design.title): board, ("PS", "USB supply"): supply}


def _pixels_row(spec):
    """The NeoPixels: bullet pixels behind lamp holes (a ring, fixed pixels), or a strip cut to rows."""
    px = spec["lamps"]["pixels"]
    if spec["lamps"].get("shape") == "ring" or spec["lamps"].get("fixed"):
        return (
            "NeoPixel-compatible 12 mm bullet pixels, WS2811 5 V, on a wire string (%d used)" % px,
            "WS2811 12 mm pixel string, 5 V",
            0.60 * px,
            "one behind each lamp hole; the price is for the string",
        )
    return (
        "NeoPixel strip WS2812B 5 V, 60 LEDs/m, %d pixels (cut to rows)" % px,
        "Adafruit 1138 (1 m)",
        round(px / 60.0 * 17, 2),
        "the price is for the length needed",
    )


def budget_words(design):
    from nimatron.config import power

    f = design.figures
    if f["kind"] == "leds":
        return "worst case %d mA of %d mA" % (int(f["worst_ma"] + 0.5), int(f["allowed_ma"]))
    level = design.spec.get("brightness", 1.0)
    return "worst case %d mA of %d mA at brightness %.2f; cap %.2f" % (
        int(power.worst_ma(f, level) + 0.5),
        int(f["allowed_ma"]),
        level,
        f["cap"],
    )


RESISTORS = {
    "data": (
        "resistor 330 Ohm 1/4 W, in the data line at the first pixel",
        "Yageo MFR-25FBF52-330R",
        0.05,
        "300-500 Ohm: damps reflections on the data line",
    ),
    "button": (
        "resistor 220 Ohm 1/4 W, in series with each button line and key-matrix column",
        "Yageo MFR-25FBF52-220R",
        0.05,
        "at the board: limits an electrostatic discharge into the pin",
    ),
}


def rows(design):
    """The BOM as a list of CSV rows (header first, total last)."""
    catalogue = _catalogue(design)
    spec = design.spec
    out = [HEADER]
    total = 0.0
    for prefix, part, value, refs in design.parts.lines:
        if prefix == "R":
            if value.startswith("%d " % 330):
                desc, example, price, notes = RESISTORS["data"]
            elif value.startswith("%d " % 220):
                desc, example, price, notes = RESISTORS["button"]
            else:
                f = design.figures
                ohms = f["ohms"]
                desc = "resistor %d Ohm 1/4 W 1 %% (E24), one per LED" % ohms
                example = "Yageo MFR-25FBF52-%dR" % ohms
                price = 0.05
                sink = spec["led"].get("sink")
                drop = (
                    "%.1f V - %.1f V" % (f["logic_volts"], spec["led"]["vf"])
                    if not sink
                    else "%g V - %.1f V - %.1f V Vce(sat)" % (f["volts"], spec["led"]["vf"], sink["vce"])
                )
                notes = "(%s) / %g mA = %d Ohm, next E24 value %d Ohm: %.2f mA" % (
                    drop,
                    spec["led"]["ma"],
                    int((f["drive_volts"] - spec["led"]["vf"]) * 1000 / spec["led"]["ma"] + 0.5),
                    ohms,
                    f["led_ma"],
                )
        else:
            desc, example, price, notes = catalogue[(prefix, part)]
        qty = len(refs)
        if prefix == "PX":  # one string or strip, priced whole
            qty = 1
        out.append([ref_ranges(refs), desc, str(qty), example, "%.2f" % price, notes])
        total += price * qty
    for item in _sundries(design):
        desc, qty, example, price, notes = item[:5]
        out.append([item[5] if len(item) > 5 else "", desc, str(qty), example, "%.2f" % price, notes])
        total += price * qty
    out.append(["", "TOTAL (approximate)", "", "", "%.2f" % total, "single units, before shipping and tax"])
    return out


def _sundries(design):
    """What the diagram does not draw but a build needs."""
    if design.onboard:
        return [
            (
                "display case or enclosure with a window for the board (e.g. a 3D-printed or acrylic case)",
                1,
                "",
                10.00,
                "the keys stay reachable; the USB cable clamped inside",
            ),
            ("cable clamp / P-clip for the USB cable (strain relief)", 1, "", 1.00, ""),
        ]
    out = _controller_sundries(design)
    out.append(("stripboard 100 x 160 mm", 1, "Vero 01-0021", 5.00, "carries " + stripboard_words(design)))
    out.extend(_looms(design))
    out.extend(_protection(design))
    out.extend(_enclosure(design))
    out.extend(_wire_sundries(design))
    out.extend(_lamp_holes(design))
    return out


def _controller_sundries(design):
    """What plugs the controller in: header sockets and a USB cable for a Pico, a card and a ribbon for a Pi."""
    if design.pico:
        return [
            (
                "20-way female header sockets, 2.54 mm, for the Pico",
                2,
                "any 1x20 2.54 mm female header",
                0.80,
                "the Pico plugs in: swap it without a soldering iron",
            ),
            (
                "micro-USB cable, data (deploy and host link)",
                1,
                "any USB-A/C to micro-B data cable",
                3.00,
                "leave it unplugged in the museum unless the host link is used",
            ),
        ]
    return [
        ("microSD card 16 GB A1", 1, "SanDisk Ultra 16GB A1", 8.00, "Raspberry Pi OS Lite (64-bit)"),
        (
            "40-way ribbon cable with IDC sockets and breakout",
            1,
            "40-pin GPIO ribbon + T-cobbler",
            6.00,
            "the loom plugs in: swap a Pi without soldering",
        ),
    ]


def _enclosure(design):
    """The front panel, its screws, the standoffs and the box behind it."""
    fixings = panel.fixing_count(design.name, design.spec)
    out = [
        (
            "front panel, 4 mm birch plywood or 3 mm acrylic, laser cut (panel.svg)",
            1,
            "",
            15.00,
            "mat, light-coloured face; black engraving",
        ),
        (
            "M4 x 16 mm pan-head screws, washers and nyloc nuts (panel fixing)",
            fixings,
            "ISO 7045 M4 x 16 A2",
            0.15,
            "one per %.1f mm fixing hole of panel.svg%s"
            % (panel.FIXING_MM, panel.tile_words(design.name, design.spec)),
        ),
        (
            "M3 x 10 mm nylon standoffs, screws and nuts (set)",
            1,
            "M3 x 10 mm nylon standoff kit",
            6.00,
            "mount the stripboard and the controller inside the enclosure",
        ),
        (
            "enclosure: a box the panel screws onto, at least 80 mm deep inside, with a removable back",
            1,
            "12 mm plywood",
            40.00,
            "the panel is its lid; the stripboard, controller and looms inside; wood, so nothing metal a visitor "
            "touches needs bonding"
            + (
                "; the supply enters through J1 on the back (enclosure.svg)"
                if catalogue_parts.has_dc_input(design)
                else ""
            ),
        ),
        (
            "printed how-to-play label, 24 pt (8.5 mm) type or larger, laminated, for the wall beside the machine",
            1,
            "",
            5.00,
            "the panel's words are smaller than the 24 pt exhibit minimum (build guide, 'Museum')",
        ),
    ]
    if catalogue_parts.has_dc_input(design):
        from .enclosure import marking

        out += [
            (
                'inlet marking beside J1 on the service face: engraved, or a printed label, 5 mm letters: "%s", '
                "the socket's pin symbol" % "; ".join(marking(design)[:2]),
                1,
                "",
                2.00,
                "rating and polarity at the inlet (enclosure.svg)",
            ),
            (
                "P-clip, 8 mm, and a screw: holds the adapter's lead 30 mm below J1",
                1,
                "nylon P-clip 8 mm",
                0.30,
                "a pull on the lead is taken by the clip, not the plug (enclosure.svg)",
            ),
        ]
    return out


def _wire_sundries(design):
    """The pixel string's splice wire, the switches' crimp terminals, the strain relief."""
    out = []
    if catalogue_parts.lamp_part(design) == catalogue_parts.BULLET_PIXEL:
        mm = sum(m for _, _, m in panel.splices_needed(design))
        if mm:
            out.append(
                (
                    "4-core extension wire for the pixel string's splices, 22 AWG, metres",
                    max(1, int(mm * 1.2 / 1000.0 + 0.999)),
                    "4-core 22 AWG LED wire",
                    1.00,
                    "%d mm of splices (the guide's splice plan) and 20 %% to spare" % mm,
                )
            )
    switches = sum(1 for line in design.parts.lines if line[0] in ("S", "K") for _ in line[3])
    if switches:
        out.append(
            (
                "insulated 2.8 mm (0.110 in) female quick-disconnects, 22 AWG",
                2 * switches + 10,
                "any insulated 2.8 x 0.5 mm (0.110 in) receptacle",
                0.08,
                "two per button or key microswitch (its two 2.8 mm tabs), 10 spare; crimp before soldering "
                "a key's diode",
            )
        )
    out.append(
        (
            "cable tie mounts, P-clips and cable ties (strain relief)",
            1,
            "",
            4.00,
            "every loom clamped within 50 mm of its connector",
        )
    )
    out.append(
        (
            "heat-shrink tubing assortment, 1.6-6.4 mm, 2:1",
            1,
            "any 2:1 polyolefin assortment",
            4.00,
            "over every soldered joint off the stripboard: the keys' diodes, the pixel splices, J1's tags",
        )
    )
    out.append(
        (
            "wire markers, clip-on numbered sleeves for 1-2.5 mm wire",
            1,
            "any clip-on wire marker set 0-9",
            4.00,
            "each loom wire marked at both ends with its pin-map line (harness.svg)",
        )
    )
    return out


def _lamp_holes(design):
    """What sits in a lamp hole: a diffuser and its retainer (and LED holders), or an LED bezel."""
    spec = design.spec
    hole, key = catalogue_parts.lamp_hole(design)
    holes = (
        sum(spec["lamps"]["layout"]) + 4
        if design.neopixel
        else sum(len(r) for r in spec["lamps"]["rows"]) + len(spec.get("status", {}))
    )
    if key == "led-bezel-5":
        return [
            (
                catalogue_parts.part(key)["part"],
                holes + 4,
                "VCC CNX_300",
                0.15,
                "one per %.1f mm lamp hole, 4 spare (%s)" % (hole, catalogue_parts.part(key)["datasheet"]),
            )
        ]
    if key != "diffuser-12":
        return []
    disc = catalogue_parts.part(catalogue_parts.DIFFUSER)
    retainer = catalogue_parts.part("diffuser-retainer")
    out = [
        (
            "lamp diffusers, %g mm opal acrylic discs, %g mm thick" % (disc["disc_mm"], disc["thick_mm"]),
            holes + 4,
            "",
            0.20,
            "one per lamp hole, 4 spare: a press fit (the hole is %.1f mm smaller)" % disc["press_fit_mm"],
        ),
        (
            retainer["part"],
            1,
            "",
            3.00,
            "behind every diffuser, so a pushed disc cannot fall in: " + retainer["source"],
        ),
    ]
    if not design.neopixel:
        out.append(
            (
                "5 mm LED holders (two-piece panel clip), one per LED",
                holes,
                "any two-piece 5 mm LED panel clip",
                0.10,
                "each LED centred 3-5 mm behind its diffuser, in a strip of card or 3 mm plywood",
            )
        )
    return out


def stripboard_words(design):
    """What this board's stripboard carries, from its circuit (never a template)."""
    kinds = [line[1] for line in design.parts.lines]
    out = ["the resistors"]
    if "ULN2803A" in kinds:
        out.append("the ULN2803A sink drivers")
    if "BAT85" in kinds and not design.matrix:
        out.append("the diodes")
    if "1N5817" in kinds:
        out.append("the 1N5817 supply diode")
    if "74AHCT125" in kinds:
        out.append("the 74AHCT125 level shifter and its capacitor")
    if catalogue_parts.has_dc_input(design):
        out.append("the input protection")
    if esd_arrays(design):
        out.append("the ESD arrays")
    out.append("the looms' headers")
    return ", ".join(out[:-1]) + " and " + out[-1]


def _led_row(spec):
    """The LED the pin map names, with its datasheet figures."""
    led = spec.get("led")
    if not led:
        return None
    key = catalogue_parts.spec_lamp_part(spec)
    p = catalogue_parts.part(key)
    maker, number = p["part"].split(" ")[0], p["part"].split(" ")[1]
    desc = "%s (Vf %.1f V, run at %g mA)" % (p["part"].split(" ", 2)[2], led["vf"], led["ma"])
    return desc, "%s %s" % (maker, number), 0.40, p["datasheet"]


def _looms(design):
    """Connectors, crimps and wire, each rated for what it carries (parts.json)."""
    out = []
    xh = catalogue_parts.part("jst-xh")
    every = catalogue_parts.looms(design)
    contacts = 0
    for ways in sorted({catalogue_parts.loom_ways(chains) for _, chains in every}, reverse=True):
        mine = [ref for ref, chains in every if catalogue_parts.loom_ways(chains) == ways]
        contacts += ways * len(mine)
        out.append(
            (
                "JST XH %d-way connector pairs, loom to stripboard (header B%dB-XH-A + housing XHP-%d)"
                % (ways, ways, ways),
                len(mine),
                "JST B%dB-XH-A + XHP-%d" % (ways, ways),
                0.60 if ways > 2 else 0.30,
                "%s: %.1f A per contact, %d-%d AWG; keyed; pin-out in harness.svg"
                % (
                    "the NeoPixel data and its ground (a plug no button header takes)"
                    if ways == 2
                    else "signals only, one per loom",
                    xh["amps"],
                    xh["awg"][1],
                    xh["awg"][0],
                ),
                ref_ranges(mine),
            )
        )
    out.append(
        (
            catalogue_parts.part("jst-xh-crimp")["part"],
            contacts + 8,
            "JST SXH-001T-P0.6",
            0.05,
            "one per contact and 8 spare; crimp with a JST-XH crimper (e.g. Engineer PA-09)",
        )
    )
    if catalogue_parts.has_dc_input(design):
        mf = catalogue_parts.part("minifit-jr")
        out.append(
            (
                "Molex Mini-Fit Jr. 4-way power connector pair (+5V, +5V, GND, GND) to the lamps",
                1,
                "Molex 39-01-2040 + 39-28-1043",
                1.20,
                "%.1f A per circuit; worst case %.2f A (parts.json); pin-out in harness.svg"
                % (mf["amps"], catalogue_parts.worst_amps(design)),
                catalogue_parts.POWER_LOOM,
            )
        )
        out.append(
            (
                catalogue_parts.part("minifit-jr-crimp")["part"],
                8,
                "Molex 39-00-0039",
                0.15,
                "4 per connector and 4 spare; crimp with a Mini-Fit crimper (e.g. Molex 63819-0900)",
            )
        )
        out += _power_wire_rows(design)
    lines = len(design.chains)
    colours = WIRE_COLOURS + ([PLUS5[0]] if design.pixels or design.sinks else [])  # red: +5V
    out.append(
        (
            catalogue_parts.part("wire-22")["part"] + ", %d colours (%s), metres" % (len(colours), ", ".join(colours)),
            max(5, lines // 2),
            "Alpha Wire 3051",
            0.40,
            "signals and ground in the looms",
        )
    )
    return out


def _input_rows(design):
    """The DC input: F1, TVS1, C_IN, Q1/Q2 and their heat sinks, the over-voltage cut-off."""
    out = []
    fuse = catalogue_parts.part(fuse_key(design))
    out.append(
        (
            fuse["part"],
            1,
            fuse["part"].split()[1],
            0.60,
            "in the +5V line right after the jack; worst case %.2f A" % catalogue_parts.worst_amps(design),
        )
    )
    p = catalogue_parts.part
    tvs = p(supply_sim.TVS)
    out.append(
        (
            tvs["part"],
            1,
            "Littelfuse " + supply_sim.TVS.upper(),
            0.45,
            "TVS1 across the jack, either way round: only transients (a hot-plug's ringing); an unregulated "
            "24 V adapter's %g V idle passes under its %.1f V stand-off"
            % (supply_sim.UNREG_IDLE, tvs["standoff_volts"]),
        )
    )
    out.append(
        (
            p(supply_sim.CIN)["part"],
            1,
            "Nichicon UES1H100MPM",
            0.40,
            "C_IN %s; bi-polar, so a reversed adapter meets it harmlessly (never a polarised one)"
            % supply_sim.CIN_PLACE,
        )
    )
    out.append(
        (
            p("sup90p06")["part"],
            2,
            "Vishay SUP90P06-09L",
            2.20,
            "Q1, Q2 back to back, sources joined, Q1's drain to F1, Q2's drain to +5V: reverse polarity "
            "and the over-voltage switch (%.2f W each at the worst case). Alternate: %s"
            % (_fet_watts(design), p("sup90p06")["alternate"].split(": ")[1].split(" (")[0]),
        )
    )
    sink = p(supply_sim.HEATSINK)
    out.append(
        (
            sink["part"],
            2,
            "Boyd (Aavid) 530002B02500G",
            1.80,
            "one on Q1, one on Q2, screwed with grease, not touching each other (the tabs are the drains): "
            "a short on the panel holds Q2 in saturation at the adapter's limit (simulated: %.1f W; "
            "allowed %.1f W)" % (_short_watts(design), supply_sim.fet_watts_allowed() * catalogue_parts.derate()),
        )
    )
    lo, hi = supply_sim.trip_window()
    out.append(
        (
            p("tl431a")["part"],
            1,
            "TI TL431ACLP",
            0.30,
            "U OVP: senses the sources through %g kOhm / %g kOhm %g %%: trips at %.2f-%.2f V"
            % (supply_sim.R_TOP / 1e3, supply_sim.R_BOT / 1e3, supply_sim.DIVIDER_TOL * 100, lo, hi),
        )
    )
    out.append(
        (
            p("2n5401")["part"],
            1,
            "onsemi 2N5401",
            0.10,
            "Q3: emitter to the sources, collector to the gates, base through R_B %g kOhm to the TL431's "
            "cathode, R_BE %g kOhm base to emitter" % (supply_sim.R_BASE / 1e3, supply_sim.R_BE / 1e3),
        )
    )
    out.append((p("1n4742a")["part"], 1, "Vishay 1N4742A", 0.10, "cathode to the sources, anode to the gates"))
    out.append(
        (
            p("res-base-2w")["part"],
            1,
            "Vishay PR02 1K5",
            0.30,
            "R_B: a 36 V adapter puts %.1f W in it while the cut-off holds" % _rbase_watts(),
        )
    )
    out.append(
        (
            p("res-divider-0.1")["part"],
            1,
            "Vishay Dale CMF5511K800BEEK + CMF5510K000BEEK",
            1.20,
            "R_TOP, R_BOT: the trip's window is the TL431's, not the divider's",
        )
    )
    out.append(
        (
            "resistors 1/4 W 1 %%: 1 MOhm (gates to ground), %g kOhm (R_BE); capacitor 100 nF 50 V film "
            "(gates to sources)" % (supply_sim.R_BE / 1e3),
            1,
            "Yageo MFR-25 + WIMA MKS2",
            0.40,
            "the cut-off's parts; see hardware/README.md, 'Supply faults, simulated'",
        )
    )
    return out


def _protection(design):
    """Supply input protection and ESD arrays on the visitor-touched lines."""
    out = _input_rows(design) if catalogue_parts.has_dc_input(design) else []
    out.extend(_group_fuse_rows(design))
    n = esd_arrays(design)
    if n:
        from .electrical import esd_need

        out.append(
            (
                catalogue_parts.part("srv05-4")["part"],
                n,
                "Semtech SRV05-4",
                0.80,
                "%d visitor-touched lines (buttons, key matrix), counted loom by loom (%s), 4 per array, at each "
                "loom's plug%s"
                % (
                    len(catalogue_parts.esd_lines(design)),
                    ", ".join("%s %d" % item for item in sorted(esd_need(design).items())),
                    PIXEL_ESD if catalogue_parts.touched_pixels(design) else "",
                ),
            )
        )
        out.append(
            (
                "SOT-23-6 to DIP-6 adapter board, 2.54 mm pitch (the SRV05-4 soldered on it at the bench, "
                "then into the stripboard)",
                n,
                "Adafruit 1230 (SOT-23 breakout) or any SOT-23-6 to DIP adapter",
                0.50,
                "one per SRV05-4",
            )
        )
    if design.matrix:
        columns = len(design.matrix["columns"])
        from .electrical import pressed_volts

        out.append(
            (
                catalogue_parts.part("key-pullup")["part"],
                columns,
                "Yageo MFR-25FBF52-4K7",
                0.05,
                "one per column, from 3.3 V to the column's wire at the loom end of its 220 Ohm: it settles in %.2f us "
                "(the scan reads after %.0f us); a whole row held reads %.2f V at worst (VIL 0.8 V); rows have no "
                "resistor"
                % (
                    _settle(design),
                    catalogue_parts.part("loom-capacitance")["settle_us"],
                    pressed_volts(design)[-1][1],
                ),
            )
        )
    if design.lamp_fuse:
        fuse = catalogue_parts.part(design.lamp_fuse)
        out.append(
            (
                fuse["part"],
                1,
                "Littelfuse RXEF050",
                0.40,
                "in the +5V lamp lead at the header breakout: %d mA with every lamp lit; a short on the panel "
                "trips it before the Pi's 5 V" % int(design.figures["leds_ma"] + 0.5),
            )
        )
    return out


def _group_fuse_rows(design):
    """The pixels fed in groups (``electrical.pixel_groups``): a 5 x 20 mm fast fuse and holder per group on the fuse
    board where the +5V loom ends, and each group's fused pair."""
    from . import electrical, harness

    fuses = electrical.feed_fuses(design)
    if not fuses:
        return []
    refs = harness.group_fuse_refs(design)
    fuse = electrical.group_fuse()
    key = catalogue_parts.part("pixel-conductor")["as"]
    rating = catalogue_parts.trusted(key, catalogue_parts.part(key)["amps"])
    lead = catalogue_parts.part(electrical.GROUP_LEAD)
    metres = int(len(fuses) * catalogue_parts.part("pixel-conductor")["far_feed_m"] + 0.999)
    ref = "%s-%s" % (refs[0], refs[-1]) if len(refs) > 1 else refs[0]
    holder = catalogue_parts.part("fuse-holder-5x20")
    return [
        (
            "%s, %g A" % (catalogue_parts.part(electrical.FUSE)["part"].split(" (")[0], fuse),
            len(fuses),
            "Littelfuse 617 series, amp code .800",
            0.40,
            "one per group of pixels (%s), in its holder on the fuse board: each carries its group's worst case, at most "
            "%.2f A (%d %% of %g A), and opens any current above the pixels' conductors' %.1f A within %g s (%d %% of its "
            "rating, IEC 60127-2); never fit a larger one"
            % (
                ", ".join(f[0].split(" (")[1].rstrip(")") for f in fuses),
                max(f[1] for f in fuses),
                int(max(f[1] for f in fuses) / fuse * 100 + 0.5),
                fuse,
                rating,
                electrical.FAULT_SECONDS,
                int(rating / fuse * 100 + 1e-9),
            ),
            ref,
        ),
        (
            "spare %g A fuses, the same" % fuse,
            2,
            "Littelfuse 617 series, amp code .800",
            0.40,
            "kept in the enclosure beside the fuse board",
        ),
        (
            holder["part"],
            len(fuses),
            "Schurter OG 0031.8201 + cover 0853.9561",
            1.50,
            "on the fuse board, one per fuse: %.0f A, the cover over the live clips" % holder["amps"],
        ),
        (
            "stripboard 50 x 80 mm (the fuse board)",
            1,
            "Vero 01-0021, cut",
            1.50,
            "beside the first pixel, where %s's loom ends: its +5V and ground strips, each with a %d AWG wire soldered "
            "along it, feed the fuses; from each fuse a group's pair (harness.svg, %s)"
            % (catalogue_parts.POWER_LOOM, catalogue_parts.part(lead_wire(design))["awg"], harness.GROUPS),
        ),
        (
            "%s, red and black, metres" % lead["part"],
            2 * metres,
            "Alpha Wire 3051",
            0.40,
            "each group's pair from its fuse to its first pixel, %d AWG behind the fuse (max %.1f m each), and the "
            "+5V cut between groups" % (lead["awg"], catalogue_parts.part("pixel-conductor")["far_feed_m"]),
        ),
    ]


PIXEL_ESD = (
    "; the pixels' loom's one sits at the first pixel (its adapter on a scrap of stripboard there), where "
    "visitors touch the pixels: I/O 1 on DIN "
    "after the 330 Ohm, pin 5 on the string's +5V, pin 2 on its ground, the other I/O pins to ground"
)


def _settle(design):
    from .electrical import column_settle_us

    return column_settle_us(design)


def _power_wire_rows(design):
    """18 AWG from the jack to the first pixel, and to the last one where the pixels are fed at both ends; the
    single-pair leads (J1's, the far end's) in 16 AWG where 18 AWG is rated below the adapter's limit
    (``electrical.lead_wire``)."""
    from .electrical import fault_amps, feed_both_ends

    both = bool(design.pixels) and feed_both_ends(design)
    far = catalogue_parts.part("pixel-conductor")["far_feed_m"]
    far_m = int(2 * far + 0.999) if both else 0
    far_words = (
        "; a second pair from J2 to the last pixel: the pixels are fed at both ends (one feed drops the far "
        "pixel below its VDD minimum or overloads the string's conductors)"
        if both
        else ""
    )
    wire = catalogue_parts.part("wire-18")
    lead = lead_wire(design)
    if lead == "wire-18":
        return [
            (
                wire["part"] + ", red and black, metres",
                2 + far_m,
                "Alpha Wire 3055",
                0.90,
                "+5V and ground from the jack to the lamps (%.1f A)%s" % (wire["amps"], far_words),
            )
        ]
    heavy = catalogue_parts.part(lead)
    return [
        (
            wire["part"] + ", red and black, metres",
            2,
            "Alpha Wire 3055",
            0.90,
            "the +5V loom, two wires each way (%.1f A each)" % wire["amps"],
        ),
        (
            heavy["part"] + ", red and black, metres",
            1 + far_m,
            "Alpha Wire 3057",
            1.40,
            "J1's lead to the stripboard%s: a single pair each, rated for the adapter's limit (%.1f A in a short; "
            "18 AWG is rated %.1f A)"
            % (
                " and the far end's pair" + far_words if both else "",
                fault_amps(design),
                catalogue_parts.trusted("wire-18", wire["amps"]),
            ),
        ),
    ]


def _short_watts(design):
    return max(
        f["fet_w_steady"] for f in supply_sim.load_results().get(design.name, {}).get("short", {}).values() or [0.0]
    )


def _rbase_watts():
    """R_B's most, over every board, case and corner."""
    return max(
        [
            f["rbase_w_steady"]
            for cases in supply_sim.load_results().values()
            for corners in cases.values()
            for f in corners.values()
        ]
        or [0.0]
    )


def _fet_watts(design):
    amps = catalogue_parts.worst_amps(design)
    return amps * amps * catalogue_parts.part("sup90p06")["rds_on_4v5"]


def text(design):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for row in rows(design):
        writer.writerow(row)
    return buf.getvalue()
