# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Pin maps: one source of truth per supported board, ``config/pinmaps/NAME.json``.

Read by the firmware (which driver, which pins), the simulator (which pins to
mock) and the wiring diagrams. Pin names are the board's own: ``GPIO17`` for
gpiozero on a Raspberry Pi, ``D10`` / ``GP2`` for CircuitPython's ``board``.

Each board has:
- ``driver``: ``gpiozero`` or ``circuitpython`` (also runs on a Pi via Blinka);
- ``input``: ``rows`` (one button per row, each press puts out one lamp) or
  ``grid`` (a key under every lamp: select lamps, then DONE);
- ``lamps``: discrete LEDs (``{"kind": "leds", "rows": [[pin, ...], ...]}``,
  a fixed layout) or a NeoPixel strip (``{"kind": "neopixel", "pin": ...,
  "pixels": N, "order": "GRB", "status": [i, ...], "first": i, "layout":
  [7, 7, 7, 7]}``; the rows are laid out along the strip after ``first``, so
  a preset may ask for another layout that fits, such as one row of 21);
  ``"shape": "ring"`` marks a ring of pixels for circular Nim;
- ``status``: for LED boards, pins of the four status lamps;
- ``buttons``: role -> pin for ``rows`` input (``row0``..., ``done``, ``new``);
  for ``grid`` input ``matrix`` gives ``keypad.KeyMatrix`` row and column pins
  (key R C sits under lamp R C) and ``buttons`` holds ``done`` and ``new``;
- ``brightness``: the NeoPixel brightness it starts at (the ``brightness``
  setting may change it, up to the cap of the power budget);
- ``supply`` (``{"volts": 5, "amps": 2, "board_ma": 50}``: the supply the
  lamps hang on and what else it feeds), ``logic`` (``{"volts": 3.3,
  "pin_ma": 16, "total_ma": 50}``: the board's pins) and, for discrete LEDs,
  ``led`` (``{"vf": 1.9, "ma": 2}``): the power budget (``nimatron.config.power``)
  and the wiring diagrams' resistor values come from these;
- ``preset``: the preset it starts with.

Boards with their buttons built in (``drivers/onboard_io``: the MacroPad,
the Circuit Playground) may also have: ``keys`` (one pin per key, key k
under pixel k), ``switches`` (slide switches, role -> pin), ``presses``
(a chord ``"a+b"`` or a switch standing for ``done``/``new``), ``holds``
(a button or chord held down for another press: ``{"done": "new"}``),
``cursor`` (``{"move": role, "select": role}``: a cursor over the lamps for
boards with fewer buttons than lamps, see ``drivers/presses``), ``encoder``
(two pins), ``speaker`` (``{"pin", "enable"}``), ``buzzer`` (a pin),
``status_led`` (one LED for "your turn" where no status pixels are left,
then lamp ``status`` is ``[]``), ``display`` (a built-in ``board.DISPLAY``)
``presets`` (the presets an encoder chooses from in attract mode) and
``board_ids`` (CircuitPython's ``board.board_id`` values it fits, which
``nimatron deploy`` reads from ``boot_out.txt``). A
lamp ``map`` gives the pixel of every lamp of the board's own layout.
"""

import os

from .. import ascii_digits, load_json, resource, too_deep
from . import STATUS  # the status lamps, where their users have always found them

FOLDER = "config/pinmaps"

# Pin names each driver can reach: numbered families (prefix, lowest,
# highest), of which one board uses one, and the named pins of boards with
# their parts built in. A name outside them is a typo that would only show
# when the driver opens the pin (or never, on a mock).
PIN_FAMILIES = {
    "gpiozero": (("GPIO", 0, 27),),  # a Raspberry Pi's BCM numbers
    "circuitpython": (
        ("GP", 0, 28),  # Raspberry Pi Pico (RP2040)
        ("D", 0, 27),
    ),  # a Raspberry Pi through Blinka
    "onboard": (
        ("KEY", 1, 12),  # MacroPad RP2040, Circuit Playground
        (
            "NEOPIXEL",
            "BUTTON",
            "BUTTON_A",
            "BUTTON_B",
            "SLIDE_SWITCH",
            "ROTA",
            "ROTB",
            "SPEAKER",
            "SPEAKER_ENABLE",
            "LED",
        ),
    ),
}


class BoardError(ValueError):
    """A pin map that cannot work: a pin used twice, a role left unwired."""


class DriverError(ValueError):
    """A pin map or layout this driver cannot drive, or a pin the board lacks."""


def names():
    """Every board with a pin map, sorted."""
    return sorted([f[:-5] for f in os.listdir(resource(FOLDER)) if f[-5:] == ".json"])


def board(name):
    """The pin map of a board, checked; BoardError names the problem."""
    if not isinstance(name, str) or name not in names():
        raise BoardError("unknown board %r (choose from %s)" % (name, ", ".join(names())))
    path = FOLDER + "/" + name + ".json"
    try:
        spec = load_json(path)
    except (OSError, ValueError) as e:  # unreadable, or not JSON
        raise BoardError("pin map %s: cannot read it (%s)" % (path, e))
    except RuntimeError as e:  # nested past the parser's limits, or the pystack
        raise BoardError("pin map %s: %s" % (path, too_deep(e)))
    check(name, spec)
    return spec


def __getattr__(attr):
    # CPython only (PEP 562): BOARDS, every pin map, for host tools. A board
    # never loads them all: it reads its own file with board().
    if attr == "BOARDS":
        return {name: board(name) for name in names()}
    raise AttributeError(attr)


def layout(spec):
    """Lamps per row of the board's default layout."""
    lamps = spec["lamps"]
    if lamps["kind"] == "leds":
        return [len(row) for row in lamps["rows"]]
    return list(lamps["layout"])


def pins(spec):
    """Every (pin, role) the board uses, for checks and diagrams."""
    out = []
    lamps = spec["lamps"]
    if lamps["kind"] == "leds":
        for r, row in enumerate(lamps["rows"]):
            for i, pin in enumerate(row):
                out.append((pin, "lamp %d %d" % (r, i)))
        for role in STATUS:
            out.append((spec.get("status", {}).get(role), "status " + role))
    else:
        out.append((lamps.get("pin"), "neopixel data"))
    for role, pin in sorted(spec.get("buttons", {}).items()):
        out.append((pin, role))
    for role, pin in sorted(spec.get("switches", {}).items()):
        out.append((pin, role))
    for k, pin in enumerate(spec.get("keys", ())):
        out.append((pin, "key %d" % k))
    for k, pin in enumerate(spec.get("encoder", ())):
        out.append((pin, "encoder %s" % "ab"[k % 2]))
    speaker = spec.get("speaker")
    if speaker:
        out.append((speaker.get("pin"), "speaker"))
        out.append((speaker.get("enable"), "speaker enable"))
    for key in ("buzzer", "status_led"):
        if key in spec:
            out.append((spec[key], key.replace("_", " ")))
    matrix = spec.get("matrix")
    if matrix:
        for i, pin in enumerate(matrix.get("rows", [])):
            out.append((pin, "key row %d" % i))
        for i, pin in enumerate(matrix.get("columns", [])):
            out.append((pin, "key column %d" % i))
    return out


def roles(spec):
    """The input roles a visitor can press on this board."""
    out = ["done", "new"]
    if spec["input"] == "rows":
        out = ["row%d" % i for i in range(len(layout(spec)))] + out
    return out


def reachable(spec):
    """The core's roles the board's buttons can give: directly, by a chord,
    a switch or a hold."""
    out = list(spec.get("buttons", {}))
    for table in ("presses", "holds"):
        out.extend(spec.get(table, {}).values())
    return out


def check(name, spec):
    """BoardError naming the file and the problem, for any pin map that
    cannot run: wrong shapes or types first, then the wiring."""
    where = "pin map %s/%s.json" % (FOLDER, name)
    _check_shape(where, spec)
    seen = {}  # type: dict
    for pin, role in pins(spec):
        if not pin:
            raise BoardError("board %s: %s is not wired to a pin" % (name, role))
        _check_pin(where, spec["driver"], pin, role, seen)
        if pin in seen:
            raise BoardError("board %s: pin %s is used twice (%s and %s)" % (name, pin, seen[pin], role))
        seen[pin] = role
    buttons = reachable(spec)
    for role in roles(spec):
        if role not in buttons:
            raise BoardError("board %s: button %s is not wired to a pin" % (name, role))
    lamps = spec["lamps"]
    if lamps["kind"] == "neopixel":
        used = lamps["first"] + sum(lamps["layout"])
        status = len(lamps["status"])
        if used > lamps["pixels"] or not (status == len(STATUS) or status == 0 and spec.get("status_led")):
            raise BoardError("board %s: the layout needs more pixels than the strip has" % name)
    if spec["input"] == "grid" and not spec.get("cursor"):
        matrix = spec.get("matrix") or {}
        keys = len(matrix.get("rows", [])) * len(matrix.get("columns", [])) + len(spec.get("keys", ()))
        if keys < sum(layout(spec)):
            raise BoardError("board %s: fewer keys than lamps" % name)


def _need(where, ok, what):
    if not ok:
        raise BoardError("%s: %s" % (where, what))


def _ints(value, low, high, empty=False):
    return (
        isinstance(value, list)
        and (empty or len(value) > 0)
        and all(isinstance(n, int) and not isinstance(n, bool) and low <= n <= high for n in value)
    )


def _names(value):
    return isinstance(value, list) and len(value) > 0 and all(isinstance(p, str) for p in value)


def _check_shape(where, spec):
    """Every field a driver, the panel or the simulator reads, with its type."""
    _need(where, isinstance(spec, dict), "must hold a JSON object")
    _need(where, spec.get("driver") in PIN_FAMILIES, "driver must be one of " + ", ".join(sorted(PIN_FAMILIES)))
    _need(where, spec.get("input") in ("rows", "grid"), "input must be rows or grid")
    lamps = spec.get("lamps")
    _need(where, isinstance(lamps, dict), "lamps: missing (an object with kind leds or neopixel)")
    kind = lamps.get("kind")
    if kind == "leds":
        rows = lamps.get("rows")
        _need(
            where,
            isinstance(rows, list) and rows and all(_names(r) for r in rows),
            "lamps.rows must be lists of pin names",
        )
        status = spec.get("status")
        _need(where, isinstance(status, dict), "status: missing (pins of %s)" % ", ".join(STATUS))
    elif kind == "neopixel":
        _need(where, isinstance(lamps.get("pin"), str), "lamps.pin must be a pin name")
        _need(where, _ints([lamps.get("pixels")], 1, 1024), "lamps.pixels must be a whole number 1-1024")
        _need(where, _ints([lamps.get("first")], 0, 1023), "lamps.first must be a whole number")
        _need(where, _ints(lamps.get("layout"), 1, 255), "lamps.layout must be a list of lamp counts 1-255")
        _need(
            where,
            _ints(lamps.get("status"), 0, lamps["pixels"] - 1, True),
            "lamps.status must be pixel numbers below %d" % lamps["pixels"],
        )
        _need(
            where,
            lamps.get("order", "GRB") in ("GRB", "RGB", "GRBW", "RGBW"),
            "lamps.order must be GRB, RGB, GRBW or RGBW",
        )
    else:
        _need(where, False, "lamps.kind must be leds or neopixel")
    buttons = spec.get("buttons")
    _need(
        where,
        isinstance(buttons, dict) and all(isinstance(p, str) for p in buttons.values()),
        "buttons must map roles to pin names",
    )
    matrix = spec.get("matrix")
    if matrix is not None or spec["input"] == "grid" and not spec.get("keys") and not spec.get("cursor"):
        _need(
            where,
            isinstance(matrix, dict) and _names(matrix.get("rows")) and _names(matrix.get("columns")),
            "matrix must give rows and columns of pin names",
        )
    for table in ("switches", "presses", "holds"):
        _need(where, isinstance(spec.get(table, {}), dict), "%s must be an object" % table)
    _need(where, spec.get("keys") is None or _names(spec.get("keys")), "keys must be a list of pin names")
    level = spec.get("brightness", 1)
    _need(
        where,
        isinstance(level, (int, float)) and not isinstance(level, bool) and 0 < level <= 1,
        "brightness must be a fraction above 0, at most 1",
    )
    _need(where, isinstance(spec.get("preset", ""), str), "preset must be a preset's name")


def _check_pin(where, driver, pin, role, seen):
    """BoardError unless ``pin`` is a name of the driver's pin families (and
    of the same numbered family as the board's other numbered pins)."""
    family = _family(driver, pin)
    if family is None:
        shown = []
        for f in PIN_FAMILIES[driver]:
            shown.append("%s%d-%s%d" % (f[0], f[1], f[0], f[2]) if isinstance(f[1], int) else ", ".join(f))
        raise BoardError(
            "%s: %s is on pin %r, which this board does not have (%s)" % (where, role, pin, "; ".join(shown))
        )
    for other in seen:
        mine = _family(driver, other)
        if family != mine and isinstance(family[1], int) and isinstance(mine[1], int):
            raise BoardError("%s: %s is on pin %s, another family than %s" % (where, role, pin, other))


def _family(driver, pin):
    """The family of PIN_FAMILIES[driver] ``pin`` belongs to, or None."""
    if not isinstance(pin, str):
        return None
    for family in PIN_FAMILIES[driver]:
        if isinstance(family[1], int):
            prefix, low, high = family
            number = pin[len(prefix) :]
            if pin[: len(prefix)] == prefix and ascii_digits(number) and low <= int(number) <= high:
                return family
        elif pin in family:
            return family
    return None
