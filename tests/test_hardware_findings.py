# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""An electrical engineer's review of the hardware package, finding by finding:
each test fails if its finding comes back."""

import csv
import io
import os
import re
import xml.etree.ElementTree as ET

import pytest
from nimatron.config import boards
from nimatron_host import hardware
from nimatron_host.hardware import enclosure, panel, parts
from nimatron_host.hardware.circuit import circuit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = "{http://www.w3.org/2000/svg}"
TEXTS = hardware.files("en")
NAMES = sorted(boards.names())
WIRED = [n for n in NAMES if boards.board(n)["driver"] != "onboard"]
PI = [n for n in WIRED if boards.board(n)["driver"] != "circuitpython"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
PLACEHOLDER = re.compile(r"/[A-Z]+(\.|/|$)")  # hardware/BOARD/README.md, pinmaps/NAME.json


def design(name):
    return circuit(name, boards.board(name))


def bom(name):
    return list(csv.reader(io.StringIO(TEXTS[name + "/bom.csv"])))


def markdown_files():
    out = [os.path.join(ROOT, "hardware", p) for p in TEXTS if p.endswith(".md")]
    for folder, _, names in os.walk(os.path.join(ROOT, "docs")):
        out += [os.path.join(folder, n) for n in names if n.endswith(".md")]
    return sorted(out)


def text_of(path):
    rel = os.path.relpath(path, os.path.join(ROOT, "hardware"))
    if not rel.startswith(".."):
        return TEXTS[rel.replace(os.sep, "/")]  # what the generator writes now
    with open(path, encoding="utf-8") as f:
        return f.read()


# -- links -------------------------------------------------------------------


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: os.path.relpath(p, ROOT))
def test_every_relative_link_and_named_repository_file_exists(path):
    """The 14 guides and sheets once sent a technician to host/PROTOCOL.md, gone since
    the protocol moved to docs/protocol.md."""
    text = re.sub(r"```.*?```", "", text_of(path), flags=re.S)
    folder = os.path.dirname(path)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        assert os.path.exists(os.path.normpath(os.path.join(folder, target.split("#")[0]))), (path, target)
    for named in re.findall(r"`((?:host|docs|firmware|hardware|tests|simulator|tools)/[\w./-]+)`", text):
        if not PLACEHOLDER.search(named):
            assert os.path.exists(os.path.join(ROOT, named)), (path, named)


def test_the_host_link_points_at_the_protocol():
    for name in NAMES:
        for sheet in ("README.md", "commissioning.md"):
            assert "[docs/protocol.md](../../docs/protocol.md)" in TEXTS["%s/%s" % (name, sheet)], (name, sheet)


# -- parts catalogue ---------------------------------------------------------


@pytest.mark.parametrize("key", sorted(parts.catalogue()["parts"]))
def test_every_part_cites_its_source_or_says_it_is_an_assumption(key):
    source = parts.part(key).get("source", "")
    assert len(source) > 30, key
    cited = re.search(r"(table|page|drawing|guide|chart|section|datasheet)", source, re.I)
    assert "ASSUMPTION" in source or "SUPERSEDED" in source or "our own" in source or cited, (key, source)


def test_the_bullet_pixel_is_adafruits_8mm_led_in_a_12mm_hole():
    p = parts.part(parts.BULLET_PIXEL)
    assert p["led_mm"] == 8.0 and p["cutout_mm"] == 12.0 and p["string_pitch_mm"] == 75
    assert "5050" not in p["part"] and "ASSUMPTION" in p["source"]  # its intensity stands in: not proven
    for name in ("pico-grid", "pico-ring"):
        assert parts.lamp_part(design(name)) == parts.BULLET_PIXEL


# -- NeoPixel data and the pixel string ------------------------------------------


@pytest.mark.parametrize("name", [n for n in WIRED if boards.board(n)["lamps"]["kind"] == "neopixel"])
def test_the_pixel_data_has_a_short_loom_of_its_own(name):
    for ref, chains in parts.looms(design(name)):
        groups = {c.group for c in chains}
        assert parts.DATA_GROUP not in groups or groups == {parts.DATA_GROUP}, (ref, groups)
    assert any(c.group == parts.DATA_GROUP for _, chains in parts.looms(design(name)) for c in chains)
    assert "max %d mm" % parts.DATA_LOOM_MAX_MM in TEXTS[name + "/harness.svg"]
    ref = [r for r, chains in parts.looms(design(name)) if parts.is_data_loom(chains)][0]
    assert "%s NeoPixel data loom: JST-XH 2-way" % ref in TEXTS[name + "/harness.svg"]  # no button header takes it
    assert [r for r in bom(name) if "2-way" in r[1] and r[0] == ref]
    assert parts.DATA_LOOM_MAX_MM <= 300


@pytest.mark.parametrize("name", ["pico-grid", "pico-ring"])
def test_every_gap_the_pixel_string_cannot_span_has_a_splice(name):
    pitch = parts.part(parts.BULLET_PIXEL)["string_pitch_mm"]
    gaps = panel.pixel_gaps(name, boards.board(name))
    planned = {(a, b): mm for a, b, mm in panel.splices_needed(design(name))}
    for a, b, mm in gaps:
        if mm > pitch:
            assert planned[(a, b)] >= mm - pitch, (a, b, mm)
            assert "%s→%s +%d mm" % (a, b, planned[(a, b)]) in TEXTS[name + "/README.md"]
    if name == "pico-grid":  # the 308 mm row returns
        assert planned[("lamp A8", "lamp B1")] >= 250
    assert [r for r in bom(name) if "extension wire" in r[1]]


# -- Raspberry Pi --------------------------------------------------------------


@pytest.mark.parametrize("name", PI)
def test_a_pi_gets_its_27_watt_supply(name):
    row = [r for r in bom(name) if r[0].startswith("PS") and "Raspberry Pi" in r[1]]
    assert row and "27W" in row[0][3] and "5.1 V 5 A" in row[0][1], row
    assert "15W" not in row[0][3]


def test_blinka_on_a_pi_4_gets_rpi_gpio():
    text = TEXTS["pi-neopixel/README.md"]
    assert "python3-rpi-lgpio" in text and "RPi.GPIO" in text and "import RPi.GPIO, board" in text


def test_the_gpio3_wake_is_not_promised_on_a_pi_5():
    index = TEXTS["README.md"]
    line = [text for text in index.splitlines() if "NEW GAME on GPIO3" in text][0]
    assert "Not on a Pi 5" in line and "power button" in line


# -- buttons, reach, type and contrast ------------------------------------------------


def test_no_unsourced_button_or_panel_claims():
    every = "\n".join(TEXTS[p] for p in TEXTS if p.endswith((".md", ".csv")))
    for claim in ("about 3 N", "one hand's reach", "18:1", "readable at arm's length"):
        assert claim not in every, claim
    assert "22.2 N" in TEXTS["README.md"] and "24 pt" in TEXTS["README.md"]
    assert "%s mm" % panel.num(panel.TEXT_MM) in TEXTS["README.md"]  # the real sizes, from the generator


@pytest.mark.parametrize("name", WIRED)
def test_button_tabs_quick_disconnects_and_fit_are_in_the_guide_and_bom(name):
    rows = bom(name)
    assert [r for r in rows if "2.8 mm" in r[1] and "quick-disconnect" in r[1]]
    assert all("off-cut" in r[5] for r in rows if "arcade push button" in r[1])
    assert "2.8 mm" in TEXTS[name + "/README.md"]


# -- laser files -----------------------------------------------------------------

PANELS = sorted(p for p in TEXTS if "/panel" in p and p.endswith(".svg"))


@pytest.mark.parametrize("path", PANELS)
def test_live_text_must_be_outlined_and_holes_allow_for_the_kerf(path):
    root = ET.fromstring(TEXTS[path].encode("utf-8"))
    desc = root.find(SVG + "desc").text
    assert "convert it to outlines before cutting" in desc and "%s mm smaller" % panel.num(panel.KERF_MM) in desc
    assert 0.1 <= panel.KERF_MM <= 0.2
    for c in root.iter(SVG + "circle"):
        d = 2 * float(c.get("r"))
        if c.get("class") in ("button", "key"):
            assert abs(d + panel.KERF_MM - parts.part("obsf-30")["cutout_mm"]) < 0.01, path
        if c.get("class") == "fixing":
            assert abs(d + panel.KERF_MM - panel.FIXING_MM) < 0.01, path


@pytest.mark.parametrize("name", [n for n in WIRED if parts.spec_lamp_hole(boards.board(n))[1] == "diffuser-12"])
def test_a_diffuser_is_pressed_in_and_held_by_a_named_retainer(name):
    root = ET.fromstring(TEXTS[name + "/panel.svg"].encode("utf-8"))
    disc = parts.part(parts.DIFFUSER)
    for c in root.iter(SVG + "circle"):
        if c.get("class") == "lamp":
            cut = 2 * float(c.get("r")) + panel.KERF_MM  # what the laser leaves
            assert cut < disc["disc_mm"] - 0.05, (name, cut)  # interference: the disc cannot fall out
    rows = bom(name)
    assert [r for r in rows if r[1].startswith("diffuser retaining plate")]
    assert parts.part("diffuser-retainer")["window_mm"] < disc["disc_mm"]
    assert "glue the retaining plate behind them" in TEXTS[name + "/README.md"]


@pytest.mark.parametrize("name", WIRED)
def test_a_board_with_a_dc_jack_has_its_hole_on_the_service_face_not_the_visitors(name):
    """Issue 42 (H5): the jack was on the panel, where visitors unplug it or plug things in."""
    root = ET.fromstring(TEXTS[name + "/panel.svg"].encode("utf-8"))
    assert [c for c in root.iter(SVG + "circle") if c.get("class") == "jack"] == []
    if design(name).jack is None:
        assert name + "/enclosure.svg" not in TEXTS
        return
    jacks = enclosure.face_sockets(TEXTS[name + "/enclosure.svg"], "service")
    assert len(jacks) == 1
    side = parts.part(parts.JACK)["cutout"]["side_mm"]  # the catalogue's jack: a square opening, not a round hole
    assert abs(float(jacks[0].get("width")) - side) < 0.01 and abs(float(jacks[0].get("height")) - side) < 0.01


@pytest.mark.parametrize("path", PANELS)
def test_every_sheet_fits_the_bed_with_a_margin(path):
    if (
        "/panel-tile-" not in path
        and "/panel-splice-" not in path
        and (path.split("/")[0] + "/panel-tile-1.svg") in TEXTS
    ):
        return  # a tiled panel's whole drawing is for reference
    root = ET.fromstring(TEXTS[path].encode("utf-8"))
    w, h = float(root.get("width")[:-2]), float(root.get("height")[:-2])
    assert max(w, h) <= max(panel.BED_MM) - panel.BED_MARGIN_MM and min(w, h) <= min(panel.BED_MM) - panel.BED_MARGIN_MM


def test_every_join_of_a_tiled_panel_has_a_splice_rib_clear_of_every_part():
    for name in WIRED:
        tiles = [p for p in TEXTS if p.startswith(name + "/panel-tile-")]
        ribs = sorted(p for p in TEXTS if p.startswith(name + "/panel-splice-"))
        assert len(ribs) == max(0, len(tiles) - 1), name
        whole = ET.fromstring(TEXTS[name + "/panel.svg"].encode("utf-8"))
        holes = [
            (float(c.get("cx")), float(c.get("cy")), float(c.get("r")))
            for c in whole.iter(SVG + "circle")
            if c.get("class") in ("lamp", "button", "key")
        ]
        width = float(whole.get("width")[:-2])
        for path in ribs:
            root = ET.fromstring(TEXTS[path].encode("utf-8"))
            assert float(root.get("width")[:-2]) >= 0.85 * width  # carries the whole seam, not its ends only
            clear = [c for c in root.iter(SVG + "circle") if c.get("class") == "clearance"]
            assert clear, path
            assert all(float(c.get("r")) >= min(r for _, _, r in holes) + panel.SPLICE_CLEAR_MM - 0.01 for c in clear)


# -- template words and blanks -------------------------------------------------------


def test_the_stripboard_note_names_only_what_the_board_carries():
    note = [r for r in bom("pi-leds") if r[1].startswith("stripboard")][0][5]
    assert "level shifter" not in note and "ULN2803A" in note
    assert "level shifter" in [r for r in bom("pico-grid") if r[1].startswith("stripboard")][0][5]


def test_boards_without_status_lamps_are_not_told_about_them():
    for name in NAMES:
        text = TEXTS[name + "/README.md"]
        has = bool(boards.board(name)["lamps"].get("status") or boards.board(name).get("status"))
        assert ("YOUR TURN comes on" in text) == has, name
        assert ("MACHINE THINKING blinks" in text) == has, name


@pytest.mark.parametrize("name", WIRED)
def test_no_empty_parentheses_in_the_troubleshooting(name):
    assert "()" not in TEXTS[name + "/README.md"]
    assert "()" not in TEXTS[name + "/commissioning.md"]


@pytest.mark.parametrize("name", WIRED)
def test_the_bom_has_m4_fixings_an_enclosure_and_led_holders_where_needed(name):
    rows = bom(name)
    assert not [r for r in rows if "M3" in r[1] and "panel" in r[1].lower()]
    m4 = [r for r in rows if r[1].startswith("M4")]
    svg = TEXTS[name + "/panel.svg"]
    tiles = [TEXTS[p] for p in TEXTS if p.startswith(name + "/panel-tile-")]
    holes = sum(t.count('class="fixing"') for t in tiles) if tiles else svg.count('class="fixing"')
    assert m4 and int(m4[0][2]) == holes
    assert [r for r in rows if r[1].startswith("enclosure")]
    if boards.board(name)["lamps"]["kind"] == "leds" and parts.spec_lamp_hole(boards.board(name))[1] == "diffuser-12":
        assert [r for r in rows if "LED holder" in r[1]]
