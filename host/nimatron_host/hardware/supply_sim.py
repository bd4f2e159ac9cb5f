# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The supply input under every fault a museum or a workshop will produce, simulated with ngspice.

Kind of fault: *a supply that is wrong* (docs: /work/shared/guide/faults.md). The
generator is ``CASES``: the design's own 5 V adapter at both ends of its tolerance,
9, 12 and 24 V adapters of 3 A hot-plugged through 2 m of lead, a 24 V adapter
switched on at the mains while plugged in, a reversed adapter, and a short on the
panel. The invariant: every IC on the +5V rail inside its datasheet range, every
part of the input inside its rating (``parts.json``).

The input, between the DC jack J1 and the +5V rail (all through-hole)::

    J1 + -> F1 polyfuse -> Q1 drain | Q1 source = Q2 source = S | Q2 drain -> +5V
    TVS1 P6KE33CA (bidirectional) across J1, behind a 10 uF 50 V electrolytic C_IN
    Q1, Q2 SUP90P06-09L P-MOSFETs back to back: Q1's body diode blocks a reversed
    adapter, Q2's blocks an over-voltage while both are off
    gate G: 1 MOhm to ground and 100 nF to S (a slow turn-on: about 0.1 s), 1N4742A
    12 V zener S->G (the gate's 20 V limit)
    over-voltage: TL431A senses S through 11.8k/10k (trips at 5.44 V); above it,
    it pulls the 2N5401 PNP's base (4.7k), the PNP shorts G to S: both MOSFETs off

A hot-plugged wrong adapter rises in microseconds, far faster than the gate's
0.1 s: the MOSFETs never turn on, the rail stays at 0 V. The figures are run by
``python -m nimatron_host.hardware.supply_sim`` (it writes ``simulated.json``,
which the generator reads, so ``nimatron hardware`` needs no ngspice) and checked
again by ``tests/test_hardware_supply.py`` wherever ngspice is installed.

Models come from the datasheet figures named in ``parts.json``: the MOSFETs as
level-1 PMOS fitted to rDS(on) at -4.5 V, the diodes' saturation current and
resistance fitted to their VF, the TVS's breakdown and its slope to VC at IPP,
the TL431 as a comparator with its reference, the adapter as a source with a
current limit at 150 % of its rating (the usual overload point of a small
switch-mode adapter) and 470 uF at its output, the lead as 0.13 Ohm and 2 uH
(2 m of 20 AWG pair: 33 mOhm/m each way, about 1 uH per metre of loop).
"""

import json
import os
import shutil
import subprocess
import tempfile

from . import parts as catalogue

NGSPICE = "ngspice"
HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "simulated.json")

R_GATE = 1.0e6         # gate to ground: the slow turn-on
C_GATE = 100e-9        # gate to source
R_TOP, R_BOT = 11.8e3, 10.0e3   # TL431 sense divider: 2.495 V x (1 + 11.8/10) = 5.44 V
R_BASE, R_BE = 4.7e3, 10e3
LEAD_OHMS, LEAD_HENRY = 0.13, 2e-6
OWN_LEAD_OHMS = 0.001  # the design's own adapter holds its +-5 % at its plug (as a small adapter is specified)
ADAPTER_UF = 470
JACK_OHMS = 0.02       # J1's two contacts and 2 x 0.3 m of 18 AWG (21 mOhm/m) to the stripboard
LOOM_OHMS = 2 * 0.8 * 0.021 / 2 + 0.01   # the +5V loom: 0.8 m of 18 AWG, two wires each way; Mini-Fit contacts
BULK_UF = 1000
PICO_AMPS = 0.05
T_LOAD = 0.35          # the firmware lights its worst case once the machine is up
T_END = 0.45
T_SHORT = 0.38
OVERLOAD = 1.5         # an adapter's current limit, x its rating


def trip_volts(vref=2.495, r_top=R_TOP, r_bot=R_BOT):
    return vref * (1 + r_top / r_bot)


def trip_window():
    """The over-voltage trip's spread: TL431A's reference range and 1 % resistors."""
    lo_ref, hi_ref = catalogue.part("tl431a")["vref_range"]
    return (trip_volts(lo_ref, R_TOP * 0.99, R_BOT * 1.01), trip_volts(hi_ref, R_TOP * 1.01, R_BOT * 0.99))


# (key, words, adapter volts, adapter amps (None: the design's own), how it arrives, short on the panel)
CASES = (
    ("own-low", "its own 5 V adapter at its lowest (-5 %), lamps at the firmware's worst case", 0.95, None, "plug", False),
    ("own-high", "its own 5 V adapter at its highest (+5 %), hot-plugged through 2 m of lead", 1.05, None, "plug", False),
    ("9v", "a 9 V 3 A adapter (+5 %) hot-plugged through 2 m of lead", 9 * 1.05, 3.0, "plug", False),
    ("12v", "a 12 V 3 A adapter (+5 %) hot-plugged through 2 m of lead", 12 * 1.05, 3.0, "plug", False),
    ("24v", "a 24 V 3 A adapter (+5 %) hot-plugged through 2 m of lead", 24 * 1.05, 3.0, "plug", False),
    ("24v-low-esr", "a 24 V 3 A adapter hot-plugged, C_IN at a third of its ESR (the lead rings higher)", 24 * 1.05,
     3.0, "plug", False),
    ("24v-ramp", "a 24 V 3 A adapter switched on at the mains while plugged in (rises in 20 ms)", 24 * 1.05, 3.0,
     "ramp", False),
    ("reversed", "a 24 V 3 A adapter wired centre-negative (reversed polarity)", -24 * 1.05, 3.0, "plug", False),
    ("short", "a short across +5V on the panel, on its own adapter (current limit 150 %)", 1.05, None, "plug", True),
)


def available():
    return shutil.which(NGSPICE) is not None


def models():
    fet = catalogue.part("sup90p06")
    vt = sum(fet["vth"]) / 2.0
    kp = 1.0 / (fet["rds_on_4v5"] * (4.5 - vt))   # linear region: R = 1 / (KP (|VGS| - |VT|))
    tvs = catalogue.part("p6ke33ca")
    rs_tvs = (tvs["clamp_volts"] - tvs["breakdown_max_volts"]) / tvs["clamp_amps"]
    zener = catalogue.part("1n4742a")
    return "\n".join([
        ".model PF PMOS (LEVEL=1 VTO=-%.2f KP=%.3f)" % (vt, kp),
        ".model DBODY D (IS=1e-12 N=1.0 RS=0.005 CJO=1n)",
        ".model DTVS D (IS=1e-12 N=1.0 RS=%.4f BV=%.2f IBV=1e-3 CJO=1n)" % (rs_tvs, tvs["breakdown_max_volts"]),
        ".model DZ D (IS=1e-12 N=1.0 RS=%.1f BV=%.1f IBV=%.3f)" % (zener["zzt_ohms"], zener["volts"],
                                                                   zener["izt_ma"] / 1000.0),
        # 1N5817: VF 0.45 V max at 1 A; IS fitted with N 1.1 and 0.05 Ohm
        ".model D5817 D (IS=7.5e-7 N=1.1 RS=0.05 BV=20)",
        ".model DIDEAL D (IS=1e-12 N=0.02)",
        ".model QP PNP (IS=1e-14 BF=60 VAF=100 CJE=20p CJC=5p TF=1n)",
        ".model SWP SW (VT=0.5 VH=0.1 RON=1m ROFF=1e9)",
    ])


def fuse_ohms(design):
    return catalogue.fuse_r1max(catalogue.fuse_key(design))


def netlist(design, case, out_path):
    """The ngspice deck of one case of ``CASES``: the adapter, the input protection, the load, the analysis."""
    key, _, volts_factor, amps, arrival, short = case
    return "\n".join(["* Nimatron %s: %s" % (design.name, key), models()]
                     + _adapter(design, volts_factor, amps, arrival) + _protection(design, key)
                     + _load(design, short) + _analysis(design, out_path)) + "\n"


def _adapter(design, volts_factor, amps, arrival):
    """The adapter (``amps`` None: the board's own): a current limit (Ilim pushes, DIDEAL returns what the
    load does not take), 470 uF at its output, its lead, and the plug going in (a ramp, or at once)."""
    own_adapter = amps is None
    volts = volts_factor * design.figures["volts"] if own_adapter else volts_factor
    ilim = (design.spec["supply"]["amps"] if own_adapter else amps) * OVERLOAD
    if arrival == "ramp":
        source = "Vad src 0 PWL(0 0 1m 0 21m %.3f)" % volts
        plug = "0 1 1 1"
    else:
        source = "Vad src 0 DC %.3f" % volts
        plug = "0 0 10u 0 11u 1"
    return [
        source,
        "Ilim 0 lim DC %.3f" % ilim if volts >= 0 else "Ilim lim 0 DC %.3f" % ilim,
        "Dlim lim src DIDEAL" if volts >= 0 else "Dlim src lim DIDEAL",
        "Cad lim cad %gu" % ADAPTER_UF, "Rcad cad 0 0.05",
        "Rlead lim n1 %g" % (OWN_LEAD_OHMS if own_adapter else LEAD_OHMS), "Llead n1 plug %g" % LEAD_HENRY,
        "Vplugc pc 0 PWL(%s)" % plug, "Splug plug jin pc 0 SWP",
    ]


def _protection(design, key):
    """J1, the TVS, F1, C_IN, the two MOSFETs with their gate network, and the over-voltage cut-off."""
    return [
        "Rjack jin j1 %g" % JACK_OHMS,
        "Vstvs j1 jt 0", "Dtvs1 jt t1 DTVS", "Dtvs2 0 t1 DTVS",
        "Rf j1 f1 %g" % fuse_ohms(design),
        "Cin f1 cinr 10u", "Rcin cinr 0 %g" % (catalogue.part("cap-in-10u")["esr_ohms"] / (3 if "low-esr" in key else 1)),
        "M1 f1 g s s PF", "Db1 f1 s DBODY",
        "M2 rq g s s PF", "Db2 rq s DBODY",
        "Vsq rq rail 0",
        "Rg g 0 %g" % R_GATE, "Cg s g %g" % C_GATE, "Cfet s g 10n",
        "Dz g zz DZ", "Vsz zz s 0",
        "Rtop s ref %g" % R_TOP, "Rbot ref 0 %g" % R_BOT,
        "B431 k 0 I=0.05*(0.5+0.5*tanh(500*(v(ref)-2.495)))*tanh(max(v(k),0)/0.4)",
        "Ck k 0 100p", "Cref ref 0 10p",
        "Rb b k %g" % R_BASE, "Rbe s b %g" % R_BE,
        "Vsc gq g 0", "Q3 gq b s QP",
    ]


def _load(design, short):
    """The bulk capacitor, the loom, the lamps switching from dark to the worst case, a Pico on VSYS, a short."""
    worst = catalogue.worst_amps(design)
    dark = max(worst * 0.05, 0.05)
    lines = [
        "Cbulk rail cbr %gu" % BULK_UF, "Rcbr cbr 0 0.05",
        "Rloom rail px %g" % LOOM_OHMS,
        "Bload px 0 I=(%g+%g*u(time-%g))*tanh(max(v(px),0)/0.5)" % (dark, worst - dark, T_LOAD),
    ]
    if design.pico:
        lines += ["Dvs rail vsys D5817", "Rpico vsys 0 %g" % (5.0 / PICO_AMPS)]
    if short:
        lines += ["Vshc shc 0 PWL(0 0 %g 0 %g 1)" % (T_SHORT, T_SHORT + 1e-6), "Sshort rail 0 shc 0 SWP"]
    return lines


def _analysis(design, out_path):
    """The transient run and the vectors it writes to ``out_path``."""
    vectors = ["v(j1)", "v(f1)", "v(s)", "v(g)", "v(rail)", "v(px)", "v(k)", "v(b)", "i(vstvs)", "i(vsq)",
               "i(vsz)", "i(vsc)", "i(vplugc)"]
    if design.pico:
        vectors.append("v(vsys)")
    return [
        ".options reltol=1e-3 abstol=1e-9 itl4=100 method=gear",
        ".control",
        "set wr_singlescale", "set wr_vecnames", "option numdgt=7",
        "tran 1u %g 0 20u" % T_END,
        "wrdata %s %s" % (out_path, " ".join(vectors)),
        "quit",
        ".endc",
        ".end",
    ]


def run(text, out_path, timeout=300):
    with tempfile.NamedTemporaryFile("w", suffix=".cir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        done = subprocess.run([NGSPICE, "-b", path], capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0 or not os.path.exists(out_path):
            raise RuntimeError("ngspice failed: %s" % (done.stderr or done.stdout)[-2000:])
        return read_wrdata(out_path)
    finally:
        os.remove(path)


def read_wrdata(path):
    with open(path) as f:
        head = f.readline().split()
        rows = [[float(x) for x in line.split()] for line in f if line.strip()]
    return dict((name, [r[i] for r in rows]) for i, name in enumerate(head))


def _window(t, values, start):
    return [v for tt, v in zip(t, values) if tt >= start]


def _average(t, values, start):
    """Time-weighted mean over t >= start (ngspice's steps are uneven)."""
    total = area = 0.0
    for i in range(1, len(t)):
        if t[i] <= start:
            continue
        dt = t[i] - max(t[i - 1], start)
        area += dt * (values[i] + values[i - 1]) / 2.0
        total += dt
    return area / total if total else values[-1]


def figures(design, case, data):
    """What each part saw: peaks over the whole run, steady values over its last 40 ms."""
    t = data["time"]
    settle = T_END - 0.04
    if case[5]:
        settle = T_END - 0.02
    n = len(t)
    vs, vg = data["v(s)"], data["v(g)"]
    vgs = [vs[i] - vg[i] for i in range(n)]
    vds1 = [abs(data["v(f1)"][i] - vs[i]) for i in range(n)]
    vds2 = [abs(vs[i] - data["v(rail)"][i]) for i in range(n)]
    ifet = [abs(x) for x in data["i(vsq)"]]
    p_fet = [max(vds1[i], vds2[i]) * ifet[i] for i in range(n)]   # the hotter of the two
    p_tvs = [abs(data["v(j1)"][i] * data["i(vstvs)"][i]) for i in range(n)]
    ik = [(data["v(b)"][i] - data["v(k)"][i]) / R_BASE for i in range(n)]
    p_431 = [max(data["v(k)"][i], 0) * max(ik[i], 0) for i in range(n)]
    p_rb = [(ik[i] ** 2) * R_BASE for i in range(n)]
    p_pnp = [abs((vs[i] - vg[i]) * data["i(vsc)"][i]) for i in range(n)]
    p_z = [abs(vgs[i] * data["i(vsz)"][i]) for i in range(n)]
    rail = data["v(rail)"]
    out = {
        "rail_max": max(rail), "rail_min_loaded": min(_window(t, rail, T_LOAD + 0.01)),
        "rail_steady": _average(t, rail, settle), "rail_min": min(rail),
        "pixels_max": max(data["v(px)"]), "pixels_steady": _average(t, data["v(px)"], settle),
        "j1_max": max(abs(x) for x in data["v(j1)"]),
        "vds_max": max(max(vds1), max(vds2)), "vgs_max": max(abs(x) for x in vgs),
        "fet_w_steady": _average(t, p_fet, settle), "fet_w_peak": max(p_fet),
        "fet_amps_steady": _average(t, ifet, settle),
        "tvs_w_peak": max(p_tvs), "tvs_w_steady": _average(t, p_tvs, settle),
        "tl431_vka_max": max(data["v(k)"]), "tl431_w_steady": _average(t, p_431, settle),
        "tl431_ma_max": 1000 * max(ik), "rbase_w_steady": _average(t, p_rb, settle),
        "pnp_w_steady": _average(t, p_pnp, settle), "pnp_vce_max": max(abs(vs[i] - vg[i]) for i in range(n)),
        "zener_w_steady": _average(t, p_z, settle),
        "cin_max": max(abs(x) for x in data["v(f1)"]),
    }
    table = catalogue.part("ptc-rerating-ruef")
    out["fuse_trip_50c"] = catalogue.part(catalogue.fuse_key(design))["trip_amps"] * \
        table["hold_factor"][str(table["cabinet_celsius"])]
    if "v(vsys)" in data:
        out["vsys_max"] = max(data["v(vsys)"])
        out["vsys_steady"] = _average(t, data["v(vsys)"], settle)
    return dict((k, round(v, 4) + 0.0) for k, v in out.items())


def simulate(design, case):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out.txt")
        return figures(design, case, run(netlist(design, case, out), out))


def input_designs():
    from . import designs

    return [d for d in designs() if catalogue.has_dc_input(d)]


def simulate_all():
    """{board: {case: figures}} for every board with a DC input."""
    return dict((d.name, dict((case[0], simulate(d, case)) for case in CASES)) for d in input_designs())


# --- the invariant -------------------------------------------------------------

OFF_VOLTS = 0.5   # a rail below this is switched off, not a supply


def ic_limits(design):
    """[(name, figure key, (min operating, max operating, absolute max))] on this board's rail."""
    ranges = catalogue.part("ic-supply")["ranges"]
    out = [("U1 74AHCT125 VCC", "rail", ranges["74ahct125"]), ("pixels' VDD", "pixels", ranges["ws2812b"])]
    if design.pico:
        out.append(("Pico VSYS", "vsys", ranges["pico-vsys"]))
    return out


def violations(design, key, f):
    """Every limit a case's figures break, one line each (empty: inside every rating)."""
    name = design.name
    out = []
    k = catalogue.derate()
    for label, node, (lo, hi, absolute) in ic_limits(design):
        peak, steady = f[node + "_max"], f[node + "_steady"]
        if peak > absolute + 1e-6:
            out.append("%s %s: %s peaks at %.2f V, absolute maximum %.1f V" % (name, key, label, peak, absolute))
        if steady > OFF_VOLTS and not lo <= steady <= hi:
            out.append("%s %s: %s at %.2f V, its range %.1f-%.1f V" % (name, key, label, steady, lo, hi))
        if peak > hi + 1e-6 and key.startswith("own"):
            out.append("%s %s: %s reaches %.2f V on its own supply, max %.1f V" % (name, key, label, peak, hi))
    wrong = not key.startswith("own") and key != "short"
    if wrong and f["vgs_max"] >= catalogue.part("sup90p06")["vth"][0]:
        out.append("%s %s: Q1/Q2's gate reaches %.2f V, VGS(th) may be %.1f V" % (
            name, key, f["vgs_max"], catalogue.part("sup90p06")["vth"][0]))
    if key == "own-low" and f["rail_min_loaded"] < catalogue.part("ic-supply")["ranges"]["74ahct125"][0]:
        out.append("%s %s: U1 sees %.2f V at the worst case, needs 4.5 V" % (name, key, f["rail_min_loaded"]))
    fet = catalogue.part("sup90p06")
    fet_w = (fet["tj_max"] - catalogue.part("ptc-rerating-ruef")["cabinet_celsius"]) / fet["theta_ja"] * k
    tvs = catalogue.part("p6ke33ca")
    tl = catalogue.part("tl431a")
    pnp = catalogue.part("2n5401")
    limits = [
        ("vds_max", fet["volts"], "Q1/Q2 VDS (V)"), ("vgs_max", fet["gate_volts"], "Q1/Q2 VGS (V)"),
        ("fet_w_steady", fet_w, "Q1/Q2 dissipation (W, 50 degC cabinet, x 80 %)"),
        ("tvs_w_peak", tvs["watts"], "TVS1 peak power (W)"), ("tvs_w_steady", tvs["steady_watts"] * k, "TVS1 (W)"),
        ("tl431_vka_max", tl["volts"], "U TL431 VKA (V)"), ("tl431_ma_max", tl["amps"] * 1000 * k, "TL431 IK (mA)"),
        ("tl431_w_steady", tl["watts"] * k, "TL431 (W)"), ("pnp_vce_max", pnp["volts"], "2N5401 VCE (V)"),
        ("pnp_w_steady", pnp["watts"] * k, "2N5401 (W)"), ("zener_w_steady", catalogue.part("1n4742a")["watts"] * k,
                                                            "1N4742A (W)"),
        ("rbase_w_steady", 0.25 * k, "4.7 kOhm base resistor (W)"),
        ("cin_max", catalogue.part("cap-in-10u")["volts"], "C_IN (V)"),
    ]
    f = dict(f, tl431_ref_ma=1000 * f["j1_max"] / R_TOP)   # all of the divider's top current into REF, at most
    limits.append(("tl431_ref_ma", tl["ref_ma"] * k, "TL431 REF current (mA)"))
    for field, limit, label in limits:
        if f[field] > limit + 1e-9:
            out.append("%s %s: %s %.3g over %.3g" % (name, key, label, f[field], limit))
    return out


def outcome(key, f):
    """The case's result in words, for the README and the safety sheet."""
    if f["rail_max"] < OFF_VOLTS and f["rail_steady"] < OFF_VOLTS:
        words = "the MOSFETs never turn on: +5V stays at %.2f V; nothing lights, nothing is harmed" % abs(f["rail_max"])
    elif key == "short":
        words = "the adapter's current limit holds %.2f A into the short (F1 does not trip below %.1f A at 50 °C); " \
                "+5V peaks at %.2f V before the short" % (f["fet_amps_steady"], f["fuse_trip_50c"], f["rail_max"])
    elif f["rail_steady"] < OFF_VOLTS:
        words = "+5V peaks at %.2f V, then is cut off" % f["rail_max"]
    else:
        words = "+5V %.2f V steady (lowest %.2f V with the worst case lit), peak %.2f V" % (
            f["rail_steady"], f["rail_min_loaded"], f["rail_max"])
    extra = []
    if f["tvs_w_peak"] > 1:
        extra.append("TVS1 absorbs a %.0f W peak" % f["tvs_w_peak"])
    if f["fet_w_steady"] > 0.01:
        extra.append("Q1/Q2 dissipate %.2f W at %.2f A" % (f["fet_w_steady"], f["fet_amps_steady"]))
    if f["tl431_w_steady"] + f["pnp_w_steady"] > 0.001:
        extra.append("the cut-off holds with %.0f mW in its TL431" % (1000 * f["tl431_w_steady"]))
    return "; ".join([words] + extra)


def load_results():
    try:
        with open(RESULTS, encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        return {}


def main():
    results = simulate_all()
    with open(RESULTS, "w", encoding="utf-8", newline="\n") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    bad = []
    for d in input_designs():
        for key, f in results[d.name].items():
            print("%-14s %-9s %s" % (d.name, key, outcome(key, f)))
            bad += violations(d, key, f)
    for line in bad:
        print("VIOLATION", line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
