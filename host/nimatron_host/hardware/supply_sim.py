# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The supply input under every fault a museum or a workshop will produce, and its own adapter at
every corner, simulated with ngspice.

Kinds of fault: *a supply that is wrong* and *the right supply* (the guide's faults.md). The
generator is ``CASES`` x ``CORNERS``: the design's own 5 V adapter at both ends of its tolerance,
9, 12 and 24 V adapters hot-plugged through 2 m of lead, a 24 V adapter switched on at the mains, an
unregulated 24 V wall-wart (36 V idle), three adapters reversed, a short on the panel, and the two
supplies the cut-off cannot cover (``FORBIDDEN``, named in the BOM); each at a start and a stop corner.
The rules (``violations``): the stage switches on with its own adapter, stays off on every wrong
one, every IC on the +5V rail inside its datasheet range, every part inside its rating.

The input, between the DC jack J1 and the +5V rail (all through-hole)::

    J1 + -> F1 polyfuse -> Q1 drain | Q1 source = Q2 source = S | Q2 drain -> +5V
    TVS1 P6KE43CA (bidirectional) across J1; C_IN 10 uF 50 V bi-polar from F1's far lead to ground
    Q1, Q2 SUP90P06-09L P-MOSFETs back to back, each on a heat sink: Q1's body diode blocks a reversed
    adapter, Q2's an over-voltage while both are off
    gate G: 1 MOhm to ground and 100 nF to S (a slow turn-on: about 0.1 s), 1N4742A 12 V zener S->G
    over-voltage: TL431A senses S through 11.8k/10k 0.1 % (trips at 5.30-5.57 V with its tolerance and
    drift); above it, it pulls the 2N5401's base through R_B 1.5k, the PNP shorts G to S: both MOSFETs
    off. R_BE 1k: below its trip the TL431 still draws its bias through it

A hot-plugged wrong adapter rises in microseconds, far faster than the gate's 0.1 s: the MOSFETs
never turn on. ``python -m nimatron_host.hardware.supply_sim`` writes ``simulated.json`` (and the
bench sheet's figures), which the generator reads, so ``nimatron hardware`` needs no ngspice;
``--figures`` prints the before-and-after table of docs/hardware-checks.md. ``tests/test_hardware_supply.py``
runs the decks again wherever ngspice is installed.

Models (``parts.json`` names each one's source; ``tests/test_hardware_models.py`` checks them): the
TL431 at transistor level (``TL431_SUBCKT``), the MOSFETs as level-1 PMOS at either end of VGS(th),
the 2N5401 fitted to its datasheet and run hot or cold, the TVS's breakdown at either end, a polarised
electrolytic that conducts reversed (the old C_IN), the adapter as a source with a current limit at
150 % of its rating (an LPS adapter's overload point, as the BOM requires) and 470 uF at its output,
the lead as 0.13 Ohm and 2 uH (2 m of 20 AWG pair), the jack, fuse and loom as resistances.
"""

import json
import os
import shutil
import subprocess
import tempfile

from . import parts as catalogue
from .circuit import fuse_key, input_designs
from .parts import JACK_OHMS, LOOM_OHMS, OVERLOAD

NGSPICE = "ngspice"
HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "simulated.json")

R_GATE = 1.0e6  # gate to ground: the slow turn-on
C_GATE = 100e-9  # gate to source
R_TOP, R_BOT = 11.8e3, 10.0e3  # TL431 sense divider: 2.495 V x (1 + 11.8/10) = 5.44 V
DIVIDER_TOL = 0.001  # 0.1 % resistors: the trip's window is the TL431's, not the divider's
# R_BE and R_B: below its trip a TL431 still draws its bias (0.16-0.29 mA, its internals run from
# the cathode); across R_BE that must stay far under the 2N5401's turn-on, and above the trip the
# TL431, floored at about 2 V, must still pull base current through R_B (start-up rule, H1)
R_BASE, R_BE = 1.5e3, 1.0e3
R_BASE_WATTS = 2.0  # 1.5 kOhm from a 36 V adapter to the TL431's 2 V floor: 0.7 W
CIN = "cap-in-10u-bp"  # a bi-polar electrolytic: a reversed adapter meets it too (H2)
CIN_PLACE = "from F1's far lead to ground, before Q1"  # where C_IN sits: the deck, the drawing and the BOM say this
TVS = "p6ke43ca"  # stand-off 36.8 V: an unregulated 24 V adapter idles at up to 36 V
LEAD_OHMS, LEAD_HENRY = 0.13, 2e-6
OWN_LEAD_OHMS = 0.001  # the design's own adapter holds its +-5 % at its plug (as a small adapter is specified)
ADAPTER_UF = 470
BULK_UF = 1000
PICO_AMPS = 0.05
T_LOAD = 0.35  # the firmware lights its worst case once the machine is up
T_END = 0.45
T_SHORT = 0.38
T_SHORT_END = 1.0  # a short runs on until the gate has discharged (R_GATE x C_GATE: 0.1 s) and settled
T_RISE = 0.15  # the "rising" case: the supply climbs from here to T_END
UNREG_IDLE, UNREG_OHMS = 36.0, 12.0  # an unregulated "24 V 1 A" wall-wart: 36 V idle, 24 V at 1 A

# The design as it was before issue 42 (the tests run it to show the real models catch what the
# ideal ones passed): 4.7 kOhm / 10 kOhm, a polarised C_IN at the jack, P6KE33CA, 1 % divider.
OLD_STAGE = {
    "R_BASE": 4.7e3,
    "R_BE": 10e3,
    "CIN": "cap-in-10u",
    "TVS": "p6ke33ca",
    "DIVIDER_TOL": 0.01,
    "R_BASE_WATTS": 0.25,
}

TL431_MODEL_VREF = 2.5033  # what TL431T gives at IK 10 mA, VKA = VREF, 27 degC (tests/test_hardware_models.py)


def vref_corners():
    """The TL431A's reference at its lowest and highest: 25 degC range less/plus its drift over temperature."""
    tl = catalogue.part("tl431a")
    lo, hi = tl["vref_range"]
    return lo - tl["vref_drift"], hi + tl["vref_drift"]


def trip_volts(vref=2.495, r_top=R_TOP, r_bot=R_BOT):
    return vref * (1 + r_top / r_bot)


def trip_window():
    """The over-voltage trip's spread: TL431A's reference range and its drift, and the divider's tolerance."""
    lo_ref, hi_ref = vref_corners()
    tol = DIVIDER_TOL
    return (
        trip_volts(lo_ref, R_TOP * (1 - tol), R_BOT * (1 + tol)),
        trip_volts(hi_ref, R_TOP * (1 + tol), R_BOT * (1 - tol)),
    )


# (key, words, adapter volts, adapter amps (None: the design's own), how it arrives, short on the panel)
CASES = (
    (
        "own-low",
        "its own 5 V adapter at its lowest (-5 %), lamps at the firmware's worst case",
        0.95,
        None,
        "plug",
        False,
    ),
    (
        "own-high",
        "its own 5 V adapter at its highest (+5 %), hot-plugged through 2 m of lead",
        1.05,
        None,
        "plug",
        False,
    ),
    ("9v", "a 9 V 3 A adapter (+5 %) hot-plugged through 2 m of lead", 9 * 1.05, 3.0, "plug", False),
    ("12v", "a 12 V 3 A adapter (+5 %) hot-plugged through 2 m of lead", 12 * 1.05, 3.0, "plug", False),
    ("24v", "a 24 V 3 A adapter (+5 %) hot-plugged through 2 m of lead", 24 * 1.05, 3.0, "plug", False),
    (
        "24v-low-esr",
        "a 24 V 3 A adapter hot-plugged, C_IN at a third of its ESR (the lead rings higher)",
        24 * 1.05,
        3.0,
        "plug",
        False,
    ),
    (
        "24v-ramp",
        "a 24 V 3 A adapter switched on at the mains while plugged in (rises in 20 ms)",
        24 * 1.05,
        3.0,
        "ramp",
        False,
    ),
    (
        "24v-unreg",
        'an unregulated "24 V 1 A" wall-wart (36 V idle) hot-plugged through 2 m of lead',
        UNREG_IDLE,
        "unreg",
        "plug",
        False,
    ),
    (
        "reversed",
        "a 24 V 3 A adapter whose 4-pin plug is wired backwards (its + and − contacts swapped: reversed polarity)",
        -24 * 1.05,
        3.0,
        "plug",
        False,
    ),
    (
        "reversed-own",
        "its own 5 V adapter with its plug wired backwards (its + and − swapped)",
        -1.05,
        None,
        "plug",
        False,
    ),
    (
        "reversed-unreg",
        'the unregulated "24 V" wall-wart (36 V idle) with its plug wired backwards',
        -UNREG_IDLE,
        "unreg",
        "plug",
        False,
    ),
    ("short", "a short across +5V on the panel, on its own adapter (current limit 150 %)", 1.05, None, "plug", True),
    (
        "5v4",
        "a 5 V supply set to 5.4 V (an adjustable bench or LED supply, or a 5.1 V supply at its +5 %)",
        5.4 / 5,
        None,
        "plug",
        False,
    ),
    (
        "rising",
        "its own adapter failing high while running: 5.0 V rising to 6.0 V over 0.3 s",
        1.0,
        None,
        "rise",
        False,
    ),
)

# Cases the cut-off cannot cover and the BOM names and forbids: between the adapter's 5.25 V and the
# trip's lowest corner the pixels' 5.3 V cannot be held (the trip window is wider than 5.25-5.3 V).
FORBIDDEN = ("5v4", "rising")
FORBIDDEN_WORDS = {
    "5v4": "an adjustable supply, or any set or rated above 5.25 V (a 5.1 V or 5.2 V supply)",
    "rising": "a supply that drifts high as it ages (replace one that reads above 5.25 V)",
}

# Model corners: every threshold part at the end that makes the rule hardest.
# start: the stage must switch on (hot 2N5401 turns on at the least VBE; the TL431's bias at its highest;
#        the MOSFETs' threshold at its highest; the trip at its lowest; the TVS at its highest clamp)
# stop:  the stage must stay off (cold 2N5401 needs the most VBE; the MOSFETs turn on at their lowest
#        threshold; the trip at its highest; the TVS conducting at its lowest breakdown)
CORNERS = (
    (
        "start",
        "50 °C, TL431 reference at its lowest and cathode bias +0.1 mA, VGS(th) −3 V, trip at its lowest, "
        "TVS at its highest breakdown",
        {"temp": 50, "vref": 0, "bias_ma": 0.1, "vth": 1, "tol": -1, "tvs_bv": "breakdown_max_volts"},
    ),
    (
        "stop",
        "0 °C, TL431 reference at its highest, cathode bias as modelled, VGS(th) −1 V, trip at its highest, "
        "TVS at its lowest breakdown",
        {"temp": 0, "vref": 1, "bias_ma": 0.0, "vth": 0, "tol": 1, "tvs_bv": "breakdown_volts"},
    ),
)
CORNER = {c[0]: c[2] for c in CORNERS}


def governing_corner(key):
    """The corner whose figures a case's outcome is told with: switching on for the own adapter, off otherwise."""
    return "start" if key.startswith("own") or key == "short" else "stop"


def available():
    return shutil.which(NGSPICE) is not None


# TL431 at transistor level, from the equivalent schematic in TI's TL431 datasheet (SLVS543,
# "Detailed schematic": its resistor values and its topology), transistor figures our own. What
# matters here and what the ideal sink left out: below its trip it draws its internal bias through
# its cathode (0.16-0.29 mA as REF rises to the trip, at any VKA from 2 to 36 V), and above it the
# cathode bottoms at about 2 V, not 0 V (tests/test_hardware_models.py checks both, and VREF).
TL431_SUBCKT = """.subckt TL431T A K REF
Qin K REF e1 NPNT
Re1 e1 b2 3.28k
Rb2a b2 c2 2.4k
Rb2b b2 c3 7.2k
Qc2 c2 c2 A NPNT
Qc3 c3 c2 e3 NPNT 2.7
Re3 e3 A 800
Qd c3x c3 A NPNT
Rcx c3x m1 4k
Qm kp e1 m1 NPNT
Qp1 kp kp p1 PNPT
Rp1 K p1 800
Qp2 dr kp p2 PNPT
Rp2 K p2 800
Rdr c2 g1 1k
Qg dr g1 A NPNT 0.2
Qo K dr eo NPNT 2
Reo eo bo 150
Rbo bo A 10k
Qout K bo A NPNT 10
Cc K dr 20p
Cc2 c3x c3 20p
Dsub A K DSUB
Dref dr REF DSUB
.model NPNT NPN (IS=8f BF=100 VAF=100 TF=0.5n IKF=10m RB=50 RE=10 CJE=1p CJC=1p)
.model PNPT PNP (IS=10f BF=50 VAF=50 TF=10n IKF=2m CJE=1p CJC=1p)
.model DSUB D (IS=0.1p RS=10 CJO=2p)
.ends TL431T"""


def corner_figures(corner):
    """A corner's numbers: TL431 reference, MOSFET threshold and KP, divider, TVS breakdown."""
    c = CORNER[corner] if isinstance(corner, str) else corner
    fet = catalogue.part("sup90p06")
    vt = fet["vth"][c["vth"]]
    tol = DIVIDER_TOL * c["tol"]
    return {
        "vref": vref_corners()[c["vref"]],
        "vt": vt,
        "kp": 1.0 / (fet["rds_on_4v5"] * (4.5 - vt)),  # rDS(on) at -4.5 V is the datasheet's maximum at either
        "r_top": R_TOP * (1 + tol),
        "r_bot": R_BOT * (1 - tol),
        "temp": c["temp"],
        "bias_ma": c["bias_ma"],
        "tvs_bv": catalogue.part(TVS)[c["tvs_bv"]],
    }


# The decks' models that stand for no part a builder buys: parts.json names every other model's source
# (its "model" field; tests/test_hardware_sources.py checks both lists cover every .model in the decks).
BENCH_MODELS = {
    "DIDEAL": "the adapter's current limit: a near-ideal diode returns what the load does not take (_adapter)",
    "SWP": "the plug meeting the jack: a switch that closes at the plug's arrival (_adapter)",
}


def models(corner="stop"):
    k = corner_figures(corner)
    tvs = catalogue.part(TVS)
    rs_tvs = (tvs["clamp_volts"] - tvs["breakdown_max_volts"]) / tvs["clamp_amps"]
    zener = catalogue.part("1n4742a")
    return "\n".join(
        [
            ".model PF PMOS (LEVEL=1 VTO=-%.2f KP=%.3f)" % (k["vt"], k["kp"]),
            ".model DBODY D (IS=1e-12 N=1.0 RS=0.005 CJO=1n)",
            ".model DTVS D (IS=1e-12 N=1.0 RS=%.4f BV=%.2f IBV=1e-3 CJO=1n)" % (rs_tvs, k["tvs_bv"]),
            ".model DZ D (IS=1e-12 N=1.0 RS=%.1f BV=%.1f IBV=%.3f)"
            % (zener["zzt_ohms"], zener["volts"], zener["izt_ma"] / 1000.0),
            # 1N5817: VF 0.45 V max at 1 A; IS fitted with N 1.1 and 0.05 Ohm
            ".model D5817 D (IS=7.5e-7 N=1.1 RS=0.05 BV=20)",
            ".model DIDEAL D (IS=1e-12 N=0.02)",
            # a polarised electrolytic reversed past about 1 V conducts through its oxide: 2.2 V at 5 A
            ".model DCREV D (IS=1e-9 N=3 RS=0.1)",
            # 2N5401: IS for VBE 0.65 V at 1 mA (25 degC), hFE at the datasheets' minimum over 1-50 mA (parts.json)
            ".model QP PNP (IS=1e-14 BF=%g VAF=100 XTI=3 EG=1.11 CJE=20p CJC=5p TF=1n)"
            % catalogue.part("2n5401")["hfe_min"],
            ".model SWP SW (VT=0.5 VH=0.1 RON=1m ROFF=1e9)",
            TL431_SUBCKT,
        ]
        + ["* %s: %s" % item for item in sorted(BENCH_MODELS.items())]
    )


def fuse_ohms(design):
    return catalogue.fuse_r1max(fuse_key(design))


def netlist(design, case, out_path, corner="stop", ideal=False):
    """The ngspice deck of one case of ``CASES`` at one of ``CORNERS``: the adapter, the input
    protection, the load, the analysis. ``ideal``: the parts the decks had before issue 42 (a TL431
    that draws nothing below its trip, a capacitor with no polarity): the tests run it to show what
    the real models catch."""
    key, _, volts_factor, amps, arrival, short = case
    protection = _protection(design, key, corner_figures(corner), ideal)
    reversible = any(line.startswith("Dcrev ") for line in protection)
    return (
        "\n".join(
            ["* Nimatron %s: %s at corner %s" % (design.name, key, corner), models(corner)]
            + _adapter(design, volts_factor, amps, arrival)
            + protection
            + _load(design, short)
            + _analysis(design, out_path, reversible, end_time(case))
        )
        + "\n"
    )


def _adapter(design, volts_factor, amps, arrival):
    """The adapter (``amps`` None: the board's own; "unreg": a transformer wall-wart, 36 V idle behind
    12 Ohm): a current limit (Ilim pushes, DIDEAL returns what the load does not take), 470 uF at its
    output, its lead, and the plug going in (a ramp, or at once)."""
    own_adapter = amps is None
    volts = volts_factor * design.figures["volts"] if own_adapter else volts_factor
    plug = "0 1 1 1" if arrival in ("ramp", "rise") else "0 0 10u 0 11u 1"
    if arrival == "ramp":
        source = "Vad src 0 PWL(0 0 1m 0 21m %.3f)" % volts
    elif arrival == "rise":
        source = "Vad src 0 PWL(0 0 1m 0 2m %.3f %g %.3f %g %.3f)" % (volts, T_RISE, volts, T_END, volts * 1.2)
    else:
        source = "Vad src 0 DC %.3f" % volts
    if amps == "unreg":
        limit = ["Rint src lim %g" % UNREG_OHMS]
    else:
        ilim = (design.spec["supply"]["amps"] if own_adapter else amps) * OVERLOAD
        limit = [
            "Ilim 0 lim DC %.3f" % ilim if volts >= 0 else "Ilim lim 0 DC %.3f" % ilim,
            "Dlim lim src DIDEAL" if volts >= 0 else "Dlim src lim DIDEAL",
        ]
    return (
        [source]
        + limit
        + [
            "Cad lim cad %gu" % ADAPTER_UF,
            "Rcad cad 0 0.05",
            "Rlead lim n1 %g" % (OWN_LEAD_OHMS if own_adapter else LEAD_OHMS),
            "Llead n1 plug %g" % LEAD_HENRY,
            "Vplugc pc 0 PWL(%s)" % plug,
            "Splug plug jin pc 0 SWP",
        ]
    )


def _protection(design, key, k, ideal=False):
    """J1, the TVS, F1, C_IN, the two MOSFETs with their gate network, and the over-voltage cut-off."""
    cin = catalogue.part(CIN)
    lines = [
        "Rjack jin j1 %g" % JACK_OHMS,
        "Vstvs j1 jt 0",
        "Dtvs1 jt t1 DTVS",
        "Dtvs2 0 t1 DTVS",
        "Rf j1 f1 %g" % fuse_ohms(design),
        "Cin f1 cinr 10u",
        "Rcin cinr 0 %g" % (cin["esr_ohms"] / (3 if "low-esr" in key else 1)),
    ]
    if cin.get("polarised") and not ideal:
        lines += ["Vcrev crv 0 0", "Dcrev crv f1 DCREV"]  # reversed, the oxide conducts
    lines += [
        "M1 f1 g s s PF",
        "Db1 f1 s DBODY",
        "M2 rq g s s PF",
        "Db2 rq s DBODY",
        "Vsq rq rail 0",
        "Rg g 0 %g" % R_GATE,
        "Cg s g %g" % C_GATE,
        "Cfet s g 10n",
        "Dz g zz DZ",
        "Vsz zz s 0",
        "Rtop s ref %g" % k["r_top"],
        "Rbot ref 0 %g" % k["r_bot"],
    ]
    if ideal:
        lines += [
            "B431 k 0 I=0.05*(0.5+0.5*tanh(500*(v(ref)-%.4f)))*tanh(max(v(k),0)/0.4)" % k["vref"],
            "Ck k 0 100p",
            "Cref ref 0 10p",
        ]
    else:
        lines += [
            "Vvref ref refx DC %.4f" % (k["vref"] - TL431_MODEL_VREF),  # the corner's reference
            "X431 0 k refx TL431T",
            "Cref ref 0 10p",
        ]
        if k["bias_ma"]:
            lines.append("Bbias k 0 I=%ge-3*tanh(max(v(k),0))" % k["bias_ma"])  # the bias corner: more through R_BE
    lines += ["Rb b k %g" % R_BASE, "Rbe s b %g" % R_BE, "Vsc gq g 0", "Q3 gq b s QP temp=%g" % k["temp"]]
    return lines


def _load(design, short):
    """The bulk capacitor, the loom, the lamps switching from dark to the worst case, a Pico on VSYS, a short."""
    worst = catalogue.worst_amps(design)
    dark = max(worst * 0.05, 0.05)
    lines = [
        "Cbulk rail cbr %gu" % BULK_UF,
        "Rcbr cbr 0 0.05",
        "Rloom rail px %g" % LOOM_OHMS,
        "Bload px 0 I=(%g+%g*u(time-%g))*tanh(max(v(px),0)/0.5)" % (dark, worst - dark, T_LOAD),
    ]
    if design.pico:
        lines += ["Dvs rail vsys D5817", "Rpico vsys 0 %g" % (5.0 / PICO_AMPS)]
    if short:
        lines += ["Vshc shc 0 PWL(0 0 %g 0 %g 1)" % (T_SHORT, T_SHORT + 1e-6), "Sshort rail 0 shc 0 SWP"]
    return lines


def end_time(case):
    return T_SHORT_END if case[5] else T_END


def _analysis(design, out_path, reversible=False, t_end=T_END):
    """The transient run and the vectors it writes to ``out_path``."""
    vectors = [
        "v(j1)",
        "v(f1)",
        "v(s)",
        "v(g)",
        "v(rail)",
        "v(px)",
        "v(k)",
        "v(b)",
        "i(vstvs)",
        "i(vsq)",
        "i(vsz)",
        "i(vsc)",
        "i(vplugc)",
    ]
    if design.pico:
        vectors.append("v(vsys)")
    return [
        ".options reltol=1e-3 abstol=1e-9 itl4=100 method=gear",
        ".control",
        "set wr_singlescale",
        "set wr_vecnames",
        "option numdgt=7",
        "tran 1u %g 0 20u" % t_end,
        "wrdata %s %s" % (out_path, " ".join(vectors + (["i(vcrev)"] if reversible else []))),
        "quit",
        ".endc",
        ".end",
    ]


def run(text, out_path, timeout=300):
    with tempfile.NamedTemporaryFile("w", suffix=".cir", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        done = subprocess.run([NGSPICE, "-b", path], capture_output=True, check=False, text=True, timeout=timeout)
        if done.returncode != 0 or not os.path.exists(out_path):
            raise RuntimeError("ngspice failed: %s" % (done.stderr or done.stdout)[-2000:])
        return read_wrdata(out_path)
    finally:
        os.remove(path)


def read_wrdata(path):
    with open(path) as f:
        head = f.readline().split()
        rows = [[float(x) for x in line.split()] for line in f if line.strip()]
    return {name: [r[i] for r in rows] for i, name in enumerate(head)}


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
    settle = end_time(case) - 0.04
    n = len(t)
    vs, vg = data["v(s)"], data["v(g)"]
    vgs = [vs[i] - vg[i] for i in range(n)]
    vds1 = [abs(data["v(f1)"][i] - vs[i]) for i in range(n)]
    vds2 = [abs(vs[i] - data["v(rail)"][i]) for i in range(n)]
    ifet = [abs(x) for x in data["i(vsq)"]]
    p_fet = [max(vds1[i], vds2[i]) * ifet[i] for i in range(n)]  # the hotter of the two
    p_tvs = [abs(data["v(j1)"][i] * data["i(vstvs)"][i]) for i in range(n)]
    ik = [(data["v(b)"][i] - data["v(k)"][i]) / R_BASE for i in range(n)]
    p_431 = [max(data["v(k)"][i], 0) * max(ik[i], 0) for i in range(n)]
    p_rb = [(ik[i] ** 2) * R_BASE for i in range(n)]
    p_pnp = [abs((vs[i] - vg[i]) * data["i(vsc)"][i]) for i in range(n)]
    p_z = [abs(vgs[i] * data["i(vsz)"][i]) for i in range(n)]
    i_crev = [abs(x) for x in data.get("i(vcrev)", [0.0] * n)]
    p_cin = [abs(data["v(f1)"][i]) * i_crev[i] for i in range(n)]
    rail = data["v(rail)"]
    out = {
        "rail_max": max(rail),
        "rail_min_loaded": min(_window(t, rail, T_LOAD + 0.01)),
        "rail_steady": _average(t, rail, settle),
        "rail_min": min(rail),
        "pixels_max": max(data["v(px)"]),
        "pixels_steady": _average(t, data["v(px)"], settle),
        "j1_max": max(abs(x) for x in data["v(j1)"]),
        "vds_max": max(*vds1, *vds2),
        "vgs_max": max(abs(x) for x in vgs),
        "fet_w_steady": _average(t, p_fet, settle),
        "fet_w_peak": max(p_fet),
        "fet_amps_steady": _average(t, ifet, settle),
        "tvs_w_peak": max(p_tvs),
        "tvs_w_steady": _average(t, p_tvs, settle),
        "tl431_vka_max": max(data["v(k)"]),
        "tl431_w_steady": _average(t, p_431, settle),
        "tl431_ma_max": 1000 * max(ik),
        "rbase_w_steady": _average(t, p_rb, settle),
        "pnp_w_steady": _average(t, p_pnp, settle),
        "pnp_vce_max": max(abs(vs[i] - vg[i]) for i in range(n)),
        "zener_w_steady": _average(t, p_z, settle),
        "cin_max": max(abs(x) for x in data["v(f1)"]),
        "cin_reverse_max": max(0.0, -min(data["v(f1)"])),
        "cin_amps_steady": _average(t, i_crev, settle),
        "cin_w_steady": _average(t, p_cin, settle),
        "vbe_steady": _average(t, [vs[i] - data["v(b)"][i] for i in range(n)], settle),
    }
    table = catalogue.part("ptc-rerating-ruef")
    out["fuse_trip_50c"] = (
        catalogue.part(fuse_key(design))["trip_amps"] * table["hold_factor"][str(table["cabinet_celsius"])]
    )
    if "v(vsys)" in data:
        out["vsys_max"] = max(data["v(vsys)"])
        out["vsys_steady"] = _average(t, data["v(vsys)"], settle)
    return {k: round(v, 4) + 0.0 for k, v in out.items()}


def simulate(design, case, corner="stop", ideal=False):
    """The figures of one case at one corner (``ideal``: with the parts the decks had before issue 42)."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out.txt")
        return figures(design, case, run(netlist(design, case, out, corner, ideal), out))


def simulate_case(design, case):
    """{corner: figures} of one case at every corner."""
    return {corner: simulate(design, case, corner) for corner, _, _ in CORNERS}


# --- the bench sheet: the first built input stage on a bench supply -------------

BENCH_STEP = 0.005  # the trip sweep's step (V): a bench supply turned up slowly
BENCH_LOAD_OHMS = 1000  # across +5V on the bench, so the rail falls to 0 V when the stage switches off


def bench_deck(design, corner, volts, load_amps, out_path, sweep=False, ideal=False):
    """The input stage alone on a bench supply at ``volts`` (no adapter, no lead), ``load_amps`` drawn
    from +5V; DC only: an operating point, or with ``sweep`` the supply turned up to 6.5 V."""
    k = corner_figures(corner)
    lines = [
        "* Nimatron %s: bench, corner %s" % (design.name, corner),
        models(corner),
        "Vbench jin 0 DC %.3f" % volts,
    ] + _protection(design, "bench", k, ideal)
    lines.append("Bload rail 0 I=%g*tanh(max(v(rail),0)/0.5)" % load_amps)
    lines.append("Rbench rail 0 %g" % BENCH_LOAD_OHMS)
    vectors = "v(s) v(b) v(rail) v(j1)"
    analysis = "dc Vbench %.3f 6.5 %g" % (volts, BENCH_STEP) if sweep else "op"
    return (
        "\n".join(
            lines
            + [
                ".options reltol=1e-4 abstol=1e-10",
                ".control",
                "set wr_singlescale",
                "set wr_vecnames",
                "option numdgt=7",
                analysis,
                "wrdata %s %s" % (out_path, vectors),
                "quit",
                ".endc",
                ".end",
            ]
        )
        + "\n"
    )


def bench_run(design, corner, volts, load_amps, sweep=False, ideal=False):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out.txt")
        return run(bench_deck(design, corner, volts, load_amps, out, sweep, ideal), out)


def bench(design):
    """{figure: (lowest, highest) over the corners}: what the bench sheet expects of a good stage.

    vbe_5v0: volts across R_BE at 5.00 V with nothing on +5V (the TL431's bias times R_BE);
    rail_4v75_full: +5V at 4.75 V in with the worst case drawn; trip: the supply at which +5V drops out
    as the bench supply is turned up from 5.0 V."""
    out = {}
    worst = catalogue.worst_amps(design)
    for corner, _, _ in CORNERS:
        idle = bench_run(design, corner, 5.0, 0.0)
        full = bench_run(design, corner, 4.75, worst)
        sweep = bench_run(design, corner, 5.0, 0.0, sweep=True)
        vin = sweep["v(j1)"]
        off = [vin[i] for i in range(len(vin)) if sweep["v(rail)"][i] < OFF_VOLTS]
        figures = {
            "vbe_5v0": idle["v(s)"][0] - idle["v(b)"][0],
            "rail_5v0_idle": idle["v(rail)"][0],
            "rail_4v75_full": full["v(rail)"][0],
            "trip": min(off) if off else 99.0,
        }
        for key, value in figures.items():
            lo, hi = out.get(key, (value, value))
            out[key] = (round(min(lo, value), 3), round(max(hi, value), 3))
    return out


def bench_all():
    return {d.name: bench(d) for d in input_designs()}


def simulate_all():
    """{board: {case: figures}} for every board with a DC input."""
    return {d.name: {case[0]: simulate_case(d, case) for case in CASES} for d in input_designs()}


# --- the invariant -------------------------------------------------------------

OFF_VOLTS = 0.5  # a rail below this is switched off, not a supply


def ic_limits(design):
    """[(name, figure key, (min operating, max operating, absolute max))] on this board's rail."""
    ranges = catalogue.part("ic-supply")["ranges"]
    out = [("U1 74AHCT125 VCC", "rail", ranges["74ahct125"]), ("pixels' VDD", "pixels", ranges["ws2812b"])]
    if design.pico:
        out.append(("Pico VSYS", "vsys", ranges["pico-vsys"]))
    return out


def violations(design, key, f):
    """Every rule a case's figures break at one corner, one line each (empty: inside every rating).

    The rules: on its own adapter (-5 % and +5 %) the stage switches on and U1 gets its 4.5 V at the
    worst case; on every wrong adapter, either way round, +5V stays off; every IC on the rail inside its
    range (a case of ``FORBIDDEN`` is named in the BOM instead); every part inside its rating, C_IN
    never driven backwards into conduction."""
    name = design.name
    out = []
    k = catalogue.derate()
    forbidden = key in FORBIDDEN
    for label, node, (lo, hi, absolute) in ic_limits(design) if not forbidden else ():
        peak, steady = f[node + "_max"], f[node + "_steady"]
        if peak > absolute + 1e-6:
            out.append("%s %s: %s peaks at %.2f V, absolute maximum %.1f V" % (name, key, label, peak, absolute))
        if steady > OFF_VOLTS and not lo <= steady <= hi:
            out.append("%s %s: %s at %.2f V, its range %.1f-%.1f V" % (name, key, label, steady, lo, hi))
        if peak > hi + 1e-6 and key.startswith("own"):
            out.append("%s %s: %s reaches %.2f V on its own supply, max %.1f V" % (name, key, label, peak, hi))
    own = key.startswith("own")
    wrong = not own and key != "short" and not forbidden
    if wrong and f["vgs_max"] >= catalogue.part("sup90p06")["vth"][0]:
        out.append(
            "%s %s: Q1/Q2's gate reaches %.2f V, VGS(th) may be %.1f V"
            % (name, key, f["vgs_max"], catalogue.part("sup90p06")["vth"][0])
        )
    if wrong and max(abs(f["rail_max"]), abs(f["rail_steady"])) >= OFF_VOLTS:
        out.append("%s %s: a wrong adapter reaches +5V (%.2f V)" % (name, key, f["rail_max"]))
    if own and f["rail_steady"] < OFF_VOLTS:
        out.append("%s %s: the stage stays off on its own adapter (+5V %.2f V)" % (name, key, f["rail_steady"]))
    if key == "own-low" and f["rail_min_loaded"] < catalogue.part("ic-supply")["ranges"]["74ahct125"][0]:
        out.append("%s %s: U1 sees %.2f V at the worst case, needs 4.5 V" % (name, key, f["rail_min_loaded"]))
    if f.get("cin_w_steady", 0.0) > CIN_REVERSE_WATTS:
        out.append(
            "%s %s: C_IN conducts %.2f A backwards, %.1f W in it" % (name, key, f["cin_amps_steady"], f["cin_w_steady"])
        )
    fet = catalogue.part("sup90p06")
    fet_w = fet_watts_allowed() * k
    tvs = catalogue.part(TVS)
    tl = catalogue.part("tl431a")
    pnp = catalogue.part("2n5401")
    limits = [
        ("vds_max", fet["volts"], "Q1/Q2 VDS (V)"),
        ("vgs_max", fet["gate_volts"], "Q1/Q2 VGS (V)"),
        (
            "fet_w_steady",
            fet_w,
            "Q1/Q2 dissipation (W, on %s, 50 degC cabinet, x 80 %%)"
            % ("its heat sink" if HEATSINK else "no heat sink"),
        ),
        ("tvs_w_peak", tvs["watts"], "TVS1 peak power (W)"),
        ("tvs_w_steady", tvs["steady_watts"] * k, "TVS1 (W)"),
        ("tl431_vka_max", tl["volts"], "U TL431 VKA (V)"),
        ("tl431_ma_max", tl["amps"] * 1000 * k, "TL431 IK (mA)"),
        ("tl431_w_steady", tl["watts"] * k, "TL431 (W)"),
        ("pnp_vce_max", pnp["volts"], "2N5401 VCE (V)"),
        ("pnp_w_steady", pnp["watts"] * k, "2N5401 (W)"),
        ("zener_w_steady", catalogue.part("1n4742a")["watts"] * k, "1N4742A (W)"),
        ("rbase_w_steady", R_BASE_WATTS * k, "R_B base resistor (W)"),
        ("cin_max", catalogue.part(CIN)["volts"], "C_IN (V)"),
    ]
    f = dict(f, tl431_ref_ma=1000 * f["j1_max"] / R_TOP)  # all of the divider's top current into REF, at most
    limits.append(("tl431_ref_ma", tl["ref_ma"] * k, "TL431 REF current (mA)"))
    for field, limit, label in limits:
        if f[field] > limit + 1e-9:
            out.append("%s %s: %s %.3g over %.3g" % (name, key, label, f[field], limit))
    return out


HEATSINK = "heatsink-to220"  # None: the MOSFETs in free air (the design before issue 42)


def fet_theta():
    """Q1/Q2 junction to cabinet air (degC/W): on ``HEATSINK`` (its figures pessimistic while assumed), or free air."""
    fet = catalogue.part("sup90p06")
    if not HEATSINK:
        return fet["theta_ja"]
    sink = catalogue.part(HEATSINK)
    return fet["theta_jc"] + (sink["theta_cs"] + sink["theta_sa"]) / (
        catalogue.ASSUMED if catalogue.assumed(HEATSINK) else 1.0
    )


def fet_watts_allowed():
    """What Q1 or Q2 may dissipate in a 50 degC cabinet before its junction reaches TJ max (not derated)."""
    fet = catalogue.part("sup90p06")
    return (fet["tj_max"] - catalogue.part("ptc-rerating-ruef")["cabinet_celsius"]) / fet_theta()


CIN_REVERSE_WATTS = 0.05  # C_IN's own ripple heating is far below this; conduction backwards far above


def all_violations(design, key, by_corner):
    """``violations`` at every corner of a committed case, each line naming its corner."""
    return [
        "%s [%s]" % (line, corner) for corner, f in sorted(by_corner.items()) for line in violations(design, key, f)
    ]


def governing(key, by_corner):
    """The figures a case's outcome is told with (``governing_corner``)."""
    return by_corner[governing_corner(key)]


def outcome(key, f):
    """The case's result in words, for the README and the safety sheet."""
    if f["rail_max"] < OFF_VOLTS and f["rail_steady"] < OFF_VOLTS:
        words = "the MOSFETs never turn on: +5V stays at %.2f V; nothing lights, nothing is harmed" % abs(f["rail_max"])
    elif key == "short":
        words = (
            "the adapter's current limit holds %.2f A into the short (F1 does not trip below %.1f A at 50 °C); "
            "+5V peaks at %.2f V before the short" % (f["fet_amps_steady"], f["fuse_trip_50c"], f["rail_max"])
        )
    elif key in FORBIDDEN:
        words = "the pixels reach %.2f V (their limit %.1f V): forbidden in the parts list" % (
            f["pixels_max"],
            catalogue.part("ic-supply")["ranges"]["ws2812b"][2],
        )
    elif f["rail_steady"] < OFF_VOLTS:
        words = "+5V peaks at %.2f V, then is cut off" % f["rail_max"]
    else:
        words = "+5V %.2f V steady (lowest %.2f V with the worst case lit), peak %.2f V" % (
            f["rail_steady"],
            f["rail_min_loaded"],
            f["rail_max"],
        )
    extra = []
    if f["tvs_w_peak"] > 1:
        extra.append("TVS1 absorbs a %.0f W peak" % f["tvs_w_peak"])
    if f["fet_w_steady"] > 0.01:
        extra.append("Q1/Q2 dissipate %.2f W at %.2f A" % (f["fet_w_steady"], f["fet_amps_steady"]))
    if f["tl431_w_steady"] + f["pnp_w_steady"] > 0.001:
        extra.append("the cut-off holds with %.0f mW in its TL431" % (1000 * f["tl431_w_steady"]))
    return "; ".join([words] + extra)


def load_all():
    try:
        with open(RESULTS, encoding="utf-8") as f:
            return json.load(f)
    except OSError:
        return {}


def load_results():
    """{board: {case: {corner: figures}}} as committed."""
    return {k: v for k, v in load_all().items() if k != "bench"}


def load_bench(design):
    """The bench sheet's expected figures as committed (``bench``)."""
    return {k: tuple(v) for k, v in load_all().get("bench", {}).get(design.name, {}).items()}


def report(design):
    """Markdown lines: before (the stage of ``OLD_STAGE``, ideal and real models) and after, for docs."""
    import contextlib

    @contextlib.contextmanager
    def stage(values):
        saved = {k: globals()[k] for k in values}
        globals().update(values)
        try:
            yield
        finally:
            globals().update(saved)

    worst = catalogue.worst_amps(design)
    rows = []
    for label, values, ideal in (
        ("before, ideal TL431", OLD_STAGE, True),
        ("before, real models", OLD_STAGE, False),
        ("after, real models", {}, False),
    ):
        with stage(values):
            for corner, _, _ in CORNERS:
                cells = [
                    "%.2f" % bench_run(design, corner, v, worst, ideal=ideal)["v(rail)"][0] for v in (4.75, 5.0, 5.25)
                ]
                rows.append("| %s | %s | %s |" % (label, corner, " | ".join(cells)))
        with stage(values):
            rev = simulate(design, [c for c in CASES if c[0] == "reversed"][0], ideal=ideal)
        rows.append(
            "| %s | reversed 24 V: C_IN %.2f A, %.1f W | | | |" % (label, rev["cin_amps_steady"], rev["cin_w_steady"])
        )
    return (
        ["| `%s` | corner | +5V at 4.75 V in | at 5.00 V | at 5.25 V |" % design.name, "|---|---|---|---|---|"]
        + rows
        + [""]
        + _report_faults(design)
    )


def _report_faults(design):
    """The short against the fuse and the MOSFETs, the pixels' conductors, the pixels' highest volts."""
    from . import electrical

    short = load_results()[design.name]["short"]
    fet_w = max(f["fet_w_steady"] for f in short.values())
    amps = max(f["fet_amps_steady"] for f in short.values())
    k = catalogue.derate()
    free_air = (catalogue.part("sup90p06")["tj_max"] - 50) / catalogue.part("sup90p06")["theta_ja"] * k
    out = [
        "- short on the panel: the adapter's limit holds %.2f A; F1 trips at %.1f A (50 °C): never; Q2 %.1f W "
        "(allowed %.1f W in free air, %.1f W on its heat sink)"
        % (amps, short["start"]["fuse_trip_50c"], fet_w, free_air, fet_watts_allowed() * k)
    ]
    if design.pixels:
        for label, (far, seg, feeds) in electrical.pixel_figures(design).items():
            out.append(
                "- pixels fed %s: farthest pixel %.2f V at the worst case on 4.75 V, conductors %.2f A "
                "(rated %.2f A × 80 %%), feeds %s A"
                % (
                    label if label == "in groups" else "at " + label,
                    far,
                    seg,
                    catalogue.trusted("wire-22", 3.0),
                    " + ".join("%.2f" % f for f in feeds),
                )
            )
    fused = [r[0] for r in electrical.fault_fused(design)]
    for ref, key, normal, fault, rating in electrical.fault_rows(design):
        out.append(
            "- %s (%s): %.2f A at the worst case, %.2f A in a short, rated %.2f A%s"
            % (
                ref,
                key,
                normal,
                fault,
                rating,
                ""
                if rating >= fault
                else ": below the short's current, behind its group's %g A fuse" % electrical.group_fuse()
                if ref in fused
                else ": BELOW the short's current",
            )
        )
    results = load_results()[design.name]
    reach = max(f["pixels_max"] for key, by in results.items() if key not in FORBIDDEN for f in by.values())
    banned = ", ".join("%s %.2f V" % (key, max(f["pixels_max"] for f in results[key].values())) for key in FORBIDDEN)
    out.append(
        "- pixels' highest volts in a reachable case: %.2f V (limit 5.3 V); in the forbidden cases: %s"
        % (reach, banned)
    )
    return out


def main():
    import sys

    if "--figures" in sys.argv[1:]:
        heavy = max(input_designs(), key=catalogue.worst_amps)
        print("\n".join(report(heavy)))
        return 0
    results = simulate_all()
    results["bench"] = bench_all()
    with open(RESULTS, "w", encoding="utf-8", newline="\n") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    bad = []
    for d in input_designs():
        print("%-14s bench          %s" % (d.name, results["bench"][d.name]))
        for key, by_corner in results[d.name].items():
            print("%-14s %-14s %s" % (d.name, key, outcome(key, governing(key, by_corner))))
            bad += all_violations(d, key, by_corner)
    for line in bad:
        print("VIOLATION", line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
