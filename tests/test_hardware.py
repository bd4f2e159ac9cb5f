# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The hardware package: generated from the pin maps, current, and consistent.

Each wiring diagram has exactly the pin map's pins, every part it draws is in
the bill of materials, each panel matches its board's layout, and the
committed files are what ``nimatron hardware`` would write now.
"""

import copy
import csv
import io
import os
import re
import xml.etree.ElementTree as ET

import pytest
from nimatron.config import boards
from nimatron_host import hardware
from nimatron_host.cli import main
from nimatron_host.hardware import bom, harness, panel, wiring
from nimatron_host.hardware.circuit import circuit, expand_refs
from nimatron_sim.words import Words

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")
SVG = "{http://www.w3.org/2000/svg}"
NAMES = boards.names()
PANELS = [n for n in NAMES if boards.board(n)["driver"] != "onboard"]  # built-in boards are their own panel


@pytest.fixture(scope="module")
def texts():
    return hardware.files("en")


def svg_of(texts, name, kind):
    return ET.fromstring(texts["%s/%s.svg" % (name, kind)].encode("utf-8"))


def test_committed_hardware_is_current():
    stale = hardware.stale(HARDWARE)
    assert not stale, "stale in hardware/: %s; refresh with `nimatron hardware` (./run.sh hardware)" % ", ".join(stale)


def test_generation_is_deterministic_and_writes_only_what_changed(tmp_path, texts):
    assert hardware.files("en") == texts
    written, left = hardware.write(str(tmp_path), pngs=False)
    assert sorted(written) == sorted(texts) and len(left) == len([p for p in texts if p.endswith(".svg")])
    for path in texts:
        with open(os.path.join(HARDWARE, path), encoding="utf-8") as f:
            assert (tmp_path / path).read_text(encoding="utf-8") == f.read(), path
    assert hardware.write(str(tmp_path), pngs=False)[0] == []  # a second run writes nothing
    assert hardware.stale(str(tmp_path)) == sorted(left)  # only the PNGs are missing


@pytest.mark.parametrize("name", NAMES)
def test_wiring_has_every_pin_of_the_pin_map_and_no_other(name, texts):
    root = svg_of(texts, name, "wiring")
    drawn = sorted((g.get("data-pin"), g.get("data-role")) for g in root.iter(SVG + "g") if g.get("class") == "wire")
    assert drawn == sorted(boards.pins(boards.board(name)))
    labels = [t.text for t in root.iter(SVG + "text")]
    for pin, _ in boards.pins(boards.board(name)):
        assert any(text and (text.startswith(pin + " · pin ") or text == pin + " · built in") for text in labels), pin


@pytest.mark.parametrize("name", NAMES)
def test_every_drawn_part_is_in_the_bill_of_materials(name, texts):
    drawn = {e.get("data-ref") for e in svg_of(texts, name, "wiring").iter() if e.get("data-ref")}
    if name + "/harness.svg" in texts:  # the looms' plugs (J2, J3...) are drawn there
        drawn |= {e.get("data-ref") for e in svg_of(texts, name, "harness").iter() if e.get("data-ref")}
    rows = list(csv.reader(io.StringIO(texts[name + "/bom.csv"])))
    assert rows[0] == bom.HEADER and rows[-1][1].startswith("TOTAL")
    if harness.FAR_FEED in drawn:  # a wire, not a numbered part: the BOM's metres of it name it
        drawn.discard(harness.FAR_FEED)
        assert "a second pair from J2 to the last pixel" in texts[name + "/bom.csv"]
    if harness.GROUPS in drawn:  # the pixel groups' pairs: wire too, their fuses are drawn in them
        drawn.discard(harness.GROUPS)
        assert "each group's pair from its fuse to its first pixel" in texts[name + "/bom.csv"]
    listed = []
    for row in rows[1:-1]:
        refs = expand_refs(row[0])
        listed.extend(refs)
        if refs and row[0][:2] != "PX":
            assert int(row[2]) == len(refs), row
    assert drawn == set(listed), (sorted(drawn - set(listed)), sorted(set(listed) - drawn))
    total = sum(float(r[4]) * int(r[2]) for r in rows[1:-1] if r[0][:2] != "PX")
    total += sum(float(r[4]) for r in rows[1:-1] if r[0][:2] == "PX")
    assert float(rows[-1][4]) == pytest.approx(total, abs=0.01)


def parts_named(texts, name, word):
    return [r for r in csv.reader(io.StringIO(texts[name + "/bom.csv"])) if word in r[1]]


@pytest.mark.parametrize("name", [n for n in PANELS if boards.board(n)["lamps"]["kind"] == "neopixel"])
def test_neopixel_boards_have_shifter_capacitor_and_data_resistor(name, texts):
    for word in ("level shifter", "1000 uF", "330 Ohm", "NeoPixel"):
        assert len(parts_named(texts, name, word)) == 1, word
    spec = boards.board(name)
    if spec.get("matrix"):
        keys = len(spec["matrix"]["rows"]) * len(spec["matrix"]["columns"])
        assert parts_named(texts, name, "one per key")[0][2] == str(keys)
        assert len(expand_refs(parts_named(texts, name, "one per key")[0][0])) == keys


def test_led_resistors_follow_the_pin_maps_led_and_logic_voltage():
    spec = copy.deepcopy(boards.board("pi-leds"))
    assert "R1 150 Ω" in wiring.draw(circuit("pi-leds", spec))  # (5 - 2.0 - 0.9) V / 15 mA = 140 -> E24 150
    spec["led"] = {"vf": 1.9, "ma": 2}  # straight from the pins, no sink driver
    assert "750 Ω" in wiring.draw(circuit("pi-leds", spec))  # (3.3 - 1.9) V / 2 mA = 700 -> E24 750
    spec["led"] = {"vf": 2.1, "ma": 2}
    drawing = wiring.draw(circuit("pi-leds", spec))  # 600 Ohm -> E24 620
    assert "R1 620 Ω" in drawing and "750 Ω" not in drawing
    assert "620 Ohm" in bom.text(circuit("pi-leds", spec))


def test_pi_leds_keeps_buttons_off_the_uart_pins():
    spec = boards.board("pi-leds")
    buttons = set(spec["buttons"].values())
    assert not buttons & {"GPIO14", "GPIO15"}
    assert buttons <= {"GPIO%d" % n for n in range(2, 9)}  # pulled up at boot


@pytest.mark.parametrize("name", PANELS)
def test_panel_is_millimetres_and_matches_the_layout(name, texts):
    root = svg_of(texts, name, "panel")
    width, height = root.get("width"), root.get("height")
    assert width.endswith("mm") and height.endswith("mm")
    assert root.get("viewBox") == "0 0 %s %s" % (width[:-2], height[:-2])
    spec = boards.board(name)
    circles = list(root.iter(SVG + "circle"))
    lamps = [c for c in circles if c.get("class") == "lamp"]
    per_row = {}
    for c in lamps:
        per_row[c.get("data-row")] = per_row.get(c.get("data-row"), 0) + 1
    layout = boards.layout(spec)
    assert per_row == dict([(str(r), n) for r, n in enumerate(layout)] + [("status", 4)])
    buttons = sorted(c.get("data-role") for c in circles if c.get("class") == "button")
    assert buttons == sorted(boards.roles(spec) if spec["input"] == "rows" else ["done", "new"])
    keys = sorted((int(c.get("data-row")), int(c.get("data-index"))) for c in circles if c.get("class") == "key")
    expected = [(r, i) for r, n in enumerate(layout) for i in range(n)] if spec["input"] == "grid" else []
    assert keys == expected
    for c in circles:
        if c.get("class") in ("button", "key"):
            assert 2 * float(c.get("r")) >= 25  # arcade size
        x, y = float(c.get("cx")), float(c.get("cy"))
        assert 0 < x < float(width[:-2]) and 0 < y < float(height[:-2])
    assert panel.contrast(panel.INK, panel.FACE) >= 3


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", ["DONE", "HOW TO PLAY", "YOUR TURN"]),
        ("es", ["HECHO", "NUEVA PARTIDA", "CÓMO SE JUEGA"]),
        ("ru", ["ГОТОВО", "НОВАЯ ИГРА", "КАК ИГРАТЬ"]),
    ],
)
def test_panel_how_to_play_in_three_languages(lang, words):
    drawing = panel.draw("pi-leds", boards.board("pi-leds"), lang)
    ET.fromstring(drawing.encode("utf-8"))
    for word in words:
        assert word in drawing
    rule = panel.how_to_play(boards.board("pi-leds"), lang)[1]  # marienbad: misère
    assert Words(lang).t("goal.loses") in rule
    with pytest.raises(ValueError, match="language"):
        panel.draw("pi-leds", boards.board("pi-leds"), "xx")


def test_guide_names_the_power_figures_and_the_moves(texts):
    index = texts["README.md"]
    assert "GPIO14/15" in index and "D18 to D10" in index and "CERN-OHL-P-2.0" in index
    guide = texts["pi-neopixel/README.md"]
    assert "512 mA of 1600 mA" in guide and "**0.81**" in guide and "nimatron install-pi --board pi-neopixel" in guide
    assert "adafruit-blinka-raspberry-pi5-neopixel" in guide and "lgpio" in guide
    assert "nimatron deploy" in texts["pico-grid/README.md"].replace("./run.sh deploy", "nimatron deploy")
    for name in NAMES:
        assert "![wiring diagram](wiring.png)" in texts[name + "/README.md"]
        assert ("![front panel](panel.png)" in texts[name + "/README.md"]) == (name in PANELS)


def test_hardware_command_check_and_bad_input(tmp_path, capsys):
    out = str(tmp_path / "hw")
    assert main(["hardware", "--check", "--out", out]) == 1
    captured = capsys.readouterr()
    assert "stale: " in captured.out and "run `nimatron hardware --out %s`" % out in captured.err
    assert main(["hardware", "--out", out, "--no-png"]) == 0
    capsys.readouterr()
    assert main(["hardware", "--check", "--out", out]) == 1
    assert all(line.endswith(".png") for line in capsys.readouterr().out.splitlines())
    assert main(["hardware", "--lang", "fr"]) == 2
    assert "--lang must be one of en, es, ru" in capsys.readouterr().err


def test_pngs_render_from_their_svg(tmp_path):
    if not hardware.renderer():
        pytest.skip("no rsvg-convert (Debian librsvg2-bin): PNGs cannot be rendered here")
    folder = str(tmp_path)
    texts = hardware.files("en")
    path = os.path.join(folder, "pico-ring", "wiring.svg")
    os.makedirs(os.path.dirname(path))
    with open(path, "w", encoding="utf-8") as f:
        f.write(texts["pico-ring/wiring.svg"])
    hardware.render(path, path[:-4] + ".png")
    with open(path[:-4] + ".png", "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(head[16:20], "big") > 1000  # 1.5 px per unit: readable


@pytest.mark.parametrize(
    "name", [n for n in NAMES if boards.board(n)["input"] == "grid" and boards.board(n)["driver"] != "onboard"]
)
def test_the_guide_drawing_and_driver_agree_on_the_diodes(name, texts):
    """The guide once said "band (cathode) away from the key" while the drawing
    and the firmware want it towards the key: built as written, no key worked.
    The truth is the driver's keypad.KeyMatrix (columns_to_anodes: anode to the
    column wire, cathode to the key and through it the row)."""
    driver = open(os.path.join(ROOT, "firmware", "nimatron", "drivers", "circuitpython_io.py")).read()
    assert "columns_to_anodes=True" in driver or "columns_to_anodes" not in driver  # the default is True
    guide = texts[name + "/README.md"]
    diode = {d.name: d for d in hardware.designs()}[name].matrix["diode"].upper()  # the key diode fitted
    step = [line for line in guide.splitlines() if ("solder a %s" % diode) in line and "band (cathode)" in line]
    assert len(step) == 1, step
    assert "band (cathode) towards the key" in step[0] and "(anodes) of one column to that column's wire" in step[0]
    notes = " ".join(wiring.notes(hardware.design(name))) if hasattr(wiring, "notes") else texts[name + "/wiring.svg"]
    assert "anode to the column, cathode towards the key" in notes


@pytest.mark.parametrize("name", sorted(boards.names()))
def test_every_drawing_and_guide_carries_the_revision_the_machine_answers_hello_with(name):
    from nimatron.machine import identity

    who = identity(name)
    stamp = "rev. Nimatron %s, pin map %s CRC %s" % (who["version"], name, who["pinmap_crc"])
    folder = os.path.join(ROOT, "hardware", name)
    assert stamp in open(os.path.join(folder, "README.md"), encoding="utf-8").read()
    for drawing in ("wiring.svg", "harness.svg", "panel.svg", "commissioning.md"):
        if os.path.exists(os.path.join(folder, drawing)):
            text = open(os.path.join(folder, drawing), encoding="utf-8").read()
            assert stamp in text or (who["pinmap_crc"] in text and who["version"] in text), drawing


def _refs(text):
    """Every part reference a text names, ranges expanded ("R1-R3" -> R1, R2, R3)."""
    out = set()
    for prefix, a, b in re.findall(
        r"(?<!lamp )\b(R|L|U|S|K|D|C|PS|PX|A)(\d+)(?:-(?:R|L|U|S|K|D|C|PS|PX|A)(\d+))?\b", text
    ):
        for n in range(int(a), int(b or a) + 1):
            out.add("%s%d" % (prefix, n))
    return out


@pytest.mark.parametrize("name", sorted(boards.names()))
def test_walking_the_guide_every_part_and_pin_it_names_is_on_the_drawing(name, texts):
    """A maker reads the guide with the drawing beside it: every reference the
    guide names is a drawn part, and every row of its wiring table gives the
    pin and header pin the drawing gives."""
    design = circuit(name, boards.board(name))
    drawn = {ref for line in design.parts.lines for ref in line[3]}
    guide = texts[name + "/README.md"]
    named = _refs(guide.split("## Software")[0]) - {pin for pin, role in boards.pins(design.spec)}
    assert named <= drawn, sorted(named - drawn)
    drawing = texts.get(name + "/wiring.svg", "")
    for row in re.findall(r"^\| `([A-Z0-9_]+)` \| (\d+|built in) \|", guide, re.M):
        pin, header = row
        if header != "built in":
            assert "%s · pin %s" % (pin, header) in drawing, (name, pin, header)


@pytest.mark.parametrize("name", sorted(boards.names()))
def test_the_controllers_name_fits_its_box_on_the_wiring_drawing(name, texts):
    """The Circuit Playground's title once ran out of its box."""
    root = svg_of(texts, name, "wiring")
    title = [
        t
        for t in root.iter("{http://www.w3.org/2000/svg}text")
        if t.get("font-weight") == "bold" and (t.text or "").startswith("A1 ")
    ][0]
    width = 0.62 * float(title.get("font-size")) * len(title.text)  # DejaVu Sans Bold's mean advance
    assert float(title.get("x")) + width <= wiring.BOX_X + wiring.BOX_W - 4, (title.text, width)
