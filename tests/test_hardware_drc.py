# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Design-rule checks against the datasheets (host/nimatron_host/hardware/parts.json).

Every board, at the firmware's worst case: connectors, crimps, wires and
fuses at most 80 % loaded; every lamp hole the size of what sits in it;
every lamp of every start the firmware accepts behind a hole of its own
row; input protection on every DC input; ESD arrays on visitor-touched
lines; a lit lamp at least the target intensity.
"""

import json
import os
import re

import pytest

from nimatron.config import boards
from nimatron.drivers import lamp_pixels
from nimatron.machine.app import choose_layout, make_settings
from nimatron.panels.playable import check_games
from nimatron.games.rules import parse_rules
from nimatron_host.hardware import bom, designs, panel, parts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DESIGNS = dict((d["name"], d) for d in designs())
PRESETS = json.load(open(os.path.join(ROOT, "firmware", "nimatron", "config", "presets.json")))


def rating_failures(design):
    return [line for line in parts.checks(design) if "mcd" not in line]


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_every_connector_wire_and_fuse_carries_at_most_80_percent_of_its_rating(name):
    assert rating_failures(DESIGNS[name]) == []


def test_an_overloaded_connector_is_named_with_its_figure_and_rating():
    design = dict(DESIGNS["pico-grid"], figures=dict(DESIGNS["pico-grid"]["figures"], board_ma=9000))
    lines = rating_failures(design)
    assert any(re.match(r"pico-grid: J2 Molex Mini-Fit Jr\. .* carries \d+\.\d\d A, rated 8\.5 A x 80 %", l)
               for l in lines), lines


def test_an_overdriven_led_is_named_with_its_current_and_rating():
    import copy

    from nimatron_host.hardware.circuit import circuit

    spec = copy.deepcopy(boards.board("pi-leds"))
    spec["led"]["ma"] = 30            # (5 - 2.0 - 0.9) / 30 mA -> E24 75 ohm, 28 mA: over 25 mA x 80 %
    lines = parts.checks(circuit("pi-leds", spec))
    assert any(re.match(r"pi-leds: Everlight 333-2UYC/S530-A3 .* runs at 28\.0 mA, rated 25 mA x 80 %", l)
               for l in lines), lines


def test_a_narrow_beam_led_sits_behind_a_diffuser_and_a_wide_one_in_a_bezel():
    import copy

    spec = copy.deepcopy(boards.board("pi-leds"))
    assert parts.spec_lamp_hole(spec) == (12.0, "diffuser-12")       # 10 degree beam: a glowing disc
    spec["led"] = {"vf": 1.9, "ma": 2}                                  # the old HLMP-4719, 50 degrees
    assert parts.spec_lamp_hole(spec) == (8.0, "led-bezel-5")


def test_every_part_has_a_datasheet_reference():
    for key, p in parts.catalogue()["parts"].items():
        assert p.get("datasheet"), key


@pytest.mark.parametrize("name", sorted(n for n in DESIGNS if not DESIGNS[n]["onboard"]))
def test_every_hole_fits_its_part(name):
    spec = DESIGNS[name]["spec"]
    svg = panel.draw(name, spec)
    hole, key = parts.spec_lamp_hole(spec)
    lamps = re.findall(r'<circle[^>]*class="lamp"[^>]*>', svg)
    assert lamps
    for tag in lamps:
        r = float(re.search(r' r="([\d.]+)"', tag).group(1))
        assert abs(2 * r - hole) < 0.05, "%s: lamp hole %.1f mm, %s needs %.1f mm" % (name, 2 * r, key, hole)
    bezel = parts.part(key)
    assert bezel.get("fits_mm", 0) <= hole
    for tag in re.findall(r'<circle[^>]*class="(?:button|key)"[^>]*>', svg):
        r = float(re.search(r' r="([\d.]+)"', tag).group(1))
        assert abs(2 * r - parts.part("obsf-30")["cutout_mm"]) < 0.05, name


def accepted(name):
    """(preset, layout) of every preset the firmware accepts on a board."""
    out = []
    for preset in sorted(PRESETS):
        try:
            spec, settings = make_settings(name, {"preset": preset})
            layout = choose_layout(spec, settings)
            rules = parse_rules(settings["rules"])
            check_games(rules, settings["misere"], layout, settings["starts"], settings.get("counter", False))
        except ValueError:
            continue
        out.append((preset, layout))
    return out


@pytest.mark.parametrize("name", ["pico-neopixel", "pi-neopixel", "pico-grid", "pico-ring"])
def test_every_lamp_of_every_accepted_start_sits_in_a_hole_of_its_own_row(name):
    lamps = boards.board(name)["lamps"]
    own = lamps["layout"]
    starts = [sum(own[:r]) for r in range(len(own))]
    found = accepted(name)
    assert found
    for preset, layout in found:
        for r, row in enumerate(lamp_pixels(lamps, layout)):
            for p in row:
                hole = p - lamps["first"]
                assert 0 <= hole < sum(own), "%s %s: pixel %d behind no hole" % (name, preset, p)
                panel_row = max(i for i in range(len(own)) if starts[i] <= hole)
                if len(layout) > 1:
                    assert panel_row == r, "%s %s: row %d lights panel row %d" % (name, preset, r, panel_row)


def test_the_firmware_refuses_a_layout_whose_lamps_would_miss_their_row():
    from nimatron.panels.panel import PanelError

    spec, settings = make_settings("pico-neopixel", {"preset": "nimatron"})
    with pytest.raises(PanelError, match="row 1 has 7 holes"):
        choose_layout(spec, dict(settings, layout=[8, 8]))


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_a_lit_lamp_meets_the_intensity_target(name):
    design = DESIGNS[name]
    target = parts.catalogue()["lamp_target_mcd"]
    assert parts.lamp_mcd(design) >= target, [l for l in parts.checks(design) if "mcd" in l]


@pytest.mark.parametrize("name", sorted(n for n in DESIGNS if "jack" in DESIGNS[n]))
def test_every_dc_input_has_a_fuse_reverse_polarity_and_over_voltage_protection(name):
    text = bom.text(DESIGNS[name])
    assert "resettable PTC fuse" in text and "SS54" in text and "SMBJ5.0A" in text
    assert "panel-mount DC power jack" in text


@pytest.mark.parametrize("name", sorted(n for n in DESIGNS if "jack" in DESIGNS[n]))
def test_the_wiring_drawing_shows_the_input_protection(name):
    """A maker wires from the drawing: the fuse, the series diode and the TVS are on it, not only in the BOM."""
    drawing = open(os.path.join(ROOT, "hardware", name, "wiring.svg"), encoding="utf-8").read()
    drawn = re.findall(r'<\w+ class="protection"[^>]* data-part="([^"]+)"', drawing)
    assert sorted(set(drawn)) == ["D-RP", "F1", "TVS1"], drawn
    assert "F1 RUEF" in drawing and "D-RP SS54" in drawing and "TVS1 SMBJ5.0A" in drawing


@pytest.mark.parametrize("name", sorted(n for n in DESIGNS if not DESIGNS[n]["onboard"]))
def test_visitor_touched_lines_have_esd_arrays(name):
    design = DESIGNS[name]
    lines = len(parts.esd_lines(design))
    row = [r for r in bom.rows(design) if "SRV05-4" in r[1]]
    assert row and int(row[0][2]) * 4 >= lines
