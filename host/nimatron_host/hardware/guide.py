# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The build guides as Markdown: ``hardware/README.md`` (the package, the
pin-map review, exhibit and service notes) and one ``BOARD/README.md`` per
board (parts, power, wiring, assembly, software, first power-on, self-test).
Every figure comes from the pin map and the circuit, so the text cannot
drift from the firmware.
"""

from nimatron.config import boards, power
from nimatron.config.settings import resolve

from . import checkpoints, panel, parts as parts_catalogue
from .bom import budget_words, rows as bom_rows
from .circuit import BUTTON_OHMS, DATA_OHMS, STATUS_WORDS, fuse_key, ref_ranges, revision, what_words
from .electrical import lead_wire, power_path
from .panel import BUTTON_MM, splices_needed
from .words import md_table, ohms_words

# The host-link protocol, as a link from a board's folder (hardware/BOARD/): its
# README.md and commissioning.md both sit there.
PROTOCOL_LINK = "../../docs/protocol.md"
CIRCUITPYTHON = "CircuitPython 9.x or 10.x (from circuitpython.org, the .uf2 for the Raspberry Pi Pico)"


def _total(design):
    return bom_rows(design)[-1][4]


def power_lines(design):
    """The budget in words and a table, as the guide shows it."""
    f = design.figures
    spec = design.spec
    if f["kind"] == "leds":
        return [
            "- Supply: %g V %g A (the Raspberry Pi's own), loaded to at most %d %%: %d mA."
            % (f["volts"], f["amps"], int(power.DERATE * 100), int(f["allowed_ma"])),
            "- The Pi itself: up to %d mA." % f["board_ma"],
            (
                "- %d LEDs (Vf %.1f V, rated %g mA) through %d Ω from %.1f V pins: %.2f mA each, **%.1f mA with every "
                "lamp lit**, within the %d mA the GPIO pins may give together (%d mA per pin)."
                % (
                    f["lamps"],
                    spec["led"]["vf"],
                    spec["led"]["ma"],
                    f["ohms"],
                    f["logic_volts"],
                    f["led_ma"],
                    f["leds_ma"],
                    f["total_limit_ma"],
                    f["pin_limit_ma"],
                )
            )
            if not spec["led"].get("sink")
            else (
                "- %d LEDs (Vf %.1f V, run at %g mA) through %d Ω from the Pi's +5 V, switched by ULN2803A sink "
                "drivers: %.1f mA each, **%d mA with every lamp lit**; the GPIO pins give only the drivers' inputs, "
                "at most %.2f mA each, %.0f mA together (they may give %d mA together, %d mA per pin)."
                % (
                    f["lamps"],
                    spec["led"]["vf"],
                    spec["led"]["ma"],
                    f["ohms"],
                    f["led_ma"],
                    int(f["leds_ma"] + 0.5),
                    f["pin_ma"],
                    f["pins_ma"],
                    f["total_limit_ma"],
                    f["pin_limit_ma"],
                )
            ),
            "- Worst case: **%d mA of %d mA**. The LEDs are not dimmable (the `brightness` setting is refused here)."
            % (int(f["worst_ma"] + 0.5), int(f["allowed_ma"])),
        ]
    level = spec.get("brightness", 1.0)
    return [
        "- Supply: %g V %g A, loaded to at most %d %%: %d mA."
        % (f["volts"], f["amps"], int(power.DERATE * 100), int(f["allowed_ma"])),
        "- On the same supply: %d mA for the controller; %d pixels draw %d mA dark (%d mA each) and up to %d mA "
        "at full white and full brightness (%d mA each)."
        % (f["board_ma"], f["lamps"], f["dark_ma"], power.DARK_MA, f["full_ma"], power.PIXEL_MA),
        "- At the pin map's brightness %.2f the worst case is **%d mA of %d mA**; the highest brightness this "
        "supply allows is **%.2f**." % (level, int(power.worst_ma(f, level) + 0.5), int(f["allowed_ma"]), f["cap"]),
        "- The firmware refuses more at start-up and on `SET brightness` with the figures in the message; "
        "`nimatron power --board %s [--supply-amps A]` prints this budget." % design.name,
    ]


def _most_loaded(design):
    """The part of the supply path or a loom that carries the largest share of its rating."""
    loads = []
    for ref, key, amps in power_path(design) + parts_catalogue.signal_looms(design):
        p = parts_catalogue.part(key)
        rating = parts_catalogue.hold_at_cabinet(key) if p["kind"] == "fuse" else p["amps"]
        loads.append((amps / rating, ref, p["part"].split(",")[0].split(" (")[0], amps, rating))
    if not loads:
        return "USB supply only"
    share, ref, what, amps, rating = max(loads)
    return "%s %s: %.2f of %.1f A (%d %%)" % (ref, what, amps, rating, int(share * 100 + 0.5))


def _tiles(design):
    return panel.tiles(design.name, design.spec) if not design.onboard else []


def _tile_links(design):
    n = len(_tiles(design))
    return (
        ""
        if not n
        else " and, for a %d x %d mm laser bed, its %d tiles (%s) and the splice rib%s behind the "
        "join%s (%s)"
        % (
            panel.BED_MM[0],
            panel.BED_MM[1],
            n,
            ", ".join("[panel-tile-%d.svg](panel-tile-%d.svg)" % (i + 1, i + 1) for i in range(n)),
            "s" if n > 2 else "",
            "s" if n > 2 else "",
            ", ".join("[panel-splice-%d.svg](panel-splice-%d.svg)" % (i + 1, i + 1) for i in range(n - 1)),
        )
    )


def _tile_words(design):
    n = len(_tiles(design))
    return (
        ""
        if not n
        else (
            "; on a bed smaller than the panel cut the %d tiles `panel-tile-1.svg`...`panel-tile-%d.svg` instead (no hole "
            "crosses a join). Behind each join glue the splice rib `panel-splice-N.svg` (the same sheet, %d mm high, "
            "the seam engraved along its middle; its cut-outs clear every button, key and lamp body), so the keys "
            "beside the seam are carried across it, and screw two 40 x 40 mm plates of the same sheet at the left "
            "and right edges through the corner holes of the two tiles" % (n, n, panel.SPLICE_MM)
        )
    )


def board_guide(design):
    """The board's build guide (its README.md), section by section."""
    out = _intro_lines(design)
    out += [
        "## Parts",
        "",
        "Approximate cost **%s USD** for one machine (single units; see [bom.csv](bom.csv) for example part "
        "numbers and notes)." % _total(design),
        "",
    ]
    out += md_table(["ref", "part", "qty"], [[row[0] or "", row[1], row[2]] for row in bom_rows(design)[1:-1]])
    out += ["", "## Power budget", ""] + power_lines(design) + [""]
    out += ["## Tools", "", tools_line(design), ""]
    out += _wiring_lines(design)
    out += ["## Assembly, step by step", ""] + _numbered(assembly_steps(design)) + [""]
    out += checkpoints.guide_lines(design)
    out += ["## Software", ""] + _numbered(software_steps(design)) + [""]
    out += ["## First power-on and self-test", ""] + _numbered(self_test(design)) + [""]
    out += checkpoints.trouble_lines(design)
    out += (
        [
            "## Safety",
            "",
            "- Low voltage only (5 V); the mains side stays inside the supply's own closed case. Use a certified "
            "supply (CE/UKCA/UL) and keep its cable strain-relieved.",
        ]
        + safety_lines(design)
        + [
            "- The museum's safety sheet: [safety.md](safety.md) (supply faults as simulated, heat, small parts).",
            "- See the exhibit and service notes in [../README.md](../README.md#exhibit-and-service-notes).",
            "",
        ]
    )
    return "\n".join(out)


def _numbered(steps):
    return ["%d. %s" % (i + 1, step) for i, step in enumerate(steps)]


def _intro_lines(design):
    """The title, what the board plays, the drawings' revision and the files."""
    name, spec = design.name, design.spec
    settings = resolve({}, spec["preset"])
    layout = boards.layout(spec)
    out = [
        "# Build a Nimatron: `%s`" % name,
        "",
        "<!-- generated by `nimatron hardware` from firmware/nimatron/config/pinmaps/%s.json: edit that, then run it -->"
        % name,
        "",
        "%s. It plays the `%s` preset out of the box (%s%s), %s lamps in rows of %s."
        % (
            what_words(design),
            spec["preset"],
            settings["rules"],
            ", misère" if settings["misere"] else "",
            sum(layout),
            "-".join(str(n) for n in layout),
        ),
        "",
        "*Drawings: %s.* The machine answers `HELLO` (`nimatron monitor`) with the same version and "
        "`pinmap_crc`: if they differ, these drawings are not this machine's." % revision(name),
        "",
    ]
    if design.onboard:
        return out + [
            "Everything is on the board: its keys and pixels are the panel, so there is no panel to cut and "
            "nothing to wire. Controls: %s." % spec["about"].split(":", 1)[-1].strip(),
            "",
            "Files: [bill of materials](bom.csv) · [pin diagram](wiring.svg) · [commissioning sheet]"
            "(commissioning.md).",
            "",
        ]
    return out + [
        "![front panel](panel.png)",
        "",
        "Files: [bill of materials](bom.csv) · [wiring diagram](wiring.svg) · [harness](harness.svg) (each "
        "loom's pin-out, wire colours and gauges) · [commissioning sheet](commissioning.md) · [front panel "
        "for cutting](panel.svg)%s%s. The panel file is laser-ready: layer `cut` (red #ff0000 strokes of 0.01 mm, no "
        "fill: cut through; every hole drawn %s mm under its part's size for the laser's kerf, so set no kerf "
        "offset, and cut one button hole and one lamp hole in an off-cut first), layer `engrave` (black). "
        "**%s** `nimatron hardware --lang es|ru` writes the panel in Spanish or Russian."
        % (
            _tile_links(design),
            " · [enclosure](enclosure.svg) (the service face with the socket)"
            if parts_catalogue.has_dc_input(design)
            else "",
            panel.num(panel.KERF_MM),
            panel.OUTLINES,
        ),
        "",
    ]


CHAIN_ENDS = {
    "gnd": " → ground",
    "row": " → key matrix row",
    "column": " → key matrix column",
    "+5v": " → +5V",
    "pixels": "",
    "onboard": "",
}


def _wiring_lines(design):
    """The wiring diagram, every pin's line in words, and the harness."""
    out = [
        "## Wiring",
        "",
        "![wiring diagram](wiring.png)",
        "",
        "Every line comes from the pin map; the table is the same in words (header pin = the physical pin to "
        "solder to).",
        "",
    ]
    table = []
    for chain in design.chains:
        table.append(
            [
                "`%s`" % chain.pin,
                "built in" if chain.header is None else chain.header,
                chain.label,
                (
                    " → ".join(
                        "%s %s" % (ref, label) if kind != "pixels" else "%s DIN" % ref
                        for kind, ref, label in chain.items
                    )
                    or "no resistor"
                )
                + CHAIN_ENDS[chain.end],
            ]
        )
    out += md_table(["pin", "header pin", "role", "through"], table) + [""]
    if not design.onboard:
        out += [
            "## Harness",
            "",
            "![harness](harness.png)",
            "",
            "Every loom from its plug at the stripboard to the parts it reaches: contact, pin-map line, wire "
            "colour and gauge. The J-numbers are the bill of materials'.",
            "",
        ]
    return out


def tools_line(design):
    """Only the tools this board's build uses."""
    if design.onboard:
        return (
            "A computer with this repository installed (`./run.sh` sets it up), the USB data cable, a "
            "screwdriver for the case."
        )
    crimpers = "JST-XH" + (" and Mini-Fit Jr." if parts_catalogue.has_dc_input(design) else "")
    return (
        "Soldering iron (fine tip) and lead-free solder, side cutters, wire stripper, crimp tool for %s, "
        "multimeter with a diode test, a 30 mm hole saw or the laser-cut panel, screwdrivers, a computer with "
        "this repository installed (`./run.sh` sets it up)." % crimpers
    )


def safety_lines(design):
    """Only the hazards this board has."""
    neo = design.neopixel
    if design.onboard:
        return ["- Power it from the USB adapter in the parts list; keep the cable clamped inside the case."]
    return [
        "- Wire every ground before power; never plug a %s in while its ground is loose."
        % ("strip's data line" if neo else "loom"),
        "- %s"
        % (
            "The pixels' supply and the Pi's supply are separate: join their grounds, never their +5 V."
            if neo and not design.pico
            else "Unplug the supply before changing wiring."
        ),
    ]


def assembly_steps(design):
    """The build in the order a builder works: panel, lamps, switches, looms, controller."""
    if design.onboard:
        return [
            "Nothing to solder: put the board in its case with the keys reachable and the USB socket free.",
            "Clamp the USB cable inside the case within 50 mm of the board (strain relief); power it from the "
            "USB adapter (%s), not from a museum PC (see the service notes)." % design.supply,
            "Mount the case with the keys 380-1220 mm above the floor.",
        ]
    lamps = _pixel_steps(design) if design.neopixel else _led_steps(design)
    return [_panel_step(design)] + lamps + _switch_steps(design) + _loom_steps(design)


def _panel_step(design):
    refs = {line[1]: ref_ranges(line[3]) for line in design.parts.lines}
    return (
        "Cut or print the front panel from `panel.svg` (1:1, millimetres). First cut one button hole and one "
        "lamp hole in an off-cut of the same sheet: the button must snap in and hold (snap-in buttons are made "
        "for thin panels; if the clips do not catch in your sheet, counterbore the holes from behind to about "
        "2 mm or use screw-in buttons)%s%s. Fix it with M4 screws through its %.1f mm holes, %d mm in from the "
        "edges. Fit the %s arcade buttons and %s."
        % (
            ", and a diffuser must need a firm push" if parts_catalogue.lamp_hole(design)[1] == "diffuser-12" else "",
            _tile_words(design),
            panel.FIXING_MM,
            panel.FIXING_INSET,
            refs.get("arcade button", "")
            + (", " + refs["key (arcade button)"] if "key (arcade button)" in refs else ""),
            lamp_fitting_words(design),
        )
        + _inlet_words(design)
    )


def _inlet_words(design):
    """Where the supply comes in: the service face, never the panel (enclosure.svg)."""
    if not parts_catalogue.has_dc_input(design):
        return ""
    from .enclosure import JACK_FROM_BOTTOM_MM, JACK_FROM_SIDE_MM, marking

    cut = parts_catalogue.part(parts_catalogue.JACK)["cutout"]
    return (
        " The DC inlet %s (a keyed, locking 4-pin power DIN: only the adapter's KPPX-4P plug fits, and it latches "
        "in) goes in the removable back, the service face, never in the panel (a visitor would "
        "unplug it or plug something in): %d mm from its right edge and %d mm from its bottom seen from behind, "
        "as [enclosure.svg](enclosure.svg) draws it: a %g mm square opening and two %g mm holes %g mm apart on "
        'the key\'s axis, the back pocketed from inside to %g mm there, the jack behind it on %s; mark "%s" '
        "and the socket's pin symbol beside it, and clamp the adapter's lead in the P-clip below it. Leave its "
        "four tails apart until the first checkpoint has measured them with the adapter plugged in: join %s "
        "(+) and %s (−) only when every reading matches (Mean Well numbers the plug's contacts otherwise than "
        "Kycon numbers the jack's; a + tail joined to a − tail shorts the adapter). %s"
        % (
            design.jack,
            JACK_FROM_SIDE_MM,
            JACK_FROM_BOTTOM_MM,
            cut["side_mm"],
            cut["screw_hole_mm"],
            cut["screw_pitch_mm"],
            cut["max_wall_mm"],
            cut["screw"].replace(", from", " screws from"),
            "; ".join(marking(design)[:2]),
            parts_catalogue.pair("+"),
            parts_catalogue.pair("-"),
            _fault_choice_words(design),
        )
    )


def _fault_choice_words(design):
    """Why this board's leads are the gauge they are, and what its pixels' conductors still lack
    (``electrical.fault_check``)."""
    from . import electrical

    lead = parts_catalogue.part(lead_wire(design))
    words = (
        "A short behind %s draws the adapter's limit, %.1f A, until it is unplugged: the inlet (%.1f A per pin) "
        "and the single leads (%d AWG, %.1f A%s) are rated for it."
        % (
            design.jack,
            electrical.fault_amps(design),
            parts_catalogue.trusted(parts_catalogue.JACK, parts_catalogue.part(parts_catalogue.JACK)["amps"]),
            lead["awg"],
            parts_catalogue.trusted(lead_wire(design), lead["amps"]),
            "; 18 AWG would be rated only %.1f A"
            % parts_catalogue.trusted("wire-18", parts_catalogue.part("wire-18")["amps"])
            if lead["awg"] != 18
            else "",
        )
    )
    fused = electrical.fault_fused(design)
    if fused:
        words += (
            " The pixels' own conductors and the groups' 22 AWG pairs (%.1f A) are not, so each group of "
            "pixels has its own %g A fast fuse on the fuse board: it carries its group's worst case, %.2f A at "
            "most, and opens any current above %.1f A within %g s (IEC 60127-2)."
            % (
                fused[0][4],
                electrical.group_fuse(),
                max(f[1] for f in electrical.feed_fuses(design)),
                fused[0][4],
                electrical.FAULT_SECONDS,
            )
        )
    short = [r for r in electrical.fault_short_of(design) if r[0] == "pixel conductors" and r not in fused]
    if short:
        words += (
            " The pixels' own conductors (%.1f A) are not: a fuse per feed that carries the feed's worst case "
            "opens at %.1f A only after minutes or never (IEC 60127-2), so inspect the string after any short "
            "(the safety sheet)." % (short[0][4], electrical.fault_amps(design))
        )
    return words


def _pixel_steps(design):
    """NeoPixels: the pixels behind their holes, the level shifter, the capacitor, the DC input, the controller's feed."""
    spec = design.spec
    out = []
    if spec["lamps"].get("fixed"):
        out.append(
            "Push the pixels (%s) into the lamp holes from behind in chain order: pixel 0 is the first "
            "after the data input. Lamps first (row by row, left to right%s), then the %d status pixels "
            "(%s) under the status words."
            % (
                design.pixels["ref"],
                "; on the ring clockwise from the top" if spec["lamps"].get("shape") == "ring" else "",
                len(spec["lamps"]["status"]),
                ", ".join("%d %s" % (p, STATUS_WORDS[r]) for p, r in zip(spec["lamps"]["status"], boards.STATUS)),
            )
        )
        out.append(splice_words(design))
    else:
        out.append(
            "Cut the strip (%s) at the copper pads: the status pixels (%s: %s) each on its own, since "
            "their holes are farther apart than the strip's 16.7 mm pitch, and one segment per row of %s; "
            "stick each behind its holes and join them DOUT→DIN with three short 22 AWG wires "
            "(+5V, data, ground), keeping the arrow direction. The strip has %d pixels, one per hole."
            % (
                design.pixels["ref"],
                ", ".join(str(p) for p in spec["lamps"]["status"]),
                ", ".join(STATUS_WORDS[r] for r in boards.STATUS),
                "-".join(str(n) for n in spec["lamps"]["layout"]),
                spec["lamps"]["pixels"],
            )
        )
    out.append(
        "On the stripboard: the 74AHCT125 (%s) in its socket, pin 1 (1OE) and pins 5, 9, 12 to ground, "
        "pins 4, 10, 13 and 14 to +5V, pin 7 to ground; the data pin of the controller to pin 2, pin 3 "
        "through the %d Ω resistor to the first pixel's DIN. The 100 nF capacitor (%s) straight across "
        "the socket's pins 14 and 7, legs short: it feeds the chip's switching edges."
        % (design.pixels["shifter"], DATA_OHMS, design.pixels["decoupler"])
    )
    out.append(
        "Solder the 1000 µF capacitor (%s) across +5V and ground at the first pixel, + to +5V (the "
        "stripe marks −)." % design.pixels["cap"]
    )
    groups = fuse_board_words(design)
    if groups:
        out.append(groups)
    out.append(_input_protection_step(design))
    if design.pico:
        out.append(
            "Feed the Pico from the same +5V through the 1N5817 (%s): band towards VSYS (pin 39); "
            "ground to pin 38." % design.vsys_diode
        )
    else:
        out.append(
            "Join the supply's ground to the Pi's ground (header pin 6); the Pi keeps its own USB-C "
            "supply (%s). Never join the two +5 V." % design.pi_supply
        )
    return out


def _input_protection_step(design):
    """The DC input between the jack and +5V, as input.svg draws it, and the power loom to the pixels."""
    from . import electrical, supply_sim

    fuse = parts_catalogue.part(fuse_key(design))["part"].split(" resettable")[0]
    both = bool(design.pixels) and electrical.feed_both_ends(design)
    return (
        (
            "Input protection at the DC jack (%s), all through-hole, as [input.svg](input.svg) draws it (the "
            "pin-outs are on it): the %s TVS across the jack; +5V through the %s polyfuse to Q1's drain; the "
            "10 µF 50 V bi-polar C_IN %s; Q1 and Q2 (SUP90P06-09L) back to back, each on its heat sink, sources "
            "joined, Q2's drain to +5V; gates joined, 1 MΩ to ground, 100 nF and the 1N4742A (cathode to the "
            "sources) from gates to sources; the over-voltage cut-off: %s from the sources to the TL431's REF, %s "
            "REF to ground (both 0.1 %%), TL431 anode to ground, cathode through R_B %s (2 W) to the 2N5401's base, "
            "R_BE %s base to emitter, emitter to the sources, collector to the gates. Test it on the bench before "
            "it goes in (the commissioning sheet's first table). A 9, 12 or 24 V adapter, or one wired backwards, "
            "then leaves +5V at 0 V (hardware/README.md, 'Supply faults, simulated'). From there run +5V and "
            "ground in 18 AWG through the 4-way Mini-Fit Jr. plug (two contacts each) to the %s%s; the "
            "worst case the firmware allows is %.2f A."
            % (
                design.jack,
                supply_sim.TVS.upper(),
                fuse,
                supply_sim.CIN_PLACE,
                ohms_words(supply_sim.R_TOP),
                ohms_words(supply_sim.R_BOT),
                ohms_words(supply_sim.R_BASE),
                ohms_words(supply_sim.R_BE),
                "fuse board beside the first pixel" if electrical.pixel_groups(design) else "first pixel",
                ", and a second 18 AWG pair from J2 to the last pixel: fed at one end, the farthest pixel would get "
                "%.2f V and the string's conductors %.2f A" % electrical.pixel_figures(design)["one end"][:2]
                if both
                else "",
                parts_catalogue.worst_amps(design),
            )
        )
        + " "
        + input_choice_words(design)
    )


def fuse_board_words(design):
    """The fuse board and the groups' pairs where the pixels are fed in groups (``electrical.pixel_groups``)."""
    from . import electrical, harness

    groups = electrical.pixel_groups(design)
    if not groups:
        return ""
    refs = harness.group_fuse_refs(design)
    figures = electrical.pixel_figures(design)
    return (
        "The fuse board (a 50 × 80 mm piece of stripboard beside the first pixel): J2's loom lands on a +5V and "
        "a ground strip, each with a %d AWG wire soldered along it; on the +5V strip %d fuse holders with their "
        "covers, one %g A fast fuse each (%s). The pixels are fed in %d groups: %s. Cut the +5V between one "
        "group's last pixel and the next group's first (data and ground stay joined), and run a red and black "
        "22 AWG pair from each fuse and the ground strip to its group's first pixel. Fed so, the farthest pixel "
        "gets %.2f V at the worst case on the adapter's −5 %% and no conductor carries more than %.2f A; a short "
        "in a group opens its fuse within %g s and darkens that group only."
        % (
            parts_catalogue.part(lead_wire(design))["awg"],
            len(groups),
            electrical.group_fuse(),
            "%s-%s" % (refs[0], refs[-1]) if len(refs) > 1 else refs[0],
            len(groups),
            ", ".join("%s pixels %d-%d" % (ref, first, first + size - 1) for ref, (first, size) in zip(refs, groups)),
            figures["in groups"][0],
            figures["in groups"][1],
            electrical.FAULT_SECONDS,
        )
    )


USB_C_WEAKER = (0.5, 0.9, 1.5)  # what a USB-C source may offer below 3 A: USB 2.0 and 3.x default power, 1.5 A
USB_C_AMPS = 3.0  # the most a USB-C source offers at 5 V without PD (Type-C Current @ 3.0 A; 5.1 kOhm CC pull-downs)


def input_choice_words(design):
    """Why this board takes a keyed DC inlet with the proven stage and not a USB-C 5 V sink, from its power budget."""
    worst = parts_catalogue.worst_amps(design)
    usable = USB_C_AMPS * parts_catalogue.derate()
    if worst > usable:
        reason = (
            "its worst case, %.2f A, is more than a USB-C source gives at 5 V without PD (%.1f A, %.1f A with "
            "the design's 80 %% margin)" % (worst, USB_C_AMPS, usable)
        )
    else:
        weaker = " or ".join("%g A" % a for a in USB_C_WEAKER if a < worst)
        reason = (
            "its worst case, %.2f A, would fit a 3 A USB-C source (%.1f A with the 80 %% margin), but a sink "
            "with only the 5.1 kΩ CC pull-downs cannot refuse a weaker one: a source that offers %s "
            "would be overloaded at the brightness cap, and the controller does "
            "not read CC to know; the locking 4-pin inlet with its stage is one part, proven at its corners (the "
            "simulation and the bench test) for every board that has one" % (worst, usable, weaker)
        )
    return "Why a keyed DC inlet and not a USB-C 5 V sink: %s." % reason


def _monthly_supply(designs):
    """The monthly supply reading of every board with a DC jack and pixels, with limits a good machine meets
    (the commissioning sheet's for +5V at J2, the pixel rule's at the farthest pixel)."""
    from . import checkpoints, electrical

    limits = []
    for d in designs:
        if not parts_catalogue.has_dc_input(d) or not d.pixels:
            continue
        lo, hi = checkpoints.lamp_rail(d, loaded=True)
        far = min(electrical.pixel_ladder(d, electrical.feed_both_ends(d), lo)[0])
        limits.append("`%s` %.2f–%.2f V and at least %.2f V" % (d.name, lo, hi, far - 0.02))
    if not limits:
        return ""
    return "with all lamps lit, measure +5V at %s pins 1 to 3 (as commissioned) and at the farthest pixel: %s; " % (
        parts_catalogue.POWER_LOOM,
        "; ".join(limits),
    )


def _led_steps(design):
    """LEDs: each in its bezel with its resistor, or behind a diffuser on a ULN2803A sink driver."""
    spec = design.spec
    if not spec["led"].get("sink"):
        return [
            "Put each LED in its bezel (long leg = anode). Solder its %d Ω resistor to the anode and run "
            "the cathodes to a common ground wire; check each with the multimeter's diode test before wiring "
            "on." % design.figures["ohms"]
        ]
    led = parts_catalogue.part(parts_catalogue.spec_lamp_part(spec))
    return [
        "Fix each LED (%s) centred 3-5 mm behind its diffuser and the retaining plate's window "
        "(a 5 mm LED holder on a strip of card or plywood): its %d° beam lights the disc, "
        "and the disc glows for a visitor standing to the side. Long leg (anode) to its %d Ω "
        "resistor, the resistors' other ends to one +5V wire (header pin 2 or 4)."
        % (led["part"].split(" 5 mm")[0], led["beam_deg"], design.figures["ohms"]),
        "On the stripboard: the ULN2803A drivers (%s) in DIP-18 sockets, pin 9 to ground, pin 10 (COM) "
        "not connected. Each lamp's GPIO pin goes to a driver input (pins 1-8) and that channel's output "
        "(pins 18-11) to the LED's cathode (short leg), as the wiring drawing numbers them. Check each "
        "LED with the multimeter's diode test before wiring on." % ref_ranges(design.sinks),
    ]


def _switch_steps(design):
    """The buttons' microswitches and the key matrix's diodes."""
    out = [
        "Each button's microswitch has two 2.8 mm (0.110 in) tabs, normally open (NO): push a 2.8 mm "
        'insulated quick-disconnect on each, one to ground (the "COM" of the drawings), the other through '
        "its %d Ω resistor to its pin (the wiring table). A switch with three tabs: COM to ground, NO to the "
        "line, NC left free. No pull-up resistors: the firmware switches on the board's own." % BUTTON_OHMS
    ]
    if design.matrix:
        m = design.matrix
        out.append(
            "Key matrix (%d × %d): solder a BAT85 (a Schottky: not a 1N4148, whose drop a held key cannot "
            "read) to the line tab (NO) of each key's quick-disconnect lead, band (cathode) towards the key; "
            "join the diodes' free ends (anodes) of one column to that column's wire, and the keys' other "
            "(COM) tabs of one row to that row's wire. Each column wire has its %d Ω resistor at the "
            "board; a row wire goes straight to its pin (it carries every held key's current)."
            % (len(m["rows"]), len(m["columns"]), BUTTON_OHMS)
        )
    return out


def _loom_steps(design):
    """The looms, the checks before the controller goes in, and the controller."""
    out = []
    if design.pixels:
        out.append(
            "The NeoPixel data has a loom of its own (%s, the last J-number, a 2-way JST-XH that no "
            "button header takes): data and ground twisted together, at most %d mm from the stripboard to "
            "the first pixel, so place the stripboard near it; never bundle the data with the button or key "
            "wires."
            % (
                [ref for ref, chains in parts_catalogue.looms(design) if chains[0].group == parts_catalogue.DATA_GROUP][
                    0
                ],
                parts_catalogue.DATA_LOOM_MAX_MM,
            )
        )
    out.append(
        "Bundle the signal wires into looms (lamps, buttons%s) with a keyed 8-way JST-XH plug each at the "
        "stripboard (22 AWG, SXH-001T-P0.6 crimps), and clamp every loom within 50 mm of its plug. At each "
        "button and key-matrix plug, an SRV05-4 ESD array: its four lines to the four signal wires, pin 2 to "
        "ground, pin 5 to the board's 3.3 V; a loom's lines never share another loom's array."
        % (", key matrix" if design.matrix else "")
        + (
            " Each key-matrix column gets a %g kΩ pull-up from 3.3 V to its wire at the loom end of its "
            "220 Ω resistor (the loom is too slow for the pin's own pull-up)." % (design.matrix["pullup_ohms"] / 1000.0)
            if design.matrix
            else ""
        )
    )
    out.append(
        "Before the %s goes in: the power input's and the looms' checkpoints (%s, below), and 0 Ω "
        "between every ground point." % ("controller" if design.pico else "Pi", before_controller(design))
    )
    out.append(
        "Plug the %s onto its header or ribbon cable%s."
        % (
            "Raspberry Pi Pico" if design.pico else "Raspberry Pi",
            " (the pins of the table above: header pin numbers count from the USB end, 1 top left)"
            if design.pico
            else " (pin 1 is the corner nearest the SD card; odd pins on the inside row)",
        )
    )
    return out


def splice_words(design):
    pitch = parts_catalogue.part(parts_catalogue.BULLET_PIXEL)["string_pitch_mm"]
    need = splices_needed(design)
    if not need:
        return "The string's %d mm between pixels reaches every next hole (with %d mm of slack): no splices." % (
            pitch,
            panel.PIXEL_SLACK_MM,
        )
    return (
        "Splice plan: the string has about %d mm of cable between pixels; %d gaps need more (the straight "
        "distance plus %d mm of slack). At each, cut the string's cable midway and solder in 4-core extension "
        "wire (all four conductors, colour to colour), heat-shrink every joint, and check DOUT→DIN direction: "
        "%s. Total extension: %d mm."
        % (
            pitch,
            len(need),
            panel.PIXEL_SLACK_MM,
            "; ".join("%s→%s +%d mm" % (a, b, mm) for a, b, mm in need),
            sum(mm for _, _, mm in need),
        )
    )


def lamp_fitting_words(design):
    """How the lamp holes are filled: bezels, pixels, or diffusers held captive."""
    key = parts_catalogue.lamp_hole(design)[1]
    if key == "led-bezel-5":
        return "the lamp bezels"
    if key != "diffuser-12":
        return "nothing in the lamp holes yet (the pixels come from behind)"
    retainer = parts_catalogue.part("diffuser-retainer")
    return (
        "press a diffuser disc into each lamp hole from the front, flush (the hole is %s mm under the disc: a "
        "press fit), then glue the retaining plate behind them, its %g mm windows centred on the holes: a disc "
        "pushed from the front cannot fall in, and none can be picked out"
        % (panel.num(parts_catalogue.part(parts_catalogue.DIFFUSER)["press_fit_mm"]), retainer["window_mm"])
    )


def before_controller(design):
    """The checkpoints to pass before the controller goes in."""
    ids = [cp["id"] for cp in checkpoints.checkpoints(design) if cp["stage"] in ("power", "looms")]
    return "%s-%s" % (ids[0], ids[-1])


def software_steps(design):
    """Putting the firmware on: CircuitPython and ``nimatron deploy``, or Raspberry Pi OS and a service."""
    if design.pico or design.onboard:
        return _circuitpython_steps(design)
    steps = _pi_setup_steps(design)
    if design.neopixel:
        steps += _pi_pixel_steps(design)
    return steps + _pi_service_steps(design)


def _circuitpython_steps(design):
    name = design.name
    first = (
        "Hold BOOTSEL on the Pico, plug it into a computer, copy %s onto the RPI-RP2 drive; it comes back "
        "as CIRCUITPY." % CIRCUITPYTHON
        if design.pico
        else "Install CircuitPython 9.x or 10.x for the %s (double-press reset for its boot drive, copy the "
        ".uf2 from circuitpython.org); it comes back as CIRCUITPY." % design.title
    )
    return [
        first,
        "On the computer, in this repository: `./run.sh deploy --to /media/$USER/CIRCUITPY --board %s` "
        "(`--dry-run` first to see what it writes; it copies the `neopixel` library and `lib/nimatron` with "
        "this pin map, writes `settings.json`, never deletes what it did not put there)." % name,
        "Eject the drive before unplugging. The board restarts into attract mode.",
        'Change the game later with `settings.json` on the drive (e.g. `{"board": "%s", "preset": '
        '"nim", "brightness": %.2f}`) or over the host link: `nimatron config PORT brightness 0.3`.'
        % (name, design.spec.get("brightness", 1.0)),
    ]


def _pi_setup_steps(design):
    """Raspberry Pi OS, the serial console off, the repository in a venv."""
    return [
        "Write Raspberry Pi OS Lite (64-bit, Bookworm or later) to the microSD card with Raspberry Pi Imager; set "
        "a user, Wi-Fi or Ethernet and SSH there.",
        "Switch the serial console off (`sudo raspi-config nonint do_serial_cons 1`): %s."
        % ("GPIO14/15 carry status lamps on this board" if not design.neopixel else "the UART pins stay quiet"),
        "`sudo apt update && sudo apt install -y git python3-venv python3-dev python3-lgpio`",
        "`git clone` this repository, then in it: `python3 -m venv --system-site-packages .venv && "
        ".venv/bin/pip install .` (`--system-site-packages` lets gpiozero find Debian's lgpio, its pin library on "
        "every Pi including the Pi 5; without it gpiozero warns `No module named 'lgpio'`; "
        "`.venv/bin/pip install lgpio` works too).",
    ]


def _pi_pixel_steps(design):
    """NeoPixels on a Pi: Blinka's back end for a Pi 5 or a Pi 4, RPi.GPIO, the PIO device."""
    return [
        "NeoPixels through Blinka: on a **Pi 5** `.venv/bin/pip install adafruit-blinka-raspberry-pi5-neopixel` "
        "(drives the strip through the RP1's PIO, needs an up-to-date OS: `sudo apt full-upgrade`). On a "
        "**Pi 4 or earlier** `.venv/bin/pip install rpi_ws281x` and switch SPI on (`sudo raspi-config nonint "
        "do_spi 0`) and, on a Pi 4, fix the core clock in `/boot/firmware/config.txt` (`core_freq=500` and "
        "`core_freq_min=500`): the data pin %s is SPI MOSI, which rpi_ws281x drives without root and without "
        "taking the PWM that analog audio needs." % design.spec["lamps"]["pin"],
        "On a **Pi 4 or earlier** Blinka's `board` and `digitalio` import `RPi.GPIO`, which Raspberry Pi OS "
        "Lite does not install: `sudo apt install -y python3-rpi-lgpio` (rpi-lgpio: the RPi.GPIO interface on "
        "the kernel's gpiochip device; the venv sees it through `--system-site-packages`). Never install "
        "`RPi.GPIO` and `rpi-lgpio` side by side: both provide the `RPi.GPIO` module (rpi-lgpio documentation, "
        "'Installation'). Check: `.venv/bin/python -c 'import RPi.GPIO, board, neopixel'` prints nothing.",
        "On a **Pi 5** the service (which runs as your user, in the `gpio` group) needs the PIO device: "
        "`ls -l /dev/pio0` must show group `gpio`. If it shows `root root`, add the line "
        '`SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"` to `/etc/udev/rules.d/99-pio.rules` and reboot.',
    ]


def _pi_service_steps(design):
    """Trying it, the service, the watchdog, and keeping the state through power cuts."""
    name = design.name
    return [
        "Try it: `.venv/bin/python -m nimatron --board %s` (game events print as JSON lines; Ctrl-C stops it and "
        "puts the lamps out)." % name,
        "Start it on every boot: `sudo .venv/bin/nimatron install-pi --board %s`, then `sudo systemctl "
        "daemon-reload && sudo systemctl enable --now nimatron` (`journalctl -u nimatron -f` shows its log)." % name,
        "The hardware watchdog: add `dtparam=watchdog=on` to `/boot/firmware/config.txt` and "
        "`RuntimeWatchdogSec=15s` under `[Manager]` in `/etc/systemd/system.conf`, reboot: a hung Pi restarts "
        "itself (the nimatron unit's own watchdog restarts a hung game). Logs to RAM, so the card is written "
        "less: `sudo mkdir -p /etc/systemd/journald.conf.d && printf '[Journal]\\nStorage=volatile\\n' | sudo tee "
        "/etc/systemd/journald.conf.d/volatile.conf`.",
        "Keep the audits and settings through power cuts: they live in `/var/lib/nimatron/state.bin`, written "
        "atomically (temporary file, fsync, rename), which the SD card's ext4 keeps. **Do not** switch on the "
        "read-only overlay (`raspi-config` `do_overlayfs`) with the state on the card: the overlay keeps every "
        "write in RAM, and each power cut would reset the audits and the settings to the factory's. Where the "
        "card must be read-only, first give the state a writable file system of its own outside the overlay "
        "(a small ext4 partition or a USB stick, mounted at `/var/lib/nimatron` from `/etc/fstab`), then "
        "`sudo raspi-config nonint do_overlayfs 0` and reboot; `findmnt /var/lib/nimatron` must not say "
        '`overlay`, and the boot line\'s `"restored": "stored"` after a power cut shows it works.',
    ]


def self_test(design):
    spec = design.spec
    layout = boards.layout(spec)
    cps = checkpoints.checkpoints(design)
    first = [cp["id"] for cp in cps if cp["key"] == "no-short"]
    out = []
    if first:
        out.append(
            "Supply off, controller out: no short between +5V and ground (%s; the multimeter's reading climbs "
            "as the capacitors charge; it must not stay near 0 Ω)." % first[0]
        )
    elif not design.onboard:
        out.append("Controller out: no loom line shorted to ground or to its neighbour (the looms' checkpoints).")
    out += [
        "Power on. Attract mode: a slow wave runs over all %d lamps. A lamp that never lights: check its %s."
        % (
            sum(layout),
            "resistor, LED polarity and pin"
            if not design.neopixel
            else "place in the chain; if every lamp after one point is dark, that pixel's DOUT or the joint after it",
        ),
        "Press NEW GAME: the starting lamps light%s." % (" and YOUR TURN comes on" if has_status_lamps(spec) else ""),
    ]
    if design.onboard:
        out.append("Try every control: %s. Each press shows on the lamps." % spec["about"].split(":", 1)[-1].strip())
    elif spec["input"] == "rows":
        out.append(
            "Press row A's button: one lamp of row A goes out. Press row B's: refused with a short flash "
            "(one row per turn). Press NEW GAME and repeat from row B, then C and so on: every button and its "
            "wire is tested."
        )
    else:
        out.append(
            "Press each key: the lamp above it changes to selected (press it again to clear); a key that "
            "selects the wrong lamp has its row or column wires swapped; two lamps at once means a diode is "
            "missing or reversed."
        )
    status = has_status_lamps(spec)
    out += [
        "Press DONE: %s (1.5 s), then the lamps it takes blink and go out."
        % ("MACHINE THINKING blinks while it thinks" if status else "the machine thinks"),
        "Play to the end: %s; after 15 s the machine returns to attract mode."
        % ("NIM CHAMP or MACHINE WINS lights" if status else "the lamps show who won"),
        "On the host computer, `nimatron monitor PORT` shows the same events with the machine's reasoning "
        "(the host link: [docs/protocol.md](%s))." % PROTOCOL_LINK,
        lit_words(cps) + "The firmware allows at most this (%s)." % budget_words(design)
        if cps
        else "The firmware keeps the lamps within the supply (%s)." % budget_words(design),
    ]
    return out


def has_status_lamps(spec):
    """Whether the board has the four status lamps (YOUR TURN ...): the
    built-in boards show the turn on their own pixels or screen."""
    return bool(spec["lamps"].get("status") or spec.get("status"))


def lit_words(cps):
    """The lamps-lit checkpoints, as the self-test's last step."""
    lit = [cp for cp in cps if cp["stage"] == "lamps"]
    if not lit:
        return ""
    return "With the starting lamps lit, measure %s. " % "; ".join(
        "%s (%s): %s" % (cp["where"], cp["id"], cp["readings"][0][1]) for cp in lit
    )


def review_lines():
    """The pin maps as an electrical engineer reviewed them."""
    leds = boards.board("pi-leds")
    roles = {role: pin for pin, role in boards.pins(leds)}
    out = [
        "`pi-leds` uses all 26 free GPIOs of the 40-pin header (GPIO0/1 stay with the HAT EEPROM), so the review "
        "could only give each pin the role that suits it:",
        "",
        "- **Buttons moved off GPIO14/15.** They are the UART (serial console): a button shorting TX to ground "
        "while the console drives it high is a short circuit on the pin. DONE and NEW GAME were there; now "
        "DONE is `%s` and NEW GAME is `%s`. GPIO14/15 carry two status lamps instead (a lamp there is harmless; "
        "switch the console off so they do not flicker at boot)." % (roles["done"], roles["new"]),
        "- **Every button on a pin that is pulled up at boot** (GPIO2-8), so a button can never see a driven "
        "output, and no lamp glows during boot: lamps are on GPIO9-27, which the Pi pulls down at boot "
        "(except `%s`, the last lamp pin left, which may glow faintly for a second)." % roles["status machine_wins"],
        "- **GPIO2/3 are I2C1 with 1.8 kΩ pull-ups fitted on the Pi**: fine for buttons (they are pulled up "
        "anyway; the %d Ω series resistor still reads low: 3.3 V × 220/(1800+220) = 0.36 V, below the 0.8 V "
        "threshold). The I2C bus is not available while buttons sit there." % BUTTON_OHMS,
        "- **NEW GAME on GPIO3** switches a halted Pi 4 (or earlier) back on (GPIO3 to ground is its wake-up): "
        "after `sudo halt`, pressing NEW GAME boots the exhibit. **Not on a Pi 5**: a halted Pi 5 wakes from its "
        "own power button (or a button on its J2 `PSW` pads), not from GPIO3 (Raspberry Pi documentation, "
        "'Raspberry Pi 5: power button'); on a Pi 5 leave the exhibit running, or switch it at the mains.",
        "- GPIO7-11 are SPI0 (SPI stays off on this board); GPIO18-21 are PCM/PWM audio (not used).",
        "- LED current: each GPIO may source 16 mA, all of them together about 50 mA: a lamp bright enough "
        "for a lit gallery cannot hang on a pin. Each LED hangs from +5 V through %d Ω and a ULN2803A sink "
        "driver: %.0f mA from +5 V with every lamp lit, %.0f mA from the pins (the drivers' inputs)."
        % (power.budget(leds)["ohms"], power.budget(leds)["leds_ma"], power.budget(leds)["pins_ma"]),
        "",
        "`pi-neopixel`: **data moved from D18 to D10.** D18 is PWM0/PCM clock: rpi_ws281x on it takes the PWM "
        "that analog audio uses, and needs root. D10 (SPI MOSI) is driven through SPI without root and leaves "
        "sound free; on a Pi 5 the Blinka back end drives any pin. Buttons on D17/D27/D22/D23/D24/D25 stay: "
        "plain GPIOs.",
        "",
        "`pico-neopixel`, `pico-grid`, `pico-ring`: GP0 drives the data (the UART0 TX default is unused: "
        "CircuitPython's console is USB); buttons and key matrices on GP2-GP19, clear of the ADC pins "
        "(GP26-28) and the Pico's internal GP23-25/29. Nothing moved. Each 3.3 V board drives 5 V pixels "
        "through a 74AHCT125.",
        "",
        "Every board: buttons and keys close to ground with the internal pull-ups; a %d Ω series resistor per "
        "line at the board against electrostatic discharge; one diode per key of a matrix; a 1000 µF capacitor "
        "and a %d Ω data resistor at the pixels." % (BUTTON_OHMS, DATA_OHMS),
    ]
    return out


def index(designs):
    out = [
        "# Hardware package",
        "",
        "<!-- generated by `nimatron hardware`: edit firmware/nimatron/config/pinmaps/*.json or "
        "host/nimatron_host/hardware/, then run it -->",
        "",
        "Everything needed to build a Nimatron from this repository alone, generated from the same pin maps the "
        "firmware reads (`firmware/nimatron/config/pinmaps/*.json`), so drawings, parts and firmware cannot drift "
        "apart:",
        "",
        "```sh",
        "nimatron hardware                 # regenerate all of hardware/ (SVG, CSV, Markdown, PNG)",
        "nimatron hardware --check         # list stale files, exit 1 if any (the tests do this too)",
        "nimatron hardware --lang es       # panels' how-to-play in Spanish (en, es, ru)",
        "nimatron power --board pico-neopixel   # one board's power budget",
        "```",
        "",
        "PNG pictures need `rsvg-convert` (Debian's `librsvg2-bin`; `./test.sh` installs it where it can).",
        "",
        "## Boards",
        "",
    ]
    rows = []
    for d in designs:
        f = d.figures
        if f["kind"] == "leds":
            figure = "%d mA of %d mA (LEDs %.0f mA)" % (int(f["worst_ma"] + 0.5), int(f["allowed_ma"]), f["leds_ma"])
            cap = "fixed"
        else:
            level = d.spec.get("brightness", 1.0)
            figure = "%d mA of %d mA at %.2f" % (int(power.worst_ma(f, level) + 0.5), int(f["allowed_ma"]), level)
            cap = "%.2f" % f["cap"]
        rows.append(
            [
                "[`%s`](%s/README.md)" % (d.name, d.name),
                what_words(d),
                "%g V %g A" % (f["volts"], f["amps"]),
                figure,
                cap,
                _most_loaded(d),
                _total(d),
            ]
        )
    out += md_table(
        ["board", "what", "supply", "worst case", "brightness cap", "most loaded part (rating)", "parts (USD)"], rows
    )
    out += [
        "",
        "The firmware's worst case against each part's datasheet rating (`parts.json`): the design rules "
        "(`tests/test_hardware_drc.py`) keep every connector, contact, wire and fuse at or below 80 % of it.",
    ]
    out += [
        "",
        "Each board's folder: `README.md` (the build guide, with checkpoints after each stage and a "
        "troubleshooting table), `bom.csv`, `wiring.svg`/`.png`, `commissioning.md` (the sheet a technician "
        "fills in and signs), `safety.md` (the museum's safety sheet: supply faults as simulated, heat, small "
        "parts) and, where there is wiring to do, `harness.svg`/`.png` (every loom's pin-out) and "
        "`panel.svg`/`.png`; with a DC jack, `input.svg`/`.png` and `enclosure.svg`/`.png` (the service face "
        "where the supply comes in, never the panel). `png-sources.txt` records which SVG each PNG was rendered from.",
        "",
    ]
    from .safety import index_lines

    out += index_lines(designs)
    out += ["## Pin-map review", ""] + review_lines() + [""]
    out += ["## Exhibit and service notes", ""] + service_lines(designs) + [""]
    return "\n".join(out)


def panel_span(design):
    """(width, height, board) of the area the panel's controls (buttons and keys) spread over, in mm."""
    import re

    svg = panel.draw(design.name, design.spec)
    xs, ys = [], []
    for tag in re.findall(r'<circle[^>]*class="(?:button|key)"[^>]*>', svg):
        x, y, r = (float(re.search(r' %s="([-\d.]+)"' % k, tag).group(1)) for k in ("cx", "cy", "r"))
        xs += [x - r, x + r]
        ys += [y - r, y + r]
    return (int(max(xs) - min(xs) + 0.5), int(max(ys) - min(ys) + 0.5), design.name)


def service_lines(designs=()):
    """The exhibit and service notes: mounting and access, then the care of the machine."""
    return ["Hand this section over with the exhibit.", ""] + _access_lines(designs) + [""] + _care_lines(designs)


def _access_lines(designs):
    """Where the controls go, and what a visitor can reach and read."""
    spans = [panel_span(d) for d in designs if not d.onboard]
    widest = max(spans) if spans else (0, 0, "")
    return [
        "### Mounting and access",
        "- Controls (every button and key) between **380 and 1220 mm above the floor**; the panel tilted 15-30° "
        "towards the visitor; a wheelchair user reaches it from the front (knee space 685 mm high).",
        "- Arcade buttons of %d mm work with one hand, a fist or an elbow. Their press force is not in a maker's "
        "document we have: measure one with a spring gauge before fitting; it must stay at or below 22.2 N "
        "(5 lbf, 2010 ADA Standards 309.4)." % BUTTON_MM,
        "- Reach: the controls of the largest panel (`%s`) spread over %d × %d mm: a visitor plays it with both "
        "hands or by moving along it, not from one hand position; mount it so every control is within the "
        "380-1220 mm band." % (widest[2], widest[0], widest[1]),
        "- Meaning is never carried by colour alone: letters on rows, words beside the status lamps, a tick on "
        "DONE and a circular arrow on NEW GAME. The engraving's contrast depends on the sheet and the laser: "
        "engrave a test piece and check it reaches at least 3:1 against the face (WCAG's ratio, from a colour "
        "meter or a calibrated photo) before cutting the panel.",
        "- Type size: the panel's status words are %s mm and its how-to-play %s mm high (em), below the 24 pt "
        "(%.1f mm) the US National Park Service's exhibit specialists advise as the smallest exhibit type (NPS "
        "Harpers Ferry Center, 'Exhibit Typography: Accessible Type'). Hang a printed how-to-play label at 24 pt "
        "or larger beside the machine; the panel's words are a reminder at arm's length, not the label."
        % (panel.num(panel.STATUS_MM), panel.num(panel.TEXT_MM), panel.EXHIBIT_TYPE_MM),
        "- Nothing flashes faster than 3 times a second (the firmware's limit).",
    ]


def _care_lines(designs=()):
    """Electrical care, the software's safety, spares, the check list and the design files' licence."""
    return [
        "### Electrical",
        "- ESD: visitors touch the buttons; each button and key line has a %d Ω resistor at the board, the "
        "switches sit in plastic, and any metal panel or frame is bonded to ground. Route the looms away from "
        "the panel's visitor side." % BUTTON_OHMS,
        "- The power budget is enforced by the firmware (`nimatron power --board BOARD`); a bigger strip or a brighter "
        "setting needs a bigger supply in the pin map first.",
        "- Cable strain relief: every loom clamped within 50 mm of its plug; the supply cable clamped inside the "
        "case before the jack. Looms plug in with keyed JST-XH connectors, so a loom or a board swaps without "
        "soldering.",
        "",
        "### Keeping the software safe",
        "- CircuitPython boards: the CIRCUITPY drive is writable by any computer it is plugged into, and a "
        "museum PC may scan, index or 'repair' it. In the exhibit, power the Pico from the supply only (no USB "
        "data cable); `code.py` turns auto-reload off so a touch of the drive cannot restart a game. For the "
        "host link use a power-only-safe setup (a USB isolator, or a data cable to a dedicated computer) and "
        "eject before unplugging. Keep a copy of the drive (`nimatron deploy --to` rewrites it).",
        "- Raspberry Pi: the audits and settings are in `/var/lib/nimatron/state.bin`: a read-only overlay "
        "over it would forget them at every power cut (see the software steps for a state partition outside "
        "the overlay). The systemd unit from `nimatron install-pi` restarts the game if it stops "
        "(`Restart=always`) or hangs (its watchdog); the hardware watchdog restarts a hung Pi; `journalctl -u "
        "nimatron` shows why. A Pi 5 wants its 27 W (5.1 V 5 A) supply: on a 3 A one it starts, warns and "
        "limits its USB ports to 600 mA.",
        "",
        "### Spares to keep in the cabinet",
        "- 2 arcade buttons (microswitches), 1 programmed controller (a Pico with the firmware deployed, or an SD "
        "card cloned from the running Pi), 1 spare loom of each kind, a strip segment or 4 pixels (or 4 LEDs with "
        "resistors), 1 supply, 1 74AHCT125, fuses/jack if fitted.",
        "",
        "### Check list",
        "- **Daily** (opening): the machine is in attract mode; press NEW GAME, play one move, DONE; the "
        "machine answers. Every lamp lit at the start of the game.",
        "- **Weekly**: play a whole game to NIM CHAMP or MACHINE WINS; press every button and key once; look for "
        "loose or sticking buttons; clean the panel (dry or damp cloth, no solvent on acrylic).",
        "- **Monthly**: open the case: looms clamped, plugs seated, no warm parts; %sread the audits "
        "(`nimatron audits PORT`); check the controls' height and the labels' legibility." % _monthly_supply(designs),
        "",
        "### Licence of the design files",
        "- Hardware (these drawings, the bill of materials, the panel and the guides): "
        "**CERN Open Hardware Licence v2 - Permissive (CERN-OHL-P-2.0)**, full text in `hardware/LICENSE`: "
        "build, change and sell it, keep the notice. The editable sources are the pin maps; the SVG, CSV, PNG "
        "and Markdown here are exported by `nimatron hardware`.",
        "- Firmware, tools and the generator (`host/nimatron_host/hardware/`): the MIT licence (`LICENSE`).",
        "- The manual (`docs/`): Creative Commons Attribution 4.0 (`docs/LICENSE`).",
    ]
