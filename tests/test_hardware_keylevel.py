# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A held key's level at the column pin, at the parts' corners (``host/nimatron_host/hardware/keylevel.py``).

Kind of fault: *a level checked at its typical value, or on one edge only*. The
key matrix once had 2.2 kOhm pull-ups, a 1N4148 per key and a 220 Ohm resistor
in each row: a held key read 0.90 V at the RP2040's pin (VIL 0.8 V), 1.93 V with
a whole row held, and ``electrical.matrix_check`` looked only at the rising edge.
The generator: every number of keys held in a row, at every corner of the 3V3
rail, the resistors, the pin's own pull-up, the temperature and the diode's
datasheet maximum; the same cases run through ngspice must agree with the
closed form. Each broken copy (today's values, or one of them put back) must
fail the rule.
"""

import copy
import shutil

import pytest
from hypothesis import given, settings, strategies as st
from nimatron_host.hardware import designs, electrical, keylevel, parts

DESIGNS = {d.name: d for d in designs()}
MATRIX_BOARDS = sorted(n for n, d in DESIGNS.items() if d.matrix)
TODAY = keylevel.TODAY  # the design issue 42 measured


def planted(name, **changes):
    design = copy.deepcopy(DESIGNS[name])
    design.matrix.update(changes)
    return design


def test_the_reviewers_figures_come_back_from_todays_design():
    """0.90 V with one key held, 1.13 with two, 1.32 with three, 1.93 with eight (typical parts, 25 degC)."""
    m = planted("pico-grid", **TODAY).matrix
    typical = [round(keylevel.typical(m, held), 2) for held in (1, 2, 3, 8)]
    assert typical == pytest.approx([0.90, 1.13, 1.33, 1.93], abs=0.011)


def test_todays_design_fails_the_pressed_level_rule():
    lines = electrical.matrix_check(planted("pico-grid", **TODAY))
    assert any("1 key held in a row reads 1.2" in line and "VIL 0.8 V" in line for line in lines), lines


@pytest.mark.parametrize(
    "change",
    [
        {"diode": "1n4148"},  # silicon: 0.9 V at 1 mA at its datasheet maximum
        {"row_ohms": 220},  # the shared drop with eight keys held
        {"row_ohms": 22},  # even a small one
        {"pullup_ohms": 2200},  # twice the current through the row's pad
    ],
)
def test_putting_back_any_one_of_todays_values_fails(change):
    assert any("held in a row" in line for line in electrical.matrix_check(planted("pico-grid", **change)))


def test_a_pull_up_so_strong_the_row_pin_leaves_its_guarantee_fails():
    lines = electrical.matrix_check(planted("pico-grid", pullup_ohms=1000))
    assert any("sinks" in line and "drive is 12 mA" in line for line in lines), lines


def test_a_pull_up_too_weak_fails_the_rising_edge_instead():
    lines = electrical.matrix_check(planted("pico-grid", pullup_ohms=6800))
    assert any("settles in" in line for line in lines), lines


def test_a_leaky_diode_fails_the_released_level():
    saved = parts.part("bat85")["ir_ua"]
    try:
        parts.part("bat85")["ir_ua"] = 50.0
        lines = electrical.matrix_check(DESIGNS["pico-grid"])
    finally:
        parts.part("bat85")["ir_ua"] = saved
    assert any("released" in line for line in lines), lines


@pytest.mark.parametrize("name", MATRIX_BOARDS)
def test_any_number_of_keys_held_reads_under_vil_with_margin(name):
    design = DESIGNS[name]
    assert electrical.matrix_check(design) == []
    g = keylevel.gpio()
    levels = electrical.pressed_volts(design)
    assert [held for held, _, _ in levels] == list(range(1, len(design.matrix["columns"]) + 1))
    for held, volts, amps in levels:
        assert volts <= g["vil"] - keylevel.MARGIN_V, (held, volts)
        assert amps * 1000 <= g["drive_ma"]
    assert [v for _, v, _ in levels] == sorted(
        v for _, v, _ in levels
    )  # more keys, higher: the row's width is the worst


@pytest.mark.parametrize("diode", ["1n4148", "bat85"])
def test_each_diode_model_is_at_least_its_datasheet_maximum(diode):
    """The ``max`` card reaches the datasheet's VF maximum at every test point up to 10 mA (25 degC); the
    maker's typical card, where there is one, stays under it."""
    p = parts.part(diode)
    points = [(float(ma) / 1000.0, v) for ma, v in p["vf_max"].items() if float(ma) <= 10]
    assert points
    for amps, volts in points:
        assert keylevel.diode_volts(keylevel.model(diode, "max"), amps, 25.0) >= volts - 0.0005
        if "typ" in p["spice"]:
            assert keylevel.diode_volts(keylevel.model(diode, "typ"), amps, 25.0) < volts
    cold = keylevel.diode_volts(keylevel.model(diode, "max"), 1e-3, 0.0)
    assert cold > keylevel.diode_volts(keylevel.model(diode, "max"), 1e-3, 25.0)  # colder reads higher


@pytest.mark.skipif(shutil.which("ngspice") is None, reason="ngspice not installed")
@pytest.mark.parametrize("which", ["today", "fixed"])
def test_ngspice_agrees_with_the_closed_form_at_the_corners(which):
    """Every number of keys held at its worst corner, and the cold and hot ends at eight keys (about 1 s)."""
    m = planted("pico-grid", **TODAY).matrix if which == "today" else DESIGNS["pico-grid"].matrix
    cases = [keylevel.worst(m, held)[0] for held in range(1, 9)]
    lo, hi = keylevel.gpio()["pullup_kohm"]
    cases += [keylevel.case(m, 8, rail, 1, hi * 1e3, t) for rail in (-1, 1) for t in (0.0, 50.0)]
    for c in cases:
        assert keylevel.ngspice_volts(c) == pytest.approx(keylevel.solve(c)[0], abs=0.001), keylevel.corner_words(c)


@pytest.mark.skipif(shutil.which("ngspice") is None, reason="ngspice not installed")
@settings(max_examples=15, deadline=None)
@given(
    held=st.integers(1, 8),
    rail=st.sampled_from([-1, 0, 1]),
    resistors=st.sampled_from([-1, 0, 1]),
    own=st.sampled_from([50e3, 80e3]),
    celsius=st.sampled_from([0.0, 25.0, 50.0]),
    diode=st.sampled_from(["1n4148", "bat85"]),
    pullup=st.sampled_from([1000, 2200, 4700, 10000]),
    row=st.sampled_from([0, 22, 220]),
)
def test_the_closed_form_is_ngspice_at_any_corner_of_any_matrix(
    held, rail, resistors, own, celsius, diode, pullup, row
):
    """The rule trusts the closed form: any matrix, any corner, it must be ngspice's answer (about 1 s)."""
    m = dict(DESIGNS["pico-grid"].matrix, pullup_ohms=pullup, row_ohms=row, diode=diode)
    c = keylevel.case(m, held, rail, resistors, own, celsius)
    assert keylevel.ngspice_volts(c) == pytest.approx(keylevel.solve(c)[0], abs=0.001)
