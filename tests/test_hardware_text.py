# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Kind: *words printed over words* in a generated drawing. Every text line of
every SVG in hardware/ gets a box from its position, size and anchor (a
glyph taken as 0.55 of the font size wide, from 0.75 above the baseline to
0.2 below), and no two boxes may overlap. It found the enclosure's inlet
detail, whose cut-out line was printed 2.8 mm under a 6 pt heading."""

import glob
import os
import re
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = "{http://www.w3.org/2000/svg}"
DRAWINGS = sorted(glob.glob(os.path.join(ROOT, "hardware", "**", "*.svg"), recursive=True))


def text_boxes(svg_text):
    """(left, top, right, bottom, words) of each text line, in the drawing's units.
    A line under a rotation is left out (none of the drawings rotates words)."""
    boxes = []

    def walk(el, dx, dy):
        move = el.get("transform") or ""
        shift = re.match(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)$", move)
        if shift:
            dx, dy = dx + float(shift.group(1)), dy + float(shift.group(2))
        elif move:
            return
        words = "".join(el.itertext()).strip()
        if el.tag == SVG + "text" and words and el.get("x") and el.get("y"):
            size = float(el.get("font-size", "10"))
            x, y = float(el.get("x")) + dx, float(el.get("y")) + dy
            width = len(words) * size * 0.55
            left = {"end": x - width, "middle": x - width / 2.0}.get(el.get("text-anchor", "start"), x)
            boxes.append((left, y - size * 0.75, left + width, y + size * 0.2, words))
        for child in el:
            walk(child, dx, dy)

    walk(ET.fromstring(svg_text.encode("utf-8")), 0.0, 0.0)
    return boxes


def overlaps(svg_text, slack=1.0):
    """Pairs of text lines whose boxes overlap by more than ``slack`` both ways."""
    boxes = text_boxes(svg_text)
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            wide = min(a[2], b[2]) - max(a[0], b[0])
            high = min(a[3], b[3]) - max(a[1], b[1])
            if wide > slack and high > slack:
                found.append((a[4], b[4]))
    return found


def test_there_are_drawings_to_read():
    assert len(DRAWINGS) >= 20, DRAWINGS


@pytest.mark.parametrize("path", DRAWINGS, ids=lambda p: os.path.relpath(p, ROOT))
def test_no_words_printed_over_words(path):
    with open(path, encoding="utf-8") as f:
        found = overlaps(f.read())
    assert not found, "\n".join("%r over %r" % pair for pair in found[:10])


def test_the_check_sees_the_inlet_detail_as_it_was():
    """The enclosure's inlet detail before the fix: heading at y 730 (6 pt), the cut-out line at 732.8 (5 pt)."""
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg">'
        '<text font-size="6" x="40" y="730">THE INLET (x3): J1 on the service face, the lead clamped below it</text>'
        '<text font-size="5" x="40" y="732.8">J1 Kycon KPJX-PM-4S: a 14.8 mm square opening</text>'
        '<text font-size="5" x="40" y="738">a line of its own, under both</text></svg>'
    )
    assert overlaps(svg) == [
        (
            "THE INLET (x3): J1 on the service face, the lead clamped below it",
            "J1 Kycon KPJX-PM-4S: a 14.8 mm square opening",
        )
    ]


def test_end_and_middle_anchors_and_a_group_shift_are_read():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg">'
        '<text font-size="10" x="100" y="50" text-anchor="end">right aligned</text>'
        '<g transform="translate(60 0)"><text font-size="10" x="0" y="52">shifted</text></g>'
        '<text font-size="10" x="300" y="50" text-anchor="middle">alone</text></svg>'
    )
    assert overlaps(svg) == [("right aligned", "shifted")]


def tables(svg_text):
    """(left, top, right, bottom) of each table: a ``rect`` that names a connector (``data-ref``)."""
    out = []
    for el in ET.fromstring(svg_text.encode("utf-8")).iter(SVG + "rect"):
        if el.get("data-ref") and float(el.get("width", "0")) > 100:
            x, y = float(el.get("x")), float(el.get("y"))
            out.append((x, y, x + float(el.get("width")), y + float(el.get("height"))))
    return out


def run_out(svg_text, slack=1.0):
    """Text lines that begin inside a table and run past its right or bottom edge."""
    found = []
    for left, top, right, bottom, words in text_boxes(svg_text):
        for x0, y0, x1, y1 in tables(svg_text):
            if x0 <= left < x1 and y0 <= top < y1 and (right > x1 + slack or bottom > y1 + slack):
                found.append(words)
    return found


@pytest.mark.parametrize("path", DRAWINGS, ids=lambda p: os.path.relpath(p, ROOT))
def test_no_words_run_out_of_their_table(path):
    with open(path, encoding="utf-8") as f:
        found = run_out(f.read())
    assert not found, "\n".join(repr(words) for words in found[:10])


def test_the_check_sees_a_note_running_over_the_wires():
    """The harness's J1 note before it was wrapped: 160 characters at 10 px in a 536 px table."""
    note = (
        "in the back (the service face, enclosure.svg); its tails joined in pairs only after the first "
        "checkpoint has measured them apart (commissioning.md), then to the stripboard"
    )
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg">'
        '<rect data-ref="J1" x="20" y="100" width="536" height="90"/>'
        '<text font-size="10" x="28" y="133">%s</text>'
        '<text font-size="10" x="28" y="150">a note that fits</text></svg>' % note
    )
    assert run_out(svg) == [note]
