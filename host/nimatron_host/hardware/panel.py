# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The front panel of one board as SVG in millimetres, from its layout.

For a laser cutter: two layers, ``cut`` (red hairlines, 0.01 mm, #ff0000,
no fill: lamp, button and fixing holes, the outline; no socket: the DC jack is on the service face, enclosure.py) and ``engrave``
(black: words, rings, marks). The engraved text is live text (DejaVu Sans,
Bold): it must be converted to outlines before cutting, as the file's own
description says. Holes are drawn smaller by the laser's kerf (``KERF_MM``)
so they come out at the part's size; a diffuser's hole is a press fit. No
filled background: the preview PNG adds the panel's colour. A panel larger
than the bed less a margin is also written as tiles that fit it, split along
a line no hole crosses (``tiles``), with a splice rib behind each join
(``splices``). Engraving contrast is the material's and the laser's: not
claimed here, checked on a test piece. Every lamp hole is ``<circle
class="lamp" data-row data-index>``, every button ``class="button"
data-role`` (or ``class="key" data-row data-index`` on a grid), so the
tests check the panel against the pin map.

Accessibility: 30 mm arcade buttons (at least 25 mm); meaning carried by
words and shapes (letters on rows, words beside status lamps, a tick on DONE
and a circular arrow on NEW GAME), never by colour alone. The engraved words
(``STATUS_MM``, ``TEXT_MM``) are smaller than the 24 pt exhibit minimum
(``EXHIBIT_TYPE_MM``): the guide says so and asks for a printed label.
"""

import math
import re

from nimatron.config import boards
from nimatron.config.settings import resolve
from nimatron.games.rules import parse_rules

from . import parts
from .circuit import revision
from .svg import FONT, Drawing, esc, num

CUT = {"stroke": "#ff0000", "stroke_width": 0.01, "fill": "none"}
BED_MM = (600, 400)  # a common 60 x 40 cm CO2 laser bed (either way round)
BED_MARGIN_MM = 10  # a panel or tile is at least this much smaller than the bed both ways (placing, warp)
KERF_MM = 0.15  # the laser's kerf: holes are drawn this much smaller in diameter (0.1-0.2 mm for a CO2 laser)
FIXING_MM = 4.5  # M4 clearance: the panel's fixing screws (and a tile's splice-plate screws)
FIXING_INSET = 8  # fixing holes' centres from the edges
INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"
INK = "#000000"
FACE = "#f4efe4"  # light birch / off-white print
BUTTON_MM = 30  # hole for a 30 mm arcade button
LAMP_MM = 12  # hole for a diffuser or bezel
TEXT_MM = 5  # how-to-play text size (em, mm): below EXHIBIT_TYPE_MM, so a printed label carries it too
STATUS_MM = 4.5  # the status words' size (em, mm)
EXHIBIT_TYPE_MM = 8.47  # 24 pt: the smallest exhibit type the US National Park Service advises
# (NPS Harpers Ferry Center, 'Exhibit Typography: Accessible Type')
LANGS = ("en", "es", "ru")

FACE_WORDS = (
    ("done", "done"),
    ("new", "new"),
    ("visitor", "status.visitor"),
    ("machine", "status.machine"),
    ("champ", "status.champ"),
    ("machine_wins", "status.machine_wins"),
    ("how", "howto.title"),
)


def panel_words(lang):
    """The words engraved on a panel: one vocabulary with the page, the
    terminal and the OLED (the faces' language files), so a visitor reads
    MACHINE THINKING on the lamp and on the screen alike."""
    from nimatron_sim.words import Words

    words = Words(lang)
    return {key: words.t(face_key) for key, face_key in FACE_WORDS}


def how_to_play(spec, lang, overrides=None):
    """The steps for the board's preset (``overrides`` over it), in ``lang``.

    Every sentence is the faces' (``lang/*.json``): the rule set's own
    ``about`` and goal in the faces' ``rules.line``, the buttons' names,
    and the ``howto.*`` steps; a rule set added to the registry with its
    words is engraved with no change here."""
    from nimatron_sim.words import Words

    words = Words(lang)
    settings = resolve(overrides, (overrides or {}).get("preset") or spec["preset"])
    rules = parse_rules(settings["rules"])
    kind = "rows" if spec["input"] == "rows" else ("ring" if spec["lamps"].get("shape") == "ring" else "grid")
    rule = words.t(
        "rules.line",
        about=words.phrase(rules.about),
        last=words.phrase(rules.last_move),
        goal=words.t("goal.loses" if settings["misere"] else "goal.wins"),
    )
    steps = [
        words.t("howto.start", new=words.t("new")),
        rule,
        words.t("howto." + kind),
        words.t("howto.done", done=words.t("done")),
    ]
    if words.missing:
        raise ValueError("lang/%s.json lacks %s" % (lang, ", ".join(sorted(words.missing))))
    return steps


def lamp_pitch(spec):
    """Centre to centre of two lamps of a row (mm): a strip's own spacing."""
    lamps = spec["lamps"]
    if lamps["kind"] == "neopixel" and not lamps.get("fixed"):
        return 1000.0 / 60  # 60 pixels a metre: the holes sit over the strip
    return 22.0


def relative_luminance(hex_colour):
    def channel(c):
        c = c / 255.0
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a, b):
    """WCAG contrast ratio of two #rrggbb colours."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _wrap(text, chars):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > chars:
            out.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    out.append(line)
    return out


class Panel:
    def __init__(self, name, spec, lang, kerf=None):
        self.name = name
        self.spec = spec
        self.lang = lang
        self.as_cut = kerf is not None  # None: the nominal drawing; a number: the laser file, kerf and press fits
        self.kerf = kerf or 0.0
        self.words = panel_words(lang)
        self.parts = []  # (callable) drawn after the size is known

    # -- pieces ---------------------------------------------------------------
    def lamp(self, d, x, y, row, index, label=None):
        hole = lamp_cut_mm(
            self.spec, self.kerf if self.as_cut else None
        )  # the bezel's, pixel's or diffuser's cut-out (parts.json)
        d.add("circle", cx=x, cy=y, r=hole / 2.0, class_="lamp", data_row=row, data_index=index, **CUT)
        d.circle(x, y, hole / 2.0 + 1.2, stroke=INK, stroke_width=0.5)
        if label:
            d.text(x, y + LAMP_MM / 2.0 + 5, label, size=3.5, anchor="middle")

    def button(self, d, x, y, label, cls="button", **data):
        d.add("circle", cx=x, cy=y, r=(BUTTON_MM - self.kerf) / 2.0, class_=cls, **dict(CUT, **data))
        d.circle(x, y, BUTTON_MM / 2.0 + 2.5, stroke=INK, stroke_width=1.2)
        if label:
            d.text(x, y + BUTTON_MM / 2.0 + 9, label, size=5.5, anchor="middle", weight="bold")

    def tick(self, d, x, y):
        d.path("M%.1f %.1f l3 3 l6 -7" % (x - 4.5, y), stroke=INK, stroke_width=1.4)

    def circle_arrow(self, d, x, y):
        """A clockwise circular arrow: start again."""
        d.path("M%.1f %.1f A4.5 4.5 0 1 1 %.1f %.1f" % (x + 4.5, y, x, y - 4.5), stroke=INK, stroke_width=1.2)
        d.path(
            "M%.1f %.1f L%.1f %.1f L%.1f %.1f Z" % (x + 2.2, y - 4.5, x - 0.6, y - 7.2, x - 0.6, y - 1.8),
            fill=INK,
            stroke=INK,
            stroke_width=0.3,
        )

    def status_row(self, d, y, width):
        roles = boards.STATUS
        step = (width - 40) / len(roles)
        for i, role in enumerate(roles):
            x = 20 + step * (i + 0.5)
            self.lamp(d, x, y, "status", i)
            d.text(x, y + LAMP_MM / 2.0 + 8, self.words[role], size=STATUS_MM, anchor="middle", weight="bold")

    def controls(self, d, y, width):
        """DONE and NEW GAME, side by side, icons beside the words."""
        for x, role in ((width / 2.0 - 45, "done"), (width / 2.0 + 45, "new")):
            self.button(d, x, y, self.words[role], data_role=role)
            icon_y = y + BUTTON_MM / 2.0 + 22
            (self.tick if role == "done" else self.circle_arrow)(d, x, icon_y)

    def instructions(self, d, y, width):
        chars = int((width - 40) / (TEXT_MM * 0.56))
        d.text(20, y, self.words["how"], size=6, weight="bold")
        y += 9
        for n, step in enumerate(how_to_play(self.spec, self.lang)):
            lines = _wrap(step, chars - 4)
            for k, line in enumerate(lines):
                d.text(20 if k == 0 else 25, y, ("%d. " % (n + 1) if k == 0 else "") + line, size=TEXT_MM)
                y += TEXT_MM * 1.45
        return y

    def text_bottom(self, y, width):
        """Where the instructions end (they are drawn on a scratch drawing)."""
        return self.instructions(Drawing(width, 1), y, width)

    # -- whole panels ------------------------------------------------------------
    def draw(self):
        spec = self.spec
        if spec["lamps"].get("shape") == "ring":
            return self._ring()
        if spec["input"] == "grid":
            return self._grid()
        return self._rows()

    def _frame(self, width, height):
        d = Drawing(
            width, height, unit="mm", title="Nimatron %s front panel (%s)" % (self.name, self.lang), background=None
        )
        d.add("rect", x=2, y=2, width=width - 4, height=height - 4, rx=6, class_="outline", **CUT)
        for x, y in fixing_points(width, 0, height):
            d.add("circle", cx=x, cy=y, r=(FIXING_MM - self.kerf) / 2.0, class_="fixing", **CUT)
        # no socket here: this is the visitor's face; the DC jack is on the service face (enclosure.svg)
        d.text(width / 2.0, 20, "NIMATRON", size=11, anchor="middle", weight="bold", letter_spacing=2)
        return d

    def _rows(self):
        layout = boards.layout(self.spec)
        pitch = lamp_pitch(self.spec)
        column = 64.0
        width = max(300.0, column * len(layout) + 40)
        tallest = max(layout)
        lamps_top = 66.0
        lamps_bottom = lamps_top + 8 + (tallest - 1) * pitch
        buttons_y = lamps_bottom + 30
        controls_y = buttons_y + 48
        text_y = controls_y + 48
        height = self.text_bottom(text_y, width) + 12
        d = self._frame(width, height)
        self.status_row(d, 34, width)
        left = (width - column * len(layout)) / 2.0
        for r, n in enumerate(layout):
            x = left + column * (r + 0.5)
            letter = "ABCDEFGH"[r]
            d.text(
                x, lamps_bottom - (n - 1) * pitch - LAMP_MM / 2.0 - 5, letter, size=8, anchor="middle", weight="bold"
            )
            for i in range(n):
                # lamps stand on the button, like a stack of coins
                y = lamps_bottom - (n - 1 - i) * pitch
                self.lamp(d, x, y, r, i)
            self.button(d, x, buttons_y, letter, data_role="row%d" % r)
        self.controls(d, controls_y, width)
        self.instructions(d, text_y, width)
        return d

    def _grid(self):
        layout = boards.layout(self.spec)
        cell_w, cell_h = 44.0, 60.0
        columns = max(layout)
        width = max(300.0, cell_w * columns + 60)
        top = 70.0
        controls_y = top + cell_h * len(layout) + 26
        text_y = controls_y + 48
        height = self.text_bottom(text_y, width) + 12
        d = self._frame(width, height)
        self.status_row(d, 34, width)
        left = (width - cell_w * columns) / 2.0 + 6
        for r, n in enumerate(layout):
            y = top + cell_h * r
            d.text(left - 10, y + 36, "ABCDEFGH"[r], size=7, anchor="middle", weight="bold")
            for i in range(n):
                x = left + cell_w * (i + 0.5)
                self.lamp(d, x, y + 8, r, i)
                d.add(
                    "circle",
                    cx=x,
                    cy=y + 34,
                    r=(BUTTON_MM - self.kerf) / 2.0,
                    class_="key",
                    data_row=r,
                    data_index=i,
                    **CUT,
                )
                d.circle(x, y + 34, BUTTON_MM / 2.0 + 1.5, stroke=INK, stroke_width=1)
        self.controls(d, controls_y, width)
        self.instructions(d, text_y, width)
        return d

    def _ring(self):
        n = boards.layout(self.spec)[0]
        ring_r, key_r = 113.0, 145.0  # 2 x (145 + 30) + 40 = 390 mm: the 400 mm bed less its margin
        width = 2 * (key_r + BUTTON_MM) + 40
        cx, cy = width / 2.0, 70 + key_r + BUTTON_MM / 2.0
        controls_y = cy + key_r + BUTTON_MM + 20
        text_y = controls_y + 48
        height = self.text_bottom(text_y, width) + 12
        d = self._frame(width, height)
        self.status_row(d, 34, width)
        for i in range(n):
            a = 2 * math.pi * i / n - math.pi / 2
            lx, ly = cx + ring_r * math.cos(a), cy + ring_r * math.sin(a)
            kx, ky = cx + key_r * math.cos(a), cy + key_r * math.sin(a)
            self.lamp(d, lx, ly, 0, i)
            d.text(
                cx + (ring_r - 16) * math.cos(a),
                cy + (ring_r - 16) * math.sin(a) + 1.5,
                str(i + 1),
                size=4.5,
                anchor="middle",
            )
            d.add(
                "circle", cx=kx, cy=ky, r=(BUTTON_MM - self.kerf) / 2.0, class_="key", data_row=0, data_index=i, **CUT
            )
            d.circle(kx, ky, BUTTON_MM / 2.0 + 1.5, stroke=INK, stroke_width=1)
        self.controls(d, controls_y, width)
        self.instructions(d, text_y, width)
        return d


def fixing_points(width, top, bottom):
    """Fixing holes: the corners, and the middle of a side longer than 300 mm."""
    xs = (FIXING_INSET, width - FIXING_INSET)
    ys = [top + FIXING_INSET, bottom - FIXING_INSET]
    if bottom - top > 300:
        ys.insert(1, (top + bottom) / 2.0)
    return [(x, y) for y in ys for x in xs]


def fits_bed(width, height):
    """Whether a sheet fits the bed with ``BED_MARGIN_MM`` to spare both ways."""
    long_side, short_side = max(BED_MM) - BED_MARGIN_MM, min(BED_MM) - BED_MARGIN_MM
    return max(width, height) <= long_side and min(width, height) <= short_side


def lamp_cut_mm(spec, kerf=None):
    """The lamp hole: nominal (``kerf`` None), or as cut: a press fit for a
    diffuser disc, less the kerf."""
    hole, key = parts.spec_lamp_hole(spec)
    if kerf is None:
        return hole
    if key == "diffuser-12":
        hole -= parts.part(parts.DIFFUSER)["press_fit_mm"]
    return hole - kerf


def _is_cut(item):
    return 'stroke="#ff0000"' in item


def _reach(item):
    """(top, bottom) of one element, in mm, read back from its attributes."""

    def val(name):
        m = re.search(r'\b%s="([-0-9.]+)"' % name, item)
        return float(m.group(1)) if m else None

    if item.startswith("<circle"):
        return val("cy") - val("r"), val("cy") + val("r")
    if item.startswith("<rect"):
        return val("y"), val("y") + val("height")
    if item.startswith("<line"):
        return min(val("y1"), val("y2")), max(val("y1"), val("y2"))
    if item.startswith("<text"):
        return val("y") - val("font-size"), val("y")
    m = re.search(r'd="M([-0-9.]+) ([-0-9.]+)', item)
    return (float(m.group(2)) - 10, float(m.group(2)) + 10) if m else (0, 0)


OUTLINES = (
    "The engraved text is live text in DejaVu Sans (Bold): convert it to outlines before cutting "
    "(Inkscape: select all, Path > Object to Path; LightBurn and RDWorks do not read live SVG text "
    "reliably), then check that no word moved."
)


def document(d, name, top=None, bottom=None, extra=(), kerf=0.0):
    """The panel (or the slice ``top``..``bottom`` of it) as a laser file: a
    ``cut`` and an ``engrave`` layer, millimetres, no background."""
    top = 0 if top is None else top
    bottom = d.height if bottom is None else bottom
    items = [i for i in d.items if top <= _reach(i)[0] and _reach(i)[1] <= bottom]
    if top > 0 or bottom < d.height:  # a tile: its own outline and fixing holes come in ``extra``
        items = [i for i in items if 'class="outline"' not in i and 'class="fixing"' not in i]
    items += list(extra)
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="%s" width="%smm" height="%smm" '
        'viewBox="0 %s %s %s">\n'
        % (INKSCAPE, num(d.width), num(bottom - top), num(top), num(d.width), num(bottom - top))
    )
    desc = (
        "Laser file, millimetres 1:1. Layer cut: red #ff0000 0.01 mm strokes, no fill: cut through; holes "
        "are drawn %s mm smaller than their parts for the laser's kerf (set no kerf offset in the laser's "
        "software). Layer engrave: black. %s" % (num(kerf), OUTLINES)
    )
    cut = [i for i in items if _is_cut(i)]
    notes = [i for i in items if 'class="tile"' in i]
    ink = [i for i in items if not _is_cut(i) and i not in notes]
    body = (
        [
            "<title>%s</title>" % esc(d.title),
            "<desc>%s</desc>" % esc(desc),
            '<g id="cut" inkscape:groupmode="layer" inkscape:label="cut">',
        ]
        + cut
        + ["</g>", '<g id="engrave" inkscape:groupmode="layer" inkscape:label="engrave">']
        + ink
        + ["</g>"]
    )
    notes.append(
        '<text class="revision" fill="#000000" font-family="%s" font-size="3" text-anchor="end" x="%s" '
        'y="%s">%s</text>' % (FONT, num(d.width - 10), num(bottom - 4), esc(revision(name)))
    )
    if notes:  # the revision, and which tile this is: for the workshop, hidden from the laser
        body += (
            [
                '<g id="notes" inkscape:groupmode="layer" inkscape:label="notes (do not cut or engrave)" '
                'style="display:none">'
            ]
            + notes
            + ["</g>"]
        )
    return head + "\n".join(body) + "\n</svg>\n"


def joins(d):
    """Where a panel too big for the bed is split: lines across it that no
    hole comes within 3 mm of, each tile at most the bed's short side long."""
    holes = [_reach(i) for i in d.items if _is_cut(i) and i.startswith("<circle")]
    limit = (min(BED_MM) if d.width > min(BED_MM) - BED_MARGIN_MM else max(BED_MM)) - BED_MARGIN_MM
    if d.width > max(BED_MM) - BED_MARGIN_MM:
        raise ValueError("a panel %d mm wide is wider than the %d mm bed" % (d.width, max(BED_MM)))
    out = []
    top = 0.0
    while d.height - top > limit:
        y = top + min(limit, (d.height - top) / 2.0 if d.height - top < 2 * limit else limit) - 1
        while y > top + 50 and any(a - 3 <= y <= b + 3 for a, b in holes):
            y -= 0.5
        if y <= top + 50:
            raise ValueError("no line across the panel between %d and %d mm misses every hole" % (top, top + limit))
        out.append(y)
        top = y
    return out


SPLICE_MM = 40  # a splice rib's height: 20 mm of it behind each tile
SPLICE_MARGIN_MM = 30  # the rib file's margin above and below the rib, where its cut-outs may reach
SPLICE_CLEAR_MM = 3  # a rib's cut-out is this much wider than the hole in front of it (the part's body)


def tiles(name, spec, lang="en", kerf=None):
    """[svg] of the tiles of a panel larger than the bed (empty when it fits)."""
    d = Panel(name, spec, lang, kerf).draw()
    if fits_bed(d.width, d.height):
        return []
    cuts = [0.0] + joins(d) + [d.height]
    out = []
    for n in range(len(cuts) - 1):
        top, bottom = cuts[n], cuts[n + 1]
        extra = Drawing(d.width, d.height)
        extra.add(
            "rect",
            x=2,
            y=top + (2 if n == 0 else 0),
            width=d.width - 4,
            height=bottom - top - (2 if n == 0 else 0) - (2 if n == len(cuts) - 2 else 0),
            class_="outline",
            **CUT,
        )
        for x, y in fixing_points(d.width, top, bottom):
            extra.add("circle", cx=x, cy=y, r=(FIXING_MM - (kerf or 0.0)) / 2.0, class_="fixing", **CUT)
        label = "%s panel, tile %d of %d: joins at its %s edge" % (
            name,
            n + 1,
            len(cuts) - 1,
            "lower" if n == 0 else "upper" if n == len(cuts) - 2 else "upper and lower",
        )
        extra.text(d.width / 2.0, (top + 12) if n else bottom - 6, label, size=3, anchor="middle", class_="tile")
        out.append(document(d, name, top, bottom, extra.items, kerf or 0.0))
    return out


def splices(name, spec, lang="en", kerf=None):
    """[svg] of the splice ribs of a tiled panel: one per join, the panel's
    width less the fixing strips, SPLICE_MM high, glued behind the seam so
    the keys beside it are carried across; every hole the rib crosses gets a
    cut-out SPLICE_CLEAR_MM wider, so the parts behind the panel pass it."""
    d = Panel(name, spec, lang, kerf).draw()
    if fits_bed(d.width, d.height):
        return []
    holes = [
        (float(_val(i, "cx")), float(_val(i, "cy")), float(_val(i, "r")))
        for i in d.items
        if _is_cut(i) and i.startswith("<circle") and 'class="fixing"' not in i
    ]
    out = []
    for n, y in enumerate(joins(d)):
        top, bottom = y - SPLICE_MM / 2.0, y + SPLICE_MM / 2.0
        left, right = FIXING_INSET * 2 + 4, d.width - FIXING_INSET * 2 - 4
        m = SPLICE_MARGIN_MM  # room for a cut-out that notches the rib's edge
        rib = Drawing(
            right - left + 20,
            SPLICE_MM + 2 * m,
            unit="mm",
            title="Nimatron %s splice rib %d" % (name, n + 1),
            background=None,
        )
        dx, dy = 10 - left, m - top
        rib.add("rect", x=10, y=m, width=right - left, height=SPLICE_MM, rx=2, class_="outline", **CUT)
        for x, cy, r in holes:
            if cy - r - SPLICE_CLEAR_MM < bottom and cy + r + SPLICE_CLEAR_MM > top:
                rib.add("circle", cx=x + dx, cy=cy + dy, r=r + SPLICE_CLEAR_MM, class_="clearance", **CUT)
        rib.text(10 + (right - left) / 2.0, m + SPLICE_MM / 2.0 + 1, "seam", size=3, anchor="middle", class_="tile")
        rib.add(
            "line",
            x1=10,
            y1=m + SPLICE_MM / 2.0,
            x2=10 + right - left,
            y2=m + SPLICE_MM / 2.0,
            stroke=INK,
            stroke_width=0.3,
            class_="seam",
        )
        out.append(document(rib, name, extra=(), kerf=kerf or 0.0))
    return out


def _val(item, name):
    return re.search(r'\b%s="([-0-9.]+)"' % name, item).group(1)


def draw(name, spec, lang="en", kerf=None):
    """The panel as a laser file. No ``kerf``: the nominal drawing (every hole
    its part's size, as the design rules check it); the files written to
    hardware/ pass ``KERF_MM``: holes less the kerf, diffusers a press fit."""
    if lang not in LANGS:
        raise ValueError("language %r: choose from %s" % (lang, ", ".join(LANGS)))
    return document(Panel(name, spec, lang, kerf).draw(), name, kerf=kerf or 0.0)


def fixing_count(name, spec):
    """The panel's fixing screws: its own holes, or every tile's."""
    n = len(tiles(name, spec))
    if not n:
        d = Panel(name, spec, "en").draw()
        return len(fixing_points(d.width, 0, d.height))
    return sum(t.count('class="fixing"') for t in tiles(name, spec))


def tile_words(name, spec):
    n = len(tiles(name, spec))
    return "" if not n else " (%d tiles: each tile's own corner holes)" % n


PIXEL_SLACK_MM = 15  # a joint between two pixels needs this much more cable than the straight distance


def pixel_gaps(name, spec):
    """[(from hole, to hole, mm of cable needed)] between consecutive pixels in
    chain order (lamps row by row, then the status lamps), read from the panel's
    lamp holes: what a string of fixed-pitch pixels must span."""
    d = Panel(name, spec, "en").draw()
    holes = []
    for item in d.items:
        if 'class="lamp"' in item:
            row = re.search(r'data-row="(\w+)"', item).group(1)
            index = int(re.search(r'data-index="(\d+)"', item).group(1))
            key = (1, 0, index) if row == "status" else (0, int(row), index)
            holes.append((key, float(_val(item, "cx")), float(_val(item, "cy"))))
    holes.sort()
    out = []

    def words(k):
        return "status %d" % (k[2] + 1) if k[0] else "lamp %s%d" % ("ABCDEFGH"[k[1]], k[2] + 1)

    for (a, ax, ay), (b, bx, by) in zip(holes, holes[1:]):
        out.append((words(a), words(b), math.hypot(bx - ax, by - ay) + PIXEL_SLACK_MM))
    return out


def splices_needed(design):
    """[(from, to, mm to add)]: where a fixed-pitch pixel string does not reach the next hole."""
    pitch = parts.part(parts.BULLET_PIXEL)["string_pitch_mm"]
    return [
        (a, b, int(math.ceil((mm - pitch) / 10.0)) * 10)
        for a, b, mm in pixel_gaps(design.name, design.spec)
        if mm > pitch
    ]
