# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a key-matrix column pin reads while keys are held: the pressed level at the parts' corners.

Kind of fault: *a level read at its typical value only*. ``keypad.KeyMatrix``
(``columns_to_anodes=True``) drives one row low and reads every column; a held
key pulls its column down through its diode and the row's pin. Every key held
in the same row sends its column's pull-up current through the row's shared
path (a series resistor, if fitted, and the RP2040 pad at its drive strength),
so the level rises with the number of keys held::

    3V3 -- R_pull -- J -- key -- diode (anode J) --+-- R_row -- row pad (VOL at the drive's current)
    3V3 -- RPU (the pin's own) -- pin -- R_col -- J |   (n columns, one per held key, share it)

The generator is ``corners()``: every number of keys held in a row (1 to the
row's width), the 3V3 rail at +-5 %, 1 % resistors, the pin's own pull-up at
50 and 80 kOhm, the pad at its guaranteed VOL, the diode at its datasheet
maximum, 0, 25 and 50 degC, and every other key of the matrix held (its diode's
reverse current flows into the held columns). The invariant: the pin reads at
most VIL less ``MARGIN_V`` (``electrical.matrix_check``).

``solve`` gives one case in closed form (SPICE's diode equation, its
saturation current scaled with temperature as ngspice does); ``netlist``
writes the same case as an ngspice deck, and ``tests/test_hardware_keylevel.py``
checks that the two agree wherever ngspice is installed.

Parts' figures: ``parts.json`` (``rp2040-gpio``, the diodes' ``spice`` cards
with the datasheet maxima they were fitted to, ``key-pullup``).
"""

import itertools
import math

from . import parts as catalogue

MARGIN_V = 0.2  # below VIL: noise on an 800 mm loom beside the NeoPixel data
TEMPS_C = (0.0, 25.0, 50.0)  # a cold hall at switch-on; the datasheets' 25 degC; the 50 degC cabinet
TNOM_C = 25.0  # the datasheets' figures (and the models' fits) are at 25 degC
RAIL_TOLERANCE = 0.05  # the Pico's 3V3, as circuit.SUPPLY_TOLERANCE
RESISTOR_TOLERANCE = 0.01
KEY_OHMS = 0.5  # a closed microswitch, two quick-disconnects and 2 x 0.8 m of 22 AWG, generously
BOLTZMANN = 1.380649e-23
CHARGE = 1.602176634e-19


def gpio():
    return catalogue.part("rp2040-gpio")


def pad_ohms():
    """The row pad sinking current, as the resistance its guaranteed VOL implies (0.5 V at 12 mA): a
    MOSFET in its linear region, so below the drive's current the real drop is at most this."""
    g = gpio()
    return g["vol_max"] / (g["drive_ma"] / 1000.0)


def thermal_volts(celsius):
    return BOLTZMANN * (celsius + 273.15) / CHARGE


def saturation_amps(model, celsius):
    """SPICE's IS(T): IS x exp((T/Tnom - 1) x EG / (N x Vt)) x (T/Tnom)^(XTI/N), as ngspice computes it."""
    t, tnom = celsius + 273.15, TNOM_C + 273.15
    vt = thermal_volts(celsius)
    return (
        model["IS"]
        * math.exp((t / tnom - 1) * model["EG"] / (model["N"] * vt))
        * (t / tnom) ** (model["XTI"] / model["N"])
    )


def diode_volts(model, amps, celsius):
    """Forward drop at ``amps``: N x Vt x ln(1 + I / IS(T)) + I x RS."""
    return (
        model["N"] * thermal_volts(celsius) * math.log(1 + amps / saturation_amps(model, celsius)) + amps * model["RS"]
    )


def reverse_amps(diode, celsius):
    """Its reverse current at its datasheet test voltage, doubled every ``ir_double_c`` above 25 degC."""
    p = catalogue.part(diode)
    return p["ir_ua"] * 1e-6 * 2 ** ((celsius - TNOM_C) / p["ir_double_c"])


def model(diode, corner="max"):
    """The diode's SPICE card as a dict: ``max`` fitted to the datasheet's maximum VF, ``typ`` the maker's."""
    return catalogue.part(diode)["spice"][corner]


def case(matrix, held, rail, resistors, own_pullup, celsius, corner="max"):
    """One corner as a dict of every figure the circuit needs. ``matrix``: the design's (``circuit._matrix``).
    ``rail``, ``resistors``: -1, 0 or +1 (low, nominal, high); ``own_pullup``: the pin's own in Ohms."""
    g = gpio()
    rows = len(matrix["rows"])
    return {
        "held": held,
        "v33": 3.3 * (1 + RAIL_TOLERANCE * rail),
        "r_pull": (matrix["pullup_ohms"] or math.inf) * (1 - RESISTOR_TOLERANCE * resistors),  # low: more current
        "r_col": matrix["column_ohms"] * (1 - RESISTOR_TOLERANCE * resistors),
        "r_row": matrix["row_ohms"] * (1 + RESISTOR_TOLERANCE * resistors),
        "r_pad": pad_ohms(),
        "r_own": own_pullup,
        "r_key": KEY_OHMS,
        "leak": (rows - 1) * reverse_amps(matrix["diode"], celsius) + g["leak_ua"] * 1e-6,
        "celsius": celsius,
        "model": model(matrix["diode"], corner),
    }


def solve(c):
    """(pin volts, row amps) of one case: bisection on the column's junction J (every held column alike)."""

    def column_amps(vj):
        return (c["v33"] - vj) / c["r_pull"] + (c["v33"] - vj) / (c["r_own"] + c["r_col"]) + c["leak"]

    def excess(vj):
        amps = column_amps(vj)
        row = c["held"] * amps * (c["r_row"] + c["r_pad"])
        return vj - row - amps * c["r_key"] - diode_volts(c["model"], amps, c["celsius"])

    lo, hi = 0.0, c["v33"]
    for _ in range(80):
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            hi = mid
        else:
            lo = mid
    vj = (lo + hi) / 2
    own = (c["v33"] - vj) / (c["r_own"] + c["r_col"])
    return vj + own * c["r_col"], c["held"] * column_amps(vj)


def corners(matrix, held, corner="max"):
    """Every corner of ``held`` keys in one row: [(case, pin volts, row amps)]."""
    lo, hi = gpio()["pullup_kohm"]
    out = []
    for rail, resistors, own, celsius in itertools.product((-1, 1), (-1, 1), (lo * 1e3, hi * 1e3), TEMPS_C):
        c = case(matrix, held, rail, resistors, own, celsius, corner)
        volts, amps = solve(c)
        out.append((c, volts, amps))
    return out


def worst(matrix, held, corner="max"):
    """(case, pin volts, row amps) at the corner where the pin reads highest."""
    return max(corners(matrix, held, corner), key=lambda item: item[1])


def typical(matrix, held):
    """The pin at nominal values, 25 degC, the diode's typical model where the maker gives one."""
    corner = "typ" if "typ" in catalogue.part(matrix["diode"])["spice"] else "max"
    c = case(matrix, held, 0, 0, gpio()["pullup_kohm"][0] * 1e3, TNOM_C, corner)
    c["leak"] = gpio()["leak_ua"] * 1e-6
    return solve(c)[0]


def table(matrix):
    """[(keys held, typical volts, worst volts, worst corner in words)] for 1 .. the row's width."""
    out = []
    for held in range(1, len(matrix["columns"]) + 1):
        c, volts, _ = worst(matrix, held)
        out.append((held, typical(matrix, held), volts, corner_words(c)))
    return out


def corner_words(c):
    return "3V3 %.3f V, %g degC, pull-up %.0f Ohm, pin's own %.0f kOhm" % (
        c["v33"],
        c["celsius"],
        c["r_pull"],
        c["r_own"] / 1000.0,
    )


def released_volts(matrix):
    """A column not pressed on the driven row, at its worst: the rail at -5 %, its pull-ups at +1 % and
    80 kOhm, every other key of the matrix held so that each other row's diode on it leaks at 50 degC
    (the sneak path a diode blocks, less its reverse current)."""
    rows = len(matrix["rows"])
    v33 = 3.3 * (1 - RAIL_TOLERANCE)
    r = matrix["pullup_ohms"] * (1 + RESISTOR_TOLERANCE) if matrix["pullup_ohms"] else gpio()["pullup_kohm"][1] * 1e3
    leak = (rows - 1) * reverse_amps(matrix["diode"], max(TEMPS_C)) + gpio()["leak_ua"] * 1e-6
    return v33 - leak * r


def netlist(c):
    """The ngspice deck of one case (``case``): the pin's level is ``v(pin0)``."""
    m = c["model"]
    lines = [
        "* key matrix: %d keys held in the driven row" % c["held"],
        ".model DKEY D(IS=%.6g N=%.6g RS=%.6g EG=%.6g XTI=%.6g TNOM=%g)"
        % (m["IS"], m["N"], m["RS"], m["EG"], m["XTI"], TNOM_C),
        "V33 v33 0 %.6g" % c["v33"],
        "Rpad rowpad 0 %.6g" % c["r_pad"],
        "Rrow rowpad row %.6g" % max(c["r_row"], 1e-6),
    ]
    for k in range(c["held"]):
        lines += [
            "Rpull%d v33 j%d %.6g" % (k, k, c["r_pull"]),
            "Rown%d v33 pin%d %.6g" % (k, k, c["r_own"]),
            "Rcol%d pin%d j%d %.6g" % (k, k, k, c["r_col"]),
            "Rkey%d j%d a%d %.6g" % (k, k, k, c["r_key"]),
            "D%d a%d row DKEY" % (k, k),
            "Ileak%d 0 j%d DC %.6g" % (k, k, c["leak"]),
        ]
    lines += [".options temp=%g" % c["celsius"], ".control", "op", "print v(pin0)", ".endc", ".end", ""]
    return "\n".join(lines)


def ngspice_volts(c, timeout=60):
    """Run ``netlist(c)`` through ngspice; the pin's level."""
    import subprocess

    done = subprocess.run(
        ["ngspice", "-b"], input=netlist(c), capture_output=True, check=False, text=True, timeout=timeout
    )
    for line in done.stdout.splitlines():
        if line.strip().startswith("v(pin0)"):
            return float(line.split("=")[1])
    raise RuntimeError("ngspice gave no v(pin0): %s" % (done.stderr or done.stdout)[-500:])


TODAY = {"pullup_ohms": 2200, "row_ohms": 220, "diode": "1n4148"}  # the matrix issue 42 measured


def main():
    """Print the pressed level for 1 .. 8 keys held on pico-grid, before (issue 42's values) and now."""
    from nimatron.config import boards

    from .circuit import circuit

    now = circuit("pico-grid", boards.board("pico-grid")).matrix
    for words, matrix in (
        ("before: 2.2 kOhm, 1N4148, 220 Ohm row", dict(now, **TODAY)),
        ("now: %g kOhm, %s, %g Ohm row" % (now["pullup_ohms"] / 1000.0, now["diode"].upper(), now["row_ohms"]), now),
    ):
        print(
            words,
            "(nominal: 25 degC, nominal values, the maker's typical diode card where there is one, "
            "else the datasheet-maximum card)",
        )
        print("| keys held | nominal | worst | worst corner |")
        print("|---|---|---|---|")
        for held, typ, volts, corner in table(matrix):
            print("| %d | %.2f V | %.2f V | %s |" % (held, typ, volts, corner))
        print("released column, every other key held, 50 degC: %.2f V" % released_volts(matrix))


if __name__ == "__main__":
    main()
