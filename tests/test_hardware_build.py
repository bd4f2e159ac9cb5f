# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a maker builds from and a technician accepts with: the harness
drawing, the checkpoints, the troubleshooting table and the commissioning
sheet, read back from the generated files and held to the pin maps, the
bill of materials and the design rules."""

import copy
import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from nimatron.config import boards
from nimatron_host import hardware
from nimatron_host.hardware import checkpoints, electrical, harness, parts
from nimatron_host.hardware.circuit import circuit, expand_refs

SVG = "{http://www.w3.org/2000/svg}"
NAMES = sorted(boards.names())
WIRED = [n for n in NAMES if boards.board(n)["driver"] != "onboard"]
ONBOARD = [n for n in NAMES if n not in WIRED]
UNITS = re.compile(r"\d(\.\d+)?\s?(k?Ω|V|mA|A)\b")


@pytest.fixture(scope="module")
def texts():
    return hardware.files("en")


def design(name):
    return circuit(name, boards.board(name))


def contacts(texts, name):
    root = ET.fromstring(texts[name + "/harness.svg"].encode("utf-8"))
    return [g for g in root.iter(SVG + "g") if g.get("class") == "loom-pin"]


def drawn_points(texts, name):
    root = ET.fromstring(texts[name + "/harness.svg"].encode("utf-8"))
    return {
        (g.get("data-ref"), g.get("data-pin"))
        for g in root.iter(SVG + "g")
        if g.get("class") in ("loom-pin", "test-point")
    }


def bom_refs(texts, name):
    rows = list(csv.reader(io.StringIO(texts[name + "/bom.csv"])))
    return {ref for row in rows[1:-1] for ref in expand_refs(row[0])}


@pytest.mark.parametrize("name", WIRED)
def test_every_loom_line_is_a_pin_map_line_and_every_line_is_on_exactly_one_contact(name, texts):
    lines = [(g.get("data-signal"), g.get("data-role")) for g in contacts(texts, name) if g.get("data-kind") == "line"]
    assert sorted(lines) == sorted(boards.pins(boards.board(name)))  # none missing, none twice, none typed


@pytest.mark.parametrize("name", WIRED)
def test_each_contact_has_a_colour_and_the_catalogues_gauge(name, texts):
    awg22, awg18 = parts.part("wire-22")["awg"], parts.part("wire-18")["awg"]
    for g in contacts(texts, name):
        kind, ref = g.get("data-kind"), g.get("data-ref")
        if kind == "empty":
            continue
        assert g.get("data-colour") in [c for c, _ in harness.SIGNAL_COLOURS] + ["black", "red"]
        power = ref in ("J1", parts.POWER_LOOM, harness.FAR_FEED) and parts.has_dc_input(design(name))
        lead = parts.part(electrical.lead_wire(design(name)))["awg"] if power and ref != parts.POWER_LOOM else awg18
        assert int(g.get("data-awg")) == (lead if power else awg22), (ref, g.get("data-pin"))
        if kind == "ground":
            assert g.get("data-colour") == "black"


@pytest.mark.parametrize("name", WIRED)
def test_each_loom_has_its_colours_in_contact_order_and_a_length(name):
    ways = {ref: parts.loom_ways(chains) for ref, chains in parts.looms(design(name))}
    for cable in harness.harness(design(name))["cables"]:
        assert cable["length"]
        if cable["kind"] == "signal":
            lines = [p for p in cable["pins"] if p["kind"] == "line"]
            assert [p["colour"] for p in lines] == [c for c, _ in harness.SIGNAL_COLOURS][: len(lines)]
            assert len(cable["pins"]) == ways[cable["ref"]] in (2, parts.LOOM_LINES + 1)  # 2: the pixels' data
    assert "max %d mm" % parts.LOOM_MAX_MM in harness.length_words()


@pytest.mark.parametrize("name", WIRED)
def test_connectors_agree_with_the_bill_of_materials_and_the_design_rules(name, texts):
    d = design(name)
    plugs = {g.get("data-ref") for g in contacts(texts, name) if g.get("data-ref").startswith("J")}
    listed = {r for r in bom_refs(texts, name) if r.startswith("J")}
    assert plugs == listed
    rules = {ref for ref, _, _ in parts.signal_looms(d) + electrical.power_path(d) if ref.startswith("J")}
    assert plugs == rules
    assert (parts.POWER_LOOM in plugs) == parts.has_dc_input(d)


@pytest.mark.parametrize("name", WIRED)
def test_every_checkpoint_names_drawn_test_points_and_expects_a_value_with_units(name, texts):
    points = drawn_points(texts, name)
    cps = checkpoints.checkpoints(design(name))
    assert cps and [cp["id"] for cp in cps] == ["CP%d" % (n + 1) for n in range(len(cps))]
    for cp in cps:
        assert cp["points"] and set(cp["points"]) <= points, (cp["id"], sorted(set(cp["points"]) - points))
        for ref, _pin in cp["points"]:
            assert ref in cp["where"], cp
        assert UNITS.search(cp["readings"][0][1]), cp
        for _, expected in cp["readings"]:
            assert UNITS.search(expected) or expected.startswith("OL"), cp
        assert cp["meter"] in checkpoints.METER.values()


@pytest.mark.parametrize("name", WIRED)
def test_every_loom_line_has_a_checkpoint(name):
    d = design(name)
    measured = {cp["key"] for cp in checkpoints.checkpoints(d)}
    for chain in d.chains:
        if chain.role not in ("neopixel data", "key row 0"):
            assert "line:" + chain.pin in measured, chain.role


def test_checkpoint_values_come_from_the_design(monkeypatch):
    """A supply that is wrong: the lit rail's window is the supply's low end less the input's drops at the
    worst case, and never accepts less than U1 needs (it once accepted 4.20 V, U1 needs 4.5 V)."""
    from nimatron_host.hardware.circuit import circuit

    d = design("pico-grid")
    rail = [cp for cp in checkpoints.checkpoints(d) if cp["key"] == "rail"][0]
    assert rail["readings"][0][1] == "4.75–5.25 V"  # 5 V +- 5 %, nothing lit
    lit = [cp for cp in checkpoints.checkpoints(d) if cp["key"] == "rail-lit"][0]
    assert lit["readings"][0][1] == "4.52–5.25 V"  # less J1, F1 (R1max) and Q1+Q2 at 3.18 A
    fet = copy.deepcopy(parts.part("sup90p06"))
    fet["rds_on_4v5"] = 0.05
    monkeypatch.setitem(parts.catalogue()["parts"], "sup90p06", fet)
    d = circuit("pico-grid", d.spec)
    lit = [cp for cp in checkpoints.checkpoints(d) if cp["key"] == "rail-lit"][0]
    assert lit["readings"][0][1] == "4.50–5.25 V"  # the drops would allow 4.31 V: U1's 4.5 V instead
    data = [cp for cp in checkpoints.checkpoints(d) if cp["key"] == "data-r"][0]
    assert data["readings"][0][1] == "314–347 Ω"  # 330 Ω +- 5 %


@pytest.mark.parametrize("name", NAMES)
def test_the_commissioning_sheet_lists_every_checkpoint_and_the_acceptance(name, texts):
    sheet = texts[name + "/commissioning.md"]
    for cp in checkpoints.checkpoints(design(name)):
        for condition, expected in cp["readings"]:
            row = "| %s | %s | %s | %s | %s |  |  |" % (cp["id"], cp["where"], cp["meter"], condition, expected)
            assert row in sheet, row
    for words in (
        "Serial / asset no.",
        "Firmware version",
        "## Self-test",
        "## A full game",
        "## Power-cut test",
        '"restored": "stored"',
        "| Name |",
        "| Date |",
        "| Signature |",
    ):
        assert words in sheet, words
    assert ("## Checkpoints" in sheet) == (name in WIRED)


@pytest.mark.parametrize("name", NAMES)
def test_the_guide_links_the_drawings_checkpoints_and_troubleshooting(name, texts):
    guide = texts[name + "/README.md"]
    assert "(commissioning.md)" in guide and "## Troubleshooting" in guide and "docs/store.md" in guide
    if name in WIRED:
        assert "(harness.svg)" in guide and "![harness](harness.png)" in guide
        assert "## Checkpoints, stage by stage" in guide
        for cp in checkpoints.checkpoints(design(name)):
            assert "| %s | %s |" % (cp["id"], cp["where"]) in guide
    else:
        assert name + "/harness.svg" not in texts and "harness" not in guide


@pytest.mark.parametrize("name", WIRED)
def test_troubleshooting_names_every_row_and_control_line(name):
    d = design(name)
    table = " ".join(" ".join(t) for t in checkpoints.troubles(d))
    for chain in d.chains:
        if chain.role.startswith(("row", "key row", "key column")) or chain.role in ("done", "new"):
            assert chain.pin + " (" in table, chain.role
    if d.matrix:
        assert "Every key of one row does nothing" in table and "band (cathode) to the key" in table
    if parts.has_dc_input(d):
        assert "brightness" in table and "cap %.2f" % d.figures["cap"] in table


LEAKS = {
    "pixels": re.compile(r"pixel|\bDIN\b", re.I),
    "looms": re.compile(r"crimp|loom|JST|Mini-Fit|stripboard|harness|multimeter", re.I),
    "dc input": re.compile(r"Mini-Fit|18 AWG|\+5V loom|\bJ2\b|SS54|polyfuse|DC jack", re.I),
}


def lacks(name):
    d = design(name)
    out = []
    if not (d.pixels or any(role.startswith("pixel") or pin == "NEOPIXEL" for pin, role in boards.pins(d.spec))):
        out.append("pixels")
    if d.onboard:
        out.append("looms")
    if not parts.has_dc_input(d):
        out.append("dc input")
    return out


@pytest.mark.parametrize("name", NAMES)
def test_no_guide_or_sheet_speaks_of_what_its_board_has_not(name, texts):
    """Template text that does not apply sends a builder looking for parts
    that are not there: no pixels on an LED board, no crimps or looms where
    everything is on the board, no +5V loom without a DC input."""
    for what in lacks(name):
        for path in ("README.md", "commissioning.md"):
            found = LEAKS[what].findall(texts["%s/%s" % (name, path)])
            assert not found, (name, path, what, found)


def test_the_boards_without_pixels_or_looms_are_the_ones_we_think():
    assert "pixels" in lacks("pi-leds") and "dc input" in lacks("pi-leds")
    for name in ONBOARD:
        assert "looms" in lacks(name) and "pixels" not in lacks(name)
