# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Design rules that check what the circuit does, not only what the BOM lists.

Each rule computes a figure from the design and the datasheets (``parts.json``)
and compares it with what the part needs; ``checks(design)`` gives one line per
broken rule, e.g.

    pico-grid: U1 74AHCT125 gets 4.29 V at 3.22 A (needs 4.5 V): 4.75 V - 0.46 V of series drops

- U1's supply at the worst case: the adapter's low end less every series drop
  between the jack and U1 (diodes, fuse, MOSFETs, jack and wiring);
- ESD arrays per loom: an array sits at its loom's plug, so a loom's lines
  cannot borrow a neighbour loom's spare channels;
- key-matrix levels: a column's pull-up charges the loom, the diodes, the ESD
  array and the pin to VIH within the scan's settle time, and a held key reads
  under VIL with margin however many keys of its row are held (``keylevel``);
- checkpoints: no window accepts a rail below what U1 needs;
- the pixels' conductors, jack to the last pixel: each within its rating and the farthest pixel above its
  VDD minimum at the worst case, fed at both ends where one feed is not enough;
- the socket on the service face (``enclosure.socket_check``);
- every conductor of the power path rated for the current a fault can drive through it (the adapter's limit),
  or behind a fuse that opens any current above its rating within ``FAULT_SECONDS`` (``fault_check``).
(Polyfuses held at 50 degC are ``rules.ratings``; the fuse is chosen in ``circuit.fuse_key``.)
"""

import math

from . import parts as catalogue
from .circuit import fuse_key, input_designs, supply_low, u1_needs


def input_drops(design):
    """[(what, volts)] between the jack and U1 at the worst case: the design's ``input`` series parts."""
    amps = catalogue.worst_amps(design)
    out = []
    for what, ohms, volts in design.dc_input["series"] if design.dc_input else ():
        out.append((what, volts + ohms * amps))
    return out


def u1_volts(design):
    return supply_low(design) - sum(v for _, v in input_drops(design))


def u1_check(design):
    if not design.pixels or not catalogue.has_dc_input(design):
        return []
    volts = u1_volts(design)
    if volts < u1_needs() - 1e-9:
        return [
            "%s: U1 74AHCT125 gets %.2f V at %.2f A (needs %.1f V): %.2f V - %.2f V of series drops (%s)"
            % (
                design.name,
                volts,
                catalogue.worst_amps(design),
                u1_needs(),
                supply_low(design),
                supply_low(design) - volts,
                ", ".join("%s %.2f V" % d for d in input_drops(design)),
            )
        ]
    return []


def esd_need(design):
    """{loom ref: arrays}: every loom's visitor-touched lines, 4 to an array; and the pixels' own loom where a
    visitor touches the pixels themselves (``parts.touched_pixels``): one array at the first pixel, on its
    data and, through the array's rail, its +5V."""
    lines = catalogue.part("srv05-4")["lines"]
    out = {}
    for ref, chains in catalogue.looms(design):
        touched = [c for c in chains if c.group in ("buttons", "key matrix")]
        if touched:
            out[ref] = int(math.ceil(len(touched) / float(lines)))
        elif catalogue.is_data_loom(chains) and catalogue.touched_pixels(design):
            out[ref] = 1
    return out


def esd_check(design, fitted):
    """``fitted``: how many arrays the BOM lists."""
    need = sum(esd_need(design).values())
    if fitted < need:
        return [
            "%s: %d SRV05-4 arrays listed, its looms need %d (%s)"
            % (design.name, fitted, need, ", ".join("%s %d" % item for item in sorted(esd_need(design).items())))
        ]
    return []


def column_load_pf(design):
    """A key-matrix column's capacitance: its loom, one diode per row (its datasheet's maximum), the ESD
    array, the pin."""
    f = catalogue.part("loom-capacitance")
    rows = len(design.matrix["rows"])
    diode_pf = catalogue.part(design.matrix.get("diode", "1n4148")).get("cd_pf", f["diode_pf"])
    return catalogue.LOOM_MAX_MM / 1000.0 * f["wire_pf_per_m"] + rows * diode_pf + f["esd_pf"] + f["pin_pf"]


def column_settle_us(design):
    """Time for a released column to rise from 0 V to VIH: (pull-up + series) x C x ln(V / (V - VIH)),
    the pull-up 1 % high and the 3V3 rail 5 % low (``keylevel``'s corners)."""
    from . import keylevel

    f = catalogue.part("loom-capacitance")
    pullup = design.matrix.get("pullup_ohms") or f["pullup_ohms_max"]  # none fitted: the pin's own, at its weakest
    ohms = (pullup + design.matrix.get("column_ohms", 220)) * (1 + keylevel.RESISTOR_TOLERANCE)
    volts = f["logic_volts"] * (1 - keylevel.RAIL_TOLERANCE)
    c = column_load_pf(design) * 1e-12
    return ohms * c * math.log(volts / (volts - keylevel.gpio()["vih"])) * 1e6


def pressed_volts(design):
    """[(keys held in one row, the pin's level at its worst corner, the row's current)], 1 .. every column."""
    from . import keylevel

    out = []
    for held in range(1, len(design.matrix["columns"]) + 1):
        _, volts, amps = keylevel.worst(design.matrix, held)
        out.append((held, volts, amps))
    return out


def matrix_check(design):
    """Both edges of a key-matrix column: a released one rises to VIH within the scan's settle time and
    stays above VIH with every other key held (the diodes' reverse current); a pressed one reads under VIL
    less ``keylevel.MARGIN_V`` with any number of keys held in its row, at every corner, and the row's pin
    sinks no more than its drive strength (above it the RP2040 guarantees no VOL)."""
    if not design.matrix:
        return []
    from . import keylevel

    f = catalogue.part("loom-capacitance")
    g = keylevel.gpio()
    out = []
    t = column_settle_us(design)
    if t > f["settle_us"]:
        out.append(
            "%s: a key-matrix column settles in %.2f us (%.0f pF), the scan reads after %.1f us"
            % (design.name, t, column_load_pf(design), f["settle_us"])
        )
    released = keylevel.released_volts(design.matrix)
    if released < g["vih"] + keylevel.MARGIN_V:
        out.append(
            "%s: a released key-matrix column reads %.2f V with every other key held (VIH %.1f V + %.1f V)"
            % (design.name, released, g["vih"], keylevel.MARGIN_V)
        )
    for held, volts, _amps in pressed_volts(design):
        if volts > g["vil"] - keylevel.MARGIN_V:
            out.append(
                "%s: %d key%s held in a row read%s %.2f V at the column pin (VIL %.1f V - %.1f V margin)"
                % (
                    design.name,
                    held,
                    "s" if held > 1 else "",
                    "" if held > 1 else "s",
                    volts,
                    g["vil"],
                    keylevel.MARGIN_V,
                )
            )
            break
    amps = pressed_volts(design)[-1][2]
    if amps * 1000 > g["drive_ma"]:
        out.append(
            "%s: a row pin sinks %.1f mA with every key of its row held, its drive is %d mA"
            % (design.name, amps * 1000, g["drive_ma"])
        )
    return out


def checkpoint_check(design, cps):
    """No checkpoint of U1's rail accepts less than U1 needs."""
    out = []
    if not design.pixels:
        return out
    for cp in cps:
        if cp["key"] not in ("rail", "rail-lit"):
            continue
        for _, expect in cp["readings"]:
            lo = float(expect.split("–")[0])
            if lo < u1_needs() - 1e-9:
                out.append("%s: %s accepts %.2f V on +5V, U1 needs %.1f V" % (design.name, cp["id"], lo, u1_needs()))
    return out


SMD_PACKAGES = ("SOT-23", "SOT-223", "SMA", "SMB", "SMC", "SOD-", "SOIC", "QFN", "TSSOP", "DPAK", "0805", "1206")


def smd_check(design, rows):
    """A workshop solders on stripboard: every surface-mount part comes with an adapter board (a named
    breakout) in the same quantity. ``rows``: the BOM's."""
    out = []
    adapters = [r for r in rows if "adapter board" in r[1]]
    for row in rows:
        if row in adapters or not any(p in row[1] for p in SMD_PACKAGES):
            continue
        if not any(a[2] == row[2] for a in adapters):
            out.append("%s: %s is surface-mount, with no adapter board for it" % (design.name, row[1].split(",")[0]))
    return out


# --- the pixels' conductors: jack to last pixel --------------------------------

_LADDERS: dict = {}


def pixel_gaps_mm(design):
    """[mm of conductor between consecutive pixels] in chain order (the panel's holes; a string's pitch at least)."""
    from . import panel

    if design.name not in _LADDERS:
        pitch = (
            catalogue.part(catalogue.BULLET_PIXEL)["string_pitch_mm"]
            if catalogue.lamp_part(design) == catalogue.BULLET_PIXEL
            else 0.0
        )
        _LADDERS[design.name] = [max(mm, pitch) for _, _, mm in panel.pixel_gaps(design.name, design.spec)]
    return _LADDERS[design.name]


def feed_ohms(far=False, wire="wire-18"):
    """A pixel feed's loop resistance: the +5V loom (two 18 AWG each way, Mini-Fit contacts), or the far end's pair
    (``wire``: ``lead_wire``)."""
    if not far:
        return 2 * catalogue.LOOM_OHMS
    length = catalogue.part("pixel-conductor")["far_feed_m"]
    return 2 * length * catalogue.part(wire)["ohms_per_m"] + 0.02


def pixel_ladder(design, both_ends, rail_volts, groups=None):
    """(pixel volts, conductor amps, feed amps): every pixel drawing its share of the worst case. Where the design
    has pixel groups (``pixel_groups``) each group is fed at its first pixel from the fuse board at the loom's end,
    through its own fuse and lead, its +5V cut from its neighbours; else the string is fed at the first pixel (and
    the last, ``both_ends``) through its feed. The string's +5V and ground each carry a segment's current (solved as
    a resistor ladder)."""
    gaps = pixel_gaps_mm(design)
    n = len(gaps) + 1
    if groups is None:
        groups = pixel_groups(design)
    per_ohm = catalogue.part(catalogue.part("pixel-conductor")["as"])["ohms_per_m"] / 1000.0
    seg = [2 * mm * per_ohm for mm in gaps]  # + and ground: the loop
    amps = catalogue.worst_amps(design) - (design.spec["supply"].get("board_ma", 0) / 1000.0)
    load = amps / n
    cut = {first - 1 for first, _ in groups[1:]}  # the +5V cut between groups
    # tridiagonal conductance system G v = b
    lower, diag, upper, b = [0.0] * n, [0.0] * n, [0.0] * n, [-load] * n
    for k, r in enumerate(seg):
        if k in cut:
            continue
        g = 1.0 / r
        diag[k] += g
        diag[k + 1] += g
        upper[k] = -g
        lower[k + 1] = -g
    wire = lead_wire(design)
    if groups:
        board = rail_volts - amps * feed_ohms()  # the loom carries every group's current
        feeds_at = [(first, board, group_feed_ohms()) for first, _ in groups]
    else:
        feeds_at = [(0, rail_volts, feed_ohms())] + ([(n - 1, rail_volts, feed_ohms(True, wire))] if both_ends else [])
    for node, volts, ohms in feeds_at:
        diag[node] += 1.0 / ohms
        b[node] += volts / ohms
    for k in range(1, n):  # Thomas algorithm
        m = lower[k] / diag[k - 1]
        diag[k] -= m * upper[k - 1]
        b[k] -= m * b[k - 1]
    v = [0.0] * n
    v[-1] = b[-1] / diag[-1]
    for k in range(n - 2, -1, -1):
        v[k] = (b[k] - upper[k] * v[k + 1]) / diag[k]
    seg_amps = [0.0 if k in cut else abs(v[k] - v[k + 1]) / seg[k] for k in range(n - 1)] or [0.0]
    feeds = [(volts - v[node]) / ohms for node, volts, ohms in feeds_at]
    return v, seg_amps, feeds


GROUP_LEAD = "wire-22"  # a group's lead from its fuse to its first pixel: behind the fuse, so the fuse protects it
FUSE_WARM = 2.0  # a fuse's resistance carrying its load, x its cold figure (the datasheet gives only the cold)


def group_fuse():
    """The largest 5 x 20 mm fast fuse that protects the pixels' conductors (``fuse_protects``)."""
    key = catalogue.part("pixel-conductor")["as"]
    return largest_protecting_fuse(catalogue.trusted(key, catalogue.part(key)["amps"]))  # as fault_rows rates it


def group_feed_ohms():
    """A group's feed beyond the fuse board: its fuse (warm) and its lead, + and ground, as long as the far feed
    (the panel's width)."""
    cold = {float(k): v for k, v in catalogue.part(FUSE)["cold_ohms"].items()}
    fuse = cold[group_fuse()] * FUSE_WARM
    length = catalogue.part("pixel-conductor")["far_feed_m"]
    return fuse + 2 * length * catalogue.part(GROUP_LEAD)["ohms_per_m"]


def pixel_groups(design):
    """[(first pixel, pixels)]: the chain cut into the fewest groups of consecutive pixels whose worst case each
    fits the fuse that protects the pixels' conductors (x the derating), as even as they go; [] without pixels or a
    DC input. Each group is fed from the fuse board through its own fuse (``feed_fuses``), its +5V cut from the
    next group's."""
    if not design.pixels or not catalogue.has_dc_input(design):
        return []
    fuse = group_fuse()
    n = len(pixel_gaps_mm(design)) + 1
    each = (catalogue.worst_amps(design) - design.spec["supply"].get("board_ma", 0) / 1000.0) / n
    most = int(fuse * catalogue.derate() / each + 1e-9) if fuse else 0
    if most < 1:
        return []
    count = -(-n // most)
    out, first = [], 0
    for k in range(count):
        size = n // count + (1 if k < n % count else 0)
        out.append((first, size))
        first += size
    return out


def pixel_rule_lines(design, both_ends):
    """What a feed arrangement breaks: a pixel conductor over its rating, or the far pixel under its VDD minimum
    at the worst case on the adapter's -5 %."""
    if not design.pixels or not catalogue.has_dc_input(design):
        return []
    v, seg_amps, _ = pixel_ladder(design, both_ends, u1_volts(design))
    key = catalogue.part("pixel-conductor")["as"]
    rating = catalogue.trusted(key, catalogue.part(key)["amps"]) * catalogue.derate()
    out = []
    if max(seg_amps) > rating + 1e-9:
        out.append(
            "%s: the pixels' conductors carry %.2f A, rated %.2f A (22 AWG, x 80 %%)"
            % (design.name, max(seg_amps), rating)
        )
    vdd_min = catalogue.part("ic-supply")["ranges"]["ws2812b"][0]
    if min(v) < vdd_min:
        out.append(
            "%s: the farthest pixel gets %.2f V at the worst case, its VDD minimum is %.1f V"
            % (design.name, min(v), vdd_min)
        )
    return out


def feed_both_ends(design):
    """True where the pixels are not fed in groups and one feed at the first pixel breaks a pixel rule (the drop
    or a conductor's current)."""
    return not pixel_groups(design) and bool(pixel_rule_lines(design, False))


def pixel_check(design):
    """The pixels' conductors with the feeds the design has (both ends where one is not enough)."""
    return pixel_rule_lines(design, feed_both_ends(design))


def pixel_figures(design):
    """{one end / both ends / in groups: (far pixel volts, conductor amps max, feed amps)} for the docs."""
    out = {}
    for label, both, groups in (
        ("one end", False, []),
        ("both ends", True, []),
        ("in groups", False, pixel_groups(design)),
    ):
        if label == "in groups" and not groups:
            continue
        v, seg, feeds = pixel_ladder(design, both, u1_volts(design), groups)
        out[label] = (min(v), max(seg), feeds)
    return out


FAULT_SECONDS = 2.0  # a fault that overloads a conductor is opened within this (IEC 60127-2's bound at 275 %)
FUSE = "fuse-5x20-fast"
OPEN = "a fuse per feed would have to open"  # issue 42, H3: the words for pixel conductors nothing protects
BEHIND_FUSES = ("pixel conductors", "W pixel groups")  # power_path's conductors a group's fuse protects
PARALLEL = {"W+5V": 2}  # the +5V loom: two 18 AWG each way (J2 pins 1-2, 3-4), sharing a fault (IEC 60364-4-43 433.4)


def fault_amps(design):
    """The most a fault can draw: the LPS adapter's overload point (``parts.OVERLOAD`` x its rating); no
    polyfuse of the input trips below it."""
    return design.spec["supply"]["amps"] * catalogue.OVERLOAD


def fault_rows(design):
    """[(conductor, part key, worst-case A, fault A, rating A)]: each conductor of the power path against the
    current a short behind it draws until someone unplugs the adapter (ratings pessimistic while assumed)."""
    if not catalogue.has_dc_input(design):
        return []
    out = []
    for ref, key, amps in power_path(design):
        p = catalogue.part(key)
        if p["kind"] not in ("connector", "crimp", "wire"):
            continue
        ways = PARALLEL.get(ref, 1)
        out.append((ref, key, amps / ways, fault_amps(design) / ways, catalogue.trusted(key, p["amps"])))
    return out


def fault_short_of(design):
    """The conductors rated below the current a fault can drive through them."""
    return [row for row in fault_rows(design) if row[4] < row[3] - 1e-9]


def fault_fused(design):
    """The conductors rated below the fault current that their group's fuse protects (``fault_check`` passes them)."""
    blamed = " ".join(fault_check(design))
    return [row for row in fault_short_of(design) if row[0] in BEHIND_FUSES and "%s (" % row[0] not in blamed]


def fuse_opens_within(amps, rating):
    """The longest a 5 x 20 mm fast fuse of ``rating`` takes to open at ``amps`` (its maker's IEC 60127-2 limits),
    or None where the datasheet promises no opening at that current."""
    best = None
    for multiple, _, most in catalogue.part(FUSE)["opening"]:
        if most is not None and amps >= multiple * rating - 1e-9:
            best = most if best is None else min(best, most)
    return best


def fuse_for_feed(feed_amps):
    """The smallest 5 x 20 mm fast fuse that carries a feed's worst case within the derating."""
    for rating in catalogue.part(FUSE)["ratings"]:
        if rating * catalogue.derate() >= feed_amps - 1e-9:
            return rating
    return None


def fuse_protects(rating, conductor_amps):
    """True where every current above the conductor's rating opens the fuse within ``FAULT_SECONDS`` (in a
    string fed at both ends a feed's fuse carries at least what any conductor behind it carries)."""
    opens = fuse_opens_within(conductor_amps, rating)
    return opens is not None and opens <= FAULT_SECONDS


def largest_protecting_fuse(conductor_amps):
    fits = [r for r in catalogue.part(FUSE)["ratings"] if fuse_protects(r, conductor_amps)]
    return max(fits) if fits else None


def feed_fuses(design):
    """[(feed, its worst-case A, fuse A)]: the 5 x 20 mm fast fuse of each pixel group (``pixel_groups``); none
    where the pixels are not fed in groups."""
    groups = pixel_groups(design)
    if not groups:
        return []
    _, _, feeds = pixel_ladder(design, False, u1_volts(design), groups)
    return [
        ("group %d (pixels %d-%d)" % (k + 1, first, first + size - 1), amps, group_fuse())
        for k, ((first, size), amps) in enumerate(zip(groups, feeds))
    ]


def fault_check(design):
    """Kind: *a conductor rated below the fault current that can reach it*. Every conductor of the power path,
    jack to the last pixel, is rated for the adapter's limit (a short right behind it draws that until someone
    unplugs the adapter), or sits behind a fuse that carries its feed's worst case and opens any current above
    the conductor's rating within ``FAULT_SECONDS``."""
    out = []
    protected = feed_fuses(design)
    for ref, key, _amps, fault, rating in fault_short_of(design):
        if (
            ref in BEHIND_FUSES
            and protected
            and all(fuse_protects(f, rating) and f * catalogue.derate() >= a - 1e-9 for _, a, f in protected)
        ):
            continue
        words = "%s: %s (%s) rated %.2f A, a short behind it draws the adapter's limit, %.2f A" % (
            design.name,
            ref,
            catalogue.part(key)["part"].split(",")[0],
            rating,
            fault,
        )
        if ref in BEHIND_FUSES:
            _, _, feeds = pixel_ladder(design, feed_both_ends(design), u1_volts(design))
            most = largest_protecting_fuse(rating)
            need = max(fuse_for_feed(a) or float("inf") for a in feeds)
            words += "; %s %.2f A within %g s (%s) and carry %s A (needs %s A)" % (
                OPEN,
                rating,
                FAULT_SECONDS,
                "%g A at most" % most if most else "none does",
                " + ".join("%.2f" % a for a in feeds),
                "%g" % need,
            )
        out.append(words)
    return out


def fault_figures(design):
    """[(conductor, fault A, rating A, protected by)] for the docs."""
    out = []
    protected = feed_fuses(design)
    for ref, key, _, fault, rating in fault_rows(design):
        by = "its rating"
        if rating < fault - 1e-9:
            by = (
                ("fuses %s A" % " + ".join("%g" % f for _, _, f in protected))
                if (ref in BEHIND_FUSES and protected and not fault_check(design))
                else "NOTHING"
            )
        out.append((ref, key, fault, rating, by))
    return out


def fault_report():
    """The docs' table: every conductor of every board with a DC input against the fault current, and the
    5 x 20 mm fuse a feed would need (``python -m nimatron_host.hardware.electrical``)."""
    rows = [
        "| board | conductor | part | fault current, per wire (A) | rating (A) | protected by |",
        "|---|---|---|---|---|---|",
    ]
    notes = []
    for design in input_designs():
        for ref, key, fault, rating, by in fault_figures(design):
            rows.append("| `%s` | %s | `%s` | %.2f | %.2f | %s |" % (design.name, ref, key, fault, rating, by))
        _, _, feeds = pixel_ladder(design, feed_both_ends(design), u1_volts(design))
        need = [fuse_for_feed(a) for a in feeds]
        rating = catalogue.trusted("wire-22", catalogue.part("wire-22")["amps"])
        notes.append(
            "- `%s`: feeds carry %s A, so a fuse per feed is at least %s A; at the adapter's limit (%.2f A) "
            "it opens within %s; to protect the pixels' conductors (%.2f A) it may be %s"
            % (
                design.name,
                " + ".join("%.2f" % a for a in feeds),
                " + ".join("%g" % n for n in need),
                fault_amps(design),
                " and ".join(
                    "%s s" % fuse_opens_within(fault_amps(design), n)
                    if fuse_opens_within(fault_amps(design), n) is not None
                    else "no promised time"
                    for n in need
                ),
                rating,
                "%g A at most" % largest_protecting_fuse(rating),
            )
        )
    return rows + [""] + notes


def power_path(design):
    """[(ref, part key, amps)]: every part the supply current passes, jack to the last pixel (the pixels'
    own conductors carry the most of any segment; fed in groups from the fuse board, ``electrical.pixel_groups``)."""
    if not catalogue.has_dc_input(design):
        return []
    amps = catalogue.worst_amps(design)
    loom = catalogue.POWER_LOOM
    out = [
        ("J1", catalogue.JACK, amps),
        ("W J1 lead", lead_wire(design), amps),
        ("F1", fuse_key(design), amps),
        ("Q1", "sup90p06", amps),
        ("Q2", "sup90p06", amps),
        (loom, "minifit-jr", amps),
        (loom, "minifit-jr-crimp", amps),
        ("W+5V", "wire-18", amps),
    ]
    if design.pixels:
        both = feed_both_ends(design)
        _, seg_amps, feeds = pixel_ladder(design, both, u1_volts(design))
        if both:
            out.append(("W+5V far end", lead_wire(design), feeds[1]))
        if pixel_groups(design):
            out.append(("W fuse board", lead_wire(design), amps))
            out.append(("W pixel groups", GROUP_LEAD, max(feeds)))
        out.append(("pixel conductors", catalogue.part("pixel-conductor")["as"], max(seg_amps)))
    return out


def lead_wire(design):
    """The single-pair leads (J1's tags to the stripboard, the far end's feed): 18 AWG where it is rated for the
    adapter's limit, else 16 AWG (``electrical.fault_check``); the +5V loom has two 18 AWG each way."""
    if fault_amps(design) > catalogue.trusted("wire-18", catalogue.part("wire-18")["amps"]) + 1e-9:
        return "wire-16"
    return "wire-18"


def esd_arrays(design):
    """Arrays sit at their loom's plug: counted loom by loom (``electrical.esd_need``)."""
    return sum(esd_need(design).values())


if __name__ == "__main__":
    print("\n".join(fault_report()))
