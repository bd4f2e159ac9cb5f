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

DESIGNS = {d.name: d for d in supply_sim.input_designs()}
CASES = [case[0] for case in supply_sim.CASES]
CORNERS = [c[0] for c in supply_sim.CORNERS]
WRONG = [k for k in CASES if not k.startswith("own") and k != "short" and k not in supply_sim.FORBIDDEN]
HEAVY = max(DESIGNS.values(), key=parts.worst_amps)
needs_ngspice = pytest.mark.skipif(
    not supply_sim.available(),
    reason="ngspice is not installed (Debian: apt-get install ngspice; ./test.sh installs it where it can)",
)


def case(key):
    return [c for c in supply_sim.CASES if c[0] == key][0]


def old_stage(monkeypatch):
    """Today's circuit before issue 42: 4.7 kOhm / 10 kOhm, a polarised C_IN at the jack, the 1 % divider."""
    for name, value in supply_sim.OLD_STAGE.items():
        monkeypatch.setattr(supply_sim, name, value)


def test_every_board_with_a_dc_jack_has_every_case_committed_at_every_corner():
    results = supply_sim.load_results()
    assert sorted(results) == sorted(DESIGNS)
    for name in DESIGNS:
        assert sorted(results[name]) == sorted(CASES), name
        for key in CASES:
            assert sorted(results[name][key]) == sorted(CORNERS), (name, key)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_the_committed_figures_keep_every_ic_and_part_inside_its_rating(name):
    for key, by_corner in supply_sim.load_results()[name].items():
        assert supply_sim.all_violations(DESIGNS[name], key, by_corner) == []


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_a_wrong_adapter_never_reaches_the_rail_and_the_own_one_always_does(name):
    results = supply_sim.load_results()[name]
    for corner in CORNERS:
        for key in WRONG:
            assert abs(results[key][corner]["rail_max"]) < supply_sim.OFF_VOLTS, (key, corner)
        assert results["own-low"][corner]["rail_min_loaded"] >= 4.5
        assert results["own-high"][corner]["rail_steady"] > 5.0
        assert results["own-high"][corner]["rail_max"] <= parts.part("ic-supply")["ranges"]["ws2812b"][1]
    assert safety.harmless_wrong_adapter(DESIGNS[name])


def test_the_trip_window_sits_between_the_adapter_and_the_pico():
    lo, hi = supply_sim.trip_window()
    assert lo > 5.0 * 1.05 and hi <= parts.part("ic-supply")["ranges"]["pico-vsys"][1] + 0.1


def test_the_spares_drawer_is_covered_both_ways_round():
    """Every adapter a workshop has (5, 9, 12, 24 V regulated, a 24 V unregulated wall-wart) is a case, and
    reversal of the own, the highest regulated and the unregulated one."""
    volts = {abs(c[2]) for c in supply_sim.CASES if c[3] is not None}
    assert {9 * 1.05, 12 * 1.05, 24 * 1.05, supply_sim.UNREG_IDLE} <= volts
    assert {"reversed", "reversed-own", "reversed-unreg"} <= set(CASES)
    assert parts.part(supply_sim.TVS)["standoff_volts"] > supply_sim.UNREG_IDLE


def check_fresh(name, key):
    fresh = supply_sim.simulate_case(DESIGNS[name], case(key))
    assert supply_sim.all_violations(DESIGNS[name], key, fresh) == []
    committed = supply_sim.load_results()[name][key]
    for corner in CORNERS:
        for field in ("rail_max", "rail_steady", "rail_min_loaded", "j1_max", "vds_max", "fet_w_steady"):
            assert fresh[corner][field] == pytest.approx(committed[corner][field], abs=0.02, rel=0.02), (
                "%s %s %s %s: ngspice %s, simulated.json %s; refresh with python -m nimatron_host.hardware.supply_sim"
                % (name, key, corner, field, fresh[corner][field], committed[corner][field])
            )


@needs_ngspice
@pytest.mark.parametrize("key", ["own-low", "own-high", "24v-unreg", "reversed"])
def test_ngspice_gives_the_committed_figures_on_the_heaviest_board(key):
    check_fresh(HEAVY.name, key)


@needs_ngspice
@pytest.mark.slow  # every board, every case, both corners: about 2 minutes
@pytest.mark.parametrize("name", sorted(DESIGNS))
@pytest.mark.parametrize("key", CASES)
def test_ngspice_gives_the_committed_figures_and_every_part_inside_its_rating(name, key):
    check_fresh(name, key)


# --- the class closed: the ideal parts passed where the real ones fail (issue 42) -------------


@needs_ngspice
def test_h1_todays_stage_passes_with_the_ideal_tl431_and_stays_off_with_a_real_one(monkeypatch):
    """Start-up rule. With R_BE 10 kOhm, the ideal TL431 (nothing drawn below its trip) lets the stage
    start at -5 %; the transistor-level TL431 draws its bias through R_BE, turns the 2N5401 on and
    holds both MOSFETs off: +5V 0 V on the machine's own adapter."""
    old_stage(monkeypatch)
    design = DESIGNS["pico-neopixel"]
    ideal = supply_sim.simulate(design, case("own-low"), "start", ideal=True)
    assert supply_sim.violations(design, "own-low", ideal) == []
    real = supply_sim.simulate(design, case("own-low"), "start")
    lines = supply_sim.violations(design, "own-low", real)
    assert real["rail_steady"] < supply_sim.OFF_VOLTS and any("stays off on its own adapter" in x for x in lines)


@needs_ngspice
def test_h2_todays_polarised_c_in_passes_as_an_ideal_capacitor_and_burns_as_a_real_one(monkeypatch):
    """Reversal rule. An adapter with its plug wired backwards: the ideal capacitor shows nothing; the polarised
    electrolytic conducts the adapter's limit backwards (4.5 A, about 10 W)."""
    old_stage(monkeypatch)
    design = DESIGNS["pico-neopixel"]
    assert supply_sim.violations(design, "reversed", supply_sim.simulate(design, case("reversed"), ideal=True)) == []
    real = supply_sim.simulate(design, case("reversed"))
    assert real["cin_amps_steady"] > 4 and real["cin_w_steady"] > 5
    assert any("C_IN conducts" in x for x in supply_sim.violations(design, "reversed", real))


@needs_ngspice
def test_the_old_trip_window_cuts_off_the_own_adapter_at_plus_5_percent(monkeypatch):
    """H6: the 1 % divider with the TL431A's drift trips as low as 5.25 V; the 0.1 % divider does not."""
    old_stage(monkeypatch)
    assert supply_sim.trip_window()[0] < 5.0 * 1.05 + 0.01
    design = DESIGNS["pico-neopixel"]
    lines = supply_sim.violations(design, "own-high", supply_sim.simulate(design, case("own-high"), "start"))
    assert any("stays off on its own adapter" in x for x in lines), lines


@needs_ngspice
def test_a_short_without_the_heat_sinks_cooks_q2(monkeypatch):
    """Fault rule: a short on the panel holds the adapter at its limit and Q2 in saturation (about its
    threshold across it) once the gate has discharged; in free air that is over its rating."""
    monkeypatch.setattr(supply_sim, "HEATSINK", None)
    lines = supply_sim.violations(HEAVY, "short", supply_sim.simulate(HEAVY, case("short"), "start"))
    assert any("Q1/Q2 dissipation" in x and "no heat sink" in x for x in lines), lines


def test_a_forbidden_case_not_named_breaks_the_pixel_rule(monkeypatch):
    """Pixel rule: a case whose pixels exceed 5.3 V passes only while it is named and forbidden."""
    design = HEAVY
    figures = supply_sim.load_results()[design.name]["rising"]
    assert supply_sim.all_violations(design, "rising", figures) == []
    monkeypatch.setattr(supply_sim, "FORBIDDEN", ())
    assert any("pixels" in x for x in supply_sim.all_violations(design, "rising", figures))


@needs_ngspice
def test_without_its_over_voltage_cut_off_a_12v_adapter_is_caught(monkeypatch):
    """The generator finds the fault when the protection is taken out: with the TL431's
    drive cut, the gate turns on after 0.1 s and 12 V reaches the pixels and U1."""
    monkeypatch.setattr(supply_sim, "R_BASE", 1e12)
    design = DESIGNS["pico-neopixel"]
    lines = supply_sim.violations(design, "12v", supply_sim.simulate(design, case("12v")))
    assert any("74AHCT125 VCC peaks at 12" in line for line in lines), lines
    assert any("Pico VSYS" in line for line in lines), lines
    assert any("a wrong adapter reaches +5V" in line for line in lines), lines


@needs_ngspice
def test_without_the_slow_gate_an_adapter_switched_on_while_plugged_reaches_the_pixels(monkeypatch):
    """Why the gates turn on in 0.1 s: with a fast gate (10 kOhm, 10 nF) the MOSFETs are on before
    a ramping 24 V adapter passes the trip, and the rail follows it past the pixels' 5.3 V."""
    monkeypatch.setattr(supply_sim, "R_GATE", 1e4)
    monkeypatch.setattr(supply_sim, "C_GATE", 1e-9)
    design = DESIGNS["pico-neopixel"]
    figures = supply_sim.simulate(design, case("24v-ramp"))
    lines = supply_sim.violations(design, "24v-ramp", figures)
    assert figures["rail_max"] > 5.3 and any("gate reaches" in line for line in lines), (figures["rail_max"], lines)


@pytest.mark.parametrize("name", sorted(DESIGNS))
def test_the_input_schematic_draws_every_part_the_simulation_has_and_the_guide_links_it(name):
    import re

    from nimatron_host import hardware

    texts = hardware.files("en")
    drawn = set(re.findall(r'<g class="input-part" data-part="([^"]+)"', texts[name + "/input.svg"]))
    assert drawn == {
        "J1",
        "TVS1",
        "F1",
        "C_IN",
        "Q1",
        "Q2",
        "R_G",
        "C_G",
        "DZ",
        "Q3",
        "R_B",
        "R_BE",
        "U_OVP",
        "R_TOP",
        "R_BOT",
    }
    netlist = supply_sim.netlist(DESIGNS[name], supply_sim.CASES[0], "/dev/null")
    for element in (
        "Rf ",
        "Dtvs1 ",
        "Cin ",
        "M1 ",
        "M2 ",
        "Rg ",
        "Cg ",
        "Dz ",
        "Q3 ",
        "Rb ",
        "Rbe ",
        "X431 ",
        "Rtop ",
        "Rbot ",
    ):
        assert "\n" + element in netlist, element  # what is drawn is what is simulated
    assert "[input.svg](input.svg)" in texts[name + "/README.md"]
    assert "[input.svg](input.svg)" in texts[name + "/safety.md"]


# --- the bench sheet: each wrong reading it explains is what ngspice gives for that build fault -------


@needs_ngspice
def test_the_bench_sheet_expects_what_ngspice_gives_and_accepts_its_own_figures():
    from nimatron_host.hardware import checkpoints

    design = DESIGNS["pico-neopixel"]
    assert supply_sim.bench(design) == supply_sim.load_bench(design)
    rows = checkpoints.bench_rows(design)
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]
    text = checkpoints.commissioning(design, ["x"])
    assert "## Bench test of the input stage" in text and "across R_BE" in text


@needs_ngspice
def test_a_10k_r_be_reads_high_on_the_bench_and_leaves_the_rail_off(monkeypatch):
    """Bench step 1: the old 10 kOhm R_BE reads about 0.6 V across it and +5V stays at 0 V (hot corner)."""
    monkeypatch.setattr(supply_sim, "R_BE", 10e3)
    monkeypatch.setattr(supply_sim, "R_BASE", 4.7e3)
    idle = supply_sim.bench_run(DESIGNS["pico-neopixel"], "start", 5.0, 0.0)
    assert 0.55 < idle["v(s)"][0] - idle["v(b)"][0] < 0.8 and idle["v(rail)"][0] < supply_sim.OFF_VOLTS


@needs_ngspice
def test_a_swapped_divider_trips_below_the_window_on_the_bench(monkeypatch):
    """Bench step 4: R_TOP and R_BOT swapped trip below the adapter's own 5 V."""
    monkeypatch.setattr(supply_sim, "R_TOP", 10e3)
    monkeypatch.setattr(supply_sim, "R_BOT", 11.8e3)
    sweep = supply_sim.bench_run(DESIGNS["pico-neopixel"], "stop", 4.0, 0.0, sweep=True)
    off = [v for v, r in zip(sweep["v(j1)"], sweep["v(rail)"]) if r < supply_sim.OFF_VOLTS]
    assert off and min(off) < 5.0
