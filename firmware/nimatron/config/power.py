# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The power budget: what the lamps may draw against the supply that feeds them.

A museum machine must never brown out, so the worst case the firmware may
light is checked at start-up (``app.make_controller``) and on every change
of settings, and a board or a ``brightness`` setting that would exceed its
supply is refused with the figures:

    >>> from nimatron.config import boards, power
    >>> power.budget(boards.board("pico-neopixel"))["cap"]
    0.79

The pin map names the supply (``"supply": {"volts": 5, "amps": 2,
"board_ma": 50}``; ``board_ma`` is whatever else hangs on it, such as the
Pico itself), the logic (``"logic": {"volts": 3.3, "pin_ma": 16,
"total_ma": 50}``) and, for discrete LEDs, the LED (``"led": {"vf": 1.9,
"ma": 2}``). Figures: a NeoPixel draws up to 60 mA at full white (20 mA
per colour channel) scaled by brightness, and about 1 mA dark; a discrete
LED draws (logic volts - Vf) / R through the E24 resistor at or above the
one that gives its rated current. A GPIO pin gives a few milliamps, too
little for a lamp seen in a lit gallery, so an LED may hang on a sink
driver instead (``"sink": {"vce": 0.9, "input_ma": 1.35}``: a ULN2803A
channel pulls its cathode to ground while the pin is high): the LED then
draws (supply volts - Vf - Vce) / R from the supply, and the pin gives
only the driver's input current. A supply is loaded to at most 80 % of its
rating.

MicroPython-safe: no imports, integer and float arithmetic only.
"""

PIXEL_MA = 60  # one NeoPixel at full white (three channels of 20 mA)
DARK_MA = 1  # one NeoPixel with nothing lit (its own controller)
DERATE = 0.8  # load a supply to at most 80 % of its rating
E24 = (10, 11, 12, 13, 15, 16, 18, 20, 22, 24, 27, 30, 33, 36, 39, 43, 47, 51, 56, 62, 68, 75, 82, 91)


class PowerError(ValueError):
    """A board or setting whose worst case exceeds its supply or its pins."""


def resistor_ohms(volts, vf, ma):
    """The series resistor for an LED: the E24 value at or above (V - Vf) / I.

    >>> resistor_ohms(3.3, 1.9, 2)
    750
    """
    if ma <= 0 or volts <= vf:
        raise PowerError("an LED of %.1f V cannot light from %.1f V logic" % (vf, volts))
    exact = (volts - vf) * 1000.0 / ma
    decade = 1
    while True:
        for base in E24:
            ohms = base * decade
            if ohms >= exact - 1e-6:
                return ohms
        decade *= 10


def led_ma(volts, vf, ohms):
    """The current an LED really draws through ``ohms`` (milliamps)."""
    return (volts - vf) * 1000.0 / ohms


def _floor2(x):
    """``x`` rounded down to hundredths (a brightness cap errs low)."""
    return int(x * 100 + 1e-9) / 100


def lamp_count(spec):
    """Every lamp the board can light: lamps plus status lamps (or pixels)."""
    lamps = spec["lamps"]
    if lamps["kind"] == "leds":
        n = 0
        for row in lamps["rows"]:
            n += len(row)
        return n + len(spec.get("status", {}))
    return lamps["pixels"]


def budget(spec, amps=None):
    """The board's figures as a dict (milliamps unless named otherwise).

    ``amps`` replaces the supply's rating (what-if). Keys: ``kind``,
    ``volts``, ``amps``, ``allowed_ma`` (the supply's 80 %), ``board_ma``,
    ``lamps``, and for NeoPixels ``dark_ma``, ``full_ma`` (every pixel full
    white at brightness 1), ``cap`` (the highest brightness that fits,
    0..1); for LEDs ``ohms``, ``led_ma``, ``leds_ma`` (all lit),
    ``pin_limit_ma``, ``total_limit_ma``, ``worst_ma``, ``drive_volts``
    (what the resistor and LED hang from), ``pin_ma`` and ``pins_ma`` (what
    one pin and all pins give: the LED's current, or a sink driver's input).
    """
    supply = spec.get("supply")
    if not supply:
        raise PowerError('the pin map names no supply ("supply": {"volts": 5, "amps": 2})')
    volts = supply["volts"]
    amps = supply["amps"] if amps is None else amps
    if not amps > 0:
        raise PowerError("the supply must give more than 0 A")
    logic = spec.get("logic", {})
    out = {
        "kind": spec["lamps"]["kind"],
        "volts": volts,
        "amps": amps,
        "allowed_ma": amps * 1000.0 * DERATE,
        "board_ma": supply.get("board_ma", 0),
        "lamps": lamp_count(spec),
        "logic_volts": logic.get("volts", 3.3),
    }
    if out["kind"] == "leds":
        led = spec["led"]
        sink = led.get("sink")
        drive = volts - sink["vce"] if sink else out["logic_volts"]
        ohms = resistor_ohms(drive, led["vf"], led["ma"])
        each = led_ma(drive, led["vf"], ohms)
        out["drive_volts"] = drive
        out["ohms"] = ohms
        out["led_ma"] = each
        out["leds_ma"] = each * out["lamps"]
        out["pin_ma"] = sink["input_ma"] if sink else each
        out["pins_ma"] = out["pin_ma"] * out["lamps"]
        out["pin_limit_ma"] = logic.get("pin_ma", 16)
        out["total_limit_ma"] = logic.get("total_ma", 50)
        out["worst_ma"] = out["board_ma"] + out["leds_ma"]
        out["cap"] = 1.0
        return out
    out["dark_ma"] = DARK_MA * out["lamps"]
    out["full_ma"] = PIXEL_MA * out["lamps"]
    room = out["allowed_ma"] - out["board_ma"] - out["dark_ma"]
    out["cap"] = max(0.0, min(1.0, _floor2(room / out["full_ma"])))
    return out


def worst_ma(figures, brightness):
    """The most the board may draw at ``brightness`` (milliamps)."""
    if figures["kind"] == "leds":
        return figures["worst_ma"]
    return figures["board_ma"] + figures["dark_ma"] + brightness * figures["full_ma"]


def _supply(figures):
    return "%g V %g A supply allows %d mA (%d %% of its rating)" % (
        figures["volts"],
        figures["amps"],
        int(figures["allowed_ma"]),
        int(DERATE * 100),
    )


def check(name, spec, brightness=None, amps=None):
    """The brightness to drive the lamps at, or PowerError naming the figures.

    ``brightness`` is the operator's setting (None: the pin map's own).
    """
    figures = budget(spec, amps)
    if figures["kind"] == "leds":
        if brightness is not None and brightness != 1:
            raise PowerError(
                "board %s: brightness %s cannot apply: discrete LEDs are set by their %d ohm resistors"
                % (name, brightness, figures["ohms"])
            )
        if figures["pin_ma"] > figures["pin_limit_ma"]:
            raise PowerError(
                "board %s: each LED draws %.1f mA, over the %d mA a pin may give"
                % (name, figures["pin_ma"], figures["pin_limit_ma"])
            )
        if figures["pins_ma"] > figures["total_limit_ma"]:
            raise PowerError(
                "board %s: %d LEDs at %.1f mA draw %d mA from the pins, over their %d mA limit"
                % (name, figures["lamps"], figures["pin_ma"], int(figures["pins_ma"] + 0.5), figures["total_limit_ma"])
            )
        if figures["worst_ma"] > figures["allowed_ma"]:
            raise PowerError(
                "board %s: needs up to %d mA but its %s" % (name, int(figures["worst_ma"] + 0.5), _supply(figures))
            )
        return 1.0
    level = spec.get("brightness", 1.0) if brightness is None else brightness
    if not 0 < level <= 1:
        raise PowerError("board %s: brightness must be above 0 and at most 1, not %s" % (name, level))
    need = worst_ma(figures, level)
    if need > figures["allowed_ma"]:
        raise PowerError(
            "board %s: brightness %.2f needs up to %d mA (%d pixels x %d mA x %.2f + %d mA dark + %d mA board) "
            "but its %s: brightness at most %.2f"
            % (
                name,
                level,
                int(need + 0.5),
                figures["lamps"],
                PIXEL_MA,
                level,
                figures["dark_ma"],
                figures["board_ma"],
                _supply(figures),
                figures["cap"],
            )
        )
    return level
