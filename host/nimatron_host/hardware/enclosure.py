# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The enclosure of a board with a DC jack: which face a visitor sees, and where the supply comes in.

The front panel (``panel.svg``) is the visitor's face: lamps, buttons, words and
nothing else. The supply's socket (J1) sits on the service face, the removable
back that stands against the wall or the plinth, with its rating and polarity
marked beside it and the adapter's lead held by a clamp, so a tug pulls on the
clamp and not on the plug. ``draw(design)`` is the drawing (``enclosure.svg``):
both faces at their real size and the inlet enlarged; ``socket_check(design)`` is the
rule (kind: *a socket a visitor can reach*): no socket on the visitor's face,
exactly one on the service face, marked with the volts, the amps and the
polarity, and retained; and keyed or locking, so the machine's own adapter is the only plug it takes and a
tug on the lead does not pull it out (the part's ``keyed``/``locking`` in ``parts.json``).

``pairs_check(design)`` is the rule of kind *contacts joined before they are known*: J1 has two contacts
of each polarity, and its tails are joined in pairs. Its + and − sets must not overlap and must cover
every contact, must be the contacts the adapter's plug puts +V and −V on (the plug's own numbers,
mapped through ``plug_to_jack``: Mean Well and Kycon number the same contacts differently), the
harness must join exactly those pairs, and a checkpoint must measure the four tails apart, with the
adapter plugged in, before any checkpoint that names a joined pair: joined wrong, a + contact and a
− contact short the adapter.
"""

import xml.etree.ElementTree as ET

from . import panel, parts as catalogue
from .circuit import revision
from .svg import Drawing

DEPTH_MM = 100  # outside: 80 mm inside (bom) + the 12 mm back + the panel
GAP_MM = 40  # between the views
JACK_FROM_SIDE_MM = 50  # J1's centre from the service face's right edge (seen from behind) ...
JACK_FROM_BOTTOM_MM = 40  # ... and from its bottom: low, where the lead drops to the floor
CLAMP_BELOW_MM = 30  # the lead's clamp, below J1
DETAIL = 3.0  # the inlet's enlargement


def polarity(jack=None):
    """'pins 1+3 +, 2+4 −': J1's pairs as the marking and the drawings write them (parts.json ``contacts``)."""
    return "pins %s +, %s −" % (catalogue.pair("+", jack), catalogue.pair("-", jack))


def panel_size(design):
    d = panel.Panel(design.name, design.spec, "en").draw()
    return d.width, d.height


def marking(design):
    """The words at the inlet: what it takes, how much, which way round."""
    f = design.figures
    return [
        "%s  %g V DC, %g A max" % (design.jack, f["volts"], design.spec["supply"]["amps"]),
        "%s  (4-pin power DIN, locking)" % polarity(),
        "own adapter only: %s" % supply_part(design),
    ]


def pin_xy(jack=None):
    """{pin: (x, y)}: the jack's face seen from the plug's side, key up (parts.json ``face``)."""
    return {int(pin): tuple(xy) for pin, xy in catalogue.part(jack or catalogue.JACK)["face"].items()}


def _polarity_symbol(d, x, y, scale=1.0):
    """The socket's face: four pins in a keyed shell, each marked + or −."""
    r = 4.0 * scale
    d.circle(x, y, r, stroke_width=0.5 * scale)
    d.rect(x - 0.8 * scale, y - r - 0.6 * scale, 1.6 * scale, 1.6 * scale, fill="#000000", stroke_width=0.2)  # the key
    sign = dict.fromkeys(catalogue.contacts()["+"], "+")
    for pin, (px, py) in pin_xy().items():
        cx, cy = x + px * 1.6 * scale, y + py * 1.6 * scale
        d.circle(cx, cy, 0.5 * scale, fill="#000000", stroke_width=0.2)
        d.text(
            x + px * (r + 3 * scale),
            cy + 1.4 * scale,
            "%d%s" % (pin, sign.get(pin, "−")),
            size=3 * scale,
            anchor="middle",
            weight="bold",
        )


def _face(d, x, y, w, h, face, words):
    d.group(class_="face", data_face=face)
    d.rect(x, y, w, h, stroke_width=1.0, fill="#fbf8f1" if face == "visitor" else "#eef2f6")
    d.text(x, y - 6, words, size=7, weight="bold")


def draw(design):
    """The visitor's face, the service face with J1, the side, and the inlet enlarged."""
    w, h = panel_size(design)
    cut = catalogue.part(catalogue.JACK)["cutout"]
    jack = cut.get("side_mm", cut.get("diameter_mm"))
    width = 2 * w + DEPTH_MM + 4 * GAP_MM
    height = h + 250
    d = Drawing(width, height, unit="mm", title="Nimatron %s enclosure" % design.name)
    d.text(GAP_MM, 14, "Nimatron %s: enclosure, the two faces (mm)" % design.name, size=9, weight="bold")
    top = 32
    # the visitor's face: the panel, nothing else
    _face(d, GAP_MM, top, w, h, "visitor", "VISITOR'S FACE: the front panel (panel.svg), no socket")
    d.text(GAP_MM + w / 2.0, top + h / 2.0, "lamps, buttons, words", size=8, anchor="middle", fill="#777777")
    d.end()
    # the side: how deep, which way the faces look
    sx = 2 * GAP_MM + w
    d.group(class_="face", data_face="side")
    d.rect(sx, top, DEPTH_MM, h, stroke_width=1.0)
    d.text(sx, top - 6, "SIDE", size=7, weight="bold")
    d.text(sx + DEPTH_MM / 2.0, top + h + 10, "%d mm deep (80 mm inside)" % DEPTH_MM, size=5, anchor="middle")
    d.text(sx + 3, top + 12, "← visitor", size=5)
    d.text(sx + DEPTH_MM - 3, top + 12, "service →", size=5, anchor="end")
    d.end()
    # the service face, seen from behind: J1 low at the right, its marking beside it, the clamp below
    rx = 3 * GAP_MM + w + DEPTH_MM
    _face(d, rx, top, w, h, "service", "SERVICE FACE: the removable back, against the wall or plinth")
    jx, jy = rx + w - JACK_FROM_SIDE_MM, top + h - JACK_FROM_BOTTOM_MM
    _cutout(d, jx, jy, design)
    d.text(jx, jy - jack / 2.0 - 3, design.jack, size=5, anchor="middle", weight="bold")
    d.add(
        "rect",
        x=jx - 8,
        y=jy + CLAMP_BELOW_MM - 3,
        width=16,
        height=6,
        rx=3,
        class_="retention",
        fill="none",
        stroke="#000000",
        stroke_width=0.6,
    )
    d.text(jx + 11, jy + CLAMP_BELOW_MM + 2, "clamp", size=4)
    d.group(class_="inlet-marking")
    lines = marking(design)
    for n, text in enumerate(lines[:2]):
        d.text(jx - jack / 2.0 - 6, jy - 2 + 7 * n, text, size=5, anchor="end", weight="bold")
    _polarity_symbol(d, jx - jack / 2.0 - 30, jy + 18, scale=1.5)
    d.end()
    d.end()
    _detail(d, GAP_MM, top + h + 24, design)
    d.text(width - 6, height - 4, revision(design.name), size=4, anchor="end", fill="#555555", class_="revision")
    return d.document()


def _detail(d, x, y, design):
    """The inlet, three times its size: socket, marking, clamp and the lead's loop."""
    k = DETAIL
    d.text(
        x,
        y,
        "THE INLET (x%g): %s on the service face, the lead clamped below it" % (k, design.jack),
        size=6,
        weight="bold",
    )
    cx, cy = x + 40, y + 45
    _cutout(d, cx, cy, design, k, detail=True)
    for px, py in pin_xy().values():
        d.circle(cx + px * 1.6 * k, cy + py * 1.6 * k, 0.5 * k, fill="#000000")
    cut = catalogue.part(catalogue.JACK)["cutout"]
    d.text(
        x,
        y + 8,
        "%s %s: %s"
        % (design.jack, catalogue.part(catalogue.JACK)["part"].split(" panel")[0], catalogue.cutout_words()),
        size=5,
    )
    if "screw" in cut:
        d.text(
            x,
            cy + (CLAMP_BELOW_MM + 14) * k,
            "the jack behind the back, %s; the back pocketed from "
            "inside to %g mm at the jack, so the plug reaches it" % (cut["screw"], cut["max_wall_mm"]),
            size=4,
        )
    clamp_y = cy + CLAMP_BELOW_MM * k
    d.path(
        "M%.1f %.1f C %.1f %.1f %.1f %.1f %.1f %.1f" % (cx, cy, cx + 40, cy + 20, cx + 40, clamp_y - 20, cx, clamp_y),
        stroke="#555555",
        stroke_width=1.6,
    )
    d.line(cx, clamp_y, cx, clamp_y + 30, stroke="#555555", stroke_width=1.6)
    d.rect(cx - 24, clamp_y - 9, 48, 18, rx=9, stroke_width=0.8)
    d.text(cx + 30, clamp_y + 2, "P-clip screwed to the back: the lead, not the plug, takes a pull", size=5)
    lines = marking(design)
    for n, text in enumerate(lines):
        d.text(cx + 60, cy - 8 + 10 * n, text, size=7, weight="bold" if n < 2 else None)
    _polarity_symbol(d, cx + 90, cy + 32, scale=2.0)
    d.text(
        cx + 60, cy + 50, "the marking: engraved in the back or a printed label beside the socket, 5 mm letters", size=5
    )


def _cutout(d, x, y, design, k=1.0, detail=False):
    """J1's cut-out (parts.json ``cutout``): the square opening the plug's body passes through, and the two
    screw holes on the key's axis; the jack sits behind the panel."""
    cut = catalogue.part(catalogue.JACK)["cutout"]
    extra = {} if detail else {"class_": "jack", "data_ref": design.jack}
    if cut["shape"] == "round":
        d.add(
            "circle",
            cx=x,
            cy=y,
            r=cut["diameter_mm"] / 2.0 * k,
            fill="none",
            stroke="#000000",
            stroke_width=0.8,
            **extra,
        )
        return
    side = cut["side_mm"] * k
    d.add(
        "rect",
        x=x - side / 2.0,
        y=y - side / 2.0,
        width=side,
        height=side,
        rx=0.5 * k,
        fill="none",
        stroke="#000000",
        stroke_width=0.8,
        **extra,
    )
    for dy in (-1, 1):
        d.add(
            "circle",
            cx=x,
            cy=y + dy * cut["screw_pitch_mm"] / 2.0 * k,
            r=cut["screw_hole_mm"] / 2.0 * k,
            fill="none",
            stroke="#000000",
            stroke_width=0.5,
            **({} if detail else {"class_": "jack-screw"}),
        )


SVG = "{http://www.w3.org/2000/svg}"


def face_sockets(svg_text, face):
    """The sockets (``class="jack"``) drawn on one face (``data-face``) of the enclosure drawing."""
    root = ET.fromstring(svg_text.encode("utf-8"))
    return [c for g in root.iter(SVG + "g") if g.get("data-face") == face for c in g.iter() if c.get("class") == "jack"]


def marking_words(svg_text):
    """Every word of the inlet's marking (``class="inlet-marking"``)."""
    root = ET.fromstring(svg_text.encode("utf-8"))
    return " ".join(
        t.text or "" for g in root.iter(SVG + "g") if g.get("class") == "inlet-marking" for t in g.iter(SVG + "text")
    )


def socket_check(design, panel_svg=None, enclosure_svg=None, jack=None):
    """Kind: *a socket a visitor can reach*. One line per broken rule. ``jack``: the parts.json key of J1."""
    if not catalogue.has_dc_input(design):
        return []
    jack = jack or catalogue.JACK
    if panel_svg is None:
        panel_svg = panel.draw(design.name, design.spec)
    if enclosure_svg is None:
        enclosure_svg = draw(design)
    out = []
    if 'class="jack"' in panel_svg or 'class="socket"' in panel_svg:
        out.append("%s: %s DC jack on the visitor's face (panel.svg)" % (design.name, design.jack))
    service = face_sockets(enclosure_svg, "service")
    if len(service) != 1:
        out.append(
            "%s: %d sockets on the service face of enclosure.svg, wants %s alone"
            % (design.name, len(service), design.jack)
        )
    marks = marking_words(enclosure_svg)
    for want in ("%g V" % design.figures["volts"], "%g A" % design.spec["supply"]["amps"], polarity()):
        if want not in marks:
            out.append("%s: the inlet's marking lacks %r" % (design.name, want))
    p = catalogue.part(jack)
    if not (p.get("keyed") or p.get("locking")):
        out.append(
            "%s: %s %s is neither keyed nor locking: any plug of its size goes in, a tug pulls it out"
            % (design.name, design.jack, p["part"].split(",")[0])
        )
    if 'class="retention"' not in enclosure_svg:
        out.append("%s: nothing holds the adapter's lead at %s" % (design.name, design.jack))
    return out


def joined(design, cp):
    """True if a checkpoint names one of J1's joined pairs ('1+3') as a test point."""
    return any(ref == design.jack and "+" in pin for ref, pin in cp["points"])


def pairs_check(design, cps=None, jack=None, cables=None):
    """Kind: *contacts joined before they are known*. One line per broken rule. ``jack``: the parts.json key of
    J1; ``cps``: the checkpoints in build order; ``cables``: the harness's."""
    if not catalogue.has_dc_input(design):
        return []
    from . import checkpoints, harness

    jack = jack or catalogue.JACK
    p = catalogue.part(jack)
    name, ref = design.name, design.jack
    plus, minus = set(p["contacts"]["+"]), set(p["contacts"]["-"])
    out = []
    if plus & minus:
        out.append(
            "%s: %s contacts %s are both + and −: joining the pairs shorts the adapter"
            % (name, ref, "+".join(str(n) for n in sorted(plus & minus)))
        )
    every = {int(pin) for pin in p["face"]}
    if not plus or not minus or (plus | minus) != every:
        out.append(
            "%s: %s's + and − contacts (%s, %s) are not its %d contacts once each"
            % (name, ref, sorted(plus), sorted(minus), len(every))
        )
    if "plug" in p:
        plug = catalogue.part(p["plug"])
        meets = {int(a): b for a, b in p["plug_to_jack"].items()}
        for sign, mine in (("+", plus), ("-", minus)):
            theirs = {meets[n] for n in plug["contacts"][sign]}
            if theirs != mine:
                out.append(
                    "%s: %s's %s contacts %s are not where the %s plug puts %sV (its pins %s meet %s)"
                    % (name, ref, sign, sorted(mine), p["plug"], sign, sorted(plug["contacts"][sign]), sorted(theirs))
                )
    elif len(plus) > 1 or len(minus) > 1:
        out.append("%s: %s joins contacts in pairs with no documented plug to say which carry +V" % (name, ref))
    if cables is None:
        cables = harness.harness(design)["cables"]
    drawn = sorted(pin["pin"] for c in cables if c["ref"] == ref for pin in c["pins"])
    want = sorted(catalogue.pair(sign, jack) for sign in ("+", "-"))
    if drawn != want:
        out.append(
            "%s: the harness joins %s's tails as %s, its contacts pair as %s"
            % (name, ref, ", ".join(drawn), ", ".join(want))
        )
    if cps is None:
        cps = checkpoints.checkpoints(design)
    return out + _measured_first(design, cps, ref, every, plus, minus)


def _measured_first(design, cps, ref, every, plus, minus):
    """The rule's second half: the checkpoint that measures J1's tails comes before any that joins them,
    and reads every tail, each + against each −."""
    from . import checkpoints

    name = design.name
    out = []
    first = next((n for n, cp in enumerate(cps) if joined(design, cp)), len(cps))
    found = [n for n, cp in enumerate(cps) if cp["key"] == checkpoints.PAIRS_KEY]
    if not found or found[0] > first:
        out.append(
            "%s: %s joins %s's tails before a checkpoint has measured its pairs (the adapter plugged in, "
            "the tails apart)" % (name, cps[first]["id"] if first < len(cps) else "the build", ref)
        )
    else:
        cp = cps[found[0]]
        apart = {int(pin) for r, pin in cp["points"] if r == ref and pin.isdigit()}
        if apart != every or joined(design, cp):
            out.append("%s: %s does not measure %s's %d tails one by one" % (name, cp["id"], ref, len(every)))
        said = " ".join(cond for cond, _ in cp["readings"])
        for a in sorted(plus):
            for b in sorted(minus):
                if "tail %d, black on tail %d" % (a, b) not in said:
                    out.append("%s: %s does not read tail %d (+) against tail %d (−)" % (name, cp["id"], a, b))
    return out


def supply_part(design):
    """The example 5 V supply: the one the inlet's marking names (enclosure.svg), with the KPPX-4P plug (R7B)."""
    return "Mean Well GST25A05-R7B" if design.figures["amps"] >= 4 else "Mean Well GST18A05-R7B (3 A)"
