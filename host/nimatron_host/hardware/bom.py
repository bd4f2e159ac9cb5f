"""The bill of materials of one board, as CSV rows, from its circuit.

Every part the wiring diagram draws is a row (its references from the
circuit), then what holds it together: wire, connectors, board, enclosure.
Prices are rough single-unit figures in US dollars (2025), to budget a
build, not quotes; part numbers are examples of a part that fits.
"""

import csv
import io

from .circuit import ref_ranges

HEADER = ["reference", "part", "quantity", "example part number", "approx unit price (USD)", "notes"]


def _catalogue(design):
    """(prefix, part) -> (description, example, price, notes)."""
    spec = design["spec"]
    f = design["figures"]
    pico = design["pico"]
    px = spec["lamps"].get("pixels", 0)
    out = {
        ("A", "Raspberry Pi Pico"): ("Raspberry Pi Pico (RP2040) with headers, CircuitPython 9 or 10",
                                     "Raspberry Pi Pico H", 5.00, "any RP2040 board with the same GP pins"),
        ("A", "Raspberry Pi (40-pin header)"): ("Raspberry Pi 4 Model B (2 GB) or Raspberry Pi 5",
                                               "Raspberry Pi 4 Model B 2GB", 45.00,
                                               "any 40-pin model; a 16 GB A1 microSD card with Raspberry Pi OS Lite"),
        ("R", "resistor"): None,   # by value below
        ("L", "LED"): ("5 mm low-current LED, yellow, diffused (Vf %.1f V, rated %g mA)"
                       % (spec.get("led", {}).get("vf", 0), spec.get("led", {}).get("ma", 0)),
                       "Broadcom HLMP-4719", 0.40, "bright at 2 mA: the Pi's pins may give 50 mA in all"),
        ("S", "arcade button"): ("30 mm arcade push button, microswitch, snap-in", "Sanwa OBSF-30", 2.50,
                                 "about 3 N to press (limit 22 N); 30 mm hole"),
        ("K", "key (arcade button)"): ("30 mm arcade push button, microswitch, snap-in", "Sanwa OBSF-30", 2.50,
                                       "one under every lamp"),
        ("D", "1N4148"): ("signal diode, one per key (no ghosting on chords)", "onsemi 1N4148", 0.05,
                          "anode to the column wire"),
        ("D", "1N5817"): ("Schottky diode 1 A, supply to VSYS", "onsemi 1N5817", 0.20,
                          "band (cathode) towards VSYS"),
        ("U", "74AHCT125"): ("quad buffer, 3.3 V to 5 V level shifter (DIP-14) and socket",
                             "TI SN74AHCT125N", 0.80, "data to the NeoPixels at 5 V logic"),
        ("C", "capacitor"): ("1000 uF 10 V electrolytic capacitor", "Panasonic EEU-FR1A102", 0.50,
                             "across the pixels' supply at the strip, + to +5V"),
        ("PS", "Raspberry Pi USB-C supply"): ("Raspberry Pi official USB-C power supply (27 W for a Pi 5, 15 W for a Pi 4)",
                                              "Raspberry Pi 15W USB-C Power Supply", 9.00,
                                              "the Pi's own supply; its ground joins the lamps' only through the header"),
        ("PS", "5 V supply"): ("5 V %g A regulated supply, 2.1 mm barrel plug" % f["amps"],
                               "Mean Well GST25E05-P1J" if f["amps"] >= 4 else "Mean Well GST18E05-P1J (3 A)",
                               12.00 if f["amps"] >= 4 else 10.00,
                               "power budget: %s" % budget_words(design)),
        ("J", "DC jack"): ("panel DC jack 2.1 mm, 5 A", "CUI PJ-002AH", 1.50, "strain-relieve the cable inside"),
    }
    if design["onboard"]:
        out[("A", design["title"])] = (design["title"] + " (keys, pixels and speaker built in), CircuitPython 9 or 10",
                                      design["title"], 50.00 if "MacroPad" in design["title"] else 25.00,
                                      "nothing to wire")
        out[("PS", "USB supply")] = ("USB power adapter 5 V, at least %g A, and a USB data cable" % f["amps"],
                                     "Raspberry Pi 12.5W micro-USB supply" if "MacroPad" not in design["title"]
                                     else "any 5 V 1 A USB-C charger", 8.00,
                                     "power budget: %s" % budget_words(design))
    elif spec["lamps"]["kind"] == "neopixel":
        if spec["lamps"].get("shape") == "ring" or spec["lamps"].get("fixed"):
            desc = ("NeoPixel-compatible 12 mm bullet pixels, WS2811 5 V, on a wire string (%d used)" % px,
                    "WS2811 12 mm pixel string, 5 V", 0.60 * px,
                    "one behind each lamp hole; the price is for the string")
        else:
            desc = ("NeoPixel strip WS2812B 5 V, 60 LEDs/m, %d pixels (cut to rows)" % px, "Adafruit 1138 (1 m)",
                    round(px / 60.0 * 17, 2), "the price is for the length needed")
        out[("PX", "NeoPixels")] = desc
    return out


def budget_words(design):
    from nimatron.config import power

    f = design["figures"]
    if f["kind"] == "leds":
        return "worst case %d mA of %d mA" % (int(f["worst_ma"] + 0.5), int(f["allowed_ma"]))
    level = design["spec"].get("brightness", 1.0)
    return "worst case %d mA of %d mA at brightness %.2f; cap %.2f" % (
        int(power.worst_ma(f, level) + 0.5), int(f["allowed_ma"]), level, f["cap"])


RESISTORS = {
    "data": ("resistor 330 Ohm 1/4 W, in the data line at the first pixel", "Yageo MFR-25FBF52-330R", 0.05,
             "300-500 Ohm: damps reflections on the data line"),
    "button": ("resistor 220 Ohm 1/4 W, in series with each button or key line", "Yageo MFR-25FBF52-220R", 0.05,
               "at the board: limits an electrostatic discharge into the pin"),
}


def rows(design):
    """The BOM as a list of CSV rows (header first, total last)."""
    catalogue = _catalogue(design)
    spec = design["spec"]
    out = [HEADER]
    total = 0.0
    for prefix, part, value, refs in design["parts"].lines:
        if prefix == "R":
            if value.startswith("%d " % 330):
                desc, example, price, notes = RESISTORS["data"]
            elif value.startswith("%d " % 220):
                desc, example, price, notes = RESISTORS["button"]
            else:
                ohms = design["figures"]["ohms"]
                desc = "resistor %d Ohm 1/4 W 1 %% (E24), one per LED" % ohms
                example = "Yageo MFR-25FBF52-%dR" % ohms
                price = 0.05
                notes = "(%.1f V - %.1f V) / %g mA = %d Ohm, next E24 value %d Ohm: %.2f mA" % (
                    design["figures"]["logic_volts"], spec["led"]["vf"], spec["led"]["ma"],
                    int((design["figures"]["logic_volts"] - spec["led"]["vf"]) * 1000 / spec["led"]["ma"] + 0.5),
                    ohms, design["figures"]["led_ma"])
        else:
            desc, example, price, notes = catalogue[(prefix, part)]
        qty = len(refs)
        if prefix == "PX":
            price, qty = price, 1
        out.append([ref_ranges(refs), desc, str(qty), example, "%.2f" % price, notes])
        total += price * qty
    for desc, qty, example, price, notes in _sundries(design):
        out.append(["", desc, str(qty), example, "%.2f" % price, notes])
        total += price * qty
    out.append(["", "TOTAL (approximate)", "", "", "%.2f" % total, "single units, before shipping and tax"])
    return out


def _sundries(design):
    """What the diagram does not draw but a build needs."""
    spec = design["spec"]
    lines = len(design["chains"])
    out = []
    if design["onboard"]:
        return [("display case or enclosure with a window for the board (e.g. a 3D-printed or acrylic case)", 1,
                 "", 10.00, "the keys stay reachable; the USB cable clamped inside"),
                ("cable clamp / P-clip for the USB cable (strain relief)", 1, "", 1.00, "")]
    if design["pico"]:
        out.append(("micro-USB cable, data (deploy and host link)", 1, "any USB-A/C to micro-B data cable", 3.00,
                    "leave it unplugged in the museum unless the host link is used"))
    else:
        out.append(("microSD card 16 GB A1", 1, "SanDisk Ultra 16GB A1", 8.00, "Raspberry Pi OS Lite (64-bit)"))
        out.append(("40-way ribbon cable with IDC sockets and breakout", 1, "40-pin GPIO ribbon + T-cobbler", 6.00,
                    "the loom plugs in: swap a Pi without soldering"))
    out.append(("stripboard 100 x 160 mm", 1, "Vero 01-0021", 5.00, "carries the resistors, diodes and level shifter"))
    out.append(("JST-XH 2.54 mm connector pairs (loom to stripboard)", max(2, (lines + 7) // 8), "JST B8B-XH-A + XHP-8",
                0.60, "one 8-way plug per loom, keyed: looms swap without tools"))
    out.append(("hook-up wire 22 AWG stranded, 3 colours (red +5V, black ground, another for signals), metres",
                max(5, lines // 2), "Alpha Wire 3051", 0.40, "20 AWG or thicker for +5V and ground to the pixels"))
    out.append(("front panel, 4 mm birch plywood or 3 mm acrylic, laser cut (panel.svg)", 1, "", 15.00,
                "mat, light-coloured face; black engraving"))
    out.append(("enclosure hardware: M3 standoffs, screws and nuts (set)", 1, "M3 x 10 mm nylon standoff kit", 6.00,
                "mount the boards off the panel"))
    out.append(("cable tie mounts, P-clips and cable ties (strain relief)", 1, "", 4.00,
                "every loom clamped within 50 mm of its connector"))
    if spec["lamps"]["kind"] == "neopixel":
        out.append(("lamp diffusers, 12 mm opal acrylic discs or domes", sum(spec["lamps"]["layout"]) + 4, "", 0.20,
                    "one per lamp hole"))
    else:
        out.append(("LED bezels 5 mm, panel mount", sum(len(r) for r in spec["lamps"]["rows"]) + 4, "", 0.15,
                    "one per lamp hole"))
    return out


def text(design):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    for row in rows(design):
        writer.writerow(row)
    return buf.getvalue()
