# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A supply that is wrong (docs: the guide's faults.md): the DC input under every fault a
museum or a workshop will produce, simulated with ngspice from the parts' datasheet figures.

The generator is ``supply_sim.CASES`` (9, 12 and 24 V adapters hot-plugged through 2 m of
lead, one switched on at the mains, one wired backwards, the design's own adapter at both
ends of its tolerance, a short on the panel); the invariant: every IC on the +5V rail inside
its datasheet range, every part of the input inside its rating. The committed figures
(``simulated.json``, which the README and the safety sheets quote) must be what ngspice
gives now.
"""

import pytest

from nimatron_host.hardware import parts, safety, supply_sim

DESIGNS = dict((d.name, d) for d in supply_sim.input_designs())
CASES = [case[0] for case in supply_sim.CASES]
needs_ngspice = pytest.mark.skipif(not supply_sim.available(),
                                   reason="ngspice is not installed (Debian: apt-get install ngspice; ./test.sh "
                                          "installs it where it can)")


def test_every_board_with_a_dc_jack_has_every_case_committed():
    results = supply_sim.load_results()
    assert sorted(results) == sorted(DESIGNS)
    for name in DESIGNS:
        assert sorted(results[name]) == sorted(CASES), name


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_the_committed_figures_keep_every_ic_and_part_inside_its_rating(name):
    for key, figures in supply_sim.load_results()[name].items():
        assert supply_sim.violations(DESIGNS[name], key, figures) == []


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_a_wrong_adapter_never_reaches_the_rail_and_the_own_one_always_does(name):
    results = supply_sim.load_results()[name]
    for key in ("9v", "12v", "24v", "24v-low-esr", "24v-ramp", "reversed"):
        assert abs(results[key]["rail_max"]) < supply_sim.OFF_VOLTS, key
    assert results["own-low"]["rail_min_loaded"] >= 4.5
    assert results["own-high"]["rail_max"] <= parts.part("ic-supply")["ranges"]["ws2812b"][1]
    assert safety.harmless_wrong_adapter(DESIGNS[name])


def test_the_trip_window_sits_between_the_adapter_and_the_pico():
    lo, hi = supply_sim.trip_window()
    assert 5.0 * 1.05 < lo and hi <= parts.part("ic-supply")["ranges"]["pico-vsys"][1] + 0.1


@needs_ngspice
@pytest.mark.parametrize("name", sorted(DESIGNS))
@pytest.mark.parametrize("key", CASES)
def test_ngspice_gives_the_committed_figures_and_every_part_inside_its_rating(name, key):
    case = [c for c in supply_sim.CASES if c[0] == key][0]
    fresh = supply_sim.simulate(DESIGNS[name], case)
    assert supply_sim.violations(DESIGNS[name], key, fresh) == []
    committed = supply_sim.load_results()[name][key]
    for field in ("rail_max", "rail_steady", "rail_min_loaded", "j1_max", "vds_max", "fet_w_steady"):
        assert fresh[field] == pytest.approx(committed[field], abs=0.02, rel=0.02), (
            "%s %s %s: ngspice %s, simulated.json %s; refresh with python -m nimatron_host.hardware.supply_sim"
            % (name, key, field, fresh[field], committed[field]))


@needs_ngspice
def test_without_its_over_voltage_cut_off_a_12v_adapter_is_caught(monkeypatch):
    """The generator finds the fault when the protection is taken out: with the TL431's
    drive cut, the gate turns on after 0.1 s and 12 V reaches the pixels and U1."""
    monkeypatch.setattr(supply_sim, "R_BASE", 1e12)
    design = DESIGNS["pico-neopixel"]
    case = [c for c in supply_sim.CASES if c[0] == "12v"][0]
    lines = supply_sim.violations(design, "12v", supply_sim.simulate(design, case))
    assert any("74AHCT125 VCC peaks at 12" in line for line in lines), lines
    assert any("Pico VSYS" in line for line in lines), lines


@needs_ngspice
def test_without_the_slow_gate_an_adapter_switched_on_while_plugged_reaches_the_pixels(monkeypatch):
    """Why the gates turn on in 0.1 s: with a fast gate (10 kOhm, 10 nF) the MOSFETs are on before
    a ramping 24 V adapter passes the trip, and the rail follows it past the pixels' 5.3 V."""
    monkeypatch.setattr(supply_sim, "R_GATE", 1e4)
    monkeypatch.setattr(supply_sim, "C_GATE", 1e-9)
    design = DESIGNS["pico-neopixel"]
    case = [c for c in supply_sim.CASES if c[0] == "24v-ramp"][0]
    figures = supply_sim.simulate(design, case)
    lines = supply_sim.violations(design, "24v-ramp", figures)
    assert figures["rail_max"] > 5.3 and any("gate reaches" in line for line in lines), (figures["rail_max"], lines)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_the_input_schematic_draws_every_part_the_simulation_has_and_the_guide_links_it(name):
    import re

    from nimatron_host import hardware

    texts = hardware.files("en")
    drawn = set(re.findall(r'<g class="input-part" data-part="([^"]+)"', texts[name + "/input.svg"]))
    assert drawn == {"J1", "TVS1", "F1", "C_IN", "Q1", "Q2", "R_G", "C_G", "DZ", "Q3", "R_B", "R_BE", "U_OVP", "R_TOP",
                     "R_BOT"}
    netlist = supply_sim.netlist(DESIGNS[name], supply_sim.CASES[0], "/dev/null")
    for element in ("Rf ", "Dtvs1 ", "Cin ", "M1 ", "M2 ", "Rg ", "Cg ", "Dz ", "Q3 ", "Rb ", "Rbe ", "B431 ",
                    "Rtop ", "Rbot "):
        assert "\n" + element in netlist, element                 # what is drawn is what is simulated
    assert "[input.svg](input.svg)" in texts[name + "/README.md"]
    assert "[input.svg](input.svg)" in texts[name + "/safety.md"]
