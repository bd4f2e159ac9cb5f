# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The panels as a laser cutter's software reads them: a cut layer of red
0.01 mm strokes and nothing else, an engrave layer, no filled background,
fixing holes clear of everything, and tiles that fit a 600 x 400 mm bed with
no hole cut by a join."""

import xml.etree.ElementTree as ET

import pytest
from nimatron.config import boards
from nimatron_host import hardware
from nimatron_host.hardware import panel

SVG = "{http://www.w3.org/2000/svg}"
INK = "{%s}" % panel.INKSCAPE
TEXTS = hardware.files("en")
PANELS = sorted(p for p in TEXTS if "/panel" in p and p.endswith(".svg"))


def layers(text):
    root = ET.fromstring(text.encode("utf-8"))
    out = {g.get("id"): g for g in root.findall(SVG + "g")}
    return root, out


def holes(group):
    return [
        (float(c.get("cx")), float(c.get("cy")), float(c.get("r")), c.get("class")) for c in group.iter(SVG + "circle")
    ]


@pytest.mark.parametrize("path", PANELS)
def test_cut_and_engrave_layers_and_nothing_else_at_the_top(path):
    root, groups = layers(TEXTS[path])
    assert set(groups) <= {"cut", "engrave", "notes"} and {"cut", "engrave"} <= set(groups), sorted(groups)
    assert groups["cut"].get(INK + "groupmode") == "layer" and groups["cut"].get(INK + "label") == "cut"
    drawn = [e for e in root if e.tag not in (SVG + "g", SVG + "title", SVG + "desc")]
    assert drawn == [], "elements outside the layers: %s" % [e.tag for e in drawn]
    assert "DejaVu Sans" in root.find(SVG + "desc").text


@pytest.mark.parametrize("path", PANELS)
def test_every_cut_is_a_red_hairline_with_no_fill_and_nothing_else_is_red(path):
    root, groups = layers(TEXTS[path])
    cuts = list(groups["cut"])
    assert cuts
    for e in cuts:
        assert (e.get("stroke"), e.get("stroke-width"), e.get("fill")) == ("#ff0000", "0.01", "none"), e.attrib
    for e in groups["engrave"].iter():
        assert e.get("stroke") != "#ff0000" and e.get("fill") != "#ff0000", e.attrib
    width, height = float(root.get("width")[:-2]), float(root.get("height")[:-2])
    big = [
        e
        for e in root.iter(SVG + "rect")
        if e.get("fill") not in (None, "none")
        and float(e.get("width")) >= width * 0.9
        and float(e.get("height")) >= height * 0.9
    ]
    assert big == [], "a filled background"


@pytest.mark.parametrize("path", PANELS)
def test_fixing_holes_are_m4_clearance_and_clear_of_every_other_hole(path):
    root, groups = layers(TEXTS[path])
    found = holes(groups["cut"])
    fixing = [h for h in found if h[3] == "fixing"]
    if "/panel-splice-" in path:  # a splice rib is glued behind the seam: no fixing holes of its own
        assert fixing == []
        return
    assert len(fixing) >= 4 and all(abs(r * 2 + panel.KERF_MM - panel.FIXING_MM) < 0.01 for _, _, r, _ in fixing)
    for fx, fy, fr, _ in fixing:
        for x, y, r, cls in found:
            if cls != "fixing":
                gap = ((fx - x) ** 2 + (fy - y) ** 2) ** 0.5 - fr - r
                assert gap >= 3, (path, (fx, fy), (x, y, cls), round(gap, 1))


@pytest.mark.parametrize("name", sorted(n for n in boards.names() if n + "/panel.svg" in TEXTS))
def test_a_panel_bigger_than_the_bed_is_cut_in_tiles_that_fit_and_no_hole_is_split(name):
    whole, _ = layers(TEXTS[name + "/panel.svg"])
    width, height = float(whole.get("width")[:-2]), float(whole.get("height")[:-2])
    tiles = sorted(p for p in TEXTS if p.startswith(name + "/panel-tile-"))
    if panel.fits_bed(width, height):
        assert tiles == []
        return
    assert len(tiles) >= 2
    seen = []
    for path in tiles:
        root, groups = layers(TEXTS[path])
        w, h = float(root.get("width")[:-2]), float(root.get("height")[:-2])
        assert panel.fits_bed(w, h), (path, w, h)
        top = float(root.get("viewBox").split()[1])
        for x, y, r, cls in holes(groups["cut"]):
            assert top <= y - r and y + r <= top + h, (path, cls, y)  # wholly inside its tile
            if cls not in ("fixing",):
                seen.append((x, y, r, cls))
    _, groups = layers(TEXTS[name + "/panel.svg"])
    every = sorted(h for h in holes(groups["cut"]) if h[3] != "fixing")
    assert sorted(seen) == every  # every hole of the panel is in exactly one tile


@pytest.mark.parametrize("path", PANELS)
def test_nothing_is_cut_twice_and_the_revision_rides_in_the_hidden_notes_layer(path):
    root, groups = layers(TEXTS[path])
    cuts = [ET.tostring(e) for e in groups["cut"]]
    assert len(cuts) == len(set(cuts)), "an element twice in the cut layer: the laser would cut it twice"
    notes = groups["notes"]
    assert notes.get("style") == "display:none"
    name = path.split("/")[0]
    from nimatron.machine import identity

    stamp = "rev. Nimatron %s, pin map %s CRC %s" % (identity(name)["version"], name, identity(name)["pinmap_crc"])
    assert [t.text for t in notes.iter(SVG + "text") if t.get("class") == "revision"] == [stamp]
