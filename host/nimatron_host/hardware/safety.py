# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a museum's safety officer reads: each board's ``safety.md`` and the package
README's "Supply faults, simulated", from the ngspice figures (``supply_sim``,
committed as ``simulated.json``) and the datasheets (``parts.json``).

Nothing here runs ngspice: the figures are the committed ones, which
``tests/test_hardware_supply.py`` simulates again wherever ngspice is installed.
"""

from . import electrical, parts as catalogue, supply_sim


def rests_on(key):
    """The datasheet figures a case's outcome depends on."""
    fet = catalogue.part("sup90p06")
    lo, hi = supply_sim.trip_window()
    ranges = catalogue.part("ic-supply")["ranges"]
    return {
        "own-low": "SN74AHCT125 VCC ≥ %.1f V; SUP90P06-09L rDS(on) %.1f mΩ at −4.5 V; RUEF R1max"
                   % (ranges["74ahct125"][0], fet["rds_on_4v5"] * 1000),
        "own-high": "WS2812B VDD ≤ %.1f V; Pico VSYS ≤ %.1f V; TL431A Vref 2.470–2.520 V: the cut-off trips at "
                    "%.2f–%.2f V, above the adapter's 5.25 V" % (ranges["ws2812b"][1], ranges["pico-vsys"][1], lo, hi),
        "9v": "TL431A Vref; SUP90P06-09L VDS −60 V, VGS ±20 V",
        "12v": "TL431A Vref; SUP90P06-09L VDS −60 V, VGS ±20 V",
        "24v": "P6KE33CA VRWM 28.2 V (24 V + 5 % passes it); TL431 VKA 37 V; 2N5401 VCEO 150 V; SUP90P06-09L "
               "VDS −60 V",
        "24v-low-esr": "P6KE33CA VBR 34.7 V max, VC 45.7 V at 13.2 A, 600 W; SUP90P06-09L VDS −60 V; C_IN 50 V",
        "24v-ramp": "SUP90P06-09L VGS(th) −1 V at least: the gate's 0.1 s turn-on never reaches it before the "
                    "cut-off trips",
        "reversed": "Q1's body diode blocks; SUP90P06-09L VDS −60 V; P6KE33CA bidirectional (VBR 31.4 V either way)",
        "short": "the adapter's current limit (taken as 150 %% of its rating); RUEF trip current × %.2f at 50 °C; "
                 "SUP90P06-09L RthJA %g °C/W, TJ %d °C" % (
                     catalogue.part("ptc-rerating-ruef")["hold_factor"]["50"], fet["theta_ja"], fet["tj_max"]),
    }[key]


def case_words(key):
    return dict((c[0], c[1]) for c in supply_sim.CASES)[key]


def simulated(design):
    return supply_sim.load_results().get(design.name, {})


def fault_rows(design):
    """[(case, outcome, datasheet figure)] for a board with a DC input."""
    figures = simulated(design)
    return [(case_words(key), supply_sim.outcome(key, figures[key]), rests_on(key))
            for key, *_ in supply_sim.CASES if key in figures]


def harmless_wrong_adapter(design):
    """True where the simulation shows a 12 V adapter harmless (and every case inside its ratings)."""
    figures = simulated(design)
    if "12v" not in figures:
        return False
    f = figures["12v"]
    broken = [v for key, fig in figures.items() for v in supply_sim.violations(design, key, fig)]
    return not broken and f["rail_max"] < supply_sim.OFF_VOLTS


def index_lines(designs):
    """The package README's section: every case, every board."""
    from .checkpoints import md_table

    boards = [d for d in designs if catalogue.has_dc_input(d)]
    if not boards:
        return []
    heavy = max(boards, key=catalogue.worst_amps)
    lo, hi = supply_sim.trip_window()
    out = ["## Supply faults, simulated", "",
           "Every board with a DC jack (%s) has the same input, all through-hole: TVS1 P6KE33CA and a 10 µF 50 V "
           "capacitor across the jack, F1 (a RUEF polyfuse, chosen to hold the worst case at 50 °C), and two "
           "SUP90P06-09L P-MOSFETs back to back whose gates a TL431 and a 2N5401 pull off above %.2f V (%.2f–%.2f V "
           "with the parts' tolerances). The gates turn on slowly (1 MΩ and 100 nF: about 0.1 s), so a wrong "
           "adapter, which arrives in microseconds, finds them off and the cut-off already tripped."
           % (", ".join("`%s`" % d.name for d in boards), supply_sim.trip_volts(), lo, hi), "",
           "ngspice simulates each case (`python -m nimatron_host.hardware.supply_sim` writes the figures; "
           "`tests/test_hardware_supply.py` runs it again and asserts every IC inside its datasheet range and every "
           "part inside its rating). Models from the datasheet figures in `parts.json`; the adapter is a source with "
           "470 µF and a current limit at 150 %% of its rating, through 2 m of lead (0.13 Ω, 2 µH); the lamps draw the "
           "firmware's worst case. Outcome on `%s` (the heaviest load); +5V (steady) on every board:" % heavy.name,
           ""]
    after = ["", "Not covered: an adapter between 5.3 V (the WS2812B's limit) and the trip (%.2f–%.2f V) would reach "
             "the pixels; no usual adapter size sits there. The cut-off's threshold cannot sit lower: the machine's "
             "own adapter may give 5.25 V." % (lo, hi), ""]
    rows = []
    for key, *_ in supply_sim.CASES:
        per = []
        for d in boards:
            f = simulated(d).get(key)
            if f:
                per.append("%s %.2f V" % (d.name, abs(f["rail_steady"])))
        f = simulated(heavy).get(key)
        rows.append([case_words(key), supply_sim.outcome(key, f) if f else "not simulated", "; ".join(per),
                     rests_on(key)])
    out += md_table(["case", "simulated outcome", "+5V steady", "rests on (datasheet)"], rows)
    out += after[:-1]
    out += ["", "Design rules beyond ratings (`host/nimatron_host/hardware/electrical.py`): U1's supply at the worst "
            "case after every series drop (%s); ESD arrays counted loom by loom; polyfuses held at 50 °C (the RUEF "
            "rerating table: × %.2f); key-matrix columns settle within the scan and a held key reads under VIL with any "
            "number of its row held (4.7 kΩ pull-ups, BAT85 diodes, no row resistor: `keylevel.py`); no checkpoint "
            "accepts a rail below U1's 4.5 V." % (", ".join("`%s` %.2f V" % (d.name, electrical.u1_volts(d))
                                                        for d in boards if d.pixels),
                                                catalogue.part("ptc-rerating-ruef")["hold_factor"]["50"]), ""]
    return out


def sheet(design):
    """``BOARD/safety.md``."""
    name = design.name
    out = ["# Safety sheet: Nimatron `%s`" % name, "",
           "<!-- generated by `nimatron hardware` from firmware/nimatron/config/pinmaps/%s.json and the simulated "
           "supply faults: edit those, then run it -->" % name, "",
           "For the museum's safety officer and the technician who installs the exhibit. Build guide: "
           "[README.md](README.md); sign-off: [commissioning.md](commissioning.md).", "",
           "## Supply", ""]
    out += _supply_lines(design)
    out += ["## Heat", ""] + _heat_lines(design)
    out += ["- Ventilation: the cabinet's own; no part needs a fan.", "", "## Small parts and touch", ""]
    out += _touch_lines(design)
    out += ["", "## Wrong-adapter test (commissioning)", "", _wrong_adapter_words(design)]
    return "\n".join(out) + "\n"


def _supply_lines(design):
    """The supply, its protection and (with a DC jack) the simulated faults."""
    from .checkpoints import md_table

    f = design.figures
    if design.onboard:
        return ["- 5 V from a USB adapter (%g A, the parts list); the board takes nothing else. Low voltage only: "
                "the mains side stays in the adapter's own closed case (CE/UKCA/UL)." % design.spec["supply"]["amps"],
                "- No wiring inside; the USB cable clamped within 50 mm of the board.", ""]
    if catalogue.has_dc_input(design):
        out = ["- 5 V %g A adapter, 2.1 mm plug, centre positive; worst case the firmware allows %.2f A. Low "
               "voltage only: the mains side stays in the adapter's own closed case (CE/UKCA/UL)."
               % (f["amps"], catalogue.worst_amps(design)),
               "- Input protection at the jack (all through-hole; schematic: [input.svg](input.svg)): TVS, %s (holds %.2f A at 50 °C), a MOSFET "
               "switch that stays off for a reversed adapter or one above %.2f V." % (
                   catalogue.part(catalogue.fuse_key(design))["part"].split(",")[0],
                   catalogue.hold_at_cabinet(catalogue.fuse_key(design)), supply_sim.trip_volts()), "",
               "## Supply faults, simulated", "",
               "ngspice, from the parts' datasheet figures (the method: [../README.md](../README.md#supply-faults-"
               "simulated)):", ""]
        return out + md_table(["fault", "simulated outcome", "rests on (datasheet)"], fault_rows(design)) + [""]
    out = ["- The Raspberry Pi's own USB-C supply (%g A); its ground joined to the lamps'." % f["amps"]]
    if design.lamp_fuse:
        fuse = catalogue.part(design.lamp_fuse)
        out.append("- The lamps hang on the Pi's 5 V through %s (hold %.1f A, trip %.1f A): %d mA with every "
                   "lamp lit; a short on the panel trips it (the Pi may restart while it does; not simulated)." % (
                       fuse["part"].split(",")[0], fuse["hold_amps"], fuse["trip_amps"], int(f["leds_ma"] + 0.5)))
    return out + ["- No DC jack: a wrong adapter cannot be plugged in; the Pi's own supply is the only one.", ""]


def _heat_lines(design):
    """The warmest parts at the worst case."""
    f = design.figures
    if catalogue.has_dc_input(design):
        amps = catalogue.worst_amps(design)
        fet = catalogue.part("sup90p06")
        fet_watts = amps * amps * fet["rds_on_4v5"]
        return ["- Warmest parts at the worst case: Q1/Q2 %.2f W each (no heat sink; %g °C/W: %.0f °C above the "
                "cabinet), F1 %.2f W. Nothing else above 0.1 W. Designed for a cabinet up to 50 °C." % (
                    fet_watts, fet["theta_ja"], fet_watts * fet["theta_ja"],
                    amps * amps * catalogue.fuse_r1max(catalogue.fuse_key(design)))]
    if design.sinks:
        sink = design.spec["led"]["sink"]
        return ["- A ULN2803A with all 8 lamps lit: %.0f mW (8 × %.0f mA × %.1f V Vce(sat)); each LED's "
                "resistor %.0f mW." % (8 * f["led_ma"] * sink["vce"], f["led_ma"], sink["vce"],
                                      f["led_ma"] ** 2 * f["ohms"] / 1000.0)]
    return ["- Nothing dissipates more than the board itself (a USB-powered board)."]


HELD = {"diffuser-12": "Diffusers are captive, see panel.",
        "bullet-pixel": "The bullet pixels are pushed into their holes from behind; nothing to pull out from the front.",
        "bullet-pixel-8mm": "The bullet pixels are pushed into their holes from behind; nothing to pull out from the "
                            "front.",
        "led-bezel-5": "The LED bezels are held by their clips behind the panel, the LEDs from behind."}


def _touch_lines(design):
    """What a visitor could pull off or touch."""
    if design.onboard:
        return ["- Keycaps and the board sit in a closed case; nothing a child can pull off. Keep the case closed "
                "with screws, not clips."]
    out = ["- %s The buttons (Sanwa OBSF-30) are snap-in: pushed through their holes from the front, held by "
           "clips behind the panel, so a tool under a rim can lever one out from the visitor's side; where the "
           "machine stands unattended, fit the screw-in (nut) version, tightened from behind."
           % HELD[catalogue.lamp_hole(design)[1]]]
    if catalogue.has_dc_input(design):
        out.append("- The supply's socket %s is on the service face (the removable back, against the wall or "
                   "plinth), marked with its rating and polarity, its lead clamped: nothing to unplug or plug in "
                   "from the visitor's side ([enclosure.svg](enclosure.svg))." % design.jack)
    lines = ("every button line and key-matrix column has a 220 Ω resistor (a key row has none: it carries every "
             "held key's current) and every button and key line" if design.matrix else "every button line has a "
             "220 Ω resistor and")
    out.append("- Touch: 5 V at most anywhere; %s an ESD array line (%d arrays, one set per loom) against a "
               "visitor's static discharge. %sThe panel and the box are wood or acrylic and "
               "nothing else a visitor touches is part of a circuit, so nothing is bonded to ground." % (
                   lines, catalogue.esd_arrays(design) - catalogue.touched_pixels(design),
                   "The pixels' LEDs, which visitors touch in their holes, have one more array at the first pixel, "
                   "on the string's data and +5V. " if catalogue.touched_pixels(design) else ""))
    return out


def _wrong_adapter_words(design):
    if harmless_wrong_adapter(design):
        return ("Safe to do on this board: the simulation shows a 12 V adapter leaves +5V at 0 V and every part "
                "inside its rating. The commissioning sheet records it.")
    if catalogue.has_dc_input(design):
        return "Not recommended: the simulation does not show every case harmless."
    return "Not applicable: no DC jack."


def commissioning_lines(design):
    """The wrong-adapter test on the commissioning sheet, where the simulation shows it harmless."""
    if not harmless_wrong_adapter(design):
        return []
    return ["## Wrong-adapter test", "",
            "Harmless on this board (simulated: [safety.md](safety.md)). With the machine off:", "",
            "1. Plug a 12 V adapter (any from the spares drawer) into %s: nothing lights; %s pin 1 to pin 3 reads "
            "below 0.5 V ☐." % (design.jack, catalogue.POWER_LOOM),
            "2. Unplug it; plug the machine's own 5 V adapter: it starts into attract mode within 5 s ☐.", ""]
