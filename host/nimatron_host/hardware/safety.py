# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a museum's safety officer reads: each board's ``safety.md`` and the package
README's "Supply faults, simulated", from the ngspice figures (``supply_sim``,
committed as ``simulated.json``) and the datasheets (``parts.json``).

Nothing here runs ngspice: the figures are the committed ones, which
``tests/test_hardware_supply.py`` simulates again wherever ngspice is installed.
"""

from . import electrical, harness, parts as catalogue, supply_sim
from .circuit import fuse_key
from .words import md_table


def rests_on(key):
    """The datasheet figures a case's outcome depends on."""
    fet = catalogue.part("sup90p06")
    tvs = catalogue.part(supply_sim.TVS)
    lo, hi = supply_sim.trip_window()
    ranges = catalogue.part("ic-supply")["ranges"]
    tl = catalogue.part("tl431a")
    window = "TL431A Vref %.3f–%.3f V with its drift (±%d mV): the cut-off trips at %.2f–%.2f V" % (
        supply_sim.vref_corners() + (int(tl["vref_drift"] * 1000), lo, hi)
    )
    fixed = "TL431 cathode bias below its trip (transistor-level model) across R_BE %.0f Ω; 2N5401 VBE at 50 °C" % (
        supply_sim.R_BE
    )
    return {
        "own-low": "%s; SN74AHCT125 VCC ≥ %.1f V; SUP90P06-09L rDS(on) %.1f mΩ at −4.5 V, VGS(th) −3 V; RUEF R1max"
        % (fixed, ranges["74ahct125"][0], fet["rds_on_4v5"] * 1000),
        "own-high": "WS2812B VDD ≤ %.1f V; Pico VSYS ≤ %.1f V; %s, above the adapter's 5.25 V"
        % (ranges["ws2812b"][1], ranges["pico-vsys"][1], window),
        "9v": "TL431A Vref; SUP90P06-09L VDS −60 V, VGS ±20 V, VGS(th) −1 V",
        "12v": "TL431A Vref; SUP90P06-09L VDS −60 V, VGS ±20 V, VGS(th) −1 V",
        "24v": "TL431 VKA 37 V, floor about 2 V; R_B %g W; 2N5401 VCEO 150 V; SUP90P06-09L VDS −60 V"
        % supply_sim.R_BASE_WATTS,
        "24v-low-esr": "P6KE43CA VBR %.1f–%.1f V, VC %.1f V at %.1f A, %d W; SUP90P06-09L VDS −60 V; C_IN %d V"
        % (
            tvs["breakdown_volts"],
            tvs["breakdown_max_volts"],
            tvs["clamp_volts"],
            tvs["clamp_amps"],
            tvs["watts"],
            catalogue.part(supply_sim.CIN)["volts"],
        ),
        "24v-ramp": "SUP90P06-09L VGS(th) −1 V at least: the gate's 0.1 s turn-on never reaches it before the "
        "cut-off trips",
        "24v-unreg": "P6KE43CA VRWM %.1f V above the wall-wart's 36 V idle; R_B %g W; TL431 VKA 37 V"
        % (tvs["standoff_volts"], supply_sim.R_BASE_WATTS),
        "reversed": "Q1's body diode blocks; C_IN bi-polar (a polarised one conducts 4.5 A backwards); P6KE43CA "
        "bidirectional",
        "reversed-own": "Q1's body diode blocks; C_IN bi-polar",
        "reversed-unreg": "Q1's body diode blocks; C_IN bi-polar, %d V; P6KE43CA VBR %.1f V either way"
        % (catalogue.part(supply_sim.CIN)["volts"], tvs["breakdown_volts"]),
        "short": "the adapter's current limit (taken as 150 %% of its rating); RUEF trip current × %.2f at 50 °C; "
        "SUP90P06-09L RthJA %g °C/W, TJ %d °C"
        % (catalogue.part("ptc-rerating-ruef")["hold_factor"]["50"], fet["theta_ja"], fet["tj_max"]),
        "5v4": "%s: the cut-off may not trip below %.2f V, and the WS2812B's limit is %.1f V"
        % (window, lo, ranges["ws2812b"][2]),
        "rising": "%s: the rail follows the adapter up to the trip" % window,
    }[key]


def case_words(key):
    return {c[0]: c[1] for c in supply_sim.CASES}[key]


def simulated_corners(design):
    """{case: {corner: figures}} as committed."""
    return supply_sim.load_results().get(design.name, {})


def simulated(design):
    """{case: figures} at each case's governing corner (``supply_sim.governing_corner``)."""
    return {key: supply_sim.governing(key, by_corner) for key, by_corner in simulated_corners(design).items()}


def fault_rows(design):
    """[(case, outcome, datasheet figure)] for a board with a DC input."""
    figures = simulated(design)
    return [
        (case_words(key), supply_sim.outcome(key, figures[key]), rests_on(key))
        for key, *_ in supply_sim.CASES
        if key in figures
    ]


def harmless_wrong_adapter(design):
    """True where the simulation shows a 12 V adapter harmless (and every case inside its ratings)."""
    figures = simulated_corners(design)
    if "12v" not in figures:
        return False
    broken = [v for key, by_corner in figures.items() for v in supply_sim.all_violations(design, key, by_corner)]
    return not broken and all(abs(f["rail_max"]) < supply_sim.OFF_VOLTS for f in figures["12v"].values())


def index_lines(designs):
    """The package README's section: every case, every board."""
    boards = [d for d in designs if catalogue.has_dc_input(d)]
    if not boards:
        return []
    heavy = max(boards, key=catalogue.worst_amps)
    lo, hi = supply_sim.trip_window()
    tl = catalogue.part("tl431a")
    out = [
        "## Supply faults, simulated",
        "",
        "Every board with a DC jack (%s) has the same input, all through-hole: TVS1 %s and a 10 µF 50 V "
        "bi-polar capacitor C_IN %s, F1 (a RUEF polyfuse, chosen to hold the worst case at 50 °C), and two "
        "SUP90P06-09L P-MOSFETs back to back, each on a heat sink, whose gates a TL431 and a 2N5401 pull off above "
        "%.2f V (%.2f–%.2f V with the TL431A's tolerance and drift and the %g %% divider). The gates turn on "
        "slowly (1 MΩ and 100 nF: about 0.1 s), so a wrong adapter, which arrives in microseconds, finds them off "
        "and the cut-off already tripped. The adapter is a fixed, regulated 5 V limited power source (LPS or "
        "Class 2) whose overload protection acts by %d %% of its rating."
        % (
            ", ".join("`%s`" % d.name for d in boards),
            supply_sim.TVS.upper(),
            supply_sim.CIN_PLACE,
            supply_sim.trip_volts(),
            lo,
            hi,
            supply_sim.DIVIDER_TOL * 100,
            int(supply_sim.OVERLOAD * 100 + 0.5),
        ),
        "",
        "ngspice simulates each case at two corners (`python -m nimatron_host.hardware.supply_sim` writes the "
        "figures; `tests/test_hardware_supply.py` runs them again and asserts the rules: the stage switches on "
        "with its own adapter at −5 %% and +5 %%, stays off on every wrong one either way round, every IC inside "
        "its datasheet range and every part inside its rating). The models (each one's source in `parts.json`, "
        "each checked against its datasheet by `tests/test_hardware_models.py`): the TL431 at transistor level "
        "(its bias below the trip, its 2 V floor above it), the MOSFETs at both ends of VGS(th), the 2N5401 at 0 "
        "and 50 °C, the TVS at both ends of its breakdown, a polarised electrolytic that conducts when reversed, "
        "the jack, fuse, leads and loom as resistances. The adapter is a source with 470 µF and a current limit "
        "at %d %% of its rating, through 2 m of lead (0.13 Ω, 2 µH); the lamps draw the firmware's worst case. "
        "Corners:" % int(supply_sim.OVERLOAD * 100 + 0.5),
        "",
    ]
    out += ["- `%s`: %s." % (name, words) for name, words, _ in supply_sim.CORNERS]
    out += [
        "",
        "Outcome on `%s` (the heaviest load; switching on told at the start corner, staying off at the stop "
        "corner); +5V (steady) on every board:" % heavy.name,
        "",
    ]
    after = [
        "",
        "Forbidden in the parts list, because the cut-off cannot cover it: %s. Between 5.3 V (the WS2812B's "
        "limit) and the trip (%.2f–%.2f V) the rail follows the supply; the trip cannot sit lower, since the "
        "machine's own adapter may give 5.25 V and the TL431A's reference spreads ±%.1f %% with its drift."
        % (
            "; ".join(supply_sim.FORBIDDEN_WORDS[k] for k in supply_sim.FORBIDDEN),
            lo,
            hi,
            100 * (tl["vref_range"][1] + tl["vref_drift"] - tl["vref"]) / tl["vref"],
        ),
        "",
    ]
    rows = []
    for key, *_ in supply_sim.CASES:
        per = []
        for d in boards:
            f = simulated(d).get(key)
            if f:
                per.append("%s %.2f V" % (d.name, abs(f["rail_steady"])))
        f = simulated(heavy).get(key)
        rows.append(
            [case_words(key), supply_sim.outcome(key, f) if f else "not simulated", "; ".join(per), rests_on(key)]
        )
    out += md_table(["case", "simulated outcome", "+5V steady", "rests on (datasheet)"], rows)
    out += after[:-1]
    out += [
        "",
        "Design rules beyond ratings (`host/nimatron_host/hardware/electrical.py`): U1's supply at the worst "
        "case after every series drop (%s); ESD arrays counted loom by loom; polyfuses held at 50 °C (the RUEF "
        "rerating table: × %.2f); key-matrix columns settle within the scan and a held key reads under VIL with any "
        "number of its row held (4.7 kΩ pull-ups, BAT85 diodes, no row resistor: `keylevel.py`); no checkpoint "
        "accepts a rail below U1's 4.5 V."
        % (
            ", ".join("`%s` %.2f V" % (d.name, electrical.u1_volts(d)) for d in boards if d.pixels),
            catalogue.part("ptc-rerating-ruef")["hold_factor"]["50"],
        ),
        "",
    ]
    return out


def sheet(design):
    """``BOARD/safety.md``."""
    name = design.name
    out = [
        "# Safety sheet: Nimatron `%s`" % name,
        "",
        "<!-- generated by `nimatron hardware` from firmware/nimatron/config/pinmaps/%s.json and the simulated "
        "supply faults: edit those, then run it -->" % name,
        "",
        "For the museum's safety officer and the technician who installs the exhibit. Build guide: "
        "[README.md](README.md); sign-off: [commissioning.md](commissioning.md).",
        "",
        "## Supply",
        "",
    ]
    out += _supply_lines(design)
    out += ["## Heat", ""] + _heat_lines(design)
    out += ["- Ventilation: the cabinet's own; no part needs a fan.", "", "## Small parts and touch", ""]
    out += _touch_lines(design)
    out += ["", "## Wrong-adapter test (commissioning)", "", _wrong_adapter_words(design)]
    return "\n".join(out) + "\n"


def _supply_lines(design):
    """The supply, its protection and (with a DC jack) the simulated faults."""
    f = design.figures
    if design.onboard:
        return [
            "- 5 V from a USB adapter (%g A, the parts list); the board takes nothing else. Low voltage only: "
            "the mains side stays in the adapter's own closed case (CE/UKCA/UL)." % design.spec["supply"]["amps"],
            "- No wiring inside; the USB cable clamped within 50 mm of the board.",
            "",
        ]
    if catalogue.has_dc_input(design):
        out = [
            "- 5 V %g A adapter, 4-pin locking power DIN plug (KPPX-4P; J1's pairs measured apart before they are joined), fixed 5.0 V, a limited power source (LPS, IEC "
            "62368-1 Annex Q, or NEC Class 2) whose overload protection acts by %d %% of its rating (%.1f A): "
            "that limit, not F1, is what stops a short (below). Worst case the firmware allows %.2f A. Low voltage only: the mains side stays "
            "in the adapter's own closed case (CE/UKCA/UL)."
            % (
                f["amps"],
                int(supply_sim.OVERLOAD * 100 + 0.5),
                f["amps"] * supply_sim.OVERLOAD,
                catalogue.worst_amps(design),
            ),
            "- Input protection at the jack (all through-hole; schematic: [input.svg](input.svg)): TVS, %s (holds %.2f A at 50 °C), a MOSFET "
            "switch that stays off for a reversed adapter or one above %.2f V, on heat sinks that take a short at the "
            "adapter's limit."
            % (
                catalogue.part(fuse_key(design))["part"].split(",")[0],
                catalogue.hold_at_cabinet(fuse_key(design)),
                supply_sim.trip_volts(),
            ),
            _fault_words(design),
            "",
            "## Supply faults, simulated",
            "",
            "ngspice, from the parts' datasheet figures (the method: [../README.md](../README.md#supply-faults-"
            "simulated)):",
            "",
        ]
        return (
            out
            + md_table(["fault", "simulated outcome", "rests on (datasheet)"], fault_rows(design))
            + ["", assumed_words(design), ""]
        )
    out = ["- The Raspberry Pi's own USB-C supply (%g A); its ground joined to the lamps'." % f["amps"]]
    if design.lamp_fuse:
        fuse = catalogue.part(design.lamp_fuse)
        out.append(
            "- The lamps hang on the Pi's 5 V through %s (hold %.1f A, trip %.1f A): %d mA with every "
            "lamp lit; a short on the panel trips it (the Pi may restart while it does; not simulated)."
            % (fuse["part"].split(",")[0], fuse["hold_amps"], fuse["trip_amps"], int(f["leds_ma"] + 0.5))
        )
    return out + ["- No DC jack: a wrong adapter cannot be plugged in; the Pi's own supply is the only one.", ""]


def supply_parts(design):
    """The parts.json keys the input stage's simulation and the power path's rules read for ``design``."""
    keys = [key for _, key, _ in electrical.power_path(design)]
    keys += [
        supply_sim.TVS,
        supply_sim.CIN,
        supply_sim.HEATSINK,
        "tl431a",
        "2n5401",
        "1n4742a",
        "1n5817",
        "res-base-2w",
        "res-divider-0.1",
        "ic-supply",
        "ptc-rerating-ruef",
        "pixel-conductor",
    ]
    return list(dict.fromkeys(keys))


def assumed_words(design):
    """Which of the figures above were not read in their maker's document (parts.json: ASSUMPTION)."""
    names = [catalogue.part(key)["part"].split(",")[0] for key in supply_parts(design) if catalogue.assumed(key)]
    if not names:
        return "Every figure above was read in its maker's document (parts.json names each one's table)."
    return (
        "Not read in the maker's document (parts.json marks each ASSUMPTION, with what was searched; the rules "
        "count such a rating at 80 %% of itself, a heat sink's at 1/0.8), so check each against the bought part's "
        "datasheet before signing off: %s." % "; ".join(names)
    )


def _sink_theta():
    """The heat sink's own figure, pessimistic while assumed (degC/W, sink to air)."""
    sink = catalogue.part(supply_sim.HEATSINK)
    return sink["theta_sa"] / (catalogue.ASSUMED if catalogue.assumed(supply_sim.HEATSINK) else 1.0)


def _fault_words(design):
    """What a short behind the jack draws, and which conductors are rated below it (the design rule
    ``electrical.fault_check``)."""
    short_of = electrical.fault_short_of(design)
    rated = [r for r in electrical.fault_rows(design) if r not in short_of]
    words = (
        "- A short anywhere behind J1 draws the adapter's limit, %.1f A, until the adapter is unplugged (F1 "
        "trips only above %.1f A at 50 °C)."
        % (electrical.fault_amps(design), catalogue.part(fuse_key(design))["trip_amps"] * 0.79)
    )
    words += " Rated for it (the design rules' figures): %s." % ", ".join(
        "%s%s %.1f A%s"
        % (
            r[0],
            " crimps" if r[1].endswith("-crimp") else "",
            r[4],
            " per wire, two each way" if electrical.PARALLEL.get(r[0], 1) > 1 else "",
        )
        for r in rated
    )
    fused = electrical.fault_fused(design)
    if fused:
        words += (
            " Rated below it, each behind its group's %g A fast fuse (%s), which opens any current above their "
            "rating within %g s (IEC 60127-2): %s. A blown fuse darkens its group only: find the short, then "
            "fit the same %g A fuse (the spares beside the fuse board), never a larger one."
            % (
                electrical.group_fuse(),
                ref_words(harness.group_fuse_refs(design)),
                electrical.FAULT_SECONDS,
                ", ".join("%s %.1f A" % (r[0], r[4]) for r in fused),
                electrical.group_fuse(),
            )
        )
    short_of = [r for r in short_of if r not in fused]
    if short_of:
        words += (
            " Rated below that current and not protected (the design rules' figures): %s. Until they are, "
            "inspect the wiring after any short." % ", ".join("%s %.1f A" % (r[0], r[4]) for r in short_of)
        )
    return words


def ref_words(refs):
    return "%s-%s" % (refs[0], refs[-1]) if len(refs) > 1 else "".join(refs)


def _heat_lines(design):
    """The warmest parts at the worst case."""
    f = design.figures
    if catalogue.has_dc_input(design):
        amps = catalogue.worst_amps(design)
        fet = catalogue.part("sup90p06")
        fet_watts = amps * amps * fet["rds_on_4v5"]
        shorted = max([f["fet_w_steady"] for f in simulated_corners(design).get("short", {}).values()] or [0.0])
        theta = supply_sim.fet_theta()
        cabinet = catalogue.part("ptc-rerating-ruef")["cabinet_celsius"]
        return [
            "- Warmest parts at the worst case: Q1/Q2 %.2f W each, F1 %.2f W. Nothing else above 0.1 W. Designed "
            "for a cabinet up to %d °C." % (fet_watts, amps * amps * catalogue.fuse_r1max(fuse_key(design)), cabinet),
            "- A short on the panel (simulated): the adapter's limit holds it and Q2 sits in saturation, %.1f W; "
            "on its heat sink (%.1f °C/W junction to air, the sink's figure counted pessimistically) its junction "
            "reaches %.0f °C of its %d °C, the sink itself %.0f °C: mount it clear of wood, wires and the looms "
            "(10 mm). It stays so until the short is cleared: unplug, find it, plug in again."
            % (shorted, theta, cabinet + shorted * theta, fet["tj_max"], cabinet + shorted * _sink_theta()),
        ]
    if design.sinks:
        sink = design.spec["led"]["sink"]
        return [
            "- A ULN2803A with all 8 lamps lit: %.0f mW (8 × %.0f mA × %.1f V Vce(sat)); each LED's "
            "resistor %.0f mW."
            % (8 * f["led_ma"] * sink["vce"], f["led_ma"], sink["vce"], f["led_ma"] ** 2 * f["ohms"] / 1000.0)
        ]
    return ["- Nothing dissipates more than the board itself (a USB-powered board)."]


HELD = {
    "diffuser-12": "Diffusers are captive, see panel.",
    "bullet-pixel": "The bullet pixels are pushed into their holes from behind; nothing to pull out from the front.",
    "bullet-pixel-8mm": "The bullet pixels are pushed into their holes from behind; nothing to pull out from the "
    "front.",
    "led-bezel-5": "The LED bezels are held by their clips behind the panel, the LEDs from behind.",
}


def _touch_lines(design):
    """What a visitor could pull off or touch."""
    if design.onboard:
        return [
            "- Keycaps and the board sit in a closed case; nothing a child can pull off. Keep the case closed "
            "with screws, not clips."
        ]
    out = [
        "- %s The buttons (Sanwa OBSF-30) are snap-in: pushed through their holes from the front, held by "
        "clips behind the panel, so a tool under a rim can lever one out from the visitor's side; where the "
        "machine stands unattended, fit the screw-in (nut) version, tightened from behind."
        % HELD[catalogue.lamp_hole(design)[1]]
    ]
    if catalogue.has_dc_input(design):
        out.append(
            "- The supply's socket %s is on the service face (the removable back, against the wall or "
            "plinth), marked with its rating and polarity, its lead clamped: nothing to unplug or plug in "
            "from the visitor's side ([enclosure.svg](enclosure.svg)). It is a keyed 4-pin power DIN (%s) "
            "that locks on the adapter's plug: a barrel plug does not fit it."
            % (design.jack, catalogue.part(catalogue.JACK)["part"].split(" panel")[0])
        )
    lines = (
        "every button line and key-matrix column has a 220 Ω resistor (a key row has none: it carries every "
        "held key's current) and every button and key line"
        if design.matrix
        else "every button line has a 220 Ω resistor and"
    )
    out.append(
        "- Touch: 5 V at most anywhere; %s an ESD array line (%d arrays, one set per loom) against a "
        "visitor's static discharge. %sThe panel and the box are wood or acrylic and "
        "nothing else a visitor touches is part of a circuit, so nothing is bonded to ground."
        % (
            lines,
            electrical.esd_arrays(design) - catalogue.touched_pixels(design),
            "The pixels' LEDs, which visitors touch in their holes, have one more array at the first pixel, "
            "on the string's data and +5V. "
            if catalogue.touched_pixels(design)
            else "",
        )
    )
    return out


def _wrong_adapter_words(design):
    if harmless_wrong_adapter(design):
        return (
            "Safe to do on this board: the simulation shows a 12 V adapter leaves +5V at 0 V and every part "
            "inside its rating. The commissioning sheet records it."
        )
    if catalogue.has_dc_input(design):
        return "Not recommended: the simulation does not show every case harmless."
    return "Not applicable: no DC jack."


def commissioning_lines(design):
    """The wrong-adapter test on the commissioning sheet, where the simulation shows it harmless."""
    if not harmless_wrong_adapter(design):
        return []
    return [
        "## Wrong-adapter test",
        "",
        "Harmless on this board (simulated: [safety.md](safety.md)). With the machine off:",
        "",
        "1. Plug a 12 V adapter (any from the spares drawer) into %s: nothing lights; %s pin 1 to pin 3 reads "
        "below 0.5 V ☐." % (design.jack, catalogue.POWER_LOOM),
        "2. Unplug it; plug the machine's own 5 V adapter: it starts into attract mode within 5 s ☐.",
        "",
    ]
