# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The supply decks' models against their datasheets (``parts.json`` names each model's source).

Kind of fault: *an ideal part that passes where a real one fails* (the guide's faults.md, "the
right supply"). Each model must reproduce the datasheet figures the rules rest on, and the
behaviour the datasheet leaves out but the circuit depends on: a TL431 draws its internal bias
through its cathode below its trip and bottoms at about 2 V above it; a polarised electrolytic
conducts when reversed; the MOSFETs meet rDS(on) at -4.5 V at either end of VGS(th).
"""

import os
import subprocess
import tempfile

import pytest
from nimatron_host.hardware import parts, supply_sim

pytestmark = pytest.mark.skipif(not supply_sim.available(), reason="ngspice is not installed")


def dc(lines, sweep, vectors):
    """Run a .dc sweep over a small deck that uses the supply decks' models; {vector: [values]}."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out.txt")
        deck = (
            "\n".join(
                ["* model check", supply_sim.models("stop")]
                + lines
                + [
                    ".control",
                    "set wr_singlescale",
                    "set wr_vecnames",
                    "option numdgt=7",
                    "dc " + sweep,
                    "wrdata %s %s" % (out, " ".join(vectors)),
                    "quit",
                    ".endc",
                    ".end",
                ]
            )
            + "\n"
        )
        path = os.path.join(folder, "deck.cir")
        with open(path, "w") as f:
            f.write(deck)
        done = subprocess.run([supply_sim.NGSPICE, "-b", path], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr[-1000:]
        return supply_sim.read_wrdata(out)


def test_the_tl431_model_gives_the_datasheet_reference_and_off_current():
    """TI SLVS543: Vref 2.495 V typ at IKA 10 mA with K tied to REF; Ioff at most 0.5 uA at VKA 36 V,
    REF 0 V; regulation from Imin (1 mA max) on."""
    data = dc(["Ik 0 k DC 10m", "X1 0 k k TL431T"], "Ik 1m 20m 1m", ["v(k)"])
    at_10 = data["v(k)"][9]
    assert at_10 == pytest.approx(supply_sim.TL431_MODEL_VREF, abs=0.002)
    assert abs(at_10 - parts.part("tl431a")["vref"]) < 0.01
    assert max(data["v(k)"]) - min(data["v(k)"]) < 0.02  # regulating from 1 mA (Imin) to 20 mA
    off = dc(["Vk k 0 DC 36", "Vr r 0 DC 0", "X1 0 k r TL431T"], "Vk 2 36 1", ["i(vk)"])
    assert max(abs(i) for i in off["i(vk)"]) < 0.5e-6


def test_the_tl431_model_draws_its_bias_below_the_trip_and_floors_at_two_volts_above_it():
    """What the ideal sink left out (issue 42, H1): below its trip the TL431 draws 0.1-0.3 mA through
    its cathode at any VKA; above it the cathode cannot fall below about 2 V."""
    below = dc(["Vk k 0 DC 5", "Vr r 0 DC 2.3", "X1 0 k r TL431T"], "Vr 2.0 2.45 0.05", ["i(vk)"])
    bias = [-i for i in below["i(vk)"]]
    assert min(bias) > 0.1e-3 and max(bias) < 0.35e-3, bias
    floor = dc(["Vs s 0 DC 5.4", "Rb s k 1.5k", "Vr r 0 DC 2.6", "X1 0 k r TL431T"], "Vs 4 36 4", ["v(k)"])
    assert all(1.8 < v < 2.2 for v in floor["v(k)"]), floor["v(k)"]


def test_the_mosfet_model_meets_rds_on_at_either_threshold():
    """SUP90P06-09L: rDS(on) 11.8 mOhm max at VGS -4.5 V; VGS(th) -1 to -3 V: each corner's KP meets it."""
    fet = parts.part("sup90p06")
    for corner in ("start", "stop"):
        k = supply_sim.corner_figures(corner)
        r = 1.0 / (k["kp"] * (4.5 - k["vt"]))
        assert r == pytest.approx(fet["rds_on_4v5"], rel=1e-6)
        assert k["vt"] in fet["vth"]


def test_the_2n5401_model_has_the_datasheet_gain_and_saturation():
    """onsemi 2N5401: hFE 60 min at IC 10 mA (VCE 5 V); VBE(sat) at most 1.0 V at IC 10 mA, IB 1 mA."""
    data = dc(["Ve e 0 DC 5", "Vc c 0 DC 0", "Ib b 0 DC 1m", "Q1 c b e QP"], "Ib 0.1m 0.2m 0.1m", ["i(vc)", "v(b)"])
    hfe = abs(data["i(vc)"][0]) / 0.1e-3
    assert hfe == pytest.approx(parts.part("2n5401")["hfe_min"], rel=0.2)
    sat = dc(["Ve e 0 DC 5", "Rc c 0 100", "Ib b 0 DC 1m", "Q1 c b e QP"], "Ib 1m 1m 1m", ["v(b)", "v(c)"])
    assert 5 - sat["v(b)"][0] < 1.0


def test_a_polarised_electrolytic_conducts_when_reversed_and_a_bipolar_one_does_not():
    """The old C_IN (EEU-FR1H100) reversed by an adapter whose plug is wired backwards: amperes through its oxide (H2)."""
    data = dc(["Vr n 0 DC -5", "Vm crv 0 0", "Dcrev crv n DCREV"], "Vr -3 -0.5 0.5", ["i(vm)"])
    amps = [abs(i) for i in data["i(vm)"]]
    assert amps[0] > 1.0 and amps[-1] < 1e-3, amps  # 3 V backwards: amperes; 0.5 V: nothing
    assert parts.part("cap-in-10u")["polarised"] and not parts.part(supply_sim.CIN)["polarised"]


def test_every_model_names_its_source():
    for key in ("tl431a", "2n5401", "sup90p06", supply_sim.TVS, supply_sim.CIN, "cap-in-10u"):
        assert parts.part(key).get("model"), key
