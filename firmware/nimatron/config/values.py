# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every setting's default and its check: one value at a time.

Apart from ``settings`` (the presets and ``resolve``) so that a board's
``SET`` loads each in a pass of its own: a module's load is a tick's work
there (``config.settings`` whole took most of a pass on pico-grid),
and a ``SET`` of one value checks only that value.

    >>> check_value("remote_play", "on"), check_value("think_ms", "500")
    (True, 500)
"""

from .. import ascii_digits
from ..games.rules import MAX_HEAPS, RulesError, parse_rules

from . import SettingsError

DIFFICULTIES = ("perfect", "fallible", "equalizer", "teach")
FIRST = ("visitor", "machine", "alternate")

DEFAULTS = {
    "preset": "nimatron",
    "rules": "nim",
    "misere": False,
    "starts": [[3, 4, 5, 7]],
    "layout": None,  # lamps per row; None: the board's own
    "difficulty": "perfect",
    "error_rate": 30,  # percent of machine moves that are random (fallible)
    "first": "visitor",
    "think_ms": 1500,  # the machine's deliberate pause, as the relays clacked
    "show_ms": 1600,  # the lamps it takes blink this long, then go out
    "over_ms": 15000,  # NIM CHAMP (or machine wins) display, then attract
    "walkaway_ms": 60000,  # no input this long mid-game: abandoned
    "hint_ms": 8000,  # teach: a hesitation this long shows the winning move
    "refuse_ms": 500,  # how long a refused press or selection flashes
    "debounce_ms": 30,
    "explain": False,  # Nimrod: reasoning on the text link and panel
    "counter": False,  # one heap shown as the count so far, in binary (nimatron.panels.counter)
    "seed": 1940,
    "remote_play": False,  # allow `nimatron play` over the serial link
    "operator_pin": "",  # if set, SET needs UNLOCK first
    "volume": 5,  # boards with a speaker or buzzer: 0 mute .. 10 loudest
    "brightness": None,  # NeoPixel brightness 0-1; None: the pin map's (capped by power.py)
    "still_ms": 10000,  # "still playing?": the last this-long of walkaway_ms counts down (0: off)
    "stuck_ms": 10000,  # a button held this long is stuck: ignored until released
    "check_switch_games": 30,  # a row button not pressed in this many games is flagged (0: off)
}

# Checks per key: (kind, low, high) for ints, or a tuple of allowed values.
_INT = {
    "error_rate": (0, 100),
    "think_ms": (0, 60000),
    "show_ms": (0, 60000),
    "over_ms": (1000, 3600000),
    "walkaway_ms": (5000, 3600000),
    "hint_ms": (1000, 600000),
    "refuse_ms": (100, 5000),
    # A floor above the longest switch bounce (7 ms in the simulator's model,
    # up to ~10 ms for a worn arcade switch): below it one press takes two lamps.
    "debounce_ms": (10, 200),
    "seed": (0, 2**30),
    "volume": (0, 10),
    "still_ms": (0, 60000),
    "stuck_ms": (6000, 3600000),
    "check_switch_games": (0, 10000),
}
PIN_DIGITS = (4, 12)  # operator PIN: 4 to 12 ASCII digits, or "" for none
MAX_STARTS = 32  # starts in rotation (each is checked at start-up)
_BOOL = ("misere", "explain", "remote_play", "counter")
_CHOICE = {"difficulty": DIFFICULTIES, "first": FIRST}

# Settings an operator may change (everything but the preset's identity).
KEYS = tuple(sorted(DEFAULTS))


def check_value(key, value):
    """The value converted to its proper type, or SettingsError (a preset's
    name: ``settings.check_value``, beside the presets file it is looked up in)."""
    if key not in DEFAULTS:
        raise SettingsError("unknown setting %r" % key)
    if key in _BOOL:
        if isinstance(value, str):
            word = value.lower()
            if word in ("1", "true", "on", "yes"):
                return True
            if word in ("0", "false", "off", "no"):
                return False
        if isinstance(value, bool):
            return value
        raise SettingsError("%s must be on or off" % key)
    if key in _INT:
        value = whole_number(key, value)
        low, high = _INT[key]
        if not low <= value <= high:
            raise SettingsError("%s must be between %d and %d" % (key, low, high))
        return value
    if key in _CHOICE:
        if value not in _CHOICE[key]:
            raise SettingsError("%s must be one of %s" % (key, ", ".join(_CHOICE[key])))
        return value
    if key == "rules":
        try:
            return parse_rules(value).spec
        except RulesError as e:
            raise SettingsError(str(e))
    if key in ("starts", "layout"):
        return _lamp_lists(key, value)
    if key == "brightness":
        if value is None or value in ("default", "null", ""):
            return None
        try:
            if isinstance(value, bool):
                raise ValueError
            value = float(value)
        except (TypeError, ValueError):
            raise SettingsError("brightness must be a number above 0 and at most 1 (or default)")
        if not 0 < value <= 1:
            raise SettingsError("brightness must be above 0 and at most 1")
        return value
    if key == "operator_pin":
        return check_pin(value)
    raise SettingsError("cannot set %s" % key)


def whole_number(key, value):
    """An int from an int or a string of ASCII digits, else SettingsError.

    Floats are refused, never truncated (1.5, 2.0, 1e999, Infinity, NaN:
    a whole number is written without a point); so are bools and digits
    of other scripts ("١٢"), which the serial link could never type back.
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text[:1] == "-" else text
        if 0 < len(digits) <= 12 and ascii_digits(digits):
            return int(text)
    raise SettingsError("%s must be a whole number (digits 0-9), got %s" % (key, _brief(value)))


def check_pin(value):
    """The operator PIN as a string: "" (no PIN) or 4-12 ASCII digits."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        value = str(value)  # SET operator_pin 4711 arrives as a JSON number
    low, high = PIN_DIGITS
    if not isinstance(value, str) or (value and not (low <= len(value) <= high and ascii_digits(value))):
        raise SettingsError("operator_pin must be %d to %d digits 0-9 (empty: no PIN)" % (low, high))
    return value


def _lamp_lists(key, value):
    """``starts`` (lists of heap sizes) or ``layout`` (lamps per row), checked."""
    if value is None and key == "layout":
        return None
    if key == "starts" and isinstance(value, list) and value and isinstance(value[0], int):
        value = [value]  # one start given as a plain list
    if not isinstance(value, list) or not value:
        raise SettingsError("%s must be a non-empty list" % key)
    rows = [value] if key == "layout" else value
    if len(rows) > MAX_STARTS:
        raise SettingsError("%s: at most %d starts" % (key, MAX_STARTS))
    for item in rows:
        if not isinstance(item, list) or not item:
            raise SettingsError("%s must hold lists of lamp counts" % key)
        if len(item) > MAX_HEAPS:
            raise SettingsError("%s: at most %d rows" % (key, MAX_HEAPS))
        for n in item:
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 255:
                raise SettingsError("%s: %s is not a lamp count (0-255)" % (key, _brief(n)))
    return value


def _brief(value):
    """A value as shown in a message: short, and never a 5,000-digit number."""
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= 24 else text[:20] + "...'"
    if isinstance(value, int) and not isinstance(value, bool):
        return "a number out of range" if not -(10**12) < value < 10**12 else str(value)
    if isinstance(value, float):
        return repr(value)
    return "a " + type(value).__name__


KEEP_ON_PRESET = ("operator_pin", "remote_play", "layout")  # kept when the preset changes
